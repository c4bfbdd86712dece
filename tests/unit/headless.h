/* headless: curses tests without a terminal. ncurses runs on /dev/null
 * (the first terminal type with a terminfo entry), and what was drawn is
 * read back cell by cell. */
#ifndef TRACETOP_TEST_HEADLESS_H
#define TRACETOP_TEST_HEADLESS_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "ui/curses.h"

struct CMUnitTest;

/* Run a cmocka group on a 24x80 headless screen, in a UTF-8 locale when
 * there is one (required when need_utf8). Prints a TAP skip plan when no
 * screen (or locale) can be had. Returns the group's result. */
int headless_run(const char *name, const struct CMUnitTest *tests, size_t n, bool need_utf8);

/* Resize the screen and blank it. */
void headless_screen(int lines, int columns);

/* The character in the cell at (y, x) (both cells of a wide one give it);
 * its attributes in *attr unless NULL. */
wchar_t headless_cell(int y, int x, attr_t *attr);

/* n cells from (y, x) as UTF-8 (a wide character once), trailing blanks
 * removed; in a static buffer. */
const char *headless_text(int y, int x, int n);

#endif
