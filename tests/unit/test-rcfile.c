/* Unit tests for the setup file: each setting's checks, parsing with bad
 * lines reported by number and skipped, writing and reading back, the
 * path under XDG_CONFIG_HOME or HOME, and the command line winning. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/options.h"
#include "tracetop/rcfile.h"
#include "tracetop/util.h"

/* The bad lines a parse reported. */
struct reports {
	unsigned line[16];
	char msg[16][256];
	size_t n;
};

/* Keep a report. */
static void
collect(void *arg, unsigned line, const char *msg)
{
	struct reports *r = arg;

	if (r->n < 16) {
		r->line[r->n] = line;
		snprintf(r->msg[r->n], sizeof r->msg[r->n], "%s", msg);
		r->n++;
	}
}

/* One check case: key, value, accepted?, a word the refusal names. */
struct check_case {
	const char *key, *value;
	bool ok;
	const char *why;
};

/* Each kind of setting takes what it should and names what is wrong. */
static void
test_check(void **state)
{
	static const struct check_case cases[] = {
	    {"delay", "2", true, NULL},
	    {"delay", "0.05", true, NULL},
	    {"delay", "0.01", false, "0.05"},
	    {"delay", "1e9", false, "86400"},
	    {"delay", "two", false, "number"},
	    {"zero", "yes", true, NULL},
	    {"zero", "Off", true, NULL},
	    {"zero", "maybe", false, "yes or no"},
	    {"meters", "0", true, NULL},
	    {"pane", "counters", true, NULL},
	    {"pane", "Counters", false, "lower case"},
	    {"pane", "", false, "lower case"},
	    {"counters", "task-clock,minor-faults:u,r1a8", true, NULL},
	    {"counters", "task-clock,,cycles", false, "empty"},
	    {"counters", "task clock", false, "blanks"},
	    {"counters_scope", "cpu", true, NULL},
	    {"counters_scope", "node", false, "total, cpu or process"},
	    {"top.cgroup_column", "hidden", true, NULL},
	    {"processes.threads", "yes", true, NULL},
	    {"flame.icicle", "no", true, NULL},
	    {"flame.icicle", "sideways", false, "yes"},
	    {"sort.top", "Samples desc", true, NULL},
	    {"sort.counters", "Per second asc", true, NULL},
	    {"sort.top", "Samples", false, "asc or desc"},
	    {"sort.top", " desc", false, "asc or desc"},
	    {"sort.", "Samples desc", false, "name a pane"},
	    {"sort.Top", "Samples desc", false, "name a pane"},
	    {"colour", "red", false, "unknown setting 'colour'"},
	    {"delay", "2\x1b", false, "control"},
	};
	struct tt_err err;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int rc = rcfile_check(cases[i].key, cases[i].value, &err);

		if (rc != (cases[i].ok ? 0 : -1))
			fail_msg("%s=%s: %s", cases[i].key, cases[i].value,
			         cases[i].ok ? err.msg : "accepted");
		if (!cases[i].ok && strstr(err.msg, cases[i].why) == NULL)
			fail_msg("%s=%s: '%s' does not say '%s'", cases[i].key, cases[i].value,
			         err.msg, cases[i].why);
	}
}

/* Good lines apply (blanks and comments skipped, later lines win); each
 * bad one is reported with its number and the lines after it still apply. */
static void
test_parse(void **state)
{
	static const char text[] = "# a comment\n"
	                           "\n"
	                           "  delay = 1.5  \n"
	                           "bogus line\n"
	                           "pane=trace\n"
	                           "unknown_key=1\n"
	                           "sort.top=Per second desc\n"
	                           "=x\n"
	                           "delay=3\n"
	                           "meters=perhaps\n"
	                           "zero=yes"; /* no newline at the end */
	struct rcfile c = {0};
	struct reports r = {0};
	unsigned line;

	(void)state;
	assert_int_equal(rcfile_parse(&c, text, strlen(text), collect, &r), 4);
	assert_int_equal(r.n, 4);
	assert_int_equal(r.line[0], 4);
	assert_non_null(strstr(r.msg[0], "key=value"));
	assert_int_equal(r.line[1], 6);
	assert_non_null(strstr(r.msg[1], "unknown_key"));
	assert_int_equal(r.line[2], 8);
	assert_int_equal(r.line[3], 10);
	assert_non_null(strstr(r.msg[3], "meters"));
	assert_string_equal(rcfile_get(&c, "delay", &line), "3");
	assert_int_equal(line, 9);
	assert_string_equal(rcfile_get(&c, "pane", NULL), "trace");
	assert_string_equal(rcfile_get(&c, "sort.top", NULL), "Per second desc");
	assert_true(rcfile_get_bool(&c, "zero", false));
	assert_true(rcfile_get_bool(&c, "meters", true)); /* the bad line left it alone */
	assert_null(rcfile_get(&c, "meters", NULL));
	rcfile_free(&c);
}

/* A NUL byte and CR line ends: the NUL's line is bad, CRs are blanks. */
static void
test_parse_odd_bytes(void **state)
{
	static const char text[] = "delay=2\r\nzero=\0yes\nmeters=no\n";
	struct rcfile c = {0};
	struct reports r = {0};

	(void)state;
	assert_int_equal(rcfile_parse(&c, text, sizeof text - 1, collect, &r), 1);
	assert_int_equal(r.line[0], 2);
	assert_non_null(strstr(r.msg[0], "NUL"));
	assert_string_equal(rcfile_get(&c, "delay", NULL), "2");
	assert_false(rcfile_get_bool(&c, "meters", true));
	rcfile_free(&c);
}

/* What is written reads back the same, through a file in a directory
 * that did not exist. */
static void
test_round_trip(void **state)
{
	char dir[] = "/tmp/tt-rcfile-XXXXXX", path[256];
	struct rcfile c = {0}, back = {0};
	struct reports r = {0};
	struct tt_err err;
	char *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/a/b/tracetoprc", dir);
	rcfile_set(&c, "sort.trace", "Event asc");
	rcfile_set(&c, "delay", "0.5");
	rcfile_set(&c, "counters", "task-clock,minor-faults:u");
	rcfile_set_bool(&c, "meters", false);
	rcfile_set(&c, "pane", "counters");
	rcfile_set(&c, "sort.counters", "Run% desc");
	text = rcfile_format(&c);
	/* the table's order: pane before delay, the sorts last by pane */
	assert_true(strstr(text, "pane=counters") < strstr(text, "delay=0.5"));
	assert_true(strstr(text, "sort.counters=") < strstr(text, "sort.trace="));
	assert_true(strstr(text, "meters=no") < strstr(text, "sort.counters="));
	free(text);
	assert_int_equal(rcfile_save(&c, path, &err), 0);
	assert_int_equal(rcfile_load(&back, path, collect, &r, &err), 0);
	assert_int_equal(r.n, 0);
	assert_true(rcfile_equal(&c, &back));
	rcfile_set(&back, "delay", "0.6");
	assert_false(rcfile_equal(&c, &back));
	rcfile_free(&back);
	/* a missing file sets nothing and is no error */
	snprintf(path, sizeof path, "%s/none", dir);
	assert_int_equal(rcfile_load(&back, path, collect, &r, &err), 0);
	assert_int_equal(back.n, 0);
	/* another user's directory (as root: a HOME sudo kept) is not written */
	snprintf(path, sizeof path, "%s/other", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 4242, 4242), 0);
		snprintf(path, sizeof path, "%s/other/.config/tracetop/tracetoprc", dir);
		assert_int_equal(rcfile_save(&c, path, &err), -1);
		assert_non_null(strstr(err.msg, "uid 4242"));
		snprintf(path, sizeof path, "%s/other/.config", dir);
		assert_int_equal(access(path, F_OK), -1); /* nothing made there */
	}
	rcfile_free(&c);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

/* XDG_CONFIG_HOME (absolute) first, else HOME/.config, else an error. */
static void
test_path(void **state)
{
	char buf[256];
	struct tt_err err;

	(void)state;
	setenv("HOME", "/home/u", 1);
	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	assert_int_equal(rcfile_path(buf, sizeof buf, &err), 0);
	assert_string_equal(buf, "/x/cfg/tracetop/tracetoprc");
	setenv("XDG_CONFIG_HOME", "relative", 1);
	assert_int_equal(rcfile_path(buf, sizeof buf, &err), 0);
	assert_string_equal(buf, "/home/u/.config/tracetop/tracetoprc");
	unsetenv("XDG_CONFIG_HOME");
	assert_int_equal(rcfile_path(buf, sizeof buf, &err), 0);
	assert_string_equal(buf, "/home/u/.config/tracetop/tracetoprc");
	assert_int_equal(rcfile_path(buf, 10, &err), -1);
	unsetenv("HOME");
	assert_int_equal(rcfile_path(buf, sizeof buf, &err), -1);
	assert_non_null(strstr(err.msg, "HOME"));
}

/* The file fills what the command line left; what it gave wins; a bad
 * counter is reported with the line and left out. */
static void
test_apply_options(void **state)
{
	static const char text[] = "delay=0.5\nzero=yes\ncounters=task-clock,no-such-event-x\n"
	                           "counters_scope=cpu\n";
	struct rcfile c = {0};
	struct reports r = {0};
	struct options o = {.delay = 2.0};

	(void)state;
	assert_int_equal(rcfile_parse(&c, text, strlen(text), collect, &r), 0);
	rcfile_apply_options(&c, &o, collect, &r);
	assert_true(o.delay == 0.5);
	assert_true(o.zero);
	assert_int_equal(o.ncounters, 1);
	assert_string_equal(o.counters[0], "task-clock");
	assert_int_equal(r.n, 1);
	assert_int_equal(r.line[0], 3);
	assert_non_null(strstr(r.msg[0], "no-such-event-x"));
	assert_int_equal(o.counters_scope, COUNTERS_CPU);
	free(o.counters[0]);
	free(o.counters);
	/* given on the command line: kept */
	o = (struct options){.delay = 5, .delay_given = true, .counters_scope_given = true};
	o.counters = xmalloc(sizeof *o.counters);
	o.counters[o.ncounters++] = xstrdup("page-faults");
	rcfile_apply_options(&c, &o, collect, &r);
	assert_true(o.delay == 5);
	assert_int_equal(o.ncounters, 1);
	assert_string_equal(o.counters[0], "page-faults");
	assert_int_equal(o.counters_scope, COUNTERS_TOTAL);
	free(o.counters[0]);
	free(o.counters);
	rcfile_free(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_check),
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_parse_odd_bytes),
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_path),
	    cmocka_unit_test(test_apply_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
