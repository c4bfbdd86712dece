/* recframe-enc: a frame as the bytes of one chunk: the interval's samples
 * per row key and per stack, with the chunk's own tables of strings, DSOs
 * (with their build-ids) and functions, then the other panes' parts
 * (their coders are src/recframe-counters.c, -latency.c, -system.c,
 * -trace.c and -code.c; the Latency pane's off-CPU stacks are written as
 * the profile's, by recenc_cg). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "recframe-impl.h"
#include "tracetop/callgraph.h"
#include "tracetop/cgroup.h"
#include "tracetop/recfile.h"
#include "tracetop/recframe.h"
#include "tracetop/sym-elf.h"

/* The longest build-id read. */
#define BUILD_ID_MAX 64

/* The hash of a key: its address, or its contents in a map of texts. */
static uint64_t
ptrmap_hash(const struct ptrmap *m, const void *key)
{
	return m->hashes != NULL ? str_hash(key) : hash_u64((uintptr_t)key);
}

/* The slot of key, or the empty one where it would go. */
static size_t
ptrmap_slot(const struct ptrmap *m, const void *key, uint64_t h)
{
	size_t i = h & m->mask;

	while (m->keys[i] != NULL &&
	       (m->hashes != NULL ? m->hashes[i] != h || strcmp(m->keys[i], key) != 0
	                          : m->keys[i] != key))
		i = (i + 1) & m->mask;
	return i;
}

/* The index of key, 0 when absent. */
uint32_t
ptrmap_get(const struct ptrmap *m, const void *key)
{
	if (m->n == 0)
		return 0;
	return m->vals[ptrmap_slot(m, key, ptrmap_hash(m, key))];
}

/* Set key's index (the map doubles at half load). */
void
ptrmap_put(struct ptrmap *m, const void *key, uint32_t val)
{
	uint64_t h = ptrmap_hash(m, key);
	size_t i;

	if (2 * (m->n + 1) > m->mask + 1 || m->keys == NULL) {
		struct ptrmap old = *m;
		size_t cap = m->keys == NULL ? 256 : 2 * (m->mask + 1);

		m->keys = xcalloc(cap, sizeof *m->keys);
		m->vals = xcalloc(cap, sizeof *m->vals);
		if (old.hashes != NULL)
			m->hashes = xcalloc(cap, sizeof *m->hashes);
		m->mask = cap - 1;
		m->n = 0;
		for (size_t j = 0; old.keys != NULL && j <= old.mask; j++)
			if (old.keys[j] != NULL)
				ptrmap_put(m, old.keys[j], old.vals[j]);
		free(old.keys);
		free(old.vals);
		free(old.hashes);
	}
	i = ptrmap_slot(m, key, h);
	if (m->keys[i] == NULL)
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
	if (m->hashes != NULL)
		m->hashes[i] = h;
}

/* Forget every key, keeping the storage. */
void
ptrmap_clear(struct ptrmap *m)
{
	if (m->keys != NULL && m->n > 0) {
		memset(m->keys, 0, (m->mask + 1) * sizeof *m->keys);
		memset(m->vals, 0, (m->mask + 1) * sizeof *m->vals);
	}
	m->n = 0;
}

/* Free a map's storage (a map of texts stays one). */
void
ptrmap_free(struct ptrmap *m)
{
	bool text = m->hashes != NULL;

	free(m->keys);
	free(m->vals);
	free(m->hashes);
	memset(m, 0, sizeof *m);
	if (text)
		m->hashes = xcalloc(1, sizeof *m->hashes);
}

/* A DSO's build-id, read once per recording. */
struct build_id {
	uint8_t id[BUILD_ID_MAX];
	size_t len;
};

/* Make an encoder. */
struct recframe_enc *
recframe_enc_new(void)
{
	struct recframe_enc *e = xcalloc(1, sizeof *e);

	e->texts.hashes = xcalloc(1, sizeof *e->texts.hashes); /* keyed by contents */
	return e;
}

/* Free an encoder. */
void
recframe_enc_free(struct recframe_enc *e)
{
	if (e == NULL)
		return;
	recenc_parts_free(e);
	recenc_lat_free(e);
	recenc_trace_free(e);
	recenc_code_free(e);
	ptrmap_free(&e->strs);
	ptrmap_free(&e->texts);
	free(e->texts.hashes);
	ptrmap_free(&e->dsos);
	ptrmap_free(&e->syms);
	ptrmap_free(&e->ids);
	pb_free(&e->tab);
	pb_free(&e->body);
	pb_free(&e->part);
	pb_free(&e->strbuf);
	pb_free(&e->dsobuf);
	pb_free(&e->symbuf);
	free(e->bids);
	free(e->stack);
	free(e->pos);
	free(e->mark);
	free(e);
}

/* A string's table index + 1 (0 for NULL), by its address. */
uint32_t
recenc_str(struct recframe_enc *e, const char *s)
{
	uint32_t i;

	if (s == NULL)
		return 0;
	if ((i = ptrmap_get(&e->strs, s)) != 0)
		return i;
	rec_put_str(&e->strbuf, s);
	ptrmap_put(&e->strs, s, (uint32_t)++e->nstrs);
	return (uint32_t)e->nstrs;
}

/* The same by its contents: one entry for equal texts wherever they are
 * (the key is s itself: it must stay put until the chunk is made). */
uint32_t
recenc_text(struct recframe_enc *e, const char *s)
{
	uint32_t i;

	if (s == NULL)
		return 0;
	if ((i = ptrmap_get(&e->texts, s)) != 0)
		return i;
	rec_put_str(&e->strbuf, s);
	ptrmap_put(&e->texts, s, (uint32_t)++e->nstrs);
	return (uint32_t)e->nstrs;
}

/* The build-id of an ELF DSO, read at its first sight in the recording. */
static const struct build_id *
enc_build_id(struct recframe_enc *e, const struct dso *d)
{
	uint32_t i = ptrmap_get(&e->ids, d);
	struct build_id *b;
	int n;

	if (i != 0)
		return &e->bids[i - 1];
	e->bids = xrealloc(e->bids, (e->nbids + 1) * sizeof *e->bids);
	b = &e->bids[e->nbids++];
	b->len = 0;
	if (d->kind == DSO_ELF && !dso_is_vdso(d) &&
	    (n = symelf_build_id(dso_path(d), b->id, sizeof b->id)) > 0)
		b->len = (size_t)n;
	ptrmap_put(&e->ids, d, (uint32_t)e->nbids);
	return b;
}

/* A DSO's table index + 1 (0 for NULL). */
uint32_t
recenc_dso(struct recframe_enc *e, const struct dso *d)
{
	const struct build_id *b;
	uint32_t i;

	if (d == NULL)
		return 0;
	if ((i = ptrmap_get(&e->dsos, d)) != 0)
		return i;
	b = enc_build_id(e, d);
	rec_put_u(&e->dsobuf, recenc_str(e, d->name));
	rec_put_u(&e->dsobuf, d->kind);
	rec_put_bytes(&e->dsobuf, b->id, b->len);
	ptrmap_put(&e->dsos, d, (uint32_t)++e->ndsos);
	return (uint32_t)e->ndsos;
}

/* A function's table index + 1 (0 for NULL). */
uint32_t
recenc_sym(struct recframe_enc *e, const struct dso *d, const struct sym *s)
{
	uint32_t i, di;

	if (s == NULL)
		return 0;
	if ((i = ptrmap_get(&e->syms, s)) != 0)
		return i;
	di = recenc_dso(e, d);
	rec_put_u(&e->symbuf, di);
	rec_put_u(&e->symbuf, recenc_str(e, s->name));
	rec_put_u(&e->symbuf, s->start);
	rec_put_u(&e->symbuf, s->size);
	rec_put_u(&e->symbuf, recenc_str(e, s->module));
	ptrmap_put(&e->syms, s, (uint32_t)++e->nsyms);
	return (uint32_t)e->nsyms;
}

/* A function's place: DSO, function, offset, flags. */
static void
enc_frame(struct recframe_enc *e, struct pb *b, const struct dso *dso, const struct sym *sym,
          uint64_t addr, unsigned flags)
{
	rec_put_u(b, recenc_dso(e, dso));
	rec_put_u(b, recenc_sym(e, dso, sym));
	rec_put_u(b, addr);
	rec_put_u(b, flags);
}

/* A row of the interval: its key and its samples (self, children). */
static void
enc_row(struct recframe_enc *e, struct pb *b, const struct hist_entry *en)
{
	const struct hist_key *k = &en->key;

	rec_put_i(b, k->pid);
	rec_put_u(b, recenc_str(e, k->comm));
	enc_frame(e, b, k->dso, k->sym, k->addr,
	          (k->kernel ? FL_KERNEL : 0) | (k->inlined ? FL_INLINED : 0));
	rec_put_i(b, k->tid);
	rec_put_i(b, k->thread);
	rec_put_u(b, recenc_str(e, k->cgroup != NULL ? k->cgroup->path : NULL));
	rec_put_u(b, en->last);
	rec_put_u(b, en->children_last);
}

/* Mark the nodes on the stacks that ended in the interval: those with
 * self samples and their callers. */
static void
enc_cg_mark(struct recframe_enc *e, const struct callgraph *cg, size_t cap)
{
	if (e->mark_cap < cap) {
		e->mark = xrealloc(e->mark, cap * sizeof *e->mark);
		memset(e->mark, 0, cap * sizeof *e->mark);
		e->mark_cap = cap;
		e->gen = 0;
	}
	e->gen++;
	for (uint32_t idx = 1; idx < cap; idx++) {
		const struct cg_node *n = cg_node(cg, idx);

		if (n == NULL || n->last_self == 0)
			continue;
		for (uint32_t up = idx; up != 0 && e->mark[up] != e->gen;
		     up = cg_node(cg, up)->parent)
			e->mark[up] = e->gen;
	}
}

/* The interval's stacks: the marked nodes, parents first, each with its
 * parent's position in that order (0: a root) and its self samples. */
void
recenc_cg(struct recframe_enc *e, struct pb *b, const struct callgraph *cg)
{
	size_t cap = cg_capacity(cg), sp = 0;
	uint32_t done = 0;
	struct pb *nodes = &e->tab;

	enc_cg_mark(e, cg, cap);
	if (e->stack_cap < cap + 1) {
		e->stack_cap = cap + 1;
		e->stack = xrealloc(e->stack, e->stack_cap * sizeof *e->stack);
		e->pos = xrealloc(e->pos, e->stack_cap * sizeof *e->pos);
	}
	pb_reset(nodes);
	for (uint32_t r = cg_first_root(cg); r != 0; r = cg_node(cg, r)->next_sibling)
		if (e->mark[r] == e->gen && sp < e->stack_cap)
			e->stack[sp++] = r;
	while (sp > 0) {
		uint32_t idx = e->stack[--sp];
		const struct cg_node *n = cg_node(cg, idx);
		const struct cg_frame *f = &n->frame;

		rec_put_u(nodes, n->parent != 0 ? e->pos[n->parent] : 0);
		rec_put_u(nodes, recenc_str(e, n->comm));
		enc_frame(e, nodes, f->dso, f->sym, f->addr,
		          (f->kernel ? FL_KERNEL : 0) | (f->inlined ? FL_INLINED : 0) |
		              (n->other ? FL_OTHER : 0));
		rec_put_u(nodes, n->last_self);
		e->pos[idx] = ++done;
		for (uint32_t c = n->first_child; c != 0; c = cg_node(cg, c)->next_sibling)
			if (e->mark[c] == e->gen && sp < e->stack_cap)
				e->stack[sp++] = c;
	}
	rec_put_u(b, done);
	pb_raw(b, nodes->buf, nodes->len);
}

/* The sampling part. */
static void
enc_sampling(struct recframe_enc *e, struct pb *b, const struct frame_sampling *fs, bool rows)
{
	const struct engine_stats *st = &fs->stats;
	size_t n;

	rec_put_u(b, st->samples);
	rec_put_u(b, st->lost);
	rec_put_u(b, st->throttled);
	rec_put_u(b, st->excluded);
	rec_put_u(b, st->bad_records);
	rec_put_u(b, st->interval_samples);
	rec_put_u(b, st->interval_lost);
	rec_put_f64(b, st->interval_secs);
	rec_put_u(b, st->deferred);
	rec_put_u(b, st->replayed);
	rec_put_u(b, st->async_loads);
	rec_put_u(b, st->sync_loads);
	rec_put_u(b, recenc_str(e, fs->notice));
	rec_put_u(b, recenc_str(e, fs->target));
	rec_put_u(b, recenc_str(e, fs->engine));
	rec_put_u(b, recenc_str(e, fs->engine_why));
	rec_put_u(b, rows && fs->rows);
	rec_put_u(b, fs->nevents);
	for (size_t i = 0; i < fs->nevents; i++) {
		const struct frame_event *ev = &fs->events[i];

		rec_put_u(b, recenc_str(e, ev->name));
		rec_put_u(b, ev->samples);
		rec_put_u(b, ev->total);
		if (!(rows && fs->rows))
			continue;
		n = 0;
		for (size_t r = 0; r < ev->rows.n; r++)
			n += ev->rows.rows[r].copy.last != 0 ||
			     ev->rows.rows[r].copy.children_last != 0;
		rec_put_u(b, n);
		for (size_t r = 0; r < ev->rows.n; r++)
			if (ev->rows.rows[r].copy.last != 0 ||
			    ev->rows.rows[r].copy.children_last != 0)
				enc_row(e, b, &ev->rows.rows[r].copy);
		rec_put_u(b, ev->cg != NULL);
		if (ev->cg != NULL)
			recenc_cg(e, b, ev->cg);
	}
}

/* The parts frame f has to record: the profile, and with rows the other
 * panes' (the system's numbers are every frame's). */
static unsigned
enc_parts(const struct recframe_enc *e, const struct frame *f, bool rows)
{
	unsigned parts = f->has_sampling ? PART_SAMPLING : 0;

	if (f->has_system)
		parts |= PART_SYSTEM;
	if (!rows)
		return parts;
	if (f->has_counters && f->counters.taken != 0)
		parts |= PART_COUNTERS;
	if (f->has_probes)
		parts |= PART_PROBES;
	if (f->has_latency)
		parts |= PART_LATENCY;
	if (f->has_latency && f->latency.offcpu != NULL)
		parts |= PART_OFFCPU;
	if (recenc_has_trace(e, f))
		parts |= PART_TRACE;
	if (f->has_sampling && recenc_has_code(f))
		parts |= PART_CODE;
	return parts;
}

/* One of the other parts as a length-prefixed block. */
static void
enc_block(struct recframe_enc *e, struct pb *b, const struct frame *f,
          void (*enc)(struct recframe_enc *, struct pb *, const struct frame *))
{
	pb_reset(&e->part);
	enc(e, &e->part, f);
	rec_put_bytes(b, e->part.buf, e->part.len);
}

/* The chunk: tables, then the frame. */
void
recframe_encode(struct recframe_enc *e, const struct frame *f, bool rows, struct pb *out)
{
	struct pb *b = &e->body;
	unsigned parts = enc_parts(e, f, rows);

	ptrmap_clear(&e->strs);
	ptrmap_clear(&e->texts);
	ptrmap_clear(&e->dsos);
	ptrmap_clear(&e->syms);
	e->nstrs = e->ndsos = e->nsyms = 0;
	pb_reset(&e->strbuf);
	pb_reset(&e->dsobuf);
	pb_reset(&e->symbuf);
	pb_reset(b);
	rec_put_u(b, f->seq);
	rec_put_u(b, f->time_ns);
	rec_put_f64(b, f->wall);
	rec_put_f64(b, f->secs);
	rec_put_u(b, f->final);
	rec_put_u(b, parts);
	if (parts & PART_SAMPLING)
		enc_sampling(e, b, &f->sampling, rows);
	if (parts & PART_COUNTERS)
		enc_block(e, b, f, recenc_counters);
	if (parts & PART_PROBES)
		enc_block(e, b, f, recenc_probes);
	if (parts & PART_LATENCY)
		enc_block(e, b, f, recenc_latency);
	if (parts & PART_SYSTEM)
		enc_block(e, b, f, recenc_system);
	if (parts & PART_TRACE)
		enc_block(e, b, f, recenc_trace);
	if (parts & PART_CODE)
		enc_block(e, b, f, recenc_code);
	if (parts & PART_OFFCPU)
		enc_block(e, b, f, recenc_offcpu);
	pb_reset(out);
	rec_put_u(out, e->nstrs);
	pb_raw(out, e->strbuf.buf, e->strbuf.len);
	rec_put_u(out, e->ndsos);
	pb_raw(out, e->dsobuf.buf, e->dsobuf.len);
	rec_put_u(out, e->nsyms);
	pb_raw(out, e->symbuf.buf, e->symbuf.len);
	pb_raw(out, b->buf, b->len);
}
