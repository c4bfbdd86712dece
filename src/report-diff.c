/* report-diff: text and JSON renderings of changes against a baseline. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/report-diff.h"
#include "tracetop/report.h"

/* What each kind's values are, for titles and JSON names. */
static const struct {
	const char *view;   /* JSON "view" of the kind's reports */
	const char *value;  /* the compared value, for people */
	const char *member; /* JSON: delta_MEMBER, base_MEMBER */
	const char *fields; /* text titles of a counters or latency key's fields */
} report_diff_kinds[DIFF_NKINDS] = {
    [DIFF_TOP] = {"top", "share, points of the total", "pct", NULL},
    [DIFF_COUNTERS] = {"counters", "per second (metrics: their value)", "rate", "Event  Scope"},
    [DIFF_LATENCY] = {"latency", "p50 (p99 after it), ns", "p50_ns", "Kind  Name  Command"},
};

/* A number in few characters: 12.3, 4.5K, 6.7M, 8.9G (signed with sign). */
static void
report_diff_short(double v, bool sign, char *buf, size_t len)
{
	static const char units[] = " KMGTP";
	double a = fabs(v);
	int u = 0;

	while (a >= 1000 && u < 5) {
		a /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, sign ? "%+.2f" : "%.2f", v);
	else
		snprintf(buf, len, "%s%.1f%c", v < 0 ? "-" : sign ? "+" : "", a, units[u]);
}

/* Delta and ratio cells. */
void
report_diff_cells(const struct diff_row *r, bool points, char *delta, size_t dlen, char *ratio,
                  size_t rlen)
{
	if (points)
		snprintf(delta, dlen, "%+.2f", r->delta);
	else
		report_diff_short(r->delta, true, delta, dlen);
	if (r->status != DIFF_SAME)
		snprintf(ratio, rlen, "%s", diff_status_name(r->status));
	else if (r->base != 0)
		snprintf(ratio, rlen, "x%.2f", r->ratio);
	else
		snprintf(ratio, rlen, "-");
}

/* Both cells in one: "DELTA RATIO". */
void
report_diff_text_cell(const struct diff_row *r, bool points, char *buf, size_t len)
{
	char delta[32], ratio[32];

	report_diff_cells(r, points, delta, sizeof delta, ratio, sizeof ratio);
	snprintf(buf, len, "%s %s", delta, ratio);
}

/* A change's JSON members. */
void
report_diff_json_members(FILE *out, const struct diff_row *r, const char *name)
{
	fprintf(out, ",\"status\":\"%s\",\"delta_%s\":%.2f,\"base_%s\":%.2f",
	        diff_status_name(r->status), name, r->delta, name, r->base);
	if (r->status == DIFF_SAME && r->base != 0)
		fprintf(out, ",\"ratio\":%.4f", r->ratio);
	else
		fputs(",\"ratio\":null", out);
}

/* A Top key's fields by name. */
void
report_diff_top_fields(const char *key, unsigned group, char *comm, char *pid, char *dso, char *sym,
                       size_t len)
{
	static const unsigned order[] = {HIST_GROUP_COMM,   HIST_GROUP_PID, HIST_GROUP_TID,
	                                 HIST_GROUP_CGROUP, HIST_GROUP_DSO, HIST_GROUP_SYM};
	char *out[] = {comm, pid, NULL, NULL, dso, sym};
	char skip[256];
	size_t f = 0;

	if (group == 0)
		group = HIST_GROUP_DEFAULT;
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		if (out[i] != NULL)
			snprintf(out[i], len, "-");
		if (!(group & order[i]))
			continue;
		if (out[i] != NULL)
			diff_key_field(key, f, out[i], len);
		else
			diff_key_field(key, f, skip, sizeof skip);
		f++;
	}
}

/* The text titles of a kind's key fields. */
static void
report_diff_titles(enum diff_kind k, unsigned group, char *buf, size_t len)
{
	static const struct {
		unsigned g;
		const char *title;
	} top[] = {{HIST_GROUP_COMM, "Command"},      {HIST_GROUP_PID, "PID"},
	           {HIST_GROUP_TID, "TID"},           {HIST_GROUP_CGROUP, "Cgroup"},
	           {HIST_GROUP_DSO, "Shared Object"}, {HIST_GROUP_SYM, "Symbol"}};
	size_t o = 0;

	buf[0] = '\0';
	if (k != DIFF_TOP) {
		snprintf(buf, len, "%s", report_diff_kinds[k].fields);
		return;
	}
	for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
		if ((group ? group : HIST_GROUP_DEFAULT) & top[i].g)
			o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? "  " : "",
			                      top[i].title);
}

/* A key for people: its fields two spaces apart. */
static void
report_diff_key_text(const char *key, char *buf, size_t len)
{
	size_t o = 0;

	for (const char *p = key; *p != '\0' && o + 3 < len; p++) {
		if (*p == '\t') {
			buf[o++] = ' ';
			buf[o++] = ' ';
		} else
			buf[o++] = *p;
	}
	buf[o] = '\0';
}

/* One kind's rows as a table. */
static void
report_diff_text_kind(FILE *out, const struct diff_set *base, const struct diff_set *cur,
                      enum diff_kind k)
{
	struct diff_row *rows;
	size_t n = diff_compare(base, cur, k, &rows);
	char titles[128], group[64], delta[32], ratio[32], b[32], c[32];

	report_diff_titles(k, cur->group, titles, sizeof titles);
	fprintf(out, "%s: %zu rows, by %s", report_diff_kinds[k].view, n,
	        report_diff_kinds[k].value);
	if (k == DIFF_TOP)
		fprintf(out, ", grouped by %s", hist_group_name(cur->group, group, sizeof group));
	fprintf(out, "\n%9s %8s %9s %9s  %-6s %s\n", "Delta", "Ratio", "Base", "Now", "Status",
	        titles);
	for (size_t i = 0; i < n; i++) {
		const struct diff_row *r = &rows[i];
		char key[8192];

		report_diff_cells(r, k == DIFF_TOP, delta, sizeof delta, ratio, sizeof ratio);
		report_diff_short(r->base, false, b, sizeof b);
		report_diff_short(r->cur, false, c, sizeof c);
		report_diff_key_text(r->key, key, sizeof key);
		fprintf(out, "%9s %8s %9s %9s  %-6s %s", delta, ratio,
		        r->status == DIFF_NEW ? "-" : b, r->status == DIFF_GONE ? "-" : c,
		        diff_status_name(r->status), key);
		if (k == DIFF_LATENCY) {
			report_diff_short(r->base2, false, b, sizeof b);
			report_diff_short(r->cur2, false, c, sizeof c);
			fprintf(out, "  (p99 %s -> %s)", r->status == DIFF_NEW ? "-" : b,
			        r->status == DIFF_GONE ? "-" : c);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
	free(rows);
}

/* Both sets compared, as text. */
void
report_diff_text(FILE *out, const struct diff_set *base, const struct diff_set *cur, const char *a,
                 const char *b)
{
	char ea[1024], eb[1024];

	str_escape(ea, sizeof ea, a, strlen(a));
	str_escape(eb, sizeof eb, b, strlen(b));
	fprintf(out, "diff: %s -> %s\n\n", ea, eb);
	for (int k = 0; k < DIFF_NKINDS; k++)
		if (base->has[k] && cur->has[k])
			report_diff_text_kind(out, base, cur, (enum diff_kind)k);
	fflush(out);
}

/* One kind's rows as a JSON array member. */
static void
report_diff_json_kind(FILE *out, const struct diff_set *base, const struct diff_set *cur,
                      enum diff_kind k)
{
	struct diff_row *rows;
	size_t n = diff_compare(base, cur, k, &rows);
	char comm[4096], pid[4096], dso[4096], sym[4096], f[4096];

	fprintf(out, ",\"%s\":[", report_diff_kinds[k].view);
	for (size_t i = 0; i < n; i++) {
		const struct diff_row *r = &rows[i];

		fputs(i ? ",{" : "{", out);
		if (k == DIFF_TOP) {
			report_diff_top_fields(r->key, cur->group, comm, pid, dso, sym,
			                       sizeof comm);
			fprintf(out, "\"overhead\":%.2f", r->cur);
			report_json_member(out, "comm", comm);
			report_json_member(out, "dso", dso);
			report_json_member(out, "symbol", sym);
		} else if (k == DIFF_COUNTERS) {
			diff_key_field(r->key, 0, f, sizeof f);
			fprintf(out, "\"value\":%.3f", r->cur);
			report_json_member(out, "event", f);
			diff_key_field(r->key, 1, f, sizeof f);
			report_json_member(out, "scope", f);
		} else {
			fprintf(out, "\"p50_ns\":%.0f,\"p99_ns\":%.0f,\"base_p99_ns\":%.0f", r->cur,
			        r->cur2, r->base2);
			diff_key_field(r->key, 0, f, sizeof f);
			report_json_member(out, "kind", f);
			diff_key_field(r->key, 1, f, sizeof f);
			report_json_member(out, "name", f);
			diff_key_field(r->key, 2, f, sizeof f);
			report_json_member(out, "comm", f);
		}
		report_diff_json_members(out, r, report_diff_kinds[k].member);
		fputc('}', out);
	}
	fputc(']', out);
	free(rows);
}

/* Both sets compared, as one JSON object. */
void
report_diff_json(FILE *out, const struct diff_set *base, const struct diff_set *cur, const char *a,
                 const char *b)
{
	char group[64];

	fputs("{\"view\":\"diff\"", out);
	report_json_member(out, "base", a);
	report_json_member(out, "current", b);
	if (cur->has[DIFF_TOP])
		report_json_member(out, "group", hist_group_name(cur->group, group, sizeof group));
	for (int k = 0; k < DIFF_NKINDS; k++)
		if (base->has[k] && cur->has[k])
			report_diff_json_kind(out, base, cur, (enum diff_kind)k);
	fputs("}\n", out);
	fflush(out);
}
