/*
 * sleepers: a workload whose syscall latencies are known.
 *
 * Usage: sleepers SLEEPS FAILS [SECONDS]
 * Calls nanosleep(1 ms) SLEEPS times (glibc makes it clock_nanosleep),
 * then open() on a path that does not exist FAILS times (each fails with
 * ENOENT: openat with ret < 0). Then, with SECONDS, idles in 100 ms
 * sleeps for SECONDS more, so that a screen test has time to show its
 * rows. Prints nothing.
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

int
main(int argc, char **argv)
{
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
	for (long i = 0; i < sleeps; i++)
		nanosleep(&ms, NULL);
	for (long i = 0; i < fails; i++)
		if (open("/nonexistent/tracetop-sleepers", O_RDONLY) >= 0)
			return 1;
	for (long i = 0; i < secs * 10; i++)
		nanosleep(&tenth, NULL);
	return 0;
}
