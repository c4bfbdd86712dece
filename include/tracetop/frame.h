/* frame: what every source of a session saw in one refresh interval. The
 * session makes one at each refresh; the panes and the batch reports read
 * frames, never a source's internals. A frame is immutable once made: the
 * next refresh makes the next one. History (a ring of frames), recording
 * (frames written out) and replay (frames read back) build on this. */
#ifndef TRACETOP_FRAME_H
#define TRACETOP_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tracetop/addrhist.h"
#include "tracetop/counters.h"
#include "tracetop/engine.h"
#include "tracetop/hist.h"
#include "tracetop/latency.h"
#include "tracetop/probe.h"
#include "tracetop/stream.h"
#include "tracetop/sym-debuginfod.h"
#include "tracetop/system.h"
#include "tracetop/util.h"

/* One sampled event in a frame. */
struct frame_event {
	const char *name;          /* as sampled (after a fallback) */
	uint64_t samples;          /* in the interval */
	uint64_t total;            /* since start */
	struct hist_snapshot rows; /* sorted by the session's keys (with rows) */
	/* The event's call graph as it was (NULL without -g): a copy taken
	 * with the rows, so it stays as long as they do. */
	struct callgraph *cg;
	/* Per-instruction samples of the functions a user asked to annotate
	 * (the Annotate pane's, batch --annotate's), copied with the rows. */
	struct addrhist_copy annot;
};

/* The sampling source's part. */
struct frame_sampling {
	struct frame_event *events;
	size_t nevents, cap;
	struct engine_stats stats; /* totals and the interval's samples and loss */
	const char *notice;        /* the fallback notice, or NULL */
	const char *target;        /* "system-wide (2 CPUs)", "pid 123", ... */
	const char *engine;        /* the back-end counting samples: "bpf" or "perf" */
	const char *engine_why;    /* why that one (a refused BPF load's reason) */
	bool rows;                 /* events[].rows were taken */
	/* debug files from debuginfod servers: a download in progress, the
	 * servers out of reach, the last notes (each said once by the front
	 * ends: they remember the last seq they showed) */
	struct symdbg_status debuginfod;
};

/* The counters source's part: one snapshot per scope taken. */
struct frame_counters {
	struct counters_snapshot scopes[COUNTERS_NSCOPES];
	unsigned taken;     /* bit s: scopes[s] is this frame's */
	const char *notice; /* why some counters are missing, or NULL */
};

/* A tracepoint that was on, with its kernel-side filter. */
struct frame_tracepoint {
	const char *name; /* "subsys:name", interned */
	char *filter;     /* the frame's copy, or NULL for none */
};

/* The trace stream's part: the bounded log as it stood at the end of the
 * interval, the per-event counts and what was being traced. The entries
 * stay in the source's log (copying megabytes per refresh would cost more
 * than the stream itself) and are read through frame_trace_*: those
 * before end_seq belong to the frame; those before settled_seq can no
 * longer be joined by an earlier event of another CPU (batch prints only
 * those); one pushed out of the log since is gone. */
struct frame_trace {
	struct stream *log; /* the entries, and the decoder of their fields */
	/* frame i of an entry's call stack as text, false past the last
	 * (NULL: no names for stacks) */
	bool (*stack)(void *arg, const struct stream_entry *en, size_t i, char *buf, size_t len,
	              bool *kernel);
	void *stack_arg;
	uint64_t start_seq;   /* entries before it are not the frame's (a history
	                       * view's range starts there; 0: a live frame) */
	uint64_t first_seq;   /* the oldest entry still logged */
	uint64_t end_seq;     /* entries from here on came after the frame */
	uint64_t settled_seq; /* entries from here on may still move */
	struct stream_stats stats;
	struct stream_event_info *events; /* per-event counts, stream order */
	size_t nevents, events_cap;
	struct frame_tracepoint *on; /* tracepoints on */
	size_t non, on_cap;
	bool ftrace; /* the function tracer runs */
	bool paused; /* the log is frozen (events still counted) */
};

struct frame {
	uint64_t seq;     /* refreshes so far: 1 for the first frame */
	uint64_t time_ns; /* monotonic clock at the end of the interval */
	double wall;      /* wall-clock seconds at the end of the interval */
	double secs;      /* length of the interval */
	bool final;       /* the last frame of the run */
	bool has_sampling, has_counters, has_probes, has_trace, has_system, has_latency;
	struct frame_sampling sampling;
	struct frame_trace trace;
	struct frame_counters counters;
	struct probes_snapshot probes;
	struct frame_system system;
	struct frame_latency latency;
};

/* Grow a sampling part's events to n (the new ones zeroed). */
static inline void
frame_sampling_reserve(struct frame_sampling *fs, size_t n)
{
	if (fs->cap >= n)
		return;
	fs->events = xrealloc(fs->events, n * sizeof *fs->events);
	memset(fs->events + fs->cap, 0, (n - fs->cap) * sizeof *fs->events);
	fs->cap = n;
}

/* Grow a latency part's rows to hold n. */
void frame_latency_reserve(struct frame_latency *fl, size_t n);

/* Drop the rows whose kind is in kinds (bits 1u << kind): a source's
 * earlier ones, the other sources' staying. */
void frame_latency_drop(struct frame_latency *fl, unsigned kinds);

/* Free a latency part's rows. */
void frame_latency_free(struct frame_latency *fl);

/* Free what a frame holds and reset it. */
void frame_free(struct frame *f);

/* Event idx of f, or NULL when f has no such event. */
static inline const struct frame_event *
frame_event(const struct frame *f, size_t idx)
{
	return idx < f->sampling.nevents ? &f->sampling.events[idx] : NULL;
}

/* The per-instruction samples of (dso, sym) for event idx of f, those of
 * the row whose who agrees with *who on mask's fields (HIST_GROUP_*; none:
 * the whole function), or NULL when it was not asked for or has no
 * sample. */
static inline const struct addrhist_sym *
frame_annot(const struct frame *f, size_t idx, const struct dso *dso, const struct sym *sym,
            unsigned mask, const struct addrhist_who *who)
{
	const struct frame_event *ev = frame_event(f, idx);

	return ev != NULL ? addrhist_copy_find_who(&ev->annot, dso, sym, mask, who) : NULL;
}

/* Free the filters of the tracepoints a trace part lists, and empty it
 * (its storage is kept for the next snapshot). */
void frame_trace_clear_on(struct frame_trace *ft);

/* A stream's counts and state into a trace part; with rows also where its
 * log stands and the per-event counts (the tracepoints on are the
 * sampling source's to add). */
void frame_trace_take(struct frame_trace *ft, struct stream *s, bool rows);

/* Entries of the frame's trace log: how many (from the oldest still
 * logged), entry i, and the entry with sequence number seq. false past
 * the end or for an entry gone from the log. */
size_t frame_trace_len(const struct frame *f);
bool frame_trace_get(const struct frame *f, size_t i, struct stream_entry *en);
bool frame_trace_find(const struct frame *f, uint64_t seq, struct stream_entry *en);

/* The index of the entry seq, or of the oldest one after it. */
size_t frame_trace_index(const struct frame *f, uint64_t seq);

/* An entry as a whole trace-cmd-like line, and its decoded fields (as
 * stream_format_line and stream_decode); frame_trace_len > 0 first. */
size_t frame_trace_line(const struct frame *f, const struct stream_entry *en, char *buf,
                        size_t len);
size_t frame_trace_decode(const struct frame *f, const struct stream_entry *en,
                          struct stream_value *vals, size_t max);

/* An entry's fields as its print format shows them, escaped (as
 * stream_format_fields); the length. */
size_t frame_trace_fields(const struct frame *f, const struct stream_entry *en, char *buf,
                          size_t len);

/* Frame i of an entry's call stack as "symbol (object)" (as
 * engine_trace_frame); false past the last. */
bool frame_trace_stack(const struct frame *f, const struct stream_entry *en, size_t i, char *buf,
                       size_t len, bool *kernel);

/* The tracepoint name as it was in the frame: NULL when it was off, else
 * it, with its filter (NULL for none) in *filter. */
const struct frame_tracepoint *frame_trace_on(const struct frame *f, const char *name);

#endif
