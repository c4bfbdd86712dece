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
 * Scores decay like hist's at every tick.
 * A function asked for can also be counted for one Top row only (its
 * command, process, thread or cgroup, as the row's grouping keys it):
 * addrhist_want_who keeps such a row's own histogram beside the
 * function's, and addrhist_want_name with a grouping keeps one per row
 * of the function (batch --annotate with -s). */
#ifndef TRACETOP_ADDRHIST_H
#define TRACETOP_ADDRHIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/cgroup.h"
#include "tracetop/dso.h"
#include "tracetop/hist.h"
#include "tracetop/symtab.h"

#define ADDRHIST_MAX_SYMS 65536       /* functions per table */
#define ADDRHIST_MAX_ADDRS 8192       /* distinct addresses per function */
#define ADDRHIST_MAX_SLOTS (1u << 21) /* address slots per table (48 MiB) */
#define ADDRHIST_MAX_ROWS 64          /* rows per function counted apart by name */

/* Who a sample came from, as the Top rows' keys tell them apart. */
struct addrhist_who {
	const char *comm; /* interned: pointer equality */
	int pid, tid;
	const struct cgroup *cgroup;
};

/* The HIST_GROUP_* fields that split a function's samples by who. */
#define ADDRHIST_WHO_FIELDS (HIST_GROUP_COMM | HIST_GROUP_PID | HIST_GROUP_TID | HIST_GROUP_CGROUP)

/* The who of a Top row's key (its thread when threads are told apart). */
static inline void
addrhist_who_of(const struct hist_key *k, struct addrhist_who *who)
{
	*who = (struct addrhist_who){.comm = k->comm,
	                             .pid = k->pid,
	                             .tid = k->thread != 0 ? k->thread : k->tid,
	                             .cgroup = k->cgroup};
}

/* Whether a and b agree on the fields of mask (HIST_GROUP_*). */
bool addrhist_who_eq(unsigned mask, const struct addrhist_who *a, const struct addrhist_who *b);

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
/* The same from who (NULL: nobody in particular), also counted in the
 * rows asked for that who belongs to. */
void addrhist_add_who(struct addrhist *ah, const struct dso *dso, const struct sym *sym,
                      bool kernel, uint64_t addr, uint64_t w, const struct addrhist_who *who);

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

/* The same for the samples of one row only: those whose who agrees with
 * *who on mask's fields (HIST_GROUP_*; none: the whole function, as
 * addrhist_want). The row's histogram starts now. */
void addrhist_want_who(struct addrhist *ah, const struct dso *dso, const struct sym *sym,
                       bool kernel, unsigned mask, const struct addrhist_who *who);

/* Watch every function called name, from now on and from its first
 * sample on (batch --annotate NAME). At most ADDRHIST_MAX_WANTED names;
 * more are ignored. */
void addrhist_want_name(struct addrhist *ah, const char *name);

/* The same, also counting each row of the grouping mask (HIST_GROUP_*)
 * apart: at most ADDRHIST_MAX_ROWS per function, the samples of further
 * rows counted only in the function's own histogram (and as dropped). */
void addrhist_want_name_rows(struct addrhist *ah, const char *name, unsigned mask);

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
 * that have a histogram, and of their rows, for a frame: they outlive the
 * table's next changes. A copy's addrs holds only used slots (cap ==
 * naddrs). */
struct addrhist_copy_ent {
	struct addrhist_sym s;
	unsigned mask; /* 0: the whole function; else a row's who fields */
	struct addrhist_who who;
};

struct addrhist_copy {
	struct addrhist_copy_ent *ents;
	size_t n, cap;
};

/* Replace c's contents with copies of ah's functions asked for (none when
 * ah is NULL). */
void addrhist_copy_wanted(const struct addrhist *ah, struct addrhist_copy *c);

/* Append to c copies of ah's n hottest functions whose instructions are
 * counted (those not in c already), the whole function's each (a
 * recording writes what Annotate needs of them). */
void addrhist_copy_hot(const struct addrhist *ah, size_t n, struct addrhist_copy *c);

/* The copy of (dso, sym) in c, or NULL. */
const struct addrhist_sym *addrhist_copy_find(const struct addrhist_copy *c, const struct dso *dso,
                                              const struct sym *sym);

/* The copy of the row of (dso, sym) whose who agrees with *who on mask's
 * fields (only ADDRHIST_WHO_FIELDS count; none: addrhist_copy_find), or
 * NULL. */
const struct addrhist_sym *addrhist_copy_find_who(const struct addrhist_copy *c,
                                                  const struct dso *dso, const struct sym *sym,
                                                  unsigned mask, const struct addrhist_who *who);

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
