/* stream-impl: the stream module's insides, shared by stream.c (formats,
 * log, counts) and stream-decode.c (typed fields, text), which uses
 * stream.c and never the other way. Nothing outside the module includes
 * it: it brings in libtraceevent. */
#ifndef TRACETOP_STREAM_IMPL_H
#define TRACETOP_STREAM_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <traceevent/event-parse.h>

#include "tracetop/stream.h"

/* How one field is decoded. */
struct stream_field {
	struct tep_format_field *f;
	unsigned elem; /* element size of an array (or of the scalar) */
	bool is_bool;
	bool symbolic; /* printed with %ps: a kernel address */
};

/* One known event. */
struct stream_ev {
	int id;
	const char *name; /* "subsys:name", interned */
	struct tep_event *tev;
	struct stream_field *fields; /* the non-common fields, in order */
	size_t nfields;
	uint32_t min_size; /* a payload must hold every fixed field */
	char *format;      /* the format text it was parsed from (a recording's copy) */
	size_t format_len;
	const char *sys; /* the system it was given with, interned */
	uint64_t total, tick_total, interval;
	double rate, total_rate;
};

struct stream {
	struct tep_handle *tep;
	struct trace_seq seq; /* reused for text */
	struct stream_ev *evs;
	size_t nevs, cap;
	int *slots; /* id hash: event index + 1, 0 empty */
	size_t nslots;
	int common_pid_off; /* -1 until an event is known */
	/* the log: entries in an arena of abytes, positions counted
	 * monotonically (modulo abytes), and their start in refs */
	unsigned char *arena;
	uint64_t abytes, ahead, atail;
	uint64_t *refs;
	uint64_t nrefs;       /* a power of two */
	uint64_t first, next; /* sequence numbers of the oldest and the next */
	bool paused;
	stream_ksym_fn ksym;
	void *ksym_arg;
	struct stream_stats st;
	uint64_t start_ns, last_tick_ns;
	uint64_t tick_events, tick_dropped, tick_lost;
	uint64_t pass_max; /* newest event time since stream_mark */
	int64_t offset;    /* CLOCK_MONOTONIC - event clock, at most */
	bool have_offset;
};

/* The event of a payload from its common_type, or -1. */
int stream_payload_event(const struct stream *s, const void *raw, uint32_t size);

#endif
