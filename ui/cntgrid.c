/* cntgrid: the process scope of the Counters pane as a grid (see
 * cntgrid.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/cgroup.h"
#include "tracetop/report-counters.h"
#include "tracetop/util.h"
#include "ui/cntgrid.h"
#include "ui/meters.h"

static const struct table_col col_pid = {
    .title = "PID", .width = 7, .min_width = 5, .priority = 10, .right = true, .sortable = true};
static const struct table_col col_cgroup = {
    .title = "Cgroup", .width = 14, .min_width = 8, .priority = 0, .sortable = true};
static const struct table_col col_command = {.title = "Command",
                                             .width = 12,
                                             .min_width = 7,
                                             .priority = 10,
                                             .flex = true,
                                             .sortable = true};

/* The Command column comes after the events. */
static size_t
col_command_idx(const struct cntgrid *g)
{
	return CNTGRID_COL_EVENT0 + g->nev;
}

/* A row's rate as shown (see cntgrid.h). */
void
cntgrid_rate_text(const struct counters_row *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!r->supported || r->metric)
		return;
	if (r->nsec)
		snprintf(buf, len, "%.1f ms/s", r->rate / 1e6);
	else
		meter_rate(r->rate, buf, len);
}

/* An event cell: the rate, a metric's value, "-" when not counted. */
static void
grid_value_text(const struct counters_row *r, char *buf, size_t len)
{
	if (r == NULL || !r->supported)
		snprintf(buf, len, "-");
	else if (r->metric)
		snprintf(buf, len, r->percent ? "%.2f%%" : "%.2f", r->value);
	else
		cntgrid_rate_text(r, buf, len);
}

/* The number an event column sorts by; nothing sorts below every number. */
static double
grid_key(const struct counters_row *r)
{
	if (r == NULL || !r->supported)
		return -INFINITY;
	return r->metric ? r->value : r->rate;
}

/* Cell text. */
static void
grid_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct cntgrid_row *gr = row;
	const struct counters_row *f = gr->first;
	const struct cntgrid *g = ctx;
	char comm[sizeof f->comm * 4];

	buf[0] = '\0';
	if (col == CNTGRID_COL_PID) {
		snprintf(buf, len, "%d", f->pid);
	} else if (col == CNTGRID_COL_CGROUP) {
		if (f->cgroup != NULL)
			str_escape(buf, len, f->cgroup->name, strlen(f->cgroup->name));
	} else if (col == col_command_idx(g)) {
		str_escape(comm, sizeof comm, f->comm, sizeof f->comm);
		snprintf(buf, len, "%s%s", comm, f->exited ? " (exited)" : "");
	} else if (col < col_command_idx(g)) {
		grid_value_text(gr->cell[col - CNTGRID_COL_EVENT0], buf, len);
	}
}

/* Order two processes by a column, then by pid. */
static int
grid_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct cntgrid_row *a = pa, *b = pb;
	const struct counters_row *fa = a->first, *fb = b->first;
	const struct cntgrid *g = ctx;
	int c = 0;

	if (col == CNTGRID_COL_CGROUP) {
		c = strcmp(fa->cgroup ? fa->cgroup->name : "", fb->cgroup ? fb->cgroup->name : "");
	} else if (col == col_command_idx(g)) {
		c = strncmp(fa->comm, fb->comm, sizeof fa->comm);
	} else if (col > CNTGRID_COL_CGROUP && col < col_command_idx(g)) {
		double x = grid_key(a->cell[col - CNTGRID_COL_EVENT0]);
		double y = grid_key(b->cell[col - CNTGRID_COL_EVENT0]);

		c = x != y ? CMP3(x, y) : 0;
	}
	return c != 0 ? c : CMP3(fa->pid, fb->pid);
}

/* A process is the same row across refreshes. */
static uintptr_t
grid_row_id(const void *row, void *ctx)
{
	const struct cntgrid_row *gr = row;

	(void)ctx;
	return (uintptr_t)hash_u64((uint64_t)(uint32_t)gr->first->pid);
}

/* Filter and search over pid, command and cgroup. */
static bool
grid_match(const void *row, const char *text, void *ctx)
{
	const struct counters_row *f = ((const struct cntgrid_row *)row)->first;
	char scope[96];

	(void)ctx;
	report_counters_scope(f, scope, sizeof scope);
	return strcasestr(scope, text) != NULL ||
	       (f->cgroup != NULL && strcasestr(f->cgroup->name, text) != NULL);
}

/* Dim what has exited or cannot be counted. */
static attr_t
grid_cell_attr(const void *row, size_t col, const struct theme *th, void *ctx)
{
	const struct cntgrid_row *gr = row;
	const struct cntgrid *g = ctx;

	if (gr->first->exited)
		return th->attr[TH_DIM];
	if (col >= CNTGRID_COL_EVENT0 && col < col_command_idx(g) &&
	    (gr->cell[col - CNTGRID_COL_EVENT0] == NULL ||
	     !gr->cell[col - CNTGRID_COL_EVENT0]->supported))
		return th->attr[TH_DIM];
	return 0;
}

static const struct table_ops grid_ops = {
    .cell = grid_cell,
    .compare = grid_compare,
    .row_id = grid_row_id,
    .match = grid_match,
    .cell_attr = grid_cell_attr,
};

/* Set up an empty grid, sorted by its first event once it has one. */
void
cntgrid_init(struct cntgrid *g)
{
	memset(g, 0, sizeof *g);
	g->cols[CNTGRID_COL_PID] = col_pid;
	g->cols[CNTGRID_COL_CGROUP] = col_cgroup;
	g->cols[CNTGRID_COL_EVENT0] = col_command;
	table_init(&g->list.table, g->cols, CNTGRID_COL_EVENT0 + 1, &grid_ops, g);
}

/* Free the grid's arrays. */
void
cntgrid_free(struct cntgrid *g)
{
	table_free(&g->list.table);
	free(g->rows);
	free(g->ptrs);
}

/* The event column of row r, or -1 when it has none (yet). */
static int
grid_col_of(const struct cntgrid *g, const struct counters_row *r)
{
	for (size_t i = 0; i < g->nev; i++)
		if (g->ev[i].event == r->event && g->ev[i].metric == r->metric)
			return (int)i;
	return -1;
}

/* The columns of snap's events and metrics, in their order; the sort
 * follows its column (or the first event's when that left). */
static void
grid_columns(struct cntgrid *g, const struct counters_snapshot *snap)
{
	struct table *t = &g->list.table;
	size_t was = t->sort_col, sort = CNTGRID_COL_EVENT0;
	struct cntgrid_col sorted = {NULL, false};
	bool first = g->nev == 0, by_command = !first && was == col_command_idx(g);

	if (was >= CNTGRID_COL_EVENT0 && !by_command)
		sorted = g->ev[was - CNTGRID_COL_EVENT0];
	g->nev = g->left_out = 0;
	for (size_t i = 0; i < snap->n; i++) {
		const struct counters_row *r = &snap->rows[i];
		int w;

		if (grid_col_of(g, r) >= 0)
			continue;
		if (g->nev == CNTGRID_MAX_EVENTS) {
			g->left_out++;
			continue;
		}
		g->ev[g->nev] = (struct cntgrid_col){r->event, r->metric};
		str_escape(g->titles[g->nev], sizeof g->titles[g->nev], r->event, strlen(r->event));
		w = (int)strlen(g->titles[g->nev]);
		/* later events drop first when the width runs out */
		g->cols[CNTGRID_COL_EVENT0 + g->nev] = (struct table_col){
		    .title = g->titles[g->nev],
		    .width = w >= 9 ? w + 1 : 9, /* room for the sort mark */
		    .min_width = 6,
		    .priority = g->nev < 8 ? 9 - (int)g->nev : 1,
		    .right = true,
		    .sortable = true,
		};
		if (r->event == sorted.event && r->metric == sorted.metric)
			sort = CNTGRID_COL_EVENT0 + g->nev;
		g->nev++;
	}
	g->cols[col_command_idx(g)] = col_command;
	if (first)
		t->descending = true; /* the busiest first, as top does */
	else if (was < CNTGRID_COL_EVENT0)
		sort = was;
	else if (by_command)
		sort = col_command_idx(g);
	table_set_columns(t, col_command_idx(g) + 1, sort);
}

/* The rows of a process-scope snapshot (see cntgrid.h). */
void
cntgrid_set(struct cntgrid *g, const struct counters_snapshot *snap)
{
	struct cntgrid_row *gr = NULL;

	grid_columns(g, snap);
	if (g->cap < snap->n) {
		g->cap = snap->n;
		g->rows = xrealloc(g->rows, g->cap * sizeof *g->rows);
		g->ptrs = xrealloc(g->ptrs, g->cap * sizeof *g->ptrs);
	}
	g->nrows = 0;
	g->zoom_seen = false;
	for (size_t i = 0; i < snap->n; i++) {
		const struct counters_row *r = &snap->rows[i];
		int col;

		if (g->zoom_pid != 0 && r->pid != g->zoom_pid)
			continue;
		if (gr == NULL || gr->first->pid != r->pid) {
			gr = &g->rows[g->nrows];
			memset(gr, 0, sizeof *gr);
			gr->first = r;
			g->ptrs[g->nrows++] = gr;
		}
		if ((col = grid_col_of(g, r)) >= 0)
			gr->cell[col] = r;
	}
	g->zoom_seen = g->zoom_pid != 0 && g->nrows > 0;
	table_set_rows(&g->list.table, g->ptrs, g->nrows);
}

/* The selected process or NULL. */
const struct cntgrid_row *
cntgrid_selected(const struct cntgrid *g)
{
	return table_selected(&g->list.table);
}
