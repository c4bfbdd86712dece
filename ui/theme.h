/* theme: colours and glyphs. htop-like colours, a monochrome scheme when
 * the terminal has no colours or NO_COLOR is set, and ASCII bars and lines
 * when the locale is not UTF-8. */
#ifndef TRACETOP_UI_THEME_H
#define TRACETOP_UI_THEME_H

#include <stdbool.h>

#include "ui/curses.h"

enum theme_item {
	TH_NORMAL,
	TH_HEADER_LABEL, /* "Event:" */
	TH_HEADER_VALUE,
	TH_HEADER_WARN, /* fallback notice, lost samples */
	TH_TAB,
	TH_TAB_ACTIVE,
	TH_TITLE,        /* column titles */
	TH_TITLE_SORTED, /* the sort column's title */
	TH_SELECTED,     /* the selected row */
	TH_BAR,          /* overhead bar */
	TH_KERNEL,       /* [k] marker */
	TH_DIM,          /* [.] marker, secondary text */
	TH_MATCH,        /* search match */
	TH_KEY,          /* key bar: key */
	TH_KEY_LABEL,    /* key bar: label */
	TH_STATUS,
	TH_ERROR,
	TH_DIALOG, /* menus and prompts */
	TH_DIALOG_SELECTED,
	/* header meters: CPU time by kind, memory by kind, load levels */
	TH_METER_USER,
	TH_METER_SYSTEM,
	TH_METER_IRQ,
	TH_METER_IOWAIT,
	TH_METER_STEAL,
	TH_METER_BUFFERS,
	TH_METER_CACHE,
	TH_LOAD_LOW,
	TH_LOAD_MID,
	TH_LOAD_HIGH,
	TH_THREAD, /* a thread's command under its process (htop's green) */
	/* flame graph frames by kind, and search matches */
	TH_FLAME_USER,
	TH_FLAME_KERNEL,
	TH_FLAME_JIT,
	TH_FLAME_INLINED,
	TH_FLAME_OTHER, /* the root, commands, [other] */
	TH_FLAME_MATCH,
	TH_COUNT
};

struct theme {
	bool color;            /* colour pairs in use */
	bool utf8;             /* UTF-8 glyphs allowed */
	attr_t attr[TH_COUNT]; /* attributes incl. COLOR_PAIR */
	const char *bar_full;  /* "█" or "|" */
	const char *ellipsis;  /* "…" or "~" */
	const char *hline;     /* "─" or "-" */
};

/* Choose colours and glyphs for the current terminal and locale. Call
 * after the curses screen exists. no_color forces monochrome. */
void theme_init(struct theme *th, bool no_color);

/* The glyph set alone (for headless tests that draw without colours). */
void theme_plain(struct theme *th, bool utf8);

#endif
