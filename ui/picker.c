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
static size_t sort_last;  /* ... nor the picker's last items */

/* Order matches: the items ranked last after the others, then by score,
 * then by the list's own order. */
static int
match_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if ((x >= sort_last) != (y >= sort_last))
		return x >= sort_last ? 1 : -1;
	if (sort_scores[x] != sort_scores[y])
		return CMP3(sort_scores[x], sort_scores[y]);
	return CMP3(x, y);
}

/* Whether an item is named text exactly (its name ends at a blank). */
static bool
picker_has_exact(const struct picker *pk, const char *text)
{
	size_t n = strlen(text);

	for (size_t i = 0; i < pk->nmatch; i++) {
		const char *it = pk->items[pk->match[i]];

		if (strncmp(it, text, n) == 0 && (it[n] == '\0' || it[n] == ' '))
			return true;
	}
	return false;
}

/* Whether the query is offered as typed, and why not in pk->why. */
static void
picker_typed_check(struct picker *pk)
{
	char esc[200]; /* cut: the why line has room for a part */
	const char *q = pk->query.text;

	pk->typed_ok = false;
	str_escape(esc, sizeof esc, q, strlen(q));
	snprintf(pk->why, sizeof pk->why, "nothing matches '%s' (Backspace widens the list)", esc);
	if (pk->typed == NULL || *q == '\0' || picker_has_exact(pk, q))
		return;
	pk->typed_ok = pk->typed(pk->typed_ctx, q, pk->why, sizeof pk->why);
}

/* Rows of the list: the typed text first when offered, then the matches. */
static size_t
picker_nrows(const struct picker *pk)
{
	return pk->nmatch + (pk->typed_ok ? 1 : 0);
}

/* The item of row r, or PICKER_TYPED. */
static size_t
picker_row_item(const struct picker *pk, size_t r)
{
	if (pk->typed_ok)
		return r == 0 ? PICKER_TYPED : pk->match[r - 1];
	return pk->match[r];
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
	sort_last = pk->last;
	qsort(pk->match, pk->nmatch, sizeof *pk->match, match_cmp);
	free(scores);
	pk->sel = pk->top = 0;
	picker_typed_check(pk);
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
	pk->last = n;
	pk->marks = NULL;
	pk->typed = NULL;
	pk->typed_ctx = NULL;
	picker_filter(pk);
}

/* Offer the query as typed. */
void
picker_allow_typed(struct picker *pk, picker_typed_fn fn, void *ctx)
{
	pk->typed = fn;
	pk->typed_ctx = ctx;
	picker_typed_check(pk);
}

/* The unusable items go last. */
void
picker_rank_last(struct picker *pk, size_t from)
{
	pk->last = from;
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
	pk->typed = NULL;
	pk->typed_ok = false;
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

	if (picker_nrows(pk) == 0)
		return;
	if (s < 0)
		s = 0;
	if (s >= (long)picker_nrows(pk))
		s = (long)picker_nrows(pk) - 1;
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
		if (picker_nrows(pk) == 0)
			return PICKER_REFUSED;
		*chosen = picker_row_item(pk, pk->sel);
		picker_close(pk);
		return PICKER_CHOSEN;
	}
	if (!is_key && ch == ' ' && pk->marks != NULL) {
		if (picker_nrows(pk) == 0)
			return PICKER_REFUSED;
		*chosen = picker_row_item(pk, pk->sel);
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
	size_t n = picker_nrows(pk);
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
		size_t i = pk->top + (size_t)r, item = i < n ? picker_row_item(pk, i) : 0;
		int used = 1;

		wattrset(win, i < n && i == pk->sel ? th->attr[TH_DIALOG_SELECTED] : attr);
		mvwaddch(win, y0 + 2 + r, x0 + 1, ' ');
		if (i < n && pk->marks != NULL)
			used += prompt_str_draw(
			    win, item != PICKER_TYPED && pk->marks[item] ? "[x] " : "[ ] ", 4,
			    NULL);
		if (i < n && item == PICKER_TYPED) {
			used += prompt_str_draw(win, pk->query.text, w - 3 - used, th->ellipsis);
			used += prompt_str_draw(win, "  (as typed)", w - 2 - used, NULL);
		} else if (i < n) {
			used += prompt_str_draw(win, pk->items[item], w - 3 - used, th->ellipsis);
		}
		for (; used < w - 2; used++)
			waddch(win, ' ');
	}
	snprintf(count, sizeof count, " %s%zu of %zu ", pk->typed_ok ? "as typed + " : "",
	         pk->nmatch, pk->nitems);
	wattrset(win, attr);
	mvwaddstr(win, y0 + h - 1, x0 + w - 2 - (int)strlen(count), count);
	wattrset(win, A_NORMAL);
}
