/* counters-impl: the counters module's insides, shared by its files:
 * counters-units.c (fds, units, groups), counters.c (targets, events,
 * ticks), counters-follow.c (which processes are counted) and
 * counters-rows.c (snapshots). counters.c uses counters-follow.c, and both
 * use counters-units.c, never the other way. Nothing outside the module
 * includes it. */
#ifndef TRACETOP_COUNTERS_IMPL_H
#define TRACETOP_COUNTERS_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/counters.h"
#include "tracetop/counters-math.h"
#include "tracetop/counters-proc.h"
#include "tracetop/evspec.h"
#include "tracetop/util.h"

/* One event counted (or refused). */
struct cnt_event {
	struct evspec spec;
	const char *name; /* as given, interned */
	bool supported;
	const char *reason; /* why not, interned */
};

/* One fd of a unit and its last reading. */
struct cnt_slot {
	int fd; /* -1: not open (unsupported, or the thread left) */
	struct counters_reading prev;
	/* in its unit's group: the kernel's id of the event, and the reading
	 * the unit's one read of the group left for it (fresh until used) */
	bool grouped, fresh;
	uint64_t id;
	struct counters_reading cur;
};

/* A (thread or -1, CPU or -1) pair with one fd per event. */
struct cnt_unit {
	int tid, cpu;
	size_t cpu_idx; /* per-CPU units: index into c->cpus */
	int proc;       /* the process group it feeds, or -1 */
	bool base;      /* feeds the total and CPU scopes */
	bool gone;      /* its thread left /proc: closed after the next read */
	/* a CPU's software events form one group led by this fd (-1: none), so
	 * one read, one interrupt of that CPU, gives them all; no_group: the
	 * kernel refused the leader */
	int leader_fd;
	bool no_group;
	struct cnt_slot *slots; /* one per event */
};

/* One event in one scope key. */
struct cnt_series {
	double acc;        /* this tick's scaled sum */
	uint64_t ena, run; /* this tick's enabled and running ns */
	unsigned nfds;     /* fds read into it this tick */
	double value, total, share;
	struct counters_ring hist;
};

/* A scope key: the total, a CPU or a process, with a series per event. */
struct cnt_group {
	int id; /* CPU, pid or tid; -1 for the total */
	char comm[16];
	/* a process's cgroup, read when first counted; or NULL */
	const struct cgroup *cgroup;
	bool is_tid; /* a -t thread rather than a process */
	bool exited;
	unsigned exit_ticks; /* ticks since it exited */
	unsigned ticks;      /* intervals counted */
	bool keep;           /* chosen again by the last busiest scan */
	double secs;         /* wall seconds counted */
	struct counters_ring secs_hist;
	/* without a target, the total and CPU keys: seconds busy (/proc/stat)
	 * in the last interval (NaN: unknown), in all, and per interval */
	double busy, busy_total;
	struct counters_ring busy_hist;
	struct cnt_series *s;
};

struct counters {
	struct cnt_event *ev;
	size_t nev;
	struct cnt_unit *units;
	size_t nunits, cap_units;
	struct cnt_group total;
	struct cnt_group *cpus; /* per-CPU keys, when units are per CPU */
	size_t ncpus;
	int *cpu_ids; /* the CPUs counted */
	size_t ncpu_ids;
	struct counters_interval *ivs; /* scratch: one per CPU */
	bool *iv_ok;
	struct cnt_group *procs;
	size_t nprocs;
	bool target; /* pids, tids or a command, not the system */
	bool percpu; /* units are per CPU */
	bool inherit, enable_on_exec;
	enum counters_scope scope;
	unsigned max_procs;
	bool include_self;
	int self;
	int pin; /* a process always followed (a zoom), or 0 */
	size_t fd_budget, nfds;
	unsigned reads; /* read calls of the last tick */
	uint64_t last_ns;
	double interval, elapsed;
	struct counters_scan scan;
	struct counters_busy busy; /* without a target: busy time per CPU */
	const char *busy_error;    /* why it cannot be read, or NULL */
	struct counters_ints tids; /* scratch for thread lists */
	char base_notice[200];     /* from opening the target */
	char proc_notice[96];      /* from the last busiest scan */
	char notice[300];
};

/* How opening a slot or unit went. */
enum counters_open {
	COUNTERS_OPEN_OK,
	COUNTERS_OPEN_GONE,   /* the thread has exited */
	COUNTERS_OPEN_LIMIT,  /* no fds left in the budget */
	COUNTERS_OPEN_DENIED, /* no permission (err says which setting) */
};

/* counters-units.c */

/* Close one slot (if open). */
void counters_slot_close(struct counters *c, struct cnt_slot *sl);

/* Read unit u's group (if it has one) into its members' slots. */
void counters_group_read(struct counters *c, struct cnt_unit *u);

/* Read one slot, from its group's reading when fresh; false if nothing
 * could be read. */
bool counters_slot_read(struct counters *c, struct cnt_slot *sl, struct counters_reading *cur);

/* Open event ei on unit u (nothing for an unsupported event); on
 * COUNTERS_OPEN_DENIED, err says which setting refused it. */
enum counters_open counters_slot_open(struct counters *c, struct cnt_unit *u, size_t ei,
                                      struct tt_err *err);

/* Try every event on (tid, cpu) to learn which this machine counts (the
 * others are marked unsupported). 0, or -1 with err (no permission, no
 * such thread). */
int counters_probe_events(struct counters *c, int tid, int cpu, struct tt_err *err);

/* Add a unit (thread tid or -1, CPU cpu or -1) feeding process group proc
 * (-1: none) and, when base, the total and CPU scopes; open every event on
 * it. The unit is kept only when COUNTERS_OPEN_OK. */
enum counters_open counters_unit_add(struct counters *c, int tid, int cpu, size_t cpu_idx, int proc,
                                     bool base, struct tt_err *err);

/* Close unit idx's fds and drop it. */
void counters_unit_drop(struct counters *c, size_t idx);

/* The number of events that hold fds. */
size_t counters_nsupported(const struct counters *c);

/* Set up group g with a zeroed series per event. */
void counters_group_init(struct cnt_group *g, const struct counters *c, int id);

/* Join the open and process notices into c->notice. */
void counters_notice_update(struct counters *c);

/* counters-follow.c */

/* Add a process (or -t thread) group for id; its index. */
int counters_group_add(struct counters *c, int id, bool is_tid);

/* Drop process group idx and the units only it uses. */
void counters_group_drop(struct counters *c, size_t idx);

/* The group of process pid, or -1. */
int counters_group_find(const struct counters *c, int pid);

/* Without a target: re-choose the busiest processes and follow them. */
void counters_follow(struct counters *c);

/* With a target: follow its processes' commands and exits. */
void counters_watch(struct counters *c);

#endif
