/* tasks: the process model. Threads (tid) point at their process (pid),
 * which owns the executable mappings. Synthesized from /proc on first sight,
 * kept current from COMM/MMAP2/FORK/EXIT records. Each process knows its
 * cgroup (cgroup.h). */
#ifndef TRACETOP_TASKS_H
#define TRACETOP_TASKS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tracetop/cgroup.h"
#include "tracetop/dso.h"
#include "tracetop/record.h"
#include "tracetop/sym-jit.h"
#include "tracetop/symtab.h"

struct map {
	uint64_t start, end; /* [start, end) */
	uint64_t pgoff;      /* file offset of start */
	struct dso *dso;
};

struct task { /* a process */
	int pid;
	uid_t uid;
	const char *comm; /* interned, raw (escape when printing) */
	/* read from /proc when the process is first seen and, after each
	 * exec (cgroup_stale), at the end of the records that held it
	 * (tasks_settle) if it still runs, or when a sample needs it
	 * (tasks_cgroup): most processes that exec exit within the same
	 * records, and the read was most of what their records cost.
	 * Inherited at fork; a later move to another cgroup is not seen. NULL
	 * when it could not be read (the process was gone). */
	const struct cgroup *cgroup;
	bool cgroup_stale;
	struct map *maps; /* sorted, non-overlapping */
	size_t nmaps, cap;
	/* unique per (task, its maps): a new one for every struct task made
	 * (a freed one's address may be reused), with every map added and at
	 * exec, so what resolved an address of this process stays right while
	 * it is the same, whatever other processes map */
	uint64_t mgen;
	struct symjit *jit;   /* perf-PID.map symbols, NULL before the first look */
	struct dso *jit_dso;  /* "[JIT] tid PID", the object its symbols are shown in */
	struct tasks *home;   /* the model it belongs to (its refresh count) */
	uint64_t jit_refresh; /* the model's refresh when the map was last looked at */
	char *jit_path;       /* where the map is, as the process sees /tmp */
	bool jit_final;       /* the map was read after the process exited */
	bool dead;
	uint64_t dead_at; /* now_ns() at EXIT */
	unsigned refs;    /* threads pointing here */
};

struct thread {
	int tid;
	const char *comm; /* interned */
	struct task *proc;
	bool dead;
	uint64_t dead_at;
};

struct tasks;

/* proc_root is "/proc" except in tests. */
struct tasks *tasks_new(const char *proc_root);
void tasks_free(struct tasks *ts);

/* Read the command of every thread /proc lists now (once): a thread that
 * leaves /proc before a record names it then keeps its name (a trace
 * event read after its task exited) instead of "[unknown]". */
void tasks_prime(struct tasks *ts);

/* The thread for tid, synthesized from /proc when unknown (pid is the
 * process if the caller knows it, else -1; a known tid seen with another pid
 * was reused and is replaced). tid 0 is the idle task "swapper". A tid gone
 * from /proc gets a dead thread (comm "[unknown]", or its process's comm when
 * pid is known) kept until tasks_reap, so repeated samples do not re-read
 * /proc. NULL only for a negative tid. Valid until the next call that changes
 * the model (records, tasks_reap). */
struct thread *tasks_thread(struct tasks *ts, int pid, int tid);

/* Process p's cgroup, read again first if it has exec'd since (a runtime
 * moves its child into the container's group between fork and exec); the
 * inherited one if it is gone by then. */
const struct cgroup *tasks_cgroup(struct tasks *ts, struct task *p);

/* After a batch of records: read again the cgroups of the processes that
 * exec'd in it and still run. */
void tasks_settle(struct tasks *ts);

/* Records that change the model. */
void tasks_comm(struct tasks *ts, const struct record_comm *c);

/* The comm of thread tid of pid as /proc says it now, interned; NULL if
 * unreadable. */
const char *tasks_read_comm(const struct tasks *ts, int pid, int tid);
void tasks_mmap(struct tasks *ts, const struct record_mmap *m);
void tasks_fork(struct tasks *ts, const struct record_task *t);
void tasks_exit(struct tasks *ts, const struct record_task *t);

/* Add or replace a mapping (overlaps are cut), as MMAP2 does. */
void task_add_map(struct task *t, uint64_t start, uint64_t end, uint64_t pgoff, struct dso *dso);

/* The mapping holding addr, or NULL. */
const struct map *task_find_map(const struct task *t, uint64_t addr);

/* The JIT symbol at addr from the process's perf map: /tmp/perf-PID.map
 * as the process sees it (through /proc/PID/root, named by its pid in its
 * own namespace, so a container's map is found). The map is read when
 * first needed and again, for what it gained, at most once per refresh
 * when an address is not in it. */
const struct sym *task_jit_sym(struct task *t, uint64_t addr);

/* The /proc the model reads ("/proc" except in tests). */
const char *tasks_proc_root(const struct tasks *ts);

/* (tasks-ns.c) Where t's perf map is: /tmp/perf-NSPID.map through
 * /proc/PID/root while t lives, else our /tmp/perf-PID.map; malloc'd. */
char *tasks_ns_jit_path(const struct task *t);

/* (tasks-ns.c) Where to look for t's perf map again after it could not be
 * opened: our /tmp's when t has left /proc and that is not where we
 * looked; else NULL. Malloc'd. */
char *tasks_ns_jit_again(const struct task *t);

/* (tasks-ns.c) When t lives in another mount namespace than ours, tell d
 * (mapped by t at [start, end), not read yet) where its file is: through
 * /proc/PID/root when that is the mapped file (same device and inode, or
 * same build-id as the mapping in /proc/PID/map_files), else the mapping
 * in map_files. */
void tasks_ns_locate(const struct task *t, struct dso *d, uint64_t start, uint64_t end);

/* The thread tid as the model has it, or NULL (never read from /proc). */
struct thread *tasks_find_thread(struct tasks *ts, int tid);

/* A refresh began: perf maps may be looked at again. */
void tasks_refresh(struct tasks *ts);

/* Free threads dead for longer than grace_ns (late samples from other
 * CPUs' rings may still name them until then), then the processes no thread
 * refers to any more. */
void tasks_reap(struct tasks *ts, uint64_t now, uint64_t grace_ns);

#endif
