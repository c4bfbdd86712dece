/* record: PERF_RECORD_* bytes to typed structs, according to the event's
 * sample_type. Parsers check every length against the record size: the
 * bytes come from the kernel but a corrupt ring must not crash us. */
#ifndef TRACETOP_RECORD_H
#define TRACETOP_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <stddef.h>

/* The sample_id trailer (sample_id_all) and sample fields we use. */
struct record_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint32_t cpu;
};

struct record_sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint32_t cpu;
	uint64_t period;
	uint64_t nr;         /* callchain length, 0 if none */
	const uint64_t *ips; /* callchain, points into the record */
	uint32_t raw_size;
	const void *raw;   /* PERF_SAMPLE_RAW payload */
	uint64_t user_abi; /* PERF_SAMPLE_REGS_USER */
	uint64_t nr_regs;
	const uint64_t *user_regs;
	uint64_t stack_size; /* PERF_SAMPLE_STACK_USER, bytes valid */
	const void *stack;
	bool kernel; /* misc says the ip is in the kernel */
};

struct record_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	uint8_t build_id[20];
	uint8_t build_id_size; /* 0 unless PERF_RECORD_MISC_MMAP_BUILD_ID */
	const char *filename;  /* NUL-terminated inside the record */
	bool exec;             /* PROT_EXEC (MMAP2) or not a data mapping (MMAP) */
	struct record_id sid;
};

struct record_comm {
	uint32_t pid, tid;
	const char *comm; /* NUL-terminated inside the record */
	bool exec;        /* PERF_RECORD_MISC_COMM_EXEC */
	struct record_id sid;
};

struct record_task { /* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
	struct record_id sid;
};

struct record_lost {
	uint64_t id, lost;
	struct record_id sid;
};

struct record_lost_samples { /* LOST_SAMPLES: the trailer's id names the event */
	uint64_t lost;
	struct record_id sid;
};

struct record_throttle { /* THROTTLE and UNTHROTTLE */
	uint64_t time, id, stream_id;
	struct record_id sid;
};

/* Parse a PERF_RECORD_SAMPLE laid out for sample_type (with
 * read_format unused: PERF_SAMPLE_READ is refused) and, for regs,
 * sample_regs_user's bit count. 0 or -1 on a truncated/invalid record. */
int record_parse_sample(const struct perf_event_header *h, uint64_t sample_type,
                        uint64_t sample_regs_user, struct record_sample *out);

/* Copy sample h, parsed into s, to out (room for h->size bytes) with its
 * user stack copy cut to the bytes the kernel filled (dyn_size, rounded up
 * to 8): a DWARF sample kept for later shrinks from its 8 KiB copy to what
 * the stack held. A sample without a stack copy, or whose copy is not its
 * last field, is copied whole. The copy's size. */
size_t record_sample_shrink_stack(const struct perf_event_header *h, const struct record_sample *s,
                                  void *out);

/* Side-band records; sample_type tells the sample_id_all trailer layout.
 * Their size must be a multiple of 8 (the kernel pads them); strings must be
 * NUL-terminated before the trailer. 0 or -1; a wrong h->type is -1. */
int record_parse_mmap(const struct perf_event_header *h, uint64_t sample_type,
                      struct record_mmap *out); /* MMAP and MMAP2 */
int record_parse_comm(const struct perf_event_header *h, uint64_t sample_type,
                      struct record_comm *out);
int record_parse_task(const struct perf_event_header *h, uint64_t sample_type,
                      struct record_task *out); /* FORK and EXIT */
int record_parse_lost(const struct perf_event_header *h, uint64_t sample_type,
                      struct record_lost *out);
int record_parse_lost_samples(const struct perf_event_header *h, uint64_t sample_type,
                              struct record_lost_samples *out);
int record_parse_throttle(const struct perf_event_header *h, uint64_t sample_type,
                          struct record_throttle *out);

/* What a reader of a ring does with each kind of record (NULL: nothing);
 * record_dispatch parses the side-band ones for it. */
struct record_sink {
	void (*sample)(void *arg, const struct perf_event_header *h);
	void (*mmap)(void *arg, const struct record_mmap *m); /* MMAP and MMAP2 */
	void (*comm)(void *arg, const struct record_comm *c);
	void (*fork)(void *arg, const struct record_task *t);
	void (*exit)(void *arg, const struct record_task *t);
	void (*lost)(void *arg, uint64_t n); /* LOST and LOST_SAMPLES */
};

/* Hand record h (laid out for sample_type) to sink's handler of its type;
 * one that does not parse is skipped. */
void record_dispatch(const struct perf_event_header *h, uint64_t sample_type,
                     const struct record_sink *sink, void *arg);

/* The timestamp of any record laid out for sample_type (which must have
 * PERF_SAMPLE_TIME and sample_id_all), or 0 when it has none. */
uint64_t record_time(const struct perf_event_header *h, uint64_t sample_type);

/* "SAMPLE", "MMAP2", ... for logs and tests. */
const char *record_type_name(uint32_t type);

#endif
