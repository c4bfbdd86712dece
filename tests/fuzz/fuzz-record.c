/* libFuzzer target: arbitrary bytes as the data area of a perf ring, read
 * with ring_begin/ring_next (two passes, like the engine), and every record
 * fed to every record_parse_* under several sample_type layouts. Whatever
 * the parsers return must lie inside the record.
 *
 * Build (from a configured build dir, so config.h is in "."):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     -include config.h $SRC/tests/fuzz/fuzz-record.c $SRC/src/ring.c \
 *     $SRC/src/record.c $SRC/src/util.c -o fuzz-record
 *   ./fuzz-record -max_len=8192 corpus/
 * The first two input bytes pick where the reader starts in the ring (so
 * records wrap and headers straddle the end); the rest is ring data.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/record.h"
#include "tracetop/ring.h"
#include "tracetop/util.h"

#define FUZZ_DATA_SIZE 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint64_t sample_types[] = {
    PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD,
    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
        PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN,
    PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_STREAM_ID |
        PERF_SAMPLE_RAW,
    PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
        PERF_SAMPLE_STACK_USER,
    PERF_SAMPLE_IP | PERF_SAMPLE_READ,
    0,
};

static volatile uint64_t sink;

/* Read every byte of [p, p + n) so ASan sees any pointer past the record. */
static void
touch(const void *p, uint64_t n, const struct perf_event_header *h)
{
	const unsigned char *c = p, *rec = (const unsigned char *)h;
	uint64_t i, sum = 0;

	if (n == 0)
		return;
	if (c < rec || c + n > rec + h->size)
		abort();
	for (i = 0; i < n; i++)
		sum += c[i];
	sink += sum;
}

/* A sample's copy with its stack cut is no larger and parses again, with
 * the same stack bytes. */
static void
shrink_check(const struct perf_event_header *h, uint64_t st, const struct record_sample *s)
{
	struct perf_event_header *c = malloc(h->size);
	struct record_sample cs;
	size_t n;

	if (c == NULL)
		return;
	n = record_sample_shrink_stack(h, s, c);
	if (n > h->size || c->size != n ||
	    record_parse_sample(c, st, 0x0000ff00000000ffULL, &cs) != 0 ||
	    cs.stack_size != s->stack_size ||
	    (s->stack_size > 0 && memcmp(cs.stack, s->stack, s->stack_size) != 0))
		abort();
	free(c);
}

/* Run every parser on h (a malloc'd copy we may retype) for sample_type. */
static void
parse_all(struct perf_event_header *h, uint64_t st)
{
	static const uint32_t types[] = {
	    PERF_RECORD_SAMPLE,       PERF_RECORD_MMAP,     PERF_RECORD_MMAP2,
	    PERF_RECORD_COMM,         PERF_RECORD_FORK,     PERF_RECORD_EXIT,
	    PERF_RECORD_LOST,         PERF_RECORD_THROTTLE, PERF_RECORD_UNTHROTTLE,
	    PERF_RECORD_LOST_SAMPLES,
	};
	union {
		struct record_sample s;
		struct record_mmap m;
		struct record_comm c;
		struct record_task t;
		struct record_lost l;
		struct record_lost_samples ls;
		struct record_throttle th;
	} u;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		h->type = types[i];
		if (record_parse_sample(h, st, 0x0000ff00000000ffULL, &u.s) == 0) {
			touch(u.s.ips, u.s.nr * 8, h);
			touch(u.s.raw, u.s.raw_size, h);
			touch(u.s.user_regs, u.s.nr_regs * 8, h);
			touch(u.s.stack, u.s.stack_size, h);
			shrink_check(h, st, &u.s);
		}
		if (record_parse_mmap(h, st, &u.m) == 0)
			touch(u.m.filename, strlen(u.m.filename) + 1, h);
		if (record_parse_comm(h, st, &u.c) == 0)
			touch(u.c.comm, strlen(u.c.comm) + 1, h);
		record_parse_task(h, st, &u.t);
		record_parse_lost(h, st, &u.l);
		record_parse_lost_samples(h, st, &u.ls);
		record_parse_throttle(h, st, &u.th);
		sink += strlen(record_type_name(h->type));
	}
}

/* One fuzz input: a ring's data area and where the reader stands. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char *mem;
	static size_t ps;
	const struct perf_event_header *h;
	struct ring r;
	uint64_t start, len;
	int pass;

	if (size < 2)
		return 0;
	if (mem == NULL) {
		ps = (size_t)sysconf(_SC_PAGESIZE);
		mem = aligned_alloc(ps, ps + FUZZ_DATA_SIZE);
	}
	memset(mem, 0, ps + FUZZ_DATA_SIZE);
	start = (uint64_t)data[0] | (uint64_t)data[1] << 8;
	data += 2;
	size -= 2;
	len = size < FUZZ_DATA_SIZE ? size : FUZZ_DATA_SIZE;
	for (uint64_t i = 0; i < len; i++)
		mem[ps + (start + i) % FUZZ_DATA_SIZE] = data[i];
	ring_init(&r, mem, FUZZ_DATA_SIZE);
	r.meta->data_tail = start;
	r.meta->data_head = start + len;
	ring_begin(&r);
	for (pass = 0; pass < 2; pass++) {
		while ((h = ring_next(&r)) != NULL) {
			struct perf_event_header *copy = xmalloc(h->size);

			memcpy(copy, h, h->size);
			for (size_t i = 0; i < ARRAY_SIZE(sample_types); i++)
				parse_all(copy, sample_types[i]);
			free(copy);
		}
		if (pass == 0)
			ring_rewind(&r);
	}
	ring_end(&r);
	if (r.meta->data_tail != start + len)
		abort();
	ring_unmap(&r);
	return 0;
}
