/* frame: what every source saw in one refresh interval. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/callgraph.h"
#include "tracetop/frame.h"

/* Forget the tracepoints a trace part listed as on. */
void
frame_trace_clear_on(struct frame_trace *ft)
{
	for (size_t i = 0; i < ft->non; i++)
		free(ft->on[i].filter);
	ft->non = 0;
}

/* Room for n rows. */
void
frame_latency_reserve(struct frame_latency *fl, size_t n)
{
	if (fl->cap >= n)
		return;
	fl->cap = n > 2 * fl->cap ? n : 2 * fl->cap;
	fl->rows = xrealloc(fl->rows, fl->cap * sizeof *fl->rows);
}

/* Keep the rows of the other kinds, in order. */
void
frame_latency_drop(struct frame_latency *fl, unsigned kinds)
{
	size_t kept = 0;

	for (size_t i = 0; i < fl->nrows; i++)
		if (!(kinds & (1u << fl->rows[i].kind)))
			fl->rows[kept++] = fl->rows[i];
	fl->nrows = kept;
}

/* Free the rows. */
void
frame_latency_free(struct frame_latency *fl)
{
	free(fl->rows);
	cg_free(fl->offcpu);
	memset(fl, 0, sizeof *fl);
}

/* Free a frame's snapshots. */
void
frame_free(struct frame *f)
{
	for (size_t i = 0; i < f->sampling.cap; i++) {
		hist_snapshot_free(&f->sampling.events[i].rows);
		cg_free(f->sampling.events[i].cg);
		addrhist_copy_free(&f->sampling.events[i].annot);
	}
	free(f->sampling.events);
	for (size_t i = 0; i < COUNTERS_NSCOPES; i++)
		counters_snapshot_free(&f->counters.scopes[i]);
	probes_snapshot_free(&f->probes);
	frame_trace_clear_on(&f->trace);
	free(f->trace.on);
	free(f->trace.events);
	frame_system_free(&f->system);
	frame_latency_free(&f->latency);
	memset(f, 0, sizeof *f);
}
