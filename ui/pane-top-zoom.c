/* pane-top-zoom: zooms into the Top pane asked for by other panes (the
 * Processes pane's Enter), in a file of its own: pane-top.c is full. */
#include "config.h"

#include "tracetop/engine.h"
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
