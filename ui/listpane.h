/* listpane: what every list pane does with its table — the search and
 * filter prompts, n / N, Esc clearing the filter, the F6 sort menu, clicks
 * and the wheel — written once. A pane embeds a struct listpane and hands
 * it the actions, prompts, menus and mouse events it does not take itself. */
#ifndef TRACETOP_UI_LISTPANE_H
#define TRACETOP_UI_LISTPANE_H

#include <stdbool.h>

#include "ui/table.h"
#include "ui/tui.h"

/* Menu ids from here on choose a sort column (id - base = column). */
#define LISTPANE_MENU_SORT 1000

enum listpane_prompt {
	LISTPANE_NO_PROMPT,
	LISTPANE_SEARCH,
	LISTPANE_FILTER,
};

struct listpane {
	struct table table;
	enum listpane_prompt prompt; /* the prompt this pane has open */
	bool sort_menu;              /* the open menu is the sort menu */
};

/* Search, filter, n / N, Esc (closing the detail popup, else clearing a
 * filter that is set), the sort menu and the table's own keys;
 * REACT_IGNORED for anything else. */
int listpane_action(struct listpane *lp, struct tui *t, enum action a);

/* A prompt result: REACT_IGNORED if the prompt was not the list's. */
int listpane_prompt(struct listpane *lp, struct tui *t, int result);

/* A menu choice: REACT_IGNORED unless the sort menu was open. Panes that
 * open menus of their own call listpane_menu_opened first. */
int listpane_menu(struct listpane *lp, int id);
void listpane_menu_opened(struct listpane *lp);

/* Clicks select rows and sort by titles; the wheel scrolls. */
int listpane_mouse(struct listpane *lp, int y, int x, unsigned long bstate);

/* pane_ops.mouse and pane_ops.prompt for a pane whose state begins with
 * its struct listpane. */
int listpane_pane_mouse(void *pane, struct tui *t, int y, int x, unsigned long bstate);
int listpane_pane_prompt(void *pane, struct tui *t, int result);
/* pane_ops.action (the list's keys only) and pane_ops.menu (the sort menu
 * only) for such a pane. */
int listpane_pane_action(void *pane, struct tui *t, enum action a);
int listpane_pane_menu(void *pane, struct tui *t, int id);

/* A centred, dimmed line: why the list is empty. */
void listpane_message(WINDOW *win, int y, int x, int w, const char *msg, const struct theme *th);

/* The title (dimmed) on line y, the table in the h - 1 lines under it,
 * and "No rows match the filter" when the filter hides every row. */
void listpane_draw_titled(struct listpane *lp, WINDOW *win, int y, int x, int h, int w,
                          const char *title, const struct theme *th);

/* Lines text (escaped) takes wrapped at w columns, at most max. */
int listpane_detail_lines(const char *text, int w, int max);

/* Draw text (escaped) dimmed in the h lines at (y, x), wrapped at w
 * columns, "..." at the end when it does not fit: the selected row's
 * detail, such as a function's full name under a list of compact ones. */
void listpane_detail(WINDOW *win, int y, int x, int h, int w, const char *text,
                     const struct theme *th);

#endif
