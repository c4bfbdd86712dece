/* pane-top-zoom: what the rest of the screen asks of the Top pane, in a
 * file of its own (pane-top.c is full): zooms (the Processes pane's
 * Enter) and its selected row (the timeline's strip of its share). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tracetop/engine.h"
#include "tracetop/util.h"
#include "ui/pane-top-impl.h"
#include "ui/tui.h"

/* Zoom Top into process pid, or its thread tid (0: the whole process),
 * leaving any other zoom, and show it. */
static void
top_zoom_into(struct tui *t, int pid, int tid)
{
	struct top *p = tui_pane_state(t, &pane_top);

	if (p == NULL)
		return;
	if ((p->zoom.tid || tid) && t->engine != NULL)
		engine_zoom_thread(t->engine, tid); /* the thread zoom samples one thread */
	top_zoom_clear(&p->zoom);                   /* K and U stay */
	p->zoom.pid = pid;
	p->zoom.tid = tid;
	tui_show_pane(t, &pane_top);
	tui_snapshot(t);
	if (tid)
		tui_status(t, false,
		           "Top zoomed into thread %d of pid %d (Esc or Left leaves the zoom)", tid,
		           pid);
	else
		tui_status(t, false, "Top zoomed into pid %d (Esc or Left leaves the zoom)", pid);
}

/* Zoom Top into process pid and show it. */
void
pane_top_zoom_pid(struct tui *t, int pid)
{
	top_zoom_into(t, pid, 0);
}

/* Zoom Top into thread tid of process pid and show it. */
void
pane_top_zoom_tid(struct tui *t, int pid, int tid)
{
	top_zoom_into(t, pid, tid);
}

/* The selected row's key and grouping, and what names it there. */
bool
pane_top_selected(const struct tui *t, struct hist_key *key, unsigned *group, char *name,
                  size_t len)
{
	const struct top *p = tui_pane_state(t, &pane_top);
	const struct ct_line *l = p != NULL ? table_selected(&p->list.table) : NULL;
	const struct hist_key *k;
	char raw[256];
	int n = 0;

	if (l == NULL || l->top == NULL || top_gone(l->top))
		return false;
	k = &l->top->entry->key;
	*key = *k;
	*group = p->group;
	raw[0] = '\0';
	if (p->group & HIST_GROUP_SYM)
		n = snprintf(raw, sizeof raw, "%s", hist_sym_name(l->top->entry));
	else if (p->group & HIST_GROUP_DSO)
		n = snprintf(raw, sizeof raw, "%s",
		             k->dso != NULL ? k->dso->short_name : "[unknown]");
	else if (p->group & HIST_GROUP_COMM)
		n = snprintf(raw, sizeof raw, "%s", k->comm != NULL ? k->comm : "?");
	else if ((p->group & HIST_GROUP_CGROUP) && k->cgroup != NULL)
		n = snprintf(raw, sizeof raw, "%s", k->cgroup->name);
	n = n < 0 || (size_t)n >= sizeof raw ? (int)sizeof raw - 1 : n;
	if (p->group & HIST_GROUP_TID)
		snprintf(raw + n, sizeof raw - (size_t)n, "%stid %d", n ? " " : "", k->thread);
	else if (p->group & HIST_GROUP_PID)
		snprintf(raw + n, sizeof raw - (size_t)n, "%spid %d", n ? " " : "", k->pid);
	str_escape(name, len, raw, strlen(raw));
	return true;
}
