/* probe: the probe manager: this process's probes in its own tracefs
 * group, their hit counts (through the counters module: one counting fd
 * per CPU, or per target thread, on each probe's tracepoint id), the
 * snapshot the Probes pane and the batch view show, and the removal of
 * everything on the way out. */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/evspec.h"
#include "tracetop/probe.h"
#include "tracetop/sym-name.h"
#include "tracetop/system-file.h"
#include "tracetop/tracefs.h"

/* Longest event name made from a function name. */
#define EVENT_NAME_MAX 56

/* One row of ours: a probe we made, or a tracepoint we count. */
struct probe {
	char *event; /* its name in our group; NULL for a tracepoint */
	char *tp;    /* "GROUP:EVENT" or "sys:event" */
	enum probe_kind kind;
	char *target;
	char **args; /* "NAME=FETCHARG" */
	size_t nargs;
	const char *file; /* the tracefs file it was made through */
	bool on;          /* wanted counted */
	bool counted;     /* in the counters */
	double base;      /* hits of earlier spells of counting */
	double total, rate;
	const char *reason; /* why the counters cannot count it, or NULL */
};

struct probes {
	char group[32];
	struct probe_ctx ctx;
	int *pids;
	struct probe *v;
	size_t n;
	struct counters *c; /* NULL until counting starts */
	struct counters_snapshot cs;
	struct sys_file dyn; /* dynamic_events, kept open for the snapshots (path: tried) */
	struct probes *next; /* the live managers, for the exit path */
};

static struct probes *live;
static bool atexit_done;
static int made_by; /* the pid whose group exists (a fork's exit leaves it) */

/* atexit: nothing of ours stays in tracefs. */
static void
probes_atexit(void)
{
	probes_remove_all();
}

/* Close every live manager's fds, then empty our group. */
void
probes_remove_all(void)
{
	char group[32];

	if (made_by == 0 || made_by != (int)getpid())
		return;
	for (struct probes *p = live; p != NULL; p = p->next) {
		counters_free(p->c);
		p->c = NULL;
		for (size_t i = 0; i < p->n; i++)
			p->v[i].counted = false;
	}
	snprintf(group, sizeof group, PROBE_GROUP_PREFIX "%d", made_by);
	probe_group_remove(group, NULL);
}

/* A manager for this process's group. */
struct probes *
probes_new(const struct probe_ctx *ctx)
{
	struct probes *p = xcalloc(1, sizeof *p);

	p->dyn.fd = -1;
	snprintf(p->group, sizeof p->group, PROBE_GROUP_PREFIX "%d", (int)getpid());
	if (ctx != NULL) {
		p->ctx = *ctx;
		if (ctx->npids > 0) {
			p->pids = xcalloc(ctx->npids, sizeof *p->pids);
			memcpy(p->pids, ctx->pids, ctx->npids * sizeof *p->pids);
		}
		p->ctx.pids = p->pids;
	}
	p->next = live;
	live = p;
	return p;
}

/* The group. */
const char *
probes_group(const struct probes *p)
{
	return p->group;
}

/* How many rows are ours. */
size_t
probes_count(const struct probes *p)
{
	return p->n;
}

/* Row i's tracepoint name. */
const char *
probes_tracepoint(const struct probes *p, size_t i)
{
	return i < p->n ? p->v[i].tp : NULL;
}

/* The row called name ("GROUP:EVENT", "sys:event" or our EVENT), or -1. */
int
probes_find(const struct probes *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->v[i].tp, name) == 0 ||
		    (p->v[i].event != NULL && strcmp(p->v[i].event, name) == 0))
			return (int)i;
	return -1;
}

/* Whether an event called name exists in our group (ours or made by
 * another manager of this process). */
static bool
name_taken(const struct probes *p, const char *name)
{
	const char *dir = tt_tracefs_dir();
	char path[PATH_MAX];

	if (probes_find(p, name) >= 0)
		return true;
	if (dir == NULL)
		return false;
	snprintf(path, sizeof path, "%s/events/%s/%s", dir, p->group, name);
	return access(path, F_OK) == 0;
}

/* An event name from the function ("probed_fn", "probed_fn__return",
 * "probed_fn_16", "probed_0x1139", "ns_Box_get" for a C++ or Rust name,
 * mangled or not), made unique. */
static char *
event_name(const struct probes *p, const struct probe_spec *s)
{
	char base[EVENT_NAME_MAX + 1], bare[EVENT_NAME_MAX + 1], *name;
	const char *from = s->func;
	size_t k = 0;

	if (s->raw_offset && s->binary != NULL) {
		from = strrchr(s->binary, '/') ? strrchr(s->binary, '/') + 1 : s->binary;
		snprintf(base, sizeof base, "%s_%s", from, s->func);
		from = base;
	} else if (symname_bare(s->func, bare, sizeof bare) > 0) {
		from = bare;
	}
	if (isdigit((unsigned char)from[0]))
		base[k++] = 'p', base[k++] = '_';
	for (; *from != '\0' && k < EVENT_NAME_MAX - 12; from++)
		if (!(from[0] == ':' && from[1] == ':')) /* "::" makes one '_' */
			base[k++] = isalnum((unsigned char)*from) ? *from : '_';
	base[k] = '\0';
	if (s->kind == PROBE_KRETPROBE || s->kind == PROBE_URETPROBE)
		snprintf(base + k, sizeof base - k, "__return");
	else if (s->offset > 0 && !s->raw_offset)
		snprintf(base + k, sizeof base - k, "_%llu", (unsigned long long)s->offset);
	name = xstrdup(base);
	for (unsigned i = 1; name_taken(p, name); i++) {
		free(name);
		name = xasprintf("%s_%u", base, i);
	}
	return name;
}

/* The counters' index of a tracepoint name, or -1. */
static int
counter_index(const struct probes *p, const char *tp)
{
	for (size_t i = 0; p->c != NULL && i < counters_nevents(p->c); i++)
		if (strcmp(counters_event_name(p->c, i), tp) == 0)
			return (int)i;
	return -1;
}

/* Start counting row r. */
static int
count_on(struct probes *p, struct probe *r, struct tt_err *err)
{
	if (p->c == NULL || r->counted)
		return 0;
	if (counters_add(p->c, r->tp, err) != 0)
		return -1;
	r->counted = true;
	return 0;
}

/* Stop counting row r, keeping its hits. */
static void
count_off(struct probes *p, struct probe *r)
{
	int idx = counter_index(p, r->tp);

	if (r->counted && idx >= 0) {
		r->base += r->total;
		counters_remove(p->c, (size_t)idx);
	}
	r->counted = false;
	r->total = r->rate = 0;
}

/* Append a row; its index. */
static struct probe *
row_add(struct probes *p)
{
	p->v = xrealloc(p->v, (p->n + 1) * sizeof *p->v);
	memset(&p->v[p->n], 0, sizeof *p->v);
	p->v[p->n].on = true;
	return &p->v[p->n++];
}

/* Free a row's strings. */
static void
row_free(struct probe *r)
{
	free(r->event);
	free(r->tp);
	free(r->target);
	names_free(r->args, r->nargs);
}

/* Delete row r's probe from tracefs (nothing for a tracepoint). */
static int
row_delete(struct probes *p, struct probe *r, struct tt_err *err)
{
	char line[128];

	if (r->event == NULL)
		return 0;
	snprintf(line, sizeof line, "-:%s/%s", p->group, r->event);
	return probe_tracefs_write(r->file, line, err);
}

/* Make the probe of a SPEC. */
int
probes_add(struct probes *p, const char *spec, bool *usage, struct tt_err *err)
{
	struct probe_spec s;
	struct probe_place pl;
	struct probe *r;
	bool user, ret;
	char *line, *name;
	size_t i;

	if (usage != NULL)
		*usage = false;
	if (probe_spec_parse(spec, &s, err) != 0) {
		if (usage != NULL)
			*usage = true;
		return -1;
	}
	if (probe_resolve(&s, &p->ctx, &pl, err) != 0) {
		probe_spec_free(&s);
		return -1;
	}
	user = s.binary != NULL;
	ret = s.kind == PROBE_KRETPROBE || s.kind == PROBE_URETPROBE;
	name = event_name(p, &s);
	line = xasprintf("%c:%s/%s %s", ret ? 'r' : 'p', p->group, name, pl.place);
	for (i = 0; i < pl.nargs; i++) {
		char *longer = xasprintf("%s %s", line, pl.args[i]);

		free(line);
		line = longer;
	}
	probe_spec_free(&s);
	if (probe_tracefs_write(user ? "uprobe_events" : "kprobe_events", line, err) != 0) {
		free(line);
		free(name);
		probe_place_free(&pl);
		return -1;
	}
	free(line);
	made_by = (int)getpid();
	if (!atexit_done && atexit(probes_atexit) == 0)
		atexit_done = true;
	r = row_add(p);
	r->event = name;
	r->tp = xasprintf("%s:%s", p->group, name);
	r->kind = pl.kind;
	r->target = pl.target;
	r->args = pl.args;
	r->nargs = pl.nargs;
	r->file = user ? "uprobe_events" : "kprobe_events";
	pl.target = NULL;
	pl.args = NULL;
	pl.nargs = 0;
	probe_place_free(&pl);
	if (count_on(p, r, err) != 0) {
		probes_remove(p, p->n - 1, NULL);
		return -1;
	}
	return (int)p->n - 1;
}

/* Count a tracepoint enabled elsewhere. */
int
probes_add_tracepoint(struct probes *p, const char *name, struct tt_err *err)
{
	struct evspec spec;
	struct probe *r;

	if (probes_find(p, name) >= 0)
		return err_set(err, "%s is already listed", name);
	if (evspec_parse(name, &spec, err) != 0)
		return -1;
	if (spec.attr.type != PERF_TYPE_TRACEPOINT)
		return err_set(err, "'%s' is not a tracepoint (SUBSYSTEM:EVENT)", name);
	r = row_add(p);
	r->tp = xstrdup(name);
	r->kind = PROBE_TRACEPOINT;
	r->target = xstrdup(name);
	if (count_on(p, r, err) != 0) {
		row_free(r);
		p->n--;
		return -1;
	}
	return (int)p->n - 1;
}

/* Start counting every row that is on. */
int
probes_count_start(struct probes *p, const struct counters_opts *t, struct tt_err *err)
{
	struct counters_opts co = *t;
	const char **names = xcalloc(p->n, sizeof *names);
	size_t k = 0;

	if (p->c != NULL) {
		free(names);
		return 0;
	}
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].on)
			names[k++] = p->v[i].tp;
	co.events = names;
	co.nevents = k;
	co.scope = COUNTERS_TOTAL;
	p->c = counters_new(&co, err);
	free(names);
	if (p->c == NULL)
		return -1;
	for (size_t i = 0; i < p->n; i++)
		p->v[i].counted = p->v[i].on;
	return 0;
}

/* Turn row i's counting on or off. */
int
probes_set_enabled(struct probes *p, size_t i, bool on, struct tt_err *err)
{
	struct probe *r;

	if (i >= p->n)
		return err_set(err, "no probe %zu", i);
	r = &p->v[i];
	if (r->on == on)
		return 0;
	if (on && count_on(p, r, err) != 0)
		return -1;
	if (!on)
		count_off(p, r);
	r->on = on;
	return 0;
}

/* Remove row i. */
int
probes_remove(struct probes *p, size_t i, struct tt_err *err)
{
	struct probe *r;

	if (i >= p->n)
		return err_set(err, "no probe %zu", i);
	r = &p->v[i];
	count_off(p, r);
	r->on = false;
	if (row_delete(p, r, err) != 0)
		return -1;
	row_free(r);
	memmove(&p->v[i], &p->v[i + 1], (p->n - i - 1) * sizeof *p->v);
	p->n--;
	return 0;
}

/* Read the counts. */
void
probes_tick(struct probes *p)
{
	if (p->c == NULL)
		return;
	counters_tick(p->c);
	counters_snapshot(p->c, COUNTERS_TOTAL, &p->cs);
	for (size_t i = 0; i < p->n; i++) {
		struct probe *r = &p->v[i];

		r->reason = NULL;
		for (size_t k = 0; r->counted && k < p->cs.n; k++) {
			const struct counters_row *cr = &p->cs.rows[k];

			if (cr->metric || strcmp(cr->event, r->tp) != 0)
				continue;
			r->total = cr->supported ? cr->total : 0;
			r->rate = cr->supported ? cr->rate : 0;
			r->reason = cr->supported ? NULL : cr->reason;
		}
	}
}

/* A row's state for people. */
static const char *
row_state(const struct probes *p, const struct probe *r)
{
	if (!r->on)
		return "off";
	if (p->c == NULL)
		return "waiting";
	return r->reason ? r->reason : "on";
}

/* Room for one more snapshot row. */
static struct probes_row *
snap_row(struct probes_snapshot *snap)
{
	if (snap->n == snap->cap)
		snap->rows = xrealloc(snap->rows, (snap->cap = snap->cap ? snap->cap * 2 : 16) *
		                                      sizeof *snap->rows);
	return &snap->rows[snap->n++];
}

/* Every dynamic event into snap->others: at each refresh, so through
 * dynamic_events kept open (a path walk into tracefs and an open cost more
 * than the read), else the way probe_events_list finds them. */
static int
others_read(struct probes *p, struct probes_snapshot *snap, struct tt_err *err)
{
	const char *dir;

	if (p->dyn.path == NULL && (dir = tt_tracefs_dir()) != NULL)
		sys_file_open(&p->dyn, dir, "dynamic_events");
	if (p->dyn.fd >= 0 && sys_file_read(&p->dyn) == 0) {
		probe_events_parse(p->dyn.buf, p->dyn.len, &snap->others, &snap->nothers);
		return 0;
	}
	return probe_events_list(&snap->others, &snap->nothers, err);
}

/* The rows: ours, then every other group's. */
void
probes_snapshot(struct probes *p, struct probes_snapshot *snap)
{
	struct tt_err err;

	probe_events_free(snap->others, snap->nothers);
	snap->others = NULL;
	snap->nothers = 0;
	snap->n = 0;
	snap->notice = NULL;
	snap->interval = p->c ? p->cs.interval : 0;
	snap->elapsed = p->c ? p->cs.elapsed : 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct probe *r = &p->v[i];
		double hits = r->base + (r->counted ? r->total : 0);

		*snap_row(snap) = (struct probes_row){
		    .name = r->tp,
		    .kind = r->kind,
		    .target = r->target,
		    .args = (const char *const *)r->args,
		    .nargs = r->nargs,
		    .hits = (uint64_t)(hits + 0.5),
		    .rate = r->counted ? r->rate : 0,
		    .enabled = r->counted && r->reason == NULL,
		    .ours = true,
		    .state = row_state(p, r),
		};
	}
	if (others_read(p, snap, &err) != 0) {
		snprintf(snap->notice_buf, sizeof snap->notice_buf, "%s", err.msg);
		snap->notice = snap->notice_buf;
	}
	for (size_t i = 0; i < snap->nothers; i++) {
		const struct probe_event *ev = &snap->others[i];
		char *name;

		if (strcmp(ev->group, p->group) == 0)
			continue;
		/* the row's name "group:event" replaces the event's (freed with it) */
		name = xasprintf("%s:%s", ev->group, ev->event);
		free(snap->others[i].event);
		snap->others[i].event = name;
		*snap_row(snap) = (struct probes_row){
		    .name = name,
		    .kind = ev->kind,
		    .target = ev->target,
		    .args = (const char *const *)ev->args,
		    .nargs = ev->nargs,
		    .state = "not ours",
		};
	}
}

/* Free a snapshot's memory. */
void
probes_snapshot_free(struct probes_snapshot *snap)
{
	probe_events_free(snap->others, snap->nothers);
	free(snap->rows);
	memset(snap, 0, sizeof *snap);
}

/* Close, remove, free. */
void
probes_free(struct probes *p)
{
	struct probes **pp;

	if (p == NULL)
		return;
	counters_free(p->c);
	p->c = NULL;
	counters_snapshot_free(&p->cs);
	for (size_t i = 0; i < p->n; i++) {
		row_delete(p, &p->v[i], NULL);
		row_free(&p->v[i]);
	}
	for (pp = &live; *pp != NULL && *pp != p; pp = &(*pp)->next)
		;
	if (*pp == p)
		*pp = p->next;
	sys_file_close(&p->dyn);
	free(p->v);
	free(p->pids);
	free(p);
}
