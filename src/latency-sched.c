/* latency-sched: run-queue, block I/O and off-CPU latency from sched and
 * block tracepoints, paired in user space. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/callgraph.h"
#include "tracetop/evlist.h"
#include "tracetop/evspec.h"
#include "tracetop/frame.h"
#include "tracetop/latency-bio.h"
#include "tracetop/latency-runq.h"
#include "tracetop/latency-sched.h"
#include "tracetop/latency-schedbpf.h"
#include "tracetop/offcpu.h"
#include "tracetop/record.h"
#include "tracetop/tasks.h"
#include "tracetop/tracefs.h"

#include "latency-sched-impl.h"

#define LS_SAMPLE_TYPE                                                                             \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |           \
	 PERF_SAMPLE_RAW)

/* Any kind of ours? */
bool
latsched_wanted(unsigned kinds)
{
	return (kinds & LS_KINDS) != 0;
}

/* An empty source for the kinds. */
struct latsched *
latsched_new_offline(unsigned kinds)
{
	struct latsched *l = xcalloc(1, sizeof *l);

	l->kinds = kinds & LS_KINDS;
	l->self = getpid();
	l->ts = tasks_new("/proc");
	if (l->kinds & (1u << LAT_OFFCPU))
		l->offcpu = offcpu_new(l->ts);
	latrunq_init(&l->runq);
	lat_pair_init(&l->oncpu, 1);
	latbio_init(&l->bio);
	l->oncpu_name = str_intern("on-CPU");
	for (unsigned r = 0; r < OFFCPU_NREASONS; r++)
		l->reason_names[r] = str_intern(offcpu_reason_name(r));
	l->rowmask = 255;
	l->rowtab = xcalloc(l->rowmask + 1, sizeof *l->rowtab);
	l->last_tick_ns = now_ns();
	return l;
}

/* Is pid one of the target's (or any, without a target)? */
bool
latsched_wanted_pid(const struct latsched *l, int pid)
{
	if (pid == l->self && !l->include_self)
		return false;
	if (!l->filtered)
		return true;
	for (size_t i = 0; i < l->npids; i++)
		if (l->pids[i] == pid)
			return true;
	return false;
}

/* Add pid to the target (a child of a target process). */
static void
ls_add_pid(struct latsched *l, int pid)
{
	if (latsched_wanted_pid(l, pid))
		return;
	l->pids = xrealloc(l->pids, (l->npids + 1) * sizeof *l->pids);
	l->pids[l->npids++] = pid;
}

/* The row index slot of a key. */
static uint32_t *
ls_row_slot(const struct latsched *l, enum lat_kind kind, int pid, int tid, const char *name)
{
	uint64_t h = hash_mix(hash_mix(hash_u64(kind), (uint32_t)pid), (uint32_t)tid);
	size_t i = hash_mix(h, (uintptr_t)name) & l->rowmask;

	while (l->rowtab[i] != 0) {
		const struct ls_row *r = &l->rows[l->rowtab[i] - 1];

		if (r->kind == kind && r->pid == pid && r->tid == tid && r->name == name)
			break;
		i = (i + 1) & l->rowmask;
	}
	return &l->rowtab[i];
}

/* The row of a key (name interned), made on first use. */
struct ls_row *
latsched_row(struct latsched *l, enum lat_kind kind, int pid, int tid, const char *name)
{
	uint32_t *slot = ls_row_slot(l, kind, pid, tid, name);
	struct ls_row *r;

	if (*slot != 0)
		return &l->rows[*slot - 1];
	if ((l->nrows + 1) * 2 > l->rowmask + 1) {
		l->rowmask = 2 * (l->rowmask + 1) - 1;
		free(l->rowtab);
		l->rowtab = xcalloc(l->rowmask + 1, sizeof *l->rowtab);
		for (size_t i = 0; i < l->nrows; i++) {
			const struct ls_row *o = &l->rows[i];

			*ls_row_slot(l, o->kind, o->pid, o->tid, o->name) = (uint32_t)i + 1;
		}
		slot = ls_row_slot(l, kind, pid, tid, name);
	}
	if (l->nrows == l->rows_cap) {
		l->rows_cap = l->rows_cap ? 2 * l->rows_cap : 64;
		l->rows = xrealloc(l->rows, l->rows_cap * sizeof *l->rows);
	}
	r = &l->rows[l->nrows++];
	*r = (struct ls_row){.kind = kind, .pid = pid, .tid = tid, .name = name};
	lat_acc_reset(&r->acc);
	*slot = (uint32_t)l->nrows;
	return r;
}

/* The process of thread tid (the model reads /proc for one not seen). */
struct thread *
latsched_thread(struct latsched *l, int pid, int tid)
{
	struct thread *th = pid < 0 ? tasks_find_thread(l->ts, tid) : NULL;

	return th != NULL ? th : tasks_thread(l->ts, pid, tid);
}

/* Name a process. */
void
latsched_set_comm(struct latsched *l, int pid, const char *comm)
{
	struct record_comm c = {.pid = (uint32_t)pid, .tid = (uint32_t)pid, .comm = comm};

	tasks_comm(l->ts, &c);
}

/* What pairing an event of thread tid gave: a wait into its process's
 * row, a missed wakeup counted (or taken back), for the target's only. */
static void
ls_runq(struct latsched *l, int tid, enum latrunq_res res, uint64_t ns)
{
	struct thread *th;
	struct ls_row *r;

	if (res == LATRUNQ_NONE || (th = latsched_thread(l, -1, tid)) == NULL ||
	    !latsched_wanted_pid(l, th->proc->pid))
		return;
	if (res == LATRUNQ_MISSED) {
		l->runq_missed++;
		return;
	}
	if (res == LATRUNQ_LATE && l->runq_missed > 0)
		l->runq_missed--;
	/* by process; named as it is now (an exec renames it) */
	r = latsched_row(l, LAT_RUNQ, th->proc->pid, 0, NULL);
	r->label = r->comm = th->proc->comm;
	lat_hist_add(&r->acc.interval, ns, false);
}

/* A thread switched out and another in. */
void
latsched_switch(struct latsched *l, int prev_pid, int prev_tid, long prev_state, int next_tid,
                uint64_t t, const uint64_t *ips, size_t nips)
{
	struct offcpu_block b;
	uint64_t ns = 0;

	if ((l->kinds & (1u << LAT_ONCPU)) && prev_tid > 0 &&
	    lat_pair_exit(&l->oncpu, prev_tid, 0, t, &ns) && latsched_wanted_pid(l, prev_pid)) {
		struct ls_row *r = latsched_row(l, LAT_ONCPU, prev_pid, prev_tid, l->oncpu_name);
		struct thread *th = latsched_thread(l, prev_pid, prev_tid);

		r->comm = th != NULL ? th->proc->comm : r->comm;
		lat_hist_add(&r->acc.interval, ns, false);
	}
	if ((l->kinds & (1u << LAT_ONCPU)) && next_tid > 0)
		lat_pair_enter(&l->oncpu, next_tid, 0, t);
	if (l->kinds & (1u << LAT_RUNQ))
		latrunq_out(&l->runq, prev_tid, offcpu_runnable(prev_state), t);
	if (prev_tid > 0 && !offcpu_runnable(prev_state) && (l->kinds & (1u << LAT_OFFCPU)) &&
	    latsched_wanted_pid(l, prev_pid)) {
		struct thread *th = latsched_thread(l, prev_pid, prev_tid);

		offcpu_out(l->offcpu, prev_pid, prev_tid, th != NULL ? th->proc->comm : NULL,
		           prev_state, t, ips, nips);
	}
	if (next_tid <= 0)
		return;
	if (l->kinds & (1u << LAT_RUNQ)) {
		enum latrunq_res res = latrunq_in(&l->runq, next_tid, t, &ns);

		ls_runq(l, next_tid, res, ns);
	}
	if ((l->kinds & (1u << LAT_OFFCPU)) && offcpu_in(l->offcpu, next_tid, t, &b)) {
		struct ls_row *r =
		    latsched_row(l, LAT_OFFCPU, b.pid, b.tid, l->reason_names[b.reason]);

		r->stack = b.root;
		r->comm = b.comm;
		lat_hist_add(&r->acc.interval, b.ns, false);
	}
}

/* A thread became runnable. */
void
latsched_wakeup(struct latsched *l, int tid, uint64_t t)
{
	uint64_t ns = 0;
	enum latrunq_res res;

	if (l->kinds & (1u << LAT_RUNQ)) {
		res = latrunq_wakeup(&l->runq, tid, t, &ns);
		ls_runq(l, tid, res, ns);
	}
}

/* A block request was issued. */
void
latsched_bio_issue(struct latsched *l, uint32_t dev, uint64_t sector, uint64_t t)
{
	latbio_issue(&l->bio, dev, sector, t);
}

/* The name of dev, interned, read once. */
const char *
latsched_devname(struct latsched *l, uint32_t dev)
{
	size_t n = sizeof l->devs / sizeof l->devs[0], i = hash_u64(dev) & (n - 1);
	char buf[64];

	if (l->devnames[i] != NULL && l->devs[i] == dev)
		return l->devnames[i];
	latbio_devname("/sys", dev, buf, sizeof buf);
	l->devs[i] = dev;
	return l->devnames[i] = str_intern(buf);
}

/* A block request completed. */
void
latsched_bio_complete(struct latsched *l, uint32_t dev, uint64_t sector, int error, uint64_t t)
{
	uint64_t ns;

	if (latbio_complete(&l->bio, dev, sector, t, &ns))
		lat_hist_add(
		    &latsched_row(l, LAT_BIO, 0, 0, latsched_devname(l, dev))->acc.interval, ns,
		    error < 0);
}

/* ---- events ---- */

/* The offset of a field in an event's format, -1 when absent. */
static int
ls_field(const char *sys, const char *event, const char *field, struct tt_err *err)
{
	size_t len;
	char *text = tt_tracefs_event_format(sys, event, &len, err);
	int off;

	if (text == NULL)
		return -1;
	off = tt_tracefs_format_offset(text, field);
	free(text);
	if (off < 0)
		err_set(err, "%s:%s has no field %s here", sys, event, field);
	return off;
}

/* Every offset the kinds need. */
static int
ls_offsets(struct latsched *l, struct tt_err *err)
{
	struct ls_offsets *o = &l->off;
	bool sched = l->kinds & LS_SWITCH_KINDS;

	memset(o, 0xff, sizeof *o);
	if (sched && ((o->prev_pid = ls_field("sched", "sched_switch", "prev_pid", err)) < 0 ||
	              (o->prev_state = ls_field("sched", "sched_switch", "prev_state", err)) < 0 ||
	              (o->next_pid = ls_field("sched", "sched_switch", "next_pid", err)) < 0))
		return -1;
	if ((l->kinds & (1u << LAT_RUNQ)) &&
	    (o->wake_pid = ls_field("sched", "sched_wakeup", "pid", err)) < 0)
		return -1;
	if ((l->kinds & (1u << LAT_BIO)) &&
	    ((o->issue_dev = ls_field("block", "block_rq_issue", "dev", err)) < 0 ||
	     (o->issue_sector = ls_field("block", "block_rq_issue", "sector", err)) < 0 ||
	     (o->done_dev = ls_field("block", "block_rq_complete", "dev", err)) < 0 ||
	     (o->done_sector = ls_field("block", "block_rq_complete", "sector", err)) < 0 ||
	     (o->done_error = ls_field("block", "block_rq_complete", "error", err)) < 0))
		return -1;
	return 0;
}

/* Open names[0..n) into el on every CPU, system-wide. */
static int
ls_open(struct evlist *el, const char *const *names, size_t n, const int *cpus, size_t ncpus,
        uint64_t sample_type, unsigned pages, struct tt_err *err)
{
	struct evspec specs[4];
	struct evlist_target t = {.cpus = cpus, .ncpus = ncpus};
	struct evlist_params p = {.mmap_pages = pages, .sample_type = sample_type};

	for (size_t i = 0; i < n; i++)
		if (evspec_parse(names[i], &specs[i], err) != 0)
			return -1;
	return evlist_open(el, specs, n, &t, &p, err);
}

/* Open the events of the kinds. */
struct latsched *
latsched_new(const struct latsched_opts *o, struct tt_err *err)
{
	struct latsched *l = latsched_new_offline(o->kinds);
	unsigned pages = o->mmap_pages ? o->mmap_pages : 128;
	const char *other[4];
	size_t nother = 0;
	int *cpus = NULL;
	const int *ucpus = o->cpus;
	size_t ncpus = o->ncpus;

	l->include_self = o->include_self;
	l->filtered = o->npids > 0 || o->ntids > 0 || o->command > 0;
	for (size_t i = 0; i < o->npids; i++)
		ls_add_pid(l, o->pids[i]);
	for (size_t i = 0; i < o->ntids; i++) {
		struct thread *th = tasks_thread(l->ts, -1, o->tids[i]);

		ls_add_pid(l, th != NULL ? th->proc->pid : o->tids[i]);
	}
	if (o->command > 0)
		ls_add_pid(l, o->command);
	if (latsched_bpf_setup(l, o->backend, err) != 0 || ls_offsets(l, err) != 0)
		goto fail;
	if (ncpus == 0) {
		if (online_cpus(&cpus, &ncpus, err) != 0)
			goto fail;
		ucpus = cpus;
	}
	/* off-CPU stacks from the kernel still need the processes' mappings
	 * (exec and mmap records: a dummy event's rings, no sample) */
	if ((l->kinds & LS_SWITCH_KINDS) || (l->bpf_kinds & (1u << LAT_OFFCPU))) {
		const char *sw = l->kinds & LS_SWITCH_KINDS ? "sched:sched_switch" : "dummy";
		uint64_t st = LS_SAMPLE_TYPE;

		if (l->kinds & (1u << LAT_OFFCPU))
			st |= PERF_SAMPLE_CALLCHAIN;
		if (ls_open(&l->sw, &sw, 1, ucpus, ncpus, st, pages, err) != 0)
			goto fail;
		l->sw_open = true;
		if (l->kinds & LS_SWITCH_KINDS)
			l->ev_switch = &l->sw.evsels[0];
		/* every switch of the machine comes: perf's counter can tell */
		if (l->ev_switch != NULL && o->ncpus == 0)
			latsched_cs_open(l, ucpus, ncpus);
	}
	if (l->kinds & (1u << LAT_RUNQ)) {
		other[nother++] = "sched:sched_wakeup";
		other[nother++] = "sched:sched_wakeup_new";
	}
	if (l->kinds & (1u << LAT_BIO)) {
		other[nother++] = "block:block_rq_issue";
		other[nother++] = "block:block_rq_complete";
	}
	if (nother > 0) {
		if (ls_open(&l->other, other, nother, ucpus, ncpus, LS_SAMPLE_TYPE, pages, err) !=
		    0)
			goto fail;
		l->other_open = true;
		nother = 0;
		if (l->kinds & (1u << LAT_RUNQ)) {
			l->ev_wake = &l->other.evsels[nother++];
			l->ev_wake_new = &l->other.evsels[nother++];
		}
		if (l->kinds & (1u << LAT_BIO)) {
			l->ev_issue = &l->other.evsels[nother++];
			l->ev_done = &l->other.evsels[nother++];
		}
	}
	free(cpus);
	latsched_make_notice(l);
	return l;
fail:
	free(cpus);
	latsched_free(l);
	return NULL;
}

/* Enable the events. */
int
latsched_start(struct latsched *l, struct tt_err *err)
{
	if ((l->sw_open && evlist_enable(&l->sw) != 0) ||
	    (l->other_open && evlist_enable(&l->other) != 0))
		return err_set(err, "cannot enable the sched/block events: %s", strerror(errno));
	if (l->bpf != NULL)
		schedbpf_set_on(l->bpf, true);
	/* after the rings: they then see every switch the counters do */
	latsched_cs_enable(l, true);
	if (l->ncs > 0 && !latsched_cs_read(l, &l->cs0))
		l->cs0 = 0;
	return 0;
}

/* Disable or enable; what was open is forgotten on resuming. */
void
latsched_pause(struct latsched *l, bool paused)
{
	if (l->bpf != NULL)
		schedbpf_set_on(l->bpf, !paused);
	if (paused) {
		/* the counters first: the rings still see all they count */
		latsched_cs_enable(l, false);
		if (l->sw_open)
			evlist_disable(&l->sw);
		if (l->other_open)
			evlist_disable(&l->other);
		latsched_read(l);
		return;
	}
	latrunq_free(&l->runq);
	latrunq_init(&l->runq);
	lat_pair_free(&l->oncpu);
	lat_pair_init(&l->oncpu, 1);
	if (l->offcpu != NULL)
		offcpu_reset(l->offcpu);
	if (l->sw_open)
		evlist_enable(&l->sw);
	if (l->other_open)
		evlist_enable(&l->other);
	latsched_cs_enable(l, true);
}

/* The rings' fds. */
size_t
latsched_pollfds(const struct latsched *l, struct pollfd *fds, size_t max)
{
	const struct evlist *els[2] = {&l->sw, &l->other};
	bool open[2] = {l->sw_open, l->other_open};
	size_t n = 0;

	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; open[k] && i < els[k]->nrings && n < max; i++)
			if (els[k]->ring_fds[i] >= 0)
				fds[n++] =
				    (struct pollfd){.fd = els[k]->ring_fds[i], .events = POLLIN};
	return n;
}

/* An unsigned field of size bytes at off, false past the payload. */
static bool
ls_get(const struct record_sample *s, int off, size_t size, uint64_t *v)
{
	uint32_t u32;

	if (off < 0 || (uint32_t)off + size > s->raw_size)
		return false;
	if (size == 4) {
		memcpy(&u32, (const char *)s->raw + off, 4);
		*v = u32;
	} else {
		memcpy(v, (const char *)s->raw + off, 8);
	}
	return true;
}

/* One sample of either list. */
static void
ls_sample(struct latsched *l, struct evlist *el, const struct perf_event_header *h)
{
	struct record_sample s;
	struct evsel *ev;
	uint64_t a, b, c;

	if (record_parse_sample(h, el->sample_type, 0, &s) != 0 ||
	    (ev = evlist_find_id(el, s.id)) == NULL)
		return;
	l->events++;
	if (ev == l->ev_switch) {
		l->switches++;
		if (ls_get(&s, l->off.prev_pid, 4, &a) && ls_get(&s, l->off.prev_state, 8, &b) &&
		    ls_get(&s, l->off.next_pid, 4, &c))
			latsched_switch(l, (int)s.pid, (int)(int32_t)a, (long)b, (int)(int32_t)c,
			                s.time, s.ips, s.nr);
	} else if (ev == l->ev_wake || ev == l->ev_wake_new) {
		if (ls_get(&s, l->off.wake_pid, 4, &a))
			latsched_wakeup(l, (int)(int32_t)a, s.time);
	} else if (ev == l->ev_issue) {
		if (ls_get(&s, l->off.issue_dev, 4, &a) && ls_get(&s, l->off.issue_sector, 8, &b))
			latsched_bio_issue(l, (uint32_t)a, b, s.time);
	} else if (ev == l->ev_done) {
		if (ls_get(&s, l->off.done_dev, 4, &a) && ls_get(&s, l->off.done_sector, 8, &b) &&
		    ls_get(&s, l->off.done_error, 4, &c))
			latsched_bio_complete(l, (uint32_t)a, b, (int32_t)c, s.time);
	}
}

/* Exec'd mappings, for off-CPU user stacks. */
static void
ls_mmap_cb(void *arg, const struct record_mmap *m)
{
	struct latsched *l = arg;

	if (l->offcpu != NULL && m->exec)
		tasks_mmap(l->ts, m);
}

/* A process or thread named. */
static void
ls_comm_cb(void *arg, const struct record_comm *c)
{
	tasks_comm(((struct latsched *)arg)->ts, c);
}

/* A fork: a target process's child is the target's too. */
static void
ls_fork_cb(void *arg, const struct record_task *t)
{
	struct latsched *l = arg;

	if (l->filtered && t->pid != t->ppid && latsched_wanted_pid(l, (int)t->ppid))
		ls_add_pid(l, (int)t->pid);
	tasks_fork(l->ts, t);
}

/* A thread exited: its tid may come back as another thread. */
static void
ls_exit_cb(void *arg, const struct record_task *t)
{
	struct latsched *l = arg;

	latrunq_forget(&l->runq, (int)t->tid);
	lat_pair_forget(&l->oncpu, (int)t->tid);
	if (l->offcpu != NULL)
		offcpu_forget(l->offcpu, (int)t->tid);
	tasks_exit(l->ts, t);
}

/* Records the kernel could not write. */
static void
ls_lost_cb(void *arg, uint64_t n)
{
	((struct latsched *)arg)->lost += n;
}

/* The same in a ring of sched_switch records: the delivery check's. */
static void
ls_sw_lost_cb(void *arg, uint64_t n)
{
	struct latsched *l = arg;

	l->lost += n;
	l->sw_lost += n;
}

/* The process records of the first list (each list's rings carry them;
 * one copy is enough), lost records of both. */
static const struct record_sink ls_sideband = {.mmap = ls_mmap_cb,
                                               .comm = ls_comm_cb,
                                               .fork = ls_fork_cb,
                                               .exit = ls_exit_cb,
                                               .lost = ls_sw_lost_cb};
static const struct record_sink ls_lost_only = {.lost = ls_lost_cb};

/* One record of either list. */
static void
ls_record(void *arg, struct evlist *el, const struct perf_event_header *h)
{
	struct latsched *l = arg;

	if (h->type == PERF_RECORD_SAMPLE)
		ls_sample(l, el, h);
	else
		record_dispatch(h, el->sample_type,
		                el == &l->sw || !l->sw_open ? &ls_sideband : &ls_lost_only, l);
}

/* Both lists' rings merged in time order: a wakeup and its switch-in sit
 * in different lists. */
void
latsched_read(struct latsched *l)
{
	struct evlist *els[2];
	size_t n = 0;

	if (l->sw_open)
		els[n++] = &l->sw;
	if (l->other_open)
		els[n++] = &l->other;
	if (n > 0)
		evlist_read_ordered(els, n, ls_record, l);
}

/* The interval's values join the totals. */
void
latsched_tick(struct latsched *l)
{
	uint64_t now = now_ns(), made = 0;
	double secs = (double)(now - l->last_tick_ns) / 1e9;
	bool have_made;

	l->last_tick_ns = now;
	l->ticks++;
	/* what the rings hold belongs to the interval; the switches made
	 * are counted first, so every one of them is in the rings by the
	 * time they are drained (those made after, and not yet read, would
	 * look undelivered on a loaded machine) */
	have_made = latsched_cs_read(l, &made);
	latsched_read(l);
	l->records_s = secs > 0 ? (double)(l->events - l->last_events) / secs : 0;
	l->last_events = l->events;
	l->notice_shown = latsched_check_delivery(l, have_made, made);
	if (l->bpf != NULL)
		latsched_bpf_read(l);
	l->bpf_events = 0;
	for (size_t i = 0; i < l->nrows; i++) {
		struct ls_row *r = &l->rows[i];

		/* the kernel's histograms are whole each time, its sums drained */
		if (LS_BPF_TOTALS & l->bpf_kinds & (1u << r->kind))
			lat_acc_tick_totals(&r->acc, secs);
		else
			lat_acc_tick(&r->acc, secs);
		if (l->bpf_kinds & (1u << r->kind))
			l->bpf_events += 2 * r->acc.total.count;
	}
	if (l->offcpu != NULL)
		offcpu_tick(l->offcpu, !l->offcpu_taken);
	tasks_refresh(l->ts);
	tasks_reap(l->ts, now, 5000000000ull);
}

/* The refresh's frame takes our rows or not; a later snapshot of the
 * same refresh (a screen taking its frame again) changes nothing. */
void
latsched_taken(struct latsched *l, bool rows)
{
	if (l->taken_tick == l->ticks)
		return;
	l->taken_tick = l->ticks;
	l->offcpu_taken = rows;
}

/* Our rows into the frame, the other sources' kept. */
void
latsched_snapshot(struct latsched *l, struct frame_latency *fl)
{
	frame_latency_drop(fl, LS_KINDS);
	frame_latency_reserve(fl, fl->nrows + l->nrows);
	for (size_t i = 0; i < l->nrows; i++) {
		const struct ls_row *r = &l->rows[i];
		struct lat_row *o;
		struct thread *th;

		if (r->acc.total.count == 0)
			continue;
		o = &fl->rows[fl->nrows++];
		memset(o, 0, sizeof *o);
		o->kind = r->kind;
		o->name = r->label != NULL ? r->label : r->name != NULL ? r->name : "?";
		o->pid = r->pid;
		o->tid = r->tid;
		o->stack = r->stack;
		th = r->comm == NULL && r->pid > 0 ? tasks_find_thread(l->ts, r->pid) : NULL;
		snprintf(o->comm, sizeof o->comm, "%s",
		         r->kind == LAT_BIO ? "-"
		         : r->comm != NULL  ? r->comm
		         : th != NULL       ? th->proc->comm
		                            : "?");
		o->interval = r->acc.last_interval;
		o->rate = r->acc.rate;
		o->hist = r->acc.total;
	}
	fl->sched_events = l->events + l->bpf_events;
	fl->sched_notice = l->notice_shown != NULL ? l->notice_shown
	                   : l->notice[0] != '\0'  ? l->notice
	                                           : NULL;
	fl->sched_lost = l->lost + l->bpf_lost + l->undelivered;
	fl->sched_unpaired = l->runq_missed + l->bio.unpaired + l->bpf_unpaired;
	latsched_taken(l, true);
	if (l->offcpu != NULL)
		cg_snapshot(offcpu_graph(l->offcpu), &fl->offcpu);
	if (fl->target == NULL)
		fl->target = l->filtered ? "target" : "system-wide";
}

/* The notice. */
const char *
latsched_notice(const struct latsched *l)
{
	return l->notice;
}

/* Why not BPF. */
const char *
latsched_why_not_bpf(const struct latsched *l)
{
	return l->bpf_why[0] != '\0' ? l->bpf_why : NULL;
}

/* Close and free. */
void
latsched_free(struct latsched *l)
{
	if (l == NULL)
		return;
	if (l->sw_open)
		evlist_close(&l->sw);
	if (l->other_open)
		evlist_close(&l->other);
	for (size_t i = 0; i < l->ncs; i++)
		close(l->cs_fds[i]);
	free(l->cs_fds);
	schedbpf_free(l->bpf);
	offcpu_free(l->offcpu);
	latrunq_free(&l->runq);
	lat_pair_free(&l->oncpu);
	latbio_free(&l->bio);
	tasks_free(l->ts);
	free(l->rows);
	free(l->rowtab);
	free(l->pids);
	free(l);
}
