/* pane-top-rows: the Top pane's rows from a frame: those the zooms and
 * K/U keep, merged by the grouping (--sort, g), and what a row is made
 * of when it is annotated, in a file of its own: pane-top.c is full. */
#include "config.h"

#include <stdlib.h>

#include "tracetop/addrhist.h"
#include "tracetop/callgraph.h"
#include "tracetop/engine.h"
#include "tracetop/frame.h"
#include "tracetop/util.h"
#include "ui/pane-top-impl.h"
#include "ui/tui.h"

/* The numeric key the table sorts by (the usual Self, Children or
 * Samples), or HIST_SORT_END. */
static enum hist_sort
top_sort_key(const struct top *p)
{
	const struct table *t = &p->list.table;

	switch (t->sort_col < p->ncols ? p->kind[t->sort_col] : COL_COUNT) {
	case COL_OVERHEAD:
		return HIST_SORT_OVERHEAD;
	case COL_CHILDREN:
		return HIST_SORT_CHILDREN;
	case COL_SAMPLES:
		return HIST_SORT_SAMPLES;
	default:
		return HIST_SORT_END;
	}
}

/* The zooms' and K/U's test of an entry, for hist_group_top. */
static bool
top_keep(const struct hist_entry *e, void *arg)
{
	return top_zoom_keep(arg, e);
}

/* Copy the rows of the shown event of f that the zooms and K/U keep,
 * merged by the grouping. When the table sorts by a number they come in
 * its order (a radix sort, where its comparison sort of tens of
 * thousands of rows was most of a refresh; ties in the frame's order,
 * as the table keeps them), and of more than TOP_ROWS_SHOWN only those
 * first in it are copied (their copies, lines and table rows were the
 * rest), unless the table filters or searches: then every row, so that
 * any may match. */
void
top_filter(struct top *p, const struct tui *t, const struct frame *f)
{
	static const struct hist_snapshot none;
	const struct frame_event *ev = frame_event(f, t->event);
	const struct table *tb = &p->list.table;
	bool all = tb->filter[0] != '\0' || tb->search[0] != '\0';

	p->tree.group = top_group_zoomed(&p->zoom, p->group);
	p->rows_all = hist_group_top(&p->rows, ev != NULL ? &ev->rows : &none, top_keep, &p->zoom,
	                             p->tree.group, top_sort_key(p), tb->descending,
	                             all ? 0 : TOP_ROWS_SHOWN);
	if (t->engine != NULL)
		engine_set_group(t->engine, p->tree.group);
	cg_group_children(ev != NULL ? ev->cg : NULL, &p->rows, p->tree.group);
	top_key_cols(p);
	top_cgroup_col(&p->cols[p->cg_col], p->cg_show, &p->rows, p->tree.group);
	top_diff_rows(p, t); /* after: a gone row's unknown cgroup is not another one */
}

/* g: group the rows by the next keys of the cycle. */
int
top_group_cycle(struct top *p, struct tui *t)
{
	char name[64];

	p->group = top_group_next(p->group);
	tui_snapshot(t);
	tui_status(t, false, "rows grouped by %s (g: the next grouping)",
	           hist_group_name(p->group, name, sizeof name));
	return REACT_HANDLED | REACT_REDRAW;
}

/* Annotate a row's function, only the row's samples: those that agree
 * with its key on the grouping's fields, within the zooms. */
int
top_annotate(struct top *p, struct tui *t, const struct hist_row *r)
{
	const struct hist_key *k = &r->entry->key;
	unsigned mask = p->tree.group & ADDRHIST_WHO_FIELDS;
	struct addrhist_who who;

	if (top_gone(r))
		return top_gone_status(t);
	if (k->sym == NULL || k->dso == NULL) {
		tui_status(t, false, "no symbol to annotate here");
		return REACT_HANDLED | REACT_REDRAW;
	}
	if (k->inlined) {
		tui_status(t, false,
		           "an inlined function: annotate the function it was inlined into");
		return REACT_HANDLED | REACT_REDRAW;
	}
	addrhist_who_of(k, &who);
	/* a zoom narrows the row to its process, thread or cgroup */
	if (p->zoom.pid != 0) {
		mask |= HIST_GROUP_PID;
		who.pid = p->zoom.pid;
	}
	if (p->zoom.tid != 0) {
		mask |= HIST_GROUP_TID;
		who.tid = p->zoom.tid;
	}
	if (p->zoom.cgroup != NULL) {
		mask |= HIST_GROUP_CGROUP;
		who.cgroup = p->zoom.cgroup;
	}
	pane_annotate_open(t, k->dso, k->sym, k->kernel, mask, &who);
	return REACT_HANDLED | REACT_REDRAW;
}
