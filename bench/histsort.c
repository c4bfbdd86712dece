/*
 * histsort: the cost of one hist_snapshot with many rows of equal overhead,
 * as system-wide profiling beside a build makes them (48,592 rows seen at
 * one refresh, most with one sample). Built against a build's library:
 *
 *   cc -O2 -IBUILD -Iinclude -include config.h -o histsort bench/histsort.c \
 *      BUILD/libtracetop.a -ldw -lelf -liberty -lpthread
 *   ./histsort          # prints the rows and the ms per snapshot
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tracetop/hist.h"
#include "tracetop/symtab.h"
#include "tracetop/util.h"

/* Fill a hist with N one-sample rows of distinct symbols; time snapshots. */
int
main(void)
{
	enum { N = 48000, REPS = 20 };
	static struct sym syms[N];
	struct hist *h = hist_new(0.5);
	struct hist_snapshot snap = {0};
	struct timespec a, b;
	char name[64];

	for (int i = 0; i < N; i++) {
		struct hist_key k = {
		    .pid = 1000 + i % 300, .comm = str_intern("cc1"), .sym = &syms[i]};

		snprintf(name, sizeof name, "some_function_name_%d", (i * 7919) % N);
		syms[i].name = xstrdup(name);
		syms[i].size = 1;
		hist_add(h, &k);
	}
	hist_tick(h, false);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int r = 0; r < REPS; r++)
		hist_snapshot(h, NULL, NULL, NULL, &snap);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%zu rows: %.1f ms per snapshot\n", snap.n,
	       ((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6) /
	           REPS);
	hist_snapshot_free(&snap);
	hist_free(h);
	return 0;
}
