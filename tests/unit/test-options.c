/* Unit tests for options: defaults, every option in short and long form,
 * the command after --, usage errors and their messages, the long-name list,
 * --help text and parsing more than once in a process. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracetop/options.h"
#include "tracetop/util.h"

/* A NULL-terminated argv with a program name, alive to the end of the block. */
#define ARGS(...) ((char *[]){"tracetop", ##__VA_ARGS__, NULL})

/* Most arguments a table case has (NULL-terminated). */
#define MAX_ARGS 8

/* Run options_parse on a NULL-terminated argv; err is cleared first. */
static int
parse_argv(struct options *o, struct tt_err *err, char **argv)
{
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	memset(err, 0, sizeof *err);
	return options_parse(o, argc, argv, err);
}

/* Parse argv, failing the test with the message when it is rejected. */
static void
parse_ok(struct options *o, char **argv)
{
	struct tt_err err;

	if (parse_argv(o, &err, argv) != 0)
		fail_msg("options_parse rejected '%s ...': %s", argv[1], err.msg);
}

/* Copy a table case's arguments behind a program name into argv. */
static char **
table_argv(char *argv[MAX_ARGS + 2], const char *const args[MAX_ARGS])
{
	size_t i;

	argv[0] = "tracetop";
	for (i = 0; i < MAX_ARGS && args[i] != NULL; i++)
		argv[i + 1] = (char *)args[i];
	argv[i + 1] = NULL;
	return argv;
}

/* Join a table case's arguments for a failure message. */
static const char *
args_str(const char *const args[MAX_ARGS], char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < MAX_ARGS && args[i] != NULL && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s'%s'", i ? " " : "", args[i]);
	return buf;
}

/* Equal int arrays. */
static bool
ints_equal(const int *a, size_t na, const int *b, size_t nb)
{
	return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

/* Equal NULL-terminated string vectors (either may be NULL). */
static bool
strv_equal(char *const *a, char *const *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	for (; *a != NULL && *b != NULL; a++, b++)
		if (strcmp(*a, *b) != 0)
			return false;
	return *a == *b;
}

/* Two parses gave the same settings. */
static bool
options_equal(const struct options *a, const struct options *b)
{
	size_t i;

	if (a->nevents != b->nevents)
		return false;
	for (i = 0; i < a->nevents; i++)
		if (strcmp(a->events[i], b->events[i]) != 0)
			return false;
	for (i = 0; a->sort[i] != HIST_SORT_END || b->sort[i] != HIST_SORT_END; i++)
		if (a->sort[i] != b->sort[i])
			return false;
	if (a->ncounters != b->ncounters)
		return false;
	for (i = 0; i < a->ncounters; i++)
		if (strcmp(a->counters[i], b->counters[i]) != 0)
			return false;
	if (a->view != b->view || a->counters_scopes != b->counters_scopes ||
	    a->counters_scope != b->counters_scope)
		return false;
	if ((a->output == NULL) != (b->output == NULL) ||
	    (a->output != NULL && strcmp(a->output, b->output) != 0))
		return false;
	return ints_equal(a->pids, a->npids, b->pids, b->npids) &&
	       ints_equal(a->tids, a->ntids, b->tids, b->ntids) &&
	       ints_equal(a->cpus, a->ncpus, b->cpus, b->ncpus) && strv_equal(a->argv, b->argv) &&
	       a->freq == b->freq && a->period == b->period && a->mmap_pages == b->mmap_pages &&
	       a->batch == b->batch && a->delay == b->delay && a->count == b->count &&
	       a->format == b->format && a->zero == b->zero && a->include_self == b->include_self &&
	       a->rows == b->rows && a->list_events == b->list_events && a->help == b->help &&
	       a->version == b->version;
}

/* o's events are exactly the NULL-terminated list that follows. */
static void
assert_events(const struct options *o, ...)
{
	const char *want;
	size_t i = 0;
	va_list ap;

	va_start(ap, o);
	while ((want = va_arg(ap, const char *)) != NULL) {
		assert_true(i < o->nevents);
		assert_string_equal(o->events[i], want);
		i++;
	}
	va_end(ap);
	assert_int_equal(o->nevents, i);
}

/* No arguments: the documented defaults and nothing else set. */
static void
test_defaults(void **state)
{
	struct options o;

	parse_ok(&o, ARGS());
	assert_events(&o, "cycles", NULL);
	assert_int_equal(o.freq, 4000);
	assert_int_equal(o.period, 0);
	assert_int_equal(o.mmap_pages, 128);
	assert_true(o.delay == 2.0);
	assert_int_equal(o.sort[0], HIST_SORT_OVERHEAD);
	assert_int_equal(o.sort[1], HIST_SORT_END);
	assert_int_equal(o.format, FORMAT_TEXT);
	assert_int_equal(o.count, 0);
	assert_int_equal(o.rows, 0);
	assert_null(o.output);
	assert_null(o.argv);
	assert_int_equal(o.npids + o.ntids + o.ncpus, 0);
	assert_false(o.batch || o.zero || o.include_self || o.list_events || o.help || o.version);
	assert_int_equal(o.view, VIEW_TOP);
	assert_int_equal(o.ncounters, 0);
	assert_null(o.counters);
	assert_int_equal(o.counters_scopes, 1u << COUNTERS_TOTAL);
	assert_int_equal(o.counters_scope, COUNTERS_TOTAL);
	options_free(&o);
}

/* --view, --counters (a list, repeatable, apart from -e) and
 * --counters-scope (one scope, or a list whose first is the one in use). */
static void
test_counters(void **state)
{
	struct options o;

	parse_ok(&o, ARGS("--view", "counters", "--counters", "page-faults,cs", "--counters",
	                  "cycles:u", "-e", "cpu-clock"));
	assert_int_equal(o.view, VIEW_COUNTERS);
	assert_int_equal(o.ncounters, 3);
	assert_string_equal(o.counters[0], "page-faults");
	assert_string_equal(o.counters[1], "cs");
	assert_string_equal(o.counters[2], "cycles:u");
	assert_events(&o, "cpu-clock", NULL);
	options_free(&o);
	parse_ok(&o, ARGS("--counters-scope", "process,total", "--view", "top"));
	assert_int_equal(o.view, VIEW_TOP);
	assert_int_equal(o.counters_scope, COUNTERS_PROCESS);
	assert_int_equal(o.counters_scopes, (1u << COUNTERS_PROCESS) | (1u << COUNTERS_TOTAL));
	options_free(&o);
	parse_ok(&o, ARGS("--counters-scope", "cpu", "--counters-scope", "total"));
	assert_int_equal(o.counters_scope, COUNTERS_TOTAL);
	assert_int_equal(o.counters_scopes, 1u << COUNTERS_TOTAL);
	options_free(&o);
	parse_ok(&o, ARGS("-b", "--view=counters", "--format", "json", "--", "ls"));
	assert_int_equal(o.view, VIEW_COUNTERS);
	assert_int_equal(o.format, FORMAT_JSON);
	options_free(&o);
	parse_ok(&o, ARGS("-b", "--view", "system", "--format", "csv"));
	assert_int_equal(o.view, VIEW_SYSTEM);
	assert_int_equal(o.format, FORMAT_CSV);
	options_free(&o);
	/* the flame graph: as text, as SVG (top view too), on the screen without -g */
	parse_ok(&o, ARGS("-b", "-g", "--view", "flame"));
	assert_int_equal(o.view, VIEW_FLAME);
	assert_int_equal(o.format, FORMAT_TEXT);
	options_free(&o);
	parse_ok(&o, ARGS("-b", "-g", "--view", "flame", "--format", "svg", "-o", "f.svg"));
	assert_int_equal(o.format, FORMAT_SVG);
	options_free(&o);
	parse_ok(&o, ARGS("-b", "--call-graph", "dwarf", "--format", "svg"));
	assert_int_equal(o.view, VIEW_TOP);
	assert_int_equal(o.format, FORMAT_SVG);
	options_free(&o);
	parse_ok(&o, ARGS("--view", "flame"));
	assert_int_equal(o.view, VIEW_FLAME);
	options_free(&o);
}

/* -e repeats and splits on commas, keeping order; no default added. */
static void
test_events(void **state)
{
	struct options o;

	parse_ok(&o, ARGS("-e", "cycles", "-e", "cpu-clock"));
	assert_events(&o, "cycles", "cpu-clock", NULL);
	options_free(&o);
	parse_ok(&o, ARGS("-e", "a,b"));
	assert_events(&o, "a", "b", NULL);
	options_free(&o);
	parse_ok(&o, ARGS("-e", "a,b", "--event", "sched:sched_switch", "-ec"));
	assert_events(&o, "a", "b", "sched:sched_switch", "c", NULL);
	options_free(&o);
}

/* -p, -t and -C fill their lists; a repeated option replaces the list. */
static void
test_targets(void **state)
{
	struct options o;

	parse_ok(&o, ARGS("-p", "1,2"));
	assert_true(ints_equal(o.pids, o.npids, (int[]){1, 2}, 2));
	assert_int_equal(o.ntids, 0);
	options_free(&o);
	parse_ok(&o, ARGS("-t", "7", "-C", "0-1"));
	assert_true(ints_equal(o.tids, o.ntids, (int[]){7}, 1));
	assert_true(ints_equal(o.cpus, o.ncpus, (int[]){0, 1}, 2));
	assert_int_equal(o.npids, 0);
	options_free(&o);
	parse_ok(&o, ARGS("-p", "3", "-p", "4,5", "-C", "3,1", "-C", "2"));
	assert_true(ints_equal(o.pids, o.npids, (int[]){4, 5}, 2));
	assert_true(ints_equal(o.cpus, o.ncpus, (int[]){2}, 1));
	options_free(&o);
}

/* -F and -c exclude each other: the last one wins; -m takes powers of two. */
static void
test_sampling(void **state)
{
	struct options o;

	parse_ok(&o, ARGS("-F", "99", "-m", "64"));
	assert_int_equal(o.freq, 99);
	assert_int_equal(o.period, 0);
	assert_int_equal(o.mmap_pages, 64);
	options_free(&o);
	parse_ok(&o, ARGS("-c", "100000", "-m", "1"));
	assert_int_equal(o.period, 100000);
	assert_int_equal(o.freq, 0);
	assert_int_equal(o.mmap_pages, 1);
	options_free(&o);
	parse_ok(&o, ARGS("-c", "1000", "-F", "50", "-m", "65536"));
	assert_int_equal(o.freq, 50);
	assert_int_equal(o.period, 0);
	assert_int_equal(o.mmap_pages, 65536);
	options_free(&o);
}

/* Batch-mode settings: delay, iterations, output, format, sort, rows. */
static void
test_batch(void **state)
{
	struct options o;
	char **argv = ARGS("-b", "-d", "0.5", "-n", "3", "-o", "out.txt", "--format", "json", "-s",
	                   "comm,pid", "-z", "--rows", "5");

	parse_ok(&o, argv);
	assert_true(o.batch);
	assert_true(o.delay == 0.5);
	assert_int_equal(o.count, 3);
	assert_string_equal(o.output, "out.txt");
	assert_int_equal(o.format, FORMAT_JSON);
	/* the names group, the share orders (perf's --sort) */
	assert_int_equal(o.sort[0], HIST_SORT_OVERHEAD);
	assert_int_equal(o.sort[1], HIST_SORT_COMM);
	assert_int_equal(o.sort[2], HIST_SORT_PID);
	assert_int_equal(o.sort[3], HIST_SORT_END);
	assert_int_equal(o.group, HIST_GROUP_COMM | HIST_GROUP_PID);
	assert_true(o.zero);
	assert_int_equal(o.rows, 5);
	options_free(&o);
	/* a share named after a name keeps its place, as in perf */
	parse_ok(&o, ARGS("-b", "-s", "sym,overhead"));
	assert_int_equal(o.sort[0], HIST_SORT_SYM);
	assert_int_equal(o.sort[1], HIST_SORT_OVERHEAD);
	assert_int_equal(o.sort[2], HIST_SORT_END);
	options_free(&o);
	parse_ok(&o, ARGS("-b", "-s", "samples,pid"));
	assert_int_equal(o.sort[0], HIST_SORT_SAMPLES);
	assert_int_equal(o.sort[1], HIST_SORT_PID);
	options_free(&o);
	/* --children: by children, then the share and the names */
	parse_ok(&o, ARGS("-b", "-g", "--children", "-s", "pid,sym"));
	assert_int_equal(o.sort[0], HIST_SORT_CHILDREN);
	assert_int_equal(o.sort[1], HIST_SORT_OVERHEAD);
	assert_int_equal(o.sort[2], HIST_SORT_PID);
	assert_int_equal(o.sort[3], HIST_SORT_SYM);
	assert_int_equal(o.sort[4], HIST_SORT_END);
	options_free(&o);
	parse_ok(&o, ARGS("--format", "json", "--format", "text", "-d", "86400"));
	assert_int_equal(o.format, FORMAT_TEXT);
	assert_true(o.delay == 86400.0);
	options_free(&o);
}

/* The flag options, each alone. */
static void
test_flags(void **state)
{
	struct options o;

	parse_ok(&o, ARGS("--include-self"));
	assert_true(o.include_self);
	assert_false(o.list_events || o.version || o.help);
	options_free(&o);
	parse_ok(&o, ARGS("--list-events"));
	assert_true(o.list_events);
	assert_false(o.include_self || o.version || o.help);
	options_free(&o);
	parse_ok(&o, ARGS("--version"));
	assert_true(o.version);
	assert_false(o.include_self || o.list_events || o.help);
	options_free(&o);
	parse_ok(&o, ARGS("-h"));
	assert_true(o.help);
	assert_false(o.include_self || o.list_events || o.version);
	options_free(&o);
}

/* Everything after -- is the command, options there included. */
static void
test_command(void **state)
{
	struct options o;
	char **argv = ARGS("-F", "10", "--", "ls", "-l", "-e", "x");

	parse_ok(&o, argv);
	assert_ptr_equal(o.argv, &argv[4]);
	assert_true(strv_equal(o.argv, (char *[]){"ls", "-l", "-e", "x", NULL}));
	assert_events(&o, "cycles", NULL);
	assert_int_equal(o.freq, 10);
	options_free(&o);
	parse_ok(&o, ARGS("--", "--", "x"));
	assert_true(strv_equal(o.argv, (char *[]){"--", "x", NULL}));
	options_free(&o);
	parse_ok(&o, ARGS("-b", "--"));
	assert_null(o.argv);
	options_free(&o);
}

/* --diff A B takes the word after A, options on either side; --baseline. */
static void
test_diff(void **state)
{
	struct options o;

	(void)state;
	parse_ok(&o, ARGS("--format", "json", "--diff", "a.json", "b.json"));
	assert_string_equal(o.diff_a, "a.json");
	assert_string_equal(o.diff_b, "b.json");
	assert_int_equal(o.format, FORMAT_JSON);
	options_free(&o);
	parse_ok(&o, ARGS("--diff", "a.json", "b.json", "--format", "json"));
	assert_string_equal(o.diff_b, "b.json");
	assert_int_equal(o.format, FORMAT_JSON);
	assert_null(o.argv);
	options_free(&o);
	parse_ok(&o, ARGS("-b", "-s", "pid, delta", "--baseline", "base.json"));
	assert_true(o.sort_delta);
	assert_int_equal(o.sort[0], HIST_SORT_OVERHEAD);
	assert_int_equal(o.sort[1], HIST_SORT_PID);
	assert_int_equal(o.sort[2], HIST_SORT_END);
	options_free(&o);
	parse_ok(&o, ARGS("-s", "delta", "--baseline", "base.json"));
	assert_true(o.sort_delta);
	assert_int_equal(o.sort[0], HIST_SORT_OVERHEAD);
	options_free(&o);
	parse_ok(&o, ARGS("-b", "--baseline", "base.json", "--view", "latency"));
	assert_string_equal(o.baseline, "base.json");
	assert_null(o.diff_a);
	options_free(&o);
}

/* One short/long pair that must parse to the same, non-default settings. */
struct form_case {
	const char *a[MAX_ARGS];
	const char *b[MAX_ARGS];
};

/* Every long form (and =, abbreviation, clustering) means the short form. */
static void
test_long_forms(void **state)
{
	static const struct form_case cases[] = {
	    {{"-e", "x"}, {"--event", "x"}},
	    {{"-e", "x"}, {"--event=x"}},
	    {{"-e", "x"}, {"--ev", "x"}},
	    {{"-p", "1,2"}, {"--pid", "1,2"}},
	    {{"-t", "3"}, {"--tid=3"}},
	    {{"-C", "0-1"}, {"--cpu", "0-1"}},
	    {{"-F", "99"}, {"--freq", "99"}},
	    {{"-F", "99"}, {"-F99"}},
	    {{"-c", "500"}, {"--count", "500"}},
	    {{"-m", "64"}, {"--mmap-pages", "64"}},
	    {{"-b"}, {"--batch"}},
	    {{"-d", "0.5"}, {"--delay", "0.5"}},
	    {{"-n", "3"}, {"--iterations", "3"}},
	    {{"-b", "-o", "f"}, {"--batch", "--output", "f"}},
	    {{"-s", "comm,pid"}, {"--sort", "comm,pid"}},
	    {{"-z"}, {"--zero"}},
	    {{"-h"}, {"--help"}},
	    {{"-b", "-z", "-F", "7"}, {"-bzF7"}},
	    {{"--format", "json"}, {"--format=json"}},
	    {{"--rows", "5"}, {"--rows=5"}},
	    {{"--include-self"}, {"--include"}},
	    {{"--list-events"}, {"--list"}},
	    {{"--version"}, {"--vers"}},
	    {{"--view", "counters"}, {"--view=counters"}},
	    {{"--counters", "cs"}, {"--counters=cs"}},
	    {{"--counters-scope", "cpu"}, {"--counters-s", "cpu"}},
	};
	struct options def, a, b;
	char *va[MAX_ARGS + 2], *vb[MAX_ARGS + 2], buf[256];

	parse_ok(&def, ARGS());
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		parse_ok(&a, table_argv(va, cases[i].a));
		parse_ok(&b, table_argv(vb, cases[i].b));
		if (!options_equal(&a, &b))
			fail_msg("%s differs from its short form",
			         args_str(cases[i].b, buf, sizeof buf));
		if (options_equal(&a, &def))
			fail_msg("%s changed nothing", args_str(cases[i].a, buf, sizeof buf));
		options_free(&a);
		options_free(&b);
	}
	options_free(&def);
}

/* One usage error: every needle must be in the message. */
struct error_case {
	const char *args[MAX_ARGS];
	const char *needle[2];
};

/* Each usage error fails with a printable message naming the problem. */
static void
test_errors(void **state)
{
	static const struct error_case cases[] = {
	    {{"--bogus"}, {"unknown", "--bogus"}},
	    {{"--eventx", "a"}, {"unknown", "--eventx"}},
	    {{"--i"}, {"--i"}},
	    {{"-x"}, {"unknown", "-x"}},
	    {{"-b", "-Q", "-z"}, {"unknown", "-Q"}},
	    {{"-bQz"}, {"unknown", "-Q"}},
	    {{"--batch", "-Qz"}, {"unknown", "-Q"}},
	    {{"-e"}, {"-e", "argument"}},
	    {{"-b", "-e"}, {"-e", "argument"}},
	    {{"--event"}, {"--event", "argument"}},
	    {{"--format"}, {"--format", "argument"}},
	    {{"--rows"}, {"--rows", "argument"}},
	    {{"--batch=1"}, {"--batch"}},
	    {{"--version=1"}, {"--version"}},
	    {{"-F", "0"}, {"-F", "'0'"}},
	    {{"-F", "-5"}, {"-F"}},
	    {{"-F", "x"}, {"-F", "'x'"}},
	    {{"-c", "0"}, {"-c"}},
	    {{"-m", "3"}, {"-m", "'3'"}},
	    {{"-m", "0"}, {"-m"}},
	    {{"-m", "131072"}, {"-m", "131072"}},
	    {{"-d", "0.01"}, {"-d", "0.01"}},
	    {{"-d", "nan"}, {"-d"}},
	    {{"-d", "86401"}, {"-d"}},
	    {{"-n", "0"}, {"-n"}},
	    {{"-n", "18446744073709551615"}, {"-n"}},
	    {{"--rows", "0"}, {"--rows"}},
	    {{"--rows", "4294967296"}, {"--rows"}},
	    {{"--format", "xml"}, {"--format", "xml"}},
	    {{"-s", "bogus"}, {"sort", "bogus"}},
	    {{"-s", "comm,comm"}, {"duplicate", "comm"}},
	    {{"-p", "x"}, {"-p", "'x'"}},
	    {{"-p", "0"}, {"-p"}},
	    {{"-t", "1,,2"}, {"-t", "1,,2"}},
	    {{"-C", "3-1"}, {"-C", "3-1"}},
	    {{"-p", "1", "-p", "x"}, {"-p", "'x'"}},
	    {{"-C", "0", "-C", "z"}, {"-C", "'z'"}},
	    {{"stray"}, {"stray", "--"}},
	    {{"-b", "stray", "-z"}, {"stray"}},
	    {{"-p", "1", "--", "ls"}, {"command", "-p"}},
	    {{"-t", "1", "--", "ls"}, {"command", "-t"}},
	    {{"-p", "1", "-t", "2"}, {"-p", "-t"}},
	    {{"-o", "f"}, {"-o", "-b"}},
	    {{"-e", ""}, {"-e", "''"}},
	    {{"-e", "a,,b"}, {"-e", "a,,b"}},
	    {{"-e", ",a"}, {"-e", ",a"}},
	    {{"-e", "a,"}, {"-e", "a,"}},
	    {{"--view", "stat"}, {"--view expects top, counters", "latency or flame"}},
	    {{"--diff", "a"}, {"--diff needs two things to compare", "FILE@START..END"}},
	    {{"--diff", "a", "b", "c"}, {"two reports", "unexpected 'c'"}},
	    {{"--diff", "a", "b", "--format", "csv"}, {"--diff prints text or json", "csv"}},
	    {{"--baseline", "x", "--diff", "a", "b"}, {"drop --baseline"}},
	    {{"--baseline", "x", "--view", "trace"}, {"--baseline compares", "--view trace"}},
	    {{"-s", "comm,delta"}, {"-s delta", "add --baseline FILE"}},
	    {{"-s", "delta,bogus", "--baseline", "x"}, {"unknown sort key 'bogus'"}},
	    {{"-b", "--baseline", "x", "--format", "pprof"}, {"--baseline", "pprof"}},
	    {{"--format", "csv"}, {"csv is for the system view (--view system)", "--view top"}},
	    {{"--view", "counters", "--format", "csv"}, {"csv", "counters"}},
	    {{"--view", ""}, {"--view", "''"}},
	    {{"--counters", ""}, {"--counters", "''"}},
	    {{"--counters", "a,,b"}, {"--counters", "a,,b"}},
	    {{"--counters-scope", "cpus"}, {"--counters-scope", "'cpus'"}},
	    {{"--counters-scope", "total,"}, {"--counters-scope", "total,"}},
	    {{"--counters-scope", ""}, {"--counters-scope"}},
	    {{"--view", "counters", "--format", "folded"}, {"folded", "counters"}},
	    {{"--counter", "x"}, {"--counter"}},
	    {{"-b", "--view", "flame"}, {"--view flame needs call stacks", "-g"}},
	    {{"-b", "--format", "svg"}, {"--format svg needs call stacks", "-g"}},
	    {{"-g", "--view", "counters", "--format", "svg"}, {"svg", "--view counters"}},
	    {{"-b", "-g", "--view", "flame", "--format", "json"}, {"flame", "text or svg"}},
	    {{"-b", "-g", "--annotate", "f", "--format", "svg"}, {"--annotate", "svg"}},
	};
	char *argv[MAX_ARGS + 2], buf[256];
	size_t bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct error_case *c = &cases[i];
		struct options o;
		struct tt_err err;
		int rc = parse_argv(&o, &err, table_argv(argv, c->args));
		bool ok = rc == -1 && err.msg[0] != '\0';

		for (size_t j = 0; j < ARRAY_SIZE(c->needle) && c->needle[j] != NULL; j++)
			ok = ok && strstr(err.msg, c->needle[j]) != NULL;
		for (const char *p = err.msg; *p != '\0'; p++)
			ok = ok && (unsigned char)*p >= 0x20 && *p != 0x7f;
		if (!ok) {
			print_message("# %s: rc %d, message \"%s\"\n",
			              args_str(c->args, buf, sizeof buf), rc, err.msg);
			bad++;
		}
		options_free(&o);
	}
	assert_int_equal(bad, 0);
}

/* The long names: all of them, NULL-terminated, each known to the parser. */
static void
test_long_names(void **state)
{
	const char *const *names = options_long_names();
	bool event = false, help = false;
	size_t n;

	for (n = 0; names[n] != NULL; n++) {
		struct options o;
		struct tt_err err;
		char opt[64];
		int rc;

		event |= strcmp(names[n], "event") == 0;
		help |= strcmp(names[n], "help") == 0;
		for (size_t k = 0; k < n; k++)
			assert_string_not_equal(names[k], names[n]);
		/* alone: a flag parses, an option with an argument asks for it */
		snprintf(opt, sizeof opt, "--%s", names[n]);
		rc = parse_argv(&o, &err, ARGS(opt));
		if (rc != 0 && (strstr(err.msg, "unknown") != NULL || strstr(err.msg, opt) == NULL))
			fail_msg("%s alone: %s", opt, err.msg);
		options_free(&o);
	}
	assert_true(event && help);
	assert_true(n >= 19);
	assert_ptr_equal(options_long_names(), names);
}

/* --help shows every option by long name and its short letter. */
static void
test_usage(void **state)
{
	const char *const *names = options_long_names();
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	options_usage(f);
	fclose(f);
	assert_true(strncmp(text, "usage: tracetop", 15) == 0);
	assert_int_equal(text[len - 1], '\n');
	for (size_t i = 0; names[i] != NULL; i++) {
		char opt[64];

		snprintf(opt, sizeof opt, "--%s", names[i]);
		if (strstr(text, opt) == NULL)
			fail_msg("--help does not mention %s", opt);
	}
	assert_non_null(strstr(text, "-e, --event EVENT"));
	assert_non_null(strstr(text, "-h, --help"));
	assert_non_null(strstr(text, "    --format FMT"));
	free(text);
}

/* getopt state does not leak from one parse (good or bad) into the next. */
static void
test_reparse(void **state)
{
	struct options o;
	struct tt_err err;

	parse_ok(&o, ARGS("-e", "a", "-p", "1", "-b", "-z"));
	options_free(&o);
	parse_ok(&o, ARGS("-F", "10"));
	assert_events(&o, "cycles", NULL);
	assert_int_equal(o.npids, 0);
	assert_false(o.batch || o.zero);
	assert_int_equal(o.freq, 10);
	options_free(&o);

	/* an error part-way through a cluster of short options */
	assert_int_equal(parse_argv(&o, &err, ARGS("-xbz")), -1);
	options_free(&o);
	parse_ok(&o, ARGS("-F", "10"));
	assert_false(o.batch || o.zero);
	assert_int_equal(o.freq, 10);
	options_free(&o);

	/* stopped at a command, then parsed again from the start */
	parse_ok(&o, ARGS("-z", "--", "ls"));
	options_free(&o);
	parse_ok(&o, ARGS("-b", "-d", "1"));
	assert_true(o.batch);
	assert_false(o.zero);
	assert_null(o.argv);
	assert_true(o.delay == 1.0);
	options_free(&o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults), cmocka_unit_test(test_events),
	    cmocka_unit_test(test_targets),  cmocka_unit_test(test_sampling),
	    cmocka_unit_test(test_batch),    cmocka_unit_test(test_flags),
	    cmocka_unit_test(test_command),  cmocka_unit_test(test_long_forms),
	    cmocka_unit_test(test_errors),   cmocka_unit_test(test_long_names),
	    cmocka_unit_test(test_usage),    cmocka_unit_test(test_reparse),
	    cmocka_unit_test(test_counters), cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
