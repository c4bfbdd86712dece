/* session-sources: the sampling engine (with its trace stream), the
 * counters, the probes, the system counters and the latency source as
 * sources of a session. */
#include "config.h"

#include <string.h>

#include "tracetop/addrhist.h"
#include "tracetop/callgraph.h"
#include "tracetop/latency-sched.h"
#include "tracetop/latency-sys.h"
#include "tracetop/session.h"
#include "tracetop/sym-debuginfod.h"
#include "tracetop/system.h"
#include "tracetop/util.h"

/* ---- sampling ---- */

/* The engine's fds. */
static size_t
sampling_pollfds(void *src, struct pollfd *fds, size_t max)
{
	return engine_pollfds(src, fds, max);
}

/* Drain the rings. */
static void
sampling_read(void *src)
{
	engine_read(src);
}

/* When the in-kernel counts must be read before the refresh. */
static uint64_t
sampling_deadline(void *src)
{
	return engine_deadline(src);
}

/* How long the BPF engine's rings go unpolled once they woke the loop. */
static unsigned
sampling_holdoff(void *src, size_t *n)
{
	return engine_holdoff(src, n);
}

/* The command or every target exited. */
static bool
sampling_finished(void *src)
{
	return engine_finished(src);
}

/* A command or processes to watch for their exit. */
static bool
sampling_watching(void *src)
{
	return engine_watching(src);
}

/* Before the last refresh: the samples still waiting for symbols. */
static void
sampling_settle(void *src, bool final)
{
	engine_settle(src, final);
}

/* End the interval: decay or zero the counts. */
static void
sampling_tick(void *src, bool zero)
{
	engine_tick(src, zero);
}

/* Every event's counts (and sorted rows) into the frame. */
static void
sampling_snapshot(void *src, const struct session *s, struct frame *f, bool rows)
{
	static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	const enum hist_sort *sort = session_opts(s)->sort;
	struct engine *e = src;
	struct frame_sampling *fs = &f->sampling;
	size_t n = engine_nevents(e);

	frame_sampling_reserve(fs, n);
	f->has_sampling = true;
	fs->nevents = n;
	fs->stats = *engine_stats(e);
	fs->notice = engine_notice(e);
	fs->target = engine_target(e);
	fs->engine = engine_backend(e);
	fs->engine_why = engine_backend_why(e);
	symdbg_status(&fs->debuginfod);
	for (size_t i = 0; i < n; i++) {
		struct frame_event *ev = &fs->events[i];
		const struct callgraph *cg = engine_callgraph(e, i);

		ev->name = engine_event_name(e, i);
		engine_event_samples(e, i, &ev->samples, &ev->total);
		if (!rows)
			continue;
		/* merged by the grouping, the rows are sorted once, after */
		engine_snapshot(e, i,
		                session_opts(s)->group != 0 ? hist_unsorted
		                : sort != NULL              ? sort
		                                            : by_overhead,
		                NULL, NULL, &ev->rows);
		if (session_opts(s)->group != 0) {
			hist_group(&ev->rows, session_opts(s)->group,
			           sort != NULL ? sort : by_overhead);
			cg_group_children(cg, &ev->rows, session_opts(s)->group);
		}
		if (cg != NULL)
			cg_snapshot(cg, &ev->cg);
		addrhist_copy_wanted(engine_addrhist(e, i), &ev->annot);
		addrhist_copy_hot(engine_addrhist(e, i), engine_hot_copies(e), &ev->annot);
	}
	fs->rows |= rows;
	if (engine_has_stream(e)) {
		f->has_trace = true;
		engine_trace_snapshot(e, &f->trace, rows);
	}
}

/* Log entries since the last frame (a reader that must not miss one
 * looks before the bounded log drops them). */
static size_t
sampling_backlog(void *src, const struct frame *f)
{
	struct engine *e = src;
	struct stream *s;

	if (!engine_has_stream(e))
		return 0;
	s = engine_stream(e);
	return f->has_trace ? stream_len(s) - stream_index_of(s, f->trace.end_seq) : stream_len(s);
}

/* Stop sampling, release everything. */
static void
sampling_free(void *src)
{
	engine_free(src);
}

const struct source_ops source_sampling = {
    .name = "sampling",
    .pollfds = sampling_pollfds,
    .holdoff = sampling_holdoff,
    .read = sampling_read,
    .deadline = sampling_deadline,
    .finished = sampling_finished,
    .watching = sampling_watching,
    .settle = sampling_settle,
    .tick = sampling_tick,
    .snapshot = sampling_snapshot,
    .backlog = sampling_backlog,
    .free = sampling_free,
};

/* ---- counters ---- */

/* Read the counting fds: the interval's deltas. */
static void
counting_tick(void *src, bool zero)
{
	(void)zero; /* counts are per interval anyway */
	counters_tick(src);
}

/* The scopes asked for (or the one in use) into the frame. */
static void
counting_snapshot(void *src, const struct session *s, struct frame *f, bool rows)
{
	struct counters *c = src;
	unsigned scopes = session_opts(s)->counters_scopes;

	f->has_counters = true;
	f->counters.notice = counters_notice(c);
	if (!rows)
		return;
	if (scopes == 0)
		scopes = 1u << counters_scope(c);
	f->counters.taken = scopes;
	for (int i = 0; i < COUNTERS_NSCOPES; i++)
		if (scopes & (1u << i))
			counters_snapshot(c, (enum counters_scope)i, &f->counters.scopes[i]);
}

/* Close the counting fds. */
static void
counting_free(void *src)
{
	counters_free(src);
}

const struct source_ops source_counters = {
    .name = "counters",
    .tick = counting_tick,
    .snapshot = counting_snapshot,
    .free = counting_free,
};

/* ---- probes ---- */

/* Read the probes' hit counts. */
static void
probing_tick(void *src, bool zero)
{
	(void)zero;
	probes_tick(src);
}

/* Ours with their hits, and the system's other dynamic events. */
static void
probing_snapshot(void *src, const struct session *s, struct frame *f, bool rows)
{
	(void)s;
	f->has_probes = true;
	if (rows)
		probes_snapshot(src, &f->probes);
}

/* Remove our probes (after the engine: a probe in use cannot go). */
static void
probing_free(void *src)
{
	probes_free(src);
}

const struct source_ops source_probes = {
    .name = "probes",
    .tick = probing_tick,
    .snapshot = probing_snapshot,
    .free = probing_free,
};

/* ---- system ---- */

/* Read /proc and /sys: the interval's rates. */
static void
system_src_tick(void *src, bool zero)
{
	(void)zero; /* rates are per interval anyway */
	system_tick(src);
}

/* The reading into the frame (without rows, the header numbers only). */
static void
system_src_snapshot(void *src, const struct session *s, struct frame *f, bool rows)
{
	(void)s;
	f->has_system = true;
	system_snapshot(src, &f->system, rows);
}

/* Close the files. */
static void
system_src_free(void *src)
{
	system_free(src);
}

const struct source_ops source_system = {
    .name = "system",
    .tick = system_src_tick,
    .snapshot = system_src_snapshot,
    .free = system_src_free,
};

/* ---- latency ---- */

/* The rings of the syscall events. */
static size_t
latency_pollfds(void *src, struct pollfd *fds, size_t max)
{
	return latsys_pollfds(src, fds, max);
}

/* Pair what the rings hold. */
static void
latency_read(void *src)
{
	latsys_read(src);
}

/* Before the first and the last frame: what is in the rings now. */
static void
latency_settle(void *src, bool final)
{
	(void) final;
	latsys_read(src);
}

/* The interval's calls join the totals. */
static void
latency_tick(void *src, bool zero)
{
	(void)zero; /* histograms are since start; rates per interval */
	latsys_tick(src);
}

/* The rows into the frame. */
static void
latency_snapshot(void *src, const struct session *s, struct frame *f, bool rows)
{
	(void)s;
	f->has_latency = true;
	if (rows)
		latsys_snapshot(src, &f->latency);
}

/* Close the events. */
static void
latency_free(void *src)
{
	latsys_free(src);
}

const struct source_ops source_latency = {
    .name = "latency",
    .pollfds = latency_pollfds,
    .read = latency_read,
    .settle = latency_settle,
    .tick = latency_tick,
    .snapshot = latency_snapshot,
    .free = latency_free,
};

/* ---- scheduler and block latency ---- */

/* The rings of the sched and block events. */
static size_t
latsched_src_pollfds(void *src, struct pollfd *fds, size_t max)
{
	return latsched_pollfds(src, fds, max);
}

/* Pair what the rings hold (also before the first and the last frame). */
static void
latsched_src_read(void *src)
{
	latsched_read(src);
}

/* The same, for settle. */
static void
latsched_src_settle(void *src, bool final)
{
	(void) final;
	latsched_read(src);
}

/* The interval's values join the totals (histograms are since start). */
static void
latsched_src_tick(void *src, bool zero)
{
	(void)zero;
	latsched_tick(src);
}

/* Its rows into the frame, beside the syscall source's. */
static void
latsched_src_snapshot(void *src, const struct session *s, struct frame *f, bool rows)
{
	(void)s;
	f->has_latency = true;
	if (rows)
		latsched_snapshot(src, &f->latency);
	else
		latsched_taken(src, false);
}

/* Close the events. */
static void
latsched_src_free(void *src)
{
	latsched_free(src);
}

const struct source_ops source_latsched = {
    .name = "latsched",
    .pollfds = latsched_src_pollfds,
    .read = latsched_src_read,
    .settle = latsched_src_settle,
    .tick = latsched_src_tick,
    .snapshot = latsched_src_snapshot,
    .free = latsched_src_free,
};
