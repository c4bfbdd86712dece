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

#include "tracetop/callgraph.h"
#include "tracetop/engine.h"
#include "tracetop/latency-sched.h"
#include "tracetop/latency-sys.h"
#include "tracetop/offcpu.h"
#include "tracetop/report-latency.h"
#include "tracetop/probe-cli.h"
#include "tracetop/probe.h"
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
	COL_CHANGE, /* with a baseline (B, --baseline): p50's change */
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

struct latpane {
	struct listpane list; /* first: the listpane_pane_* ops take the pane as it */
	const void **ptrs;    /* the rows: elements of fl->rows */
	size_t cap;
	const struct frame_latency *fl;
	struct latsys *src;     /* opened on first show, paused while hidden */
	struct latsched *sched; /* runq, bio, offcpu (--latency-kinds): the same */
	bool opened;
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
	const struct latpane *p = ctx;

	buf[0] = '\0';
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
lat_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct lat_row *a = pa, *b = pb;
	double x = lat_number(ctx, a, col), y = lat_number(ctx, b, col);
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
	return a->pid != b->pid ? CMP3(a->pid, b->pid) : strcmp(a->name, b->name);
}

/* Identity across refreshes: (kind, name, pid); names are interned. */
static uintptr_t
lat_row_id(const void *row, void *ctx)
{
	const struct lat_row *r = row;

	(void)ctx;
	return (uintptr_t)hash_mix(
	    hash_mix(hash_mix((uint64_t)(uintptr_t)r->name, (uint64_t)r->pid), (uint64_t)r->tid),
	    (uint64_t)r->kind);
}

/* Filter and search over pid, comm, name and kind ("offcpu"). */
static bool
lat_match(const void *row, const char *text, void *ctx)
{
	const struct lat_row *r = row;
	char pid[16], comm[sizeof r->comm + 1];

	(void)ctx;
	snprintf(pid, sizeof pid, "%d", r->pid);
	snprintf(comm, sizeof comm, "%s", r->comm);
	return strcmp(pid, text) == 0 || strcasestr(comm, text) != NULL ||
	       strcasestr(r->name, text) != NULL || strcasecmp(lat_kind_name(r->kind), text) == 0;
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
	p->tui = t;
	memcpy(p->cols, lat_cols, sizeof p->cols);
	table_init(&p->list.table, p->cols, COL_NCOLS, &lat_table_ops, p);
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
	free(p->timed);
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
	bool syscalls = o == NULL || (o->latency_kinds & (1u << LAT_SYSCALL));
	struct tt_err err;

	/* --view latency: opened before the command ran */
	p->opened = true;
	p->src = session_source(t->session, &source_latency);
	p->sched = session_source(t->session, &source_latsched);
	if (npids > 0)
		memcpy(pids, o->pids, npids * sizeof *pids);
	if (child > 0)
		pids[lo.npids++] = child;
	if (o != NULL) {
		lo.tids = o->tids, lo.ntids = o->ntids;
		lo.cpus = o->cpus, lo.ncpus = o->ncpus;
		lo.include_self = o->include_self;
		lo.backend = o->engine;
		lo.no_syscalls = o->no_syscalls || !syscalls;
	}
	if (p->src == NULL && (syscalls || o->nlatencies > 0)) {
		const char **fev = o != NULL ? probe_cli_latency_events(o, t->probes) : NULL;

		lo.funcs = fev;
		lo.func_names = o != NULL ? o->latencies : NULL;
		lo.nfuncs = fev != NULL ? o->nlatencies : 0;
		if ((p->src = latsys_new(&lo, &err)) == NULL) {
			snprintf(p->error, sizeof p->error, "%s", err.msg);
		} else {
			session_add(t->session, &source_latency, p->src);
			if (latsys_start(p->src, &err) != 0)
				snprintf(p->error, sizeof p->error, "%s", err.msg);
		}
		free(fev);
	}
	if (p->sched == NULL && o != NULL && latsched_wanted(o->latency_kinds)) {
		struct latsched_opts so = {.kinds = o->latency_kinds,
		                           .pids = pids,
		                           .npids = lo.npids,
		                           .tids = lo.tids,
		                           .ntids = lo.ntids,
		                           .cpus = lo.cpus,
		                           .ncpus = lo.ncpus,
		                           .include_self = lo.include_self,
		                           .backend = o->engine};

		if ((p->sched = latsched_new(&so, &err)) == NULL) {
			snprintf(p->sched_error, sizeof p->sched_error, "%s", err.msg);
		} else {
			session_add(t->session, &source_latsched, p->sched);
			if (latsched_start(p->sched, &err) != 0)
				snprintf(p->sched_error, sizeof p->sched_error, "%s", err.msg);
		}
	}
	free(pids);
}

/* Time syscalls only while the pane is seen. */
static void
lat_show(void *pp, struct tui *t, bool shown)
{
	struct latpane *p = pp;

	if (t->replay) /* nothing to open: the recording's rows */
		return;
	if (shown && !p->opened) {
		lat_open(p, t);
		return;
	}
	if (p->src != NULL)
		latsys_pause(p->src, !shown);
	if (p->sched != NULL)
		latsched_pause(p->sched, !shown);
}

/* A refresh: the frame's rows. */
static void
lat_update(void *pp, struct tui *t, const struct frame *f)
{
	struct latpane *p = pp;
	const struct frame_latency *fl = &f->latency;

	p->cols[COL_CHANGE].hidden = t->base == NULL;
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
	/* the function just timed: its row selected, its histogram shown */
	for (size_t i = 0; p->pending != NULL && i < fl->nrows; i++)
		if (fl->rows[i].kind == LAT_FUNCTION && fl->rows[i].name == p->pending) {
			table_search(&p->list.table, p->pending);
			p->detail = true;
			p->pending = NULL;
		}
}

/* Where a stack tree is drawn. */
struct lat_tree {
	const struct callgraph *cg;
	WINDOW *win;
	int y, x, w, row, h;
	double total; /* the root's, for percentages */
};

/* Order children by weight, heaviest first. */
static int
lat_child_cmp(const void *a, const void *b, void *cg)
{
	double x = cg_node(cg, *(const uint32_t *)a)->total;
	double y = cg_node(cg, *(const uint32_t *)b)->total;

	return x > y ? -1 : x < y;
}

/* Node idx and, heaviest first, its subtree, as long as lines are left:
 * one line a frame; a chain of only children stays at one indent, a
 * branch indents its children (as perf report folds chains). */
static void
lat_tree_node(struct lat_tree *t, uint32_t idx, int indent)
{
	const struct cg_node *n = cg_node(t->cg, idx);
	uint32_t kids[64];
	size_t nk = 0;
	char name[300], when[16], line[512];

	if (n == NULL || t->row >= t->h)
		return;
	cg_frame_name(n, SYM_COMPACT, name, sizeof name);
	lat_format_ns(when, sizeof when, (uint64_t)n->total);
	snprintf(line, sizeof line, "%*s%5.1f%% %8s  %s", indent, "",
	         t->total > 0 ? 100.0 * n->total / t->total : 0, when, name);
	mvwaddnstr(t->win, t->y + t->row++, t->x, line, t->w);
	for (uint32_t c = n->first_child; c != 0 && nk < 64; c = cg_node(t->cg, c)->next_sibling)
		kids[nk++] = c;
	qsort_r(kids, nk, sizeof *kids, lat_child_cmp, (void *)t->cg);
	for (size_t i = 0; i < nk; i++)
		lat_tree_node(t, kids[i], nk > 1 ? indent + 2 : indent);
}

/* An offcpu row's stacks as a tree from the outermost callers down to
 * where the thread blocked, weighted by blocked time. */
static void
lat_draw_stacks(const struct lat_row *r, const struct callgraph *cg, WINDOW *win, int y, int x,
                int h, int w)
{
	struct lat_tree t = {.cg = cg, .win = win, .y = y, .x = x, .w = w, .h = h};
	const struct cg_node *n;
	uint32_t root;

	for (root = cg != NULL ? cg_first_root(cg) : 0; root != 0; root = n->next_sibling)
		if ((n = cg_node(cg, root)) == NULL || n->comm == r->stack)
			break;
	if (root == 0 || (n = cg_node(cg, root)) == NULL)
		return;
	t.total = n->total;
	for (uint32_t c = n->first_child; c != 0; c = cg_node(cg, c)->next_sibling)
		lat_tree_node(&t, c, 0);
}

/* "; thread: on-CPU X of wall Y (Z%)" for a thread with on-CPU and
 * off-CPU rows, else "". */
static void
lat_thread_wall(const struct frame_latency *fl, int tid, char *buf, size_t len)
{
	struct report_latency_thread *v;
	size_t n = tid > 0 ? report_latency_threads(fl, &v) : 0;
	char on[16], wall[16];

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (v[i].tid == tid && v[i].oncpu > 0) {
			uint64_t total = v[i].oncpu + v[i].offcpu_sum;

			lat_format_ns(on, sizeof on, v[i].oncpu);
			lat_format_ns(wall, sizeof wall, total);
			snprintf(buf, len, "; thread: on-CPU %s of %s on + blocked (%.1f%%)", on,
			         wall, 100.0 * (double)v[i].oncpu / (double)total);
		}
	if (n > 0)
		free(v);
}

/* The selected row's histogram (an offcpu row's stacks first) in the h
 * lines at (y, x). */
static void
lat_draw_detail(const struct latpane *p, const struct lat_row *r, WINDOW *win, int y, int x, int h,
                int w, const struct theme *th)
{
	const struct callgraph *cg = p->fl->offcpu;
	unsigned first, last;
	char line[512], comm[80], name[80], total[16], wall[96];
	int row = 0;

	str_escape(comm, sizeof comm, r->comm, strnlen(r->comm, sizeof r->comm));
	report_latency_name(r, name, sizeof name);
	lat_format_ns(total, sizeof total, r->hist.total);
	lat_thread_wall(p->fl, r->tid, wall, sizeof wall);
	snprintf(line, sizeof line, "@%s[%s, %s %d]: %llu %s, %s%s%s (Enter closes)",
	         lat_kind_name(r->kind), name, comm, r->pid, (unsigned long long)r->hist.count,
	         r->kind == LAT_OFFCPU  ? "blocks"
	         : r->kind == LAT_ONCPU ? "slices"
	                                : "calls",
	         total, r->kind == LAT_OFFCPU ? " blocked; stacks by blocked time" : "", wall);
	wattrset(win, th->attr[TH_TITLE]);
	mvwaddnstr(win, y + row++, x, line, w);
	wattrset(win, 0);
	if (!lat_hist_range(&r->hist, &first, &last))
		return;
	if (r->stack != NULL) {
		int hh = (int)(last - first) + 1, sh = h - row - (hh < h / 3 ? hh : h / 3);

		lat_draw_stacks(r, cg, win, y + row, x, sh, w);
		row += sh;
	}
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
	char line[768], why[300];
	int dh = 0;

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
		dh = sel->stack != NULL ? h / 2 : (int)(last - first) + 3;
		if (dh > h / 2)
			dh = h / 2;
	}
	why[0] = '\0';
	if (p->error[0] != '\0' || p->sched_error[0] != '\0')
		str_escape(why, sizeof why, p->error[0] != '\0' ? p->error : p->sched_error,
		           strlen(p->error[0] != '\0' ? p->error : p->sched_error));
	snprintf(line, sizeof line,
	         "%zu rows (%s), %llu events, %llu lost, %llu unpaired; %s%s%s%s", fl->nrows,
	         fl->target ? fl->target : "-", (unsigned long long)(fl->events + fl->sched_events),
	         (unsigned long long)(fl->lost + fl->sched_lost),
	         (unsigned long long)(fl->unpaired + fl->sched_unpaired),
	         fl->notice ? fl->notice : "", p->sched != NULL ? (fl->notice ? "; " : "") : "",
	         p->sched != NULL ? "sched/block: a ring record per switch (offcpu: with stacks), "
	                            "paired here; Enter: histogram, stacks"
	                          : "",
	         why[0] ? "; absent: " : "");
	if (why[0])
		snprintf(line + strlen(line), sizeof line - strlen(line), "%s", why);
	listpane_draw_titled(&p->list, win, y, x, h - dh, w, line, &t->theme);
	if (dh > 0)
		lat_draw_detail(p, sel, win, y + h - dh + 1, x, dh - 1, w, &t->theme);
}

/* Remove probe tracepoint name of tracetop's (its events are closed). */
static void
lat_probe_remove(struct tui *t, const char *name)
{
	struct tt_err err;
	int i = probes_find(t->probes, name);

	if (i >= 0 && probes_remove(t->probes, (size_t)i, &err) != 0)
		tui_status(t, true, "%s", err.msg);
}

/* Time func of binary (see tui.h): the probe pair, then the source's
 * events on it. */
void
pane_latency_time(struct tui *t, const char *binary, const char *func)
{
	struct latpane *p = tui_pane_state(t, &pane_latency);
	bool kernel = binary == NULL || binary[0] == '\0';
	char target[4700], ret[4710], esc[200];
	struct lat_timed *tm;
	struct tt_err err;
	int ie, ir, k;

	if (p == NULL)
		return;
	str_escape(esc, sizeof esc, func, strlen(func));
	if (kernel && !probe_kind_supported(PROBE_KPROBE, &err)) {
		tui_status(t, true,
		           "cannot time kernel function %s: this kernel has no kprobes (%s); user "
		           "functions are timed with uprobes",
		           esc, err.msg);
		return;
	}
	if (t->probes == NULL) {
		tui_status(t, true, "cannot time %s: probes are not available here", esc);
		return;
	}
	if (probe_spec_target(target, sizeof target, binary, func, &err) != 0) {
		tui_status(t, true, "cannot time %s: %s", esc, err.msg);
		return;
	}
	snprintf(ret, sizeof ret, "%s%%return", target);
	tui_show_pane(t, &pane_latency);
	if (p->src == NULL && p->error[0] == '\0')
		lat_open(p, t); /* as its first sight would */
	if (p->src == NULL) {
		tui_status(t, true, "cannot time %s: %s", esc, p->error);
		return;
	}
	if (latsys_find_func(p->src, target) >= 0) {
		tui_status(t, false, "%s is timed already (Delete on its row stops)", esc);
		return;
	}
	if ((ie = probes_add(t->probes, target, NULL, &err)) < 0) {
		tui_status(t, true, "cannot time %s: %s", esc, err.msg);
		return;
	}
	if ((ir = probes_add(t->probes, ret, NULL, &err)) < 0) {
		tui_status(t, true, "cannot time %s: %s", esc, err.msg);
		lat_probe_remove(t, probes_tracepoint(t->probes, (size_t)ie));
		return;
	}
	p->timed = xrealloc(p->timed, (p->ntimed + 1) * sizeof *p->timed);
	tm = &p->timed[p->ntimed];
	snprintf(tm->entry, sizeof tm->entry, "%s", probes_tracepoint(t->probes, (size_t)ie));
	snprintf(tm->ret, sizeof tm->ret, "%s", probes_tracepoint(t->probes, (size_t)ir));
	if ((k = latsys_add_func(p->src, target, tm->entry, tm->ret, &err)) < 0) {
		tui_status(t, true, "cannot time %s: %s", esc, err.msg);
		lat_probe_remove(t, tm->entry);
		lat_probe_remove(t, tm->ret);
		return;
	}
	tm->k = k;
	p->ntimed++;
	p->pending = latsys_func_name(p->src, (size_t)k);
	/* counted here: their hit counters in the Probes pane would only add
	 * a cost per call (and see none when the kernel times them) */
	probes_set_enabled(t->probes, (size_t)ie, false, &err);
	probes_set_enabled(t->probes, (size_t)ir, false, &err);
	session_repoll(t->session);
	tui_status(t, false,
	           "timing %s with a %s pair (%s); its row comes at the next refresh, "
	           "Delete stops",
	           esc, kernel ? "kprobe/kretprobe" : "uprobe/uretprobe",
	           latsys_in_kernel(p->src) ? "histogram in the kernel" : "paired here");
}

/* Delete: stop timing the selected function, remove its probe pair. */
static int
lat_untime(struct latpane *p, struct tui *t)
{
	const struct lat_row *r = table_selected(&p->list.table);
	struct tt_err err;
	char esc[200];
	int k;

	if (r == NULL || r->kind != LAT_FUNCTION || p->src == NULL ||
	    (k = latsys_find_func(p->src, r->name)) < 0) {
		tui_status(t, false, "select a timed function's row to stop timing it");
		return REACT_HANDLED | REACT_REDRAW;
	}
	str_escape(esc, sizeof esc, r->name, strlen(r->name));
	if (latsys_remove_func(p->src, (size_t)k, &err) != 0) {
		tui_status(t, false, "%s", err.msg);
		return REACT_HANDLED | REACT_REDRAW;
	}
	bool ours = false;

	for (size_t i = 0; i < p->ntimed; i++)
		if (p->timed[i].k == k) {
			lat_probe_remove(t, p->timed[i].entry);
			lat_probe_remove(t, p->timed[i].ret);
			p->timed[i].k = -1;
			ours = true;
		}
	session_repoll(t->session);
	tui_status(t, false, "stopped timing %s; %s", esc,
	           ours ? "its probes are removed" : "its --latency probes go at exit");
	tui_snapshot(t);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Enter: show or hide the selected row's histogram; p: per process or
 * not; Delete: stop timing a function; then the list's. */
static int
lat_action(void *pp, struct tui *t, enum action a)
{
	struct latpane *p = pp;

	switch (a) {
	case ACT_ENTER:
		p->detail = !p->detail;
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_PER_PROCESS:
		if (p->src == NULL)
			return REACT_HANDLED;
		latsys_set_per_process(p->src, !latsys_per_process(p->src));
		tui_status(t, false, "%s",
		           latsys_per_process(p->src)
		               ? "a row per process"
		               : "a row per function and syscall over all processes");
		tui_snapshot(t);
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_REMOVE:
		return lat_untime(p, t);
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
