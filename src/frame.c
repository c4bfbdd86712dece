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
	memset(f, 0, sizeof *f);
}
