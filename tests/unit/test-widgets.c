/* Unit tests for the frame widgets: the prompt's line editing and history,
 * the menu's navigation, and drawing (prompt, menu, header, footer) on a
 * headless curses screen (newterm on /dev/null), read back cell by cell.
 * The header reads the engine through five accessors, faked below. */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>

#include "headless.h"

#include "tracetop/util.h"
#include "ui/screen.h"
#include "ui/tui.h"

#define CTRL(c) ((c)&0x1f)

/* --------------------------------------------------------------- helpers */

/* Feed a string of ordinary characters to the prompt. */
static void
type(struct prompt *p, const wchar_t *s)
{
	while (*s != L'\0')
		prompt_key(p, (wint_t)*s++, false);
}

/* Feed one KEY_* code. */
static enum prompt_result
fkey(struct prompt *p, int key)
{
	return prompt_key(p, (wint_t)key, true);
}

/* The text of screen line y (COLS cells) as UTF-8. */
static void
line_text(int y, char *buf, size_t len)
{
	wchar_t w[512];

	memset(w, 0, sizeof w);
	mvwinnwstr(stdscr, y, 0, w, COLS < 511 ? COLS : 511);
	wcstombs(buf, w, len);
	buf[len - 1] = '\0';
}

/* The attributes of the cell at (y, x). */
static attr_t
cell_attr(int y, int x)
{
	return (attr_t)(mvwinch(stdscr, y, x) & A_ATTRIBUTES);
}

/* A blank screen of the given size, filled with '#' to see overdraw. */
static void
screen_of(int lines, int cols, bool hashes)
{
	resizeterm(lines, cols);
	wattrset(stdscr, A_NORMAL);
	werase(stdscr);
	for (int y = 0; hashes && y < lines; y++)
		mvwhline(stdscr, y, 0, '#', cols);
}

/* A plain theme whose items of interest have distinct attributes. */
static void
test_theme(struct theme *th)
{
	theme_plain(th, true);
	th->attr[TH_HEADER_WARN] = A_UNDERLINE;
	th->attr[TH_TAB_ACTIVE] = A_REVERSE;
	th->attr[TH_KEY] = A_BOLD;
	th->attr[TH_STATUS] = A_NORMAL;
	th->attr[TH_ERROR] = A_BLINK;
	th->attr[TH_DIALOG_SELECTED] = A_REVERSE;
}

/* ----------------------------------------------------------- the prompt */

/* ASCII and a two-byte character go in at the cursor. */
static void
test_prompt_insert(void **state)
{
	struct prompt p;

	memset(&p, 0, sizeof p);
	prompt_open(&p, "Search: ", "");
	assert_true(p.active);
	assert_int_equal(prompt_key(&p, 'a', false), PROMPT_CHANGED);
	type(&p, L"b\u00e9");
	assert_string_equal(p.text, "ab\xc3\xa9");
	assert_int_equal(p.cursor, 4);
	assert_int_equal(fkey(&p, KEY_LEFT), PROMPT_NONE);
	assert_int_equal(p.cursor, 2); /* before the whole é */
	type(&p, L"x");
	assert_string_equal(p.text, "abx\xc3\xa9");
	assert_int_equal(p.cursor, 3);
	prompt_open(&p, "Filter: ", "lib\xc3\xa9");
	assert_string_equal(p.text, "lib\xc3\xa9");
	assert_int_equal(p.cursor, 5);
}

/* Backspace (three ways) and Delete remove whole characters; Ctrl-U
 * clears the line. */
static void
test_prompt_delete(void **state)
{
	struct prompt p;

	memset(&p, 0, sizeof p);
	prompt_open(&p, NULL,
	            "a\xc3\xa9"
	            "bc");
	assert_int_equal(prompt_key(&p, 127, false), PROMPT_CHANGED);
	assert_string_equal(p.text, "a\xc3\xa9"
	                            "b");
	assert_int_equal(prompt_key(&p, CTRL('H'), false), PROMPT_CHANGED);
	assert_string_equal(p.text, "a\xc3\xa9");
	assert_int_equal(fkey(&p, KEY_BACKSPACE), PROMPT_CHANGED);
	assert_string_equal(p.text, "a");
	assert_int_equal(p.cursor, 1);
	assert_int_equal(fkey(&p, KEY_DC), PROMPT_NONE); /* nothing after */
	prompt_open(&p, NULL, "x\xc3\xa9y");
	fkey(&p, KEY_HOME);
	assert_int_equal(fkey(&p, KEY_BACKSPACE), PROMPT_NONE); /* nothing before */
	fkey(&p, KEY_RIGHT);
	assert_int_equal(fkey(&p, KEY_DC), PROMPT_CHANGED);
	assert_string_equal(p.text, "xy");
	assert_int_equal(p.cursor, 1);
	assert_int_equal(prompt_key(&p, CTRL('U'), false), PROMPT_CHANGED);
	assert_string_equal(p.text, "");
	assert_int_equal(p.cursor, 0);
	assert_int_equal(prompt_key(&p, CTRL('U'), false), PROMPT_NONE);
}

/* Left/Right step over whole characters; Home/End and Ctrl-A/Ctrl-E. */
static void
test_prompt_motion(void **state)
{
	static const size_t right[] = {1, 3, 4, 4};
	struct prompt p;

	memset(&p, 0, sizeof p);
	prompt_open(&p, NULL,
	            "a\xc3\xa9"
	            "b");
	fkey(&p, KEY_HOME);
	assert_int_equal(p.cursor, 0);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(fkey(&p, KEY_RIGHT), PROMPT_NONE);
		assert_int_equal(p.cursor, right[i]);
	}
	fkey(&p, KEY_LEFT);
	assert_int_equal(p.cursor, 3);
	fkey(&p, KEY_LEFT);
	assert_int_equal(p.cursor, 1);
	fkey(&p, KEY_LEFT);
	fkey(&p, KEY_LEFT);
	assert_int_equal(p.cursor, 0);
	fkey(&p, KEY_END);
	assert_int_equal(p.cursor, 4);
	prompt_key(&p, CTRL('A'), false);
	assert_int_equal(p.cursor, 0);
	prompt_key(&p, CTRL('E'), false);
	assert_int_equal(p.cursor, 4);
	assert_string_equal(p.text, "a\xc3\xa9"
	                            "b");
}

/* Enter accepts (and remembers), Esc cancels (and does not). */
static void
test_prompt_enter_esc(void **state)
{
	struct prompt p;

	memset(&p, 0, sizeof p);
	prompt_open(&p, NULL, "one");
	assert_int_equal(prompt_key(&p, '\n', false), PROMPT_DONE);
	assert_false(p.active);
	assert_string_equal(p.text, "one");
	prompt_open(&p, NULL, "two");
	assert_int_equal(prompt_key(&p, '\r', false), PROMPT_DONE);
	prompt_open(&p, NULL, "three");
	assert_int_equal(fkey(&p, KEY_ENTER), PROMPT_DONE);
	prompt_open(&p, NULL, "gone");
	assert_int_equal(prompt_key(&p, 27, false), PROMPT_CANCEL);
	assert_false(p.active);
	prompt_open(&p, NULL, "");
	assert_int_equal(prompt_key(&p, '\n', false), PROMPT_DONE); /* empty: not kept */
	assert_int_equal(p.nhistory, 3);
	assert_string_equal(p.history[0], "three");
	assert_string_equal(p.history[1], "two");
	assert_string_equal(p.history[2], "one");
}

/* Accept each text in turn. */
static void
accept_all(struct prompt *p, const char *const *texts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		prompt_open(p, NULL, texts[i]);
		assert_int_equal(prompt_key(p, '\n', false), PROMPT_DONE);
	}
}

/* Up goes to older entries, Down back to the text being typed; no
 * duplicates, newest first, bounded. */
static void
test_prompt_history(void **state)
{
	static const char *const texts[] = {"foo", "bar", "foo"};
	struct prompt p;
	char buf[8];

	memset(&p, 0, sizeof p);
	accept_all(&p, texts, 3);
	assert_int_equal(p.nhistory, 2);
	assert_string_equal(p.history[0], "foo");
	assert_string_equal(p.history[1], "bar");
	prompt_open(&p, NULL, "");
	type(&p, L"x");
	assert_int_equal(fkey(&p, KEY_UP), PROMPT_CHANGED);
	assert_string_equal(p.text, "foo");
	assert_int_equal(p.cursor, 3);
	assert_int_equal(fkey(&p, KEY_UP), PROMPT_CHANGED);
	assert_string_equal(p.text, "bar");
	assert_int_equal(fkey(&p, KEY_UP), PROMPT_NONE);
	assert_string_equal(p.text, "bar");
	assert_int_equal(fkey(&p, KEY_DOWN), PROMPT_CHANGED);
	assert_string_equal(p.text, "foo");
	assert_int_equal(fkey(&p, KEY_DOWN), PROMPT_CHANGED);
	assert_string_equal(p.text, "x"); /* what was typed comes back */
	assert_int_equal(fkey(&p, KEY_DOWN), PROMPT_NONE);
	/* An entry equal to the text shown is skipped. */
	prompt_open(&p, NULL, "foo");
	assert_int_equal(fkey(&p, KEY_UP), PROMPT_CHANGED);
	assert_string_equal(p.text, "bar");
	/* Bounded: the oldest go. */
	for (int i = 0; i < PROMPT_HISTORY + 4; i++) {
		snprintf(buf, sizeof buf, "e%d", i);
		accept_all(&p, (const char *const[]){buf}, 1);
	}
	assert_int_equal(p.nhistory, PROMPT_HISTORY);
	snprintf(buf, sizeof buf, "e%d", PROMPT_HISTORY + 3);
	assert_string_equal(p.history[0], buf);
	assert_string_equal(p.history[PROMPT_HISTORY - 1], "e4");
}

/* Is s valid UTF-8 throughout (no half character at the end)? */
static bool
valid_utf8(const char *s)
{
	return mbstowcs(NULL, s, 0) != (size_t)-1;
}

/* The text never outgrows the buffer, nor ends in half a character. */
static void
test_prompt_max(void **state)
{
	char big[PROMPT_MAX * 2];
	struct prompt p;

	memset(&p, 0, sizeof p);
	prompt_open(&p, NULL, "");
	for (int i = 0; i < PROMPT_MAX * 2; i++)
		prompt_key(&p, 'a', false);
	assert_int_equal(strlen(p.text), PROMPT_MAX - 1);
	assert_int_equal(prompt_key(&p, 'a', false), PROMPT_NONE);
	prompt_open(&p, NULL, "");
	for (int i = 0; i < PROMPT_MAX; i++)
		prompt_key(&p, 0xe9, false);
	assert_int_equal(strlen(p.text), PROMPT_MAX - 2); /* 31 é, no room for half */
	assert_true(valid_utf8(p.text));
	/* 62 'a' then é: one byte free, é needs two. */
	memset(big, 'a', PROMPT_MAX - 2);
	big[PROMPT_MAX - 2] = '\0';
	prompt_open(&p, NULL, big);
	assert_int_equal(prompt_key(&p, 0xe9, false), PROMPT_NONE);
	assert_int_equal(prompt_key(&p, 'b', false), PROMPT_CHANGED);
	assert_int_equal(strlen(p.text), PROMPT_MAX - 1);
	/* An initial text too long is cut on a character boundary. */
	strcat(big, "\xc3\xa9\xc3\xa9");
	prompt_open(&p, NULL, big);
	assert_int_equal(strlen(p.text), PROMPT_MAX - 2);
	assert_true(valid_utf8(p.text));
	assert_int_equal(p.cursor, PROMPT_MAX - 2);
}

/* Control characters (C0 not bound to an edit, DEL, C1) never go in. */
static void
test_prompt_controls(void **state)
{
	static const wint_t bad[] = {0, 2, 3, '\t', 11, 12, 0x1f, 0x80, 0x9b, 0x9f};
	struct prompt p;

	memset(&p, 0, sizeof p);
	prompt_open(&p, NULL, "ok");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(prompt_key(&p, bad[i], false), PROMPT_NONE);
		assert_string_equal(p.text, "ok");
	}
	assert_int_equal(fkey(&p, KEY_F(5)), PROMPT_NONE);
	assert_int_equal(fkey(&p, KEY_MOUSE), PROMPT_NONE);
	assert_string_equal(p.text, "ok");
	assert_true(p.active);
}

/* ------------------------------------------------------------- the menu */

/* A menu with disabled items at 0 and 2. */
static void
sample_menu(struct menu *m)
{
	menu_open(m, "Row");
	menu_add(m, 10, true, "Zoom into pid %d (it exited)", 42);
	menu_add(m, 11, false, "Zoom into thread %d", 43);
	menu_add(m, 12, true, "Zoom into %s (no syms)", "[anon]");
	menu_add(m, 13, false, "Zoom into libc.so.6");
}

/* Up/Down skip disabled items and wrap; Home/End; Enter returns the id. */
static void
test_menu_navigation(void **state)
{
	struct menu m;
	int id = 0;

	sample_menu(&m);
	assert_int_equal(m.n, 4);
	assert_int_equal(m.sel, 1); /* the first enabled */
	assert_int_equal(menu_action(&m, ACT_DOWN, &id), REACT_HANDLED | REACT_REDRAW);
	assert_int_equal(m.sel, 3);
	assert_int_equal(id, MENU_NONE);
	menu_action(&m, ACT_DOWN, &id);
	assert_int_equal(m.sel, 1); /* wrapped, skipping 0 */
	menu_action(&m, ACT_UP, &id);
	assert_int_equal(m.sel, 3); /* wrapped back, skipping 0 */
	menu_action(&m, ACT_UP, &id);
	assert_int_equal(m.sel, 1); /* skipping 2 */
	menu_action(&m, ACT_END, &id);
	assert_int_equal(m.sel, 3);
	menu_action(&m, ACT_HOME, &id);
	assert_int_equal(m.sel, 1);
	assert_int_equal(menu_action(&m, ACT_HOME, &id), REACT_HANDLED); /* no move */
	assert_int_equal(menu_action(&m, ACT_SEARCH, &id), REACT_IGNORED);
	assert_true(m.active);
	assert_int_equal(menu_action(&m, ACT_ENTER, &id), REACT_HANDLED | REACT_REDRAW);
	assert_int_equal(id, 11);
	assert_false(m.active);
	assert_int_equal(menu_action(&m, ACT_DOWN, &id), REACT_IGNORED); /* closed */
}

/* Esc, Left and q close; Enter on a menu with nothing enabled does nothing;
 * the menu holds at most MENU_MAX_ITEMS. */
static void
test_menu_close(void **state)
{
	static const enum action closers[] = {ACT_CLOSE, ACT_BACK, ACT_QUIT};
	struct menu m;
	int id = 0;

	for (size_t i = 0; i < 3; i++) {
		sample_menu(&m);
		assert_int_equal(menu_action(&m, closers[i], &id), REACT_HANDLED | REACT_REDRAW);
		assert_false(m.active);
		assert_int_equal(id, MENU_NONE);
	}
	menu_open(&m, "Nothing");
	assert_int_equal(menu_action(&m, ACT_ENTER, &id), REACT_HANDLED); /* empty */
	menu_add(&m, 1, true, "off");
	menu_add(&m, 2, true, "off too");
	menu_action(&m, ACT_DOWN, &id);
	assert_int_equal(menu_action(&m, ACT_ENTER, &id), REACT_HANDLED);
	assert_int_equal(id, MENU_NONE);
	assert_true(m.active);
	menu_open(&m, "Many");
	for (int i = 0; i < MENU_MAX_ITEMS + 5; i++)
		menu_add(&m, i, false, "item %d", i);
	assert_int_equal(m.n, MENU_MAX_ITEMS);
}

/* ------------------------------------------------------------- drawing */

/* The prompt shows label and text in w columns, the cursor reversed, and
 * scrolls long text so the cursor stays visible. */
static void
test_prompt_draw(void **state)
{
	struct theme th;
	struct prompt p;
	char line[512];

	test_theme(&th);
	screen_of(24, 80, true);
	memset(&p, 0, sizeof p);
	prompt_open(&p, "Search: ", "h\xc3\xa9llo");
	prompt_draw(&p, stdscr, 5, 30, &th);
	line_text(5, line, sizeof line);
	assert_memory_equal(line, "Search: h\xc3\xa9llo ", 15);
	assert_int_equal(strspn(line + 15, " "), 30 - 14);
	assert_int_equal(line[31], '#');           /* nothing past w (é is 2 bytes) */
	assert_true(cell_attr(5, 13) & A_REVERSE); /* the cursor after the text */
	assert_false(cell_attr(5, 12) & A_REVERSE);
	fkey(&p, KEY_HOME);
	prompt_draw(&p, stdscr, 5, 30, &th);
	assert_true(cell_attr(5, 8) & A_REVERSE);
	assert_false(cell_attr(5, 13) & A_REVERSE);
	/* 40 characters in 12 columns: the end and the cursor show. */
	prompt_open(&p, "Search: ", "abcdefghijklmnopqrstuvwxyz0123456789WXYZ");
	prompt_draw(&p, stdscr, 6, 20, &th);
	line_text(6, line, sizeof line);
	assert_memory_equal(line, "Search: 3456789WXYZ #", 21);
	assert_true(cell_attr(6, 19) & A_REVERSE);
	fkey(&p, KEY_HOME);
	prompt_draw(&p, stdscr, 6, 20, &th);
	line_text(6, line, sizeof line);
	assert_memory_equal(line, "Search: abcdefghijkl#", 21);
	assert_true(cell_attr(6, 8) & A_REVERSE);
}

/* The menu is a centred box with the title on its border; the selection
 * is highlighted; clicks choose enabled items only. */
static void
test_menu_draw(void **state)
{
	struct theme th;
	struct menu m;
	char line[512];
	int id;

	test_theme(&th);
	screen_of(24, 80, false);
	sample_menu(&m);
	menu_draw(&m, stdscr, 24, 80, &th);
	/* Widest label "Zoom into pid 42 (it exited)" is 28 columns: box 32. */
	assert_int_equal(m.w, 32);
	assert_int_equal(m.h, 6);
	assert_int_equal(m.x0, 24);
	assert_int_equal(m.y0, 9);
	line_text(9, line, sizeof line);
	assert_non_null(strstr(line, " Row "));
	assert_int_equal(mvwinch(stdscr, 9, 24) & A_CHARTEXT, ACS_ULCORNER & A_CHARTEXT);
	assert_int_equal(mvwinch(stdscr, 14, 55) & A_CHARTEXT, ACS_LRCORNER & A_CHARTEXT);
	assert_int_equal(mvwinch(stdscr, 9, 23) & A_CHARTEXT, ' ');
	assert_int_equal(mvwinch(stdscr, 9, 56) & A_CHARTEXT, ' ');
	line_text(11, line, sizeof line);
	assert_non_null(strstr(line, "Zoom into thread 43"));
	assert_true(cell_attr(11, 30) & A_REVERSE);
	assert_false(cell_attr(13, 30) & A_REVERSE);
	assert_true(cell_attr(10, 30) & A_DIM);
	/* Clicks: on the border, on a disabled item, on an enabled one. */
	assert_false(menu_click(&m, 9, 30, &id));
	assert_false(menu_click(&m, 10, 30, &id));
	assert_true(m.active);
	assert_true(menu_click(&m, 13, 30, &id));
	assert_int_equal(id, 13);
	assert_false(m.active);
}

/* On a small screen the box is cut to fit, labels end in an ellipsis and
 * the selection scrolls into view. */
static void
test_menu_small(void **state)
{
	struct theme th;
	struct menu m;
	char line[512];
	int id;

	test_theme(&th);
	screen_of(6, 20, true);
	menu_open(&m, "A rather long title");
	for (int i = 0; i < 8; i++)
		menu_add(&m, i, false, "a long item label %d", i);
	menu_action(&m, ACT_END, &id);
	menu_draw(&m, stdscr, 6, 20, &th);
	assert_int_equal(m.w, 20);
	assert_int_equal(m.h, 6);
	assert_int_equal(m.top, 4);
	line_text(4, line, sizeof line);
	assert_non_null(strstr(line, " a long item lab\xe2\x80\xa6 "));
	assert_int_equal(mvwinch(stdscr, 4, 0) & A_CHARTEXT, ACS_VLINE & A_CHARTEXT);
	assert_int_equal(mvwinch(stdscr, 4, 19) & A_CHARTEXT, ACS_VLINE & A_CHARTEXT);
	line_text(0, line, sizeof line);
	assert_non_null(strstr(line, " A rather long\xe2\x80\xa6 "));
}

/* A tui with two panes, a frame and everything on the header set. */
struct fixture {
	struct tui t;
	struct frame frame;
	struct frame_event events[2];
	struct fake_view {
		int pid;
		const char *dso;
		bool hide_kernel, hide_user;
	} view; /* what the fake Top pane's header says */
	void *states[2];
};

/* Add a field to a pane's header. */
static void
fake_field(struct pane_header *h, const char *label, int prio, int minw, const char *text)
{
	h->field[h->n].label = label;
	h->field[h->n].prio = prio;
	h->field[h->n].minw = minw;
	snprintf(h->field[h->n].text, sizeof h->field[h->n].text, "%s", text);
	h->n++;
}

/* The fake Top pane's header: its zoom and hiding, as the real one says. */
static void
fake_top_header(void *p, struct pane_header *h)
{
	const struct fake_view *v = p;
	char zoom[96] = "";

	if (v->pid > 0)
		snprintf(zoom, sizeof zoom, "pid %d", v->pid);
	if (v->dso != NULL)
		snprintf(zoom + strlen(zoom), sizeof zoom - strlen(zoom), "%sdso %s",
		         zoom[0] ? " " : "", v->dso);
	if (zoom[0] != '\0')
		fake_field(h, "Zoom: ", 1, 10, zoom);
	if (v->hide_kernel)
		fake_field(h, "", 2, 0, "K hidden");
	if (v->hide_user)
		fake_field(h, "", 2, 0, "U hidden");
}

static const struct pane_ops fake_top = {
    .name = "Top", .scope = SCOPE_TOP, .header = fake_top_header};
static const struct pane_ops fake_counters = {.name = "Counters", .scope = SCOPE_GLOBAL};
static const struct pane_ops *const fake_panes[] = {&fake_top, &fake_counters};

/* Fill f with a busy header: two events, a notice, lost samples, a zoom. */
static void
fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof *f);
	f->events[0].name = "cpu-clock";
	f->events[1].name = "page-faults";
	f->frame.sampling.events = f->events;
	f->frame.sampling.nevents = 2;
	f->frame.sampling.notice =
	    "cycles is not supported here (no hardware PMU): sampling cpu-clock instead";
	f->frame.sampling.target = "system-wide (2 CPUs)";
	f->frame.sampling.stats.lost = 3;
	f->t.frame = &f->frame;
	test_theme(&f->t.theme);
	f->t.delay = 2;
	f->t.frozen = true;
	f->t.snap_rate = 7998.4;
	f->view.pid = 123;
	f->view.dso = "libc.so.6";
	f->view.hide_kernel = true;
	f->states[0] = &f->view;
	f->t.pane_state = f->states;
	f->t.panes = fake_panes;
	f->t.npanes = 2;
	f->t.prompt_owner = -1;
}

/* Column of needle on line y, -1 when absent. */
static int
line_col(int y, const char *needle)
{
	char line[512], *at;

	line_text(y, line, sizeof line);
	at = strstr(line, needle);
	return at == NULL ? -1 : (int)(at - line);
}

/* 80 columns: every field is there, the notice cut to fit. */
static void
test_header_wide(void **state)
{
	struct fixture f;
	char line[512];

	fixture_init(&f);
	screen_of(24, 80, true);
	screen_draw_header(&f.t);
	assert_int_equal(line_col(0, "Event: cpu-clock [1/2]"), 0);
	assert_true(line_col(0, "(cycles is not supported") >= 0);
	assert_true(line_col(0, "Samples/s: 7998  Lost: 3") >= 0);
	assert_true(cell_attr(0, line_col(0, "(cycles")) & A_UNDERLINE);
	assert_true(cell_attr(0, line_col(0, "Lost: 3") + 6) & A_UNDERLINE);
	line_text(0, line, sizeof line);
	assert_null(strchr(line, '#'));
	assert_int_equal(line_col(1, "Target: system-wide (2 CPUs)"), 0);
	/* 97 columns wanted: decay/zero goes first, then K hidden. */
	assert_true(line_col(1, "  Refresh: 2.0s  FROZEN  Zoom: pid 123 dso libc.so.6") >= 0);
	assert_true(line_col(1, "decay") < 0);
	assert_true(line_col(1, "hidden") < 0);
	assert_true(cell_attr(1, line_col(1, "FROZEN")) & A_UNDERLINE);
	assert_int_equal(line_col(2, " Top   Counters "), 0);
	assert_true(cell_attr(2, 1) & A_REVERSE);
	assert_false(cell_attr(2, 7) & A_REVERSE);
	assert_true(line_col(3, "####") >= 0); /* the pane area is left alone */
	/* The help tab while help is shown. */
	f.t.help = true;
	f.t.event = 1;
	f.t.zero = true;
	f.view.dso = NULL;
	f.view.hide_kernel = false;
	screen_draw_header(&f.t);
	assert_true(line_col(0, "Event: page-faults [2/2]") >= 0);
	assert_true(line_col(1, "zero") >= 0);
	assert_true(line_col(2, " Top   Counters   Help ") >= 0);
	assert_false(cell_attr(2, 1) & A_REVERSE);
	assert_true(cell_attr(2, line_col(2, "Help")) & A_REVERSE);
}

/* A debuginfod download, then its servers out of reach, at the end of
 * the second line; the first thing cut after the zero/decay word. */
static void
test_header_debuginfod(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f);
	f.t.frozen = false;
	f.view.pid = 0;
	f.view.dso = NULL;
	f.view.hide_kernel = false;
	f.frame.sampling.debuginfod = (struct symdbg_status){
	    .on = true, .fetching = true, .name = "libfoo.so", .bytes = 2048};
	screen_of(24, 100, true);
	screen_draw_header(&f.t);
	assert_true(line_col(1, "Refresh: 2.0s  decay  debuginfod: fetching libfoo.so (2.0 KiB)") >=
	            0);
	assert_false(cell_attr(1, line_col(1, "fetching")) & A_UNDERLINE);
	f.frame.sampling.debuginfod.fetching = false;
	f.frame.sampling.debuginfod.offline = true;
	screen_draw_header(&f.t);
	assert_true(line_col(1, "debuginfod: offline") >= 0);
	assert_true(cell_attr(1, line_col(1, "offline")) & A_UNDERLINE);
	f.frame.sampling.debuginfod.offline = false;
	screen_draw_header(&f.t);
	assert_true(line_col(1, "debuginfod") < 0);
	/* narrow: decay goes, then this, before the refresh interval */
	f.frame.sampling.debuginfod.fetching = true;
	screen_of(24, 60, true);
	screen_draw_header(&f.t);
	assert_true(line_col(1, "decay") < 0);
	assert_true(line_col(1, "Refresh: 2.0s") >= 0);
	assert_true(line_col(1, "debuginfod: ") >= 0);
}

/* 40 and 20 columns: low-priority fields go first (lost samples outrank
 * the rate), the last one is cut, nothing wraps. */
static void
test_header_narrow(void **state)
{
	struct fixture f;
	char line[512];

	fixture_init(&f);
	screen_of(24, 40, true);
	screen_draw_header(&f.t);
	line_text(0, line, sizeof line);
	assert_string_equal(line, "Event: cpu-clock [1/2]  Lost: 3         ");
	line_text(1, line, sizeof line);
	assert_int_equal(line_col(1, "Target: system-wide (2 CPUs)  FROZEN"), 0);
	assert_true(line_col(1, "Refresh") < 0);
	assert_int_equal(line_col(2, " Top "), 0);
	screen_of(24, 20, true);
	screen_draw_header(&f.t);
	line_text(0, line, sizeof line);
	assert_string_equal(line, "Event: cpu-clock [1\xe2\x80\xa6");
	line_text(1, line, sizeof line);
	assert_string_equal(line, "Target: system-wide\xe2\x80\xa6");
	line_text(2, line, sizeof line);
	assert_string_equal(line, " Top   Counters     ");
	assert_true(line_col(3, "####################") >= 0);
}

/* A tab bar too wide for the screen scrolls to the active tab and marks
 * each side that has tabs cut off; Help counts as a tab. */
static void
test_tabs_scroll(void **state)
{
	static const struct pane_ops p[6] = {{.name = "Alpha"},   {.name = "Bravo"},
	                                     {.name = "Charlie"}, {.name = "Delta"},
	                                     {.name = "Echo"},    {.name = "Foxtrot"}};
	static const struct pane_ops *const panes[6] = {&p[0], &p[1], &p[2], &p[3], &p[4], &p[5]};
	struct fixture f;
	void *states[6] = {0};
	char line[512];

	(void)state;
	fixture_init(&f);
	f.t.panes = panes;
	f.t.pane_state = states;
	f.t.npanes = 6;
	screen_of(24, 30, false);
	screen_draw_header(&f.t);
	line_text(2, line, sizeof line);
	assert_string_equal(line, " Alpha  Bravo  Charlie       >"); /* the tabs touch */
	f.t.cur = 3;
	screen_draw_header(&f.t);
	line_text(2, line, sizeof line);
	assert_string_equal(line, "< Bravo  Charlie  Delta      >");
	assert_int_equal(line_col(2, " Delta "), 17);
	f.t.cur = 5; /* the last: no right marker */
	screen_draw_header(&f.t);
	line_text(2, line, sizeof line);
	assert_string_equal(line, "< Delta  Echo  Foxtrot        ");
	f.t.help = true;
	screen_draw_header(&f.t);
	line_text(2, line, sizeof line);
	assert_string_equal(line, "< Delta  Echo  Foxtrot  Help  ");
	/* room for all: no marker */
	f.t.help = false;
	screen_of(24, 60, false);
	screen_draw_header(&f.t);
	line_text(2, line, sizeof line);
	assert_int_equal(line_col(2, " Alpha   Bravo   Charlie   Delta   Echo   Foxtrot "), 0);
	assert_true(line_col(2, ">") < 0 && line_col(2, "<") < 0);
}

/* Untrusted text is escaped; without a sampling source the rest still shows. */
static void
test_header_escape(void **state)
{
	struct fixture f;

	fixture_init(&f);
	f.frame.sampling.target = "command ./a\x1b[31m";
	f.frame.sampling.notice = NULL;
	f.frame.sampling.nevents = 1;
	f.frame.sampling.stats.lost = 0;
	screen_of(24, 100, false);
	screen_draw_header(&f.t);
	assert_true(line_col(0, "Event: cpu-clock  Samples/s: 7998  Lost: 0") >= 0);
	assert_false(cell_attr(0, line_col(0, "Lost: 0") + 6) & A_UNDERLINE);
	assert_true(line_col(1, "Target: command ./a\\x1b[31m") >= 0);
	assert_true(line_col(1, "Zoom: pid 123 dso libc.so.6  K hidden") >= 0);
	f.frame.sampling.nevents = 0;
	f.frame.sampling.target = NULL;
	f.view.dso = NULL;
	f.view.hide_user = true;
	screen_draw_header(&f.t);
	assert_int_equal(line_col(0, "Samples/s: 7998"), 0);
	assert_int_equal(line_col(1, "Refresh: 2.0s"), 0);
	assert_true(line_col(1, "Zoom: pid 123  K hidden  U hidden") >= 0);
}

/* The status message until it expires, in the error colour for errors;
 * the prompt when one is open. */
static void
test_footer_status(void **state)
{
	struct fixture f;

	fixture_init(&f);
	screen_of(24, 80, true);
	snprintf(f.t.status, sizeof f.t.status, "refreshing every 1 s");
	f.t.status_until = now_ns() + 60000000000ULL;
	screen_draw_footer(&f.t);
	assert_int_equal(line_col(22, "refreshing every 1 s"), 0);
	assert_true(line_col(22, "#") < 0);
	assert_false(cell_attr(22, 0) & A_BLINK);
	f.t.status_error = true;
	screen_draw_footer(&f.t);
	assert_true(cell_attr(22, 0) & A_BLINK);
	f.t.status_until = now_ns() - 1;
	screen_draw_footer(&f.t);
	assert_string_equal(f.t.status, "");
	assert_true(line_col(22, "refreshing") < 0);
	prompt_open(&f.t.prompt, "Filter: ", "libc");
	screen_draw_footer(&f.t);
	assert_int_equal(line_col(22, "Filter: libc "), 0);
	assert_true(cell_attr(22, 12) & A_REVERSE);
	assert_true(line_col(21, "####") >= 0); /* the pane area is left alone */
}

/* The key bar at 80 and 40 columns, and over the help. */
static void
test_footer_keys(void **state)
{
	struct fixture f;
	char full[512], line[512];
	size_t n;

	fixture_init(&f);
	screen_of(24, 80, true);
	screen_draw_footer(&f.t);
	line_text(23, full, sizeof full);
	assert_int_equal(line_col(23, "F1Help  F3Search"), 0);
	assert_non_null(strstr(full, "F10Quit"));
	assert_non_null(strstr(full, "F6SortBy"));
	assert_null(strstr(full, "#"));
	assert_null(strstr(strstr(full, "Help") + 4, "Help")); /* one entry per action */
	assert_true(cell_attr(23, 0) & A_BOLD);                /* "F1" */
	assert_false(cell_attr(23, 2) & A_BOLD);               /* "Help" */
	assert_true(cell_attr(23, line_col(23, "F10")) & A_BOLD);
	/* Narrow: a prefix of the wide bar, cut between entries. */
	screen_of(24, 40, true);
	screen_draw_footer(&f.t);
	line_text(23, line, sizeof line);
	assert_memory_equal(line, "F1Help", 6);
	n = strlen(line);
	while (n > 0 && line[n - 1] == ' ')
		n--;
	assert_memory_equal(line, full, n);
	assert_int_equal(full[n], ' ');
	/* Over the help, or on a pane without table keys: global keys only. */
	screen_of(24, 80, true);
	f.t.help = true;
	screen_draw_footer(&f.t);
	assert_true(line_col(23, "F1Help  ZFreeze  F10Quit") >= 0);
	assert_true(line_col(23, "Search") < 0);
	f.t.help = false;
	f.t.cur = 1;
	screen_draw_footer(&f.t);
	assert_true(line_col(23, "F1Help  ZFreeze  F10Quit") >= 0);
}

/* ----------------------------------------------------------------- main */

int
main(void)
{
	static const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_prompt_insert),   cmocka_unit_test(test_prompt_delete),
	    cmocka_unit_test(test_prompt_motion),   cmocka_unit_test(test_prompt_enter_esc),
	    cmocka_unit_test(test_prompt_history),  cmocka_unit_test(test_prompt_max),
	    cmocka_unit_test(test_prompt_controls), cmocka_unit_test(test_menu_navigation),
	    cmocka_unit_test(test_menu_close),      cmocka_unit_test(test_prompt_draw),
	    cmocka_unit_test(test_menu_draw),       cmocka_unit_test(test_menu_small),
	    cmocka_unit_test(test_header_wide),     cmocka_unit_test(test_header_narrow),
	    cmocka_unit_test(test_tabs_scroll),     cmocka_unit_test(test_header_debuginfod),
	    cmocka_unit_test(test_header_escape),   cmocka_unit_test(test_footer_status),
	    cmocka_unit_test(test_footer_keys),
	};

	return headless_run("widgets", tests, sizeof tests / sizeof tests[0], true);
}
