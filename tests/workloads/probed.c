/*
 * probed: a function called exactly N times with known arguments and
 * return values, for probe tests.
 *
 * Usage: probed N [wait]
 * Calls probed_fn(i, 3 * i, "probed-string") for i = 0 .. N-1; each call
 * returns i + 7. probed_data is a data symbol (for the "not code" test).
 * With PROBED_PIDFILE set, writes its pid there first (atomically); with
 * "wait", waits for SIGUSR1 before the calls, so that a tracer attached
 * with -p sees all of them. Prints the sum of the return values.
 * Built with -g (and the configured optimization).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

int probed_data = 42;

/* The probed function: a + 7, after looking at its other arguments. */
__attribute__((noinline)) int
probed_fn(int a, long b, const char *s)
{
	int local = a + 7;

	if (b != 3L * a || s[0] != 'p')
		local = -1;
	probed_data += (int)(b & 1);
	return local;
}

/* Called through this pointer: no clone of probed_fn specialised for the
 * call site takes its calls. */
int (*volatile probed_call)(int, long, const char *) = probed_fn;

int
main(int argc, char **argv)
{
	const char *pidfile = getenv("PROBED_PIDFILE");
	long n, sum = 0;
	char *end;
	sigset_t usr1;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "wait") != 0) ||
	    (n = strtol(argv[1], &end, 10)) < 0 || *end != '\0' || end == argv[1]) {
		fputs("usage: probed N [wait]\n", stderr);
		return 2;
	}
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	if (pidfile != NULL && *pidfile != '\0')
		driver_pidfile("probed", pidfile);
	if (argc == 3) {
		int sig;

		sigwait(&usr1, &sig);
	}
	for (long i = 0; i < n; i++)
		sum += probed_call((int)i, 3 * i, "probed-string");
	printf("%ld\n", sum);
	return 0;
}
