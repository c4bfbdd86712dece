/* Unit tests for tasks: EXIT records, and the reap that frees dead threads
 * and the processes left without any, against a fake proc root. */
#include "tasks-fixture.h"

/* EXIT marks dead; late samples still find them; reaping frees them after the
 * grace period, and a lookup then reads /proc again (or finds nothing). */
static void
test_exit_reap(void **state)
{
	struct thread *w = tasks_thread(*state, 123, 124), *th;
	struct task *p = w->proc;

	fork_rec(*state, 200, 123, 200, 124);
	exit_rec(*state, 123, 124);
	exit_rec(*state, 200, 200);
	assert_true(w->dead);
	assert_false(p->dead);
	th = tasks_thread(*state, 200, 200);
	assert_true(th->dead);
	assert_true(th->proc->dead);
	assert_ptr_equal(tasks_thread(*state, 123, 124), w);
	tasks_reap(*state, now_ns(), 3600ULL * 1000000000ULL);
	assert_ptr_equal(tasks_thread(*state, 200, 200), th);
	tasks_reap(*state, now_ns(), 0);
	th = tasks_thread(*state, -1, 124);
	assert_false(th->dead);
	assert_string_equal(th->comm, "worker");
	assert_int_equal(th->proc->pid, 123);
	th = tasks_thread(*state, -1, 200);
	assert_true(th->dead);
	assert_string_equal(th->comm, "[unknown]");
	assert_int_equal(th->proc->nmaps, 0);
}

/* A dead process stays while a live thread uses it; a pid reused meanwhile
 * leaves the old process to its threads. */
static void
test_reap_live_thread(void **state)
{
	struct thread *t201, *t200;
	struct task *old;

	fork_rec(*state, 200, 123, 200, 123);
	fork_rec(*state, 200, 200, 201, 200);
	t201 = tasks_thread(*state, 200, 201);
	old = t201->proc;
	exit_rec(*state, 200, 200);
	tasks_reap(*state, now_ns(), 0);
	assert_ptr_equal(tasks_thread(*state, 200, 201), t201);
	assert_true(old->dead);
	assert_int_equal(old->refs, 1);
	assert_int_equal(old->nmaps, 5);
	fork_rec(*state, 200, 123, 200, 123);
	t200 = tasks_thread(*state, 200, 200);
	assert_ptr_not_equal(t200->proc, old);
	assert_false(t200->proc->dead);
	assert_ptr_equal(tasks_thread(*state, 200, 201)->proc, old);
	exit_rec(*state, 200, 201);
	tasks_reap(*state, now_ns(), 0);
	assert_ptr_equal(tasks_thread(*state, 200, 200), t200);
}

/* Reaping walks the threads that died, not the tables: a tid that died
 * and was taken by a live thread before the reap keeps the live one; one
 * that died twice is freed once; a process whose last thread was freed
 * goes with it, one with a live thread stays. */
static void
test_reap_reused_tid(void **state)
{
	struct thread *th, *live;

	fork_rec(*state, 300, 123, 300, 123);
	exit_rec(*state, 300, 300);
	/* tid 300 again, a new live process before the reap */
	fork_rec(*state, 300, 123, 300, 123);
	live = tasks_thread(*state, 300, 300);
	assert_false(live->dead);
	tasks_reap(*state, now_ns(), 0);
	assert_ptr_equal(tasks_thread(*state, 300, 300), live);
	assert_false(live->dead);
	assert_int_equal(live->proc->refs, 1);
	/* it dies twice (a repeated EXIT): one listing, one free */
	exit_rec(*state, 300, 300);
	exit_rec(*state, 300, 300);
	tasks_reap(*state, now_ns(), 3600ULL * 1000000000ULL);
	assert_ptr_equal(tasks_thread(*state, 300, 300), live);
	tasks_reap(*state, now_ns(), 0);
	th = tasks_thread(*state, -1, 300);
	assert_non_null(th);
	assert_string_equal(th->comm, "[unknown]"); /* read anew: the fake /proc has no 300 */
	assert_int_equal(th->proc->nmaps, 0);
	tasks_reap(*state, now_ns(), 0);
	/* the parent, never dead, is untouched */
	th = tasks_thread(*state, -1, 123);
	assert_false(th->dead);
	assert_int_equal(th->proc->pid, 123);
}

/* Thousands of threads, half exited and reaped in rounds: the survivors are
 * still found (not re-read as gone) and the process counts them. */
static void
test_many_threads(void **state)
{
	enum { N = 4000, FIRST = 1000 };
	static bool gone[N];
	struct task *p = tasks_thread(*state, 123, 123)->proc;
	uint32_t seed = 3;
	int i, round, alive = N;

	for (i = 0; i < N; i++) {
		gone[i] = false;
		fork_rec(*state, 123, 123, FIRST + i * 7919 % 100000, 123);
	}
	assert_int_equal(p->refs, N + 1);
	for (round = 0; round < 4; round++) {
		for (i = 0; i < N; i++) {
			if (!gone[i] && lcg(&seed) % 4 == 0) {
				gone[i] = true;
				alive--;
				exit_rec(*state, 123, FIRST + i * 7919 % 100000);
			}
		}
		tasks_reap(*state, now_ns(), 0);
		assert_int_equal(p->refs, alive + 1);
		for (i = 0; i < N; i++) {
			if (!gone[i]) {
				struct thread *th =
				    tasks_thread(*state, 123, FIRST + i * 7919 % 100000);

				assert_int_equal(th->tid, FIRST + i * 7919 % 100000);
				assert_false(th->dead);
			}
		}
		assert_int_equal(p->refs, alive + 1);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_exit_reap, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reap_live_thread, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reap_reused_tid, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_many_threads, setup, teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
