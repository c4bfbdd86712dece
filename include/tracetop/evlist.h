/* evlist: the events being sampled, opened for a target (CPUs x threads),
 * with one ring buffer per CPU that every event on that CPU writes into.
 * Handles the no-PMU fallback (cycles -> cpu-clock) and turns the kernel's
 * refusals into messages that say what to change. */
#ifndef TRACETOP_EVLIST_H
#define TRACETOP_EVLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/evspec.h"
#include "tracetop/ring.h"
#include "tracetop/util.h"

struct evsel {
	struct evspec spec;  /* what was opened (after any fallback) */
	char requested[128]; /* what the user asked for */
	bool fell_back;
	uint64_t *ids; /* kernel sample ids of its fds */
	size_t nids;
	void *priv; /* the owner's per-event state */
};

struct evlist_target {
	const int *cpus; /* CPUs to open on */
	size_t ncpus;
	const int *tids; /* threads (or a command's pid); none = system-wide */
	size_t ntids;
	bool inherit;        /* follow children created later */
	bool enable_on_exec; /* start counting at the command's exec */
};

struct evlist_params {
	uint64_t freq;               /* samples/s per CPU, or 0 */
	uint64_t period;             /* events per sample when freq is 0 */
	unsigned mmap_pages;         /* data pages per ring, power of two */
	uint64_t sample_type;        /* PERF_SAMPLE_* */
	uint64_t regs_user;          /* PERF_SAMPLE_REGS_USER mask */
	uint32_t stack_user;         /* PERF_SAMPLE_STACK_USER bytes */
	bool exclude_callchain_user; /* the user part comes from unwinding */
	bool wake_each;              /* wake the reader at every record (side band only) */
};

/* A slot of the sample id -> event table. */
struct evlist_id {
	uint64_t id;
	struct evsel *ev; /* NULL: a free slot (any id, 0 too, is a key) */
};

struct evlist {
	struct evsel *evsels;
	size_t nevsels;
	struct evlist_id *idtab; /* open addressing, at most half full */
	size_t idmask;           /* slots - 1; the table is NULL before the ids are known */
	struct ring *rings;      /* one per CPU */
	int *ring_fds;
	size_t nrings;
	int *fds; /* every fd, for enable/close */
	size_t nfds;
	uint64_t sample_type;
	char notice[320]; /* fallback notice, "" if none */
};

/* Open every spec on the target and map the rings. 0, or -1 with err
 * naming the event and what to change. */
int evlist_open(struct evlist *el, const struct evspec *specs, size_t n,
                const struct evlist_target *t, const struct evlist_params *p, struct tt_err *err);

/* Start or stop counting on every fd. */
int evlist_enable(struct evlist *el);
int evlist_disable(struct evlist *el);

/* Open one more event, attr as given, on (pid, cpu) writing into the ring
 * of CPU slot ri (mapped by evlist_open): its fd (the caller closes it)
 * and sample id in *id, or -1 with errno (ENODEV: no ring there). */
int evlist_attach(struct evlist *el, struct perf_event_attr *a, int pid, int cpu, size_t ri,
                  uint64_t *id);

/* The same into the ring of out_fd (any event owning a mapped ring on cpu). */
int evlist_attach_fd(int out_fd, struct perf_event_attr *a, int pid, int cpu, uint64_t *id);

/* A software event counting on cpu (all tasks), disabled, no ring: the
 * fd (read(2) gives its u64 count), or -1 with errno. */
int evlist_counter_open(uint32_t config, int cpu);

/* Map a ring of pages (a power of two) on cpu of its own, owned by a
 * dummy event that never counts (others write into it by
 * evlist_attach_fd): a source whose records must not crowd the samples'
 * rings, nor its losses be theirs. The owner's fd, or -1 with errno. */
int evlist_ring_open(struct ring *r, int cpu, uint64_t sample_type, unsigned pages);

/* The event a sample id belongs to, or NULL: one hash probe sequence, no
 * allocation (the samples' hot path). */
struct evsel *evlist_find_id(const struct evlist *el, uint64_t id);

/* (Re)build the id table from the evsels' ids; evlist_open does it once
 * every fd is open. An id listed twice keeps its first event. */
void evlist_index_ids(struct evlist *el);

void evlist_close(struct evlist *el);

/* Drain the rings of n evlists merged in time order (an entry on one CPU
 * and its exit on another must meet in order; so must a wakeup in one
 * list and the switch in another): the ring whose next record is oldest
 * goes first, a linear scan, rings being few. fn gets each record with
 * the list it came from. */
void evlist_read_ordered(struct evlist *const *els, size_t n,
                         void (*fn)(void *arg, struct evlist *el,
                                    const struct perf_event_header *h),
                         void *arg);

/* The message for a perf_event_open errno on spec (also used by tests). */
void evlist_open_error(int errnum, const struct evspec *spec, int pid, int cpu,
                       const struct evlist_params *p, struct tt_err *err);

#endif
