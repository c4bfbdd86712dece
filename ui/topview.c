/* topview: the Top pane's zooms and K/U (which rows pass, what the header
 * and an empty list say about them) and when its Cgroup column shows. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tracetop/report.h"
#include "tracetop/util.h"
#include "ui/calltree.h"
#include "ui/topview.h"

/* Keep a row unless a zoom or K/U hides it. */
bool
top_zoom_keep(const struct top_zoom *z, const struct hist_entry *e)
{
	if (e->key.kernel ? z->hide_kernel : z->hide_user)
		return false;
	if (z->pid != 0 && e->key.pid != z->pid)
		return false;
	if (z->dso != NULL && e->key.dso != z->dso)
		return false;
	/* interned: one struct per path */
	return z->cgroup == NULL || e->key.cgroup == z->cgroup;
}

/* Any zoom on. */
bool
top_zoom_active(const struct top_zoom *z)
{
	return z->pid != 0 || z->tid != 0 || z->dso != NULL || z->cgroup != NULL;
}

/* Leave the zooms. */
void
top_zoom_clear(struct top_zoom *z)
{
	z->pid = z->tid = 0;
	z->dso = NULL;
	z->cgroup = NULL;
}

/* Append a field to the header. */
static void __attribute__((format(printf, 5, 6)))
header_add(struct pane_header *h, const char *label, int prio, int minw, const char *fmt, ...)
{
	va_list ap;

	if (h->n == PANE_HEADER_FIELDS)
		return;
	h->field[h->n].label = label;
	h->field[h->n].prio = prio;
	h->field[h->n].minw = minw;
	va_start(ap, fmt);
	vsnprintf(h->field[h->n].text, sizeof h->field[h->n].text, fmt, ap);
	va_end(ap);
	h->n++;
}

/* Append " WHAT NAME" (NAME escaped) to the zoom text at *o. */
static void
zoom_add(char *zoom, size_t len, size_t *o, const char *what, const char *name)
{
	char esc[128];

	if (*o >= len)
		return;
	str_escape(esc, sizeof esc, name, strlen(name));
	*o += (size_t)snprintf(zoom + *o, len - *o, "%s%s %s", *o ? " " : "", what, esc);
}

/* The header says what narrows the view: the zooms, K and U. */
void
top_zoom_header(const struct top_zoom *z, struct pane_header *h)
{
	char zoom[160] = "", num[16];
	size_t o = 0;

	if (z->pid > 0) {
		snprintf(num, sizeof num, "%d", z->pid);
		zoom_add(zoom, sizeof zoom, &o, "pid", num);
	}
	if (z->tid > 0) {
		snprintf(num, sizeof num, "%d", z->tid);
		zoom_add(zoom, sizeof zoom, &o, "tid", num);
	}
	if (z->cgroup != NULL)
		zoom_add(zoom, sizeof zoom, &o, "cgroup", z->cgroup->name);
	if (z->dso != NULL)
		zoom_add(zoom, sizeof zoom, &o, "dso", z->dso->short_name);
	if (zoom[0] != '\0')
		header_add(h, "Zoom: ", 1, 10, "%s", zoom);
	if (z->hide_kernel)
		header_add(h, "", 2, 0, "K hidden");
	if (z->hide_user)
		header_add(h, "", 2, 0, "U hidden");
}

/* Why nothing shows: a zoom first, then K/U. */
const char *
top_zoom_empty(const struct top_zoom *z)
{
	if (top_zoom_active(z))
		return "No samples here (Esc leaves the zoom)";
	if (z->hide_kernel && z->hide_user)
		return "No samples here (K and U show the hidden symbols)";
	if (z->hide_user)
		return "No samples here (U shows user symbols)";
	return z->hide_kernel ? "No samples here (K shows kernel symbols)" : NULL;
}

/* The rows' grouping within the zooms. */
unsigned
top_group_zoomed(const struct top_zoom *z, unsigned group)
{
	if (z->pid != 0)
		group |= HIST_GROUP_PID;
	if (z->tid != 0)
		group |= HIST_GROUP_TID;
	return group;
}

/* The g key's cycle: perf top's default, then split by process and by
 * thread, then ever coarser. */
static const unsigned group_cycle[] = {
    HIST_GROUP_DEFAULT,
    HIST_GROUP_DEFAULT | HIST_GROUP_PID,
    HIST_GROUP_DEFAULT | HIST_GROUP_PID | HIST_GROUP_TID,
    HIST_GROUP_DSO | HIST_GROUP_SYM,
    HIST_GROUP_COMM,
    HIST_GROUP_COMM | HIST_GROUP_PID,
    HIST_GROUP_DSO,
    HIST_GROUP_CGROUP,
};

/* The next grouping of the cycle. */
unsigned
top_group_next(unsigned group)
{
	for (size_t i = 0; i < ARRAY_SIZE(group_cycle); i++)
		if (group_cycle[i] == group)
			return group_cycle[(i + 1) % ARRAY_SIZE(group_cycle)];
	return group_cycle[0];
}

/* The grouping in the header unless it is the default. */
void
top_group_header(unsigned group, struct pane_header *h)
{
	char name[64];

	if (group != HIST_GROUP_DEFAULT)
		header_add(h, "Group: ", 1, 10, "%s", hist_group_name(group, name, sizeof name));
}

/* A header field saying that only the first rows are listed. */
void
top_rows_header(size_t shown, size_t all, struct pane_header *h)
{
	if (shown < all)
		header_add(h, "Rows: ", 2, 0, "first %zu of %zu", shown, all);
}

/* Whether the rows come from more than one cgroup (unknown counts as one). */
static bool
several_cgroups(const struct hist_snapshot *rows)
{
	for (size_t i = 1; i < rows->n; i++)
		if (rows->rows[i].entry->key.cgroup != rows->rows[0].entry->key.cgroup)
			return true;
	return false;
}

/* The column as the mode says, AUTO looking at the rows. */
void
top_cgroup_col(struct table_col *col, enum top_cgroup_col mode, const struct hist_snapshot *rows,
               unsigned group)
{
	col->keep = (group & HIST_GROUP_CGROUP) != 0;
	if (col->keep) {
		col->priority = TOP_PRIO_KEY;
		col->hidden = false;
		return;
	}
	col->keep = mode == TOP_CGROUP_SHOWN;
	col->priority = mode == TOP_CGROUP_SHOWN ? TOP_CGROUP_PRIO_SHOWN : TOP_CGROUP_PRIO_AUTO;
	if (mode == TOP_CGROUP_AUTO)
		col->hidden = !several_cgroups(rows);
	else
		col->hidden = mode == TOP_CGROUP_HIDDEN;
}

/* The detail text of a row or of one of its tree lines. */
void
top_row_detail(const struct hist_row *r, const struct ct_node *n, char *buf, size_t len)
{
	const struct hist_key *k = &r->entry->key;
	char sym[1024], dso[1024], comm[128], cgroup[256];
	size_t used = 0;

	if (n != NULL) { /* the tree's text and names are escaped already */
		if (n->sym != NULL)
			sym_format(n->sym, SYM_FULL, sym, sizeof sym);
		used = (size_t)snprintf(buf, len,
		                        "Call-graph line: %s\nFunction: %s\nUnder: ", n->text,
		                        n->sym != NULL ? sym
		                        : n->name      ? n->name
		                                       : "");
		if (used >= len)
			return;
	}
	report_symbol(r->entry, SYM_FULL, sym, sizeof sym);
	str_escape(dso, sizeof dso, k->dso != NULL ? k->dso->name : "[unknown]",
	           k->dso != NULL ? strlen(k->dso->name) : 9);
	report_comm(r->entry, comm, sizeof comm);
	report_cgroup(r->entry, cgroup, sizeof cgroup);
	snprintf(buf + used, len - used,
	         "Symbol: %s\nShared object: %s\nKind: %s\nCommand: %s\nPID: %d  TID: %d\n"
	         "Cgroup: %s\nSelf: %.2f%%  Children: %.2f%%  Samples: %llu",
	         sym, dso, k->kernel ? "kernel" : "user", comm, k->pid, k->tid, cgroup, r->overhead,
	         r->children, (unsigned long long)r->samples);
}
