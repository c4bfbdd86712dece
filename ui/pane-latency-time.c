/* pane-latency-time: the Latency pane's sources, opened when it is first
 * seen or a function is first timed by keypress (t), and the functions
 * timed that way: an entry/return probe pair each, removed by Delete. A
 * function timed by keypress does not turn on the timing of every
 * syscall of the target (system-wide: of the machine), which would cost
 * more than the function does (bench/latency.sh); --latency-kinds
 * syscall, or the pane seen first, does. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/engine.h"
#include "tracetop/latency-sched.h"
#include "tracetop/latency-sys.h"
#include "tracetop/probe-cli.h"
#include "tracetop/probe.h"
#include "ui/pane-latency-impl.h"

/* Does the syscall source time every syscall? As --latency-kinds says
 * (syscall by default), but not by default when functions are timed
 * (--latency or t): then only when the kinds were given. */
static bool
latpane_want_syscalls(const struct options *o, bool timing)
{
	if (o == NULL)
		return true;
	if (o->no_syscalls || !(o->latency_kinds & (1u << LAT_SYSCALL)))
		return false;
	return !(timing || o->nlatencies > 0) || o->latency_kinds_given;
}

/* The syscall (and function) source on the target, with --latency's
 * functions and funcs (one more pair, named func_name) from the start. */
static void
latpane_open_sys(struct latpane *p, struct tui *t, struct latsys_opts *lo, const char *const *funcs,
                 const char *func_name)
{
	const struct options *o = t->opts;
	size_t n = o != NULL ? o->nlatencies : 0;
	const char **fev = o != NULL ? probe_cli_latency_events(o, t->probes) : NULL;
	const char **ev = xcalloc(2 * (n + 1), sizeof *ev), **names = xcalloc(n + 1, sizeof *names);
	struct tt_err err;

	if (fev == NULL)
		n = 0; /* no probes: --latency could not be had */
	for (size_t i = 0; i < n; i++) {
		ev[2 * i] = fev[2 * i], ev[2 * i + 1] = fev[2 * i + 1];
		names[i] = o->latencies[i];
	}
	if (funcs != NULL) {
		ev[2 * n] = funcs[0], ev[2 * n + 1] = funcs[1];
		names[n++] = func_name;
	}
	lo->funcs = ev;
	lo->func_names = names;
	lo->nfuncs = n;
	p->syscalls = !lo->no_syscalls;
	if ((p->src = latsys_new(lo, &err)) == NULL) {
		snprintf(p->error, sizeof p->error, "%s", err.msg);
	} else {
		session_add(t->session, &source_latency, p->src);
		if (latsys_start(p->src, &err) != 0)
			snprintf(p->error, sizeof p->error, "%s", err.msg);
	}
	free(fev);
	free(ev);
	free(names);
}

/* Open the sources (see the header). */
void
latpane_open(struct latpane *p, struct tui *t, const char *const *funcs, const char *func_name)
{
	const struct options *o = t->opts;
	int child = t->engine != NULL ? engine_child_pid(t->engine) : 0;
	size_t npids = o != NULL ? o->npids : 0;
	int *pids = xmalloc((npids + 1) * sizeof *pids);
	struct latsys_opts lo = {.pids = pids, .npids = npids};
	bool syscalls = latpane_want_syscalls(o, funcs != NULL);
	struct tt_err err;

	/* --view latency: opened before the command ran */
	p->opened = true;
	p->src = session_source(t->session, &source_latency);
	p->sched = session_source(t->session, &source_latsched);
	if (p->src != NULL)
		p->syscalls =
		    o == NULL || ((o->latency_kinds & (1u << LAT_SYSCALL)) && !o->no_syscalls &&
		                  (o->nlatencies == 0 || o->latency_kinds_given));
	if (npids > 0)
		memcpy(pids, o->pids, npids * sizeof *pids);
	if (child > 0)
		pids[lo.npids++] = child;
	if (o != NULL) {
		lo.tids = o->tids, lo.ntids = o->ntids;
		lo.cpus = o->cpus, lo.ncpus = o->ncpus;
		lo.include_self = o->include_self;
		lo.backend = o->engine;
	}
	lo.no_syscalls = !syscalls;
	if (p->src == NULL && (syscalls || funcs != NULL || (o != NULL && o->nlatencies > 0)))
		latpane_open_sys(p, t, &lo, funcs, func_name);
	if (p->sched == NULL && o != NULL && latsched_wanted(o->latency_kinds)) {
		struct latsched_opts so = {.kinds = o->latency_kinds,
		                           .pids = pids,
		                           .npids = lo.npids,
		                           .tids = lo.tids,
		                           .ntids = lo.ntids,
		                           .cpus = lo.cpus,
		                           .ncpus = lo.ncpus,
		                           .include_self = lo.include_self,
		                           .backend = o->engine};

		if ((p->sched = latsched_new(&so, &err)) == NULL) {
			snprintf(p->sched_error, sizeof p->sched_error, "%s", err.msg);
		} else {
			session_add(t->session, &source_latsched, p->sched);
			if (latsched_start(p->sched, &err) != 0)
				snprintf(p->sched_error, sizeof p->sched_error, "%s", err.msg);
		}
	}
	free(pids);
}

/* Remove probe tracepoint name of tracetop's (its events are closed). */
static void
lat_probe_remove(struct tui *t, const char *name)
{
	struct tt_err err;
	int i = probes_find(t->probes, name);

	if (i >= 0 && probes_remove(t->probes, (size_t)i, &err) != 0)
		tui_status(t, true, "%s", err.msg);
}

/* Time func of binary (see tui.h): the probe pair, then the source's
 * events on it (the source opened with it when it is the first). */
void
pane_latency_time(struct tui *t, const char *binary, const char *func)
{
	struct latpane *p = tui_pane_state(t, &pane_latency);
	bool kernel = binary == NULL || binary[0] == '\0';
	char target[4700], ret[4710], esc[200];
	const char *pair[2];
	struct lat_timed *tm;
	struct tt_err err;
	int ie, ir, k;

	if (p == NULL)
		return;
	str_escape(esc, sizeof esc, func, strlen(func));
	if (kernel && !probe_kind_supported(PROBE_KPROBE, &err)) {
		tui_status(t, true,
		           "cannot time kernel function %s: this kernel has no kprobes (%s); user "
		           "functions are timed with uprobes",
		           esc, err.msg);
		return;
	}
	if (t->probes == NULL) {
		tui_status(t, true, "cannot time %s: probes are not available here", esc);
		return;
	}
	if (probe_spec_target(target, sizeof target, binary, func, &err) != 0) {
		tui_status(t, true, "cannot time %s: %s", esc, err.msg);
		return;
	}
	snprintf(ret, sizeof ret, "%s%%return", target);
	if (p->src != NULL && latsys_find_func(p->src, target) >= 0) {
		tui_show_pane(t, &pane_latency);
		tui_status(t, false, "%s is timed already (Delete on its row stops)", esc);
		return;
	}
	if ((ie = probes_add(t->probes, target, NULL, &err)) < 0) {
		tui_status(t, true, "cannot time %s: %s", esc, err.msg);
		return;
	}
	if ((ir = probes_add(t->probes, ret, NULL, &err)) < 0) {
		tui_status(t, true, "cannot time %s: %s", esc, err.msg);
		lat_probe_remove(t, probes_tracepoint(t->probes, (size_t)ie));
		return;
	}
	p->timed = xrealloc(p->timed, (p->ntimed + 1) * sizeof *p->timed);
	tm = &p->timed[p->ntimed];
	snprintf(tm->entry, sizeof tm->entry, "%s", probes_tracepoint(t->probes, (size_t)ie));
	snprintf(tm->ret, sizeof tm->ret, "%s", probes_tracepoint(t->probes, (size_t)ir));
	pair[0] = tm->entry, pair[1] = tm->ret;
	if (p->src == NULL && p->error[0] == '\0') {
		/* as its first sight would, but with this function (and no
		 * syscalls unless asked for) */
		latpane_open(p, t, pair, target);
		k = p->src != NULL ? latsys_find_func(p->src, target) : -1;
		if (p->src == NULL)
			snprintf(err.msg, sizeof err.msg, "%s", p->error);
		else if (k < 0)
			snprintf(err.msg, sizeof err.msg, "its probes are not timed");
	} else if (p->src == NULL) {
		snprintf(err.msg, sizeof err.msg, "%s", p->error);
		k = -1;
	} else {
		k = latsys_add_func(p->src, target, tm->entry, tm->ret, &err);
	}
	tui_show_pane(t, &pane_latency);
	if (k < 0) {
		tui_status(t, true, "cannot time %s: %s", esc, err.msg);
		lat_probe_remove(t, tm->entry);
		lat_probe_remove(t, tm->ret);
		return;
	}
	tm->k = k;
	p->ntimed++;
	p->pending = latsys_func_name(p->src, (size_t)k);
	/* counted here: their hit counters in the Probes pane would only add
	 * a cost per call (and see none when the kernel times them) */
	probes_set_enabled(t->probes, (size_t)ie, false, &err);
	probes_set_enabled(t->probes, (size_t)ir, false, &err);
	session_repoll(t->session);
	tui_status(t, false,
	           "timing %s with a %s pair (%s%s); its row comes at the next refresh, "
	           "Delete stops",
	           esc, kernel ? "kprobe/kretprobe" : "uprobe/uretprobe",
	           latsys_in_kernel(p->src) ? "histogram in the kernel" : "paired here",
	           p->syscalls ? "" : ", syscalls not timed");
}

/* Delete: stop timing the selected function, remove its probe pair. */
int
latpane_untime(struct latpane *p, struct tui *t)
{
	const struct ct_line *l = table_selected(&p->list.table);
	const struct lat_row *r = l != NULL ? l->row : NULL;
	struct tt_err err;
	bool ours = false;
	char esc[200];
	int k;

	if (r == NULL || r->kind != LAT_FUNCTION || p->src == NULL ||
	    (k = latsys_find_func(p->src, r->name)) < 0) {
		tui_status(t, false, "select a timed function's row to stop timing it");
		return REACT_HANDLED | REACT_REDRAW;
	}
	str_escape(esc, sizeof esc, r->name, strlen(r->name));
	if (latsys_remove_func(p->src, (size_t)k, &err) != 0) {
		tui_status(t, false, "%s", err.msg);
		return REACT_HANDLED | REACT_REDRAW;
	}
	for (size_t i = 0; i < p->ntimed; i++)
		if (p->timed[i].k == k) {
			lat_probe_remove(t, p->timed[i].entry);
			lat_probe_remove(t, p->timed[i].ret);
			p->timed[i].k = -1;
			ours = true;
		}
	session_repoll(t->session);
	tui_status(t, false, "stopped timing %s; %s", esc,
	           ours ? "its probes are removed" : "its --latency probes go at exit");
	tui_snapshot(t);
	return REACT_HANDLED | REACT_REDRAW;
}
