/* counters: counting events (no sampling) like `perf stat -I`, live, in
 * three scopes: the system (or target) total, per CPU, and per process.
 *
 * Each counter is a perf_event_open fd with read_format TOTAL_TIME_ENABLED
 * | TOTAL_TIME_RUNNING; every tick reads them all and keeps, per scope and
 * event, the count of the last interval scaled by running/enabled (the
 * multiplexing share), its rate per second of wall time, the total since
 * counting began and the last COUNTERS_HISTORY intervals for a sparkline.
 * Derived metrics (IPC, branch-miss %, cache-miss %, CPUs utilized) come as
 * rows of their own when their inputs are counted. Without a target, CPUs
 * utilized is the busy time of /proc/stat (a CPU's task-clock or
 * cpu-clock also runs while it idles, so it would read one per CPU).
 *
 * What is opened:
 *  - no target: one fd per CPU per event (pid -1); the total is their sum.
 *    Process scope adds one fd per thread per event (cpu -1: on every CPU,
 *    even with a CPU list) for the busiest processes (by CPU time in the
 *    last interval, from /proc), re-chosen every tick, opened only while
 *    that scope is in use (otherwise its snapshots are empty).
 *  - a target (pids, tids, or a command's pid): one fd per thread per CPU
 *    per event (with pids or a command, inherited: children and new
 *    threads count in their creator's fd), or per thread only when that
 *    would pass the fd limit
 *    (then the CPU scope has no rows). Per-process rows are sums over the
 *    same fds, so every scope is counted all the time. A thread's per-CPU
 *    fds are scaled together (see counters_scale_thread).
 *  - a command (opts.command): its counters start at its exec, so the
 *    first counters_tick must come after the command was released
 *    (engine_start); counters added later start at once.
 * Everything stays under RLIMIT_NOFILE minus a reserve; when the limit
 * bites, fewer threads or processes are counted and counters_notice()
 * says so.
 *
 * An event the machine cannot count (no PMU, ...) is a row with supported
 * false and a reason, never a 0 and never an error. Never prints, never
 * exits; allocates nothing per tick in steady state. */
#ifndef TRACETOP_COUNTERS_H
#define TRACETOP_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/cgroup.h"
#include "tracetop/counters-math.h"
#include "tracetop/util.h"

/* Processes followed by default in process scope without a target. */
#define COUNTERS_MAX_PROCS_DEFAULT 16
/* Ticks an exited process keeps its last row (marked exited). */
#define COUNTERS_EXIT_TICKS 3
/* fds left for everything else under RLIMIT_NOFILE. */
#define COUNTERS_FD_RESERVE 64

struct counters_opts {
	const char *const *events; /* event names (evspec syntax); NULL: the defaults */
	size_t nevents;
	const int *pids, *tids, *cpus; /* as engine_opts; no pid or tid: system-wide */
	size_t npids, ntids, ncpus;    /* no cpus: every online CPU */
	int command;                   /* pid of a command stopped before its exec (its
	                                * children are counted with it), or 0 */
	bool include_self;             /* process scope may show tracetop itself */
	unsigned max_procs;            /* busiest processes followed; 0: the default */
	size_t max_fds;                /* fd budget; 0: RLIMIT_NOFILE - reserve - open fds */
	enum counters_scope scope;     /* the scope in use at start */
	const char *proc_root;         /* procfs; NULL: "/proc" (tests: a fixture tree) */
};

/* One row of a snapshot: an event (or derived metric) in one scope. */
struct counters_row {
	const char *event; /* event name as given, or the metric's name (interned) */
	char scope[40];    /* "total", "cpu1", "pid 123" or "tid 123" */
	enum counters_scope kind;
	int cpu;               /* COUNTERS_CPU: the CPU, else -1 */
	int pid;               /* COUNTERS_PROCESS: the pid (tid for -t), else 0 */
	char comm[16];         /* COUNTERS_PROCESS: the command, raw (escape it) */
	bool exited;           /* COUNTERS_PROCESS: gone; these are its final counts */
	bool supported;        /* false: value, rate, total mean nothing */
	const char *reason;    /* !supported: why, and what to do (static, never freed) */
	bool metric;           /* a derived metric, not a count */
	const char *note;      /* metric: perf stat's words after it ("insn per cycle") */
	bool percent;          /* metric: a percentage */
	bool nsec;             /* the count is nanoseconds (task-clock, cpu-clock) */
	size_t event_idx;      /* for counters_remove; a metric: its numerator's */
	double value;          /* the last interval, scaled by running/enabled */
	double rate;           /* value per second of the interval (0 for a metric) */
	double total;          /* since counting began (a metric: of the totals) */
	double share;          /* running / enabled of the interval, 0..1 (1: no multiplexing) */
	const double *history; /* the last nhist interval values, oldest first */
	size_t nhist;
	/* COUNTERS_PROCESS: its cgroup when known, else NULL */
	const struct cgroup *cgroup;
};

/* Rows of one scope, reused from one snapshot to the next. */
struct counters_snapshot {
	struct counters_row *rows;
	size_t n, cap;
	double *hist; /* the rows' histories, COUNTERS_HISTORY each */
	enum counters_scope scope;
	double interval; /* seconds of the last interval */
	double elapsed;  /* seconds since counting began */
};

struct counters;

/* The default events: task-clock, context-switches, cpu-migrations,
 * page-faults, and with a hardware PMU cycles, instructions, branches,
 * branch-misses, cache-references and cache-misses. Returns how many were
 * written to names (room for 16). */
size_t counters_default_events(const char **names);

/* Open the counters for the target (enabled at once, or at the command's
 * exec). NULL with err on a bad event name, a missing process or a
 * permission refusal; unsupported events are not errors. */
struct counters *counters_new(const struct counters_opts *o, struct tt_err *err);

/* Use scope s from now on: entering the process scope without a target
 * opens the busiest processes' counters, leaving it closes them. */
void counters_set_scope(struct counters *c, enum counters_scope s);

/* The scope in use. */
enum counters_scope counters_scope(const struct counters *c);

/* Without a target, follow process pid in the process scope however idle
 * it is (a zoom into it); 0 lets the busiest be chosen again. Whether pid
 * has (or will have at the next tick) rows: false when a target leaves it
 * out. */
bool counters_pin(struct counters *c, int pid);

/* Whether scope s has rows with this target (CPU: per-CPU fds fit). */
bool counters_scope_available(const struct counters *c, enum counters_scope s);

/* End an interval: read every fd, update values, rates, totals and
 * histories; in process scope follow processes as they come and go. */
void counters_tick(struct counters *c);

/* The rows of scope s after the last tick, in order: per scope key (the
 * total, each CPU, each process) its events as given, then its metrics.
 * Valid until the next snapshot into snap. */
void counters_snapshot(struct counters *c, enum counters_scope s, struct counters_snapshot *snap);
void counters_snapshot_free(struct counters_snapshot *snap);

/* Count one more event; -1 with err for a bad name, a duplicate or no fds
 * left. An event the machine cannot count is added as unsupported. */
int counters_add(struct counters *c, const char *event, struct tt_err *err);

/* Stop counting event idx (as in counters_row.event_idx); -1 if no such event. */
int counters_remove(struct counters *c, size_t idx);

size_t counters_nevents(const struct counters *c);

/* The read calls the last tick made: a CPU's software events are read in
 * one, each read of another CPU's event being an interrupt of it. */
unsigned counters_last_reads(const struct counters *c);
/* The name of event idx as given. */
const char *counters_event_name(const struct counters *c, size_t idx);

/* Why event idx cannot be counted here ("not supported: no hardware PMU
 * on this machine"), or NULL when it counts. */
const char *counters_event_reason(const struct counters *c, size_t idx);

/* What limits the view ("fd limit reached: counting 12 of 40 processes"),
 * or NULL. */
const char *counters_notice(const struct counters *c);

/* Close every fd and free c (NULL is fine). */
void counters_free(struct counters *c);

#endif
