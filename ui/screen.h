/* screen: curses set-up and teardown (including on signals and crashes),
 * and the frame around the panes: header, tab bar, key bar, status line. */
#ifndef TRACETOP_UI_SCREEN_H
#define TRACETOP_UI_SCREEN_H

#include <stdbool.h>

#include "ui/curses.h"
#include "ui/tui.h"

/* Lines the frame uses above and below the pane area. */
#define SCREEN_HEADER_LINES 3 /* two header lines + tab bar, without meters */
#define SCREEN_FOOTER_LINES 2 /* status line + key bar */
/* The history strip under the header needs a screen this tall (a short
 * one keeps its lines for the rows). */
#define SCREEN_STRIP_MIN_LINES 16

/* Start curses on the terminal (newterm on stdin/stdout), keypad, no
 * echo, cbreak, short ESC delay, hidden cursor, colours when the terminal
 * has them, and (when mouse is set) button-1 press/release and wheel
 * events (xterm mouse mode 1000, with SGR coordinates where terminfo says
 * so; no motion events). Installs handlers that restore the terminal on crash
 * signals (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL) and at exit. Until
 * screen_end, stderr is held in a memory file and replayed after the
 * terminal is restored. -1 with a message on stderr if the terminal cannot
 * be used (stdin or stdout not a terminal, TERM unset or unknown). */
int screen_init(bool mouse);

/* Restore the terminal (idempotent, async-signal-tolerant). */
void screen_end(void);

/* Re-read the terminal size after SIGWINCH and resize curses. */
void screen_resize(void);

/* Lines above the pane area: the header, the meters shown, the tab bar. */
int screen_header_lines(const struct tui *t);

/* Draw the header (event, fallback notice, samples/s, lost, target, CPUs,
 * interval, decay/zero, frozen, zoom, hidden K/U) on lines 0-1 of stdscr,
 * the meters under them (ui/meters.h), then the tab bar; the caller refreshes. Fields are fitted to
 * COLS by priority (dropped, or cut with an ellipsis), never wrapped. The engine is read only
 * through engine_event_name, engine_nevents, engine_notice, engine_target and engine_stats, and
 * only when t->engine is not NULL (tests pass a fake engine or none). */
void screen_draw_header(struct tui *t);

/* Draw the status line (message, or the prompt when one is open) and the
 * key bar (from the key map, for the current pane's scope) at the bottom. */
void screen_draw_footer(struct tui *t);

#endif
