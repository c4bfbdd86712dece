/* latency-sys: syscall latency from raw_syscalls:sys_enter/sys_exit,
 * paired per thread in user space, per (process, syscall). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <asm/unistd.h>

#include "tracetop/evlist.h"
#include "tracetop/evspec.h"
#include "tracetop/frame.h"
#include "tracetop/latency-sys.h"
#include "tracetop/record.h"
#include "tracetop/tracefs.h"
#include "latency-impl.h"

/* The architecture's syscalls, {__NR_name, "name"}, generated at build
 * time from <asm/unistd.h> (Makefile.am): no table to keep by hand. */
static const struct {
	int nr;
	const char *name;
} latsys_table[] = {
#include "latency-sysnames.inc"
};

#define LATSYS_SAMPLE_TYPE                                                                         \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |           \
	 PERF_SAMPLE_RAW)

/* The name of nr, from the table. */
const char *
latsys_name(int nr)
{
	size_t lo = 0, hi = sizeof latsys_table / sizeof latsys_table[0];

	/* the table is sorted by nr (the generator sorts it) */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (latsys_table[mid].nr == nr)
			return latsys_table[mid].name;
		if (latsys_table[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* An empty source. */
struct latsys *
latsys_new_offline(void)
{
	struct latsys *l = xcalloc(1, sizeof *l);

	l->self = getpid();
	lat_pair_init(&l->pair, 1); /* syscalls do not nest */
	lat_pair_init(&l->fpair, 0);
	l->rowmask = 255;
	l->rowtab = xcalloc(l->rowmask + 1, sizeof *l->rowtab);
	l->commmask = 255;
	l->comms = xcalloc(l->commmask + 1, sizeof *l->comms);
	l->target = "system-wide";
	l->last_tick_ns = now_ns();
	return l;
}

/* The comm slot of pid, or the free one where it would go. */
static struct latsys_comm *
latsys_comm_slot(const struct latsys *l, int pid)
{
	size_t i = hash_u64((uint64_t)(uint32_t)pid) & l->commmask;

	while (l->comms[i].pid != 0 && l->comms[i].pid != pid)
		i = (i + 1) & l->commmask;
	return &l->comms[i];
}

/* Remember pid's command (a COMM record, or /proc). */
void
latsys_set_comm(struct latsys *l, int pid, const char *comm)
{
	struct latsys_comm *c;
	char name[sizeof c->comm];

	if (pid <= 0)
		return;
	/* copied first: comm may be another entry's (a fork's parent's),
	 * which growing the table below frees */
	snprintf(name, sizeof name, "%s", comm);
	if ((l->ncomms + 1) * 2 > l->commmask + 1) {
		struct latsys_comm *old = l->comms;
		size_t n = l->commmask + 1;

		l->commmask = 2 * n - 1;
		l->comms = xcalloc(2 * n, sizeof *l->comms);
		for (size_t i = 0; i < n; i++)
			if (old[i].pid != 0)
				*latsys_comm_slot(l, old[i].pid) = old[i];
		free(old);
	}
	c = latsys_comm_slot(l, pid);
	if (c->pid == 0)
		l->ncomms++;
	c->pid = pid;
	memcpy(c->comm, name, sizeof c->comm);
}

/* Is pid's command known? */
bool
latsys_has_comm(const struct latsys *l, int pid)
{
	return latsys_comm_slot(l, pid)->pid == pid;
}

/* pid's command, read from /proc on first sight (a process that was
 * running before tracetop started had no COMM record). */
static const char *
latsys_comm(struct latsys *l, int pid)
{
	struct latsys_comm *c = latsys_comm_slot(l, pid);
	char path[64], buf[32];

	if (c->pid == pid)
		return c->comm;
	snprintf(path, sizeof path, "/proc/%d/comm", pid);
	if (read_file(path, buf, sizeof buf) < 0)
		snprintf(buf, sizeof buf, "?");
	buf[strcspn(buf, "\n")] = '\0';
	latsys_set_comm(l, pid, buf);
	return latsys_comm_slot(l, pid)->comm;
}

/* The row index slot of (pid, nr). */
static uint32_t *
latsys_row_slot(const struct latsys *l, int pid, int nr)
{
	size_t i = hash_mix(hash_u64((uint64_t)(uint32_t)pid), (uint64_t)(uint32_t)nr) & l->rowmask;

	while (l->rowtab[i] != 0) {
		const struct latsys_row *r = &l->rows[l->rowtab[i] - 1];

		if (r->pid == pid && r->nr == nr)
			break;
		i = (i + 1) & l->rowmask;
	}
	return &l->rowtab[i];
}

/* The row of (pid, nr), made on its first call (rare: processes x
 * syscalls; everything after is in place). */
struct latsys_row *
latsys_row_get(struct latsys *l, int pid, int nr)
{
	uint32_t *slot = latsys_row_slot(l, pid, nr);
	struct latsys_row *r;
	const char *name;
	char buf[32];

	if (*slot != 0)
		return &l->rows[*slot - 1];
	if ((l->nrows + 1) * 2 > l->rowmask + 1) {
		l->rowmask = 2 * (l->rowmask + 1) - 1;
		free(l->rowtab);
		l->rowtab = xcalloc(l->rowmask + 1, sizeof *l->rowtab);
		for (size_t i = 0; i < l->nrows; i++)
			*latsys_row_slot(l, l->rows[i].pid, l->rows[i].nr) = (uint32_t)i + 1;
		slot = latsys_row_slot(l, pid, nr);
	}
	if (l->nrows == l->rows_cap) {
		l->rows_cap = l->rows_cap ? 2 * l->rows_cap : 64;
		l->rows = xrealloc(l->rows, l->rows_cap * sizeof *l->rows);
	}
	if (nr >= LATSYS_FUNC && (size_t)(nr - LATSYS_FUNC) < l->nfuncs) {
		name = l->fns[nr - LATSYS_FUNC].name;
	} else if ((name = latsys_name(nr)) == NULL) {
		snprintf(buf, sizeof buf, "syscall %d", nr);
		name = buf;
	}
	r = &l->rows[l->nrows++];
	*r = (struct latsys_row){.pid = pid,
	                         .nr = nr,
	                         .kind = nr >= LATSYS_FUNC ? LAT_FUNCTION : LAT_SYSCALL,
	                         .name = str_intern(name)};
	lat_acc_reset(&r->acc);
	*slot = (uint32_t)l->nrows;
	latsys_comm(l, pid); /* while the process is still there */
	return r;
}

/* A thread entered syscall nr. */
void
latsys_enter(struct latsys *l, int pid, int tid, int nr, uint64_t t)
{
	(void)pid;
	lat_pair_enter(&l->pair, tid, nr, t);
}

/* A thread left syscall nr: a call when its entry was seen. */
void
latsys_exit(struct latsys *l, int pid, int tid, int nr, int64_t ret, uint64_t t)
{
	uint64_t ns;

	/* id -1: no syscall ran (e.g. a uretprobe's trampoline returning
	 * through the uretprobe syscall, reported with the function's return
	 * value): neither a call nor an unpaired exit */
	if (nr < 0)
		return;
	if (lat_pair_exit(&l->pair, tid, nr, t, &ns))
		lat_hist_add(&latsys_row_get(l, pid, nr)->acc.interval, ns, ret < 0);
}

/* The offsets of the fields the hot path reads, from the formats. */
static int
latsys_offsets(struct latsys *l, struct tt_err *err)
{
	size_t len;
	char *en = tt_tracefs_event_format("raw_syscalls", "sys_enter", &len, err), *ex;

	if (en == NULL)
		return -1;
	if ((ex = tt_tracefs_event_format("raw_syscalls", "sys_exit", &len, err)) == NULL) {
		free(en);
		return -1;
	}
	l->off_enter_id = tt_tracefs_format_offset(en, "id");
	l->off_exit_id = tt_tracefs_format_offset(ex, "id");
	l->off_exit_ret = tt_tracefs_format_offset(ex, "ret");
	free(en);
	free(ex);
	if (l->off_enter_id < 0 || l->off_exit_id < 0 || l->off_exit_ret < 0)
		return err_set(err, "raw_syscalls:sys_enter/sys_exit have no id or ret field here");
	return 0;
}

/* The threads of the -p processes and -t threads, and the command. */
static size_t
latsys_target_tids(const struct latsys_opts *o, int **tids)
{
	size_t n = 0;

	*tids = NULL;
	for (size_t i = 0; i < o->npids; i++) {
		char path[64], **names;
		size_t k;

		snprintf(path, sizeof path, "/proc/%d/task", o->pids[i]);
		if ((names = dir_list(path, &k)) == NULL)
			continue;
		*tids = xrealloc(*tids, (n + k) * sizeof **tids);
		for (size_t j = 0; j < k; j++)
			if (parse_int(names[j], &(*tids)[n]) == 0)
				n++;
		names_free(names, k);
	}
	*tids = xrealloc(*tids, (n + o->ntids + 1) * sizeof **tids);
	for (size_t i = 0; i < o->ntids; i++)
		(*tids)[n++] = o->tids[i];
	if (o->command > 0)
		(*tids)[n++] = o->command;
	return n;
}

/* Open sys_enter and sys_exit on every CPU for the target. */
struct latsys *
latsys_new(const struct latsys_opts *o, struct tt_err *err)
{
	size_t nsys = o->no_syscalls ? 0 : 2, nspecs = nsys + 2 * o->nfuncs;
	struct evspec *specs = xcalloc(nspecs, sizeof *specs);
	struct latsys *l;
	struct evlist_target t = {.cpus = o->cpus, .ncpus = o->ncpus};
	struct evlist_params p = {.mmap_pages = o->mmap_pages ? o->mmap_pages : 64,
	                          .sample_type = LATSYS_SAMPLE_TYPE};
	int *cpus = NULL, *tids = NULL, rc;
	bool any = o->npids > 0 || o->ntids > 0 || o->command > 0;

	if (nsys > 0 && (evspec_parse("raw_syscalls:sys_enter", &specs[0], err) != 0 ||
	                 evspec_parse("raw_syscalls:sys_exit", &specs[1], err) != 0)) {
		free(specs);
		return NULL;
	}
	for (size_t i = 0; i < 2 * o->nfuncs; i++)
		if (evspec_parse(o->funcs[i], &specs[nsys + i], err) != 0) {
			free(specs);
			return NULL;
		}
	l = latsys_new_offline();
	latsys_set_funcs(l, o->func_names, o->nfuncs);
	l->include_self = o->include_self;
	l->nsys = nsys;
	if (any)
		l->target = o->command > 0 ? "command" : "target";
	if ((rc = latsys_bpf_setup(l, o, err)) != 0) {
		free(specs);
		if (rc < 0) {
			latsys_free(l);
			return NULL;
		}
		return l; /* in the kernel: no rings */
	}
	if (nspecs == 0) { /* the rings need an event from the start */
		err_set(err, "--no-syscalls without --latency: nothing to time on the perf rings");
		goto fail;
	}
	if (nsys > 0 && latsys_offsets(l, err) != 0)
		goto fail;
	if (t.ncpus == 0) {
		if (online_cpus(&cpus, &t.ncpus, err) != 0)
			goto fail;
		t.cpus = cpus;
	}
	if (any) {
		t.ntids = latsys_target_tids(o, &tids);
		t.tids = tids;
		if (t.ntids == 0) {
			err_set(err, "no thread of the target to time syscalls of");
			goto fail;
		}
		t.inherit = o->npids > 0 || o->command > 0;
		t.enable_on_exec = o->command > 0;
	}
	rc = evlist_open(&l->el, specs, nspecs, &t, &p, err);
	/* kept: functions timed later open on the same target */
	l->cpus = xmalloc((t.ncpus + 1) * sizeof *l->cpus);
	memcpy(l->cpus, t.cpus, t.ncpus * sizeof *l->cpus);
	l->ncpus = t.ncpus;
	l->tids = tids, l->ntids = t.ntids;
	l->inherit = t.inherit;
	free(cpus);
	cpus = tids = NULL;
	if (rc != 0)
		goto fail;
	l->open = true;
	free(specs);
	return l;
fail:
	free(specs);
	free(cpus);
	free(tids);
	latsys_free(l);
	return NULL;
}

/* Enable the events (a command's wait for its exec). */
int
latsys_start(struct latsys *l, struct tt_err *err)
{
	if (l->bpf != NULL)
		latbpf_set_on(l->bpf, true);
	if (l->open && evlist_enable(&l->el) != 0)
		return err_set(err, "cannot enable raw_syscalls events: %s", strerror(errno));
	return 0;
}

/* Disable or enable the events; the open calls are forgotten. */
void
latsys_pause(struct latsys *l, bool paused)
{
	if (l->bpf != NULL)
		latbpf_set_on(l->bpf, !paused);
	if (!l->open)
		return;
	if (paused) {
		evlist_disable(&l->el);
		for (size_t k = 0; k < l->nfuncs; k++)
			if (l->fns[k].el != NULL)
				evlist_disable(l->fns[k].el);
		latsys_read(l);
		return;
	}
	uint64_t unpaired = l->pair.unpaired, funpaired = l->fpair.unpaired;

	lat_pair_free(&l->pair);
	lat_pair_init(&l->pair, 1);
	l->pair.unpaired = unpaired;
	lat_pair_free(&l->fpair);
	lat_pair_init(&l->fpair, 0);
	l->fpair.unpaired = funpaired;
	evlist_enable(&l->el);
	for (size_t k = 0; k < l->nfuncs; k++)
		if (l->fns[k].el != NULL)
			evlist_enable(l->fns[k].el);
}

/* The evlists the source reads: its own, then each function's own. */
static struct evlist *
latsys_evlist(const struct latsys *l, size_t i)
{
	if (i == 0)
		return (struct evlist *)&l->el;
	return i - 1 < l->nfuncs ? l->fns[i - 1].el : NULL;
}

/* The rings' fds. */
size_t
latsys_pollfds(const struct latsys *l, struct pollfd *fds, size_t max)
{
	size_t n = 0;

	for (size_t e = 0; e <= l->nfuncs; e++) {
		const struct evlist *el = latsys_evlist(l, e);

		for (size_t i = 0; el != NULL && i < el->nrings && n < max; i++)
			if (el->ring_fds[i] >= 0)
				fds[n++] = (struct pollfd){.fd = el->ring_fds[i], .events = POLLIN};
	}
	return n;
}

/* A signed field of size 8 at off in a payload, false past its end. */
static bool
latsys_field(const struct record_sample *s, int off, int64_t *v)
{
	if (off < 0 || (uint32_t)off + sizeof *v > s->raw_size)
		return false;
	memcpy(v, (const char *)s->raw + off, sizeof *v);
	return true;
}

/* One sample of evlist e (latsys_evlist): an entry or an exit. */
static void
latsys_sample(struct latsys *l, size_t e, const struct perf_event_header *h)
{
	struct evlist *el = latsys_evlist(l, e);
	struct record_sample s;
	struct evsel *ev;
	int64_t nr, ret;

	if (record_parse_sample(h, el->sample_type, 0, &s) != 0 ||
	    (ev = evlist_find_id(el, s.id)) == NULL)
		return;
	if ((int)s.pid == l->self && !l->include_self)
		return;
	l->events++;
	if (e > 0) { /* a function timed while running: its own entry and return */
		latsys_func(l, (int)s.pid, (int)s.tid, e - 1, ev == &el->evsels[0], s.time);
	} else if (ev >= &l->el.evsels[l->nsys]) { /* a function's entry or return probe */
		size_t i = (size_t)(ev - &l->el.evsels[l->nsys]);

		latsys_func(l, (int)s.pid, (int)s.tid, i / 2, i % 2 == 0, s.time);
	} else if (ev == &l->el.evsels[0]) {
		if (latsys_field(&s, l->off_enter_id, &nr))
			latsys_enter(l, (int)s.pid, (int)s.tid, (int)nr, s.time);
	} else if (latsys_field(&s, l->off_exit_id, &nr) &&
	           latsys_field(&s, l->off_exit_ret, &ret)) {
		latsys_exit(l, (int)s.pid, (int)s.tid, (int)nr, ret, s.time);
	}
}

/* A sample and the evlist it came from, for latsys_sample_cb. */
struct latsys_at {
	struct latsys *l;
	size_t e;
};

/* A sample of the evlist at->e. */
static void
latsys_sample_cb(void *arg, const struct perf_event_header *h)
{
	struct latsys_at *at = arg;

	latsys_sample(at->l, at->e, h);
}

/* A thread's own name is not the process's. */
static void
latsys_comm_cb(void *arg, const struct record_comm *c)
{
	struct latsys_at *at = arg;

	if (c->pid == c->tid)
		latsys_set_comm(at->l, (int)c->pid, c->comm);
}

/* A new process starts with its parent's name. */
static void
latsys_fork_cb(void *arg, const struct record_task *t)
{
	struct latsys_at *at = arg;

	if (t->pid != t->ppid && t->pid == t->tid)
		latsys_set_comm(at->l, (int)t->pid, latsys_comm(at->l, (int)t->ppid));
}

/* Its tid may come back as another thread. */
static void
latsys_exit_cb(void *arg, const struct record_task *t)
{
	struct latsys_at *at = arg;

	lat_pair_forget(&at->l->pair, (int)t->tid);
	lat_pair_forget(&at->l->fpair, (int)t->tid);
}

/* Records the kernel could not write. */
static void
latsys_lost_cb(void *arg, uint64_t n)
{
	((struct latsys_at *)arg)->l->lost += n;
}

static const struct record_sink latsys_sink = {.sample = latsys_sample_cb,
                                               .comm = latsys_comm_cb,
                                               .fork = latsys_fork_cb,
                                               .exit = latsys_exit_cb,
                                               .lost = latsys_lost_cb};

/* One record of the ring reader: the evlist it came from says which
 * function's (0: the syscalls' and the first functions'). */
static void
latsys_record_cb(void *arg, struct evlist *el, const struct perf_event_header *h)
{
	struct latsys_at at = {.l = arg};

	for (at.e = 0; at.e <= at.l->nfuncs; at.e++)
		if (latsys_evlist(at.l, at.e) == el) {
			record_dispatch(h, at.l->el.sample_type, &latsys_sink, &at);
			return;
		}
}

/* Drain the rings of every evlist (functions timed while running have
 * their own) merged in time order: an entry on one CPU and its exit on
 * another must meet in order. */
void
latsys_read(struct latsys *l)
{
	struct evlist *els[l->nfuncs + 1];
	size_t n = 0;

	if (!l->open)
		return;
	for (size_t e = 0; e <= l->nfuncs; e++)
		if (latsys_evlist(l, e) != NULL)
			els[n++] = latsys_evlist(l, e);
	evlist_read_ordered(els, n, latsys_record_cb, l);
}

/* The interval's calls join the totals. */
void
latsys_tick(struct latsys *l)
{
	uint64_t now = now_ns();
	double secs = (double)(now - l->last_tick_ns) / 1e9;

	l->last_tick_ns = now;
	if (l->bpf != NULL) {
		latsys_bpf_tick(l, secs);
		return;
	}
	for (size_t i = 0; i < l->nrows; i++) {
		struct latsys_row *r = &l->rows[i];

		lat_acc_tick(&r->acc, secs);
	}
}

/* Every row into the frame's part. */
void
latsys_snapshot(struct latsys *l, struct frame_latency *fl)
{
	/* the other sources' rows (runq, bio, offcpu) stay */
	frame_latency_drop(fl, (1u << LAT_SYSCALL) | (1u << LAT_FUNCTION));
	frame_latency_reserve(fl, fl->nrows + l->nrows);
	for (size_t i = 0; i < l->nrows; i++) {
		const struct latsys_row *r = &l->rows[i];
		struct lat_row *o;

		if (r->acc.total.count == 0 ||
		    (r->nr >= LATSYS_FUNC && l->fns[r->nr - LATSYS_FUNC].gone))
			continue;
		o = &fl->rows[fl->nrows++];
		memset(o, 0, sizeof *o);
		o->kind = r->kind;
		o->name = r->name;
		o->pid = r->pid;
		snprintf(o->comm, sizeof o->comm, "%s", latsys_comm(l, r->pid));
		o->interval = r->acc.last_interval;
		o->rate = r->acc.rate;
		o->hist = r->acc.total;
	}
	fl->events = l->events;
	fl->lost = l->lost;
	fl->unpaired = l->pair.unpaired + l->fpair.unpaired + l->bpf_unpaired;
	fl->target = l->target;
	fl->notice = l->notice[0] ? l->notice : NULL;
}

/* Close and free. */
void
latsys_free(struct latsys *l)
{
	if (l == NULL)
		return;
	if (l->open)
		evlist_close(&l->el);
	lat_pair_free(&l->pair);
	lat_pair_free(&l->fpair);
	latsys_set_funcs(l, NULL, 0);
	latbpf_free(l->bpf);
	free(l->fns);
	free(l->cpus);
	free(l->tids);
	free(l->rows);
	free(l->rowtab);
	free(l->comms);
	free(l);
}
