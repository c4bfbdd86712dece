/* srcline: inlined-function chains from DWARF (libdw), cached per
 * (DSO, address), with the inlined functions interned per DSO as symbols;
 * and line-table rows (file:line) of addresses, for annotation. libdw
 * handles are not shared between threads: the loop thread's lookups use
 * one set of open files (main_sl), the worker's another (each async
 * front's), and answers cross over as interned symbols, which never change
 * once made. */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tracetop/srcline.h"
#include "tracetop/sym-elf.h"
#include "tracetop/sym-inflate.h"
#include "tracetop/util.h"
#include "tracetop/worker.h"
#include "srcline-impl.h"

#define DW_BUCKETS 256            /* per-DSO state hash (chained) */
#define CACHE_MIN_SLOTS 1024      /* (dso, addr) cache: first size... */
#define CACHE_MAX_SLOTS (1 << 17) /* ...largest; cleared at half full */
#define UNNAMED_INLINE "[inlined]"
#define MAX_WALK_STEPS (1 << 22) /* DIEs visited per lookup, at most */
#define PENDING UINT32_MAX       /* centry.n of a question still with the worker */
#define NODEBUG_ADDR UINT64_MAX  /* centry.addr marking a DSO without DWARF */
/* Debug files up to this size are opened at once by the worker (about
 * 10 ms); bigger ones wait until the questions about open ones are done. */
#define ASYNC_QUICK_OPEN (256 << 10)

/* One cached answer: n symbols at pool[off]. d NULL marks a free slot. */
struct centry {
	const struct dso *d;
	uint64_t addr;
	uint32_t n, off;
};

/* The open debug info of one thread. */
struct srcline {
	bool inlines_only; /* the worker's: no line tables, no locations */
	struct dwinfo *buckets[DW_BUCKETS];
	struct dwinfo *last; /* the DSO looked up last */
	uint64_t opens, scopes;
	uint64_t fn_hits;  /* of the scopes, read from a flattened function */
	uint64_t fn_tries; /* functions flattened, or found not to be flattenable */
};

/* Answers by (dso, addr), on the thread that asks. */
struct scache {
	struct centry *slots;
	size_t cap, used;
	const struct sym **pool;
	size_t pool_n, pool_cap;
	uint64_t flushes;
};

/* The engine's front: questions to the worker, answers kept here. */
struct srcline_async {
	struct srcline sl; /* used on the worker thread only */
	struct scache cache;
	struct worker *w;
};

static struct srcline main_sl;
static struct scache main_cache;
static uint64_t main_lookups, main_hits;

/* Open a DSO's debug info (its separate debug file if known); w->dw stays
 * NULL when there is no readable DWARF. */
static void
dwinfo_open(struct srcline *sl, struct dwinfo *w, struct dso *d)
{
	const char *path;

	w->opened = true;
	sl->opens++;
	/* Loading touches the DSO cache: only main_sl's thread gets here with
	 * an unloaded DSO (the async front asks about loaded ones only). */
	if (!d->loaded)
		(void)dso_offset_to_addr(d, 0); /* loads symbols: finds debug_file */
	path = d->debug_file != NULL ? d->debug_file : dso_path(d);
	w->elf = sl->inlines_only ? symelf_open_private(path, &w->fd, NULL)
	                          : symelf_open(path, &w->fd, NULL);
	if (w->elf == NULL)
		return;
	if (sl->inlines_only)
		w->elf = syminfl_for_inlines(w->elf, &w->fd);
	w->dw = dwarf_begin_elf(w->elf, DWARF_C_READ, NULL);
	if (w->dw == NULL) {
		symelf_close(w->elf, w->fd);
		w->elf = NULL;
		w->fd = -1;
	}
}

/* The state of a DSO, made (not opened) on first use. */
static struct dwinfo *
dwinfo_entry(struct srcline *sl, const struct dso *d)
{
	size_t h = hash_u64((uintptr_t)d) & (DW_BUCKETS - 1);
	struct dwinfo *w;

	if (sl->last != NULL && sl->last->d == d)
		return sl->last;
	for (w = sl->buckets[h]; w != NULL; w = w->next)
		if (w->d == d)
			return sl->last = w;
	w = xcalloc(1, sizeof *w);
	w->d = d;
	w->size = -1;
	w->fd = -1;
	w->next = sl->buckets[h];
	sl->buckets[h] = w;
	return sl->last = w;
}

/* The state of a DSO, opened on first use. */
static struct dwinfo *
dwinfo_get(struct srcline *sl, struct dso *d)
{
	struct dwinfo *w = dwinfo_entry(sl, d);

	if (!w->opened)
		dwinfo_open(sl, w, d);
	return w;
}

/* Whether opening a loaded DSO's debug info would be slow (a big file). */
static bool
dwinfo_slow_open(struct dwinfo *w, const struct dso *d)
{
	struct stat sb;

	if (w->opened)
		return false;
	if (w->size < 0)
		w->size = stat(d->debug_file != NULL ? d->debug_file : dso_path(d), &sb) == 0
		              ? sb.st_size
		              : 0;
	return w->size > ASYNC_QUICK_OPEN;
}

/* Close a DSO's debug info and free its symbols. */
static void
dwinfo_free(struct dwinfo *w)
{
	struct sym_chunk *c, *next;
	size_t i;

	srcline_view_close(w);
	srcline_fn_free(w);
	if (w->dw != NULL)
		dwarf_end(w->dw);
	if (w->elf != NULL)
		symelf_close(w->elf, w->fd);
	for (c = w->chunks; c != NULL; c = next) {
		next = c->next;
		for (i = 0; i < c->n; i++) {
			sym_free_dname(&c->syms[i]);
			free((char *)c->syms[i].name);
		}
		free(c);
	}
	free(w->names);
	free(w->ranges);
	free(w->ar);
	free(w);
}

/* Where name is, or belongs, in a DSO's name table (which has a free slot). */
static size_t
name_slot(const struct dwinfo *w, const char *name)
{
	size_t mask = w->names_cap - 1, i = str_hash(name) & mask;

	while (w->names[i] != NULL && strcmp(w->names[i]->name, name) != 0)
		i = (i + 1) & mask;
	return i;
}

/* Double a DSO's name table (kept at most half full). */
static void
names_grow(struct dwinfo *w)
{
	struct sym **old = w->names;
	size_t oldcap = w->names_cap, i;

	w->names_cap = oldcap ? oldcap * 2 : 64;
	w->names = xcalloc(w->names_cap, sizeof *w->names);
	for (i = 0; i < oldcap; i++)
		if (old[i] != NULL)
			w->names[name_slot(w, old[i]->name)] = old[i];
	free(old);
}

/* The address range of an inlined instance: [low_pc, high_pc), or its entry
 * pc with size 0, or 0/0. */
static void
die_range(Dwarf_Die *die, uint64_t *start, uint64_t *size)
{
	Dwarf_Addr lo, hi;

	*start = *size = 0;
	if (dwarf_lowpc(die, &lo) == 0) {
		*start = lo;
		if (dwarf_highpc(die, &hi) == 0 && hi > lo)
			*size = hi - lo;
	} else if (dwarf_entrypc(die, &lo) == 0) {
		*start = lo;
	}
}

/* Attribute name of die or of the DIEs its abstract origin and the
 * declaration that specifies lead to (as dwarf_attr_integrate), into
 * attr, or NULL. In a view of one unit (in_view) a reference out of the
 * unit (DW_FORM_ref_addr and the like) cannot be followed: *unsafe set. */
static Dwarf_Attribute *
attr_integrate(Dwarf_Die *die, int name, Dwarf_Attribute *attr, bool in_view, bool *unsafe)
{
	Dwarf_Die cur = *die;

	for (int hop = 0; hop < 16; hop++) {
		Dwarf_Attribute ref;
		int form;

		if (dwarf_attr(&cur, name, attr) != NULL)
			return attr;
		if (dwarf_attr(&cur, DW_AT_abstract_origin, &ref) == NULL &&
		    dwarf_attr(&cur, DW_AT_specification, &ref) == NULL)
			return NULL;
		form = dwarf_whatform(&ref);
		if (in_view && (form == DW_FORM_ref_addr || form == DW_FORM_GNU_ref_alt ||
		                form == DW_FORM_ref_sig8)) {
			*unsafe = true;
			return NULL;
		}
		if (dwarf_formref_die(&ref, &cur) == NULL)
			return NULL;
	}
	return NULL;
}

/* The name of an inlined function: its linkage (mangled) name, which
 * demangles to the qualified one ("ns::Box<int>::get(int)"), else its
 * plain DW_AT_name ("get", or a C function's name). Both may sit on the
 * abstract origin or the declaration it specifies, which integrate
 * reaches (NULL with *unsafe when that is out of a viewed unit). */
static const char *
inline_name(Dwarf_Die *die, bool in_view, bool *unsafe)
{
	Dwarf_Attribute attr;
	const char *name;

	if ((attr_integrate(die, DW_AT_linkage_name, &attr, in_view, unsafe) != NULL ||
	     attr_integrate(die, DW_AT_MIPS_linkage_name, &attr, in_view, unsafe) != NULL) &&
	    (name = dwarf_formstring(&attr)) != NULL && name[0] != '\0')
		return name;
	if (*unsafe || attr_integrate(die, DW_AT_name, &attr, in_view, unsafe) == NULL)
		return NULL;
	return dwarf_formstring(&attr);
}

/* The DSO's symbol for an inlined function instance, made on first sight. */
const struct sym *
srcline_intern(struct dwinfo *w, Dwarf_Die *die, bool in_view, bool *unsafe)
{
	const char *name = inline_name(die, in_view, unsafe);
	struct sym_chunk *c;
	struct sym *s;
	size_t slot;

	if (*unsafe)
		return NULL; /* named from the whole file instead */
	if (name == NULL || name[0] == '\0')
		name = UNNAMED_INLINE;
	if ((w->nnames + 1) * 2 > w->names_cap)
		names_grow(w);
	slot = name_slot(w, name);
	if (w->names[slot] != NULL)
		return w->names[slot];
	c = w->chunks;
	if (c == NULL || c->n == SYM_CHUNK) {
		c = xcalloc(1, sizeof *c);
		c->next = w->chunks;
		w->chunks = c;
	}
	s = &c->syms[c->n++];
	s->name = xstrdup(name);
	s->module = NULL;
	die_range(die, &s->start, &s->size);
	w->names[slot] = s;
	w->nnames++;
	return s;
}

/* State of one walk down a CU: the inlined instances met, outermost first. */
struct walk {
	uint64_t addr;
	const struct sym *chain[SRCLINE_MAX_NEST];
	size_t n;
	size_t steps; /* DIEs visited, bounded against hostile files */
	bool in_view; /* in a view of the unit (srcline-cu.c) */
	bool unsafe;  /* a name is out of the viewed unit */
	bool scoped;  /* a scope holding the address was met */
	bool has_fn;  /* the first was a function: fn */
	Dwarf_Die fn;
};

/* Descend from parent to the innermost scope holding the address, recording
 * the inlined instances on the way; whether a scope was found. One top-down
 * walk that skips unrelated subtrees: about four times cheaper than
 * dwarf_getscopes plus dwarf_getscopes_die, which eu-addr2line -i uses. */
static bool
walk_scopes(struct dwinfo *w, Dwarf_Die *parent, struct walk *wk, int depth)
{
	Dwarf_Die child;
	int tag;

	if (depth >= SRCLINE_MAX_NEST || dwarf_child(parent, &child) != 0)
		return false;
	do {
		if (++wk->steps > MAX_WALK_STEPS)
			return false;
		tag = dwarf_tag(&child);
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
			if (dwarf_haspc(&child, wk->addr) <= 0)
				break;
			if (!wk->scoped) {
				wk->scoped = true;
				wk->has_fn = tag == DW_TAG_subprogram;
				wk->fn = child;
			}
			if (tag == DW_TAG_subprogram)
				wk->n = 0; /* the real (possibly nested) function */
			else if (tag == DW_TAG_inlined_subroutine && wk->n < SRCLINE_MAX_NEST &&
			         (wk->chain[wk->n] =
			              srcline_intern(w, &child, wk->in_view, &wk->unsafe)) != NULL)
				wk->n++;
			if (wk->unsafe)
				return true;
			(void)walk_scopes(w, &child, wk, depth + 1);
			return true;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			if (walk_scopes(w, &child, wk, depth + 1))
				return true;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* The inlined instances containing addr, innermost first, into out
 * (SRCLINE_MAX_DEPTH room; deeper chains keep their innermost part). */
static size_t
resolve(struct srcline *sl, struct dwinfo *w, uint64_t addr, const struct sym **out)
{
	struct walk wk;
	Dwarf_Die cudie;
	uint64_t unit;
	bool in_unit = srcline_unit_of(w, addr, &unit);
	int n = -1;
	size_t k;

	sl->scopes++;
	if (in_unit && (n = srcline_fn_chain(w, unit, addr, wk.chain, SRCLINE_MAX_NEST)) >= 0) {
		sl->fn_hits++;
		wk.n = (size_t)n;
	} else {
		for (bool views = sl->inlines_only;; views = false) {
			if (srcline_cu_at(w, addr, &cudie, views, &wk.in_view) == NULL)
				return 0;
			wk.addr = addr;
			wk.n = wk.steps = 0;
			wk.unsafe = wk.scoped = wk.has_fn = false;
			(void)walk_scopes(w, &cudie, &wk, 0);
			if (!wk.unsafe || !wk.in_view)
				break;
		}
		/* the function's other addresses from a table of it */
		if (in_unit && n == -1 && wk.has_fn && !wk.unsafe && wk.steps <= MAX_WALK_STEPS) {
			sl->fn_tries++;
			srcline_fn_add(w, unit, &wk.fn, wk.in_view);
		}
	}
	for (k = 0; k < wk.n && k < SRCLINE_MAX_DEPTH; k++)
		out[k] = wk.chain[wk.n - 1 - k];
	return k;
}

/* The cache slot for (d, addr): its entry or the free slot it would take. */
static struct centry *
cache_slot(struct scache *c, const struct dso *d, uint64_t addr)
{
	size_t mask = c->cap - 1,
	       i = hash_u64(hash_mix(hash_mix(HASH_SEED, (uintptr_t)d), addr)) & mask;

	while (c->slots[i].d != NULL && (c->slots[i].d != d || c->slots[i].addr != addr))
		i = (i + 1) & mask;
	return &c->slots[i];
}

/* The cached entry for (d, addr), or NULL. */
static const struct centry *
cache_find(struct scache *c, const struct dso *d, uint64_t addr)
{
	const struct centry *e;

	if (c->cap == 0)
		return NULL;
	e = cache_slot(c, d, addr);
	return e->d != NULL ? e : NULL;
}

/* Empty the cache, keeping its size. */
static void
cache_flush(struct scache *c)
{
	memset(c->slots, 0, c->cap * sizeof *c->slots);
	c->used = 0;
	c->pool_n = 0;
	c->flushes++;
}

/* Make room for one more entry: grow up to CACHE_MAX_SLOTS, then flush. */
static void
cache_reserve(struct scache *c)
{
	struct centry *old = c->slots;
	size_t oldcap = c->cap, i;

	if ((c->used + 1) * 2 <= c->cap)
		return;
	if (c->cap >= CACHE_MAX_SLOTS) {
		cache_flush(c);
		return;
	}
	c->cap = oldcap ? oldcap * 2 : CACHE_MIN_SLOTS;
	c->slots = xcalloc(c->cap, sizeof *c->slots);
	for (i = 0; i < oldcap; i++)
		if (old[i].d != NULL)
			*cache_slot(c, old[i].d, old[i].addr) = old[i];
	free(old);
}

/* Remember n symbols (or PENDING with none) for (d, addr), replacing what
 * was there. */
static void
cache_put(struct scache *c, const struct dso *d, uint64_t addr, const struct sym *const *syms,
          uint32_t n)
{
	size_t len = n == PENDING ? 0 : n;
	struct centry *e;

	cache_reserve(c);
	if (c->pool_n + len > c->pool_cap) {
		c->pool_cap = c->pool_cap ? c->pool_cap * 2 : 1024;
		if (c->pool_cap < c->pool_n + len)
			c->pool_cap = c->pool_n + len;
		c->pool = xrealloc(c->pool, c->pool_cap * sizeof *c->pool);
	}
	if (len > 0)
		memcpy(c->pool + c->pool_n, syms, len * sizeof *syms);
	e = cache_slot(c, d, addr);
	if (e->d == NULL)
		c->used++;
	*e = (struct centry){.d = d, .addr = addr, .n = n, .off = (uint32_t)c->pool_n};
	c->pool_n += len;
}

/* Free a cache's memory. */
static void
cache_free(struct scache *c)
{
	free(c->slots);
	free(c->pool);
	memset(c, 0, sizeof *c);
}

/* Copy at most max of n symbols; how many were copied. */
static size_t
copy_out(const struct sym **out, size_t max, const struct sym *const *syms, size_t n)
{
	if (n > max)
		n = max;
	if (n > 0)
		memcpy(out, syms, n * sizeof *syms);
	return n;
}

/* Inlined functions at an address of a DSO, innermost first. */
size_t
srcline_inlines(struct dso *d, uint64_t addr, const struct sym **out, size_t max)
{
	const struct sym *found[SRCLINE_MAX_DEPTH];
	const struct centry *e;
	struct dwinfo *w;
	size_t n;

	if (d == NULL || d->kind != DSO_ELF)
		return 0;
	main_lookups++;
	w = dwinfo_get(&main_sl, d);
	if (w->dw == NULL)
		return 0;
	if ((e = cache_find(&main_cache, d, addr)) != NULL) {
		main_hits++;
		return copy_out(out, max, main_cache.pool + e->off, e->n);
	}
	n = resolve(&main_sl, w, addr, found);
	cache_put(&main_cache, d, addr, found, (uint32_t)n);
	return copy_out(out, max, found, n);
}

/* The line table's row for an address of a DSO. */
bool
srcline_line(struct dso *d, uint64_t addr, const char **file, int *line)
{
	struct dwinfo *w;
	Dwarf_Die cudie;
	Dwarf_Line *l;
	bool in_view;

	if (d == NULL || d->kind != DSO_ELF)
		return false;
	w = dwinfo_get(&main_sl, d);
	if (w->dw == NULL || srcline_cu_at(w, addr, &cudie, false, &in_view) == NULL ||
	    (l = dwarf_getsrc_die(&cudie, addr)) == NULL || dwarf_lineno(l, line) != 0)
		return false;
	*file = dwarf_linesrc(l, NULL, NULL);
	return *file != NULL;
}

/* Whether a DSO has DWARF. */
bool
srcline_has_debug(struct dso *d)
{
	return d != NULL && d->kind == DSO_ELF && dwinfo_get(&main_sl, d)->dw != NULL;
}

/* Counters. */
void
srcline_get_stats(struct srcline_stats *st)
{
	*st = (struct srcline_stats){.lookups = main_lookups,
	                             .hits = main_hits,
	                             .opens = main_sl.opens,
	                             .scopes = main_sl.scopes,
	                             .fn_hits = main_sl.fn_hits,
	                             .fn_tries = main_sl.fn_tries,
	                             .flushes = main_cache.flushes,
	                             .cached = main_cache.used};
}

/* Close one thread's debug files and free their symbols. */
static void
sl_free(struct srcline *sl)
{
	struct dwinfo *w, *next;
	size_t i;

	for (i = 0; i < DW_BUCKETS; i++)
		for (w = sl->buckets[i]; w != NULL; w = next) {
			next = w->next;
			dwinfo_free(w);
		}
	memset(sl, 0, sizeof *sl);
}

/* Free everything. */
void
srcline_free_all(void)
{
	sl_free(&main_sl);
	cache_free(&main_cache);
	main_lookups = main_hits = 0;
}

/* An answer too deep for the job's slots: ptr[0] is a malloc'd array. */
#define ASYNC_HEAP 2

/* The worker's side of an inline question: the chain at (obj, arg), or
 * status 1 when the DSO has no DWARF at all. A big debug file not opened
 * yet waits while other questions do: opening libc's takes 100-200 ms, and
 * the addresses of other DSOs should not wait behind it. */
static bool
async_run(struct worker_job *j, bool may_defer)
{
	struct srcline_async *a = j->ctx;
	const struct sym *found[SRCLINE_MAX_DEPTH];
	struct dwinfo *w;
	size_t n, k;

	if (may_defer && dwinfo_slow_open(dwinfo_entry(&a->sl, j->obj), j->obj))
		return false;
	w = dwinfo_get(&a->sl, j->obj);
	j->n = 0;
	j->status = w->dw == NULL;
	if (w->dw == NULL)
		return true;
	n = resolve(&a->sl, w, j->arg, found);
	if (n > WORKER_JOB_PTRS) {
		/* deeper than the job holds: the chain on the heap, freed by done */
		const struct sym **heap = xmalloc(n * sizeof *heap);

		memcpy(heap, found, n * sizeof *heap);
		j->ptr[0] = heap;
		j->status = ASYNC_HEAP;
		j->n = (uint32_t)n;
		return true;
	}
	for (k = 0; k < n; k++)
		j->ptr[k] = found[k];
	j->n = (uint32_t)k;
	return true;
}

/* The loop thread's side: keep the answer. */
static void
async_done(struct worker_job *j)
{
	struct srcline_async *a = j->ctx;
	const struct sym *syms[WORKER_JOB_PTRS];
	uint32_t k;

	if (j->status == ASYNC_HEAP) {
		cache_put(&a->cache, j->obj, j->arg, (const struct sym *const *)j->ptr[0], j->n);
		free((void *)(uintptr_t)j->ptr[0]);
		return;
	}
	if (j->status != 0) {
		cache_put(&a->cache, j->obj, NODEBUG_ADDR, NULL, 0);
		return;
	}
	for (k = 0; k < j->n; k++)
		syms[k] = j->ptr[k];
	cache_put(&a->cache, j->obj, j->arg, syms, j->n);
}

/* A front for the loop thread. */
struct srcline_async *
srcline_async_new(struct worker *w)
{
	struct srcline_async *a = xcalloc(1, sizeof *a);

	a->w = w;
	a->sl.inlines_only = true;
	return a;
}

/* Inlined functions at an address, or -1 while the worker looks. */
int
srcline_async_inlines(struct srcline_async *a, struct dso *d, uint64_t addr, const struct sym **out,
                      size_t max)
{
	struct worker_job j = {
	    .run = async_run, .done = async_done, .ctx = a, .obj = d, .arg = addr};
	const struct centry *e;

	if (d == NULL || d->kind != DSO_ELF || !d->loaded || addr == NODEBUG_ADDR ||
	    cache_find(&a->cache, d, NODEBUG_ADDR) != NULL)
		return 0;
	if ((e = cache_find(&a->cache, d, addr)) != NULL)
		return e->n == PENDING ? -1 : (int)copy_out(out, max, a->cache.pool + e->off, e->n);
	/* A full queue: no mark, so a later sample asks again. */
	if (worker_post(a->w, &j))
		cache_put(&a->cache, d, addr, NULL, PENDING);
	return -1;
}

/* Free the front (its worker stopped first). */
void
srcline_async_free(struct srcline_async *a)
{
	if (a == NULL)
		return;
	sl_free(&a->sl);
	cache_free(&a->cache);
	free(a);
}
