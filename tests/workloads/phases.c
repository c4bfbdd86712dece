/*
 * phases: a CPU-bound workload whose hot function changes every 3 s:
 * phase_one for the first 3 s, phase_two for the next 3, then phase_one
 * again, and so on; nothing else takes a measurable share. Each phase
 * begins at a whole multiple of 3 s after the start, so a profile of any
 * second tells which phase ran in it.
 *
 * Usage: phases [SECONDS] [THREADS]   (default 5 s, 1 thread)
 * With PHASES_PIDFILE set, writes its pid there once running; with
 * PHASES_COUNTS set, writes there at the end the CPU time each function
 * had, in microseconds of the threads' own CPU clocks ("phase_one N" and
 * "phase_two N" lines): their CPU shares, whatever the machine's load did
 * to the phases' lengths or to a call's speed (calls counted instead once
 * missed a sampled share by 5 points on a loaded CI machine). Prints
 * nothing on stdout.
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
static unsigned long cpu_us[2]; /* of phase_one and phase_two, all threads */

/* Seconds since the start. */
static double
elapsed(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
}

/* This thread's CPU time in nanoseconds. */
static unsigned long long
thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/* Run the phase of the moment until the deadline, charging each call's CPU
 * time to its phase (a call is ~100 us; the clock reads cost well under 1 %). */
static void *
run_phases(void *arg)
{
	unsigned long long ns[2] = {0, 0}, t0;
	int phase;

	(void)arg;
	do {
		phase = (long)(elapsed() / PHASE_SECS) % 2;
		t0 = thread_cpu_ns();
		if (phase == 0)
			phase_one();
		else
			phase_two();
		ns[phase] += thread_cpu_ns() - t0;
	} while (!driver_past_deadline());
	__atomic_fetch_add(&cpu_us[0], (unsigned long)(ns[0] / 1000), __ATOMIC_RELAXED);
	__atomic_fetch_add(&cpu_us[1], (unsigned long)(ns[1] / 1000), __ATOMIC_RELAXED);
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
		fprintf(f, "phase_one %lu\nphase_two %lu\n", cpu_us[0], cpu_us[1]);
		fclose(f);
	}
	return 0;
}
