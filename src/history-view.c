/* history-view: intervals' parts (src/history-parts.c) added up into the
 * parts of a frame the panes and reports read like a live one: counts
 * summed, rates over the range's seconds, histograms merged, states as
 * at the range's end. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history-impl.h"
#include "tracetop/history.h"
#include "tracetop/util.h"

/* What the panes show of a part the history does not keep. */
#define VIEW_NOT_KEPT "not kept in the history: L returns to now"

/* The range being added up, and the intervals up to its end for the
 * counters' sparklines (all[0..nall), the range its last n). */
struct view {
	const struct hparts_shared *s;
	const struct hparts *const *ivs;
	const double *secs;
	size_t n;
	const struct hparts *const *all;
	size_t nall;
	uint32_t *at; /* key id -> row index + 1 */
};

/* A value averaged over seconds. */
struct wsum {
	double v, w;
};

/* Add n rates or shares of secs (NaN: not known then). */
static void
wadd(struct wsum *a, const float *f, size_t n, double secs)
{
	for (size_t i = 0; i < n; i++)
		if (!isnan(f[i])) {
			a[i].v += (double)f[i] * secs;
			a[i].w += secs;
		}
}

/* The average, NaN when never known. */
static double
wget(const struct wsum *a)
{
	return a->w > 0 ? a->v / a->w : NAN;
}

/* Seconds of the intervals that took the parts in has. */
static double
view_secs(const struct view *v, unsigned has)
{
	double t = 0;

	for (size_t i = 0; i < v->n; i++)
		if (v->ivs[i]->has & has)
			t += v->secs[i];
	return t;
}

/* A counters row as its key says it looked (its numbers zero). */
static void
view_counter_row(const struct hpkey *k, struct counters_row *r)
{
	memset(r, 0, sizeof *r);
	r->event = k->id.s1;
	snprintf(r->scope, sizeof r->scope, "%s", k->id.str);
	r->kind = (enum counters_scope)k->id.a;
	r->cpu = k->id.b;
	r->pid = k->id.c;
	memcpy(r->comm, k->u.counter.comm, sizeof r->comm);
	r->exited = k->u.counter.exited;
	r->supported = k->u.counter.supported;
	r->reason = k->u.counter.reason;
	r->metric = k->u.counter.metric;
	r->note = k->u.counter.note;
	r->percent = k->u.counter.percent;
	r->nsec = k->u.counter.nsec;
	r->event_idx = k->u.counter.event_idx;
	r->cgroup = k->u.counter.cgroup;
}

/* The rows' values in the intervals up to the range's end (the last
 * COUNTERS_HISTORY of them), oldest first: their sparklines. */
static void
view_sparklines(struct view *v, unsigned sc, struct counters_snapshot *snap)
{
	size_t skip = v->nall > COUNTERS_HISTORY ? v->nall - COUNTERS_HISTORY : 0;
	size_t nh = v->nall - skip;

	if (snap->n == 0)
		return;
	snap->hist = xcalloc(snap->n * COUNTERS_HISTORY, sizeof *snap->hist);
	for (size_t r = 0; r < snap->n; r++) {
		snap->rows[r].history = &snap->hist[r * COUNTERS_HISTORY];
		snap->rows[r].nhist = nh;
	}
	for (size_t i = skip; i < v->nall; i++)
		for (uint32_t k = 0; k < v->all[i]->nvals; k++) {
			const struct hpval *x = &v->all[i]->vals[k];

			if (v->s->keys[x->key].id.part == HP_COUNTER + sc && v->at[x->key] != 0)
				snap->hist[(v->at[x->key] - 1) * COUNTERS_HISTORY + i - skip] =
				    x->v;
		}
}

/* The counters of scope sc. */
static void
view_counters_scope(struct view *v, unsigned sc, struct counters_snapshot *snap)
{
	double secs = view_secs(v, HP_HAS_COUNTERS);
	struct wsum *w = NULL;
	size_t wcap = 0;

	snap->scope = (enum counters_scope)sc;
	snap->interval = secs;
	memset(v->at, 0, (v->s->nkeys + 1) * sizeof *v->at);
	for (size_t i = v->n; i-- > 0;) {
		const struct hparts *p = v->ivs[i];

		if (snap->elapsed == 0 && (p->taken & (1u << sc)))
			snap->elapsed = p->counters_elapsed;
		for (uint32_t k = 0; k < p->nvals; k++) {
			const struct hpval *x = &p->vals[k];
			const struct hpkey *key = &v->s->keys[x->key];
			struct counters_row *r;

			if (key->id.part != HP_COUNTER + sc)
				continue;
			if (v->at[x->key] == 0) {
				if (snap->n == snap->cap) {
					snap->cap = snap->cap < 16 ? 16 : 2 * snap->cap;
					snap->rows =
					    xrealloc(snap->rows, snap->cap * sizeof *snap->rows);
				}
				w = room(w, &wcap, 2 * snap->cap, sizeof *w);
				view_counter_row(key, &snap->rows[snap->n]);
				snap->rows[snap->n].total = x->total; /* the newest */
				w[2 * snap->n] = w[2 * snap->n + 1] = (struct wsum){0, 0};
				v->at[x->key] = (uint32_t)++snap->n;
			}
			r = &snap->rows[v->at[x->key] - 1];
			if (r->metric) {
				float f = (float)x->v;

				wadd(&w[2 * (v->at[x->key] - 1)], &f, 1, v->secs[i]);
			} else {
				r->value += x->v;
			}
			wadd(&w[2 * (v->at[x->key] - 1) + 1], &x->extra, 1, v->secs[i]);
		}
	}
	view_sparklines(v, sc, snap);
	for (size_t r = 0; r < snap->n; r++) {
		struct counters_row *row = &snap->rows[r];

		if (row->metric)
			row->value = w[2 * r].w > 0 ? wget(&w[2 * r]) : 0;
		else
			row->rate = secs > 0 ? row->value / secs : 0;
		row->share = w[2 * r + 1].w > 0 ? wget(&w[2 * r + 1]) : 1;
	}
	free(w);
}

/* The counters of every scope some interval took. */
static void
view_counters(struct view *v, struct frame *out)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->ivs[i]->has & HP_HAS_COUNTERS)
			out->counters.taken |= v->ivs[i]->taken;
	for (unsigned sc = 0; sc < COUNTERS_NSCOPES; sc++)
		if (out->counters.taken & (1u << sc))
			view_counters_scope(v, sc, &out->counters.scopes[sc]);
}

/* Rows of the values of part: the sum of the range in v, the newest
 * since-start value and extra in total and extra (a malloc'd array). */
static struct hpval *
view_vals(struct view *v, uint32_t part, size_t *n)
{
	struct hpval *rows = NULL;
	size_t cap = 0;

	*n = 0;
	memset(v->at, 0, (v->s->nkeys + 1) * sizeof *v->at);
	for (size_t i = v->n; i-- > 0;)
		for (uint32_t k = 0; k < v->ivs[i]->nvals; k++) {
			const struct hpval *x = &v->ivs[i]->vals[k];

			if (v->s->keys[x->key].id.part != part)
				continue;
			if (v->at[x->key] == 0) {
				rows = room(rows, &cap, *n + 1, sizeof *rows);
				rows[*n] = *x;
				rows[*n].v = 0;
				v->at[x->key] = (uint32_t)++ * n;
			}
			rows[v->at[x->key] - 1].v += x->v;
		}
	return rows;
}

/* The probes' hits of the range. */
static void
view_probes(struct view *v, const struct frame *live, struct frame *out)
{
	double secs = view_secs(v, HP_HAS_PROBES);
	size_t n;
	struct hpval *rows = view_vals(v, HP_PROBE, &n);

	qsort(rows, n, sizeof *rows, hpval_cmp);
	out->probes.rows = xcalloc(n ? n : 1, sizeof *out->probes.rows);
	out->probes.n = out->probes.cap = n;
	out->probes.interval = secs;
	out->probes.elapsed = live->probes.elapsed;
	for (size_t i = 0; i < n; i++) {
		struct probes_row *r = &out->probes.rows[i];
		const struct hpkey *k = &v->s->keys[rows[i].key];

		memset(r, 0, sizeof *r);
		r->name = k->id.s1;
		r->kind = k->u.probe.kind;
		r->target = k->u.probe.target;
		r->state = k->u.probe.state;
		r->enabled = k->u.probe.enabled;
		r->ours = k->u.probe.ours;
		r->hits = (uint64_t)rows[i].v;
		r->rate = secs > 0 ? rows[i].v / secs : 0;
	}
	free(rows);
}

/* The trace's counts of the range, and its entries while the log holds
 * them. */
static void
view_trace(struct view *v, const struct frame *live, struct frame *out)
{
	double secs = view_secs(v, HP_HAS_TRACE);
	const struct hparts *first = NULL, *last = NULL;
	size_t n;
	struct hpval *rows = view_vals(v, HP_TRACE, &n);

	out->trace = live->trace; /* the log, the stack names, the tracepoints on */
	qsort(rows, n, sizeof *rows, hpval_cmp);
	out->trace.events = xcalloc(n ? n : 1, sizeof *out->trace.events);
	out->trace.nevents = out->trace.events_cap = n;
	for (size_t i = 0; i < n; i++) {
		struct stream_event_info *e = &out->trace.events[i];

		e->name = v->s->keys[rows[i].key].id.s1;
		e->id = v->s->keys[rows[i].key].id.a;
		e->interval = (uint64_t)rows[i].v;
		e->rate = secs > 0 ? rows[i].v / secs : 0;
		e->total = (uint64_t)rows[i].total;
		e->total_rate = rows[i].extra;
	}
	free(rows);
	for (size_t i = 0; i < v->n; i++)
		if (v->ivs[i]->has & HP_HAS_TRACE) {
			first = first ? first : v->ivs[i];
			last = v->ivs[i];
		}
	if (first == NULL) {
		out->trace.start_seq = out->trace.end_seq = out->trace.first_seq;
		out->trace.settled_seq = out->trace.end_seq;
		return;
	}
	out->trace.start_seq = first->trace_from;
	out->trace.end_seq = last->trace_end;
	if (out->trace.first_seq < out->trace.start_seq)
		out->trace.first_seq = out->trace.start_seq;
	if (out->trace.first_seq > out->trace.end_seq)
		out->trace.first_seq = out->trace.end_seq;
	if (out->trace.settled_seq > out->trace.end_seq)
		out->trace.settled_seq = out->trace.end_seq;
}

/* The latency rows of the range, their histograms merged. */
static void
view_latency(struct view *v, const struct frame *live, struct frame *out)
{
	double secs = view_secs(v, HP_HAS_LAT);
	struct frame_latency *fl = &out->latency;

	fl->events = live->latency.events;
	fl->lost = live->latency.lost;
	fl->unpaired = live->latency.unpaired;
	fl->notice = v->s->lat_off != 0 ? "the latency rows grew too many for the history: "
	                                  "not kept since"
	                                : live->latency.notice;
	fl->target = live->latency.target;
	fl->sched_events = live->latency.sched_events;
	fl->sched_lost = live->latency.sched_lost;
	fl->sched_unpaired = live->latency.sched_unpaired;
	fl->sched_notice = live->latency.sched_notice;
	memset(v->at, 0, (v->s->nkeys + 1) * sizeof *v->at);
	for (size_t i = v->n; i-- > 0;) {
		const struct hparts *p = v->ivs[i];
		const struct hpbucket *b = p->buckets;

		for (uint32_t k = 0; k < p->nlats; b += p->lats[k++].nb) {
			const struct hplat *l = &p->lats[k];
			const struct hpkey *key = &v->s->keys[l->key];
			struct lat_row *r;

			if (v->at[l->key] == 0) {
				fl->rows =
				    room(fl->rows, &fl->cap, fl->nrows + 1, sizeof *fl->rows);
				r = &fl->rows[fl->nrows];
				memset(r, 0, sizeof *r);
				r->kind = (enum lat_kind)key->id.a;
				r->name = key->id.s1;
				r->stack = key->id.s2;
				r->pid = key->id.b;
				r->tid = key->id.c;
				memcpy(r->comm, key->u.comm, sizeof r->comm);
				lat_hist_reset(&r->hist);
				v->at[l->key] = (uint32_t)++fl->nrows;
			}
			r = &fl->rows[v->at[l->key] - 1];
			for (uint32_t j = 0; j < l->nb; j++) {
				r->hist.buckets[b[j].b] += b[j].count;
				r->hist.sums[b[j].b] += b[j].sum;
			}
			r->hist.count += l->count;
			r->hist.errors += l->errors;
			r->hist.total += l->total;
			r->hist.min = l->min < r->hist.min ? l->min : r->hist.min;
			r->hist.max = l->max > r->hist.max ? l->max : r->hist.max;
		}
	}
	for (size_t i = 0; i < fl->nrows; i++) {
		fl->rows[i].interval = fl->rows[i].hist.count;
		fl->rows[i].rate = secs > 0 ? (double)fl->rows[i].hist.count / secs : 0;
	}
}

/* The shares of a CPU over the range. */
static void
view_cpu(struct system_cpu *c, const struct wsum *w, int cpu, unsigned columns)
{
	c->cpu = cpu;
	c->columns = columns;
	if (cpu < 0)
		snprintf(c->name, sizeof c->name, "cpu");
	else
		snprintf(c->name, sizeof c->name, "cpu%d", cpu);
	for (int i = 0; i < SYS_CPU_NFIELDS; i++)
		c->pct[i] = wget(&w[i]);
	c->busy = wget(&w[HC_BUSY]);
	c->busy_cpus = wget(&w[HC_BUSY_CPUS]);
}

/* A disk of the range: rates averaged, bytes summed, in flight the last. */
static void
view_disk(struct system_disk *d, const struct hsys_disk *last, const struct wsum *w,
          uint64_t rbytes, uint64_t wbytes)
{
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, "%s", last->name);
	d->parent = -1;
	d->in_total = last->in_total;
	d->used = last->used;
	d->reads_s = wget(&w[HD_READS]);
	d->writes_s = wget(&w[HD_WRITES]);
	d->read_bytes_s = wget(&w[HD_RBYTES]);
	d->write_bytes_s = wget(&w[HD_WBYTES]);
	d->await_ms = wget(&w[HD_AWAIT]);
	d->queue = wget(&w[HD_QUEUE]);
	d->util = wget(&w[HD_UTIL]);
	d->read_bytes = rbytes;
	d->write_bytes = wbytes;
	d->inflight = last->inflight;
}

/* An interface of the range: rates averaged, counts summed. */
static void
view_net(struct system_net *d, const struct hsys_net *last, const struct wsum *w,
         const uint64_t *sums)
{
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, "%s", last->name);
	d->rx_bytes_s = wget(&w[HN_RX]);
	d->tx_bytes_s = wget(&w[HN_TX]);
	d->rx_packets_s = wget(&w[HN_RXP]);
	d->tx_packets_s = wget(&w[HN_TXP]);
	d->rx_bytes = sums[0];
	d->tx_bytes = sums[1];
	d->errors = sums[2];
	d->drops = sums[3];
	d->errors_all = last->errors_all;
	d->drops_all = last->drops_all;
}

/* The element of arr (n of size bytes) whose field at off is the len
 * bytes at key, element i looked at first (tables keep their order), or
 * NULL. */
static const void *
sys_find(const void *arr, size_t n, size_t size, size_t i, size_t off, const void *key, size_t len)
{
	const char *a = arr;

	if (i < n && memcmp(a + i * size + off, key, len) == 0)
		return a + i * size;
	for (size_t k = 0; k < n; k++)
		if (memcmp(a + k * size + off, key, len) == 0)
			return a + k * size;
	return NULL;
}

/* Disk name of y (at index i first), or NULL (also without y). */
static const struct hsys_disk *
sys_find_disk(const struct hsys *y, size_t i, const char *name)
{
	return y ? sys_find(y->disks, y->ndisks, sizeof *y->disks, i,
	                    offsetof(struct hsys_disk, name), &name, sizeof name)
	         : NULL;
}

/* Interface name of y (at index i first), or NULL (also without y). */
static const struct hsys_net *
sys_find_net(const struct hsys *y, size_t i, const char *name)
{
	return y ? sys_find(y->nets, y->nnets, sizeof *y->nets, i, offsetof(struct hsys_net, name),
	                    &name, sizeof name)
	         : NULL;
}

/* CPU cpu of y (at index i first), or NULL (also without y). */
static const struct hsys_cpu *
sys_find_cpu(const struct hsys *y, size_t i, int cpu)
{
	return y ? sys_find(y->cpus, y->ncpus, sizeof *y->cpus, i, offsetof(struct hsys_cpu, cpu),
	                    &cpu, sizeof cpu)
	         : NULL;
}

/* The disks of the newest interval that has them, over the range. */
static void
view_disks(struct view *v, const struct hsys *last, struct frame_system *fs)
{
	struct wsum w[HD_NF], tw[HD_NF] = {{0, 0}};
	uint64_t tr = 0, tb = 0;

	fs->disks = xcalloc(last->ndisks ? last->ndisks : 1, sizeof *fs->disks);
	fs->ndisks = fs->disks_cap = last->ndisks;
	for (size_t d = 0; d < last->ndisks; d++) {
		uint64_t rb = 0, wb = 0;

		memset(w, 0, sizeof w);
		for (size_t i = 0; i < v->n; i++) {
			const struct hsys_disk *x =
			    sys_find_disk(v->ivs[i]->sys, d, last->disks[d].name);

			if (x == NULL)
				continue;
			wadd(w, x->f, HD_NF, v->secs[i]);
			rb += x->read_bytes;
			wb += x->write_bytes;
		}
		view_disk(&fs->disks[d], &last->disks[d], w, rb, wb);
		for (size_t p = 0; p < last->ndisks && last->disks[d].parent != NULL; p++)
			if (last->disks[p].name == last->disks[d].parent)
				fs->disks[d].parent = (int)p;
	}
	for (size_t i = 0; i < v->n; i++)
		if (v->ivs[i]->sys != NULL) {
			wadd(tw, v->ivs[i]->sys->disk_total.f, HD_NF, v->secs[i]);
			tr += v->ivs[i]->sys->disk_total.read_bytes;
			tb += v->ivs[i]->sys->disk_total.write_bytes;
		}
	view_disk(&fs->disk_total, &last->disk_total, tw, tr, tb);
}

/* The interfaces of the newest interval that has them, over the range. */
static void
view_nets(struct view *v, const struct hsys *last, struct frame_system *fs)
{
	struct wsum w[HN_NF], tw[HN_NF] = {{0, 0}};
	uint64_t t[4] = {0};

	fs->nets = xcalloc(last->nnets ? last->nnets : 1, sizeof *fs->nets);
	fs->nnets = fs->nets_cap = last->nnets;
	for (size_t d = 0; d < last->nnets; d++) {
		uint64_t s[4] = {0};

		memset(w, 0, sizeof w);
		for (size_t i = 0; i < v->n; i++) {
			const struct hsys_net *x =
			    sys_find_net(v->ivs[i]->sys, d, last->nets[d].name);

			if (x == NULL)
				continue;
			wadd(w, x->f, HN_NF, v->secs[i]);
			s[0] += x->rx_bytes;
			s[1] += x->tx_bytes;
			s[2] += x->errors;
			s[3] += x->drops;
		}
		view_net(&fs->nets[d], &last->nets[d], w, s);
	}
	for (size_t i = 0; i < v->n; i++) {
		const struct hsys_net *x = v->ivs[i]->sys ? &v->ivs[i]->sys->net_total : NULL;

		if (x == NULL)
			continue;
		wadd(tw, x->f, HN_NF, v->secs[i]);
		t[0] += x->rx_bytes;
		t[1] += x->tx_bytes;
		t[2] += x->errors;
		t[3] += x->drops;
	}
	view_net(&fs->net_total, &last->net_total, tw, t);
}

/* The system's sparklines: each series' values in the intervals up to
 * the range's end (the disks and interfaces those of tables). */
static void
view_system_hists(struct view *v, const struct hsys *tables, struct frame_system *fs)
{
	for (size_t i = v->nall > SYSTEM_HISTORY ? v->nall - SYSTEM_HISTORY : 0; i < v->nall; i++) {
		const struct hsys *y = v->all[i]->sys;

		if (y == NULL)
			continue;
		system_hist_push(&fs->total.busy_hist, y->total.f[HC_BUSY]);
		for (size_t c = 0; c < fs->ncpus; c++) {
			const struct hsys_cpu *x = sys_find_cpu(y, c, fs->cpus[c].cpu);

			if (x != NULL)
				system_hist_push(&fs->cpus[c].busy_hist, x->f[HC_BUSY]);
		}
		system_hist_push(&fs->mem.used_hist, (double)y->mem[SYSTEM_MEM_USED]);
		system_hist_push(&fs->mem.swap_hist, (double)y->mem[SYSTEM_MEM_SWAP_USED]);
		system_hist_push(&fs->vm.majflt_hist, y->vm[SYSTEM_VM_MAJFLT]);
		system_hist_push(&fs->misc.intr_hist, y->misc[SYSTEM_INTR]);
		system_hist_push(&fs->misc.ctxt_hist, y->misc[SYSTEM_CTXT]);
		system_hist_push(&fs->misc.forks_hist, y->misc[SYSTEM_FORKS]);
		system_hist_push(&fs->misc.load_hist, y->misc[SYSTEM_LOAD1]);
		system_hist_push(&fs->disk_total.read_hist, y->disk_total.f[HD_RBYTES]);
		system_hist_push(&fs->disk_total.write_hist, y->disk_total.f[HD_WBYTES]);
		system_hist_push(&fs->net_total.rx_hist, y->net_total.f[HN_RX]);
		system_hist_push(&fs->net_total.tx_hist, y->net_total.f[HN_TX]);
		for (size_t d = 0; d < fs->ndisks; d++) {
			const struct hsys_disk *x = sys_find_disk(y, d, tables->disks[d].name);

			if (x != NULL) {
				system_hist_push(&fs->disks[d].read_hist, x->f[HD_RBYTES]);
				system_hist_push(&fs->disks[d].write_hist, x->f[HD_WBYTES]);
			}
		}
		for (size_t d = 0; d < fs->nnets; d++) {
			const struct hsys_net *x = sys_find_net(y, d, tables->nets[d].name);

			if (x != NULL) {
				system_hist_push(&fs->nets[d].rx_hist, x->f[HN_RX]);
				system_hist_push(&fs->nets[d].tx_hist, x->f[HN_TX]);
			}
		}
	}
}

/* The system's numbers over the range (its processes and interrupts are
 * not kept: their tables say so). */
static void
view_system(struct view *v, const struct frame *live, struct frame *out)
{
	const struct hsys *last = NULL, *rows = NULL;
	struct frame_system *fs = &out->system;
	struct wsum w[HC_NF] = {{0, 0}}, vm[SYSTEM_VM_NFIELDS] = {{0, 0}}, misc[3] = {{0, 0}};

	for (size_t i = 0; i < v->n; i++)
		if (v->ivs[i]->sys != NULL) {
			const struct hsys *y = v->ivs[i]->sys;
			float m[3] = {(float)y->misc[0], (float)y->misc[1], (float)y->misc[2]};

			last = y;
			rows = y->ndisks + y->nnets > 0 ? y : rows;
			fs->secs += v->secs[i];
			wadd(w, y->total.f, HC_NF, v->secs[i]);
			wadd(vm, y->vm, SYSTEM_VM_NFIELDS, v->secs[i]);
			wadd(misc, m, 3, v->secs[i]);
			for (int k = 0; k < 3; k++)
				fs->misc.count[k] += y->count[k];
		}
	fs->cpu_error = live->system.cpu_error;
	fs->mem_error = live->system.mem_error;
	fs->vm_error = live->system.vm_error;
	fs->disks_error = live->system.disks_error;
	fs->disks_note = live->system.disks_note;
	fs->net_error = live->system.net_error;
	memcpy(fs->mem.why, live->system.mem.why, sizeof fs->mem.why);
	memcpy(fs->vm.why, live->system.vm.why, sizeof fs->vm.why);
	memcpy(fs->misc.why, live->system.misc.why, sizeof fs->misc.why);
	fs->irqs.error = fs->softirqs.error = "interrupts are " VIEW_NOT_KEPT;
	fs->procs_on = live->system.procs_on;
	fs->procs_error = "processes are " VIEW_NOT_KEPT;
	fs->rows = true;
	if (last == NULL)
		return;
	fs->readings = last->readings;
	fs->elapsed = last->elapsed;
	view_cpu(&fs->total, w, -1, last->columns);
	fs->cpus = xcalloc(last->ncpus ? last->ncpus : 1, sizeof *fs->cpus);
	fs->ncpus = fs->cpus_cap = last->ncpus;
	for (size_t c = 0; c < last->ncpus; c++) {
		memset(w, 0, sizeof w);
		for (size_t i = 0; i < v->n; i++) {
			const struct hsys_cpu *x =
			    v->ivs[i]->sys ? sys_find_cpu(v->ivs[i]->sys, c, last->cpus[c].cpu)
			                   : NULL;

			if (x != NULL)
				wadd(w, x->f, HC_NF, v->secs[i]);
		}
		view_cpu(&fs->cpus[c], w, last->cpus[c].cpu, last->columns);
	}
	memcpy(fs->mem.kib, last->mem, sizeof fs->mem.kib);
	for (int k = 0; k < SYSTEM_VM_NFIELDS; k++)
		fs->vm.rate[k] = wget(&vm[k]);
	memcpy(fs->misc.v, last->misc, sizeof fs->misc.v);
	for (int k = 0; k < 3; k++)
		fs->misc.v[k] = wget(&misc[k]);
	view_disks(v, rows ? rows : last, fs);
	view_nets(v, rows ? rows : last, fs);
	view_system_hists(v, rows ? rows : last, fs);
}

/* Add up the intervals' parts into out. */
void
hparts_view(const struct hparts_shared *s, const struct hparts *const *ivs, const double *secs,
            size_t n, size_t first, const struct frame *live, struct frame *out)
{
	struct view v = {.s = s,
	                 .ivs = n > 0 ? ivs + first : ivs,
	                 .secs = n > 0 ? secs + first : secs,
	                 .n = n - first,
	                 .all = ivs,
	                 .nall = n};

	v.at = xcalloc(s->nkeys + 1, sizeof *v.at);
	out->has_counters = live->has_counters;
	out->has_probes = live->has_probes;
	out->has_trace = live->has_trace;
	out->has_latency = live->has_latency;
	out->has_system = live->has_system;
	out->counters.notice = live->counters.notice;
	if (out->has_counters)
		view_counters(&v, out);
	if (out->has_probes)
		view_probes(&v, live, out);
	if (out->has_trace)
		view_trace(&v, live, out);
	if (out->has_latency)
		view_latency(&v, live, out);
	if (out->has_system)
		view_system(&v, live, out);
	free(v.at);
}

/* Free what history_view put in a frame (the trace log and the
 * tracepoints on are the live frame's). */
void
history_view_free(struct frame *f)
{
	for (size_t i = 0; i < COUNTERS_NSCOPES; i++) {
		free(f->counters.scopes[i].rows);
		free(f->counters.scopes[i].hist);
	}
	memset(&f->counters, 0, sizeof f->counters);
	free(f->probes.rows);
	memset(&f->probes, 0, sizeof f->probes);
	free(f->trace.events);
	memset(&f->trace, 0, sizeof f->trace);
	free(f->system.cpus);
	free(f->system.disks);
	free(f->system.nets);
	memset(&f->system, 0, sizeof f->system);
	free(f->latency.rows);
	memset(&f->latency, 0, sizeof f->latency);
	f->has_counters = f->has_probes = f->has_trace = f->has_system = f->has_latency = false;
}
