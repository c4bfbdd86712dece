/* options: command-line parsing driven by one table. */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/latency.h"
#include "tracetop/options.h"

enum {
	OPT_FORMAT = 256,
	OPT_LIST_EVENTS,
	OPT_INCLUDE_SELF,
	OPT_ROWS,
	OPT_VERSION,
	OPT_HELP,
	OPT_NO_MOUSE,
	OPT_HELP_KEYS,
	OPT_CALL_GRAPH,
	OPT_CHILDREN,
	OPT_VIEW,
	OPT_COUNTERS,
	OPT_COUNTERS_SCOPE,
	OPT_FILTER,
	OPT_FTRACE,
	OPT_FTRACE_GRAPH,
	OPT_CLEANUP,
	OPT_PROBE,
	OPT_PROBE_VARS,
	OPT_ANNOTATE,
	OPT_TRACE_LOG,
	OPT_NO_DEBUGINFOD,
	OPT_THREADS,
	OPT_ENGINE,
	OPT_LATENCY,
	OPT_LATENCY_KINDS,
	OPT_NO_SYSCALLS,
	OPT_LATENCY_MERGE,
	OPT_HISTORY,
	OPT_HISTORY_DUMP,
	OPT_MAX_STACK,
	OPT_NO_CONFIG,
	OPT_BASELINE,
	OPT_DIFF,
};

/* Default and limits of the user stack copied per sample in dwarf mode. */
#define STACK_SIZE_DEFAULT 8192
#define STACK_SIZE_MAX 65528
/* Ring pages per CPU with call stacks unless -m says otherwise: each
 * sample carries a stack copy (512 bytes with -g, 8 KiB with dwarf). */
#define FP_MMAP_PAGES 512
#define DWARF_MMAP_PAGES 1024

struct opt_def {
	const char *name; /* long name */
	int val;          /* short letter or OPT_* */
	const char *arg;  /* argument name, NULL for a flag */
	const char *help;
};

/* The one option table: getopt, --help and the man page test read it. */
static const struct opt_def opt_defs[] = {
    {"event", 'e', "EVENT", "sample EVENT (repeatable; default cycles, cpu-clock without a PMU)"},
    {"pid", 'p', "PID[,PID]", "profile these processes (all their threads)"},
    {"tid", 't', "TID[,TID]", "profile these threads only"},
    {"cpu", 'C', "CPU-LIST", "profile these CPUs only, e.g. 0-3,6"},
    {"freq", 'F', "HZ", "sample at HZ per CPU (default 4000)"},
    {"count", 'c', "PERIOD", "sample every PERIOD events instead of -F"},
    {"mmap-pages", 'm', "PAGES", "ring buffer pages per CPU, a power of two (default 128)"},
    {"batch", 'b', NULL, "print reports instead of the interactive screen"},
    {"delay", 'd', "SECS", "refresh every SECS seconds (default 2, fractions allowed)"},
    {"iterations", 'n', "N", "stop after N refreshes"},
    {"output", 'o', "FILE", "write batch reports to FILE"},
    {"format", OPT_FORMAT, "FMT",
     "batch report format: text, json, folded (stacks), csv (system view), svg (a flame "
     "graph of the last refresh) or pprof (the window's profile, gzipped, at the end)"},
    {"sort", 's', "KEYS",
     "group rows by the KEYS comm, pid, tid, cgroup, dso, sym (default comm,dso,sym) and "
     "sort them in the order given (overhead, samples and children sort too; delta: by "
     "the change against --baseline)"},
    {"zero", 'z', NULL, "zero the counts every refresh instead of decaying them"},
    {"graph", 'g', NULL, "record call stacks with frame pointers (--call-graph fp)"},
    {"call-graph", OPT_CALL_GRAPH, "MODE",
     "call stacks: fp, dwarf[,STACK_BYTES] (default 8192) or no"},
    {"children", OPT_CHILDREN, NULL, "sort by inclusive time (children) with call stacks"},
    {"history", OPT_HISTORY, "DURATION",
     "keep every pane's last DURATION (default 10m; 30s, 1h; 0: none) to step back in"},
    {"history-dump", OPT_HISTORY_DUMP, NULL,
     "batch: at the end, print every interval the history holds, every pane's part (text or "
     "JSON lines)"},
    {"record", 'w', "FILE",
     "record the session into FILE as it runs (every refresh, symbolized; replay with -r)"},
    {"replay", 'r', "FILE",
     "replay a recording made with -w: the screen (or -b reports) from FILE, nothing sampled"},
    {"baseline", OPT_BASELINE, "FILE",
     "show each Top, counter and latency row's change against FILE, a report of "
     "tracetop -b --format json (new and gone rows marked)"},
    {"diff", OPT_DIFF, "A B",
     "compare the reports A and B (each from tracetop -b --format json): every row's change, "
     "most changed first, as text or --format json; then exit"},
    {"max-stack", OPT_MAX_STACK, "N",
     "batch text with call stacks: print at most N caller levels under each row (default 16)"},
    {"rows", OPT_ROWS, "N", "print at most N rows per batch report (default all)"},
    {"annotate", OPT_ANNOTATE, "SYMBOL",
     "batch: at the end, print SYMBOL's instructions and source lines with their samples"},
    {"view", OPT_VIEW, "VIEW",
     "show top (the profile, default), counters (like perf stat -I), trace, probes, system, "
     "latency (syscall times) or flame (a flame graph of the call stacks, with -g)"},
    {"threads", OPT_THREADS, NULL,
     "system view: each process's threads too (JSON thread_list; on the screen, as H)"},
    {"counters", OPT_COUNTERS, "LIST",
     "count these events in the counters view (default task-clock, ...)"},
    {"counters-scope", OPT_COUNTERS_SCOPE, "SCOPES",
     "counters per total (default), cpu or process; a list in batch"},
    {"trace", 'T', "EVENT",
     "stream tracepoint EVENT (SUBSYSTEM:EVENT; repeatable) in the trace view"},
    {"filter", OPT_FILTER, "EXPR",
     "filter the -T before it in the kernel (ftrace syntax: 'prev_pid == 1')"},
    {"ftrace", OPT_FTRACE, "FUNCS",
     "follow these kernel functions (comma list, globs) with the function tracer"},
    {"ftrace-graph", OPT_FTRACE_GRAPH, NULL,
     "use the function_graph tracer for --ftrace (entries and exits)"},
    {"trace-log", OPT_TRACE_LOG, "N",
     "keep N trace events (default 65536; batch: per refresh), drop the oldest"},
    {"probe", OPT_PROBE, "SPEC", "add a probe: [BINARY:]FUNC[+OFF|%return] [ARG...] (repeatable)"},
    {"latency", OPT_LATENCY, "SPEC",
     "time a function with an entry/return probe pair: [BINARY:]FUNC (repeatable; the latency "
     "view)"},
    {"latency-kinds", OPT_LATENCY_KINDS, "KINDS",
     "what the latency view times: syscall, runq, bio, offcpu, oncpu or all, comma-separated "
     "(default syscall; in batch with --latency, only the functions)"},
    {"no-syscalls", OPT_NO_SYSCALLS, NULL,
     "latency: time only the --latency functions, not every syscall"},
    {"latency-merge", OPT_LATENCY_MERGE, NULL,
     "latency: one row per syscall, function, wait reason, ... over every process (the "
     "screen's p), not one per process or thread"},
    {"probe-vars", OPT_PROBE_VARS, "SPEC",
     "list the parameters and variables at a probe point and exit"},
    {"cleanup", OPT_CLEANUP, NULL,
     "remove tracefs instances and probes left by a killed tracetop and exit"},
    {"engine", OPT_ENGINE, "ENGINE",
     "count samples with bpf (in the kernel), perf (through ring buffers) or auto (default)"},
    {"include-self", OPT_INCLUDE_SELF, NULL, "keep tracetop's own samples in the profile"},
    {"no-mouse", OPT_NO_MOUSE, NULL, "do not use the mouse in the interactive screen"},
    {"no-debuginfod", OPT_NO_DEBUGINFOD, NULL,
     "do not fetch debug info from the servers in DEBUGINFOD_URLS"},
    {"no-config", OPT_NO_CONFIG, NULL,
     "neither read nor write the setup file (~/.config/tracetop/tracetoprc)"},
    {"list-events", OPT_LIST_EVENTS, NULL, "list the events this machine offers and exit"},
    {"help-keys", OPT_HELP_KEYS, NULL, "list the keys of the interactive screen and exit"},
    {"version", OPT_VERSION, NULL, "print the version and exit"},
    {"help", 'h', NULL, "print this help and exit"},
};

/* Print --help from the table. */
void
options_usage(FILE *out)
{
	size_t i;

	fputs("usage: tracetop [OPTIONS] [-- COMMAND [ARGS...]]\n"
	      "Live view of where CPU time goes, by function (like perf top).\n\n",
	      out);
	for (i = 0; i < ARRAY_SIZE(opt_defs); i++) {
		const struct opt_def *d = &opt_defs[i];
		char lhs[64];

		if (d->val < 256)
			snprintf(lhs, sizeof lhs, "-%c, --%s%s%s", d->val, d->name,
			         d->arg ? " " : "", d->arg ? d->arg : "");
		else
			snprintf(lhs, sizeof lhs, "    --%s%s%s", d->name, d->arg ? " " : "",
			         d->arg ? d->arg : "");
		fprintf(out, "  %-28s %s\n", lhs, d->help);
	}
	fputs("\nWith -- COMMAND, tracetop starts COMMAND and profiles it and its children\n"
	      "until it exits. Without -p, -t or a command it profiles the whole system.\n",
	      out);
}

/* The long names, for the man page consistency test. */
const char *const *
options_long_names(void)
{
	static const char *names[ARRAY_SIZE(opt_defs) + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(opt_defs); i++)
		names[i] = opt_defs[i].name;
	return names;
}

/* Build getopt_long's tables from opt_defs. */
static void
options_getopt_tables(struct option *longs, char *shorts)
{
	size_t i, k = 0;

	shorts[k++] = '+'; /* stop at the first non-option: the command */
	shorts[k++] = ':'; /* a missing argument returns ':', not '?' */
	for (i = 0; i < ARRAY_SIZE(opt_defs); i++) {
		const struct opt_def *d = &opt_defs[i];

		longs[i] = (struct option){d->name, d->arg ? required_argument : no_argument, NULL,
		                           d->val};
		if (d->val < 256) {
			shorts[k++] = (char)d->val;
			if (d->arg)
				shorts[k++] = ':';
		}
	}
	longs[i] = (struct option){0};
	shorts[k] = '\0';
}

/* Parse a positive count for option name. */
static int
parse_positive(const char *name, const char *arg, uint64_t *out, struct tt_err *err)
{
	if (parse_u64(arg, out) != 0 || *out == 0)
		return err_set(err, "%s expects a positive whole number, got '%s'", name, arg);
	return 0;
}

/* Append the events of a comma-separated list (-e, --counters) to *v. */
static int
options_add_events(char ***v, size_t *n, const char *opt, const char *arg, struct tt_err *err)
{
	const char *p = arg;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (len == 0)
			return err_set(err,
			               "%s expects EVENT[,EVENT...], got '%s'; see --list-events",
			               opt, arg);
		*v = xrealloc(*v, (*n + 1) * sizeof **v);
		(*v)[(*n)++] = xstrndup(p, len);
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

/* Parse --counters-scope SCOPE[,SCOPE...]: total, cpu, process. */
static int
options_counters_scope(struct options *o, const char *arg, struct tt_err *err)
{
	const char *p = arg;
	char name[16];

	o->counters_scopes = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int s;

		snprintf(name, sizeof name, "%.*s",
		         (int)(len < sizeof name ? len : sizeof name - 1), p);
		if (len == 0 || len >= sizeof name || (s = counters_scope_parse(name)) < 0)
			return err_set(err,
			               "--counters-scope expects total, cpu or process (or a "
			               "comma-separated list), got '%s'",
			               arg);
		if (o->counters_scopes == 0)
			o->counters_scope = (enum counters_scope)s;
		o->counters_scopes |= 1u << s;
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

/* Parse --engine auto | bpf | perf. */
static int
options_engine(struct options *o, const char *arg, struct tt_err *err)
{
	if (strcmp(arg, "auto") == 0)
		o->engine = ENGINE_BACKEND_AUTO;
	else if (strcmp(arg, "bpf") == 0)
		o->engine = ENGINE_BACKEND_BPF;
	else if (strcmp(arg, "perf") == 0)
		o->engine = ENGINE_BACKEND_PERF;
	else
		return err_set(err, "--engine: '%s' is not auto, bpf or perf", arg);
	return 0;
}

/* Parse --call-graph fp | dwarf[,SIZE] | no. */
static int
options_call_graph(struct options *o, const char *arg, struct tt_err *err)
{
	const char *comma = strchr(arg, ',');
	size_t len = comma ? (size_t)(comma - arg) : strlen(arg);
	uint64_t size = STACK_SIZE_DEFAULT;

	if (comma != NULL && strncmp(arg, "dwarf", len) == 0 && len == 5) {
		if (parse_u64(comma + 1, &size) != 0 || size < 64 || size > STACK_SIZE_MAX)
			return err_set(err,
			               "--call-graph dwarf,SIZE expects 64 to %d bytes, got '%s'",
			               STACK_SIZE_MAX, comma + 1);
		size &= ~(uint64_t)7; /* the kernel wants a multiple of 8 */
	} else if (comma != NULL) {
		return err_set(err, "--call-graph: only dwarf takes a size, got '%s'", arg);
	}
	if (strncmp(arg, "fp", len) == 0 && len == 2)
		o->callgraph = CALLGRAPH_FP;
	else if (strncmp(arg, "dwarf", len) == 0 && len == 5)
		o->callgraph = CALLGRAPH_DWARF;
	else if (strncmp(arg, "no", len) == 0 && len == 2)
		o->callgraph = CALLGRAPH_NONE;
	else
		return err_set(err, "--call-graph expects fp, dwarf[,SIZE] or no, got '%s'", arg);
	o->stack_size = (unsigned)size;
	return 0;
}

/* The names of --format and --view, in enum order. */
static const char *const format_names[] = {"text", "json", "folded", "csv", "svg", "pprof"};
static const char *const view_names[] = {"top",    "counters", "trace", "probes",
                                         "system", "latency",  "flame"};

/* The index of arg among n names, or -1. */
static int
options_choice(const char *arg, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(arg, names[i]) == 0)
			return (int)i;
	return -1;
}

/* Seconds of a duration: a number with an optional s, m or h. */
static int
options_duration(const char *name, const char *arg, double *out, struct tt_err *err)
{
	static const char units[] = "smh";
	static const double mult[] = {1, 60, 3600};
	char num[32];
	size_t len = strlen(arg);
	double m = 1;
	const char *u;

	if (len > 0 && len < sizeof num && (u = strchr(units, arg[len - 1])) != NULL) {
		m = mult[u - units];
		len--;
	}
	if (len == 0 || len >= sizeof num)
		return err_set(err, "%s expects a duration like 90s, 10m or 1h, got '%s'", name,
		               arg);
	memcpy(num, arg, len);
	num[len] = '\0';
	if (parse_double(num, out) != 0 || *out < 0 || *out * m > 7 * 86400)
		return err_set(err,
		               "%s expects a duration from 0 to 7 days (90s, 10m, 1h), got '%s'",
		               name, arg);
	*out *= m;
	return 0;
}

/* -s KEYS: hist's sort keys, and "delta" (the change against --baseline)
 * among them, taken out: rows by their change, then by the others. */
static int
options_sort(struct options *o, const char *arg, struct tt_err *err)
{
	char *copy = xstrdup(arg), *rest = xmalloc(strlen(arg) + 1), *save = NULL, *w;
	size_t n = 0;
	int rc;

	o->sort_delta = false;
	for (w = strtok_r(copy, ",", &save); w != NULL; w = strtok_r(NULL, ",", &save)) {
		size_t b = strspn(w, " \t"), e = strlen(w);

		while (e > b && (w[e - 1] == ' ' || w[e - 1] == '\t'))
			e--;
		if (e - b == 5 && strncmp(w + b, "delta", 5) == 0)
			o->sort_delta = true;
		else
			n += (size_t)sprintf(rest + n, "%s%s", n ? "," : "", w);
	}
	rest[n] = '\0';
	rc = hist_parse_sort(!o->sort_delta ? arg : n ? rest : "overhead", o->sort, err);
	free(copy);
	free(rest);
	return rc;
}

/* Apply one parsed option. */
static int
options_apply(struct options *o, int c, const char *arg, struct tt_err *err)
{
	uint64_t u;
	int k;

	switch (c) {
	case 'e':
		return options_add_events(&o->events, &o->nevents, "-e", arg, err);
	case OPT_COUNTERS:
		return options_add_events(&o->counters, &o->ncounters, "--counters", arg, err);
	case OPT_COUNTERS_SCOPE:
		o->counters_scope_given = true;
		return options_counters_scope(o, arg, err);
	case OPT_VIEW:
		if ((k = options_choice(arg, view_names, ARRAY_SIZE(view_names))) < 0)
			return err_set(err,
			               "--view expects top, counters, trace, probes, system, "
			               "latency or flame, got '%s'",
			               arg);
		o->view = (enum options_view)k;
		o->view_given = true;
		return 0;
	case 'T':
		if (*arg == '\0')
			return err_set(
			    err, "-T expects a tracepoint SUBSYSTEM:EVENT; see --list-events");
		o->traces = xrealloc(o->traces, (o->ntraces + 1) * sizeof *o->traces);
		o->traces[o->ntraces++] = (struct engine_trace_opt){.event = arg};
		return 0;
	case OPT_FILTER:
		if (o->ntraces == 0)
			return err_set(err,
			               "--filter applies to the -T before it: give -T EVENT first");
		if (o->traces[o->ntraces - 1].filter != NULL)
			return err_set(err,
			               "-T %s already has a --filter; combine them with && or ||",
			               o->traces[o->ntraces - 1].event);
		o->traces[o->ntraces - 1].filter = arg;
		return 0;
	case OPT_FTRACE:
		o->ftrace = arg;
		return 0;
	case OPT_FTRACE_GRAPH:
		o->ftrace_graph = true;
		return 0;
	case OPT_CLEANUP:
		o->cleanup = true;
		return 0;
	case OPT_PROBE:
		o->probes = xrealloc(o->probes, (o->nprobes + 1) * sizeof *o->probes);
		o->probes[o->nprobes++] = arg;
		return 0;
	case OPT_LATENCY:
		o->latencies = xrealloc(o->latencies, (o->nlatencies + 1) * sizeof *o->latencies);
		o->latencies[o->nlatencies++] = arg;
		return 0;
	case OPT_LATENCY_KINDS:
		o->latency_kinds_given = true;
		return lat_kinds_parse(arg, &o->latency_kinds, err);
	case OPT_NO_SYSCALLS:
		o->no_syscalls = true;
		return 0;
	case OPT_LATENCY_MERGE:
		o->latency_merge = true;
		return 0;
	case OPT_PROBE_VARS:
		o->probe_vars = arg;
		return 0;
	case OPT_TRACE_LOG:
		if (parse_positive("--trace-log", arg, &u, err) != 0)
			return -1;
		if (u < 16 || u > (1u << 24))
			return err_set(err, "--trace-log expects 16 to %u events, got '%s'",
			               1u << 24, arg);
		for (o->trace_log = 16; o->trace_log < u; o->trace_log *= 2)
			;
		return 0;
	case 'p':
		free(o->pids);
		o->pids = NULL;
		o->npids = 0;
		if (parse_int_list(arg, &o->pids, &o->npids) != 0)
			return err_set(err, "-p expects PID[,PID...], got '%s'", arg);
		return 0;
	case 't':
		free(o->tids);
		o->tids = NULL;
		o->ntids = 0;
		if (parse_int_list(arg, &o->tids, &o->ntids) != 0)
			return err_set(err, "-t expects TID[,TID...], got '%s'", arg);
		return 0;
	case 'C':
		free(o->cpus);
		o->cpus = NULL;
		o->ncpus = 0;
		if (parse_cpu_list(arg, &o->cpus, &o->ncpus) != 0)
			return err_set(err, "-C expects a CPU list like 0-3,6, got '%s'", arg);
		return 0;
	case 'F':
		if (parse_positive("-F", arg, &o->freq, err) != 0)
			return -1;
		o->period = 0;
		return 0;
	case 'c':
		if (parse_positive("-c", arg, &o->period, err) != 0)
			return -1;
		o->freq = 0;
		return 0;
	case 'm':
		if (parse_positive("-m", arg, &u, err) != 0)
			return -1;
		if ((u & (u - 1)) != 0 || u > 65536)
			return err_set(err, "-m expects a power of two up to 65536, got '%s'", arg);
		o->mmap_pages = (unsigned)u;
		return 0;
	case 'b':
		o->batch = true;
		return 0;
	case 'd':
		if (parse_double(arg, &o->delay) != 0 || o->delay < 0.05 || o->delay > 86400)
			return err_set(err, "-d expects seconds between 0.05 and 86400, got '%s'",
			               arg);
		o->delay_given = true;
		return 0;
	case 'n':
		if (parse_positive("-n", arg, &u, err) != 0)
			return -1;
		if (u > LONG_MAX)
			return err_set(err, "-n expects at most %ld, got '%s'", LONG_MAX, arg);
		o->count = (long)u;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case OPT_ANNOTATE:
		o->annotate = arg;
		return 0;
	case 'w':
		o->record = arg;
		return 0;
	case 'r':
		o->replay = arg;
		return 0;
	case OPT_FORMAT:
		if ((k = options_choice(arg, format_names, ARRAY_SIZE(format_names))) < 0)
			return err_set(
			    err, "--format expects text, json, folded, csv, svg or pprof, got '%s'",
			    arg);
		o->format = (enum report_format)k;
		return 0;
	case OPT_HISTORY:
		return options_duration("--history", arg, &o->history, err);
	case OPT_HISTORY_DUMP:
		o->history_dump = true;
		return 0;
	case OPT_BASELINE:
		o->baseline = arg;
		return 0;
	case OPT_DIFF:
		o->diff_a = arg;
		return 0;
	case 's':
		o->sort_given = true;
		return options_sort(o, arg, err);
	case 'z':
		o->zero = true;
		return 0;
	case OPT_MAX_STACK:
		if (parse_positive("--max-stack", arg, &u, err) != 0)
			return -1;
		if (u > 1024)
			return err_set(err, "--max-stack expects at most 1024, got '%s'", arg);
		o->max_stack = (unsigned)u;
		return 0;
	case OPT_ROWS:
		if (parse_positive("--rows", arg, &u, err) != 0)
			return -1;
		if (u > UINT_MAX)
			return err_set(err, "--rows expects at most %u, got '%s'", UINT_MAX, arg);
		o->rows = (unsigned)u;
		return 0;
	case OPT_INCLUDE_SELF:
		o->include_self = true;
		return 0;
	case OPT_LIST_EVENTS:
		o->list_events = true;
		return 0;
	case 'g':
		o->callgraph = CALLGRAPH_FP;
		return 0;
	case OPT_CALL_GRAPH:
		return options_call_graph(o, arg, err);
	case OPT_CHILDREN:
		o->children = true;
		return 0;
	case OPT_NO_MOUSE:
		o->no_mouse = true;
		return 0;
	case OPT_NO_DEBUGINFOD:
		o->no_debuginfod = true;
		return 0;
	case OPT_NO_CONFIG:
		o->no_config = true;
		return 0;
	case OPT_THREADS:
		o->threads = true;
		return 0;
	case OPT_ENGINE:
		return options_engine(o, arg, err);
	case OPT_HELP_KEYS:
		o->help_keys = true;
		return 0;
	case OPT_VERSION:
		o->version = true;
		return 0;
	case 'h':
		o->help = true;
		return 0;
	}
	return err_set(err, "internal: unhandled option %d", c);
}

/* Explain a getopt failure c ('?' or ':'); arg is the long option at fault,
 * NULL for a short one (optopt). */
static int
options_getopt_error(int c, const char *arg, struct tt_err *err)
{
	char name[64];
	char ch = (char)optopt;

	if (arg == NULL) {
		str_escape(name, sizeof name, &ch, 1);
		if (c == ':')
			return err_set(err, "option -%s needs an argument; see --help", name);
		return err_set(err, "unknown option '-%s'; see --help", name);
	}
	str_escape(name, sizeof name, arg, strcspn(arg, "="));
	if (c == ':')
		return err_set(err, "option %s needs an argument; see --help", name);
	if (optopt != 0)
		return err_set(err, "option %s takes no argument; see --help", name);
	return err_set(err, "unknown option '%s'; see --help", name);
}

/* -r: what a replay cannot take (the recording says what was sampled). */
static int
options_replay_check(const struct options *o, struct tt_err *err)
{
	if (o->record != NULL)
		return err_set(err, "-r replays a recording and -w makes one: give one of them");
	if (o->argv || o->npids || o->ntids || o->ncpus || o->nevents || o->ntraces || o->ftrace ||
	    o->nprobes || o->nlatencies || o->ncounters)
		return err_set(err,
		               "-r FILE replays what FILE holds: drop the command, -p, -t, -C, "
		               "-e, -T, --ftrace, --probe, --latency and --counters");
	return 0;
}

/* A view's name, as --view takes it. */
const char *
options_view_name(enum options_view v)
{
	return (size_t)v < ARRAY_SIZE(view_names) ? view_names[v] : "?";
}

/* --diff A B: two reports, printed as text or JSON. */
static int
options_diff(struct options *o, int argc, char **argv, struct tt_err *err)
{
	if (o->diff_b == NULL)
		return err_set(err, "--diff needs two things to compare: --diff A B (each a "
		                    "report of tracetop -b --format json, a recording of -w, or "
		                    "a range of one: FILE@START..END)");
	if (optind < argc)
		return err_set(err, "--diff compares two reports, A and B: unexpected '%s'",
		               argv[optind]);
	if (o->format != FORMAT_TEXT && o->format != FORMAT_JSON)
		return err_set(err, "--diff prints text or json, not --format %s",
		               format_names[o->format]);
	if (o->baseline != NULL)
		return err_set(err, "--diff A B compares A with B: drop --baseline");
	return 0;
}

/* Parse the command line into o. */
int
options_parse(struct options *o, int argc, char **argv, struct tt_err *err)
{
	struct option longs[ARRAY_SIZE(opt_defs) + 1];
	bool mmap_given = false;
	char shorts[2 * ARRAY_SIZE(opt_defs) + 3];
	int c;

	memset(o, 0, sizeof *o);
	o->freq = 4000;
	o->mmap_pages = 128;
	o->engine = ENGINE_BACKEND_AUTO;
	o->stack_size = STACK_SIZE_DEFAULT;
	o->delay = 2.0;
	o->history = 600;
	o->sort[0] = HIST_SORT_OVERHEAD;
	o->sort[1] = HIST_SORT_END;
	o->counters_scopes = 1u << COUNTERS_TOTAL;
	o->latency_kinds = 1u << LAT_SYSCALL;
	options_getopt_tables(longs, shorts);
	opterr = 0;
	optind = 0; /* 0, not 1: glibc then also forgets a half-read "-xyz" */
	for (;;) {
		int before = optind;

		c = getopt_long(argc, argv, shorts, longs, NULL);
		/* --diff A B: B is the first word that is no option; options may follow it */
		if (c == -1 && o->diff_a != NULL && o->diff_b == NULL && optind < argc &&
		    strcmp(argv[optind - 1], "--") != 0) {
			o->diff_b = argv[optind++];
			continue;
		}
		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			/* a long option always moves optind past itself */
			bool is_long = optind > before && strncmp(argv[optind - 1], "--", 2) == 0;

			return options_getopt_error(c, is_long ? argv[optind - 1] : NULL, err);
		}
		if (options_apply(o, c, optarg, err) != 0)
			return -1;
		mmap_given |= c == 'm';
	}
	if (o->diff_a != NULL)
		return options_diff(o, argc, argv, err);
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--") != 0)
			return err_set(err, "unexpected argument '%s' (a command goes after --)",
			               argv[optind]);
		o->argv = &argv[optind];
	}
	if (o->argv && (o->npids || o->ntids))
		return err_set(err, "a command cannot be combined with -p or -t");
	if (o->npids && o->ntids)
		return err_set(err, "-p and -t cannot be combined");
	if (o->replay != NULL && options_replay_check(o, err) != 0)
		return -1;
	if (o->output && !o->batch)
		return err_set(err, "-o only applies to batch mode (-b)");
	if (o->annotate && !o->batch)
		return err_set(err, "--annotate only applies to batch mode (-b); on the screen, "
		                    "press a on a function");
	if (o->ftrace_graph && o->ftrace == NULL)
		return err_set(err, "--ftrace-graph needs --ftrace FUNC[,FUNC...]");
	/* tracepoints or functions asked for: the trace view, unless told */
	if ((o->ntraces > 0 || o->ftrace != NULL) && !o->view_given)
		o->view = VIEW_TRACE;
	else if (o->nlatencies > 0 && !o->view_given)
		o->view = VIEW_LATENCY; /* the functions' times */
	else if (o->nprobes > 0 && !o->view_given)
		o->view = VIEW_PROBES; /* probes and their hits */
	if (o->format == FORMAT_FOLDED && o->view != VIEW_TOP)
		return err_set(err,
		               "--format folded is for the top view; use text or json with "
		               "--view %s",
		               view_names[o->view]);
	if (o->format == FORMAT_PPROF && o->view != VIEW_TOP)
		return err_set(err, "--format pprof is for the top view, not --view %s",
		               view_names[o->view]);
	if ((o->format == FORMAT_PPROF || o->history_dump) && o->history <= 0)
		return err_set(err, "--format pprof and --history-dump read the history: drop "
		                    "--history 0");
	if (o->history_dump &&
	    (!o->batch || (o->format != FORMAT_JSON && o->format != FORMAT_TEXT)))
		return err_set(err, "--history-dump prints text or JSON lines in batch: add -b "
		                    "(and --format json for JSON)");
	if (o->format == FORMAT_CSV && o->view != VIEW_SYSTEM)
		return err_set(err,
		               "--format csv is for the system view (--view system); use text "
		               "or json with --view %s",
		               view_names[o->view]);
	if (o->format == FORMAT_SVG && o->view != VIEW_TOP && o->view != VIEW_FLAME)
		return err_set(err,
		               "--format svg is a flame graph of the profile (--view top or "
		               "flame), not of --view %s",
		               view_names[o->view]);
	if ((o->format == FORMAT_SVG || (o->view == VIEW_FLAME && o->batch)) &&
	    o->callgraph == CALLGRAPH_NONE && o->replay == NULL)
		return err_set(err, "%s needs call stacks: add -g or --call-graph dwarf",
		               o->format == FORMAT_SVG ? "--format svg" : "--view flame");
	if (o->view == VIEW_FLAME && o->format != FORMAT_TEXT && o->format != FORMAT_SVG)
		return err_set(err, "--view flame prints text or svg, not --format %s",
		               format_names[o->format]);
	if (o->format == FORMAT_FOLDED && o->callgraph == CALLGRAPH_NONE && o->replay == NULL)
		return err_set(err,
		               "--format folded needs call stacks: add -g or --call-graph dwarf");
	if (o->threads && o->view != VIEW_SYSTEM)
		return err_set(err,
		               "--threads is for the system view (--view system), not --view %s",
		               view_names[o->view]);
	if (o->threads && o->batch && o->format != FORMAT_JSON)
		return err_set(err, "--threads lists the threads in JSON reports (the text and CSV "
		                    "ones have no processes): add --format json");
	if (o->annotate && o->format == FORMAT_SVG)
		return err_set(err, "--annotate prints text or json, not svg");
	if (o->annotate && o->view != VIEW_TOP)
		return err_set(err, "--annotate is for the top view, not --view %s",
		               view_names[o->view]);
	if (o->annotate && (o->format == FORMAT_FOLDED || o->format == FORMAT_PPROF))
		return err_set(err, "--annotate prints text or json, not folded stacks or pprof");
	if (o->baseline != NULL && o->view != VIEW_TOP && o->view != VIEW_COUNTERS &&
	    o->view != VIEW_LATENCY)
		return err_set(err,
		               "--baseline compares the top, counters and latency views, not "
		               "--view %s",
		               view_names[o->view]);
	if (o->baseline != NULL && o->batch && o->format != FORMAT_TEXT && o->format != FORMAT_JSON)
		return err_set(
		    err, "--baseline adds its changes to text or json reports, not --format %s",
		    format_names[o->format]);
	if (o->sort_delta && o->baseline == NULL)
		return err_set(err, "-s delta sorts rows by their change against a baseline: add "
		                    "--baseline FILE (on the screen, B marks one: sort by Delta)");
	if (o->children && o->callgraph == CALLGRAPH_NONE && o->replay == NULL)
		return err_set(err, "--children needs call stacks: add -g or --call-graph dwarf");
	o->group = hist_sort_group(o->sort);
	hist_sort_by_share(o->sort, o->children);
	/* A dwarf stack copy per sample fills rings fast: give them room. */
	if (o->callgraph != CALLGRAPH_NONE && !mmap_given)
		o->mmap_pages = o->callgraph == CALLGRAPH_DWARF ? DWARF_MMAP_PAGES : FP_MMAP_PAGES;
	if (o->nevents == 0) {
		o->events = xmalloc(sizeof *o->events);
		o->events[o->nevents++] = xstrdup("cycles");
	}
	return 0;
}

/* Release what options_parse allocated. */
void
options_free(struct options *o)
{
	for (size_t i = 0; i < o->nevents; i++)
		free(o->events[i]);
	free(o->events);
	for (size_t i = 0; i < o->ncounters; i++)
		free(o->counters[i]);
	free(o->counters);
	free(o->pids);
	free(o->tids);
	free(o->cpus);
	free(o->traces);
	free(o->probes);
	free(o->latencies);
}
