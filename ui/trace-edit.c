/* trace-edit: kernel filters, the tracepoint catalog and typed tracepoints
 * for the Trace pane. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tracetop/engine.h"
#include "tracetop/evspec.h"
#include "tracetop/util.h"
#include "ui/trace-edit.h"
#include "ui/tui.h"

/* Open the filter prompt. */
int
trace_kfilter_open(struct trace_kfilter *k, struct tui *t, const char *event)
{
	const char *filter;

	if (event == NULL || !engine_trace_enabled(t->engine, event)) {
		tui_status(t, false, "select a row of a tracepoint that is on to filter it");
		return REACT_HANDLED | REACT_REDRAW;
	}
	filter = engine_trace_filter(t->engine, event);
	if (filter != NULL && strlen(filter) >= PROMPT_MAX) {
		tui_status(t, true, "the filter of %s is too long to edit here (%zu bytes)", event,
		           strlen(filter));
		return REACT_HANDLED | REACT_REDRAW;
	}
	snprintf(k->event, sizeof k->event, "%s", event);
	snprintf(k->label, sizeof k->label, "Kernel filter of %s (empty clears): ", event);
	k->open = true;
	t->prompt_owner = (int)t->cur;
	prompt_open(&t->prompt, k->label, filter != NULL ? filter : "");
	return REACT_HANDLED | REACT_REDRAW;
}

/* The filter prompt's answer (the old filter stays when refused). */
void
trace_kfilter_done(struct trace_kfilter *k, struct tui *t, int result)
{
	const char *f = t->prompt.text;
	struct tt_err err;

	if (result == PROMPT_CANCEL || result == PROMPT_DONE)
		k->open = false;
	if (result != PROMPT_DONE)
		return;
	if (engine_trace_set_filter(t->engine, k->event, f, &err) != 0)
		tui_status(t, true, "%s", err.msg);
	else if (*f == '\0')
		tui_status(t, false, "%s: no kernel filter", k->event);
	else
		tui_status(t, false, "%s filtered in the kernel: %s", k->event, f);
}

/* Whether a name typed into the checklist is a tracepoint (one made since
 * the list was read, say), and if not the event parser's reason. */
bool
trace_typed(void *ctx, const char *text, char *why, size_t len)
{
	struct evspec spec;
	struct tt_err err;
	char esc[PROMPT_MAX * 4];

	(void)ctx;
	str_escape(esc, sizeof esc, text, strlen(text));
	if (evspec_parse(text, &spec, &err) != 0)
		snprintf(why, len, "nothing matches '%s', and as a tracepoint: %s", esc, err.msg);
	else if (spec.attr.type != PERF_TYPE_TRACEPOINT)
		snprintf(why, len,
		         "nothing matches '%s': it is an event, not a tracepoint (count it in the "
		         "Counters pane)",
		         esc);
	else
		return true;
	return false;
}

/* The catalog being collected, and the screen that says why it is empty. */
struct trace_catalog {
	char **v;
	size_t n, cap;
	struct tui *t;
};

/* Collect one tracepoint of the catalog. */
static void
trace_catalog_event(void *arg, const char *name, const char *alias, const char *note)
{
	struct trace_catalog *c = arg;

	(void)alias;
	(void)note;
	names_push(&c->v, &c->n, &c->cap, xstrdup(name));
}

/* Why the catalog is empty, on the status line. */
static void
trace_catalog_message(void *arg, const char *text)
{
	struct trace_catalog *c = arg;

	tui_status(c->t, true, "%s", text);
}

/* Every tracepoint's name, read again each time (probes made since are
 * tracepoints too), for a picker: n of them (0: the status line says
 * why); names_free them. */
char **
pane_trace_catalog(struct tui *t, size_t *n)
{
	struct trace_catalog c = {.t = t};
	const struct evspec_visitor v = {trace_catalog_event, trace_catalog_message, &c};

	evspec_catalog(EVSPEC_TRACEPOINT, &v);
	*n = c.n;
	return c.v;
}
