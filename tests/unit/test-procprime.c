/* Unit tests for procprime: the processes of a fake /proc read into the
 * model ahead of their samples, a few at a time, ours left out, one gone
 * meanwhile kept as dead, the known ones not read again. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/dso.h"
#include "tracetop/procprime.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"
#include "fakeproc.h"

#define NPROCS 20 /* pids 101..120 */
#define SELF 120  /* the one left out */

static char proc_root[64];

/* Write process pid "pNNN" with one executable mapping. */
static void
put_proc(int pid)
{
	char rel[64], text[256];

	snprintf(rel, sizeof rel, "%d/status", pid);
	snprintf(text, sizeof text, "Name:\tp%d\nTgid:\t%d\nPid:\t%d\nPPid:\t1\nUid:\t0\t0\t0\t0\n",
	         pid, pid, pid);
	fakeproc_put(proc_root, rel, text);
	snprintf(rel, sizeof rel, "%d/maps", pid);
	snprintf(text, sizeof text, "00400000-00401000 r-xp 00000000 08:02 %d /usr/bin/p%d\n", pid,
	         pid);
	fakeproc_put(proc_root, rel, text);
}

/* A fake proc root of NPROCS processes, and entries that are not ones. */
static int
setup(void **state)
{
	strcpy(proc_root, "/tmp/tt-procprime-XXXXXX");
	if (mkdtemp(proc_root) == NULL)
		return -1;
	for (int pid = 101; pid <= 100 + NPROCS; pid++)
		put_proc(pid);
	fakeproc_put(proc_root, "sys/kernel/x", "");
	fakeproc_put(proc_root, "self/status", "Name:\tnot a pid\n");
	fakeproc_put(proc_root, "12x/status", "Name:\tnot a pid\n");
	*state = tasks_new(proc_root);
	return 0;
}

/* Remove it. */
static int
teardown(void **state)
{
	tasks_free(*state);
	fakeproc_remove(proc_root);
	dso_cache_free();
	return 0;
}

/* Every process but ours, each with its comm and mapping; none before. */
static void
test_all(void **state)
{
	struct tasks *ts = *state;
	struct procprime *pp = procprime_scan(proc_root, SELF);

	assert_non_null(pp);
	assert_null(tasks_find_thread(ts, 101));
	assert_int_equal(procprime_step(pp, ts, UINT64_MAX), 0);
	for (int pid = 101; pid < SELF; pid++) {
		struct thread *th = tasks_find_thread(ts, pid);
		char want[16];

		assert_non_null(th);
		snprintf(want, sizeof want, "p%d", pid);
		assert_string_equal(th->proc->comm, want);
		assert_int_equal(th->proc->pid, pid);
		assert_false(th->dead);
		assert_int_equal(th->proc->nmaps, 1);
		assert_int_equal(th->proc->maps[0].start, 0x400000);
	}
	assert_null(tasks_find_thread(ts, SELF));
	assert_null(tasks_find_thread(ts, 12));
	procprime_free(pp);
}

/* A budget spent stops a step, the next goes on where it stopped. */
static void
test_budget(void **state)
{
	struct tasks *ts = *state;
	struct procprime *pp = procprime_scan(proc_root, 0);
	size_t left = NPROCS, steps = 0, now;

	while ((now = procprime_step(pp, ts, 0)) > 0) {
		assert_true(now < left); /* some read each time */
		left = now;
		steps++;
	}
	assert_true(steps >= 1); /* not all at once */
	for (int pid = 101; pid <= 100 + NPROCS; pid++)
		assert_non_null(tasks_find_thread(ts, pid));
	assert_int_equal(procprime_step(pp, ts, UINT64_MAX), 0);
	procprime_free(pp);
}

/* A process gone since the scan is a dead one (reaped later); one known
 * already is not read again (its comm stays the model's). */
static void
test_gone_known(void **state)
{
	struct tasks *ts = *state;
	struct procprime *pp = procprime_scan(proc_root, 0);
	struct thread *known = tasks_thread(ts, 102, 102);
	char path[128];

	assert_non_null(known);
	known->proc->comm = str_intern("renamed");
	snprintf(path, sizeof path, "%s/101", proc_root);
	fakeproc_remove(path);
	assert_int_equal(procprime_step(pp, ts, UINT64_MAX), 0);
	assert_non_null(tasks_find_thread(ts, 101));
	assert_true(tasks_find_thread(ts, 101)->dead);
	assert_ptr_equal(tasks_find_thread(ts, 102), known);
	assert_string_equal(known->proc->comm, "renamed");
	procprime_free(pp);
	assert_null(procprime_scan("/nonexistent/proc", 0));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_all, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_budget, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_gone_known, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
