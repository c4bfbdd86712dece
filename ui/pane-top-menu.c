/* pane-top-menu: the Top pane's Enter menu on a row (zooms, Annotate,
 * Probe, Time, the trees) and what its items do, in a file of its own:
 * pane-top.c is full. */
#include "config.h"

#include <stdio.h>

#include "tracetop/engine.h"
#include "tracetop/probe.h"
#include "tracetop/report.h"
#include "ui/listpane.h"
#include "ui/menu.h"
#include "ui/pane-top-impl.h"
#include "ui/tui.h"

enum top_menu_id {
	MENU_ZOOM_PID,
	MENU_ZOOM_TID,
	MENU_ZOOM_DSO,
	MENU_ZOOM_CGROUP,
	MENU_ANNOTATE,
	MENU_PROBE,
	MENU_TIME,
	MENU_CALLERS,
	MENU_CALLEES,
};

/* Open the Enter menu for the selected row. */
int
top_row_menu(struct top *p, struct tui *t)
{
	const struct ct_line *l = table_selected(&p->list.table);
	const struct hist_row *r = l != NULL ? l->top : NULL;
	char comm[64], dso[128], sym[256], cgroup[128];
	struct tt_err err;

	if (r == NULL)
		return REACT_HANDLED;
	if (top_gone(r))
		return top_gone_status(t);
	report_comm(r->entry, comm, sizeof comm);
	report_dso(r->entry, dso, sizeof dso);
	report_symbol(r->entry, p->form, sym, sizeof sym);
	menu_open(&t->menu, sym);
	/* a row merged from several processes offers its busiest one's */
	if (r->procs > 1)
		menu_add(&t->menu, MENU_ZOOM_PID, r->entry->key.pid == 0,
		         "Zoom into process %d (%s, the busiest of %u)", r->entry->key.pid, comm,
		         r->procs);
	else
		menu_add(&t->menu, MENU_ZOOM_PID, r->entry->key.pid == 0,
		         "Zoom into process %d (%s)", r->entry->key.pid, comm);
	menu_add(&t->menu, MENU_ZOOM_TID, r->entry->key.tid == 0,
	         "Zoom into thread %d (its samples from now on)", r->entry->key.tid);
	menu_add(&t->menu, MENU_ZOOM_DSO, r->entry->key.dso == NULL, "Zoom into %s", dso);
	report_cgroup(r->entry, cgroup, sizeof cgroup);
	menu_add(&t->menu, MENU_ZOOM_CGROUP, r->entry->key.cgroup == NULL, "Zoom into cgroup %s%s",
	         cgroup, r->mixed & HIST_GROUP_CGROUP ? " (the busiest process's)" : "");
	if (r->entry->key.sym == NULL || r->entry->key.dso == NULL)
		menu_add(&t->menu, MENU_ANNOTATE, true, "Annotate %s (no symbol to annotate)", sym);
	else if (r->entry->key.inlined)
		menu_add(&t->menu, MENU_ANNOTATE, true,
		         "Annotate %s (inlined: annotate its caller)", sym);
	else
		menu_add(&t->menu, MENU_ANNOTATE, false, "Annotate %s (instructions, source lines)",
		         sym);
	if (t->probes == NULL)
		menu_add(&t->menu, MENU_PROBE, true, "Probe %s (probes are not available)", sym);
	else if (r->entry->key.sym == NULL || (!r->entry->key.kernel && r->entry->key.dso == NULL))
		menu_add(&t->menu, MENU_PROBE, true, "Probe %s (no symbol to probe)", sym);
	else if (r->entry->key.kernel && !probe_kind_supported(PROBE_KPROBE, &err))
		menu_add(&t->menu, MENU_PROBE, true, "Probe %s (this kernel has no kprobes)", sym);
	else
		menu_add(&t->menu, MENU_PROBE, false, "Probe %s (count its calls, trace them)",
		         sym);
	menu_add(&t->menu, MENU_TIME, t->probes == NULL || r->entry->key.sym == NULL,
	         "Time %s (t: its latency histogram in the Latency pane)", sym);
	if (p->stacks) {
		menu_add(&t->menu, MENU_CALLERS, false, "Show callers of %s", sym);
		menu_add(&t->menu, MENU_CALLEES, false, "Show callees of %s", sym);
	}
	listpane_menu_opened(&p->list);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Time a row's function: an entry/return probe pair, in the Latency pane. */
int
top_time(struct tui *t, const struct hist_row *r)
{
	const struct hist_key *k = &r->entry->key;

	menu_close(&t->menu);
	if (top_gone(r))
		return top_gone_status(t);
	if (k->sym == NULL || (!k->kernel && k->dso == NULL))
		tui_status(t, false, "no symbol to time here");
	else if (k->inlined)
		tui_status(t, false,
		           "an inlined function makes no call to time: time the function "
		           "it was inlined into");
	else
		pane_latency_time(t, k->kernel ? NULL : k->dso->name, k->sym->name);
	return REACT_HANDLED | REACT_REDRAW;
}

/* A menu item was chosen. */
int
top_menu(void *pp, struct tui *t, int id)
{
	struct top *p = pp;
	const struct ct_line *l = table_selected(&p->list.table);
	const struct hist_row *r = l != NULL ? l->top : NULL;

	if (listpane_menu(&p->list, id) != REACT_IGNORED)
		return REACT_REDRAW;
	if (r == NULL || top_gone(r))
		return REACT_REDRAW;
	switch (id) {
	case MENU_ZOOM_PID:
		p->zoom.pid = r->entry->key.pid;
		break;
	case MENU_ZOOM_TID:
		p->zoom.tid = r->entry->key.tid;
		p->zoom.pid = r->entry->key.pid;
		if (t->engine != NULL) /* a replay has no live thread to sample */
			engine_zoom_thread(t->engine, p->zoom.tid);
		break;
	case MENU_ZOOM_DSO:
		p->zoom.dso = r->entry->key.dso;
		break;
	case MENU_ZOOM_CGROUP:
		p->zoom.cgroup = r->entry->key.cgroup;
		break;
	case MENU_CALLERS:
	case MENU_CALLEES:
		return top_show_tree(p, t, r, id == MENU_CALLERS);
	case MENU_ANNOTATE:
		return top_annotate(p, t, r);
	case MENU_TIME:
		return top_time(t, r);
	case MENU_PROBE:
		pane_probes_insert(t, r->entry->key.kernel ? NULL : r->entry->key.dso->name,
		                   r->entry->key.sym->name);
		return REACT_REDRAW;
	default:
		return REACT_REDRAW;
	}
	tui_snapshot(t);
	return REACT_REDRAW;
}
