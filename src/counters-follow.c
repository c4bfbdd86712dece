/* counters-follow: the process groups of the counters module: a target's
 * processes (their commands and exits) and, without a target, the busiest
 * processes, re-chosen every tick, with their threads as they come and go. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters-impl.h"
#include "tracetop/cgroup.h"

/* Add a process (or -t thread) group, with its command and cgroup; its
 * index. */
int
counters_group_add(struct counters *c, int id, bool is_tid)
{
	struct counters_pstat ps;
	struct cnt_group *g;

	c->procs = xrealloc(c->procs, (c->nprocs + 1) * sizeof *c->procs);
	g = &c->procs[c->nprocs];
	counters_group_init(g, c, id);
	g->is_tid = is_tid;
	if (counters_proc_stat(c->scan.root, id, &ps) == 0)
		memcpy(g->comm, ps.comm, sizeof g->comm);
	g->cgroup = cgroup_of_pid(c->scan.root, id);
	return (int)c->nprocs++;
}

/* Drop process group idx with the units only it uses. */
void
counters_group_drop(struct counters *c, size_t idx)
{
	size_t u = 0;

	while (u < c->nunits) {
		struct cnt_unit *un = &c->units[u];

		if (un->proc == (int)idx && !un->base) {
			counters_unit_drop(c, u);
			continue;
		}
		if (un->proc > (int)idx)
			un->proc--;
		else if (un->proc == (int)idx)
			un->proc = -1;
		u++;
	}
	free(c->procs[idx].s);
	memmove(&c->procs[idx], &c->procs[idx + 1], (c->nprocs - idx - 1) * sizeof *c->procs);
	c->nprocs--;
}

/* Find the group of process pid, or -1. */
int
counters_group_find(const struct counters *c, int pid)
{
	for (size_t i = 0; i < c->nprocs; i++)
		if (c->procs[i].id == pid)
			return (int)i;
	return -1;
}

/* List the threads of process pid into c->tids; how many (0: gone). */
static size_t
list_threads(struct counters *c, int pid)
{
	char dir[64];

	snprintf(dir, sizeof dir, "%s/%d/task", c->scan.root, pid);
	if (counters_proc_ints(dir, &c->tids) != 0)
		c->tids.n = 0;
	return c->tids.n;
}

/* Open units for the threads in c->tids that process group p does not
 * count yet; mark its units whose thread is not listed any more. */
static void
sync_threads(struct counters *c, size_t p)
{
	size_t u, k;

	for (u = 0; u < c->nunits; u++) {
		struct cnt_unit *un = &c->units[u];

		if (un->proc != (int)p || un->base)
			continue;
		for (k = 0; k < c->tids.n && c->tids.v[k] != un->tid; k++)
			;
		if (k == c->tids.n)
			un->gone = true;
		else
			c->tids.v[k] = 0; /* already counted */
	}
	for (k = 0; k < c->tids.n; k++)
		if (c->tids.v[k] > 0)
			counters_unit_add(c, c->tids.v[k], -1, 0, (int)p, false, NULL);
}

/* Count process pid (no target): all its threads, or none when they do
 * not fit the fd budget (COUNTERS_OPEN_LIMIT); COUNTERS_OPEN_GONE when it
 * left or is not ours to count. */
static enum counters_open
proc_follow(struct counters *c, int pid)
{
	size_t before = c->nunits, n = list_threads(c, pid);
	int p;

	if (n == 0)
		return COUNTERS_OPEN_GONE;
	if (c->nfds + n * counters_nsupported(c) > c->fd_budget)
		return COUNTERS_OPEN_LIMIT;
	p = counters_group_add(c, pid, false);
	sync_threads(c, (size_t)p);
	if (c->nunits > before)
		return COUNTERS_OPEN_OK;
	counters_group_drop(c, (size_t)p);
	return COUNTERS_OPEN_GONE;
}

/* Re-choose the busiest processes and follow their threads. */
void
counters_follow(struct counters *c)
{
	size_t n = counters_scan_procs(&c->scan), k, i, wanted, counted = 0;
	struct counters_cand *cand = c->scan.cands;

	for (i = 0; i < c->nprocs; i++) {
		struct cnt_group *g = &c->procs[i];

		g->keep = false;
		if (!g->exited && counters_scan_find(&c->scan, g->id) == NULL)
			g->exited = true;
	}
	for (i = 0; i < n; i++) {
		bool self = cand[i].pid == c->self && !c->include_self;

		cand[i].followed = !self && counters_group_find(c, cand[i].pid) >= 0;
		if (self)
			cand[i].score = 0; /* never picked */
		else if (cand[i].pid == c->pin)
			cand[i].score = UINT64_MAX; /* zoomed into: always picked */
	}
	wanted = counters_pick_busiest(cand, n, c->max_procs);
	for (i = 0; i < wanted; i++) {
		int p = counters_group_find(c, cand[i].pid);

		if (p >= 0)
			c->procs[p].keep = true;
	}
	for (i = c->nprocs; i-- > 0;)
		if (!c->procs[i].keep &&
		    (!c->procs[i].exited || c->procs[i].exit_ticks >= COUNTERS_EXIT_TICKS))
			counters_group_drop(c, i);
	for (i = 0; i < c->nprocs; i++)
		if (!c->procs[i].exited) {
			const struct counters_pstat *ps =
			    counters_scan_find(&c->scan, c->procs[i].id);

			memcpy(c->procs[i].comm, ps->comm, sizeof ps->comm);
			list_threads(c, c->procs[i].id);
			sync_threads(c, i);
			counted++;
		}
	for (k = 0, i = wanted; k < i; k++) {
		enum counters_open r;

		if (counters_group_find(c, cand[k].pid) >= 0)
			continue;
		r = proc_follow(c, cand[k].pid);
		counted += r == COUNTERS_OPEN_OK;
		wanted -= r == COUNTERS_OPEN_GONE; /* it left, or is not ours to count */
	}
	c->proc_notice[0] = '\0';
	if (counted < wanted)
		snprintf(c->proc_notice, sizeof c->proc_notice,
		         "fd limit reached: counting %zu of %zu processes", counted, wanted);
	counters_notice_update(c);
}

/* Pin process pid: re-choose at once so that its rows come at the next
 * tick. */
bool
counters_pin(struct counters *c, int pid)
{
	if (c->target)
		return pid == 0 || counters_group_find(c, pid) >= 0;
	c->pin = pid;
	if (c->scope == COUNTERS_PROCESS)
		counters_follow(c);
	return true;
}

/* Follow the target's processes: their commands and exits. */
void
counters_watch(struct counters *c)
{
	for (size_t i = 0; i < c->nprocs; i++) {
		struct cnt_group *g = &c->procs[i];
		struct counters_pstat ps;

		if (g->exited)
			continue;
		if (counters_proc_stat(c->scan.root, g->id, &ps) != 0 ||
		    counters_proc_exited(ps.state))
			g->exited = true;
		else
			memcpy(g->comm, ps.comm, sizeof g->comm);
	}
}
