/* latency-bpf: latency histograms computed in the kernel. A BPF program
 * (src/bpf/latency.bpf.c) on raw_syscalls:sys_enter/sys_exit and on each
 * timed function's entry and return probes keeps every thread's open
 * calls and adds each finished call to a log2 histogram map keyed by
 * (id, process, bucket): no event is copied to user space; the maps are
 * read (not emptied: they hold totals since start) at each refresh. Ids
 * are syscall numbers, and TT_LAT_FUNC + k for timed function k. The
 * programs are held by perf fds and BPF links of this process only: gone
 * with it, even after SIGKILL. */
#ifndef TRACETOP_LATENCY_BPF_H
#define TRACETOP_LATENCY_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/bpf.h"
#include "tracetop/util.h"

struct latbpf;

struct latbpf_opts {
	const int *pids; /* processes timed; none: every process */
	size_t npids;
	bool include_self; /* tracetop's own calls too */
	bool syscalls;     /* time syscalls (else only the functions added) */
};

/* Whether latency can be timed with BPF here (built in, allowed); false
 * with why. */
bool latbpf_usable(struct tt_err *why);

/* Load the program and attach it to the syscall tracepoints (paused
 * until latbpf_set_on). NULL with err. */
struct latbpf *latbpf_new(const struct latbpf_opts *o, struct tt_err *err);

/* Time function k from its entry and return tracepoints ("group:event",
 * a probe pair): 0, or -1 with err. */
int latbpf_add_func(struct latbpf *b, uint32_t k, const char *entry, const char *ret,
                    struct tt_err *err);

/* Stop timing function k (its links and events close: the probes can go). */
void latbpf_remove_func(struct latbpf *b, uint32_t k);

/* Time (on) or not; calls open across a pause are not paired. */
void latbpf_set_on(struct latbpf *b, bool on);

/* One bucket of one (id, process): calls, their sum, min and max ns. */
struct latbpf_bucket {
	uint32_t id;
	int pid;
	unsigned bucket;
	bool error;
	uint64_t count, sum, min, max;
};

/* Every bucket of the histogram map, summed over CPUs, to fn. 0, or
 * -errno. */
int latbpf_read(struct latbpf *b, void (*fn)(void *ctx, const struct latbpf_bucket *v), void *ctx);

/* A loaded latency program's histogram, lost and comms maps (latency.h's
 * layout, lathist.bpf.h's names), with the scratch to read per-CPU
 * values: shared with latency-schedbpf. */
struct latbpf_maps {
	int hists, lost, comms, ncpus;
	void *vals;       /* ncpus histogram values */
	uint64_t *percpu; /* ncpus counters */
};

/* The maps of loaded object obj. */
void latbpf_maps_init(struct latbpf_maps *m, const struct tt_bpf *obj);

/* Every bucket, summed over CPUs, to fn. 0, or -errno. */
int latbpf_maps_read(struct latbpf_maps *m, void (*fn)(void *ctx, const struct latbpf_bucket *v),
                     void *ctx);

/* Slot why of the lost map, summed over CPUs. */
uint64_t latbpf_maps_lost(struct latbpf_maps *m, uint32_t why);

/* Process pid's command (raw) into comm[16]; false when unknown. */
bool latbpf_maps_comm(const struct latbpf_maps *m, int pid, char *comm);

/* Free the scratch. */
void latbpf_maps_free(struct latbpf_maps *m);

/* The command of process pid as the program saw it at its first call
 * (raw: escape before output) into comm[16]; false when unknown. */
bool latbpf_comm(struct latbpf *b, int pid, char *comm);

/* Returns without their entry (calls open at start), and calls not
 * counted: entered deeper than the program keeps, or a full map. */
void latbpf_lost(struct latbpf *b, uint64_t *unpaired, uint64_t *lost);

/* Detach and close everything (NULL is fine). */
void latbpf_free(struct latbpf *b);

#endif
