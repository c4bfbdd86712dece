/* Unit tests for the Counters pane's process grid: one row per process and
 * a column per event and metric from a snapshot, sorted by the first event
 * (busiest first), the sort staying on its event when the events change,
 * a zoom keeping one process, the columns left out past the table's room,
 * cell texts, and the title line drawn with escaped event names. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "headless.h"

#include "tracetop/util.h"
#include "ui/cntgrid.h"

/* The events of the fake snapshots (names are interned: same pointers). */
static const char *const ev_names[] = {"task-clock", "context-switches", "page-faults",
                                       "ev\x1b[1m"};
static const char cpus_utilized[] = "CPUs utilized";

/* A snapshot being built. */
struct fake {
	struct counters_row rows[64];
	struct counters_snapshot snap;
};

/* Add process pid's row of event name (rate per second, or a metric's
 * value). */
static void
add(struct fake *f, int pid, const char *comm, const char *name, double v, bool metric)
{
	struct counters_row *r = &f->rows[f->snap.n++];

	assert_true(f->snap.n <= 64);
	memset(r, 0, sizeof *r);
	r->event = name;
	r->kind = COUNTERS_PROCESS;
	r->cpu = -1;
	r->pid = pid;
	snprintf(r->scope, sizeof r->scope, "pid %d", pid);
	snprintf(r->comm, sizeof r->comm, "%s", comm);
	r->supported = true;
	r->metric = metric;
	r->nsec = name == ev_names[0];
	r->value = v;
	r->rate = metric ? 0 : v;
	r->share = 1;
	f->snap.rows = f->rows;
}

/* Three processes: task-clock (ns/s), context switches, CPUs utilized,
 * and for pid 10 event extra too unless NULL. */
static void
three_with(struct fake *f, const char *extra)
{
	static const struct {
		int pid;
		const char *comm;
		double clock, cs;
	} p[] = {{10, "idle", 1e6, 5}, {20, "busy", 9e8, 100}, {30, "mid", 2e8, 900}};

	memset(f, 0, sizeof *f);
	for (size_t i = 0; i < 3; i++) {
		add(f, p[i].pid, p[i].comm, ev_names[0], p[i].clock, false);
		add(f, p[i].pid, p[i].comm, ev_names[1], p[i].cs, false);
		add(f, p[i].pid, p[i].comm, cpus_utilized, p[i].clock / 1e9, true);
		if (extra != NULL && p[i].pid == 10)
			add(f, p[i].pid, p[i].comm, extra, 7, false);
	}
	f->snap.scope = COUNTERS_PROCESS;
}

/* The three processes alone. */
static void
three(struct fake *f)
{
	three_with(f, NULL);
}

/* A grid of the three processes. */
static void
grid_of_three(struct fake *f, struct cntgrid *g)
{
	three(f);
	cntgrid_init(g);
	cntgrid_set(g, &f->snap);
}

/* The pid of shown row i. */
static int
row_pid(const struct cntgrid *g, size_t i)
{
	return ((const struct cntgrid_row *)g->list.table.rows[i])->first->pid;
}

/* The text of shown row i's column col. */
static const char *
cell(const struct cntgrid *g, size_t i, size_t col)
{
	static char buf[64];

	g->list.table.ops->cell(g->list.table.rows[i], col, buf, sizeof buf, g->list.table.ctx);
	return buf;
}

/* One row per process, a column per event and metric, the busiest first. */
static void
test_rows_and_columns(void **state)
{
	struct fake f;
	struct cntgrid g;

	(void)state;
	grid_of_three(&f, &g);
	assert_int_equal(g.nrows, 3);
	assert_int_equal(g.nev, 3);
	assert_int_equal(g.left_out, 0);
	assert_int_equal(g.list.table.ncols, CNTGRID_COL_EVENT0 + 3 + 1);
	assert_string_equal(g.cols[CNTGRID_COL_EVENT0].title, "task-clock");
	assert_string_equal(g.cols[CNTGRID_COL_EVENT0 + 2].title, "CPUs utilized");
	assert_string_equal(g.cols[CNTGRID_COL_EVENT0 + 3].title, "Command");
	/* sorted by task-clock, descending */
	assert_int_equal(g.list.table.sort_col, CNTGRID_COL_EVENT0);
	assert_int_equal(row_pid(&g, 0), 20);
	assert_int_equal(row_pid(&g, 1), 30);
	assert_int_equal(row_pid(&g, 2), 10);
	assert_string_equal(cell(&g, 0, CNTGRID_COL_PID), "20");
	assert_string_equal(cell(&g, 0, CNTGRID_COL_EVENT0), "900.0 ms/s");
	assert_string_equal(cell(&g, 0, CNTGRID_COL_EVENT0 + 1), "100");
	assert_string_equal(cell(&g, 1, CNTGRID_COL_EVENT0 + 1), "900");
	assert_string_equal(cell(&g, 0, CNTGRID_COL_EVENT0 + 2), "0.90");
	assert_string_equal(cell(&g, 0, CNTGRID_COL_EVENT0 + 3), "busy");
	/* by context switches instead */
	table_sort_by(&g.list.table, CNTGRID_COL_EVENT0 + 1, true);
	assert_int_equal(row_pid(&g, 0), 30);
	cntgrid_free(&g);
}

/* Not counted reads "-" and sorts below every number; an exited process
 * says so. */
static void
test_unsupported_and_exited(void **state)
{
	struct fake f;
	struct cntgrid g;

	(void)state;
	three(&f);
	f.rows[3].supported = false; /* busy's task-clock */
	f.rows[6].exited = true;     /* mid */
	cntgrid_init(&g);
	cntgrid_set(&g, &f.snap);
	assert_int_equal(row_pid(&g, 2), 20);
	assert_string_equal(cell(&g, 2, CNTGRID_COL_EVENT0), "-");
	assert_int_equal(row_pid(&g, 0), 30);
	assert_string_equal(cell(&g, 0, CNTGRID_COL_EVENT0 + 3), "mid (exited)");
	cntgrid_free(&g);
}

/* The sort follows its event when the columns change, and the Command
 * column when it is the one sorted by. */
static void
test_sort_follows_event(void **state)
{
	struct fake f;
	struct cntgrid g;

	(void)state;
	grid_of_three(&f, &g);
	table_sort_by(&g.list.table, CNTGRID_COL_EVENT0 + 1, true);
	/* task-clock stops being counted: context switches move left */
	memset(&f, 0, sizeof f);
	add(&f, 10, "idle", ev_names[1], 5, false);
	add(&f, 20, "busy", ev_names[1], 100, false);
	cntgrid_set(&g, &f.snap);
	assert_int_equal(g.nev, 1);
	assert_int_equal(g.list.table.sort_col, CNTGRID_COL_EVENT0);
	assert_true(g.list.table.descending);
	assert_int_equal(row_pid(&g, 0), 20);
	/* by command, then one more event: still by command */
	table_sort_by(&g.list.table, CNTGRID_COL_EVENT0 + 1, false);
	three(&f);
	cntgrid_set(&g, &f.snap);
	assert_int_equal(g.list.table.sort_col, CNTGRID_COL_EVENT0 + 3);
	assert_int_equal(row_pid(&g, 0), 20); /* busy, idle, mid */
	assert_int_equal(row_pid(&g, 2), 30);
	cntgrid_free(&g);
}

/* A zoom keeps one process; a process not in the snapshot leaves none. */
static void
test_zoom(void **state)
{
	struct fake f;
	struct cntgrid g;

	(void)state;
	three(&f);
	cntgrid_init(&g);
	g.zoom_pid = 10;
	cntgrid_set(&g, &f.snap);
	assert_int_equal(g.nrows, 1);
	assert_int_equal(row_pid(&g, 0), 10);
	assert_true(g.zoom_seen);
	g.zoom_pid = 99;
	cntgrid_set(&g, &f.snap);
	assert_int_equal(g.nrows, 0);
	assert_false(g.zoom_seen);
	g.zoom_pid = 0;
	cntgrid_set(&g, &f.snap);
	assert_int_equal(g.nrows, 3);
	cntgrid_free(&g);
}

/* Past the table's room the events are counted as left out. */
static void
test_too_many_events(void **state)
{
	static char names[CNTGRID_MAX_EVENTS + 2][16];
	struct fake f;
	struct cntgrid g;

	(void)state;
	memset(&f, 0, sizeof f);
	for (size_t i = 0; i < CNTGRID_MAX_EVENTS + 2; i++) {
		snprintf(names[i], sizeof names[i], "ev%zu", i);
		add(&f, 1, "one", names[i], (double)i, false);
	}
	cntgrid_init(&g);
	cntgrid_set(&g, &f.snap);
	assert_int_equal(g.nev, CNTGRID_MAX_EVENTS);
	assert_int_equal(g.left_out, 2);
	assert_int_equal(g.list.table.ncols, TABLE_MAX_COLS);
	assert_string_equal(cell(&g, 0, CNTGRID_COL_EVENT0 + 12), "12");
	cntgrid_free(&g);
}

/* Drawn: the titles, an event's name escaped, the rows. */
static void
test_draw(void **state)
{
	struct fake f;
	struct cntgrid g;
	struct theme th;

	(void)state;
	three_with(&f, ev_names[3]);
	cntgrid_init(&g);
	cntgrid_set(&g, &f.snap);
	theme_plain(&th, false);
	headless_screen(24, 120);
	table_draw(&g.list.table, stdscr, 0, 0, 10, 120, &th);
	wnoutrefresh(stdscr);
	assert_non_null(strstr(headless_text(0, 0, 120), "PID"));
	assert_non_null(strstr(headless_text(0, 0, 120), "context-switches"));
	assert_non_null(strstr(headless_text(0, 0, 120), "ev\\x1b[1m"));
	assert_null(strchr(headless_text(0, 0, 120), '\x1b'));
	assert_non_null(strstr(headless_text(1, 0, 120), "busy"));
	assert_non_null(strstr(headless_text(3, 0, 120), "idle"));
	/* idle's row has the extra event (a column of its own, last), the
	 * others "-" */
	assert_string_equal(cell(&g, 0, CNTGRID_COL_EVENT0 + 3), "-");
	assert_string_equal(cell(&g, 2, CNTGRID_COL_EVENT0 + 3), "7");
	cntgrid_free(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows_and_columns),
	    cmocka_unit_test(test_unsupported_and_exited),
	    cmocka_unit_test(test_sort_follows_event),
	    cmocka_unit_test(test_zoom),
	    cmocka_unit_test(test_too_many_events),
	    cmocka_unit_test(test_draw),
	};

	return headless_run("cntgrid", tests, sizeof tests / sizeof tests[0], false);
}
