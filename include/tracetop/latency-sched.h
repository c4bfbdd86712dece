/* latency-sched: the scheduler and block latency source. sched_switch,
 * sched_wakeup and sched_wakeup_new, block_rq_issue and block_rq_complete
 * are opened as tracepoint perf events on every CPU (the switch-in of a
 * thread is reported in another thread's context, so a target is a
 * filter in user space, not a per-task event); their records are read in
 * time order across the CPUs' rings and paired in user space:
 *  - runq: a wakeup (or a preemption) to the thread's switch-in, per
 *    process, like bcc's runqlat;
 *  - bio: a request's issue to its completion, per device, like
 *    biolatency (always system-wide: a device is no process's);
 *  - offcpu: a thread's blocking switch-out, with its call chain, to its
 *    switch-in, per (thread, wait reason) and stack (offcpu.h);
 *  - oncpu: a thread's switch-in to its switch-out, per thread: with
 *    offcpu, where its wall-clock time went.
 * Only the kinds asked for are opened; the sched_switch event carries
 * call chains only for offcpu. runq and bio are measured in the kernel
 * instead where BPF is allowed (latency-schedbpf.h): no record per event.
 * Nothing is changed in the kernel but perf and BPF fds, gone with the
 * process. */
#ifndef TRACETOP_LATENCY_SCHED_H
#define TRACETOP_LATENCY_SCHED_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/engine.h"
#include "tracetop/latency.h"
#include "tracetop/util.h"

struct latsched;

struct latsched_opts {
	unsigned kinds;         /* bits 1u << LAT_RUNQ, LAT_BIO, LAT_OFFCPU, LAT_ONCPU */
	const int *pids, *tids; /* rows of these processes (and their children) only */
	size_t npids, ntids;    /* none: every process */
	int command;            /* a command's pid (a process of the target), or 0 */
	const int *cpus;        /* CPUs to watch; none: every online CPU */
	size_t ncpus;
	bool include_self;   /* rows for tracetop itself */
	unsigned mmap_pages; /* data pages per CPU ring (0: 128) */
	/* runq and bio: histograms in the kernel with BPF (auto: where
	 * allowed; bpf: or an error), else paired here from the rings (perf,
	 * the zeroed default) */
	enum engine_backend backend;
};

/* Does kinds ask for anything this source measures? */
bool latsched_wanted(unsigned kinds);

/* Open the events (disabled). NULL with err naming what is missing. */
struct latsched *latsched_new(const struct latsched_opts *o, struct tt_err *err);

/* A source with no events for the kinds, fed by the calls below (tests). */
struct latsched *latsched_new_offline(unsigned kinds);

/* Start counting. 0, or -1 with err. */
int latsched_start(struct latsched *l, struct tt_err *err);

/* Stop or resume (what was open across a pause is forgotten). */
void latsched_pause(struct latsched *l, bool paused);

size_t latsched_pollfds(const struct latsched *l, struct pollfd *fds, size_t max);

/* Read every ring, in time order across CPUs and events. */
void latsched_read(struct latsched *l);

/* The events the records feed (tests feed them directly). prev_pid is
 * the switched-out thread's process (the sample's pid); ips its call
 * chain (perf's order, markers included). */
void latsched_switch(struct latsched *l, int prev_pid, int prev_tid, long prev_state, int next_tid,
                     uint64_t t, const uint64_t *ips, size_t nips);
void latsched_wakeup(struct latsched *l, int tid, uint64_t t);
void latsched_bio_issue(struct latsched *l, uint32_t dev, uint64_t sector, uint64_t t);
void latsched_bio_complete(struct latsched *l, uint32_t dev, uint64_t sector, int error,
                           uint64_t t);

/* Name a process (tests; else from /proc and COMM records). */
void latsched_set_comm(struct latsched *l, int pid, const char *comm);

/* End a refresh interval. */
void latsched_tick(struct latsched *l);

/* Its rows (kinds runq, bio, offcpu) into fl, replacing its earlier
 * ones there and leaving the other sources' rows; the off-CPU trie's
 * snapshot into fl->offcpu. */
void latsched_snapshot(struct latsched *l, struct frame_latency *fl);

/* A refresh's frame left our rows out (rows false: a frozen screen's;
 * latsched_snapshot says true): the off-CPU trie's gains then add up
 * until a frame takes them (its nodes' last_self, which a recording
 * writes), whatever snapshots come between refreshes. */
void latsched_taken(struct latsched *l, bool rows);

/* What is measured, where and what it costs. */
const char *latsched_notice(const struct latsched *l);

/* Why runq/bio asked for are not measured in the kernel, or NULL (they
 * are, or were not asked for). */
const char *latsched_why_not_bpf(const struct latsched *l);

void latsched_free(struct latsched *l);

#endif
