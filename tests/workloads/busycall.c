/*
 * busycall: one function called at a steady, high rate, for a busy probe.
 *
 * bc_hit is an empty call made RATE times per second (default 200000) in
 * batches of 1000, the batch's deadline kept by sleeping when ahead: a
 * uprobe on it sees about RATE hits per second (fewer only when a hit
 * costs so much that the loop falls behind).
 *
 * With BUSYCALL_SYSCALL=1 each call also makes a getppid system call, so
 * the tracepoint syscalls:sys_enter_getppid sees RATE hits per second
 * too (a tracepoint's hit costs little: the rate holds at 150,000 and
 * more where a uprobe's trap cannot).
 *
 * Usage: busycall [SECONDS] [RATE]   (default 60 s, 200000 calls/s)
 * With BUSYCALL_PIDFILE set, writes its pid there once running.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"

/* Calls between two looks at the clock. */
#define BC_BATCH 1000

static int bc_syscall; /* BUSYCALL_SYSCALL: each call makes a system call */

/* The probed function: nothing but a call the compiler must make (and,
 * with BUSYCALL_SYSCALL, the system call a tracepoint sees). */
__attribute__((noinline, noipa)) void bc_hit(void);
__attribute__((noinline, noipa)) void
bc_hit(void)
{
	__asm__ volatile("" ::: "memory");
	if (bc_syscall)
		syscall(SYS_getppid);
}

/* Nanoseconds on the monotonic clock. */
static long long
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	char *secs[] = {argv[0], argc > 1 ? argv[1] : "60", NULL};
	long rate = argc > 2 ? strtol(argv[2], NULL, 10) : 200000;
	long long next, step;

	if (rate < BC_BATCH || rate > 100000000) {
		fprintf(stderr, "busycall: RATE must be %d to 100000000\n", BC_BATCH);
		return 2;
	}
	bc_syscall = getenv("BUSYCALL_SYSCALL") != NULL && atoi(getenv("BUSYCALL_SYSCALL")) != 0;
	driver_start("busycall", 2, secs, "BUSYCALL_PIDFILE", NULL);
	step = 1000000000LL * BC_BATCH / rate;
	next = now_ns();
	do {
		for (int i = 0; i < BC_BATCH; i++)
			bc_hit();
		next += step;
		long long ahead = next - now_ns();

		if (ahead > 0) {
			struct timespec ts = {ahead / 1000000000LL, ahead % 1000000000LL};

			nanosleep(&ts, NULL);
		} else if (ahead < -100000000LL) {
			next = now_ns(); /* fell behind by 100 ms: do not try to catch up */
		}
	} while (!driver_past_deadline());
	return 0;
}
