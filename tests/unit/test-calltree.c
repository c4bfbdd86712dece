/* Unit tests of the Top pane's call trees drawn headless: expand and
 * collapse, callers and callees, percentages, glyphs, refreshes, menus. */
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

/* F hands the selected row's function to the Flame pane. */
static void
test_flame_key(void **state)
{
	struct fixture *f = *state;

	draw(f, 30, 120);
	select_row(f, "gamma_work");
	flame_open_sym[0] = '\0';
	assert_int_equal(act(f, ACT_FLAME), REACT_HANDLED | REACT_REDRAW);
	assert_string_equal(flame_open_sym, "gamma_work");
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
		w[x] = headless_cell(y + 1, x, NULL);
	w[COLS < 255 ? COLS : 255] = L'\0';
	assert_non_null(wcsstr(w, L"\u2502  \u2514\u2500 42.86% main_fn"));
	for (int x = 0; x < COLS && x < 255; x++)
		w[x] = headless_cell(y, x, NULL);
	assert_non_null(wcsstr(w, L"\u251c\u2500 42.86% gamma_work"));
}

/* A refresh rebuilds the trees: the selection stays on the same tree line
 * though its row moved. */
static void
test_tree_refresh(void **state)
{
	struct fixture *f = *state;
	struct hist_key k = {.pid = 100,
	                     .tid = 102,
	                     .comm = str_intern("alpha-app"),
	                     .dso = &f->app,
	                     .sym = &f->gamma};

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_tree_expand, setup_cg, teardown),
	    cmocka_unit_test_setup_teardown(test_tree_all, setup_cg, teardown),
	    cmocka_unit_test_setup_teardown(test_flame_key, setup_cg, teardown),
	    cmocka_unit_test_setup_teardown(test_tree_callers, setup_cg, teardown),
	    cmocka_unit_test_setup_teardown(test_tree_percent, setup_cg, teardown),
	    cmocka_unit_test_setup_teardown(test_tree_utf8, setup_cg, teardown),
	    cmocka_unit_test_setup_teardown(test_tree_refresh, setup_cg, teardown),
	    cmocka_unit_test_setup_teardown(test_tree_menu, setup_cg, teardown),
	    cmocka_unit_test_setup_teardown(test_tree_no_stacks, setup, teardown),
	};
	/* ASCII glyphs: any locale will do */
	return headless_run("calltree", tests, sizeof tests / sizeof tests[0], false);
}
