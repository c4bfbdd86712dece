/*
 * wakers: the shared harness's workload with N more processes that each
 * wake once a second (bench/run.sh WORKLOAD=procs).
 *
 *   usage: wakers ARGS...   (the workload's own arguments)
 *
 * Forks WAKERS (env, default 2000) children named "waker", each waking
 * once a second at its own phase (spread evenly over the second), doing a
 * little work and sleeping again, then execs workload.cpu (beside it)
 * with the same arguments: the harness measures that program as ever,
 * while a profiler sees 2,000 more processes that run briefly every
 * second. The children die with it (PR_SET_PDEATHSIG).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t sink;

/* A child's life: wake at phase + k seconds, spin a little, until killed. */
static void
waker(long i, long n)
{
	struct timespec t;
	uint64_t x = (uint64_t)i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, "waker");
	if (getppid() == 1)
		_exit(0);
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec = (long)(1000000000LL * i / n);
	for (;;) {
		t.tv_sec++;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
		for (int k = 0; k < 20000; k++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		sink = x;
	}
}

int
main(int argc, char **argv)
{
	const char *env = getenv("WAKERS");
	long n = env != NULL ? atol(env) : 2000;
	char path[4096];
	const char *slash = strrchr(argv[0], '/');

	(void)argc;
	for (long i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0)
			waker(i, n);
		if (p < 0) {
			perror("wakers: fork");
			break;
		}
	}
	snprintf(path, sizeof path, "%.*sworkload.cpu", slash ? (int)(slash - argv[0] + 1) : 0,
	         argv[0]);
	argv[0] = path;
	execv(path, argv);
	perror("wakers: exec workload.cpu");
	return 1;
}
