/* srcline: inlined functions and source lines at an address, from a DSO's
 * DWARF debug info (the only module that uses libdw). The srcline_*
 * lookups below run on the loop thread (they may read debug files: not for
 * the sample path); the srcline_async_* front is for the sample path: it
 * answers from its cache and asks the worker thread about the rest. */
#ifndef TRACETOP_SRCLINE_H
#define TRACETOP_SRCLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/dso.h"
#include "tracetop/symtab.h"

struct worker;

/* Deepest inline chain kept per address; deeper ones are cut (outermost
 * inlined frames dropped). */
#define SRCLINE_MAX_DEPTH 32

/* The functions inlined at addr (an address in the DSO's own ELF space,
 * i.e. after dso_offset_to_addr; pass a return address minus 1 for a caller
 * frame), innermost first. The enclosing real function is not included (it
 * is the symbol dso_find_sym gives). The symbols stay valid until
 * srcline_free_all and are interned per DSO by name: the same inlined
 * function at any address of the same DSO gives the same pointer, so it can
 * be a hash key; start/size are those of one inlined instance (0 when
 * unknown). Returns how many were written to out (at most max): 0 when there
 * are none, for non-ELF DSOs and without debug info.
 * Results are cached per (dso, addr); the first lookup in a DSO opens its
 * debug info once (dso->debug_file when set, else the file itself); a DSO
 * without DWARF is remembered as such and costs a pointer compare after. */
size_t srcline_inlines(struct dso *d, uint64_t addr, const struct sym **out, size_t max);

/* The source line of addr (an ELF address of the DSO, as above) from the
 * line table of the DSO's debug info: *file (libdw's string, valid until
 * srcline_free_all) and *line. false without line info there. */
bool srcline_line(struct dso *d, uint64_t addr, const char **file, int *line);

/* Whether the DSO has DWARF debug info (opened on first use). */
bool srcline_has_debug(struct dso *d);

/* Counters, for tests and benchmarks. */
struct srcline_stats {
	uint64_t lookups;  /* srcline_inlines calls on ELF DSOs */
	uint64_t hits;     /* answered from the (dso, addr) cache */
	uint64_t opens;    /* DSOs whose debug info was opened (or tried) */
	uint64_t scopes;   /* DWARF scope lookups (cache misses with DWARF) */
	uint64_t fn_hits;  /* of those, read from a function flattened before */
	uint64_t fn_tries; /* functions flattened or found too big to be */
	uint64_t flushes;  /* times the full cache was cleared */
	size_t cached;     /* entries in the cache now */
};

void srcline_get_stats(struct srcline_stats *st);

/* Close every debug file and free the cache and the inlined symbols of the
 * srcline_* calls above (not those of async fronts). Call it before
 * dso_cache_free (state is keyed by DSO pointer). */
void srcline_free_all(void);

/* The sample path's front: inline chains looked up on worker w (with debug
 * files of its own, so it never shares libdw state with the calls above),
 * answers cached per (dso, address) on the loop thread. */
struct srcline_async;

struct srcline_async *srcline_async_new(struct worker *w);

/* The inlined functions at addr of d, as srcline_inlines gives them, or -1
 * when the answer is not known yet: the question goes to the worker (once),
 * and the answer is here after a worker_poll that delivers it. Never reads
 * a file and never waits. d must be loaded (its symbols looked up once):
 * the worker does not touch the DSO cache. Loop thread only. */
int srcline_async_inlines(struct srcline_async *a, struct dso *d, uint64_t addr,
                          const struct sym **out, size_t max);

/* Free the front, its debug files and its symbols, after its worker has
 * stopped (worker_free) and once nothing holds its symbols. */
void srcline_async_free(struct srcline_async *a);

#endif
