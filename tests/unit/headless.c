/* headless: curses on /dev/null for the UI's unit tests. */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "headless.h"

/* A screen on /dev/null: the first terminal type with a terminfo entry. */
static SCREEN *
headless_newterm(void)
{
	static const char *const types[] = {"xterm-256color", "xterm", "vt100"};
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");

	if (out == NULL || in == NULL)
		return NULL;
	if (getenv("TERM") == NULL)
		setenv("TERM", "xterm-256color", 1);
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		SCREEN *s = newterm(types[i], out, in);

		if (s != NULL)
			return s;
	}
	return NULL;
}

/* Locale, screen, the group, teardown. */
int
headless_run(const char *name, const struct CMUnitTest *tests, size_t n, bool need_utf8)
{
	SCREEN *s;
	int rc;

	if (setlocale(LC_ALL, "C.UTF-8") == NULL && setlocale(LC_ALL, "en_US.UTF-8") == NULL) {
		if (need_utf8) {
			printf("1..0 # SKIP no UTF-8 locale\n");
			return 0;
		}
		setlocale(LC_ALL, "C");
	}
	if ((s = headless_newterm()) == NULL) {
		printf("1..0 # SKIP no terminfo entry for a headless screen\n");
		return 0;
	}
	resize_term(24, 80);
	rc = _cmocka_run_group_tests(name, tests, n, NULL, NULL);
	endwin();
	delscreen(s);
	return rc;
}

/* Resize the screen and blank it. */
void
headless_screen(int lines, int columns)
{
	resize_term(lines, columns);
	werase(stdscr);
}

/* The character (and attributes) of one cell. */
wchar_t
headless_cell(int y, int x, attr_t *attr)
{
	cchar_t cc;
	wchar_t wc[CCHARW_MAX + 1];
	attr_t a;
	short pair;

	mvwin_wch(stdscr, y, x, &cc);
	getcchar(&cc, wc, &a, &pair, NULL);
	if (attr != NULL)
		*attr = a;
	return wc[0];
}

/* Cells read back as UTF-8 text. */
const char *
headless_text(int y, int x, int n)
{
	static char out[8192];
	wchar_t w[2048];
	int k = 0;

	for (int i = 0; i < n && k < 2047; i++) {
		w[k++] = headless_cell(y, x + i, NULL);
		if (wcwidth(w[k - 1]) == 2)
			i++;
	}
	while (k > 0 && w[k - 1] == L' ')
		k--;
	w[k] = L'\0';
	wcstombs(out, w, sizeof out);
	return out;
}
