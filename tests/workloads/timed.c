/*
 * timed: a function whose calls take a known time, for function latency.
 *
 * Usage: timed N
 * timed_fn sleeps 2 ms (nanosleep); two threads call it N calls in all:
 * the second thread's first call recurses once (timed_fn(1) calls
 * timed_fn(0), which sleeps: both calls take about 2 ms), the rest are
 * plain. So timed_fn runs exactly N times: N - 1 from the top, one from
 * itself. N >= 2. Prints nothing.
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

/* The second thread: one recursive call (two runs), then plain ones. */
static void *
second(void *arg)
{
	(void)arg;
	timed_fn(1);
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

	if (argc != 2 || (n = strtol(argv[1], &end, 10)) < 2 || *end != '\0' || n > 1000000) {
		fputs("usage: timed N (N >= 2)\n", stderr);
		return 2;
	}
	/* N runs: the second thread's calls make second_calls + 1 runs */
	second_calls = (n - 1) / 2;
	first = n - 1 - second_calls;
	if (pthread_create(&t, NULL, second, NULL) != 0)
		return 1;
	for (long i = 0; i < first; i++)
		timed_fn(0);
	pthread_join(t, NULL);
	return 0;
}
