/* report-latency: a latency part of a frame (--view latency) as text, a
 * table of (kind, name, process) rows and bpftrace-like histograms, or as
 * one JSON object per refresh. Comm names are escaped. */
#ifndef TRACETOP_REPORT_LATENCY_H
#define TRACETOP_REPORT_LATENCY_H

#include <stdbool.h>
#include <stdio.h>

#include "tracetop/diff.h"
#include "tracetop/latency.h"

/* Off-CPU stacks shown per offcpu row. */
#define REPORT_LATENCY_STACKS 5

struct report_latency_info {
	double time;       /* seconds since start */
	unsigned max_rows; /* rows (text: and histograms) printed; 0: all */
	bool header;       /* text: the first report */
	/* --baseline: each row's change of p50 and p99 against it (text:
	 * after the row; JSON: status, delta_p50_ns, ratio, delta_p99_ns) */
	const struct diff_set *base;
};

/* The rows in report order: total time, then count, descending; a
 * malloc'd array of indices into fl->rows (free it), NULL when empty. */
size_t *report_latency_order(const struct frame_latency *fl);

void report_latency_text(FILE *out, const struct report_latency_info *ri,
                         const struct frame_latency *fl);
void report_latency_json(FILE *out, const struct report_latency_info *ri,
                         const struct frame_latency *fl);

/* A thread's wall clock from its oncpu and offcpu rows. */
struct report_latency_thread {
	int pid, tid;
	char comm[16];       /* raw */
	uint64_t oncpu;      /* ns on a CPU */
	uint64_t offcpu[4];  /* ns blocked, by wait reason (enum offcpu_reason) */
	uint64_t offcpu_sum; /* of them all */
};

/* The threads with oncpu or offcpu rows, most wall-clock time (on + off)
 * first: a malloc'd array (free it) of how many the return says. */
size_t report_latency_threads(const struct frame_latency *fl, struct report_latency_thread **out);

/* A row's change of p50 against base as "+DELTA RATIO" (RATIO "x1.50",
 * "new"), with ", p99 +DELTA" after it when p99 is set; false without
 * base. */
bool report_latency_change(const struct diff_set *base, const struct lat_row *r, bool p99,
                           char *buf, size_t len);

/* A row's name for people, escaped ("I/O tid 123" for an offcpu row). */
void report_latency_name(const struct lat_row *r, char *buf, size_t len);

/* The histogram of r as bpftrace prints it: one line per bucket from the
 * first non-empty to the last, "[lo, hi)  count |@@@@  |", bars of at
 * most width '@'. */
void report_latency_hist(FILE *out, const struct lat_hist *h, unsigned width);

#endif
