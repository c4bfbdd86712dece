/* menu: a small centred pop-up list (a row's Enter menu, the sort column
 * chooser). Disabled items are shown dimmed (their label says why) and the
 * selection skips them; Up and Down wrap around. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ui/menu.h"
#include "ui/prompt.h"

/* Open an empty menu. */
void
menu_open(struct menu *m, const char *title)
{
	memset(m, 0, sizeof *m);
	m->active = true;
	snprintf(m->title, sizeof m->title, "%s", title != NULL ? title : "");
	prompt_str_trim(m->title);
}

/* The first enabled item from start on, stepping by dir (+1 or -1) and
 * wrapping around; the current selection when every item is disabled. */
static size_t
menu_seek(const struct menu *m, size_t start, int dir)
{
	size_t i = start;

	for (size_t k = 0; k < m->n; k++) {
		if (!m->items[i].disabled)
			return i;
		i = dir > 0 ? (i + 1) % m->n : (i + m->n - 1) % m->n;
	}
	return m->sel;
}

/* Append an item (ignored when the menu is full). */
void
menu_add(struct menu *m, int id, bool disabled, const char *fmt, ...)
{
	struct menu_item *it;
	va_list ap;

	if (m->n >= MENU_MAX_ITEMS)
		return;
	it = &m->items[m->n++];
	va_start(ap, fmt);
	vsnprintf(it->label, sizeof it->label, fmt, ap);
	va_end(ap);
	prompt_str_trim(it->label);
	it->id = id;
	it->disabled = disabled;
	if (m->items[m->sel].disabled)
		m->sel = menu_seek(m, 0, +1);
}

/* Close the menu. */
void
menu_close(struct menu *m)
{
	m->active = false;
}

/* Move the selection to item i (REACT_REDRAW only when it moved). */
static int
menu_select(struct menu *m, size_t i)
{
	int r = REACT_HANDLED | (i != m->sel ? REACT_REDRAW : 0);

	m->sel = i;
	return r;
}

/* Act on an action while the menu is open. */
int
menu_action(struct menu *m, enum action a, int *chosen)
{
	*chosen = MENU_NONE;
	if (!m->active)
		return REACT_IGNORED;
	switch (a) {
	case ACT_UP:
		return m->n ? menu_select(m, menu_seek(m, (m->sel + m->n - 1) % m->n, -1))
		            : REACT_HANDLED;
	case ACT_DOWN:
		return m->n ? menu_select(m, menu_seek(m, (m->sel + 1) % m->n, +1)) : REACT_HANDLED;
	case ACT_HOME:
	case ACT_PAGE_UP:
		return m->n ? menu_select(m, menu_seek(m, 0, +1)) : REACT_HANDLED;
	case ACT_END:
	case ACT_PAGE_DOWN:
		return m->n ? menu_select(m, menu_seek(m, m->n - 1, -1)) : REACT_HANDLED;
	case ACT_ENTER:
		if (m->sel >= m->n || m->items[m->sel].disabled)
			return REACT_HANDLED;
		*chosen = m->items[m->sel].id;
		menu_close(m);
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_CLOSE:
	case ACT_BACK:
	case ACT_QUIT:
		menu_close(m);
		return REACT_HANDLED | REACT_REDRAW;
	default:
		return REACT_IGNORED;
	}
}

/* Choose the enabled item under a click. */
bool
menu_click(struct menu *m, int y, int x, int *chosen)
{
	size_t i;

	*chosen = MENU_NONE;
	if (!m->active || x <= m->x0 || x >= m->x0 + m->w - 1 || y <= m->y0 ||
	    y >= m->y0 + m->h - 1)
		return false;
	i = m->top + (size_t)(y - m->y0 - 1);
	if (i >= m->n || m->items[i].disabled)
		return false;
	m->sel = i;
	*chosen = m->items[i].id;
	menu_close(m);
	return true;
}

/* Size and place the box for a lines x cols screen, and scroll so the
 * selection is inside it. */
static void
menu_layout(struct menu *m, int lines, int cols)
{
	int w = prompt_str_width(m->title) + 6, rows;

	for (size_t i = 0; i < m->n; i++) {
		int lw = prompt_str_width(m->items[i].label) + 4;

		if (lw > w)
			w = lw;
	}
	m->w = w < cols ? w : cols;
	m->h = (int)m->n + 2 < lines ? (int)m->n + 2 : lines;
	m->y0 = (lines - m->h) / 2;
	m->x0 = (cols - m->w) / 2;
	rows = m->h - 2;
	if (rows <= 0)
		return;
	if (m->sel < m->top)
		m->top = m->sel;
	else if (m->sel >= m->top + (size_t)rows)
		m->top = m->sel - (size_t)rows + 1;
	if (m->top + (size_t)rows > m->n)
		m->top = m->n > (size_t)rows ? m->n - (size_t)rows : 0;
}

/* A dialog box with its title on the top border. */
void
menu_box(WINDOW *win, int y0, int x0, int h, int w, const char *title, attr_t attr,
         const struct theme *th)
{
	int y1 = y0 + h - 1, x1 = x0 + w - 1;

	wattrset(win, attr);
	mvwaddch(win, y0, x0, ACS_ULCORNER | attr);
	mvwhline(win, y0, x0 + 1, ACS_HLINE | attr, w - 2);
	mvwaddch(win, y0, x1, ACS_URCORNER | attr);
	mvwvline(win, y0 + 1, x0, ACS_VLINE | attr, h - 2);
	mvwvline(win, y0 + 1, x1, ACS_VLINE | attr, h - 2);
	mvwaddch(win, y1, x0, ACS_LLCORNER | attr);
	mvwhline(win, y1, x0 + 1, ACS_HLINE | attr, w - 2);
	mvwaddch(win, y1, x1, ACS_LRCORNER | attr);
	if (title[0] != '\0' && w > 6) {
		wattrset(win, attr | A_BOLD);
		mvwaddch(win, y0, x0 + 2, ' ');
		prompt_str_draw(win, title, w - 6, th->ellipsis);
		waddch(win, ' ');
	}
}

/* Draw the menu centred on the screen. */
void
menu_draw(struct menu *m, WINDOW *win, int lines, int cols, const struct theme *th)
{
	attr_t attr = th->attr[TH_DIALOG];

	if (!m->active)
		return;
	menu_layout(m, lines, cols);
	if (m->h < 3 || m->w < 5) {
		m->h = m->w = 0; /* too small to draw: clicks miss */
		return;
	}
	menu_box(win, m->y0, m->x0, m->h, m->w, m->title, attr, th);
	for (int r = 0; r < m->h - 2; r++) {
		size_t i = m->top + (size_t)r;
		attr_t a = attr;
		int used;

		if (i < m->n && i == m->sel && !m->items[i].disabled)
			a = th->attr[TH_DIALOG_SELECTED];
		else if (i < m->n && m->items[i].disabled)
			a = attr | A_DIM;
		wattrset(win, a);
		mvwaddch(win, m->y0 + 1 + r, m->x0 + 1, ' ');
		used = 1;
		if (i < m->n)
			used += prompt_str_draw(win, m->items[i].label, m->w - 4, th->ellipsis);
		for (; used < m->w - 2; used++)
			waddch(win, ' ');
	}
	wattrset(win, A_NORMAL);
}
