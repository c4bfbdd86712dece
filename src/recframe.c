/* recframe: a frame's profile part as chunk bytes with their own tables of
 * strings, DSOs and functions, and back onto stand-in DSOs and functions. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/callgraph.h"
#include "tracetop/cgroup.h"
#include "tracetop/recfile.h"
#include "tracetop/recframe.h"
#include "tracetop/sym-elf.h"

/* Bits of a chunk's parts field. */
#define PART_SAMPLING 1u
/* Bits of a frame (row key or call graph node) flags field. */
#define FL_KERNEL 1u
#define FL_INLINED 2u
#define FL_OTHER 4u
#define BUILD_ID_MAX 64
/* Bounds a decoder believes (a chunk claiming more is damaged). */
#define MAX_EVENTS 1024

/* Open addressing from a pointer to an index (1-based; 0: absent). */
struct ptrmap {
	const void **keys;
	uint32_t *vals;
	size_t mask, n;
};

/* The slot of key, or the empty one where it would go. */
static size_t
ptrmap_slot(const struct ptrmap *m, const void *key)
{
	size_t i = hash_u64((uintptr_t)key) & m->mask;

	while (m->keys[i] != NULL && m->keys[i] != key)
		i = (i + 1) & m->mask;
	return i;
}

/* The index of key, 0 when absent. */
static uint32_t
ptrmap_get(const struct ptrmap *m, const void *key)
{
	if (m->n == 0)
		return 0;
	return m->vals[ptrmap_slot(m, key)];
}

/* Set key's index (the map doubles at half load). */
static void
ptrmap_put(struct ptrmap *m, const void *key, uint32_t val)
{
	size_t i;

	if (2 * (m->n + 1) > m->mask + 1 || m->keys == NULL) {
		struct ptrmap old = *m;
		size_t cap = m->keys == NULL ? 256 : 2 * (m->mask + 1);

		m->keys = xcalloc(cap, sizeof *m->keys);
		m->vals = xcalloc(cap, sizeof *m->vals);
		m->mask = cap - 1;
		m->n = 0;
		for (size_t j = 0; old.keys != NULL && j <= old.mask; j++)
			if (old.keys[j] != NULL)
				ptrmap_put(m, old.keys[j], old.vals[j]);
		free(old.keys);
		free(old.vals);
	}
	i = ptrmap_slot(m, key);
	if (m->keys[i] == NULL)
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
}

/* Forget every key, keeping the storage. */
static void
ptrmap_clear(struct ptrmap *m)
{
	if (m->keys != NULL && m->n > 0) {
		memset(m->keys, 0, (m->mask + 1) * sizeof *m->keys);
		memset(m->vals, 0, (m->mask + 1) * sizeof *m->vals);
	}
	m->n = 0;
}

static void
ptrmap_free(struct ptrmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

/* A DSO's build-id, read once per recording. */
struct build_id {
	uint8_t id[BUILD_ID_MAX];
	size_t len;
};

struct recframe_enc {
	struct ptrmap strs, dsos, syms; /* this chunk's tables */
	struct pb tab, body;            /* scratch (a call graph's nodes), the frame */
	size_t nstrs, ndsos, nsyms;
	struct pb strbuf, dsobuf, symbuf; /* the tables' entries */
	struct ptrmap ids;                /* dso -> index into bids + 1 */
	struct build_id *bids;
	size_t nbids;
	uint32_t *stack, *pos; /* call graph walk: nodes to visit, node -> position */
	size_t stack_cap;
	uint32_t *mark, gen; /* call graph nodes on this interval's stacks: mark == gen */
	size_t mark_cap;
};

/* Make an encoder. */
struct recframe_enc *
recframe_enc_new(void)
{
	return xcalloc(1, sizeof(struct recframe_enc));
}

/* Free an encoder. */
void
recframe_enc_free(struct recframe_enc *e)
{
	if (e == NULL)
		return;
	ptrmap_free(&e->strs);
	ptrmap_free(&e->dsos);
	ptrmap_free(&e->syms);
	ptrmap_free(&e->ids);
	pb_free(&e->tab);
	pb_free(&e->body);
	pb_free(&e->strbuf);
	pb_free(&e->dsobuf);
	pb_free(&e->symbuf);
	free(e->bids);
	free(e->stack);
	free(e->pos);
	free(e->mark);
	free(e);
}

/* A string's table index + 1 (0 for NULL). */
static uint32_t
enc_str(struct recframe_enc *e, const char *s)
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
static uint32_t
enc_dso(struct recframe_enc *e, const struct dso *d)
{
	const struct build_id *b;
	uint32_t i;

	if (d == NULL)
		return 0;
	if ((i = ptrmap_get(&e->dsos, d)) != 0)
		return i;
	b = enc_build_id(e, d);
	rec_put_u(&e->dsobuf, enc_str(e, d->name));
	rec_put_u(&e->dsobuf, d->kind);
	rec_put_bytes(&e->dsobuf, b->id, b->len);
	ptrmap_put(&e->dsos, d, (uint32_t)++e->ndsos);
	return (uint32_t)e->ndsos;
}

/* A function's table index + 1 (0 for NULL). */
static uint32_t
enc_sym(struct recframe_enc *e, const struct dso *d, const struct sym *s)
{
	uint32_t i, di;

	if (s == NULL)
		return 0;
	if ((i = ptrmap_get(&e->syms, s)) != 0)
		return i;
	di = enc_dso(e, d);
	rec_put_u(&e->symbuf, di);
	rec_put_u(&e->symbuf, enc_str(e, s->name));
	rec_put_u(&e->symbuf, s->start);
	rec_put_u(&e->symbuf, s->size);
	rec_put_u(&e->symbuf, enc_str(e, s->module));
	ptrmap_put(&e->syms, s, (uint32_t)++e->nsyms);
	return (uint32_t)e->nsyms;
}

/* A function's place: DSO, function, offset, flags. */
static void
enc_frame(struct recframe_enc *e, struct pb *b, const struct dso *dso, const struct sym *sym,
          uint64_t addr, unsigned flags)
{
	rec_put_u(b, enc_dso(e, dso));
	rec_put_u(b, enc_sym(e, dso, sym));
	rec_put_u(b, addr);
	rec_put_u(b, flags);
}

/* A row of the interval: its key and its samples (self, children). */
static void
enc_row(struct recframe_enc *e, struct pb *b, const struct hist_entry *en)
{
	const struct hist_key *k = &en->key;

	rec_put_i(b, k->pid);
	rec_put_u(b, enc_str(e, k->comm));
	enc_frame(e, b, k->dso, k->sym, k->addr,
	          (k->kernel ? FL_KERNEL : 0) | (k->inlined ? FL_INLINED : 0));
	rec_put_i(b, k->tid);
	rec_put_i(b, k->thread);
	rec_put_u(b, enc_str(e, k->cgroup != NULL ? k->cgroup->path : NULL));
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
static void
enc_cg(struct recframe_enc *e, struct pb *b, const struct callgraph *cg)
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
		rec_put_u(nodes, enc_str(e, n->comm));
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
	rec_put_u(b, enc_str(e, fs->notice));
	rec_put_u(b, enc_str(e, fs->target));
	rec_put_u(b, enc_str(e, fs->engine));
	rec_put_u(b, enc_str(e, fs->engine_why));
	rec_put_u(b, rows && fs->rows);
	rec_put_u(b, fs->nevents);
	for (size_t i = 0; i < fs->nevents; i++) {
		const struct frame_event *ev = &fs->events[i];

		rec_put_u(b, enc_str(e, ev->name));
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
			enc_cg(e, b, ev->cg);
	}
}

/* The chunk: tables, then the frame. */
void
recframe_encode(struct recframe_enc *e, const struct frame *f, bool rows, struct pb *out)
{
	struct pb *b = &e->body;

	ptrmap_clear(&e->strs);
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
	rec_put_u(b, f->has_sampling ? PART_SAMPLING : 0);
	if (f->has_sampling)
		enc_sampling(e, b, &f->sampling, rows);
	pb_reset(out);
	rec_put_u(out, e->nstrs);
	pb_raw(out, e->strbuf.buf, e->strbuf.len);
	rec_put_u(out, e->ndsos);
	pb_raw(out, e->dsobuf.buf, e->dsobuf.len);
	rec_put_u(out, e->nsyms);
	pb_raw(out, e->symbuf.buf, e->symbuf.len);
	pb_raw(out, b->buf, b->len);
}

/* ---- decoding ---- */

/* A stand-in function: the same object for the same DSO, name and start
 * in every chunk. */
struct standin {
	const struct dso *dso;
	const char *name; /* interned */
	uint64_t start;
	struct sym *sym;
};

struct recframe_dec {
	struct standin *syms; /* open addressing */
	size_t mask, n;
	/* this chunk's tables */
	const char **strs;
	struct dso **dsos;
	const struct sym **fns;
	size_t strs_cap, dsos_cap, fns_cap;
	uint32_t *nodes; /* call graph: position -> node index */
	size_t nodes_cap;
	/* the profile the intervals add up to, per event */
	struct dec_event {
		struct hist *hist;
		struct callgraph *cg; /* NULL: no stacks recorded */
	} * evs;
	size_t nevs;
	double decay, cg_min_percent;
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
	}
	free(d->evs);
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

/* A string reference: NULL for 0, bad past the table. */
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

/* A table reference (index + 1; 0: none) below n. */
static size_t
dec_ref(struct rec_cursor *c, size_t n)
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
		size_t di = dec_ref(c, *ndsos);
		const char *name = dec_str(d, c, *nstrs);
		uint64_t start = rec_get_u(c), size = rec_get_u(c);
		const char *module = dec_str(d, c, *nstrs);

		if (!c->bad)
			d->fns[i] = standin_get(d, di ? d->dsos[di - 1] : NULL, name ? name : "",
			                        start, size, module);
	}
}

/* Sizes of this chunk's tables, for the references. */
struct dec_tabs {
	size_t nstrs, ndsos, nfns;
};

/* A function's place: DSO, function, offset and flags (the flags
 * returned, FL_OTHER among them). */
static unsigned
dec_frame(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
          struct cg_frame *f)
{
	size_t di = dec_ref(c, t->ndsos), si = dec_ref(c, t->nfns);
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

/* An interval's stacks, added to the event's call graph. */
static void
dec_cg(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t, struct callgraph *cg)
{
	size_t n = rec_get_count(c, 7);

	if (c->bad)
		return;
	d->nodes = table_room(d->nodes, &d->nodes_cap, n, sizeof *d->nodes);
	for (size_t i = 0; i < n && !c->bad; i++) {
		struct cg_frame f;
		size_t parent = dec_ref(c, i);
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
static struct dec_event *
dec_event(struct recframe_dec *d, size_t i, bool stacks)
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
	de = dec_event(d, i, false);
	for (size_t r = 0; r < n && !c->bad; r++)
		dec_row(d, c, t, de->hist);
	if (rec_get_u(c) != 0 && !c->bad)
		dec_cg(d, c, t, dec_event(d, i, true)->cg);
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
		if (group != 0)
			hist_group(&ev->rows, group, sort);
		if (d->evs[i].cg != NULL) {
			cg_snapshot(d->evs[i].cg, &ev->cg);
		} else {
			cg_free(ev->cg);
			ev->cg = NULL;
		}
	}
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
	if (c.bad)
		return err_set(err, "a chunk's frame does not parse");
	return 0;
}
