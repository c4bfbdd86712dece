/* worker: the one helper thread that does slow lookups (symbol tables,
 * DWARF inlines, source lines, debug files) off the loop thread. A job
 * works on storage of its own (or state only the worker touches) and
 * never writes what the loop thread reads, such as a struct dso: its done
 * hands the answer over, on the loop thread. Two single-producer,
 * single-consumer lock-free rings of fixed size: jobs go in from the loop
 * thread, answered jobs come back to it. Posting never allocates, locks or
 * waits; answers are applied on the loop thread by worker_poll. Quick jobs
 * go first: a job may put itself off while others wait (opening a big
 * debug file can take 100 ms; lookups in open ones take microseconds). */
#ifndef TRACETOP_WORKER_H
#define TRACETOP_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Answer slots in a job (the engine keeps 4 inlined frames per address). */
#define WORKER_JOB_PTRS 8

/* One job, copied by value through the rings. The caller fills run, done,
 * ctx and its question (obj, arg); run fills the answer (status, n, ptr). */
struct worker_job {
	/* On the worker thread: answer, and return true; or, only when
	 * may_defer, return false to be run again once no job is queued
	 * (then the quick ones among the deferred first, else the oldest
	 * with may_defer false). */
	bool (*run)(struct worker_job *j, bool may_defer);
	void (*done)(struct worker_job *j); /* on the loop thread, in worker_poll */
	void *ctx;                          /* the poster's state (for run and done) */
	void *obj;                          /* what the question is about (e.g. a DSO) */
	uint64_t arg;                       /* e.g. an address */
	int status;                         /* answer: run's verdict, for done */
	uint32_t n;                         /* answer: used entries of ptr */
	const void *ptr[WORKER_JOB_PTRS];
};

struct worker;

/* Start the thread with rings of depth jobs (rounded up to a power of
 * two); NULL with *errnum set when the thread cannot start. */
struct worker *worker_new(size_t depth, int *errnum);

/* Queue a job for the worker; false when depth jobs are already in flight
 * (posted and not yet polled back): the caller asks again later. Loop
 * thread only. */
bool worker_post(struct worker *w, const struct worker_job *j);

/* Call done for each answered job, in posting order but for the jobs that
 * deferred themselves; how many. Never waits. Loop thread only. */
size_t worker_poll(struct worker *w);

/* Jobs posted and not yet polled back. */
size_t worker_inflight(const struct worker *w);

/* Wait until every job in flight is answered (tests, and callers that want
 * an answer now); then worker_poll delivers them all. */
void worker_drain(struct worker *w);

/* Stop the thread: the job running finishes, queued ones are dropped
 * unanswered (their done is never called), answers not yet polled too. */
void worker_free(struct worker *w);

#endif
