/* pane-procs: the processes like top, one row per process from the system
 * part of frames — CPU %, resident memory, minor and major faults per
 * second, threads, state, context switches per second, command — busiest
 * first, in the shared table. Enter zooms the Top pane into the selected
 * process. The system source reads the process table (the costliest
 * part of it) only while this pane is seen. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/system.h"
#include "tracetop/util.h"
#include "ui/listpane.h"
#include "ui/meters.h"
#include "ui/tui.h"

enum procs_col {
	COL_PID,
	COL_STATE,
	COL_CPU,
	COL_RES,
	COL_MINFLT,
	COL_MAJFLT,
	COL_THREADS,
	COL_CTXT,
	COL_COMMAND,
	COL_COUNT
};

/* Drop order at narrow widths: minor faults, context switches, threads,
 * major faults, state. */
static const struct table_col procs_cols[COL_COUNT] = {
    [COL_PID] = {.title = "PID",
                 .width = 7,
                 .min_width = 5,
                 .priority = 9,
                 .right = true,
                 .sortable = true},
    [COL_STATE] = {.title = "S", .width = 1, .min_width = 1, .priority = 5, .sortable = true},
    [COL_CPU] = {.title = "CPU%",
                 .width = 6,
                 .min_width = 5,
                 .priority = 9,
                 .right = true,
                 .sortable = true},
    [COL_RES] = {.title = "RES",
                 .width = 7,
                 .min_width = 5,
                 .priority = 8,
                 .right = true,
                 .sortable = true},
    [COL_MINFLT] = {.title = "MINFLT/s",
                    .width = 8,
                    .min_width = 6,
                    .priority = 1,
                    .right = true,
                    .sortable = true},
    [COL_MAJFLT] = {.title = "MAJFLT/s",
                    .width = 8,
                    .min_width = 6,
                    .priority = 4,
                    .right = true,
                    .sortable = true},
    [COL_THREADS] = {.title = "THR",
                     .width = 4,
                     .min_width = 3,
                     .priority = 3,
                     .right = true,
                     .sortable = true},
    [COL_CTXT] = {.title = "CSW/s",
                  .width = 7,
                  .min_width = 5,
                  .priority = 2,
                  .right = true,
                  .sortable = true},
    [COL_COMMAND] = {.title = "Command",
                     .width = 16,
                     .min_width = 10,
                     .priority = 9,
                     .flex = true,
                     .sortable = true},
};

struct procs {
	struct listpane list; /* first: the listpane_pane_* ops take the pane as it */
	const struct system_proc **ptrs;
	size_t cap;
	const struct frame_system *fs;
	bool shown; /* the pane is seen: the source reads processes */
};

/* The command: its command line, or [comm] for a kernel thread (or one
 * whose command line could not be read), escaped. */
static void
procs_command(const struct system_proc *r, char *buf, size_t len)
{
	char esc[SYSTEM_CMD_MAX * 4];

	if (r->cmd[0] != '\0') {
		str_escape(esc, sizeof esc, r->cmd, strlen(r->cmd));
		snprintf(buf, len, "%s", esc);
	} else {
		str_escape(esc, sizeof esc, r->comm, strlen(r->comm));
		snprintf(buf, len, "[%s]", esc);
	}
}

/* A rate per second: "-" when not yet (first seen this interval). */
static void
procs_rate(double v, char *buf, size_t len)
{
	meter_rate(v, buf, len);
}

/* Cell text. */
static void
procs_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct system_proc *r = row;

	(void)ctx;
	buf[0] = '\0';
	switch ((enum procs_col)col) {
	case COL_PID:
		snprintf(buf, len, "%d", r->pid);
		break;
	case COL_STATE:
		snprintf(buf, len, "%c", r->state > ' ' && r->state < 127 ? r->state : '?');
		break;
	case COL_CPU:
		if (system_known(r->cpu))
			snprintf(buf, len, "%.1f", r->cpu);
		else
			snprintf(buf, len, "-");
		break;
	case COL_RES:
		meter_kib(r->rss_kib, buf, len);
		break;
	case COL_MINFLT:
		procs_rate(r->minflt_s, buf, len);
		break;
	case COL_MAJFLT:
		procs_rate(r->majflt_s, buf, len);
		break;
	case COL_THREADS:
		snprintf(buf, len, "%lld", (long long)r->threads);
		break;
	case COL_CTXT:
		procs_rate(r->ctxt_s, buf, len);
		break;
	case COL_COMMAND:
		procs_command(r, buf, len);
		break;
	case COL_COUNT:
		break;
	}
}

/* A number to sort by: not yet sorts below every value. */
static double
procs_key(double v)
{
	return system_known(v) ? v : -INFINITY;
}

/* Order two rows by a column, then by pid. */
static int
procs_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct system_proc *a = pa, *b = pb;
	double x = 0, y = 0;

	(void)ctx;
	switch ((enum procs_col)col) {
	case COL_STATE:
		x = a->state, y = b->state;
		break;
	case COL_CPU:
		x = procs_key(a->cpu), y = procs_key(b->cpu);
		break;
	case COL_RES:
		x = (double)a->rss_kib, y = (double)b->rss_kib;
		break;
	case COL_MINFLT:
		x = procs_key(a->minflt_s), y = procs_key(b->minflt_s);
		break;
	case COL_MAJFLT:
		x = procs_key(a->majflt_s), y = procs_key(b->majflt_s);
		break;
	case COL_THREADS:
		x = (double)a->threads, y = (double)b->threads;
		break;
	case COL_CTXT:
		x = procs_key(a->ctxt_s), y = procs_key(b->ctxt_s);
		break;
	case COL_COMMAND: {
		char ca[256], cb[256];
		int c;

		procs_command(a, ca, sizeof ca);
		procs_command(b, cb, sizeof cb);
		if ((c = strcmp(ca, cb)) != 0)
			return c;
		break;
	}
	default:
		break;
	}
	return x != y ? CMP3(x, y) : CMP3(a->pid, b->pid);
}

/* Identity across refreshes: the pid. */
static uintptr_t
procs_row_id(const void *row, void *ctx)
{
	(void)ctx;
	return (uintptr_t)(unsigned)((const struct system_proc *)row)->pid + 1;
}

/* Filter and search over pid, command name and command line. */
static bool
procs_match(const void *row, const char *text, void *ctx)
{
	const struct system_proc *r = row;
	char pid[16];

	(void)ctx;
	snprintf(pid, sizeof pid, "%d", r->pid);
	return strcmp(pid, text) == 0 || strcasestr(r->comm, text) != NULL ||
	       strcasestr(r->cmd, text) != NULL;
}

/* Kernel threads dimmed, the CPU % in the bar colour when busy. */
static attr_t
procs_cell_attr(const void *row, size_t col, const struct theme *th, void *ctx)
{
	const struct system_proc *r = row;

	(void)ctx;
	if (col == COL_COMMAND && r->kernel)
		return th->attr[TH_DIM];
	if (col == COL_STATE && r->state == 'R')
		return th->attr[TH_BAR];
	return 0;
}

static const struct table_ops procs_table_ops = {
    .cell = procs_cell,
    .compare = procs_compare,
    .row_id = procs_row_id,
    .match = procs_match,
    .cell_attr = procs_cell_attr,
};

/* Create the pane: busiest first. */
static void *
procs_init(struct tui *t)
{
	struct procs *p = xcalloc(1, sizeof *p);

	(void)t;
	table_init(&p->list.table, procs_cols, COL_COUNT, &procs_table_ops, p);
	table_sort_by(&p->list.table, COL_CPU, true);
	return p;
}

/* Free the pane. */
static void
procs_free(void *pp)
{
	struct procs *p = pp;

	table_free(&p->list.table);
	free(p->ptrs);
	free(p);
}

/* Read the process table only while the pane is seen. */
static void
procs_show(void *pp, struct tui *t, bool shown)
{
	struct procs *p = pp;

	p->shown = shown;
	if (t->system != NULL)
		system_set_procs(t->system, shown);
}

/* A refresh: the frame's processes (when it has them). */
static void
procs_update(void *pp, struct tui *t, const struct frame *f)
{
	struct procs *p = pp;
	const struct frame_system *fs = &f->system;

	(void)t;
	if (!fs->rows)
		return; /* a header-only snapshot: the table is the last one's */
	p->fs = fs;
	if (!fs->procs_on) {
		table_set_rows(&p->list.table, NULL, 0);
		return;
	}
	if (p->cap < fs->nprocs) {
		p->cap = fs->nprocs;
		p->ptrs = xrealloc(p->ptrs, p->cap * sizeof *p->ptrs);
	}
	for (size_t i = 0; i < fs->nprocs; i++)
		p->ptrs[i] = &fs->procs[i];
	table_set_rows(&p->list.table, (const void *const *)p->ptrs, fs->nprocs);
}

/* The title line (counts, what is not yet known) and the table. */
static void
procs_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct procs *p = pp;
	const struct frame_system *fs = p->fs;
	char line[256], why[160];

	if (h < 2)
		return;
	if (t->system == NULL) {
		listpane_message(win, y + h / 2, x, w, "The system source is not running",
		                 &t->theme);
		return;
	}
	if (fs != NULL && fs->procs_error != NULL) {
		str_escape(why, sizeof why, fs->procs_error, strlen(fs->procs_error));
		snprintf(line, sizeof line, "Processes absent: %s", why);
		listpane_message(win, y + h / 2, x, w, line, &t->theme);
		return;
	}
	if (fs == NULL || !fs->procs_on) {
		listpane_message(win, y + h / 2, x, w,
		                 "Reading the processes... (rows after the next refresh)",
		                 &t->theme);
		return;
	}
	snprintf(line, sizeof line,
	         "%zu processes%s; Enter zooms Top and Counters into the selected one", fs->nprocs,
	         fs->procs_new == fs->nprocs && fs->nprocs > 0 ? " (rates after the next refresh)"
	                                                       : "");
	listpane_draw_titled(&p->list, win, y, x, h, w, line, &t->theme);
}

/* Enter: zoom Top and Counters into the selected process, and show Top
 * (Counters when nothing is sampled). */
static int
procs_zoom(struct procs *p, struct tui *t)
{
	const struct system_proc *r = table_selected(&p->list.table);

	if (r == NULL)
		return REACT_HANDLED;
	if (t->engine == NULL && t->counters == NULL) {
		tui_status(t, false, "nothing is sampled or counted: no pane to zoom into");
		return REACT_HANDLED | REACT_REDRAW;
	}
	pane_counters_zoom_pid(t, r->pid);
	if (t->engine != NULL) {
		pane_top_zoom_pid(t, r->pid);
	} else {
		tui_show_pane(t, &pane_counters);
		tui_snapshot(t);
		tui_status(t, false, "Counters zoomed into pid %d (Esc or Left leaves the zoom)",
		           r->pid);
	}
	return REACT_HANDLED | REACT_REDRAW;
}

/* Act on an action: Enter, then the list's. */
static int
procs_action(void *pp, struct tui *t, enum action a)
{
	struct procs *p = pp;

	if (a == ACT_ENTER)
		return procs_zoom(p, t);
	return listpane_action(&p->list, t, a);
}

const struct pane_ops pane_procs = {
    .name = "Processes",
    .scope = SCOPE_PROCS,
    .view = VIEW_NONE,
    .reads = PANE_READS_SYSTEM,
    .init = procs_init,
    .free = procs_free,
    .update = procs_update,
    .draw = procs_draw,
    .show = procs_show,
    .action = procs_action,
    .mouse = listpane_pane_mouse,
    .prompt = listpane_pane_prompt,
    .menu = listpane_pane_menu,
};
