/* system-fixture: what the system source's unit tests share: real-time
 * naps (the source's intervals are real time) and finding a process in a
 * frame part. */
#ifndef TRACETOP_TEST_SYSTEM_FIXTURE_H
#define TRACETOP_TEST_SYSTEM_FIXTURE_H

#include <stddef.h>
#include <time.h>

#include "tracetop/system.h"

/* Sleep ms milliseconds (intervals of the source are real time). */
static inline void
nap(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/* The process pid of a frame part, or NULL. */
static inline const struct system_proc *
proc_of(const struct frame_system *fs, int pid)
{
	for (size_t i = 0; i < fs->nprocs; i++)
		if (fs->procs[i].pid == pid)
			return &fs->procs[i];
	return NULL;
}

#endif
