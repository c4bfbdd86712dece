/* report-latency: a latency part of a frame (--view latency) as text, a
 * table of (kind, name, process) rows and bpftrace-like histograms, or as
 * one JSON object per refresh. Comm names are escaped. */
#ifndef TRACETOP_REPORT_LATENCY_H
#define TRACETOP_REPORT_LATENCY_H

#include <stdbool.h>
#include <stdio.h>

#include "tracetop/latency.h"

/* Off-CPU stacks shown per offcpu row. */
#define REPORT_LATENCY_STACKS 5

struct report_latency_info {
	double time;       /* seconds since start */
	unsigned max_rows; /* rows (text: and histograms) printed; 0: all */
	bool header;       /* text: the first report */
};

/* The rows in report order: total time, then count, descending; a
 * malloc'd array of indices into fl->rows (free it), NULL when empty. */
size_t *report_latency_order(const struct frame_latency *fl);

void report_latency_text(FILE *out, const struct report_latency_info *ri,
                         const struct frame_latency *fl);
void report_latency_json(FILE *out, const struct report_latency_info *ri,
                         const struct frame_latency *fl);

/* A row's name for people, escaped ("I/O tid 123" for an offcpu row). */
void report_latency_name(const struct lat_row *r, char *buf, size_t len);

/* The histogram of r as bpftrace prints it: one line per bucket from the
 * first non-empty to the last, "[lo, hi)  count |@@@@  |", bars of at
 * most width '@'. */
void report_latency_hist(FILE *out, const struct lat_hist *h, unsigned width);

#endif
