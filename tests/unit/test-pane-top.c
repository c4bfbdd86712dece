/* Unit tests for the Top pane (ui/pane-top.c), drawn headless: a struct
 * tui built by hand around a real hist of fake entries, ncurses on
 * /dev/null, the screen read back cell by cell. Layout at 80 and 120
 * columns, markers, sorting, the filter and search prompts, the row and
 * sort menus, zooms, the mouse, K/U and the empty states. tui_status,
 * tui_snapshot and engine_zoom_thread (the loop's and the engine's) are
 * small fakes here. */
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

#include "tracetop/callgraph.h"
#include "tracetop/hist.h"
#include "tracetop/util.h"
#include "ui/tui.h"

/* The pane area as the loop gives it: below the header, above the footer. */
#define PANE_Y 3
#define PANE_FOOT 2

static const char long_name[] = "delta_a_very_long_symbol_name_that_will_not_fit_in_eighty_columns";

struct fixture {
	struct hist *h;
	struct dso libc, app, kernel;
	struct sym alpha, beta, gamma, delta;
	struct sym helper, mainf;	/* on call stacks only */
	struct callgraph *cg;		/* set by setup_cg */
	const struct pane_ops *panes[1];
	void *states[1];
	struct tui t;
};

/* The fixture the fakes see. */
static struct fixture *cur;

/* What the fakes recorded. */
static int snapshots;
static int zoom_calls;
static int zoom_tids[8];

static const enum hist_sort by_overhead[] = { HIST_SORT_OVERHEAD, HIST_SORT_END };

/* Fake of the loop's status line: keep the message. */
void
tui_status(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->status, sizeof t->status, fmt, ap);
	va_end(ap);
	t->status_error = error;
	t->dirty = true;
}

/* The loop's row filter: zooms and K/U. */
static bool
keep(const struct hist_entry *e, void *arg)
{
	const struct tui *t = arg;

	if (e->key.kernel ? t->hide_kernel : t->hide_user)
		return false;
	if (t->zoom.pid != 0 && e->key.pid != t->zoom.pid)
		return false;
	if (t->zoom.dso != NULL && e->key.dso != t->zoom.dso)
		return false;
	return true;
}

/* Fake of the loop's snapshot: the fixture's hist through the filter,
 * then every pane's update. */
void
tui_snapshot(struct tui *t)
{
	snapshots++;
	hist_snapshot(cur->h, by_overhead, keep, t, &t->snap);
	for (size_t i = 0; i < t->npanes; i++)
		t->panes[i]->update(t->pane_state[i], t);
	t->dirty = true;
}

/* Fake of the engine's thread zoom: record the tid. */
void
engine_zoom_thread(struct engine *e, int tid)
{
	assert_null(e);
	if (zoom_calls < (int)(sizeof zoom_tids / sizeof zoom_tids[0]))
		zoom_tids[zoom_calls] = tid;
	zoom_calls++;
}

/* Count n samples for a key. */
static void
add_n(struct hist *h, const struct hist_key *k, int n)
{
	while (n-- > 0)
		hist_add(h, k);
}

/* Five rows of 100 samples: 40 alpha_fn (user), 30 beta_sched (kernel),
 * 20 gamma_work, 6 a long symbol, 4 an unresolved address; a Top pane
 * over them as the loop would set it up. */
static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct hist_key k;

	f->libc = (struct dso){ .name = "/usr/lib/libc.so.6", .short_name = "libc.so.6",
				.kind = DSO_ELF };
	f->app = (struct dso){ .name = "/opt/app/bin/gammad", .short_name = "gammad",
			       .kind = DSO_ELF };
	f->kernel = (struct dso){ .name = "[kernel.kallsyms]", .short_name = "[kernel.kallsyms]",
				  .kind = DSO_KERNEL };
	f->alpha = (struct sym){ .start = 0x1000, .size = 0x100, .name = "alpha_fn" };
	f->beta = (struct sym){ .start = 0xffff0000, .size = 0x80, .name = "beta_sched" };
	f->gamma = (struct sym){ .start = 0x2000, .size = 0x100, .name = "gamma_work" };
	f->delta = (struct sym){ .start = 0x3000, .size = 0x100, .name = long_name };
	f->h = hist_new(0.5);
	k = (struct hist_key){ .pid = 100, .tid = 101, .comm = str_intern("alpha-app"),
			       .dso = &f->libc, .sym = &f->alpha };
	add_n(f->h, &k, 40);
	k = (struct hist_key){ .pid = 200, .tid = 200, .comm = str_intern("beta-app"),
			       .dso = &f->kernel, .sym = &f->beta, .kernel = true };
	add_n(f->h, &k, 30);
	k = (struct hist_key){ .pid = 100, .tid = 102, .comm = str_intern("alpha-app"),
			       .dso = &f->app, .sym = &f->gamma };
	add_n(f->h, &k, 20);
	k = (struct hist_key){ .pid = 300, .tid = 300, .comm = str_intern("delta"),
			       .dso = &f->app, .sym = &f->delta };
	add_n(f->h, &k, 6);
	k = (struct hist_key){ .pid = 300, .tid = 300, .comm = str_intern("delta"), .dso = NULL,
			       .addr = 0x1a2b };
	add_n(f->h, &k, 4);
	hist_tick(f->h, true);

	theme_plain(&f->t.theme, false);
	f->t.delay = 2;
	f->t.prompt_owner = -1;
	f->t.refreshes = 1;
	f->panes[0] = &pane_top;
	f->t.panes = f->panes;
	f->t.pane_state = f->states;
	f->t.npanes = 1;
	f->states[0] = pane_top.init(&f->t);
	cur = f;
	tui_snapshot(&f->t);
	snapshots = 0;
	zoom_calls = 0;
	*state = f;
	return 0;
}

/* Release the fixture. */
static int
teardown(void **state)
{
	struct fixture *f = *state;

	pane_top.free(f->states[0]);
	if (f->cg != NULL)
		cg_free(f->cg);
	hist_snapshot_free(&f->t.snap);
	hist_free(f->h);
	free(f);
	cur = NULL;
	return 0;
}

/* Resize the screen and blank it. */
static void
screen(int lines, int columns)
{
	resize_term(lines, columns);
	werase(stdscr);
}

/* Draw the pane where the loop would, on a lines x columns screen. */
static void
draw(struct fixture *f, int lines, int columns)
{
	screen(lines, columns);
	pane_top.draw(f->states[0], &f->t, stdscr, PANE_Y, 0, LINES - PANE_Y - PANE_FOOT, COLS);
}

/* The character in the cell at (y, x); its attributes in *attr unless NULL. */
static wchar_t
cell_at(int y, int x, attr_t *attr)
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

/* Line y of the screen as text, trailing blanks removed. */
static const char *
line(int y)
{
	static char out[1024];
	int n = 0;

	for (int x = 0; x < COLS && n < (int)sizeof out - 1; x++) {
		wchar_t wc = cell_at(y, x, NULL);

		out[n++] = wc < 128 ? (char)wc : '#';
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	return out;
}

/* Line y of the pane: 0 the titles, 1 the first row. */
static const char *
pane_line(int y)
{
	return line(PANE_Y + y);
}

/* The symbols of the rows on screen, in order, space separated. */
static const char *
symbols_shown(void)
{
	static char out[512];
	size_t o = 0;

	out[0] = '\0';
	for (int y = PANE_Y + 1; y < LINES - PANE_FOOT; y++) {
		const char *l = line(y), *u = strstr(l, "[.] "), *k = strstr(l, "[k] ");
		const char *m = u == NULL || (k != NULL && k < u) ? k : u;

		if (m != NULL)
			o += (size_t)snprintf(out + o, sizeof out - o, "%s%.12s", o ? " " : "",
					      m + 4);
	}
	return out;
}

/* Act on the pane. */
static int
act(struct fixture *f, enum action a)
{
	return pane_top.action(f->states[0], &f->t, a);
}

/* Type text into the open prompt, telling the pane as the loop does. */
static void
type(struct fixture *f, const char *text)
{
	for (const char *c = text; *c != '\0'; c++) {
		enum prompt_result r = prompt_key(&f->t.prompt, (wint_t)(unsigned char)*c, false);

		assert_int_equal(r, PROMPT_CHANGED);
		pane_top.prompt(f->states[0], &f->t, r);
	}
}

/* Press Enter (done = true) or Esc in the open prompt, as the loop does. */
static void
finish(struct fixture *f, bool done)
{
	enum prompt_result r = prompt_key(&f->t.prompt, done ? '\n' : 27, false);

	assert_int_equal(r, done ? PROMPT_DONE : PROMPT_CANCEL);
	prompt_close(&f->t.prompt);
	pane_top.prompt(f->states[0], &f->t, r);
}

/* The menu item whose label starts with prefix, or NULL. */
static const struct menu_item *
menu_item(const struct menu *m, const char *prefix)
{
	for (size_t i = 0; i < m->n; i++)
		if (strncmp(m->items[i].label, prefix, strlen(prefix)) == 0)
			return &m->items[i];
	return NULL;
}

/* Open the selected row's menu and choose the item starting with prefix. */
static void
choose(struct fixture *f, const char *prefix)
{
	const struct menu_item *it;

	assert_int_equal(act(f, ACT_ENTER), REACT_HANDLED | REACT_REDRAW);
	assert_true(f->t.menu.active);
	it = menu_item(&f->t.menu, prefix);
	assert_non_null(it);
	assert_false(it->disabled);
	menu_close(&f->t.menu);
	pane_top.menu(f->states[0], &f->t, it->id);
}

/* The title of the selected row's menu (the menu is closed again). */
static const char *
menu_title_of_selection(struct fixture *f)
{
	static char title[64];

	assert_int_equal(act(f, ACT_ENTER), REACT_HANDLED | REACT_REDRAW);
	assert_true(f->t.menu.active);
	snprintf(title, sizeof title, "%s", f->t.menu.title);
	menu_close(&f->t.menu);
	return title;
}

/* 80 columns: Samples drops first, the rest in their places, rows in
 * overhead order with bars, the long symbol cut at the edge. */
static void
test_layout_80(void **state)
{
	struct fixture *f = *state;

	draw(f, 24, 80);
	assert_string_equal(pane_line(0),
			    "         vOverhead Command          PID Shared Object        Symbol");
	assert_null(strstr(pane_line(0), "Samples"));
	assert_string_equal(pane_line(1),
			    "40.00% ||||        alpha-app        100 libc.so.6        [.] alpha_fn");
	assert_string_equal(pane_line(2),
			    "30.00% |||         beta-app         200 [kernel.kallsym~ [k] beta_sched");
	assert_string_equal(pane_line(3),
			    "20.00% ||          alpha-app        100 gammad           [.] gamma_work");
	assert_string_equal(pane_line(4),
			    " 6.00%             delta            300 gammad           [.] "
			    "delta_a_very_long_~");
	assert_string_equal(pane_line(5),
			    " 4.00%             delta            300 [unknown]        [.] "
			    "[unknown] 0x1a2b");
	assert_string_equal(pane_line(6), "");
	assert_int_equal(strlen(pane_line(4)), 80);
}

/* 120 columns: every column, Samples too; the symbol takes the rest. */
static void
test_layout_120(void **state)
{
	struct fixture *f = *state;

	draw(f, 30, 120);
	assert_string_equal(pane_line(0), "         vOverhead  Samples Command          PID "
					  "Shared Object        Symbol");
	assert_string_equal(pane_line(1), "40.00% ||||              40 alpha-app        100 "
					  "libc.so.6        [.] alpha_fn");
	assert_string_equal(pane_line(2), "30.00% |||               30 beta-app         200 "
					  "[kernel.kallsym~ [k] beta_sched");
	assert_string_equal(pane_line(5), " 4.00%                    4 delta            300 "
					  "[unknown]        [.] [unknown] 0x1a2b");
	/* the long symbol fits better, still cut at column 119 */
	assert_string_equal(pane_line(4), " 6.00%                    6 delta            300 "
					  "gammad           [.] "
					  "delta_a_very_long_symbol_name_that_will_not_fit_i~");
	assert_int_equal(strlen(pane_line(4)), 120);
	assert_string_equal(symbols_shown(),
			    "alpha_fn beta_sched gamma_work delta_a_very [unknown] 0x");
}

/* Drawn narrower than the screen, nothing lands outside the area. */
static void
test_no_overflow(void **state)
{
	struct fixture *f = *state;
	static const int widths[] = { 80, 120, 60, 40 };

	for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
		int w = widths[i];

		screen(30, 140);
		pane_top.draw(f->states[0], &f->t, stdscr, PANE_Y, 10, 25, w);
		for (int y = 0; y < LINES; y++)
			for (int x = 0; x < COLS; x++)
				if (x < 10 || x >= 10 + w || y < PANE_Y || y >= PANE_Y + 25)
					assert_int_equal(cell_at(y, x, NULL), L' ');
		/* the long symbol is cut at the right edge of the area */
		assert_int_equal(cell_at(PANE_Y + 4, 10 + w - 1, NULL), L'~');
		assert_int_not_equal(cell_at(PANE_Y + 4, 10 + w - 2, NULL), L' ');
	}
}

/* [k] and [.] markers, in the kernel and dim attributes off the selection. */
static void
test_markers(void **state)
{
	struct fixture *f = *state;
	attr_t a;

	f->t.theme.attr[TH_KERNEL] = A_BOLD;
	f->t.theme.attr[TH_DIM] = A_DIM;
	draw(f, 24, 80);
	/* the mark column is at 57 at 80 columns */
	assert_int_equal(cell_at(PANE_Y + 2, 58, &a), L'k');
	assert_true(a & A_BOLD);
	assert_int_equal(cell_at(PANE_Y + 3, 58, &a), L'.');
	assert_true(a & A_DIM);
	/* the selected row is all in the selection's attribute */
	assert_int_equal(cell_at(PANE_Y + 1, 58, &a), L'.');
	assert_true(a & A_REVERSE);
	assert_false(a & A_DIM);
}

/* I inverts the order and the marker; again restores both. */
static void
test_sort_invert(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(act(f, ACT_SORT_INVERT), REACT_HANDLED | REACT_REDRAW);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(),
			    "[unknown] 0x delta_a_very gamma_work beta_sched alpha_fn");
	assert_non_null(strstr(pane_line(0), "^Overhead"));
	assert_int_equal(act(f, ACT_SORT_INVERT), REACT_HANDLED | REACT_REDRAW);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(),
			    "alpha_fn beta_sched gamma_work delta_a_very [unknown] 0x");
	assert_non_null(strstr(pane_line(0), "vOverhead"));
}

/* F6: the sort menu lists the titled sortable columns; text sorts A to Z,
 * numbers biggest first. */
static void
test_sort_menu(void **state)
{
	struct fixture *f = *state;
	const struct menu_item *it;

	assert_int_equal(act(f, ACT_SORT_MENU), REACT_HANDLED | REACT_REDRAW);
	assert_true(f->t.menu.active);
	assert_string_equal(f->t.menu.title, "Sort by");
	assert_int_equal(f->t.menu.n, 6);
	assert_string_equal(f->t.menu.items[0].label, "Overhead");
	assert_string_equal(f->t.menu.items[5].label, "Symbol");
	it = menu_item(&f->t.menu, "Symbol");
	menu_close(&f->t.menu);
	pane_top.menu(f->states[0], &f->t, it->id);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(),
			    "[unknown] 0x alpha_fn beta_sched delta_a_very gamma_work");
	assert_non_null(strstr(pane_line(0), "Symbol^"));

	act(f, ACT_SORT_MENU);
	it = menu_item(&f->t.menu, "PID");
	menu_close(&f->t.menu);
	pane_top.menu(f->states[0], &f->t, it->id);
	draw(f, 24, 80);
	assert_non_null(strstr(pane_line(0), "  vPID"));
	assert_non_null(strstr(pane_line(1), " 300 "));
	assert_non_null(strstr(pane_line(3), " 200 "));
	assert_non_null(strstr(pane_line(5), " 100 "));
	/* the sort menu's choice did not zoom anything */
	assert_int_equal(f->t.zoom.pid, 0);
	assert_int_equal(snapshots, 0);
}

/* F4: the filter prompt filters as it is typed, Enter keeps it, Esc in
 * the table clears it; "!" negates; no match says so. */
static void
test_filter(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(act(f, ACT_FILTER), REACT_HANDLED | REACT_REDRAW);
	assert_true(f->t.prompt.active);
	assert_string_equal(f->t.prompt.label, "Filter: ");
	assert_int_equal(f->t.prompt_owner, 0);
	type(f, "beta");
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "beta_sched");
	assert_string_equal(pane_line(1),
			    "30.00% |||         beta-app         200 [kernel.kallsym~ [k] beta_sched");
	finish(f, true);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "beta_sched");

	/* reopened, the prompt holds the filter */
	act(f, ACT_FILTER);
	assert_string_equal(f->t.prompt.text, "beta");
	finish(f, false);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(),
			    "alpha_fn beta_sched gamma_work delta_a_very [unknown] 0x");

	/* by command and shared object too, case-insensitively */
	act(f, ACT_FILTER);
	type(f, "GAMMAD");
	finish(f, true);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "gamma_work delta_a_very");
	assert_int_equal(act(f, ACT_CLOSE), REACT_HANDLED | REACT_REDRAW);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(),
			    "alpha_fn beta_sched gamma_work delta_a_very [unknown] 0x");
	/* nothing left to clear and no zoom: Esc is not the pane's */
	assert_int_equal(act(f, ACT_CLOSE), REACT_IGNORED);

	act(f, ACT_FILTER);
	type(f, "!alpha");
	finish(f, true);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "beta_sched delta_a_very [unknown] 0x");
	act(f, ACT_CLOSE);

	act(f, ACT_FILTER);
	type(f, "nothing");
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "");
	assert_non_null(strstr(line(PANE_Y + (24 - PANE_Y - PANE_FOOT) / 2),
			       "No rows match the filter (Esc clears it)"));
	finish(f, false);
	draw(f, 24, 80);
	assert_string_equal(pane_line(1),
			    "40.00% ||||        alpha-app        100 libc.so.6        [.] alpha_fn");
}

/* F3: incremental search selects the first match; a miss says so; n and
 * N move between matches. */
static void
test_search(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(act(f, ACT_SEARCH_NEXT), REACT_HANDLED | REACT_REDRAW);
	assert_string_equal(f->t.status, "no search yet: press / or F3");
	assert_false(f->t.status_error);

	assert_int_equal(act(f, ACT_SEARCH), REACT_HANDLED | REACT_REDRAW);
	assert_string_equal(f->t.prompt.label, "Search: ");
	type(f, "gamma");
	finish(f, true);
	assert_string_equal(menu_title_of_selection(f), "gamma_work");
	/* gammad is also the long symbol's shared object */
	act(f, ACT_SEARCH_NEXT);
	/* menu titles hold 63 bytes */
	assert_int_equal(strncmp(menu_title_of_selection(f), long_name, 63), 0);
	act(f, ACT_SEARCH_PREV);
	assert_string_equal(menu_title_of_selection(f), "gamma_work");

	f->t.status[0] = '\0';
	act(f, ACT_SEARCH);
	type(f, "zzz");
	assert_string_equal(f->t.status, "no match for 'zzz'");
	assert_true(f->t.status_error);
	finish(f, false);
	/* the selection did not move */
	assert_string_equal(menu_title_of_selection(f), "gamma_work");
}

/* Enter: the row's menu, named after its symbol. */
static void
test_row_menu(void **state)
{
	struct fixture *f = *state;
	const struct menu *m = &f->t.menu;

	assert_int_equal(act(f, ACT_ENTER), REACT_HANDLED | REACT_REDRAW);
	assert_true(m->active);
	assert_string_equal(m->title, "alpha_fn");
	assert_int_equal(m->n, 5);
	assert_string_equal(m->items[0].label, "Zoom into process 100 (alpha-app)");
	assert_false(m->items[0].disabled);
	assert_string_equal(m->items[1].label, "Zoom into thread 101 (its samples from now on)");
	assert_false(m->items[1].disabled);
	assert_string_equal(m->items[2].label, "Zoom into libc.so.6");
	assert_false(m->items[2].disabled);
	assert_string_equal(m->items[3].label, "Annotate alpha_fn (not in this version)");
	assert_true(m->items[3].disabled);
	assert_true(m->items[4].disabled);
	assert_int_equal(m->sel, 0);
	menu_close(&f->t.menu);

	/* the unresolved row has no shared object to zoom into */
	assert_int_equal(act(f, ACT_END), REACT_HANDLED | REACT_REDRAW);
	act(f, ACT_ENTER);
	assert_string_equal(m->title, "[unknown] 0x1a2b");
	assert_non_null(menu_item(m, "Zoom into [unknown]"));
	assert_true(menu_item(m, "Zoom into [unknown]")->disabled);
	assert_string_equal(m->items[0].label, "Zoom into process 300 (delta)");
	menu_close(&f->t.menu);
}

/* Zoom into the process: only its rows; Left backs out. */
static void
test_zoom_process(void **state)
{
	struct fixture *f = *state;

	choose(f, "Zoom into process");
	assert_int_equal(f->t.zoom.pid, 100);
	assert_int_equal(f->t.zoom.tid, 0);
	assert_null(f->t.zoom.dso);
	assert_int_equal(snapshots, 1);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "alpha_fn gamma_work");
	/* overheads stay shares of all samples */
	assert_string_equal(pane_line(1),
			    "40.00% ||||        alpha-app        100 libc.so.6        [.] alpha_fn");

	assert_int_equal(act(f, ACT_BACK), REACT_HANDLED | REACT_REDRAW);
	assert_int_equal(f->t.zoom.pid, 0);
	assert_int_equal(snapshots, 2);
	assert_int_equal(zoom_calls, 0);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(),
			    "alpha_fn beta_sched gamma_work delta_a_very [unknown] 0x");
	assert_int_equal(act(f, ACT_BACK), REACT_IGNORED);
	assert_int_equal(snapshots, 2);
}

/* Zoom into a thread: the engine is told, and told again on the way out. */
static void
test_zoom_thread(void **state)
{
	struct fixture *f = *state;

	choose(f, "Zoom into thread");
	assert_int_equal(f->t.zoom.tid, 101);
	assert_int_equal(f->t.zoom.pid, 100);
	assert_int_equal(zoom_calls, 1);
	assert_int_equal(zoom_tids[0], 101);
	assert_int_equal(act(f, ACT_CLOSE), REACT_HANDLED | REACT_REDRAW);
	assert_int_equal(zoom_calls, 2);
	assert_int_equal(zoom_tids[1], 0);
	assert_int_equal(f->t.zoom.tid, 0);
	assert_int_equal(f->t.zoom.pid, 0);
}

/* Zoom into a shared object: its rows only; Esc clears a filter before it
 * leaves the zoom. */
static void
test_zoom_dso(void **state)
{
	struct fixture *f = *state;

	act(f, ACT_DOWN);
	act(f, ACT_DOWN);
	choose(f, "Zoom into gammad");
	assert_ptr_equal(f->t.zoom.dso, &f->app);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "gamma_work delta_a_very");
	act(f, ACT_FILTER);
	type(f, "delta");
	finish(f, true);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "delta_a_very");
	act(f, ACT_CLOSE);
	assert_ptr_equal(f->t.zoom.dso, &f->app);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "gamma_work delta_a_very");
	act(f, ACT_CLOSE);
	assert_null(f->t.zoom.dso);
}

/* Clicks select rows and sort by titles; the wheel scrolls; releases are
 * not the pane's. */
static void
test_mouse(void **state)
{
	struct fixture *f = *state;
	void *p = f->states[0];

	draw(f, 24, 80);
	assert_int_equal(pane_top.mouse(p, &f->t, PANE_Y + 3, 70, BUTTON1_PRESSED),
			 REACT_HANDLED | REACT_REDRAW);
	assert_string_equal(menu_title_of_selection(f), "gamma_work");
	assert_int_equal(pane_top.mouse(p, &f->t, PANE_Y + 3, 70, BUTTON1_RELEASED),
			 REACT_IGNORED);

	/* Command is at 19..30 at 80 columns */
	assert_int_equal(pane_top.mouse(p, &f->t, PANE_Y, 22, BUTTON1_PRESSED),
			 REACT_HANDLED | REACT_REDRAW);
	draw(f, 24, 80);
	assert_non_null(strstr(pane_line(0), "Command^"));
	assert_non_null(strstr(pane_line(0), " Overhead"));
	assert_null(strstr(pane_line(0), "vOverhead"));
	/* again: inverted */
	pane_top.mouse(p, &f->t, PANE_Y, 22, BUTTON1_PRESSED);
	draw(f, 24, 80);
	assert_non_null(strstr(pane_line(0), "Commandv"));
	assert_non_null(strstr(pane_line(1), "delta "));

	/* the wheel, on a screen with room for three rows */
	pane_top.mouse(p, &f->t, PANE_Y, 5, BUTTON1_PRESSED);
	draw(f, 9, 80);
	assert_string_equal(symbols_shown(), "alpha_fn beta_sched gamma_work");
	assert_int_equal(pane_top.mouse(p, &f->t, PANE_Y + 1, 5, BUTTON5_PRESSED),
			 REACT_HANDLED | REACT_REDRAW);
	draw(f, 9, 80);
	assert_string_equal(symbols_shown(), "gamma_work delta_a_very [unknown] 0x");
	assert_int_equal(pane_top.mouse(p, &f->t, PANE_Y + 1, 5, BUTTON4_PRESSED),
			 REACT_HANDLED | REACT_REDRAW);
	draw(f, 9, 80);
	assert_string_equal(symbols_shown(), "alpha_fn beta_sched gamma_work");
}

/* K and U hide kernel and user rows and say so. */
static void
test_hide(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(act(f, ACT_HIDE_USER), REACT_HANDLED | REACT_REDRAW);
	assert_true(f->t.hide_user);
	assert_string_equal(f->t.status, "user symbols hidden");
	assert_false(f->t.status_error);
	assert_int_equal(snapshots, 1);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "beta_sched");
	assert_null(strstr(pane_line(1), "[.]"));
	act(f, ACT_HIDE_USER);
	assert_string_equal(f->t.status, "user symbols shown");
	assert_int_equal(act(f, ACT_HIDE_KERNEL), REACT_HANDLED | REACT_REDRAW);
	assert_string_equal(f->t.status, "kernel symbols hidden");
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "alpha_fn gamma_work delta_a_very [unknown] 0x");
}

/* Line y is text centred on an 80 column screen. */
static void
assert_centred(int y, const char *text)
{
	char want[128];

	snprintf(want, sizeof want, "%*s%s", (80 - (int)strlen(text)) / 2, "", text);
	assert_string_equal(line(y), want);
}

/* Empty panes say why. */
static void
test_empty(void **state)
{
	struct fixture *f = *state;
	int mid = PANE_Y + (24 - PANE_Y - PANE_FOOT) / 2;

	f->t.hide_user = f->t.hide_kernel = true;
	tui_snapshot(&f->t);
	f->t.refreshes = 0;
	draw(f, 24, 80);
	assert_centred(mid, "Waiting for samples...");
	f->t.refreshes = 1;
	draw(f, 24, 80);
	assert_centred(mid, "No samples here (K and U show the hidden symbols)");
	/* only user rows hidden (and the kernel row filtered out) */
	f->t.hide_kernel = false;
	tui_snapshot(&f->t);
	act(f, ACT_FILTER);
	type(f, "alpha");
	finish(f, true);
	draw(f, 24, 80);
	assert_centred(mid, "No rows match the filter (Esc clears it)");
	act(f, ACT_CLOSE);
	act(f, ACT_HIDE_USER);

	f->t.hide_user = f->t.hide_kernel = false;
	f->t.zoom.pid = 999;
	tui_snapshot(&f->t);
	draw(f, 24, 80);
	assert_centred(mid, "No samples here (Esc leaves the zoom)");
	assert_int_equal(act(f, ACT_CLOSE), REACT_HANDLED | REACT_REDRAW);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(),
			    "alpha_fn beta_sched gamma_work delta_a_very [unknown] 0x");

	/* an interval without samples at all */
	hist_tick(f->h, true);
	tui_snapshot(&f->t);
	draw(f, 24, 80);
	assert_centred(mid, "No samples in this interval");
	assert_int_equal(act(f, ACT_ENTER), REACT_HANDLED);
	assert_false(f->t.menu.active);
	/* one kind hidden: the key that shows it again */
	act(f, ACT_HIDE_USER);
	draw(f, 24, 80);
	assert_centred(mid, "No samples here (U shows user symbols)");
	act(f, ACT_HIDE_USER);
	act(f, ACT_HIDE_KERNEL);
	draw(f, 24, 80);
	assert_centred(mid, "No samples here (K shows kernel symbols)");
}

/* Count n stacks, leaf first, in alpha-app. */
static void
add_stack(struct fixture *f, int n, const struct sym *const *syms, size_t depth)
{
	struct cg_frame fr[8];

	for (size_t i = 0; i < depth; i++)
		fr[i] = (struct cg_frame){ .dso = syms[i] == &f->alpha ? &f->libc : &f->app,
					   .sym = syms[i] };
	while (n-- > 0)
		cg_add(f->cg, str_intern("alpha-app"), fr, depth);
}

/* The fixture with call stacks (70 samples in alpha-app): 30 main_fn ->
 * gamma_work -> alpha_fn, 10 main_fn -> gamma_work -> helper_fn, 10
 * main_fn -> alpha_fn, 20 main_fn -> gamma_work. The pane is set up again
 * as with -g: Children and Self columns. */
static int
setup_cg(void **state)
{
	struct fixture *f;

	setup(state);
	f = *state;
	f->helper = (struct sym){ .start = 0x4000, .size = 0x100, .name = "helper_fn" };
	f->mainf = (struct sym){ .start = 0x5000, .size = 0x100, .name = "main_fn" };
	f->cg = cg_new(0.5, 0);
	add_stack(f, 30, (const struct sym *const[]){ &f->alpha, &f->gamma, &f->mainf }, 3);
	add_stack(f, 10, (const struct sym *const[]){ &f->helper, &f->gamma, &f->mainf }, 3);
	add_stack(f, 10, (const struct sym *const[]){ &f->alpha, &f->mainf }, 2);
	add_stack(f, 20, (const struct sym *const[]){ &f->gamma, &f->mainf }, 2);
	cg_tick(f->cg, true);
	pane_top.free(f->states[0]);
	f->t.cg = f->cg;
	f->states[0] = pane_top.init(&f->t);
	tui_snapshot(&f->t);
	return 0;
}

/* The screen line holding text (searched from the first row), or -1. */
static int
find_line(const char *text)
{
	for (int y = PANE_Y + 1; y < LINES - PANE_FOOT; y++)
		if (strstr(line(y), text) != NULL)
			return y;
	return -1;
}

/* The selected line as drawn on a 30 x 120 screen (the reversed one),
 * or "" when none is. */
static const char *
selected(struct fixture *f)
{
	attr_t a;

	draw(f, 30, 120);
	for (int y = PANE_Y + 1; y < LINES - PANE_FOOT; y++) {
		cell_at(y, 0, &a);
		if (a & A_REVERSE)
			return line(y);
	}
	return "";
}

/* Is the selected line the row of sym (not a tree line)? */
static bool
row_selected(struct fixture *f, const char *sym)
{
	const char *l = selected(f);
	const char *m = strstr(l, "[.] ");

	return m != NULL && strcmp(m + 4, sym) == 0;
}

/* Select the row of a symbol (Home, then down until it is selected). */
static void
select_row(struct fixture *f, const char *sym)
{
	act(f, ACT_HOME);
	for (int i = 0; i < 20 && !row_selected(f, sym); i++)
		act(f, ACT_DOWN);
	assert_true(row_selected(f, sym));
}

/* + shows the callee tree under the row in ASCII glyphs, heaviest first;
 * - collapses it, and on an unopened tree line collapses the whole tree,
 * the selection back on the row. */
static void
test_tree_expand(void **state)
{
	struct fixture *f = *state;
	int y;

	draw(f, 30, 120);
	assert_non_null(strstr(pane_line(0), "Children"));
	assert_non_null(strstr(pane_line(0), "Self"));
	assert_non_null(strstr(pane_line(0), "Symbol (callees, % of total)"));
	select_row(f, "gamma_work");
	assert_int_equal(act(f, ACT_EXPAND), REACT_HANDLED | REACT_REDRAW);
	draw(f, 30, 120);
	y = find_line("gamma_work");
	assert_true(y > 0);
	assert_non_null(strstr(line(y + 1), "|- 42.86% alpha_fn"));
	assert_non_null(strstr(line(y + 2), "`- 14.29% helper_fn"));
	/* the tree line has no numbers nor marker */
	assert_null(strstr(line(y + 1), "[."));
	assert_true(row_selected(f, "gamma_work"));
	act(f, ACT_COLLAPSE);
	draw(f, 30, 120);
	assert_int_equal(find_line("helper_fn"), -1);
	/* again, then - on a tree line */
	act(f, ACT_EXPAND);
	act(f, ACT_DOWN);
	assert_non_null(strstr(selected(f), "|- 42.86% alpha_fn"));
	act(f, ACT_COLLAPSE);
	assert_true(row_selected(f, "gamma_work"));
	assert_int_equal(find_line("helper_fn"), -1);
}

/* E expands every row (those without stacks show nothing), C collapses. */
static void
test_tree_all(void **state)
{
	struct fixture *f = *state;

	act(f, ACT_HOME);
	assert_int_equal(act(f, ACT_EXPAND_ALL), REACT_HANDLED | REACT_REDRAW);
	draw(f, 30, 120);
	assert_true(find_line("alpha_fn") < find_line("beta_sched"));
	assert_true(find_line("gamma_work") < find_line("|- 42.86% alpha_fn"));
	assert_true(find_line("`- 14.29% helper_fn") > 0);
	assert_int_equal(act(f, ACT_COLLAPSE_ALL), REACT_HANDLED | REACT_REDRAW);
	draw(f, 30, 120);
	assert_int_equal(find_line("helper_fn"), -1);
	assert_int_equal(find_line("42.86%"), -1);
}

/* G: callers, the title says so; a single caller's chain shows whole,
 * Enter on a tree line collapses and expands it. */
static void
test_tree_callers(void **state)
{
	struct fixture *f = *state;
	int y;

	select_row(f, "alpha_fn");
	act(f, ACT_TREE_MODE);
	assert_string_equal(f->t.status, "trees show callers");
	act(f, ACT_EXPAND);
	draw(f, 30, 120);
	assert_non_null(strstr(pane_line(0), "Symbol (callers, % of total)"));
	y = find_line("alpha_fn");
	assert_non_null(strstr(line(y + 1), "|- 42.86% gamma_work"));
	assert_non_null(strstr(line(y + 2), "|  `- 42.86% main_fn"));
	assert_non_null(strstr(line(y + 3), "`- 14.29% main_fn"));
	act(f, ACT_DOWN);
	assert_int_equal(act(f, ACT_ENTER), REACT_HANDLED | REACT_REDRAW);
	assert_false(f->t.menu.active);
	draw(f, 30, 120);
	assert_non_null(strstr(line(y + 2), "`- 14.29% main_fn"));
	act(f, ACT_ENTER);
	draw(f, 30, 120);
	assert_non_null(strstr(line(y + 2), "|  `- 42.86% main_fn"));
	/* back to callees: alpha_fn is a leaf, its tree is empty */
	act(f, ACT_TREE_MODE);
	draw(f, 30, 120);
	assert_int_equal(find_line("main_fn"), -1);
	assert_true(row_selected(f, "alpha_fn"));
}

/* %: percentages of the parent, and back. */
static void
test_tree_percent(void **state)
{
	struct fixture *f = *state;
	int y;

	select_row(f, "gamma_work");
	act(f, ACT_EXPAND);
	act(f, ACT_TREE_PERCENT);
	draw(f, 30, 120);
	assert_non_null(strstr(pane_line(0), "Symbol (callees, % of parent)"));
	y = find_line("gamma_work");
	assert_non_null(strstr(line(y + 1), "|- 50.00% alpha_fn"));
	assert_non_null(strstr(line(y + 2), "`- 16.67% helper_fn"));
	act(f, ACT_TREE_PERCENT);
	draw(f, 30, 120);
	assert_non_null(strstr(line(y + 1), "|- 42.86% alpha_fn"));
}

/* UTF-8 glyphs when the theme has them. */
static void
test_tree_utf8(void **state)
{
	struct fixture *f = *state;
	wchar_t w[256];
	int y;

	if (strstr(setlocale(LC_CTYPE, NULL), "UTF-8") == NULL)
		skip();
	theme_plain(&f->t.theme, true);
	select_row(f, "alpha_fn");
	act(f, ACT_TREE_MODE);
	act(f, ACT_EXPAND);
	draw(f, 30, 120);
	y = find_line("gamma_work");
	for (int x = 0; x < COLS && x < 255; x++)
		w[x] = cell_at(y + 1, x, NULL);
	w[COLS < 255 ? COLS : 255] = L'\0';
	assert_non_null(wcsstr(w, L"\u2502  \u2514\u2500 42.86% main_fn"));
	for (int x = 0; x < COLS && x < 255; x++)
		w[x] = cell_at(y, x, NULL);
	assert_non_null(wcsstr(w, L"\u251c\u2500 42.86% gamma_work"));
}

/* A refresh rebuilds the trees: the selection stays on the same tree line
 * though its row moved. */
static void
test_tree_refresh(void **state)
{
	struct fixture *f = *state;
	struct hist_key k = { .pid = 100, .tid = 102, .comm = str_intern("alpha-app"),
			      .dso = &f->app, .sym = &f->gamma };

	select_row(f, "gamma_work");
	act(f, ACT_EXPAND);
	act(f, ACT_DOWN);
	act(f, ACT_DOWN);
	assert_non_null(strstr(selected(f), "`- 14.29% helper_fn"));
	assert_int_equal(find_line("gamma_work"), PANE_Y + 3);
	add_n(f->h, &k, 500);
	hist_tick(f->h, true);
	tui_snapshot(&f->t);
	draw(f, 30, 120);
	assert_non_null(strstr(pane_line(1), "gamma_work"));
	assert_non_null(strstr(pane_line(3), "`- 14.29% helper_fn"));
	assert_non_null(strstr(selected(f), "`- 14.29% helper_fn"));
}

/* The row menu shows callers or callees of the row. */
static void
test_tree_menu(void **state)
{
	struct fixture *f = *state;
	int y;

	select_row(f, "alpha_fn");
	choose(f, "Show callers of alpha_fn");
	draw(f, 30, 120);
	assert_non_null(strstr(pane_line(0), "callers"));
	y = find_line("alpha_fn");
	assert_non_null(strstr(line(y + 1), "|- 42.86% gamma_work"));
	select_row(f, "gamma_work");
	choose(f, "Show callees of gamma_work");
	draw(f, 30, 120);
	y = find_line("gamma_work");
	assert_non_null(strstr(line(y + 1), "|- 42.86% alpha_fn"));
	/* every tree now shows callees: alpha_fn's (a leaf) is empty */
	assert_int_equal(find_line("main_fn"), -1);
}

/* Without call stacks the tree keys only say how to get them. */
static void
test_tree_no_stacks(void **state)
{
	struct fixture *f = *state;

	draw(f, 24, 80);
	assert_null(strstr(pane_line(0), "Children"));
	assert_int_equal(act(f, ACT_EXPAND), REACT_HANDLED | REACT_REDRAW);
	assert_string_equal(f->t.status, "no call stacks: run with -g or --call-graph");
	act(f, ACT_ENTER);
	assert_null(menu_item(&f->t.menu, "Show callers"));
	menu_close(&f->t.menu);
}

/* A headless screen: the first terminal type with a terminfo entry. */
static SCREEN *
headless(void)
{
	static const char *const types[] = { "xterm-256color", "xterm", "vt100" };
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_layout_80, setup, teardown),
		cmocka_unit_test_setup_teardown(test_layout_120, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_markers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sort_invert, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sort_menu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_search, setup, teardown),
		cmocka_unit_test_setup_teardown(test_row_menu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zoom_process, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zoom_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zoom_dso, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mouse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hide, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tree_expand, setup_cg, teardown),
		cmocka_unit_test_setup_teardown(test_tree_all, setup_cg, teardown),
		cmocka_unit_test_setup_teardown(test_tree_callers, setup_cg, teardown),
		cmocka_unit_test_setup_teardown(test_tree_percent, setup_cg, teardown),
		cmocka_unit_test_setup_teardown(test_tree_utf8, setup_cg, teardown),
		cmocka_unit_test_setup_teardown(test_tree_refresh, setup_cg, teardown),
		cmocka_unit_test_setup_teardown(test_tree_menu, setup_cg, teardown),
		cmocka_unit_test_setup_teardown(test_tree_no_stacks, setup, teardown),
	};
	SCREEN *s;
	int rc;

	/* ASCII glyphs: any locale will do */
	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		setlocale(LC_ALL, "C");
	s = headless();
	if (s == NULL) {
		printf("1..0 # SKIP no terminfo entry for a headless screen\n");
		return 0;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	endwin();
	delscreen(s);
	return rc;
}
