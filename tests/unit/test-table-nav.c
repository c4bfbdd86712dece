/* Unit tests for moving about the table widget, drawn headless: the
 * selection following its row across refreshes and the tail of a stream,
 * the keys, incremental search, clicks, the wheel and sorting actions. */
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
#include "table-fixture.h"

#include "tracetop/util.h"
#include "ui/table.h"
#include "ui/theme.h"

/* The selection stays on its row when rows move, moves to the same place
 * when its row goes, and comes back when a filter hid it. */
static void
test_selection_follows(void **state)
{
	struct frow rows[NSAMPLE], rev[NSAMPLE];
	const void *p[NSAMPLE];
	struct table t;

	memcpy(rows, sample, sizeof(rows));
	table_with(&t, cols, rows, NSAMPLE);
	table_sort_by(&t, C_PID, false);
	headless_screen(24, 80);
	table_draw(&t, stdscr, 0, 0, 10, 80, &ascii);
	assert_int_equal(sel_pid(&t), 101);
	table_action(&t, ACT_DOWN);
	table_action(&t, ACT_DOWN);
	assert_int_equal(sel_pid(&t), 303);

	/* new snapshot, new order (by CPU share now) */
	for (size_t i = 0; i < NSAMPLE; i++) {
		rev[i] = rows[NSAMPLE - 1 - i];
		p[i] = &rev[i];
	}
	table_sort_by(&t, C_CPU, true);
	table_set_rows(&t, p, NSAMPLE);
	assert_int_equal(sel_pid(&t), 303);
	assert_int_equal(t.sel, 3);

	/* 303 goes: the row now at index 3 is selected, and followed */
	for (size_t i = 0, k = 0; i < NSAMPLE; i++)
		if (rev[i].pid != 303)
			p[k++] = &rev[i];
	table_set_rows(&t, p, NSAMPLE - 1);
	assert_int_equal(t.sel, 3);
	assert_int_equal(sel_pid(&t), 202);
	table_sort_by(&t, C_PID, false);
	assert_int_equal(t.sel, 1);
	assert_int_equal(sel_pid(&t), 202);

	/* hidden by the filter, back when it clears */
	table_set_filter(&t, "root");
	assert_int_equal(t.nrows, 2);
	assert_int_equal(sel_pid(&t), 404);
	table_set_filter(&t, "");
	assert_int_equal(sel_pid(&t), 202);

	/* fewer rows than the index: the last one */
	table_set_rows(&t, p, 2);
	assert_int_equal(t.sel, 1);
	table_set_rows(&t, p, 0);
	assert_null(table_selected(&t));
	table_free(&t);
}

/* With follow on, a selection on the last row stays on the last row as
 * rows are appended (a stream's tail); moved up, it stays on its row. */
static void
test_follow_tail(void **state)
{
	struct frow rows[NSAMPLE];
	const void *p[NSAMPLE];
	struct table t;

	memcpy(rows, sample, sizeof(rows));
	for (size_t i = 0; i < NSAMPLE; i++)
		p[i] = &rows[i];
	table_with(&t, cols, rows, 3);
	t.follow = true;
	table_sort_by(&t, C_PID, false);
	table_action(&t, ACT_END);
	assert_int_equal(sel_pid(&t), 303);
	table_set_rows(&t, p, 5);
	assert_int_equal(sel_pid(&t), 505); /* followed the tail */
	table_action(&t, ACT_UP);
	table_set_rows(&t, p, NSAMPLE);
	assert_int_equal(sel_pid(&t), 404); /* stayed on its row */
	t.follow = false;
	table_action(&t, ACT_END);
	table_set_rows(&t, p, 5);
	table_set_rows(&t, p, NSAMPLE);
	assert_int_equal(sel_pid(&t), 505); /* without follow: the row, not the tail */
	table_free(&t);
}

/* Up, down, pages, home and end keep the selection on screen. */
static void
test_navigation(void **state)
{
	struct table t;

	many_table(&t, 11);
	assert_int_equal(t.height, 10);
	for (int i = 0; i < 12; i++)
		assert_int_equal(table_action(&t, ACT_DOWN), REACT_HANDLED | REACT_REDRAW);
	expect_pos(&t, 12, 3);
	for (int i = 0; i < 10; i++)
		table_action(&t, ACT_UP);
	expect_pos(&t, 2, 2);
	table_action(&t, ACT_PAGE_DOWN);
	expect_pos(&t, 12, 12);
	table_action(&t, ACT_PAGE_UP);
	expect_pos(&t, 2, 2);
	table_action(&t, ACT_END);
	expect_pos(&t, 49, 40);
	table_action(&t, ACT_PAGE_DOWN);
	expect_pos(&t, 49, 40);
	table_action(&t, ACT_DOWN);
	assert_int_equal(t.sel, 49);
	table_action(&t, ACT_HOME);
	expect_pos(&t, 0, 0);
	table_action(&t, ACT_UP);
	table_action(&t, ACT_PAGE_UP);
	assert_int_equal(t.sel, 0);
	assert_int_equal(table_action(&t, ACT_QUIT), REACT_IGNORED);

	/* the selected row is drawn reversed where it is on screen */
	for (int i = 0; i < 15; i++)
		table_action(&t, ACT_DOWN);
	table_draw(&t, stdscr, 0, 0, 11, 80, &ascii);
	assert_int_equal(t.top, 6);
	assert_string_equal(line(10), "   1015 50.0% |||||      u          task15");
	assert_true(attr_at(10, 0) & A_REVERSE);
	assert_true(attr_at(10, 79) & A_REVERSE);
	assert_false(attr_at(9, 0) & A_REVERSE);

	/* a smaller window keeps it visible */
	table_draw(&t, stdscr, 0, 0, 4, 80, &ascii);
	assert_int_equal(t.top, 13);
	table_free(&t);
}

/* Search from the selection, next and previous with wrap. */
static void
test_search(void **state)
{
	struct table t;

	many_table(&t, 11);
	assert_true(table_search(&t, "TASK1"));
	expect_pos(&t, 10, 1);
	/* still matching: stays */
	assert_true(table_search(&t, "task1"));
	assert_int_equal(t.sel, 10);
	assert_true(table_search_next(&t, 1));
	assert_int_equal(t.sel, 11);
	for (int i = 0; i < 8; i++)
		table_search_next(&t, 1);
	assert_int_equal(t.sel, 19);
	assert_true(table_search_next(&t, 1));
	assert_int_equal(t.sel, 10);
	assert_true(table_search_next(&t, -1));
	assert_int_equal(t.sel, 19);
	/* from 19 the next "task0" wraps to the top */
	assert_true(table_search(&t, "task0"));
	assert_int_equal(t.sel, 0);
	assert_false(table_search(&t, "zzz"));
	assert_int_equal(t.sel, 0);
	assert_false(table_search_next(&t, 1));
	assert_false(table_search(&t, ""));
	/* a lone match stays selected */
	assert_true(table_search(&t, "task42"));
	assert_true(table_search_next(&t, -1));
	assert_int_equal(t.sel, 42);
	table_free(&t);
}

/* Clicks on titles sort (again: invert); clicks on rows select. */
static void
test_click(void **state)
{
	struct table t;

	headless_screen(24, 100);
	table_with(&t, cols, sample, NSAMPLE);
	table_sort_by(&t, C_PID, false);
	table_draw(&t, stdscr, 2, 5, 8, 80, &ascii);
	/* CPU% title is at 5 + 8 .. 5 + 23 */
	assert_int_equal(table_click(&t, 2, 5 + 20), REACT_HANDLED | REACT_REDRAW);
	assert_int_equal(t.sort_col, C_CPU);
	assert_true(t.descending);
	table_click(&t, 2, 5 + 8);
	assert_int_equal(t.sort_col, C_CPU);
	assert_false(t.descending);
	table_click(&t, 2, 5 + 40);
	assert_int_equal(t.sort_col, C_NAME);
	assert_false(t.descending);
	/* the blank between columns sorts nothing */
	assert_int_equal(table_click(&t, 2, 5 + 7), REACT_HANDLED);
	assert_int_equal(t.sort_col, C_NAME);

	table_draw(&t, stdscr, 2, 5, 8, 80, &ascii);
	assert_int_equal(table_click(&t, 2 + 1 + 3, 5 + 50), REACT_HANDLED | REACT_REDRAW);
	assert_int_equal(t.sel, 3);
	assert_ptr_equal(table_selected(&t), t.rows[3]);
	assert_int_equal(table_click(&t, 2 + 7, 5 + 79), REACT_HANDLED | REACT_REDRAW);
	assert_int_equal(t.sel, 6);
	/* below the last row */
	table_set_filter(&t, "root");
	assert_int_equal(table_click(&t, 2 + 1 + 4, 5 + 1), REACT_HANDLED);
	assert_int_equal(t.sel, 1);
	assert_int_equal(table_click(&t, 1, 10), REACT_IGNORED);
	assert_int_equal(table_click(&t, 5, 4), REACT_IGNORED);
	assert_int_equal(table_click(&t, 5, 85), REACT_IGNORED);
	assert_int_equal(table_click(&t, 10, 10), REACT_IGNORED);
	table_free(&t);
}

/* The wheel moves the view and the selection. */
static void
test_scroll(void **state)
{
	struct table t;

	many_table(&t, 11);
	table_scroll(&t, 5);
	expect_pos(&t, 5, 5);
	table_scroll(&t, -3);
	expect_pos(&t, 2, 2);
	table_scroll(&t, 100);
	expect_pos(&t, 49, 40);
	table_scroll(&t, -100);
	expect_pos(&t, 0, 0);
	table_free(&t);
}

/* Sort actions cycle through the sortable columns; numbers start
 * descending, text ascending; invert flips. */
static void
test_sort_actions(void **state)
{
	struct table_col c[NCOLS];
	struct table t;

	memcpy(c, cols, sizeof(c));
	c[C_USER].sortable = false;
	table_with(&t, c, sample, NSAMPLE);
	assert_int_equal(t.sort_col, C_PID);
	assert_true(t.descending);
	assert_int_equal(table_action(&t, ACT_SORT_NEXT), REACT_HANDLED | REACT_REDRAW);
	assert_int_equal(t.sort_col, C_CPU);
	assert_true(t.descending);
	table_action(&t, ACT_SORT_NEXT);
	assert_int_equal(t.sort_col, C_NAME);
	assert_false(t.descending);
	check_sorted(&t, sample);
	table_action(&t, ACT_SORT_NEXT);
	assert_int_equal(t.sort_col, C_PID);
	table_action(&t, ACT_SORT_PREV);
	assert_int_equal(t.sort_col, C_NAME);
	table_action(&t, ACT_SORT_PREV);
	assert_int_equal(t.sort_col, C_CPU);
	table_action(&t, ACT_SORT_INVERT);
	assert_false(t.descending);
	check_sorted(&t, sample);
	table_action(&t, ACT_SORT_INVERT);
	assert_true(t.descending);
	check_sorted(&t, sample);
	table_free(&t);
}

/* Is text on one of the first n lines of the screen? */
static bool
on_screen(const char *text, int n)
{
	for (int y = 0; y < n; y++)
		if (strstr(line(y), text) != NULL)
			return true;
	return false;
}

/* Right shifts the flexible column's text as far as its longest text on
 * screen needs (the title says how far), Left shifts it back, then is not
 * the table's (it backs out of a zoom). */
static void
test_hscroll(void **state)
{
	struct table t;

	headless_screen(24, 80);
	table_with(&t, cols, sample, NSAMPLE);
	table_sort_by(&t, C_PID, false);
	table_draw(&t, stdscr, 0, 0, 10, 80, &ascii);
	assert_int_equal(t.col_w[C_NAME], 44);
	assert_int_equal(table_action(&t, ACT_BACK), REACT_IGNORED);
	assert_int_equal(table_action(&t, ACT_RIGHT), REACT_HANDLED | REACT_REDRAW);
	table_draw(&t, stdscr, 0, 0, 10, 80, &ascii);
	/* 59 characters in 44 columns: 15 to scroll, the cut start marked */
	assert_int_equal(t.hscroll, 15);
	assert_non_null(strstr(line(0), "Command [+15]"));
	assert_string_equal(line(5), "    505   0.0%           carol      "
	                             "~and-name-that-never-ends-and-goes-on-and-on");
	assert_int_equal(table_action(&t, ACT_RIGHT), REACT_HANDLED); /* no further */
	assert_int_equal(table_action(&t, ACT_BACK), REACT_HANDLED | REACT_REDRAW);
	table_draw(&t, stdscr, 0, 0, 10, 80, &ascii);
	assert_int_equal(t.hscroll, 0);
	assert_null(strstr(line(0), "[+"));
	assert_int_equal(table_action(&t, ACT_BACK), REACT_IGNORED);
	table_free(&t);
}

/* i opens the popup with the selected row's every column uncut; it
 * follows the selection; Esc closes it (then Esc is not the table's). An
 * active filter shows on the title line. */
static void
test_detail_and_filter(void **state)
{
	char want[96];
	struct table t;

	headless_screen(24, 80);
	table_with(&t, cols, sample, NSAMPLE);
	table_sort_by(&t, C_PID, false);
	table_draw(&t, stdscr, 0, 0, 12, 60, &ascii);
	for (int i = 0; i < 4; i++)
		table_action(&t, ACT_DOWN);
	assert_int_equal(sel_pid(&t), 505);
	assert_int_equal(table_action(&t, ACT_DETAIL), REACT_HANDLED | REACT_REDRAW);
	table_draw(&t, stdscr, 0, 0, 12, 60, &ascii);
	assert_true(on_screen("Details (i or Esc closes)", 12));
	assert_true(on_screen(" PID: 505", 12));
	assert_true(on_screen(" USER: carol", 12));
	/* the name wraps in the box (56 columns inside), whole */
	snprintf(want, sizeof want, "Command: %.47s", long_name);
	assert_true(on_screen(want, 12));
	snprintf(want, sizeof want, "   %s", long_name + 47);
	assert_true(on_screen(want, 12));
	for (int y = 0; y < 24; y++)
		assert_string_equal(headless_text(y, 60, 20), "");
	table_action(&t, ACT_UP);
	table_draw(&t, stdscr, 0, 0, 12, 60, &ascii);
	assert_true(on_screen(" PID: 404", 12));
	assert_int_equal(table_action(&t, ACT_CLOSE), REACT_HANDLED | REACT_REDRAW);
	assert_int_equal(table_action(&t, ACT_CLOSE), REACT_IGNORED);
	werase(stdscr);
	table_draw(&t, stdscr, 0, 0, 12, 60, &ascii);
	assert_false(on_screen("Details", 12));

	table_set_filter(&t, "!root");
	table_draw(&t, stdscr, 0, 0, 12, 60, &ascii);
	assert_non_null(strstr(line(0), " Filter: !root"));
	assert_int_equal((int)strlen(line(0)), 59); /* at the end, a blank after */
	/* at 26 columns it would cover Command's title: that is cut before
	 * it (an ellipsis, then the filter), never overwritten */
	table_set_filter(&t, "!ro");
	werase(stdscr);
	table_draw(&t, stdscr, 0, 0, 12, 26, &ascii);
	assert_string_equal(line(0), "   ^PID Comm~ Filter: !ro");
	table_set_filter(&t, "");
	table_draw(&t, stdscr, 0, 0, 12, 60, &ascii);
	assert_null(strstr(line(0), "Filter"));
	table_free(&t);
}

/* Row 505 spans from USER to the end of the line with its name. */
static bool
span_505(const void *row, size_t *col, size_t *from, void *ctx)
{
	(void)ctx;
	*col = C_NAME;
	*from = C_USER;
	return ((const struct frow *)row)->pid == 505;
}

/* A spanning row draws one text from its first column to the line's end;
 * other rows keep their cells. */
static void
test_span(void **state)
{
	struct table_ops ops = fops;
	char want[64];
	struct table t;

	ops.span = span_505;
	headless_screen(24, 80);
	table_init(&t, cols, NCOLS, &ops, NULL);
	{
		const void *p[NSAMPLE];

		for (size_t i = 0; i < NSAMPLE; i++)
			p[i] = &sample[i];
		table_set_rows(&t, p, NSAMPLE);
	}
	table_sort_by(&t, C_PID, false);
	table_draw(&t, stdscr, 0, 0, 10, 80, &ascii);
	assert_int_equal(t.col_x[C_USER], 25);
	snprintf(want, sizeof want, "%.54s~", long_name);
	assert_string_equal(headless_text(5, 25, 55), want);
	assert_string_equal(headless_text(4, 25, 10), "root"); /* 404: cell by cell */
	table_free(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_selection_follows),
	    cmocka_unit_test(test_follow_tail),
	    cmocka_unit_test(test_navigation),
	    cmocka_unit_test(test_search),
	    cmocka_unit_test(test_click),
	    cmocka_unit_test(test_scroll),
	    cmocka_unit_test(test_sort_actions),
	    cmocka_unit_test(test_hscroll),
	    cmocka_unit_test(test_detail_and_filter),
	    cmocka_unit_test(test_span),
	};
	theme_plain(&ascii, false);
	theme_plain(&utf8, true);
	return headless_run("table-nav", tests, sizeof tests / sizeof tests[0], true);
}
