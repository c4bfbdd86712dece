/* latency-runq: run-queue waits paired per thread (see the header). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/latency-runq.h"
#include "tracetop/util.h"

/* Where a thread is, as its last event said. */
enum {
	RQ_GONE,     /* not seen, or forgotten */
	RQ_RUNNING,  /* on a CPU */
	RQ_RUNNABLE, /* woken or preempted at `at`, not yet in */
	RQ_BLOCKED,  /* switched out asleep at `at` */
	RQ_UNWOKEN,  /* in at `at` after a block, its wakeup not (yet) seen */
};

/* An empty table. */
void
latrunq_init(struct latrunq *q)
{
	q->mask = 63;
	q->used = 0;
	q->slots = xcalloc(q->mask + 1, sizeof *q->slots);
}

/* Release the table. */
void
latrunq_free(struct latrunq *q)
{
	free(q->slots);
	memset(q, 0, sizeof *q);
}

/* The slot of tid, or the free one where it would go. */
static struct latrunq_slot *
rq_slot(const struct latrunq *q, int tid)
{
	size_t i = hash_u64((uint64_t)(uint32_t)tid) & q->mask;

	while (q->slots[i].tid != 0 && q->slots[i].tid != tid)
		i = (i + 1) & q->mask;
	return &q->slots[i];
}

/* Rebuild with room for one more: threads running or gone carry nothing a
 * later event needs (their next one starts them again), so only the
 * others are kept, and it doubles only when they fill half of it. */
static void
rq_rehash(struct latrunq *q)
{
	struct latrunq_slot *old = q->slots;
	size_t n = q->mask + 1, live = 0, cap = n;

	for (size_t i = 0; i < n; i++)
		live += old[i].tid != 0 && old[i].state > RQ_RUNNING;
	while ((live + 1) * 2 > cap)
		cap *= 2;
	q->slots = xcalloc(cap, sizeof *q->slots);
	q->mask = cap - 1;
	q->used = 0;
	for (size_t i = 0; i < n; i++)
		if (old[i].tid != 0 && old[i].state > RQ_RUNNING) {
			*rq_slot(q, old[i].tid) = old[i];
			q->used++;
		}
	free(old);
}

/* The slot of tid, made (state RQ_GONE) when missing. */
static struct latrunq_slot *
rq_get(struct latrunq *q, int tid)
{
	struct latrunq_slot *s = rq_slot(q, tid);

	if (s->tid == tid)
		return s;
	if ((q->used + 1) * 2 > q->mask + 1) {
		rq_rehash(q);
		s = rq_slot(q, tid);
	}
	*s = (struct latrunq_slot){.tid = tid, .state = RQ_GONE};
	q->used++;
	return s;
}

/* A wakeup: a thread asleep (or unknown) waits from t; one already
 * runnable keeps its first time; one that came in without it gets its
 * wait after all when t is not after its switch-in. */
enum latrunq_res
latrunq_wakeup(struct latrunq *q, int tid, uint64_t t, uint64_t *ns)
{
	struct latrunq_slot *s;

	if (tid <= 0)
		return LATRUNQ_NONE; /* the idle task: slot 0 marks a free slot */
	s = rq_get(q, tid);
	switch (s->state) {
	case RQ_GONE:
	case RQ_BLOCKED:
		s->state = RQ_RUNNABLE;
		s->at = t;
		break;
	case RQ_UNWOKEN:
		s->state = RQ_RUNNING;
		if (t <= s->at) {
			*ns = s->at - t;
			return LATRUNQ_LATE;
		}
		break;
	default: /* runnable already, or woken while running */
		break;
	}
	return LATRUNQ_NONE;
}

/* A switch-out: preempted, it waits for a CPU again from t. */
void
latrunq_out(struct latrunq *q, int tid, bool runnable, uint64_t t)
{
	struct latrunq_slot *s;

	if (tid <= 0)
		return;
	s = rq_get(q, tid);
	s->state = runnable ? RQ_RUNNABLE : RQ_BLOCKED;
	s->at = t;
}

/* A switch-in: the wait since it became runnable, a missed wakeup after a
 * block, or nothing for a thread not seen before (or whose switch-out was
 * not seen). */
enum latrunq_res
latrunq_in(struct latrunq *q, int tid, uint64_t t, uint64_t *ns)
{
	struct latrunq_slot *s;
	uint8_t was;

	if (tid <= 0)
		return LATRUNQ_NONE;
	s = rq_get(q, tid);
	was = s->state;
	s->state = RQ_RUNNING;
	if (was == RQ_RUNNABLE && s->at <= t) {
		*ns = t - s->at;
		return LATRUNQ_WAIT;
	}
	if (was == RQ_BLOCKED || was == RQ_RUNNABLE) {
		/* no wakeup yet, or one stamped after it (clocks apart) */
		s->state = RQ_UNWOKEN;
		s->at = t;
		return LATRUNQ_MISSED;
	}
	return LATRUNQ_NONE;
}

/* Forget tid. */
void
latrunq_forget(struct latrunq *q, int tid)
{
	struct latrunq_slot *s;

	if (tid > 0 && (s = rq_slot(q, tid))->tid == tid)
		s->state = RQ_GONE;
}
