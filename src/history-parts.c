/* history-parts: what the panes other than the profile's show, kept per
 * interval: counters (per scope), latency histograms (the interval's
 * buckets only), probe hits and trace counts as (key id, value) over row
 * identities shared by every interval, and the system's numbers as one
 * small block. Deltas of what a frame holds since start (latency, hits)
 * are taken against the previous frame's values. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history-impl.h"
#include "tracetop/frame.h"
#include "tracetop/util.h"

/* Hash of an identity's bytes. */
static uint64_t
hpid_hash(const struct hpid *id)
{
	const unsigned char *p = (const unsigned char *)id;
	uint64_t h = HASH_SEED;

	for (size_t i = 0; i + 8 <= sizeof *id; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		h = hash_mix(h, w);
	}
	return hash_u64(h);
}

/* The slot of identity id, or the empty one for it. */
static size_t
hp_slot(const struct hparts_shared *s, const struct hpid *id)
{
	size_t i = hpid_hash(id) & s->mask;

	while (s->slot[i] != 0 && memcmp(&s->keys[s->slot[i]].id, id, sizeof *id) != 0)
		i = (i + 1) & s->mask;
	return i;
}

/* Index every identity again, in slots for twice as many. */
static void
hp_reindex(struct hparts_shared *s)
{
	size_t want = 64;

	while (want < 2 * s->nkeys + 2)
		want *= 2;
	free(s->slot);
	s->slot = xcalloc(want, sizeof *s->slot);
	s->mask = want - 1;
	for (size_t k = 1; k <= s->nkeys; k++)
		s->slot[hp_slot(s, &s->keys[k].id)] = (uint32_t)k;
}

/* The key of identity id, made on first sight; its look is the caller's
 * to set. */
static uint32_t
hp_key(struct hparts_shared *s, const struct hpid *id)
{
	size_t i;

	if (s->slot == NULL)
		hp_reindex(s);
	i = hp_slot(s, id);
	if (s->slot[i] != 0)
		return s->slot[i];
	if (s->nkeys + 1 >= s->keys_cap) {
		s->keys_cap = s->keys_cap < 64 ? 64 : 2 * s->keys_cap;
		s->keys = xrealloc(s->keys, s->keys_cap * sizeof *s->keys);
	}
	memset(&s->keys[++s->nkeys], 0, sizeof *s->keys);
	s->keys[s->nkeys].id = *id;
	if (2 * s->nkeys + 2 > s->mask + 1)
		hp_reindex(s);
	else
		s->slot[i] = (uint32_t)s->nkeys;
	return (uint32_t)s->nkeys;
}

/* Append a value to the scratch list. */
static void
val_add(struct hparts_shared *s, size_t *n, uint32_t key, double v, double total, float extra)
{
	s->vals = room(s->vals, &s->vals_cap, *n + 1, sizeof *s->vals);
	s->vals[(*n)++] = (struct hpval){.key = key, .extra = extra, .v = v, .total = total};
}

/* The counters of every scope the frame took. */
static void
take_counters(struct hparts_shared *s, struct hparts *p, const struct frame *f, size_t *n)
{
	p->taken = f->counters.taken;
	for (unsigned sc = 0; sc < COUNTERS_NSCOPES; sc++) {
		const struct counters_snapshot *snap = &f->counters.scopes[sc];

		if (!(f->counters.taken & (1u << sc)))
			continue;
		p->counters_elapsed = snap->elapsed;
		for (size_t i = 0; i < snap->n; i++) {
			const struct counters_row *r = &snap->rows[i];
			struct hpid id = {0};
			struct hpkey *k;
			uint32_t key;

			id.part = HP_COUNTER + sc;
			id.a = (int32_t)r->kind;
			id.b = r->cpu;
			id.c = r->pid;
			id.s1 = r->event;
			id.s2 = r->metric ? r->note : NULL;
			snprintf(id.str, sizeof id.str, "%s", r->scope);
			key = hp_key(s, &id); /* before s->keys: it may move */
			k = &s->keys[key];
			memcpy(k->u.counter.comm, r->comm, sizeof k->u.counter.comm);
			k->u.counter.reason = r->reason;
			k->u.counter.note = r->note;
			k->u.counter.cgroup = r->cgroup;
			k->u.counter.event_idx = (uint32_t)r->event_idx;
			k->u.counter.exited = r->exited;
			k->u.counter.supported = r->supported;
			k->u.counter.metric = r->metric;
			k->u.counter.percent = r->percent;
			k->u.counter.nsec = r->nsec;
			val_add(s, n, key, r->value, r->total, (float)r->share);
		}
	}
}

/* The previous cumulative values of key, or NULL. */
static const struct hpprev *
prev_find(const struct hparts_shared *s, uint32_t key)
{
	size_t lo = 0, hi = s->nprev;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->prev[mid].key == key)
			return &s->prev[mid];
		if (s->prev[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Remember key's cumulative values for the next frame's deltas. */
static struct hpprev *
prev_next(struct hparts_shared *s, size_t *n, uint32_t key)
{
	s->prev2 = room(s->prev2, &s->prev2_cap, *n + 1, sizeof *s->prev2);
	s->prev2[*n] = (struct hpprev){.key = key};
	return &s->prev2[(*n)++];
}

/* Remember a latency row's histogram: its non-empty buckets. */
static void
prev_hist(struct hparts_shared *s, struct hpprev *pv, const struct lat_hist *h)
{
	pv->count = h->count;
	pv->errors = h->errors;
	pv->total = h->total;
	pv->min = h->min;
	pv->max = h->max;
	pv->at = s->npb2;
	for (unsigned b = 0; b < LAT_BUCKETS; b++) {
		if (h->buckets[b] == 0)
			continue;
		s->pb2 = room(s->pb2, &s->pb2_cap, s->npb2 + 1, sizeof *s->pb2);
		s->pb2[s->npb2++] =
		    (struct hpbucket){.count = h->buckets[b], .sum = h->sums[b], .b = b};
		pv->nb++;
	}
}

/* The values a latency row got since the previous frame (all of them
 * when it is new or its histogram started again). */
static void
lat_delta(struct hparts_shared *s, size_t *nl, size_t *nb, uint32_t key, const struct lat_hist *cur,
          const struct hpprev *pv)
{
	const struct hpprev *old = pv != NULL && pv->count <= cur->count ? pv : NULL;
	const struct hpbucket *ob = old != NULL ? &s->pb[old->at] : NULL;
	uint32_t j = 0;
	struct hplat *l;
	unsigned first = LAT_BUCKETS, last = 0;

	if (old != NULL && old->count == cur->count)
		return;
	s->lats = room(s->lats, &s->lats_cap, *nl + 1, sizeof *s->lats);
	l = &s->lats[(*nl)++];
	*l = (struct hplat){.key = key,
	                    .count = cur->count - (old ? old->count : 0),
	                    .errors = cur->errors - (old ? old->errors : 0),
	                    .total = cur->total - (old ? old->total : 0)};
	for (unsigned b = 0; b < LAT_BUCKETS; b++) {
		uint64_t c = cur->buckets[b], sum = cur->sums[b];

		while (old != NULL && j < old->nb && ob[j].b < b)
			j++;
		if (old != NULL && j < old->nb && ob[j].b == b && ob[j].count <= c) {
			c -= ob[j].count;
			sum -= ob[j].sum;
		}
		if (c == 0)
			continue;
		s->buckets = room(s->buckets, &s->buckets_cap, *nb + 1, sizeof *s->buckets);
		s->buckets[(*nb)++] = (struct hpbucket){.count = c, .sum = sum, .b = b};
		l->nb++;
		first = b < first ? b : first;
		last = b;
	}
	/* a new extreme is the interval's; else its buckets' bounds, within
	 * the extremes seen */
	if (old == NULL || cur->min < old->min)
		l->min = cur->min;
	else
		l->min = first < LAT_BUCKETS && lat_bucket_low(first) > cur->min
		             ? lat_bucket_low(first)
		             : cur->min;
	if (old == NULL || cur->max > old->max)
		l->max = cur->max;
	else
		l->max = lat_bucket_low(last + 1) - 1 < cur->max ? lat_bucket_low(last + 1) - 1
		                                                 : cur->max;
}

/* The latency rows' values of the interval. */
static void
take_latency(struct hparts_shared *s, const struct frame *f, size_t *nl, size_t *nb, size_t *np)
{
	for (size_t i = 0; i < f->latency.nrows; i++) {
		const struct lat_row *r = &f->latency.rows[i];
		struct hpid id = {0};
		struct hpkey *k;
		uint32_t key;

		id.part = HP_LAT;
		id.a = (int32_t)r->kind;
		id.b = r->pid;
		id.c = r->tid;
		id.s1 = r->name;
		id.s2 = r->stack;
		key = hp_key(s, &id);
		k = &s->keys[key];
		memcpy(k->u.comm, r->comm, sizeof k->u.comm);
		lat_delta(s, nl, nb, key, &r->hist, prev_find(s, key));
		prev_hist(s, prev_next(s, np, key), &r->hist);
	}
}

/* The probes' hits of the interval. */
static void
take_probes(struct hparts_shared *s, const struct frame *f, size_t *n, size_t *np)
{
	for (size_t i = 0; i < f->probes.n; i++) {
		const struct probes_row *r = &f->probes.rows[i];
		struct hpid id = {.part = HP_PROBE};
		const struct hpprev *pv;
		struct hpkey *k;
		uint32_t key;
		uint64_t d;

		if (r->name == NULL)
			continue;
		id.s1 = str_intern(r->name);
		key = hp_key(s, &id);
		k = &s->keys[key];
		k->u.probe.target = r->target != NULL ? str_intern(r->target) : NULL;
		k->u.probe.state = r->state != NULL ? str_intern(r->state) : NULL;
		k->u.probe.kind = r->kind;
		k->u.probe.enabled = r->enabled;
		k->u.probe.ours = r->ours;
		pv = prev_find(s, key);
		d = pv != NULL && pv->count <= r->hits ? r->hits - pv->count : r->hits;
		val_add(s, n, key, (double)d, (double)r->hits, 0);
		prev_next(s, np, key)->count = r->hits;
	}
}

/* The trace's per-event counts and where the interval's entries lie. */
static void
take_trace(struct hparts_shared *s, struct hparts *p, const struct frame *f, size_t *n)
{
	for (size_t i = 0; i < f->trace.nevents; i++) {
		const struct stream_event_info *e = &f->trace.events[i];
		struct hpid id = {.part = HP_TRACE, .a = e->id, .s1 = e->name};

		val_add(s, n, hp_key(s, &id), (double)e->interval, (double)e->total,
		        (float)e->total_rate);
	}
	p->trace_from = s->trace_seen ? s->trace_end : f->trace.first_seq;
	if (p->trace_from > f->trace.end_seq)
		p->trace_from = f->trace.end_seq; /* the stream started again */
	p->trace_end = s->trace_end = f->trace.end_seq;
	s->trace_seen = true;
}

/* A disk's numbers. */
static void
sys_disk(struct hsys_disk *d, const struct system_disk *x, const struct frame_system *fs)
{
	d->name = str_intern(x->name);
	d->parent = x->parent >= 0 && (size_t)x->parent < fs->ndisks
	                ? str_intern(fs->disks[x->parent].name)
	                : NULL;
	d->in_total = x->in_total;
	d->used = x->used;
	d->f[HD_READS] = (float)x->reads_s;
	d->f[HD_WRITES] = (float)x->writes_s;
	d->f[HD_RBYTES] = (float)x->read_bytes_s;
	d->f[HD_WBYTES] = (float)x->write_bytes_s;
	d->f[HD_AWAIT] = (float)x->await_ms;
	d->f[HD_QUEUE] = (float)x->queue;
	d->f[HD_UTIL] = (float)x->util;
	d->read_bytes = x->read_bytes;
	d->write_bytes = x->write_bytes;
	d->inflight = x->inflight;
}

/* An interface's numbers. */
static void
sys_net(struct hsys_net *d, const struct system_net *x)
{
	d->name = str_intern(x->name);
	d->f[HN_RX] = (float)x->rx_bytes_s;
	d->f[HN_TX] = (float)x->tx_bytes_s;
	d->f[HN_RXP] = (float)x->rx_packets_s;
	d->f[HN_TXP] = (float)x->tx_packets_s;
	d->rx_bytes = x->rx_bytes;
	d->tx_bytes = x->tx_bytes;
	d->errors = x->errors;
	d->drops = x->drops;
	d->errors_all = x->errors_all;
	d->drops_all = x->drops_all;
}

/* A CPU's shares. */
static void
sys_cpu(struct hsys_cpu *d, const struct system_cpu *x)
{
	d->cpu = x->cpu;
	for (int i = 0; i < SYS_CPU_NFIELDS; i++)
		d->f[i] = (float)x->pct[i];
	d->f[HC_BUSY] = (float)x->busy;
	d->f[HC_BUSY_CPUS] = (float)x->busy_cpus;
}

/* The system's numbers of the interval as one block (the tables of
 * disks and interfaces only when the frame has them). */
static struct hsys *
take_system(const struct frame_system *fs)
{
	size_t nd = fs->rows ? fs->ndisks : 0, nn = fs->rows ? fs->nnets : 0;
	struct hsys *y = xcalloc(1, sizeof *y + fs->ncpus * sizeof *y->cpus +
	                                nd * sizeof *y->disks + nn * sizeof *y->nets);

	y->cpus = (struct hsys_cpu *)(y + 1);
	y->disks = (struct hsys_disk *)(y->cpus + fs->ncpus);
	y->nets = (struct hsys_net *)(y->disks + nd);
	y->ncpus = (uint32_t)fs->ncpus;
	y->ndisks = (uint32_t)nd;
	y->nnets = (uint32_t)nn;
	y->columns = fs->total.columns;
	y->readings = fs->readings;
	y->elapsed = fs->elapsed;
	sys_cpu(&y->total, &fs->total);
	for (size_t i = 0; i < fs->ncpus; i++)
		sys_cpu(&y->cpus[i], &fs->cpus[i]);
	memcpy(y->mem, fs->mem.kib, sizeof y->mem);
	for (int i = 0; i < SYSTEM_VM_NFIELDS; i++)
		y->vm[i] = (float)fs->vm.rate[i];
	memcpy(y->misc, fs->misc.v, sizeof y->misc);
	memcpy(y->count, fs->misc.count, sizeof y->count);
	sys_disk(&y->disk_total, &fs->disk_total, fs);
	sys_net(&y->net_total, &fs->net_total);
	for (size_t i = 0; i < nd; i++)
		sys_disk(&y->disks[i], &fs->disks[i], fs);
	for (size_t i = 0; i < nn; i++)
		sys_net(&y->nets[i], &fs->nets[i]);
	return y;
}

/* Order of values by key. */
int
hpval_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct hpval *)a)->key, y = ((const struct hpval *)b)->key;

	return x < y ? -1 : x > y;
}

/* Order of latency rows and deltas by key. */
static int
prev_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct hpprev *)a)->key, y = ((const struct hpprev *)b)->key;

	return x < y ? -1 : x > y;
}

/* A copy of n elements of size, or NULL for none. */
static void *
copy_of(const void *p, size_t n, size_t size)
{
	return n > 0 ? memcpy(xmalloc(n * size), p, n * size) : NULL;
}

/* Take frame f's parts into p. */
void
hparts_take(struct hparts_shared *s, struct hparts *p, const struct frame *f, bool rows)
{
	size_t nv = 0, nl = 0, nb = 0, np = 0;
	bool deltas = rows && (f->has_latency || f->has_probes);

	memset(p, 0, sizeof *p);
	if (f->has_system && f->system.readings >= 2)
		p->sys = take_system(&f->system);
	if (!rows)
		return;
	if (f->has_counters) {
		take_counters(s, p, f, &nv);
		p->has |= HP_HAS_COUNTERS;
	}
	if (f->has_probes) {
		take_probes(s, f, &nv, &np);
		p->has |= HP_HAS_PROBES;
	}
	if (f->has_trace && f->trace.log != NULL) {
		take_trace(s, p, f, &nv);
		p->has |= HP_HAS_TRACE;
	}
	if (f->has_latency && s->lat_off == 0 && f->latency.nrows > HPARTS_MAX_LAT_ROWS)
		s->lat_off = f->latency.nrows; /* for good: deltas need every row's last values */
	if (f->has_latency && s->lat_off == 0) {
		take_latency(s, f, &nl, &nb, &np);
		p->has |= HP_HAS_LAT;
	}
	qsort(s->vals, nv, sizeof *s->vals, hpval_cmp);
	p->vals = copy_of(s->vals, nv, sizeof *s->vals);
	p->lats = copy_of(s->lats, nl, sizeof *s->lats);
	p->buckets = copy_of(s->buckets, nb, sizeof *s->buckets);
	p->nvals = (uint32_t)nv;
	p->nlats = (uint32_t)nl;
	p->nbuckets = (uint32_t)nb;
	if (deltas) {
		struct hpprev *t = s->prev;
		struct hpbucket *tb = s->pb;
		size_t c = s->prev_cap, cb = s->pb_cap;

		qsort(s->prev2, np, sizeof *s->prev2, prev_cmp);
		s->prev = s->prev2;
		s->prev_cap = s->prev2_cap;
		s->nprev = np;
		s->pb = s->pb2;
		s->pb_cap = s->pb2_cap;
		s->npb = s->npb2;
		s->prev2 = t;
		s->prev2_cap = c;
		s->pb2 = tb;
		s->pb2_cap = cb;
	}
	s->npb2 = 0;
}

/* Bytes of an interval's parts. */
size_t
hparts_bytes(const struct hparts *p)
{
	size_t b = p->nvals * sizeof *p->vals + p->nlats * sizeof *p->lats +
	           p->nbuckets * sizeof *p->buckets;

	if (p->sys != NULL)
		b += sizeof *p->sys + p->sys->ncpus * sizeof *p->sys->cpus +
		     p->sys->ndisks * sizeof *p->sys->disks + p->sys->nnets * sizeof *p->sys->nets;
	return b;
}

/* Bytes of the shared part. */
size_t
hparts_shared_bytes(const struct hparts_shared *s)
{
	return s->keys_cap * sizeof *s->keys + (s->slot ? s->mask + 1 : 0) * sizeof *s->slot +
	       (s->prev_cap + s->prev2_cap) * sizeof *s->prev +
	       (s->pb_cap + s->pb2_cap) * sizeof *s->pb + s->vals_cap * sizeof *s->vals +
	       s->lats_cap * sizeof *s->lats + s->buckets_cap * sizeof *s->buckets;
}

/* Free an interval's parts. */
void
hparts_free(struct hparts *p)
{
	free(p->vals);
	free(p->lats);
	free(p->buckets);
	free(p->sys);
	memset(p, 0, sizeof *p);
}

/* Free the shared part. */
void
hparts_shared_free(struct hparts_shared *s)
{
	free(s->keys);
	free(s->slot);
	free(s->prev);
	free(s->prev2);
	free(s->pb);
	free(s->pb2);
	free(s->vals);
	free(s->lats);
	free(s->buckets);
	memset(s, 0, sizeof *s);
}

/* Whether over half the identities are no longer used. */
bool
hparts_sparse(const struct hparts_shared *s)
{
	return s->nkeys > 2 * s->live + 256;
}

/* Keep the identities in use, renumbered in their order. */
void
hparts_compact(struct hparts_shared *s, struct hparts *const *ivs, size_t n)
{
	uint32_t *map = xcalloc(s->nkeys + 1, sizeof *map);
	size_t nk = 0;

	for (size_t i = 0; i < n; i++) {
		for (uint32_t v = 0; v < ivs[i]->nvals; v++)
			map[ivs[i]->vals[v].key] = 1;
		for (uint32_t l = 0; l < ivs[i]->nlats; l++)
			map[ivs[i]->lats[l].key] = 1;
	}
	for (size_t i = 0; i < s->nprev; i++)
		map[s->prev[i].key] = 1;
	for (size_t k = 1; k <= s->nkeys; k++)
		if (map[k] != 0) {
			map[k] = (uint32_t)++nk;
			s->keys[nk] = s->keys[k];
		}
	for (size_t i = 0; i < n; i++) {
		for (uint32_t v = 0; v < ivs[i]->nvals; v++)
			ivs[i]->vals[v].key = map[ivs[i]->vals[v].key];
		for (uint32_t l = 0; l < ivs[i]->nlats; l++)
			ivs[i]->lats[l].key = map[ivs[i]->lats[l].key];
	}
	for (size_t i = 0; i < s->nprev; i++)
		s->prev[i].key = map[s->prev[i].key];
	s->nkeys = s->live = nk;
	if (s->keys_cap > 2 * nk + 128) {
		s->keys_cap = nk + nk / 2 + 64;
		s->keys = xrealloc(s->keys, s->keys_cap * sizeof *s->keys);
	}
	hp_reindex(s);
	free(map);
}
