/* tracetop: command line entry point. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tracetop/batch.h"
#include "tracetop/counters.h"
#include "tracetop/engine.h"
#include "tracetop/evspec.h"
#include "tracetop/options.h"
#include "ui/keymap.h"
#include "ui/tui.h"

/* Exit statuses: usage errors and runtime failures differ for scripts. */
#define EXIT_USAGE 2
#define EXIT_RUNTIME 1

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

/* Parse -e and --counters: 0, or -1 after printing the bad one. */
static int
parse_all_events(const struct options *o, struct evspec *specs)
{
	struct evspec *counters = xcalloc(o->ncounters, sizeof *counters);
	int rc = parse_events(o->events, o->nevents, specs);

	if (rc == 0)
		rc = parse_events(o->counters, o->ncounters, counters);
	free(counters);
	return rc;
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

/* Open the engine and run the front end; returns the exit status. */
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
	};
	struct tt_err err;
	struct engine *e;
	struct counters *c = NULL;
	FILE *out = stdout;
	bool tui = !o->batch && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	/* batch --view counters: the engine only starts the command and
	 * watches the targets; the screen samples and counts, a Tab apart */
	bool counting = o->view == VIEW_COUNTERS && !tui;
	int status;

	if (counting) {
		eo.nevents = 0;
		eo.callgraph = CALLGRAPH_NONE;
	}

	if (o->output != NULL && (out = fopen(o->output, "w")) == NULL) {
		fprintf(stderr, "tracetop: cannot write %s: %s\n", o->output, strerror(errno));
		return EXIT_RUNTIME;
	}
	raise_fd_limit();
	if ((e = engine_new(&eo, &err)) == NULL) {
		fprintf(stderr, "tracetop: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	/* On the screen, counters that cannot be opened only leave their
	 * pane saying why. */
	if ((counting || tui) && (c = open_counters(o, e, &err)) == NULL && counting) {
		fprintf(stderr, "tracetop: %s\n", err.msg);
		engine_free(e);
		return EXIT_RUNTIME;
	}
	if (engine_notice(e) != NULL && !tui)
		fprintf(stderr, "tracetop: %s\n", engine_notice(e));
	if (engine_start(e, &err) != 0) {
		fprintf(stderr, "tracetop: %s\n", err.msg);
		counters_free(c);
		engine_free(e);
		return EXIT_RUNTIME;
	}
	if (counting)
		status = batch_counters_run(e, c, o, out);
	else if (tui)
		status = tui_run(e, c, c == NULL ? err.msg : NULL, o);
	else
		status = batch_run(e, o, out);
	counters_free(c);
	engine_free(e);
	if (out != stdout && fclose(out) != 0) {
		fprintf(stderr, "tracetop: cannot write %s: %s\n", o->output, strerror(errno));
		status = EXIT_RUNTIME;
	}
	return status;
}

int
main(int argc, char **argv)
{
	struct options o;
	struct evspec *specs;
	struct tt_err err;
	int status;

	setlocale(LC_ALL, "");
	if (options_parse(&o, argc, argv, &err) != 0) {
		fprintf(stderr, "tracetop: %s\n", err.msg);
		return EXIT_USAGE;
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
	specs = xcalloc(o.nevents, sizeof *specs);
	status = parse_all_events(&o, specs) != 0 ? EXIT_USAGE : run(&o, specs);
	free(specs);
	options_free(&o);
	return status;
}
