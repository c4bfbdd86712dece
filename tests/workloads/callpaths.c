/*
 * callpaths: a CPU-bound workload with a known call tree,
 *
 *	main or thread -> cp_run -> cp_alpha -> cp_alpha_mid -> cp_alpha_leaf
 *	                         -> cp_beta  -> cp_beta_mid  -> cp_beta_leaf
 *	                         -> cp_gamma -> cp_gamma_mid -> cp_gamma_leaf
 *
 * cp_run calls cp_alpha, cp_beta and cp_gamma 5:3:2 times per round. The
 * three leaves run the same loop for the same number of iterations (only
 * their constant differs), so self time splits 50/30/20 among the leaves,
 * every function on a path has children equal to its path's share, and
 * cp_run is on ~100 % of the stacks. The callers are a few instructions
 * per call and the clock is read once per round (10 leaf calls, about a
 * millisecond), so everything else stays far below 1 %.
 *
 * Each leaf is a register-only loop with no calls: at -O2 GCC gives it no
 * frame set-up, even with -fno-omit-frame-pointer, so a plain
 * frame-pointer walk skips its caller (cp_X_mid) and shows cp_X calling
 * the leaf directly. Built with -fomit-frame-pointer no function has a
 * frame and only DWARF unwinding recovers the callers. Every caller uses
 * its callee's result after the call, so no call is a tail call.
 *
 * Usage: callpaths [SECONDS] [THREADS]   (default 5 s, 1 thread)
 * With CALLPATHS_PIDFILE set, writes its pid there once running
 * (atomically). Prints nothing on stdout.
 */
#include <unistd.h>

#include "driver.h"

/* Loop iterations per leaf call: long enough that the callers are noise. */
#define CP_ITERS 100000UL

/*
 * No inlining, cloning or merging anywhere in the tree (clang has no
 * noipa). Aligned so the three leaf loops sit at the same offset and run
 * at the same speed.
 */
#ifdef __clang__
#define CP_FN __attribute__((noinline, aligned(64)))
#else
#define CP_FN __attribute__((noinline, noipa, aligned(64)))
#endif

/* Results land here so nothing is optimized away. */
volatile unsigned long cp_sink;

/*
 * A frameless leaf: a dependent multiply-add chain in registers. K differs
 * per leaf, so no two leaves are identical code; it stays below 0x80 so
 * the leaves encode to the same length and differ in one byte only.
 */
#define CP_LEAF(name, K)                                                                           \
	CP_FN unsigned long name(unsigned long n);                                                 \
	CP_FN unsigned long name(unsigned long n)                                                  \
	{                                                                                          \
		unsigned long acc = n;                                                             \
		for (unsigned long i = 0; i < n; i++)                                              \
			acc = acc * 31 + (i ^ (K));                                                \
		return acc;                                                                        \
	}

/* A caller: calls CALLEE, then uses its result (no tail call). */
#define CP_CALLER(name, callee, K)                                                                 \
	CP_FN unsigned long name(unsigned long n);                                                 \
	CP_FN unsigned long name(unsigned long n)                                                  \
	{                                                                                          \
		unsigned long r = callee(n);                                                       \
		cp_sink = r;                                                                       \
		return r + (K);                                                                    \
	}

CP_LEAF(cp_alpha_leaf, 0x51UL)
CP_LEAF(cp_beta_leaf, 0x52UL)
CP_LEAF(cp_gamma_leaf, 0x53UL)

CP_CALLER(cp_alpha_mid, cp_alpha_leaf, 1)
CP_CALLER(cp_beta_mid, cp_beta_leaf, 2)
CP_CALLER(cp_gamma_mid, cp_gamma_leaf, 3)

CP_CALLER(cp_alpha, cp_alpha_mid, 4)
CP_CALLER(cp_beta, cp_beta_mid, 5)
CP_CALLER(cp_gamma, cp_gamma_mid, 6)

/* Run rounds of the 5:3:2 mix until the deadline; returns a checksum. */
CP_FN unsigned long cp_run(void);
CP_FN unsigned long
cp_run(void)
{
	unsigned long sum = 0;

	do {
		sum += cp_alpha(CP_ITERS);
		sum += cp_beta(CP_ITERS);
		sum += cp_alpha(CP_ITERS);
		sum += cp_gamma(CP_ITERS);
		sum += cp_alpha(CP_ITERS);
		sum += cp_beta(CP_ITERS);
		sum += cp_alpha(CP_ITERS);
		sum += cp_gamma(CP_ITERS);
		sum += cp_alpha(CP_ITERS);
		sum += cp_beta(CP_ITERS);
	} while (!driver_past_deadline());
	return sum;
}

/* A thread's start: run the mix (cp_run's result is used, no tail call). */
static void *
cp_thread(void *arg)
{
	(void)arg;
	cp_sink = cp_run();
	return NULL;
}

int
main(int argc, char **argv)
{
	driver_start("callpaths", argc, argv, "CALLPATHS_PIDFILE", cp_thread);
	cp_sink = cp_run();
	driver_join();
	return 0;
}
