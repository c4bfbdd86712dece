/* pane-probes-insert: the Probes pane's insert dialogue, a short one:
 * where (a kernel function, a binary's function, a function of a
 * target's objects) through pickers, entry or return, then optional
 * arguments; the probe's hits are then counted, its events streamed
 * while the Trace pane is seen. The Top pane's "probe this function"
 * joins it at the entry-or-return step. A tracepoint picked there is
 * only counted (a row's Enter menu streams it). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/probe.h"
#include "tracetop/sym-name.h"
#include "tracetop/util.h"
#include "ui/pane-probes-impl.h"
#include "ui/tui.h"

/* Drop the picker's items. */
void
probes_names_drop(struct probes_pane *p)
{
	names_free(p->names, p->nnames);
	p->names = NULL;
	p->nnames = 0;
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
	menu_add(&t->menu, MENU_TIME, false, "Time %s: entry and return, a latency histogram (t)",
	         esc);
	probes_vars_items(p, t);
	return REACT_HANDLED | REACT_REDRAW;
}

/* The first step: where to probe. */
int
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
	menu_add(&t->menu, MENU_TRACEPOINT, false, "A tracepoint (count its hits)...");
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

/* Offer every tracepoint, to count one. */
static int
probes_pick_tracepoint(struct probes_pane *p, struct tui *t)
{
	probes_names_drop(p);
	p->names = pane_trace_catalog(t, &p->nnames);
	return probes_picker(p, t, STEP_TRACEPOINT, "Tracepoint to count");
}

/* Count the hits of a tracepoint, as a row of ours. */
static void
probes_count_tracepoint(struct tui *t, const char *name)
{
	struct tt_err err;
	char esc[160];

	str_escape(esc, sizeof esc, name, strlen(name));
	if (probes_add_tracepoint(t->probes, name, &err) < 0) {
		tui_status(t, true, "cannot count %s: %s", esc, err.msg);
		return;
	}
	tui_status(t, false, "counting %s's hits here (Enter on it: stream its events)", esc);
	tui_snapshot(t);
}

/* A menu choice of the dialogue. */
int
probes_insert_menu(struct probes_pane *p, struct tui *t, int id)
{
	struct tt_err err;

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
	if (id == MENU_TRACEPOINT)
		return probes_pick_tracepoint(p, t);
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
	if (id == MENU_TIME) {
		pane_latency_time(t, p->binary, p->func);
		return REACT_REDRAW;
	}
	return REACT_IGNORED;
}

/* A picker choice: a function (then entry or return), or an object (then
 * its functions). */
int
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
	case STEP_TRACEPOINT: {
		char name[256];

		snprintf(name, sizeof name, "%s", p->names[idx]);
		probes_names_drop(p);
		p->step = STEP_NONE;
		probes_count_tracepoint(t, name);
		return REACT_REDRAW;
	}
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

/* The binary, pid or arguments prompt. */
int
probes_insert_prompt(struct probes_pane *p, struct tui *t, int result)
{
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
	return REACT_IGNORED;
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
