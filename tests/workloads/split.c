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
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
#define SPLIT_FN(name, K)                                                  \
	__attribute__((noinline, noipa, aligned(64))) void name(void);     \
	__attribute__((noinline, noipa, aligned(64))) void name(void)      \
	{                                                                  \
		volatile unsigned long acc = 0;                            \
		for (unsigned long i = 0; i < SPLIT_ITERS; i++)            \
			acc += i ^ (K);                                    \
	}

SPLIT_FN(split_alpha, 0x51UL)
SPLIT_FN(split_beta, 0x52UL)
SPLIT_FN(split_gamma, 0x53UL)

static struct timespec deadline;

/* Succeed once the monotonic clock has passed the deadline. */
static int past_deadline(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline.tv_sec ||
	       (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec);
}

/* Run rounds of the 5:3:2 mix until the deadline. */
static void *run_mix(void *arg)
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
	} while (!past_deadline());
	return NULL;
}

/* Write our pid to PATH through a temporary file and a rename. */
static void write_pidfile(const char *path)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		fprintf(stderr, "split: pidfile path too long\n");
		exit(1);
	}
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0 ||
	    rename(tmp, path) != 0) {
		fprintf(stderr, "split: %s: %s\n", path, strerror(errno));
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
		fprintf(stderr, "usage: split [SECONDS] [THREADS]\n");
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long seconds = argc > 1 ? parse_arg(argv[1], 86400) : 5;
	long threads = argc > 2 ? parse_arg(argv[2], 1024) : 1;
	const char *pidfile = getenv("SPLIT_PIDFILE");
	pthread_t *tids;

	if (argc > 3)
		parse_arg("", 0);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += seconds;

	tids = calloc((size_t)threads, sizeof(*tids));
	if (!tids)
		return 1;
	for (long t = 1; t < threads; t++) {
		int err = pthread_create(&tids[t], NULL, run_mix, NULL);
		if (err) {
			fprintf(stderr, "split: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	if (pidfile && *pidfile)
		write_pidfile(pidfile);
	run_mix(NULL);
	for (long t = 1; t < threads; t++)
		pthread_join(tids[t], NULL);
	free(tids);
	return 0;
}
