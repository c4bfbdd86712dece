/*
 * counts: a workload whose page-fault and context-switch counts are known.
 *
 * Usage: counts PAGES SWITCHES [wait]
 * Touches PAGES fresh pages of an anonymous private mapping (huge pages
 * off), one write each: PAGES minor page faults. Then sleeps SWITCHES
 * times for 1 ms: SWITCHES voluntary context switches (a sleep that long
 * always blocks: a shorter one may find its timer expired before it gets
 * to schedule). Then exits.
 * With COUNTS_PIDFILE set, writes its pid there first (atomically); with
 * "wait", waits for SIGUSR1 before the work (one more context switch), so
 * that a tracer attached with -p sees all of it. Prints nothing.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"

/* Parse a count argument (0 to max) or exit 2. */
static long
counts_arg(const char *s, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end != '\0' || v < 0 || v > max) {
		fputs("usage: counts PAGES SWITCHES [wait]\n", stderr);
		exit(2);
	}
	return v;
}

/* One write to each of n fresh pages: n minor faults. */
static void
touch_pages(long n)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(n > 0 ? n : 1) * (size_t)page;
	volatile char *p =
	    mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("counts: mmap");
		exit(1);
	}
	madvise((void *)p, len, MADV_NOHUGEPAGE); /* one fault per page, not per 2 MiB */
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	munmap((void *)p, len);
}

/* n short sleeps: n voluntary context switches. */
static void
switch_out(long n)
{
	struct timespec ts = {0, 1000000};

	for (long i = 0; i < n; i++)
		nanosleep(&ts, NULL);
}

int
main(int argc, char **argv)
{
	const char *pidfile = getenv("COUNTS_PIDFILE");
	long pages, switches;
	sigset_t usr1;

	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "wait") != 0))
		counts_arg("", 0);
	pages = counts_arg(argv[1], 1L << 22);
	switches = counts_arg(argv[2], 1L << 20);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	if (pidfile != NULL && *pidfile != '\0')
		driver_pidfile("counts", pidfile);
	if (argc == 4) {
		int sig;

		sigwait(&usr1, &sig);
	}
	touch_pages(pages);
	switch_out(switches);
	return 0;
}
