/* curses: the one place that includes ncursesw (only ui/ may). */
#ifndef TRACETOP_UI_CURSES_H
#define TRACETOP_UI_CURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <ncursesw/curses.h>

#endif
