/* Unit tests for src/record.c: records built byte by byte for several
 * sample_type layouts, side-band records, and every truncation. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "recbuf.h"
#include "tracetop/record.h"
#include "tracetop/util.h"

/* Which parser a truncation test runs. */
enum kind { K_SAMPLE, K_MMAP, K_COMM, K_TASK, K_LOST, K_LOST_SAMPLES, K_THROTTLE };

/* Run the parser for kind on h; its return value. */
static int
parse_any(enum kind k, const struct perf_event_header *h, uint64_t st, uint64_t regs)
{
	union {
		struct record_sample s;
		struct record_mmap m;
		struct record_comm c;
		struct record_task t;
		struct record_lost l;
		struct record_lost_samples ls;
		struct record_throttle th;
	} u;

	switch (k) {
	case K_SAMPLE:
		return record_parse_sample(h, st, regs, &u.s);
	case K_MMAP:
		return record_parse_mmap(h, st, &u.m);
	case K_COMM:
		return record_parse_comm(h, st, &u.c);
	case K_TASK:
		return record_parse_task(h, st, &u.t);
	case K_LOST:
		return record_parse_lost(h, st, &u.l);
	case K_LOST_SAMPLES:
		return record_parse_lost_samples(h, st, &u.ls);
	case K_THROTTLE:
		return record_parse_throttle(h, st, &u.th);
	}
	return -2;
}

/* The record parses whole, and every shorter size fails without reading
 * past it (each copy is malloc'd to exactly its size for ASan/valgrind). */
static void
check_truncations(enum kind k, const struct perf_event_header *h, uint64_t st, uint64_t regs)
{
	size_t len;

	assert_int_equal(parse_any(k, h, st, regs), 0);
	for (len = 0; len < h->size; len++) {
		size_t alloc = len < sizeof *h ? sizeof *h : len;
		struct perf_event_header *t = xmalloc(alloc);

		memcpy(t, h, alloc);
		t->size = (uint16_t)len;
		if (parse_any(k, t, st, regs) != -1)
			fail_msg("kind %d sample_type %#llx: size %zu of %u parsed", (int)k,
			         (unsigned long long)st, len, h->size);
		free(t);
	}
}

#define ST_BASIC                                                                                   \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* Append the ST_BASIC fields with recognisable values. */
static void
rb_basic(struct rb *b)
{
	rb_u64(b, 0xffffffff81000010ULL); /* ip */
	rb_u32(b, 100);                   /* pid */
	rb_u32(b, 101);                   /* tid */
	rb_u64(b, 123456789);             /* time */
	rb_u32(b, 3);                     /* cpu */
	rb_u32(b, 0);                     /* res */
	rb_u64(b, 250000);                /* period */
}

/* Check the ST_BASIC fields written by rb_basic. */
static void
check_basic(const struct record_sample *s)
{
	assert_int_equal(s->ip, 0xffffffff81000010ULL);
	assert_int_equal(s->pid, 100);
	assert_int_equal(s->tid, 101);
	assert_int_equal(s->time, 123456789);
	assert_int_equal(s->cpu, 3);
	assert_int_equal(s->period, 250000);
}

/* IP|TID|TIME|CPU|PERIOD, and the kernel flag from each cpumode. */
static void
test_sample_basic(void **state)
{
	static const struct {
		uint16_t misc;
		bool kernel;
	} modes[] = {
	    {PERF_RECORD_MISC_KERNEL, true},       {PERF_RECORD_MISC_USER, false},
	    {PERF_RECORD_MISC_GUEST_KERNEL, true}, {PERF_RECORD_MISC_GUEST_USER, false},
	    {PERF_RECORD_MISC_HYPERVISOR, false},  {PERF_RECORD_MISC_KERNEL | (1 << 14), true},
	};
	struct record_sample s;
	struct rb b;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		rb_start(&b, PERF_RECORD_SAMPLE, modes[i].misc);
		rb_basic(&b);
		assert_int_equal(record_parse_sample(rb_done(&b), ST_BASIC, 0, &s), 0);
		check_basic(&s);
		assert_int_equal(s.kernel, modes[i].kernel);
		assert_int_equal(s.nr, 0);
		assert_null(s.ips);
		assert_null(s.raw);
		assert_null(s.user_regs);
		assert_null(s.stack);
	}
	check_truncations(K_SAMPLE, rb_done(&b), ST_BASIC, 0);
}

/* + CALLCHAIN: ips point into the record. */
static void
test_sample_callchain(void **state)
{
	uint64_t st = ST_BASIC | PERF_SAMPLE_CALLCHAIN;
	const struct perf_event_header *h;
	struct record_sample s;
	struct rb b;

	rb_start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rb_basic(&b);
	rb_u64(&b, 3);
	rb_u64(&b, PERF_CONTEXT_USER);
	rb_u64(&b, 0x401000);
	rb_u64(&b, 0x401234);
	h = rb_done(&b);
	assert_int_equal(record_parse_sample(h, st, 0, &s), 0);
	check_basic(&s);
	assert_int_equal(s.nr, 3);
	assert_ptr_equal(s.ips, b.buf + 8 + 40 + 8);
	assert_int_equal(s.ips[0], PERF_CONTEXT_USER);
	assert_int_equal(s.ips[2], 0x401234);
	check_truncations(K_SAMPLE, h, st, 0);

	/* A huge nr must not overflow the bounds check. */
	memcpy(b.buf + 8 + 40, &(uint64_t){UINT64_MAX / 4}, 8);
	assert_int_equal(record_parse_sample(h, st, 0, &s), -1);
}

/* + RAW with an odd payload size, padded to u64, then REGS_USER after it
 * (the padding must be skipped); also the kernel's own layout where size
 * counts the padding. */
static void
test_sample_raw(void **state)
{
	uint64_t st = ST_BASIC | PERF_SAMPLE_RAW | PERF_SAMPLE_REGS_USER;
	const struct perf_event_header *h;
	struct record_sample s;
	struct rb b;
	uint32_t size;

	for (size = 1; size <= 13; size++) {
		rb_start(&b, PERF_RECORD_SAMPLE, 0);
		rb_basic(&b);
		rb_u32(&b, size);
		rb_bytes(&b, "ABCDEFGHIJKLM", size);
		rb_pad8(&b);
		rb_u64(&b, PERF_SAMPLE_REGS_ABI_64);
		rb_u64(&b, 0x1111);
		h = rb_done(&b);
		assert_int_equal(record_parse_sample(h, st, 1 << 6, &s), 0);
		check_basic(&s);
		assert_int_equal(s.raw_size, size);
		assert_ptr_equal(s.raw, b.buf + 8 + 40 + 4);
		assert_memory_equal(s.raw, "ABCDEFGHIJKLM", size);
		assert_int_equal(s.user_abi, PERF_SAMPLE_REGS_ABI_64);
		assert_int_equal(s.nr_regs, 1);
		assert_int_equal(s.user_regs[0], 0x1111);
		check_truncations(K_SAMPLE, h, st, 1 << 6);
	}
}

/* + REGS_USER with 3 registers, and with abi NONE (no registers follow). */
static void
test_sample_regs(void **state)
{
	uint64_t st = ST_BASIC | PERF_SAMPLE_REGS_USER, mask = (1 << 6) | (1 << 7) | (1ULL << 40);
	const struct perf_event_header *h;
	struct record_sample s;
	struct rb b;

	rb_start(&b, PERF_RECORD_SAMPLE, 0);
	rb_basic(&b);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_64);
	rb_u64(&b, 0xa);
	rb_u64(&b, 0xb);
	rb_u64(&b, 0xc);
	h = rb_done(&b);
	assert_int_equal(record_parse_sample(h, st, mask, &s), 0);
	check_basic(&s);
	assert_int_equal(s.user_abi, PERF_SAMPLE_REGS_ABI_64);
	assert_int_equal(s.nr_regs, 3);
	assert_int_equal(s.user_regs[0], 0xa);
	assert_int_equal(s.user_regs[1], 0xb);
	assert_int_equal(s.user_regs[2], 0xc);
	check_truncations(K_SAMPLE, h, st, mask);

	rb_start(&b, PERF_RECORD_SAMPLE, 0);
	rb_basic(&b);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_NONE);
	h = rb_done(&b);
	assert_int_equal(record_parse_sample(h, st, mask, &s), 0);
	assert_int_equal(s.user_abi, 0);
	assert_int_equal(s.nr_regs, 0);
	assert_null(s.user_regs);
	check_truncations(K_SAMPLE, h, st, mask);
}

/* Build a STACK_USER sample with size bytes of stack and dyn_size. */
static const struct perf_event_header *
build_stack(struct rb *b, uint64_t size, uint64_t dyn)
{
	uint64_t i;

	rb_start(b, PERF_RECORD_SAMPLE, 0);
	rb_basic(b);
	rb_u64(b, PERF_SAMPLE_REGS_ABI_64);
	rb_u64(b, 0x7ffc0000);
	rb_u64(b, size);
	for (i = 0; i < size; i++)
		rb_bytes(b, &(unsigned char){(unsigned char)i}, 1);
	if (size != 0)
		rb_u64(b, dyn);
	return rb_done(b);
}

/* + REGS_USER + STACK_USER: stack_size is dyn_size clamped to size. */
static void
test_sample_stack(void **state)
{
	uint64_t st = ST_BASIC | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	const struct perf_event_header *h;
	struct record_sample s;
	struct rb b;

	h = build_stack(&b, 64, 40);
	assert_int_equal(record_parse_sample(h, st, 1 << 7, &s), 0);
	check_basic(&s);
	assert_int_equal(s.user_regs[0], 0x7ffc0000);
	assert_int_equal(s.stack_size, 40);
	assert_ptr_equal(s.stack, b.buf + 8 + 40 + 16 + 8);
	assert_int_equal(((const unsigned char *)s.stack)[39], 39);
	check_truncations(K_SAMPLE, h, st, 1 << 7);

	h = build_stack(&b, 64, 4096);
	assert_int_equal(record_parse_sample(h, st, 1 << 7, &s), 0);
	assert_int_equal(s.stack_size, 64);

	h = build_stack(&b, 0, 0);
	assert_int_equal(record_parse_sample(h, st, 1 << 7, &s), 0);
	assert_int_equal(s.stack_size, 0);
	assert_null(s.stack);
	check_truncations(K_SAMPLE, h, st, 1 << 7);

	h = build_stack(&b, 64, 8);
	memcpy(b.buf + 8 + 40 + 16, &(uint64_t){UINT64_MAX - 3}, 8);
	assert_int_equal(record_parse_sample(h, st, 1 << 7, &s), -1);
}

/* A kept sample's copy cuts its stack to dyn_size rounded up to 8 and
 * parses the same; without anything to cut it is copied whole. */
static void
test_sample_shrink_stack(void **state)
{
	uint64_t st = ST_BASIC | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	const struct perf_event_header *h;
	struct record_sample s, c;
	unsigned char out[512];
	struct rb b;

	(void)state;
	h = build_stack(&b, 256, 21);
	assert_int_equal(record_parse_sample(h, st, 1 << 7, &s), 0);
	/* header, basic 40, abi and one register 16, size 8, 24 bytes, dyn 8 */
	assert_int_equal(record_sample_shrink_stack(h, &s, out), 8 + 40 + 16 + 8 + 24 + 8);
	assert_int_equal(((struct perf_event_header *)out)->size, 104);
	assert_int_equal(record_parse_sample((struct perf_event_header *)out, st, 1 << 7, &c), 0);
	check_basic(&c);
	assert_int_equal(c.user_regs[0], 0x7ffc0000);
	assert_int_equal(c.stack_size, 21);
	assert_memory_equal(c.stack, s.stack, 21);
	check_truncations(K_SAMPLE, (struct perf_event_header *)out, st, 1 << 7);

	/* nothing to cut: a full stack, no stack */
	h = build_stack(&b, 64, 4096);
	assert_int_equal(record_parse_sample(h, st, 1 << 7, &s), 0);
	assert_int_equal(record_sample_shrink_stack(h, &s, out), h->size);
	assert_memory_equal(out, h, h->size);
	h = build_stack(&b, 0, 0);
	assert_int_equal(record_parse_sample(h, st, 1 << 7, &s), 0);
	assert_int_equal(record_sample_shrink_stack(h, &s, out), h->size);
	assert_memory_equal(out, h, h->size);
}

/* IDENTIFIER comes first; ADDR, ID and STREAM_ID are read in order. */
static void
test_sample_identifier(void **state)
{
	uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	              PERF_SAMPLE_ADDR | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
	              PERF_SAMPLE_PERIOD;
	const struct perf_event_header *h;
	struct record_sample s;
	struct rb b;

	rb_start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rb_u64(&b, 77);       /* identifier */
	rb_u64(&b, 0x400500); /* ip */
	rb_u32(&b, 9);
	rb_u32(&b, 10);
	rb_u64(&b, 555);        /* time */
	rb_u64(&b, 0xdead0000); /* addr */
	rb_u64(&b, 78);         /* stream_id */
	rb_u32(&b, 1);
	rb_u32(&b, 0);
	rb_u64(&b, 1000); /* period */
	h = rb_done(&b);
	assert_int_equal(record_parse_sample(h, st, 0, &s), 0);
	assert_int_equal(s.id, 77);
	assert_int_equal(s.ip, 0x400500);
	assert_int_equal(s.pid, 9);
	assert_int_equal(s.tid, 10);
	assert_int_equal(s.time, 555);
	assert_int_equal(s.addr, 0xdead0000);
	assert_int_equal(s.cpu, 1);
	assert_int_equal(s.period, 1000);
	assert_false(s.kernel);
	check_truncations(K_SAMPLE, h, st, 0);

	/* PERF_SAMPLE_ID alone lands in id too. */
	rb_start(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 0x400500);
	rb_u64(&b, 42);
	assert_int_equal(record_parse_sample(rb_done(&b), PERF_SAMPLE_IP | PERF_SAMPLE_ID, 0, &s),
	                 0);
	assert_int_equal(s.id, 42);
}

/* READ and BRANCH_STACK are refused; a non-sample type is refused. */
static void
test_sample_refused(void **state)
{
	struct record_sample s;
	struct rb b;

	rb_start(&b, PERF_RECORD_SAMPLE, 0);
	rb_basic(&b);
	rb_u64(&b, 0);
	assert_int_equal(record_parse_sample(rb_done(&b), ST_BASIC | PERF_SAMPLE_READ, 0, &s), -1);
	assert_int_equal(
	    record_parse_sample(rb_done(&b), ST_BASIC | PERF_SAMPLE_BRANCH_STACK, 0, &s), -1);
	rb_start(&b, PERF_RECORD_COMM, 0);
	rb_basic(&b);
	assert_int_equal(record_parse_sample(rb_done(&b), ST_BASIC, 0, &s), -1);
}

#define ST_SID_ALL                                                                                 \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |             \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* Append the sample_id_all trailer for st with recognisable values. */
static void
rb_sid(struct rb *b, uint64_t st)
{
	static const struct record_id sid = {
	    .pid = 500, .tid = 501, .time = 999999, .id = 31, .cpu = 7};

	rb_trailer(b, st, &sid);
}

/* Check the trailer written by rb_sid for st. */
static void
check_sid(const struct record_id *sid, uint64_t st)
{
	assert_int_equal(sid->pid, st & PERF_SAMPLE_TID ? 500 : 0);
	assert_int_equal(sid->tid, st & PERF_SAMPLE_TID ? 501 : 0);
	assert_int_equal(sid->time, st & PERF_SAMPLE_TIME ? 999999 : 0);
	assert_int_equal(sid->id, st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER) ? 31 : 0);
	assert_int_equal(sid->cpu, st & PERF_SAMPLE_CPU ? 7 : 0);
}

static const uint64_t sid_types[] = {
    0,
    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU,
    ST_SID_ALL,
    ST_BASIC | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_IDENTIFIER,
};

/* Build an MMAP2 record; bid_size < 0 means the maj/min/ino variant. */
static const struct perf_event_header *
build_mmap2(struct rb *b, int bid_size, uint32_t prot, const char *name, uint64_t st)
{
	rb_start(b, PERF_RECORD_MMAP2, bid_size >= 0 ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0);
	rb_u32(b, 42);
	rb_u32(b, 43);
	rb_u64(b, 0x7f0000001000ULL);
	rb_u64(b, 0x5000);
	rb_u64(b, 0x2000);
	if (bid_size >= 0) {
		unsigned char bid[24] = {(unsigned char)bid_size};
		int i;

		for (i = 0; i < 20; i++)
			bid[4 + i] = (unsigned char)(0xa0 + i);
		rb_bytes(b, bid, sizeof bid);
	} else {
		rb_u32(b, 8);
		rb_u32(b, 1);
		rb_u64(b, 123456);
		rb_u64(b, 5);
	}
	rb_u32(b, prot);
	rb_u32(b, MAP_PRIVATE);
	rb_str(b, name);
	rb_sid(b, st);
	return rb_done(b);
}

/* MMAP2 with inode fields and with a build id, for each trailer layout. */
static void
test_mmap2(void **state)
{
	const char *name = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	const struct perf_event_header *h;
	struct record_mmap m;
	struct rb b;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sid_types); i++) {
		uint64_t st = sid_types[i];

		h = build_mmap2(&b, -1, PROT_READ | PROT_EXEC, name, st);
		assert_int_equal(record_parse_mmap(h, st, &m), 0);
		assert_int_equal(m.pid, 42);
		assert_int_equal(m.tid, 43);
		assert_int_equal(m.start, 0x7f0000001000ULL);
		assert_int_equal(m.len, 0x5000);
		assert_int_equal(m.pgoff, 0x2000);
		assert_int_equal(m.maj, 8);
		assert_int_equal(m.min, 1);
		assert_int_equal(m.ino, 123456);
		assert_int_equal(m.ino_generation, 5);
		assert_int_equal(m.prot, PROT_READ | PROT_EXEC);
		assert_int_equal(m.flags, MAP_PRIVATE);
		assert_int_equal(m.build_id_size, 0);
		assert_true(m.exec);
		assert_string_equal(m.filename, name);
		check_sid(&m.sid, st);
		check_truncations(K_MMAP, h, st, 0);

		h = build_mmap2(&b, 20, PROT_READ, "/bin/x", st);
		assert_int_equal(record_parse_mmap(h, st, &m), 0);
		assert_int_equal(m.build_id_size, 20);
		assert_int_equal(m.build_id[0], 0xa0);
		assert_int_equal(m.build_id[19], 0xa0 + 19);
		assert_int_equal(m.maj, 0);
		assert_int_equal(m.ino, 0);
		assert_int_equal(m.prot, PROT_READ);
		assert_false(m.exec);
		assert_string_equal(m.filename, "/bin/x");
		check_sid(&m.sid, st);
		check_truncations(K_MMAP, h, st, 0);
	}
	h = build_mmap2(&b, 16, PROT_EXEC, "/bin/y", 0);
	assert_int_equal(record_parse_mmap(h, 0, &m), 0);
	assert_int_equal(m.build_id_size, 16);
	h = build_mmap2(&b, 21, PROT_EXEC, "/bin/y", 0);
	assert_int_equal(record_parse_mmap(h, 0, &m), -1);
}

/* MMAP (v1): exec unless misc says it is a data mapping. */
static void
test_mmap1(void **state)
{
	uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	const struct perf_event_header *h;
	struct record_mmap m;
	struct rb b;
	int data;

	for (data = 0; data < 2; data++) {
		rb_start(&b, PERF_RECORD_MMAP, data ? PERF_RECORD_MISC_MMAP_DATA : 0);
		rb_u32(&b, 1);
		rb_u32(&b, 2);
		rb_u64(&b, 0x1000);
		rb_u64(&b, 0x2000);
		rb_u64(&b, 0);
		rb_str(&b, "[vdso]");
		rb_sid(&b, st);
		h = rb_done(&b);
		assert_int_equal(record_parse_mmap(h, st, &m), 0);
		assert_int_equal(m.start, 0x1000);
		assert_int_equal(m.len, 0x2000);
		assert_int_equal(m.exec, !data);
		assert_string_equal(m.filename, "[vdso]");
		check_sid(&m.sid, st);
		check_truncations(K_MMAP, h, st, 0);
	}
}

/* A filename without a NUL before the trailer is rejected. */
static void
test_mmap_no_nul(void **state)
{
	uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	struct record_mmap m;
	struct rb b;

	rb_start(&b, PERF_RECORD_MMAP2, 0);
	rb_bytes(&b, (unsigned char[64]){0}, 64);
	rb_bytes(&b, "abcdefghabcdefgh", 16);
	rb_sid(&b, st);
	assert_int_equal(record_parse_mmap(rb_done(&b), st, &m), -1);
	assert_int_equal(record_parse_mmap(rb_done(&b), 0, &m), 0); /* trailer bytes are text */

	rb_start(&b, PERF_RECORD_COMM, 0);
	rb_bytes(&b, "12345678abcdefgh", 16);
	assert_int_equal(record_parse_comm(rb_done(&b), 0, &(struct record_comm){0}), -1);
}

/* COMM: name, exec flag, trailer. */
static void
test_comm(void **state)
{
	const struct perf_event_header *h;
	struct record_comm c;
	struct rb b;
	size_t i;
	int exec;

	for (i = 0; i < ARRAY_SIZE(sid_types); i++) {
		for (exec = 0; exec < 2; exec++) {
			uint64_t st = sid_types[i];

			rb_start(&b, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
			rb_u32(&b, 300);
			rb_u32(&b, 301);
			rb_str(&b, exec ? "bash" : "kworker/u8:1-ev");
			rb_sid(&b, st);
			h = rb_done(&b);
			assert_int_equal(record_parse_comm(h, st, &c), 0);
			assert_int_equal(c.pid, 300);
			assert_int_equal(c.tid, 301);
			assert_string_equal(c.comm, exec ? "bash" : "kworker/u8:1-ev");
			assert_int_equal(c.exec, exec);
			check_sid(&c.sid, st);
			check_truncations(K_COMM, h, st, 0);
		}
	}
}

/* A FORK or EXIT record of pid 10 (parent 1), tid 11 (parent 2), time 777. */
static const struct perf_event_header *
rb_task(struct rb *b, uint32_t type, uint64_t st)
{
	rb_start(b, type, 0);
	rb_u32(b, 10);
	rb_u32(b, 1);
	rb_u32(b, 11);
	rb_u32(b, 2);
	rb_u64(b, 777);
	rb_sid(b, st);
	return rb_done(b);
}

/* FORK and EXIT share one layout; other types are refused. */
static void
test_task(void **state)
{
	static const uint32_t types[] = {PERF_RECORD_FORK, PERF_RECORD_EXIT};
	const struct perf_event_header *h;
	struct record_task t;
	struct rb b;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		for (j = 0; j < ARRAY_SIZE(sid_types); j++) {
			uint64_t st = sid_types[j];

			h = rb_task(&b, types[i], st);
			assert_int_equal(record_parse_task(h, st, &t), 0);
			assert_int_equal(t.pid, 10);
			assert_int_equal(t.ppid, 1);
			assert_int_equal(t.tid, 11);
			assert_int_equal(t.ptid, 2);
			assert_int_equal(t.time, 777);
			check_sid(&t.sid, st);
			check_truncations(K_TASK, h, st, 0);
		}
	}
	rb_start(&b, PERF_RECORD_COMM, 0);
	rb_bytes(&b, (unsigned char[24]){0}, 24);
	assert_int_equal(record_parse_task(rb_done(&b), 0, &t), -1);
}

/* LOST: id and count. */
static void
test_lost(void **state)
{
	uint64_t st = ST_SID_ALL;
	const struct perf_event_header *h;
	struct record_lost l;
	struct rb b;

	rb_start(&b, PERF_RECORD_LOST, 0);
	rb_u64(&b, 31);
	rb_u64(&b, 12345);
	rb_sid(&b, st);
	h = rb_done(&b);
	assert_int_equal(record_parse_lost(h, st, &l), 0);
	assert_int_equal(l.id, 31);
	assert_int_equal(l.lost, 12345);
	check_sid(&l.sid, st);
	check_truncations(K_LOST, h, st, 0);
}

/* LOST_SAMPLES: only the count before the trailer (not LOST's id then
 * count), for each trailer layout; other types are refused. */
static void
test_lost_samples(void **state)
{
	const struct perf_event_header *h;
	struct record_lost_samples l;
	struct record_lost lost;
	struct rb b;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(sid_types); i++) {
		uint64_t st = sid_types[i];

		rb_start(&b, PERF_RECORD_LOST_SAMPLES, 0);
		rb_u64(&b, 4321);
		rb_sid(&b, st);
		h = rb_done(&b);
		assert_int_equal(record_parse_lost_samples(h, st, &l), 0);
		assert_int_equal(l.lost, 4321);
		check_sid(&l.sid, st);
		check_truncations(K_LOST_SAMPLES, h, st, 0);
		assert_int_equal(record_parse_lost(h, st, &lost), -1);
	}
	rb_start(&b, PERF_RECORD_LOST, 0);
	rb_u64(&b, 31);
	rb_u64(&b, 12345);
	assert_int_equal(record_parse_lost_samples(rb_done(&b), 0, &l), -1);
}

/* What record_dispatch handed over: per handler, calls and a value. */
static uint64_t disp_lost, disp_exits, disp_exit_tid, disp_samples;

/* record_dispatch's handlers under test. */
static void
disp_lost_cb(void *arg, uint64_t n)
{
	(void)arg;
	disp_lost += n;
}

static void
disp_exit_cb(void *arg, const struct record_task *t)
{
	(void)arg;
	disp_exits++;
	disp_exit_tid = t->tid;
}

static void
disp_sample_cb(void *arg, const struct perf_event_header *h)
{
	(void)arg;
	(void)h;
	disp_samples++;
}

/* record_dispatch: each type to its handler, parsed; LOST and
 * LOST_SAMPLES both to lost; a type without a handler, or one that does
 * not parse, to none. */
static void
test_dispatch(void **state)
{
	static const struct record_sink sink = {
	    .sample = disp_sample_cb, .exit = disp_exit_cb, .lost = disp_lost_cb};
	uint64_t st = ST_SID_ALL;
	struct rb b;

	(void)state;
	rb_start(&b, PERF_RECORD_LOST, 0);
	rb_u64(&b, 31);
	rb_u64(&b, 100);
	rb_sid(&b, st);
	record_dispatch(rb_done(&b), st, &sink, NULL);
	rb_start(&b, PERF_RECORD_LOST_SAMPLES, 0);
	rb_u64(&b, 23);
	rb_sid(&b, st);
	record_dispatch(rb_done(&b), st, &sink, NULL);
	assert_int_equal(disp_lost, 123);
	record_dispatch(rb_task(&b, PERF_RECORD_EXIT, st), st, &sink, NULL);
	assert_int_equal(disp_exits, 1);
	assert_int_equal(disp_exit_tid, 11);
	/* no fork handler; a truncated exit does not parse */
	record_dispatch(rb_task(&b, PERF_RECORD_FORK, st), st, &sink, NULL);
	rb_start(&b, PERF_RECORD_EXIT, 0);
	rb_u32(&b, 10);
	record_dispatch(rb_done(&b), st, &sink, NULL);
	assert_int_equal(disp_exits, 1);
	rb_start(&b, PERF_RECORD_SAMPLE, 0);
	rb_u64(&b, 1);
	record_dispatch(rb_done(&b), 0, &sink, NULL);
	assert_int_equal(disp_samples, 1);
}

/* THROTTLE and UNTHROTTLE: time, id, stream id. */
static void
test_throttle(void **state)
{
	static const uint32_t types[] = {PERF_RECORD_THROTTLE, PERF_RECORD_UNTHROTTLE};
	uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_CPU;
	const struct perf_event_header *h;
	struct record_throttle t;
	struct rb b;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		rb_start(&b, types[i], 0);
		rb_u64(&b, 4242);
		rb_u64(&b, 31);
		rb_u64(&b, 32);
		rb_sid(&b, st);
		h = rb_done(&b);
		assert_int_equal(record_parse_throttle(h, st, &t), 0);
		assert_int_equal(t.time, 4242);
		assert_int_equal(t.id, 31);
		assert_int_equal(t.stream_id, 32);
		check_sid(&t.sid, st);
		check_truncations(K_THROTTLE, h, st, 0);
	}
}

/* Type names, and UNKNOWN beyond them. */
static void
test_type_name(void **state)
{
	assert_string_equal(record_type_name(PERF_RECORD_SAMPLE), "SAMPLE");
	assert_string_equal(record_type_name(PERF_RECORD_MMAP2), "MMAP2");
	assert_string_equal(record_type_name(PERF_RECORD_MMAP), "MMAP");
	assert_string_equal(record_type_name(PERF_RECORD_UNTHROTTLE), "UNTHROTTLE");
	assert_string_equal(record_type_name(PERF_RECORD_AUX_OUTPUT_HW_ID), "AUX_OUTPUT_HW_ID");
	assert_string_equal(record_type_name(0), "UNKNOWN");
	assert_string_equal(record_type_name(1000), "UNKNOWN");
	assert_string_equal(record_type_name(UINT32_MAX), "UNKNOWN");
}

/* Run the tests. */
/* record_time finds the timestamp in samples and in side-band trailers. */
static void
test_record_time(void **state)
{
	const uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	                    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	const struct perf_event_header *h;
	struct rb b;

	(void)state;
	rb_start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rb_u64(&b, 77);       /* identifier */
	rb_u64(&b, 0x401000); /* ip */
	rb_u32(&b, 10);
	rb_u32(&b, 11);        /* pid, tid */
	rb_u64(&b, 123456789); /* time */
	rb_u32(&b, 1);
	rb_u32(&b, 0);    /* cpu */
	rb_u64(&b, 1000); /* period */
	h = rb_done(&b);
	assert_int_equal(record_time(h, st), 123456789);
	/* without TIME in sample_type there is nothing to merge on */
	assert_int_equal(record_time(h, st & ~(uint64_t)PERF_SAMPLE_TIME), 0);
	/* a truncated sample has no time */
	((struct perf_event_header *)b.buf)->size = 24;
	assert_int_equal(record_time(h, st), 0);

	rb_start(&b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	rb_u32(&b, 10);
	rb_u32(&b, 11);
	rb_str(&b, "ls");
	rb_u32(&b, 10);
	rb_u32(&b, 11);        /* trailer: tid */
	rb_u64(&b, 987654321); /* time */
	rb_u32(&b, 1);
	rb_u32(&b, 0);  /* cpu */
	rb_u64(&b, 77); /* identifier */
	h = rb_done(&b);
	assert_int_equal(record_time(h, st), 987654321);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_record_time),
	    cmocka_unit_test(test_sample_basic),
	    cmocka_unit_test(test_sample_callchain),
	    cmocka_unit_test(test_sample_raw),
	    cmocka_unit_test(test_sample_regs),
	    cmocka_unit_test(test_sample_stack),
	    cmocka_unit_test(test_sample_shrink_stack),
	    cmocka_unit_test(test_sample_identifier),
	    cmocka_unit_test(test_sample_refused),
	    cmocka_unit_test(test_mmap2),
	    cmocka_unit_test(test_mmap1),
	    cmocka_unit_test(test_mmap_no_nul),
	    cmocka_unit_test(test_comm),
	    cmocka_unit_test(test_task),
	    cmocka_unit_test(test_lost),
	    cmocka_unit_test(test_lost_samples),
	    cmocka_unit_test(test_dispatch),
	    cmocka_unit_test(test_throttle),
	    cmocka_unit_test(test_type_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
