/* recframe: a chunk's bytes back onto stand-in DSOs and functions, its
 * samples added up into the replayed profile (the encoder is
 * src/recframe-enc.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recframe-impl.h"
#include "tracetop/addrhist.h"
#include "tracetop/callgraph.h"
#include "tracetop/cgroup.h"
#include "tracetop/recfile.h"
#include "tracetop/recframe.h"

/* Bounds a decoder believes (a chunk claiming more is damaged). */
#define MAX_EVENTS 1024

/* A stand-in function: the same object for the same DSO, name and start
 * in every chunk. */
struct standin {
	const struct dso *dso;
	const char *name; /* interned */
	uint64_t start;
	struct sym *sym;
};

/* Make a decoder. */
struct recframe_dec *
recframe_dec_new(double decay, double cg_min_percent)
{
	struct recframe_dec *d = xcalloc(1, sizeof *d);

	d->decay = decay >= 0 && decay <= 1 ? decay : 1;
	d->cg_min_percent = cg_min_percent >= 0 && cg_min_percent <= 100 ? cg_min_percent : 0;
	d->mask = 255;
	d->syms = xcalloc(d->mask + 1, sizeof *d->syms);
	return d;
}

/* Free a decoder and its stand-in functions (the stand-in DSOs are the DSO
 * cache's). */
void
recframe_dec_free(struct recframe_dec *d)
{
	if (d == NULL)
		return;
	for (size_t i = 0; i <= d->mask; i++)
		if (d->syms[i].sym != NULL) {
			sym_free_dname(d->syms[i].sym);
			free(d->syms[i].sym);
		}
	free(d->syms);
	free(d->strs);
	free(d->dsos);
	free(d->fns);
	free(d->nodes);
	for (size_t i = 0; i < d->nevs; i++) {
		hist_free(d->evs[i].hist);
		cg_free(d->evs[i].cg);
		addrhist_free(d->evs[i].ah);
	}
	free(d->evs);
	recdec_trace_free(d);
	recdec_parts_free(d);
	recdec_lat_free(d);
	recdec_code_free(d);
	free(d);
}

/* The slot of (dso, name, start) in the stand-ins. */
static size_t
standin_slot(const struct recframe_dec *d, const struct dso *dso, const char *name, uint64_t start)
{
	uint64_t h =
	    hash_mix(hash_mix(hash_mix(HASH_SEED, (uintptr_t)dso), (uintptr_t)name), start);
	size_t i = hash_u64(h) & d->mask;

	while (d->syms[i].sym != NULL &&
	       !(d->syms[i].dso == dso && d->syms[i].name == name && d->syms[i].start == start))
		i = (i + 1) & d->mask;
	return i;
}

/* The stand-in for a function, made on first sight. */
static const struct sym *
standin_get(struct recframe_dec *d, const struct dso *dso, const char *name, uint64_t start,
            uint64_t size, const char *module)
{
	size_t i;
	struct sym *s;

	if (2 * (d->n + 1) > d->mask + 1) {
		struct standin *old = d->syms;
		size_t oldn = d->mask + 1;

		d->mask = 2 * oldn - 1;
		d->syms = xcalloc(d->mask + 1, sizeof *d->syms);
		for (size_t j = 0; j < oldn; j++)
			if (old[j].sym != NULL)
				d->syms[standin_slot(d, old[j].dso, old[j].name, old[j].start)] =
				    old[j];
		free(old);
	}
	i = standin_slot(d, dso, name, start);
	if (d->syms[i].sym != NULL)
		return d->syms[i].sym;
	s = xcalloc(1, sizeof *s);
	s->start = start;
	s->size = size;
	s->name = name;
	s->module = module;
	d->syms[i] = (struct standin){.dso = dso, .name = name, .start = start, .sym = s};
	d->n++;
	return s;
}

/* The stand-in function of dso holding addr, or NULL. */
const struct sym *
recdec_find_standin(struct recframe_dec *d, const struct dso *dso, uint64_t addr)
{
	for (size_t i = 0; i <= d->mask; i++) {
		const struct sym *s = d->syms[i].sym;

		if (s != NULL && d->syms[i].dso == dso && addr >= s->start &&
		    addr - s->start < (s->size ? s->size : 1))
			return s;
	}
	return NULL;
}

/* The stand-in for a DSO: the cache's object by path, marked loaded so
 * that nothing reads a file of this machine for it. */
static struct dso *
standin_dso(const char *name, unsigned kind, const uint8_t *id, size_t idlen)
{
	struct dso *dso;

	if (kind == DSO_KERNEL) {
		dso = dso_kernel(NULL);
	} else if (kind == DSO_MODULE && name[0] == '[' && strlen(name) > 2) {
		char *mod = xstrndup(name + 1, strlen(name) - 2);

		dso = dso_kernel(mod);
		free(mod);
	} else {
		dso = dso_get(name, 0, 0);
	}
	dso->loaded = true;
	dso->loading = false;
	dso->has_syms = true;
	dso->standin = true;
	if (idlen > 0 && idlen <= sizeof dso->build_id) {
		memcpy(dso->build_id, id, idlen);
		dso->build_id_len = (uint8_t)idlen;
	}
	return dso;
}

/* Grow a table to n entries. */
static void *
table_room(void *arr, size_t *cap, size_t n, size_t size)
{
	if (n + 1 <= *cap)
		return arr;
	*cap = n + 1;
	return xrealloc(arr, *cap * size);
}

/* A string reference by the table's size: NULL for 0, bad past it. */
static const char *
dec_str(struct recframe_dec *d, struct rec_cursor *c, size_t nstrs)
{
	uint64_t i = rec_get_u(c);

	if (i > nstrs) {
		c->bad = true;
		return NULL;
	}
	return i == 0 ? NULL : d->strs[i - 1];
}

/* A string reference: NULL for 0, bad past the table. */
const char *
recdec_str(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t)
{
	return dec_str(d, c, t->nstrs);
}

/* A string reference into buf (len bytes, cut to fit; "" for none). */
void
recdec_strcpy(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t, char *buf,
              size_t len)
{
	const char *s = dec_str(d, c, t->nstrs);

	snprintf(buf, len, "%s", s != NULL ? s : "");
}

/* A table reference (index + 1; 0: none) below n. */
size_t
recdec_ref(struct rec_cursor *c, size_t n)
{
	uint64_t i = rec_get_u(c);

	if (i > n) {
		c->bad = true;
		return 0;
	}
	return (size_t)i;
}

/* The chunk's tables of strings, DSOs and functions. */
static void
dec_tables(struct recframe_dec *d, struct rec_cursor *c, size_t *nstrs, size_t *ndsos, size_t *nfns)
{
	*nstrs = rec_get_count(c, 1);
	d->strs = table_room(d->strs, &d->strs_cap, *nstrs, sizeof *d->strs);
	for (size_t i = 0; i < *nstrs && !c->bad; i++) {
		char *s = rec_get_str(c);

		d->strs[i] = str_intern(s);
		free(s);
	}
	*ndsos = rec_get_count(c, 3);
	d->dsos = table_room(d->dsos, &d->dsos_cap, *ndsos, sizeof *d->dsos);
	for (size_t i = 0; i < *ndsos && !c->bad; i++) {
		const char *name = dec_str(d, c, *nstrs);
		unsigned kind = (unsigned)rec_get_u(c);
		size_t idlen;
		const uint8_t *id = rec_get_bytes(c, &idlen);

		if (name == NULL || kind > DSO_ANON)
			c->bad = true;
		if (!c->bad)
			d->dsos[i] = standin_dso(name, kind, id, idlen);
	}
	*nfns = rec_get_count(c, 5);
	d->fns = table_room(d->fns, &d->fns_cap, *nfns, sizeof *d->fns);
	for (size_t i = 0; i < *nfns && !c->bad; i++) {
		size_t di = recdec_ref(c, *ndsos);
		const char *name = dec_str(d, c, *nstrs);
		uint64_t start = rec_get_u(c), size = rec_get_u(c);
		const char *module = dec_str(d, c, *nstrs);

		if (!c->bad)
			d->fns[i] = standin_get(d, di ? d->dsos[di - 1] : NULL, name ? name : "",
			                        start, size, module);
	}
}

/* A function's place: DSO, function, offset and flags (the flags
 * returned, FL_OTHER among them). */
static unsigned
dec_frame(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
          struct cg_frame *f)
{
	size_t di = recdec_ref(c, t->ndsos), si = recdec_ref(c, t->nfns);
	unsigned fl;

	memset(f, 0, sizeof *f);
	f->dso = di ? d->dsos[di - 1] : NULL;
	f->sym = si ? d->fns[si - 1] : NULL;
	f->addr = rec_get_u(c);
	fl = (unsigned)rec_get_u(c);
	f->kernel = fl & FL_KERNEL;
	f->inlined = fl & FL_INLINED;
	return fl;
}

/* An interval's row: its samples added to the event's profile. */
static void
dec_row(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t, struct hist *h)
{
	struct hist_key k = {0};
	struct cg_frame f;
	const char *cgroup;
	uint64_t self, children;

	k.pid = (int)rec_get_i(c);
	k.comm = dec_str(d, c, t->nstrs);
	dec_frame(d, c, t, &f);
	k.dso = (struct dso *)(uintptr_t)f.dso; /* a stand-in of the DSO cache */
	k.sym = f.sym;
	k.addr = f.addr;
	k.kernel = f.kernel;
	k.inlined = f.inlined;
	k.tid = (int)rec_get_i(c);
	k.thread = (int)rec_get_i(c);
	cgroup = dec_str(d, c, t->nstrs);
	k.cgroup = cgroup != NULL ? cgroup_get(cgroup) : NULL;
	self = rec_get_u(c);
	children = rec_get_u(c);
	if (c->bad || k.comm == NULL)
		return;
	if (self > 0)
		hist_add_n(h, &k, self);
	if (children > 0)
		hist_add_children_n(h, &k, children);
}

/* An interval's stacks, added to a call graph (an event's, or the
 * off-CPU one). */
void
recdec_cg(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
          struct callgraph *cg)
{
	size_t n = rec_get_count(c, 7);

	if (c->bad)
		return;
	d->nodes = table_room(d->nodes, &d->nodes_cap, n, sizeof *d->nodes);
	for (size_t i = 0; i < n && !c->bad; i++) {
		struct cg_frame f;
		size_t parent = recdec_ref(c, i);
		const char *comm = dec_str(d, c, t->nstrs);
		unsigned fl = dec_frame(d, c, t, &f);
		uint64_t self = rec_get_u(c);

		if (c->bad)
			break;
		d->nodes[i + 1] =
		    cg_child(cg, parent ? d->nodes[parent] : 0, &f, comm, fl & FL_OTHER);
		if (d->nodes[i + 1] == 0)
			c->bad = true;
		else if (self > 0)
			cg_add_at(cg, d->nodes[i + 1], self);
	}
}

/* The profile of event i, made on first sight (with a call graph when
 * stacks were recorded). */
struct dec_event *
recdec_event(struct recframe_dec *d, size_t i, bool stacks)
{
	if (i >= d->nevs) {
		d->evs = xrealloc(d->evs, (i + 1) * sizeof *d->evs);
		memset(d->evs + d->nevs, 0, (i + 1 - d->nevs) * sizeof *d->evs);
		d->nevs = i + 1;
	}
	if (d->evs[i].hist == NULL)
		d->evs[i].hist = hist_new(d->decay);
	if (stacks && d->evs[i].cg == NULL)
		d->evs[i].cg = cg_new(d->decay, d->cg_min_percent);
	return &d->evs[i];
}

/* One event's interval: its rows, then its stacks. */
static void
dec_event_rows(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t, size_t i)
{
	size_t n = rec_get_count(c, 11);
	struct dec_event *de;

	if (c->bad)
		return;
	de = recdec_event(d, i, false);
	for (size_t r = 0; r < n && !c->bad; r++)
		dec_row(d, c, t, de->hist);
	if (rec_get_u(c) != 0 && !c->bad)
		recdec_cg(d, c, t, recdec_event(d, i, true)->cg);
}

/* The sampling part back: its numbers into fs, its intervals' samples
 * into the profiles. */
static void
dec_sampling(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
             struct frame_sampling *fs)
{
	struct engine_stats *st = &fs->stats;
	bool rows;
	size_t n;

	st->samples = rec_get_u(c);
	st->lost = rec_get_u(c);
	st->throttled = rec_get_u(c);
	st->excluded = rec_get_u(c);
	st->bad_records = rec_get_u(c);
	st->interval_samples = rec_get_u(c);
	st->interval_lost = rec_get_u(c);
	st->interval_secs = rec_get_f64(c);
	st->deferred = rec_get_u(c);
	st->replayed = rec_get_u(c);
	st->async_loads = rec_get_u(c);
	st->sync_loads = rec_get_u(c);
	fs->notice = dec_str(d, c, t->nstrs);
	fs->target = dec_str(d, c, t->nstrs);
	fs->engine = dec_str(d, c, t->nstrs);
	fs->engine_why = dec_str(d, c, t->nstrs);
	rows = rec_get_u(c) != 0;
	n = rec_get_count(c, 3);
	if (n > MAX_EVENTS)
		c->bad = true;
	if (c->bad)
		return;
	frame_sampling_reserve(fs, n);
	fs->nevents = n;
	for (size_t i = 0; i < n && !c->bad; i++) {
		struct frame_event *ev = &fs->events[i];
		const char *name = dec_str(d, c, t->nstrs);

		ev->name = name != NULL ? name : "?";
		ev->samples = rec_get_u(c);
		ev->total = rec_get_u(c);
		if (rows)
			dec_event_rows(d, c, t, i);
	}
	fs->rows |= rows;
}

/* End the interval of every event's profile. */
void
recframe_tick(struct recframe_dec *d, bool zero)
{
	for (size_t i = 0; i < d->nevs; i++) {
		hist_tick(d->evs[i].hist, zero);
		if (d->evs[i].cg != NULL)
			cg_tick(d->evs[i].cg, zero);
		if (d->evs[i].ah != NULL)
			addrhist_tick(d->evs[i].ah, zero);
	}
}

/* Every event's rows and call graph as the sampling source takes them. */
void
recframe_snapshot(struct recframe_dec *d, struct frame *f, const enum hist_sort *sort,
                  unsigned group)
{
	for (size_t i = 0; i < f->sampling.nevents && i < d->nevs; i++) {
		struct frame_event *ev = &f->sampling.events[i];

		hist_snapshot(d->evs[i].hist, sort, NULL, NULL, &ev->rows);
		if (group != 0) {
			hist_group(&ev->rows, group, sort);
			cg_group_children(d->evs[i].cg, &ev->rows, group);
		}
		if (d->evs[i].cg != NULL) {
			cg_snapshot(d->evs[i].cg, &ev->cg);
		} else {
			cg_free(ev->cg);
			ev->cg = NULL;
		}
	}
	recdec_code_copy(d, f);
}

/* The other panes' parts of the last interval into f. */
void
recframe_parts(struct recframe_dec *d, struct frame *f)
{
	const struct frame *p = &d->parts;

	f->has_counters = d->has & PART_COUNTERS;
	f->has_probes = d->has & PART_PROBES;
	f->has_latency = d->has & PART_LATENCY;
	f->has_system = d->has & PART_SYSTEM;
	f->has_trace = d->has & PART_TRACE;
	if (f->has_counters)
		recdec_counters_copy(p, f);
	if (f->has_probes)
		recdec_probes_copy(p, f);
	if (f->has_latency) {
		recdec_latency_copy(p, f);
		recdec_offcpu_copy(d, f);
	}
	if (f->has_system)
		recdec_system_copy(p, f);
	if (f->has_trace)
		recdec_trace_copy(d, f);
}

/* One of the other parts: its block, decoded by dec (bad when the block
 * is not wholly its). */
static void
dec_block(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
          void (*dec)(struct recframe_dec *, struct rec_cursor *, const struct dec_tabs *))
{
	size_t len;
	const uint8_t *p = rec_get_bytes(c, &len);
	struct rec_cursor b = {.p = p, .n = len};

	if (c->bad)
		return;
	dec(d, &b, t);
	if (b.bad || b.n != 0)
		c->bad = true;
}

/* A chunk into f. */
int
recframe_decode(struct recframe_dec *d, const uint8_t *p, size_t n, struct frame *f,
                struct tt_err *err)
{
	struct rec_cursor c = {.p = p, .n = n};
	struct dec_tabs t;
	unsigned parts;

	dec_tables(d, &c, &t.nstrs, &t.ndsos, &t.nfns);
	if (c.bad)
		return err_set(err, "a chunk's tables do not parse");
	f->seq = rec_get_u(&c);
	f->time_ns = rec_get_u(&c);
	f->wall = rec_get_f64(&c);
	f->secs = rec_get_f64(&c);
	f->final = rec_get_u(&c) != 0;
	parts = (unsigned)rec_get_u(&c);
	f->has_sampling = parts & PART_SAMPLING;
	if (f->has_sampling)
		dec_sampling(d, &c, &t, &f->sampling);
	d->has = parts & PART_KNOWN & ~PART_SAMPLING;
	if (parts & PART_COUNTERS)
		dec_block(d, &c, &t, recdec_counters);
	if (parts & PART_PROBES)
		dec_block(d, &c, &t, recdec_probes);
	if (parts & PART_LATENCY)
		dec_block(d, &c, &t, recdec_latency);
	if (parts & PART_SYSTEM)
		dec_block(d, &c, &t, recdec_system);
	if (parts & PART_TRACE)
		dec_block(d, &c, &t, recdec_trace);
	if (parts & PART_CODE)
		dec_block(d, &c, &t, recdec_code);
	if (parts & PART_OFFCPU)
		dec_block(d, &c, &t, recdec_offcpu);
	/* a newer writer's parts: skipped, each a block */
	for (unsigned bit = PART_KNOWN + 1; bit != 0 && !c.bad; bit <<= 1)
		if (parts & bit) {
			size_t len;

			rec_get_bytes(&c, &len);
		}
	if (c.bad) {
		d->has = 0;
		return err_set(err, "a chunk's frame does not parse");
	}
	return 0;
}

/* Skip a chunk's tables and frame header: its parts field. */
unsigned
recframe_peek(const uint8_t *p, size_t n)
{
	struct rec_cursor c = {.p = p, .n = n};
	size_t len, k;
	unsigned parts;

	for (k = rec_get_count(&c, 1); k > 0 && !c.bad; k--)
		rec_get_bytes(&c, &len);
	for (k = rec_get_count(&c, 3); k > 0 && !c.bad; k--) {
		rec_get_u(&c);
		rec_get_u(&c);
		rec_get_bytes(&c, &len);
	}
	for (k = rec_get_count(&c, 5); k > 0 && !c.bad; k--)
		for (int i = 0; i < 5; i++)
			rec_get_u(&c);
	rec_get_u(&c);
	rec_get_u(&c);
	rec_get_f64(&c);
	rec_get_f64(&c);
	rec_get_u(&c);
	parts = (unsigned)rec_get_u(&c);
	return c.bad ? 0 : parts;
}
