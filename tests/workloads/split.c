/*
 * split: a CPU-bound workload with a known profile.
 *
 * CPU time is split across three functions: split_alpha 50 %, split_beta
 * 30 %, split_gamma 20 %. They run the same loop the same number of times
 * per call and are called 5:3:2 times; the driver around them is a few
 * instructions per call and reads the clock once per round (~10 calls,
 * about half a millisecond), so everything else stays far below 1 %.
 *
 * Usage: split [SECONDS] [THREADS]   (default 5 s, 1 thread)
 * With SPLIT_PIDFILE set, writes its pid there once running (atomically).
 * With SPLIT_MIX=A:B:C (calls per round, 1 to 100 each, e.g. 2:3:5 for
 * 20/30/50) the mix is that instead (a diff's second workload).
 * Prints nothing on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "driver.h"

/* Loop iterations per call: long enough that call overhead is noise. */
#define SPLIT_ITERS 100000UL

/*
 * One function of the mix. The accumulator goes through an empty asm each
 * iteration, so the compiler may not fold or vectorise the loop. It stays
 * in a register: a volatile one in memory made each iteration's speed hang
 * on the CPU's prediction of the store and the load, which on some CPUs
 * (this project's CI VMs) costs tens of microseconds more at each switch
 * to another function, and 5 alphas in a row took 47 %, not 50. The
 * constant K differs per function so no two have identical code (no
 * identical-code folding). noipa: no inlining, cloning or merging even at
 * -O2 (user CFLAGS come after the target's -O1). Aligned so the loops sit
 * at the same offset and run at the same speed.
 */
#define SPLIT_FN(name, K)                                                                          \
	__attribute__((noinline, noipa, aligned(64))) void name(void);                             \
	__attribute__((noinline, noipa, aligned(64))) void name(void)                              \
	{                                                                                          \
		unsigned long acc = 0;                                                             \
		for (unsigned long i = 0; i < SPLIT_ITERS; i++) {                                  \
			acc += i ^ (K);                                                            \
			__asm__ volatile("" : "+r"(acc));                                          \
		}                                                                                  \
		__asm__ volatile("" : : "r"(acc));                                                 \
	}

SPLIT_FN(split_alpha, 0x51UL)
SPLIT_FN(split_beta, 0x52UL)
SPLIT_FN(split_gamma, 0x53UL)

/* SPLIT_MIX's calls per round of alpha, beta and gamma; 0: the 5:3:2 mix. */
static unsigned mix[3];

/* Run rounds of SPLIT_MIX's mix until the deadline. */
static void
run_custom(void)
{
	do {
		for (unsigned i = 0; i < mix[0]; i++)
			split_alpha();
		for (unsigned i = 0; i < mix[1]; i++)
			split_beta();
		for (unsigned i = 0; i < mix[2]; i++)
			split_gamma();
	} while (!driver_past_deadline());
}

/* Run rounds of the 5:3:2 mix (or SPLIT_MIX's) until the deadline. */
static void *
run_mix(void *arg)
{
	(void)arg;
	if (mix[0] + mix[1] + mix[2] > 0) {
		run_custom();
		return NULL;
	}
	do {
		split_alpha();
		split_beta();
		split_alpha();
		split_gamma();
		split_alpha();
		split_beta();
		split_alpha();
		split_gamma();
		split_alpha();
		split_beta();
	} while (!driver_past_deadline());
	return NULL;
}

int
main(int argc, char **argv)
{
	const char *m = getenv("SPLIT_MIX");

	if (m != NULL && (sscanf(m, "%u:%u:%u", &mix[0], &mix[1], &mix[2]) != 3 || mix[0] > 100 ||
	                  mix[1] > 100 || mix[2] > 100 || mix[0] + mix[1] + mix[2] == 0)) {
		fprintf(stderr,
		        "split: SPLIT_MIX expects A:B:C, calls per round (0 to 100), got '%s'\n",
		        m);
		return 2;
	}
	driver_start("split", argc, argv, "SPLIT_PIDFILE", run_mix);
	run_mix(NULL);
	driver_join();
	return 0;
}
