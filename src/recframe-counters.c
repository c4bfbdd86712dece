/* recframe-counters: the counters and probes parts of a chunk, written
 * and read back. Counters: every row of every scope taken, whole (a row
 * first seen carries its sparkline's values, one seen in the last chunk
 * only its newest). Probes: every row. (Latency: src/recframe-latency.c.) */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recframe-impl.h"
#include "tracetop/cgroup.h"
#include "tracetop/recfile.h"

/* Bounds a reader believes. */
#define MAX_ROWS (1u << 20)

/* Row flags. */
#define CF_EXITED 1u
#define CF_SUPPORTED 2u
#define CF_METRIC 4u
#define CF_PERCENT 8u
#define CF_NSEC 16u
#define CF_FULL 32u /* the row's sparkline values follow (else its newest only) */
#define PF_ENABLED 1u
#define PF_OURS 2u

/* A counter row's identity across intervals. */
static uint64_t
counter_id(const char *scope, const char *event, const char *note, unsigned kind, int cpu, int pid,
           bool metric)
{
	uint64_t h = hash_mix(HASH_SEED, str_hash(scope));

	h = hash_mix(h, str_hash(event != NULL ? event : ""));
	h = hash_mix(h, metric && note != NULL ? str_hash(note) : 0);
	h = hash_mix(h, (uint64_t)kind << 48 ^ (uint64_t)(uint32_t)cpu << 16 ^ (uint32_t)pid);
	return hash_u64(h);
}

/* Sorted ids: those of one scope's rows in the last chunk. */
struct idset {
	uint64_t *ids;
	size_t n, cap;
};

static int
id_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether id is in the set. */
static bool
idset_has(const struct idset *s, uint64_t id)
{
	return s->n > 0 && bsearch(&id, s->ids, s->n, sizeof *s->ids, id_cmp) != NULL;
}

/* The writer's memory between chunks. */
struct recenc_parts {
	struct idset seen[COUNTERS_NSCOPES], next;
};

/* The writer's memory, made on first use. */
static struct recenc_parts *
enc_parts(struct recframe_enc *e)
{
	if (e->parts == NULL)
		e->parts = xcalloc(1, sizeof *e->parts);
	return e->parts;
}

/* Free the writer's memory. */
void
recenc_parts_free(struct recframe_enc *e)
{
	struct recenc_parts *p = e->parts;

	if (p == NULL)
		return;
	for (int i = 0; i < COUNTERS_NSCOPES; i++)
		free(p->seen[i].ids);
	free(p->next.ids);
	free(p);
	e->parts = NULL;
}

/* ---- counters ---- */

/* One counter row. */
static void
enc_counter_row(struct recframe_enc *e, struct pb *b, const struct counters_row *r, bool full)
{
	unsigned fl = (r->exited ? CF_EXITED : 0) | (r->supported ? CF_SUPPORTED : 0) |
	              (r->metric ? CF_METRIC : 0) | (r->percent ? CF_PERCENT : 0) |
	              (r->nsec ? CF_NSEC : 0) | (full ? CF_FULL : 0);

	rec_put_u(b, recenc_text(e, r->event));
	rec_put_u(b, recenc_text(e, r->scope));
	rec_put_u(b, r->kind);
	rec_put_i(b, r->cpu);
	rec_put_i(b, r->pid);
	rec_put_bytes(b, r->comm, strnlen(r->comm, sizeof r->comm));
	rec_put_u(b, fl);
	rec_put_u(b, recenc_text(e, r->reason));
	rec_put_u(b, recenc_text(e, r->note));
	rec_put_u(b, r->event_idx);
	rec_put_f64(b, r->value);
	rec_put_f64(b, r->rate);
	rec_put_f64(b, r->total);
	rec_put_f64(b, r->share);
	rec_put_u(b, recenc_text(e, r->cgroup != NULL ? r->cgroup->path : NULL));
	rec_put_u(b, r->nhist);
	if (full)
		for (size_t i = 0; i < r->nhist; i++)
			rec_put_f64(b, r->history[i]);
	else if (r->nhist > 0)
		rec_put_f64(b, r->history[r->nhist - 1]);
}

/* The counters of every scope taken. */
void
recenc_counters(struct recframe_enc *e, struct pb *b, const struct frame *f)
{
	struct recenc_parts *p = enc_parts(e);

	rec_put_u(b, recenc_text(e, f->counters.notice));
	rec_put_u(b, f->counters.taken);
	for (unsigned sc = 0; sc < COUNTERS_NSCOPES; sc++) {
		const struct counters_snapshot *s = &f->counters.scopes[sc];
		struct idset *next = &p->next, t;

		if (!(f->counters.taken & (1u << sc)))
			continue;
		rec_put_f64(b, s->interval);
		rec_put_f64(b, s->elapsed);
		rec_put_u(b, s->n);
		next->n = 0;
		for (size_t i = 0; i < s->n; i++) {
			const struct counters_row *r = &s->rows[i];
			uint64_t id = counter_id(r->scope, r->event, r->note, r->kind, r->cpu,
			                         r->pid, r->metric);

			enc_counter_row(e, b, r, !idset_has(&p->seen[sc], id));
			if (next->n == next->cap) {
				next->cap = next->cap < 64 ? 64 : 2 * next->cap;
				next->ids = xrealloc(next->ids, next->cap * sizeof *next->ids);
			}
			next->ids[next->n++] = id;
		}
		qsort(next->ids, next->n, sizeof *next->ids, id_cmp);
		t = p->seen[sc];
		p->seen[sc] = *next;
		*next = t;
	}
}

/* Where a decoded scope's rows are found by identity (a slot holds a row
 * index + 1). */
struct rowmap {
	uint64_t *ids;
	uint32_t *rows;
	size_t mask;
};

/* Index the rows of snap by identity. */
static void
rowmap_build(struct rowmap *m, const struct counters_snapshot *snap)
{
	size_t want = 16;

	while (want < 2 * snap->n + 2)
		want *= 2;
	m->ids = xcalloc(want, sizeof *m->ids);
	m->rows = xcalloc(want, sizeof *m->rows);
	m->mask = want - 1;
	for (size_t i = 0; i < snap->n; i++) {
		const struct counters_row *r = &snap->rows[i];
		uint64_t id =
		    counter_id(r->scope, r->event, r->note, r->kind, r->cpu, r->pid, r->metric);
		size_t k = id & m->mask;

		while (m->rows[k] != 0 && m->ids[k] != id)
			k = (k + 1) & m->mask;
		m->ids[k] = id;
		m->rows[k] = (uint32_t)i + 1;
	}
}

/* The previous row of identity id, or NULL. */
static const struct counters_row *
rowmap_find(const struct rowmap *m, const struct counters_snapshot *snap, uint64_t id)
{
	size_t k = id & m->mask;

	while (m->rows[k] != 0) {
		if (m->ids[k] == id)
			return &snap->rows[m->rows[k] - 1];
		k = (k + 1) & m->mask;
	}
	return NULL;
}

/* One counter row; its sparkline from the chunk, or continued from the
 * last interval's row prev (by identity). */
static void
dec_counter_row(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
                struct counters_row *r, double *hist, const struct rowmap *m,
                const struct counters_snapshot *prev)
{
	size_t len, nh;
	const uint8_t *comm;
	const char *cgroup;
	unsigned fl;

	memset(r, 0, sizeof *r);
	r->event = recdec_str(d, c, t);
	recdec_strcpy(d, c, t, r->scope, sizeof r->scope);
	r->kind = (enum counters_scope)(rec_get_u(c) % COUNTERS_NSCOPES);
	r->cpu = (int)rec_get_i(c);
	r->pid = (int)rec_get_i(c);
	comm = rec_get_bytes(c, &len);
	if (comm != NULL)
		memcpy(r->comm, comm, len < sizeof r->comm ? len : sizeof r->comm - 1);
	fl = (unsigned)rec_get_u(c);
	r->exited = fl & CF_EXITED;
	r->supported = fl & CF_SUPPORTED;
	r->metric = fl & CF_METRIC;
	r->percent = fl & CF_PERCENT;
	r->nsec = fl & CF_NSEC;
	r->reason = recdec_str(d, c, t);
	r->note = recdec_str(d, c, t);
	r->event_idx = (size_t)rec_get_u(c);
	r->value = rec_get_f64(c);
	r->rate = rec_get_f64(c);
	r->total = rec_get_f64(c);
	r->share = rec_get_f64(c);
	cgroup = recdec_str(d, c, t);
	r->cgroup = cgroup != NULL ? cgroup_get(cgroup) : NULL;
	nh = (size_t)rec_get_u(c);
	if (nh > COUNTERS_HISTORY) {
		c->bad = true;
		return;
	}
	r->history = hist;
	if (fl & CF_FULL) {
		for (size_t i = 0; i < nh; i++)
			hist[i] = rec_get_f64(c);
		r->nhist = nh;
	} else if (nh > 0) {
		const struct counters_row *p =
		    m->rows != NULL ? rowmap_find(m, prev,
		                                  counter_id(r->scope, r->event, r->note, r->kind,
		                                             r->cpu, r->pid, r->metric))
		                    : NULL;
		size_t keep = p != NULL ? (p->nhist < nh - 1 ? p->nhist : nh - 1) : 0;

		if (keep > 0)
			memcpy(hist, p->history + p->nhist - keep, keep * sizeof *hist);
		hist[keep] = rec_get_f64(c);
		r->nhist = keep + 1;
	}
}

/* The counters of every scope taken, each continuing the last
 * interval's sparklines. */
void
recdec_counters(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t)
{
	struct frame_counters *fc = &d->parts.counters;

	fc->notice = recdec_str(d, c, t);
	fc->taken = (unsigned)rec_get_u(c) & ((1u << COUNTERS_NSCOPES) - 1);
	for (unsigned sc = 0; sc < COUNTERS_NSCOPES && !c->bad; sc++) {
		struct counters_snapshot *prev = &fc->scopes[sc], s = {0};
		struct rowmap m = {0};

		if (!(fc->taken & (1u << sc)))
			continue;
		s.scope = (enum counters_scope)sc;
		s.interval = rec_get_f64(c);
		s.elapsed = rec_get_f64(c);
		s.n = rec_get_count(c, 24);
		if (c->bad || s.n > MAX_ROWS) {
			c->bad = true;
			break;
		}
		s.cap = s.n;
		s.rows = xcalloc(s.n ? s.n : 1, sizeof *s.rows);
		s.hist = xcalloc((s.n ? s.n : 1) * COUNTERS_HISTORY, sizeof *s.hist);
		if (prev->n > 0)
			rowmap_build(&m, prev);
		for (size_t i = 0; i < s.n && !c->bad; i++)
			dec_counter_row(d, c, t, &s.rows[i], s.hist + i * COUNTERS_HISTORY, &m,
			                prev);
		free(m.ids);
		free(m.rows);
		free(prev->rows);
		free(prev->hist);
		*prev = s;
	}
}

/* Copy a counters snapshot (rows and sparklines). */
static void
counters_copy(const struct counters_snapshot *from, struct counters_snapshot *to)
{
	if (to->cap < from->n) {
		to->cap = from->n;
		to->rows = xrealloc(to->rows, to->cap * sizeof *to->rows);
		to->hist = xrealloc(to->hist, to->cap * COUNTERS_HISTORY * sizeof *to->hist);
	}
	to->n = from->n;
	to->scope = from->scope;
	to->interval = from->interval;
	to->elapsed = from->elapsed;
	if (from->n == 0)
		return;
	memcpy(to->rows, from->rows, from->n * sizeof *to->rows);
	memcpy(to->hist, from->hist, from->n * COUNTERS_HISTORY * sizeof *to->hist);
	for (size_t i = 0; i < to->n; i++)
		to->rows[i].history = to->hist + i * COUNTERS_HISTORY;
}

/* The counters part into a frame. */
void
recdec_counters_copy(const struct frame *from, struct frame *to)
{
	to->counters.notice = from->counters.notice;
	to->counters.taken = from->counters.taken;
	for (unsigned sc = 0; sc < COUNTERS_NSCOPES; sc++)
		if (from->counters.taken & (1u << sc))
			counters_copy(&from->counters.scopes[sc], &to->counters.scopes[sc]);
}

/* ---- probes ---- */

/* Every probe row. */
void
recenc_probes(struct recframe_enc *e, struct pb *b, const struct frame *f)
{
	const struct probes_snapshot *s = &f->probes;

	rec_put_f64(b, s->interval);
	rec_put_f64(b, s->elapsed);
	rec_put_u(b, recenc_text(e, s->notice));
	rec_put_u(b, s->n);
	for (size_t i = 0; i < s->n; i++) {
		const struct probes_row *r = &s->rows[i];

		rec_put_u(b, recenc_text(e, r->name));
		rec_put_u(b, r->kind);
		rec_put_u(b, recenc_text(e, r->target));
		rec_put_u(b, r->nargs);
		for (size_t a = 0; a < r->nargs; a++)
			rec_put_u(b, recenc_text(e, r->args[a]));
		rec_put_u(b, r->hits);
		rec_put_f64(b, r->rate);
		rec_put_u(b, (r->enabled ? PF_ENABLED : 0) | (r->ours ? PF_OURS : 0));
		rec_put_u(b, recenc_text(e, r->state));
	}
}

/* The reader's memory between chunks: the probes' argument lists (kept
 * for the whole replay: the rows point at them). */
struct recdec_parts {
	const char **args;
	size_t nargs, args_cap;
};

/* The reader's memory, made on first use. */
static struct recdec_parts *
dec_parts(struct recframe_dec *d)
{
	if (d->p == NULL)
		d->p = xcalloc(1, sizeof *d->p);
	return d->p;
}

/* Free the reader's memory, and the parts it decoded. */
void
recdec_parts_free(struct recframe_dec *d)
{
	struct frame *f = &d->parts;

	for (size_t i = 0; i < COUNTERS_NSCOPES; i++) {
		free(f->counters.scopes[i].rows);
		free(f->counters.scopes[i].hist);
	}
	free(f->probes.rows);
	free(f->latency.rows);
	for (size_t i = 0; i < f->trace.non; i++)
		free(f->trace.on[i].filter);
	free(f->trace.on);
	free(f->trace.events);
	frame_system_free(&f->system);
	memset(f, 0, sizeof *f);
	if (d->p == NULL)
		return;
	free(d->p->args);
	free(d->p);
	d->p = NULL;
}

/* The offset in the argument pool of the list of n interned args, added
 * when it is not there. */
static size_t
args_pool(struct recdec_parts *p, const char **args, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i + n <= p->nargs; i++)
		if (memcmp(p->args + i, args, n * sizeof *args) == 0)
			return i;
	if (p->nargs + n > p->args_cap) {
		p->args_cap = 2 * (p->nargs + n) + 16;
		p->args = xrealloc(p->args, p->args_cap * sizeof *p->args);
	}
	memcpy(p->args + p->nargs, args, n * sizeof *args);
	p->nargs += n;
	return p->nargs - n;
}

/* Every probe row. */
void
recdec_probes(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t)
{
	struct probes_snapshot *s = &d->parts.probes;
	struct recdec_parts *p = dec_parts(d);
	const char *args[64];
	size_t n, *at;

	s->interval = rec_get_f64(c);
	s->elapsed = rec_get_f64(c);
	s->notice = recdec_str(d, c, t);
	n = rec_get_count(c, 8);
	if (c->bad || n > MAX_ROWS) {
		c->bad = true;
		return;
	}
	if (s->cap < n) {
		s->cap = n;
		s->rows = xrealloc(s->rows, n * sizeof *s->rows);
	}
	at = xcalloc(n ? n : 1, sizeof *at);
	s->n = 0;
	for (size_t i = 0; i < n && !c->bad; i++) {
		struct probes_row *r = &s->rows[s->n++];
		unsigned fl;

		memset(r, 0, sizeof *r);
		r->name = recdec_str(d, c, t);
		r->kind = (enum probe_kind)rec_get_u(c);
		r->target = recdec_str(d, c, t);
		r->nargs = (size_t)rec_get_u(c);
		if (r->nargs > sizeof args / sizeof *args) {
			c->bad = true;
			break;
		}
		for (size_t a = 0; a < r->nargs; a++)
			args[a] = recdec_str(d, c, t);
		at[i] = args_pool(p, args, r->nargs);
		r->hits = rec_get_u(c);
		r->rate = rec_get_f64(c);
		fl = (unsigned)rec_get_u(c);
		r->enabled = fl & PF_ENABLED;
		r->ours = fl & PF_OURS;
		r->state = recdec_str(d, c, t);
		if (r->kind > PROBE_FPROBE || r->name == NULL)
			c->bad = true;
	}
	if (c->bad)
		s->n = 0;
	/* the pool may have moved while it grew */
	for (size_t i = 0; i < s->n; i++)
		s->rows[i].args = s->rows[i].nargs > 0 ? p->args + at[i] : NULL;
	free(at);
}

/* The probes part into a frame. */
void
recdec_probes_copy(const struct frame *from, struct frame *to)
{
	const struct probes_snapshot *s = &from->probes;
	struct probes_snapshot *o = &to->probes;

	if (o->cap < s->n) {
		o->cap = s->n;
		o->rows = xrealloc(o->rows, o->cap * sizeof *o->rows);
	}
	if (s->n > 0)
		memcpy(o->rows, s->rows, s->n * sizeof *o->rows);
	o->n = s->n;
	o->interval = s->interval;
	o->elapsed = s->elapsed;
	o->notice = s->notice;
}
