/* pane-top-impl: the Top pane's state, shared by its files (pane-top.c,
 * pane-top-zoom.c, pane-top-rows.c, pane-top-tree.c) and nothing else. */
#ifndef TRACETOP_UI_PANE_TOP_IMPL_H
#define TRACETOP_UI_PANE_TOP_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/diff.h"
#include "tracetop/hist.h"
#include "tracetop/sym-name.h"
#include "ui/action.h"
#include "ui/calltree.h"
#include "ui/listpane.h"
#include "ui/table.h"
#include "ui/topview.h"

/* Rows listed at most when sorted by a number (the first in that order;
 * a filter or search lists all): a screen's worth many times over, where
 * a program with 200,000 functions has tens of thousands of rows. */
#define TOP_ROWS_SHOWN 2000

/* What a column of the Top pane shows. */
enum top_col {
	COL_CHILDREN, /* only with call stacks */
	COL_OVERHEAD,
	COL_SAMPLES,
	COL_DELTA, /* B or --baseline: the change in points */
	COL_RATIO, /* ... and as a ratio, or "new" / "gone" */
	COL_COMM,
	COL_PID,
	COL_TID, /* shown when the rows are grouped by thread */
	COL_CGROUP,
	COL_DSO,
	COL_MARK,
	COL_SYMBOL,
	COL_COUNT
};

/* The Top pane. */
struct top {
	struct listpane list;             /* first: the listpane_pane_* ops take the pane as it */
	struct table_col cols[COL_COUNT]; /* the columns shown */
	enum top_col kind[COL_COUNT];     /* what each shown column is */
	size_t ncols;
	size_t sym_col;       /* index of the Symbol column */
	bool stacks;          /* the engine has call stacks: trees */
	struct calltree tree; /* the lines shown: rows and their trees */
	struct top_zoom zoom; /* the zooms, K and U */
	size_t cg_col;        /* index of the Cgroup column */
	/* the Cgroup column: by itself, or as c set it */
	enum top_cgroup_col cg_show;
	/* The frame's rows of the shown event that the zooms and K/U keep,
	 * copied: a frozen screen keeps them while frames move on. */
	struct hist_snapshot rows;
	size_t rows_all; /* rows before only the first TOP_ROWS_SHOWN were kept */
	char sym_title[48];
	enum sym_form form; /* names compact, with "…" where UTF-8 is allowed */
	unsigned group;     /* HIST_GROUP_*: what rows are keyed by (g, --sort) */
	/* with a baseline: each row's change (diff[i] for rows.rows[i]), the
	 * baseline keyed by the grouping (cmp: proj, or the baseline when it
	 * lacks fields of the grouping), and the made-up objects and names
	 * of the rows gone since (their rows have members 0) */
	struct diff_row *diff;
	size_t diff_cap;
	struct diff_set proj;
	const struct diff_set *cmp;
	unsigned cmp_group;
	uint64_t proj_seq;
	struct dso *gone_dso;
	struct sym *gone_sym;
	size_t gone_cap;
	size_t delta_col, ratio_col; /* indices of the Delta and Ratio columns */
};

struct frame;
struct tui;

/* Copy the rows of the shown event of f that the zooms and K/U keep,
 * merged by the grouping (pane-top-rows.c). */
void top_filter(struct top *p, const struct tui *t, const struct frame *f);

/* With a baseline: each row's change, the rows gone since appended, the
 * Delta and Ratio columns shown; without, hidden (pane-top-diff.c). */
void top_diff_rows(struct top *p, const struct tui *t);

/* A gone row (only the baseline has it): nothing to act on. */
static inline bool
top_gone(const struct hist_row *r)
{
	return r->members == 0;
}

/* The Delta or Ratio cell of row r (pane-top-diff.c). */
void top_diff_cell(const struct top *p, const struct hist_row *r, enum top_col kind, char *buf,
                   size_t len);

/* Ascending order of two rows by their change (pane-top-diff.c). */
int top_diff_compare(const struct top *p, const struct hist_row *a, const struct hist_row *b);

/* Free the baseline's state (pane-top-diff.c). */
void top_diff_free(struct top *p);

/* Make the columns of the grouping's fields key columns (the others
 * to their own), TID shown only when grouped by thread (pane-top.c). */
void top_key_cols(struct top *p);

/* g: group the rows by the next keys of the cycle (pane-top-rows.c). */
int top_group_cycle(struct top *p, struct tui *t);

/* Annotate r's function in the Annotate pane, with the samples of r
 * alone: its grouping's fields and the zooms' (pane-top-rows.c). */
int top_annotate(struct top *p, struct tui *t, const struct hist_row *r);

/* Enter on a row: its menu (pane-top-menu.c). */
int top_row_menu(struct top *p, struct tui *t);

/* A menu item was chosen (pane-top-menu.c). */
int top_menu(void *pp, struct tui *t, int id);

/* Time a row's function: an entry/return probe pair, in the Latency pane
 * (pane-top-menu.c). */
int top_time(struct tui *t, const struct hist_row *r);

/* Say that a row gone since the baseline has nothing to act on. */
int top_gone_status(struct tui *t);

/* Rebuild the lines from the snapshot and hand them to the table;
 * select_id, unless 0, becomes the selected line (pane-top.c). */
void top_rebuild(struct top *p, struct tui *t, uintptr_t select_id);

/* The Symbol column's title, which says what the trees show (pane-top.c). */
void top_set_title(struct top *p);

/* Tree keys without call stacks: say how to get them (pane-top-tree.c). */
int top_no_stacks(struct tui *t);

/* Show r's callers (or callees) under it (pane-top-tree.c). */
int top_show_tree(struct top *p, struct tui *t, const struct hist_row *r, bool callers);

/* The tree keys: + - E C G % and Enter on a tree line (pane-top-tree.c). */
int top_tree_action(struct top *p, struct tui *t, enum action a);

#endif
