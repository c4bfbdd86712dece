/* batch-annotate: --annotate SYMBOL, the batch twin of the Annotate pane. */
#include "config.h"

#include <string.h>

#include "tracetop/annotate.h"
#include "tracetop/batch.h"
#include "tracetop/report-annotate.h"
#include "tracetop/sym-name.h"

/* Rows of a real (not inlined) function called name. */
static bool
batch_annotate_match(const struct hist_entry *en, void *name)
{
	return en->key.sym != NULL && !en->key.inlined && sym_matches(en->key.sym, name);
}

/* Print the annotation of the hottest function called o->annotate, or
 * say why there is none. */
int
batch_annotate(struct engine *e, const struct options *o, FILE *out)
{
	static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	struct hist_snapshot snap = {0};
	struct annotation *a = NULL;
	char name[256];
	struct tt_err err;
	size_t ev;
	int status = 1;

	str_escape(name, sizeof name, o->annotate, strlen(o->annotate));
	for (ev = 0; ev < engine_nevents(e); ev++) {
		engine_snapshot(e, ev, by_overhead, batch_annotate_match, (void *)o->annotate,
		                &snap);
		if (snap.n > 0)
			break;
	}
	if (snap.n == 0) {
		fprintf(stderr,
		        "tracetop: --annotate %s: no sample landed in a function of that "
		        "name (a raw or demangled name: see NAMES in tracetop(1))\n",
		        name);
	} else if ((a = annotate_new(snap.rows[0].entry->key.dso, snap.rows[0].entry->key.sym,
	                             snap.rows[0].entry->key.kernel, &err)) == NULL) {
		fprintf(stderr, "tracetop: --annotate %s: %s\n", name, err.msg);
	} else {
		annotate_update(a, engine_addrhist(e, ev));
		if (o->format == FORMAT_JSON)
			report_annotate_json(out, a);
		else
			report_annotate_text(out, a);
		status = ferror(out) ? 1 : 0;
	}
	annotate_free(a);
	hist_snapshot_free(&snap);
	return status;
}
