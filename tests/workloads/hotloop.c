/*
 * hotloop: all of one function's time in one tight loop, for annotation.
 *
 * hot_loop_fn runs a loop whose every iteration depends on the last (no
 * vectorizing, no folding) HOTLOOP_ITERS times per call; the driver around
 * it calls it back to back and reads the clock once per call, so nearly
 * every sample of the program lands in that loop's few instructions.
 * Built with -g (hotloop) and without debug info (hotloop-nodebug); built
 * with -DHOTLOOP_LIB (hotlib) it calls hot_lib_fn of libhot.so instead.
 *
 * Usage: hotloop [SECONDS] [THREADS]   (default 5 s, 1 thread)
 * With HOTLOOP_PIDFILE (hotlib: HOTLIB_PIDFILE) set, writes its pid there
 * once running.
 */
#include "driver.h"

/* Iterations per call: about a millisecond of work. */
#define HOTLOOP_ITERS 1000000UL

#ifdef HOTLOOP_LIB
#define HOTLOOP_NAME "hotlib"
#define HOTLOOP_PIDFILE "HOTLIB_PIDFILE"
#define HOTLOOP_FN hot_lib_fn
unsigned long hot_lib_fn(unsigned long n);
#else
#define HOTLOOP_NAME "hotloop"
#define HOTLOOP_PIDFILE "HOTLOOP_PIDFILE"
#define HOTLOOP_FN hot_loop_fn

/* The hot function: nothing but the loop. */
__attribute__((noinline, noipa)) unsigned long hot_loop_fn(unsigned long n);
__attribute__((noinline, noipa)) unsigned long
hot_loop_fn(unsigned long n)
{
	unsigned long acc = 1;

	for (unsigned long i = 0; i < n; i++)
		acc += (i * 7) ^ (acc >> 3);
	return acc;
}
#endif

volatile unsigned long hotloop_sink;

/* Call the hot function until the deadline. */
static void *
run(void *arg)
{
	(void)arg;
	do
		hotloop_sink = HOTLOOP_FN(HOTLOOP_ITERS);
	while (!driver_past_deadline());
	return 0;
}

int
main(int argc, char **argv)
{
	driver_start(HOTLOOP_NAME, argc, argv, HOTLOOP_PIDFILE, run);
	run(0);
	driver_join();
	return 0;
}
