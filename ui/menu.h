/* menu: a small centred pop-up list (the Enter menu of a row, the sort
 * column chooser). */
#ifndef TRACETOP_UI_MENU_H
#define TRACETOP_UI_MENU_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/action.h"
#include "ui/curses.h"
#include "ui/theme.h"

#define MENU_MAX_ITEMS 16
#define MENU_NONE (-1) /* *chosen when nothing was chosen; item ids are >= 0 */

struct menu_item {
	char label[96]; /* escaped text */
	int id;         /* the caller's meaning */
	bool disabled;  /* shown dimmed with its reason in the label */
};

struct menu {
	bool active;
	char title[64];
	struct menu_item items[MENU_MAX_ITEMS];
	size_t n, sel;    /* sel never rests on a disabled item while one is enabled */
	size_t top;       /* first item shown when they do not all fit */
	int y0, x0, h, w; /* where the last draw put it, for mouse clicks */
};

void menu_open(struct menu *m, const char *title);
void menu_add(struct menu *m, int id, bool disabled, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void menu_close(struct menu *m);

/* ACT_UP/DOWN move to the previous/next enabled item, wrapping around;
 * ACT_HOME/END (and PAGE_UP/DOWN) to the first/last enabled one; ACT_ENTER
 * on an enabled item sets *chosen to its id and closes the menu (on a
 * disabled one it does nothing); ACT_CLOSE/ACT_BACK/ACT_QUIT close. These
 * return REACT_HANDLED | REACT_REDRAW (just REACT_HANDLED when nothing
 * changed); other actions REACT_IGNORED. *chosen is MENU_NONE unless an
 * item was chosen. */
int menu_action(struct menu *m, enum action a, int *chosen);

/* A click on an enabled item of the last draw chooses it (true, *chosen
 * set, menu closed); anything else changes nothing (false). Call it for
 * button-1 presses only: a release or a wheel event over the menu would
 * choose too. */
bool menu_click(struct menu *m, int y, int x, int *chosen);

/* Draw the menu centred on a lines x cols screen: a box as wide as the
 * longest label (capped to the screen), the title on its top border, the
 * selection in TH_DIALOG_SELECTED, disabled items dimmed. Scrolls when the
 * items do not fit. */
void menu_draw(struct menu *m, WINDOW *win, int lines, int cols, const struct theme *th);

/* A dialog box at (y0, x0), h by w, its title on the top border (shared
 * by the dialogs: menu, picker). */
void menu_box(WINDOW *win, int y0, int x0, int h, int w, const char *title, attr_t attr,
              const struct theme *th);

#endif
