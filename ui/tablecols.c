/* tablecols: the table widget's column layout (see tablecols.h). */
#include "config.h"

#include <limits.h>
#include <stdint.h>

#include "ui/tablecols.h"

/* The least a shown column takes before lower priorities drop. */
static int
col_need(const struct table_col *c, int text)
{
	int need = c->width;

	if (c->bar && !c->flex) /* its text, and its title whole */
		need = text > c->min_width ? (text < c->width ? text : c->width) : c->min_width;
	else if (c->fit && !c->flex) {
		need = text < c->width ? text : c->width;
		if (need < c->min_width)
			need = c->min_width;
	}
	return need > 0 ? need : 0;
}

/* The shown column of lowest priority that may drop (the rightmost of
 * equals; a kept column only when kept is set), or SIZE_MAX. */
static size_t
col_victim(const struct table_col *c, size_t n, const bool *vis, size_t flex, int top, bool kept)
{
	size_t victim = SIZE_MAX;

	for (size_t i = 0; i < n; i++)
		if (vis[i] && i != flex && c[i].priority < top && (kept || !c[i].keep) &&
		    (victim == SIZE_MAX || c[i].priority <= c[victim].priority))
			victim = i;
	return victim;
}

/* Drop columns (kept ones only when kept is set) until the line's *total
 * fits in w or nothing more may drop. */
static void
drop_cols(const struct table_col *c, size_t n, bool *vis, const int *cw, size_t flex, int top,
          bool kept, int w, int *total)
{
	while (*total > w) {
		size_t victim = col_victim(c, n, vis, flex, top, kept);

		if (victim == SIZE_MAX)
			break;
		vis[victim] = false;
		*total -= cw[victim] + 1;
	}
}

/* Grow the shown bar columns towards their width, one cell each in turn,
 * from *extra; returns what is left. */
static int
grow_bars(const struct table_col *c, size_t n, const bool *vis, int *cw, int extra)
{
	bool grew = true;

	while (extra > 0 && grew) {
		grew = false;
		for (size_t i = 0; i < n && extra > 0; i++) {
			if (!vis[i] || !c[i].bar || c[i].flex || cw[i] >= c[i].width)
				continue;
			cw[i]++;
			extra--;
			grew = true;
		}
	}
	return extra;
}

/* Lay out the columns: drop, grow bars, give the flexible column the rest. */
void
tablecols_layout(const struct table_col *c, size_t n, const int *text, int w, int *x, int *wd)
{
	bool vis[TABLE_MAX_COLS];
	int cw[TABLE_MAX_COLS] = {0};
	size_t flex = SIZE_MAX;
	int top = INT_MIN, total = -1, at = 0;

	if (n > TABLE_MAX_COLS)
		n = TABLE_MAX_COLS;
	for (size_t i = 0; i < n; i++) {
		vis[i] = !c[i].hidden;
		cw[i] = col_need(&c[i], text != NULL ? text[i] : c[i].width);
		if (!vis[i])
			continue;
		total += cw[i] + 1;
		if (c[i].priority > top)
			top = c[i].priority;
		if (c[i].flex && flex == SIZE_MAX)
			flex = i;
	}
	drop_cols(c, n, vis, cw, flex, top, false, w, &total);
	if (total > w && flex != SIZE_MAX) { /* the kept stay while the flexible column gives way */
		int least = c[flex].min_width > 0 ? c[flex].min_width : 1;
		int cut = total - w < cw[flex] - least ? total - w : cw[flex] - least;

		if (cut > 0) {
			cw[flex] -= cut;
			total -= cut;
		}
	}
	drop_cols(c, n, vis, cw, flex, top, true, w, &total);
	if (total <= w) {
		int extra = grow_bars(c, n, vis, cw, w - total);

		if (flex != SIZE_MAX)
			cw[flex] += extra;
	} else if (flex != SIZE_MAX) { /* the flexible column gives way first */
		int cut = total - w,
		    room = cw[flex] - (c[flex].min_width > 0 ? c[flex].min_width : 1);

		cw[flex] -= cut < room ? cut : room > 0 ? room : 0;
	}
	for (size_t i = 0; i < n; i++) {
		int k = cw[i];

		x[i] = -1;
		wd[i] = 0;
		if (!vis[i])
			continue;
		if (k > w - at)
			k = w - at; /* only when even the top priority overflows */
		if (k <= 0 || (i != flex && k < c[i].min_width))
			continue;
		x[i] = at;
		wd[i] = k;
		at += k + 1;
	}
}
