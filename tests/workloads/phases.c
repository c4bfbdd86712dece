/*
 * phases: a CPU-bound workload whose hot function changes every 3 s:
 * phase_one for the first 3 s, phase_two for the next 3, then phase_one
 * again, and so on; nothing else takes a measurable share. Each phase
 * begins at a whole multiple of 3 s after the start, so a profile of any
 * second tells which phase ran in it.
 *
 * Usage: phases [SECONDS] [THREADS]   (default 5 s, 1 thread)
 * With PHASES_PIDFILE set, writes its pid there once running.
 * Prints nothing on stdout.
 */
#include <time.h>

#include "driver.h"

#define PHASE_SECS 3
#define PHASE_ITERS 100000UL

/* One phase's function: the same loop with a different constant. */
#define PHASE_FN(name, K)                                                                          \
	__attribute__((noinline, noipa, aligned(64))) void name(void);                             \
	__attribute__((noinline, noipa, aligned(64))) void name(void)                              \
	{                                                                                          \
		volatile unsigned long acc = 0;                                                    \
		for (unsigned long i = 0; i < PHASE_ITERS; i++)                                    \
			acc += i ^ (K);                                                            \
	}

PHASE_FN(phase_one, 0x61UL)
PHASE_FN(phase_two, 0x62UL)

static struct timespec start;

/* Seconds since the start. */
static double
elapsed(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
}

/* Run the phase of the moment until the deadline. */
static void *
run_phases(void *arg)
{
	(void)arg;
	do {
		if ((long)(elapsed() / PHASE_SECS) % 2 == 0)
			phase_one();
		else
			phase_two();
	} while (!driver_past_deadline());
	return NULL;
}

int
main(int argc, char **argv)
{
	clock_gettime(CLOCK_MONOTONIC, &start);
	driver_start("phases", argc, argv, "PHASES_PIDFILE", run_phases);
	run_phases(NULL);
	driver_join();
	return 0;
}
