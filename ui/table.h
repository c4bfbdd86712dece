/* table: the one sortable, filterable, searchable, scrollable list widget
 * that every list pane uses. Rows are opaque pointers owned by the pane;
 * the pane describes its columns and supplies cell text, comparison,
 * matching and a stable row id through an ops struct. The selection follows
 * the same row (by id) across refreshes. */
#ifndef TRACETOP_UI_TABLE_H
#define TRACETOP_UI_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ui/action.h"
#include "ui/curses.h"
#include "ui/tablecols.h"
#include "ui/theme.h"

#define TABLE_TEXT_MAX 64
#define TABLE_CELL_MAX 2048 /* bytes of one cell's text */

struct table_ops {
	/* Cell text, already escaped (may be cut with an ellipsis to fit). */
	void (*cell)(const void *row, size_t col, char *buf, size_t len, void *ctx);
	/* Order of two rows by column col (ascending); the table applies the
	 * direction. */
	int (*compare)(const void *a, const void *b, size_t col, void *ctx);
	/* Percent (0..100) for a bar column. */
	double (*bar_value)(const void *row, size_t col, void *ctx);
	/* Identity that survives refreshes. */
	uintptr_t (*row_id)(const void *row, void *ctx);
	/* Does the row match text (case-insensitive substring over the pane's
	 * searchable columns)? */
	bool (*match)(const void *row, const char *text, void *ctx);
	/* Extra attribute for a cell (e.g. [k] in kernel colour), or 0. */
	attr_t (*cell_attr)(const void *row, size_t col, const struct theme *th, void *ctx);
	/* A row drawn as one text across the line (a call-tree line): true,
	 * with *col the column whose cell is the text and *from the first
	 * column it covers (it runs to the end of the line). NULL or false:
	 * cell by cell. */
	bool (*span)(const void *row, size_t *col, size_t *from, void *ctx);
	/* The row's whole text for the detail popup (i): lines of "Label:
	 * value" separated by '\n', escaped. NULL: each column's title and
	 * cell. */
	void (*detail)(const void *row, char *buf, size_t len, void *ctx);
};

struct table {
	const struct table_col *cols;
	size_t ncols;
	const struct table_ops *ops;
	void *ctx;
	const void **all; /* rows as given */
	size_t nall, capall;
	const void **rows; /* after filter and sort: what is shown */
	size_t nrows, caprows;
	const void **tmp; /* merge sort scratch */
	size_t captmp;
	size_t sel; /* index into rows */
	size_t top; /* first row on screen */
	uintptr_t sel_id;
	bool have_sel;
	size_t sort_col;
	bool descending;
	char filter[TABLE_TEXT_MAX]; /* "" none; leading '!' negates */
	char search[TABLE_TEXT_MAX];
	int height;                /* data rows shown by the last draw */
	int col_x[TABLE_MAX_COLS]; /* screen x of each column, -1 if dropped */
	int col_w[TABLE_MAX_COLS];
	int y0, x0;                   /* where the last draw put the title line */
	int width;                    /* columns drawn by the last draw */
	bool follow;                  /* a selection on the last row stays on the last row */
	int hscroll;                  /* cells the flexible column's text is shifted left by */
	int hmax;                     /* the most that shift shows anything (last draw) */
	bool detail;                  /* the selected row's detail popup is open */
	int fit_seen[TABLE_MAX_COLS]; /* widest text a fit column has shown */
};

void table_init(struct table *t, const struct table_col *cols, size_t ncols,
                const struct table_ops *ops, void *ctx);
void table_free(struct table *t);

/* The columns changed (a pane whose columns follow its data): the first
 * ncols of the same array, sorted by column sort_col from now on. */
void table_set_columns(struct table *t, size_t ncols, size_t sort_col);

/* Replace the rows (e.g. a new snapshot): filter, sort, keep the selection
 * on the same row id (or the nearest position when it is gone). */
void table_set_rows(struct table *t, const void *const *rows, size_t n);

/* Re-apply filter and sort to the current rows. */
void table_refresh(struct table *t);

/* Draw the title line and rows into win at (y, x), h lines by w columns.
 * Never writes past w. */
void table_draw(struct table *t, WINDOW *win, int y, int x, int h, int w, const struct theme *th);

/* Navigation, sorting, horizontal scroll (Right, and Left while
 * scrolled) and the detail popup; REACT_IGNORED if not a table action. */
int table_action(struct table *t, enum action a);

/* Sorting by a column (descending for the default, as htop does for numbers). */
void table_sort_by(struct table *t, size_t col, bool descending);

/* Filter text ("" clears); re-filters at once. */
void table_set_filter(struct table *t, const char *text);

/* Incremental search: select the first match at or after the selection;
 * false (selection unchanged) when nothing matches. */
bool table_search(struct table *t, const char *text);
/* Next (dir 1) or previous (-1) match of the current search. */
bool table_search_next(struct table *t, int dir);

/* A mouse click at screen (y, x): selects a row or sorts by the clicked
 * title. REACT_* flags. */
int table_click(struct table *t, int y, int x);
/* Wheel: scroll by lines (negative up). */
void table_scroll(struct table *t, int lines);

/* Format one cell of row into buf (TABLE_CELL_MAX bytes). */
void table_cell(const struct table *t, const void *row, size_t col, char *buf);

/* The selected row or NULL. */
const void *table_selected(const struct table *t);

#endif
