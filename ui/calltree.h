/* calltree: the call-graph trees the Top pane shows under its rows (and
 * the Latency pane under its off-CPU rows). The pane's rows become lines:
 * each row, then (when it is expanded) its tree, one line per node, drawn
 * with the theme's glyphs. Expanded state is kept by row and node
 * identity, so it survives refreshes; the lines are rebuilt from every
 * new snapshot: by calltree_build for the Top pane's hist rows, by
 * calltree_begin, _add_row, _add_view and _end for a pane's own rows. */
#ifndef TRACETOP_UI_CALLTREE_H
#define TRACETOP_UI_CALLTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/callgraph.h"
#include "tracetop/hist.h"
#include "ui/table.h"

#define CT_TEXT_MAX 320   /* bytes of a tree line's text */
#define CT_MAX_DEPTH 32   /* levels shown below a row */
#define CT_MAX_NODES 4000 /* tree lines over all rows */
#define CT_MAX_OPEN 100   /* rows E expands */

/* One displayed line: a snapshot row (node 0) or a node of its tree. */
struct ct_line {
	const struct hist_row *top; /* the row, or the row the tree hangs under */
	const void *row;            /* the same, of a pane's own rows (calltree_add_row) */
	uint32_t node;              /* 0: the row itself; else index into nodes */
	uint32_t ord;               /* the row's index in the snapshot */
	uint32_t seq;               /* 0 for the row, then 1.. down its tree */
	uintptr_t id;               /* identity across refreshes */
};

/* A tree node's line. */
struct ct_node {
	char text[CT_TEXT_MAX]; /* glyphs, percentage and name */
	const char *name;       /* the name inside text */
	const struct sym *sym;  /* the function, for its full name (NULL: none) */
	bool has_kids, open;
};

/* An explicit expand (or collapse) of a tree node. */
struct ct_state {
	uintptr_t id;
	bool open;
};

struct calltree {
	bool callers;    /* trees show callers, not callees */
	bool relative;   /* percent of the parent, not of the total */
	bool times;      /* the weights are ns: each node's time after its percentage */
	unsigned group;  /* HIST_GROUP_* of the rows: which roots a row's tree takes */
	uintptr_t *open; /* ids of the rows shown expanded */
	size_t nopen, capopen;
	struct ct_state *states; /* node ids expanded or collapsed by hand */
	size_t nstates, capstates;
	struct ct_line *lines;
	size_t nlines, caplines;
	struct ct_node *nodes; /* nodes[0] unused */
	size_t nnodes, capnodes;
	const void **ptrs; /* &lines[i], for the table */
	size_t capptrs;
	struct cg_view view; /* scratch */
};

void calltree_free(struct calltree *ct);

/* A snapshot row's identity across snapshots (its key). */
uintptr_t calltree_row_id(const struct hist_row *r);

/* Rebuild the lines from snap: every row, each expanded one followed by
 * its tree from cg (NULL: no trees). ct->ptrs then holds ct->nlines. */
void calltree_build(struct calltree *ct, const struct callgraph *cg,
                    const struct hist_snapshot *snap, bool utf8);

/* The same in steps, for rows of any kind: start over, then each row
 * (top: a hist row, or NULL; row: the pane's own row) and, when it is
 * open, the tree of a view under it (its node 1 stands for the row and
 * is not drawn; total: the percentages' base, 0 for node 1's), then end:
 * ct->ptrs holds ct->nlines. */
void calltree_begin(struct calltree *ct);
void calltree_add_row(struct calltree *ct, const struct hist_row *top, const void *row,
                      uint32_t ord, uintptr_t id);
void calltree_add_view(struct calltree *ct, const struct cg_view *v, double total, bool utf8);
void calltree_end(struct calltree *ct);

/* Scroll table t, whose rows are a calltree's lines, so that the
 * selected line's tree shows below it as far as the page allows (the
 * selection stays on screen). */
void calltree_show_below(struct table *t);

/* Is the row with this id expanded? */
bool calltree_is_open(const struct calltree *ct, uintptr_t id);
/* Expand (or collapse) the row with this id. */
void calltree_set_open(struct calltree *ct, uintptr_t id, bool open);
/* Expand (or collapse) a tree node by its line's id. */
void calltree_set_node(struct calltree *ct, uintptr_t id, bool open);
/* Collapse every row and forget every node's state. */
void calltree_clear(struct calltree *ct);

/* The full name of the function line l shows (NULL: none), escaped,
 * when the line shows it otherwise, in form ("ns::Box<…>::get(…)"); false
 * when there is none or the line shows it whole. */
bool calltree_full_name(const struct calltree *ct, const struct ct_line *l, enum sym_form form,
                        char *buf, size_t len);

/* The frame a snapshot row stands for. */
struct cg_frame calltree_frame(const struct hist_row *r);

#endif
