/* Unit tests for the table widget and the theme, drawn headless: ncurses on
 * /dev/null at fixed sizes, the screen read back cell by cell. Layout at
 * several widths, nothing written outside the area, cut text, sorting,
 * filtering, bars, markers and the ASCII and UTF-8 glyph sets (the
 * selection, navigation, search and the mouse: test-table-nav.c). */
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

/* 200 columns: every column at its width, the command takes the rest;
 * at 80 it gets less and long text is cut. */
static void
test_layout_wide(void **state)
{
	struct table t;

	headless_screen(24, 200);
	table_with(&t, cols, sample, NSAMPLE);
	table_sort_by(&t, C_CPU, true);
	table_draw(&t, stdscr, 0, 0, 10, 200, &ascii);
	expect_col(&t, C_PID, 0, 7);
	expect_col(&t, C_CPU, 8, 16);
	assert_int_equal(t.col_x[C_USER], 25);
	expect_col(&t, C_NAME, 36, 164);
	assert_string_equal(line(0), "    PID            vCPU% USER       Command");
	assert_string_equal(line(1), "    404 100.0% ||||||||| root       [kworker/0:1]");
	assert_string_equal(line(2), "    101  49.8% ||||      root       swapper");
	assert_string_equal(line(5), "    707  12.5% |         dave       make");
	assert_string_equal(line(7), "    505   0.0%           carol      "
	                             "a-very-long-command-name-that-never-ends-and-goes-on-and-on");
	assert_string_equal(line(8), "");

	/* 80 columns: the long command is cut with an ellipsis */
	headless_screen(24, 80);
	table_sort_by(&t, C_PID, true);
	table_draw(&t, stdscr, 0, 0, 10, 80, &ascii);
	assert_int_equal(t.col_w[C_NAME], 44);
	assert_string_equal(line(0), "   vPID             CPU% USER       Command");
	/* pid 505 is the 3rd row descending */
	assert_string_equal(line(3), "    505   0.0%           carol      "
	                             "a-very-long-command-name-that-never-ends-an~");
	table_free(&t);
}

/* 40 columns: USER drops, the bar shrinks (bars give way before names)
 * and the command keeps its width. 25: CPU% drops too, only top
 * priorities are left and the command shrinks below its width. */
static void
test_layout_narrow(void **state)
{
	struct table t;

	headless_screen(24, 80);
	table_with(&t, cols, sample, NSAMPLE);
	table_sort_by(&t, C_NAME, false);
	table_draw(&t, stdscr, 0, 0, 10, 40, &ascii);
	assert_int_equal(t.col_x[C_USER], -1);
	expect_col(&t, C_CPU, 8, 11);
	expect_col(&t, C_NAME, 20, 20);
	assert_string_equal(line(0), "    PID        CPU% Command^");
	/* sorted by name: "[kworker", "a-very-long", "bash", ... */
	assert_string_equal(line(1), "    404 100.0% |||| [kworker/0:1]");
	assert_string_equal(line(2), "    505   0.0%      a-very-long-command~");

	werase(stdscr);
	table_draw(&t, stdscr, 0, 0, 10, 25, &ascii);
	assert_int_equal(t.col_x[C_CPU], -1);
	assert_int_equal(t.col_w[C_NAME], 17);
	assert_string_equal(line(2), "    505 a-very-long-comm~");

	/* Not even the top priorities fit: cut at the edge. */
	werase(stdscr);
	table_draw(&t, stdscr, 0, 0, 10, 5, &ascii);
	assert_int_equal(t.col_w[C_PID], 5);
	assert_int_equal(t.col_x[C_NAME], -1);
	assert_string_equal(line(1), "  404");
	table_free(&t);
}

/* Rows with text that is wide, combining, or not UTF-8 at all. */
static const struct frow awkward[] = {
    {1, 100, "root",
     "漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字"},
    {2, 50, "e\xcc\x81t\xc3\xa9",
     "bad \xff\xfe bytes and a very long tail that goes well past two "
     "hundred columns so that every width cuts it somewhere in the "
     "middle of the text, not at its end, again and again and again"},
    {3, 150, "\xcc\x81x", "x"},
    {4, -5, "u", "\t\x1b[31mraw"},
};

/* Fill the screen with '#', draw into an area, and check that the area is
 * fully repainted and nothing outside it changed. */
static void
check_area(const struct theme *th, int w)
{
	const int y = 2, x = 3, h = 6, lines = 12, columns = w + 10;
	struct table t;

	headless_screen(lines, columns);
	for (int r = 0; r < lines; r++)
		mvhline(r, 0, '#', columns);
	table_with(&t, cols, awkward, sizeof(awkward) / sizeof(awkward[0]));
	table_draw(&t, stdscr, y, x, h, w, th);
	for (int r = 0; r < lines; r++) {
		for (int c = 0; c < columns; c++) {
			bool inside = r >= y && r < y + h && c >= x && c < x + w;
			wchar_t wc = headless_cell(r, c, NULL);

			if (inside != (wc != L'#'))
				fail_msg("width %d: cell (%d, %d) is '%lc'", w, r, c, (wint_t)wc);
		}
	}
	table_free(&t);
}

/* Nothing is written past the area's last column at any width. */
static void
test_no_overflow(void **state)
{
	static const int widths[] = {200, 80, 40, 25, 9, 5, 1};

	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		check_area(&ascii, widths[i]);
		check_area(&utf8, widths[i]);
	}
}

/* A cut wide-character text never splits a character; the ellipsis and a
 * blank fill the cells left. Text longer than the table keeps of a cell
 * still ends with the ellipsis. */
static void
test_wide_cut(void **state)
{
	static char name[1500];
	struct frow row = {1, 1, "u", name};
	struct table t;
	char want[128] = "";
	const char *l;

	headless_screen(24, 80);
	table_with(&t, cols, awkward, 1);
	table_draw(&t, stdscr, 0, 0, 5, 40, &utf8);
	assert_int_equal(t.col_w[C_NAME], 20);
	/* 19 cells: 9 double-width characters, the ellipsis, one blank */
	for (int i = 0; i < 9; i++)
		strcat(want, i % 2 ? "字" : "漢");
	strcat(want, "…");
	assert_string_equal(headless_text(1, 20, 20), want);
	assert_string_equal(headless_text(1, 38, 1), "…");
	assert_string_equal(headless_text(1, 39, 1), "");
	table_free(&t);

	/* longer than a cell is kept, on a very wide screen */
	memset(name, 'x', sizeof(name) - 1);
	headless_screen(5, 1100);
	table_with(&t, cols, &row, 1);
	table_draw(&t, stdscr, 0, 0, 5, 1000, &ascii);
	l = line(1);
	assert_true(strlen(l) > 500);
	assert_int_equal(l[strlen(l) - 1], '~');
	assert_int_equal(l[strlen(l) - 2], 'x');
	table_free(&t);
}

/* Every column in both directions, stable for equal keys. */
static void
test_sort_columns(void **state)
{
	struct table t;

	table_with(&t, cols, sample, NSAMPLE);
	for (size_t c = 0; c < NCOLS; c++) {
		table_sort_by(&t, c, false);
		assert_int_equal(t.nrows, NSAMPLE);
		check_sorted(&t, sample);
		table_sort_by(&t, c, true);
		check_sorted(&t, sample);
	}
	/* the three rows at 12.5% keep their order both ways */
	table_sort_by(&t, C_CPU, true);
	assert_int_equal(row_pid(&t, 2), 202);
	assert_int_equal(row_pid(&t, 3), 303);
	assert_int_equal(row_pid(&t, 4), 707);
	table_sort_by(&t, C_CPU, false);
	assert_int_equal(row_pid(&t, 2), 202);
	assert_int_equal(row_pid(&t, 4), 707);
	table_free(&t);
}

/* Substring filters, '!' negation and clearing. */
static void
test_filter(void **state)
{
	struct table t;

	table_with(&t, cols, sample, NSAMPLE);
	table_set_filter(&t, "fire");
	assert_int_equal(t.nrows, 1);
	assert_int_equal(sel_pid(&t), 202);
	table_set_filter(&t, "ROOT");
	assert_int_equal(t.nrows, 2);
	table_set_filter(&t, "!root");
	assert_int_equal(t.nrows, NSAMPLE - 2);
	for (size_t i = 0; i < t.nrows; i++)
		assert_string_not_equal(((const struct frow *)t.rows[i])->user, "root");
	table_set_filter(&t, "!");
	assert_int_equal(t.nrows, NSAMPLE);
	table_set_filter(&t, "nothing matches this");
	assert_int_equal(t.nrows, 0);
	assert_null(table_selected(&t));
	table_set_filter(&t, "");
	assert_int_equal(t.nrows, NSAMPLE);
	table_free(&t);
}

/* The bar has floor(share * glyphs that fit) glyphs, in both glyph sets. */
static void
test_bar(void **state)
{
	static const struct frow bars[] = {
	    {1, 100, "u", "a"},  {2, 75, "u", "b"}, {3, 50, "u", "c"},
	    {4, 49.8, "u", "d"}, {5, 25, "u", "e"}, {6, 0, "u", "f"},
	};
	const struct theme *themes[] = {&ascii, &utf8};
	const wchar_t glyph[] = {L'|', L'\u2588'};
	struct table t;

	table_with(&t, cols, bars, 6);
	table_sort_by(&t, C_PID, false);
	for (int k = 0; k < 2; k++) {
		headless_screen(24, 80);
		table_draw(&t, stdscr, 0, 0, 10, 80, themes[k]);
		/* 16 cells: "100.0%", a blank, 9 glyphs */
		for (int i = 0; i < 6; i++)
			assert_int_equal(count_char(1 + i, glyph[k]), (int)(bars[i].pct / 100 * 9));
	}
	/* the bar starts after the text field on every row */
	assert_string_equal(headless_text(2, 8, 16), " 75.0% ██████");
	table_free(&t);
}

/* ASCII and UTF-8 glyph sets: ellipsis and sort markers both ways. */
static void
test_glyphs(void **state)
{
	struct table t;

	assert_string_equal(ascii.ellipsis, "~");
	assert_string_equal(ascii.bar_full, "|");
	assert_string_equal(ascii.hline, "-");
	assert_string_equal(utf8.ellipsis, "…");
	assert_string_equal(utf8.hline, "─");
	assert_false(ascii.color);

	headless_screen(24, 80);
	table_with(&t, cols, sample, NSAMPLE);
	table_sort_by(&t, C_NAME, true);
	table_draw(&t, stdscr, 0, 0, 10, 40, &utf8);
	assert_string_equal(line(0), "    PID        CPU% Command▼");
	assert_string_equal(line(6), "    505   0.0%      a-very-long-command…");
	table_sort_by(&t, C_PID, false);
	table_draw(&t, stdscr, 0, 0, 10, 40, &utf8);
	assert_string_equal(line(0), "   ▲PID        CPU% Command");
	table_sort_by(&t, C_PID, true);
	table_draw(&t, stdscr, 0, 0, 10, 40, &ascii);
	assert_string_equal(line(0), "   vPID        CPU% Command");
	table_free(&t);
}

/* The sorted title keeps the column's width and gets its own attribute;
 * a title too long for its column keeps the marker. */
static void
test_sort_marker(void **state)
{
	static const struct table_col tiny[NCOLS] = {
	    [C_PID] =
	        {.title = "PROCESS-ID", .width = 5, .priority = 3, .right = true, .sortable = true},
	    [C_CPU] = {.title = "CPU%", .width = 6, .priority = 3, .right = true, .sortable = true},
	    [C_USER] = {.title = "USERNAME", .width = 4, .priority = 3, .sortable = true},
	    [C_NAME] =
	        {.title = "Command", .width = 8, .priority = 3, .flex = true, .sortable = true},
	};
	struct theme th = ascii;
	struct table t;

	th.attr[TH_TITLE_SORTED] = A_REVERSE | A_BOLD;
	headless_screen(24, 80);
	table_with(&t, tiny, sample, NSAMPLE);
	table_sort_by(&t, C_PID, true);
	table_draw(&t, stdscr, 0, 0, 5, 40, &th);
	assert_string_equal(line(0), "vPRO~   CPU% USE~ Command");
	assert_true(attr_at(0, 0) & A_BOLD);
	assert_true(attr_at(0, 4) & A_BOLD);
	assert_false(attr_at(0, 5) & A_BOLD);
	assert_false(attr_at(0, 8) & A_BOLD);
	assert_true(attr_at(0, 8) & A_REVERSE);
	assert_true(attr_at(0, 39) & A_REVERSE);
	table_sort_by(&t, C_USER, false);
	table_draw(&t, stdscr, 0, 0, 5, 40, &th);
	assert_string_equal(line(0), "PROC~   CPU% US~^ Command");
	assert_true(attr_at(0, 13) & A_BOLD);
	assert_true(attr_at(0, 16) & A_BOLD);
	assert_false(attr_at(0, 17) & A_BOLD);
	table_free(&t);
}

/* Cell attributes colour single cells, except on the selected row. */
static void
test_cell_attr(void **state)
{
	struct theme th = ascii;
	struct table t;

	th.attr[TH_KERNEL] = A_BOLD;
	headless_screen(24, 80);
	table_with(&t, cols, sample, NSAMPLE);
	table_sort_by(&t, C_PID, false);
	table_draw(&t, stdscr, 0, 0, 10, 80, &th);
	/* row 4 is pid 404, "[kworker/0:1]" */
	assert_true(attr_at(4, 36) & A_BOLD);
	assert_false(attr_at(4, 0) & A_BOLD);
	assert_false(attr_at(3, 36) & A_BOLD);
	table_action(&t, ACT_END);
	table_action(&t, ACT_HOME);
	for (int i = 0; i < 3; i++)
		table_action(&t, ACT_DOWN);
	table_draw(&t, stdscr, 0, 0, 10, 80, &th);
	assert_false(attr_at(4, 36) & A_BOLD);
	assert_true(attr_at(4, 36) & A_REVERSE);
	table_free(&t);
}

/* An empty table draws titles and blanks and ignores navigation. */
static void
test_empty(void **state)
{
	struct table t;

	headless_screen(24, 80);
	table_init(&t, cols, NCOLS, &fops, NULL);
	for (int r = 0; r < 10; r++)
		mvhline(r, 0, '#', 80);
	table_draw(&t, stdscr, 0, 0, 10, 80, &ascii);
	assert_string_equal(line(0), "   vPID             CPU% USER       Command");
	assert_string_equal(line(5), "");
	assert_null(table_selected(&t));
	assert_int_equal(table_action(&t, ACT_DOWN), REACT_HANDLED | REACT_REDRAW);
	table_action(&t, ACT_END);
	table_action(&t, ACT_PAGE_DOWN);
	table_scroll(&t, 3);
	assert_false(table_search(&t, "x"));
	assert_false(table_search_next(&t, -1));
	assert_int_equal(table_click(&t, 3, 3), REACT_HANDLED);
	assert_null(table_selected(&t));
	assert_int_equal(t.sel, 0);
	table_draw(&t, stdscr, 0, 0, 0, 80, &ascii);
	assert_int_equal(table_click(&t, 0, 3), REACT_IGNORED);
	table_free(&t);
}

/* theme_init: colours on a colour terminal, monochrome when asked (the
 * flag or a non-empty NO_COLOR), UTF-8 glyphs in a UTF-8 locale. */
static void
test_theme_init(void **state)
{
	struct theme th;

	unsetenv("NO_COLOR");
	theme_init(&th, true);
	assert_false(th.color);
	assert_true(th.utf8);
	assert_string_equal(th.bar_full, "█");
	assert_int_equal(th.attr[TH_SELECTED], A_REVERSE);
	assert_int_equal(th.attr[TH_ERROR], A_BOLD | A_REVERSE);
	for (int i = 0; i < TH_COUNT; i++)
		assert_int_equal(th.attr[i] & A_COLOR, 0);

	setenv("NO_COLOR", "1", 1);
	theme_init(&th, false);
	assert_false(th.color);

	setenv("NO_COLOR", "", 1);
	theme_init(&th, false);
	assert_int_equal(th.color, has_colors());
	if (th.color) {
		assert_int_not_equal(th.attr[TH_SELECTED] & A_COLOR, 0);
		assert_int_not_equal(th.attr[TH_TITLE] & A_COLOR, 0);
		assert_int_not_equal(th.attr[TH_TITLE] & A_COLOR,
		                     th.attr[TH_TITLE_SORTED] & A_COLOR);
	}
	unsetenv("NO_COLOR");

	theme_plain(&th, false);
	assert_false(th.utf8);
	assert_int_equal(th.attr[TH_NORMAL], A_NORMAL);
	assert_int_equal(th.attr[TH_TITLE], A_REVERSE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_layout_wide),  cmocka_unit_test(test_layout_narrow),
	    cmocka_unit_test(test_no_overflow),  cmocka_unit_test(test_wide_cut),
	    cmocka_unit_test(test_sort_columns), cmocka_unit_test(test_filter),
	    cmocka_unit_test(test_bar),          cmocka_unit_test(test_glyphs),
	    cmocka_unit_test(test_sort_marker),  cmocka_unit_test(test_cell_attr),
	    cmocka_unit_test(test_empty),        cmocka_unit_test(test_theme_init),
	};
	theme_plain(&ascii, false);
	theme_plain(&utf8, true);
	return headless_run("table", tests, sizeof tests / sizeof tests[0], true);
}
