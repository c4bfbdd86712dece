/* counters: counting fds per CPU and per thread (opened through
 * counters-units.c) for a target or the whole system, read every tick into
 * per-scope values, rates, totals and histories; events added and removed
 * while counting. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "counters-impl.h"

/* Room counters_default_events needs. */
#define COUNTERS_MAX_DEFAULTS 16

/* A target thread and the group it feeds. */
struct cnt_thread {
	int tid, proc;
};

/* The target's threads: the command, each -p process's, each -t thread. */
static struct cnt_thread *
target_threads(struct counters *c, const struct counters_opts *o, size_t *n, struct tt_err *err)
{
	struct cnt_thread *v = NULL;
	char dir[64];
	size_t i, k;

	*n = 0;
	for (i = 0; i < o->npids + (o->command > 0); i++) {
		int pid = i < o->npids ? o->pids[i] : o->command;
		int g = counters_group_add(c, pid, false);

		snprintf(dir, sizeof dir, "%s/%d/task", c->scan.root, pid);
		if (pid == o->command) {
			c->tids.v = xrealloc(c->tids.v, sizeof *c->tids.v);
			c->tids.v[0] = pid;
			c->tids.n = 1;
		} else if (counters_proc_ints(dir, &c->tids) != 0 || c->tids.n == 0) {
			free(v);
			err_set(err, "no such process %d: check the pid with ps", pid);
			return NULL;
		}
		v = xrealloc(v, (*n + c->tids.n) * sizeof *v);
		for (k = 0; k < c->tids.n; k++)
			v[(*n)++] = (struct cnt_thread){.tid = c->tids.v[k], .proc = g};
	}
	for (i = 0; i < o->ntids; i++) {
		v = xrealloc(v, (*n + 1) * sizeof *v);
		v[(*n)++] = (struct cnt_thread){.tid = o->tids[i],
		                                .proc = counters_group_add(c, o->tids[i], true)};
	}
	return v;
}

/* Open the target's threads, per CPU when the fd budget allows. */
static int
open_target(struct counters *c, const struct counters_opts *o, struct tt_err *err)
{
	struct cnt_thread *th;
	size_t n, i, k, counted = 0, need;
	enum counters_open r = COUNTERS_OPEN_OK;

	if ((th = target_threads(c, o, &n, err)) == NULL)
		return -1;
	if (counters_probe_events(c, th[0].tid, -1, err) != 0) {
		free(th);
		return -1;
	}
	need = n * c->ncpu_ids * counters_nsupported(c);
	c->percpu = need <= c->fd_budget;
	if (!c->percpu)
		snprintf(c->base_notice, sizeof c->base_notice,
		         "per-CPU counts need %zu fds (limit %zu): no CPU scope", need,
		         c->fd_budget);
	for (i = 0; i < n && r != COUNTERS_OPEN_LIMIT && r != COUNTERS_OPEN_DENIED; i++) {
		size_t before = c->nunits;

		for (k = 0; k < (c->percpu ? c->ncpu_ids : 1); k++) {
			r = counters_unit_add(c, th[i].tid, c->percpu ? c->cpu_ids[k] : -1, k,
			                      th[i].proc, true, err);
			if (r == COUNTERS_OPEN_LIMIT || r == COUNTERS_OPEN_DENIED)
				break;
		}
		while (r == COUNTERS_OPEN_LIMIT && c->nunits > before) /* all CPUs or none */
			counters_unit_drop(c, c->nunits - 1);
		counted += r == COUNTERS_OPEN_OK;
	}
	free(th);
	if (r == COUNTERS_OPEN_DENIED)
		return -1;
	if (counted < n && r == COUNTERS_OPEN_LIMIT)
		snprintf(c->base_notice + strlen(c->base_notice),
		         sizeof c->base_notice - strlen(c->base_notice),
		         "%sfd limit reached: counting %zu of %zu threads",
		         c->base_notice[0] ? "; " : "", counted, n);
	return 0;
}

/* Open every CPU for the whole system. */
static int
open_system(struct counters *c, struct tt_err *err)
{
	if (counters_probe_events(c, -1, c->cpu_ids[0], err) != 0)
		return -1;
	c->percpu = true;
	for (size_t k = 0; k < c->ncpu_ids; k++) {
		enum counters_open r = counters_unit_add(c, -1, c->cpu_ids[k], k, -1, true, err);

		if (r == COUNTERS_OPEN_DENIED)
			return -1;
		if (r == COUNTERS_OPEN_LIMIT) {
			snprintf(c->base_notice, sizeof c->base_notice,
			         "fd limit reached: counting %zu of %zu CPUs", k, c->ncpu_ids);
			break;
		}
	}
	return 0;
}

/* Parse and append an event (supported until the kernel says otherwise). */
static int
event_append(struct counters *c, const char *name, struct tt_err *err)
{
	struct evspec spec;

	if (evspec_parse(name, &spec, err) != 0)
		return -1;
	for (size_t i = 0; i < c->nev; i++)
		if (strcmp(c->ev[i].name, name) == 0)
			return err_set(err, "%s is already counted", name);
	c->ev = xrealloc(c->ev, (c->nev + 1) * sizeof *c->ev);
	c->ev[c->nev++] =
	    (struct cnt_event){.spec = spec, .name = str_intern(name), .supported = true};
	return 0;
}

/* The fd budget: the soft RLIMIT_NOFILE less a reserve and what is open. */
static size_t
fd_budget(struct counters *c)
{
	struct rlimit rl;
	size_t limit;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 1u << 20;
	limit = (size_t)rl.rlim_cur;
	if (counters_proc_ints("/proc/self/fd", &c->tids) == 0)
		limit = limit > c->tids.n ? limit - c->tids.n : 0;
	return limit > COUNTERS_FD_RESERVE ? limit - COUNTERS_FD_RESERVE : 0;
}

/* Open the counters. */
struct counters *
counters_new(const struct counters_opts *o, struct tt_err *err)
{
	struct counters *c = xcalloc(1, sizeof *c);
	const char *defaults[COUNTERS_MAX_DEFAULTS];
	const char *const *names = o->events;
	size_t n = o->nevents, i;
	int rc;

	c->scan.root = o->proc_root != NULL ? o->proc_root : "/proc";
	c->busy.file.fd = -1;
	c->self = getpid();
	c->include_self = o->include_self;
	c->max_procs = o->max_procs ? o->max_procs : COUNTERS_MAX_PROCS_DEFAULT;
	c->target = o->command > 0 || o->npids > 0 || o->ntids > 0;
	c->inherit = o->command > 0 || o->npids > 0;
	c->enable_on_exec = o->command > 0;
	c->fd_budget = o->max_fds ? o->max_fds : fd_budget(c);
	if (names == NULL) {
		n = counters_default_events(defaults);
		names = defaults;
	}
	for (i = 0; i < n; i++)
		if (event_append(c, names[i], err) != 0)
			goto fail;
	if (o->ncpus > 0) {
		c->cpu_ids = xmalloc(o->ncpus * sizeof *c->cpu_ids);
		memcpy(c->cpu_ids, o->cpus, o->ncpus * sizeof *c->cpu_ids);
		c->ncpu_ids = o->ncpus;
	} else if (online_cpus(&c->cpu_ids, &c->ncpu_ids, err) != 0) {
		goto fail;
	}
	c->ivs = xcalloc(c->ncpu_ids, sizeof *c->ivs);
	c->iv_ok = xcalloc(c->ncpu_ids, sizeof *c->iv_ok);
	counters_group_init(&c->total, c, -1);
	if (!c->target)
		counters_busy_open(&c->busy, c->scan.root);
	rc = c->target ? open_target(c, o, err) : open_system(c, err);
	if (rc != 0)
		goto fail;
	if (c->percpu) {
		c->ncpus = c->ncpu_ids;
		c->cpus = xcalloc(c->ncpus, sizeof *c->cpus);
		for (i = 0; i < c->ncpus; i++)
			counters_group_init(&c->cpus[i], c, c->cpu_ids[i]);
	}
	counters_notice_update(c);
	c->last_ns = now_ns();
	counters_set_scope(c, o->scope);
	return c;
fail:
	counters_free(c);
	return NULL;
}

/* Read one slot into its interval; false if nothing could be read. */
static bool
slot_read(struct counters *c, struct cnt_slot *sl, struct counters_interval *iv)
{
	struct counters_reading cur;

	if (!counters_slot_read(c, sl, &cur))
		return false;
	counters_interval(&sl->prev, &cur, iv);
	sl->prev = cur;
	return true;
}

/* Add an fd's interval into a series. */
static void
series_add(struct cnt_series *s, const struct counters_interval *iv)
{
	s->acc += iv->value;
	s->ena += iv->enabled;
	s->run += iv->running;
	s->nfds++;
}

/* Start a tick: empty every series' accumulators. */
static void
group_begin(struct cnt_group *g, size_t nev)
{
	for (size_t e = 0; e < nev; e++) {
		g->s[e].acc = 0;
		g->s[e].ena = g->s[e].run = 0;
		g->s[e].nfds = 0;
	}
}

/* End a tick of secs seconds: values, shares, totals and histories. */
static void
group_end(struct cnt_group *g, size_t nev, double secs)
{
	for (size_t e = 0; e < nev; e++) {
		struct cnt_series *s = &g->s[e];

		s->value = s->acc;
		s->share = counters_share(s->ena, s->run);
		s->total += s->acc;
		counters_ring_push(&s->hist, s->value);
	}
	g->secs += secs;
	counters_ring_push(&g->secs_hist, secs);
	g->ticks++;
	if (g->exited)
		g->exit_ticks++;
}

/* Apply fn to every group. */
static void
groups_each(struct counters *c, void (*begin)(struct cnt_group *, size_t),
            void (*end)(struct cnt_group *, size_t, double), double secs)
{
	struct cnt_group *sets[] = {&c->total, c->cpus, c->procs};
	size_t counts[] = {1, c->ncpus, c->nprocs};

	for (size_t k = 0; k < ARRAY_SIZE(sets); k++)
		for (size_t i = 0; i < counts[k]; i++) {
			if (begin != NULL)
				begin(&sets[k][i], c->nev);
			if (end != NULL)
				end(&sets[k][i], c->nev, secs);
		}
}

/* Read event e on units [u, u + n): one unit, or the per-CPU units of one
 * target thread (scaled together), into the groups they feed. */
static void
units_read(struct counters *c, size_t u, size_t n, size_t e)
{
	struct counters_interval *iv = c->ivs;
	size_t i;

	for (i = 0; i < n; i++) {
		struct cnt_slot *sl = &c->units[u + i].slots[e];

		c->iv_ok[i] = sl->fd >= 0 && slot_read(c, sl, &iv[i]);
		if (!c->iv_ok[i])
			memset(&iv[i], 0, sizeof iv[i]);
	}
	if (n > 1)
		counters_scale_thread(iv, n);
	for (i = 0; i < n; i++) {
		const struct cnt_unit *un = &c->units[u + i];

		if (!c->iv_ok[i])
			continue;
		if (un->base)
			series_add(&c->total.s[e], &iv[i]);
		if (un->base && c->percpu)
			series_add(&c->cpus[un->cpu_idx].s[e], &iv[i]);
		if (un->proc >= 0)
			series_add(&c->procs[un->proc].s[e], &iv[i]);
	}
}

/* How many units from u on are one target thread's per-CPU units. */
static size_t
thread_run(const struct counters *c, size_t u)
{
	const struct cnt_unit *un = &c->units[u];
	size_t n = 1;

	if (un->tid <= 0 || un->cpu < 0)
		return 1;
	while (u + n < c->nunits && n < c->ncpu_ids && c->units[u + n].tid == un->tid &&
	       c->units[u + n].cpu >= 0)
		n++;
	return n;
}

/* Add the busy seconds of one interval to group g. */
static void
group_busy(struct cnt_group *g, double secs)
{
	g->busy = secs;
	if (!isnan(secs))
		g->busy_total += secs;
	counters_ring_push(&g->busy_hist, secs);
}

/* Whether an event feeds the CPUs-utilized metric, the one the busy time
 * serves (the probes' counters have none: /proc/stat is not read for them). */
static bool
busy_wanted(const struct counters *c)
{
	for (size_t e = 0; e < c->nev; e++)
		if (counters_metric_input(COUNTERS_METRIC_CPU_UTIL, &c->ev[e].spec.attr, false))
			return true;
	return false;
}

/* Without a target: each CPU's busy time of the interval, and their sum. */
static void
busy_tick(struct counters *c)
{
	bool ok;
	double sum = 0;

	if (!busy_wanted(c)) {
		c->busy.readings = 0; /* a clock event added later starts over */
		return;
	}
	ok = counters_busy_read(&c->busy) == 0;

	c->busy_error = NULL;
	if (!ok) {
		char msg[512];

		snprintf(msg, sizeof msg, "not supported: CPUs utilized is the busy time of %s",
		         c->busy.file.error ? c->busy.file.error : "/proc/stat's CPU lines");
		c->busy_error = str_intern(msg);
	}
	for (size_t i = 0; i < c->ncpu_ids; i++) {
		double b = ok ? counters_busy_secs(&c->busy, c->cpu_ids[i], i) : NAN;

		if (c->percpu && i < c->ncpus)
			group_busy(&c->cpus[i], b);
		sum += b;
	}
	group_busy(&c->total, sum);
}

/* Read everything and close the interval. */
void
counters_tick(struct counters *c)
{
	uint64_t now = now_ns();
	double secs = (double)(now - c->last_ns) / 1e9;
	size_t u, n;

	c->last_ns = now;
	c->interval = secs;
	c->elapsed += secs;
	c->enable_on_exec = false; /* the command has been released by now */
	groups_each(c, group_begin, NULL, 0);
	c->reads = 0;
	for (u = 0; u < c->nunits; u += n) {
		n = thread_run(c, u);
		for (size_t i = 0; i < n; i++)
			counters_group_read(c, &c->units[u + i]);
		for (size_t e = 0; e < c->nev; e++)
			units_read(c, u, n, e);
	}
	groups_each(c, NULL, group_end, secs);
	if (!c->target)
		busy_tick(c);
	for (u = c->nunits; u-- > 0;)
		if (c->units[u].gone)
			counters_unit_drop(c, u);
	if (c->target)
		counters_watch(c);
	else if (c->scope == COUNTERS_PROCESS)
		counters_follow(c);
}

/* Switch scope, opening or closing the busiest processes' fds. */
void
counters_set_scope(struct counters *c, enum counters_scope s)
{
	if (s >= COUNTERS_NSCOPES || s == c->scope)
		return;
	c->scope = s;
	if (c->target)
		return;
	if (s == COUNTERS_PROCESS) {
		counters_follow(c);
		return;
	}
	while (c->nprocs > 0)
		counters_group_drop(c, c->nprocs - 1);
	c->scan.scanned = false;
	c->proc_notice[0] = '\0';
	counters_notice_update(c);
}

/* Grow every unit and group by one event slot. */
static void
grow_event_slots(struct counters *c)
{
	struct cnt_group *sets[] = {&c->total, c->cpus, c->procs};
	size_t counts[] = {1, c->ncpus, c->nprocs};

	for (size_t u = 0; u < c->nunits; u++) {
		c->units[u].slots = xrealloc(c->units[u].slots, c->nev * sizeof(struct cnt_slot));
		c->units[u].slots[c->nev - 1].fd = -1;
	}
	for (size_t k = 0; k < ARRAY_SIZE(sets); k++)
		for (size_t i = 0; i < counts[k]; i++) {
			sets[k][i].s = xrealloc(sets[k][i].s, c->nev * sizeof(struct cnt_series));
			memset(&sets[k][i].s[c->nev - 1], 0, sizeof(struct cnt_series));
		}
}

/* Drop the process groups (no target) that have no fd for event ei. */
static void
drop_uncounted(struct counters *c, size_t ei)
{
	for (size_t p = c->nprocs; p-- > 0;) {
		size_t u;

		for (u = 0; u < c->nunits; u++)
			if (c->units[u].proc == (int)p && c->units[u].slots[ei].fd >= 0)
				break;
		if (u == c->nunits) {
			counters_group_drop(c, p);
			snprintf(c->proc_notice, sizeof c->proc_notice,
			         "fd limit reached: fewer processes counted");
		}
	}
	counters_notice_update(c);
}

/* Count one more event on every unit. */
int
counters_add(struct counters *c, const char *event, struct tt_err *err)
{
	enum counters_open r = COUNTERS_OPEN_OK;
	size_t ei = c->nev, u;
	bool short_of_fds = false;

	if (event_append(c, event, err) != 0)
		return -1;
	grow_event_slots(c);
	for (u = 0; u < c->nunits; u++) {
		r = counters_slot_open(c, &c->units[u], ei, err);
		if (r == COUNTERS_OPEN_DENIED || (r == COUNTERS_OPEN_LIMIT && c->units[u].base))
			break;
		short_of_fds |= r == COUNTERS_OPEN_LIMIT;
	}
	if (u < c->nunits) {
		if (r == COUNTERS_OPEN_LIMIT)
			err_set(err,
			        "cannot count %s: no file descriptors left (%zu in use); raise "
			        "'ulimit -n'",
			        event, c->nfds);
		counters_remove(c, ei);
		return -1;
	}
	if (short_of_fds && c->ev[ei].supported && !c->target)
		drop_uncounted(c, ei);
	return 0;
}

/* Stop counting event idx: close its fds, drop its slots and series. */
int
counters_remove(struct counters *c, size_t idx)
{
	struct cnt_group *sets[] = {&c->total, c->cpus, c->procs};
	size_t counts[] = {1, c->ncpus, c->nprocs};
	size_t after;

	if (idx >= c->nev)
		return -1;
	after = c->nev - idx - 1;
	for (size_t u = 0; u < c->nunits; u++) {
		struct cnt_slot *sl = c->units[u].slots;

		counters_slot_close(c, &sl[idx]);
		memmove(&sl[idx], &sl[idx + 1], after * sizeof *sl);
	}
	for (size_t k = 0; k < ARRAY_SIZE(sets); k++)
		for (size_t i = 0; i < counts[k]; i++)
			memmove(&sets[k][i].s[idx], &sets[k][i].s[idx + 1],
			        after * sizeof(struct cnt_series));
	memmove(&c->ev[idx], &c->ev[idx + 1], after * sizeof *c->ev);
	c->nev--;
	return 0;
}

/* Close and free everything. */
void
counters_free(struct counters *c)
{
	if (c == NULL)
		return;
	while (c->nunits > 0)
		counters_unit_drop(c, c->nunits - 1);
	while (c->nprocs > 0)
		counters_group_drop(c, c->nprocs - 1);
	for (size_t i = 0; i < c->ncpus; i++)
		free(c->cpus[i].s);
	free(c->cpus);
	free(c->total.s);
	free(c->procs);
	free(c->units);
	free(c->cpu_ids);
	free(c->ivs);
	free(c->iv_ok);
	free(c->ev);
	free(c->tids.v);
	counters_scan_free(&c->scan);
	if (!c->target)
		counters_busy_free(&c->busy);
	free(c);
}
