/* latency-merge: a frame's latency rows merged over processes (the
 * screen's p, batch --latency-merge): one row per (kind, name) of the
 * kinds asked for, of pid -1 and command "(all)", their histograms,
 * counts and rates summed; an offcpu row's stacks, those of every thread
 * it merged, are merged under one root of its own in a call graph of the
 * result, so that reports and panes read it as any frame's part. Block
 * I/O rows are by device, no process's: never merged. */
#ifndef TRACETOP_LATENCY_MERGE_H
#define TRACETOP_LATENCY_MERGE_H

#include "tracetop/latency.h"

/* The kinds merging applies to. */
#define LAT_MERGE_KINDS                                                                            \
	((1u << LAT_SYSCALL) | (1u << LAT_FUNCTION) | (1u << LAT_RUNQ) | (1u << LAT_OFFCPU) |      \
	 (1u << LAT_ONCPU))

/* in's rows of kinds merged (the others copied as they are) into out,
 * its counters and notices too; out's storage (a frame_latency of its
 * own, frame_latency_free releases it) is reused from one call to the
 * next. Its rows point into in's strings: in must outlive its use. */
void lat_merge(const struct frame_latency *in, unsigned kinds, struct frame_latency *out);

#endif
