/* cntpick: the Counters pane's event catalog and typed specs. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/evspec.h"
#include "tracetop/util.h"
#include "ui/cntpick.h"
#include "ui/prompt.h"

/* The catalog being read: what counts here, and the others aside. */
struct cntpick {
	char **ok, **not ;
	size_t nok, okcap, nnot, notcap;
};

/* Collect one catalog event: those this machine counts (no note) in ok,
 * the others in not with why. */
static void
cntpick_event(void *arg, const char *name, const char *alias, const char *note)
{
	struct cntpick *c = arg;

	(void)alias;
	if (*note == '\0')
		names_push(&c->ok, &c->nok, &c->okcap, xstrdup(name));
	else
		names_push(
		    &c->not, &c->nnot, &c->notcap,
		    xasprintf("%s  %s", name,
		              strcmp(note, "[not supported]") == 0
		                  ? "[not supported: the kernel has no PMU event for it here]"
		                  : note));
}

/* Sections are titled in --list-events; the picker needs only the events. */
static void
cntpick_message(void *arg, const char *text)
{
	(void)arg;
	(void)text;
}

/* Software events, then what else this machine counts, tracepoints, and
 * last what it cannot. */
char **
cntpick_catalog(size_t *n, size_t *supported)
{
	static const enum evspec_section order[] = {EVSPEC_SOFTWARE, EVSPEC_HARDWARE, EVSPEC_CACHE,
	                                            EVSPEC_TRACEPOINT};
	struct cntpick c = {0};
	const struct evspec_visitor v = {cntpick_event, cntpick_message, &c};

	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		evspec_catalog(order[i], &v);
	*supported = c.nok;
	for (size_t i = 0; i < c.nnot; i++)
		names_push(&c.ok, &c.nok, &c.okcap, c.not [i]);
	free(c.not );
	*n = c.nok;
	return c.ok;
}

/* The event parser's word on a typed spec. */
bool
cntpick_typed(void *ctx, const char *text, char *why, size_t len)
{
	struct evspec spec;
	struct tt_err err;
	char esc[PROMPT_MAX * 4];

	(void)ctx;
	if (evspec_parse(text, &spec, &err) == 0)
		return true;
	str_escape(esc, sizeof esc, text, strlen(text));
	snprintf(why, len, "nothing matches '%s', and as an event: %s", esc, err.msg);
	return false;
}
