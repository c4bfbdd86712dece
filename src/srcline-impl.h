/* srcline-impl: what srcline.c (inline chains, line rows, the caches and
 * the worker's front) and srcline-cu.c (the compilation unit of an
 * address) share, and nothing else. */
#ifndef TRACETOP_SRCLINE_IMPL_H
#define TRACETOP_SRCLINE_IMPL_H

#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tracetop/dso.h"
#include "tracetop/dwaranges.h"
#include "tracetop/symtab.h"

#define SYM_CHUNK 64            /* inlined symbols per allocation */
#define SRCLINE_MAX_NEST 128    /* DIE nesting followed */
#define MAX_CU_RANGES (1 << 20) /* bound on the fallback CU range table */

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
	bool opened;         /* open tried (else only sized) */
	off_t size;          /* of the file to open, -1 if unknown */
	int fd;              /* -1 when nothing is open */
	Elf *elf;
	Dwarf *dw; /* NULL: no usable DWARF, lookups cost nothing */
	struct sym_chunk *chunks;
	struct sym **names; /* open addressing by name */
	size_t nnames, names_cap;
	bool ranges_built; /* cu_ranges made (only when aranges fail) */
	struct cu_range *ranges;
	size_t nranges;
	bool ar_read;        /* .debug_aranges looked for */
	struct dwarange *ar; /* its ranges, our compact table (NULL: none) */
	size_t nar;
	/* the worker's view of one unit (srcline-cu.c): its own Elf and
	 * Dwarf, .debug_info starting at the unit */
	bool views;         /* views can be made (.debug_info in place, aranges read) */
	uint64_t info_off;  /* .debug_info's offset in the file */
	uint64_t info_size; /* and size */
	uint64_t view_unit; /* the unit viewed (its offset in .debug_info) */
	Elf *view_elf;
	Dwarf *view_dw;
	struct srcline_fns *fns; /* functions flattened (srcline-fn.c), or NULL */
};

/* The CU DIE covering addr into *cudie, or NULL. With views (the
 * worker's), the DIE may be of the unit's view: *in_view set then (a
 * reference out of the unit cannot be followed there). */
Dwarf_Die *srcline_cu_at(struct dwinfo *w, uint64_t addr, Dwarf_Die *cudie, bool views,
                         bool *in_view);

/* Close a DSO's view, if any. */
void srcline_view_close(struct dwinfo *w);

/* The unit of addr per .debug_aranges (its offset in .debug_info); false
 * when the file has no such table or addr is in none of its ranges. */
bool srcline_unit_of(struct dwinfo *w, uint64_t addr, uint64_t *unit);

/* The DSO's symbol for an inlined function instance, made on first sight
 * (NULL with *unsafe when its name is out of a viewed unit). */
const struct sym *srcline_intern(struct dwinfo *w, Dwarf_Die *die, bool in_view, bool *unsafe);

/* The chain at addr, outermost first, from the function of unit flattened
 * there (at most max): its length; -1 when none is, -2 when the one there
 * could not be (srcline-fn.c). */
int srcline_fn_chain(struct dwinfo *w, uint64_t unit, uint64_t addr, const struct sym **chain,
                     size_t max);

/* Flatten function fn (a subprogram DIE of unit, in a view if in_view)
 * for the addresses after; nothing when it cannot stand for the walk. */
void srcline_fn_add(struct dwinfo *w, uint64_t unit, Dwarf_Die *fn, bool in_view);

/* Whether walks flatten functions, and the DIEs one may have (only tests
 * change them). */
extern bool srcline_flatten;
extern size_t srcline_flatten_max_dies;

/* Free a DSO's flattened functions. */
void srcline_fn_free(struct dwinfo *w);

#endif
