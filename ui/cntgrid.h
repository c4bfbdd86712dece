/* cntgrid: the Counters pane's process scope as a grid, one row per
 * process and one column per event or metric (sorted by the first, busiest
 * first), the way top lists processes; a zoom keeps one process. */
#ifndef TRACETOP_UI_CNTGRID_H
#define TRACETOP_UI_CNTGRID_H

#include <stdbool.h>
#include <stddef.h>

#include "tracetop/counters.h"
#include "ui/listpane.h"

/* PID, Cgroup and Command take three columns; the events the rest. */
#define CNTGRID_MAX_EVENTS (TABLE_MAX_COLS - 3)

enum { CNTGRID_COL_PID, CNTGRID_COL_CGROUP, CNTGRID_COL_EVENT0 };

/* A process: its first row (pid, command, cgroup, exit) and, per event
 * column, its row of that event or NULL. */
struct cntgrid_row {
	const struct counters_row *first;
	const struct counters_row *cell[CNTGRID_MAX_EVENTS];
};

/* An event column: the rows' event name (interned) and whether it is a
 * metric. */
struct cntgrid_col {
	const char *event;
	bool metric;
};

struct cntgrid {
	struct listpane list; /* first: the listpane_pane_* ops take the grid as it */
	struct table_col cols[TABLE_MAX_COLS];
	char titles[CNTGRID_MAX_EVENTS][24];
	struct cntgrid_col ev[CNTGRID_MAX_EVENTS];
	size_t nev;
	size_t left_out; /* events and metrics beyond the columns */
	struct cntgrid_row *rows;
	const void **ptrs;
	size_t nrows, cap;
	int zoom_pid;   /* the one process shown, or 0 */
	bool zoom_seen; /* the zoomed process had rows in the last snapshot */
};

void cntgrid_init(struct cntgrid *g);
void cntgrid_free(struct cntgrid *g);

/* The rows of a process-scope snapshot: columns follow its events (the
 * sort stays on the same event), rows follow its processes. */
void cntgrid_set(struct cntgrid *g, const struct counters_snapshot *snap);

/* The selected process or NULL. */
const struct cntgrid_row *cntgrid_selected(const struct cntgrid *g);

/* A row's rate as the Counters pane shows it: SI-scaled per second, a
 * time in ms/s; "" for a metric or an unsupported row. */
void cntgrid_rate_text(const struct counters_row *r, char *buf, size_t len);

#endif
