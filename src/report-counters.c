/* report-counters: text and JSON renderings of counters snapshots. */
#include "config.h"

#include <string.h>

#include "tracetop/cgroup.h"
#include "tracetop/report-counters.h"
#include "tracetop/report-diff.h"
#include "tracetop/report.h"

/* The scope column: the key, the escaped command, whether it exited. */
void
report_counters_scope(const struct counters_row *r, char *buf, size_t len)
{
	char comm[sizeof r->comm * 4];

	if (r->kind != COUNTERS_PROCESS) {
		snprintf(buf, len, "%s", r->scope);
		return;
	}
	str_escape(comm, sizeof comm, r->comm, sizeof r->comm);
	snprintf(buf, len, "%s %s%s", r->scope, comm, r->exited ? " (exited)" : "");
}

/* The metric computed from event row i of its scope key, or NULL. */
static const struct counters_row *
text_metric(const struct counters_snapshot *s, size_t i)
{
	for (size_t j = i + 1; j < s->n && strcmp(s->rows[j].scope, s->rows[i].scope) == 0; j++)
		if (s->rows[j].metric && s->rows[j].event_idx == s->rows[i].event_idx)
			return &s->rows[j];
	return NULL;
}

/* One line: time, count, unit, event, scope, then the metric or the rate. */
static void
text_row(FILE *out, const struct report_counters_info *ri, const struct counters_snapshot *s,
         size_t i)
{
	const struct counters_row *r = &s->rows[i], *m = text_metric(s, i);
	char event[256], scope[128], count[32];
	struct diff_row d;

	str_escape(event, sizeof event, r->event, strlen(r->event));
	report_counters_scope(r, scope, sizeof scope);
	if (!r->supported)
		snprintf(count, sizeof count, "<not supported>");
	else if (r->nsec)
		snprintf(count, sizeof count, "%.2f", r->value / 1e6);
	else
		snprintf(count, sizeof count, "%.0f", r->value);
	fprintf(out, "%14.6f %18s %-4s %-24s %-24s  # ", ri->time, count, r->nsec ? "msec" : "",
	        event, scope);
	if (!r->supported)
		fprintf(out, "%s", r->reason);
	else if (m != NULL && !m->supported)
		fprintf(out, "%s: %s", m->event, m->reason);
	else if (m != NULL && m->percent)
		fprintf(out, "%8.2f%% %s", m->value, m->note);
	else if (m != NULL)
		fprintf(out, "%9.3f %s", m->value, m->note);
	else if (r->nsec) /* a time: how many ms of CPU per second, not ns */
		fprintf(out, "%12.3f msec/s", r->rate / 1e6);
	else
		fprintf(out, "%12.3f /sec", r->rate);
	if (r->supported && r->share < 0.9999)
		fprintf(out, "  (%.2f%%)", 100.0 * r->share);
	if (diff_counter_change(ri->base, r, &d)) {
		char delta[32], ratio[32];

		report_diff_cells(&d, false, delta, sizeof delta, ratio, sizeof ratio);
		fprintf(out, "  [%s %s]", delta, ratio);
	}
	fputc('\n', out);
}

/* Print one refresh like perf stat -I: a line per counted event. */
void
report_counters_text(FILE *out, const struct report_counters_info *ri,
                     const struct counters_snapshot *snaps, size_t n)
{
	if (ri->header) {
		fprintf(out, "# counting %s, scope %s\n", ri->target, ri->scopes);
		if (ri->notice != NULL)
			fprintf(out, "# note: %s\n", ri->notice);
		fprintf(out, "#%13s %18s %-4s %-24s %-24s  # %s\n", "time", "counts", "unit",
		        "event", "scope",
		        ri->base != NULL ? "metric or rate  [change of the rate: delta ratio]"
		                         : "metric or rate");
	}
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < snaps[k].n; i++)
			if (!snaps[k].rows[i].metric)
				text_row(out, ri, &snaps[k], i);
	fflush(out);
}

/* One row as a JSON object. */
static void
json_row(FILE *out, const struct report_counters_info *ri, const struct counters_row *r)
{
	struct diff_row d;

	fputs("{\"event\":", out);
	report_json_string(out, r->event);
	report_json_member(out, "scope", r->scope);
	if (r->kind == COUNTERS_CPU)
		fprintf(out, ",\"cpu\":%d", r->cpu);
	if (r->kind == COUNTERS_PROCESS) {
		fprintf(out, ",\"pid\":%d", r->pid);
		report_json_member(out, "comm", r->comm);
		if (r->cgroup != NULL) {
			report_json_member(out, "cgroup", r->cgroup->name);
			report_json_member(out, "cgroup_path", r->cgroup->path);
		}
		fprintf(out, ",\"exited\":%s", r->exited ? "true" : "false");
	}
	if (r->metric)
		fputs(",\"metric\":true", out);
	if (r->nsec)
		fputs(",\"unit\":\"ns\"", out);
	if (r->metric && r->supported)
		fprintf(out, ",\"value\":%.4f,\"total\":%.4f", r->value, r->total);
	else if (r->supported)
		fprintf(out, ",\"value\":%.0f,\"rate\":%.3f,\"total\":%.0f,\"share\":%.4f",
		        r->value, r->rate, r->total, r->share);
	else if (r->metric)
		fputs(",\"value\":null,\"total\":null", out);
	else
		fputs(",\"value\":null,\"rate\":null,\"total\":null,\"share\":null", out);
	fprintf(out, ",\"supported\":%s", r->supported ? "true" : "false");
	report_json_member(out, "reason", r->supported ? NULL : r->reason);
	if (diff_counter_change(ri->base, r, &d))
		report_diff_json_members(out, &d, "rate");
	fputc('}', out);
}

/* Print one refresh as one JSON object on one line. */
void
report_counters_json(FILE *out, const struct report_counters_info *ri,
                     const struct counters_snapshot *snaps, size_t n)
{
	bool first = true;

	fprintf(out, "{\"view\":\"counters\",\"time\":%.3f,\"interval\":%.3f", ri->time,
	        ri->interval);
	report_json_member(out, "scope", ri->scopes);
	report_json_member(out, "target", ri->target);
	report_json_member(out, "notice", ri->notice);
	fputs(",\"rows\":[", out);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < snaps[k].n; i++) {
			if (!first)
				fputc(',', out);
			json_row(out, ri, &snaps[k].rows[i]);
			first = false;
		}
	fputs("]}\n", out);
	fflush(out);
}

/* The taken scopes' snapshots and names. */
size_t
report_counters_taken(const struct counters_snapshot *scopes, unsigned taken,
                      struct counters_snapshot *snaps, char *names, size_t len)
{
	size_t n = 0;

	if (len > 0)
		names[0] = '\0';
	for (int s = 0; s < COUNTERS_NSCOPES; s++) {
		size_t at = strlen(names);

		if (!(taken & (1u << s)))
			continue;
		snprintf(names + at, len - at, "%s%s", n ? "," : "",
		         counters_scope_name((enum counters_scope)s));
		snaps[n++] = scopes[s];
	}
	return n;
}
