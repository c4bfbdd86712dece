/* prompt: a one-line text input (search, filter, refresh interval) drawn on
 * the status line, with a small history per purpose. */
#ifndef TRACETOP_UI_PROMPT_H
#define TRACETOP_UI_PROMPT_H

#include <stdbool.h>
#include <wchar.h>

#include "ui/curses.h"
#include "ui/theme.h"

#define PROMPT_MAX 256 /* kernel filters are long */
#define PROMPT_HISTORY 16

enum prompt_result {
	PROMPT_NONE,    /* key consumed, text unchanged */
	PROMPT_CHANGED, /* text changed (incremental search acts on it) */
	PROMPT_DONE,    /* Enter */
	PROMPT_CANCEL,  /* Esc */
};

struct prompt {
	bool active;
	const char *label;                        /* "Search: " */
	char text[PROMPT_MAX];                    /* UTF-8 */
	size_t cursor;                            /* byte offset, on a character boundary */
	char history[PROMPT_HISTORY][PROMPT_MAX]; /* newest first, no duplicates */
	int nhistory, hpos;                       /* hpos: entry shown, -1 while editing */
	char draft[PROMPT_MAX];                   /* what was typed before browsing the history */
};

/* Start editing with an initial text. */
void prompt_open(struct prompt *p, const char *label, const char *initial);
void prompt_close(struct prompt *p);

/* Feed one key from wget_wch (is_key: it was a KEY_* code). Handles
 * printable characters, Backspace, Delete, Left/Right, Home/End (and Ctrl-A,
 * Ctrl-E), Ctrl-U, Up/Down for history, Enter and Esc. Control characters
 * are refused and the text never outgrows PROMPT_MAX - 1 bytes. Enter adds
 * the text to the history; Enter and Esc also clear p->active (the text
 * stays readable). */
enum prompt_result prompt_key(struct prompt *p, wint_t ch, bool is_key);

/* Draw "label text" with the cursor on line y of win, w columns from
 * column 0. The cursor is the character at it in reverse video (the
 * terminal's cursor stays hidden); text wider than the line scrolls so the
 * cursor stays visible. */
void prompt_draw(const struct prompt *p, WINDOW *win, int y, int w, const struct theme *th);

/* Text helpers shared by the frame widgets (prompt, menu, screen). Text is
 * in the locale's multibyte encoding (UTF-8); a byte that does not decode,
 * or a character that is not printable, counts and draws as one '?'. */

/* Columns s takes on screen. */
int prompt_str_width(const char *s);

/* Draw s at win's cursor with its current attributes, in at most maxw
 * columns; when s is wider and ellipsis is not NULL, end with it (a wide
 * character that would cross the limit is left out). Returns the columns
 * drawn. */
int prompt_str_draw(WINDOW *win, const char *s, int maxw, const char *ellipsis);

/* Cut an incomplete multibyte character off the end of s (after a
 * truncating snprintf). */
void prompt_str_trim(char *s);

#endif
