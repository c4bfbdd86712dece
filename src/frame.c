/* frame: what every source saw in one refresh interval. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/callgraph.h"
#include "tracetop/frame.h"

/* Free a frame's snapshots. */
void
frame_free(struct frame *f)
{
	for (size_t i = 0; i < f->sampling.cap; i++) {
		hist_snapshot_free(&f->sampling.events[i].rows);
		cg_free(f->sampling.events[i].cg);
	}
	free(f->sampling.events);
	for (size_t i = 0; i < COUNTERS_NSCOPES; i++)
		counters_snapshot_free(&f->counters.scopes[i]);
	probes_snapshot_free(&f->probes);
	memset(f, 0, sizeof *f);
}
