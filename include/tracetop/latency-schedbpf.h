/* latency-schedbpf: run-queue and block I/O latency histograms computed
 * in the kernel. A BPF program (src/bpf/schedlat.bpf.c) on the BTF
 * tracepoints sched_wakeup, sched_wakeup_new, sched_switch,
 * block_rq_issue and block_rq_complete (raw tracepoints, each held by a
 * fd of this process: no perf event of anyone's on those tracepoints is
 * touched) pairs each wakeup or preemption with the switch-in, and each
 * request's issue with its completion, into log2 histograms keyed by
 * (kind, process or device, bucket), read (not emptied) at each refresh;
 * and, for off-CPU time, takes a blocking thread's kernel and user stacks
 * (a stack map) at sched_switch and sums its time blocked by (thread,
 * stacks, state, log2 bucket) at its switch-in, like bcc's offcputime,
 * drained at each refresh.
 * Nothing is pinned: it all goes with tracetop, even after SIGKILL. */
#ifndef TRACETOP_LATENCY_SCHEDBPF_H
#define TRACETOP_LATENCY_SCHEDBPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/latency-bpf.h"
#include "tracetop/util.h"

struct schedbpf;

struct schedbpf_opts {
	bool runq, bio, offcpu; /* the kinds measured */
	const int *pids;        /* runq of these processes (and their children) only; none: all */
	size_t npids;
	bool include_self; /* tracetop's own waits too */
};

/* Load and attach (paused until schedbpf_set_on). NULL with err. */
struct schedbpf *schedbpf_new(const struct schedbpf_opts *o, struct tt_err *err);

/* Measure (on) or not; what was open across a pause is not paired. */
void schedbpf_set_on(struct schedbpf *b, bool on);

/* Every bucket, summed over CPUs, to fn: id is enum tt_sl_kind's
 * (0 runq, pid the process; 1 bio, pid the device number). 0 or -errno. */
int schedbpf_read(struct schedbpf *b, void (*fn)(void *ctx, const struct latbpf_bucket *v),
                  void *ctx);

/* Blocked time of one (thread, stacks, state, log2 bucket) since the
 * last read. */
struct schedbpf_block {
	int pid, tid;
	unsigned state;  /* the task's __state when it blocked */
	unsigned bucket; /* lat_bucket of each block's ns */
	uint64_t ns, count, min, max;
	const uint64_t *ips; /* kernel then user frames, each behind its
	                        PERF_CONTEXT_* marker, as perf's call chains */
	size_t nips;
};

/* Off-CPU: take the sums since the last read, each to fn. 0 or -errno. */
int schedbpf_offcpu_read(struct schedbpf *b, void (*fn)(void *ctx, const struct schedbpf_block *v),
                         void *ctx);

/* Whether id is the run-queue kind (else block I/O). */
bool schedbpf_is_runq(uint32_t id);

/* The command of process pid when its first wait was counted (raw:
 * escape before output) into comm[16]; false when unknown. */
bool schedbpf_comm(struct schedbpf *b, int pid, char *comm);

/* Completions without their issue (requests in flight at start), and
 * waits not counted because a map was full. */
void schedbpf_lost(struct schedbpf *b, uint64_t *unpaired, uint64_t *lost);

/* Detach and close everything (NULL is fine). */
void schedbpf_free(struct schedbpf *b);

#endif
