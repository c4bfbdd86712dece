/*
 * timed: a function whose calls take a known time, for function latency.
 *
 * Usage: timed N [DEPTH]
 * timed_fn sleeps 2 ms (nanosleep); two threads call it N calls in all:
 * the second thread's first call recurses DEPTH times (default 1:
 * timed_fn(1) calls timed_fn(0), which sleeps: both calls take about
 * 2 ms), the rest are plain. So timed_fn runs exactly N times: N - DEPTH
 * from the top, DEPTH from itself; it sleeps N - DEPTH times, once per
 * call from the top. N > DEPTH >= 1. Prints nothing; with TIMED_MEDIAN
 * set to a path, writes there the median of the top-level calls' own
 * durations in ns (what a tracer should measure, the scheduler's slack on
 * a loaded machine included). With TIMED_FIRST_MS set, the first
 * thread's first call sleeps that many ms instead (a call still open
 * when a tracer attaches).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Thread_local long long_ms; /* this thread's next sleep, if not 2 ms */

/* Sleep 2 ms at depth 0; else recurse once more. */
__attribute__((noinline)) int
timed_fn(int depth)
{
	struct timespec ts = {long_ms / 1000, long_ms > 0 ? long_ms % 1000 * 1000000 : 2000000};

	if (depth > 0)
		return timed_fn(depth - 1) + 1;
	long_ms = 0;
	nanosleep(&ts, NULL);
	__asm__ volatile("" ::: "memory"); /* not a tail call: the return is probed */
	return 0;
}

static long second_calls; /* the second thread's top-level calls */
static int depth = 1;     /* how deep its first call recurses */
static uint64_t *took;    /* each top-level call's duration, ns */
static long ntook;        /* its slots: first thread's from 0, second's from the end */

/* Now, in ns. */
static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Call timed_fn(d) from the top, keeping its duration in slot i. */
static void
timed_call(int d, long i)
{
	uint64_t t0 = now_ns();

	timed_fn(d);
	took[i] = now_ns() - t0;
}

/* Order durations for the median. */
static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The second thread: one recursive call (two runs), then plain ones. */
static void *
second(void *arg)
{
	(void)arg;
	timed_call(depth, ntook - 1);
	for (long i = 1; i < second_calls; i++)
		timed_call(0, ntook - 1 - i);
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t;
	long n, first;
	char *end;

	if (argc == 3)
		depth = atoi(argv[2]);
	if (argc < 2 || argc > 3 || (n = strtol(argv[1], &end, 10)) < 2 || *end != '\0' ||
	    n > 1000000 || depth < 1 || depth > 1000 || n <= depth) {
		fputs("usage: timed N [DEPTH] (N > DEPTH >= 1)\n", stderr);
		return 2;
	}
	/* N runs: the second thread's calls make second_calls + DEPTH runs */
	second_calls = (n - depth) / 2;
	first = n - depth - second_calls;
	ntook = first + second_calls;
	if ((took = calloc((size_t)ntook, sizeof *took)) == NULL)
		return 1;
	if (pthread_create(&t, NULL, second, NULL) != 0)
		return 1;
	if (getenv("TIMED_FIRST_MS") != NULL)
		long_ms = atol(getenv("TIMED_FIRST_MS"));
	for (long i = 0; i < first; i++)
		timed_call(0, i);
	pthread_join(t, NULL);
	if (getenv("TIMED_MEDIAN") != NULL) {
		FILE *f = fopen(getenv("TIMED_MEDIAN"), "w");

		qsort(took, (size_t)ntook, sizeof *took, cmp_u64);
		if (f == NULL || fprintf(f, "%llu\n", (unsigned long long)took[ntook / 2]) < 0 ||
		    fclose(f) != 0)
			return 1;
	}
	free(took);
	return 0;
}
