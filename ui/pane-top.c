/* pane-top: the hottest functions, like perf top, in the shared table. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/probe.h"
#include "tracetop/report.h"
#include "tracetop/util.h"
#include "ui/calltree.h"
#include "ui/listpane.h"
#include "ui/table.h"
#include "ui/pane-top-impl.h"
#include "ui/tui.h"

/* Drop order at narrow widths: Cgroup, Samples, PID, Command, Shared
 * Object; c keeps Cgroup (topview.h); the columns of the grouping's
 * fields outlast the others (top_key_cols). The bars shrink to their text
 * first; Command and Shared Object are as wide as their names on screen;
 * Symbol drops nothing below 28 columns and takes the rest. */
static const struct table_col top_cols[COL_COUNT] = {
    [COL_CHILDREN] = {.title = "Children",
                      .width = 18,
                      .min_width = 7,
                      .priority = 9,
                      .right = true,
                      .bar = true,
                      .sortable = true},
    [COL_OVERHEAD] = {.title = "Overhead",
                      .width = 18,
                      .min_width = 7,
                      .priority = 9,
                      .right = true,
                      .bar = true,
                      .sortable = true},
    [COL_SAMPLES] = {.title = "Samples",
                     .width = 8,
                     .min_width = 7,
                     .priority = 1,
                     .right = true,
                     .sortable = true},
    /* shown with a baseline (B, --baseline) */
    [COL_DELTA] = {.title = "Delta",
                   .width = 7,
                   .min_width = 6,
                   .priority = 8,
                   .right = true,
                   .hidden = true,
                   .sortable = true},
    [COL_RATIO] = {.title = "Ratio",
                   .width = 6,
                   .min_width = 5,
                   .priority = 5,
                   .right = true,
                   .hidden = true,
                   .sortable = true},
    [COL_COMM] = {.title = "Command",
                  .width = 16,
                  .min_width = 7,
                  .priority = 3,
                  .fit = true,
                  .sortable = true},
    [COL_PID] = {.title = "PID",
                 .width = 7,
                 .min_width = 5,
                 .priority = 2,
                 .right = true,
                 .sortable = true},
    /* shown when the rows are grouped by thread */
    [COL_TID] = {.title = "TID",
                 .width = 7,
                 .min_width = 5,
                 .priority = 2,
                 .right = true,
                 .hidden = true,
                 .sortable = true},
    /* shown by itself only when the rows come from several cgroups */
    [COL_CGROUP] = {.title = "Cgroup",
                    .width = 16,
                    .min_width = 8,
                    .priority = TOP_CGROUP_PRIO_AUTO,
                    .hidden = true,
                    .fit = true,
                    .sortable = true},
    [COL_DSO] = {.title = "Shared Object",
                 .width = 24,
                 .min_width = 8,
                 .priority = 4,
                 .fit = true,
                 .sortable = true},
    [COL_MARK] = {.title = "", .width = 3, .min_width = 3, .priority = 8},
    [COL_SYMBOL] = {.title = "Symbol",
                    .width = 28,
                    .min_width = 16,
                    .priority = 9,
                    .flex = true,
                    .sortable = true},
};

/* The full name of the selected function shows under the table when
 * its line shows it compact, in up to this many lines... */
#define TOP_DETAIL_LINES 3
/* ...on a pane at least this high. */
#define TOP_DETAIL_MIN_H 8

/* The snapshot row a line belongs to. */
static const struct hist_row *
top_hist(const void *row)
{
	return ((const struct ct_line *)row)->top;
}

/* The tree node a line shows, or NULL for a snapshot row. */
static const struct ct_node *
top_node(const struct top *p, const void *row)
{
	const struct ct_line *l = row;

	return l->node != 0 ? &p->tree.nodes[l->node] : NULL;
}

/* The grouping field each column shows (0: a number). */
static const unsigned top_col_group[COL_COUNT] = {
    [COL_COMM] = HIST_GROUP_COMM,     [COL_PID] = HIST_GROUP_PID, [COL_TID] = HIST_GROUP_TID,
    [COL_CGROUP] = HIST_GROUP_CGROUP, [COL_DSO] = HIST_GROUP_DSO, [COL_MARK] = HIST_GROUP_SYM,
    [COL_SYMBOL] = HIST_GROUP_SYM,
};

/* The priorities of the key columns among themselves, when even they do
 * not all fit: the field that tells most apart stays longest (a thread
 * names its process, a process its command, a symbol mostly its object,
 * and the symbol's name says more than its [k] or [.]); Cgroup's is
 * TOP_PRIO_KEY (topview.h). */
static const int top_key_prio[COL_COUNT] = {
    [COL_MARK] = 4, [COL_DSO] = 5, [COL_COMM] = TOP_PRIO_KEY, [COL_PID] = 7, [COL_TID] = 8,
};

/* The columns of the grouping's fields stay at narrow widths; TID shows
 * only when the rows are grouped by thread. */
void
top_key_cols(struct top *p)
{
	for (size_t i = 0; i < p->ncols; i++) {
		enum top_col k = p->kind[i];

		if (top_key_prio[k] == 0)
			continue;
		p->cols[i].keep = (p->tree.group & top_col_group[k]) != 0;
		p->cols[i].priority = p->cols[i].keep ? top_key_prio[k] : top_cols[k].priority;
		if (k == COL_TID)
			p->cols[i].hidden = !(p->tree.group & HIST_GROUP_TID);
	}
}

/* Cell text of a snapshot row. */
static void
top_row_cell(const struct top *p, const struct hist_row *r, size_t col, char *buf, size_t len)
{
	/* a merged row's column whose entries differ: what they are */
	if (p->kind[col] != COL_MARK && report_mixed_cell(r, top_col_group[p->kind[col]], buf, len))
		return;
	switch (p->kind[col]) {
	case COL_CHILDREN:
		snprintf(buf, len, "%.2f%%", r->children);
		break;
	case COL_OVERHEAD:
		snprintf(buf, len, "%.2f%%", r->overhead);
		break;
	case COL_SAMPLES:
		snprintf(buf, len, "%llu", (unsigned long long)r->samples);
		break;
	case COL_DELTA:
	case COL_RATIO:
		top_diff_cell(p, r, p->kind[col], buf, len);
		break;
	case COL_COMM:
		report_comm(r->entry, buf, len);
		break;
	case COL_PID:
		snprintf(buf, len, "%d", r->entry->key.pid);
		break;
	case COL_TID:
		snprintf(buf, len, "%d", r->entry->key.tid);
		break;
	case COL_CGROUP:
		report_cgroup(r->entry, buf, len);
		break;
	case COL_DSO:
		report_dso(r->entry, buf, len);
		break;
	case COL_MARK:
		snprintf(buf, len, "%s", report_mark(r));
		break;
	default:
		report_symbol(r->entry, p->form, buf, len);
	}
}

/* Cell text of a line: a tree line has only its text, under Symbol. */
static void
top_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct top *p = ctx;
	const struct ct_node *n = top_node(p, row);

	if (n == NULL)
		top_row_cell(p, top_hist(row), col, buf, len);
	else if (p->kind[col] == COL_SYMBOL)
		snprintf(buf, len, "%s", n->text);
	else
		buf[0] = '\0';
}

/* Compare two numbers for qsort-style ordering. */
static int
top_cmp_num(double a, double b)
{
	return CMP3(a, b);
}

/* Ascending order of two snapshot rows by a column. */
static int
top_row_compare(const struct top *p, const struct hist_row *a, const struct hist_row *b, size_t col)
{
	char x[256], y[256];

	switch (p->kind[col]) {
	case COL_CHILDREN:
		return top_cmp_num(a->children, b->children);
	case COL_OVERHEAD:
		return top_cmp_num(a->overhead, b->overhead);
	case COL_SAMPLES:
		return top_cmp_num((double)a->samples, (double)b->samples);
	case COL_PID:
		return top_cmp_num(a->entry->key.pid, b->entry->key.pid);
	case COL_TID:
		return top_cmp_num(a->entry->key.tid, b->entry->key.tid);
	case COL_MARK:
		return (int)a->entry->key.kernel - (int)b->entry->key.kernel;
	case COL_DELTA:
	case COL_RATIO:
		return top_diff_compare(p, a, b);
	default:
		top_row_cell(p, a, col, x, sizeof x);
		top_row_cell(p, b, col, y, sizeof y);
		return strcmp(x, y);
	}
}

/* Ascending order of two lines by a column: rows by the column (ties in
 * snapshot order), a tree's lines right under their row, in tree order.
 * The table reverses the result for a descending sort, so the orders
 * that must not reverse are reversed here first. */
static int
top_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct top *p = ctx;
	const struct ct_line *a = pa, *b = pb;
	int c;

	if (a->top != b->top && (c = top_row_compare(p, a->top, b->top, col)) != 0)
		return c;
	c = a->top != b->top ? top_cmp_num(a->ord, b->ord) : top_cmp_num(a->seq, b->seq);
	return p->list.table.descending ? -c : c;
}

/* The overhead bar's length (none on tree lines). */
static double
top_bar(const void *row, size_t col, void *ctx)
{
	const struct top *p = ctx;
	const struct hist_row *r = top_hist(row);

	if (top_node(p, row) != NULL)
		return 0;
	return p->kind[col] == COL_CHILDREN ? r->children : r->overhead;
}

/* A line's identity across snapshots. */
static uintptr_t
top_row_id(const void *row, void *ctx)
{
	(void)ctx;
	return ((const struct ct_line *)row)->id;
}

/* Does the line's row have text in its command, cgroup, shared object or
 * symbol? (A tree goes with its row.) */
static bool
top_match(const void *row, const char *text, void *ctx)
{
	const struct top *p = ctx;
	char buf[512];

	for (size_t i = 0; i < p->ncols; i++) {
		if (p->kind[i] != COL_COMM && p->kind[i] != COL_CGROUP && p->kind[i] != COL_DSO &&
		    p->kind[i] != COL_SYMBOL)
			continue;
		top_row_cell(p, top_hist(row), i, buf, sizeof buf);
		if (strcasestr(buf, text) != NULL)
			return true;
		if (p->kind[i] != COL_SYMBOL) /* the full name too: "(int)" */
			continue;
		report_symbol(top_hist(row)->entry, SYM_FULL, buf, sizeof buf);
		if (strcasestr(buf, text) != NULL)
			return true;
	}
	return false;
}

/* Kernel markers stand out; user ones are dim. */
static attr_t
top_cell_attr(const void *row, size_t col, const struct theme *th, void *ctx)
{
	const struct top *p = ctx;

	if (top_node(p, row) == NULL && top_gone(top_hist(row)))
		return th->attr[TH_DIM]; /* only the baseline has it */
	if (p->kind[col] != COL_MARK || top_node(p, row) != NULL)
		return 0;
	return th->attr[top_hist(row)->entry->key.kernel ? TH_KERNEL : TH_DIM];
}

/* A call-tree line runs from the first column after the bars to the end
 * of the line, so the tree is not squeezed into the Symbol column. */
static bool
top_span(const void *row, size_t *col, size_t *from, void *ctx)
{
	const struct top *p = ctx;

	if (top_node(p, row) == NULL)
		return false;
	*col = p->sym_col;
	*from = p->stacks ? 2 : 1; /* after Children and Self */
	return true;
}

/* The detail popup: the row's every field, the full symbol and path. */
static void
top_detail(const void *row, char *buf, size_t len, void *ctx)
{
	const struct top *p = ctx;

	top_row_detail(top_hist(row), top_node(p, row), buf, len);
}

static const struct table_ops top_table_ops = {
    .cell = top_cell,
    .compare = top_compare,
    .bar_value = top_bar,
    .row_id = top_row_id,
    .match = top_match,
    .cell_attr = top_cell_attr,
    .span = top_span,
    .detail = top_detail,
};

/* The Symbol column's title: with call stacks, which trees and which
 * percentages the expanded rows show. */
void
top_set_title(struct top *p)
{
	if (!p->stacks)
		return;
	snprintf(p->sym_title, sizeof p->sym_title, "Symbol (%s, %% of %s)",
	         p->tree.callers ? "callers" : "callees", p->tree.relative ? "parent" : "total");
	p->cols[p->sym_col].title = p->sym_title;
}

/* --sort cgroup shows the Cgroup column. */
static void
top_cgroup_init(struct top *p, const struct tui *t)
{
	if (t->opts == NULL || !hist_sort_has(t->opts->sort, HIST_SORT_CGROUP))
		return;
	p->cg_show = TOP_CGROUP_SHOWN;
	top_cgroup_col(&p->cols[p->cg_col], p->cg_show, &p->rows, p->tree.group);
}

/* The first sort: by the column of -s's first key, which is the share
 * unless a name comes before any share (perf's order; with -g Self, or
 * Children with --children); numbers largest first, names and ids up. */
static void
top_sort_init(struct top *p, const struct tui *t)
{
	static const enum top_col by_key[HIST_SORT_MAX] = {
	    [HIST_SORT_OVERHEAD] = COL_OVERHEAD, [HIST_SORT_SAMPLES] = COL_SAMPLES,
	    [HIST_SORT_COMM] = COL_COMM,         [HIST_SORT_PID] = COL_PID,
	    [HIST_SORT_DSO] = COL_DSO,           [HIST_SORT_SYM] = COL_SYMBOL,
	    [HIST_SORT_CHILDREN] = COL_CHILDREN, [HIST_SORT_CGROUP] = COL_CGROUP,
	    [HIST_SORT_TID] = COL_TID,
	};
	enum hist_sort k = t->opts != NULL ? t->opts->sort[0] : HIST_SORT_OVERHEAD;
	enum top_col want = k >= 0 && k < HIST_SORT_MAX ? by_key[k] : COL_OVERHEAD;

	if (want == COL_CHILDREN && !p->stacks)
		want = COL_OVERHEAD;
	for (size_t i = 0; i < p->ncols; i++)
		if (p->kind[i] == want)
			table_sort_by(&p->list.table, i,
			              want == COL_OVERHEAD || want == COL_SAMPLES ||
			                  want == COL_CHILDREN);
}

/* c: hide the Cgroup column if it is on screen, else show it (kept at
 * narrow widths). */
static int
top_cgroup_toggle(struct top *p, struct tui *t)
{
	bool shown = p->list.table.col_x[p->cg_col] >= 0;

	if (shown && (p->tree.group & HIST_GROUP_CGROUP)) {
		tui_status(t, false,
		           "the rows are grouped by cgroup: its column stays (g groups "
		           "them otherwise)");
		return REACT_HANDLED | REACT_REDRAW;
	}
	p->cg_show = shown ? TOP_CGROUP_HIDDEN : TOP_CGROUP_SHOWN;
	top_cgroup_col(&p->cols[p->cg_col], p->cg_show, &p->rows, p->tree.group);
	tui_status(t, false, "Cgroup column %s", shown ? "hidden" : "shown");
	return REACT_HANDLED | REACT_REDRAW;
}

/* The grouping in the setup file: -s on the command line wins; a name
 * --sort does not know is reported and the default kept. */
static void
top_setup_group(struct top *p, struct tui *t, struct rcfile *rc, bool save)
{
	enum hist_sort keys[HIST_SORT_MAX + 1];
	struct tt_err err = {0};
	char name[64];
	const char *v;

	if (save) {
		rcfile_set(rc, "top.group", hist_group_name(p->group, name, sizeof name));
		return;
	}
	if ((v = rcfile_get(rc, "top.group", NULL)) == NULL ||
	    (t->opts != NULL && t->opts->sort_given))
		return;
	if (hist_parse_sort(v, keys, &err) != 0) {
		tui_status(t, true, "setup file: top.group: %s", err.msg);
		return;
	}
	p->group = hist_sort_group(keys);
}

/* The Cgroup column's state and the grouping in the setup file (--sort
 * cgroup wins). */
static void
top_setup(void *pp, struct tui *t, struct rcfile *rc, bool save)
{
	static const char *const words[] = {"auto", "shown", "hidden"};
	struct top *p = pp;
	const char *v;

	top_setup_group(p, t, rc, save);
	if (save) {
		rcfile_set(rc, "top.cgroup_column", words[p->cg_show]);
		return;
	}
	if ((v = rcfile_get(rc, "top.cgroup_column", NULL)) == NULL ||
	    (t->opts != NULL && hist_sort_has(t->opts->sort, HIST_SORT_CGROUP)))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strcmp(v, words[i]) == 0)
			p->cg_show = (enum top_cgroup_col)i;
	top_cgroup_col(&p->cols[p->cg_col], p->cg_show, &p->rows, p->tree.group);
}

/* Create the pane. */
static void *
top_init(struct tui *t)
{
	struct top *p = xcalloc(1, sizeof *p);

	p->stacks = t->cg != NULL;
	p->form = t->theme.utf8 ? SYM_COMPACT_UTF8 : SYM_COMPACT;
	/* With call stacks: Children (inclusive) and Self, as perf top -g. */
	for (size_t k = p->stacks ? 0 : 1; k < COL_COUNT; k++) {
		p->kind[p->ncols] = (enum top_col)k;
		p->cols[p->ncols] = top_cols[k];
		if (p->stacks && k == COL_OVERHEAD)
			p->cols[p->ncols].title = "Self";
		if (p->stacks && (k == COL_OVERHEAD || k == COL_CHILDREN))
			p->cols[p->ncols].width = 14; /* two bars */
		if (k == COL_SYMBOL)
			p->sym_col = p->ncols;
		if (k == COL_CGROUP)
			p->cg_col = p->ncols;
		if (k == COL_DELTA)
			p->delta_col = p->ncols;
		if (k == COL_RATIO)
			p->ratio_col = p->ncols;
		p->ncols++;
	}
	p->group = t->opts != NULL ? t->opts->group : HIST_GROUP_DEFAULT;
	top_set_title(p);
	table_init(&p->list.table, p->cols, p->ncols, &top_table_ops, p);
	top_sort_init(p, t);
	top_cgroup_init(p, t);
	if (t->opts != NULL && t->opts->sort_delta) /* -s delta with --baseline */
		table_sort_by(&p->list.table, p->delta_col, true);
	return p;
}

/* Free the pane. */
static void
top_free(void *pp)
{
	struct top *p = pp;

	table_free(&p->list.table);
	top_diff_free(p);
	calltree_free(&p->tree);
	hist_snapshot_free(&p->rows);
	free(p);
}

/* Rebuild the lines (rows and trees) from the snapshot and hand them to
 * the table; select_id, unless 0, becomes the selected line. */
void
top_rebuild(struct top *p, struct tui *t, uintptr_t select_id)
{
	calltree_build(&p->tree, p->stacks ? t->cg : NULL, &p->rows, t->theme.utf8);
	if (select_id != 0) {
		p->list.table.sel_id = select_id;
		p->list.table.have_sel = true;
	}
	table_set_rows(&p->list.table, p->tree.ptrs, p->tree.nlines);
}

/* A new frame: its rows to the table. */
static void
top_update(void *pp, struct tui *t, const struct frame *f)
{
	top_filter(pp, t, f);
	top_rebuild(pp, t, 0);
}

/* The header says what narrows the view. */
static void
top_header(void *pp, struct pane_header *h)
{
	const struct top *p = pp;

	top_zoom_header(&p->zoom, h);
	top_group_header(p->group, h);
	top_rows_header(p->rows.n, p->rows_all, h);
}

/* Draw the table (the selected function's full name under it), or say
 * why it is empty. */
static void
top_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct top *p = pp;
	char full[4096];
	int dh = 0;

	if (h >= TOP_DETAIL_MIN_H && calltree_full_name(&p->tree, table_selected(&p->list.table),
	                                                p->form, full, sizeof full))
		dh = listpane_detail_lines(full, w, TOP_DETAIL_LINES);
	table_draw(&p->list.table, win, y, x, h - dh, w, &t->theme);
	if (dh > 0)
		listpane_detail(win, y + h - dh, x, dh, w, full, &t->theme);
	if (p->list.table.nrows > 0 || h < 3)
		return;
	if (p->list.table.nall > 0)
		listpane_message(win, y + h / 2, x, w, "No rows match the filter (Esc clears it)",
		                 &t->theme);
	else if (t->refreshes == 0)
		listpane_message(win, y + h / 2, x, w, "Waiting for samples...", &t->theme);
	else if (top_zoom_empty(&p->zoom) != NULL)
		listpane_message(win, y + h / 2, x, w, top_zoom_empty(&p->zoom), &t->theme);
	else
		listpane_message(win, y + h / 2, x, w, "No samples in this interval", &t->theme);
}

/* Leave every zoom. */
static int
top_unzoom(struct top *p, struct tui *t)
{
	if (!top_zoom_active(&p->zoom))
		return REACT_IGNORED;
	if (p->zoom.tid && t->engine != NULL)
		engine_zoom_thread(t->engine, 0);
	top_zoom_clear(&p->zoom);
	tui_snapshot(t);
	return REACT_HANDLED | REACT_REDRAW;
}

/* A gone row has no process, object or function here to act on. */
int
top_gone_status(struct tui *t)
{
	tui_status(t, false, "a row gone since the baseline: nothing of it to act on now");
	return REACT_HANDLED | REACT_REDRAW;
}

/* Toggle hiding kernel or user rows. */
static int
top_toggle_hide(struct top *p, struct tui *t, bool kernel)
{
	bool *flag = kernel ? &p->zoom.hide_kernel : &p->zoom.hide_user;

	*flag = !*flag;
	tui_status(t, false, "%s symbols %s", kernel ? "kernel" : "user",
	           *flag ? "hidden" : "shown");
	tui_snapshot(t);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Enter: a row's menu, or expand / collapse a tree node. */
static int
top_enter(struct top *p, struct tui *t)
{
	const struct ct_line *l = table_selected(&p->list.table);

	if (l == NULL || l->node == 0)
		return top_row_menu(p, t);
	if (p->tree.nodes[l->node].has_kids)
		calltree_set_node(&p->tree, l->id, !p->tree.nodes[l->node].open);
	top_rebuild(p, t, 0);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Act on an action: the pane's own, then the list's. */
static int
top_action(void *pp, struct tui *t, enum action a)
{
	struct top *p = pp;
	int r;

	switch (a) {
	case ACT_BACK: /* scroll back left first */
		r = listpane_action(&p->list, t, a);
		return r == REACT_IGNORED ? top_unzoom(p, t) : r;
	case ACT_ENTER:
		return top_enter(p, t);
	case ACT_EXPAND:
	case ACT_COLLAPSE:
	case ACT_EXPAND_ALL:
	case ACT_COLLAPSE_ALL:
	case ACT_TREE_MODE:
	case ACT_TREE_PERCENT:
		return top_tree_action(p, t, a);
	case ACT_HIDE_KERNEL:
	case ACT_HIDE_USER:
		return top_toggle_hide(p, t, a == ACT_HIDE_KERNEL);
	case ACT_CGROUP_COL:
		return top_cgroup_toggle(p, t);
	case ACT_GROUP:
		return top_group_cycle(p, t);
	case ACT_FLAME: {
		const struct ct_line *l = table_selected(&p->list.table);
		struct cg_frame f;

		if (!p->stacks)
			return top_no_stacks(t);
		if (l == NULL || l->top == NULL) {
			tui_status(t, false, "no function selected: F shows one in the Flame pane");
			return REACT_HANDLED | REACT_REDRAW;
		}
		if (top_gone(l->top))
			return top_gone_status(t);
		f = calltree_frame(l->top);
		f.inlined = l->top->entry->key.inlined; /* the trie tells inlined frames apart */
		pane_flame_open(t, &f);
		return REACT_HANDLED | REACT_REDRAW;
	}
	case ACT_ANNOTATE: {
		const struct ct_line *l = table_selected(&p->list.table);

		return l != NULL && l->top != NULL ? top_annotate(p, t, l->top) : REACT_HANDLED;
	}
	case ACT_TIME_FUNC: {
		const struct ct_line *l = table_selected(&p->list.table);

		return l != NULL && l->top != NULL ? top_time(t, l->top) : REACT_HANDLED;
	}
	default:
		r = listpane_action(&p->list, t, a);
		/* Esc clears the filter first, then leaves the zoom. */
		return r == REACT_IGNORED && a == ACT_CLOSE ? top_unzoom(p, t) : r;
	}
}

const struct pane_ops pane_top = {
    .name = "Top",
    .listpane = true,
    .setup = top_setup,
    .scope = SCOPE_TOP,
    .view = VIEW_TOP,
    .reads = PANE_READS_SAMPLING,
    .init = top_init,
    .free = top_free,
    .update = top_update,
    .draw = top_draw,
    .header = top_header,
    .action = top_action,
    .mouse = listpane_pane_mouse,
    .prompt = listpane_pane_prompt,
    .menu = top_menu,
};
