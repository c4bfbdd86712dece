/* pb: protocol buffers wire format, writing only. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/pb.h"
#include "tracetop/util.h"

/* Room for n more bytes. */
static void
pb_room(struct pb *b, size_t n)
{
	if (b->len + n <= b->cap)
		return;
	b->cap = b->cap < 256 ? 256 : b->cap;
	while (b->cap < b->len + n)
		b->cap *= 2;
	b->buf = xrealloc(b->buf, b->cap);
}

/* Seven bits a byte, low first, the high bit saying more follow. */
void
pb_varint(struct pb *b, uint64_t v)
{
	pb_room(b, 10);
	while (v >= 0x80) {
		b->buf[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->buf[b->len++] = (uint8_t)v;
}

/* A field's key: its number and wire type. */
static void
pb_tag(struct pb *b, unsigned field, unsigned wire)
{
	pb_varint(b, (uint64_t)field << 3 | wire);
}

/* An unsigned varint field. */
void
pb_uint(struct pb *b, unsigned field, uint64_t v)
{
	pb_tag(b, field, 0);
	pb_varint(b, v);
}

/* An int64 field: negative values take ten bytes, as protobuf has it. */
void
pb_int(struct pb *b, unsigned field, int64_t v)
{
	pb_uint(b, field, (uint64_t)v);
}

/* A length-delimited field. */
void
pb_bytes(struct pb *b, unsigned field, const void *data, size_t len)
{
	pb_tag(b, field, 2);
	pb_varint(b, len);
	pb_raw(b, data, len);
}

/* Bytes as they are, no tag or length. */
void
pb_raw(struct pb *b, const void *data, size_t len)
{
	pb_room(b, len);
	if (len > 0)
		memcpy(b->buf + b->len, data, len);
	b->len += len;
}

/* A string field (without its NUL). */
void
pb_string(struct pb *b, unsigned field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

/* A nested message field. */
void
pb_message(struct pb *b, unsigned field, const struct pb *msg)
{
	pb_bytes(b, field, msg->buf, msg->len);
}

/* A packed repeated varint field (nothing for an empty list). */
void
pb_packed(struct pb *b, unsigned field, const uint64_t *v, size_t n)
{
	struct pb tmp = {0};

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		pb_varint(&tmp, v[i]);
	pb_message(b, field, &tmp);
	pb_free(&tmp);
}

/* Empty, storage kept. */
void
pb_reset(struct pb *b)
{
	b->len = 0;
}

/* Release the storage. */
void
pb_free(struct pb *b)
{
	free(b->buf);
	memset(b, 0, sizeof *b);
}
