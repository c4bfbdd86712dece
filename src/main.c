/* tracetop: command line entry point. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracetop/batch.h"
#include "tracetop/counters.h"
#include "tracetop/diff.h"
#include "tracetop/report-diff.h"
#include "tracetop/rcfile.h"
#include "tracetop/engine.h"
#include "tracetop/evspec.h"
#include "tracetop/history.h"
#include "tracetop/recdiff.h"
#include "tracetop/recframe.h"
#include "tracetop/options.h"
#include "tracetop/probe-cli.h"
#include "tracetop/replay.h"
#include "tracetop/latency-sched.h"
#include "tracetop/latency-sys.h"
#include "tracetop/session.h"
#include "tracetop/sym-debuginfod.h"
#include "tracetop/system.h"
#include "tracetop/tracefs.h"
#include "ui/keymap.h"
#include "ui/tui.h"

/* Exit statuses: usage errors and runtime failures differ for scripts. */
#define EXIT_USAGE 2
#define EXIT_RUNTIME 1

/* The hottest functions a recording writes what Annotate needs of (per
 * event, per interval). */
#define RECORD_HOT_FUNCS 16

/* Refresh decay: a sample counts 7/8 as much one refresh later (as perf top). */
#define TOP_DECAY 0.875

/* Let many-thread targets open one fd per thread per CPU. */
static void
raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Parse n event specs (-e, --counters) into specs; prints the error and
 * returns -1 on a bad one. */
static int
parse_events(char *const *names, size_t n, struct evspec *specs)
{
	struct tt_err err;

	for (size_t i = 0; i < n; i++)
		if (evspec_parse(names[i], &specs[i], &err) != 0) {
			fprintf(stderr, "tracetop: %s\n", err.msg);
			return -1;
		}
	return 0;
}

/* Check the -T names: known tracepoints. 0, or -1 after printing the
 * bad one. */
static int
parse_traces(const struct options *o)
{
	struct evspec spec;
	struct tt_err err;

	for (size_t i = 0; i < o->ntraces; i++) {
		if (evspec_parse(o->traces[i].event, &spec, &err) != 0) {
			fprintf(stderr, "tracetop: -T: %s\n", err.msg);
			return -1;
		}
		if (spec.attr.type != PERF_TYPE_TRACEPOINT) {
			fprintf(stderr,
			        "tracetop: -T: '%s' is not a tracepoint; name one as "
			        "SUBSYSTEM:EVENT (see tracetop --list-events)\n",
			        o->traces[i].event);
			return -1;
		}
	}
	return 0;
}

/* Parse -e, --counters and -T: 0, or -1 after printing the bad one. */
static int
parse_all_events(const struct options *o, struct evspec *specs)
{
	struct evspec *counters = xcalloc(o->ncounters, sizeof *counters);
	int rc = parse_events(o->events, o->nevents, specs);

	if (rc == 0)
		rc = parse_events(o->counters, o->ncounters, counters);
	if (rc == 0)
		rc = parse_traces(o);
	free(counters);
	return rc;
}

/* Say which instance a killed tracetop left was removed. */
static void
cleanup_removed(void *arg, const char *name, int pid)
{
	char esc[256];

	str_escape(esc, sizeof esc, name, strlen(name));
	fprintf(stderr, "tracetop: removed tracefs instance %s left by tracetop pid %d%s\n", esc,
	        pid, arg ? "" : " (no longer running)");
	if (arg != NULL)
		++*(int *)arg;
}

/* --cleanup: remove what killed tracetops left in tracefs. */
static int
cleanup(void)
{
	struct tt_err err;
	int n = 0;

	if (tt_tracefs_cleanup_stale(cleanup_removed, &n, &err) < 0) {
		fprintf(stderr, "tracetop: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	if (tt_tracefs_dir() == NULL)
		fprintf(stderr, "tracetop: tracefs is not mounted: nothing to clean up\n");
	else if (n == 0)
		fprintf(stderr, "tracetop: no tracefs instance of a killed tracetop to remove\n");
	/* and the probe groups they left */
	if (tt_tracefs_dir() != NULL && probe_cli_cleanup(true) < 0)
		return EXIT_RUNTIME;
	return 0;
}

/* Block the stop signals while tracefs is being changed: the loops read
 * them from a signalfd and everything is undone on the way out. */
static void
block_stop_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/* The target options (-p, -t, -C) of o, shared by the engine and the
 * counters, as designated initializers. */
#define TARGET_OPTS(o)                                                                             \
	.pids = (o)->pids, .npids = (o)->npids, .tids = (o)->tids, .ntids = (o)->ntids,            \
	.cpus = (o)->cpus, .ncpus = (o)->ncpus

/* Open the counters of the counters view on the engine's target. */
static struct counters *
open_counters(const struct options *o, const struct engine *e, struct tt_err *err)
{
	struct counters_opts co = {
	    .events = o->ncounters ? (const char *const *)o->counters : NULL,
	    .nevents = o->ncounters,
	    TARGET_OPTS(o),
	    .command = engine_child_pid(e),
	    .include_self = o->include_self,
	    .scope = o->counters_scope,
	};

	return counters_new(&co, err);
}

/* The session's options for the front end that o asks for. */
static struct session_opts
session_options(const struct options *o, bool tui)
{
	static const double first_frame = 0.25; /* on a terminal, not a whole interval */
	unsigned scopes = o->counters_scopes;

	return (struct session_opts){
	    .delay = o->delay,
	    .first_delay = (o->batch && !tui) || o->delay < first_frame ? o->delay : first_frame,
	    .count = o->count,
	    .zero = o->zero,
	    .stop_when_finished = !tui,
	    /* the Top pane sorts its own rows: none sorted for nothing */
	    .sort = tui ? hist_unsorted : o->sort,
	    .group = tui ? 0 : o->group, /* the Top pane groups its own rows */
	    .counters_scopes = tui || o->view != VIEW_COUNTERS ? 0 : scopes,
	    .history = o->history,
	};
}

/* The exit status for a command's wait status: its own, or 128 + the
 * signal that killed it (as shells say it); 0 when it has not ended. */
static int
command_status(int wstatus)
{
	if (wstatus < 0)
		return 0;
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	return WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : 0;
}

/* Batch --view latency: the syscall (and function) source and the
 * scheduler and block one, as --latency-kinds asks. 0, or the exit status
 * after saying why not. */
static int
open_latency(const struct options *o, struct probes *p, struct session *s, int child, bool tui)
{
	struct tt_err err;
	/* --latency alone times just its functions, in batch and on the
	 * screen: timing every syscall beside them would cost more than they
	 * do (bench/latency.sh); --latency-kinds syscall asks for both */
	unsigned kinds = o->nlatencies > 0 && !o->latency_kinds_given ? 0 : o->latency_kinds;

	if ((kinds & (1u << LAT_SYSCALL)) || o->nlatencies > 0) {
		const char **fev = probe_cli_latency_events(o, p);
		struct latsys_opts lo = {TARGET_OPTS(o),
		                         .command = child,
		                         .include_self = o->include_self,
		                         .backend = o->engine,
		                         .no_syscalls =
		                             o->no_syscalls || !(kinds & (1u << LAT_SYSCALL)),
		                         .funcs = fev,
		                         .func_names = o->latencies,
		                         .nfuncs = fev != NULL ? o->nlatencies : 0};
		struct latsys *l = latsys_new(&lo, &err);

		free(fev);
		if (l == NULL && !tui) {
			fprintf(stderr, "tracetop: %s\n", err.msg);
			return EXIT_RUNTIME;
		}
		if (l != NULL) {
			session_add(s, &source_latency, l);
			if (!tui && !latsys_in_kernel(l) && o->engine != ENGINE_BACKEND_PERF)
				fprintf(stderr, "tracetop: latency %s\n", latsys_notice(l));
			if (latsys_start(l, &err) != 0) {
				fprintf(stderr, "tracetop: %s\n", err.msg);
				return EXIT_RUNTIME;
			}
		}
	}
	if (latsched_wanted(kinds)) {
		struct latsched_opts so = {.kinds = kinds,
		                           .pids = o->pids,
		                           .npids = o->npids,
		                           .tids = o->tids,
		                           .ntids = o->ntids,
		                           .command = child,
		                           .cpus = o->cpus,
		                           .ncpus = o->ncpus,
		                           .include_self = o->include_self,
		                           .backend = o->engine};
		struct latsched *ls = latsched_new(&so, &err);

		if (ls == NULL && !tui) {
			fprintf(stderr, "tracetop: %s\n", err.msg);
			return EXIT_RUNTIME;
		}
		if (ls != NULL) {
			session_add(s, &source_latsched, ls);
			if (!tui && latsched_why_not_bpf(ls) != NULL &&
			    o->engine != ENGINE_BACKEND_PERF)
				fprintf(stderr, "tracetop: latency %s\n", latsched_notice(ls));
			if (latsched_start(ls, &err) != 0) {
				fprintf(stderr, "tracetop: %s\n", err.msg);
				return EXIT_RUNTIME;
			}
		}
	}
	return 0;
}

/* The batch output: -o FILE, else stdout; NULL after saying why not. */
static FILE *
open_output(const struct options *o)
{
	FILE *out = stdout;

	if (o->output != NULL && (out = fopen(o->output, "w")) == NULL)
		fprintf(stderr, "tracetop: cannot write %s: %s\n", o->output, strerror(errno));
	return out;
}

/* Close -o FILE: the exit status, a failure to write it counted. */
static int
close_output(const struct options *o, FILE *out, int status)
{
	if (out != stdout && out != NULL && fclose(out) != 0) {
		fprintf(stderr, "tracetop: cannot write %s: %s\n", o->output, strerror(errno));
		return EXIT_RUNTIME;
	}
	return status;
}

/* Open the engine and run the front end; returns the exit status. Every
 * source joins the session as soon as it is open, so that one
 * session_free releases whatever was opened on every way out. */
static int
run(const struct options *o, struct evspec *specs)
{
	struct engine_opts eo = {
	    .events = specs,
	    .nevents = o->nevents,
	    TARGET_OPTS(o),
	    .argv = o->argv,
	    .freq = o->freq,
	    .period = o->period,
	    .mmap_pages = o->mmap_pages,
	    .include_self = o->include_self,
	    .decay = TOP_DECAY,
	    .callgraph = o->callgraph,
	    .stack_size = o->stack_size,
	    .traces = o->traces,
	    .ntraces = o->ntraces,
	    .ftrace = o->ftrace,
	    .ftrace_graph = o->ftrace_graph,
	    .trace_log = o->trace_log,
	    .backend = o->engine,
	    .refresh = o->delay,
	};
	struct evspec dummy;
	struct tt_err err;
	struct engine *e;
	struct counters *c = NULL;
	struct probes *p = NULL;
	struct engine_trace_opt *traces = NULL;
	struct session *s = NULL;
	struct session_opts so;
	struct replay_rec *rec = NULL;
	FILE *out = stdout;
	bool tui = !o->batch && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	/* batch --view counters: the engine only starts the command and
	 * watches the targets; the screen samples and counts, a Tab apart */
	bool counting = o->view == VIEW_COUNTERS && !tui;
	/* batch --view trace: no profile; a dummy event per CPU carries the
	 * rings the tracepoints write into and the process records */
	bool tracing = o->view == VIEW_TRACE && !tui;
	/* batch --view probes: like counters, hits are counted, nothing sampled */
	bool probing = o->view == VIEW_PROBES && !tui;
	/* batch --view system: /proc and /sys; the engine only starts a command */
	bool systeming = o->view == VIEW_SYSTEM && !tui;
	/* batch --view latency: syscalls and functions timed; the engine
	 * only starts a command (the screen times them while its Latency pane
	 * is shown: from the start with --view latency, else once shown) */
	bool latencing = o->view == VIEW_LATENCY && !tui;
	/* batch -w: what every pane would show is recorded, whatever the
	 * view printed: the counters, the system's numbers, the probes' hits
	 * (and latency when it is asked for) beside the view's own */
	bool recording = o->record != NULL && !tui;
	int status = EXIT_RUNTIME;

	if (counting || probing || systeming || latencing) {
		eo.nevents = 0;
		eo.callgraph = CALLGRAPH_NONE;
	}
	/* batch -w of a view that samples nothing records the trace too: the
	 * dummy event's rings carry it */
	if ((tracing || (recording && eo.nevents == 0 && (o->ntraces > 0 || o->ftrace != NULL))) &&
	    evspec_parse("dummy", &dummy, &err) == 0) {
		eo.events = &dummy;
		eo.nevents = 1;
	}
	/* nothing sampled, nothing for BPF to count (--engine then chooses
	 * how latency is measured) */
	if (counting || probing || systeming || tracing || latencing)
		eo.backend = ENGINE_BACKEND_PERF;
	/* before the worker thread starts: it reads the environment */
	symdbg_configure(!o->no_debuginfod);
	if (o->ntraces > 0 || o->ftrace != NULL || o->nprobes > 0 || o->nlatencies > 0)
		block_stop_signals();
	/* what a killed tracetop left in tracefs goes first */
	tt_tracefs_cleanup_stale(cleanup_removed, NULL, NULL);
	probe_cli_cleanup(false);
	/* the probes exist before the engine streams their events */
	if ((status = probe_cli_open(o, tui, &p)) != 0)
		return status;
	status = EXIT_RUNTIME;
	so = session_options(o, tui);
	s = session_new(&so);
	/* added first, freed last: a probe in use by the engine cannot go */
	session_add(s, &source_probes, p);
	/* streamed only for a view that shows their events: the screen
	 * streams them while its Trace pane is seen (counting the hits costs
	 * the profile nothing, streaming each one through the rings does) */
	if (p != NULL && tracing)
		eo.traces = traces = probe_cli_traces(o, p, &eo.ntraces);

	if ((out = open_output(o)) == NULL)
		goto done;
	if (o->record != NULL) {
		if ((rec = replay_rec_open(o->record, o, TOP_DECAY, &err)) == NULL) {
			fprintf(stderr, "tracetop: %s\n", err.msg);
			goto done;
		}
		session_set_tap(s, replay_rec_frame, rec);
	}
	raise_fd_limit();
	if ((e = engine_new(&eo, &err)) == NULL) {
		fprintf(stderr, "tracetop: %s\n", err.msg);
		goto done;
	}
	engine_set_group(e, o->group);
	if (rec != NULL)
		engine_copy_hot(e, RECORD_HOT_FUNCS);
	session_add(s, &source_sampling, e);
	/* On the screen, counters that cannot be opened only leave their
	 * pane saying why (and a recording without them says so). */
	if ((counting || tui || recording) && (c = open_counters(o, e, &err)) == NULL) {
		if (counting) {
			fprintf(stderr, "tracetop: %s\n", err.msg);
			goto done;
		}
		if (recording)
			fprintf(stderr, "tracetop: -w: the counters are not recorded: %s\n",
			        err.msg);
	}
	session_add(s, &source_counters, c);
	/* the screen's header meters will read it at every refresh too, the
	 * process table only while a pane shows it (system_set_procs), its
	 * threads only while that pane lists them (system_set_threads) */
	if (systeming || tui || recording)
		session_add(s, &source_system,
		            system_new(&(struct system_opts){.procs = systeming,
		                                             .irqs = o->view == VIEW_SYSTEM ||
		                                                     o->record != NULL,
		                                             .threads = systeming && o->threads}));
	if (c != NULL && counting)
		counters_set_scope(c, (o->counters_scopes & (1u << COUNTERS_PROCESS))
		                          ? COUNTERS_PROCESS
		                          : o->counters_scope);
	if (p != NULL && (probing || tui || recording)) {
		struct counters_opts po = {TARGET_OPTS(o), .command = engine_child_pid(e)};

		if (probes_count_start(p, &po, &err) != 0) {
			fprintf(stderr, "tracetop: cannot count the probes' hits: %s\n", err.msg);
			goto done;
		}
	}
	/* --view latency, on the screen too: timed from before the command
	 * runs (the Latency pane takes these sources; one that cannot be
	 * opened there is tried again by the pane, which says why) */
	if ((o->view == VIEW_LATENCY ||
	     (recording && (o->nlatencies > 0 || o->latency_kinds_given))) &&
	    (status = open_latency(o, p, s, engine_child_pid(e), tui)) != 0)
		goto done;
	status = EXIT_RUNTIME;
	if (engine_notice(e) != NULL && !tui)
		fprintf(stderr, "tracetop: %s\n", engine_notice(e));
	if (engine_start(e, &err) != 0) {
		fprintf(stderr, "tracetop: %s\n", err.msg);
		goto done;
	}
	session_start(s);
	if (tui)
		status = tui_run(s, c == NULL ? err.msg : NULL, o);
	else
		status = batch_run(s, o, out);
	/* like perf stat: batch exits as the command did, if it ended by itself */
	if (!tui && status == 0)
		status = command_status(engine_child_status(e));
done:
	session_free(s);
	free(traces);
	if (replay_rec_close(rec, &err) != 0) {
		fprintf(stderr, "tracetop: %s: %s\n", o->record, err.msg);
		status = EXIT_RUNTIME;
	}
	return close_output(o, out, status);
}

/* Whether the report o asks for draws call stacks. */
static bool
wants_stacks(const struct options *o)
{
	return o->format == FORMAT_FOLDED || o->format == FORMAT_SVG || o->children ||
	       (o->view == VIEW_FLAME && o->batch);
}

/* The part of a recording view v needs, and what it is called. */
static unsigned
replay_view_part(enum options_view v, const char **what)
{
	static const struct {
		enum options_view view;
		unsigned part;
		const char *what;
	} parts[] = {
	    {VIEW_COUNTERS, RECFRAME_COUNTERS,
	     "counters (record them with -w beside --counters, "
	     "or on the screen)"},
	    {VIEW_PROBES, RECFRAME_PROBES, "probes (record them with -w beside --probe)"},
	    {VIEW_TRACE, RECFRAME_TRACE, "trace events (record them with -w beside -T)"},
	    {VIEW_SYSTEM, RECFRAME_SYSTEM, "system counters"},
	    {VIEW_LATENCY, RECFRAME_LATENCY,
	     "latency rows (record them with -w beside "
	     "--latency or --latency-kinds)"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		if (parts[i].view == v) {
			*what = parts[i].what;
			return parts[i].part;
		}
	*what = "profile (it was recorded with a view that samples nothing)";
	return RECFRAME_SAMPLING;
}

/* Say what the replay's history dropped of a long recording (its memory
 * bound), once. */
static void
replay_dropped_note(struct session *s, const char *path, FILE *to)
{
	const struct history *h = session_history(s);
	size_t bound = replay_history_bytes();

	if (h != NULL && history_dropped(h) > 0)
		fprintf(to,
		        "tracetop: %s: the replay's history holds its last %zu intervals: the "
		        "oldest %zu went to stay under %zu %s (its timeline, pprof and --diff "
		        "ranges start after them)\n",
		        path, history_len(h), history_dropped(h),
		        bound >= (1u << 20) ? bound >> 20 : bound >> 10,
		        bound >= (1u << 20) ? "MiB" : "KiB");
}

/* -r FILE: the recording as the one source of the session, its intervals
 * taken one per refresh as fast as they come; the screen then stays on
 * the last one (frozen, the whole recording in its history). */
static int
run_replay(struct options *o)
{
	bool tui = !o->batch && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	struct tt_err err;
	struct replay *r = replay_open(o->replay, &err);
	struct session_opts so;
	struct session *s;
	const char *what;
	unsigned part;
	FILE *out;
	int status;

	if (r == NULL) {
		fprintf(stderr, "tracetop: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	replay_apply(r, o);
	so = session_options(o, tui);
	so.delay = so.first_delay = 0;
	so.stop_when_finished = !tui;
	so.idle_when_finished = true;
	so.history = so.history > 0 ? REPLAY_HISTORY_SECS : 0;
	so.history_bytes = replay_history_bytes();
	s = session_new(&so);
	session_add(s, &source_replay, r);
	part = replay_view_part(o->format == FORMAT_PPROF || o->format == FORMAT_FOLDED ||
	                                o->format == FORMAT_SVG
	                            ? VIEW_TOP
	                            : o->view,
	                        &what);
	if (!tui && !(replay_parts(r) & part)) {
		fprintf(stderr, "tracetop: %s holds no %s: nothing for --view %s\n", o->replay,
		        what, options_view_name(o->view));
		session_free(s);
		return EXIT_USAGE;
	}
	if (wants_stacks(o) && o->callgraph == CALLGRAPH_NONE) {
		fprintf(stderr,
		        "tracetop: %s was recorded without call stacks: it has no stacks for "
		        "--format folded, svg, --children or --view flame\n",
		        o->replay);
		session_free(s);
		return EXIT_USAGE;
	}
	if (replay_stop(r)[0] != '\0')
		fprintf(stderr, "tracetop: %s: %s; replaying its %zu whole intervals\n", o->replay,
		        replay_stop(r), replay_intervals(r));
	if ((out = open_output(o)) == NULL) {
		session_free(s);
		return EXIT_RUNTIME;
	}
	if (tui)
		status = tui_run(s, "a replay has the recorded counters only", o);
	else
		status = batch_run(s, o, out);
	replay_dropped_note(s, o->replay, stderr);
	session_free(s);
	return close_output(o, out, status);
}

/* Keep a bad line of the setup file as "PATH:LINE: why (skipped)". */
static void
setup_bad_line(void *arg, unsigned line, const char *msg)
{
	struct options *o = arg;

	names_push(&o->rc_notes, &o->nrc_notes, &o->rc_notes_cap,
	           xasprintf("%s:%u: %s (skipped)", o->rc_path, line, msg));
}

/* On the screen, read the setup file (unless --no-config) and apply what
 * the command line left unset; its bad lines are kept for the screen. */
static void
setup_load(struct options *o)
{
	char path[4096];
	struct tt_err err;

	if (o->batch || o->no_config || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) ||
	    rcfile_path(path, sizeof path, &err) != 0)
		return;
	o->rc = xcalloc(1, sizeof *o->rc);
	o->rc_path = xstrdup(path);
	if (rcfile_load(o->rc, path, setup_bad_line, o, &err) != 0)
		names_push(&o->rc_notes, &o->nrc_notes, &o->rc_notes_cap, xstrdup(err.msg));
	rcfile_apply_options(o->rc, o, setup_bad_line, o);
}

/* Tell the setup file's bad lines again (the screen is gone) and free
 * what setup_load made. */
static void
setup_unload(struct options *o)
{
	for (size_t i = 0; i < o->nrc_notes; i++)
		fprintf(stderr, "tracetop: %s\n", o->rc_notes[i]);
	names_free(o->rc_notes, o->nrc_notes);
	if (o->rc != NULL)
		rcfile_free(o->rc);
	free(o->rc);
	free(o->rc_path);
}

/* --diff A B: load both (reports, recordings or ranges of them), print
 * every row's change. */
static int
diff_reports(const struct options *o)
{
	struct diff_set a, b;
	struct tt_err err;
	int status = 0;

	if (recdiff_load(&a, o->diff_a, o->group, &err) != 0) {
		fprintf(stderr, "tracetop: --diff: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	if (recdiff_load(&b, o->diff_b, o->group, &err) != 0) {
		fprintf(stderr, "tracetop: --diff: %s\n", err.msg);
		diff_set_free(&a);
		return EXIT_RUNTIME;
	}
	if (a.has[DIFF_TOP] && b.has[DIFF_TOP] && a.group != b.group) {
		char ga[64], gb[64];

		fprintf(stderr,
		        "tracetop: --diff: %s groups its rows by %s, %s by %s: make both with the "
		        "same -s\n",
		        o->diff_a, hist_group_name(a.group, ga, sizeof ga), o->diff_b,
		        hist_group_name(b.group, gb, sizeof gb));
		status = EXIT_RUNTIME;
	} else if (!(a.has[DIFF_TOP] && b.has[DIFF_TOP]) &&
	           !(a.has[DIFF_COUNTERS] && b.has[DIFF_COUNTERS]) &&
	           !(a.has[DIFF_LATENCY] && b.has[DIFF_LATENCY])) {
		fprintf(stderr,
		        "tracetop: --diff: %s and %s have no view in common (top, counters "
		        "or latency)\n",
		        o->diff_a, o->diff_b);
		status = EXIT_RUNTIME;
	} else if (o->format == FORMAT_JSON)
		report_diff_json(stdout, &a, &b, o->diff_a, o->diff_b);
	else
		report_diff_text(stdout, &a, &b, o->diff_a, o->diff_b);
	diff_set_free(&a);
	diff_set_free(&b);
	return status == 0 && ferror(stdout) ? EXIT_RUNTIME : status;
}

int
main(int argc, char **argv)
{
	struct options o;
	struct evspec *specs;
	struct tt_err err;
	int status;

	setlocale(LC_ALL, "");
	/* One malloc arena: the worker thread allocates little and rarely, and
	 * an arena of its own would cost ~1.5 MiB of resident memory. */
	mallopt(M_ARENA_MAX, 1);
	if (options_parse(&o, argc, argv, &err) != 0) {
		fprintf(stderr, "tracetop: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (o.cleanup) {
		status = cleanup();
		options_free(&o);
		return status;
	}
	if (o.diff_a != NULL) {
		status = diff_reports(&o);
		options_free(&o);
		return status;
	}
	if (o.probe_vars != NULL) {
		status = probe_cli_vars(&o);
		options_free(&o);
		return status;
	}
	if (o.help || o.version || o.list_events || o.help_keys) {
		if (o.help)
			options_usage(stdout);
		else if (o.version)
			printf("tracetop %s\n", PACKAGE_VERSION);
		else if (o.help_keys)
			keymap_print(stdout);
		else
			evspec_list(stdout);
		options_free(&o);
		return 0;
	}
	setup_load(&o);
	specs = xcalloc(o.nevents, sizeof *specs);
	if (o.replay != NULL)
		status = run_replay(&o);
	else
		status = parse_all_events(&o, specs) != 0 || probe_cli_check(&o) != 0
		             ? EXIT_USAGE
		             : run(&o, specs);
	free(specs);
	setup_unload(&o);
	options_free(&o);
	return status;
}
