/*
 * shifts: a workload whose counts change at a known time, for the history
 * of the panes other than the profile.
 *
 * Usage: shifts SECONDS SHIFT
 * Until SHIFT seconds after the start ("calm"), each round sleeps 20 ms
 * (one clock_nanosleep taking about 20 ms) and calls shifts_tick once:
 * about 50 rounds a second, no page faults. From SHIFT seconds on
 * ("storm"), each round sleeps 1 ms, calls shifts_tick and writes to 8
 * fresh pages (8 minor page faults): about 800 rounds a second on an idle
 * machine, so the page-fault rate, the context-switch rate, the sleeps'
 * latency (20 ms -> 1 ms), the syscall tracepoints' rate and a probe on
 * shifts_tick's hits all change at SHIFT. Exits after SECONDS.
 * With SHIFTS_PIDFILE set, writes its pid there first (atomically).
 * Prints nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"

#define SHIFTS_PAGES 8

/* Rounds so far: what a probe on shifts_tick counts. */
static volatile unsigned long ticks;

/* Called once a round (the probe's target). */
__attribute__((noinline, noipa)) void shifts_tick(void);
__attribute__((noinline, noipa)) void
shifts_tick(void)
{
	ticks++;
}

/* One write to each of SHIFTS_PAGES fresh pages. */
static void
shifts_fault(long page)
{
	size_t len = (size_t)SHIFTS_PAGES * (size_t)page;
	volatile char *p =
	    mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("shifts: mmap");
		exit(1);
	}
	for (int i = 0; i < SHIFTS_PAGES; i++)
		p[i * page] = 1;
	munmap((void *)p, len);
}

/* Seconds since t0. */
static double
shifts_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

int
main(int argc, char **argv)
{
	const char *pidfile = getenv("SHIFTS_PIDFILE");
	long page = sysconf(_SC_PAGESIZE);
	double secs, shift, t;
	struct timespec t0;
	char *end;

	if (argc != 3 || (secs = strtod(argv[1], &end)) <= 0 || *end != '\0' ||
	    (shift = strtod(argv[2], &end)) < 0 || *end != '\0') {
		fputs("usage: shifts SECONDS SHIFT\n", stderr);
		return 2;
	}
	if (pidfile != NULL)
		driver_pidfile("shifts", pidfile);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((t = shifts_since(&t0)) < secs) {
		struct timespec ts = {0, t < shift ? 20000000 : 1000000};

		nanosleep(&ts, NULL);
		shifts_tick();
		if (t >= shift)
			shifts_fault(page);
	}
	return 0;
}
