/*
 * split: a CPU-bound workload with a known profile.
 *
 * CPU time is split across three functions: split_alpha 50 %, split_beta
 * 30 %, split_gamma 20 %. They run the same loop the same number of times
 * per call and are called 5:3:2 times; the driver around them is a few
 * instructions per call and reads the clock once per round (~10 calls,
 * about a millisecond), so everything else stays far below 1 %.
 *
 * Usage: split [SECONDS] [THREADS]   (default 5 s, 1 thread)
 * With SPLIT_PIDFILE set, writes its pid there once running (atomically).
 * Prints nothing on stdout.
 */
#include <unistd.h>

#include "driver.h"

/* Loop iterations per call: long enough that call overhead is noise. */
#define SPLIT_ITERS 100000UL

/*
 * One function of the mix. The loop keeps a volatile accumulator, so each
 * iteration does a load and a store the compiler may not remove. The
 * constant K differs per function so no two have identical code (no
 * identical-code folding). noipa: no inlining, cloning or merging even at
 * -O2 (user CFLAGS come after the target's -O1). Aligned so the loops sit
 * at the same offset and run at the same speed.
 */
#define SPLIT_FN(name, K)                                                                          \
	__attribute__((noinline, noipa, aligned(64))) void name(void);                             \
	__attribute__((noinline, noipa, aligned(64))) void name(void)                              \
	{                                                                                          \
		volatile unsigned long acc = 0;                                                    \
		for (unsigned long i = 0; i < SPLIT_ITERS; i++)                                    \
			acc += i ^ (K);                                                            \
	}

SPLIT_FN(split_alpha, 0x51UL)
SPLIT_FN(split_beta, 0x52UL)
SPLIT_FN(split_gamma, 0x53UL)

/* Run rounds of the 5:3:2 mix until the deadline. */
static void *
run_mix(void *arg)
{
	(void)arg;
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
	driver_start("split", argc, argv, "SPLIT_PIDFILE", run_mix);
	run_mix(NULL);
	driver_join();
	return 0;
}
