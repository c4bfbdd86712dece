/* recframe-latency: the latency part of a chunk, written and read back:
 * each row defined once per recording, then per interval its calls and
 * what its histogram gained (the buckets that grew), so an unchanged row
 * costs a few bytes; the reader adds the gains up into the since-start
 * histograms the live frames hold. The offcpu rows' stacks are a part of
 * their own (PART_OFFCPU, after the first version 2 writers: a reader
 * that knows it not skips it): what the off-CPU trie gained in the
 * interval, coded as the profile's call graph is, its frames in the
 * chunk's tables; the reader adds it up into a trie of its own, ticked
 * as the live one is, so its stacks and their ns are the live ones. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "recframe-impl.h"
#include "tracetop/callgraph.h"
#include "tracetop/offcpu.h"
#include "tracetop/recfile.h"

/* Bounds a reader believes. */
#define MAX_ROWS (1u << 20)

/* Row flags. */
#define LF_CHANGED 1u /* its histogram grew */
#define LF_RESET 2u   /* it started again: the histogram is given whole */

/* A latency row as the writer knows it: its identity and its histogram
 * as last written (its non-empty buckets). */
struct lat_known {
	enum lat_kind kind;
	const char *name, *stack; /* interned: compared by address */
	int pid, tid;
	uint64_t count, errors, total;
	uint8_t nb;
	uint8_t b[LAT_BUCKETS];
	uint64_t *bc, *bs; /* nb counts and sums */
};

/* The writer's memory: every row seen, by id, and their index. */
struct recenc_lat {
	struct lat_known *lat; /* ids from 0 */
	size_t nlat, lat_cap;
	uint32_t *slot; /* open addressing: id + 1 (0: empty) */
	size_t mask;
};

/* Free the writer's memory. */
void
recenc_lat_free(struct recframe_enc *e)
{
	struct recenc_lat *p = e->lat;

	if (p == NULL)
		return;
	for (size_t i = 0; i < p->nlat; i++) {
		free(p->lat[i].bc);
		free(p->lat[i].bs);
	}
	free(p->lat);
	free(p->slot);
	free(p);
	e->lat = NULL;
}

/* The reader's memory: every row by id, its histogram since start, and
 * the off-CPU stacks since start (NULL: none recorded). */
struct recdec_lat {
	struct lat_row *lat;
	size_t nlat, lat_cap;
	struct callgraph *offcpu;
};

/* The reader's memory, made on first use. */
static struct recdec_lat *
lat_dec(struct recframe_dec *d)
{
	return d->lat != NULL ? d->lat : (d->lat = xcalloc(1, sizeof *d->lat));
}

/* Free the reader's memory. */
void
recdec_lat_free(struct recframe_dec *d)
{
	if (d->lat == NULL)
		return;
	free(d->lat->lat);
	cg_free(d->lat->offcpu);
	free(d->lat);
	d->lat = NULL;
}

/* Room for n rows in a latency part. */
static void
lat_reserve(struct frame_latency *fl, size_t n)
{
	if (fl->cap >= n && fl->rows != NULL)
		return;
	fl->cap = n > 2 * fl->cap ? n : 2 * fl->cap;
	fl->cap = fl->cap ? fl->cap : 1;
	fl->rows = xrealloc(fl->rows, fl->cap * sizeof *fl->rows);
}

/* The hash of a latency row's identity. */
static uint64_t
lat_hash(enum lat_kind kind, const char *name, const char *stack, int pid, int tid)
{
	uint64_t h = hash_mix(HASH_SEED, (uintptr_t)name);

	h = hash_mix(h, (uintptr_t)stack);
	return hash_u64(
	    hash_mix(h, (uint64_t)kind << 56 ^ (uint64_t)(uint32_t)pid << 24 ^ (uint32_t)tid));
}

/* The slot of a row's identity in the writer's index, or the empty one. */
static size_t
lat_slot(const struct recenc_lat *p, const struct lat_row *r)
{
	size_t i = lat_hash(r->kind, r->name, r->stack, r->pid, r->tid) & p->mask;

	for (; p->slot[i] != 0; i = (i + 1) & p->mask) {
		const struct lat_known *k = &p->lat[p->slot[i] - 1];

		if (k->kind == r->kind && k->name == r->name && k->stack == r->stack &&
		    k->pid == r->pid && k->tid == r->tid)
			break;
	}
	return i;
}

/* Index every known row again, in slots for twice as many. */
static void
lat_reindex(struct recenc_lat *p)
{
	size_t want = 64;

	while (want < 4 * p->nlat + 4)
		want *= 2;
	free(p->slot);
	p->slot = xcalloc(want, sizeof *p->slot);
	p->mask = want - 1;
	for (size_t i = 0; i < p->nlat; i++) {
		struct lat_row r = {.kind = p->lat[i].kind,
		                    .name = p->lat[i].name,
		                    .stack = p->lat[i].stack,
		                    .pid = p->lat[i].pid,
		                    .tid = p->lat[i].tid};

		p->slot[lat_slot(p, &r)] = (uint32_t)i + 1;
	}
}

/* The id of row r; new ones are defined in defs. */
static size_t
lat_id(struct recframe_enc *e, struct recenc_lat *p, const struct lat_row *r, struct pb *defs,
       size_t *ndefs)
{
	size_t i;
	struct lat_known *k;

	if (p->slot == NULL || 2 * (p->nlat + 1) > p->mask + 1)
		lat_reindex(p);
	i = lat_slot(p, r);
	if (p->slot[i] != 0)
		return p->slot[i] - 1;
	if (p->nlat == p->lat_cap) {
		p->lat_cap = p->lat_cap < 64 ? 64 : 2 * p->lat_cap;
		p->lat = xrealloc(p->lat, p->lat_cap * sizeof *p->lat);
	}
	k = &p->lat[p->nlat];
	memset(k, 0, sizeof *k);
	k->kind = r->kind;
	k->name = r->name;
	k->stack = r->stack;
	k->pid = r->pid;
	k->tid = r->tid;
	p->slot[i] = (uint32_t)++p->nlat;
	rec_put_u(defs, r->kind);
	rec_put_u(defs, recenc_text(e, r->name));
	rec_put_u(defs, recenc_text(e, r->stack));
	rec_put_i(defs, r->pid);
	rec_put_i(defs, r->tid);
	rec_put_bytes(defs, r->comm, strnlen(r->comm, sizeof r->comm));
	++*ndefs;
	return p->nlat - 1;
}

/* What row r's histogram gained since k, and k moved to it. */
static void
lat_gain(struct pb *b, struct lat_known *k, const struct lat_row *r)
{
	const struct lat_hist *h = &r->hist;
	bool reset = h->count < k->count;
	unsigned j = 0, nb = 0;

	rec_put_u(b, LF_CHANGED | (reset ? LF_RESET : 0));
	rec_put_u(b, h->count);
	rec_put_u(b, h->errors);
	rec_put_u(b, h->total);
	rec_put_u(b, h->min);
	rec_put_u(b, h->max);
	for (unsigned i = 0; i < LAT_BUCKETS; i++)
		nb += h->buckets[i] != 0;
	rec_put_u(b, nb);
	for (unsigned i = 0; i < LAT_BUCKETS; i++) {
		uint64_t c = h->buckets[i], s = h->sums[i];

		if (c == 0)
			continue;
		while (!reset && j < k->nb && k->b[j] < i)
			j++;
		if (!reset && j < k->nb && k->b[j] == i) {
			c -= k->bc[j] <= c ? k->bc[j] : c;
			s -= k->bs[j] <= s ? k->bs[j] : s;
		}
		rec_put_u(b, i);
		rec_put_u(b, c);
		rec_put_u(b, s);
	}
	k->bc = xrealloc(k->bc, (nb ? nb : 1) * sizeof *k->bc);
	k->bs = xrealloc(k->bs, (nb ? nb : 1) * sizeof *k->bs);
	k->nb = 0;
	for (unsigned i = 0; i < LAT_BUCKETS; i++)
		if (h->buckets[i] != 0) {
			k->b[k->nb] = (uint8_t)i;
			k->bc[k->nb] = h->buckets[i];
			k->bs[k->nb++] = h->sums[i];
		}
	k->count = h->count;
	k->errors = h->errors;
	k->total = h->total;
}

/* The latency part: its numbers, the new rows' definitions, then every
 * row's interval and gains. */
void
recenc_latency(struct recframe_enc *e, struct pb *b, const struct frame *f)
{
	const struct frame_latency *fl = &f->latency;
	struct recenc_lat *p = e->lat != NULL ? e->lat : (e->lat = xcalloc(1, sizeof *e->lat));
	struct pb rows = {0}, defs = {0};
	size_t ndefs = 0;

	rec_put_u(b, fl->events);
	rec_put_u(b, fl->lost);
	rec_put_u(b, fl->unpaired);
	rec_put_u(b, recenc_text(e, fl->notice));
	rec_put_u(b, recenc_text(e, fl->target));
	rec_put_u(b, fl->sched_events);
	rec_put_u(b, fl->sched_lost);
	rec_put_u(b, fl->sched_unpaired);
	rec_put_u(b, recenc_text(e, fl->sched_notice));
	for (size_t i = 0; i < fl->nrows; i++) {
		const struct lat_row *r = &fl->rows[i];
		size_t id = lat_id(e, p, r, &defs, &ndefs);
		struct lat_known *k = &p->lat[id];

		rec_put_u(&rows, id);
		rec_put_u(&rows, r->interval);
		rec_put_f64(&rows, r->rate);
		if (r->hist.count != k->count || r->hist.total != k->total)
			lat_gain(&rows, k, r);
		else
			rec_put_u(&rows, 0);
	}
	rec_put_u(b, ndefs);
	pb_raw(b, defs.buf, defs.len);
	rec_put_u(b, fl->nrows);
	pb_raw(b, rows.buf, rows.len);
	pb_free(&rows);
	pb_free(&defs);
}

/* A row's gains added to its since-start histogram. */
static void
dec_lat_gain(struct rec_cursor *c, struct lat_row *r)
{
	unsigned fl = (unsigned)rec_get_u(c);
	struct lat_hist *h = &r->hist;
	size_t nb;

	if (!(fl & LF_CHANGED))
		return;
	if (fl & LF_RESET)
		lat_hist_reset(h);
	h->count = rec_get_u(c);
	h->errors = rec_get_u(c);
	h->total = rec_get_u(c);
	h->min = rec_get_u(c);
	h->max = rec_get_u(c);
	nb = rec_get_count(c, 3);
	if (nb > LAT_BUCKETS)
		c->bad = true;
	for (size_t i = 0; i < nb && !c->bad; i++) {
		uint64_t b = rec_get_u(c), n = rec_get_u(c), s = rec_get_u(c);

		if (b >= LAT_BUCKETS) {
			c->bad = true;
			break;
		}
		h->buckets[b] += n;
		h->sums[b] += s;
	}
}

/* The latency part: new rows defined, every row of the interval with its
 * histogram since start. */
void
recdec_latency(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t)
{
	struct frame_latency *fl = &d->parts.latency;
	struct recdec_lat *p = lat_dec(d);
	size_t n;

	fl->events = rec_get_u(c);
	fl->lost = rec_get_u(c);
	fl->unpaired = rec_get_u(c);
	fl->notice = recdec_str(d, c, t);
	fl->target = recdec_str(d, c, t);
	fl->sched_events = rec_get_u(c);
	fl->sched_lost = rec_get_u(c);
	fl->sched_unpaired = rec_get_u(c);
	fl->sched_notice = recdec_str(d, c, t);
	n = rec_get_count(c, 6);
	if (c->bad || p->nlat + n > MAX_ROWS) {
		c->bad = true;
		return;
	}
	if (p->nlat + n > p->lat_cap) {
		p->lat_cap = 2 * (p->nlat + n);
		p->lat = xrealloc(p->lat, p->lat_cap * sizeof *p->lat);
	}
	for (size_t i = 0; i < n && !c->bad; i++) {
		struct lat_row *r = &p->lat[p->nlat++];
		const uint8_t *comm;
		size_t len;

		memset(r, 0, sizeof *r);
		r->kind = (enum lat_kind)(rec_get_u(c) % LAT_NKINDS);
		r->name = recdec_str(d, c, t);
		r->stack = recdec_str(d, c, t);
		r->pid = (int)rec_get_i(c);
		r->tid = (int)rec_get_i(c);
		comm = rec_get_bytes(c, &len);
		if (comm != NULL)
			memcpy(r->comm, comm, len < sizeof r->comm ? len : sizeof r->comm - 1);
		r->name = r->name != NULL ? r->name : "?";
		lat_hist_reset(&r->hist);
	}
	n = rec_get_count(c, 11);
	if (c->bad || n > MAX_ROWS) {
		c->bad = true;
		return;
	}
	lat_reserve(fl, n);
	fl->nrows = 0;
	for (size_t i = 0; i < n && !c->bad; i++) {
		uint64_t id = rec_get_u(c);
		struct lat_row *r;

		if (c->bad || id >= p->nlat) {
			c->bad = true;
			break;
		}
		r = &p->lat[id];
		r->interval = rec_get_u(c);
		r->rate = rec_get_f64(c);
		dec_lat_gain(c, r);
		fl->rows[fl->nrows++] = *r;
	}
}

/* The latency part into a frame. */
void
recdec_latency_copy(const struct frame *from, struct frame *to)
{
	const struct frame_latency *s = &from->latency;
	struct frame_latency *o = &to->latency;

	lat_reserve(o, s->nrows);
	if (s->nrows > 0)
		memcpy(o->rows, s->rows, s->nrows * sizeof *o->rows);
	o->nrows = s->nrows;
	o->events = s->events;
	o->lost = s->lost;
	o->unpaired = s->unpaired;
	o->notice = s->notice;
	o->target = s->target;
	o->sched_events = s->sched_events;
	o->sched_lost = s->sched_lost;
	o->sched_unpaired = s->sched_unpaired;
	o->sched_notice = s->sched_notice;
}

/* The offcpu part: what the off-CPU trie gained in the interval (the
 * live source ticks its trie before the snapshot, so its last_self is
 * the interval's, or the frozen screen's intervals' since the last one
 * recorded). */
void
recenc_offcpu(struct recframe_enc *e, struct pb *b, const struct frame *f)
{
	recenc_cg(e, b, f->latency.offcpu);
}

/* The offcpu part added to the stacks since start, whose interval then
 * ends as the live trie's did: the same folds of small branches into
 * [other], from the same counts. */
void
recdec_offcpu(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t)
{
	struct recdec_lat *p = lat_dec(d);

	if (p->offcpu == NULL)
		p->offcpu = cg_new(1.0, OFFCPU_CG_MIN_PERCENT);
	recdec_cg(d, c, t, p->offcpu);
	cg_tick(p->offcpu, false);
}

/* The off-CPU stacks since start into a frame (a recording without
 * them: none). */
void
recdec_offcpu_copy(struct recframe_dec *d, struct frame *to)
{
	struct frame_latency *o = &to->latency;

	if (d->lat != NULL && d->lat->offcpu != NULL) {
		cg_snapshot(d->lat->offcpu, &o->offcpu);
	} else {
		cg_free(o->offcpu);
		o->offcpu = NULL;
	}
}
