/* tablecols: how the columns of the table widget share a line. A pure
 * function of the columns, the widths of their text and the line's width,
 * so it is tested without a screen. */
#ifndef TRACETOP_UI_TABLECOLS_H
#define TRACETOP_UI_TABLECOLS_H

#include <stdbool.h>
#include <stddef.h>

#define TABLE_MAX_COLS 16

struct table_col {
	const char *title;
	int width;     /* preferred width (a fit column's widest; the flexible
	                * column's comfortable width, it takes what is left) */
	int min_width; /* below this the column is dropped */
	int priority;  /* when space runs out, lower priority drops first */
	bool right;    /* right-aligned (numbers) */
	bool flex;     /* takes the remaining width (one per table) */
	bool bar;      /* text followed by a bar of ops->bar_value percent:
	                * its bar shrinks first, down to min_width (the text) */
	bool fit;      /* as wide as its widest text on screen, from min_width
	                * up to width */
	bool sortable;
	bool hidden; /* not shown and not offered for sorting (a pane's toggle) */
	bool keep;   /* what the rows are read for (a key that tells them
	              * apart, a rate): the flexible column shrinks to its
	              * min_width before a kept column drops */
};

/* Lay out n columns in a line of w cells. text[i] is the widest text of
 * column i on screen (its title included) for fit columns, the width of
 * its title with the sort marker for bar columns. Sets x[i]
 * (from the line's start, -1 when the column is dropped) and wd[i].
 *
 * Every column first gets what it needs: a bar column its text
 * (min_width, or its title when wider), a fit column its text within [min_width, width], the
 * flexible column its width, any other its width. While that is too wide
 * the lowest priority column that is not kept drops (never the flexible
 * one, nor one of the highest priority); then the flexible column shrinks
 * towards its min_width, and only then do kept columns drop, lowest
 * priority first. Space left over grows the bars up to their width,
 * then the flexible column takes the rest: bars shrink before names do.
 * When even the highest priorities do not fit, the flexible column shrinks
 * to its min_width, then the line is cut at its end. Columns are one blank
 * apart. */
void tablecols_layout(const struct table_col *c, size_t n, const int *text, int w, int *x, int *wd);

#endif
