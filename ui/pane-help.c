/* pane-help: the keys, straight from the key map, over the current pane. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"
#include "ui/tui.h"

#define HELP_MAX_LINES 2048 /* a 40-column screen's wrapped help fits */

static int help_rows = 10; /* lines the help last had on screen: a page */

/* Build the help text for w columns: a title, then a heading and the
 * keys of each scope, wrapped; heading[i] marks the lines drawn as
 * titles. */
static size_t
help_lines(char lines[][KEYMAP_LINE_MAX], bool *heading, size_t max, int w)
{
	size_t n = 0, k;

	memset(heading, 0, max * sizeof *heading);
	heading[n] = true;
	snprintf(lines[n++], KEYMAP_LINE_MAX, "tracetop %s: keys (arrows scroll, Esc or q closes)",
	         PACKAGE_VERSION);
	for (size_t s = 0; s < keymap_nscopes && n + 2 < max; s++) {
		lines[n++][0] = '\0';
		heading[n] = true;
		snprintf(lines[n++], KEYMAP_LINE_MAX, "%s", keymap_scope_name(keymap_scopes[s]));
		/* the indent below must fit in a line */
		k = keymap_help_lines(keymap_scopes[s],
		                      w - 2 < KEYMAP_LINE_MAX - 3 ? w - 2 : KEYMAP_LINE_MAX - 3,
		                      lines + n, max - n);
		for (size_t i = 0; i < k; i++) { /* indent under the heading */
			memmove(lines[n + i] + 2, lines[n + i], KEYMAP_LINE_MAX - 3);
			memcpy(lines[n + i], "  ", 2);
			lines[n + i][KEYMAP_LINE_MAX - 1] = '\0';
		}
		n += k;
	}
	return n;
}

/* Draw the visible part of the help. */
static void
help_draw(void *p, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	char(*lines)[KEYMAP_LINE_MAX] = xmalloc(HELP_MAX_LINES * sizeof *lines);
	bool *heading = xmalloc(HELP_MAX_LINES * sizeof *heading);
	size_t n = help_lines(lines, heading, HELP_MAX_LINES, w);

	(void)p;
	help_rows = h > 1 ? h - 1 : 1;
	if (t->help_top + (size_t)h > n)
		t->help_top = n > (size_t)h ? n - (size_t)h : 0;
	for (int i = 0; i < h && t->help_top + (size_t)i < n; i++) {
		size_t k = t->help_top + (size_t)i;

		wattrset(win, t->theme.attr[heading[k] ? TH_TITLE : TH_NORMAL]);
		mvwaddnstr(win, y + i, x, lines[k], w);
	}
	wattrset(win, A_NORMAL);
	free(lines);
	free(heading);
}

/* Scroll the help. */
static int
help_action(void *p, struct tui *t, enum action a)
{
	(void)p;
	switch (a) {
	case ACT_UP:
		if (t->help_top > 0)
			t->help_top--;
		return REACT_REDRAW;
	case ACT_DOWN:
		t->help_top++;
		return REACT_REDRAW;
	case ACT_PAGE_UP:
		t->help_top = t->help_top > (size_t)help_rows ? t->help_top - (size_t)help_rows : 0;
		return REACT_REDRAW;
	case ACT_PAGE_DOWN:
		t->help_top += (size_t)help_rows;
		return REACT_REDRAW;
	case ACT_HOME:
		t->help_top = 0;
		return REACT_REDRAW;
	case ACT_END:
		t->help_top = HELP_MAX_LINES;
		return REACT_REDRAW;
	default:
		return REACT_IGNORED;
	}
}

const struct pane_ops pane_help = {
    .name = "Help",
    .scope = SCOPE_GLOBAL,
    .view = VIEW_NONE,
    .reads = 0,
    .draw = help_draw,
    .action = help_action,
};
