/* table-fixture: the fake pane both table test files draw: its rows,
 * columns and ops, the screen readers and the expectations they share. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "headless.h"
#include "table-fixture.h"

const struct table_col cols[NCOLS] = {
    [C_PID] = {.title = "PID",
               .width = 7,
               .min_width = 5,
               .priority = 3,
               .right = true,
               .sortable = true},
    [C_CPU] = {.title = "CPU%",
               .width = 16,
               .min_width = 6,
               .priority = 1,
               .right = true,
               .bar = true,
               .sortable = true},
    [C_USER] = {.title = "USER", .width = 10, .min_width = 4, .priority = 0, .sortable = true},
    [C_NAME] = {.title = "Command",
                .width = 20,
                .min_width = 8,
                .priority = 3,
                .flex = true,
                .sortable = true},
};

const char long_name[] = "a-very-long-command-name-that-never-ends-and-goes-on-and-on";

const struct frow sample[NSAMPLE] = {
    {101, 49.8, "root", "swapper"}, {202, 12.5, "alice", "firefox"},
    {303, 12.5, "bob", "bash"},     {404, 100.0, "root", "[kworker/0:1]"},
    {505, 0.0, "carol", long_name}, {606, 3.2, "alice", "vim"},
    {707, 12.5, "dave", "make"},
};

/* Cell text: pid, "12.5%", user, command. */
static void
f_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct frow *r = row;

	switch (col) {
	case C_PID:
		snprintf(buf, len, "%d", r->pid);
		break;
	case C_CPU:
		snprintf(buf, len, "%.1f%%", r->pct);
		break;
	case C_USER:
		snprintf(buf, len, "%s", r->user);
		break;
	default:
		snprintf(buf, len, "%s", r->name);
		break;
	}
}

/* Ascending order by one column. */
static int
f_compare(const void *a, const void *b, size_t col, void *ctx)
{
	const struct frow *x = a, *y = b;

	switch (col) {
	case C_PID:
		return (x->pid > y->pid) - (x->pid < y->pid);
	case C_CPU:
		return (x->pct > y->pct) - (x->pct < y->pct);
	case C_USER:
		return strcmp(x->user, y->user);
	default:
		return strcmp(x->name, y->name);
	}
}

/* The CPU share drives the bar. */
static double
f_bar(const void *row, size_t col, void *ctx)
{
	return ((const struct frow *)row)->pct;
}

/* Pids identify rows. */
static uintptr_t
f_id(const void *row, void *ctx)
{
	return (uintptr_t)((const struct frow *)row)->pid;
}

/* Case-insensitive substring of user or command. */
static bool
f_match(const void *row, const char *text, void *ctx)
{
	const struct frow *r = row;

	return strcasestr(r->user, text) != NULL || strcasestr(r->name, text) != NULL;
}

/* Kernel threads ("[...]") in the kernel colour. */
static attr_t
f_attr(const void *row, size_t col, const struct theme *th, void *ctx)
{
	const struct frow *r = row;

	return col == C_NAME && r->name[0] == '[' ? th->attr[TH_KERNEL] : 0;
}

const struct table_ops fops = {
    .cell = f_cell,
    .compare = f_compare,
    .bar_value = f_bar,
    .row_id = f_id,
    .match = f_match,
    .cell_attr = f_attr,
};

struct theme ascii, utf8;

/* Line y of the screen from column 0. */
const char *
line(int y)
{
	return headless_text(y, 0, COLS);
}

/* The attributes of the cell at (y, x). */
attr_t
attr_at(int y, int x)
{
	attr_t a;

	headless_cell(y, x, &a);
	return a;
}

/* How many cells of line y hold the character wc. */
int
count_char(int y, wchar_t wc)
{
	int n = 0;

	for (int x = 0; x < COLS; x++)
		n += headless_cell(y, x, NULL) == wc;
	return n;
}

/* A table over the sample rows (pointers into rows[]). */
void
table_with(struct table *t, const struct table_col *c, const struct frow *rows, size_t n)
{
	const void *p[64];

	assert_true(n <= 64);
	for (size_t i = 0; i < n; i++)
		p[i] = &rows[i];
	table_init(t, c, NCOLS, &fops, NULL);
	table_set_rows(t, p, n);
}

/* Fifty rows task00..task49 with pids 1000.. and spread shares. */
struct frow many[50];
static char many_names[50][16];

/* Fill many[]. */
void
make_many(void)
{
	for (int i = 0; i < 50; i++) {
		snprintf(many_names[i], sizeof(many_names[i]), "task%02d", i);
		many[i] = (struct frow){1000 + i, (i * 37) % 101, "u", many_names[i]};
	}
}

/* Pid of the selected row, or -1. */
int
sel_pid(const struct table *t)
{
	const struct frow *r = table_selected(t);

	return r ? r->pid : -1;
}

/* Pid of the row shown at index i. */
int
row_pid(const struct table *t, size_t i)
{
	return ((const struct frow *)t->rows[i])->pid;
}

/* Column c is at x (-1: dropped) and w cells wide. */
void
expect_col(const struct table *t, size_t c, int x, int w)
{
	assert_int_equal(t->col_x[c], x);
	assert_int_equal(t->col_w[c], w);
}

/* The selection is at row sel with row top first on screen. */
void
expect_pos(const struct table *t, size_t sel, size_t top)
{
	assert_int_equal(t->sel, sel);
	assert_int_equal(t->top, top);
}

/* Fifty rows (make_many) in a table by pid on a 24x80 screen, drawn h
 * lines high at the top left. */
void
many_table(struct table *t, int h)
{
	make_many();
	table_with(t, cols, many, 50);
	table_sort_by(t, C_PID, false);
	headless_screen(24, 80);
	table_draw(t, stdscr, 0, 0, h, 80, &ascii);
}

/* Is the table sorted by its column and direction, equal rows in the
 * order they were given? */
void
check_sorted(const struct table *t, const struct frow *base)
{
	for (size_t i = 1; i < t->nrows; i++) {
		const struct frow *a = t->rows[i - 1], *b = t->rows[i];
		int c = fops.compare(a, b, t->sort_col, NULL);

		if (t->descending)
			c = -c;
		assert_true(c <= 0);
		if (c == 0)
			assert_true(a - base < b - base);
	}
}
