/* recbuf: perf records built byte by byte for the tests that parse them
 * (test-record) or feed them to the engine (test-engine-defer). */
#ifndef TRACETOP_TEST_RECBUF_H
#define TRACETOP_TEST_RECBUF_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "tracetop/record.h"

/* A record under construction. */
struct rb {
	_Alignas(8) unsigned char buf[2048];
	size_t len;
};

/* Start a record of type with misc flags. */
void rb_start(struct rb *b, uint32_t type, uint16_t misc);

/* Append n raw bytes (the record must stay within the buffer). */
void rb_bytes(struct rb *b, const void *p, size_t n);
void rb_u64(struct rb *b, uint64_t v);
void rb_u32(struct rb *b, uint32_t v);

/* Append zero bytes up to the next multiple of 8. */
void rb_pad8(struct rb *b);

/* Append a NUL-terminated string padded with NULs to 8 bytes. */
void rb_str(struct rb *b, const char *s);

/* Append the sample_id_all trailer of a side-band record for sample_type
 * st (fields in kernel order; the stream id, which parsers skip, is
 * written as sid->id + 1). */
void rb_trailer(struct rb *b, uint64_t st, const struct record_id *sid);

/* Finish: store the size in the header and return the record. */
const struct perf_event_header *rb_done(struct rb *b);

#endif
