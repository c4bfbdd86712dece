/* stream: the one adapter for libtraceevent, and the trace pane's bounded
 * event log. Each tracepoint's format is parsed once (when it is enabled);
 * events (PERF_SAMPLE_RAW payloads, or the function tracer's) are copied
 * raw into a bounded arena on the hot path, which formats no string and
 * allocates nothing; they are decoded only when shown or printed: into
 * typed fields (numbers of every size, strings, __data_loc strings and
 * arrays, static arrays, pointers, kernel symbols) or into trace-cmd-like
 * text, escaped. When the log is full the oldest entries are dropped and
 * counted; paused, it is frozen while events are still counted. Events are
 * counted per event, since start and per refresh. Not thread-safe. */
#ifndef TRACETOP_STREAM_H
#define TRACETOP_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/util.h"

struct stream;
struct tep_handle;

/* Default log size: arena bytes and entries (a power of two). */
#define STREAM_LOG_BYTES (8u << 20)
#define STREAM_LOG_ENTRIES 65536u

/* A log of at most log_bytes of event data and max_entries entries (a
 * power of two; 0 for the defaults). */
struct stream *stream_new(size_t log_bytes, size_t max_entries);
void stream_free(struct stream *s);

/* Parse the format text of an event of system sys (from
 * events/SYS/NAME/format), once: parsing the same event again returns the
 * same index. The event index (>= 0), or -1 with err in libtraceevent's
 * words. */
int stream_add_format(struct stream *s, const char *sys, const char *text, size_t len,
                      struct tt_err *err);

/* The format text event ev was parsed from (len bytes, NUL-ended) and
 * the system given with it, or NULL past the events (a recording writes
 * it, so a replay decodes the payloads as the live run did). */
const char *stream_event_format(const struct stream *s, int ev, const char **sys, size_t *len);

/* Whether event ev prints a field as a kernel symbol (%ps). */
bool stream_event_symbolic(const struct stream *s, int ev);

/* Parse events/header_page, needed to read the function tracer's
 * buffers. 0, or -1 with err. */
int stream_add_header_page(struct stream *s, const char *text, size_t len, struct tt_err *err);

/* The index of the event with this tracepoint id, or of "sys:name"; -1
 * when it is not known. */
int stream_find_id(const struct stream *s, int id);
int stream_find_name(const struct stream *s, const char *name);

/* The common_pid of a payload (the thread it happened in), or -1. */
int stream_common_pid(const struct stream *s, const void *raw, uint32_t size);

/* The libtraceevent handle (for the tracefs adapter's buffer reader). */
struct tep_handle *stream_tep(struct stream *s);

/* Kernel addresses to names for %ps fields and symbol values: the name
 * (kept by the caller for the whole run) and the symbol's start in *start,
 * or NULL. */
typedef const char *(*stream_ksym_fn)(void *arg, uint64_t addr, uint64_t *start);
void stream_set_ksym(struct stream *s, stream_ksym_fn fn, void *arg);

/* One event to log. */
struct stream_sample {
	int ev;        /* event index, or -1: by the payload's common_type */
	uint64_t time; /* ns */
	int cpu;
	int pid, tid;     /* -1: the payload's common_pid */
	const char *comm; /* interned (kept by pointer), or NULL */
	const void *raw;
	uint32_t raw_size;
	const uint64_t *ips; /* callchain as the kernel gave it, or NULL */
	uint32_t nips;
};

/* The hot path: count the event and copy it into the log, dropping the
 * oldest entries for room (counted). false for an event that is not
 * known (counted in unknown). */
bool stream_push(struct stream *s, const struct stream_sample *smp);

/* Freeze (true) or thaw the log; events are still counted while frozen. */
void stream_pause(struct stream *s, bool paused);
bool stream_paused(const struct stream *s);

/* Empty the log. */
void stream_clear(struct stream *s);

/* Take the n oldest entries out of the log (batch prints each entry once,
 * then consumes it). */
void stream_consume(struct stream *s, size_t n);

/* The log is in time order: events of several CPUs that reach the stream
 * a little out of order (up to STREAM_REORDER_MAX places) are put in
 * their place. A reader that must never print out of order (batch, which
 * consumes what it prints) prints only the settled entries: those before
 * stream_settled (stream_count_until), and the rest at the end. */
#define STREAM_REORDER_MAX 4096
/* How late an event may reach the stream after it happened. */
#define STREAM_REORDER_NS 20000000ULL

/* After a read of every source at CLOCK_MONOTONIC mono_now: every event
 * pushed so far happened before then (this ties the events' clock to
 * ours). */
void stream_mark(struct stream *s, uint64_t mono_now);

/* The event time before which no event can still arrive, as of mono_now
 * (UINT64_MAX before any event). */
uint64_t stream_settled(const struct stream *s, uint64_t mono_now);

/* How many entries (from the oldest) happened at or before time. */
size_t stream_count_until(const struct stream *s, uint64_t time);

/* Count events the kernel lost (ring overflows) in the totals. */
void stream_add_lost(struct stream *s, uint64_t n);

/* Close a refresh interval: per-event interval counts and rates. */
void stream_tick(struct stream *s);

struct stream_stats {
	uint64_t events;          /* pushed since start */
	uint64_t dropped;         /* entries pushed out of the full log */
	uint64_t frozen;          /* events not logged while paused */
	uint64_t unknown;         /* payloads of no known event */
	uint64_t lost;            /* events the kernel dropped */
	uint64_t interval_events; /* in the last refresh */
	uint64_t interval_dropped;
	uint64_t interval_lost;
	double interval_secs; /* length of the last refresh */
	double secs;          /* since the stream was made */
};
const struct stream_stats *stream_stats(const struct stream *s);

/* Per-event counts, as of the last stream_tick. */
struct stream_event_info {
	const char *name;         /* "subsys:name", interned */
	int id;                   /* tracepoint id */
	uint64_t total, interval; /* since start, last refresh */
	double rate, total_rate;  /* per second: last refresh, since start */
};
size_t stream_nevents(const struct stream *s);
void stream_event_info(const struct stream *s, size_t ev, struct stream_event_info *out);

/* One logged event: pointers into the log, valid until the next push,
 * consume, clear or free. */
struct stream_entry {
	uint64_t seq; /* position since start: a stable identity */
	uint64_t time;
	int cpu, pid, tid;
	const char *comm; /* raw (escape before output), or NULL */
	int ev;
	const char *event; /* "subsys:name" */
	const void *raw;   /* NUL-guarded: raw[raw_size] == 0 */
	uint32_t raw_size;
	const uint64_t *ips; /* callchain, or NULL */
	uint32_t nips;
};

/* Entries in the log; entry i from the oldest (0). false past the end. */
size_t stream_len(const struct stream *s);
bool stream_get(const struct stream *s, size_t i, struct stream_entry *out);

/* The sequence numbers of the oldest entry in the log and of the next
 * one to come (equal when the log is empty). */
uint64_t stream_first_seq(const struct stream *s);
uint64_t stream_next_seq(const struct stream *s);

/* The index of the entry with sequence number seq, or of the oldest one
 * after it (stream_len when none): keeps a position across drops. */
size_t stream_index_of(const struct stream *s, uint64_t seq);

/* What the pane filters on: 0 / NULL means any; comm and event match as
 * substrings (of the raw comm, of "subsys:name"). */
struct stream_filter {
	int pid;
	const char *comm;
	const char *event;
};
bool stream_match(const struct stream_entry *en, const struct stream_filter *f);

/* A decoded field. */
enum stream_kind {
	STREAM_INT,   /* signed number: i */
	STREAM_UINT,  /* unsigned number: u (pointer: hex in text) */
	STREAM_BOOL,  /* u is 0 or 1 */
	STREAM_STR,   /* str, len bytes, raw (escape before output) */
	STREAM_SYM,   /* a kernel address u, str its symbol (NULL if unknown) + off */
	STREAM_ARRAY, /* count numbers of elem_size bytes at data */
	STREAM_BAD,   /* outside the payload: the event is truncated */
};

struct stream_value {
	const char *name;
	const char *type; /* the C type from the format */
	enum stream_kind kind;
	bool pointer;   /* UINT from a pointer field */
	bool is_signed; /* INT, or ARRAY of signed elements */
	int64_t i;
	uint64_t u;
	const char *str;
	size_t len;
	uint64_t off;     /* SYM: address - symbol start */
	const void *data; /* ARRAY */
	size_t count;
	unsigned elem_size;
};

/* Decode the fields of en (common fields left out) into vals, at most
 * max; returns the number of fields the event has. */
size_t stream_decode(const struct stream *s, const struct stream_entry *en,
                     struct stream_value *vals, size_t max);

/* Element i of an ARRAY value, as a signed or unsigned number (by
 * is_signed: cast the result). */
uint64_t stream_array_elem(const struct stream_value *v, size_t i);

/* The fields as the event's own print format shows them (trace-cmd's
 * text), escaped, into buf; "[truncated]" for a payload that does not
 * hold its fields. Returns the length. */
size_t stream_format_fields(struct stream *s, const struct stream_entry *en, char *buf, size_t len);

/* A whole line like trace-cmd's: "comm-pid [cpu] secs.usecs: subsys:name:
 * fields", escaped. Returns the length. */
size_t stream_format_line(struct stream *s, const struct stream_entry *en, char *buf, size_t len);

#endif
