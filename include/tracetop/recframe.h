/* recframe: a frame as the bytes of one recording chunk, and back. A chunk
 * is self-contained: its own tables of strings, DSOs (path, kind,
 * build-id) and functions (DSO, name, address, size), then the frame's
 * numbers and its profile rows and call graph referring to them by index.
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

/* A decoder and its stand-in objects (they live until it is freed). */
struct recframe_dec *recframe_dec_new(void);
void recframe_dec_free(struct recframe_dec *d);

/* Chunk bytes into f, whose storage is reused: 0, or -1 with err when
 * they do not parse (f is then left consistent but partly filled). */
int recframe_decode(struct recframe_dec *d, const uint8_t *p, size_t n, struct frame *f,
                    struct tt_err *err);

/* The build-id the recording gave dso (a stand-in), or 0 bytes. */
size_t recframe_build_id(const struct recframe_dec *d, const struct dso *dso, uint8_t *id,
                         size_t len);

#endif
