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
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
#define CP_LEAF(name, K)                                                   \
	CP_FN unsigned long name(unsigned long n);                         \
	CP_FN unsigned long name(unsigned long n)                          \
	{                                                                  \
		unsigned long acc = n;                                     \
		for (unsigned long i = 0; i < n; i++)                      \
			acc = acc * 31 + (i ^ (K));                        \
		return acc;                                                \
	}

/* A caller: calls CALLEE, then uses its result (no tail call). */
#define CP_CALLER(name, callee, K)                                         \
	CP_FN unsigned long name(unsigned long n);                         \
	CP_FN unsigned long name(unsigned long n)                          \
	{                                                                  \
		unsigned long r = callee(n);                               \
		cp_sink = r;                                               \
		return r + (K);                                            \
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

static struct timespec deadline;

/* Succeed once the monotonic clock has passed the deadline. */
static int past_deadline(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline.tv_sec ||
	       (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec);
}

/* Run rounds of the 5:3:2 mix until the deadline; returns a checksum. */
CP_FN unsigned long cp_run(void);
CP_FN unsigned long cp_run(void)
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
	} while (!past_deadline());
	return sum;
}

/* A thread's start: run the mix (cp_run's result is used, no tail call). */
static void *cp_thread(void *arg)
{
	(void)arg;
	cp_sink = cp_run();
	return NULL;
}

/* Write our pid to PATH through a temporary file and a rename. */
static void write_pidfile(const char *path)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		fprintf(stderr, "callpaths: pidfile path too long\n");
		exit(1);
	}
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0 ||
	    rename(tmp, path) != 0) {
		fprintf(stderr, "callpaths: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* Parse a positive integer argument or exit with a usage message. */
static long parse_arg(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > max) {
		fprintf(stderr, "usage: callpaths [SECONDS] [THREADS]\n");
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long seconds = argc > 1 ? parse_arg(argv[1], 86400) : 5;
	long threads = argc > 2 ? parse_arg(argv[2], 1024) : 1;
	const char *pidfile = getenv("CALLPATHS_PIDFILE");
	pthread_t *tids;

	if (argc > 3)
		parse_arg("", 0);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += seconds;

	tids = calloc((size_t)threads, sizeof(*tids));
	if (!tids)
		return 1;
	for (long t = 1; t < threads; t++) {
		int err = pthread_create(&tids[t], NULL, cp_thread, NULL);
		if (err) {
			fprintf(stderr, "callpaths: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	if (pidfile && *pidfile)
		write_pidfile(pidfile);
	cp_sink = cp_run();
	for (long t = 1; t < threads; t++)
		pthread_join(tids[t], NULL);
	free(tids);
	return 0;
}
