/* batch: the non-interactive front end (-b): one poll loop that drains the
 * rings and prints a report every refresh until -n, the command's exit, the
 * targets' exit or a signal. */
#ifndef TRACETOP_BATCH_H
#define TRACETOP_BATCH_H

#include <stdio.h>

#include "tracetop/counters.h"
#include "tracetop/engine.h"
#include "tracetop/options.h"
#include "tracetop/probe.h"

/* Run until done; returns the process exit status (0, or 1 on failure). */
int batch_run(struct engine *e, const struct options *o, FILE *out);

/* The counters view (--view counters): every refresh, tick c and print
 * the scopes of --counters-scope like perf stat -I (text) or as one JSON
 * object; until -n, the command's or targets' exit (e: an engine with no
 * events, for the command and targets) or a signal. Returns the status. */
int batch_counters_run(struct engine *e, struct counters *c, const struct options *o, FILE *out);

/* The trace view (--view trace): every refresh, print the events the
 * stream logged since the last one (text: a line each, like trace-cmd;
 * JSON: one object with the rows and a per-event summary) and empty the
 * log, until -n, the targets' exit or a signal. Returns the status. */
int batch_trace_run(struct engine *e, const struct options *o, FILE *out);

/* The probes view (--view probes): every refresh, read the hits of p's
 * probes and print them with the system's other dynamic events (text: a
 * line each; JSON: one object), until -n, the targets' exit or a signal.
 * Returns the status. */
int batch_probes_run(struct engine *e, struct probes *p, const struct options *o, FILE *out);

/* --annotate: after the top view's last refresh, print the annotation of
 * the hottest function named o->annotate (text like perf annotate, or one
 * JSON object). Returns the status: 1 after printing why on stderr when no
 * sample landed in such a function or it cannot be annotated. */
int batch_annotate(struct engine *e, const struct options *o, FILE *out);

#endif
