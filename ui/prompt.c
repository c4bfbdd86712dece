/* prompt: a one-line text editor for the status line (search, filter,
 * refresh interval) with a small history, and the multibyte text helpers
 * the other frame widgets share. Text is kept in the locale's multibyte
 * encoding (UTF-8 in practice), the cursor as a byte offset that always
 * sits on a character boundary. */
#include "config.h"

#include <limits.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "ui/prompt.h"

#define CTRL(c) ((c)&0x1f)

/* Decode the character at s[i] (len bytes in all): its length in bytes,
 * and in *wc the character, or '?' for a byte that does not decode or a
 * character that is not printable (then it counts as one byte). */
static size_t
str_char(const char *s, size_t len, size_t i, wchar_t *wc)
{
	mbstate_t st;
	size_t k;

	if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f) {
		*wc = (wchar_t)(unsigned char)s[i]; /* printable ASCII: itself */
		return 1;
	}
	memset(&st, 0, sizeof st);
	k = mbrtowc(wc, s + i, len - i, &st);
	if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
		*wc = L'?';
		return 1;
	}
	if (!iswprint((wint_t)*wc))
		*wc = L'?';
	return k;
}

/* Columns a decoded character takes. */
static int
char_width(wchar_t wc)
{
	int w;

	if (wc >= 0x20 && wc < 0x7f)
		return 1;
	w = wcwidth(wc);

	return w < 0 ? 1 : w;
}

/* Columns bytes [from, to) of s take; to is a character boundary. */
static int
str_span_width(const char *s, size_t from, size_t to)
{
	int cols = 0;
	wchar_t wc;

	while (from < to) {
		from += str_char(s, to, from, &wc);
		cols += char_width(wc);
	}
	return cols;
}

/* Columns s takes on screen. */
int
prompt_str_width(const char *s)
{
	return str_span_width(s, 0, strlen(s));
}

/* Draw s in at most maxw columns, ending with the ellipsis when cut. */
int
prompt_str_draw(WINDOW *win, const char *s, int maxw, const char *ellipsis)
{
	size_t len = strlen(s), i = 0;
	int cols = 0, limit = maxw;
	wchar_t wc;

	if (ellipsis != NULL && prompt_str_width(s) > maxw) {
		int ew = prompt_str_width(ellipsis);

		limit = maxw - ew;
		if (limit < 0) /* not even the ellipsis fits */
			return prompt_str_draw(win, s, maxw, NULL);
	}
	while (i < len) {
		size_t k = str_char(s, len, i, &wc), run = 0;
		int w = char_width(wc);

		if (cols + w > limit)
			break;
		/* a run of printable ASCII in one call, without decoding */
		while (i + run < len && run < (size_t)(limit - cols) &&
		       (unsigned char)s[i + run] >= 0x20 && (unsigned char)s[i + run] < 0x7f)
			run++;
		if (run > 0) {
			waddnstr(win, s + i, (int)run);
			cols += (int)run;
			i += run;
			continue;
		}
		waddnwstr(win, &wc, 1);
		cols += w;
		i += k;
	}
	if (i < len && ellipsis != NULL && limit < maxw)
		cols += prompt_str_draw(win, ellipsis, maxw - cols, NULL);
	return cols;
}

/* Cut an incomplete multibyte character off the end of s. */
void
prompt_str_trim(char *s)
{
	size_t len = strlen(s), i = 0;

	while (i < len) {
		mbstate_t st;
		size_t k;

		memset(&st, 0, sizeof st);
		k = mbrlen(s + i, len - i, &st);
		if (k == (size_t)-2) { /* only possible at the very end */
			s[i] = '\0';
			return;
		}
		i += k == (size_t)-1 || k == 0 ? 1 : k;
	}
}

/* Copy src into one of the prompt's buffers, whole characters only. */
static void
prompt_copy(char dst[PROMPT_MAX], const char *src)
{
	snprintf(dst, PROMPT_MAX, "%s", src != NULL ? src : "");
	prompt_str_trim(dst);
}

/* Start editing with an initial text, the cursor at its end. */
void
prompt_open(struct prompt *p, const char *label, const char *initial)
{
	p->active = true;
	p->label = label;
	prompt_copy(p->text, initial);
	p->cursor = strlen(p->text);
	p->hpos = -1;
	p->draft[0] = '\0';
}

/* Stop editing (the text and the history stay). */
void
prompt_close(struct prompt *p)
{
	p->active = false;
}

/* Byte length of the character at offset i of the text. */
static size_t
prompt_char_len(const struct prompt *p, size_t i)
{
	wchar_t wc;

	return str_char(p->text, strlen(p->text), i, &wc);
}

/* Offset of the character before the cursor (0 at the start). */
static size_t
prompt_prev(const struct prompt *p)
{
	size_t i = 0, prev = 0;

	while (i < p->cursor) {
		prev = i;
		i += prompt_char_len(p, i);
	}
	return prev;
}

/* Remove bytes [from, to) of the text; the cursor goes to from. */
static enum prompt_result
prompt_cut(struct prompt *p, size_t from, size_t to)
{
	if (from >= to)
		return PROMPT_NONE;
	memmove(p->text + from, p->text + to, strlen(p->text + to) + 1);
	p->cursor = from;
	p->hpos = -1;
	return PROMPT_CHANGED;
}

/* Insert a typed character at the cursor if it is printable and fits. */
static enum prompt_result
prompt_insert(struct prompt *p, wint_t ch)
{
	char mb[MB_LEN_MAX];
	mbstate_t st;
	size_t k, len = strlen(p->text);

	if (ch < 0x20 || !iswprint(ch))
		return PROMPT_NONE;
	memset(&st, 0, sizeof st);
	k = wcrtomb(mb, (wchar_t)ch, &st);
	if (k == (size_t)-1 || len + k >= PROMPT_MAX)
		return PROMPT_NONE;
	memmove(p->text + p->cursor + k, p->text + p->cursor, len - p->cursor + 1);
	memcpy(p->text + p->cursor, mb, k);
	p->cursor += k;
	p->hpos = -1;
	return PROMPT_CHANGED;
}

/* Move the cursor to byte offset to. */
static enum prompt_result
prompt_move(struct prompt *p, size_t to)
{
	p->cursor = to;
	return PROMPT_NONE;
}

/* Put the accepted text at the front of the history, dropping an older
 * copy of it (or the oldest entry when full). */
static void
prompt_push_history(struct prompt *p)
{
	int i;

	if (p->text[0] == '\0')
		return;
	for (i = 0; i < p->nhistory; i++)
		if (strcmp(p->history[i], p->text) == 0)
			break;
	if (i == p->nhistory) { /* not there: make room */
		if (p->nhistory < PROMPT_HISTORY)
			p->nhistory++;
		i = p->nhistory - 1;
	}
	memmove(p->history[1], p->history[0], (size_t)i * sizeof p->history[0]);
	memcpy(p->history[0], p->text, sizeof p->history[0]);
	p->hpos = -1;
}

/* Step through the history (dir +1 older, -1 newer), skipping entries
 * equal to the text shown; stepping past the newest brings the draft back. */
static enum prompt_result
prompt_history(struct prompt *p, int dir)
{
	int j;

	for (j = p->hpos + dir; j >= 0 && j < p->nhistory; j += dir)
		if (strcmp(p->history[j], p->text) != 0)
			break;
	if (j >= p->nhistory || (j < 0 && p->hpos < 0))
		return PROMPT_NONE;
	if (p->hpos < 0)
		memcpy(p->draft, p->text, sizeof p->draft);
	memcpy(p->text, j >= 0 ? p->history[j] : p->draft, sizeof p->text);
	p->hpos = j < 0 ? -1 : j;
	p->cursor = strlen(p->text);
	return PROMPT_CHANGED;
}

/* Enter or Esc: leave the editor with a result. */
static enum prompt_result
prompt_finish(struct prompt *p, enum prompt_result r)
{
	if (r == PROMPT_DONE)
		prompt_push_history(p);
	p->active = false;
	return r;
}

/* A KEY_* code. */
static enum prompt_result
prompt_fkey(struct prompt *p, wint_t key)
{
	switch (key) {
	case KEY_BACKSPACE:
		return prompt_cut(p, prompt_prev(p), p->cursor);
	case KEY_DC:
		return p->text[p->cursor] == '\0'
		           ? PROMPT_NONE
		           : prompt_cut(p, p->cursor, p->cursor + prompt_char_len(p, p->cursor));
	case KEY_LEFT:
		return prompt_move(p, prompt_prev(p));
	case KEY_RIGHT:
		return prompt_move(p, p->text[p->cursor] == '\0'
		                          ? p->cursor
		                          : p->cursor + prompt_char_len(p, p->cursor));
	case KEY_HOME:
		return prompt_move(p, 0);
	case KEY_END:
		return prompt_move(p, strlen(p->text));
	case KEY_UP:
		return prompt_history(p, +1);
	case KEY_DOWN:
		return prompt_history(p, -1);
	case KEY_ENTER:
		return prompt_finish(p, PROMPT_DONE);
	default:
		return PROMPT_NONE;
	}
}

/* Feed one key to the editor. */
enum prompt_result
prompt_key(struct prompt *p, wint_t ch, bool is_key)
{
	if (is_key)
		return prompt_fkey(p, ch);
	switch (ch) {
	case '\n':
	case '\r':
		return prompt_finish(p, PROMPT_DONE);
	case 27:
		return prompt_finish(p, PROMPT_CANCEL);
	case 127:
	case CTRL('H'):
		return prompt_fkey(p, KEY_BACKSPACE);
	case CTRL('A'):
		return prompt_fkey(p, KEY_HOME);
	case CTRL('E'):
		return prompt_fkey(p, KEY_END);
	case CTRL('U'):
		return prompt_cut(p, 0, strlen(p->text));
	default:
		return prompt_insert(p, ch);
	}
}

/* Draw the label, then the part of the text around the cursor. */
void
prompt_draw(const struct prompt *p, WINDOW *win, int y, int w, const struct theme *th)
{
	attr_t attr = th->attr[TH_STATUS];
	size_t len = strlen(p->text), i, start = 0;
	int avail = w, used = 0, curw = 1;
	wchar_t wc;

	if (w <= 0)
		return;
	wmove(win, y, 0);
	if (p->label != NULL) {
		wattrset(win, attr | A_BOLD);
		avail -= prompt_str_draw(win, p->label, w > 20 ? w - 10 : w / 2, NULL);
	}
	/* Scroll: start as late as needed to keep the cursor cell visible. */
	if (p->cursor < len) {
		str_char(p->text, len, p->cursor, &wc);
		curw = char_width(wc);
	}
	while (start < p->cursor && str_span_width(p->text, start, p->cursor) + curw > avail)
		start += str_char(p->text, len, start, &wc);
	for (i = start; i < len; i += str_char(p->text, len, i, &wc)) {
		str_char(p->text, len, i, &wc);
		if (used + char_width(wc) > avail)
			break;
		wattrset(win, i == p->cursor ? attr ^ A_REVERSE : attr);
		waddnwstr(win, &wc, 1);
		used += char_width(wc);
	}
	if (p->cursor == len && used < avail) { /* the cursor after the text */
		wattrset(win, attr ^ A_REVERSE);
		waddch(win, ' ');
		used++;
	}
	wattrset(win, attr);
	for (; used < avail; used++)
		waddch(win, ' ');
	wattrset(win, A_NORMAL);
}
