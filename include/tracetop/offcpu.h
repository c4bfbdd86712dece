/* offcpu: where threads wait. At a thread's switch-out (sched_switch
 * with PERF_SAMPLE_CALLCHAIN) its kernel and user call chain and state
 * are held; at its switch-in the time blocked weighs that stack, resolved
 * to functions, in a call-graph trie (callgraph.h) with one root per
 * (process, thread, wait reason), like bcc's offcputime. The wait reason
 * comes from the state and the kernel stack. Only the loop thread uses
 * it (symbols load on it, synchronously: the first stacks of a new
 * library wait for its symbol table). */
#ifndef TRACETOP_OFFCPU_H
#define TRACETOP_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tasks;
struct callgraph;

/* The trie's fold: branches under this percent of their root's blocked
 * time go into [other] (a replay's trie folds the same). */
#define OFFCPU_CG_MIN_PERCENT 0.1

enum offcpu_reason {
	OFFCPU_SLEEP, /* waiting for an event, a timer, a pipe, a socket */
	OFFCPU_IO,    /* waiting for the disk (io_schedule, folio/buffer waits) */
	OFFCPU_LOCK,  /* a futex, mutex, rwsem or semaphore */
	OFFCPU_FAULT, /* in a page fault (its I/O or its locks) */
	OFFCPU_NREASONS
};

/* "sleep", "I/O", "lock", "fault". */
const char *offcpu_reason_name(enum offcpu_reason r);

/* The wait reason of a thread switched out in state (sched_switch's
 * prev_state) with these kernel functions on its stack (leaf first, raw
 * names, NULL entries skipped): a page fault handler on the stack is a
 * fault; io_schedule and the folio, buffer and bio waits are I/O; futex,
 * mutex, rwsem and semaphore waits are a lock; anything else sleeps. */
enum offcpu_reason offcpu_classify(long state, const char *const *kfuncs, size_t n);

/* A runnable thread's switch-out (preempted, or yielding) is no block:
 * the state without its report bits is TASK_RUNNING. */
bool offcpu_runnable(long state);

/* What a thread's return to a CPU ends. */
struct offcpu_block {
	int pid, tid;
	uint64_t ns; /* blocked */
	enum offcpu_reason reason;
	const char *root; /* the trie root its stack went under (interned) */
	const char *comm; /* its process's command at the switch-out (interned) */
};

struct offcpu;

/* A tracker resolving user addresses through ts (not owned); kernel ones
 * through kallsyms. */
struct offcpu *offcpu_new(struct tasks *ts);
void offcpu_free(struct offcpu *o);

/* Thread tid of process pid (comm: the process's command) left its CPU
 * at t in state with the call chain ips (perf's order: leaf first, with
 * PERF_CONTEXT_* markers; n may be 0). */
void offcpu_out(struct offcpu *o, int pid, int tid, const char *comm, long state, uint64_t t,
                const uint64_t *ips, size_t n);

/* Thread tid is back on a CPU at t: true with what it waited, its stack
 * added to the trie weighted by the blocked ns; false when its switch-out
 * was not seen. */
bool offcpu_in(struct offcpu *o, int tid, uint64_t t, struct offcpu_block *b);

/* Thread tid is gone. */
void offcpu_forget(struct offcpu *o, int tid);

/* Forget every held switch-out (a pause would count as blocked). */
void offcpu_reset(struct offcpu *o);

/* End a refresh: the interval's weights join the totals. untaken: no
 * frame took the trie since its last tick (a frozen screen's refresh),
 * so its nodes' last_self add this interval to that one's (a recording
 * writes them at the next frame that takes it). */
void offcpu_tick(struct offcpu *o, bool untaken);

/* The trie of blocked ns per stack (since start). */
const struct callgraph *offcpu_graph(const struct offcpu *o);

/* The heaviest stacks of cg (an offcpu_graph or its snapshot) under the
 * root named root (a row's stack; interned): up to max leaf nodes with
 * their blocked ns, heaviest first; how many. Follow a leaf's parents
 * to the root for its frames. */
size_t offcpu_stacks(const struct callgraph *cg, const char *root, uint32_t *leaves, double *ns,
                     size_t max);

/* Switch-outs whose stack had no room (more threads blocked at once
 * than the table holds). */
uint64_t offcpu_dropped(const struct offcpu *o);

#endif
