/* pane-latency: where time goes when the CPU is not the answer — one row
 * per (kind, name, process) from the latency part of frames: calls,
 * calls per second, errors, p50, p90, p99, max, total and a sparkline of
 * the log2 histogram, in the shared table (sortable, filterable), an
 * offcpu row's stacks as a tree under it (+). Enter shows the selected
 * row's histogram under the table, bpftrace-like; p merges the rows over
 * every process. The title says how each kind is measured and what it
 * costs (the sources' notices). The sources are opened when the pane is
 * first seen (or a function first timed), and paused while it is not:
 * their ring records cost nothing then. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/callgraph.h"
#include "tracetop/latency-merge.h"
#include "tracetop/latency-sched.h"
#include "tracetop/latency-sys.h"
#include "tracetop/report-latency.h"
#include "tracetop/util.h"
#include "ui/meters.h"
#include "ui/pane-latency-impl.h"

/* The sparkline: 128 ns to 1 s (buckets 8 to 31), two buckets a
 * character; values outside fall into the first or the last. */
#define SPARK_FIRST 8u
#define SPARK_LAST 31u
#define SPARK_CHARS ((SPARK_LAST - SPARK_FIRST + 1) / 2)

/* What goes first at narrow widths: p90, the sparkline, rate, total. */
static const struct table_col lat_cols[COL_NCOLS] = {
    [COL_PID] = {.title = "PID",
                 .width = 7,
                 .min_width = 5,
                 .priority = 9,
                 .right = true,
                 .sortable = true},
    [COL_COMM] = {.title = "COMM", .width = 11, .min_width = 8, .priority = 8, .sortable = true},
    [COL_KIND] = {.title = "KIND", .width = 8, .min_width = 4, .priority = 6, .sortable = true},
    [COL_NAME] = {.title = "NAME",
                  .width = 16,
                  .min_width = 8,
                  .priority = 9,
                  .flex = true,
                  .sortable = true},
    [COL_COUNT] = {.title = "COUNT",
                   .width = 7,
                   .min_width = 5,
                   .priority = 9,
                   .right = true,
                   .sortable = true},
    [COL_RATE] = {.title = "RATE/s",
                  .width = 7,
                  .min_width = 5,
                  .priority = 3,
                  .right = true,
                  .sortable = true},
    [COL_ERRORS] = {.title = "ERR",
                    .width = 5,
                    .min_width = 3,
                    .priority = 7,
                    .right = true,
                    .sortable = true},
    [COL_P50] = {.title = "P50",
                 .width = 7,
                 .min_width = 6,
                 .priority = 8,
                 .right = true,
                 .sortable = true},
    [COL_P90] = {.title = "P90",
                 .width = 7,
                 .min_width = 6,
                 .priority = 1,
                 .right = true,
                 .sortable = true},
    [COL_P99] = {.title = "P99",
                 .width = 7,
                 .min_width = 6,
                 .priority = 7,
                 .right = true,
                 .sortable = true},
    [COL_MAX] = {.title = "MAX",
                 .width = 7,
                 .min_width = 6,
                 .priority = 5,
                 .right = true,
                 .sortable = true},
    [COL_TOTAL] = {.title = "TOTAL",
                   .width = 7,
                   .min_width = 6,
                   .priority = 4,
                   .right = true,
                   .sortable = true},
    [COL_CHANGE] = {.title = "P50 CHANGE",
                    .width = 15,
                    .min_width = 8,
                    .priority = 6,
                    .right = true,
                    .hidden = true,
                    .sortable = true},
    [COL_HIST] = {.title = "128ns..1s",
                  .width = (int)SPARK_CHARS,
                  .min_width = (int)SPARK_CHARS,
                  .priority = 2},
};

/* A row's histogram in one line of characters (the bucket's share of its
 * fullest: ' ' none, then . : - = + * # %% @). */
static void
lat_sparkline(const struct lat_hist *h, char *buf, size_t len)
{
	static const char levels[] = ".:-=+*#%@";
	uint64_t cells[SPARK_CHARS] = {0}, top = 0;
	size_t n = SPARK_CHARS, i;

	for (unsigned b = 0; b < LAT_BUCKETS; b++) {
		unsigned c = b < SPARK_FIRST ? 0 : b > SPARK_LAST ? n - 1 : (b - SPARK_FIRST) / 2;

		cells[c] += h->buckets[b];
	}
	for (i = 0; i < n; i++)
		if (cells[i] > top)
			top = cells[i];
	for (i = 0; i < n && i + 1 < len; i++)
		buf[i] = cells[i] == 0 ? ' ' : levels[(cells[i] * (sizeof levels - 2)) / top];
	buf[i < len ? i : len - 1] = '\0';
}

/* Cell text, escaped: a tree line's text only, under NAME. */
static void
lat_cell(const void *line, size_t col, char *buf, size_t len, void *ctx)
{
	const struct ct_line *l = line;
	const struct lat_row *r = l->row;
	const struct latpane *p = ctx;

	buf[0] = '\0';
	if (l->node != 0) {
		if (col == COL_NAME)
			snprintf(buf, len, "%s", p->tree.nodes[l->node].text);
		return;
	}
	switch ((enum lat_col)col) {
	case COL_PID:
		snprintf(buf, len, r->pid < 0 ? "all" : "%d", r->pid);
		break;
	case COL_COMM:
		str_escape(buf, len, r->comm, strnlen(r->comm, sizeof r->comm));
		break;
	case COL_KIND:
		snprintf(buf, len, "%s", lat_kind_name(r->kind));
		break;
	case COL_NAME:
		report_latency_name(r, buf, len);
		break;
	case COL_COUNT:
		snprintf(buf, len, "%llu", (unsigned long long)r->hist.count);
		break;
	case COL_RATE:
		meter_rate(r->rate, buf, len);
		break;
	case COL_ERRORS:
		snprintf(buf, len, "%llu", (unsigned long long)r->hist.errors);
		break;
	case COL_P50:
		lat_format_ns(buf, len, lat_hist_percentile(&r->hist, 50));
		break;
	case COL_P90:
		lat_format_ns(buf, len, lat_hist_percentile(&r->hist, 90));
		break;
	case COL_P99:
		lat_format_ns(buf, len, lat_hist_percentile(&r->hist, 99));
		break;
	case COL_MAX:
		lat_format_ns(buf, len, r->hist.max);
		break;
	case COL_TOTAL:
		lat_format_ns(buf, len, r->hist.total);
		break;
	case COL_CHANGE:
		report_latency_change(p->tui->base, r, false, buf, len);
		break;
	case COL_HIST:
		lat_sparkline(&r->hist, buf, len);
		break;
	case COL_NCOLS:
		break;
	}
}

/* A row's number in a column (0 for the text ones). */
static double
lat_number(const struct latpane *p, const struct lat_row *r, size_t col)
{
	struct diff_row d;

	switch ((enum lat_col)col) {
	case COL_PID:
		return r->pid;
	case COL_COUNT:
		return (double)r->hist.count;
	case COL_RATE:
		return r->rate;
	case COL_ERRORS:
		return (double)r->hist.errors;
	case COL_P50:
		return (double)lat_hist_percentile(&r->hist, 50);
	case COL_P90:
		return (double)lat_hist_percentile(&r->hist, 90);
	case COL_P99:
		return (double)lat_hist_percentile(&r->hist, 99);
	case COL_MAX:
		return (double)r->hist.max;
	case COL_CHANGE: /* how far from the baseline's p50 */
		return diff_latency_change(p->tui->base, r, &d) ? diff_row_score(&d, false) : -1;
	case COL_TOTAL:
	case COL_HIST:
		return (double)r->hist.total;
	default:
		return 0;
	}
}

/* Order two rows by a column, then by pid and name. */
static int
lat_row_compare(const struct latpane *p, const struct lat_row *a, const struct lat_row *b,
                size_t col)
{
	double x = lat_number(p, a, col), y = lat_number(p, b, col);
	int c = 0;

	if (col == COL_COMM)
		c = strncmp(a->comm, b->comm, sizeof a->comm);
	else if (col == COL_KIND)
		c = CMP3(a->kind, b->kind);
	else if (col == COL_NAME)
		c = strcmp(a->name, b->name);
	if (c != 0)
		return c;
	if (x != y)
		return CMP3(x, y);
	if (a->pid != b->pid)
		return CMP3(a->pid, b->pid);
	return a->tid != b->tid ? CMP3(a->tid, b->tid) : strcmp(a->name, b->name);
}

/* Order two lines: rows by the column, a tree's lines right under their
 * row in tree order (the table reverses the result for a descending
 * sort: what must not reverse is reversed here first). */
static int
lat_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct latpane *p = ctx;
	const struct ct_line *a = pa, *b = pb;
	int c;

	if (a->row != b->row && (c = lat_row_compare(p, a->row, b->row, col)) != 0)
		return c;
	c = a->row != b->row ? CMP3(a->ord, b->ord) : CMP3(a->seq, b->seq);
	return p->list.table.descending ? -c : c;
}

/* A line's identity across refreshes. */
static uintptr_t
lat_line_id(const void *line, void *ctx)
{
	(void)ctx;
	return ((const struct ct_line *)line)->id;
}

/* Filter and search over pid, comm, name and kind ("offcpu"); a tree
 * goes with its row. */
static bool
lat_match(const void *line, const char *text, void *ctx)
{
	const struct lat_row *r = latpane_row(line);
	char pid[16], comm[sizeof r->comm + 1];

	(void)ctx;
	snprintf(pid, sizeof pid, "%d", r->pid);
	snprintf(comm, sizeof comm, "%s", r->comm);
	return strcmp(pid, text) == 0 || strcasestr(comm, text) != NULL ||
	       strcasestr(r->name, text) != NULL || strcasecmp(lat_kind_name(r->kind), text) == 0;
}

/* Errors in the error colour. */
static attr_t
lat_cell_attr(const void *line, size_t col, const struct theme *th, void *ctx)
{
	const struct lat_row *r = latpane_row(line);

	(void)ctx;
	if (((const struct ct_line *)line)->node != 0)
		return 0;
	if (col == COL_ERRORS && r->hist.errors > 0)
		return th->attr[TH_ERROR];
	if (col == COL_HIST)
		return th->attr[TH_BAR];
	return 0;
}

/* A tree line is one text from NAME to the end of the line. */
static bool
lat_span(const void *line, size_t *col, size_t *from, void *ctx)
{
	(void)ctx;
	if (((const struct ct_line *)line)->node == 0)
		return false;
	*col = *from = COL_NAME;
	return true;
}

static const struct table_ops lat_table_ops = {
    .cell = lat_cell,
    .compare = lat_compare,
    .row_id = lat_line_id,
    .match = lat_match,
    .cell_attr = lat_cell_attr,
    .span = lat_span,
};

/* Create the pane: most total time first (like perf trace -s). */
static void *
lat_init(struct tui *t)
{
	struct latpane *p = xcalloc(1, sizeof *p);

	p->tui = t;
	memcpy(p->cols, lat_cols, sizeof p->cols);
	table_init(&p->list.table, p->cols, COL_NCOLS, &lat_table_ops, p);
	table_sort_by(&p->list.table, COL_TOTAL, true);
	p->merge = t->opts != NULL && t->opts->latency_merge;
	return p;
}

/* Free the pane (the source is the session's). */
static void
lat_free(void *pp)
{
	struct latpane *p = pp;

	table_free(&p->list.table);
	calltree_free(&p->tree);
	cg_view_free(&p->view);
	frame_latency_free(&p->merged);
	free(p->timed);
	free(p);
}

/* Time syscalls only while the pane is seen. */
static void
lat_show(void *pp, struct tui *t, bool shown)
{
	struct latpane *p = pp;

	if (t->replay) /* nothing to open: the recording's rows */
		return;
	if (shown && !p->opened) {
		latpane_open(p, t, NULL, NULL);
		return;
	}
	if (p->src != NULL)
		latsys_pause(p->src, !shown);
	if (p->sched != NULL)
		latsched_pause(p->sched, !shown);
}

/* What the table shows: the frame's rows, or (p) merged. */
static void
lat_choose(struct latpane *p)
{
	if (p->frame != NULL && p->merge) {
		lat_merge(p->frame, LAT_MERGE_KINDS, &p->merged);
		p->fl = &p->merged;
	} else {
		p->fl = p->frame;
	}
}

/* A refresh: the frame's rows. */
static void
lat_update(void *pp, struct tui *t, const struct frame *f)
{
	struct latpane *p = pp;

	p->cols[COL_CHANGE].hidden = t->base == NULL;
	if (!f->has_latency)
		return;
	p->frame = &f->latency;
	lat_choose(p);
	latpane_rebuild(p, t, 0);
	/* the function just timed: its row selected, its histogram shown */
	for (size_t i = 0; p->pending != NULL && i < p->fl->nrows; i++)
		if (p->fl->rows[i].kind == LAT_FUNCTION && p->fl->rows[i].name == p->pending) {
			table_search(&p->list.table, p->pending);
			p->detail = true;
			p->pending = NULL;
		}
}

/* How each source measures and what it costs, joined: the syscall
 * source's notice (said to be of syscalls and functions), whether it
 * times every syscall, the scheduler source's (which names its kinds,
 * where and how, the rings' record rate and any switches the kernel
 * withheld), and why a source is absent. */
static void
lat_notices(const struct latpane *p, char *buf, size_t len)
{
	const struct frame_latency *fl = p->fl;
	char why[300];
	size_t n = 0;

	buf[0] = '\0';
	if (fl->notice != NULL)
		n += (size_t)snprintf(buf + n, len - n, "%s: %s",
		                      p->syscalls ? "syscalls and functions" : "functions",
		                      fl->notice);
	if (p->src != NULL && !p->syscalls && n < len)
		n += (size_t)snprintf(buf + n, len - n,
		                      "%ssyscalls not timed (--latency-kinds syscall times them)",
		                      n ? "; " : "");
	if (fl->sched_notice != NULL && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "; " : "", fl->sched_notice);
	for (int k = 0; k < 2 && n < len; k++) {
		const char *e = k == 0 ? p->error : p->sched_error;

		if (e[0] == '\0')
			continue;
		str_escape(why, sizeof why, e, strlen(e));
		n += (size_t)snprintf(buf + n, len - n, "%sabsent: %s", n ? "; " : "", why);
	}
}

/* Lines of notices shown above the table at most. */
#define LAT_NOTICE_LINES 3

/* The title line, the notices, the table and (Enter) the selected row's
 * histogram. */
static void
lat_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct latpane *p = pp;
	const struct frame_latency *fl = p->fl;
	const struct ct_line *l = table_selected(&p->list.table);
	const struct lat_row *sel = l != NULL ? l->row : NULL;
	char line[400], notes[2400], why[300];
	int dh = 0, nh;

	if (h < 2)
		return;
	if ((p->error[0] != '\0' || p->sched_error[0] != '\0') && p->src == NULL &&
	    p->sched == NULL) {
		const char *e = p->error[0] != '\0' ? p->error : p->sched_error;

		str_escape(why, sizeof why, e, strlen(e));
		snprintf(line, sizeof line, "Latency absent: %s", why);
		listpane_message(win, y + h / 2, x, w, line, &t->theme);
		return;
	}
	if (fl == NULL) {
		listpane_message(win, y + h / 2, x, w,
		                 t->replay ? "The recording holds no latency rows (record them "
		                             "with --latency-kinds or --latency)"
		                           : "Timing... (rows after the next refresh)",
		                 &t->theme);
		return;
	}
	if (p->detail && sel != NULL && h > 8) {
		unsigned first = 0, last = 0;

		lat_hist_range(&sel->hist, &first, &last);
		dh = (int)(last - first) + 2 + latpane_detail_head(sel);
		if (dh > h / 3)
			dh = h / 3;
	}
	snprintf(line, sizeof line,
	         "%zu rows (%s%s), %llu events, %llu lost, %llu unpaired; Enter: histogram%s",
	         fl->nrows, fl->target ? fl->target : "-",
	         p->merge ? ", merged over processes" : "",
	         (unsigned long long)(fl->events + fl->sched_events),
	         (unsigned long long)(fl->lost + fl->sched_lost),
	         (unsigned long long)(fl->unpaired + fl->sched_unpaired),
	         fl->offcpu != NULL ? ", +: off-CPU stacks" : "");
	lat_notices(p, notes, sizeof notes);
	nh = notes[0] != '\0' ? listpane_detail_lines(notes, w, LAT_NOTICE_LINES) : 0;
	if (nh > (h - dh) / 3)
		nh = (h - dh) / 3;
	/* the title, the notices under it, then the table's own titles */
	listpane_draw_titled(&p->list, win, y + nh, x, h - dh - nh, w, line, &t->theme);
	mvwhline(win, y, x, ' ', w);
	wattrset(win, t->theme.attr[TH_DIM]);
	mvwaddnstr(win, y, x, line, w);
	wattrset(win, A_NORMAL);
	if (nh > 0)
		listpane_detail(win, y + 1, x, nh, w, notes, &t->theme);
	if (dh > 0)
		latpane_draw_detail(p, sel, win, y + h - dh + 1, x, dh - 1, w, &t->theme);
}

/* Enter: show or hide the selected row's histogram (on a tree line:
 * open or close it); p: per process or not; Delete: stop timing a
 * function; the tree keys; then the list's. */
static int
lat_action(void *pp, struct tui *t, enum action a)
{
	struct latpane *p = pp;
	const struct ct_line *l = table_selected(&p->list.table);

	switch (a) {
	case ACT_ENTER:
		if (l != NULL && l->node != 0)
			return latpane_tree_action(p, t, a);
		p->detail = !p->detail;
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_EXPAND:
	case ACT_COLLAPSE:
	case ACT_EXPAND_ALL:
	case ACT_COLLAPSE_ALL:
		return latpane_tree_action(p, t, a);
	case ACT_PER_PROCESS:
		p->merge = !p->merge;
		tui_status(t, false, "%s",
		           p->merge
		               ? "a row per syscall, function, wait reason and kind over every "
		                 "process (block I/O rows are by device)"
		               : "a row per process (off-CPU and on-CPU: per thread)");
		lat_choose(p);
		latpane_rebuild(p, t, l != NULL ? latpane_row_id(l->row) : 0);
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_REMOVE:
		return latpane_untime(p, t);
	default:
		return listpane_action(&p->list, t, a);
	}
}

const struct pane_ops pane_latency = {
    .name = "Latency",
    .listpane = true,
    .scope = SCOPE_LATENCY,
    .view = VIEW_LATENCY,
    .reads = PANE_READS_LATENCY,
    .init = lat_init,
    .free = lat_free,
    .update = lat_update,
    .draw = lat_draw,
    .show = lat_show,
    .action = lat_action,
    .mouse = listpane_pane_mouse,
    .prompt = listpane_pane_prompt,
    .menu = listpane_pane_menu,
};
