/* Unit tests for the table's column layout (ui/tablecols.c): which
 * columns drop by priority, bars shrinking before names, fit columns as
 * wide as their text, the flexible column taking the rest, and nothing
 * past the line. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ui/tablecols.h"

/* A Top-like line: a bar, a number, a name, an object and the symbol. */
enum { K_BAR, K_NUM, K_COMM, K_DSO, K_SYM, K_N };

static const struct table_col kcols[K_N] = {
    [K_BAR] = {.title = "Overhead", .width = 18, .min_width = 7, .priority = 9, .bar = true},
    [K_NUM] = {.title = "Samples", .width = 8, .min_width = 7, .priority = 1},
    [K_COMM] = {.title = "Command", .width = 16, .min_width = 7, .priority = 3, .fit = true},
    [K_DSO] = {.title = "Shared Object", .width = 24, .min_width = 8, .priority = 4, .fit = true},
    [K_SYM] = {.title = "Symbol", .width = 28, .min_width = 16, .priority = 9, .flex = true},
};

/* Widest texts on screen: a 9-column bar title, "split", "[kernel.kallsyms]". */
static const int ktext[K_N] = {9, 8, 7, 17, 0};

/* The sum of the shown widths and blanks never passes w, and columns are
 * in order, one blank apart. */
static void
check_line(const int *x, const int *wd, size_t n, int w)
{
	int at = 0;

	for (size_t i = 0; i < n; i++) {
		if (x[i] < 0)
			continue;
		assert_int_equal(x[i], at);
		at += wd[i] + 1;
	}
	assert_true(at - 1 <= w);
}

/* Wide: every column at its width, the fit ones at their text, the bar
 * at its full width, the symbol takes the rest. */
static void
test_wide(void **state)
{
	int x[K_N], wd[K_N];

	(void)state;
	tablecols_layout(kcols, K_N, ktext, 200, x, wd);
	check_line(x, wd, K_N, 200);
	assert_int_equal(wd[K_BAR], 18);
	assert_int_equal(wd[K_NUM], 8);
	assert_int_equal(wd[K_COMM], 7);
	assert_int_equal(wd[K_DSO], 17); /* "[kernel.kallsyms]" whole */
	assert_int_equal(wd[K_SYM], 200 - 18 - 8 - 7 - 17 - 4);
}

/* Narrowing: the bar gives up its glyphs before any column drops, and
 * the symbol keeps its width. */
static void
test_bars_shrink_first(void **state)
{
	int x[K_N], wd[K_N];
	int all = 9 + 8 + 7 + 17 + 28 + 4; /* everything at its least */

	(void)state;
	for (int w = all + 9; w >= all; w--) {
		tablecols_layout(kcols, K_N, ktext, w, x, wd);
		check_line(x, wd, K_N, w);
		for (size_t i = 0; i < K_N; i++)
			assert_true(x[i] >= 0);
		assert_int_equal(wd[K_SYM], 28);
		assert_int_equal(wd[K_BAR], 9 + w - all);
	}
	/* one less: Samples (the lowest priority) drops, and the bar grows
	 * back into the room it leaves */
	tablecols_layout(kcols, K_N, ktext, all - 1, x, wd);
	check_line(x, wd, K_N, all - 1);
	assert_int_equal(x[K_NUM], -1);
	assert_int_equal(wd[K_SYM], 28);
	assert_int_equal(wd[K_BAR], 9 + 8);
}

/* Priorities: Samples, Command, Shared Object drop in that order; the
 * top priorities (the bar, the flexible symbol) never drop. */
static void
test_priorities(void **state)
{
	int x[K_N], wd[K_N];

	(void)state;
	tablecols_layout(kcols, K_N, ktext, 70, x, wd);
	assert_int_equal(x[K_NUM], -1);
	assert_true(x[K_COMM] >= 0);
	tablecols_layout(kcols, K_N, ktext, 60, x, wd);
	assert_int_equal(x[K_COMM], -1);
	assert_true(x[K_DSO] >= 0);
	/* 40 columns: the bar keeps its text, the symbol the rest */
	tablecols_layout(kcols, K_N, ktext, 40, x, wd);
	check_line(x, wd, K_N, 40);
	assert_int_equal(x[K_DSO], -1);
	assert_int_equal(wd[K_BAR], 11);
	assert_int_equal(wd[K_SYM], 28);
	/* 30: only top priorities, the symbol shrinks (to its minimum) */
	tablecols_layout(kcols, K_N, ktext, 30, x, wd);
	check_line(x, wd, K_N, 30);
	assert_int_equal(wd[K_BAR], 9);
	assert_int_equal(wd[K_SYM], 20);
	/* 12: the line is cut at its end */
	tablecols_layout(kcols, K_N, ktext, 12, x, wd);
	check_line(x, wd, K_N, 12);
	assert_int_equal(wd[K_BAR], 9);
	assert_int_equal(wd[K_SYM], 2);
}

/* A fit column is as wide as its text, within its bounds; a hidden
 * column takes nothing. */
static void
test_fit_and_hidden(void **state)
{
	struct table_col c[K_N];
	int text[K_N], x[K_N], wd[K_N];

	(void)state;
	for (size_t i = 0; i < K_N; i++) {
		c[i] = kcols[i];
		text[i] = ktext[i];
	}
	text[K_COMM] = 40; /* longer than its width: capped */
	text[K_DSO] = 2;   /* shorter than its minimum: raised */
	c[K_NUM].hidden = true;
	tablecols_layout(c, K_N, text, 200, x, wd);
	check_line(x, wd, K_N, 200);
	assert_int_equal(x[K_NUM], -1);
	assert_int_equal(wd[K_COMM], 16);
	assert_int_equal(wd[K_DSO], 8);
	/* without measured text, a fit column takes its width */
	tablecols_layout(c, K_N, NULL, 200, x, wd);
	assert_int_equal(wd[K_COMM], 16);
	assert_int_equal(wd[K_DSO], 24);
}

/* Kept columns (a key that tells rows apart): every other column drops first,
 * whatever its priority; then the flexible column shrinks to its minimum;
 * only then do keys drop, lowest priority first; with room, they are
 * all back and the symbol regains its width. */
static void
test_keys(void **state)
{
	struct table_col c[K_N];
	int x[K_N], wd[K_N];

	(void)state;
	for (size_t i = 0; i < K_N; i++)
		c[i] = kcols[i];
	c[K_NUM].keep = true; /* Samples, of the lowest priority, is a key */
	c[K_COMM].keep = true;
	/* 70: Shared Object (priority 4, not a key) drops before Samples (1) */
	tablecols_layout(c, K_N, ktext, 70, x, wd);
	check_line(x, wd, K_N, 70);
	assert_int_equal(x[K_DSO], -1);
	assert_true(x[K_NUM] >= 0 && x[K_COMM] >= 0);
	assert_int_equal(wd[K_SYM], 70 - 9 - 8 - 7 - 3 - (wd[K_BAR] - 9));
	/* 45: the symbol gives way (28 down to 18) before a key drops */
	tablecols_layout(c, K_N, ktext, 45, x, wd);
	check_line(x, wd, K_N, 45);
	assert_true(x[K_NUM] >= 0 && x[K_COMM] >= 0);
	assert_int_equal(wd[K_BAR], 9);
	assert_int_equal(wd[K_SYM], 45 - 9 - 8 - 7 - 3);
	/* 40: the symbol at its minimum is not enough: Samples (the lowest
	 * key) drops, Command stays; the symbol takes the room back */
	tablecols_layout(c, K_N, ktext, 40, x, wd);
	check_line(x, wd, K_N, 40);
	assert_int_equal(x[K_NUM], -1);
	assert_true(x[K_COMM] >= 0);
	assert_int_equal(wd[K_SYM] + wd[K_BAR], 40 - 7 - 2);
	/* without keys, 45 drops Command and keeps the symbol whole */
	tablecols_layout(kcols, K_N, ktext, 45, x, wd);
	assert_int_equal(x[K_COMM], -1);
	assert_int_equal(wd[K_SYM], 28);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_wide),       cmocka_unit_test(test_bars_shrink_first),
	    cmocka_unit_test(test_priorities), cmocka_unit_test(test_fit_and_hidden),
	    cmocka_unit_test(test_keys),
	};

	return cmocka_run_group_tests_name("tablecols", tests, NULL, NULL);
}
