/* srcline-fn: the inlined instances of whole functions, by address. The
 * walk down a unit (srcline.c) finds one address's chain; a function's
 * samples fall on many addresses, and the worker's walk of a big unit
 * (libc's, ld.so's), in a view of it made afresh when the unit changes,
 * costs up to a millisecond: with 2,000 processes beside the profiler it
 * was three quarters of tracetop's CPU. So the first walk into a function
 * also flattens its tree of scopes into a table, and every later address in
 * the function reads its chain from there, as the walk would have found it:
 * the first scope holding the address at each level, a nested function
 * starting the chain again, types and namespaces looked through. A function
 * the table cannot hold exactly (too big, a name out of the viewed unit,
 * overlapping another) is walked each time, as before. */
#include "config.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "srcline-impl.h"
#include "tracetop/util.h"

#define FN_MAX_DIES (1 << 16)    /* DIEs visited to flatten one function, at most */
#define FN_MAX_ENTRIES (1 << 16) /* scopes kept per DSO, at most (some 3 MiB) */

bool srcline_flatten = true;
size_t srcline_flatten_max_dies = FN_MAX_DIES;

/* One scope of a function, in the order of its DIEs. */
struct fn_scope {
	uint32_t next;         /* the index past its subtree */
	uint32_t r0, nr;       /* its address ranges, in the table's */
	const struct sym *sym; /* an inlined instance's symbol, else NULL */
	uint8_t kind; /* FN_SCOPE, FN_NESTED (a function in it), FN_LOOK (a type, a namespace) */
};

enum { FN_SCOPE, FN_NESTED, FN_LOOK };

/* One function flattened. */
struct fn_table {
	struct fn_scope *s;
	uint32_t n, cap;
	struct fn_range {
		uint64_t start, end;
	} * r;
	uint32_t nr, rcap;
	size_t dies;
};

/* Where a function lies: one of its ranges, in its unit. */
struct fn_span {
	uint64_t unit, start, end;
	struct fn_table *t;
};

/* The functions of one DSO flattened so far, their spans sorted. */
struct srcline_fns {
	struct fn_span *spans;
	size_t n, cap;
	struct fn_table **tables;
	size_t ntables, tables_cap;
	size_t entries;
};

/* What the spans of a function the table cannot hold point to. */
static struct fn_table fn_none;

/* Order spans by unit, then start. */
static int
span_cmp(uint64_t unit, uint64_t start, const struct fn_span *b)
{
	if (unit != b->unit)
		return unit < b->unit ? -1 : 1;
	return start < b->start ? -1 : start > b->start ? 1 : 0;
}

/* The index of the first span not before (unit, start). */
static size_t
span_lower(const struct srcline_fns *f, uint64_t unit, uint64_t start)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (span_cmp(unit, start, &f->spans[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The table of the flattened function of unit whose span holds addr. */
static struct fn_table *
fn_find(const struct srcline_fns *f, uint64_t unit, uint64_t addr)
{
	size_t i;

	if (f == NULL || f->n == 0)
		return NULL;
	i = span_lower(f, unit, addr + 1); /* the first span starting past addr */
	if (i == 0)
		return NULL;
	i--;
	return f->spans[i].unit == unit && f->spans[i].start <= addr && addr < f->spans[i].end
	           ? f->spans[i].t
	           : NULL;
}

/* Whether a scope's ranges hold addr. */
static bool
scope_has(const struct fn_table *t, const struct fn_scope *s, uint64_t addr)
{
	for (uint32_t k = 0; k < s->nr; k++)
		if (t->r[s->r0 + k].start <= addr && addr < t->r[s->r0 + k].end)
			return true;
	return false;
}

/* The walk over scopes [i, end) of t (srcline.c's walk_scopes, on the
 * table): whether a scope holding addr was found among them. */
static bool
fn_walk(const struct fn_table *t, uint32_t i, uint32_t end, uint64_t addr, const struct sym **chain,
        size_t *n, size_t max)
{
	while (i < end) {
		const struct fn_scope *s = &t->s[i];

		if (s->kind == FN_LOOK) {
			if (fn_walk(t, i + 1, s->next, addr, chain, n, max))
				return true;
		} else if (scope_has(t, s, addr)) {
			if (s->kind == FN_NESTED)
				*n = 0;
			else if (s->sym != NULL && *n < max)
				chain[(*n)++] = s->sym;
			(void)fn_walk(t, i + 1, s->next, addr, chain, n, max);
			return true;
		}
		i = s->next;
	}
	return false;
}

/* The chain at addr, outermost first, from the function flattened there:
 * its length, or -1 when none is. */
int
srcline_fn_chain(struct dwinfo *w, uint64_t unit, uint64_t addr, const struct sym **chain,
                 size_t max)
{
	const struct fn_table *t = fn_find(w->fns, unit, addr);
	size_t n = 0;

	if (t == NULL)
		return -1;
	if (t == &fn_none)
		return -2;
	(void)fn_walk(t, 0, t->n, addr, chain, &n, max);
	return (int)n;
}

/* Add die's address ranges to t; how many. */
static uint32_t
add_ranges(struct fn_table *t, Dwarf_Die *die)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;
	uint32_t n = 0;

	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
		if (end <= start)
			continue;
		if (t->nr == t->rcap) {
			t->rcap = t->rcap ? 2 * t->rcap : 16;
			t->r = xrealloc(t->r, t->rcap * sizeof *t->r);
		}
		t->r[t->nr++] = (struct fn_range){start, end};
		n++;
	}
	return n;
}

/* Flatten the scopes under parent into t, as walk_scopes meets them;
 * false when the table cannot stand for the walk. */
static bool
flatten(struct dwinfo *w, struct fn_table *t, Dwarf_Die *parent, int depth, bool in_view)
{
	Dwarf_Die child;

	if (depth >= SRCLINE_MAX_NEST || dwarf_child(parent, &child) != 0)
		return true;
	do {
		int tag = dwarf_tag(&child);
		uint8_t kind;
		uint32_t at;
		bool unsafe = false;

		if (++t->dies > srcline_flatten_max_dies)
			return false;
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
			kind = tag == DW_TAG_subprogram ? FN_NESTED : FN_SCOPE;
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			kind = FN_LOOK;
			break;
		default:
			continue;
		}
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 16;
			t->s = xrealloc(t->s, t->cap * sizeof *t->s);
		}
		at = t->n++;
		t->s[at] = (struct fn_scope){.kind = kind, .r0 = t->nr};
		if (kind != FN_LOOK) {
			t->s[at].nr = add_ranges(t, &child);
			if (tag == DW_TAG_inlined_subroutine && t->s[at].nr > 0) {
				t->s[at].sym = srcline_intern(w, &child, in_view, &unsafe);
				if (unsafe)
					return false;
			}
		}
		if (!flatten(w, t, &child, depth + 1, in_view))
			return false;
		t->s[at].next = t->n;
	} while (dwarf_siblingof(&child, &child) == 0);
	return true;
}

/* Free one table. */
static void
table_free(struct fn_table *t)
{
	if (t == NULL)
		return;
	free(t->s);
	free(t->r);
	free(t);
}

/* Whether span [start, end) of unit overlaps one held, else where it goes. */
static bool
span_free(const struct srcline_fns *f, uint64_t unit, uint64_t start, uint64_t end, size_t *at)
{
	size_t i = span_lower(f, unit, start);

	*at = i;
	return !(i < f->n && f->spans[i].unit == unit && f->spans[i].start < end) &&
	       !(i > 0 && f->spans[i - 1].unit == unit && f->spans[i - 1].end > start);
}

/* Hold the function's spans (the first n ranges of t) for table; false,
 * holding none, when one overlaps a function's already held (the walk
 * chooses between them). */
static bool
spans_add(struct srcline_fns *f, uint64_t unit, const struct fn_table *t, uint32_t n,
          struct fn_table *table)
{
	size_t at;

	for (uint32_t k = 0; k < n; k++)
		if (!span_free(f, unit, t->r[k].start, t->r[k].end, &at))
			return false;
	for (uint32_t k = 0; k < n; k++) {
		if (!span_free(f, unit, t->r[k].start, t->r[k].end, &at))
			continue; /* its own ranges overlapping each other */
		if (f->n == f->cap) {
			f->cap = f->cap ? 2 * f->cap : 64;
			f->spans = xrealloc(f->spans, f->cap * sizeof *f->spans);
		}
		memmove(&f->spans[at + 1], &f->spans[at], (f->n - at) * sizeof *f->spans);
		f->spans[at] = (struct fn_span){unit, t->r[k].start, t->r[k].end, table};
		f->n++;
	}
	return true;
}

/* Flatten function fn (a subprogram DIE) of unit, which the walk found
 * holding an address. One that cannot stand for the walk (too big, a name
 * out of the viewed unit, the DSO's tables full) is remembered as such,
 * so that its addresses are walked without trying again. */
void
srcline_fn_add(struct dwinfo *w, uint64_t unit, Dwarf_Die *fn, bool in_view)
{
	struct srcline_fns *f = w->fns;
	struct fn_table *t;
	uint32_t spans;
	bool ok;

	if (!srcline_flatten)
		return;
	if (f == NULL)
		f = w->fns = xcalloc(1, sizeof *f);
	t = xcalloc(1, sizeof *t);
	spans = add_ranges(t, fn); /* its own ranges first in t->r */
	ok = spans > 0 && flatten(w, t, fn, 0, in_view) && f->entries + t->n <= FN_MAX_ENTRIES;
	if (spans == 0 || !spans_add(f, unit, t, spans, ok ? t : &fn_none) || !ok) {
		table_free(t);
		return;
	}
	if (f->ntables == f->tables_cap) {
		f->tables_cap = f->tables_cap ? 2 * f->tables_cap : 64;
		f->tables = xrealloc(f->tables, f->tables_cap * sizeof *f->tables);
	}
	f->tables[f->ntables++] = t;
	f->entries += t->n;
}

/* Free a DSO's tables. */
void
srcline_fn_free(struct dwinfo *w)
{
	struct srcline_fns *f = w->fns;

	if (f == NULL)
		return;
	for (size_t i = 0; i < f->ntables; i++)
		table_free(f->tables[i]);
	free(f->tables);
	free(f->spans);
	free(f);
	w->fns = NULL;
}
