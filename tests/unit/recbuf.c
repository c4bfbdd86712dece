/* recbuf: perf records built byte by byte for the tests. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "recbuf.h"

/* Start a record of type with misc flags. */
void
rb_start(struct rb *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = {.type = type, .misc = misc, .size = 0};

	memset(b, 0, sizeof *b);
	memcpy(b->buf, &h, sizeof h);
	b->len = sizeof h;
}

/* Append n raw bytes. */
void
rb_bytes(struct rb *b, const void *p, size_t n)
{
	assert_true(b->len + n <= sizeof b->buf);
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

/* Append a u64. */
void
rb_u64(struct rb *b, uint64_t v)
{
	rb_bytes(b, &v, sizeof v);
}

/* Append a u32. */
void
rb_u32(struct rb *b, uint32_t v)
{
	rb_bytes(b, &v, sizeof v);
}

/* Append zero bytes up to the next multiple of 8. */
void
rb_pad8(struct rb *b)
{
	static const unsigned char zero[8];

	rb_bytes(b, zero, (8 - b->len % 8) % 8);
}

/* Append a NUL-terminated string padded with NULs to 8 bytes. */
void
rb_str(struct rb *b, const char *s)
{
	rb_bytes(b, s, strlen(s) + 1);
	rb_pad8(b);
}

/* Append the sample_id_all trailer for st. */
void
rb_trailer(struct rb *b, uint64_t st, const struct record_id *sid)
{
	if (st & PERF_SAMPLE_TID) {
		rb_u32(b, sid->pid);
		rb_u32(b, sid->tid);
	}
	if (st & PERF_SAMPLE_TIME)
		rb_u64(b, sid->time);
	if (st & PERF_SAMPLE_ID)
		rb_u64(b, sid->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		rb_u64(b, sid->id + 1);
	if (st & PERF_SAMPLE_CPU) {
		rb_u32(b, sid->cpu);
		rb_u32(b, 0);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		rb_u64(b, sid->id);
}

/* Finish: store the size in the header and return the record. */
const struct perf_event_header *
rb_done(struct rb *b)
{
	struct perf_event_header *h = (struct perf_event_header *)b->buf;

	h->size = (uint16_t)b->len;
	return h;
}
