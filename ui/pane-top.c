/* pane-top: the hottest functions, like perf top, in the shared table. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/report.h"
#include "tracetop/util.h"
#include "ui/table.h"
#include "ui/tui.h"

enum top_col {
	COL_CHILDREN,		/* only with call stacks */
	COL_OVERHEAD,
	COL_SAMPLES,
	COL_COMM,
	COL_PID,
	COL_DSO,
	COL_MARK,
	COL_SYMBOL,
	COL_COUNT
};

/* Drop order at narrow widths: Samples, PID, Command, Shared Object. */
static const struct table_col top_cols[COL_COUNT] = {
	[COL_CHILDREN] = { "Children", 18, 7, 9, true, false, true, true },
	[COL_OVERHEAD] = { "Overhead", 18, 7, 9, true, false, true, true },
	[COL_SAMPLES] = { "Samples", 8, 7, 1, true, false, false, true },
	[COL_COMM] = { "Command", 12, 7, 3, false, false, false, true },
	[COL_PID] = { "PID", 7, 5, 2, true, false, false, true },
	[COL_DSO] = { "Shared Object", 16, 8, 4, false, false, false, true },
	[COL_MARK] = { "", 3, 3, 8, false, false, false, false },
	/* width = min_width: the symbol shrinks before other columns drop */
	[COL_SYMBOL] = { "Symbol", 16, 16, 9, false, true, false, true },
};

enum top_prompt { PROMPT_FOR_SEARCH, PROMPT_FOR_FILTER };

enum top_menu_id {
	MENU_ZOOM_PID,
	MENU_ZOOM_TID,
	MENU_ZOOM_DSO,
	MENU_ANNOTATE,
	MENU_PROBE,
	MENU_SORT = 100, /* + column */
};

struct top {
	struct table table;
	struct table_col cols[COL_COUNT];	/* the columns shown */
	enum top_col kind[COL_COUNT];		/* what each shown column is */
	size_t ncols;
	const void **rows;
	size_t cap;
	enum top_prompt prompt;
	bool sort_menu;		/* the open menu chooses the sort column */
};

/* The row behind a table row pointer. */
static const struct hist_entry *
top_entry(const void *row)
{
	return ((const struct hist_row *)row)->entry;
}

/* Cell text of a row. */
static void
top_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct top *p = ctx;
	const struct hist_row *r = row;

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
	case COL_COMM:
		report_comm(r->entry, buf, len);
		break;
	case COL_PID:
		snprintf(buf, len, "%d", r->entry->key.pid);
		break;
	case COL_DSO:
		report_dso(r->entry, buf, len);
		break;
	case COL_MARK:
		snprintf(buf, len, "[%c]", r->entry->key.kernel ? 'k' : '.');
		break;
	default:
		report_symbol(r->entry, buf, len);
	}
}

/* Compare two numbers for qsort-style ordering. */
static int
top_cmp_num(double a, double b)
{
	return (a > b) - (a < b);
}

/* Ascending order of two rows by a column. */
static int
top_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct top *p = ctx;
	const struct hist_row *a = pa, *b = pb;
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
	case COL_MARK:
		return (int)a->entry->key.kernel - (int)b->entry->key.kernel;
	default:
		top_cell(a, col, x, sizeof x, ctx);
		top_cell(b, col, y, sizeof y, ctx);
		return strcmp(x, y);
	}
}

/* The overhead bar's length. */
static double
top_bar(const void *row, size_t col, void *ctx)
{
	const struct top *p = ctx;
	const struct hist_row *r = row;

	return p->kind[col] == COL_CHILDREN ? r->children : r->overhead;
}

/* A row's identity across snapshots: its key. */
static uintptr_t
top_row_id(const void *row, void *ctx)
{
	const struct hist_key *k = &top_entry(row)->key;
	uint64_t h = (uint64_t)(uintptr_t)k->comm * 31 + (uint64_t)(uintptr_t)k->dso;

	(void)ctx;
	h = h * 131 + (uint64_t)(uintptr_t)k->sym;
	h = h * 131 + k->addr;
	h = h * 131 + (uint64_t)(unsigned)k->pid * 2 + k->kernel;
	return (uintptr_t)(h ^ (h >> 29));
}

/* Does the row's command, shared object or symbol contain text? */
static bool
top_match(const void *row, const char *text, void *ctx)
{
	const struct top *p = ctx;
	char buf[512];

	for (size_t i = 0; i < p->ncols; i++) {
		if (p->kind[i] != COL_COMM && p->kind[i] != COL_DSO && p->kind[i] != COL_SYMBOL)
			continue;
		top_cell(row, i, buf, sizeof buf, ctx);
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

	if (p->kind[col] != COL_MARK)
		return 0;
	return th->attr[top_entry(row)->key.kernel ? TH_KERNEL : TH_DIM];
}

static const struct table_ops top_table_ops = {
	.cell = top_cell,
	.compare = top_compare,
	.bar_value = top_bar,
	.row_id = top_row_id,
	.match = top_match,
	.cell_attr = top_cell_attr,
};

/* Create the pane. */
static void *
top_init(struct tui *t)
{
	struct top *p = xcalloc(1, sizeof *p);

	bool stacks = t->engine != NULL && engine_callgraph(t->engine, 0) != NULL;

	/* With call stacks: Children (inclusive) and Self, as perf top -g. */
	for (size_t k = stacks ? 0 : 1; k < COL_COUNT; k++) {
		p->kind[p->ncols] = (enum top_col)k;
		p->cols[p->ncols] = top_cols[k];
		if (stacks && k == COL_OVERHEAD)
			p->cols[p->ncols].title = "Self";
		p->ncols++;
	}
	table_init(&p->table, p->cols, p->ncols, &top_table_ops, p);
	/* by Self, or by Children with --children */
	table_sort_by(&p->table, stacks && !(t->opts != NULL && t->opts->children) ? 1 : 0, true);
	return p;
}

/* Free the pane. */
static void
top_free(void *pp)
{
	struct top *p = pp;

	table_free(&p->table);
	free(p->rows);
	free(p);
}

/* A new snapshot: hand its rows to the table. */
static void
top_update(void *pp, struct tui *t)
{
	struct top *p = pp;

	if (p->cap < t->snap.n) {
		p->cap = t->snap.n * 2;
		p->rows = xrealloc(p->rows, p->cap * sizeof *p->rows);
	}
	for (size_t i = 0; i < t->snap.n; i++)
		p->rows[i] = &t->snap.rows[i];
	table_set_rows(&p->table, p->rows, t->snap.n);
}

/* A centred line of text in the pane (empty states). */
static void
top_message(WINDOW *win, int y, int x, int w, const char *msg, const struct theme *th)
{
	int len = (int)strlen(msg);

	wattrset(win, th->attr[TH_DIM]);
	mvwaddnstr(win, y, x + (len < w ? (w - len) / 2 : 0), msg, w);
	wattrset(win, A_NORMAL);
}

/* Why K/U left nothing to show, and the key that brings rows back. */
static const char *
top_hidden_message(const struct tui *t)
{
	if (t->hide_kernel && t->hide_user)
		return "No samples here (K and U show the hidden symbols)";
	return t->hide_user ? "No samples here (U shows user symbols)"
			    : "No samples here (K shows kernel symbols)";
}

/* Draw the table, or say why it is empty. */
static void
top_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct top *p = pp;

	table_draw(&p->table, win, y, x, h, w, &t->theme);
	if (p->table.nrows > 0 || h < 3)
		return;
	if (p->table.nall > 0)
		top_message(win, y + h / 2, x, w, "No rows match the filter (Esc clears it)",
			    &t->theme);
	else if (t->refreshes == 0)
		top_message(win, y + h / 2, x, w, "Waiting for samples...", &t->theme);
	else if (t->zoom.pid || t->zoom.tid || t->zoom.dso)
		top_message(win, y + h / 2, x, w, "No samples here (Esc leaves the zoom)",
			    &t->theme);
	else if (t->hide_kernel || t->hide_user)
		top_message(win, y + h / 2, x, w, top_hidden_message(t), &t->theme);
	else
		top_message(win, y + h / 2, x, w, "No samples in this interval", &t->theme);
}

/* Leave every zoom. */
static int
top_unzoom(struct tui *t)
{
	if (!t->zoom.pid && !t->zoom.tid && !t->zoom.dso)
		return REACT_IGNORED;
	if (t->zoom.tid)
		engine_zoom_thread(t->engine, 0);
	memset(&t->zoom, 0, sizeof t->zoom);
	tui_snapshot(t);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Open the Enter menu for the selected row. */
static int
top_row_menu(struct top *p, struct tui *t)
{
	const struct hist_row *r = table_selected(&p->table);
	char comm[64], dso[128], sym[256];

	if (r == NULL)
		return REACT_HANDLED;
	report_comm(r->entry, comm, sizeof comm);
	report_dso(r->entry, dso, sizeof dso);
	report_symbol(r->entry, sym, sizeof sym);
	menu_open(&t->menu, sym);
	menu_add(&t->menu, MENU_ZOOM_PID, r->entry->key.pid == 0, "Zoom into process %d (%s)",
		 r->entry->key.pid, comm);
	menu_add(&t->menu, MENU_ZOOM_TID, r->entry->key.tid == 0,
		 "Zoom into thread %d (its samples from now on)", r->entry->key.tid);
	menu_add(&t->menu, MENU_ZOOM_DSO, r->entry->key.dso == NULL, "Zoom into %s", dso);
	menu_add(&t->menu, MENU_ANNOTATE, true, "Annotate %s (not in this version)", sym);
	menu_add(&t->menu, MENU_PROBE, true, "Probe %s (not in this version)", sym);
	p->sort_menu = false;
	return REACT_HANDLED | REACT_REDRAW;
}

/* Open the sort column chooser. */
static int
top_sort_menu(struct top *p, struct tui *t)
{
	menu_open(&t->menu, "Sort by");
	for (size_t i = 0; i < p->ncols; i++)
		if (p->cols[i].sortable && p->cols[i].title[0] != '\0')
			menu_add(&t->menu, MENU_SORT + (int)i, false, "%s", p->cols[i].title);
	p->sort_menu = true;
	return REACT_HANDLED | REACT_REDRAW;
}

/* Open the search or filter prompt. */
static int
top_open_prompt(struct top *p, struct tui *t, enum top_prompt kind)
{
	p->prompt = kind;
	t->prompt_owner = (int)t->cur;
	if (kind == PROMPT_FOR_SEARCH)
		prompt_open(&t->prompt, "Search: ", "");
	else
		prompt_open(&t->prompt, "Filter: ", p->table.filter);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Toggle hiding kernel or user rows. */
static int
top_toggle_hide(struct tui *t, bool kernel)
{
	bool *flag = kernel ? &t->hide_kernel : &t->hide_user;

	*flag = !*flag;
	tui_status(t, false, "%s symbols %s", kernel ? "kernel" : "user",
		   *flag ? "hidden" : "shown");
	tui_snapshot(t);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Act on an action. */
static int
top_action(void *pp, struct tui *t, enum action a)
{
	struct top *p = pp;

	switch (a) {
	case ACT_SEARCH:
		return top_open_prompt(p, t, PROMPT_FOR_SEARCH);
	case ACT_FILTER:
		return top_open_prompt(p, t, PROMPT_FOR_FILTER);
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		if (p->table.search[0] == '\0')
			tui_status(t, false, "no search yet: press / or F3");
		else if (!table_search_next(&p->table, a == ACT_SEARCH_NEXT ? 1 : -1))
			tui_status(t, true, "no match for '%s'", p->table.search);
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_CLOSE:
		if (p->table.filter[0] != '\0') {
			table_set_filter(&p->table, "");
			return REACT_HANDLED | REACT_REDRAW;
		}
		return top_unzoom(t);
	case ACT_BACK:
		return top_unzoom(t);
	case ACT_SORT_MENU:
		return top_sort_menu(p, t);
	case ACT_ENTER:
		return top_row_menu(p, t);
	case ACT_HIDE_KERNEL:
	case ACT_HIDE_USER:
		return top_toggle_hide(t, a == ACT_HIDE_KERNEL);
	default:
		return table_action(&p->table, a);
	}
}

/* Clicks select and sort; the wheel scrolls. */
static int
top_mouse(void *pp, struct tui *t, int y, int x, unsigned long bstate)
{
	struct top *p = pp;

	(void)t;
	if (bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		return table_click(&p->table, y, x);
	if (bstate & BUTTON4_PRESSED)
		table_scroll(&p->table, -3);
#ifdef BUTTON5_PRESSED
	else if (bstate & BUTTON5_PRESSED)
		table_scroll(&p->table, 3);
#endif
	else
		return REACT_IGNORED;
	return REACT_HANDLED | REACT_REDRAW;
}

/* The search or filter text changed, was accepted or cancelled. */
static int
top_prompt(void *pp, struct tui *t, int result)
{
	struct top *p = pp;
	const char *text = t->prompt.text;

	if (p->prompt == PROMPT_FOR_FILTER) {
		if (result == PROMPT_CANCEL)
			table_set_filter(&p->table, "");
		else if (result == PROMPT_CHANGED || result == PROMPT_DONE)
			table_set_filter(&p->table, text);
		return REACT_REDRAW;
	}
	if (result == PROMPT_CHANGED && text[0] != '\0' && !table_search(&p->table, text))
		tui_status(t, true, "no match for '%s'", p->table.search);
	return REACT_REDRAW;
}

/* A menu item was chosen. */
static int
top_menu(void *pp, struct tui *t, int id)
{
	struct top *p = pp;
	const struct hist_row *r = table_selected(&p->table);

	if (p->sort_menu) {
		size_t col = (size_t)(id - MENU_SORT);

		table_sort_by(&p->table, col, p->cols[col].right);
		return REACT_REDRAW;
	}
	if (r == NULL)
		return REACT_REDRAW;
	switch (id) {
	case MENU_ZOOM_PID:
		t->zoom.pid = r->entry->key.pid;
		break;
	case MENU_ZOOM_TID:
		t->zoom.tid = r->entry->key.tid;
		t->zoom.pid = r->entry->key.pid;
		engine_zoom_thread(t->engine, t->zoom.tid);
		break;
	case MENU_ZOOM_DSO:
		t->zoom.dso = r->entry->key.dso;
		break;
	default:
		return REACT_REDRAW;
	}
	tui_snapshot(t);
	return REACT_REDRAW;
}

const struct pane_ops pane_top = {
	.name = "Top",
	.scope = SCOPE_TOP,
	.init = top_init,
	.free = top_free,
	.update = top_update,
	.draw = top_draw,
	.action = top_action,
	.mouse = top_mouse,
	.prompt = top_prompt,
	.menu = top_menu,
};
