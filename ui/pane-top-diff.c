/* pane-top-diff: the Top pane's change of each row against a baseline
 * (B, --baseline), and the rows gone since, shown with 0 % now. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/report-diff.h"
#include "tracetop/util.h"
#include "ui/pane-top-impl.h"
#include "ui/tui.h"

/* Key the baseline by the grouping: projected when it has every field of
 * it, else as it is (rows are then keyed by the baseline's fields). */
static void
top_diff_cmp(struct top *p, const struct tui *t, unsigned group)
{
	unsigned want = (group & ~t->base->group) == 0 ? group : t->base->group;

	if (p->cmp != NULL && p->proj_seq == t->base_seq && p->cmp_group == want)
		return;
	diff_set_free(&p->proj);
	p->cmp = t->base;
	if (want != t->base->group) {
		diff_set_project(&p->proj, t->base, want);
		p->cmp = &p->proj;
	}
	p->cmp_group = want;
	p->proj_seq = t->base_seq;
}

/* Room for n rows and their changes (row pointers re-aimed at their copy). */
static void
top_diff_reserve(struct top *p, size_t n)
{
	if (p->rows.cap < n) {
		p->rows.cap = n;
		p->rows.rows = xrealloc(p->rows.rows, n * sizeof *p->rows.rows);
		for (size_t i = 0; i < p->rows.n; i++)
			p->rows.rows[i].entry = &p->rows.rows[i].copy;
	}
	if (p->diff_cap < n) {
		p->diff_cap = n;
		p->diff = xrealloc(p->diff, n * sizeof *p->diff);
	}
}

/* A row for gone key i of the cmp set: made-up object and symbol named
 * by the key's fields, the fields it lacks shown as "-". */
static void
top_diff_gone_row(struct top *p, const struct diff_item *it, size_t g)
{
	char comm[512], pid[64], dso[1024], sym[4096];
	struct hist_row *r = &p->rows.rows[p->rows.n];
	unsigned all = HIST_GROUP_COMM | HIST_GROUP_PID | HIST_GROUP_TID | HIST_GROUP_CGROUP |
	               HIST_GROUP_DSO | HIST_GROUP_SYM;

	report_diff_top_fields(it->key, p->cmp_group, comm, pid, dso, sym, sizeof comm);
	p->gone_dso[g] = (struct dso){.name = str_intern(dso), .kind = DSO_ANON};
	p->gone_dso[g].short_name = p->gone_dso[g].name;
	p->gone_sym[g] = (struct sym){.name = str_intern(sym)};
	p->gone_sym[g].dname = p->gone_sym[g].name;
	memset(r, 0, sizeof *r);
	r->copy.key = (struct hist_key){.comm = str_intern(comm),
	                                .pid = atoi(pid),
	                                .dso = &p->gone_dso[g],
	                                .sym = &p->gone_sym[g],
	                                .kernel = strcmp(dso, "[kernel.kallsyms]") == 0};
	r->entry = &r->copy;
	r->sym_name = p->gone_sym[g].name;
	r->mixed = all & ~p->cmp_group; /* members 0: gone */
	p->diff[p->rows.n] =
	    (struct diff_row){.status = DIFF_GONE, .base = it->value, .delta = -it->value};
	p->rows.n++;
}

/* Each row's change; the gone rows after them (not in a zoom: it keeps
 * only what it names, and the baseline's rows are not known that well). */
void
top_diff_rows(struct top *p, const struct tui *t)
{
	struct diff_set cur = {0};
	char key[8192];
	size_t gone = 0;

	p->cols[p->delta_col].hidden = p->cols[p->ratio_col].hidden = t->base == NULL;
	if (t->base == NULL) {
		p->cmp = NULL;
		return;
	}
	top_diff_cmp(p, t, p->tree.group);
	top_diff_reserve(p, p->rows.n);
	for (size_t i = 0; i < p->rows.n; i++) {
		diff_top_key(p->rows.rows[i].entry, p->cmp_group, key, sizeof key);
		p->diff[i] = diff_change(p->cmp, DIFF_TOP, key, p->rows.rows[i].overhead, 0);
		p->diff[i].key = NULL;
		diff_set_add(&cur, DIFF_TOP, key, 0, 0, 0);
	}
	if (top_zoom_active(&p->zoom))
		return diff_set_free(&cur);
	diff_set_seal(&cur);
	for (size_t i = 0; i < p->cmp->n[DIFF_TOP]; i++)
		gone += diff_set_find(&cur, DIFF_TOP, p->cmp->items[DIFF_TOP][i].key) == NULL;
	top_diff_reserve(p, p->rows.n + gone);
	if (p->gone_cap < gone) {
		/* the rows of earlier refreshes point at them: those are gone too */
		p->gone_cap = gone;
		p->gone_dso = xrealloc(p->gone_dso, gone * sizeof *p->gone_dso);
		p->gone_sym = xrealloc(p->gone_sym, gone * sizeof *p->gone_sym);
	}
	gone = 0;
	for (size_t i = 0; i < p->cmp->n[DIFF_TOP]; i++)
		if (diff_set_find(&cur, DIFF_TOP, p->cmp->items[DIFF_TOP][i].key) == NULL)
			top_diff_gone_row(p, &p->cmp->items[DIFF_TOP][i], gone++);
	diff_set_free(&cur);
}

/* The change of a row (by its place in rows). */
static const struct diff_row *
top_diff_of(const struct top *p, const struct hist_row *r)
{
	size_t i = (size_t)(r - p->rows.rows);

	return p->cmp != NULL && i < p->rows.n ? &p->diff[i] : NULL;
}

/* Delta or Ratio. */
void
top_diff_cell(const struct top *p, const struct hist_row *r, enum top_col kind, char *buf,
              size_t len)
{
	const struct diff_row *d = top_diff_of(p, r);
	char delta[32], ratio[32];

	if (d == NULL) {
		buf[0] = '\0';
		return;
	}
	report_diff_cells(d, true, delta, sizeof delta, ratio, sizeof ratio);
	snprintf(buf, len, "%s", kind == COL_DELTA ? delta : ratio);
}

/* By the change in points. */
int
top_diff_compare(const struct top *p, const struct hist_row *a, const struct hist_row *b)
{
	const struct diff_row *x = top_diff_of(p, a), *y = top_diff_of(p, b);

	if (x == NULL || y == NULL)
		return 0;
	return CMP3(x->delta, y->delta);
}

/* Free the baseline's state. */
void
top_diff_free(struct top *p)
{
	diff_set_free(&p->proj);
	free(p->diff);
	free(p->gone_dso);
	free(p->gone_sym);
}
