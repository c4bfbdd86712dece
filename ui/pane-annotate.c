/* pane-annotate: a hot function's instructions with the share of its
 * samples each took, source lines interleaved, in the shared table (in the
 * function's own order: no sorting). Opened from the Top pane; the hottest
 * instruction is selected at first; H and Shift-H (J) cycle the hot
 * lines, Enter follows a jump (within the function) or a call (into its
 * target, which Backspace leaves again), S, A and P toggle source lines,
 * addresses and percent vs sample counts. Percentages follow every refresh. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/annotate.h"
#include "tracetop/util.h"
#include "ui/listpane.h"
#include "ui/tui.h"

#define ANNOT_BACK_MAX 16 /* calls followed that Backspace can return from */

enum annot_col { ACOL_SHARE, ACOL_ADDR, ACOL_TEXT, ACOL_COUNT };

static const struct table_col annot_cols[ACOL_COUNT] = {
    [ACOL_SHARE] = {.title = "Percent",
                    .width = 16,
                    .min_width = 7,
                    .priority = 9,
                    .right = true,
                    .bar = true},
    [ACOL_ADDR] = {.title = "Address", .width = 10, .min_width = 6, .priority = 3, .right = true},
    [ACOL_TEXT] = {.title = "Instruction / source",
                   .width = 20,
                   .min_width = 10,
                   .priority = 8,
                   .flex = true},
};

/* A function we came from, to go back to. */
struct annot_back {
	struct dso *dso;
	const struct sym *sym;
	bool kernel;
	uint64_t addr; /* the line that was selected */
};

/* Whose samples: a Top row's (mask: HIST_GROUP_* of who), kept when a
 * call is followed (the callee's samples from the same row). */
struct annot_row {
	unsigned mask;
	struct addrhist_who who;
};

struct annot {
	struct listpane list; /* first: the listpane_pane_* ops take the pane as it */
	struct annotation *a;
	const struct annotate_line **ptrs; /* the lines shown */
	size_t cap;
	bool hide_source, hide_addr, counts; /* the toggles */
	struct annot_back back[ANNOT_BACK_MAX];
	size_t nback;
	struct annot_row row;
	/* select the hottest line once there is one (a row's samples start
	 * when it is opened), unless a key came first */
	bool select_hot;
	char title[64];
	struct table_col cols[ACOL_COUNT];
	char error[sizeof(struct tt_err)]; /* why the last open failed */
};

/* Cell text. */
static void
annot_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct annotate_line *l = row;
	const struct annot *p = ctx;
	char text[512];
	size_t n;

	buf[0] = '\0';
	if (col > ACOL_SHARE && p->hide_addr)
		col++; /* the table's columns skip Address */
	switch ((enum annot_col)col) {
	case ACOL_SHARE:
		if (l->kind == ANNOTATE_INSN && l->samples > 0 && p->counts)
			snprintf(buf, len, "%llu", (unsigned long long)l->samples);
		else if (l->kind == ANNOTATE_INSN && l->samples > 0)
			snprintf(buf, len, "%6.2f%%", l->percent);
		break;
	case ACOL_ADDR:
		if (l->kind == ANNOTATE_INSN)
			snprintf(buf, len, "%llx", (unsigned long long)l->addr);
		break;
	case ACOL_TEXT:
		n = str_escape(text, sizeof text, l->text ? l->text : "",
		               l->text ? strlen(l->text) : 0);
		if (l->kind == ANNOTATE_INSN && l->target_name != NULL && n + 4 < sizeof text) {
			memcpy(text + n, "  <", 4);
			str_escape(text + n + 3, sizeof text - n - 3, l->target_name,
			           strlen(l->target_name));
			n = strlen(text);
			if (n + 2 < sizeof text)
				memcpy(text + n, ">", 2);
		}
		snprintf(buf, len, l->kind == ANNOTATE_SOURCE ? "%s" : "  %s", text);
		break;
	case ACOL_COUNT:
		break;
	}
}

/* The bar: the instruction's share of the function's samples. */
static double
annot_bar(const void *row, size_t col, void *ctx)
{
	const struct annotate_line *l = row;

	(void)col;
	(void)ctx;
	return l->kind == ANNOTATE_INSN ? l->percent : 0;
}

/* A line's identity: its address and kind (a source line shares the
 * address of the instruction under it). */
static uintptr_t
annot_row_id(const void *row, void *ctx)
{
	const struct annotate_line *l = row;

	(void)ctx;
	return (uintptr_t)(l->addr << 1 | (l->kind == ANNOTATE_SOURCE)) + 1;
}

/* Search and filter over the line's text. */
static bool
annot_match(const void *row, const char *text, void *ctx)
{
	const struct annotate_line *l = row;

	(void)ctx;
	return l->text != NULL && strcasestr(l->text, text) != NULL;
}

/* Source lines dimmed; the hottest instruction stands out. */
static attr_t
annot_cell_attr(const void *row, size_t col, const struct theme *th, void *ctx)
{
	const struct annotate_line *l = row;
	const struct annot *p = ctx;

	(void)col;
	if (l->kind == ANNOTATE_SOURCE)
		return th->attr[TH_DIM];
	if (p->a != NULL && p->a->hottest >= 0 && l == &p->a->lines[p->a->hottest])
		return th->attr[TH_HEADER_WARN] | A_BOLD;
	return 0;
}

static const struct table_ops annot_table_ops = {
    .cell = annot_cell,
    .bar_value = annot_bar,
    .row_id = annot_row_id,
    .match = annot_match,
    .cell_attr = annot_cell_attr,
};

/* Set the columns for the toggles (addresses shown or not, percent or
 * samples) and (re)start the table. */
static void
annot_columns(struct annot *p)
{
	size_t n = 0;

	table_free(&p->list.table);
	p->cols[n] = annot_cols[ACOL_SHARE];
	if (p->counts) {
		p->cols[n].title = "Samples";
		p->cols[n].bar = false;
		p->cols[n].width = 9;
	}
	n++;
	if (!p->hide_addr)
		p->cols[n++] = annot_cols[ACOL_ADDR];
	p->cols[n++] = annot_cols[ACOL_TEXT];
	table_init(&p->list.table, p->cols, n, &annot_table_ops, p);
}

/* Create the pane (empty until a function is opened). */
static void *
annot_init(struct tui *t)
{
	struct annot *p = xcalloc(1, sizeof *p);

	(void)t;
	table_init(&p->list.table, annot_cols, ACOL_COUNT, &annot_table_ops, p);
	return p;
}

/* Free the pane. */
static void
annot_free(void *pp)
{
	struct annot *p = pp;

	table_free(&p->list.table);
	annotate_free(p->a);
	free(p->ptrs);
	free(p);
}

/* Hand the lines (source ones unless hidden) to the table. */
static void
annot_rows(struct annot *p)
{
	size_t n = 0;

	if (p->a == NULL) {
		table_set_rows(&p->list.table, NULL, 0);
		return;
	}
	if (p->cap < p->a->nlines) {
		p->cap = p->a->nlines;
		p->ptrs = xrealloc(p->ptrs, p->cap * sizeof *p->ptrs);
	}
	for (size_t i = 0; i < p->a->nlines; i++)
		if (!(p->hide_source && p->a->lines[i].kind == ANNOTATE_SOURCE))
			p->ptrs[n++] = &p->a->lines[i];
	table_set_rows(&p->list.table, (const void *const *)p->ptrs, n);
}

/* Select line i of the annotation (if shown). */
static void
annot_select(struct annot *p, ssize_t i)
{
	if (p->a == NULL || i < 0 || (size_t)i >= p->a->nlines)
		return;
	p->list.table.sel_id = annot_row_id(&p->a->lines[i], p);
	p->list.table.have_sel = true;
	annot_rows(p);
}

/* A refresh: the samples of the shown event. */
static void
annot_update(void *pp, struct tui *t, const struct frame *f)
{
	struct annot *p = pp;

	if (p->a == NULL)
		return;
	annotate_update(p->a,
	                frame_annot(f, t->event, p->a->dso, p->a->sym, p->row.mask, &p->row.who));
	annot_rows(p);
	if (p->select_hot && p->a->hottest >= 0) {
		p->select_hot = false;
		annot_select(p, p->a->hottest);
	}
}

/* Open sym of dso; true on success (else the reason on the status line). */
static bool
annot_open(struct annot *p, struct tui *t, struct dso *dso, const struct sym *sym, bool kernel)
{
	struct tt_err err;
	struct annotation *a = annotate_new(dso, sym, kernel, &err);

	if (a == NULL) {
		tui_status(t, true, "cannot annotate: %s", err.msg);
		return false;
	}
	annotate_free(p->a);
	p->a = a;
	annotate_set_row(a, p->row.mask, &p->row.who);
	/* the samples from now on whatever its rank, into a frame taken now
	 * (annot_update reads it): the function's so far (kept for the
	 * hottest ones), or the row's from now on */
	if (t->engine != NULL) /* a replay has the recorded samples */
		engine_addrhist_want(t->engine, dso, sym, kernel, p->row.mask, &p->row.who);
	p->select_hot = true;
	p->list.table.have_sel = false;
	tui_snapshot(t);
	if (p->select_hot && a->hottest >= 0) {
		p->select_hot = false;
		annot_select(p, a->hottest);
	}
	if (a->notice[0] != '\0')
		tui_status(t, false, "%s", a->notice);
	return true;
}

/* Draw the header line (function, object, samples, notice) and the lines. */
static void
annot_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct annot *p = pp;
	char line[1024], sym[160], obj[200], row[200];

	if (h < 2)
		return;
	if (p->a == NULL) {
		listpane_message(win, y + h / 2, x, w,
		                 "Nothing annotated: Enter on a Top row, then Annotate", &t->theme);
		return;
	}
	str_escape(sym, sizeof sym, p->a->symbol, strlen(p->a->symbol));
	str_escape(obj, sizeof obj, p->a->dso_name, strlen(p->a->dso_name));
	str_escape(row, sizeof row, p->a->row, strlen(p->a->row));
	snprintf(line, sizeof line, "%s  %s%s%s  %llu samples (%llu in all)%s%s%s", sym, obj,
	         row[0] ? "  " : "", row, (unsigned long long)p->a->samples,
	         (unsigned long long)p->a->total, p->a->notice[0] ? "  " : "", p->a->notice,
	         p->a->truncated ? "  (cut short)" : "");
	wattrset(win, p->a->notice[0] ? t->theme.attr[TH_HEADER_WARN] : t->theme.attr[TH_TITLE]);
	mvwaddnstr(win, y, x, line, w);
	wattrset(win, A_NORMAL);
	table_draw(&p->list.table, win, y + 1, x, h - 1, w, &t->theme);
}

/* Enter: follow the selected jump (in the function) or call (into its
 * target, remembering where we were). */
static int
annot_follow(struct annot *p, struct tui *t)
{
	const struct annotate_line *l = table_selected(&p->list.table);
	struct annot_back b;

	if (l == NULL || l->kind != ANNOTATE_INSN || !(l->jump || l->call)) {
		tui_status(t, false, "Enter follows a jump or a call");
		return REACT_HANDLED | REACT_REDRAW;
	}
	if (l->target >= 0) {
		annot_select(p, l->target);
		return REACT_HANDLED | REACT_REDRAW;
	}
	if (l->target_sym == NULL || l->target_dso == NULL) {
		tui_status(t, false, "the target is not a function tracetop can annotate");
		return REACT_HANDLED | REACT_REDRAW;
	}
	b = (struct annot_back){p->a->dso, p->a->sym, p->a->kernel, l->addr};
	if (annot_open(p, t, l->target_dso, l->target_sym, b.kernel)) {
		if (p->nback == ANNOT_BACK_MAX)
			memmove(p->back, p->back + 1, --p->nback * sizeof *p->back);
		p->back[p->nback++] = b;
	}
	return REACT_HANDLED | REACT_REDRAW;
}

/* Backspace: back to the function a call was followed from. */
static int
annot_back(struct annot *p, struct tui *t)
{
	struct annot_back b;

	if (p->nback == 0) {
		tui_status(t, false, "no call followed: Backspace returns from one");
		return REACT_HANDLED | REACT_REDRAW;
	}
	b = p->back[--p->nback];
	if (annot_open(p, t, b.dso, b.sym, b.kernel)) {
		p->select_hot = false; /* the line we left stays selected */
		annot_select(p, annotate_line_of(p->a, b.addr));
	}
	return REACT_HANDLED | REACT_REDRAW;
}

/* The line index of a table row. */
static ssize_t
annot_index(const struct annot *p, const struct annotate_line *l)
{
	return l != NULL && p->a != NULL ? l - p->a->lines : -1;
}

/* Act on an action. */
static int
annot_action(void *pp, struct tui *t, enum action a)
{
	struct annot *p = pp;
	ssize_t cur = annot_index(p, table_selected(&p->list.table));

	p->select_hot = false;
	switch (a) {
	case ACT_HOT_NEXT:
	case ACT_HOT_PREV:
		if (p->a == NULL || p->a->hottest < 0)
			tui_status(t, false, "no samples in this function yet");
		else
			annot_select(p, annotate_next_hot(p->a, cur, a == ACT_HOT_NEXT ? 1 : -1));
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_ENTER:
		return annot_follow(p, t);
	case ACT_RETURN:
		return annot_back(p, t);
	case ACT_TOGGLE_SOURCE:
		p->hide_source = !p->hide_source;
		annot_rows(p);
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_TOGGLE_ADDR:
	case ACT_TOGGLE_COUNTS:
		if (a == ACT_TOGGLE_ADDR)
			p->hide_addr = !p->hide_addr;
		else
			p->counts = !p->counts;
		annot_columns(p);
		annot_rows(p);
		annot_select(p, cur);
		return REACT_HANDLED | REACT_REDRAW;
	default:
		return listpane_action(&p->list, t, a);
	}
}

/* From another pane (Top's "annotate"): annotate sym of dso, the samples
 * of the row (mask, who), and show it. */
void
pane_annotate_open(struct tui *t, struct dso *dso, const struct sym *sym, bool kernel,
                   unsigned mask, const struct addrhist_who *who)
{
	struct annot *p = tui_pane_state(t, &pane_annotate);
	struct annot_row was;

	if (p == NULL)
		return;
	was = p->row;
	/* a recording holds the whole function's samples, not a row's */
	p->row = (struct annot_row){.mask = dso->standin ? 0 : mask & ADDRHIST_WHO_FIELDS};
	if (p->row.mask != 0)
		p->row.who = *who;
	if (!annot_open(p, t, dso, sym, kernel)) {
		p->row = was; /* the function shown stays, with its row */
	} else {
		p->nback = 0;
		tui_show_pane(t, &pane_annotate);
	}
}

const struct pane_ops pane_annotate = {
    .name = "Annotate",
    .listpane = true,
    .scope = SCOPE_ANNOTATE,
    .view = VIEW_NONE,
    .reads = PANE_READS_SAMPLING,
    .init = annot_init,
    .free = annot_free,
    .update = annot_update,
    .draw = annot_draw,
    .action = annot_action,
    .mouse = listpane_pane_mouse,
    .prompt = listpane_pane_prompt,
    .menu = NULL,
};
