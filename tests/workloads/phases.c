/*
 * phases: a CPU-bound workload whose hot function changes every 3 s:
 * phase_one for the first 3 s, phase_two for the next 3, then phase_one
 * again, and so on; nothing else takes a measurable share. Each phase
 * begins at a whole multiple of 3 s after the start, so a profile of any
 * second tells which phase ran in it.
 *
 * Usage: phases [SECONDS] [THREADS]   (default 5 s, 1 thread)
 * With PHASES_PIDFILE set, writes its pid there once running; with
 * PHASES_COUNTS set, writes there at the end how many times each function
 * ran ("phase_one N" and "phase_two N" lines): their CPU shares, whatever
 * the machine's load did to the phases' lengths. Prints nothing on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
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
static unsigned long calls[2]; /* of phase_one and phase_two, all threads */

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
	unsigned long n[2] = {0, 0};

	(void)arg;
	do {
		if ((long)(elapsed() / PHASE_SECS) % 2 == 0) {
			phase_one();
			n[0]++;
		} else {
			phase_two();
			n[1]++;
		}
	} while (!driver_past_deadline());
	__atomic_fetch_add(&calls[0], n[0], __ATOMIC_RELAXED);
	__atomic_fetch_add(&calls[1], n[1], __ATOMIC_RELAXED);
	return NULL;
}

int
main(int argc, char **argv)
{
	const char *counts = getenv("PHASES_COUNTS");
	FILE *f;

	clock_gettime(CLOCK_MONOTONIC, &start);
	driver_start("phases", argc, argv, "PHASES_PIDFILE", run_phases);
	run_phases(NULL);
	driver_join();
	if (counts != NULL) {
		if ((f = fopen(counts, "w")) == NULL)
			return 1;
		fprintf(f, "phase_one %lu\nphase_two %lu\n", calls[0], calls[1]);
		fclose(f);
	}
	return 0;
}
