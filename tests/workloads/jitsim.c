/*
 * jitsim: a JIT as the profiler sees one. Every PERIOD ms it "compiles" a
 * new function into an anonymous executable mapping, appends its line to
 * /tmp/perf-PID.map (as V8 --perf-basic-prof and Java's perfmap do), and
 * then spends the period running only that function. A profiler that
 * reads the map once at start names none but the first; one that follows
 * the map names each within a refresh of its append.
 *
 * With "late" (like Java's jcmd Compiler.perfmap, run after the code)
 * each function runs half its period before its line is written: its
 * first samples can only be named once the map has grown.
 *
 * Usage: jitsim [FUNCTIONS] [PERIOD_MS] [late]   (default 4, 1000 ms)
 * Prints "jit_fn_K START" when function K starts running.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Bytes per function slot: each function is its own symbol. */
#define JITSIM_SLOT 64

/* mov ecx, imm32; 1: dec ecx; jnz 1b; ret — a loop of imm32 iterations. */
static const unsigned char jitsim_code[] = {0xb9, 0, 0, 0, 0, 0xff, 0xc9, 0x75, 0xfc, 0xc3};

/* Monotonic milliseconds. */
static long long
jitsim_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
main(int argc, char **argv)
{
	int nfns = argc > 1 ? atoi(argv[1]) : 4;
	long period = argc > 2 ? atol(argv[2]) : 1000;
	int late = argc > 3 && strcmp(argv[3], "late") == 0;
	uint32_t iters = 1000000;
	char path[64];
	unsigned char *code;
	FILE *map;

	if (nfns < 1 || nfns > 64 || period < 10) {
		fprintf(stderr, "usage: jitsim [FUNCTIONS 1-64] [PERIOD_MS >= 10]\n");
		return 2;
	}
	code = mmap(NULL, (size_t)nfns * JITSIM_SLOT, PROT_READ | PROT_WRITE | PROT_EXEC,
	            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED) {
		perror("jitsim: mmap");
		return 1;
	}
	snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
	if ((map = fopen(path, "w")) == NULL) {
		perror(path);
		return 1;
	}
	for (int k = 0; k < nfns; k++) {
		unsigned char *fn = code + (size_t)k * JITSIM_SLOT;
		long long end;

		memcpy(fn, jitsim_code, sizeof jitsim_code);
		memcpy(fn + 1, &iters, sizeof iters);
		__builtin___clear_cache((char *)fn, (char *)fn + sizeof jitsim_code);
		printf("jit_fn_%d %lld\n", k, jitsim_ms());
		fflush(stdout);
		for (end = jitsim_ms() + (late ? period / 2 : 0); jitsim_ms() < end;)
			((void (*)(void))(uintptr_t)fn)();
		fprintf(map, "%lx %x jit_fn_%d\n", (unsigned long)(uintptr_t)fn,
		        (unsigned)sizeof jitsim_code, k);
		fflush(map);
		for (end = jitsim_ms() + (late ? period - period / 2 : period); jitsim_ms() < end;)
			((void (*)(void))(uintptr_t)fn)();
	}
	fclose(map);
	if (!late)
		unlink(path); /* late: left, as JITs leave theirs, for naming after the run */
	return 0;
}
