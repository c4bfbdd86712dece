/* tablesearch: the table widget's search (F3 and its next and previous
 * match), apart from table.c: it moves only the selection, through
 * table_select, and matches rows through the pane's match op. */
#include "config.h"

#include "ui/table-impl.h"

/* Does row i match the current search text? */
static bool
table_search_match(const struct table *t, size_t i)
{
	return t->ops->match != NULL && t->ops->match(t->rows[i], t->search, t->ctx);
}

/* Select the first match at or after the selection, wrapping. */
bool
table_search(struct table *t, const char *text)
{
	table_copy_text(t->search, text ? text : "");
	if (t->search[0] == '\0')
		return false;
	for (size_t k = 0; k < t->nrows; k++) {
		size_t i = (t->sel + k) % t->nrows;

		if (table_search_match(t, i)) {
			table_select(t, i);
			return true;
		}
	}
	return false;
}

/* Select the next (dir 1) or previous (-1) match, wrapping; the selected
 * row itself counts last, so a lone match stays selected. */
bool
table_search_next(struct table *t, int dir)
{
	size_t n = t->nrows, i = t->sel;

	if (t->search[0] == '\0' || n == 0)
		return false;
	for (size_t k = 0; k < n; k++) {
		i = (i + (dir >= 0 ? 1 : n - 1)) % n;
		if (table_search_match(t, i)) {
			table_select(t, i);
			return true;
		}
	}
	return false;
}
