/* pane-procs: the processes like top, one row per process from the system
 * part of frames — CPU %, resident memory, minor and major faults per
 * second, threads, state, context switches per second, command — busiest
 * first, in the shared table. H lists each process's threads under it
 * (like htop's H: their own CPU %, state and faults, the name in another
 * colour), sorted among themselves. Enter zooms the Top pane into the
 * selected process, or thread. The system source reads the process table
 * (the costliest part of it), and the threads, only while this pane is
 * seen. */
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
	const void **ptrs;    /* the rows: fs->procs[] and fs->threads[] elements */
	size_t cap;
	const struct frame_system *fs;
	bool shown;         /* the pane is seen: the source reads processes */
	bool threads;       /* H: each process's threads under it */
	size_t thread_rows; /* of the rows */
};

/* What a row shows: a process's numbers, or a thread's (with its
 * process's memory). */
struct procs_view {
	const struct system_proc *proc;  /* the process, or the thread's */
	const struct system_thread *thr; /* NULL: a process row */
	int id;                          /* pid or tid */
	char state;
	double cpu, minflt_s, majflt_s;
};

/* The view of a process's row. */
static struct procs_view
procs_proc_view(const struct system_proc *pr)
{
	return (struct procs_view){.proc = pr,
	                           .id = pr->pid,
	                           .state = pr->state,
	                           .cpu = pr->cpu,
	                           .minflt_s = pr->minflt_s,
	                           .majflt_s = pr->majflt_s};
}

/* The view of a row: rows point into the frame's procs[] or threads[]. */
static struct procs_view
procs_view(const struct procs *p, const void *row)
{
	const struct frame_system *fs = p->fs;
	uintptr_t r = (uintptr_t)row, t0 = fs != NULL ? (uintptr_t)fs->threads : 0;
	const struct system_thread *th = row;

	if (fs == NULL || fs->nthreads == 0 || r < t0 ||
	    r >= t0 + fs->nthreads * sizeof *fs->threads)
		return procs_proc_view(row);
	return (struct procs_view){.proc = &fs->procs[th->proc],
	                           .thr = th,
	                           .id = th->tid,
	                           .state = th->state,
	                           .cpu = th->cpu,
	                           .minflt_s = th->minflt_s,
	                           .majflt_s = th->majflt_s};
}

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

/* A thread's command: its name, escaped, indented under its process. */
static void
procs_thread_command(const struct system_thread *th, char *buf, size_t len)
{
	if (len < 3) {
		if (len > 0)
			buf[0] = '\0';
		return;
	}
	buf[0] = buf[1] = ' ';
	str_escape(buf + 2, len - 2, th->comm, strlen(th->comm));
}

/* A rate per second: "-" when not yet (first seen this interval). */
static void
procs_rate(double v, char *buf, size_t len)
{
	meter_rate(v, buf, len);
}

/* Cell text (a thread row leaves the threads and switches columns empty). */
static void
procs_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	struct procs_view v = procs_view(ctx, row);
	const struct system_proc *r = v.proc;

	buf[0] = '\0';
	switch ((enum procs_col)col) {
	case COL_PID:
		snprintf(buf, len, "%d", v.id);
		break;
	case COL_STATE:
		snprintf(buf, len, "%c", v.state > ' ' && v.state < 127 ? v.state : '?');
		break;
	case COL_CPU:
		if (system_known(v.cpu))
			snprintf(buf, len, "%.1f", v.cpu);
		else
			snprintf(buf, len, "-");
		break;
	case COL_RES:
		meter_kib(r->rss_kib, buf, len);
		break;
	case COL_MINFLT:
		procs_rate(v.minflt_s, buf, len);
		break;
	case COL_MAJFLT:
		procs_rate(v.majflt_s, buf, len);
		break;
	case COL_THREADS:
		if (v.thr == NULL)
			snprintf(buf, len, "%lld", (long long)r->threads);
		break;
	case COL_CTXT:
		if (v.thr == NULL)
			procs_rate(r->ctxt_s, buf, len);
		break;
	case COL_COMMAND:
		if (v.thr != NULL)
			procs_thread_command(v.thr, buf, len);
		else
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

/* Order two rows of the same kind (processes, or threads of one) by a
 * column, then by pid or tid. */
static int
procs_order(const struct procs_view *a, const struct procs_view *b, size_t col)
{
	double x = 0, y = 0;

	switch ((enum procs_col)col) {
	case COL_STATE:
		x = a->state, y = b->state;
		break;
	case COL_CPU:
		x = procs_key(a->cpu), y = procs_key(b->cpu);
		break;
	case COL_RES:
		x = (double)a->proc->rss_kib, y = (double)b->proc->rss_kib;
		break;
	case COL_MINFLT:
		x = procs_key(a->minflt_s), y = procs_key(b->minflt_s);
		break;
	case COL_MAJFLT:
		x = procs_key(a->majflt_s), y = procs_key(b->majflt_s);
		break;
	case COL_THREADS:
		x = (double)a->proc->threads, y = (double)b->proc->threads;
		break;
	case COL_CTXT:
		x = procs_key(a->proc->ctxt_s), y = procs_key(b->proc->ctxt_s);
		break;
	case COL_COMMAND: {
		char ca[256], cb[256];
		int c;

		if (a->thr != NULL) {
			procs_thread_command(a->thr, ca, sizeof ca);
			procs_thread_command(b->thr, cb, sizeof cb);
		} else {
			procs_command(a->proc, ca, sizeof ca);
			procs_command(b->proc, cb, sizeof cb);
		}
		if ((c = strcmp(ca, cb)) != 0)
			return c;
		break;
	}
	default:
		break;
	}
	return x != y ? CMP3(x, y) : CMP3(a->id, b->id);
}

/* Order two rows by a column: processes by theirs, each one's threads
 * right under it (in either direction) in the column's order. */
static int
procs_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct procs *p = ctx;
	struct procs_view a = procs_view(p, pa), b = procs_view(p, pb);

	if (a.proc != b.proc) { /* by their processes' */
		a = procs_proc_view(a.proc);
		b = procs_proc_view(b.proc);
		return procs_order(&a, &b, col);
	}
	if (a.thr == b.thr)
		return 0;
	if (a.thr == NULL || b.thr == NULL) /* the table turns the result when descending */
		return (a.thr == NULL ? -1 : 1) * (p->list.table.descending ? -1 : 1);
	return procs_order(&a, &b, col);
}

/* Identity across refreshes: the pid, or the tid of a thread row. */
static uintptr_t
procs_row_id(const void *row, void *ctx)
{
	struct procs_view v = procs_view(ctx, row);

	return (uintptr_t)(unsigned)v.id * 2 + (v.thr != NULL ? 2 : 1);
}

/* Filter and search over pid, command name and command line; a thread
 * row also over its tid and name. */
static bool
procs_match(const void *row, const char *text, void *ctx)
{
	struct procs_view v = procs_view(ctx, row);
	const struct system_proc *r = v.proc;
	char pid[16], tid[16];

	snprintf(pid, sizeof pid, "%d", r->pid);
	snprintf(tid, sizeof tid, "%d", v.id);
	return strcmp(pid, text) == 0 || strcasestr(r->comm, text) != NULL ||
	       strcasestr(r->cmd, text) != NULL ||
	       (v.thr != NULL && (strcmp(tid, text) == 0 || strcasestr(v.thr->comm, text) != NULL));
}

/* Kernel threads dimmed, threads' names in their colour, the state in the
 * bar colour when running. */
static attr_t
procs_cell_attr(const void *row, size_t col, const struct theme *th, void *ctx)
{
	struct procs_view v = procs_view(ctx, row);

	if (col == COL_COMMAND && v.thr != NULL)
		return th->attr[TH_THREAD];
	if (col == COL_COMMAND && v.proc->kernel)
		return th->attr[TH_DIM];
	if (col == COL_STATE && v.state == 'R')
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

	p->threads = t->opts != NULL && t->opts->threads; /* --threads: as H */
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
	if (t->system != NULL) {
		system_set_procs(t->system, shown);
		system_set_threads(t->system, shown && p->threads);
	}
}

/* The rows of the frame part: each process, and with H the threads of
 * those that have more than one. */
static void
procs_rows(struct procs *p)
{
	const struct frame_system *fs = p->fs;
	bool threads = p->threads && fs->threads_on;
	size_t n = 0;

	if (p->cap < fs->nprocs + (threads ? fs->nthreads : 0)) {
		p->cap = fs->nprocs + (threads ? fs->nthreads : 0);
		p->ptrs = xrealloc(p->ptrs, p->cap * sizeof *p->ptrs);
	}
	p->thread_rows = 0;
	for (size_t i = 0; i < fs->nprocs; i++) {
		const struct system_proc *r = &fs->procs[i];

		p->ptrs[n++] = r;
		for (uint32_t k = 0; threads && r->thread_n > 1 && k < r->thread_n; k++)
			p->ptrs[n++] = &fs->threads[r->thread_at + k];
		p->thread_rows += threads && r->thread_n > 1 ? r->thread_n : 0;
	}
	table_set_rows(&p->list.table, p->ptrs, n);
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
	procs_rows(p);
}

/* The title line: counts, the threads shown, what is not yet known. */
static void
procs_title(const struct procs *p, char *line, size_t len)
{
	const struct frame_system *fs = p->fs;
	const char *later =
	    fs->procs_new == fs->nprocs && fs->nprocs > 0 ? " (rates after the next refresh)" : "";

	if (!p->threads)
		snprintf(line, len,
		         "%zu processes%s; Enter zooms Top and Counters into the selected one",
		         fs->nprocs, later);
	else if (!fs->threads_on)
		snprintf(line, len,
		         "%zu processes%s; their threads from the next refresh (H hides them)",
		         fs->nprocs, later);
	else
		snprintf(line, len,
		         "%zu processes%s, %zu threads shown under them; Enter zooms Top into one",
		         fs->nprocs, later, p->thread_rows);
}

/* The title line and the table. */
static void
procs_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct procs *p = pp;
	const struct frame_system *fs = p->fs;
	char line[256], why[160];

	if (h < 2)
		return;
	if (t->system == NULL && !t->replay) {
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
		                 t->replay
		                     ? "The recording holds no process table (it is read "
		                       "while the Processes pane is shown, or with --view "
		                       "system)"
		                     : "Reading the processes... (rows after the next refresh)",
		                 &t->theme);
		return;
	}
	procs_title(p, line, sizeof line);
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

/* Enter on a thread row: zoom Top into the thread. */
static int
procs_zoom_thread(struct tui *t, const struct system_thread *th)
{
	if (t->engine == NULL) {
		tui_status(t, false, "nothing is sampled: no Top pane to zoom into");
		return REACT_HANDLED | REACT_REDRAW;
	}
	pane_top_zoom_tid(t, th->pid, th->tid);
	return REACT_HANDLED | REACT_REDRAW;
}

/* H: list each process's threads under it, or stop (the source reads
 * them only while they are listed). */
static int
procs_toggle_threads(struct procs *p, struct tui *t)
{
	p->threads = !p->threads;
	if (t->system != NULL)
		system_set_threads(t->system, p->shown && p->threads);
	if (p->fs != NULL && p->fs->procs_on)
		procs_rows(p); /* hidden at once; shown from the next refresh */
	tui_status(t, false,
	           p->threads ? "Threads shown under their processes from the next "
	                        "refresh (H hides them)"
	                      : "Threads hidden (H shows them)");
	return REACT_HANDLED | REACT_REDRAW;
}

/* H's state in the setup file (--threads wins). */
static void
procs_setup(void *pp, struct tui *t, struct rcfile *rc, bool save)
{
	struct procs *p = pp;

	if (save)
		rcfile_set_bool(rc, "processes.threads", p->threads);
	else if (!t->opts->threads && rcfile_get_bool(rc, "processes.threads", false) != p->threads)
		p->threads = !p->threads; /* read by the source once the pane is shown */
}

/* Act on an action: Enter (on a thread row, its own zoom), H, then the
 * list's. */
static int
procs_action(void *pp, struct tui *t, enum action a)
{
	struct procs *p = pp;
	struct procs_view v;

	if (a == ACT_ENTER && table_selected(&p->list.table) != NULL &&
	    (v = procs_view(p, table_selected(&p->list.table))).thr != NULL)
		return procs_zoom_thread(t, v.thr);
	if (a == ACT_ENTER)
		return procs_zoom(p, t);
	if (a == ACT_THREADS)
		return procs_toggle_threads(p, t);
	return listpane_action(&p->list, t, a);
}

const struct pane_ops pane_procs = {
    .name = "Processes",
    .listpane = true,
    .setup = procs_setup,
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
