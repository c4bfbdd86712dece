/* listpane: the behaviour every list pane shares around its table. */
#include "config.h"

#include <string.h>

#include "ui/listpane.h"
#include "ui/prompt.h"
#include "ui/wtext.h"

/* Open the search or filter prompt for the current pane. */
static int
listpane_open_prompt(struct listpane *lp, struct tui *t, enum listpane_prompt kind)
{
	lp->prompt = kind;
	t->prompt_owner = (int)t->cur;
	if (kind == LISTPANE_SEARCH)
		prompt_open(&t->prompt, "Search: ", "");
	else
		prompt_open(&t->prompt, "Filter: ", lp->table.filter);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Open the sort column chooser. */
static int
listpane_sort_menu(struct listpane *lp, struct tui *t)
{
	const struct table *tb = &lp->table;

	menu_open(&t->menu, "Sort by");
	for (size_t i = 0; i < tb->ncols; i++)
		if (tb->cols[i].sortable && !tb->cols[i].hidden && tb->cols[i].title[0] != '\0')
			menu_add(&t->menu, LISTPANE_MENU_SORT + (int)i, false, "%s",
			         tb->cols[i].title);
	lp->sort_menu = true;
	return REACT_HANDLED | REACT_REDRAW;
}

/* The shared list actions. */
int
listpane_action(struct listpane *lp, struct tui *t, enum action a)
{
	switch (a) {
	case ACT_SEARCH:
		return listpane_open_prompt(lp, t, LISTPANE_SEARCH);
	case ACT_FILTER:
		return listpane_open_prompt(lp, t, LISTPANE_FILTER);
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		if (lp->table.search[0] == '\0')
			tui_status(t, false, "no search yet: press / or F3");
		else if (!table_search_next(&lp->table, a == ACT_SEARCH_NEXT ? 1 : -1))
			tui_status(t, true, "no match for '%s'", lp->table.search);
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_CLOSE:
		if (table_action(&lp->table, a) != REACT_IGNORED)
			return REACT_HANDLED | REACT_REDRAW; /* the detail popup closed */
		if (lp->table.filter[0] == '\0')
			return REACT_IGNORED;
		table_set_filter(&lp->table, "");
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_SORT_MENU:
		return listpane_sort_menu(lp, t);
	default:
		return table_action(&lp->table, a);
	}
}

/* Filter as typed; search as typed, saying when nothing matches. */
int
listpane_prompt(struct listpane *lp, struct tui *t, int result)
{
	const char *text = t->prompt.text;

	switch (lp->prompt) {
	case LISTPANE_FILTER:
		if (result == PROMPT_CANCEL)
			table_set_filter(&lp->table, "");
		else if (result == PROMPT_CHANGED || result == PROMPT_DONE)
			table_set_filter(&lp->table, text);
		return REACT_REDRAW;
	case LISTPANE_SEARCH:
		if (result == PROMPT_CHANGED && text[0] != '\0' && !table_search(&lp->table, text))
			tui_status(t, true, "no match for '%s'", lp->table.search);
		return REACT_REDRAW;
	default:
		return REACT_IGNORED;
	}
}

/* Another menu of the pane is open: choices are not sort columns. */
void
listpane_menu_opened(struct listpane *lp)
{
	lp->sort_menu = false;
}

/* Sort by the chosen column (numbers descending first, as htop). */
int
listpane_menu(struct listpane *lp, int id)
{
	size_t col;

	if (!lp->sort_menu || id < LISTPANE_MENU_SORT)
		return REACT_IGNORED;
	col = (size_t)(id - LISTPANE_MENU_SORT);
	if (col < lp->table.ncols)
		table_sort_by(&lp->table, col, lp->table.cols[col].right);
	return REACT_REDRAW;
}

/* Clicks and the wheel. */
int
listpane_mouse(struct listpane *lp, int y, int x, unsigned long bstate)
{
	if (bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		return table_click(&lp->table, y, x);
	if (bstate & BUTTON4_PRESSED)
		table_scroll(&lp->table, -3);
#ifdef BUTTON5_PRESSED
	else if (bstate & BUTTON5_PRESSED)
		table_scroll(&lp->table, 3);
#endif
	else
		return REACT_IGNORED;
	return REACT_HANDLED | REACT_REDRAW;
}

/* The pane's mouse events, for a pane that begins with its list. */
int
listpane_pane_mouse(void *pane, struct tui *t, int y, int x, unsigned long bstate)
{
	(void)t;
	return listpane_mouse(pane, y, x, bstate);
}

/* The pane's actions, for a pane that has no keys of its own. */
int
listpane_pane_action(void *pane, struct tui *t, enum action a)
{
	return listpane_action(pane, t, a);
}

/* The pane's menus (the sort menu), for a pane that opens no other. */
int
listpane_pane_menu(void *pane, struct tui *t, int id)
{
	(void)t;
	listpane_menu(pane, id);
	return REACT_REDRAW;
}

/* The pane's prompts, for a pane that begins with its list. */
int
listpane_pane_prompt(void *pane, struct tui *t, int result)
{
	return listpane_prompt(pane, t, result);
}

/* A centred line of text (empty states). */
void
listpane_message(WINDOW *win, int y, int x, int w, const char *msg, const struct theme *th)
{
	int len = (int)strlen(msg);

	wattrset(win, th->attr[TH_DIM]);
	mvwaddnstr(win, y, x + (len < w ? (w - len) / 2 : 0), msg, w);
	wattrset(win, A_NORMAL);
}

/* A titled list: the title dimmed on line y, the table in the h - 1 lines
 * under it, and a note when the filter hides every row. */
void
listpane_draw_titled(struct listpane *lp, WINDOW *win, int y, int x, int h, int w,
                     const char *title, const struct theme *th)
{
	wattrset(win, th->attr[TH_DIM]);
	mvwaddnstr(win, y, x, title, w);
	wattrset(win, A_NORMAL);
	table_draw(&lp->table, win, y + 1, x, h - 1, w, th);
	if (lp->table.nrows == 0 && lp->table.nall > 0 && h >= 4)
		listpane_message(win, y + h / 2, x, w, "No rows match the filter (Esc clears it)",
		                 th);
}

/* Wrapped lines of text, capped. */
int
listpane_detail_lines(const char *text, int w, int max)
{
	int n = 0;

	if (w <= 0)
		return 0;
	while (*text != '\0' && n < max) {
		text += wtext_wrap(text, w);
		n++;
	}
	return n;
}

/* Draw text wrapped into h lines; the last takes the rest, cut with an
 * ellipsis. */
void
listpane_detail(WINDOW *win, int y, int x, int h, int w, const char *text, const struct theme *th)
{
	char line[1024];

	wattrset(win, th->attr[TH_DIM]);
	for (int k = 0; k < h && w > 0; k++) {
		size_t n = k < h - 1 ? wtext_wrap(text, w) : strlen(text);

		if (n >= sizeof line)
			n = wtext_wrap(text, ((int)sizeof line - 1) / 4);
		memcpy(line, text, n);
		line[n] = '\0';
		text += n;
		if (n > 0 && line[n - 1] == '\n')
			line[n - 1] = '\0';
		mvwhline(win, y + k, x, ' ', w);
		wmove(win, y + k, x);
		prompt_str_draw(win, line, w, th->utf8 ? "\u2026" : "...");
	}
	wattrset(win, A_NORMAL);
}
