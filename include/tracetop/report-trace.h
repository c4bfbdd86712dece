/* report-trace: the stream's log as text (one trace-cmd-like line per
 * event) or as one JSON object per refresh, with the per-event summary.
 * Text from the traced system is escaped. */
#ifndef TRACETOP_REPORT_TRACE_H
#define TRACETOP_REPORT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracetop/frame.h"
#include "tracetop/stream.h"

struct report_trace_info {
	uint64_t from, to;  /* the entries to print: sequence numbers [from, to) */
	double time;        /* seconds since the stream began */
	uint64_t dropped;   /* log entries dropped this refresh (log full) */
	uint64_t lost;      /* events the kernel lost this refresh */
	const char *notice; /* e.g. why the function tracer is off, or NULL */
	bool stacks;        /* print each entry's call stack */
};

/* The entries [ri->from, ri->to) of frame f's log, oldest first: one line
 * each (and its stack, one "  => frame" line per frame); a comment line
 * for drops and losses. */
void report_trace_text(FILE *out, const struct report_trace_info *ri, const struct frame *f);

/* Those entries as one JSON object: {"view":"trace","time":S,"dropped":N,"lost":N,
 * "rows":[{"ts":NS,"cpu":N,"pid":N,"tid":N,"comm":STR,"event":STR,
 * "fields":{NAME:VALUE}}],"summary":[{"event":STR,"count":N,"total":N,
 * "rate":F}]}, numbers as numbers and strings as strings. */
void report_trace_json(FILE *out, const struct report_trace_info *ri, const struct frame *f);

/* One decoded value as JSON (strings escaped; null for a field outside a
 * truncated payload). */
void report_trace_json_value(FILE *out, const struct stream_value *v);

#endif
