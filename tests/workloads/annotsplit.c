/*
 * annotsplit: one function, two hot loops, and which one runs is chosen
 * per process: so a function's annotation tells whose samples it shows.
 *
 * split_fn runs its first loop when ANNOTSPLIT_LOOP is "first" (the
 * default) and its second when it is "second"; each loop's every
 * iteration depends on the last, and each sits on a source line of its
 * own ("split: first loop", "split: second loop"), so with -g every
 * sample of a process lands under one of those two lines. Tests run
 * copies of the binary under two names to get two commands.
 *
 * Usage: annotsplit [SECONDS] [THREADS]   (default 5 s, 1 thread)
 * With ANNOTSPLIT_PIDFILE set, writes its pid there once running.
 */
#include <stdlib.h>
#include <string.h>

#include "driver.h"

/* Iterations per call: about a millisecond of work. */
#define SPLIT_ITERS 1000000UL

static int second;

/* The function both kinds of process run. */
__attribute__((noinline, noipa)) unsigned long split_fn(int which, unsigned long n);
__attribute__((noinline, noipa)) unsigned long
split_fn(int which, unsigned long n)
{
	unsigned long acc = 1;

	/* each loop stays on one source line: its samples fall under it */
	// clang-format off
	if (!which)
		for (unsigned long i = 0; i < n; i++) acc += (i * 7) ^ (acc >> 3); /* split: first loop */
	else
		for (unsigned long i = 0; i < n; i++) acc = acc * 3 + (i ^ (acc >> 5)); /* split: second loop */
	// clang-format on
	return acc;
}

volatile unsigned long annotsplit_sink;

/* Call the function until the deadline. */
static void *
run(void *arg)
{
	(void)arg;
	do
		annotsplit_sink = split_fn(second, SPLIT_ITERS);
	while (!driver_past_deadline());
	return 0;
}

int
main(int argc, char **argv)
{
	const char *loop = getenv("ANNOTSPLIT_LOOP");

	second = loop != NULL && strcmp(loop, "second") == 0;
	driver_start("annotsplit", argc, argv, "ANNOTSPLIT_PIDFILE", run);
	run(0);
	driver_join();
	return 0;
}
