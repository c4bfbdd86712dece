/* counters-math: the pure parts of the counters module, apart from the fds
 * so that they can be tested (and used by the option parser) alone: the
 * scopes, deltas of monotonic readings, scaling by
 * time_running / time_enabled, rates, the history ring behind sparklines,
 * the derived metrics (IPC, miss ratios, CPU utilization) and the choice
 * of the busiest processes. No I/O, no allocation. */
#ifndef TRACETOP_COUNTERS_MATH_H
#define TRACETOP_COUNTERS_MATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

enum counters_scope {
	COUNTERS_TOTAL,   /* one row per event: the whole system or target */
	COUNTERS_CPU,     /* one row per event per CPU */
	COUNTERS_PROCESS, /* one row per event per process */
	COUNTERS_NSCOPES,
};

/* The scope's name: "total", "cpu" or "process". */
const char *counters_scope_name(enum counters_scope s);

/* The scope called name, or -1 if there is none. */
int counters_scope_parse(const char *name);

/* Intervals kept per counter for its sparkline. */
#define COUNTERS_HISTORY 32

/* One read() of a counting fd opened with read_format
 * PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING. */
struct counters_reading {
	uint64_t value;
	uint64_t enabled; /* ns the event was enabled */
	uint64_t running; /* ns it was actually on the PMU */
};

/* What happened between two readings. */
struct counters_interval {
	uint64_t delta;   /* the count as read */
	double value;     /* the count, scaled by enabled / running */
	uint64_t enabled; /* ns enabled in the interval */
	uint64_t running; /* ns running in the interval */
};

/* Progress of a monotonic 64-bit counter from prev to cur: the modular
 * difference when it moved forward (a wrap past 2^64 included), 0 when it
 * went backwards (a counter that was reset or reopened). */
uint64_t counters_delta(uint64_t prev, uint64_t cur);

/* value scaled for multiplexing: value * enabled / running. Exact when the
 * event ran the whole time; 0 when it never ran (running 0), or when
 * nothing was enabled either (the count is then 0 anyway). */
double counters_scale(uint64_t value, uint64_t enabled, uint64_t running);

/* The multiplexing share running / enabled, 0..1; 1 when nothing was
 * enabled (no time to share). */
double counters_share(uint64_t enabled, uint64_t running);

/* The interval between two readings of one fd: deltas, scaled value. */
void counters_interval(const struct counters_reading *prev, const struct counters_reading *cur,
                       struct counters_interval *out);

/* Rescale the n per-CPU fds of one thread's event (cpu >= 0, pid = the
 * thread). Their enabled time is the thread's whole time on any CPU, their
 * running time its time on that fd's CPU, so running/enabled is not a
 * multiplexing share and scaling each fd alone would count the thread n
 * times over. Together, though, the running times add up to the thread's
 * time on the PMU: each value is scaled by enabled / (sum of running), and
 * each running becomes that thread-wide share of its enabled time. n >= 1. */
void counters_scale_thread(struct counters_interval *iv, size_t n);

/* value per second of secs of wall time (0 for an empty interval). */
double counters_rate(double value, double secs);

/* The last COUNTERS_HISTORY values of a counter. */
struct counters_ring {
	double v[COUNTERS_HISTORY];
	unsigned head; /* next slot to write */
	unsigned n;    /* values held */
};

/* Forget everything held. */
void counters_ring_clear(struct counters_ring *r);

/* Append a value, dropping the oldest when full. */
void counters_ring_push(struct counters_ring *r, double v);

/* The value age intervals ago (0: the newest); age must be < r->n. */
double counters_ring_get(const struct counters_ring *r, unsigned age);

/* Copy the values oldest first into out (room for COUNTERS_HISTORY);
 * returns how many. */
size_t counters_ring_copy(const struct counters_ring *r, double *out);

/* Derived metrics, computed from two counters (or a counter and the wall
 * clock) of the same scope. */
enum counters_metric {
	COUNTERS_METRIC_IPC,         /* instructions / cycles */
	COUNTERS_METRIC_BRANCH_MISS, /* branch-misses / branches, in % */
	COUNTERS_METRIC_CACHE_MISS,  /* cache-misses / cache-references, in % */
	COUNTERS_METRIC_CPU_UTIL,    /* task-clock (or cpu-clock) ns / wall ns: "CPUs
	                              * utilized"; without a target, busy time instead */
	COUNTERS_NMETRICS,
};

/* The metric's row name ("IPC", "branch-miss %", "cache-miss %",
 * "CPUs utilized"). */
const char *counters_metric_name(enum counters_metric m);

/* What `perf stat` prints after a metric's value ("insn per cycle",
 * "of all branches", ...). */
const char *counters_metric_note(enum counters_metric m);

/* Whether the metric is a percentage. */
bool counters_metric_percent(enum counters_metric m);

/* Whether an event (its attr) is the metric's numerator, or (den) its
 * denominator. The CPU utilization has no denominator event: its
 * denominator is the wall clock. */
bool counters_metric_input(enum counters_metric m, const struct perf_event_attr *a, bool den);

/* Whether the metric divides by the wall clock rather than an event. */
bool counters_metric_per_wall(enum counters_metric m);

/* The metric from its numerator and denominator (for CPU utilization the
 * denominator is wall seconds); 0 when the denominator is 0. */
double counters_metric_value(enum counters_metric m, double num, double den);

/* A process that may be counted: its pid and how busy it was. */
struct counters_cand {
	int pid;
	uint64_t score; /* CPU time (ticks) in the last interval */
	bool followed;  /* already counted */
};

/* Order cands so that the first max are the processes to count: busiest
 * first, ties to those already counted (so rows do not flicker), then to
 * the lower pid. A process that did nothing (score 0) is only kept when it
 * is already counted. Returns how many to count (at most max). */
size_t counters_pick_busiest(struct counters_cand *cands, size_t n, size_t max);

#endif
