/* Unit tests of the Top pane drawn headless: layout, markers, sorting,
 * filter, search, menus, zoom, mouse, hiding, empty states, C++ names. */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pane-fixture.h"
static void
test_layout_80(void **state)
{
	struct fixture *f = *state;

	draw(f, 24, 80);
	/* Samples drops, the bar shrinks to its title, Command and Shared
	 * Object are as wide as their text ("[kernel.kallsyms]" whole) */
	assert_string_equal(pane_line(0),
	                    "  vOverhead Command       PID Shared Object         Symbol");
	assert_null(strstr(pane_line(0), "Samples"));
	assert_string_equal(pane_line(1),
	                    "40.00% |    alpha-app     100 libc.so.6         [.] alpha_fn");
	assert_string_equal(pane_line(2),
	                    "30.00% |    beta-app      200 [kernel.kallsyms] [k] beta_sched");
	assert_string_equal(pane_line(3),
	                    "20.00%      alpha-app     100 gammad            [.] gamma_work");
	assert_string_equal(pane_line(4), " 6.00%      delta         300 gammad            [.] "
	                                  "delta_a_very_long_symbol_na~");
	assert_string_equal(pane_line(5),
	                    " 4.00%      delta         300 [unknown]         [.] [unknown] 0x1a2b");
	assert_string_equal(pane_line(6), "");
	assert_int_equal(strlen(pane_line(4)), 80);
}

/* 120 columns: every column, Samples too; the symbol takes the rest. */
static void
test_layout_120(void **state)
{
	struct fixture *f = *state;

	draw(f, 30, 120);
	assert_string_equal(pane_line(0), "         vOverhead  Samples Command       PID "
	                                  "Shared Object         Symbol");
	assert_string_equal(pane_line(1), "40.00% ||||              40 alpha-app     100 "
	                                  "libc.so.6         [.] alpha_fn");
	assert_string_equal(pane_line(2), "30.00% |||               30 beta-app      200 "
	                                  "[kernel.kallsyms] [k] beta_sched");
	assert_string_equal(pane_line(5), " 4.00%                    4 delta         300 "
	                                  "[unknown]         [.] [unknown] 0x1a2b");
	/* the long symbol fits better, still cut at column 119 */
	assert_string_equal(pane_line(4), " 6.00%                    6 delta         300 "
	                                  "gammad            [.] "
	                                  "delta_a_very_long_symbol_name_that_will_not_fit_in_~");
	assert_int_equal(strlen(pane_line(4)), 120);
	assert_string_equal(symbols_shown(),
	                    "alpha_fn beta_sched gamma_work delta_a_very [unknown] 0x");
}

/* Drawn narrower than the screen, nothing lands outside the area. */
static void
test_no_overflow(void **state)
{
	struct fixture *f = *state;
	static const int widths[] = {80, 120, 60, 40};

	for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
		int w = widths[i];

		headless_screen(30, 140);
		pane_top.draw(f->states[0], &f->t, stdscr, PANE_Y, 10, 25, w);
		for (int y = 0; y < LINES; y++)
			for (int x = 0; x < COLS; x++)
				if (x < 10 || x >= 10 + w || y < PANE_Y || y >= PANE_Y + 25)
					assert_int_equal(headless_cell(y, x, NULL), L' ');
		/* the long symbol is cut at the right edge of the area */
		assert_int_equal(headless_cell(PANE_Y + 4, 10 + w - 1, NULL), L'~');
		assert_int_not_equal(headless_cell(PANE_Y + 4, 10 + w - 2, NULL), L' ');
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
	/* the mark column is at 48 at 80 columns */
	assert_int_equal(headless_cell(PANE_Y + 2, 49, &a), L'k');
	assert_true(a & A_BOLD);
	assert_int_equal(headless_cell(PANE_Y + 3, 49, &a), L'.');
	assert_true(a & A_DIM);
	/* the selected row is all in the selection's attribute */
	assert_int_equal(headless_cell(PANE_Y + 1, 49, &a), L'.');
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
	assert_string_equal(header_of(f), "");
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
	                    "30.00% |     beta-app     200 [kernel.kallsyms] [k] beta_sched");
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
	                    "40.00% |    alpha-app     100 libc.so.6         [.] alpha_fn");
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
	assert_int_equal(strncmp(menu_title_of_selection(f), LONG_NAME, 63), 0);
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
	assert_int_equal(m->n, 7);
	assert_string_equal(m->items[0].label, "Zoom into process 100 (alpha-app)");
	assert_false(m->items[0].disabled);
	assert_string_equal(m->items[1].label, "Zoom into thread 101 (its samples from now on)");
	assert_false(m->items[1].disabled);
	assert_string_equal(m->items[2].label, "Zoom into libc.so.6");
	assert_false(m->items[2].disabled);
	/* no cgroup known for this row's process */
	assert_string_equal(m->items[3].label, "Zoom into cgroup [unknown]");
	assert_true(m->items[3].disabled);
	assert_string_equal(m->items[4].label, "Annotate alpha_fn (instructions, source lines)");
	assert_false(m->items[4].disabled);
	/* no probe manager in this fixture: probing is offered, disabled, with why */
	assert_string_equal(m->items[5].label, "Probe alpha_fn (probes are not available)");
	assert_true(m->items[5].disabled);
	/* nor timing it */
	assert_string_equal(m->items[6].label,
	                    "Time alpha_fn (t: its latency histogram in the Latency pane)");
	assert_true(m->items[6].disabled);
	assert_int_equal(m->sel, 0);
	/* Annotate hands the row's function to the Annotate pane */
	annotate_open_sym[0] = '\0';
	menu_close(&f->t.menu);
	assert_int_equal(act(f, ACT_ANNOTATE), REACT_HANDLED | REACT_REDRAW);
	assert_string_equal(annotate_open_sym, "alpha_fn");
	/* ... with the row's own samples: by default its command's */
	assert_int_equal(annotate_open_mask, HIST_GROUP_COMM);
	assert_string_equal(annotate_open_who.comm, "alpha-app");
	/* t hands it to the Latency pane, with its binary, closing a menu */
	latency_time_func[0] = '\0';
	act(f, ACT_ENTER);
	assert_int_equal(act(f, ACT_TIME_FUNC), REACT_HANDLED | REACT_REDRAW);
	assert_false(m->active);
	assert_string_equal(latency_time_func, "alpha_fn");
	assert_non_null(strstr(latency_time_binary, "libc.so.6"));
	/* without call stacks F says so and opens nothing */
	flame_open_sym[0] = '\0';
	assert_int_equal(act(f, ACT_FLAME), REACT_HANDLED | REACT_REDRAW);
	assert_string_equal(flame_open_sym, "");
	assert_non_null(strstr(f->t.status, "no call stacks"));

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
	assert_string_equal(header_of(f), "Zoom: pid 100");
	assert_int_equal(snapshots, 1);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "alpha_fn gamma_work");
	/* overheads stay shares of all samples */
	assert_string_equal(pane_line(1),
	                    "40.00% ||      alpha-app     100 libc.so.6      [.] alpha_fn");
	/* Annotate within the zoom: that process's samples only */
	annotate_open_mask = 0;
	assert_int_equal(act(f, ACT_ANNOTATE), REACT_HANDLED | REACT_REDRAW);
	assert_string_equal(annotate_open_sym, "alpha_fn");
	assert_int_equal(annotate_open_mask, HIST_GROUP_COMM | HIST_GROUP_PID);
	assert_int_equal(annotate_open_who.pid, 100);

	assert_int_equal(act(f, ACT_BACK), REACT_HANDLED | REACT_REDRAW);
	assert_string_equal(header_of(f), "");
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
	assert_string_equal(header_of(f), "Zoom: pid 100 tid 101");
	assert_int_equal(zoom_calls, 1);
	assert_int_equal(zoom_tids[0], 101);
	/* Annotate within the zoom (the screen drawn, as a user sees it):
	 * that thread's samples only */
	draw(f, 24, 80);
	assert_int_equal(act(f, ACT_ANNOTATE), REACT_HANDLED | REACT_REDRAW);
	assert_true(annotate_open_mask & HIST_GROUP_TID);
	assert_int_equal(annotate_open_who.tid, 101);
	assert_int_equal(act(f, ACT_CLOSE), REACT_HANDLED | REACT_REDRAW);
	assert_int_equal(zoom_calls, 2);
	assert_int_equal(zoom_tids[1], 0);
	assert_string_equal(header_of(f), "");
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
	assert_string_equal(header_of(f), "Zoom: dso gammad");
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "gamma_work delta_a_very");
	act(f, ACT_FILTER);
	type(f, "delta");
	finish(f, true);
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "delta_a_very");
	act(f, ACT_CLOSE);
	assert_string_equal(header_of(f), "Zoom: dso gammad");
	draw(f, 24, 80);
	assert_string_equal(symbols_shown(), "gamma_work delta_a_very");
	act(f, ACT_CLOSE);
	assert_string_equal(header_of(f), "");
	/* the object's name comes from the traced system: escaped */
	f->app.short_name = "gam\x07mad";
	choose(f, "Zoom into gam");
	assert_string_equal(header_of(f), "Zoom: dso gam\\x07mad");
}

/* The Cgroup column: there by itself when the rows come from several
 * cgroups and there is room, first to drop at narrow widths; c hides it
 * when shown, else shows it and keeps it; the filter matches it; the
 * Enter menu zooms into a row's cgroup, Esc leaves. */
static void
test_cgroup(void **state)
{
	static const struct cgroup web = {"/system.slice/docker-4f3c.scope", "4f3c2b1a0e9d"},
	                           evil = {"/evil", "ev\x1bil"};
	/* not const: a symbol caches its demangled name */
	static struct sym serve = {.start = 0x4000, .size = 0x10, .name = "web_serve"},
	                  poll = {.start = 0x4100, .size = 0x10, .name = "web_poll"};
	struct fixture *f = *state;
	struct hist_key k = {.pid = 400, .tid = 400, .comm = str_intern("nginx"), .dso = &f->app};

	/* one cgroup (unknown for all): no column even with room */
	draw(f, 24, 140);
	assert_null(strstr(pane_line(0), "Cgroup"));
	k.sym = &serve, k.cgroup = &web;
	add_n(f->h, &k, 200);
	k.sym = &poll, k.pid = 401, k.tid = 401;
	add_n(f->h, &k, 100);
	k.sym = &f->beta, k.cgroup = &evil, k.pid = 402, k.tid = 402;
	add_n(f->h, &k, 1);
	hist_tick(f->h, false);
	tui_snapshot(&f->t);
	draw(f, 24, 140);
	assert_non_null(strstr(pane_line(0), "PID Cgroup       Shared Object"));
	assert_non_null(strstr(pane_line(1), "  400 4f3c2b1a0e9d gammad"));
	assert_non_null(strstr(pane_line(3), "  100 [unknown]    libc.so.6"));
	assert_true(find_line("402 ev\\x1bil") > 0);
	/* 80 columns: dropped first */
	draw(f, 24, 80);
	assert_null(strstr(pane_line(0), "Cgroup"));
	assert_non_null(strstr(pane_line(0), "Command"));
	/* c: not on screen, so shown, and kept at 80 columns */
	assert_int_equal(act(f, ACT_CGROUP_COL), REACT_HANDLED | REACT_REDRAW);
	assert_string_equal(f->t.status, "Cgroup column shown");
	draw(f, 24, 80);
	assert_non_null(strstr(pane_line(0), "Cgroup"));
	/* c again: hidden, even with room */
	act(f, ACT_CGROUP_COL);
	assert_string_equal(f->t.status, "Cgroup column hidden");
	draw(f, 24, 140);
	assert_null(strstr(pane_line(0), "Cgroup"));
	act(f, ACT_CGROUP_COL);
	draw(f, 24, 140);
	assert_non_null(strstr(pane_line(0), "Cgroup"));
	/* the filter matches the cgroup's name */
	act(f, ACT_FILTER);
	type(f, "4f3c2b");
	finish(f, true);
	draw(f, 24, 140);
	assert_string_equal(symbols_shown(), "web_serve web_poll");
	act(f, ACT_CLOSE);
	/* zoom into the row's cgroup: its processes' rows only */
	select_row(f, "web_serve");
	choose(f, "Zoom into cgroup 4f3c2b1a0e9d");
	assert_string_equal(header_of(f), "Zoom: cgroup 4f3c2b1a0e9d");
	draw(f, 24, 140);
	assert_string_equal(symbols_shown(), "web_serve web_poll");
	assert_int_equal(zoom_calls, 0); /* a filter of the frame's rows */
	/* with a process zoom too */
	select_row(f, "web_poll");
	choose(f, "Zoom into process 401");
	assert_string_equal(header_of(f), "Zoom: pid 401 cgroup 4f3c2b1a0e9d");
	draw(f, 24, 140);
	assert_string_equal(symbols_shown(), "web_poll");
	act(f, ACT_CLOSE);
	assert_string_equal(header_of(f), "");
	draw(f, 24, 140);
	assert_non_null(strstr(symbols_shown(), "alpha_fn"));
	/* the name comes from the traced system: escaped in the header */
	select_row(f, "beta_sched"); /* the user-space one of pid 402 */
	choose(f, "Zoom into cgroup ev\\x1bil");
	assert_string_equal(header_of(f), "Zoom: cgroup ev\\x1bil");
}

/* The lines of the pane showing text, joined by newlines. */
static const char *
lines_with(const char *text)
{
	static char out[4096];
	size_t o = 0;

	out[0] = '\0';
	for (int y = PANE_Y + 1; y < LINES - PANE_FOOT; y++)
		if (strstr(line(y), text) != NULL && o < sizeof out)
			o += (size_t)snprintf(out + o, sizeof out - o, "%s%s", o ? "\n" : "",
			                      line(y));
	return out;
}

/* Whether no two of the pane's lines are the same text. */
static bool
lines_distinct(void)
{
	char seen[32][1024];
	int n = 0;

	for (int y = PANE_Y + 1; y < LINES - PANE_FOOT && n < 32; y++) {
		if (line(y)[0] == '\0')
			continue;
		for (int i = 0; i < n; i++)
			if (strcmp(seen[i], line(y)) == 0)
				return false;
		snprintf(seen[n++], sizeof seen[0], "%s", line(y));
	}
	return true;
}

/* Two processes of one command in the same function, one of them with
 * two threads (counted apart, as the engine does when grouped by tid). */
static void
add_workers(struct fixture *f)
{
	struct hist_key k = {.comm = str_intern("worker"), .dso = &f->app, .sym = &f->gamma};

	k.pid = 110, k.tid = k.thread = 110;
	add_n(f->h, &k, 9);
	k.tid = k.thread = 112;
	add_n(f->h, &k, 8);
	k.pid = 111, k.tid = k.thread = 111;
	add_n(f->h, &k, 7);
	hist_tick(f->h, false);
	tui_snapshot(&f->t);
}

/* g to the pid grouping, then to the tid one: at each of the widths
 * (0-ended) the key columns show and no two lines look alike. */
static void
check_group_keys(struct fixture *f, const int *widths)
{
	act(f, ACT_GROUP); /* comm,pid,dso,sym */
	for (size_t i = 0; widths[i] != 0; i++) {
		draw(f, 24, widths[i]);
		assert_non_null(strstr(pane_line(0), "PID"));
		assert_null(strstr(pane_line(0), "TID"));
		assert_non_null(strstr(lines_with(" 110 "), "gamma_work"));
		assert_non_null(strstr(lines_with(" 111 "), "gamma_work"));
		assert_true(lines_distinct());
	}
	act(f, ACT_GROUP); /* comm,pid,tid,dso,sym */
	for (size_t i = 0; widths[i] != 0; i++) {
		draw(f, 24, widths[i]);
		assert_non_null(strstr(pane_line(0), "TID"));
		assert_non_null(strstr(lines_with(" 112 "), "gamma_work"));
		assert_non_null(strstr(lines_with(" 110 "), "gamma_work"));
		assert_true(lines_distinct());
	}
}

/* The key columns of the grouping stay at narrow widths: PID when
 * grouped by pid, a TID column when by thread (F6 offers it only then);
 * rows never look alike for want of their key. */
static void
test_group_keys(void **state)
{
	struct fixture *f = *state;

	add_workers(f);
	draw(f, 24, 80); /* by default one row, its PID "-" */
	assert_null(strchr(lines_with("worker"), '\n'));
	assert_non_null(strstr(lines_with("worker"), "worker          - gammad"));
	check_group_keys(f, (const int[]){80, 60, 40, 0});
	draw(f, 24, 80);
	assert_non_null(strstr(pane_line(0), "Command       PID     TID Shared Object"));
	assert_non_null(strstr(lines_with(" 112 "), "worker        110     112 gammad"));
	act(f, ACT_SORT_MENU);
	assert_non_null(menu_item(&f->t.menu, "TID"));
	menu_close(&f->t.menu);
	act(f, ACT_GROUP); /* dso,sym: no TID column, nor in F6 */
	draw(f, 24, 80);
	assert_null(strstr(pane_line(0), "TID"));
	act(f, ACT_SORT_MENU);
	assert_null(menu_item(&f->t.menu, "TID"));
	menu_close(&f->t.menu);
}

/* The same with call stacks' two bars: PID, not a key by default, gives
 * way to them at 80 columns; grouped by pid or tid it stays. */
static void
test_group_keys_stacks(void **state)
{
	struct fixture *f = *state;

	add_workers(f);
	draw(f, 24, 80);
	assert_null(strstr(pane_line(0), "PID"));
	assert_null(strchr(lines_with("worker"), '\n'));
	check_group_keys(f, (const int[]){80, 60, 0});
	draw(f, 24, 80);
	assert_non_null(strstr(pane_line(0), "Command       PID     TID Shared Object"));
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
	assert_int_equal(pane_top.mouse(p, &f->t, PANE_Y + 3, 70, BUTTON1_RELEASED), REACT_IGNORED);

	/* Command is at 12..20 at 80 columns */
	assert_int_equal(pane_top.mouse(p, &f->t, PANE_Y, 14, BUTTON1_PRESSED),
	                 REACT_HANDLED | REACT_REDRAW);
	draw(f, 24, 80);
	assert_non_null(strstr(pane_line(0), "Command^"));
	assert_non_null(strstr(pane_line(0), " Overhead"));
	assert_null(strstr(pane_line(0), "vOverhead"));
	/* again: inverted */
	pane_top.mouse(p, &f->t, PANE_Y, 14, BUTTON1_PRESSED);
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
	assert_string_equal(header_of(f), "U hidden");
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

	act(f, ACT_HIDE_USER);
	act(f, ACT_HIDE_KERNEL);
	assert_string_equal(header_of(f), "K hidden  U hidden");
	f->t.refreshes = 0;
	draw(f, 24, 80);
	assert_centred(mid, "Waiting for samples...");
	f->t.refreshes = 1;
	draw(f, 24, 80);
	assert_centred(mid, "No samples here (K and U show the hidden symbols)");
	/* only user rows hidden (and the kernel row filtered out) */
	act(f, ACT_HIDE_KERNEL);
	act(f, ACT_FILTER);
	type(f, "alpha");
	finish(f, true);
	draw(f, 24, 80);
	assert_centred(mid, "No rows match the filter (Esc clears it)");
	act(f, ACT_CLOSE);
	act(f, ACT_HIDE_USER);

	/* zoomed into a process whose rows are all hidden */
	choose(f, "Zoom into process 100");
	act(f, ACT_HIDE_USER);
	draw(f, 24, 80);
	assert_centred(mid, "No samples here (Esc leaves the zoom)");
	assert_int_equal(act(f, ACT_CLOSE), REACT_HANDLED | REACT_REDRAW);
	act(f, ACT_HIDE_USER);
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

/* A C++ function shows compact in its row and, while its row is
 * selected, in full on the line under the table, which the other rows
 * (shown whole) do not take. */
static void
test_demangled(void **state)
{
	static struct sym box = {.start = 0x4000, .size = 0x100, .name = "_ZNK2ns3BoxIiE3getEi"};
	struct fixture *f = *state;
	struct hist_key k = {
	    .pid = 400, .tid = 400, .comm = str_intern("cxx"), .dso = &f->app, .sym = &box};
	int last = 24 - PANE_Y - PANE_FOOT - 1;

	add_n(f->h, &k, 10);
	hist_tick(f->h, false); /* alpha_fn stays first */
	tui_snapshot(&f->t);
	draw(f, 24, 120);
	assert_true(find_line("[.] ns::Box<...>::get(int) const") > 0);
	assert_int_equal(find_line("_ZNK"), -1);
	assert_string_equal(pane_line(last), "");
	select_row(f, "ns::Box<...>::get(int) const");
	draw(f, 24, 120);
	assert_string_equal(pane_line(last), "ns::Box<int>::get(int) const");
	/* a short pane keeps its lines for rows */
	draw(f, PANE_Y + PANE_FOOT + 7, 120);
	assert_null(strstr(pane_line(6), "ns::Box<int>"));
	select_row(f, "alpha_fn");
	draw(f, 24, 120);
	assert_string_equal(pane_line(last), "");
	sym_free_dname(&box);
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
	    cmocka_unit_test_setup_teardown(test_cgroup, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_group_keys, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_group_keys_stacks, setup_cg, teardown),
	    cmocka_unit_test_setup_teardown(test_mouse, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_hide, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_demangled, setup, teardown),
	};
	/* ASCII glyphs: any locale will do */
	return headless_run("pane-top", tests, sizeof tests / sizeof tests[0], false);
}
