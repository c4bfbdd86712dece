/* pane-top-tree: the Top pane's call trees under its rows (-g): expand,
 * collapse, callers or callees, percentages of the total or the parent. */
#include "config.h"

#include "tracetop/report.h"
#include "ui/action.h"
#include "ui/calltree.h"
#include "ui/pane-top-impl.h"
#include "ui/table.h"
#include "ui/tui.h"

/* Tree keys without call stacks: say how to get them. */
int
top_no_stacks(struct tui *t)
{
	tui_status(t, false, "no call stacks: run with -g or --call-graph");
	return REACT_HANDLED | REACT_REDRAW;
}

/* Expand the selected row's tree, or the selected tree node. */
static int
top_expand(struct top *p, struct tui *t, const struct ct_line *l)
{
	char sym[256];

	if (l->node != 0) {
		if (p->tree.nodes[l->node].has_kids)
			calltree_set_node(&p->tree, l->id, true);
		top_rebuild(p, t, 0);
		calltree_show_below(&p->list.table);
		return REACT_HANDLED | REACT_REDRAW;
	}
	calltree_set_open(&p->tree, l->id, true);
	top_rebuild(p, t, 0);
	calltree_show_below(&p->list.table);
	l = table_selected(&p->list.table);
	if (p->list.table.sel + 1 >= p->list.table.nrows ||
	    ((const struct ct_line *)p->list.table.rows[p->list.table.sel + 1])->top != l->top) {
		report_symbol(l->top->entry, p->form, sym, sizeof sym);
		tui_status(t, false, "no %s of %s in the call stacks",
		           p->tree.callers ? "callers" : "callees", sym);
	}
	return REACT_HANDLED | REACT_REDRAW;
}

/* Collapse the selected tree node, else the whole tree it is in (the
 * selection goes to the row). */
static int
top_collapse(struct top *p, struct tui *t, const struct ct_line *l)
{
	if (l->node != 0 && p->tree.nodes[l->node].open) {
		calltree_set_node(&p->tree, l->id, false);
		top_rebuild(p, t, 0);
	} else {
		calltree_set_open(&p->tree, calltree_row_id(l->top), false);
		top_rebuild(p, t, calltree_row_id(l->top));
	}
	return REACT_HANDLED | REACT_REDRAW;
}

/* Expand the first CT_MAX_OPEN rows shown. */
static int
top_expand_all(struct top *p, struct tui *t)
{
	size_t n = 0;

	for (size_t i = 0; i < p->list.table.nrows && n < CT_MAX_OPEN; i++) {
		const struct ct_line *l = p->list.table.rows[i];

		if (l->node == 0) {
			calltree_set_open(&p->tree, l->id, true);
			n++;
		}
	}
	top_rebuild(p, t, 0);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Show r's callers (or callees) under it: every tree switches view. */
int
top_show_tree(struct top *p, struct tui *t, const struct hist_row *r, bool callers)
{
	p->tree.callers = callers;
	top_set_title(p);
	calltree_set_open(&p->tree, calltree_row_id(r), true);
	top_rebuild(p, t, calltree_row_id(r));
	calltree_show_below(&p->list.table);
	return REACT_REDRAW;
}

/* The tree keys: + - E C G % and Enter on a tree line. */
int
top_tree_action(struct top *p, struct tui *t, enum action a)
{
	const struct ct_line *l = table_selected(&p->list.table);
	uintptr_t row_id = l != NULL ? calltree_row_id(l->top) : 0;

	if (!p->stacks)
		return top_no_stacks(t);
	switch (a) {
	case ACT_EXPAND:
		return l != NULL ? top_expand(p, t, l) : REACT_HANDLED;
	case ACT_COLLAPSE:
		return l != NULL ? top_collapse(p, t, l) : REACT_HANDLED;
	case ACT_EXPAND_ALL:
		return top_expand_all(p, t);
	case ACT_COLLAPSE_ALL:
		calltree_clear(&p->tree);
		break;
	case ACT_TREE_MODE:
		p->tree.callers = !p->tree.callers;
		tui_status(t, false, "trees show %s", p->tree.callers ? "callers" : "callees");
		break;
	default: /* ACT_TREE_PERCENT */
		p->tree.relative = !p->tree.relative;
		tui_status(t, false, "tree percentages of the %s",
		           p->tree.relative ? "parent" : "total");
		top_set_title(p);
		top_rebuild(p, t, 0);
		return REACT_HANDLED | REACT_REDRAW;
	}
	/* the tree lines change identity: keep the selection on the row */
	top_set_title(p);
	top_rebuild(p, t, row_id);
	return REACT_HANDLED | REACT_REDRAW;
}
