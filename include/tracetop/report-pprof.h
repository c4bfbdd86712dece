/* report-pprof: a profile as a gzip-compressed pprof profile.proto (what
 * go tool pprof, Pyroscope, Parca and Grafana read): samples with their
 * locations leaf first, locations, functions (names as the folded stacks
 * have them), mappings (each shared object with its build-id), sample
 * types samples/count and cpu/nanoseconds, the period. */
#ifndef TRACETOP_REPORT_PPROF_H
#define TRACETOP_REPORT_PPROF_H

#include <stdint.h>
#include <stdio.h>

#include "tracetop/callgraph.h"
#include "tracetop/hist.h"

struct tt_err;

struct pprof_info {
	const char *event;  /* the event sampled, said in a comment */
	uint64_t period_ns; /* CPU time one sample stands for */
	int64_t time_ns;    /* Unix time of the window's start */
	int64_t duration_ns;
};

/* The samples of cg (one per stack, its self count), or without stacks
 * (cg NULL) those of the rows of snap (one location each), encoded and
 * gzipped into a new *out of *len bytes (free it). */
void report_pprof_build(const struct pprof_info *pi, const struct callgraph *cg,
                        const struct hist_snapshot *snap, uint8_t **out, size_t *len);

/* The same written to out; 0, or -1 with err. */
int report_pprof(FILE *out, const struct pprof_info *pi, const struct callgraph *cg,
                 const struct hist_snapshot *snap, struct tt_err *err);

#endif
