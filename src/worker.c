/* worker: the helper thread and its two rings. Each ring has one producer
 * and one consumer, so a slot is handed over by one release store of the
 * producer's index and one acquire load on the other side: no lock on
 * either side. The worker sleeps on a semaphore the loop thread posts once
 * per job (sem_post is an atomic add, a futex wake only when it sleeps). */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>

#include "tracetop/util.h"
#include "tracetop/worker.h"

/* How much nicer than the loop the worker thread runs. */
#define WORKER_NICE 10

#define WORKER_MIN_DEPTH 16
/* How long worker_drain sleeps between looks at the reply ring. */
#define WORKER_DRAIN_NAP_NS 100000L
/* Jobs put off run when none has come for this long: at start-up a burst
 * of new addresses comes in the first milliseconds, and those of DSOs
 * already open must not wait behind a debug file being opened. */
#define WORKER_QUIET_NS 10000000ULL

/* One direction: slots[tail .. head) hold jobs, indices only grow. */
struct worker_ring {
	struct worker_job *slots;
	_Atomic size_t head; /* written by the producer only */
	_Atomic size_t tail; /* written by the consumer only */
};

struct worker {
	pthread_t thread;
	sem_t wake; /* one post per job, one for the stop */
	atomic_bool stop;
	size_t mask;              /* depth - 1 */
	struct worker_ring req;   /* loop thread -> worker */
	struct worker_ring rep;   /* worker -> loop thread */
	struct worker_job *later; /* jobs that deferred themselves, oldest first */
	size_t nlater;            /* (worker thread only) */
	uint64_t last_job_ns;     /* when the worker last took a job (idem) */
	size_t posted, polled;    /* loop thread only */
};

/* Put a job in a ring; the caller has made sure there is room. */
static void
ring_push(struct worker_ring *r, size_t mask, const struct worker_job *j)
{
	size_t h = atomic_load_explicit(&r->head, memory_order_relaxed);

	r->slots[h & mask] = *j;
	atomic_store_explicit(&r->head, h + 1, memory_order_release);
}

/* Take the oldest job of a ring; false when it is empty. */
static bool
ring_pop(struct worker_ring *r, size_t mask, struct worker_job *j)
{
	size_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);

	if (t == atomic_load_explicit(&r->head, memory_order_acquire))
		return false;
	*j = r->slots[t & mask];
	atomic_store_explicit(&r->tail, t + 1, memory_order_release);
	return true;
}

/* Sleep until a job is posted (or the stop), or until the monotonic time
 * deadline_ns when it is not 0; false on the timeout. */
static bool
worker_sleep(struct worker *w, uint64_t deadline_ns)
{
	struct timespec ts = {(time_t)(deadline_ns / 1000000000ULL),
	                      (long)(deadline_ns % 1000000000ULL)};
	int rc;

	do
		rc = deadline_ns ? sem_clockwait(&w->wake, CLOCK_MONOTONIC, &ts)
		                 : sem_wait(&w->wake);
	while (rc != 0 && errno == EINTR);
	return rc == 0;
}

/* With nothing queued: answer the deferred jobs that have become quick
 * (their debug file opened meanwhile); if none has, and no job came for a
 * while, the oldest, however long it takes. */
static void
worker_run_later(struct worker *w)
{
	size_t i, kept = 0;

	for (i = 0; i < w->nlater; i++) {
		if (w->later[i].run(&w->later[i], true))
			ring_push(&w->rep, w->mask, &w->later[i]);
		else
			w->later[kept++] = w->later[i];
	}
	w->nlater = kept;
	if (kept == 0 || kept < i || worker_sleep(w, w->last_job_ns + WORKER_QUIET_NS))
		return;
	(void)w->later[0].run(&w->later[0], false);
	ring_push(&w->rep, w->mask, &w->later[0]);
	memmove(w->later, w->later + 1, --w->nlater * sizeof *w->later);
}

/* The thread: run each job and hand it back, until told to stop. The reply
 * ring and the deferred list cannot overflow: worker_post keeps at most
 * depth jobs in flight. The semaphore only puts the thread to sleep: a
 * count left over from a job taken early costs one empty turn. */
static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct worker_job j;

	/* Lower than the loop's: on a busy machine the ring drain and the
	 * first frame go first, slow answers can wait. (Best effort.) */
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), WORKER_NICE);
	while (!atomic_load_explicit(&w->stop, memory_order_acquire)) {
		if (ring_pop(&w->req, w->mask, &j)) {
			(void)sem_trywait(&w->wake);
			w->last_job_ns = now_ns();
			if (j.run(&j, true))
				ring_push(&w->rep, w->mask, &j);
			else
				w->later[w->nlater++] = j;
		} else if (w->nlater > 0) {
			worker_run_later(w);
		} else {
			(void)worker_sleep(w, 0);
		}
	}
	return NULL;
}

/* Start the thread. */
struct worker *
worker_new(size_t depth, int *errnum)
{
	struct worker *w = xcalloc(1, sizeof *w);
	sigset_t all, old;
	size_t cap = WORKER_MIN_DEPTH;
	int rc;

	while (cap < depth)
		cap *= 2;
	w->mask = cap - 1;
	w->req.slots = xcalloc(cap, sizeof *w->req.slots);
	w->rep.slots = xcalloc(cap, sizeof *w->rep.slots);
	w->later = xcalloc(cap, sizeof *w->later);
	atomic_init(&w->req.head, 0);
	atomic_init(&w->req.tail, 0);
	atomic_init(&w->rep.head, 0);
	atomic_init(&w->rep.tail, 0);
	atomic_init(&w->stop, false);
	if (sem_init(&w->wake, 0, 0) != 0) {
		*errnum = errno;
		goto fail;
	}
	/* The loop reads signals from a signalfd, which needs them blocked in
	 * every thread: a SIGINT delivered here would kill us uncleaned. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&w->thread, NULL, worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc == 0)
		return w;
	*errnum = rc;
	sem_destroy(&w->wake);
fail:
	free(w->req.slots);
	free(w->rep.slots);
	free(w->later);
	free(w);
	return NULL;
}

/* Queue a job. */
bool
worker_post(struct worker *w, const struct worker_job *j)
{
	if (w->posted - w->polled > w->mask)
		return false;
	ring_push(&w->req, w->mask, j);
	w->posted++;
	sem_post(&w->wake);
	return true;
}

/* Deliver the answers that have come back. */
size_t
worker_poll(struct worker *w)
{
	struct worker_job j;
	size_t n = 0;

	while (ring_pop(&w->rep, w->mask, &j)) {
		w->polled++;
		n++;
		j.done(&j);
	}
	return n;
}

/* Jobs in flight. */
size_t
worker_inflight(const struct worker *w)
{
	return w->posted - w->polled;
}

/* Wait for every job in flight to be answered. */
void
worker_drain(struct worker *w)
{
	const struct timespec nap = {0, WORKER_DRAIN_NAP_NS};

	while (atomic_load_explicit(&w->rep.head, memory_order_acquire) != w->posted)
		nanosleep(&nap, NULL);
}

/* Stop and free; deferred jobs are dropped with the queued ones. */
void
worker_free(struct worker *w)
{
	if (w == NULL)
		return;
	atomic_store_explicit(&w->stop, true, memory_order_release);
	sem_post(&w->wake);
	pthread_join(w->thread, NULL);
	sem_destroy(&w->wake);
	free(w->req.slots);
	free(w->rep.slots);
	free(w->later);
	free(w);
}
