/* pane-top-zoom: zooms into the Top pane asked for by other panes (the
 * Processes pane's Enter), in a file of its own: pane-top.c is full. */
#include "config.h"

#include "tracetop/engine.h"
#include "ui/pane-top-impl.h"
#include "ui/tui.h"

/* Zoom Top into process pid (leaving any other zoom) and show it. */
void
pane_top_zoom_pid(struct tui *t, int pid)
{
	struct top *p = tui_pane_state(t, &pane_top);

	if (p == NULL)
		return;
	if (p->zoom.tid)
		engine_zoom_thread(t->engine, 0); /* the thread zoom samples one thread */
	top_zoom_clear(&p->zoom);                 /* K and U stay */
	p->zoom.pid = pid;
	tui_show_pane(t, &pane_top);
	tui_snapshot(t);
	tui_status(t, false, "Top zoomed into pid %d (Esc or Left leaves the zoom)", pid);
}
