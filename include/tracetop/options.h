/* options: the command line. One const table of options feeds getopt_long,
 * --help and (by a test) the man page. */
#ifndef TRACETOP_OPTIONS_H
#define TRACETOP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tracetop/counters.h"
#include "tracetop/engine.h"
#include "tracetop/hist.h"
#include "tracetop/rcfile.h"
#include "tracetop/util.h"

enum report_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_FOLDED,
	FORMAT_CSV,   /* the system view: a title row, then a row per refresh */
	FORMAT_SVG,   /* a flame graph of the last refresh (top and flame views) */
	FORMAT_PPROF, /* the top view: one gzipped pprof profile of the history at the end */
};

/* What the screen or the batch reports show first. */
enum options_view {
	VIEW_TOP,      /* the profile, by function */
	VIEW_COUNTERS, /* counts and rates, like perf stat -I */
	VIEW_TRACE,    /* the stream of tracepoint events, like trace-cmd */
	VIEW_PROBES,   /* probes and their hit counts */
	VIEW_SYSTEM,   /* CPU, memory, disks, network, interrupts, processes */
	VIEW_LATENCY,  /* syscall latency: counts, errors, percentiles, histograms */
	VIEW_FLAME,    /* the call stacks as a flame graph (needs -g) */
	VIEW_NONE,     /* (a pane no --view starts on) */
};

struct options {
	char **events; /* -e, in order; default "cycles" */
	size_t nevents;
	int *pids, *tids, *cpus;
	size_t npids, ntids, ncpus;
	char **argv;          /* the command after --, NULL-terminated, or NULL */
	uint64_t freq;        /* -F, 0 when -c is used */
	uint64_t period;      /* -c */
	unsigned mmap_pages;  /* -m, per CPU ring, a power of two */
	bool batch;           /* -b */
	double delay;         /* -d seconds */
	bool delay_given;     /* -d was given (it wins over the setup file) */
	long count;           /* -n, 0 = forever */
	const char *output;   /* -o */
	const char *annotate; /* --annotate SYMBOL (batch), or NULL */
	enum report_format format;
	enum hist_sort sort[HIST_SORT_MAX + 1];
	unsigned group;  /* HIST_GROUP_*: the row keys --sort names, else the default */
	bool sort_given; /* -s was given */
	bool zero;       /* -z */
	enum callgraph_mode callgraph; /* -g, --call-graph */
	unsigned stack_size;           /* --call-graph dwarf,SIZE: bytes of user stack copied */
	bool children;                 /* --children: sort by inclusive time */
	bool include_self;             /* --include-self */
	unsigned rows;                 /* --rows: rows per batch report, 0 = all */
	unsigned max_stack;            /* --max-stack: caller levels in -g text, 0 = default */
	bool no_mouse;                 /* --no-mouse */
	bool no_debuginfod;            /* --no-debuginfod */
	enum engine_backend engine;    /* --engine auto|bpf|perf */
	enum options_view view;        /* --view (trace when -T or --ftrace and no --view) */
	bool view_given;
	bool threads;    /* --threads: the system view's processes with their threads */
	char **counters; /* --counters, in order; none: the defaults */
	size_t ncounters;
	unsigned counters_scopes;           /* --counters-scope: bit 1 << scope per scope named */
	enum counters_scope counters_scope; /* the first scope named (default total) */
	bool counters_scope_given;          /* --counters-scope was given */
	struct engine_trace_opt *traces;    /* -T with its --filter, in order */
	size_t ntraces;
	const char *ftrace;  /* --ftrace FUNC[,FUNC...], or NULL */
	bool ftrace_graph;   /* --ftrace-graph */
	unsigned trace_log;  /* --trace-log: entries kept, a power of two (0: default) */
	bool cleanup;        /* --cleanup */
	const char **probes; /* --probe SPEC, in order */
	size_t nprobes;
	const char **latencies; /* --latency SPEC: functions to time, in order */
	size_t nlatencies;
	unsigned latency_kinds;   /* --latency-kinds: bits 1u << enum lat_kind (default syscall) */
	bool latency_kinds_given; /* ...on the command line */
	bool no_syscalls;         /* --no-syscalls: the latency view times only the functions */
	bool latency_merge;       /* --latency-merge: its rows over every process */
	const char *probe_vars;   /* --probe-vars SPEC, or NULL */
	bool no_config;           /* --no-config: neither read nor write the setup file */
	/* the setup file (on the screen, without --no-config): its settings,
	 * path and bad lines ("PATH:LINE: why (skipped)"); main.c's, not
	 * options_parse's (options_free leaves them) */
	struct rcfile *rc;
	char *rc_path;
	char **rc_notes;
	size_t nrc_notes, rc_notes_cap;
	bool list_events;
	bool help_keys; /* --help-keys */
	bool help, version;
	double history;       /* --history: seconds kept (default 600; 0: none) */
	bool history_dump;    /* --history-dump */
	const char *record;   /* -w/--record FILE, or NULL */
	const char *replay;   /* -r/--replay FILE, or NULL */
	const char *baseline; /* --baseline FILE, or NULL */
	bool sort_delta;      /* -s delta: Top rows by their change against it */
	const char *diff_a;   /* --diff A B: the two reports, or NULL */
	const char *diff_b;
};

/* Parse argv. 0 on success; -1 with err for a usage error (exit 2). */
int options_parse(struct options *o, int argc, char **argv, struct tt_err *err);
void options_free(struct options *o);

/* The --help text. */
void options_usage(FILE *out);

/* Every long option name, NULL-terminated (for the man page test). */
const char *const *options_long_names(void);

/* A view's name, as --view takes it ("top", "counters", ...). */
const char *options_view_name(enum options_view v);

#endif
