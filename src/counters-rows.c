/* counters-rows: snapshots of the counters module: rows per scope key
 * with values, rates, totals, shares, histories and derived metrics. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters-impl.h"

/* The scope in use. */
enum counters_scope
counters_scope(const struct counters *c)
{
	return c->scope;
}

/* CPU rows exist only with per-CPU fds. */
bool
counters_scope_available(const struct counters *c, enum counters_scope s)
{
	return s != COUNTERS_CPU || c->percpu;
}

/* The first counted event of group g that is metric m's numerator (or den). */
static int
metric_input(const struct counters *c, const struct cnt_group *g, enum counters_metric m, bool den)
{
	for (size_t e = 0; e < c->nev; e++)
		if (c->ev[e].supported && g->s[e].hist.n > 0 &&
		    counters_metric_input(m, &c->ev[e].spec.attr, den))
			return (int)e;
	return -1;
}

/* The next row of snap, its history slot set aside (pointers fixed later). */
static struct counters_row *
row_next(struct counters_snapshot *snap, const struct cnt_group *g, enum counters_scope kind)
{
	struct counters_row *r = &snap->rows[snap->n++];

	memset(r, 0, sizeof *r);
	r->kind = kind;
	r->cpu = kind == COUNTERS_CPU ? g->id : -1;
	if (kind == COUNTERS_TOTAL)
		snprintf(r->scope, sizeof r->scope, "total");
	else if (kind == COUNTERS_CPU)
		snprintf(r->scope, sizeof r->scope, "cpu%d", g->id);
	else
		snprintf(r->scope, sizeof r->scope, "%s %d", g->is_tid ? "tid" : "pid", g->id);
	if (kind == COUNTERS_PROCESS) {
		r->pid = g->id;
		memcpy(r->comm, g->comm, sizeof r->comm);
		r->cgroup = g->cgroup;
		r->exited = g->exited;
	}
	return r;
}

/* CPUs utilized without a target: busy seconds (/proc/stat) per second,
 * not task-clock's, which also runs while a CPU idles. */
static void
busy_row(const struct counters *c, const struct cnt_group *g, struct counters_row *r, double *h)
{
	unsigned n = g->busy_hist.n < g->secs_hist.n ? g->busy_hist.n : g->secs_hist.n;

	r->supported = c->busy_error == NULL && !isnan(g->busy);
	r->reason = r->supported ? NULL : c->busy_error ? c->busy_error : "not yet: no busy time";
	r->value = r->supported ? counters_rate(g->busy, c->interval) : 0;
	r->total = counters_rate(g->busy_total, g->secs);
	for (unsigned age = 0; age < n; age++)
		h[n - 1 - age] = counters_rate(counters_ring_get(&g->busy_hist, age),
		                               counters_ring_get(&g->secs_hist, age));
	r->nhist = n;
}

/* Add metric m's row to snap when its inputs are counted in g. */
static void
metric_row(const struct counters *c, const struct cnt_group *g, enum counters_scope kind,
           enum counters_metric m, struct counters_snapshot *snap)
{
	int num = metric_input(c, g, m, false), den = -1;
	const struct counters_ring *dh = &g->secs_hist;
	const struct cnt_series *ns;
	struct counters_row *r;
	double *h = snap->hist + snap->n * COUNTERS_HISTORY;
	unsigned n, age;

	if (num < 0 || (!counters_metric_per_wall(m) && (den = metric_input(c, g, m, true)) < 0))
		return;
	ns = &g->s[num];
	if (den >= 0)
		dh = &g->s[den].hist;
	r = row_next(snap, g, kind);
	r->event = counters_metric_name(m);
	r->supported = r->metric = true;
	r->note = counters_metric_note(m);
	r->percent = counters_metric_percent(m);
	r->event_idx = (size_t)num;
	r->share = ns->share;
	if (m == COUNTERS_METRIC_CPU_UTIL && !c->target && kind != COUNTERS_PROCESS) {
		busy_row(c, g, r, h);
		return;
	}
	r->value = counters_metric_value(m, ns->value, den >= 0 ? g->s[den].value : c->interval);
	r->total = counters_metric_value(m, ns->total, den >= 0 ? g->s[den].total : g->secs);
	n = ns->hist.n < dh->n ? ns->hist.n : dh->n;
	for (age = 0; age < n; age++)
		h[n - 1 - age] = counters_metric_value(m, counters_ring_get(&ns->hist, age),
		                                       counters_ring_get(dh, age));
	r->nhist = n;
}

/* Add g's rows (its events, then its metrics) to snap. */
static void
group_rows(const struct counters *c, const struct cnt_group *g, enum counters_scope kind,
           struct counters_snapshot *snap)
{
	for (size_t e = 0; e < c->nev; e++) {
		const struct cnt_event *ev = &c->ev[e];
		const struct cnt_series *s = &g->s[e];
		struct counters_row *r = row_next(snap, g, kind);

		r->event = ev->name;
		r->event_idx = e;
		r->nsec = ev->spec.attr.type == PERF_TYPE_SOFTWARE &&
		          (ev->spec.attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		           ev->spec.attr.config == PERF_COUNT_SW_CPU_CLOCK);
		r->supported =
		    ev->supported && (g->ticks == 0 || s->nfds > 0 || kind == COUNTERS_PROCESS);
		if (!ev->supported) {
			r->reason = ev->reason;
			continue;
		}
		if (!r->supported) {
			r->reason = "not counted: no fd open for it here";
			continue;
		}
		r->value = s->value;
		r->rate = counters_rate(s->value, c->interval);
		r->total = s->total;
		r->share = s->share;
		r->nhist =
		    counters_ring_copy(&s->hist, snap->hist + (snap->n - 1) * COUNTERS_HISTORY);
	}
	for (int m = 0; m < COUNTERS_NMETRICS; m++)
		metric_row(c, g, kind, (enum counters_metric)m, snap);
}

/* Whether process group g has rows: counted once, and not long gone. */
static bool
proc_visible(const struct cnt_group *g)
{
	return g->ticks > 0 && (!g->exited || g->exit_ticks < COUNTERS_EXIT_TICKS);
}

/* Build the rows of scope s. */
void
counters_snapshot(struct counters *c, enum counters_scope s, struct counters_snapshot *snap)
{
	size_t groups = s == COUNTERS_TOTAL ? 1 : s == COUNTERS_CPU ? c->ncpus : c->nprocs;
	size_t need = groups * (c->nev + COUNTERS_NMETRICS), i;

	if (need > snap->cap) {
		snap->cap = need > 2 * snap->cap ? need : 2 * snap->cap;
		snap->rows = xrealloc(snap->rows, snap->cap * sizeof *snap->rows);
		snap->hist =
		    xrealloc(snap->hist, snap->cap * COUNTERS_HISTORY * sizeof *snap->hist);
	}
	snap->n = 0;
	snap->scope = s;
	snap->interval = c->interval;
	snap->elapsed = c->elapsed;
	if (s == COUNTERS_TOTAL)
		group_rows(c, &c->total, s, snap);
	for (i = 0; s == COUNTERS_CPU && i < c->ncpus; i++)
		group_rows(c, &c->cpus[i], s, snap);
	for (i = 0; s == COUNTERS_PROCESS && i < c->nprocs; i++)
		if (proc_visible(&c->procs[i]))
			group_rows(c, &c->procs[i], s, snap);
	for (i = 0; i < snap->n; i++)
		snap->rows[i].history = snap->hist + i * COUNTERS_HISTORY;
}

/* Free a snapshot's arrays. */
void
counters_snapshot_free(struct counters_snapshot *snap)
{
	free(snap->rows);
	free(snap->hist);
	memset(snap, 0, sizeof *snap);
}

/* Number of events. */
size_t
counters_nevents(const struct counters *c)
{
	return c->nev;
}

/* Read calls of the last tick. */
unsigned
counters_last_reads(const struct counters *c)
{
	return c->reads;
}

/* An event's name as given. */
const char *
counters_event_name(const struct counters *c, size_t idx)
{
	return idx < c->nev ? c->ev[idx].name : NULL;
}

/* Why an event cannot be counted, or NULL. */
const char *
counters_event_reason(const struct counters *c, size_t idx)
{
	if (idx >= c->nev || c->ev[idx].supported)
		return NULL;
	return c->ev[idx].reason != NULL ? c->ev[idx].reason : "not supported here";
}

/* What limits the counting, or NULL. */
const char *
counters_notice(const struct counters *c)
{
	return c->notice[0] ? c->notice : NULL;
}
