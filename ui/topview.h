/* topview: what the Top pane's view narrows to and shows, kept out of
 * pane-top.c: its zooms (into a process, a thread, a shared object or a
 * cgroup, from the Enter menu) and the K/U toggles, with the header fields
 * and the empty-list message they call for, and when its Cgroup column
 * shows. The zooms filter the frame's rows; a thread zoom also has the
 * engine count that thread apart (rows are per process), which the pane
 * asks for. */
#ifndef TRACETOP_UI_TOPVIEW_H
#define TRACETOP_UI_TOPVIEW_H

#include <stdbool.h>

#include "tracetop/cgroup.h"
#include "tracetop/dso.h"
#include "tracetop/hist.h"
#include "ui/table.h"
#include "ui/tui.h"

struct top_zoom {
	int pid, tid;                /* 0: not zoomed into one */
	const struct dso *dso;       /* NULL: not zoomed into one */
	const struct cgroup *cgroup; /* NULL: not zoomed into one */
	bool hide_kernel, hide_user; /* K and U */
};

/* Whether a row of e passes the zooms and K/U. */
bool top_zoom_keep(const struct top_zoom *z, const struct hist_entry *e);

/* Whether any zoom is on (K and U aside). */
bool top_zoom_active(const struct top_zoom *z);

/* Leave every zoom (K and U stay). */
void top_zoom_clear(struct top_zoom *z);

/* The header fields: "Zoom: pid 12 dso libc.so.6", "K hidden", "U hidden". */
void top_zoom_header(const struct top_zoom *z, struct pane_header *h);

/* Why a sampling run shows no row here, and the key that brings rows back
 * (a zoom, K/U), or NULL when nothing narrows the view. */
const char *top_zoom_empty(const struct top_zoom *z);

/* The grouping rows are merged by under the zooms: a process zoom splits
 * by pid, a thread zoom by thread too. */
unsigned top_group_zoomed(const struct top_zoom *z, unsigned group);

/* The grouping after group in the g key's cycle (the first one when
 * group is not in it). */
unsigned top_group_next(unsigned group);

/* The header field "Group: pid,sym" when rows are not grouped the default
 * way. */
void top_group_header(unsigned group, struct pane_header *h);
/* "Rows: first 10000 of 53112" when only the first of the rows are listed. */
void top_rows_header(size_t shown, size_t all, struct pane_header *h);

/* Whether the Cgroup column shows: by itself (when the rows come from
 * several cgroups, and first to drop at narrow widths), or as c (or
 * --sort cgroup) set it: kept at narrow widths, or not at all. */
enum top_cgroup_col { TOP_CGROUP_AUTO, TOP_CGROUP_SHOWN, TOP_CGROUP_HIDDEN };

/* The Cgroup column's priority in TOP_CGROUP_AUTO (dropped first) and
 * once shown by c: a key column then (the user asked for it), outlasting
 * Samples, Command and Shared Object. */
#define TOP_CGROUP_PRIO_AUTO 0
#define TOP_CGROUP_PRIO_SHOWN 7

/* The Cgroup column's priority when the rows are grouped by cgroup: a key
 * column, which stays at narrow widths so rows never look alike for want
 * of their key (the other key columns' are in pane-top.c). */
#define TOP_PRIO_KEY 6

/* Set the Cgroup column's hidden flag and priority for mode and the rows
 * shown; rows grouped by cgroup (group, HIST_GROUP_*) always show it, as
 * a key column (TOP_PRIO_KEY). */
void top_cgroup_col(struct table_col *col, enum top_cgroup_col mode,
                    const struct hist_snapshot *rows, unsigned group);

struct ct_node;

/* The detail popup's text for a row of the Top pane (or a line n of its
 * call tree): the full symbol, the shared object's path, command, pid,
 * thread, cgroup, shares and samples, one "Label: value" a line. */
void top_row_detail(const struct hist_row *r, const struct ct_node *n, char *buf, size_t len);

#endif
