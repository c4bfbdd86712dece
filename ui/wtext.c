/* wtext: text by display width, and the pen that writes it. */
#include "config.h"

#include <string.h>
#include <wchar.h>

#include "ui/wtext.h"

/* The cells a decoded character takes (always >= 0 after wtext_set). */
static int
wchar_cells(wchar_t wc)
{
	int w;

	if (wc >= 0x20 && wc < 0x7f)
		return 1; /* ASCII: the cells of most text, without wcwidth */
	w = wcwidth(wc);

	return w < 0 ? 1 : w;
}

/* Decode UTF-8 for the screen. Bytes that do not decode and characters
 * that do not print become '?', so nothing partial reaches the terminal. */
void
wtext_set(struct wtext *wt, const char *s)
{
	size_t len = strlen(s);
	mbstate_t st;

	memset(&st, 0, sizeof(st));
	wt->n = 0;
	wt->width = 0;
	while (len > 0 && wt->n < WTEXT_MAX) {
		wchar_t wc;
		size_t k;
		int cw;

		/* printable ASCII decodes to itself, one cell wide: most of
		 * what a table shows, without the decoder's cost */
		if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f) {
			wt->s[wt->n++] = (wchar_t)(unsigned char)*s++;
			wt->width++;
			len--;
			continue;
		}
		k = mbrtowc(&wc, s, len, &st);

		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			memset(&st, 0, sizeof(st));
			wc = L'?';
			k = 1;
		}
		s += k;
		len -= k;
		cw = wcwidth(wc);
		if (cw < 0) {
			wc = L'?';
			cw = 1;
		} else if (cw == 0 && wt->n == 0) {
			continue; /* a combining mark with nothing to combine with */
		}
		wt->s[wt->n++] = wc;
		wt->width += cw;
	}
	wt->more = len > 0;
}

/* How many leading characters of wt fit in cells; *used gets their width. */
static int
wtext_prefix(const struct wtext *wt, int cells, int *used)
{
	int i, w = 0;

	for (i = 0; i < wt->n; i++) {
		int cw = wchar_cells(wt->s[i]);

		if (w + cw > cells)
			break;
		w += cw;
	}
	*used = w;
	return i;
}

/* Add tail's characters at the end of wt (as many as fit in the buffer). */
void
wtext_append(struct wtext *wt, const struct wtext *tail)
{
	for (int i = 0; i < tail->n && wt->n < WTEXT_MAX; i++) {
		wt->s[wt->n++] = tail->s[i];
		wt->width += wchar_cells(tail->s[i]);
	}
}

/* Cut wt to at most cells wide; a cut text ends with the ellipsis. */
void
wtext_fit(struct wtext *wt, int cells, const struct wtext *ell)
{
	int used, room;

	if (wt->width <= cells && !wt->more)
		return;
	room = cells - ell->width;
	wt->more = false;
	if (room < 0) {
		wt->n = wtext_prefix(wt, cells, &used);
		wt->width = used;
		return;
	}
	wt->n = wtext_prefix(wt, room, &used);
	while (wt->n > 0 && wt->n + ell->n > WTEXT_MAX)
		used -= wchar_cells(wt->s[--wt->n]); /* make room for the ellipsis */
	wt->width = used;
	wtext_append(wt, ell);
}

/* Make a an attribute of the window, colour pair included. */
void
pen_attr(struct pen *p, attr_t a)
{
	wattr_set(p->win, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL);
}

/* Write n blanks at (y, x). */
void
pen_blank(struct pen *p, int y, int x, int n, attr_t a)
{
	static const wchar_t blanks[] = L"                                ";
	const int chunk = (int)(sizeof(blanks) / sizeof(blanks[0])) - 1;

	pen_attr(p, a);
	/* a line of the window's blank in its attribute: what writing
	 * blanks gives, without their decoding */
	if (n > 0 && mvwhline(p->win, y, x, ' ', n) == OK)
		return;
	while (n > 0) {
		int k = n < chunk ? n : chunk;

		mvwaddnwstr(p->win, y, x, blanks, k);
		x += k;
		n -= k;
	}
}

/* Write wt at (y, x) in attribute a (the window's already): printable
 * ASCII as plain cells (no decoding, no wrap: the text was fitted),
 * anything else as wide characters. */
static void
pen_chars(struct pen *p, int y, int x, const struct wtext *wt, attr_t a)
{
	chtype cells[WTEXT_MAX];
	int i;

	for (i = 0; i < wt->n && wt->s[i] >= 0x20 && wt->s[i] < 0x7f; i++)
		cells[i] = (chtype)wt->s[i] | (chtype)a;
	if (i == wt->n && mvwaddchnstr(p->win, y, x, cells, wt->n) == OK)
		return;
	mvwaddnwstr(p->win, y, x, wt->s, wt->n);
}

/* Write wt (already fitted) in a field of cells at (y, x), padded on the
 * left when right-aligned, on the right otherwise. */
void
pen_text(struct pen *p, int y, int x, int cells, const struct wtext *wt, bool right, attr_t a)
{
	int pad = cells > wt->width ? cells - wt->width : 0;

	if (right && pad > 0) {
		pen_blank(p, y, x, pad, a);
		x += pad;
	}
	if (wt->n > 0) {
		pen_attr(p, a);
		pen_chars(p, y, x, wt, a);
	}
	if (!right && pad > 0)
		pen_blank(p, y, x + wt->width, pad, a);
}

/* Decode the theme's glyphs once per draw. */
void
pen_init(struct pen *p, WINDOW *win, const struct theme *th)
{
	p->win = win;
	p->th = th;
	wtext_set(&p->ell, th->ellipsis ? th->ellipsis : "~");
	wtext_set(&p->glyph, th->bar_full ? th->bar_full : "|");
	wtext_set(&p->down, th->utf8 ? "\u25bc" : "v");
	wtext_set(&p->up, th->utf8 ? "\u25b2" : "^");
}

/* Drop the first cells of wt; what is left starts with the ellipsis. */
bool
wtext_skip(struct wtext *wt, int cells, const struct wtext *ell)
{
	int i = 0, w = 0, k = 0;

	if (cells <= 0 || wt->n == 0)
		return false;
	while (i < wt->n && w < cells + ell->width)
		w += wchar_cells(wt->s[i++]);
	if (i >= wt->n && !wt->more) {
		wt->n = 0;
		wt->width = 0;
		return true;
	}
	for (int j = 0; j < ell->n; j++)
		wt->s[k++] = ell->s[j];
	memmove(wt->s + k, wt->s + i, (size_t)(wt->n - i) * sizeof(wt->s[0]));
	wt->n = k + wt->n - i;
	wt->width = wt->width - w + ell->width;
	return true;
}

/* The first line of s wrapped at cells, in bytes. */
size_t
wtext_wrap(const char *s, int cells)
{
	size_t i = 0, brk = 0, len = strlen(s);
	mbstate_t st;
	int w = 0;

	memset(&st, 0, sizeof(st));
	while (i < len && s[i] != '\n') {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s + i, len - i, &st);
		int cw;

		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			memset(&st, 0, sizeof(st));
			wc = L'?';
			k = 1;
		}
		cw = wcwidth(wc);
		if (cw < 0)
			cw = 1;
		if (w + cw > cells && i > 0) /* at a blank, unless that wastes half the line */
			return brk > i / 2 ? brk : i;
		w += cw;
		i += k;
		if (wc == L' ')
			brk = i;
	}
	return i < len ? i + 1 : i; /* the '\n' goes with its line */
}
