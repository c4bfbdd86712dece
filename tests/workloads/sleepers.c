/*
 * sleepers: a workload whose syscall latencies are known.
 *
 * Usage: sleepers SLEEPS FAILS [SECONDS]
 * Calls nanosleep(1 ms) SLEEPS times (glibc makes it clock_nanosleep),
 * then open() on a path that does not exist FAILS times (each fails with
 * ENOENT: openat with ret < 0). Then, with SECONDS, idles in 100 ms
 * sleeps for SECONDS more, so that a screen test has time to show its
 * rows. Prints nothing. With SLEEPERS_TIMES=FILE, writes there how long
 * each 1 ms sleep took by its own clock (ns, one a line, after the failing
 * opens): what a loaded machine made of them, for a test to compare.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Parse a count argument or exit 2. */
static long
sleepers_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end != '\0' || v < 0 || v > 1000000) {
		fputs("usage: sleepers SLEEPS FAILS [SECONDS]\n", stderr);
		exit(2);
	}
	return v;
}

/* Nanoseconds of CLOCK_MONOTONIC (the vDSO's: no syscall to count). */
static long long
sleepers_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Write the n durations to path, or exit 1. */
static void
sleepers_write(const char *path, const long long *took, long n)
{
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		perror(path);
		exit(1);
	}
	for (long i = 0; i < n; i++)
		fprintf(f, "%lld\n", took[i]);
	if (fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	const char *times = getenv("SLEEPERS_TIMES");
	long long *took;
	struct timespec ms = {0, 1000000}, tenth = {0, 100000000};
	long sleeps, fails, secs = 0;

	if (argc < 3 || argc > 4) {
		fputs("usage: sleepers SLEEPS FAILS [SECONDS]\n", stderr);
		return 2;
	}
	sleeps = sleepers_arg(argv[1]);
	fails = sleepers_arg(argv[2]);
	if (argc == 4)
		secs = sleepers_arg(argv[3]);
	took = calloc((size_t)sleeps + 1, sizeof *took);
	if (took == NULL)
		return 1;
	for (long i = 0; i < sleeps; i++) {
		long long t0 = sleepers_now();

		nanosleep(&ms, NULL);
		took[i] = sleepers_now() - t0;
	}
	for (long i = 0; i < fails; i++)
		if (open("/nonexistent/tracetop-sleepers", O_RDONLY) >= 0)
			return 1;
	if (times != NULL)
		sleepers_write(times, took, sleeps);
	free(took);
	for (long i = 0; i < secs * 10; i++)
		nanosleep(&tenth, NULL);
	return 0;
}
