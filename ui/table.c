/* table: the one sortable, filterable, searchable, scrollable list widget.
 *
 * Layout (ui/tablecols.c): columns drop by priority, bars shrink before
 * names do, fit columns are as wide as their text on screen, the flexible
 * column takes the rest. Columns are one blank apart and nothing is ever
 * written past the area. A spanning row (a call-tree line) draws one text
 * from a column to the end of the line. Right and Left shift the flexible
 * column's text (and spanning text); i opens a popup with the selected
 * row's whole text (ui/tabledetail.c); F3 searches (ui/tablesearch.c).
 *
 * Bar columns draw "49.8% ████      ": the text right- (or left-) aligned in
 * a field as wide as the widest text on screen, a blank, then
 * floor(value / 100 * glyphs) bar glyphs where glyphs is how many fit in
 * the rest of the column. Keeping the text field the same on every row
 * lines the bars up. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tracetop/util.h"
#include "ui/table-impl.h"
#include "ui/tabledetail.h"
#include "ui/wtext.h"

/* The row's identity (its address when the pane gives none). */
static uintptr_t
table_row_id(const struct table *t, const void *row)
{
	return t->ops->row_id ? t->ops->row_id(row, t->ctx) : (uintptr_t)row;
}

/* Data rows per page: the last draw's height, at least one. */
static size_t
table_page(const struct table *t)
{
	return t->height > 0 ? (size_t)t->height : 1;
}

/* Scroll as little as possible to show the selection, and leave no blank
 * lines at the bottom while rows are hidden above the top. */
static void
table_keep_visible(struct table *t)
{
	size_t page = table_page(t);

	if (t->nrows == 0) {
		t->sel = 0;
		t->top = 0;
		return;
	}
	if (t->sel >= t->nrows)
		t->sel = t->nrows - 1;
	if (t->top + page > t->nrows)
		t->top = t->nrows > page ? t->nrows - page : 0;
	if (t->sel < t->top)
		t->top = t->sel;
	else if (t->sel >= t->top + page)
		t->top = t->sel - page + 1;
}

/* Select row i (the user chose it): the selection now follows its id. */
void
table_select(struct table *t, size_t i)
{
	if (t->nrows == 0)
		return;
	t->sel = i < t->nrows ? i : t->nrows - 1;
	t->sel_id = table_row_id(t, t->rows[t->sel]);
	t->have_sel = true;
	table_keep_visible(t);
}

/* Move the selection by delta rows and the view by scroll rows, clamped. */
static void
table_move(struct table *t, long delta, long scroll)
{
	long sel, top;

	if (t->nrows == 0)
		return;
	sel = (long)t->sel + delta;
	top = (long)t->top + scroll;
	if (sel < 0)
		sel = 0;
	if (top < 0)
		top = 0;
	t->top = (size_t)top;
	table_select(t, (size_t)sel);
}

/* Grow a row-pointer array to hold n (doubling, so refreshes stop
 * allocating once the sizes settle). */
static void
grow(const void ***arr, size_t *cap, size_t n)
{
	size_t c;

	if (n <= *cap)
		return;
	c = *cap ? *cap : 64;
	while (c < n)
		c *= 2;
	*arr = xrealloc(*arr, c * sizeof(**arr));
	*cap = c;
}

/* Copy text into a TABLE_TEXT_MAX buffer, never cutting a UTF-8 sequence. */
void
table_copy_text(char *dst, const char *src)
{
	size_t n = strlen(src);

	if (n >= TABLE_TEXT_MAX) {
		n = TABLE_TEXT_MAX - 1;
		while (n > 0 && ((unsigned char)src[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Does the row pass the filter ("" all, "!text" the rows not matching)? */
static bool
table_passes(const struct table *t, const void *row)
{
	const char *f = t->filter;
	bool negate = false;

	if (*f == '!') {
		negate = true;
		f++;
	}
	if (*f == '\0' || t->ops->match == NULL)
		return true;
	return t->ops->match(row, f, t->ctx) != negate;
}

/* Order of two rows in the current sort column and direction. */
static int
table_cmp(const struct table *t, const void *a, const void *b)
{
	int c = t->ops->compare(a, b, t->sort_col, t->ctx);

	return t->descending ? CMP3(0, c) : c;
}

/* Stable merge sort of a[0..n) using tmp (n / 2 entries) as scratch. */
static void
merge_sort(const struct table *t, const void **a, const void **tmp, size_t n)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(t, a, tmp, mid);
	merge_sort(t, a + mid, tmp, n - mid);
	if (table_cmp(t, a[mid - 1], a[mid]) <= 0)
		return;
	memcpy(tmp, a, mid * sizeof(*a));
	/* Take from the right only when strictly smaller: equal rows keep
	 * their order. */
	while (i < mid && j < n)
		a[k++] = table_cmp(t, a[j], tmp[i]) < 0 ? a[j++] : tmp[i++];
	while (i < mid)
		a[k++] = tmp[i++];
}

/* Is a row with this id among the rows given (perhaps filtered out)? */
static bool
table_has_id(const struct table *t, uintptr_t id)
{
	for (size_t i = 0; i < t->nall; i++)
		if (table_row_id(t, t->all[i]) == id)
			return true;
	return false;
}

/* Put the selection back on the row it was on, or at the same position
 * when that row is not shown. A row hidden by the filter keeps its claim,
 * so clearing the filter brings the selection back to it. */
static void
table_restore_sel(struct table *t, size_t old)
{
	if (t->nrows == 0) {
		table_keep_visible(t);
		return;
	}
	if (t->have_sel) {
		for (size_t i = 0; i < t->nrows; i++) {
			if (table_row_id(t, t->rows[i]) == t->sel_id) {
				t->sel = i;
				table_keep_visible(t);
				return;
			}
		}
	}
	t->sel = old < t->nrows ? old : t->nrows - 1;
	if (t->have_sel && !table_has_id(t, t->sel_id))
		t->sel_id = table_row_id(t, t->rows[t->sel]);
	table_keep_visible(t);
}

/* Re-apply filter and sort to the current rows. */
void
table_refresh(struct table *t)
{
	size_t old = t->sel;
	bool at_end = t->follow && (t->nrows == 0 || t->sel + 1 >= t->nrows);

	grow(&t->rows, &t->caprows, t->nall);
	grow(&t->tmp, &t->captmp, t->nall / 2 + 1);
	t->nrows = 0;
	for (size_t i = 0; i < t->nall; i++)
		if (table_passes(t, t->all[i]))
			t->rows[t->nrows++] = t->all[i];
	if (t->ops->compare != NULL && t->sort_col < t->ncols)
		merge_sort(t, t->rows, t->tmp, t->nrows);
	if (at_end && t->nrows > 0)
		table_select(t, t->nrows - 1); /* a stream's tail: keep following it */
	else
		table_restore_sel(t, old);
}

/* Replace the rows (a new snapshot); the selection follows its row. */
void
table_set_rows(struct table *t, const void *const *rows, size_t n)
{
	grow(&t->all, &t->capall, n);
	if (n > 0)
		memcpy(t->all, rows, n * sizeof(*rows));
	t->nall = n;
	table_refresh(t);
}

/* The direction a column starts in: numbers biggest first, text A to Z. */
static bool
default_descending(const struct table_col *c)
{
	return c->right;
}

/* Set up an empty table over a column table and the pane's ops. */
void
table_init(struct table *t, const struct table_col *cols, size_t ncols, const struct table_ops *ops,
           void *ctx)
{
	if (ncols > TABLE_MAX_COLS)
		fatal("table: %zu columns, at most %d", ncols, TABLE_MAX_COLS);
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->ncols = ncols;
	t->ops = ops;
	t->ctx = ctx;
	for (size_t i = 0; i < TABLE_MAX_COLS; i++)
		t->col_x[i] = -1;
	for (size_t i = 0; i < ncols; i++) {
		if (cols[i].sortable) {
			t->sort_col = i;
			t->descending = default_descending(&cols[i]);
			break;
		}
	}
}

/* A new column count; the rows are sorted again when next set. */
void
table_set_columns(struct table *t, size_t ncols, size_t sort_col)
{
	if (ncols > TABLE_MAX_COLS)
		fatal("table: %zu columns, at most %d", ncols, TABLE_MAX_COLS);
	t->ncols = ncols;
	t->sort_col = sort_col < ncols ? sort_col : 0;
	for (size_t i = 0; i < TABLE_MAX_COLS; i++) {
		t->col_x[i] = -1;
		t->fit_seen[i] = 0;
	}
}

/* Free the table's arrays (not the rows: the pane owns them). */
void
table_free(struct table *t)
{
	free(t->all);
	free(t->rows);
	free(t->tmp);
	t->all = t->rows = t->tmp = NULL;
	t->nall = t->capall = t->nrows = t->caprows = t->captmp = 0;
}

/* Format one cell into buf (empty when the pane writes nothing). */
void
table_cell(const struct table *t, const void *row, size_t col, char *buf)
{
	buf[0] = '\0';
	t->ops->cell(row, col, buf, TABLE_CELL_MAX, t->ctx);
	buf[TABLE_CELL_MAX - 1] = '\0';
}

/* Is row drawn as one text across the line? Its cell's column in *col,
 * the first column it covers in *from. */
static bool
table_span(const struct table *t, const void *row, size_t *col, size_t *from)
{
	size_t c = SIZE_MAX, f = SIZE_MAX;

	if (t->ops->span == NULL || !t->ops->span(row, &c, &f, t->ctx) || c >= t->ncols ||
	    f >= t->ncols)
		return false;
	*col = c;
	*from = f;
	return true;
}

/* The screen x where a span from column from starts (the first shown
 * column at or after it), or -1. */
static int
span_x(const struct table *t, size_t from)
{
	for (size_t i = from; i < t->ncols; i++)
		if (t->col_x[i] >= 0)
			return t->col_x[i];
	return -1;
}

/* The widest text of each fit column (title included) over the rows that
 * will show, for the layout. */
static void
fit_widths(struct table *t, int *text)
{
	char buf[TABLE_CELL_MAX];
	struct wtext wt;

	for (size_t i = 0; i < t->ncols; i++) {
		text[i] = t->cols[i].width;
		if (!(t->cols[i].fit || t->cols[i].bar) || t->cols[i].hidden)
			continue;
		wtext_set(&wt, t->cols[i].title ? t->cols[i].title : "");
		/* the title whole, with room for the sort marker */
		text[i] = wt.width + (t->cols[i].bar || t->cols[i].sortable ? 1 : 0);
		if (t->cols[i].bar)
			continue;
		for (int k = 0; k < t->height && t->top + (size_t)k < t->nrows; k++) {
			const void *row = t->rows[t->top + (size_t)k];
			size_t sc, sf;

			if (table_span(t, row, &sc, &sf) && i >= sf)
				continue; /* a spanning row has no cell there */
			table_cell(t, row, i, buf);
			wtext_set(&wt, buf);
			if (wt.width > text[i])
				text[i] = wt.width;
		}
		/* never narrower than it was: a scrolling stream's columns
		 * stay put */
		if (text[i] < t->fit_seen[i])
			text[i] = t->fit_seen[i];
		t->fit_seen[i] = text[i];
	}
}

/* Decide which columns show in w cells from x, and where. */
static void
table_layout(struct table *t, int x, int w)
{
	int text[TABLE_MAX_COLS];

	fit_widths(t, text);
	tablecols_layout(t->cols, t->ncols, text, w, t->col_x, t->col_w);
	for (size_t i = 0; i < t->ncols; i++)
		if (t->col_x[i] >= 0)
			t->col_x[i] += x;
}

/* The flexible column (the one the horizontal scroll shifts), or
 * SIZE_MAX when none is shown. */
static size_t
table_flex(const struct table *t)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (t->cols[i].flex && t->col_x[i] >= 0)
			return i;
	return SIZE_MAX;
}

/* How far the horizontal scroll can go: the most any row on screen has
 * of the flexible column's (or its spanning) text past its width. */
static void
table_hlimit(struct table *t, int x, int w)
{
	size_t flex = table_flex(t);
	char buf[TABLE_CELL_MAX];
	struct wtext wt;

	t->hmax = 0;
	for (int k = 0; k < t->height && t->top + (size_t)k < t->nrows; k++) {
		const void *row = t->rows[t->top + (size_t)k];
		size_t col = flex, from;
		int room = flex != SIZE_MAX ? t->col_w[flex] : 0;

		if (table_span(t, row, &col, &from) && span_x(t, from) >= 0)
			room = x + w - span_x(t, from);
		else if (flex == SIZE_MAX)
			continue;
		table_cell(t, row, col, buf);
		wtext_set(&wt, buf);
		if (wt.more)
			wt.width += WTEXT_MAX; /* more than kept: let it scroll on */
		if (wt.width - room > t->hmax)
			t->hmax = wt.width - room;
	}
	if (t->hscroll > t->hmax)
		t->hscroll = t->hmax;
}

/* The filter's label for the title line, when one is set, fitted to at
 * most half of w: its width (0 without a filter). */
static int
filter_label(const struct table *t, struct pen *p, int w, struct wtext *wt)
{
	char label[TABLE_TEXT_MAX + 16];

	if (t->filter[0] == '\0')
		return 0;
	snprintf(label, sizeof label, " Filter: %s ", t->filter);
	wtext_set(wt, label);
	wtext_fit(wt, w / 2 > 1 ? w / 2 : 1, &p->ell);
	return wt->width;
}

/* The title line: titles in TH_TITLE across the width, the sort column's
 * in TH_TITLE_SORTED with a direction marker that is never cut off (after
 * a left-aligned title, before a right-aligned one so the text still lines
 * up with the numbers below); a scrolled column says how far; then the
 * filter at the right end, the titles it would cover cut before it. */
static void
draw_titles(struct table *t, struct pen *p, int y, int x, int w)
{
	const attr_t *attr = p->th->attr;
	size_t flex = table_flex(t);
	struct wtext filter;
	int fw = filter_label(t, p, w, &filter), end = x + w - fw;

	pen_blank(p, y, x, w, attr[TH_TITLE]);
	for (size_t i = 0; i < t->ncols; i++) {
		const struct table_col *c = &t->cols[i];
		const struct wtext *mark = t->descending ? &p->down : &p->up;
		int cw = t->col_w[i];
		char title[96];
		struct wtext wt, both;

		if (t->col_x[i] < 0)
			continue;
		/* a title the filter would cover is cut before it instead */
		if (fw > 0 && t->col_x[i] + cw > end)
			cw = end - t->col_x[i];
		if (cw <= 0)
			continue;
		snprintf(title, sizeof title, "%s", c->title ? c->title : "");
		if (i == flex && t->hscroll > 0)
			snprintf(title, sizeof title, "%s [+%d]", c->title ? c->title : "",
			         t->hscroll);
		wtext_set(&wt, title);
		if (i != t->sort_col) {
			wtext_fit(&wt, cw, &p->ell);
			pen_text(p, y, t->col_x[i], cw, &wt, c->right, attr[TH_TITLE]);
			continue;
		}
		wtext_fit(&wt, cw - mark->width, &p->ell);
		both = c->right ? *mark : wt;
		wtext_append(&both, c->right ? &wt : mark);
		wtext_fit(&both, cw, &p->ell);
		pen_text(p, y, t->col_x[i], cw, &both, c->right, attr[TH_TITLE_SORTED]);
	}
	if (fw > 0)
		pen_text(p, y, end, fw, &filter, false, attr[TH_TITLE_SORTED]);
}

/* For each bar column on screen, the width of its text field (the widest
 * text among the rows shown), or -1 when no bar fits beside the text. */
static void
bar_fields(const struct table *t, const struct pen *p, int rows, int *field)
{
	char buf[TABLE_CELL_MAX];
	struct wtext wt;

	for (size_t i = 0; i < t->ncols; i++) {
		int f = 0;

		field[i] = -1;
		if (!t->cols[i].bar || t->col_x[i] < 0 || t->ops->bar_value == NULL)
			continue;
		for (int k = 0; k < rows && t->top + (size_t)k < t->nrows; k++) {
			table_cell(t, t->rows[t->top + (size_t)k], i, buf);
			wtext_set(&wt, buf);
			if (wt.width > f)
				f = wt.width;
		}
		if (f + 1 + p->glyph.width <= t->col_w[i])
			field[i] = f;
	}
}

/* A bar cell: the text in its field, a blank, then the bar glyphs. The
 * line was blanked in the row's attribute before. */
static void
draw_bar(const struct table *t, struct pen *p, const void *row, size_t i, int y, int field,
         struct wtext *wt, attr_t a, attr_t bar)
{
	const struct table_col *c = &t->cols[i];
	int x = t->col_x[i];
	int gw = p->glyph.width > 0 ? p->glyph.width : 1;
	int max = (t->col_w[i] - field - 1) / gw;
	double v = t->ops->bar_value(row, i, t->ctx);
	int n;

	wtext_fit(wt, field, &p->ell);
	pen_text(p, y, x, field, wt, c->right, a);
	if (!(v > 0)) /* also NaN */
		v = 0;
	n = v >= 100 ? max : (int)floor(v / 100 * max);
	pen_attr(p, bar);
	for (int k = 0; k < n; k++)
		mvwaddnwstr(p->win, y, x + field + 1 + k * gw, p->glyph.s, p->glyph.n);
}

/* One data row: blank the line in the row's attribute, then each cell (a
 * spanning row: its cells before the span, then its text to the end). */
static void
draw_row(struct table *t, struct pen *p, size_t r, int y, int x, int w, const int *field)
{
	const void *row = t->rows[r];
	const attr_t *attr = p->th->attr;
	bool selected = r == t->sel;
	attr_t base = attr[selected ? TH_SELECTED : TH_NORMAL];
	size_t flex = table_flex(t), scol = SIZE_MAX, sfrom = SIZE_MAX;
	char buf[TABLE_CELL_MAX];
	struct wtext wt;

	if (table_span(t, row, &scol, &sfrom) && span_x(t, sfrom) < 0)
		sfrom = SIZE_MAX; /* nothing shown from there: cell by cell */
	pen_blank(p, y, x, w, base);
	for (size_t i = 0; i < t->ncols; i++) {
		bool spans = i == sfrom;
		int cx = spans ? span_x(t, sfrom) : t->col_x[i];
		int cw = spans ? x + w - cx : t->col_w[i];
		attr_t a = base;

		if (t->col_x[i] < 0 && !spans)
			continue;
		if (i > sfrom && sfrom != SIZE_MAX)
			break;
		table_cell(t, row, spans ? scol : i, buf);
		wtext_set(&wt, buf);
		if (!selected && t->ops->cell_attr != NULL) {
			attr_t extra = t->ops->cell_attr(row, spans ? scol : i, p->th, t->ctx);

			if (extra != 0)
				a = extra;
		}
		if (!spans && field[i] >= 0) {
			draw_bar(t, p, row, i, y, field[i], &wt, a, selected ? base : attr[TH_BAR]);
			continue;
		}
		if (spans || i == flex)
			wtext_skip(&wt, t->hscroll, &p->ell);
		wtext_fit(&wt, cw, &p->ell);
		pen_text(p, y, cx, cw, &wt, !spans && t->cols[i].right, a);
	}
}

/* Draw the title line and rows into win at (y, x), h lines by w columns,
 * and the detail popup over them when it is open. */
void
table_draw(struct table *t, WINDOW *win, int y, int x, int h, int w, const struct theme *th)
{
	int field[TABLE_MAX_COLS];
	struct pen p;

	t->y0 = y;
	t->x0 = x;
	t->width = w > 0 && h > 0 ? w : 0;
	t->height = w > 0 && h > 1 ? h - 1 : 0;
	if (t->width == 0) {
		for (size_t i = 0; i < TABLE_MAX_COLS; i++)
			t->col_x[i] = -1;
		return;
	}
	pen_init(&p, win, th);
	table_keep_visible(t);
	table_layout(t, x, w);
	table_hlimit(t, x, w);
	draw_titles(t, &p, y, x, w);
	bar_fields(t, &p, t->height, field);
	for (int k = 0; k < t->height; k++) {
		size_t r = t->top + (size_t)k;

		if (r < t->nrows)
			draw_row(t, &p, r, y + 1 + k, x, w, field);
		else
			pen_blank(&p, y + 1 + k, x, w, th->attr[TH_NORMAL]);
	}
	if (t->detail)
		tabledetail_draw(t, &p);
	pen_attr(&p, A_NORMAL);
}

/* Sort by the next (dir 1) or previous (-1) sortable column. */
static void
table_sort_step(struct table *t, int dir)
{
	size_t n = t->ncols, c = t->sort_col;

	for (size_t k = 1; k < n; k++) {
		c = (c + (dir > 0 ? 1 : n - 1)) % n;
		if (t->cols[c].sortable && !t->cols[c].hidden) {
			table_sort_by(t, c, default_descending(&t->cols[c]));
			return;
		}
	}
}

/* Shift the flexible column's text by half its width right (dir 1) or
 * left (-1); left at its start is not the table's (Left backs out of a
 * zoom then). */
static int
table_hscroll(struct table *t, int dir)
{
	size_t flex = table_flex(t);
	int step = flex != SIZE_MAX && t->col_w[flex] > 16 ? t->col_w[flex] / 2 : 8;

	if (dir < 0 && t->hscroll == 0)
		return REACT_IGNORED;
	if (dir > 0 && t->hscroll >= t->hmax)
		return REACT_HANDLED; /* nothing more to see */
	t->hscroll += dir * step;
	if (t->hscroll > t->hmax)
		t->hscroll = t->hmax;
	if (t->hscroll < 0)
		t->hscroll = 0;
	return REACT_HANDLED | REACT_REDRAW;
}

/* Navigation, sorting, horizontal scroll and the detail popup;
 * REACT_IGNORED if not a table action. */
int
table_action(struct table *t, enum action a)
{
	long page = (long)table_page(t);

	switch (a) {
	case ACT_UP:
		table_move(t, -1, 0);
		break;
	case ACT_DOWN:
		table_move(t, 1, 0);
		break;
	case ACT_PAGE_UP:
		table_move(t, -page, -page);
		break;
	case ACT_PAGE_DOWN:
		table_move(t, page, page);
		break;
	case ACT_HOME:
		table_select(t, 0);
		break;
	case ACT_END:
		table_select(t, t->nrows ? t->nrows - 1 : 0);
		break;
	case ACT_SORT_NEXT:
		table_sort_step(t, 1);
		break;
	case ACT_SORT_PREV:
		table_sort_step(t, -1);
		break;
	case ACT_SORT_INVERT:
		table_sort_by(t, t->sort_col, !t->descending);
		break;
	case ACT_RIGHT:
	case ACT_BACK:
		return table_hscroll(t, a == ACT_RIGHT ? 1 : -1);
	case ACT_DETAIL:
		t->detail = !t->detail;
		break;
	case ACT_CLOSE:
		if (!t->detail)
			return REACT_IGNORED;
		t->detail = false;
		break;
	default:
		return REACT_IGNORED;
	}
	return REACT_HANDLED | REACT_REDRAW;
}

/* Sort by column col in the given direction; the selection keeps its row. */
void
table_sort_by(struct table *t, size_t col, bool descending)
{
	if (col >= t->ncols)
		return;
	t->sort_col = col;
	t->descending = descending;
	table_refresh(t);
}

/* Set the filter text ("" clears) and re-filter now. */
void
table_set_filter(struct table *t, const char *text)
{
	table_copy_text(t->filter, text ? text : "");
	table_refresh(t);
}

/* A click on the title line sorts by that column (again: inverts); a
 * click on a row selects it. */
int
table_click(struct table *t, int y, int x)
{
	size_t r;

	if (t->width <= 0 || x < t->x0 || x >= t->x0 + t->width || y < t->y0 ||
	    y > t->y0 + t->height)
		return REACT_IGNORED;
	if (y == t->y0) {
		for (size_t i = 0; i < t->ncols; i++) {
			if (t->col_x[i] < 0 || x < t->col_x[i] || x >= t->col_x[i] + t->col_w[i])
				continue;
			if (!t->cols[i].sortable)
				break;
			if (i == t->sort_col)
				table_sort_by(t, i, !t->descending);
			else
				table_sort_by(t, i, default_descending(&t->cols[i]));
			return REACT_HANDLED | REACT_REDRAW;
		}
		return REACT_HANDLED;
	}
	r = t->top + (size_t)(y - t->y0 - 1);
	if (r >= t->nrows)
		return REACT_HANDLED;
	table_select(t, r);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Mouse wheel: move the view and the selection by lines. */
void
table_scroll(struct table *t, int lines)
{
	table_move(t, lines, lines);
}

/* The selected row, or NULL when nothing is shown. */
const void *
table_selected(const struct table *t)
{
	return t->nrows > 0 && t->sel < t->nrows ? t->rows[t->sel] : NULL;
}
