/* report: text and JSON renderings of a top snapshot. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/report-diff.h"
#include "tracetop/report.h"

/* The symbol column of an entry in a form, escaped. */
void
report_symbol(const struct hist_entry *e, enum sym_form form, char *buf, size_t len)
{
	const struct sym *s = e->key.sym;

	if (s != NULL && e->key.inlined) {
		size_t n = sym_format(s, form, buf, len);

		snprintf(buf + n, len - n, " (inlined)");
	} else if (s != NULL)
		sym_format(s, form, buf, len);
	else if (hist_key_other(&e->key))
		snprintf(buf, len, "%s", HIST_OTHER_NAME);
	else
		snprintf(buf, len, "[unknown] 0x%llx", (unsigned long long)e->key.addr);
}

/* The shared object column of an entry, escaped. */
void
report_dso(const struct hist_entry *e, char *buf, size_t len)
{
	const char *name = "[unknown]";

	if (e->key.dso != NULL)
		name = e->key.dso->kind == DSO_ELF ? e->key.dso->short_name : e->key.dso->name;
	str_escape(buf, len, name, strlen(name));
}

/* The command column of an entry, escaped. */
void
report_comm(const struct hist_entry *e, char *buf, size_t len)
{
	const char *c = e->key.comm ? e->key.comm : "[unknown]";

	str_escape(buf, len, c, strlen(c));
}

/* The cgroup column of an entry: its short name, escaped. */
void
report_cgroup(const struct hist_entry *e, char *buf, size_t len)
{
	const char *c = e->key.cgroup ? e->key.cgroup->name : "[unknown]";

	str_escape(buf, len, c, strlen(c));
}

/* The roots a row's call trees come from: the grouping's command, process
 * and thread (the engine splits the roots by pid or tid when the grouping
 * names one). */
void
report_cg_scope(const struct hist_row *r, unsigned group, struct cg_scope *sc)
{
	const struct hist_key *k = &r->entry->key;

	if (group == 0)
		group = HIST_GROUP_COMM;
	sc->comm = group & (HIST_GROUP_COMM | HIST_GROUP_PID | HIST_GROUP_TID) ? k->comm : NULL;
	sc->pid = group & (HIST_GROUP_PID | HIST_GROUP_TID) ? k->pid : 0;
	sc->tid = group & HIST_GROUP_TID ? k->tid : 0;
}

/* The call graph frame of an entry's function. */
struct cg_frame
report_cg_frame(const struct hist_entry *e)
{
	return (struct cg_frame){.dso = e->key.dso,
	                         .sym = e->key.sym,
	                         .addr = e->key.addr,
	                         .kernel = e->key.kernel,
	                         .inlined = e->key.inlined};
}

/* Samples per second of the refresh. */
static double
report_rate(const struct report_info *ri)
{
	return ri->seconds > 0 ? (double)ri->samples / ri->seconds : 0;
}

/* Caller levels -g text prints under a row by default, the callers shown
 * per level at most, and the default share under which a branch is left
 * out (perf's 0.5 %). */
#define REPORT_CHAIN_DEPTH 16
#define REPORT_CHAIN_FANOUT 8
#define REPORT_CHAIN_MIN 0.5

/* Print the callers under view node i, one level per indent, heaviest
 * first, perf --stdio style: "|--12.50%--caller"; prefix is the drawing
 * of the levels above. */
static void
report_chain_text(FILE *out, const struct report_info *ri, const struct cg_view *v, uint32_t i,
                  char *prefix, size_t plen, unsigned depth, double total)
{
	unsigned max = ri->chain_depth ? ri->chain_depth : REPORT_CHAIN_DEPTH;
	uint32_t kids[REPORT_CHAIN_FANOUT];
	size_t n = 0, hidden = 0;
	char name[512];

	for (uint32_t c = v->nodes[i].first_child; c != 0; c = v->nodes[c].next_sibling) {
		if (100.0 * v->nodes[c].total / total < REPORT_CHAIN_MIN)
			continue;
		if (n == REPORT_CHAIN_FANOUT)
			hidden++;
		else
			kids[n++] = c;
	}
	if (n > 0 && depth >= max) {
		fprintf(out, "%s`-- ... (--max-stack %u)\n", prefix, max);
		return;
	}
	for (size_t k = 0; k < n; k++) {
		bool last = k + 1 == n && hidden == 0;

		cg_view_name(&v->nodes[kids[k]], name, sizeof name);
		fprintf(out, "%s%s%.2f%%--%s\n", prefix, last ? "`--" : "|--",
		        100.0 * v->nodes[kids[k]].total / total, name);
		if (plen + 5 < 4 * REPORT_CHAIN_DEPTH * 2) {
			memcpy(prefix + plen, last ? "    " : "|   ", 5);
			report_chain_text(out, ri, v, kids[k], prefix, plen + 4, depth + 1, total);
			prefix[plen] = '\0';
		}
	}
	if (hidden > 0)
		fprintf(out, "%s`-- (%zu more callers)\n", prefix, hidden);
}

/* A row's callers as a tree under it (text with -g). */
static void
report_row_chains(FILE *out, const struct report_info *ri, const struct hist_row *r)
{
	struct cg_frame f = report_cg_frame(r->entry);
	char prefix[4 * REPORT_CHAIN_DEPTH * 2 + 16] = "            ", name[512];
	double total = cg_total(ri->cg);
	struct cg_view v = {0};
	struct cg_scope sc;

	report_cg_scope(r, ri->group, &sc);
	cg_callers_in(ri->cg, &sc, &f, &v);
	if (v.n > 1 && v.nodes[1].total > 0 && total > 0) {
		cg_view_name(&v.nodes[1], name, sizeof name);
		fprintf(out, "%s---%s\n", prefix, name);
		memcpy(prefix + 12, "   ", 4);
		/* no blank line after it: an empty line ends a refresh */
		report_chain_text(out, ri, &v, 1, prefix, 15, 0, total);
	}
	cg_view_free(&v);
}

/* The placeholder of a field the merged entries differ on. */
const char *
report_mixed_cell(const struct hist_row *r, unsigned field, char *buf, size_t len)
{
	static const struct {
		unsigned field;
		const char *one, *many;
	} what[] = {
	    {HIST_GROUP_COMM, "command", "commands"},
	    {HIST_GROUP_CGROUP, "cgroup", "cgroups"},
	    {HIST_GROUP_DSO, "object", "objects"},
	    {HIST_GROUP_SYM, "function", "functions"},
	};
	const uint32_t counts[] = {r->ncomm, r->ncgroup, r->ndso, r->nsym};

	if (!(r->mixed & field))
		return NULL;
	snprintf(buf, len, "-");
	for (size_t i = 0; i < ARRAY_SIZE(what); i++)
		if (what[i].field == field && counts[i] > 0)
			snprintf(buf, len, "(%u %s)", counts[i],
			         counts[i] == 1 ? what[i].one : what[i].many);
	return buf;
}

/* A row's kind marker. */
const char *
report_mark(const struct hist_row *r)
{
	if (r->mixed & HIST_MIXED_KIND)
		return "";
	return r->entry->key.kernel ? "[k]" : "[.]";
}

/* A column of a merged row: its text, or what its merged entries are when
 * they differ there (buf holds it). */
static const char *
report_mixed(const struct hist_row *r, unsigned field, const char *text, char *buf, size_t len)
{
	const char *m = report_mixed_cell(r, field, buf, len);

	return m != NULL ? m : text;
}

/* A row's change against the baseline. */
static struct diff_row
report_row_change(const struct report_info *ri, const struct hist_row *r, char *key, size_t len)
{
	diff_top_key(r->entry, ri->base->group, key, len);
	return diff_change(ri->base, DIFF_TOP, key, r->overhead, 0);
}

/* qsort_r order of row indices by their change, most gained first. */
static int
report_delta_cmp(const void *a, const void *b, void *arg)
{
	const double *d = arg;
	double x = d[*(const size_t *)a], y = d[*(const size_t *)b];

	return x != y ? (x < y ? 1 : -1) : CMP3(*(const size_t *)a, *(const size_t *)b);
}

/* The order rows print in: by their change with -s delta (a malloc'd
 * array of snap->n indices), else NULL: as sorted. */
static size_t *
report_order(const struct report_info *ri, const struct hist_snapshot *snap)
{
	size_t *ord;
	double *d;
	char key[8192];

	if (ri->base == NULL || !ri->sort_delta || snap->n == 0)
		return NULL;
	ord = xmalloc(snap->n * sizeof *ord);
	d = xmalloc(snap->n * sizeof *d);
	for (size_t i = 0; i < snap->n; i++) {
		ord[i] = i;
		d[i] = report_row_change(ri, &snap->rows[i], key, sizeof key).delta;
	}
	qsort_r(ord, snap->n, sizeof *ord, report_delta_cmp, d);
	free(d);
	return ord;
}

/* The baseline's rows that snap lacks (calls back with each one's
 * change and arg), in the baseline's order of shares. */
static void
report_gone(const struct report_info *ri, const struct hist_snapshot *snap,
            void (*fn)(void *arg, const struct report_info *ri, const struct diff_row *r),
            void *arg)
{
	struct diff_set cur = {0};
	struct diff_row *rows;
	size_t n;

	diff_set_add_top(&cur, snap, ri->base->group);
	diff_set_seal(&cur);
	n = diff_compare(ri->base, &cur, DIFF_TOP, &rows);
	for (size_t i = 0; i < n; i++)
		if (rows[i].status == DIFF_GONE)
			fn(arg, ri, &rows[i]);
	free(rows);
	diff_set_free(&cur);
}

/* A gone row as a text line: no share now, the fields its key has. */
static void
report_gone_text(void *arg, const struct report_info *ri, const struct diff_row *r)
{
	char comm[4096], pid[4096], dso[4096], sym[4096], delta[32], ratio[32];

	report_diff_top_fields(r->key, ri->base->group, comm, pid, dso, sym, sizeof comm);
	report_diff_cells(r, true, delta, sizeof delta, ratio, sizeof ratio);
	if (ri->cg != NULL)
		fprintf(arg, "%7.2f%% ", 0.0);
	fprintf(arg, "%7.2f%% %9d  %8s %7s  %-16s %7s  ", 0.0, 0, delta, ratio, comm, pid);
	if (ri->group & HIST_GROUP_TID)
		fprintf(arg, "%7s  ", "-");
	if (ri->cgroup)
		fprintf(arg, "%-16s ", "-");
	fprintf(arg, "%-24s [?] %s\n", dso, sym);
}

/* Print one refresh as a table. */
void
report_text(FILE *out, const struct report_info *ri, const struct hist_snapshot *snap)
{
	char comm[64], cgroup[256], dso[256], sym[4096], pid[16], m1[32], m2[32];
	bool tid = ri->group & HIST_GROUP_TID;
	size_t i, n = snap->n, *ord = report_order(ri, snap);

	if (ri->max_rows && n > ri->max_rows)
		n = ri->max_rows;
	fprintf(out,
	        "event: %s  samples/s: %.0f  samples: %llu  lost: %llu (total %llu)  target: %s\n",
	        ri->event, report_rate(ri), (unsigned long long)ri->samples,
	        (unsigned long long)ri->lost, (unsigned long long)ri->total_lost, ri->target);
	if (ri->notice != NULL)
		fprintf(out, "note: %s\n", ri->notice);
	if (ri->engine != NULL)
		fprintf(out, "engine: %s (%s)\n", ri->engine, ri->engine_why ? ri->engine_why : "");
	if (ri->cg != NULL)
		fprintf(out, "%8s ", "Children");
	fprintf(out, "%8s %9s  ", ri->cg ? "Self" : "Overhead", "Samples");
	if (ri->base != NULL)
		fprintf(out, "%8s %7s  ", "Delta", "Ratio");
	fprintf(out, "%-16s %7s  ", "Command", "PID");
	if (tid)
		fprintf(out, "%7s  ", "TID");
	if (ri->cgroup)
		fprintf(out, "%-16s ", "Cgroup");
	fprintf(out, "%-24s %s\n", "Shared Object", "Symbol");
	for (i = 0; i < n; i++) {
		const struct hist_row *r = &snap->rows[ord != NULL ? ord[i] : i];

		report_comm(r->entry, comm, sizeof comm);
		report_dso(r->entry, dso, sizeof dso);
		report_symbol(r->entry, SYM_FULL, sym, sizeof sym);
		if (ri->cg != NULL)
			fprintf(out, "%7.2f%% ", r->children);
		snprintf(pid, sizeof pid, "%d", r->entry->key.pid);
		fprintf(out, "%7.2f%% %9llu  ", r->overhead, (unsigned long long)r->samples);
		if (ri->base != NULL) {
			char key[8192], delta[32], ratio[32];
			struct diff_row d = report_row_change(ri, r, key, sizeof key);

			report_diff_cells(&d, true, delta, sizeof delta, ratio, sizeof ratio);
			fprintf(out, "%8s %7s  ", delta, ratio);
		}
		fprintf(out, "%-16s %7s  ", report_mixed(r, HIST_GROUP_COMM, comm, m1, sizeof m1),
		        report_mixed(r, HIST_GROUP_PID, pid, m2, sizeof m2));
		if (tid)
			fprintf(out, "%7d  ", r->entry->key.tid);
		if (ri->cgroup) {
			report_cgroup(r->entry, cgroup, sizeof cgroup);
			fprintf(out, "%-16s ",
			        report_mixed(r, HIST_GROUP_CGROUP, cgroup, m1, sizeof m1));
		}
		fprintf(out, "%-24s %-3s %s\n", report_mixed(r, HIST_GROUP_DSO, dso, m1, sizeof m1),
		        report_mark(r), report_mixed(r, HIST_GROUP_SYM, sym, m2, sizeof m2));
		if (ri->cg != NULL && (ri->group & HIST_GROUP_SYM || ri->group == 0))
			report_row_chains(out, ri, r);
	}
	if (ri->base != NULL)
		report_gone(ri, snap, report_gone_text, out);
	free(ord);
	fputc('\n', out);
	fflush(out);
}

/* Write s as a JSON string: untrusted bytes escaped first, then JSON rules.
 * Whole: a long C++ name is not cut (escaping at most quadruples it). */
void
report_json_string(FILE *out, const char *s)
{
	size_t len = strlen(s);
	char stack[1024], *esc = len * 4 < sizeof stack ? stack : xmalloc(len * 4 + 1);
	const char *p;

	str_escape_json(esc, len * 4 + 1, s, len);
	fputc('"', out);
	for (p = esc; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputc('"', out);
	if (esc != stack)
		free(esc);
}

/* Write ,"key":"s" (s escaped), or nothing when s is NULL. */
void
report_json_member(FILE *out, const char *key, const char *s)
{
	if (s == NULL)
		return;
	fprintf(out, ",\"%s\":", key);
	report_json_string(out, s);
}

/* Most caller chains shown per JSON row. */
#define REPORT_MAX_CHAINS 5

/* Collect the paths of a callers view from node i up to the outermost
 * frames: each view leaf ends one chain, weighted by its total. */
static void
report_chain_walk(const struct cg_view *v, uint32_t i, uint32_t *path, size_t depth,
                  uint32_t chains[][64], size_t *lens, double *weights, size_t *nchains)
{
	const struct cg_view_node *nd = &v->nodes[i];

	if (depth < 64)
		path[depth++] = i;
	if (nd->first_child == 0 || depth == 64) {
		size_t k = *nchains;

		if (k == REPORT_MAX_CHAINS) { /* replace the lightest if heavier */
			size_t min = 0;

			for (size_t j = 1; j < k; j++)
				if (weights[j] < weights[min])
					min = j;
			if (weights[min] >= nd->total)
				return;
			k = min;
		} else {
			(*nchains)++;
		}
		memcpy(chains[k], path, depth * sizeof *path);
		lens[k] = depth;
		weights[k] = nd->total;
		return;
	}
	for (uint32_t c = nd->first_child; c != 0; c = v->nodes[c].next_sibling)
		report_chain_walk(v, c, path, depth, chains, lens, weights, nchains);
}

/* The row's heaviest caller chains: "chains":[{"percent":P,"frames":[...]}]
 * with the function first and its outermost caller last. */
static void
report_json_chains(FILE *out, const struct callgraph *cg, const struct hist_row *r, unsigned group)
{
	struct cg_frame f = report_cg_frame(r->entry);
	struct cg_scope sc;
	uint32_t chains[REPORT_MAX_CHAINS][64], path[64];
	size_t lens[REPORT_MAX_CHAINS], order[REPORT_MAX_CHAINS], n = 0;
	double weights[REPORT_MAX_CHAINS], total = cg_total(cg);
	struct cg_view v = {0};
	char name[4096];

	fprintf(out, ",\"self\":%.2f,\"children\":%.2f,\"chains\":[", r->overhead, r->children);
	report_cg_scope(r, group, &sc);
	cg_callers_in(cg, &sc, &f, &v);
	if (v.n > 1 && v.nodes[1].total > 0) /* absent (folded away): no chains */
		report_chain_walk(&v, 1, path, 0, chains, lens, weights, &n);
	for (size_t c = 0; c < n; c++) { /* heaviest first */
		size_t j = c;

		while (j > 0 && weights[order[j - 1]] < weights[c]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = c;
	}
	for (size_t i = 0; i < n; i++) {
		size_t c = order[i];

		fprintf(out, "%s{\"percent\":%.2f,\"frames\":[", i ? "," : "",
		        total > 0 ? 100.0 * weights[c] / total : 0.0);
		for (size_t k = 0; k < lens[c]; k++) {
			cg_view_name(&v.nodes[chains[c][k]], name, sizeof name);
			if (k)
				fputc(',', out);
			report_json_string(out, name);
		}
		fputs("]}", out);
	}
	fputc(']', out);
	cg_view_free(&v);
}

/* One refresh of folded stacks, then an empty line between refreshes. */
void
report_folded(FILE *out, const struct report_info *ri)
{
	if (ri->cg != NULL)
		cg_print_folded(ri->cg, out);
	fputc('\n', out);
	fflush(out);
}

/* Where gone rows go in a JSON array: whether one is its first item. */
struct report_json_gone {
	FILE *out;
	bool first;
};

/* A gone row as a JSON object after the others. */
static void
report_gone_json(void *arg, const struct report_info *ri, const struct diff_row *r)
{
	char comm[4096], pid[4096], dso[4096], sym[4096];
	struct report_json_gone *g = arg;
	FILE *out = g->out;

	report_diff_top_fields(r->key, ri->base->group, comm, pid, dso, sym, sizeof comm);
	fputs(g->first ? "{\"overhead\":0.00,\"samples\":0" : ",{\"overhead\":0.00,\"samples\":0",
	      out);
	g->first = false;
	report_json_member(out, "comm", comm);
	report_json_member(out, "dso", dso);
	report_json_member(out, "symbol", sym);
	report_diff_json_members(out, r, "pct");
	fputc('}', out);
}

/* Print one refresh as a JSON object on one line. */
void
report_json(FILE *out, const struct report_info *ri, const struct hist_snapshot *snap)
{
	size_t i, n = snap->n, *ord = report_order(ri, snap);

	if (ri->max_rows && n > ri->max_rows)
		n = ri->max_rows;
	fputs("{\"view\":\"top\",\"event\":", out);
	report_json_string(out, ri->event);
	report_json_member(out, "requested_event", ri->requested);
	report_json_member(out, "notice", ri->notice);
	report_json_member(out, "target", ri->target);
	report_json_member(out, "engine", ri->engine);
	report_json_member(out, "engine_why", ri->engine_why);
	fprintf(out,
	        ",\"time\":%.3f,\"interval\":%.3f,\"samples\":%llu,\"samples_per_sec\":%.1f,"
	        "\"lost\":%llu,\"total_samples\":%llu,\"total_lost\":%llu",
	        ri->wall, ri->seconds, (unsigned long long)ri->samples, report_rate(ri),
	        (unsigned long long)ri->lost, (unsigned long long)ri->total_samples,
	        (unsigned long long)ri->total_lost);
	if (ri->group != 0) {
		char g[64];

		report_json_member(out, "group", hist_group_name(ri->group, g, sizeof g));
	}
	fputs(",\"rows\":[", out);
	for (i = 0; i < n; i++) {
		const struct hist_row *r = &snap->rows[ord != NULL ? ord[i] : i];
		const struct hist_entry *e = r->entry;
		const char *dso = "[unknown]";

		if (e->key.dso != NULL)
			dso = e->key.dso->name;
		fprintf(out, "%s{\"overhead\":%.2f,\"samples\":%llu,\"comm\":", i ? "," : "",
		        r->overhead, (unsigned long long)r->samples);
		report_json_string(out, e->key.comm ? e->key.comm : "[unknown]");
		fprintf(out, ",\"pid\":%d", e->key.pid);
		if (r->procs > 1) /* merged: pid is the most sampled one's */
			fprintf(out, ",\"processes\":%u", r->procs);
		/* merged from several: the fields are the most sampled one's */
		if (r->ncomm > 1)
			fprintf(out, ",\"commands\":%u", r->ncomm);
		if (r->ncgroup > 1)
			fprintf(out, ",\"cgroups\":%u", r->ncgroup);
		if (r->ndso > 1)
			fprintf(out, ",\"objects\":%u", r->ndso);
		if (r->nsym > 1)
			fprintf(out, ",\"functions\":%u", r->nsym);
		if (ri->group & HIST_GROUP_TID)
			fprintf(out, ",\"tid\":%d", e->key.tid);
		if (e->key.cgroup != NULL) {
			report_json_member(out, "cgroup", e->key.cgroup->name);
			report_json_member(out, "cgroup_path", e->key.cgroup->path);
		}
		fputs(",\"dso\":", out);
		report_json_string(out, dso);
		fputs(",\"symbol\":", out);
		report_json_string(out, hist_sym_name(e));
		if (e->key.sym != NULL && strcmp(e->key.sym->name, hist_sym_name(e)) != 0)
			report_json_member(out, "raw", e->key.sym->name);
		if (hist_key_other(&e->key))
			fputs(",\"other\":true", out);
		else if (e->key.sym == NULL)
			fprintf(out, ",\"offset\":%llu", (unsigned long long)e->key.addr);
		if (e->key.inlined)
			fputs(",\"inlined\":true", out);
		fprintf(out, ",\"kernel\":%s", e->key.kernel ? "true" : "false");
		if (ri->cg != NULL)
			report_json_chains(out, ri->cg, r, ri->group);
		if (ri->base != NULL) {
			char key[8192];
			struct diff_row d = report_row_change(ri, r, key, sizeof key);

			report_diff_json_members(out, &d, "pct");
		}
		fputc('}', out);
	}
	if (ri->base != NULL) {
		struct report_json_gone g = {.out = out, .first = n == 0};

		report_gone(ri, snap, report_gone_json, &g);
	}
	free(ord);
	fputs("]}\n", out);
	fflush(out);
}
