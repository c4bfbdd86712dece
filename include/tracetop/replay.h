/* replay: recording a session (-w FILE) and replaying one (-r FILE). The
 * recorder is a session tap: every frame, as the front end gets it, goes
 * out as one chunk (recframe's bytes in recfile's framing). A replay is a
 * source of the session like the live ones: each refresh takes the next
 * recorded interval, so the history, the screen's panes and the batch
 * reports see the recording through the same path as a live run. */
#ifndef TRACETOP_REPLAY_H
#define TRACETOP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "tracetop/frame.h"
#include "tracetop/options.h"
#include "tracetop/recfile.h"
#include "tracetop/session.h"

/* ---- recording ---- */

struct replay_rec;

/* Create path for a recording of a run with options o whose rows and
 * call graphs decay by decay per refresh. NULL with err. */
struct replay_rec *replay_rec_open(const char *path, const struct options *o, double decay,
                                   struct tt_err *err);

/* The session tap (arg: a struct replay_rec): write frame f. A write error
 * is said once on stderr and ends the recording, not the run. */
void replay_rec_frame(void *arg, const struct frame *f, bool rows);

/* Bytes written so far. */
uint64_t replay_rec_size(const struct replay_rec *r);

/* Close; -1 with err when the file is incomplete (a write failed). */
int replay_rec_close(struct replay_rec *r, struct tt_err *err);

/* ---- replay ---- */

/* A replay's history holds the whole recording, up to a memory bound of
 * its own (what it drops past it is said). */
#define REPLAY_HISTORY_SECS 1e12
#define REPLAY_HISTORY_BYTES ((size_t)4 << 30)

/* That bound, or $TRACETOP_REPLAY_BYTES when set (tests: a small one). */
size_t replay_history_bytes(void);

struct replay;

/* Read the recording at path: NULL with err when it is not one this
 * tracetop reads, or holds no whole interval. */
struct replay *replay_open(const char *path, struct tt_err *err);

/* What the recording says about itself. */
const struct recfile_header *replay_header(const struct replay *r);

/* Whole intervals in the file, and why it ends before its last byte (a
 * cut or damaged chunk: "" when it does not). */
size_t replay_intervals(const struct replay *r);
const char *replay_stop(const struct replay *r);

/* What its intervals hold: RECFRAME_* bits (the profile, counters,
 * probes, latency, system, trace, code). */
unsigned replay_parts(const struct replay *r);

/* The options of the recorded run, for the front ends: its events, rate
 * and call stacks into o (the session's other options stay the user's). */
void replay_apply(const struct replay *r, struct options *o);

/* The source: session_add(s, &source_replay, r); the session frees r. */
extern const struct source_ops source_replay;

#endif
