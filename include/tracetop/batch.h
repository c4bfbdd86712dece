/* batch: the non-interactive front end (-b): the session's loop, with a
 * report printed from every frame until -n, the command's exit, the
 * targets' exit or a signal. */
#ifndef TRACETOP_BATCH_H
#define TRACETOP_BATCH_H

#include <stdio.h>

#include "tracetop/counters.h"
#include "tracetop/engine.h"
#include "tracetop/options.h"
#include "tracetop/probe.h"

struct session;

/* Run the session until done, printing every frame as the view of o->view
 * asks (-n refreshes, the command's or targets' exit, or a signal):
 * - top: the profile of every event (text, JSON or folded stacks);
 * - counters: the scopes of --counters-scope like perf stat -I (text) or
 *   as one JSON object;
 * - trace: the events the stream logged since the last refresh (text: a
 *   line each, like trace-cmd; JSON: one object with the rows and a
 *   per-event summary), printed early when they come faster than the log
 *   holds;
 * - probes: the hits of our probes and the system's other dynamic events;
 * - system: CPU, memory, paging, disks, network and the rest of /proc as
 *   one dstat-like line (text), a CSV row or a JSON object with every CPU,
 *   device, interrupt source and process.
 * Returns the process exit status (0, or 1 on failure). */
int batch_run(struct session *s, const struct options *o, FILE *out);

/* --annotate: after the top view's last refresh, print the annotation of
 * the hottest function named o->annotate in frame f (text like perf annotate, or one
 * JSON object). Returns the status: 1 after printing why on stderr when no
 * sample landed in such a function or it cannot be annotated. */
struct frame;
int batch_annotate(const struct frame *f, const struct options *o, FILE *out);

/* After the top view's last refresh: the history's window as a gzipped
 * pprof profile (--format pprof) and every interval it holds as a JSON
 * line (--history-dump). Returns the status (1 after saying why on
 * stderr). */
int batch_history(struct session *s, const struct options *o, FILE *out);

#endif
