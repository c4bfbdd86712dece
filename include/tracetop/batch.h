/* batch: the non-interactive front end (-b): one poll loop that drains the
 * rings and prints a report every refresh until -n, the command's exit, the
 * targets' exit or a signal. */
#ifndef TRACETOP_BATCH_H
#define TRACETOP_BATCH_H

#include <stdio.h>

#include "tracetop/counters.h"
#include "tracetop/engine.h"
#include "tracetop/options.h"

/* Run until done; returns the process exit status (0, or 1 on failure). */
int batch_run(struct engine *e, const struct options *o, FILE *out);

/* The counters view (--view counters): every refresh, tick c and print
 * the scopes of --counters-scope like perf stat -I (text) or as one JSON
 * object; until -n, the command's or targets' exit (e: an engine with no
 * events, for the command and targets) or a signal. Returns the status. */
int batch_counters_run(struct engine *e, struct counters *c, const struct options *o, FILE *out);

#endif
