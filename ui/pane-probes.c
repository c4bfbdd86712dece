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

static const struct table_col probes_cols[PCOL_COUNT] = {
    [PCOL_NAME] = {.title = "Name", .width = 36, .min_width = 10, .priority = 9, .sortable = true},
    [PCOL_KIND] = {.title = "Kind", .width = 10, .min_width = 6, .priority = 7, .sortable = true},
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
                   .sortable = true},
    [PCOL_RATE] = {.title = "Per second",
                   .width = 10,
                   .min_width = 6,
                   .priority = 4,
                   .right = true,
                   .sortable = true},
    [PCOL_STATE] = {.title = "State", .width = 8, .min_width = 4, .priority = 5, .sortable = true},
};

/* Where the insert dialogue is. */
enum probes_step {
	STEP_NONE,
	STEP_WHERE,  /* menu: kernel, binary, a target's objects */
	STEP_KFUNC,  /* picker: kernel functions */
	STEP_BINARY, /* prompt: a binary's path */
	STEP_PID,    /* prompt: a process whose objects to offer */
	STEP_OBJECT, /* picker: a target's objects */
	STEP_UFUNC,  /* picker: the binary's functions */
	STEP_WHEN,   /* menu: entry or return */
	STEP_ARGS,   /* prompt: arguments */
	STEP_ROW,    /* the Enter menu of a row */
};

enum probes_menu_id {
	MENU_KERNEL,
	MENU_BINARY,
	MENU_OBJECTS, /* + index of the target pid */
	MENU_PID = 50,
	MENU_ENTRY = 100,
	MENU_RETURN,
	MENU_TOGGLE = 200,
	MENU_REMOVE,
	MENU_STREAM,
};

struct probes_pane {
	struct listpane list;               /* first: the listpane_pane_* ops take the pane as it */
	const struct probes_snapshot *snap; /* the frame's rows shown, or NULL */
	const struct probes_row **ptrs;
	size_t cap;
	enum probes_step step;
	char **names; /* the picker's items */
	size_t nnames;
	char binary[4096]; /* the binary being probed, "" for the kernel */
	int object_pid;    /* whose objects the object picker lists */
	char func[512];    /* the function chosen: its raw name */
	bool ret;          /* %return */
	char label[192];   /* the open prompt's label (the prompt keeps a pointer) */
	struct tui *tui;
	/* the probes streamed because the Trace pane is seen (interned
	 * names), stopped when it is not */
	const char **streamed;
	size_t nstreamed;
	bool trace_seen; /* the Trace pane is seen: new rows stream too */
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

/* Drop the picker's items. */
static void
probes_names_drop(struct probes_pane *p)
{
	names_free(p->names, p->nnames);
	p->names = NULL;
	p->nnames = 0;
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

	if (t->probes == NULL)
		return;
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
	if (t->probes == NULL) {
		listpane_message(win, y + h / 2, x, w, "Probes are not available", &t->theme);
		return;
	}
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

/* Open a picker over p->names for step. */
static int
probes_picker(struct probes_pane *p, struct tui *t, enum probes_step step, const char *title)
{
	if (p->nnames == 0) {
		tui_status(t, true, "nothing to pick from");
		p->step = STEP_NONE;
		return REACT_HANDLED | REACT_REDRAW;
	}
	p->step = step;
	picker_open(&t->picker, title, (const char *const *)p->names, p->nnames);
	t->picker_owner = (int)t->cur;
	return REACT_HANDLED | REACT_REDRAW;
}

/* Offer the objects process pid maps executable, to pick one. */
static int
probes_pick_object(struct probes_pane *p, struct tui *t, int pid)
{
	struct tt_err err;

	probes_names_drop(p);
	p->object_pid = pid;
	if ((p->names = probe_process_objects(pid, &p->nnames, &err)) == NULL) {
		tui_status(t, true, "%s", err.msg);
		p->step = STEP_NONE;
		return REACT_HANDLED | REACT_REDRAW;
	}
	return probes_picker(p, t, STEP_OBJECT, "Object");
}

/* Load the function names of p->binary and pick one. */
static int
probes_pick_ufunc(struct probes_pane *p, struct tui *t)
{
	struct tt_err err;
	char title[96], esc[64];

	probes_names_drop(p);
	if ((p->names = probe_binary_functions(p->binary, &p->nnames, &err)) == NULL) {
		tui_status(t, true, "%s", err.msg);
		p->step = STEP_NONE;
		return REACT_HANDLED | REACT_REDRAW;
	}
	str_escape(esc, sizeof esc, p->binary, strlen(p->binary));
	snprintf(title, sizeof title, "Function of %s", esc);
	return probes_picker(p, t, STEP_UFUNC, title);
}

/* Under the entry-or-return choice, what a probe there can read (like
 * perf probe -V): each visible variable and its fetch-arg, as disabled
 * items, so the arguments can be typed by name next. */
static void
probes_vars_items(struct probes_pane *p, struct tui *t)
{
	struct probe_ctx ctx = {0};
	struct probe_spec spec;
	struct probe_vars vars = {0};
	struct tt_err err;
	char line[sizeof p->binary + sizeof p->func + 8], *what = NULL, name[64], fetch[96];
	size_t shown = 0;

	if (t->opts != NULL)
		ctx = (struct probe_ctx){t->opts->argv, t->opts->pids, t->opts->npids};
	if (probe_spec_target(line, sizeof line, p->binary, p->func, &err) != 0 ||
	    probe_spec_parse(line, &spec, &err) != 0)
		return;
	if (probe_vars_get(&spec, &ctx, &vars, &what, &err) != 0) {
		menu_add(&t->menu, -1, true, "(no variable listing: %.60s)", err.msg);
	} else {
		for (size_t i = 0; i < vars.n && shown < MENU_MAX_ITEMS - 3; i++, shown++) {
			const struct probe_var *v = &vars.v[i];

			str_escape(name, sizeof name, v->name, strlen(v->name));
			str_escape(fetch, sizeof fetch,
			           v->fetch ? v->fetch
			           : v->why ? v->why
			                    : "",
			           strlen(v->fetch ? v->fetch
			                  : v->why ? v->why
			                           : ""));
			menu_add(&t->menu, -1, true, "  %s%s = %s", v->param ? "" : "(local) ",
			         name, fetch);
		}
		if (vars.n > shown)
			menu_add(&t->menu, -1, true, "  ... %zu more (--probe-vars lists all)",
			         vars.n - shown);
	}
	free(what);
	probe_vars_free(&vars);
	probe_spec_free(&spec);
}

/* p->func (a raw name) for people, escaped: demangled and compact. */
static void
probes_func_shown(const struct probes_pane *p, const struct tui *t, char *buf, size_t len)
{
	char *full = symname_full(p->func), shown[sizeof p->func];

	if (full != NULL)
		symname_compact(full, t->theme.utf8, shown, sizeof shown);
	else
		snprintf(shown, sizeof shown, "%s", p->func);
	str_escape(buf, len, shown, strlen(shown));
	free(full);
}

/* The entry-or-return menu for p->func, with what a probe can read. */
static int
probes_when_menu(struct probes_pane *p, struct tui *t)
{
	char esc[96];

	probes_func_shown(p, t, esc, sizeof esc);
	p->step = STEP_WHEN;
	listpane_menu_opened(&p->list);
	menu_open(&t->menu, "Probe");
	menu_add(&t->menu, MENU_ENTRY, false, "At the entry of %s", esc);
	menu_add(&t->menu, MENU_RETURN, false, "At the return of %s (%%return, $retval)", esc);
	probes_vars_items(p, t);
	return REACT_HANDLED | REACT_REDRAW;
}

/* The first step: where to probe. */
static int
probes_where_menu(struct probes_pane *p, struct tui *t)
{
	struct tt_err err;
	const struct options *o = t->opts;
	bool kprobes = probe_kind_supported(PROBE_KPROBE, &err);

	p->step = STEP_WHERE;
	listpane_menu_opened(&p->list);
	menu_open(&t->menu, "Insert a probe");
	menu_add(&t->menu, MENU_KERNEL, !kprobes, "%s",
	         kprobes ? "A kernel function..."
	                 : "A kernel function (no kprobes in this kernel)");
	menu_add(&t->menu, MENU_BINARY, false, "A function of a binary (path)...");
	for (size_t i = 0; o != NULL && i < o->npids && i < 8; i++)
		menu_add(&t->menu, MENU_OBJECTS + (int)i, false,
		         "A function of process %d's objects...", o->pids[i]);
	menu_add(&t->menu, MENU_PID, false, "A function of any process's objects (its pid)...");
	return REACT_HANDLED | REACT_REDRAW;
}

/* Make the probe from the dialogue's answers: its hits are counted, its
 * events streamed while the Trace pane is seen. */
static void
probes_make(struct probes_pane *p, struct tui *t, const char *args)
{
	char spec[4800], target[sizeof p->binary + sizeof p->func + 8];
	struct tt_err err;
	int i;

	/* quoted where the names need it: the parser takes any path */
	if (probe_spec_target(target, sizeof target, p->binary, p->func, &err) != 0) {
		tui_status(t, true, "%s", err.msg);
		return;
	}
	snprintf(spec, sizeof spec, "%s%s%s%s", target, p->ret ? "%return" : "", args[0] ? " " : "",
	         args);
	if ((i = probes_add(t->probes, spec, NULL, &err)) < 0) {
		tui_status(t, true, "%s", err.msg);
		return;
	}
	tui_status(t, false, "probe %s made: hits counted here, events in the Trace pane",
	           probes_tracepoint(t->probes, (size_t)i));
	tui_snapshot(t);
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
	menu_add(&t->menu, MENU_REMOVE, !r->ours || r->kind == PROBE_TRACEPOINT,
	         "Remove the probe");
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
	if (id == MENU_KERNEL) {
		p->binary[0] = '\0';
		probes_names_drop(p);
		if ((p->names = probe_kernel_functions(&p->nnames, &err)) == NULL) {
			tui_status(t, true, "%s", err.msg);
			return REACT_REDRAW;
		}
		return probes_picker(p, t, STEP_KFUNC, "Kernel function");
	}
	if (id == MENU_BINARY) {
		p->step = STEP_BINARY;
		t->prompt_owner = (int)t->cur;
		prompt_open(&t->prompt, "Binary (path or name): ", "");
		return REACT_REDRAW;
	}
	if (id == MENU_PID) {
		p->step = STEP_PID;
		t->prompt_owner = (int)t->cur;
		prompt_open(&t->prompt, "Process id: ", "");
		return REACT_REDRAW;
	}
	if (id >= MENU_OBJECTS && id < MENU_PID && t->opts != NULL &&
	    (size_t)(id - MENU_OBJECTS) < t->opts->npids)
		return probes_pick_object(p, t, t->opts->pids[id - MENU_OBJECTS]);
	if (id == MENU_ENTRY || id == MENU_RETURN) {
		char esc[96];

		p->ret = id == MENU_RETURN;
		p->step = STEP_ARGS;
		probes_func_shown(p, t, esc, sizeof esc);
		snprintf(p->label, sizeof p->label, "Arguments of %s (optional, e.g. %s): ", esc,
		         p->ret ? "$retval" : "x=%di name:string");
		t->prompt_owner = (int)t->cur;
		prompt_open(&t->prompt, p->label, "");
		return REACT_REDRAW;
	}
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

/* A picker choice: a function (then entry or return), or an object (then
 * its functions). */
static int
probes_pick(void *pp, struct tui *t, size_t idx, bool toggled)
{
	struct probes_pane *p = pp;

	(void)toggled;
	if (idx >= p->nnames)
		return REACT_REDRAW;
	switch (p->step) {
	case STEP_KFUNC:
	case STEP_UFUNC: /* shown by its full name, probed by its raw one */
		snprintf(p->func, sizeof p->func, "%s", probe_function_raw(p->names[idx]));
		probes_names_drop(p);
		return probes_when_menu(p, t);
	case STEP_OBJECT: {
		/* a container's file, through its root */
		char *local = probe_local_path(p->object_pid, p->names[idx]);

		snprintf(p->binary, sizeof p->binary, "%s", local);
		free(local);
		return probes_pick_ufunc(p, t);
	}
	default:
		return REACT_REDRAW;
	}
}

/* The binary or arguments prompt (and the list's own prompts). */
static int
probes_prompt(void *pp, struct tui *t, int result)
{
	struct probes_pane *p = pp;

	if (p->step == STEP_BINARY) {
		if (result == PROMPT_DONE && t->prompt.text[0] != '\0') {
			snprintf(p->binary, sizeof p->binary, "%s", t->prompt.text);
			return probes_pick_ufunc(p, t);
		}
		if (result == PROMPT_DONE || result == PROMPT_CANCEL)
			p->step = STEP_NONE;
		return REACT_REDRAW;
	}
	if (p->step == STEP_PID) {
		int pid;

		if (result == PROMPT_DONE && parse_int(t->prompt.text, &pid) == 0 && pid > 0)
			return probes_pick_object(p, t, pid);
		if (result == PROMPT_DONE)
			tui_status(t, true, "not a process id: a positive number");
		if (result == PROMPT_DONE || result == PROMPT_CANCEL)
			p->step = STEP_NONE;
		return REACT_REDRAW;
	}
	if (p->step == STEP_ARGS) {
		if (result == PROMPT_DONE)
			probes_make(p, t, t->prompt.text);
		if (result == PROMPT_DONE || result == PROMPT_CANCEL)
			p->step = STEP_NONE;
		return REACT_REDRAW;
	}
	return listpane_prompt(&p->list, t, result);
}

/* From another pane (Top's "probe this function"): probe func of binary
 * ("" or NULL: the kernel), asking entry or return and the arguments here. */
void
pane_probes_insert(struct tui *t, const char *binary, const char *func)
{
	struct probes_pane *p = tui_pane_state(t, &pane_probes);

	if (p == NULL)
		return;
	tui_show_pane(t, &pane_probes);
	snprintf(p->binary, sizeof p->binary, "%s", binary ? binary : "");
	snprintf(p->func, sizeof p->func, "%s", func);
	probes_when_menu(p, t);
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
