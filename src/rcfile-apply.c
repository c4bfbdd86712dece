/* rcfile-apply: the setup file's settings that the command line could also
 * give, put into the options before the sources open (apart from
 * rcfile.c, which needs no event parser). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/counters.h"
#include "tracetop/evspec.h"
#include "tracetop/options.h"
#include "tracetop/rcfile.h"

/* The counters of the file, each spec checked (bad ones reported). */
static void
rc_apply_counters(const char *list, unsigned line, struct options *o, rcfile_report report,
                  void *arg)
{
	char *copy = xstrdup(list), *save = NULL;

	for (char *name = strtok_r(copy, ",", &save); name != NULL;
	     name = strtok_r(NULL, ",", &save)) {
		struct evspec spec;
		struct tt_err err;

		if (evspec_parse(name, &spec, &err) != 0) {
			if (report != NULL)
				report(arg, line, err.msg);
			continue;
		}
		o->counters = xrealloc(o->counters, (o->ncounters + 1) * sizeof *o->counters);
		o->counters[o->ncounters++] = xstrdup(name);
	}
	free(copy);
}

/* Apply what the command line left alone. */
void
rcfile_apply_options(const struct rcfile *c, struct options *o, rcfile_report report, void *arg)
{
	unsigned line;
	const char *v;
	int s;

	if ((v = rcfile_get(c, "delay", NULL)) != NULL && !o->delay_given)
		parse_double(v, &o->delay);
	if (!o->zero)
		o->zero = rcfile_get_bool(c, "zero", false);
	if ((v = rcfile_get(c, "counters", &line)) != NULL && o->ncounters == 0)
		rc_apply_counters(v, line, o, report, arg);
	if ((v = rcfile_get(c, "counters_scope", NULL)) != NULL && !o->counters_scope_given &&
	    (s = counters_scope_parse(v)) >= 0) {
		o->counters_scope = (enum counters_scope)s;
		o->counters_scopes = 1u << s;
	}
}
