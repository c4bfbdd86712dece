/* sysbench: the system source's refresh cost, read and parse only (no
 * report): system_tick then system_snapshot, N times, on this machine's
 * /proc, with and without the process table; prints the CPU time (user +
 * system, getrusage) and wall time per refresh and what one refresh saw.
 * Built and run by bench/system.sh against the build's libtracetop.a:
 *
 *   cc -O2 -Ibuild -Iinclude bench/sysbench.c build/libtracetop.a -lm -o sysbench
 *   ./sysbench 200
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "tracetop/system.h"
#include "tracetop/util.h"

/* CPU seconds this process used so far. */
static double
cpu_secs(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* n refreshes of a source reading processes or not; prints one line. */
static void
run(long n, bool procs)
{
	struct system_opts o = {.procs = procs};
	struct frame_system fs = {0};
	struct system *s = system_new(&o);
	double c0, w0;

	for (int i = 0; i < 2; i++) { /* warm: every array at its size */
		system_tick(s);
		system_snapshot(s, &fs, true);
	}
	c0 = cpu_secs();
	w0 = (double)now_ns() / 1e9;
	for (long i = 0; i < n; i++) {
		system_tick(s);
		system_snapshot(s, &fs, true);
	}
	printf("procs=%s refreshes=%ld cpu_ms_per_refresh=%.3f wall_ms_per_refresh=%.3f "
	       "processes=%zu cpus=%zu disks=%zu interfaces=%zu interrupts=%zu\n",
	       procs ? "on" : "off", n, (cpu_secs() - c0) * 1e3 / (double)n,
	       ((double)now_ns() / 1e9 - w0) * 1e3 / (double)n, fs.nprocs, fs.ncpus, fs.ndisks,
	       fs.nnets, fs.irqs.n);
	frame_system_free(&fs);
	system_free(s);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;

	if (n <= 0)
		n = 100;
	run(n, true);
	run(n, false);
	return 0;
}
