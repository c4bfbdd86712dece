/* wtext: text decoded for the screen (wide characters and the cells they
 * take), cut, shifted and wrapped by display width, and the pen the table
 * widget and its popups write it with. */
#ifndef TRACETOP_UI_WTEXT_H
#define TRACETOP_UI_WTEXT_H

#include <stdbool.h>
#include <wchar.h>

#include "ui/curses.h"
#include "ui/theme.h"

#define WTEXT_MAX 512 /* wide characters kept of one text (wider screens cut) */

/* Text decoded for the screen: wide characters and the cells they take. */
struct wtext {
	wchar_t s[WTEXT_MAX];
	int n;
	int width;
	bool more; /* the source was longer than what was kept */
};

/* What one draw writes with: the window, the theme and decoded glyphs. */
struct pen {
	WINDOW *win;
	const struct theme *th;
	struct wtext ell, glyph, up, down;
};

/* Decode UTF-8; bytes that do not decode and characters that do not print
 * become '?', so nothing partial reaches the terminal. */
void wtext_set(struct wtext *wt, const char *s);
/* Add tail's characters at the end of wt (as many as fit). */
void wtext_append(struct wtext *wt, const struct wtext *tail);
/* Cut wt to at most cells wide; a cut text ends with the ellipsis. */
void wtext_fit(struct wtext *wt, int cells, const struct wtext *ell);
/* Drop the first cells of wt (a horizontal scroll); a shifted text starts
 * with the ellipsis. Returns whether anything was dropped. */
bool wtext_skip(struct wtext *wt, int cells, const struct wtext *ell);

/* Bytes of the first line of s when wrapped at cells: cut after the last
 * blank that fits, or inside a word that would leave more than half the
 * line empty (a long path); a '\n' ends a line. Never 0 while s has
 * text. */
size_t wtext_wrap(const char *s, int cells);

/* Decode the theme's glyphs once per draw. */
void pen_init(struct pen *p, WINDOW *win, const struct theme *th);
/* Make a the window's attribute, colour pair included. */
void pen_attr(struct pen *p, attr_t a);
/* Write n blanks at (y, x). */
void pen_blank(struct pen *p, int y, int x, int n, attr_t a);
/* Write wt (already fitted) in a field of cells at (y, x), padded on the
 * left when right-aligned, on the right otherwise. */
void pen_text(struct pen *p, int y, int x, int cells, const struct wtext *wt, bool right, attr_t a);

#endif
