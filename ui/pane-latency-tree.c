/* pane-latency-tree: the Latency pane's lines, its rows and, under an
 * offcpu row that is expanded, its stacks as the Top pane's call trees
 * are drawn (the calltree lines): from the outermost callers down to
 * where the thread blocked, each node its share of the row's blocked
 * time and the time; + - E C and Enter on a tree line as in Top. And a
 * row's detail: its histogram, an offcpu row's thread's blocked time. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/callgraph.h"
#include "tracetop/offcpu.h"
#include "tracetop/report-latency.h"
#include "ui/action.h"
#include "ui/pane-latency-impl.h"

/* A row's identity across refreshes. */
uintptr_t
latpane_row_id(const struct lat_row *r)
{
	return (uintptr_t)hash_mix(
	    hash_mix(hash_mix((uint64_t)(uintptr_t)r->name, (uint64_t)r->pid), (uint64_t)r->tid),
	    (uint64_t)r->kind + 1);
}

/* The trie root of an offcpu row's stacks in cg, or 0. */
static uint32_t
latpane_root(const struct callgraph *cg, const struct lat_row *r)
{
	const struct cg_node *n;

	for (uint32_t k = cg != NULL && r->stack != NULL ? cg_first_root(cg) : 0; k != 0;
	     k = n->next_sibling)
		if ((n = cg_node(cg, k)) == NULL || n->comm == r->stack)
			return n != NULL ? k : 0;
	return 0;
}

/* Rebuild the lines and hand them to the table. */
void
latpane_rebuild(struct latpane *p, struct tui *t, uintptr_t select_id)
{
	const struct frame_latency *fl = p->fl;
	uint32_t root;

	p->tree.times = true;
	calltree_begin(&p->tree);
	for (size_t i = 0; fl != NULL && i < fl->nrows; i++) {
		const struct lat_row *r = &fl->rows[i];
		uintptr_t id = latpane_row_id(r);

		calltree_add_row(&p->tree, NULL, r, (uint32_t)i, id);
		if (r->stack == NULL || !calltree_is_open(&p->tree, id) ||
		    (root = latpane_root(fl->offcpu, r)) == 0)
			continue;
		cg_subtrees(fl->offcpu, &root, 1, &p->view);
		calltree_add_view(&p->tree, &p->view, 0, t->theme.utf8);
	}
	calltree_end(&p->tree);
	if (select_id != 0) {
		p->list.table.sel_id = select_id;
		p->list.table.have_sel = true;
	}
	table_set_rows(&p->list.table, p->tree.ptrs, p->tree.nlines);
}

/* Expand the selected row's stacks, or the selected tree node. */
static int
latpane_expand(struct latpane *p, struct tui *t, const struct ct_line *l)
{
	if (l->node != 0) {
		if (p->tree.nodes[l->node].has_kids)
			calltree_set_node(&p->tree, l->id, true);
	} else if (l->row == NULL || ((const struct lat_row *)l->row)->stack == NULL) {
		tui_status(t, false, "only offcpu rows have stacks (--latency-kinds offcpu)");
		return REACT_HANDLED | REACT_REDRAW;
	} else {
		calltree_set_open(&p->tree, l->id, true);
	}
	latpane_rebuild(p, t, 0);
	calltree_show_below(&p->list.table);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Collapse the selected tree node, else the whole tree it is in (the
 * selection goes to its row). */
static int
latpane_collapse(struct latpane *p, struct tui *t, const struct ct_line *l)
{
	uintptr_t row = latpane_row_id(l->row);

	if (l->node != 0 && p->tree.nodes[l->node].open) {
		calltree_set_node(&p->tree, l->id, false);
		latpane_rebuild(p, t, 0);
	} else {
		calltree_set_open(&p->tree, row, false);
		latpane_rebuild(p, t, row);
	}
	return REACT_HANDLED | REACT_REDRAW;
}

/* The tree keys. */
int
latpane_tree_action(struct latpane *p, struct tui *t, enum action a)
{
	const struct ct_line *l = table_selected(&p->list.table);
	size_t n = 0;

	switch (a) {
	case ACT_EXPAND:
		return l != NULL ? latpane_expand(p, t, l) : REACT_HANDLED;
	case ACT_COLLAPSE:
		return l != NULL ? latpane_collapse(p, t, l) : REACT_HANDLED;
	case ACT_EXPAND_ALL: /* the offcpu rows shown */
		for (size_t i = 0; i < p->list.table.nrows && n < CT_MAX_OPEN; i++) {
			const struct ct_line *k = p->list.table.rows[i];

			if (k->node == 0 && ((const struct lat_row *)k->row)->stack != NULL) {
				calltree_set_open(&p->tree, k->id, true);
				n++;
			}
		}
		latpane_rebuild(p, t, 0);
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_COLLAPSE_ALL:
		calltree_clear(&p->tree);
		latpane_rebuild(p, t, l != NULL ? latpane_row_id(l->row) : 0);
		return REACT_HANDLED | REACT_REDRAW;
	default: /* ACT_ENTER on a tree line */
		if (l != NULL && l->node != 0 && p->tree.nodes[l->node].has_kids)
			calltree_set_node(&p->tree, l->id, !p->tree.nodes[l->node].open);
		latpane_rebuild(p, t, 0);
		return REACT_HANDLED | REACT_REDRAW;
	}
}

/* "thread TID: blocked X in all (sleep A, I/O B, ...)[, on-CPU Y of Z
 * on + blocked (P%)]" for an offcpu or oncpu row of one thread, else "". */
static void
latpane_thread_text(const struct frame_latency *fl, const struct lat_row *r, char *buf, size_t len)
{
	struct report_latency_thread *v;
	size_t n = r->tid > 0 && (r->kind == LAT_OFFCPU || r->kind == LAT_ONCPU)
	               ? report_latency_threads(fl, &v)
	               : 0,
	       at;
	char a[16], b[16];

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (v[i].tid != r->tid)
			continue;
		lat_format_ns(a, sizeof a, v[i].offcpu_sum);
		at = (size_t)snprintf(buf, len, "thread %d: blocked %s in all (", r->tid, a);
		for (unsigned k = 0, first = 1; k < OFFCPU_NREASONS && at < len; k++)
			if (v[i].offcpu[k] > 0) {
				lat_format_ns(a, sizeof a, v[i].offcpu[k]);
				at += (size_t)snprintf(buf + at, len - at, "%s%s %s",
				                       first ? "" : ", ", offcpu_reason_name(k), a);
				first = 0;
			}
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, ")");
		if (v[i].oncpu > 0 && at < len) {
			uint64_t wall = v[i].oncpu + v[i].offcpu_sum;

			lat_format_ns(a, sizeof a, v[i].oncpu);
			lat_format_ns(b, sizeof b, wall);
			snprintf(buf + at, len - at, ", on-CPU %s of %s on + blocked (%.1f%%)", a,
			         b, 100.0 * (double)v[i].oncpu / (double)wall);
		}
	}
	if (n > 0)
		free(v);
}

/* Lines of a row's detail above its histogram: its title, and its
 * thread's times for an offcpu or oncpu row of one thread. */
int
latpane_detail_head(const struct lat_row *r)
{
	return r->tid > 0 && (r->kind == LAT_OFFCPU || r->kind == LAT_ONCPU) ? 2 : 1;
}

/* The selected row's histogram under its title. */
void
latpane_draw_detail(const struct latpane *p, const struct lat_row *r, WINDOW *win, int y, int x,
                    int h, int w, const struct theme *th)
{
	unsigned first, last;
	char line[640], comm[80], name[80], total[16], thread[300];
	int row = 0;

	str_escape(comm, sizeof comm, r->comm, strnlen(r->comm, sizeof r->comm));
	report_latency_name(r, name, sizeof name);
	lat_format_ns(total, sizeof total, r->hist.total);
	snprintf(line, sizeof line, "@%s[%s, %s %d]: %llu %s, %s%s (Enter closes%s)",
	         lat_kind_name(r->kind), name, comm, r->pid, (unsigned long long)r->hist.count,
	         r->kind == LAT_OFFCPU  ? "blocks"
	         : r->kind == LAT_ONCPU ? "slices"
	                                : "calls",
	         total, r->kind == LAT_OFFCPU ? " blocked" : "",
	         r->stack != NULL ? "; + its stacks" : "");
	wattrset(win, th->attr[TH_TITLE]);
	mvwaddnstr(win, y + row++, x, line, w);
	wattrset(win, 0);
	if (latpane_detail_head(r) > 1 && row < h) {
		latpane_thread_text(p->fl, r, thread, sizeof thread);
		wattrset(win, th->attr[TH_DIM]);
		mvwaddnstr(win, y + row++, x, thread, w);
		wattrset(win, 0);
	}
	if (!lat_hist_range(&r->hist, &first, &last))
		return;
	for (unsigned b = first; b <= last && row < h; b++) {
		lat_hist_line(&r->hist, b, 40, line, sizeof line);
		mvwaddnstr(win, y + row++, x, line, w);
	}
}
