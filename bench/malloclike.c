/*
 * malloclike: a malloc-like function called at a set rate, for the
 * function latency benchmark (bench/latency.sh).
 *
 * Usage: malloclike RATE SECONDS
 * Calls lat_fn (a small malloc, a write to it, a free) RATE times a
 * second for SECONDS, paced against the clock in batches of 100 calls
 * (it sleeps when ahead, so a slower call shows as CPU time, not as
 * fewer calls unless it cannot keep up). Prints the calls made and its
 * own CPU seconds: "calls N cpu S".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static volatile unsigned long sink;

/* The timed function: what a small allocation costs. */
__attribute__((noinline)) void *
lat_fn(size_t n)
{
	char *p = malloc(n);

	if (p != NULL) {
		memset(p, (int)n, n);
		sink += (unsigned char)p[n / 2];
		free(p);
	}
	__asm__ volatile("" ::: "memory"); /* not a tail call: the return is probed */
	return p;
}

/* Nanoseconds of the monotonic clock. */
static unsigned long long
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	unsigned long long start, total, calls = 0;
	double rate, secs;
	struct rusage ru;

	if (argc != 3 || (rate = atof(argv[1])) <= 0 || (secs = atof(argv[2])) <= 0) {
		fputs("usage: malloclike RATE SECONDS\n", stderr);
		return 2;
	}
	total = (unsigned long long)(rate * secs);
	start = now();
	while (calls < total) {
		unsigned long long due = start + (unsigned long long)((double)calls * 1e9 / rate),
		                   t;

		if ((t = now()) < due) {
			struct timespec ts = {0, (long)(due - t)};

			nanosleep(&ts, NULL);
		}
		for (int i = 0; i < 100 && calls < total; i++, calls++)
			lat_fn(16 + (calls & 63));
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("calls %llu cpu %.3f\n", calls,
	       (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	           ru.ru_stime.tv_usec / 1e6);
	return 0;
}
