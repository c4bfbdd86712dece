/* srcline: inlined-function chains from DWARF (libdw), cached per
 * (DSO, address), with the inlined functions interned per DSO as symbols;
 * and line-table rows (file:line) of addresses, for annotation. */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/srcline.h"
#include "tracetop/util.h"

#define DW_BUCKETS 256            /* per-DSO state hash (chained) */
#define SYM_CHUNK 64              /* inlined symbols per allocation */
#define CACHE_MIN_SLOTS 1024      /* (dso, addr) cache: first size... */
#define CACHE_MAX_SLOTS (1 << 17) /* ...largest; cleared at half full */
#define UNNAMED_INLINE "[inlined]"
#define MAX_CU_RANGES (1 << 20)  /* bound on the fallback CU range table */
#define MAX_NEST 128             /* DIE nesting followed */
#define MAX_WALK_STEPS (1 << 22) /* DIEs visited per lookup, at most */

/* A block of interned symbols; blocks never move, so pointers stay valid. */
struct sym_chunk {
	struct sym_chunk *next;
	size_t n;
	struct sym syms[SYM_CHUNK];
};

/* An address range of a compilation unit (the .debug_aranges fallback). */
struct cu_range {
	uint64_t start, end;
	Dwarf_Off cu; /* offset of the CU DIE */
};

/* What we know of one DSO's debug info. */
struct dwinfo {
	const struct dso *d;
	struct dwinfo *next; /* bucket chain */
	int fd;              /* -1 when nothing is open */
	Elf *elf;
	Dwarf *dw; /* NULL: no usable DWARF, lookups cost nothing */
	struct sym_chunk *chunks;
	struct sym **names; /* open addressing by name */
	size_t nnames, names_cap;
	bool ranges_built; /* cu_ranges made (only when aranges fail) */
	struct cu_range *ranges;
	size_t nranges;
};

/* One cached answer: n symbols at pool[off]. d NULL marks a free slot. */
struct centry {
	const struct dso *d;
	uint64_t addr;
	uint32_t n, off;
};

static struct dwinfo *dw_buckets[DW_BUCKETS];
static struct dwinfo *dw_last; /* the DSO looked up last */

static struct centry *cache;
static size_t cache_cap, cache_used;
static const struct sym **pool;
static size_t pool_n, pool_cap;

static struct srcline_stats stats;

/* Mix a 64-bit value (splitmix64 finalizer). */
static uint64_t
mix64(uint64_t h)
{
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return h;
}

/* Open a DSO's debug info (its separate debug file if known); w->dw stays
 * NULL when there is no readable DWARF. */
static void
dwinfo_open(struct dwinfo *w, struct dso *d)
{
	const char *path;
	struct stat sb;

	stats.opens++;
	if (!d->loaded)
		(void)dso_offset_to_addr(d, 0); /* loads symbols: finds debug_file */
	path = d->debug_file != NULL ? d->debug_file : d->name;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return;
	/* O_NONBLOCK: a FIFO planted under a library's name must not hang us. */
	w->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (w->fd < 0)
		return;
	if (fstat(w->fd, &sb) != 0 || !S_ISREG(sb.st_mode))
		goto fail;
	w->elf = elf_begin(w->fd, ELF_C_READ_MMAP, NULL);
	if (w->elf == NULL || elf_kind(w->elf) != ELF_K_ELF)
		goto fail;
	w->dw = dwarf_begin_elf(w->elf, DWARF_C_READ, NULL);
	if (w->dw != NULL)
		return;
fail:
	if (w->elf != NULL)
		elf_end(w->elf);
	w->elf = NULL;
	close(w->fd);
	w->fd = -1;
}

/* The state of a DSO, opened on first use. */
static struct dwinfo *
dwinfo_get(struct dso *d)
{
	size_t h;
	struct dwinfo *w;

	if (dw_last != NULL && dw_last->d == d)
		return dw_last;
	h = mix64((uintptr_t)d) & (DW_BUCKETS - 1);
	for (w = dw_buckets[h]; w != NULL; w = w->next)
		if (w->d == d)
			return dw_last = w;
	w = xcalloc(1, sizeof *w);
	w->d = d;
	w->fd = -1;
	w->next = dw_buckets[h];
	dw_buckets[h] = w;
	dwinfo_open(w, d);
	return dw_last = w;
}

/* Close a DSO's debug info and free its symbols. */
static void
dwinfo_free(struct dwinfo *w)
{
	struct sym_chunk *c, *next;
	size_t i;

	if (w->dw != NULL)
		dwarf_end(w->dw);
	if (w->elf != NULL)
		elf_end(w->elf);
	if (w->fd >= 0)
		close(w->fd);
	for (c = w->chunks; c != NULL; c = next) {
		next = c->next;
		for (i = 0; i < c->n; i++)
			free((char *)c->syms[i].name);
		free(c);
	}
	free(w->names);
	free(w->ranges);
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

/* The DSO's symbol for an inlined function instance, made on first sight. */
static const struct sym *
intern(struct dwinfo *w, Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);
	struct sym_chunk *c;
	struct sym *s;
	size_t slot;

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

/* Order CU ranges by start address. */
static int
range_cmp(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Add the address ranges of one CU DIE to the table. */
static void
add_cu_ranges(struct dwinfo *w, Dwarf_Die *cudie, size_t *cap)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(cudie, off, &base, &start, &end)) > 0 &&
	       w->nranges < MAX_CU_RANGES) {
		if (end <= start)
			continue;
		if (w->nranges == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			w->ranges = xrealloc(w->ranges, *cap * sizeof *w->ranges);
		}
		w->ranges[w->nranges++] =
		    (struct cu_range){.start = start, .end = end, .cu = dwarf_dieoffset(cudie)};
	}
}

/* Build the CU range table from every CU's DW_AT_low_pc/high_pc/ranges, for
 * files without .debug_aranges (clang's default). */
static void
build_cu_ranges(struct dwinfo *w)
{
	Dwarf_Off off = 0, next;
	Dwarf_Die cudie;
	size_t hsize, cap = 0;

	w->ranges_built = true;
	while (dwarf_nextcu(w->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(w->dw, off + hsize, &cudie) != NULL)
			add_cu_ranges(w, &cudie, &cap);
		off = next;
	}
	qsort(w->ranges, w->nranges, sizeof *w->ranges, range_cmp);
}

/* The CU DIE covering addr: from .debug_aranges, else from our table. */
static Dwarf_Die *
cu_at(struct dwinfo *w, uint64_t addr, Dwarf_Die *cudie)
{
	size_t lo = 0, hi, mid;

	if (dwarf_addrdie(w->dw, addr, cudie) != NULL)
		return cudie;
	if (!w->ranges_built)
		build_cu_ranges(w);
	hi = w->nranges;
	while (lo < hi) { /* first range starting past addr */
		mid = lo + (hi - lo) / 2;
		if (w->ranges[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= w->ranges[lo - 1].end)
		return NULL;
	return dwarf_offdie(w->dw, w->ranges[lo - 1].cu, cudie);
}

/* State of one walk down a CU: the inlined instances met, outermost first. */
struct walk {
	uint64_t addr;
	const struct sym *chain[MAX_NEST];
	size_t n;
	size_t steps; /* DIEs visited, bounded against hostile files */
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

	if (depth >= MAX_NEST || dwarf_child(parent, &child) != 0)
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
			if (tag == DW_TAG_subprogram)
				wk->n = 0; /* the real (possibly nested) function */
			else if (tag == DW_TAG_inlined_subroutine && wk->n < MAX_NEST)
				wk->chain[wk->n++] = intern(w, &child);
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
resolve(struct dwinfo *w, uint64_t addr, const struct sym **out)
{
	struct walk wk;
	Dwarf_Die cudie;
	size_t k;

	stats.scopes++;
	if (cu_at(w, addr, &cudie) == NULL)
		return 0;
	wk.addr = addr;
	wk.n = wk.steps = 0;
	(void)walk_scopes(w, &cudie, &wk, 0);
	for (k = 0; k < wk.n && k < SRCLINE_MAX_DEPTH; k++)
		out[k] = wk.chain[wk.n - 1 - k];
	return k;
}

/* The cache slot for (d, addr): its entry or the free slot it would take. */
static struct centry *
cache_slot(const struct dso *d, uint64_t addr)
{
	size_t mask = cache_cap - 1, i = mix64(addr ^ mix64((uintptr_t)d)) & mask;

	while (cache[i].d != NULL && (cache[i].d != d || cache[i].addr != addr))
		i = (i + 1) & mask;
	return &cache[i];
}

/* Empty the cache, keeping its size. */
static void
cache_flush(void)
{
	memset(cache, 0, cache_cap * sizeof *cache);
	cache_used = 0;
	pool_n = 0;
	stats.flushes++;
}

/* Make room for one more entry: grow up to CACHE_MAX_SLOTS, then flush. */
static void
cache_reserve(void)
{
	struct centry *old = cache;
	size_t oldcap = cache_cap, i;

	if ((cache_used + 1) * 2 <= cache_cap)
		return;
	if (cache_cap >= CACHE_MAX_SLOTS) {
		cache_flush();
		return;
	}
	cache_cap = oldcap ? oldcap * 2 : CACHE_MIN_SLOTS;
	cache = xcalloc(cache_cap, sizeof *cache);
	for (i = 0; i < oldcap; i++)
		if (old[i].d != NULL)
			*cache_slot(old[i].d, old[i].addr) = old[i];
	free(old);
}

/* Remember n symbols for (d, addr). */
static void
cache_put(const struct dso *d, uint64_t addr, const struct sym **syms, size_t n)
{
	struct centry *e;

	cache_reserve();
	if (pool_n + n > pool_cap) {
		pool_cap = pool_cap ? pool_cap * 2 : 1024;
		if (pool_cap < pool_n + n)
			pool_cap = pool_n + n;
		pool = xrealloc(pool, pool_cap * sizeof *pool);
	}
	memcpy(pool + pool_n, syms, n * sizeof *syms);
	e = cache_slot(d, addr);
	e->d = d;
	e->addr = addr;
	e->n = (uint32_t)n;
	e->off = (uint32_t)pool_n;
	pool_n += n;
	cache_used++;
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
	struct dwinfo *w;
	struct centry *e;
	size_t n;

	if (d == NULL || d->kind != DSO_ELF)
		return 0;
	stats.lookups++;
	w = dwinfo_get(d);
	if (w->dw == NULL)
		return 0;
	if (cache_cap > 0) {
		e = cache_slot(d, addr);
		if (e->d != NULL) {
			stats.hits++;
			return copy_out(out, max, pool + e->off, e->n);
		}
	}
	n = resolve(w, addr, found);
	cache_put(d, addr, found, n);
	return copy_out(out, max, found, n);
}

/* The line table's row for an address of a DSO. */
bool
srcline_line(struct dso *d, uint64_t addr, const char **file, int *line)
{
	struct dwinfo *w;
	Dwarf_Die cudie;
	Dwarf_Line *l;

	if (d == NULL || d->kind != DSO_ELF)
		return false;
	w = dwinfo_get(d);
	if (w->dw == NULL || cu_at(w, addr, &cudie) == NULL ||
	    (l = dwarf_getsrc_die(&cudie, addr)) == NULL || dwarf_lineno(l, line) != 0)
		return false;
	*file = dwarf_linesrc(l, NULL, NULL);
	return *file != NULL;
}

/* Whether a DSO has DWARF. */
bool
srcline_has_debug(struct dso *d)
{
	return d != NULL && d->kind == DSO_ELF && dwinfo_get(d)->dw != NULL;
}

/* Counters. */
void
srcline_get_stats(struct srcline_stats *st)
{
	*st = stats;
	st->cached = cache_used;
}

/* Free everything. */
void
srcline_free_all(void)
{
	struct dwinfo *w, *next;
	size_t i;

	for (i = 0; i < DW_BUCKETS; i++) {
		for (w = dw_buckets[i]; w != NULL; w = next) {
			next = w->next;
			dwinfo_free(w);
		}
		dw_buckets[i] = NULL;
	}
	dw_last = NULL;
	free(cache);
	cache = NULL;
	cache_cap = cache_used = 0;
	free(pool);
	pool = NULL;
	pool_n = pool_cap = 0;
	memset(&stats, 0, sizeof stats);
}
