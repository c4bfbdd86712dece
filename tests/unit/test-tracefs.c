/* Unit tests of tracefs: instance names; clean-up of the instances of
 * dead tracetops only, in a directory laid out like tracefs; formats from
 * the fixture tree; state snapshots. With root and a real tracefs also:
 * a private instance made and removed, the kernel's words for a bad
 * filter, the function tracer (refused here, with a clear reason), and
 * the global state unchanged by all of it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/tracefs.h"

#ifndef TT_FIXTURES
#define TT_FIXTURES "tests/fixtures"
#endif

/* Names: made and parsed back; others are not ours. */
static void
test_names(void **state)
{
	char buf[64];
	int pid = 0;

	(void)state;
	tt_tracefs_instance_name(buf, sizeof buf, 1234, 5);
	assert_string_equal(buf, "tracetop-1234-5");
	assert_true(tt_tracefs_instance_parse(buf, &pid));
	assert_int_equal(pid, 1234);
	assert_false(tt_tracefs_instance_parse("tracetop-1234", &pid));
	assert_false(tt_tracefs_instance_parse("tracetop--1", &pid));
	assert_false(tt_tracefs_instance_parse("tracetop-abc-1", &pid));
	assert_false(tt_tracefs_instance_parse("tracetop-0-1", &pid));
	assert_false(tt_tracefs_instance_parse("tracetop-012-1", &pid));
	assert_false(tt_tracefs_instance_parse("tracetop-12-", &pid));
	assert_false(tt_tracefs_instance_parse("tracetop-12-1x", &pid));
	assert_false(tt_tracefs_instance_parse("tracetop-99999999999-1", &pid));
	assert_false(tt_tracefs_instance_parse("mytracetop-12-1", &pid));
	assert_false(tt_tracefs_instance_parse("trace-cmd", &pid));
}

/* A pid that no process has: a child that has exited and been reaped. */
static int
dead_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return (int)p;
}

/* Make dir/instances/name. */
static void
mk(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/instances/%s", dir, name);
	assert_int_equal(mkdir(path, 0700), 0);
}

/* Whether dir/instances/name exists. */
static bool
exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof path, "%s/instances/%s", dir, name);
	return stat(path, &st) == 0;
}

/* Remove dir/instances/name if it is there. */
static void
rm(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/instances/%s", dir, name);
	rmdir(path);
}

/* What the clean-up reported. */
struct removed {
	char names[8][64];
	int n;
};

/* Record one removal. */
static void
on_removed(void *arg, const char *name, int pid)
{
	struct removed *r = arg;

	(void)pid;
	if (r->n < 8)
		snprintf(r->names[r->n++], sizeof r->names[0], "%s", name);
}

/* Only instances named after tracetop whose pid is gone are removed. */
static void
test_cleanup_stale(void **state)
{
	char dir[] = "/tmp/tt-tracefs-XXXXXX", path[PATH_MAX], dead[64], dead2[64], mine[64];
	char init[64], busy[64];
	struct removed r = {.n = 0};
	struct tt_err err;
	int pid = dead_pid();

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/events", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/instances", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	tt_tracefs_instance_name(dead, sizeof dead, pid, 0);
	tt_tracefs_instance_name(dead2, sizeof dead2, pid, 7);
	tt_tracefs_instance_name(mine, sizeof mine, (int)getpid(), 0);
	tt_tracefs_instance_name(init, sizeof init, 1, 0);
	snprintf(busy, sizeof busy, "tracetop-%d-x", pid);
	mk(dir, dead);
	mk(dir, dead2);
	mk(dir, mine);
	mk(dir, init);
	mk(dir, busy);
	mk(dir, "trace-cmd");
	mk(dir, "tracetop");
	tt_tracefs_set_dir(dir);
	assert_int_equal(tt_tracefs_cleanup_stale(on_removed, &r, &err), 2);
	assert_int_equal(r.n, 2);
	assert_true(strcmp(r.names[0], dead) == 0 || strcmp(r.names[1], dead) == 0);
	assert_true(strcmp(r.names[0], dead2) == 0 || strcmp(r.names[1], dead2) == 0);
	assert_false(exists(dir, dead));
	assert_false(exists(dir, dead2));
	assert_true(exists(dir, mine));
	assert_true(exists(dir, init));
	assert_true(exists(dir, busy));
	assert_true(exists(dir, "trace-cmd"));
	assert_true(exists(dir, "tracetop"));
	/* nothing left to do: 0 */
	assert_int_equal(tt_tracefs_cleanup_stale(NULL, NULL, &err), 0);
	rm(dir, mine);
	rm(dir, init);
	rm(dir, busy);
	rm(dir, "trace-cmd");
	rm(dir, "tracetop");
	snprintf(path, sizeof path, "%s/instances", dir);
	rmdir(path);
	/* no instances directory: nothing to clean */
	assert_int_equal(tt_tracefs_cleanup_stale(NULL, NULL, &err), 0);
	snprintf(path, sizeof path, "%s/events", dir);
	rmdir(path);
	rmdir(dir);
	tt_tracefs_set_dir(NULL);
}

/* Formats and the page header come from the mount's events/. */
static void
test_formats(void **state)
{
	struct tt_err err;
	size_t len = 0;
	char *text;

	(void)state;
	tt_tracefs_set_dir(TT_FIXTURES "/tracefs");
	text = tt_tracefs_event_format("sched", "sched_switch", &len, &err);
	assert_non_null(text);
	assert_true(len > 100);
	assert_non_null(strstr(text, "name: sched_switch"));
	free(text);
	text = tt_tracefs_header_page(&len, &err);
	assert_non_null(text);
	assert_non_null(strstr(text, "commit"));
	free(text);
	assert_null(tt_tracefs_event_format("sched", "nope", &len, &err));
	assert_non_null(strstr(err.msg, "the format of sched:nope"));
	assert_null(tt_tracefs_event_format("..", "x", &len, &err));
	assert_null(tt_tracefs_event_format("sched/../x", "y", &len, &err));
	tt_tracefs_set_dir("/nonexistent");
	assert_null(tt_tracefs_dir());
	assert_null(tt_tracefs_event_format("sched", "sched_switch", &len, &err));
	assert_non_null(strstr(err.msg, "not mounted"));
	assert_int_equal(tt_tracefs_cleanup_stale(NULL, NULL, &err), 0);
	tt_tracefs_set_dir(NULL);
}

/* Write text to dir/name. */
static void
put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Snapshots compare equal until something changes, and say what. */
static void
test_state_compare(void **state)
{
	char dir[] = "/tmp/tt-tracefs-XXXXXX", path[PATH_MAX], why[512];
	struct tt_tracefs_state a, b;
	struct tt_err err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/events", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/instances", dir);
	mkdir(path, 0700);
	put(dir, "set_event", "");
	put(dir, "tracing_on", "1\n");
	put(dir, "current_tracer", "nop\n");
	tt_tracefs_set_dir(dir);
	assert_int_equal(tt_tracefs_state_read(&a, &err), 0);
	assert_int_equal(tt_tracefs_state_read(&b, &err), 0);
	assert_true(tt_tracefs_state_equal(&a, &b, why, sizeof why));
	tt_tracefs_state_free(&b);
	mk(dir, "someone");
	put(dir, "set_event", "sched:sched_switch\n");
	assert_int_equal(tt_tracefs_state_read(&b, &err), 0);
	assert_false(tt_tracefs_state_equal(&a, &b, why, sizeof why));
	assert_non_null(strstr(why, "set_event changed"));
	put(dir, "set_event", "");
	tt_tracefs_state_free(&b);
	assert_int_equal(tt_tracefs_state_read(&b, &err), 0);
	assert_false(tt_tracefs_state_equal(&a, &b, why, sizeof why));
	assert_non_null(strstr(why, "instances changed"));
	assert_non_null(strstr(why, "someone"));
	tt_tracefs_state_free(&a);
	tt_tracefs_state_free(&b);
	rm(dir, "someone");
	rmdir(path);
	snprintf(path, sizeof path, "%s/events", dir);
	rmdir(path);
	unlink(strcat(strcpy(path, dir), "/set_event"));
	unlink(strcat(strcpy(path, dir), "/tracing_on"));
	unlink(strcat(strcpy(path, dir), "/current_tracer"));
	rmdir(dir);
	tt_tracefs_set_dir(NULL);
}

/* The real tracefs: an instance made and removed, a filter refused in the
 * kernel's words, the function tracer started or refused clearly, and the
 * global state as it was. */
static void
test_live(void **state)
{
	struct tt_tracefs_state before, after;
	struct tt_instance *in;
	struct tt_ftrace *ft;
	struct tt_err err;
	char why[512], name[64];

	(void)state;
	assert_int_equal(tt_tracefs_state_read(&before, &err), 0);
	in = tt_tracefs_instance_new(&err);
	assert_non_null(in);
	snprintf(name, sizeof name, "tracetop-%d-", (int)getpid());
	assert_memory_equal(tt_tracefs_instance_get_name(in), name, strlen(name));
	assert_true(exists(tt_tracefs_dir(), tt_tracefs_instance_get_name(in)));
	snprintf(name, sizeof name, "%s", tt_tracefs_instance_get_name(in));
	tt_tracefs_instance_free(in);
	assert_false(exists(tt_tracefs_dir(), name));

	assert_int_equal(tt_tracefs_filter_error("sched", "sched_switch", "prev_pidx == 1", why,
	                                         sizeof why, &err),
	                 0);
	assert_non_null(strstr(why, "Field not found"));
	assert_int_equal(tt_tracefs_filter_error("sched", "sched_switch", "prev_pid == 1", why,
	                                         sizeof why, &err),
	                 0);
	assert_string_equal(why, "");

	ft = tt_tracefs_ftrace_start("do_sys_openat2", TT_FTRACE_FUNCTION, NULL, 0, &err);
	if (ft == NULL) {
		printf("# function tracer refused here: %s\n", err.msg);
		assert_true(strstr(err.msg, "the kernel refused function tracing") != NULL ||
		            strstr(err.msg, "no function tracer") != NULL ||
		            strstr(err.msg, "has no function tracing") != NULL);
	} else {
		tt_tracefs_ftrace_stop(ft);
	}
	assert_null(tt_tracefs_ftrace_start(" , ", TT_FTRACE_FUNCTION, NULL, 0, &err));

	assert_int_equal(tt_tracefs_state_read(&after, &err), 0);
	if (!tt_tracefs_state_equal(&before, &after, why, sizeof why))
		fail_msg("%s", why);
	tt_tracefs_state_free(&before);
	tt_tracefs_state_free(&after);
}

/* Whether the live test can run: root and a writable tracefs. */
static bool
live_possible(char *why, size_t len)
{
	const char *dir = tt_tracefs_dir();
	char path[PATH_MAX];

	if (dir == NULL) {
		snprintf(why, len, "tracefs is not mounted");
		return false;
	}
	snprintf(path, sizeof path, "%s/instances", dir);
	if (access(path, W_OK) != 0) {
		snprintf(why, len, "cannot write the instances of %s (needs root)", dir);
		return false;
	}
	return true;
}

/* Field offsets from a format text: both layouts of sched_process_fork
 * (char arrays on 6.1, __data_loc since), arrays, a name that is only a
 * suffix of another, a missing field. */
static void
test_format_offset(void **state)
{
	static const char old_fork[] =
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:char parent_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	    "\tfield:pid_t parent_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	    "\tfield:char child_comm[16];\toffset:28;\tsize:16;\tsigned:0;\n"
	    "\tfield:pid_t child_pid;\toffset:44;\tsize:4;\tsigned:1;\n";
	static const char new_fork[] =
	    "\tfield:__data_loc char[] parent_comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	    "\tfield:pid_t parent_pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	    "\tfield:__data_loc char[] child_comm;\toffset:16;\tsize:4;\tsigned:0;\n"
	    "\tfield:pid_t child_pid;\toffset:20;\tsize:4;\tsigned:1;\n";
	static const char sys[] =
	    "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	    "\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n";

	(void)state;
	assert_int_equal(tt_tracefs_format_offset(old_fork, "parent_pid"), 24);
	assert_int_equal(tt_tracefs_format_offset(old_fork, "child_pid"), 44);
	assert_int_equal(tt_tracefs_format_offset(new_fork, "parent_pid"), 12);
	assert_int_equal(tt_tracefs_format_offset(new_fork, "child_pid"), 20);
	assert_int_equal(tt_tracefs_format_offset(sys, "id"), 8);
	assert_int_equal(tt_tracefs_format_offset(sys, "d"), -1); /* a suffix of "id" */
	assert_int_equal(tt_tracefs_format_offset(sys, "ret"), -1);
	assert_int_equal(tt_tracefs_field_offset("no_such_sys", "no_such_event", "id"), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),   cmocka_unit_test(test_cleanup_stale),
	    cmocka_unit_test(test_formats), cmocka_unit_test(test_state_compare),
	    cmocka_unit_test(test_live),    cmocka_unit_test(test_format_offset),
	};
	char why[256];
	size_t n = ARRAY_SIZE(tests);

	if (!live_possible(why, sizeof why)) {
		printf("# the live tracefs test does not run: %s\n", why);
		n--;
	}
	return _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
}
