/* pane-latency: where time goes when the CPU is not the answer — one row
 * per (kind, name, process) from the latency part of frames: calls,
 * calls per second, errors, p50, p90, p99, max, total and a sparkline of
 * the log2 histogram, in the shared table (sortable, filterable). Enter
 * shows the selected row's histogram under the table, bpftrace-like. The
 * syscall source is opened when the pane is first seen, and paused while
 * it is not: two ring records per syscall cost nothing then. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/engine.h"
#include "tracetop/latency-sys.h"
#include "tracetop/probe-cli.h"
#include "tracetop/util.h"
#include "ui/listpane.h"
#include "ui/meters.h"
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
	COL_HIST,
	COL_NCOLS
};

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
    [COL_HIST] = {.title = "128ns..1s",
                  .width = (int)SPARK_CHARS,
                  .min_width = (int)SPARK_CHARS,
                  .priority = 2},
};

struct latpane {
	struct listpane list; /* first: the listpane_pane_* ops take the pane as it */
	const void **ptrs;    /* the rows: elements of fl->rows */
	size_t cap;
	const struct frame_latency *fl;
	struct latsys *src;                /* opened on first show, paused while hidden */
	char error[sizeof(struct tt_err)]; /* why it could not be opened */
	bool detail;                       /* Enter: the selected row's histogram under the table */
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

/* Cell text, escaped. */
static void
lat_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct lat_row *r = row;

	(void)ctx;
	buf[0] = '\0';
	switch ((enum lat_col)col) {
	case COL_PID:
		snprintf(buf, len, "%d", r->pid);
		break;
	case COL_COMM:
		str_escape(buf, len, r->comm, strnlen(r->comm, sizeof r->comm));
		break;
	case COL_KIND:
		snprintf(buf, len, "%s", lat_kind_name(r->kind));
		break;
	case COL_NAME:
		str_escape(buf, len, r->name, strlen(r->name));
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
	case COL_HIST:
		lat_sparkline(&r->hist, buf, len);
		break;
	case COL_NCOLS:
		break;
	}
}

/* A row's number in a column (0 for the text ones). */
static double
lat_number(const struct lat_row *r, size_t col)
{
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
	case COL_TOTAL:
	case COL_HIST:
		return (double)r->hist.total;
	default:
		return 0;
	}
}

/* Order two rows by a column, then by pid and name. */
static int
lat_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct lat_row *a = pa, *b = pb;
	double x = lat_number(a, col), y = lat_number(b, col);
	int c = 0;

	(void)ctx;
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
	return a->pid != b->pid ? CMP3(a->pid, b->pid) : strcmp(a->name, b->name);
}

/* Identity across refreshes: (kind, name, pid); names are interned. */
static uintptr_t
lat_row_id(const void *row, void *ctx)
{
	const struct lat_row *r = row;

	(void)ctx;
	return (uintptr_t)hash_mix(hash_mix((uint64_t)(uintptr_t)r->name, (uint64_t)r->pid),
	                           (uint64_t)r->kind);
}

/* Filter and search over pid, comm and name. */
static bool
lat_match(const void *row, const char *text, void *ctx)
{
	const struct lat_row *r = row;
	char pid[16], comm[sizeof r->comm + 1];

	(void)ctx;
	snprintf(pid, sizeof pid, "%d", r->pid);
	snprintf(comm, sizeof comm, "%s", r->comm);
	return strcmp(pid, text) == 0 || strcasestr(comm, text) != NULL ||
	       strcasestr(r->name, text) != NULL;
}

/* Errors in the error colour. */
static attr_t
lat_cell_attr(const void *row, size_t col, const struct theme *th, void *ctx)
{
	const struct lat_row *r = row;

	(void)ctx;
	if (col == COL_ERRORS && r->hist.errors > 0)
		return th->attr[TH_ERROR];
	if (col == COL_HIST)
		return th->attr[TH_BAR];
	return 0;
}

static const struct table_ops lat_table_ops = {
    .cell = lat_cell,
    .compare = lat_compare,
    .row_id = lat_row_id,
    .match = lat_match,
    .cell_attr = lat_cell_attr,
};

/* Create the pane: most total time first (like perf trace -s). */
static void *
lat_init(struct tui *t)
{
	struct latpane *p = xcalloc(1, sizeof *p);

	(void)t;
	table_init(&p->list.table, lat_cols, COL_NCOLS, &lat_table_ops, p);
	table_sort_by(&p->list.table, COL_TOTAL, true);
	return p;
}

/* Free the pane (the source is the session's). */
static void
lat_free(void *pp)
{
	struct latpane *p = pp;

	table_free(&p->list.table);
	free(p->ptrs);
	free(p);
}

/* Open the syscall source on the screen's target (a command started by
 * then is followed as a -p process would be). */
static void
lat_open(struct latpane *p, struct tui *t)
{
	const struct options *o = t->opts;
	int child = t->engine != NULL ? engine_child_pid(t->engine) : 0;
	size_t npids = o != NULL ? o->npids : 0;
	int *pids = xmalloc((npids + 1) * sizeof *pids);
	struct latsys_opts lo = {.pids = pids, .npids = npids};
	const char **fev = NULL;
	struct tt_err err;

	if (npids > 0)
		memcpy(pids, o->pids, npids * sizeof *pids);
	if (child > 0)
		pids[lo.npids++] = child;
	if (o != NULL) {
		lo.tids = o->tids, lo.ntids = o->ntids;
		lo.cpus = o->cpus, lo.ncpus = o->ncpus;
		lo.include_self = o->include_self;
		lo.funcs = fev = probe_cli_latency_events(o, t->probes);
		lo.func_names = o->latencies;
		lo.nfuncs = fev != NULL ? o->nlatencies : 0;
	}
	p->src = latsys_new(&lo, &err);
	free(pids);
	free(fev);
	if (p->src == NULL) {
		snprintf(p->error, sizeof p->error, "%s", err.msg);
		return;
	}
	session_add(t->session, &source_latency, p->src);
	if (latsys_start(p->src, &err) != 0)
		snprintf(p->error, sizeof p->error, "%s", err.msg);
}

/* Time syscalls only while the pane is seen. */
static void
lat_show(void *pp, struct tui *t, bool shown)
{
	struct latpane *p = pp;

	if (shown && p->src == NULL && p->error[0] == '\0')
		lat_open(p, t);
	else if (p->src != NULL)
		latsys_pause(p->src, !shown);
}

/* A refresh: the frame's rows. */
static void
lat_update(void *pp, struct tui *t, const struct frame *f)
{
	struct latpane *p = pp;
	const struct frame_latency *fl = &f->latency;

	(void)t;
	if (!f->has_latency)
		return;
	p->fl = fl;
	if (p->cap < fl->nrows) {
		p->cap = fl->nrows;
		p->ptrs = xrealloc(p->ptrs, p->cap * sizeof *p->ptrs);
	}
	for (size_t i = 0; i < fl->nrows; i++)
		p->ptrs[i] = &fl->rows[i];
	table_set_rows(&p->list.table, p->ptrs, fl->nrows);
}

/* The selected row's histogram in the h lines at (y, x). */
static void
lat_draw_detail(const struct lat_row *r, WINDOW *win, int y, int x, int h, int w,
                const struct theme *th)
{
	unsigned first, last;
	char line[400], comm[80], name[80];
	int row = 0;

	str_escape(comm, sizeof comm, r->comm, strnlen(r->comm, sizeof r->comm));
	str_escape(name, sizeof name, r->name, strlen(r->name));
	snprintf(line, sizeof line, "@%s[%s, %s %d]: %llu calls (Enter closes)",
	         lat_kind_name(r->kind), name, comm, r->pid, (unsigned long long)r->hist.count);
	wattrset(win, th->attr[TH_TITLE]);
	mvwaddnstr(win, y + row++, x, line, w);
	wattrset(win, 0);
	if (!lat_hist_range(&r->hist, &first, &last))
		return;
	for (unsigned b = first; b <= last && row < h; b++) {
		lat_hist_line(&r->hist, b, 40, line, sizeof line);
		mvwaddnstr(win, y + row++, x, line, w);
	}
}

/* The title line, the table and (Enter) the selected row's histogram. */
static void
lat_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct latpane *p = pp;
	const struct frame_latency *fl = p->fl;
	const struct lat_row *sel = table_selected(&p->list.table);
	char line[512], why[300];
	int dh = 0;

	if (h < 2)
		return;
	if (p->error[0] != '\0') {
		str_escape(why, sizeof why, p->error, strlen(p->error));
		snprintf(line, sizeof line, "Syscall latency absent: %s", why);
		listpane_message(win, y + h / 2, x, w, line, &t->theme);
		return;
	}
	if (fl == NULL) {
		listpane_message(win, y + h / 2, x, w,
		                 "Timing syscalls... (rows after the next refresh)", &t->theme);
		return;
	}
	if (p->detail && sel != NULL && h > 8) {
		unsigned first = 0, last = 0;

		lat_hist_range(&sel->hist, &first, &last);
		dh = (int)(last - first) + 3;
		if (dh > h / 2)
			dh = h / 2;
	}
	snprintf(line, sizeof line,
	         "%zu rows (%s), %llu events, %llu lost, %llu unpaired; paired in user space: "
	         "two ring records per syscall; Enter: histogram",
	         fl->nrows, fl->target ? fl->target : "-", (unsigned long long)fl->events,
	         (unsigned long long)fl->lost, (unsigned long long)fl->unpaired);
	listpane_draw_titled(&p->list, win, y, x, h - dh, w, line, &t->theme);
	if (dh > 0)
		lat_draw_detail(sel, win, y + h - dh + 1, x, dh - 1, w, &t->theme);
}

/* Enter: show or hide the selected row's histogram; then the list's. */
static int
lat_action(void *pp, struct tui *t, enum action a)
{
	struct latpane *p = pp;

	if (a == ACT_ENTER) {
		p->detail = !p->detail;
		return REACT_HANDLED | REACT_REDRAW;
	}
	return listpane_action(&p->list, t, a);
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
