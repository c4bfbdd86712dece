/* batch-annotate: --annotate SYMBOL, the batch twin of the Annotate pane. */
#include "config.h"

#include <string.h>

#include "tracetop/annotate.h"
#include "tracetop/batch.h"
#include "tracetop/frame.h"
#include "tracetop/report-annotate.h"
#include "tracetop/sym-name.h"

/* The hottest row of a real (not inlined) function called name in the
 * frame (rows as -s groups them), or NULL; its event in *ev. */
static const struct hist_entry *
batch_annotate_find(const struct frame *f, const char *name, size_t *ev)
{
	const struct hist_entry *best = NULL;

	for (size_t i = 0; i < f->sampling.nevents && best == NULL; i++) {
		const struct hist_snapshot *rows = &f->sampling.events[i].rows;

		for (size_t k = 0; k < rows->n; k++) {
			const struct hist_entry *en = rows->rows[k].entry;

			if (en->key.sym == NULL || en->key.inlined ||
			    !sym_matches(en->key.sym, name))
				continue;
			if (best == NULL || en->score > best->score) {
				best = en;
				*ev = i;
			}
		}
	}
	return best;
}

/* Print the annotation of the hottest row of a function called
 * o->annotate in the last frame (only that row's samples: its command's
 * by default, its process's with -s pid), or say why there is none. */
int
batch_annotate(const struct frame *f, const struct options *o, FILE *out)
{
	struct annotation *a = NULL;
	const struct hist_entry *en;
	struct addrhist_who who;
	char name[256];
	struct tt_err err;
	size_t ev = 0;
	int status = 1;

	str_escape(name, sizeof name, o->annotate, strlen(o->annotate));
	en = batch_annotate_find(f, o->annotate, &ev);
	if (en == NULL) {
		fprintf(stderr,
		        "tracetop: --annotate %s: no sample landed in a function of that "
		        "name (a raw or demangled name: see NAMES in tracetop(1))\n",
		        name);
	} else if ((a = annotate_new(en->key.dso, en->key.sym, en->key.kernel, &err)) == NULL) {
		fprintf(stderr, "tracetop: --annotate %s: %s\n", name, err.msg);
	} else {
		const struct addrhist_sym *hs;

		addrhist_who_of(&en->key, &who);
		annotate_set_row(a, o->group, &who);
		hs = frame_annot(f, ev, en->key.dso, en->key.sym, o->group, &who);
		/* a recording holds the whole function's samples, not a row's */
		if (hs == NULL && en->key.dso->standin &&
		    (hs = frame_annot(f, ev, en->key.dso, en->key.sym, 0, NULL)) != NULL)
			annotate_set_row(a, 0, &who);
		annotate_update(a, hs);
		if (o->format == FORMAT_JSON)
			report_annotate_json(out, a);
		else
			report_annotate_text(out, a);
		status = ferror(out) ? 1 : 0;
	}
	annotate_free(a);
	return status;
}
