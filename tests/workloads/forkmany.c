/*
 * forkmany: many processes of one command running the same function, like
 * the backends of a database server or the workers of a web server.
 *
 * The parent forks N children (default 500) and waits; each child runs
 * fm_work for about a millisecond, sleeps about 200 ms, and so on until
 * the deadline, so the N together keep about N/200 ms per second of CPU
 * busy (2.5 CPUs' worth would be too much for a shared machine: 500
 * children take half a CPU). A profile grouped by command shows fm_work
 * as one row; one grouped by pid spreads it over the children.
 *
 * Usage: forkmany [SECONDS] [N]   (default 5 s, 500 children)
 * With FORKMANY_PIDFILE set, writes the parent's pid there. Children die with the parent
 * (PR_SET_PDEATHSIG).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"

/* Loop iterations per burst: about a millisecond. */
#define FM_ITERS 300000UL

/* The function every child runs: a loop the compiler must keep. */
__attribute__((noinline, noipa)) void fm_work(void);
__attribute__((noinline, noipa)) void
fm_work(void)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < FM_ITERS; i++)
		acc += i ^ 0x5aUL;
}

/* A child: bursts of fm_work and sleeps until the deadline; the first
 * sleep is staggered so the children do not run in lockstep. */
static void
child(unsigned i)
{
	struct timespec nap = {0, 200 * 1000 * 1000};
	struct timespec first = {0, (long)(i % 200) * 1000 * 1000};

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(0);
	nanosleep(&first, NULL);
	do {
		fm_work();
		nanosleep(&nap, NULL);
	} while (!driver_past_deadline());
	_exit(0);
}

int
main(int argc, char **argv)
{
	char *secs[] = {argv[0], argc > 1 ? argv[1] : "5", NULL};
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 500;

	if (n < 1 || n > 100000) {
		fprintf(stderr, "forkmany: N must be 1 to 100000\n");
		return 2;
	}
	driver_start("forkmany", 2, secs, "FORKMANY_PIDFILE", NULL);
	for (long i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0) {
			perror("forkmany: fork");
			break;
		}
		if (p == 0)
			child((unsigned)i);
	}
	while (wait(NULL) > 0)
		;
	return 0;
}
