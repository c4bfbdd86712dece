/* history-impl: the parts of an interval other than the profile (src/history-parts.c):
 * counters, latency histograms, probe hits, trace counts and the system's
 * numbers, over row identities shared by all intervals. */
#ifndef TRACETOP_HISTORY_IMPL_H
#define TRACETOP_HISTORY_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/frame.h"
#include "tracetop/util.h"

/* The kinds of identity: a counter of scope s is HP_COUNTER + s. */
enum { HP_COUNTER = 0, HP_LAT = COUNTERS_NSCOPES, HP_PROBE, HP_TRACE };

/* The parts an interval took. */
enum { HP_HAS_COUNTERS = 1, HP_HAS_LAT = 2, HP_HAS_PROBES = 4, HP_HAS_TRACE = 8 };

/* What makes two rows the same row (zeroed, then filled: compared whole). */
struct hpid {
	uint32_t part;
	int32_t a, b, c;
	const void *s1, *s2;
	char str[40];
};

/* A row identity and the rest of the row as it looked when last seen
 * (its numbers aside). The identity holds: counters, the scope (str),
 * kind (a), CPU (b), pid (c), event (s1), a metric's note (s2); latency,
 * the kind (a), pid (b), tid (c), name (s1), stack (s2); probes, the name
 * (s1); trace, the tracepoint's id (a) and name (s1). */
struct hpkey {
	struct hpid id;
	union {
		struct {
			char comm[16];
			const char *reason, *note;
			const struct cgroup *cgroup;
			uint32_t event_idx;
			bool exited, supported, metric, percent, nsec;
		} counter;
		char comm[16]; /* latency */
		struct {
			const char *target, *state;
			enum probe_kind kind;
			bool enabled, ours;
		} probe;
	} u;
};

/* A count of an interval: counters (value, total, share), probes (hits
 * of the interval, since start), trace (count, since start, rate since). */
struct hpval {
	uint32_t key;
	float extra;
	double v, total;
};

/* A latency row's values in the interval; its nb buckets follow the
 * previous rows' in the interval's bucket array. */
struct hplat {
	uint32_t key, nb;
	uint64_t count, errors, total, min, max;
};

struct hpbucket {
	uint64_t count;
	uint64_t sum : 57, b : 7;
};

/* The last cumulative values of a row with values since start: a
 * probe's hits (count), or a latency row's histogram, its nb non-empty
 * buckets at the shared bucket array's index at. */
struct hpprev {
	uint32_t key, nb;
	uint64_t count, errors, total, min, max;
	size_t at;
};

/* Latency rows beyond which the history keeps no latency (each costs a
 * few hundred bytes of deltas' state: system-wide off-CPU rows per
 * thread can number tens of thousands). */
#define HPARTS_MAX_LAT_ROWS 20000

/* Intervals up to a view's end its sparklines show at most. */
#define HPARTS_SPARKLINE (COUNTERS_HISTORY > SYSTEM_HISTORY ? COUNTERS_HISTORY : SYSTEM_HISTORY)

/* The system's numbers: floats are rates or shares (averaged over a
 * range by seconds), the integers counts (summed) or states (the last). */
enum { HC_BUSY = SYS_CPU_NFIELDS, HC_BUSY_CPUS, HC_NF };
struct hsys_cpu {
	int cpu;
	float f[HC_NF];
};
enum { HD_READS, HD_WRITES, HD_RBYTES, HD_WBYTES, HD_AWAIT, HD_QUEUE, HD_UTIL, HD_NF };
struct hsys_disk {
	const char *name, *parent; /* interned */
	bool in_total, used;
	float f[HD_NF];
	uint64_t read_bytes, write_bytes, inflight;
};
enum { HN_RX, HN_TX, HN_RXP, HN_TXP, HN_NF };
struct hsys_net {
	const char *name;
	float f[HN_NF];
	uint64_t rx_bytes, tx_bytes, errors, drops, errors_all, drops_all;
};
struct hsys {
	unsigned columns;
	uint64_t readings;
	double elapsed;
	struct hsys_cpu total;
	uint64_t mem[SYSTEM_MEM_NFIELDS];
	float vm[SYSTEM_VM_NFIELDS];
	double misc[SYSTEM_MISC_NFIELDS];
	uint64_t count[3];
	struct hsys_disk disk_total;
	struct hsys_net net_total;
	struct hsys_cpu *cpus; /* in the same block */
	struct hsys_disk *disks;
	struct hsys_net *nets;
	uint32_t ncpus, ndisks, nnets;
};

/* One interval's parts. */
struct hparts {
	struct hpval *vals; /* counters, probes and trace counts, by key id */
	struct hplat *lats; /* latency rows with values in the interval */
	struct hpbucket *buckets;
	uint32_t nvals, nlats, nbuckets;
	struct hsys *sys;    /* the system's numbers, or NULL */
	unsigned has;        /* bits HP_HAS_*: the parts taken */
	unsigned taken;      /* counters: the scopes taken */
	uint64_t trace_from; /* the trace log's entries of the interval: [from, end) */
	uint64_t trace_end;
	double counters_elapsed; /* seconds since counting began, at its end */
};

/* The parts' identities, shared by the intervals, and what the next
 * interval's deltas are taken against. */
struct hparts_shared {
	struct hpkey *keys; /* ids from 1 */
	size_t nkeys, keys_cap, live;
	uint32_t *slot; /* open addressing: id + 1... id (0: empty) */
	size_t mask;
	struct hpprev *prev; /* the last cumulative values, by key id ascending */
	size_t nprev, prev_cap;
	struct hpbucket *pb; /* their buckets */
	size_t npb, pb_cap;
	size_t lat_off;     /* the latency rows there were when they grew too many, or 0 */
	uint64_t trace_end; /* the last interval's end in the trace log */
	bool trace_seen;
	/* scratch */
	struct hpval *vals;
	struct hplat *lats;
	struct hpbucket *buckets;
	struct hpprev *prev2;
	struct hpbucket *pb2;
	size_t vals_cap, lats_cap, buckets_cap, prev2_cap, npb2, pb2_cap;
};

/* Room for n elements in a scratch array. */
static inline void *
room(void *arr, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return arr;
	*cap = n > 2 * *cap ? n : 2 * *cap;
	return xrealloc(arr, *cap * size);
}

/* Order of values by key id (qsort). */
int hpval_cmp(const void *a, const void *b);

/* Take frame f's parts (rows: its rows are this interval's; else only
 * the system's numbers, which every frame holds). */
void hparts_take(struct hparts_shared *s, struct hparts *p, const struct frame *f, bool rows);

/* Bytes an interval's parts hold; the shared part's. */
size_t hparts_bytes(const struct hparts *p);
size_t hparts_shared_bytes(const struct hparts_shared *s);

/* Free an interval's parts; the shared part. */
void hparts_free(struct hparts *p);
void hparts_shared_free(struct hparts_shared *s);

/* Whether many identities are no longer used; keep only those the n
 * intervals ivs (and the deltas) use, renumbered in order. */
bool hparts_sparse(const struct hparts_shared *s);
void hparts_compact(struct hparts_shared *s, struct hparts *const *ivs, size_t n);

/* Intervals ivs[first..n) (oldest first, secs[i] long) added up into
 * out's parts; those before first only give the counters' sparklines.
 * live gives what is not kept (names, notices, the trace log). */
void hparts_view(const struct hparts_shared *s, const struct hparts *const *ivs, const double *secs,
                 size_t n, size_t first, const struct frame *live, struct frame *out);

#endif
