/* report-counters: counters snapshots as text (like `perf stat -I`) or as
 * one JSON object per refresh. Command names are escaped. */
#ifndef TRACETOP_REPORT_COUNTERS_H
#define TRACETOP_REPORT_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tracetop/counters.h"
#include "tracetop/diff.h"

struct report_counters_info {
	const char *target; /* what is counted */
	const char *notice; /* a limit that bites, or NULL */
	const char *scopes; /* the scopes shown: "total", "total,cpu", ... */
	double time;        /* seconds since counting began */
	double interval;    /* seconds of this refresh */
	bool header;        /* text: print the column titles (and the notice) */
	/* --baseline: each row's change of rate (a metric: of value) against
	 * it (text: after the rate; JSON: status, delta_rate, ratio) */
	const struct diff_set *base;
};

/* The scope column of a row, escaped: "total", "cpu1", "pid 123 comm",
 * with " (exited)" for a process that has gone. */
void report_counters_scope(const struct counters_row *r, char *buf, size_t len);

/* The snapshots of the scopes taken (bit s of taken: scopes[s]) into
 * snaps (room for COUNTERS_NSCOPES), their names as a list ("total,cpu")
 * into names; how many. */
size_t report_counters_taken(const struct counters_snapshot *scopes, unsigned taken,
                             struct counters_snapshot *snaps, char *names, size_t len);

/* Print one refresh of every snapshot in snaps. */
void report_counters_text(FILE *out, const struct report_counters_info *ri,
                          const struct counters_snapshot *snaps, size_t n);
void report_counters_json(FILE *out, const struct report_counters_info *ri,
                          const struct counters_snapshot *snaps, size_t n);

#endif
