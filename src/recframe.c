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
	struct pb tab, body;            /* the tables, the frame */
	size_t nstrs, ndsos, nsyms;
	struct pb strbuf, dsobuf, symbuf; /* the tables' entries */
	struct ptrmap ids;                /* dso -> index into bids + 1 */
	struct build_id *bids;
	size_t nbids;
	uint32_t *stack; /* call graph walk */
	size_t stack_cap;
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

/* A row: its percentages, counts and key. */
static void
enc_row(struct recframe_enc *e, struct pb *b, const struct hist_row *r)
{
	const struct hist_entry *en = &r->copy;
	const struct hist_key *k = &en->key;

	rec_put_f64(b, r->overhead);
	rec_put_f64(b, r->children);
	rec_put_u(b, r->samples);
	rec_put_u(b, r->total);
	rec_put_u(b, r->members);
	rec_put_u(b, r->procs);
	rec_put_u(b, r->mixed);
	rec_put_i(b, k->pid);
	rec_put_u(b, enc_str(e, k->comm));
	rec_put_u(b, enc_dso(e, k->dso));
	rec_put_u(b, enc_sym(e, k->dso, k->sym));
	rec_put_u(b, k->addr);
	rec_put_u(b, (k->kernel ? FL_KERNEL : 0) | (k->inlined ? FL_INLINED : 0));
	rec_put_i(b, k->tid);
	rec_put_i(b, k->thread);
	rec_put_u(b, enc_str(e, k->cgroup != NULL ? k->cgroup->path : NULL));
	rec_put_u(b, en->interval);
	rec_put_u(b, en->total);
	rec_put_f64(b, en->score);
	rec_put_u(b, en->children_interval);
	rec_put_f64(b, en->children);
	rec_put_u(b, en->last);
	rec_put_u(b, en->children_last);
}

/* A call graph, parents before their children, each node's parent given
 * by its position in that order (0: a root). */
static void
enc_cg(struct recframe_enc *e, struct pb *b, const struct callgraph *cg)
{
	size_t cap = cg_capacity(cg), sp = 0, count = cg_count(cg), done = 0;
	struct ptrmap pos = {0};

	if (e->stack_cap < cap + 1) {
		e->stack_cap = cap + 1;
		e->stack = xrealloc(e->stack, e->stack_cap * sizeof *e->stack);
	}
	rec_put_u(b, count);
	for (uint32_t r = cg_first_root(cg); r != 0; r = cg_node(cg, r)->next_sibling)
		e->stack[sp++] = r;
	while (sp > 0 && done < count) {
		uint32_t idx = e->stack[--sp];
		const struct cg_node *n = cg_node(cg, idx);
		const struct cg_frame *f = &n->frame;

		rec_put_u(b, n->parent != 0 ? ptrmap_get(&pos, (void *)(uintptr_t)n->parent) : 0);
		rec_put_u(b, enc_str(e, n->comm));
		rec_put_u(b, enc_dso(e, f->dso));
		rec_put_u(b, enc_sym(e, f->dso, f->sym));
		rec_put_u(b, f->addr);
		rec_put_u(b, (f->kernel ? FL_KERNEL : 0) | (f->inlined ? FL_INLINED : 0) |
		                 (n->other ? FL_OTHER : 0));
		rec_put_u(b, n->interval_self);
		rec_put_u(b, n->interval_total);
		rec_put_f64(b, n->self);
		rec_put_f64(b, n->total);
		rec_put_u(b, n->last_self);
		ptrmap_put(&pos, (void *)(uintptr_t)idx, (uint32_t)++done);
		for (uint32_t c = n->first_child; c != 0 && sp < e->stack_cap;
		     c = cg_node(cg, c)->next_sibling)
			e->stack[sp++] = c;
	}
	ptrmap_free(&pos);
}

/* The sampling part. */
static void
enc_sampling(struct recframe_enc *e, struct pb *b, const struct frame_sampling *fs, bool rows)
{
	const struct engine_stats *st = &fs->stats;

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
		rec_put_f64(b, ev->rows.total_score);
		rec_put_u(b, ev->rows.interval_samples);
		rec_put_u(b, ev->rows.n);
		for (size_t r = 0; r < ev->rows.n; r++)
			enc_row(e, b, &ev->rows.rows[r]);
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
	struct ptrmap ids; /* dso -> index into bids + 1 */
	struct build_id *bids;
	size_t nbids;
	/* this chunk's tables */
	const char **strs;
	struct dso **dsos;
	const struct sym **fns;
	size_t strs_cap, dsos_cap, fns_cap;
	uint32_t *nodes; /* call graph: position -> node index */
	size_t nodes_cap;
};

/* Make a decoder. */
struct recframe_dec *
recframe_dec_new(void)
{
	struct recframe_dec *d = xcalloc(1, sizeof *d);

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
	ptrmap_free(&d->ids);
	free(d->bids);
	free(d->strs);
	free(d->dsos);
	free(d->fns);
	free(d->nodes);
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
standin_dso(struct recframe_dec *d, const char *name, unsigned kind, const uint8_t *id,
            size_t idlen)
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
	if (idlen > 0 && idlen <= BUILD_ID_MAX && ptrmap_get(&d->ids, dso) == 0) {
		d->bids = xrealloc(d->bids, (d->nbids + 1) * sizeof *d->bids);
		memcpy(d->bids[d->nbids].id, id, idlen);
		d->bids[d->nbids].len = idlen;
		ptrmap_put(&d->ids, dso, (uint32_t)++d->nbids);
	}
	return dso;
}

/* The build-id of a stand-in DSO. */
size_t
recframe_build_id(const struct recframe_dec *d, const struct dso *dso, uint8_t *id, size_t len)
{
	uint32_t i = ptrmap_get(&d->ids, dso);

	if (i == 0 || d->bids[i - 1].len > len)
		return 0;
	memcpy(id, d->bids[i - 1].id, d->bids[i - 1].len);
	return d->bids[i - 1].len;
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
			d->dsos[i] = standin_dso(d, name, kind, id, idlen);
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

/* A row back. */
static void
dec_row(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t, struct hist_row *r)
{
	struct hist_entry *en = &r->copy;
	struct hist_key *k = &en->key;
	size_t di, si;
	const char *cgroup;
	unsigned fl;

	memset(r, 0, sizeof *r);
	r->overhead = rec_get_f64(c);
	r->children = rec_get_f64(c);
	r->samples = rec_get_u(c);
	r->total = rec_get_u(c);
	r->members = (uint32_t)rec_get_u(c);
	r->procs = (uint32_t)rec_get_u(c);
	r->mixed = (unsigned)rec_get_u(c);
	k->pid = (int)rec_get_i(c);
	k->comm = dec_str(d, c, t->nstrs);
	di = dec_ref(c, t->ndsos);
	si = dec_ref(c, t->nfns);
	k->dso = di ? d->dsos[di - 1] : NULL;
	k->sym = si ? d->fns[si - 1] : NULL;
	k->addr = rec_get_u(c);
	fl = (unsigned)rec_get_u(c);
	k->kernel = fl & FL_KERNEL;
	k->inlined = fl & FL_INLINED;
	k->tid = (int)rec_get_i(c);
	k->thread = (int)rec_get_i(c);
	cgroup = dec_str(d, c, t->nstrs);
	k->cgroup = cgroup != NULL ? cgroup_get(cgroup) : NULL;
	en->interval = rec_get_u(c);
	en->total = rec_get_u(c);
	en->score = rec_get_f64(c);
	en->children_interval = rec_get_u(c);
	en->children = rec_get_f64(c);
	en->last = rec_get_u(c);
	en->children_last = rec_get_u(c);
}

/* A call graph back: NULL when the bytes are bad. */
static struct callgraph *
dec_cg(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t)
{
	size_t n = rec_get_count(c, 10);
	struct callgraph *cg;

	if (c->bad)
		return NULL;
	cg = cg_new(1.0, 0.0);
	d->nodes = table_room(d->nodes, &d->nodes_cap, n, sizeof *d->nodes);
	for (size_t i = 0; i < n && !c->bad; i++) {
		struct cg_node v = {0};
		size_t parent = dec_ref(c, i), di, si;
		const char *comm = dec_str(d, c, t->nstrs);
		unsigned fl;

		di = dec_ref(c, t->ndsos);
		si = dec_ref(c, t->nfns);
		v.frame.dso = di ? d->dsos[di - 1] : NULL;
		v.frame.sym = si ? d->fns[si - 1] : NULL;
		v.frame.addr = rec_get_u(c);
		fl = (unsigned)rec_get_u(c);
		v.frame.kernel = fl & FL_KERNEL;
		v.frame.inlined = fl & FL_INLINED;
		v.interval_self = rec_get_u(c);
		v.interval_total = rec_get_u(c);
		v.self = rec_get_f64(c);
		v.total = rec_get_f64(c);
		v.last_self = rec_get_u(c);
		if (c->bad)
			break;
		d->nodes[i + 1] =
		    cg_put(cg, parent ? d->nodes[parent] : 0, &v.frame, comm, fl & FL_OTHER, &v);
		if (d->nodes[i + 1] == 0)
			c->bad = true;
	}
	return cg;
}

/* Grow the frame's events to n (new ones zeroed). */
static void
dec_reserve(struct frame_sampling *fs, size_t n)
{
	if (fs->cap >= n)
		return;
	fs->events = xrealloc(fs->events, n * sizeof *fs->events);
	memset(fs->events + fs->cap, 0, (n - fs->cap) * sizeof *fs->events);
	fs->cap = n;
}

/* One event's rows and call graph. */
static void
dec_event_rows(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
               struct frame_event *ev)
{
	struct hist_snapshot *snap = &ev->rows;
	size_t n;

	snap->total_score = rec_get_f64(c);
	snap->interval_samples = rec_get_u(c);
	n = rec_get_count(c, 40);
	snap->n = 0;
	if (n > snap->cap) {
		snap->rows = xrealloc(snap->rows, n * sizeof *snap->rows);
		snap->cap = n;
	}
	for (size_t r = 0; r < n && !c->bad; r++) {
		dec_row(d, c, t, &snap->rows[r]);
		snap->rows[r].entry = &snap->rows[r].copy;
		snap->rows[r].sym_name = hist_sym_name(&snap->rows[r].copy);
		snap->n = r + 1;
	}
	cg_free(ev->cg);
	ev->cg = NULL;
	if (rec_get_u(c) != 0)
		ev->cg = dec_cg(d, c, t);
}

/* The sampling part back. */
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
	dec_reserve(fs, n);
	fs->nevents = n;
	for (size_t i = 0; i < n && !c->bad; i++) {
		struct frame_event *ev = &fs->events[i];
		const char *name = dec_str(d, c, t->nstrs);

		ev->name = name != NULL ? name : "?";
		ev->samples = rec_get_u(c);
		ev->total = rec_get_u(c);
		if (rows) {
			dec_event_rows(d, c, t, ev);
			continue;
		}
		/* counts only (a frozen screen's interval): the rows shown stay,
		 * but none of their samples is this interval's (history) */
		for (size_t r = 0; r < ev->rows.n; r++)
			ev->rows.rows[r].copy.last = ev->rows.rows[r].copy.children_last = 0;
		cg_free(ev->cg);
		ev->cg = NULL;
	}
	fs->rows |= rows;
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
