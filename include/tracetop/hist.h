/* hist: samples aggregated per (pid, comm, cgroup, DSO, symbol) in an
 * open-addressing hash table with a pooled entry store, so adding a sample
 * allocates nothing in steady state. Once per refresh hist_tick decays (or
 * zeroes) the scores and hist_snapshot sorts them into rows. */
#ifndef TRACETOP_HIST_H
#define TRACETOP_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/cgroup.h"
#include "tracetop/dso.h"
#include "tracetop/symtab.h"

struct hist_key {
	int pid;
	const char *comm;      /* interned: pointer equality */
	struct dso *dso;       /* may be NULL: no mapping found */
	const struct sym *sym; /* NULL when unresolved */
	uint64_t addr; /* unresolved only: offset in the DSO (or the ip); 0 when sym is set */
	bool kernel;
	bool inlined; /* sym is a function inlined there (debug info) */
	int tid;      /* not part of the identity: the thread of the latest sample */
	/* the thread when the engine counts threads apart (a grouping by
	 * tid), else 0: part of the identity */
	int thread;
	/* the process's cgroup (interned: pointer equality), NULL when unknown */
	const struct cgroup *cgroup;
};

/* The addr of a key without a symbol that stands for the other functions
 * of its process and object: the entries that faded below one sample, their
 * counts kept there so that the process's and the object's shares stay
 * whole. Shown as HIST_OTHER_NAME. */
#define HIST_ADDR_OTHER UINT64_MAX
#define HIST_OTHER_NAME "[other functions]"

/* Whether k is its process's and object's other functions. */
static inline bool
hist_key_other(const struct hist_key *k)
{
	return k->sym == NULL && k->addr == HIST_ADDR_OTHER;
}

struct hist_entry {
	struct hist_key key;
	uint64_t interval;          /* samples since the last tick */
	uint64_t total;             /* samples since start */
	double score;               /* decayed sample count (or last interval with zeroing) */
	uint64_t children_interval; /* samples with this function on the stack, this interval */
	double children;            /* decayed inclusive count, like score */
	/* interval and children_interval of the interval the last tick ended
	 * (history keeps them per interval) */
	uint64_t last, children_last;
};

struct hist_row {
	double overhead;  /* percent of all scores: self */
	double children;  /* inclusive percent (call stacks only) */
	uint64_t samples; /* score, rounded */
	uint64_t total;
	const struct hist_entry *entry; /* points at copy */
	struct hist_entry copy;         /* the entry as it was at the snapshot */
	/* after hist_group: the entries merged into this row (copy's key is
	 * the most sampled one's), the distinct processes among them, and
	 * the HIST_GROUP_* fields that differ among them (and
	 * HIST_MIXED_KIND), shown for what they are ("(3 objects)") */
	uint32_t members, procs;
	unsigned mixed;
	/* of a field in mixed: how many distinct commands, cgroups, objects
	 * and functions the merged entries have (0: not counted) */
	uint32_t ncomm, ncgroup, ndso, nsym;
	const char *sym_name; /* hist_sym_name(entry), for sorting (NULL: unsorted rows) */
};

enum hist_sort {
	HIST_SORT_OVERHEAD,
	HIST_SORT_SAMPLES,
	HIST_SORT_COMM,
	HIST_SORT_PID,
	HIST_SORT_DSO,
	HIST_SORT_SYM,
	HIST_SORT_CHILDREN,
	HIST_SORT_CGROUP, /* by the cgroup's short name, then its path */
	HIST_SORT_TID,
	HIST_SORT_END = -1,
};

#define HIST_SORT_MAX 9

/* What rows are keyed by, like perf's --sort: a set of these. Entries
 * (one per process, thread when counted apart, and function) that agree
 * on the set's fields merge into one row. */
enum hist_group {
	HIST_GROUP_COMM = 1u << 0,
	HIST_GROUP_PID = 1u << 1,
	HIST_GROUP_TID = 1u << 2,
	HIST_GROUP_CGROUP = 1u << 3,
	HIST_GROUP_DSO = 1u << 4,
	HIST_GROUP_SYM = 1u << 5,
};

/* In hist_row.mixed only: the merged entries are kernel and user ones. */
#define HIST_MIXED_KIND (1u << 6)

/* perf top's default: the processes of one command merged. */
#define HIST_GROUP_DEFAULT (HIST_GROUP_COMM | HIST_GROUP_DSO | HIST_GROUP_SYM)

struct hist_snapshot {
	struct hist_row *rows; /* sorted */
	size_t n, cap;
	double total_score;
	uint64_t interval_samples; /* samples in the last interval */
};

struct hist;

/* decay: factor per tick (e.g. 0.875); an entry whose score drops below
 * one sample with no new samples is removed, its score added to its
 * process's and object's other functions (hist_key_other), which go in
 * turn when theirs drops below one. */
struct hist *hist_new(double decay);
void hist_free(struct hist *h);

/* Count one sample (weight 1) for key. */
void hist_add(struct hist *h, const struct hist_key *key);
/* The same for w samples at once (the BPF engine's aggregated counts). */
void hist_add_n(struct hist *h, const struct hist_key *key, uint64_t w);

/* Count one sample in key's inclusive (children) time: its function was
 * on the sampled stack. Call once per sample per distinct function. */
void hist_add_children(struct hist *h, const struct hist_key *key);
void hist_add_children_n(struct hist *h, const struct hist_key *key, uint64_t w);

/* Give unresolved user entries a name found since (a JIT's perf map
 * grew): resolve gets a copy of each one's key and returns true after
 * filling it in; the entry's counts then move to that key, added to any
 * entry there. How many moved. Not for the sample path: it walks the
 * table. */
size_t hist_rekey(struct hist *h, bool (*resolve)(void *arg, struct hist_key *key), void *arg);

/* End an interval: score = score * decay + interval (or = interval when
 * zero is set), interval = 0; folds faded entries into their other
 * functions. */
void hist_tick(struct hist *h, bool zero);

/* Keys for hist_snapshot and hist_group that leave the rows in no
 * particular order: for a front end that sorts them itself (the screen's
 * Top pane merges and sorts its own copy at every frame, so a sort of
 * tens of thousands of rows before it was wasted). */
extern const enum hist_sort hist_unsorted[];

/* Rows sorted by keys (HIST_SORT_END-terminated, ties broken by overhead
 * then symbol name; hist_unsorted: not sorted); entries kept by filter
 * (NULL: all). Each row holds a copy of its entry, valid until the next
 * hist_snapshot into snap. */
void hist_snapshot(struct hist *h, const enum hist_sort *keys,
                   bool (*filter)(const struct hist_entry *, void *), void *arg,
                   struct hist_snapshot *snap);
void hist_snapshot_free(struct hist_snapshot *snap);

/* Merge the rows of snap (from hist_snapshot) that agree on group's
 * fields (HIST_GROUP_*; a thread is told apart only by key.thread), then
 * sort them by keys as hist_snapshot does (hist_unsorted: each group
 * where its first row was); fills members, procs, mixed and the counts of
 * the mixed fields. */
void hist_group(struct hist_snapshot *snap, unsigned group, const enum hist_sort *keys);

/* Whether keys a and b fall in the same row of grouping group (HIST_GROUP_*),
 * as hist_group merges them. */
bool hist_same_group(const struct hist_key *a, const struct hist_key *b, unsigned group);

/* The rows of src (a snapshot, left as it is) that keep accepts (NULL:
 * all), merged by group's fields as hist_group does, into dst (its rows
 * reused); when key is numeric (HIST_SORT_OVERHEAD, _CHILDREN,
 * _SAMPLES) only the k that come first
 * by it (k 0: all), sorted by it, ties in their groups' order; else all,
 * in their groups' order. Only those kept are copied: a screenful of a
 * refresh of tens of thousands of rows takes a screenful of memory. The
 * number of groups. */
size_t hist_group_top(struct hist_snapshot *dst, const struct hist_snapshot *src,
                      bool (*keep)(const struct hist_entry *, void *), void *arg, unsigned group,
                      enum hist_sort key, bool descending, size_t k);

/* Sort the rows by one numeric key (HIST_SORT_OVERHEAD, _CHILDREN or
 * _SAMPLES; biggest first when descending), rows that tie staying in the
 * order they had; in time linear in the rows. False (nothing done) for
 * another key. */
bool hist_sort_by(struct hist_snapshot *snap, enum hist_sort key, bool descending);

/* The grouping named by sort keys: their comm, pid, tid, cgroup, dso and
 * sym; HIST_GROUP_DEFAULT when they name none (only overhead, ...). */
unsigned hist_sort_group(const enum hist_sort *keys);

/* Order rows by their share when keys name none (overhead, samples,
 * children), as perf's --sort does: "pid,sym" becomes "overhead,pid,sym"
 * (the names group, the share orders, the names break ties); a share
 * named after a name ("sym,overhead") keeps its place. With children
 * (--children) keys that start with overhead start with children. */
void hist_sort_by_share(enum hist_sort keys[HIST_SORT_MAX + 1], bool children);

/* A grouping as "comm,dso,sym" (the order of perf's --sort) in buf. */
const char *hist_group_name(unsigned group, char *buf, size_t len);

/* "overhead,comm" -> keys; -1 with err naming the bad key. */
#define HIST_SORT_NAMES "overhead, samples, comm, pid, tid, dso, sym, children, cgroup"
struct tt_err;
int hist_parse_sort(const char *s, enum hist_sort keys[HIST_SORT_MAX + 1], struct tt_err *err);

/* Whether keys (HIST_SORT_END-terminated) hold k. */
bool hist_sort_has(const enum hist_sort *keys, enum hist_sort k);

/* Name of an entry's symbol for display: the symbol's full name
 * (demangled, sym-name.h), or "[unknown]". Not escaped. */
const char *hist_sym_name(const struct hist_entry *e);

size_t hist_count(const struct hist *h);

/* The entry for key, or NULL (valid until the next hist_tick). */
const struct hist_entry *hist_find(const struct hist *h, const struct hist_key *key);

/* Entries the pool holds, live or free (grows only when the pool does). */
size_t hist_capacity(const struct hist *h);

#endif
