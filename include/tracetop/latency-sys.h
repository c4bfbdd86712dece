/* latency-sys: the syscall (and function) latency source. raw_syscalls:sys_enter and
 * sys_exit are opened as tracepoint perf events (PERF_SAMPLE_RAW, TID,
 * TIME) per CPU, system-wide or for a target's threads; their records are
 * read in time order across the CPUs' rings, paired per thread in user
 * space (an exit whose entry came before tracetop started is no call) and
 * aggregated per (process, syscall) into log2 histograms. Nothing is
 * allocated per event in steady state; the events are perf fds, gone
 * with the process. Functions timed by an entry/return probe pair
 * (--latency) are paired the same way, nested per thread. Syscall names come from the
 * architecture's <asm/unistd.h>, read at build time. */
#ifndef TRACETOP_LATENCY_SYS_H
#define TRACETOP_LATENCY_SYS_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/engine.h"
#include "tracetop/latency.h"
#include "tracetop/util.h"

struct latsys;

struct latsys_opts {
	const int *pids, *tids, *cpus; /* as engine_opts; no pid or tid: system-wide */
	size_t npids, ntids, ncpus;    /* no cpus: every online CPU */
	int command;                   /* pid of a command stopped before its exec, or 0 */
	bool include_self;             /* count tracetop's own syscalls */
	unsigned mmap_pages;           /* data pages per CPU ring (0: 64) */
	/* functions timed by probe pairs: funcs[2k] and funcs[2k + 1] are
	 * function k's entry and return tracepoints ("group:event"),
	 * func_names[k] its name in the rows */
	const char *const *funcs;
	const char *const *func_names;
	size_t nfuncs;
	/* --engine: bpf computes the histograms in the kernel (an error when
	 * it cannot), perf pairs ring records here, auto tries bpf first and
	 * says why it fell back in the frame's notice */
	enum engine_backend backend;
	bool no_syscalls; /* time only the functions */
};

/* Open the events (disabled) for the target. NULL with err naming what
 * is missing (tracefs, raw_syscalls, permission). */
struct latsys *latsys_new(const struct latsys_opts *o, struct tt_err *err);

/* A source with no events, fed through latsys_enter/latsys_exit (tests,
 * replays). */
struct latsys *latsys_new_offline(void);

/* Start counting. 0, or -1 with err. */
int latsys_start(struct latsys *l, struct tt_err *err);

/* Stop (paused) or resume counting (a screen's pane that is not seen
 * costs nothing). Calls open across a pause are not paired: they would
 * time the pause. */
void latsys_pause(struct latsys *l, bool paused);

/* The ring fds to poll; how many were written. */
size_t latsys_pollfds(const struct latsys *l, struct pollfd *fds, size_t max);

/* Read every ring, in time order across CPUs. */
void latsys_read(struct latsys *l);

/* The pairing and aggregation the records feed: thread tid of process
 * pid entered or left syscall nr at time t (ret: its return value). */
void latsys_enter(struct latsys *l, int pid, int tid, int nr, uint64_t t);
void latsys_exit(struct latsys *l, int pid, int tid, int nr, int64_t ret, uint64_t t);

/* Function k (see latsys_opts; latsys_set_funcs names them offline):
 * thread tid of process pid entered it (entry) or returned from it at
 * time t. Calls nest per thread (recursion pairs each return with the
 * innermost open call). */
void latsys_func(struct latsys *l, int pid, int tid, size_t k, bool entry, uint64_t t);
void latsys_set_funcs(struct latsys *l, const char *const *names, size_t n);

/* Time one more function while running, from its entry and return
 * tracepoints ("group:event" of a probe pair), shown as name (a SPEC:
 * its binary by base name). Its index k, or -1 with err. */
int latsys_add_func(struct latsys *l, const char *name, const char *entry, const char *ret,
                    struct tt_err *err);

/* Stop timing function k: its events close (so its probes can be
 * removed) and its rows go. Functions of latsys_opts stay timed (their
 * events are shared): -1 with err. */
int latsys_remove_func(struct latsys *l, size_t k, struct tt_err *err);

/* The index of the function timed shown as name, or named by the SPEC
 * name ("/usr/bin/app:work" finds "app:work"), or -1. */
int latsys_find_func(const struct latsys *l, const char *name);

/* Function k's name as its rows show it (interned). */
const char *latsys_func_name(const struct latsys *l, size_t k);

/* Whether the histograms are computed in the kernel (BPF), and how the
 * source measures and what it costs (the frame's notice). */
bool latsys_in_kernel(const struct latsys *l);
const char *latsys_notice(const struct latsys *l);

/* The command of process pid as seen (from COMM records, else /proc). */
void latsys_set_comm(struct latsys *l, int pid, const char *comm);

/* End a refresh interval: the interval's calls join the totals, and
 * their rate over the interval's length is kept. */
void latsys_tick(struct latsys *l);

/* The rows (one per process and syscall with calls) into fl. */
void latsys_snapshot(struct latsys *l, struct frame_latency *fl);

/* Close the events, free everything. */
void latsys_free(struct latsys *l);

/* The name of syscall nr on this architecture ("read"), or NULL. */
const char *latsys_name(int nr);

#endif
