/* probe-cli: what the command line does with probes before any screen is
 * up: --probe SPECs checked (a malformed one is a usage error) and made,
 * --probe-vars, the probes' part of --cleanup and of the clean-up at
 * start, and the probes' tracepoints added to -T's for the trace view.
 * Messages go to stderr as "tracetop: ...". */
#ifndef TRACETOP_PROBE_CLI_H
#define TRACETOP_PROBE_CLI_H

#include <stddef.h>

#include "tracetop/engine.h"
#include "tracetop/options.h"
#include "tracetop/probe.h"

/* Check the syntax of every --probe and --latency SPEC: 0, or -1 after printing the
 * first bad one (exit 2). */
int probe_cli_check(const struct options *o);

/* --probe-vars SPEC: print what is visible there; the exit status (2 for
 * a malformed SPEC, 1 for one that cannot be resolved). */
int probe_cli_vars(const struct options *o);

/* Make the probes of --probe (and a manager for --view probes, or when
 * always: the screen, even without any) in *p; NULL when none is needed.
 * Returns 0, or 1 after printing why (what was made is removed again). */
int probe_cli_open(const struct options *o, bool always, struct probes **p);

/* The tracepoints of the --latency probes made by probe_cli_open: for
 * each SPEC its entry's then its return's ("tracetop_PID:name"); a
 * malloc'd array of 2 * o->nlatencies, NULL without any. */
const char **probe_cli_latency_events(const struct options *o, const struct probes *p);

/* The tracepoints to stream: -T's, then every probe's (no filter); a
 * malloc'd array of *n (NULL when *n is 0). */
struct engine_trace_opt *probe_cli_traces(const struct options *o, const struct probes *p,
                                          size_t *n);

/* Remove the probe groups of tracetops that are gone, saying so on stderr
 * (with verbose, also when there is none). Returns how many were
 * removed, or -1 after printing why some could not be. */
int probe_cli_cleanup(bool verbose);

#endif
