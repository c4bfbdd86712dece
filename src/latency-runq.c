/* latency-runq: run-queue waits paired per thread (see the header). */
#include "config.h"

#include "tracetop/latency-runq.h"

/* A thread's state (its lat_pair key); running or unseen: no entry. */
enum {
	RQ_RUNNABLE, /* woken or preempted, not yet in */
	RQ_BLOCKED,  /* switched out asleep */
	RQ_UNWOKEN,  /* in after a block, its wakeup not (yet) seen */
};

/* An empty table. */
void
latrunq_init(struct latrunq *q)
{
	lat_pair_init(&q->p, 1);
}

/* Release the table. */
void
latrunq_free(struct latrunq *q)
{
	lat_pair_free(&q->p);
}

/* A wakeup: a thread asleep (or running) waits from t; one already
 * runnable keeps its first time; one that came in without it gets its
 * wait after all when t is not after its switch-in. */
enum latrunq_res
latrunq_wakeup(struct latrunq *q, int tid, uint64_t t, uint64_t *ns)
{
	int32_t state;
	uint64_t at;

	if (tid <= 0)
		return LATRUNQ_NONE; /* the idle task */
	if (!lat_pair_top(&q->p, tid, &state, &at) || state == RQ_BLOCKED) {
		lat_pair_enter(&q->p, tid, RQ_RUNNABLE, t);
	} else if (state == RQ_UNWOKEN) {
		lat_pair_forget(&q->p, tid);
		if (t <= at) {
			*ns = at - t;
			return LATRUNQ_LATE;
		}
	}
	return LATRUNQ_NONE;
}

/* A switch-out: preempted, it waits for a CPU again from t. */
void
latrunq_out(struct latrunq *q, int tid, bool runnable, uint64_t t)
{
	if (tid > 0)
		lat_pair_enter(&q->p, tid, runnable ? RQ_RUNNABLE : RQ_BLOCKED, t);
}

/* A switch-in: the wait since it became runnable, a missed wakeup after a
 * block, or nothing for a thread not seen before (or whose switch-out was
 * not seen). */
enum latrunq_res
latrunq_in(struct latrunq *q, int tid, uint64_t t, uint64_t *ns)
{
	int32_t state;
	uint64_t at;

	if (tid <= 0 || !lat_pair_top(&q->p, tid, &state, &at))
		return LATRUNQ_NONE;
	lat_pair_forget(&q->p, tid);
	if (state == RQ_RUNNABLE && at <= t) {
		*ns = t - at;
		return LATRUNQ_WAIT;
	}
	if (state == RQ_UNWOKEN)
		return LATRUNQ_NONE; /* in twice: a switch-out was not seen */
	/* no wakeup yet, or one stamped after it (clocks apart) */
	lat_pair_enter(&q->p, tid, RQ_UNWOKEN, t);
	return LATRUNQ_MISSED;
}

/* Forget tid. */
void
latrunq_forget(struct latrunq *q, int tid)
{
	lat_pair_forget(&q->p, tid);
}
