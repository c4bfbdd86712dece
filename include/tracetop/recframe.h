/* recframe: a frame as the bytes of one recording chunk, and back. A chunk
 * has its own tables of strings, DSOs (path, kind, build-id) and functions
 * (DSO, name, address, size), then the frame's numbers and the interval's
 * own samples (not the decayed window): per row key its self and children
 * samples, and the stacks that ended in it as a prefix tree with each
 * node's self samples, all referring to the tables by index. The other
 * panes' parts follow, one block each: the counters of every scope taken,
 * the probes, the latency rows (what changed since the last interval)
 * and the offcpu rows' stacks (what they gained, coded as the profile's),
 * the system's numbers, the trace (per-event counts and the interval's
 * log entries, raw, with each tracepoint's format once per recording),
 * and what Annotate needs of the hottest functions (their code and
 * source lines once per recording, their samples per instruction each
 * interval). The parts that hold what changed make a chunk depend on
 * those before it: a recording is read from its start.
 * The reader gives every DSO and function a stand-in object, the same one
 * for the same DSO path and function in every chunk, so rows and stacks of
 * a replay compare by pointer as live ones do; no binary is read. */
#ifndef TRACETOP_RECFRAME_H
#define TRACETOP_RECFRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/frame.h"
#include "tracetop/pb.h"
#include "tracetop/util.h"

struct recframe_enc;
struct recframe_dec;

/* An encoder (it remembers the build-ids it read). */
struct recframe_enc *recframe_enc_new(void);
void recframe_enc_free(struct recframe_enc *e);

/* Frame f as a chunk's bytes into out (emptied first); rows: f's rows and
 * call graphs are the interval's (false: a frozen screen's, left out). */
void recframe_encode(struct recframe_enc *e, const struct frame *f, bool rows, struct pb *out);

/* A decoder, its stand-in objects (they live until it is freed) and the
 * profile the intervals add up to: per event a hist and a call graph with
 * the recorded run's decay and fold, fed each interval's samples, so a
 * replay's rows are made by the same code, from the same counts, as the
 * live ones were. */
struct recframe_dec *recframe_dec_new(double decay, double cg_min_percent);
void recframe_dec_free(struct recframe_dec *d);

/* Chunk bytes: the frame's numbers into f (its events' names and counts,
 * no rows), the interval's samples into the profile. 0, or -1 with err
 * when they do not parse (some samples may have been added). */
int recframe_decode(struct recframe_dec *d, const uint8_t *p, size_t n, struct frame *f,
                    struct tt_err *err);

/* End the interval of the profile (zero: as -z). */
void recframe_tick(struct recframe_dec *d, bool zero);

/* The profile's rows (sorted by sort, grouped by group as hist_group;
 * 0: not), call graphs and samples per instruction of the recorded
 * functions into f's events, as the sampling source does. */
void recframe_snapshot(struct recframe_dec *d, struct frame *f, const enum hist_sort *sort,
                       unsigned group);

/* The other panes' parts of the last interval decoded into f (its has_*
 * say which the interval holds); f's arrays are its own, its trace log
 * is the decoder's (valid while it is). */
void recframe_parts(struct recframe_dec *d, struct frame *f);

/* The PART_* bits of a chunk's bytes, read without decoding them (0 when
 * they do not parse): which panes a recording holds. */
unsigned recframe_peek(const uint8_t *p, size_t n);

/* Bits of recframe_peek. */
#define RECFRAME_SAMPLING 1u
#define RECFRAME_COUNTERS 2u
#define RECFRAME_PROBES 4u
#define RECFRAME_LATENCY 8u
#define RECFRAME_SYSTEM 16u
#define RECFRAME_TRACE 32u
#define RECFRAME_CODE 64u
#define RECFRAME_OFFCPU 128u

#endif
