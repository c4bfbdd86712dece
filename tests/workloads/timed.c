/*
 * timed: a function whose calls take a known time, for function latency.
 *
 * Usage: timed N [DEPTH]
 * timed_fn sleeps 2 ms (nanosleep); two threads call it N calls in all:
 * the second thread's first call recurses DEPTH times (default 1:
 * timed_fn(1) calls timed_fn(0), which sleeps: both calls take about
 * 2 ms), the rest are plain. So timed_fn runs exactly N times: N - DEPTH
 * from the top, DEPTH from itself; it sleeps N - DEPTH times, once per
 * call from the top. N > DEPTH >= 1. Prints nothing.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Sleep 2 ms at depth 0; else recurse once more. */
__attribute__((noinline)) int
timed_fn(int depth)
{
	struct timespec ts = {0, 2000000};

	if (depth > 0)
		return timed_fn(depth - 1) + 1;
	nanosleep(&ts, NULL);
	__asm__ volatile("" ::: "memory"); /* not a tail call: the return is probed */
	return 0;
}

static long second_calls; /* the second thread's top-level calls */
static int depth = 1;     /* how deep its first call recurses */

/* The second thread: one recursive call (two runs), then plain ones. */
static void *
second(void *arg)
{
	(void)arg;
	timed_fn(depth);
	for (long i = 1; i < second_calls; i++)
		timed_fn(0);
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
	if (pthread_create(&t, NULL, second, NULL) != 0)
		return 1;
	for (long i = 0; i < first; i++)
		timed_fn(0);
	pthread_join(t, NULL);
	return 0;
}
