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

#include "tracetop/counters.h"
#include "tracetop/engine.h"
#include "tracetop/hist.h"
#include "tracetop/probe.h"

/* One sampled event in a frame. */
struct frame_event {
	const char *name;          /* as sampled (after a fallback) */
	uint64_t samples;          /* in the interval */
	uint64_t total;            /* since start */
	struct hist_snapshot rows; /* sorted by the session's keys (with rows) */
	/* The event's call graph as it was (NULL without -g): a copy taken
	 * with the rows, so it stays as long as they do. */
	struct callgraph *cg;
};

/* The sampling source's part. */
struct frame_sampling {
	struct frame_event *events;
	size_t nevents, cap;
	struct engine_stats stats; /* totals and the interval's samples and loss */
	const char *notice;        /* the fallback notice, or NULL */
	const char *target;        /* "system-wide (2 CPUs)", "pid 123", ... */
	bool rows;                 /* events[].rows were taken */
};

/* The counters source's part: one snapshot per scope taken. */
struct frame_counters {
	struct counters_snapshot scopes[COUNTERS_NSCOPES];
	unsigned taken;     /* bit s: scopes[s] is this frame's */
	const char *notice; /* why some counters are missing, or NULL */
};

struct frame {
	uint64_t seq;     /* refreshes so far: 1 for the first frame */
	uint64_t time_ns; /* monotonic clock at the end of the interval */
	double wall;      /* wall-clock seconds at the end of the interval */
	double secs;      /* length of the interval */
	bool final;       /* the last frame of the run */
	bool has_sampling, has_counters, has_probes;
	struct frame_sampling sampling;
	struct frame_counters counters;
	struct probes_snapshot probes;
};

/* Free what a frame holds and reset it. */
void frame_free(struct frame *f);

/* Event idx of f, or NULL when f has no such event. */
static inline const struct frame_event *
frame_event(const struct frame *f, size_t idx)
{
	return idx < f->sampling.nevents ? &f->sampling.events[idx] : NULL;
}

#endif
