/* Unit tests for src/worker.c: jobs are answered and come back in posting
 * order (quick ones before those that defer themselves), a full queue
 * refuses a post instead of waiting, stopping with jobs
 * queued drops them unanswered (nothing leaks under ASan), and the thread
 * blocks every signal (the loop reads them from a signalfd). */
#include "config.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>

#include "tracetop/util.h"
#include "tracetop/worker.h"

/* job status of a job that defers itself */
#define SLOW 1

/* What the jobs of one test saw. */
struct record {
	atomic_int started;    /* run calls begun, on the worker */
	atomic_int ran;        /* run calls finished */
	atomic_int deferrals;  /* runs put off */
	atomic_bool gate_open; /* run waits for it when gated */
	bool gated;
	int done;      /* done calls, on this thread */
	uint64_t last; /* arg of the last done */
	bool in_order;
	bool sigint_blocked;
	uint64_t order[16]; /* args in done order */
};

/* A job's work: double the argument; wait for the gate if asked to; put
 * itself off when its status says it is slow. */
static bool
job_run(struct worker_job *j, bool may_defer)
{
	struct record *r = j->ctx;
	const struct timespec nap = {0, 1000000};
	sigset_t mask;

	if (j->status == SLOW && may_defer) {
		atomic_fetch_add(&r->deferrals, 1);
		return false;
	}
	atomic_fetch_add(&r->started, 1);
	if (r->gated)
		while (!atomic_load(&r->gate_open))
			nanosleep(&nap, NULL);
	pthread_sigmask(SIG_SETMASK, NULL, &mask);
	r->sigint_blocked = sigismember(&mask, SIGINT) == 1;
	j->ptr[0] = (const void *)(uintptr_t)(j->arg * 2);
	j->n = 1;
	atomic_fetch_add(&r->ran, 1);
	return true;
}

/* Check the answer and the order. */
static void
job_done(struct worker_job *j)
{
	struct record *r = j->ctx;

	assert_int_equal(j->n, 1);
	assert_int_equal((uintptr_t)j->ptr[0], j->arg * 2);
	if (r->done > 0 && j->arg != r->last + 1)
		r->in_order = false;
	r->last = j->arg;
	if ((size_t)r->done < ARRAY_SIZE(r->order))
		r->order[r->done] = j->arg;
	r->done++;
}

/* Post job number i of a record, slow or not. */
static bool
post_job(struct worker *w, struct record *r, uint64_t i, bool slow)
{
	struct worker_job j = {
	    .run = job_run, .done = job_done, .ctx = r, .arg = i, .status = slow ? SLOW : 0};

	return worker_post(w, &j);
}

/* Post quick job number i of a record. */
static bool
post(struct worker *w, struct record *r, uint64_t i)
{
	return post_job(w, r, i, false);
}

/* Every job is answered, in posting order, with its own answer; the
 * worker's thread has every signal blocked. */
static void
test_answers_in_order(void **state)
{
	struct record r = {.in_order = true};
	int errnum = 0;
	struct worker *w = worker_new(64, &errnum);
	size_t got = 0;

	(void)state;
	assert_non_null(w);
	assert_int_equal(worker_poll(w), 0);
	for (uint64_t round = 0; round < 20; round++) {
		for (uint64_t i = 0; i < 50; i++)
			assert_true(post(w, &r, round * 50 + i));
		worker_drain(w);
		assert_int_equal(worker_inflight(w), 50);
		got += worker_poll(w);
		assert_int_equal(worker_inflight(w), 0);
	}
	assert_int_equal(got, 1000);
	assert_int_equal(r.done, 1000);
	assert_true(r.in_order);
	assert_int_equal(r.last, 999);
	assert_true(r.sigint_blocked);
	worker_free(w);
}

/* With depth jobs in flight a post is refused at once; after a poll there
 * is room again. */
static void
test_full_queue(void **state)
{
	struct record r = {.in_order = true, .gated = true};
	int errnum = 0;
	struct worker *w = worker_new(20, &errnum); /* rounded up to 32 */
	uint64_t i;

	(void)state;
	assert_non_null(w);
	for (i = 0; i < 32; i++)
		assert_true(post(w, &r, i));
	assert_false(post(w, &r, i)); /* refused, not waited for */
	assert_int_equal(worker_inflight(w), 32);
	atomic_store(&r.gate_open, true);
	worker_drain(w);
	assert_false(post(w, &r, i)); /* answered but not polled: still in flight */
	assert_int_equal(worker_poll(w), 32);
	assert_true(post(w, &r, i));
	worker_drain(w);
	assert_int_equal(worker_poll(w), 1);
	assert_int_equal(r.done, 33);
	assert_true(r.in_order);
	worker_free(w);
}

/* Open a record's gate after 50 ms. */
static void *
open_gate_later(void *arg)
{
	struct record *r = arg;
	const struct timespec wait = {0, 50000000};

	nanosleep(&wait, NULL);
	atomic_store(&r->gate_open, true);
	return NULL;
}

/* Stopping while a job runs: it finishes, the queued ones never run, and
 * no done is called. */
static void
test_stop_with_pending(void **state)
{
	struct record r = {.in_order = true, .gated = true};
	const struct timespec nap = {0, 1000000};
	int errnum = 0;
	struct worker *w = worker_new(16, &errnum);
	pthread_t opener;

	(void)state;
	assert_non_null(w);
	for (uint64_t i = 0; i < 10; i++)
		assert_true(post(w, &r, i));
	while (atomic_load(&r.started) == 0)
		nanosleep(&nap, NULL);
	/* the first job holds the worker until the gate opens, while
	 * worker_free waits for it */
	assert_int_equal(pthread_create(&opener, NULL, open_gate_later, &r), 0);
	worker_free(w);
	pthread_join(opener, NULL);
	assert_int_equal(atomic_load(&r.ran), 1);
	assert_int_equal(atomic_load(&r.started), 1);
	assert_int_equal(r.done, 0);
}

/* Slow jobs wait while quick ones are queued, then run oldest first. */
static void
test_deferred(void **state)
{
	static const uint64_t want[] = {0, 2, 4, 5, 1, 3};
	struct record r = {.gated = true};
	int errnum = 0;
	struct worker *w = worker_new(16, &errnum);

	(void)state;
	assert_non_null(w);
	assert_true(post(w, &r, 0)); /* holds the worker until all are queued */
	assert_true(post_job(w, &r, 1, true));
	assert_true(post(w, &r, 2));
	assert_true(post_job(w, &r, 3, true));
	assert_true(post(w, &r, 4));
	assert_true(post(w, &r, 5));
	atomic_store(&r.gate_open, true);
	worker_drain(w);
	assert_int_equal(worker_poll(w), 6);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_int_equal(r.order[i], want[i]);
	/* each slow one was put off when taken, and again on the first pass
	 * over the deferred ones; 3 once more before its forced run */
	assert_true(atomic_load(&r.deferrals) >= 2);
	worker_free(w);
}

/* Stopping an idle worker, and one that never got a job. */
static void
test_stop_idle(void **state)
{
	struct record r = {.in_order = true};
	int errnum = 0;
	struct worker *w = worker_new(0, &errnum);

	(void)state;
	assert_non_null(w);
	worker_free(w);
	w = worker_new(8, &errnum);
	assert_non_null(w);
	assert_true(post(w, &r, 7));
	worker_drain(w);
	worker_free(w); /* answered, never polled */
	assert_int_equal(r.done, 0);
	worker_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_answers_in_order), cmocka_unit_test(test_full_queue),
	    cmocka_unit_test(test_deferred),         cmocka_unit_test(test_stop_with_pending),
	    cmocka_unit_test(test_stop_idle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
