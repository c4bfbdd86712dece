/*
 * evilcomm: a process whose name is hostile to terminals.
 *
 * Sets its thread name (comm) to EVIL_COMM below: an ESC colour sequence
 * and a newline, within the 15 bytes the kernel keeps. Then spins on the
 * CPU in evil_spin() so that profilers see it.
 *
 * Usage: evilcomm [SECONDS]   (default 5 s)
 * With EVIL_PIDFILE set, writes its pid there once renamed (atomically).
 * Prints nothing on stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* 'e' 'v' ESC '[' '3' '1' 'm' 'i' 'l' '\n' 'x': 11 bytes. */
#define EVIL_COMM "ev\x1b[31mil\nx"

/* Burn about a millisecond of CPU time. */
__attribute__((noinline, noipa)) void evil_spin(void);
__attribute__((noinline, noipa)) void
evil_spin(void)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < 500000UL; i++)
		acc += i;
}

/* Write our pid to PATH through a temporary file and a rename. */
static void
write_pidfile(const char *path)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		fprintf(stderr, "evilcomm: pidfile path too long\n");
		exit(1);
	}
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0 ||
	    rename(tmp, path) != 0) {
		fprintf(stderr, "evilcomm: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	long seconds = 5;
	const char *pidfile = getenv("EVIL_PIDFILE");
	struct timespec end, now;

	if (argc > 1) {
		char *e;
		seconds = strtol(argv[1], &e, 10);
		if (e == argv[1] || *e || seconds < 1 || seconds > 86400) {
			fprintf(stderr, "usage: evilcomm [SECONDS]\n");
			return 2;
		}
	}
	if (prctl(PR_SET_NAME, EVIL_COMM, 0, 0, 0) != 0) {
		fprintf(stderr, "evilcomm: prctl: %s\n", strerror(errno));
		return 1;
	}
	if (pidfile && *pidfile)
		write_pidfile(pidfile);

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	do {
		evil_spin();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec ||
	         (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	return 0;
}
