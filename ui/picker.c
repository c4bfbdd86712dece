/* picker: fuzzy narrowing of a long list. Matching is a case-insensitive
 * subsequence test with a score, recomputed over the whole list on each
 * change of the query (a few ms for 100 000 items). */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "ui/menu.h"
#include "ui/picker.h"

#define PICKER_MAX_ROWS 16 /* list rows at most */
#define PICKER_MIN_W 40

/* Score bands: prefix < substring < scattered. */
#define BAND 1000000L

/* Case-insensitive substring position, or -1. */
static long
find_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (const char *h = hay; *h != '\0'; h++)
		if (strncasecmp(h, needle, n) == 0)
			return (long)(h - hay);
	return -1;
}

/* Fuzzy score of item against query (lower is better, -1: no match). */
long
picker_score(const char *item, const char *query)
{
	const char *p = item, *first = NULL;
	long at;

	if (*query == '\0')
		return 0;
	if ((at = find_ci(item, query)) >= 0)
		return at == 0 ? (long)strlen(item) : BAND + at * 1000 + (long)strlen(item) % 1000;
	for (const char *q = query; *q != '\0'; q++) {
		while (*p != '\0' && tolower((unsigned char)*p) != tolower((unsigned char)*q))
			p++;
		if (*p == '\0')
			return -1;
		if (first == NULL)
			first = p;
		p++;
	}
	/* the span the query's characters cover: tighter is better */
	return 2 * BAND + (long)(p - first) * 1000 + (long)(first - item) % 1000;
}

static long *sort_scores; /* qsort has no context argument */

/* Order matches by score, then by the list's own order. */
static int
match_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (sort_scores[x] != sort_scores[y])
		return CMP3(sort_scores[x], sort_scores[y]);
	return CMP3(x, y);
}

/* Recompute the matches of the current query. */
static void
picker_filter(struct picker *pk)
{
	long *scores = xmalloc((pk->nitems ? pk->nitems : 1) * sizeof *scores);

	pk->nmatch = 0;
	for (size_t i = 0; i < pk->nitems; i++)
		if ((scores[i] = picker_score(pk->items[i], pk->query.text)) >= 0)
			pk->match[pk->nmatch++] = i;
	sort_scores = scores;
	qsort(pk->match, pk->nmatch, sizeof *pk->match, match_cmp);
	free(scores);
	pk->sel = pk->top = 0;
}

/* Open the picker. */
void
picker_open(struct picker *pk, const char *title, const char *const *items, size_t n)
{
	pk->active = true;
	snprintf(pk->title, sizeof pk->title, "%s", title);
	pk->items = items;
	pk->nitems = n;
	if (pk->cap < n) {
		pk->cap = n;
		pk->match = xrealloc(pk->match, n * sizeof *pk->match);
	}
	prompt_open(&pk->query, "> ", "");
	pk->marks = NULL;
	picker_filter(pk);
}

/* Open it as a checklist. */
void
picker_open_checklist(struct picker *pk, const char *title, const char *const *items, size_t n,
                      const bool *marks)
{
	picker_open(pk, title, items, n);
	pk->marks = marks;
}

/* Close it (the items are the caller's). */
void
picker_close(struct picker *pk)
{
	pk->active = false;
	pk->items = NULL;
	pk->marks = NULL;
	pk->nitems = pk->nmatch = 0;
	prompt_close(&pk->query);
}

/* Release its memory. */
void
picker_free(struct picker *pk)
{
	free(pk->match);
	pk->match = NULL;
	pk->cap = 0;
}

/* Move the selection by delta rows, clamped. */
static void
picker_move(struct picker *pk, long delta)
{
	long s = (long)pk->sel + delta;

	if (pk->nmatch == 0)
		return;
	if (s < 0)
		s = 0;
	if (s >= (long)pk->nmatch)
		s = (long)pk->nmatch - 1;
	pk->sel = (size_t)s;
}

/* One key. */
enum picker_result
picker_key(struct picker *pk, wint_t ch, bool is_key, size_t *chosen)
{
	long page = pk->rows > 1 ? pk->rows - 1 : 1;

	if (is_key) {
		switch (ch) {
		case KEY_UP:
			picker_move(pk, -1);
			return PICKER_NONE;
		case KEY_DOWN:
			picker_move(pk, 1);
			return PICKER_NONE;
		case KEY_PPAGE:
			picker_move(pk, -page);
			return PICKER_NONE;
		case KEY_NPAGE:
			picker_move(pk, page);
			return PICKER_NONE;
		}
	}
	if ((is_key && ch == KEY_ENTER) || (!is_key && (ch == '\n' || ch == '\r'))) {
		if (pk->nmatch == 0)
			return PICKER_NONE;
		*chosen = pk->match[pk->sel];
		picker_close(pk);
		return PICKER_CHOSEN;
	}
	if (!is_key && ch == ' ' && pk->marks != NULL) {
		if (pk->nmatch == 0)
			return PICKER_NONE;
		*chosen = pk->match[pk->sel];
		return PICKER_TOGGLED;
	}
	if (!is_key && ch == 27) {
		picker_close(pk);
		return PICKER_CANCEL;
	}
	if (prompt_key(&pk->query, ch, is_key) == PROMPT_CHANGED)
		picker_filter(pk);
	return PICKER_NONE;
}

/* Draw the box: title, query line, matches, a count. */
void
picker_draw(struct picker *pk, WINDOW *win, int lines, int cols, const struct theme *th)
{
	attr_t attr = th->attr[TH_DIALOG];
	int w = cols - 4 < 72 ? cols - 4 : 72, h, y0, x0;
	char count[48];

	if (!pk->active)
		return;
	pk->rows = lines - 8 < PICKER_MAX_ROWS ? lines - 8 : PICKER_MAX_ROWS;
	if (w < PICKER_MIN_W / 2 || pk->rows < 1) {
		pk->rows = 0;
		return;
	}
	h = pk->rows + 4;
	y0 = (lines - h) / 2;
	x0 = (cols - w) / 2;
	if (pk->sel < pk->top)
		pk->top = pk->sel;
	if (pk->sel >= pk->top + (size_t)pk->rows)
		pk->top = pk->sel - (size_t)pk->rows + 1;
	menu_box(win, y0, x0, h, w, pk->title, attr, th);
	/* the query on the first line, drawn like the status-line prompt */
	wattrset(win, attr);
	mvwhline(win, y0 + 1, x0 + 1, ' ', w - 2);
	{
		WINDOW *sub = derwin(win, 1, w - 4, y0 + 1, x0 + 2);

		if (sub != NULL) {
			prompt_draw(&pk->query, sub, 0, w - 4, th);
			delwin(sub);
		}
	}
	for (int r = 0; r < pk->rows; r++) {
		size_t i = pk->top + (size_t)r;
		int used = 1;

		wattrset(win, i < pk->nmatch && i == pk->sel ? th->attr[TH_DIALOG_SELECTED] : attr);
		mvwaddch(win, y0 + 2 + r, x0 + 1, ' ');
		if (i < pk->nmatch && pk->marks != NULL)
			used += prompt_str_draw(win, pk->marks[pk->match[i]] ? "[x] " : "[ ] ", 4,
			                        NULL);
		if (i < pk->nmatch)
			used += prompt_str_draw(win, pk->items[pk->match[i]], w - 3 - used,
			                        th->ellipsis);
		for (; used < w - 2; used++)
			waddch(win, ' ');
	}
	snprintf(count, sizeof count, " %zu of %zu ", pk->nmatch, pk->nitems);
	wattrset(win, attr);
	mvwaddstr(win, y0 + h - 1, x0 + w - 2 - (int)strlen(count), count);
	wattrset(win, A_NORMAL);
}
