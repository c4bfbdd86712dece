/* recdiff: a baseline (a diff_set) from a recording, or from a range of
 * its intervals, for --diff A B and --baseline FILE, beside tracetop's
 * JSON reports. A spec is a path, or PATH@RANGE where RANGE is
 * START..END in seconds since the recording began (either may be left
 * out: "rec.ttr@10..", "rec.ttr@..5.5"; an interval is in the range when
 * its middle is in [START, END)) or #FIRST..#LAST in intervals (1 the
 * first, both included; "#3" alone is one interval). The Top rows are the
 * range's samples added up (shares of the range), the counters its
 * counts over its seconds, the latency rows its histograms merged: what
 * the history shows of that range on the screen. The recording is
 * replayed in a child process, so the stand-in objects a replay makes
 * never meet a live run's. */
#ifndef TRACETOP_RECDIFF_H
#define TRACETOP_RECDIFF_H

#include <stdbool.h>

#include "tracetop/diff.h"
#include "tracetop/util.h"

/* Whether spec names a recording (its file starts like one). */
bool recdiff_is_recording(const char *spec);

/* A set from spec: a recording (or a range of one), its Top rows keyed
 * by group (HIST_GROUP_*; 0: the default), or else a JSON report file
 * (diff_set_load_file). Sealed. 0, or -1 with err saying why. */
int recdiff_load(struct diff_set *s, const char *spec, unsigned group, struct tt_err *err);

/* The same for a recording at path, its range text (NULL: all of it),
 * in this process. */
int recdiff_load_range(struct diff_set *s, const char *path, const char *range, unsigned group,
                       struct tt_err *err);

#endif
