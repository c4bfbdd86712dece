/* engine: the sampling session. Opens the events for a target, drains the
 * rings (side-band records first, then samples), keeps the process model
 * current, resolves each sample to (task, DSO, symbol) and counts it in the
 * event's hist. The front ends (batch report, TUI) poll its fds and ask for
 * a snapshot once per refresh. Never prints, never exits. */
#ifndef TRACETOP_ENGINE_H
#define TRACETOP_ENGINE_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/evspec.h"
#include "tracetop/hist.h"
#include "tracetop/util.h"

/* Call graph branches under this percent of their root fold into
 * "[other]" (a recording says it, so a replay folds alike). */
#define ENGINE_CG_MIN_PERCENT 0.05

enum callgraph_mode {
	CALLGRAPH_NONE,
	CALLGRAPH_FP,    /* frame pointers (the kernel walks them) */
	CALLGRAPH_DWARF, /* copied user stack unwound with DWARF CFI */
};

/* Which back-end counts the samples (--engine; the command line's default
 * is auto, a zeroed engine_opts means perf: tests feed the rings' records). */
enum engine_backend {
	ENGINE_BACKEND_PERF, /* every sample through the rings */
	ENGINE_BACKEND_AUTO, /* BPF when built in, allowed and the mode fits; else perf */
	ENGINE_BACKEND_BPF,  /* in-kernel aggregation, or an error saying why not */
};

/* A tracepoint to stream from the start, with its kernel-side filter. */
struct engine_trace_opt {
	const char *event;  /* "subsys:name" */
	const char *filter; /* ftrace filter syntax, or NULL */
};

struct engine_opts {
	const struct evspec *events;
	size_t nevents;
	const int *pids, *tids, *cpus; /* all optional */
	size_t npids, ntids, ncpus;
	char *const *argv; /* command to start, or NULL */
	uint64_t freq, period;
	unsigned mmap_pages;
	bool include_self;
	double decay; /* per refresh, e.g. 0.875 */
	enum callgraph_mode callgraph;
	unsigned stack_size;                   /* dwarf: user stack bytes per sample */
	const struct engine_trace_opt *traces; /* tracepoints into the stream */
	size_t ntraces;
	const char *ftrace;          /* kernel functions for the function tracer, or NULL */
	bool ftrace_graph;           /* function_graph instead of function */
	unsigned trace_log;          /* stream entries kept, a power of two (0: default) */
	enum engine_backend backend; /* --engine */
	double refresh;              /* seconds between refreshes (sizes the BPF maps) */
};

struct engine_stats {
	uint64_t samples;          /* all samples counted */
	uint64_t lost;             /* samples the kernel dropped (LOST records) */
	uint64_t throttled;        /* THROTTLE records */
	uint64_t excluded;         /* our own samples, left out */
	uint64_t bad_records;      /* corrupt records skipped */
	uint64_t interval_samples; /* samples in the last refresh */
	uint64_t interval_lost;
	double interval_secs; /* length of the last refresh */
	/* Symbol tables are loaded on the worker thread: a sample that needs
	 * one not loaded yet waits (copied aside) and is counted when the
	 * worker has answered; samples counts it then. */
	uint64_t deferred;    /* samples that had to wait */
	uint64_t replayed;    /* of those, counted since (the others still wait) */
	uint64_t async_loads; /* symbol tables the worker loaded */
	uint64_t sync_loads;  /* loaded on this thread: a sample could not wait */
};

struct engine;

/* Open the events on the target (starting the command stopped before its
 * exec). NULL with err on failure. */
struct engine *engine_new(const struct engine_opts *o, struct tt_err *err);

/* Enable the events and let the command exec. -1 with err (e.g. the
 * command could not be started). */
int engine_start(struct engine *e, struct tt_err *err);

/* The fds to poll for ring data; returns how many were written. */
size_t engine_pollfds(const struct engine *e, struct pollfd *fds, size_t max);

/* Read everything the rings hold now. */
void engine_read(struct engine *e);

/* When engine_read must run next at the latest (now_ns clock), UINT64_MAX
 * when only the fds say. */
uint64_t engine_deadline(const struct engine *e);
unsigned engine_holdoff(const struct engine *e, size_t *n);

/* The command or every target process has exited. */
bool engine_finished(struct engine *e);

/* Whether it has a command or target processes whose exit it watches. */
bool engine_watching(const struct engine *e);

/* The command's exit status (as from waitpid), or -1. */
int engine_child_status(const struct engine *e);

/* End a refresh interval for every event (decay or zero), update stats. */
void engine_tick(struct engine *e, bool zero);

/* Sorted rows of event idx (after engine_tick), kept by filter (NULL:
 * all); during a thread zoom, the zoomed thread's rows. */
void engine_snapshot(struct engine *e, size_t idx, const enum hist_sort *sort,
                     bool (*filter)(const struct hist_entry *, void *), void *arg,
                     struct hist_snapshot *snap);

/* Count thread tid's samples apart from now on and show them in snapshots
 * (0 ends the zoom). */
void engine_zoom_thread(struct engine *e, int tid);

/* What the rows will be grouped by (HIST_GROUP_*): a grouping by tid has
 * the rows count threads apart, one by pid or tid the call graph's roots
 * (the default: a root per command). From the next sample on; counts
 * so far stay as they were and fade. */
void engine_set_group(struct engine *e, unsigned group);
struct callgraph;
/* The call graph of event idx (NULL without call stacks). */
const struct callgraph *engine_callgraph(const struct engine *e, size_t idx);

/* Samples of event idx in the last refresh and since start. */
void engine_event_samples(const struct engine *e, size_t idx, uint64_t *interval, uint64_t *total);

size_t engine_nevents(const struct engine *e);
/* The name of event idx as sampled (after any fallback). */
const char *engine_event_name(const struct engine *e, size_t idx);
/* "cycles is not supported here ...: sampling cpu-clock instead", or NULL. */
const char *engine_notice(const struct engine *e);
/* The back-end that counts the samples: "bpf" or "perf". */
const char *engine_backend(const struct engine *e);
/* Why that one: "in-kernel aggregation, ...", "--engine perf", or the
 * reason BPF was refused or does not fit (then the ring path runs). */
const char *engine_backend_why(const struct engine *e);
/* What is profiled: "system-wide (2 CPUs)", "pid 123", "command: ./a". */
const char *engine_target(const struct engine *e);
const struct engine_stats *engine_stats(const struct engine *e);

/* Before the last report (final): count every sample still waiting for
 * symbols, the worker given up to 5 s first, then loading the rest on this
 * thread, so that it misses none. Before the first: wait up to 50 ms for
 * the worker's answers, then (debuginfod off) count the rest the same way,
 * so that the first screen has its rows; with debuginfod on a load still
 * out may be a download, and goes on. */
void engine_settle(struct engine *e, bool final);

/* Stop sampling, kill a still-running command, release everything
 * (samples still waiting for symbols are dropped). */
void engine_free(struct engine *e);

/* The command's pid (started stopped before its exec by engine_new and
 * released by engine_start), or 0 without a command. An engine may have
 * no events at all: it then only starts the command and watches the
 * targets for the counters view. */
int engine_child_pid(const struct engine *e);

/* ---- the trace stream (tracepoints and the function tracer) ----
 * Tracepoints are opened per CPU (and per thread of a -p/-t/command
 * target) with a sample at every hit carrying the raw payload (and the
 * call stack with -g), written into the same rings as the samples and
 * merged with them in time order; their events go to the stream, not to
 * the Top pane's counts. */
struct stream;
struct stream_entry;

/* The stream (made on first use; it lives as long as the engine). */
struct stream *engine_stream(struct engine *e);

/* Start streaming the tracepoint name ("subsys:name"), filtered in the
 * kernel by filter (ftrace filter syntax; NULL or "" for none). Enabling
 * one that is on replaces its filter. -1 with err: unknown event (named,
 * with a suggestion), a filter the kernel refuses (with its own words),
 * permissions. */
int engine_trace_enable(struct engine *e, const char *name, const char *filter, struct tt_err *err);

/* Replace the kernel filter of name, which is on (NULL or "": none). A
 * filter the kernel refuses leaves the one it had, and err has the
 * kernel's words. The filter lives with the perf fds: closing them at
 * exit leaves nothing behind. */
int engine_trace_set_filter(struct engine *e, const char *name, const char *filter,
                            struct tt_err *err);

/* The kernel filter of name (NULL: none, or it is not on). */
const char *engine_trace_filter(const struct engine *e, const char *name);

/* Stop streaming name (its counts stay in the stream). -1 with err when
 * it is not on. */
int engine_trace_disable(struct engine *e, const char *name, struct tt_err *err);

/* The tracepoints on: how many; the name of the i-th (and its filter, NULL
 * for none, in *filter when filter is not NULL). */
size_t engine_trace_count(const struct engine *e);
const char *engine_trace_name(const struct engine *e, size_t i, const char **filter);

/* Whether name is on. */
bool engine_trace_enabled(const struct engine *e, const char *name);

/* Follow the kernel functions funcs (comma-separated names or globs) with
 * the function tracer (function_graph when graph) in a private tracefs
 * instance; its events ("ftrace:function", ...) join the stream. -1 with
 * err naming what the kernel lacks or refuses. */
int engine_ftrace_start(struct engine *e, const char *funcs, bool graph, struct tt_err *err);

/* Stop the function tracer and remove its instance (nothing if off). */
void engine_ftrace_stop(struct engine *e);

/* Whether the function tracer runs. */
bool engine_ftrace_on(const struct engine *e);

/* Frame i (0: where the event fired) of a logged event's call stack (with
 * -g) as "symbol (object)", escaped, into buf; *kernel tells kernel code.
 * false past the last frame or without a stack. */
bool engine_trace_frame(struct engine *e, const struct stream_entry *en, size_t i, char *buf,
                        size_t len, bool *kernel);

/* Whether tracepoints or the function tracer have fed a stream (then
 * engine_trace_snapshot tells its state). */
bool engine_has_stream(const struct engine *e);

struct frame_trace;
/* The stream's part of a frame (engine_has_stream must be true); without
 * rows only its counts and state, the log's view kept. */
void engine_trace_snapshot(struct engine *e, struct frame_trace *ft, bool rows);

struct addrhist;
/* The self samples of event idx per instruction address (NULL before the
 * first sample or request), for annotate_update. Decayed at each
 * engine_tick like the rows. Kept only for the functions a user may
 * annotate: the hottest of the last refresh and the ones asked for below;
 * any other function has none until asked for. */
const struct addrhist *engine_addrhist(const struct engine *e, size_t idx);

/* Keep the per-instruction samples of sym in dso from now on, whatever its
 * rank (the Annotate pane asks for the function it opens; the last few
 * asked for stay kept); with mask (HIST_GROUP_* of who), only those of
 * the Top row whose key agrees with who on those fields. */
struct addrhist_who;
void engine_addrhist_want(struct engine *e, const struct dso *dso, const struct sym *sym,
                          bool kernel, unsigned mask, const struct addrhist_who *who);

/* The same for every function called name, from its first sample (batch
 * --annotate NAME asks before the samples come), each row of the grouping
 * mask counted apart too. */
void engine_addrhist_want_name(struct engine *e, const char *name, unsigned mask);

/* Frames get the per-instruction samples of the n hottest functions too
 * (at most the ones kept: a recording writes what Annotate needs of
 * them); how many. */
void engine_copy_hot(struct engine *e, size_t n);
size_t engine_hot_copies(const struct engine *e);

#endif
