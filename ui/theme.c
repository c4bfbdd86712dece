/* theme: colours and glyphs. An htop-like palette on colour terminals, a
 * monochrome scheme (bold, reverse, underline, dim only) when the terminal
 * has no colours or the user asked for none, and ASCII glyphs when the
 * locale is not UTF-8. */
#include "config.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

#include "ui/theme.h"

/* A colour that means "the terminal's own" (use_default_colors). */
#define DEF (-1)
/* Bright black: htop's grey, only on terminals with 16 colours or more. */
#define GRAY 8

/* How one item looks in colour and in monochrome. */
struct theme_spec {
	short fg, bg;      /* DEF, DEF: no colour pair */
	attr_t color_attr; /* added to the pair in colour */
	attr_t mono;       /* the whole attribute in monochrome */
};

static const struct theme_spec specs[TH_COUNT] = {
    [TH_NORMAL] = {DEF, DEF, A_NORMAL, A_NORMAL},
    [TH_HEADER_LABEL] = {COLOR_CYAN, DEF, A_NORMAL, A_NORMAL},
    [TH_HEADER_VALUE] = {DEF, DEF, A_BOLD, A_BOLD},
    [TH_HEADER_WARN] = {COLOR_YELLOW, DEF, A_BOLD, A_BOLD | A_UNDERLINE},
    [TH_TAB] = {COLOR_CYAN, DEF, A_NORMAL, A_NORMAL},
    [TH_TAB_ACTIVE] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
    [TH_TITLE] = {COLOR_BLACK, COLOR_GREEN, A_NORMAL, A_REVERSE},
    [TH_TITLE_SORTED] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE | A_BOLD},
    [TH_SELECTED] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
    [TH_BAR] = {COLOR_GREEN, DEF, A_NORMAL, A_BOLD},
    [TH_KERNEL] = {COLOR_MAGENTA, DEF, A_NORMAL, A_BOLD},
    [TH_DIM] = {GRAY, DEF, A_NORMAL, A_DIM},
    [TH_MATCH] = {COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_UNDERLINE | A_BOLD},
    [TH_KEY] = {COLOR_WHITE, COLOR_BLACK, A_BOLD, A_BOLD},
    [TH_KEY_LABEL] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
    [TH_STATUS] = {DEF, DEF, A_NORMAL, A_NORMAL},
    [TH_ERROR] = {COLOR_RED, DEF, A_BOLD, A_BOLD | A_REVERSE},
    [TH_DIALOG] = {COLOR_WHITE, COLOR_BLUE, A_NORMAL, A_NORMAL},
    [TH_DIALOG_SELECTED] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
    /* as htop: user green, system red, irq yellow, iowait grey, steal cyan;
     * in monochrome the meters tell the kinds apart by their characters */
    [TH_METER_USER] = {COLOR_GREEN, DEF, A_NORMAL, A_NORMAL},
    [TH_METER_SYSTEM] = {COLOR_RED, DEF, A_NORMAL, A_NORMAL},
    [TH_METER_IRQ] = {COLOR_YELLOW, DEF, A_NORMAL, A_NORMAL},
    [TH_METER_IOWAIT] = {GRAY, DEF, A_NORMAL, A_NORMAL},
    [TH_METER_STEAL] = {COLOR_CYAN, DEF, A_NORMAL, A_NORMAL},
    [TH_METER_BUFFERS] = {COLOR_BLUE, DEF, A_BOLD, A_NORMAL},
    [TH_METER_CACHE] = {COLOR_YELLOW, DEF, A_NORMAL, A_NORMAL},
    [TH_LOAD_LOW] = {COLOR_GREEN, DEF, A_NORMAL, A_NORMAL},
    [TH_LOAD_MID] = {COLOR_YELLOW, DEF, A_NORMAL, A_BOLD},
    [TH_LOAD_HIGH] = {COLOR_RED, DEF, A_BOLD, A_BOLD | A_REVERSE},
    [TH_THREAD] = {COLOR_GREEN, DEF, A_NORMAL, A_NORMAL},
    /* flamegraph.pl's palette as far as 8 colours go: warm user code,
     * red kernel, green JIT, aqua inlined, magenta matches; in monochrome
     * reverse video with bold, underline or dim for the kind */
    [TH_FLAME_USER] = {COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_REVERSE},
    [TH_FLAME_KERNEL] = {COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD},
    [TH_FLAME_JIT] = {COLOR_BLACK, COLOR_GREEN, A_NORMAL, A_REVERSE | A_UNDERLINE},
    [TH_FLAME_INLINED] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE | A_DIM},
    [TH_FLAME_OTHER] = {COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_BOLD},
    [TH_FLAME_MATCH] = {COLOR_WHITE, COLOR_MAGENTA, A_BOLD, A_BOLD | A_UNDERLINE},
};

/* Pick the glyph set: block bars and box lines in UTF-8, ASCII otherwise. */
static void
theme_glyphs(struct theme *th, bool utf8)
{
	th->utf8 = utf8;
	th->bar_full = utf8 ? "\u2588" : "|";
	th->ellipsis = utf8 ? "\u2026" : "~";
	th->hline = utf8 ? "\u2500" : "-";
}

/* The glyph set alone, no colours: what headless tests draw with. */
void
theme_plain(struct theme *th, bool utf8)
{
	memset(th, 0, sizeof(*th));
	theme_glyphs(th, utf8);
	th->attr[TH_SELECTED] = A_REVERSE;
	th->attr[TH_TITLE] = A_REVERSE;
	th->attr[TH_TITLE_SORTED] = A_REVERSE;
}

/* Does the user ask for no colour? NO_COLOR set to a non-empty value. */
static bool
no_color_env(void)
{
	const char *v = getenv("NO_COLOR");

	return v != NULL && *v != '\0';
}

/* Is the locale's character set UTF-8 (setlocale already done by main)? */
static bool
locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs != NULL && strcmp(cs, "UTF-8") == 0;
}

/* Set up the colour pairs; false when the terminal cannot hold them. */
static bool
theme_colors(struct theme *th)
{
	bool defaults;

	if (start_color() == ERR || COLOR_PAIRS <= TH_COUNT || COLORS < 8)
		return false;
	defaults = use_default_colors() == OK;
	for (int i = 0; i < TH_COUNT; i++) {
		const struct theme_spec *s = &specs[i];
		short fg = s->fg, bg = s->bg;
		attr_t extra = A_NORMAL;

		if (fg == GRAY && COLORS < 16) {
			/* No grey: dim text in the terminal's colour. */
			fg = DEF;
			extra = A_DIM;
		}
		if (fg == DEF && bg == DEF) {
			th->attr[i] = s->color_attr | extra;
			continue;
		}
		if (!defaults) {
			fg = fg == DEF ? COLOR_WHITE : fg;
			bg = bg == DEF ? COLOR_BLACK : bg;
		}
		init_pair((short)(i + 1), fg, bg);
		th->attr[i] = COLOR_PAIR(i + 1) | s->color_attr | extra;
	}
	return true;
}

/* Choose colours and glyphs for the current terminal and locale. */
void
theme_init(struct theme *th, bool no_color)
{
	theme_plain(th, locale_utf8());
	if (has_colors() && !no_color && !no_color_env() && theme_colors(th)) {
		th->color = true;
		return;
	}
	for (int i = 0; i < TH_COUNT; i++)
		th->attr[i] = specs[i].mono;
}
