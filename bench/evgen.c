/* evgen: a load of tracepoint events at a set rate, for bench/trace.sh.
 * Calls getppid() (one syscalls:sys_enter_getppid event each) RATE times
 * per second for SECONDS, in 1 ms slices, then prints how many calls it
 * made: the number of events a tracer should have seen.
 * Usage: evgen RATE SECONDS */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Monotonic nanoseconds. */
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
	double rate = argc > 1 ? atof(argv[1]) : 10000;
	double secs = argc > 2 ? atof(argv[2]) : 5;
	long long start = now_ns(), end = start + (long long)(secs * 1e9), done = 0, t;

	/* each 1 ms slice catches up to rate * elapsed calls, then sleeps */
	while ((t = now_ns()) < end) {
		long long due = (long long)((double)(t - start) * rate / 1e9);

		while (done < due) {
			syscall(SYS_getppid);
			done++;
		}
		usleep(1000);
	}
	printf("%lld\n", done);
	return 0;
}
