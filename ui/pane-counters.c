/* pane-counters: live counts and rates for the system and per CPU, like
 * perf stat -I, in the shared table: one row per event (or derived metric)
 * per scope key, with the last interval, the rate, the total, the share of
 * time the event was on the PMU and a sparkline of recent intervals. The
 * process scope is a grid of its own (cntgrid.c), which a zoom narrows to
 * one process. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/counters.h"
#include "tracetop/util.h"
#include "ui/cntpick.h"
#include "ui/pane-counters-impl.h"

/* Create the pane. */
static void *
cnt_init(struct tui *t)
{
	struct cnt *p = xcalloc(1, sizeof *p);

	p->utf8 = t->theme.utf8;
	p->tui = t;
	memcpy(p->cols, cnt_cols, sizeof p->cols);
	table_init(&p->list.table, p->cols, COL_COUNT, &cnt_table_ops, p);
	cntgrid_init(&p->grid);
	table_sort_by(&p->list.table, COL_SCOPE, false);
	return p;
}

/* Free the catalog names. */
static void
cnt_catalog_free(struct cnt *p)
{
	names_free(p->catalog, p->ncatalog);
	p->catalog = NULL;
	p->ncatalog = 0;
}

/* Free the pane. */
static void
cnt_free(void *pp)
{
	struct cnt *p = pp;

	table_free(&p->list.table);
	cntgrid_free(&p->grid);
	cnt_catalog_free(p);
	free(p->ptrs);
	free(p);
}

/* The scope shown: the counters' in use, or a replay's (the first its
 * frame took). */
static enum counters_scope
cnt_scope(const struct tui *t)
{
	if (t->counters != NULL)
		return counters_scope(t->counters);
	for (int s = 0; t->frame != NULL && s < COUNTERS_NSCOPES; s++)
		if (t->frame->counters.taken & (1u << s))
			return (enum counters_scope)s;
	return COUNTERS_TOTAL;
}

/* The list of the scope in use: the grid for processes. */
static struct listpane *
cnt_active(struct cnt *p, const struct tui *t)
{
	if ((t->counters != NULL || t->replay) && cnt_scope(t) == COUNTERS_PROCESS)
		return &p->grid.list;
	return &p->list;
}

/* A refresh: the rows of the scope in use. */
static void
cnt_update(void *pp, struct tui *t, const struct frame *f)
{
	struct cnt *p = pp;
	const struct counters_snapshot *snap;
	enum counters_scope s;

	if (t->counters == NULL && !t->replay)
		return;
	p->cols[COL_CHANGE].hidden = t->base == NULL;
	s = cnt_scope(t);
	if (!(f->counters.taken & (1u << s)))
		return; /* taken before the scope changed: the next frame has it */
	snap = &f->counters.scopes[s];
	if (s == COUNTERS_PROCESS) {
		cntgrid_set(&p->grid, snap);
		return;
	}
	if (p->cap < snap->n) {
		p->cap = snap->n;
		p->ptrs = xrealloc(p->ptrs, p->cap * sizeof *p->ptrs);
	}
	for (size_t i = 0; i < snap->n; i++)
		p->ptrs[i] = &snap->rows[i];
	table_set_rows(&p->list.table, (const void *const *)p->ptrs, snap->n);
}

/* The title line: the scope, a zoom, what limits the counting (or why the
 * selected row cannot be counted); whether it has such a notice. */
static bool
cnt_title(struct cnt *p, struct tui *t, char *line, size_t len)
{
	const char *notice = t->frame->counters.notice;
	enum counters_scope s = cnt_scope(t);
	const struct counters_row *sel = NULL;
	char *reason = NULL, zoom[64] = "", more[48] = "";

	if (s != COUNTERS_PROCESS)
		sel = table_selected(&p->list.table);
	if (notice == NULL && sel != NULL && !sel->supported) /* the reason in full */
		notice = reason = xasprintf("%s: %s", sel->event, sel->reason ? sel->reason : "");
	if (s == COUNTERS_PROCESS && p->grid.zoom_pid != 0)
		snprintf(zoom, sizeof zoom, ", zoomed into pid %d (Esc or Left leaves)",
		         p->grid.zoom_pid);
	if (s == COUNTERS_PROCESS && p->grid.left_out > 0)
		snprintf(more, sizeof more, ", %zu more events not shown", p->grid.left_out);
	snprintf(line, len, "Scope: %s (%s)%s%s%s%s", counters_scope_name(s),
	         t->replay ? "as recorded" : "s switches", zoom, more, notice ? "  " : "",
	         notice ? notice : "");
	free(reason);
	return notice != NULL;
}

/* Why the list shown is empty. */
static const char *
cnt_empty(struct cnt *p, struct tui *t, const struct table *tab)
{
	if (tab->nall > 0)
		return "No rows match the filter (Esc clears it)";
	if (t->refreshes == 0)
		return "Counting... (values after one refresh)";
	if (cnt_scope(t) != COUNTERS_PROCESS)
		return t->replay ? "Nothing counted in this interval of the recording"
		                 : "Nothing counted: add an event with a";
	if (p->grid.zoom_pid != 0)
		return "The zoomed process is not counted (yet, or it is not the target's)";
	return "No processes counted in this interval";
}

/* Draw the title line and the list of the scope in use. */
static void
cnt_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct cnt *p = pp;
	struct table *tab;
	char line[320];

	if (h < 2)
		return;
	if (t->counters == NULL && !t->replay) {
		listpane_message(win, y + h / 2, x, w,
		                 t->counters_error ? t->counters_error
		                                   : "Counters are not available",
		                 &t->theme);
		return;
	}
	if (t->replay && (t->frame == NULL || !t->frame->has_counters)) {
		listpane_message(win, y + h / 2, x, w, "The recording holds no counters",
		                 &t->theme);
		return;
	}
	tab = &cnt_active(p, t)->table;
	wattrset(win, cnt_title(p, t, line, sizeof line) ? t->theme.attr[TH_HEADER_WARN]
	                                                 : t->theme.attr[TH_DIM]);
	mvwaddnstr(win, y, x, line, w);
	wattrset(win, A_NORMAL);
	table_draw(tab, win, y + 1, x, h - 1, w, &t->theme);
	if (tab->nrows == 0 && h >= 4)
		listpane_message(win, y + h / 2, x, w, cnt_empty(p, t, tab), &t->theme);
}

/* Next scope this target has rows in. */
static int
cnt_next_scope(struct tui *t)
{
	enum counters_scope s = counters_scope(t->counters);

	for (int i = 1; i < COUNTERS_NSCOPES; i++) {
		enum counters_scope n = (enum counters_scope)((s + i) % COUNTERS_NSCOPES);

		if (counters_scope_available(t->counters, n)) {
			counters_set_scope(t->counters, n);
			tui_status(t, false, "counting: %s%s", counters_scope_name(n),
			           n == COUNTERS_PROCESS ? " (values after the next refresh)" : "");
			tui_snapshot(t);
			return REACT_HANDLED | REACT_REDRAW;
		}
	}
	tui_status(t, false, "no other scope for this target");
	return REACT_HANDLED | REACT_REDRAW;
}

/* Open the picker over the event catalog (cntpick.h): what this machine
 * counts first, even when a query narrows it, what it cannot last. */
static int
cnt_add(struct cnt *p, struct tui *t)
{
	size_t supported;

	if (t->counters == NULL)
		return REACT_IGNORED;
	/* read again each time: probes made since are events too */
	cnt_catalog_free(p);
	p->catalog = cntpick_catalog(&p->ncatalog, &supported);
	picker_open(&t->picker, "Count an event (or type one: minor-faults:u, r1a8)",
	            (const char *const *)p->catalog, p->ncatalog);
	picker_rank_last(&t->picker, supported);
	picker_allow_typed(&t->picker, cntpick_typed, NULL);
	t->picker_owner = (int)t->cur;
	return REACT_HANDLED | REACT_REDRAW;
}

/* Stop counting the event of the selected row. */
static int
cnt_remove(struct tui *t, size_t idx)
{
	char name[128];

	if (t->counters == NULL || idx >= counters_nevents(t->counters))
		return REACT_HANDLED;
	str_escape(name, sizeof name, counters_event_name(t->counters, idx),
	           strlen(counters_event_name(t->counters, idx)));
	if (counters_remove(t->counters, idx) != 0) {
		tui_status(t, true, "cannot stop counting %s", name);
		return REACT_HANDLED | REACT_REDRAW;
	}
	tui_status(t, false, "stopped counting %s", name);
	tui_snapshot(t);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Zoom the process scope into pid (0 leaves the zoom): without a target
 * its counters are opened however idle it is. */
static int
cnt_zoom(struct cnt *p, struct tui *t, int pid)
{
	if (!counters_pin(t->counters, pid)) {
		tui_status(t, true, "pid %d is not counted: it is not one of the target's", pid);
		return REACT_HANDLED | REACT_REDRAW;
	}
	p->grid.zoom_pid = pid;
	counters_set_scope(t->counters, COUNTERS_PROCESS);
	tui_snapshot(t);
	if (pid != 0)
		tui_status(t, false, "Counters zoomed into pid %d (Esc or Left leaves the zoom)",
		           pid);
	else
		tui_status(t, false, "Counters: every process again");
	return REACT_HANDLED | REACT_REDRAW;
}

/* The Enter menu of a total or CPU row. */
static void
cnt_list_menu(struct cnt *p, struct tui *t)
{
	const struct counters_row *r = table_selected(&p->list.table);
	char name[96];

	if (r == NULL)
		return;
	str_escape(name, sizeof name, r->event, strlen(r->event));
	menu_add(&t->menu, MENU_REMOVE + (int)r->event_idx, r->metric, "Stop counting %s%s", name,
	         r->metric ? " (a metric: remove its events)" : "");
}

/* The Enter menu of a process: zooms, and stopping each event. */
static void
cnt_grid_menu(struct cnt *p, struct tui *t)
{
	const struct cntgrid_row *gr = cntgrid_selected(&p->grid);
	char name[96];

	if (gr == NULL)
		return;
	p->menu_pid = gr->first->pid;
	menu_add(&t->menu, MENU_ZOOM_TOP, t->engine == NULL, "Zoom Top into pid %d", p->menu_pid);
	if (p->grid.zoom_pid == 0)
		menu_add(&t->menu, MENU_ZOOM, false, "Zoom into pid %d", p->menu_pid);
	else
		menu_add(&t->menu, MENU_ZOOM, false, "Leave the zoom (all processes)");
	for (size_t i = 0; i < CNTGRID_MAX_EVENTS; i++) {
		const struct counters_row *r = gr->cell[i];

		if (r == NULL || r->metric)
			continue;
		str_escape(name, sizeof name, r->event, strlen(r->event));
		menu_add(&t->menu, MENU_REMOVE + (int)r->event_idx, false, "Stop counting %s",
		         name);
	}
}

/* The Enter menu. */
static int
cnt_row_menu(struct cnt *p, struct tui *t)
{
	listpane_menu_opened(cnt_active(p, t));
	menu_open(&t->menu, "Counters");
	if (cnt_scope(t) == COUNTERS_PROCESS)
		cnt_grid_menu(p, t);
	else
		cnt_list_menu(p, t);
	menu_add(&t->menu, MENU_ADD, false, "Count another event...");
	return REACT_HANDLED | REACT_REDRAW;
}

/* Delete: stop counting the selected row's event (in the grid: the event
 * of the column sorted by). */
static int
cnt_remove_selected(struct cnt *p, struct tui *t)
{
	const struct counters_row *r;

	if (cnt_scope(t) == COUNTERS_PROCESS) {
		const struct cntgrid_row *gr = cntgrid_selected(&p->grid);
		size_t col = p->grid.list.table.sort_col;

		r = gr != NULL && col >= CNTGRID_COL_EVENT0 &&
		            col < CNTGRID_COL_EVENT0 + p->grid.nev
		        ? gr->cell[col - CNTGRID_COL_EVENT0]
		        : NULL;
	} else {
		r = table_selected(&p->list.table);
	}
	if (r == NULL || r->metric) {
		tui_status(t, false,
		           "select an event's row (here: sort by its column) to stop "
		           "counting it, or Enter for a menu");
		return REACT_HANDLED | REACT_REDRAW;
	}
	return cnt_remove(t, r->event_idx);
}

/* Act on an action: the pane's own, then the list's. */
static int
cnt_action(void *pp, struct tui *t, enum action a)
{
	struct cnt *p = pp;
	int r;

	if (t->counters == NULL && !t->replay)
		return REACT_IGNORED;
	if (t->counters == NULL && a == ACT_ENTER)
		return REACT_HANDLED; /* its menu changes what is counted */
	switch (a) {
	case ACT_COUNTERS_SCOPE:
		return cnt_next_scope(t);
	case ACT_ADD:
		return cnt_add(p, t);
	case ACT_REMOVE:
		return cnt_remove_selected(p, t);
	case ACT_ENTER:
		return cnt_row_menu(p, t);
	case ACT_BACK:
	case ACT_CLOSE:
		r = listpane_action(cnt_active(p, t), t, a);
		if (r != REACT_IGNORED || p->grid.zoom_pid == 0 || cnt_scope(t) != COUNTERS_PROCESS)
			return r;
		return cnt_zoom(p, t, 0);
	default:
		return listpane_action(cnt_active(p, t), t, a);
	}
}

/* A menu choice. */
static int
cnt_menu(void *pp, struct tui *t, int id)
{
	struct cnt *p = pp;

	if (listpane_menu(cnt_active(p, t), id) != REACT_IGNORED)
		return REACT_REDRAW;
	if (id == MENU_ADD)
		return cnt_add(p, t);
	if (id == MENU_ZOOM_TOP)
		pane_top_zoom_pid(t, p->menu_pid);
	else if (id == MENU_ZOOM)
		cnt_zoom(p, t, p->grid.zoom_pid == 0 ? p->menu_pid : 0);
	else if (id >= MENU_REMOVE)
		cnt_remove(t, (size_t)(id - MENU_REMOVE));
	return REACT_REDRAW;
}

/* Mouse events go to the list shown. */
static int
cnt_mouse(void *pp, struct tui *t, int y, int x, unsigned long bstate)
{
	return listpane_mouse(cnt_active(pp, t), y, x, bstate);
}

/* The filter and search prompts of the list shown. */
static int
cnt_prompt(void *pp, struct tui *t, int result)
{
	return listpane_prompt(cnt_active(pp, t), t, result);
}

/* Zoom the Counters pane into process pid (the Processes pane's Enter),
 * without showing it. */
void
pane_counters_zoom_pid(struct tui *t, int pid)
{
	struct cnt *p = tui_pane_state(t, &pane_counters);

	if (p != NULL && t->counters != NULL && counters_pin(t->counters, pid)) {
		p->grid.zoom_pid = pid;
		counters_set_scope(t->counters, COUNTERS_PROCESS);
	}
}

/* An event was picked from the catalog: count it. */
static int
cnt_pick(void *pp, struct tui *t, size_t idx, bool toggled)
{
	struct cnt *p = pp;
	struct tt_err err;
	char name[PROMPT_MAX], *sp;
	const char *why;
	size_t n;

	(void)toggled; /* not a checklist */
	if ((idx >= p->ncatalog && idx != PICKER_TYPED) || t->counters == NULL)
		return REACT_REDRAW;
	snprintf(name, sizeof name, "%s",
	         idx == PICKER_TYPED ? t->picker.query.text : p->catalog[idx]);
	if ((sp = strchr(name, ' ')) != NULL)
		*sp = '\0'; /* drop the "[not supported]" note */
	if (counters_add(t->counters, name, &err) != 0) {
		tui_status(t, true, "%s", err.msg);
		return REACT_REDRAW;
	}
	/* one this machine cannot count is refused, with the kernel's reason,
	 * not added as a row that never counts */
	n = counters_nevents(t->counters) - 1;
	if ((why = counters_event_reason(t->counters, n)) != NULL) {
		tui_status(t, true, "cannot count %s here: %s", name, why);
		counters_remove(t->counters, n);
		return REACT_REDRAW;
	}
	tui_status(t, false, "counting %s (values after the next refresh)", name);
	tui_snapshot(t);
	return REACT_REDRAW;
}

const struct pane_ops pane_counters = {
    .name = "Counters",
    .listpane = true,
    .scope = SCOPE_COUNTERS,
    .view = VIEW_COUNTERS,
    .reads = PANE_READS_COUNTERS,
    .init = cnt_init,
    .free = cnt_free,
    .update = cnt_update,
    .draw = cnt_draw,
    .action = cnt_action,
    .mouse = cnt_mouse,
    .prompt = cnt_prompt,
    .menu = cnt_menu,
    .pick = cnt_pick,
};
