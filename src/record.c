/* record: PERF_RECORD_* bytes to typed structs. Every read goes through a
 * bounded cursor, so a truncated or corrupt record fails instead of reading
 * past its end. */
#include "config.h"

#include <string.h>
#include <sys/mman.h>

#include "tracetop/record.h"
#include "tracetop/util.h"

/* Sample fields that make up the sample_id_all trailer. */
#define SID_BITS                                                                                   \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |             \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* A read position inside one record; fail sticks once a read runs short. */
struct cursor {
	const unsigned char *start; /* the record header, for alignment */
	const unsigned char *p;
	const unsigned char *end;
	bool fail;
};

/* Read bytes from [p, end) of the record that starts at start. */
static void
cur_init(struct cursor *c, const void *start, const void *p, const void *end)
{
	c->start = start;
	c->p = p;
	c->end = end;
	c->fail = false;
}

/* Take n bytes and return where they start, or NULL (and fail) if short. */
static const void *
cur_bytes(struct cursor *c, uint64_t n)
{
	const unsigned char *at = c->p;

	if (c->fail || n > (uint64_t)(c->end - c->p)) {
		c->fail = true;
		c->p = c->end;
		return NULL;
	}
	c->p += n;
	return at;
}

/* Take an array of n elements of size sz without overflowing n * sz. */
static const void *
cur_array(struct cursor *c, uint64_t n, size_t sz)
{
	if (n > (uint64_t)(c->end - c->p) / sz) {
		c->fail = true;
		c->p = c->end;
		return NULL;
	}
	return cur_bytes(c, n * sz);
}

/* Read a u64 (0 if short). */
static uint64_t
cur_u64(struct cursor *c)
{
	const void *at = cur_bytes(c, sizeof(uint64_t));
	uint64_t v = 0;

	if (at != NULL)
		memcpy(&v, at, sizeof v);
	return v;
}

/* Read a u32 (0 if short). */
static uint32_t
cur_u32(struct cursor *c)
{
	const void *at = cur_bytes(c, sizeof(uint32_t));
	uint32_t v = 0;

	if (at != NULL)
		memcpy(&v, at, sizeof v);
	return v;
}

/* Skip to the next u64 boundary of the record (padding after RAW data). */
static void
cur_align8(struct cursor *c)
{
	uint64_t off = (uint64_t)(c->p - c->start);

	cur_bytes(c, ((off + 7) & ~(uint64_t)7) - off);
}

/* Take the rest of the record as a string that must be NUL-terminated. */
static const char *
cur_cstr(struct cursor *c)
{
	const char *s = (const char *)c->p;

	if (c->fail || memchr(s, '\0', (size_t)(c->end - c->p)) == NULL) {
		c->fail = true;
		return NULL;
	}
	c->p = c->end;
	return s;
}

/* Check a side-band record's size, split off its sample_id_all trailer into
 * sid and leave body positioned on the fields before it. 0 or -1. The kernel
 * pads side-band records to a multiple of 8 bytes (strings with NULs), so a
 * size that is not is corrupt; this also makes any truncation detectable. */
static int
side_open(const struct perf_event_header *h, uint64_t sample_type, struct cursor *body,
          struct record_id *sid)
{
	const unsigned char *rec = (const unsigned char *)h;
	size_t tsize = 8 * (size_t)__builtin_popcountll(sample_type & SID_BITS);
	struct cursor t;

	memset(sid, 0, sizeof *sid);
	if (h->size < sizeof *h + tsize || h->size % 8 != 0)
		return -1;
	cur_init(body, rec, rec + sizeof *h, rec + h->size - tsize);
	cur_init(&t, rec, rec + h->size - tsize, rec + h->size);
	if (sample_type & PERF_SAMPLE_TID) {
		sid->pid = cur_u32(&t);
		sid->tid = cur_u32(&t);
	}
	if (sample_type & PERF_SAMPLE_TIME)
		sid->time = cur_u64(&t);
	if (sample_type & PERF_SAMPLE_ID)
		sid->id = cur_u64(&t);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		cur_u64(&t);
	if (sample_type & PERF_SAMPLE_CPU) {
		sid->cpu = cur_u32(&t);
		cur_u32(&t);
	}
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		sid->id = cur_u64(&t);
	return t.fail ? -1 : 0;
}

/* The timestamp of any record, for merging the rings in time order. */
uint64_t
record_time(const struct perf_event_header *h, uint64_t sample_type)
{
	struct cursor body;
	struct record_id sid;
	size_t off = sizeof *h;
	uint64_t t;

	if (!(sample_type & PERF_SAMPLE_TIME))
		return 0;
	if (h->type != PERF_RECORD_SAMPLE)
		return side_open(h, sample_type, &body, &sid) == 0 ? sid.time : 0;
	off += 8 * (size_t)__builtin_popcountll(
	               sample_type & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID));
	if (h->size < off + sizeof t)
		return 0;
	memcpy(&t, (const unsigned char *)h + off, sizeof t);
	return t;
}

/* Parse a PERF_RECORD_SAMPLE laid out for sample_type. */
int
record_parse_sample(const struct perf_event_header *h, uint64_t sample_type,
                    uint64_t sample_regs_user, struct record_sample *out)
{
	const unsigned char *rec = (const unsigned char *)h;
	unsigned cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct cursor c;

	memset(out, 0, sizeof *out);
	if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof *h ||
	    (sample_type & (PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK)))
		return -1;
	cur_init(&c, rec, rec + sizeof *h, rec + h->size);
	out->kernel =
	    cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		out->id = cur_u64(&c);
	if (sample_type & PERF_SAMPLE_IP)
		out->ip = cur_u64(&c);
	if (sample_type & PERF_SAMPLE_TID) {
		out->pid = cur_u32(&c);
		out->tid = cur_u32(&c);
	}
	if (sample_type & PERF_SAMPLE_TIME)
		out->time = cur_u64(&c);
	if (sample_type & PERF_SAMPLE_ADDR)
		out->addr = cur_u64(&c);
	if (sample_type & PERF_SAMPLE_ID)
		out->id = cur_u64(&c);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		cur_u64(&c);
	if (sample_type & PERF_SAMPLE_CPU) {
		out->cpu = cur_u32(&c);
		cur_u32(&c);
	}
	if (sample_type & PERF_SAMPLE_PERIOD)
		out->period = cur_u64(&c);
	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		out->nr = cur_u64(&c);
		out->ips = cur_array(&c, out->nr, sizeof(uint64_t));
	}
	if (sample_type & PERF_SAMPLE_RAW) {
		out->raw_size = cur_u32(&c);
		out->raw = cur_bytes(&c, out->raw_size);
		cur_align8(&c);
	}
	if (sample_type & PERF_SAMPLE_REGS_USER) {
		out->user_abi = cur_u64(&c);
		if (out->user_abi != 0) {
			out->nr_regs = (uint64_t)__builtin_popcountll(sample_regs_user);
			out->user_regs = cur_array(&c, out->nr_regs, sizeof(uint64_t));
		}
	}
	if (sample_type & PERF_SAMPLE_STACK_USER) {
		uint64_t size = cur_u64(&c), dyn;

		if (size != 0) {
			out->stack = cur_bytes(&c, size);
			dyn = cur_u64(&c);
			out->stack_size = dyn < size ? dyn : size;
		}
	}
	return c.fail ? -1 : 0;
}

/* A sample's copy with its user stack cut to dyn_size (see record.h). */
size_t
record_sample_shrink_stack(const struct perf_event_header *h, const struct record_sample *s,
                           void *out)
{
	const unsigned char *rec = (const unsigned char *)h, *stack = s->stack;
	unsigned char *o = out;
	uint64_t size, keep;
	size_t at;
	struct perf_event_header nh = *h;

	if (stack == NULL || stack < rec + sizeof *h + sizeof size) {
		memcpy(out, h, h->size);
		return h->size;
	}
	at = (size_t)(stack - rec) - sizeof size; /* the declared size */
	memcpy(&size, rec + at, sizeof size);
	keep = ((uint64_t)s->stack_size + 7) & ~(uint64_t)7;
	if (at + sizeof size + size + sizeof(uint64_t) != h->size || keep >= size) {
		memcpy(out, h, h->size); /* not the last field, or nothing to cut */
		return h->size;
	}
	nh.size = (uint16_t)(at + sizeof keep + keep + sizeof(uint64_t));
	memcpy(o, &nh, sizeof nh);
	memcpy(o + sizeof nh, rec + sizeof nh, at - sizeof nh);
	memcpy(o + at, &keep, sizeof keep);
	memcpy(o + at + sizeof keep, stack, keep);
	memcpy(o + at + sizeof keep + keep, rec + h->size - sizeof(uint64_t), sizeof(uint64_t));
	return nh.size;
}

/* Parse PERF_RECORD_MMAP or PERF_RECORD_MMAP2. */
int
record_parse_mmap(const struct perf_event_header *h, uint64_t sample_type, struct record_mmap *out)
{
	struct cursor c;

	memset(out, 0, sizeof *out);
	if ((h->type != PERF_RECORD_MMAP && h->type != PERF_RECORD_MMAP2) ||
	    side_open(h, sample_type, &c, &out->sid) != 0)
		return -1;
	out->pid = cur_u32(&c);
	out->tid = cur_u32(&c);
	out->start = cur_u64(&c);
	out->len = cur_u64(&c);
	out->pgoff = cur_u64(&c);
	if (h->type == PERF_RECORD_MMAP) {
		out->exec = !(h->misc & PERF_RECORD_MISC_MMAP_DATA);
	} else if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		const uint8_t *b = cur_bytes(&c, 4 + sizeof out->build_id);

		if (b != NULL) {
			if (b[0] > sizeof out->build_id)
				return -1;
			out->build_id_size = b[0];
			memcpy(out->build_id, b + 4, sizeof out->build_id);
		}
	} else {
		out->maj = cur_u32(&c);
		out->min = cur_u32(&c);
		out->ino = cur_u64(&c);
		out->ino_generation = cur_u64(&c);
	}
	if (h->type == PERF_RECORD_MMAP2) {
		out->prot = cur_u32(&c);
		out->flags = cur_u32(&c);
		out->exec = (out->prot & PROT_EXEC) != 0;
	}
	out->filename = cur_cstr(&c);
	return c.fail ? -1 : 0;
}

/* Parse PERF_RECORD_COMM. */
int
record_parse_comm(const struct perf_event_header *h, uint64_t sample_type, struct record_comm *out)
{
	struct cursor c;

	memset(out, 0, sizeof *out);
	if (h->type != PERF_RECORD_COMM || side_open(h, sample_type, &c, &out->sid) != 0)
		return -1;
	out->pid = cur_u32(&c);
	out->tid = cur_u32(&c);
	out->comm = cur_cstr(&c);
	out->exec = (h->misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
	return c.fail ? -1 : 0;
}

/* Parse PERF_RECORD_FORK or PERF_RECORD_EXIT. */
int
record_parse_task(const struct perf_event_header *h, uint64_t sample_type, struct record_task *out)
{
	struct cursor c;

	memset(out, 0, sizeof *out);
	if ((h->type != PERF_RECORD_FORK && h->type != PERF_RECORD_EXIT) ||
	    side_open(h, sample_type, &c, &out->sid) != 0)
		return -1;
	out->pid = cur_u32(&c);
	out->ppid = cur_u32(&c);
	out->tid = cur_u32(&c);
	out->ptid = cur_u32(&c);
	out->time = cur_u64(&c);
	return c.fail ? -1 : 0;
}

/* Parse PERF_RECORD_LOST. */
int
record_parse_lost(const struct perf_event_header *h, uint64_t sample_type, struct record_lost *out)
{
	struct cursor c;

	memset(out, 0, sizeof *out);
	if (h->type != PERF_RECORD_LOST || side_open(h, sample_type, &c, &out->sid) != 0)
		return -1;
	out->id = cur_u64(&c);
	out->lost = cur_u64(&c);
	return c.fail ? -1 : 0;
}

/* Parse PERF_RECORD_LOST_SAMPLES: unlike LOST, the count comes first and
 * alone (the event is the trailer's id). */
int
record_parse_lost_samples(const struct perf_event_header *h, uint64_t sample_type,
                          struct record_lost_samples *out)
{
	struct cursor c;

	memset(out, 0, sizeof *out);
	if (h->type != PERF_RECORD_LOST_SAMPLES || side_open(h, sample_type, &c, &out->sid) != 0)
		return -1;
	out->lost = cur_u64(&c);
	return c.fail ? -1 : 0;
}

/* Parse PERF_RECORD_THROTTLE or PERF_RECORD_UNTHROTTLE. */
int
record_parse_throttle(const struct perf_event_header *h, uint64_t sample_type,
                      struct record_throttle *out)
{
	struct cursor c;

	memset(out, 0, sizeof *out);
	if ((h->type != PERF_RECORD_THROTTLE && h->type != PERF_RECORD_UNTHROTTLE) ||
	    side_open(h, sample_type, &c, &out->sid) != 0)
		return -1;
	out->time = cur_u64(&c);
	out->id = cur_u64(&c);
	out->stream_id = cur_u64(&c);
	return c.fail ? -1 : 0;
}

/* The PERF_RECORD_* name without its prefix. */
const char *
record_type_name(uint32_t type)
{
	static const char *const names[] = {
	    [PERF_RECORD_MMAP] = "MMAP",
	    [PERF_RECORD_LOST] = "LOST",
	    [PERF_RECORD_COMM] = "COMM",
	    [PERF_RECORD_EXIT] = "EXIT",
	    [PERF_RECORD_THROTTLE] = "THROTTLE",
	    [PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	    [PERF_RECORD_FORK] = "FORK",
	    [PERF_RECORD_READ] = "READ",
	    [PERF_RECORD_SAMPLE] = "SAMPLE",
	    [PERF_RECORD_MMAP2] = "MMAP2",
	    [PERF_RECORD_AUX] = "AUX",
	    [PERF_RECORD_ITRACE_START] = "ITRACE_START",
	    [PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	    [PERF_RECORD_SWITCH] = "SWITCH",
	    [PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	    [PERF_RECORD_NAMESPACES] = "NAMESPACES",
	    [PERF_RECORD_KSYMBOL] = "KSYMBOL",
	    [PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	    [PERF_RECORD_CGROUP] = "CGROUP",
	    [PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	    [PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	};

	if (type < ARRAY_SIZE(names) && names[type] != NULL)
		return names[type];
	return "UNKNOWN";
}

/* One record to its handler. */
void
record_dispatch(const struct perf_event_header *h, uint64_t st, const struct record_sink *sink,
                void *arg)
{
	union {
		struct record_mmap m;
		struct record_comm c;
		struct record_task t;
		struct record_lost l;
		struct record_lost_samples ls;
	} r;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (sink->sample != NULL)
			sink->sample(arg, h);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (sink->mmap != NULL && record_parse_mmap(h, st, &r.m) == 0)
			sink->mmap(arg, &r.m);
		break;
	case PERF_RECORD_COMM:
		if (sink->comm != NULL && record_parse_comm(h, st, &r.c) == 0)
			sink->comm(arg, &r.c);
		break;
	case PERF_RECORD_FORK:
		if (sink->fork != NULL && record_parse_task(h, st, &r.t) == 0)
			sink->fork(arg, &r.t);
		break;
	case PERF_RECORD_EXIT:
		if (sink->exit != NULL && record_parse_task(h, st, &r.t) == 0)
			sink->exit(arg, &r.t);
		break;
	case PERF_RECORD_LOST:
		if (sink->lost != NULL && record_parse_lost(h, st, &r.l) == 0)
			sink->lost(arg, r.l.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (sink->lost != NULL && record_parse_lost_samples(h, st, &r.ls) == 0)
			sink->lost(arg, r.ls.lost);
		break;
	}
}
