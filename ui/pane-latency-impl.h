/* pane-latency-impl.h: the Latency pane's state, shared by its files
 * (pane-latency.c: the table, drawing, keys; pane-latency-tree.c: the
 * lines, off-CPU stack trees and a row's detail; pane-latency-time.c:
 * its sources and the functions timed by keypress). */
#ifndef TRACETOP_UI_PANE_LATENCY_IMPL_H
#define TRACETOP_UI_PANE_LATENCY_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "tracetop/latency.h"
#include "tracetop/util.h"
#include "ui/calltree.h"
#include "ui/listpane.h"
#include "ui/tui.h"

enum lat_col {
	COL_PID,
	COL_COMM,
	COL_KIND,
	COL_NAME,
	COL_COUNT,
	COL_RATE,
	COL_ERRORS,
	COL_P50,
	COL_P90,
	COL_P99,
	COL_MAX,
	COL_TOTAL,
	COL_CHANGE, /* with a baseline (B, --baseline): p50's change */
	COL_HIST,
	COL_NCOLS
};

struct latsys;
struct latsched;

struct latpane {
	struct listpane list;              /* first: the listpane_pane_* ops take the pane as it */
	const struct frame_latency *frame; /* the last frame's part */
	const struct frame_latency *fl;    /* what is shown: it, or merged */
	struct frame_latency merged;       /* p: its rows over every process */
	bool merge;
	struct calltree tree;   /* the lines: rows, an offcpu row's stacks under it */
	struct cg_view view;    /* scratch for a tree */
	struct latsys *src;     /* syscalls and functions: opened on first show or t */
	struct latsched *sched; /* runq, bio, offcpu (--latency-kinds): the same */
	bool opened;
	bool syscalls;                           /* the syscall source times every syscall */
	char error[sizeof(struct tt_err)];       /* why the syscall source could not be opened */
	char sched_error[sizeof(struct tt_err)]; /* why the sched/block one could not */
	bool detail;         /* Enter: the selected row's histogram under the table */
	const char *pending; /* a function just timed: select its first row */
	/* functions timed by keypress: the tracepoints of their probe pair */
	struct lat_timed {
		int k; /* the source's function index; -1: removed */
		char entry[160], ret[160];
	} * timed;
	size_t ntimed;
	const struct tui *tui;            /* its baseline */
	struct table_col cols[COL_NCOLS]; /* P50 CHANGE only with a baseline */
};

/* The lat_row a table line shows or hangs under. */
static inline const struct lat_row *
latpane_row(const void *line)
{
	return ((const struct ct_line *)line)->row;
}

/* A row's identity across refreshes: (kind, name, pid, tid). */
uintptr_t latpane_row_id(const struct lat_row *r);

/* Rebuild the lines from p->fl (an offcpu row's stack tree under it when
 * open) and hand them to the table; select_id, unless 0, selected. */
void latpane_rebuild(struct latpane *p, struct tui *t, uintptr_t select_id);

/* + - E C, and Enter on a tree line: the off-CPU stack trees. */
int latpane_tree_action(struct latpane *p, struct tui *t, enum action a);

/* Lines of a row's detail above its histogram (its title; an offcpu or
 * oncpu row's thread's times). */
int latpane_detail_head(const struct lat_row *r);

/* The selected row's histogram (an offcpu row's: with its thread's
 * blocked time) in the h lines at (y, x). */
void latpane_draw_detail(const struct latpane *p, const struct lat_row *r, WINDOW *win, int y,
                         int x, int h, int w, const struct theme *th);

/* Open the sources on the screen's target (a command started by then
 * is followed as a -p process would be); funcs: the probe pair's
 * tracepoints of a function to time from the start (t), or NULL. */
void latpane_open(struct latpane *p, struct tui *t, const char *const *funcs,
                  const char *func_name);

/* Delete: stop timing the selected function, remove its probe pair. */
int latpane_untime(struct latpane *p, struct tui *t);

#endif
