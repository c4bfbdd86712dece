/* recframe: a frame as the bytes of one recording chunk, and back. A chunk
 * is self-contained: its own tables of strings, DSOs (path, kind,
 * build-id) and functions (DSO, name, address, size), then the frame's
 * numbers and the interval's own samples (not the decayed window): per
 * row key its self and children samples, and the stacks that ended in it
 * as a prefix tree with each node's self samples, all referring to the
 * tables by index.
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
 * 0: not) and call graphs into f's events, as the sampling source does. */
void recframe_snapshot(struct recframe_dec *d, struct frame *f, const enum hist_sort *sort,
                       unsigned group);

#endif
