/* pb: a small protocol buffers writer (varints, length-delimited fields,
 * packed repeated varints, nested messages) into a growing buffer, enough
 * for profile.proto (report-pprof). Fields are written in the order
 * called; a nested message is built in its own buffer and appended. */
#ifndef TRACETOP_PB_H
#define TRACETOP_PB_H

#include <stddef.h>
#include <stdint.h>

struct pb {
	uint8_t *buf;
	size_t len, cap;
};

/* A bare varint (no tag); bare bytes. */
void pb_varint(struct pb *b, uint64_t v);
void pb_raw(struct pb *b, const void *data, size_t len);

/* Field `field` as a varint (wire type 0): unsigned, or an int64 as its
 * two's complement (protobuf's int64, not sint64). */
void pb_uint(struct pb *b, unsigned field, uint64_t v);
void pb_int(struct pb *b, unsigned field, int64_t v);

/* Field `field` as length-delimited bytes (wire type 2): raw bytes, a
 * string, a nested message, a packed list of varints. */
void pb_bytes(struct pb *b, unsigned field, const void *data, size_t len);
void pb_string(struct pb *b, unsigned field, const char *s);
void pb_message(struct pb *b, unsigned field, const struct pb *msg);
void pb_packed(struct pb *b, unsigned field, const uint64_t *v, size_t n);

/* Empty b (keeping its storage); free it. */
void pb_reset(struct pb *b);
void pb_free(struct pb *b);

#endif
