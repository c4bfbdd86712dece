/* latency: log2 nanosecond histograms (like bpftrace's hist()) with count,
 * errors, total, min and max, percentiles estimated from the buckets, and
 * the pairing of entry and exit events per thread that feeds them. Plain
 * data, no allocation per value; not thread-safe. */
#ifndef TRACETOP_LATENCY_H
#define TRACETOP_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bucket 0 holds 0 ns; bucket k >= 1 holds [2^(k-1), 2^k) ns. */
#define LAT_BUCKETS 65

struct lat_hist {
	uint64_t buckets[LAT_BUCKETS];
	uint64_t sums[LAT_BUCKETS]; /* ns of each bucket's values: their mean */
	uint64_t count;             /* values added */
	uint64_t errors;            /* of which failed (e.g. a syscall's ret < 0) */
	uint64_t total;             /* ns, summed */
	uint64_t min;               /* ns; UINT64_MAX while count is 0 */
	uint64_t max;               /* ns */
};

/* An empty histogram. */
void lat_hist_reset(struct lat_hist *h);

/* The bucket of ns, and the lowest value of bucket b (its upper bound is
 * lat_bucket_low(b + 1), exclusive; UINT64_MAX past the last). */
unsigned lat_bucket(uint64_t ns);
uint64_t lat_bucket_low(unsigned b);

/* Add one value of ns (error: the call failed). */
void lat_hist_add(struct lat_hist *h, uint64_t ns, bool error);

/* Add n values of bucket b at once, their sum, min and max known (a
 * histogram read from the kernel); errors of them failed. */
void lat_hist_add_bucket(struct lat_hist *h, unsigned b, uint64_t n, uint64_t sum, uint64_t min,
                         uint64_t max, uint64_t errors);

/* Add every value of src to dst. */
void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src);

/* The p-th percentile (0 < p <= 100) estimated from the buckets: the
 * bucket holding the value of rank ceil(p% of count) is found, and the
 * value interpolated linearly by the rank's place among the bucket's
 * values, spread evenly over a span centred on their mean, as wide as
 * the bucket's bounds (narrowed to the min and max seen) allow. A log2
 * bucket alone would put p50 of calls of 1.05 to 1.1 ms near 1.5 ms (the
 * middle of [1M, 2M)); the mean keeps it near 1.07 ms, and equal values
 * answer exactly. 0 when empty. */
uint64_t lat_hist_percentile(const struct lat_hist *h, double p);

/* The first and last non-empty buckets; false when empty. */
bool lat_hist_range(const struct lat_hist *h, unsigned *first, unsigned *last);

/* A duration for people: "0", "850ns", "12.3us", "1.05ms", "2.50s". */
void lat_format_ns(char *buf, size_t len, uint64_t ns);

/* Bucket b's label as bpftrace prints it: "[0]", "[1]", "[2, 4)",
 * "[1K, 2K)", "[512K, 1M)" (K, M, G, T: powers of 1024). */
void lat_bucket_label(char *buf, size_t len, unsigned b);

/* Bucket b of h as one bpftrace hist() line into buf: "[1M, 2M)  197
 * |@@@@ |", a bar of at most width '@' scaled to the fullest bucket. */
void lat_hist_line(const struct lat_hist *h, unsigned b, unsigned width, char *buf, size_t len);

/* ---- rows: what a latency source shows ---- */

enum lat_kind {
	LAT_SYSCALL,  /* a syscall of a process */
	LAT_FUNCTION, /* a function timed by an entry/return probe pair */
	LAT_RUNQ,     /* a process's threads waiting for a CPU (wakeup -> switch in) */
	LAT_BIO,      /* a block device's requests (issue -> complete) */
	LAT_OFFCPU,   /* a thread blocked (switch out -> switch in), by wait reason */
	LAT_ONCPU,    /* a thread on a CPU (switch in -> switch out): with offcpu, its wall clock */
	LAT_NKINDS
};

/* "syscall", "function", "runq", "bio", "offcpu" or "oncpu". */
const char *lat_kind_name(enum lat_kind k);

/* The kinds in a comma-separated list ("syscall,runq"; "all") as bits
 * (1u << kind) in *kinds; -1 naming the unknown word in err. */
struct tt_err;
int lat_kinds_parse(const char *list, unsigned *kinds, struct tt_err *err);

struct callgraph;

/* A row's values as a source keeps them: the histogram since start and
 * that of the interval under way, which a tick folds in. */
struct lat_acc {
	struct lat_hist total;    /* up to the last tick */
	struct lat_hist interval; /* since it */
	uint64_t last_interval;   /* values in the last refresh */
	double rate;              /* of them per second */
};

/* Empty. */
void lat_acc_reset(struct lat_acc *a);

/* End an interval of secs: its values join the total, their rate kept. */
void lat_acc_tick(struct lat_acc *a, double secs);

/* The same when the interval holds every value so far (a histogram read
 * whole from the kernel at each tick): it replaces the total. */
void lat_acc_tick_totals(struct lat_acc *a, double secs);

/* One (kind, name, process) in a frame. */
struct lat_row {
	enum lat_kind kind;
	const char *name; /* interned */
	int pid;
	int tid; /* offcpu: the thread; 0 for a whole process */
	const char
	    *stack;    /* offcpu: the root's command in frame_latency.offcpu (interned), or NULL */
	char comm[16]; /* raw (escape before output) */
	uint64_t interval;    /* calls completed in the last refresh */
	double rate;          /* of them per second */
	struct lat_hist hist; /* since start */
};

/* A latency source's part of a frame. */
struct frame_latency {
	struct lat_row *rows; /* in no particular order */
	size_t nrows, cap;
	uint64_t events;    /* entry and exit records read since start */
	uint64_t lost;      /* records the kernel dropped (full rings) */
	uint64_t unpaired;  /* exits without their entry (calls open at start) */
	const char *notice; /* how it measures and what it costs, or NULL */
	const char *target; /* "system-wide", "pid 123", "command", ... */
	/* the scheduler and block sources (runq, bio, offcpu rows) */
	uint64_t sched_events, sched_lost, sched_unpaired;
	const char *sched_notice;
	/* off-CPU stacks weighted by blocked ns: one root per offcpu row
	 * (its stack), outermost frame first; a snapshot, or NULL */
	struct callgraph *offcpu;
};

/* ---- pairing entries and exits per thread ---- */

/* Where a thread is: the entry times of its open calls, innermost last
 * (function probes nest with recursion; syscalls never do: depth 1). */
#define LAT_PAIR_DEPTH 32

struct lat_pair_slot {
	int tid; /* 0: free */
	uint32_t depth;
	uint64_t at[LAT_PAIR_DEPTH];
	int32_t key[LAT_PAIR_DEPTH]; /* what was entered (a syscall nr, a function) */
};

/* Threads by tid, open addressing; grows (rarely: with the number of
 * threads seen), never per event. */
struct lat_pair {
	struct lat_pair_slot *slots;
	size_t mask, used;
	uint32_t max_depth; /* calls held per thread, at most LAT_PAIR_DEPTH */
	uint64_t unpaired;  /* exits without their entry (calls open at start) */
	uint64_t dropped;   /* entries pushed out past max_depth */
};

/* A table for threads whose calls nest at most max_depth (1 for
 * syscalls); 0 means LAT_PAIR_DEPTH. */
void lat_pair_init(struct lat_pair *p, uint32_t max_depth);
void lat_pair_free(struct lat_pair *p);

/* Thread tid entered key at time t. With depth 1 a new entry replaces an
 * open one (a lost exit, or a tid reused by a new thread). */
void lat_pair_enter(struct lat_pair *p, int tid, int32_t key, uint64_t t);

/* Thread tid left key at time t: true with the call's duration in *ns
 * when its entry was seen; false (counted in unpaired) for an exit
 * without its entry, of another key, or earlier than it. */
bool lat_pair_exit(struct lat_pair *p, int tid, int32_t key, uint64_t t, uint64_t *ns);

/* Thread tid's innermost open call: true with its key and entry time. */
bool lat_pair_top(const struct lat_pair *p, int tid, int32_t *key, uint64_t *t);

/* Thread tid is gone: forget its open calls (a tid reused later starts
 * clean). */
void lat_pair_forget(struct lat_pair *p, int tid);

#endif
