/* table-fixture: the fake pane of the table widget's tests (test-table.c,
 * test-table-nav.c): rows of pid, CPU share, user and command, their
 * columns and ops, the screen readers and shared expectations. */
#ifndef TRACETOP_TEST_TABLE_FIXTURE_H
#define TRACETOP_TEST_TABLE_FIXTURE_H

#include <stddef.h>
#include <wchar.h>

#include "ui/table.h"
#include "ui/theme.h"

/* A row of the fake pane. */
struct frow {
	int pid;
	double pct;
	const char *user;
	const char *name;
};

enum { C_PID, C_CPU, C_USER, C_NAME, NCOLS };

#define NSAMPLE 7

extern const struct table_col cols[NCOLS];
extern const char long_name[];
extern const struct frow sample[NSAMPLE]; /* seven rows, one with long_name */
extern const struct table_ops fops;
extern struct theme ascii, utf8; /* set up by each test's main */
extern struct frow many[50];     /* make_many */

const char *line(int y);
attr_t attr_at(int y, int x);
int count_char(int y, wchar_t wc);
void table_with(struct table *t, const struct table_col *c, const struct frow *rows, size_t n);
void make_many(void);
int sel_pid(const struct table *t);
int row_pid(const struct table *t, size_t i);
void expect_col(const struct table *t, size_t c, int x, int w);
void expect_pos(const struct table *t, size_t sel, size_t top);
void many_table(struct table *t, int h);
/* The table is sorted by its column and direction, equal rows in the
 * order of base. */
void check_sorted(const struct table *t, const struct frow *base);

#endif
