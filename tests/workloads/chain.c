/*
 * chain: a CPU-bound workload with one known call chain,
 *
 *	main -> chain_outer -> chain_middle -> chain_leaf
 *
 * where chain_leaf, which takes nearly all the time, is a frameless leaf:
 * built with -O2 -fomit-frame-pointer it is a register-only loop with no
 * calls, so GCC emits no frame set-up and a frame-pointer walk skips
 * chain_middle. DWARF unwinding must recover every caller. Each caller
 * uses its callee's result after the call, so no call is a tail call.
 *
 * Usage: chain [SECONDS]   (default 5)
 * With CHAIN_PIDFILE set, writes its pid there once running (atomically).
 * Prints nothing on stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Loop iterations per leaf call: long enough that the callers are noise. */
#define CHAIN_ITERS 200000UL

/* No inlining, cloning or merging across the chain (clang has no noipa). */
#ifdef __clang__
#define CHAIN_FN __attribute__((noinline))
#else
#define CHAIN_FN __attribute__((noinline, noipa))
#endif

/* Results land here so nothing is optimized away. */
volatile unsigned long chain_sink;

unsigned long chain_leaf(unsigned long n);
unsigned long chain_middle(unsigned long n);
unsigned long chain_outer(unsigned long n);

/* The frameless leaf: a dependent multiply-add chain in registers. */
CHAIN_FN unsigned long
chain_leaf(unsigned long n)
{
	unsigned long acc = n;

	for (unsigned long i = 0; i < n; i++)
		acc = acc * 31 + (i ^ 0x5a);
	return acc;
}

/* The leaf's caller, which the frame-pointer walk loses. */
CHAIN_FN unsigned long
chain_middle(unsigned long n)
{
	unsigned long r = chain_leaf(n);

	chain_sink = r;
	return r ^ n;
}

/* The middle's caller. */
CHAIN_FN unsigned long
chain_outer(unsigned long n)
{
	unsigned long r = chain_middle(n);

	chain_sink = r;
	return r + 1;
}

/* Write our pid to path through a temporary file and a rename. */
static void
write_pidfile(const char *path)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
		fprintf(stderr, "chain: pidfile path too long\n");
		exit(1);
	}
	f = fopen(tmp, "w");
	if (f == NULL || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0 ||
	    rename(tmp, path) != 0) {
		fprintf(stderr, "chain: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* Run the chain until SECONDS have passed. */
int
main(int argc, char **argv)
{
	const char *pidfile = getenv("CHAIN_PIDFILE");
	struct timespec now, end;
	long seconds = 5;
	char *stop;

	if (argc > 2 || (argc == 2 && ((seconds = strtol(argv[1], &stop, 10)) < 1 ||
	                               seconds > 86400 || *stop != '\0'))) {
		fprintf(stderr, "usage: chain [SECONDS]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	if (pidfile != NULL)
		write_pidfile(pidfile);
	do {
		chain_sink = chain_outer(CHAIN_ITERS);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec ||
	         (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	return 0;
}
