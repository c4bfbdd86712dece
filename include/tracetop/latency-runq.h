/* latency-runq: pairing a thread's wakeup (or preemption) with its
 * switch-in, like bcc's runqlat, from sched_wakeup(_new) and sched_switch
 * records read from several CPUs' rings. Each thread's state is kept so
 * that nothing goes unnoticed: a switch-in after a block with no wakeup
 * between is a missed wakeup (unpaired, and said so), unless the wakeup
 * comes later with an earlier time (read from another ring after it:
 * then the wait is measured and the miss taken back). A thread first
 * seen switching in was waiting since before the start: not counted.
 * Plain data: no allocation per event (the table grows with threads). */
#ifndef TRACETOP_LATENCY_RUNQ_H
#define TRACETOP_LATENCY_RUNQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/latency.h"

/* What an event did. */
enum latrunq_res {
	LATRUNQ_NONE,   /* nothing measured */
	LATRUNQ_WAIT,   /* a wait of *ns ended */
	LATRUNQ_MISSED, /* switched in after a block with no wakeup seen */
	LATRUNQ_LATE,   /* the wakeup of an earlier MISSED came: a wait of *ns */
};

/* Per thread, in a lat_pair of depth 1: its state as the key, since
 * when as the entry time; none while running (or not seen). */
struct latrunq {
	struct lat_pair p;
};

void latrunq_init(struct latrunq *q);
void latrunq_free(struct latrunq *q);

/* Thread tid was woken at t. */
enum latrunq_res latrunq_wakeup(struct latrunq *q, int tid, uint64_t t, uint64_t *ns);

/* Thread tid switched out at t, still runnable (preempted) or not. */
void latrunq_out(struct latrunq *q, int tid, bool runnable, uint64_t t);

/* Thread tid switched in at t. */
enum latrunq_res latrunq_in(struct latrunq *q, int tid, uint64_t t, uint64_t *ns);

/* Thread tid exited: forget it (a tid reused later starts clean). */
void latrunq_forget(struct latrunq *q, int tid);

#endif
