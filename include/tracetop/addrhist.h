/* addrhist: samples per instruction address of sampled functions, so a
 * function can be annotated at once, without a new recording. One table
 * per event, keyed by (DSO, symbol) pointers. Every sampled function gets
 * a small record (its count and decayed score); the per-instruction
 * counts are kept for every function by default, or, after
 * addrhist_keep_top, only for the functions a user may annotate: the n
 * hottest of the last tick, the ones asked for (addrhist_want, by name
 * with addrhist_want_name), and, while fewer than n are watched (before
 * the first tick), the first ones sampled.
 * Adding a sample allocates nothing in steady state (open addressing, a
 * free list of function records that keep their address tables), and
 * memory is bounded: at most ADDRHIST_MAX_SYMS functions,
 * ADDRHIST_MAX_ADDRS addresses per function and ADDRHIST_MAX_SLOTS
 * address slots in all; samples past a bound are only counted (dropped).
 * Scores decay like hist's at every tick. */
#ifndef TRACETOP_ADDRHIST_H
#define TRACETOP_ADDRHIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/dso.h"
#include "tracetop/symtab.h"

#define ADDRHIST_MAX_SYMS 65536       /* functions per table */
#define ADDRHIST_MAX_ADDRS 8192       /* distinct addresses per function */
#define ADDRHIST_MAX_SLOTS (1u << 21) /* address slots per table (48 MiB) */

/* One sampled address of a function. */
struct addrhist_addr {
	uint32_t off;      /* from the symbol's start; ADDRHIST_EMPTY: free slot */
	uint32_t interval; /* samples since the last tick */
	uint64_t total;    /* samples since the function's first */
	double score;      /* decayed count (or the last interval with zeroing) */
};

#define ADDRHIST_EMPTY UINT32_MAX

/* The address histogram of one function. */
struct addrhist_sym {
	const struct dso *dso;
	const struct sym *sym;
	bool kernel;
	bool watched;                /* per-instruction counts kept (else addrs is empty) */
	uint64_t interval;           /* samples since the last tick */
	uint64_t total;              /* since the first sample */
	double score;                /* decayed count of the function's samples */
	uint64_t dropped;            /* samples not kept per address (bounds) */
	struct addrhist_addr *addrs; /* cap slots, open addressing by off; cap 0: none */
	uint32_t naddrs, cap;
};

struct addrhist;

/* An empty table whose scores decay by decay (in [0, 1]) per tick. */
struct addrhist *addrhist_new(double decay);
void addrhist_free(struct addrhist *ah);

/* Count one sample at addr (in the symbol's address space: the ELF address
 * for user code, the kernel virtual address for the kernel) of sym in dso.
 * Addresses outside [sym->start, sym->start + sym->size) are ignored. */
void addrhist_add(struct addrhist *ah, const struct dso *dso, const struct sym *sym, bool kernel,
                  uint64_t addr);
/* The same for w samples at once (the BPF engine's aggregated counts). */
void addrhist_add_n(struct addrhist *ah, const struct dso *dso, const struct sym *sym, bool kernel,
                    uint64_t addr, uint64_t w);

/* Keep per-instruction counts only for the n functions with the highest
 * scores at each tick (a function that was watched stays while it is
 * among the top 2n, so neighbours swapping ranks keep their history), the
 * ones asked for, and, while fewer than n are watched (before a tick
 * ranks them), new functions as they come.
 * The others only count samples; a function that becomes watched counts
 * its instructions from then on. */
void addrhist_keep_top(struct addrhist *ah, size_t n);

/* Watch (dso, sym) from now on whatever its rank, e.g. for the Annotate
 * pane that shows it. The last ADDRHIST_MAX_WANTED functions asked for
 * stay watched; asking again for one of them does nothing. */
#define ADDRHIST_MAX_WANTED 8
void addrhist_want(struct addrhist *ah, const struct dso *dso, const struct sym *sym, bool kernel);

/* Watch every function called name, from now on and from its first
 * sample on (batch --annotate NAME). At most ADDRHIST_MAX_WANTED names;
 * more are ignored. */
void addrhist_want_name(struct addrhist *ah, const char *name);

/* End an interval: score = score * decay + interval (= interval with
 * zero); functions whose score fades below 0.5 with no new sample are
 * removed (their records are reused); with addrhist_keep_top, the
 * watched functions are chosen again. */
void addrhist_tick(struct addrhist *ah, bool zero);

/* The histogram of (dso, sym), or NULL when it has none (no sample yet or
 * faded); addrs is empty when it is not watched. Valid until the next
 * addrhist_add, addrhist_want* or addrhist_tick. */
const struct addrhist_sym *addrhist_find(const struct addrhist *ah, const struct dso *dso,
                                         const struct sym *sym);

/* Copies of the functions asked for (addrhist_want, addrhist_want_name)
 * that have a histogram, for a frame: they outlive the table's next
 * changes. A copy's addrs holds only used slots (cap == naddrs). */
struct addrhist_copy {
	struct addrhist_sym *syms;
	size_t n, cap;
};

/* Replace c's contents with copies of ah's functions asked for (none when
 * ah is NULL). */
void addrhist_copy_wanted(const struct addrhist *ah, struct addrhist_copy *c);

/* The copy of (dso, sym) in c, or NULL. */
const struct addrhist_sym *addrhist_copy_find(const struct addrhist_copy *c, const struct dso *dso,
                                              const struct sym *sym);

void addrhist_copy_free(struct addrhist_copy *c);

/* Sizes, for tests and the memory bound: functions kept, those with
 * per-instruction counts, address slots allocated, samples dropped by the
 * bounds. */
struct addrhist_stats {
	size_t syms;
	size_t watched;
	size_t slots;
	uint64_t dropped;
};

void addrhist_get_stats(const struct addrhist *ah, struct addrhist_stats *st);

#endif
