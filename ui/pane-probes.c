/* pane-probes: tracetop's probes and counted tracepoints, with live hit
 * counts, and the system's other dynamic events (read-only), in the shared
 * table. Inserting a probe is a short dialogue: where (a kernel function,
 * a binary's function, a function of a target's objects) through pickers,
 * entry or return, then optional arguments; the probe's events then stream
 * in the Trace pane. The Top pane's "probe this function" joins it at the
 * entry-or-return step. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/probe.h"
#include "tracetop/sym-name.h"
#include "tracetop/util.h"
#include "ui/listpane.h"
#include "ui/pane-probes-impl.h"
#include "ui/tui.h"

enum probes_col {
	PCOL_NAME,
	PCOL_KIND,
	PCOL_TARGET,
	PCOL_ARGS,
	PCOL_HITS,
	PCOL_RATE,
	PCOL_STATE,
	PCOL_COUNT
};

/* At 80 columns the hits and their rate stay (the target narrows first),
 * the name, kind and state are as wide as their text. */
static const struct table_col probes_cols[PCOL_COUNT] = {
    [PCOL_NAME] = {.title = "Name",
                   .width = 36,
                   .min_width = 10,
                   .priority = 9,
                   .fit = true,
                   .sortable = true},
    [PCOL_KIND] = {.title = "Kind",
                   .width = 10,
                   .min_width = 6,
                   .priority = 7,
                   .fit = true,
                   .sortable = true},
    [PCOL_TARGET] = {.title = "Target",
                     .width = 24,
                     .min_width = 10,
                     .priority = 8,
                     .flex = true,
                     .sortable = true},
    [PCOL_ARGS] = {.title = "Arguments", .width = 24, .min_width = 6, .priority = 3},
    [PCOL_HITS] = {.title = "Hits",
                   .width = 10,
                   .min_width = 5,
                   .priority = 8,
                   .right = true,
                   .keep = true,
                   .sortable = true},
    [PCOL_RATE] = {.title = "Per second",
                   .width = 10,
                   .min_width = 6,
                   .priority = 7,
                   .right = true,
                   .keep = true,
                   .sortable = true},
    [PCOL_STATE] = {.title = "State",
                    .width = 8,
                    .min_width = 4,
                    .priority = 5,
                    .fit = true,
                    .keep = true,
                    .sortable = true},
};

/* A target as the column shows it: "/usr/lib/x/libc.so.6:malloc" as
 * "libc.so.6:malloc", so the function survives narrow widths. */
static const char *
probes_short_target(const char *target)
{
	const char *colon, *slash;

	if (target == NULL)
		return "";
	if (target[0] != '/' || (colon = strchr(target, ':')) == NULL)
		return target;
	for (slash = colon; slash > target && slash[-1] != '/'; slash--)
		;
	return slash;
}

/* Cell text. */
static void
probes_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct probes_row *r = row;
	size_t used = 0;

	(void)ctx;
	buf[0] = '\0';
	switch ((enum probes_col)col) {
	case PCOL_NAME:
		str_escape(buf, len, r->name, strlen(r->name));
		break;
	case PCOL_KIND:
		snprintf(buf, len, "%s", probe_kind_name(r->kind));
		break;
	case PCOL_TARGET:
		str_escape(buf, len, probes_short_target(r->target),
		           strlen(probes_short_target(r->target)));
		break;
	case PCOL_ARGS:
		for (size_t i = 0; i < r->nargs && used + 1 < len; i++) {
			used += (size_t)snprintf(buf + used, len - used, "%s", i ? " " : "");
			if (used < len)
				used += str_escape(buf + used, len - used, r->args[i],
				                   strlen(r->args[i]));
		}
		break;
	case PCOL_HITS:
		if (r->ours)
			snprintf(buf, len, "%llu", (unsigned long long)r->hits);
		break;
	case PCOL_RATE:
		if (r->ours)
			snprintf(buf, len, "%.1f", r->rate);
		break;
	case PCOL_STATE:
		snprintf(buf, len, "%s", r->state ? r->state : "");
		break;
	case PCOL_COUNT:
		break;
	}
}

/* Rows by a column; ours first, then by name. */
static int
probes_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct probes_row *a = pa, *b = pb;

	(void)ctx;
	switch ((enum probes_col)col) {
	case PCOL_HITS:
		if (a->hits != b->hits)
			return CMP3(a->hits, b->hits);
		break;
	case PCOL_RATE:
		if (a->rate != b->rate)
			return CMP3(a->rate, b->rate);
		break;
	case PCOL_KIND:
		if (a->kind != b->kind)
			return CMP3(a->kind, b->kind);
		break;
	case PCOL_TARGET:
		if (a->target && b->target && strcmp(a->target, b->target) != 0)
			return strcmp(a->target, b->target);
		break;
	case PCOL_STATE:
		if (a->state && b->state && strcmp(a->state, b->state) != 0)
			return strcmp(a->state, b->state);
		break;
	default:
		break;
	}
	if (a->ours != b->ours)
		return a->ours ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* A row's identity: a hash of its name (names are unique). */
static uintptr_t
probes_row_id(const void *row, void *ctx)
{
	(void)ctx;
	return (uintptr_t)str_hash(((const struct probes_row *)row)->name);
}

/* Filter and search over name, kind and target. */
static bool
probes_match(const void *row, const char *text, void *ctx)
{
	const struct probes_row *r = row;

	(void)ctx;
	return strcasestr(r->name, text) != NULL ||
	       strcasestr(probe_kind_name(r->kind), text) != NULL ||
	       (r->target != NULL && strcasestr(r->target, text) != NULL);
}

/* Other tools' events dimmed: read-only. */
static attr_t
probes_cell_attr(const void *row, size_t col, const struct theme *th, void *ctx)
{
	const struct probes_row *r = row;

	(void)col;
	(void)ctx;
	return r->ours ? 0 : th->attr[TH_DIM];
}

static const struct table_ops probes_table_ops = {
    .cell = probes_cell,
    .compare = probes_compare,
    .row_id = probes_row_id,
    .match = probes_match,
    .cell_attr = probes_cell_attr,
};

/* Create the pane. */
static void *
probes_init(struct tui *t)
{
	struct probes_pane *p = xcalloc(1, sizeof *p);

	p->tui = t;
	table_init(&p->list.table, probes_cols, PCOL_COUNT, &probes_table_ops, p);
	table_sort_by(&p->list.table, PCOL_NAME, false);
	return p;
}

/* Free the pane. */
static void
probes_free_pane(void *pp)
{
	struct probes_pane *p = pp;

	table_free(&p->list.table);
	probes_names_drop(p);
	free(p->ptrs);
	free(p->streamed);
	free(p);
}

/* Count the tracepoints the Trace pane streams (as frame f has them) as
 * rows of ours. */
static void
probes_sync_traces(struct tui *t, const struct frame *f)
{
	struct tt_err err;

	for (size_t i = 0; f->has_trace && i < f->trace.non; i++)
		if (probes_find(t->probes, f->trace.on[i].name) < 0)
			probes_add_tracepoint(t->probes, f->trace.on[i].name, &err);
}

/* Forget that name was streamed for the Trace pane (it is removed, or
 * streamed by hand now). */
static void
probes_stream_forget(struct probes_pane *p, const char *name)
{
	for (size_t i = 0; i < p->nstreamed; i++)
		if (strcmp(p->streamed[i], name) == 0) {
			p->streamed[i] = p->streamed[--p->nstreamed];
			return;
		}
}

/* Whether name was streamed (or tried) for the Trace pane. */
static bool
probes_streamed(const struct probes_pane *p, const char *name)
{
	for (size_t i = 0; i < p->nstreamed; i++)
		if (strcmp(p->streamed[i], name) == 0)
			return true;
	return false;
}

/* Start streaming our counted probes for the Trace pane, or stop those. */
void
pane_probes_stream(struct tui *t, bool on)
{
	struct probes_pane *p = tui_pane_state(t, &pane_probes);
	struct tt_err err;

	if (p == NULL || t->probes == NULL || t->engine == NULL)
		return;
	p->trace_seen = on;
	if (!on) {
		for (size_t i = 0; i < p->nstreamed; i++)
			if (engine_trace_enabled(t->engine, p->streamed[i]))
				engine_trace_disable(t->engine, p->streamed[i], &err);
		p->nstreamed = 0;
		return;
	}
	for (size_t i = 0; p->snap != NULL && i < p->snap->n; i++) {
		const struct probes_row *r = &p->snap->rows[i];

		/* a counted tracepoint is streamed by the Trace pane itself */
		if (!r->ours || !r->enabled || r->kind == PROBE_TRACEPOINT ||
		    engine_trace_enabled(t->engine, r->name) || probes_streamed(p, r->name))
			continue;
		/* listed even when refused: tried once while the pane is seen */
		if (engine_trace_enable(t->engine, r->name, NULL, &err) != 0)
			tui_status(t, true, "%s", err.msg);
		p->streamed = xrealloc(p->streamed, (p->nstreamed + 1) * sizeof *p->streamed);
		p->streamed[p->nstreamed++] = str_intern(r->name);
	}
}

/* A refresh: the manager's rows. */
static void
probes_update(void *pp, struct tui *t, const struct frame *f)
{
	struct probes_pane *p = pp;

	if (t->probes == NULL && !t->replay)
		return;
	if (t->probes != NULL)
		probes_sync_traces(t, f);
	p->snap = &f->probes;
	if (p->cap < p->snap->n) {
		p->cap = p->snap->n;
		p->ptrs = xrealloc(p->ptrs, p->cap * sizeof *p->ptrs);
	}
	for (size_t i = 0; i < p->snap->n; i++)
		p->ptrs[i] = &p->snap->rows[i];
	table_set_rows(&p->list.table, (const void *const *)p->ptrs, p->snap->n);
	/* rows that came while the Trace pane is seen (the first frame's,
	 * with --probe and --view trace) */
	if (p->trace_seen)
		pane_probes_stream(t, true);
}

/* Draw the table and what the pane says above it. */
static void
probes_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct probes_pane *p = pp;
	const char *notice = p->snap != NULL ? p->snap->notice : NULL;
	char line[256];

	if (h < 2)
		return;
	if (t->probes == NULL && !(t->replay && p->snap != NULL)) {
		listpane_message(win, y + h / 2, x, w,
		                 t->replay ? "The recording holds no probes"
		                           : "Probes are not available",
		                 &t->theme);
		return;
	}
	if (t->probes == NULL)
		snprintf(line, sizeof line, "the probes as recorded, with their hits%s%s",
		         notice ? "  " : "", notice ? notice : "");
	else
		snprintf(line, sizeof line,
		         "group %s: a inserts a probe, Space turns one on or off, "
		         "Delete removes it%s%s",
		         probes_group(t->probes), notice ? "  " : "", notice ? notice : "");
	wattrset(win, notice ? t->theme.attr[TH_HEADER_WARN] : t->theme.attr[TH_DIM]);
	mvwaddnstr(win, y, x, line, w);
	wattrset(win, A_NORMAL);
	table_draw(&p->list.table, win, y + 1, x, h - 1, w, &t->theme);
	if (p->list.table.nrows == 0 && h > 4)
		listpane_message(win, y + h / 2, x, w,
		                 p->list.table.nall ? "No rows match the filter (Esc clears it)"
		                                    : "No probes yet: a inserts one",
		                 &t->theme);
}

/* Space: turn the selected probe's counting (and streaming) on or off. */
static int
probes_toggle(struct probes_pane *p, struct tui *t)
{
	const struct probes_row *r = table_selected(&p->list.table);
	struct tt_err err;
	int i;

	if (r == NULL || !r->ours || (i = probes_find(t->probes, r->name)) < 0) {
		tui_status(t, false, "select one of tracetop's probes (others' are read-only)");
		return REACT_HANDLED | REACT_REDRAW;
	}
	if (probes_set_enabled(t->probes, (size_t)i, !r->enabled, &err) != 0)
		tui_status(t, true, "%s", err.msg);
	else
		tui_status(t, false, "%s %s", r->name, r->enabled ? "off" : "on");
	tui_snapshot(t);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Delete: remove the selected probe (its stream first: the kernel keeps a
 * probe that is in use). */
static int
probes_delete(struct probes_pane *p, struct tui *t)
{
	const struct probes_row *r = table_selected(&p->list.table);
	struct tt_err err;
	char name[256];
	int i;

	if (r == NULL || !r->ours || (i = probes_find(t->probes, r->name)) < 0) {
		tui_status(t, false, "select one of tracetop's probes (others' are read-only)");
		return REACT_HANDLED | REACT_REDRAW;
	}
	snprintf(name, sizeof name, "%s", r->name);
	probes_stream_forget(p, name);
	if (engine_trace_enabled(t->engine, name))
		engine_trace_disable(t->engine, name, &err);
	if (probes_remove(t->probes, (size_t)i, &err) != 0)
		tui_status(t, true, "%s", err.msg);
	else
		tui_status(t, false, "removed %s", name);
	tui_snapshot(t);
	return REACT_HANDLED | REACT_REDRAW;
}

/* The function a probe row is on: its binary ("" for the kernel) and
 * name (or 0xOFFSET); false for other kinds or a probe inside it. */
static bool
probes_row_func(const struct probes_row *r, char *bin, size_t blen, char *func, size_t flen)
{
	const char *f = r->target, *colon, *plus;

	if (f == NULL)
		return false;
	if (r->kind == PROBE_UPROBE || r->kind == PROBE_URETPROBE) {
		if ((colon = strrchr(f, ':')) == NULL)
			return false;
		snprintf(bin, blen, "%.*s", (int)(colon - f), f);
		f = colon + 1;
	} else if (r->kind == PROBE_KPROBE || r->kind == PROBE_KRETPROBE) {
		bin[0] = '\0';
	} else {
		return false;
	}
	if ((plus = strchr(f, '+')) != NULL && strtoull(plus + 1, NULL, 0) != 0)
		return false;
	snprintf(func, flen, "%.*s", (int)strcspn(f, "+% "), f);
	return func[0] != '\0';
}

/* t: time the function of the dialogue (at its entry-or-return step) or
 * of the selected row. */
static int
probes_time(struct probes_pane *p, struct tui *t)
{
	const struct probes_row *r = table_selected(&p->list.table);
	char func[sizeof p->func];

	if (t->menu.active && p->step == STEP_WHEN) {
		menu_close(&t->menu);
		p->step = STEP_NONE;
		pane_latency_time(t, p->binary, p->func);
		return REACT_HANDLED | REACT_REDRAW;
	}
	menu_close(&t->menu);
	p->step = STEP_NONE;
	if (r == NULL || !probes_row_func(r, p->binary, sizeof p->binary, func, sizeof func)) {
		tui_status(t, false,
		           "select a kprobe or uprobe on a function's entry or return to "
		           "time that function");
		return REACT_HANDLED | REACT_REDRAW;
	}
	pane_latency_time(t, p->binary, func);
	return REACT_HANDLED | REACT_REDRAW;
}

/* The Enter menu of a row. */
static int
probes_row_menu(struct probes_pane *p, struct tui *t)
{
	const struct probes_row *r = table_selected(&p->list.table);
	char esc[128];

	if (r == NULL)
		return probes_where_menu(p, t);
	str_escape(esc, sizeof esc, r->name, strlen(r->name));
	p->step = STEP_ROW;
	listpane_menu_opened(&p->list);
	menu_open(&t->menu, esc);
	menu_add(&t->menu, MENU_TOGGLE, !r->ours, "Turn %s", r->enabled ? "off" : "on");
	menu_add(&t->menu, MENU_STREAM, !r->ours || engine_trace_enabled(t->engine, r->name),
	         "Stream its events in the Trace pane");
	menu_add(&t->menu, MENU_REMOVE, !r->ours,
	         r->kind == PROBE_TRACEPOINT ? "Stop counting it" : "Remove the probe");
	return REACT_HANDLED | REACT_REDRAW;
}

/* Act on an action. */
static int
probes_action(void *pp, struct tui *t, enum action a)
{
	struct probes_pane *p = pp;

	if (t->probes == NULL)
		return listpane_action(&p->list, t, a);
	switch (a) {
	case ACT_ADD:
		return probes_where_menu(p, t);
	case ACT_TOGGLE:
		return probes_toggle(p, t);
	case ACT_REMOVE:
		return probes_delete(p, t);
	case ACT_ENTER:
		return probes_row_menu(p, t);
	case ACT_TIME_FUNC:
		return probes_time(p, t);
	default:
		return listpane_action(&p->list, t, a);
	}
}

/* A menu choice: a step of the dialogue, a row's action, or the sort. */
static int
probes_menu(void *pp, struct tui *t, int id)
{
	struct probes_pane *p = pp;
	const struct probes_row *r = table_selected(&p->list.table);
	struct tt_err err;

	if (listpane_menu(&p->list, id) != REACT_IGNORED)
		return REACT_REDRAW;
	if (probes_insert_menu(p, t, id) != REACT_IGNORED)
		return REACT_REDRAW;
	if (r != NULL && id == MENU_TOGGLE)
		return probes_toggle(p, t);
	if (r != NULL && id == MENU_REMOVE)
		return probes_delete(p, t);
	if (r != NULL && id == MENU_STREAM) {
		probes_stream_forget(p, r->name);
		if (engine_trace_enable(t->engine, r->name, NULL, &err) != 0)
			tui_status(t, true, "%s", err.msg);
		else
			tui_status(t, false, "streaming %s in the Trace pane", r->name);
	}
	return REACT_REDRAW;
}

/* The dialogue's prompts, else the list's own. */
static int
probes_prompt(void *pp, struct tui *t, int result)
{
	struct probes_pane *p = pp;
	int r = probes_insert_prompt(p, t, result);

	return r != REACT_IGNORED ? r : listpane_prompt(&p->list, t, result);
}

const struct pane_ops pane_probes = {
    .name = "Probes",
    .listpane = true,
    .scope = SCOPE_PROBES,
    .view = VIEW_PROBES,
    .reads = PANE_READS_PROBES,
    .init = probes_init,
    .free = probes_free_pane,
    .update = probes_update,
    .draw = probes_draw,
    .action = probes_action,
    .mouse = listpane_pane_mouse,
    .prompt = probes_prompt,
    .menu = probes_menu,
    .pick = probes_pick,
};
