/* report-probes: text and JSON renderings of probes snapshots. */
#include "config.h"

#include <string.h>

#include "tracetop/report-probes.h"
#include "tracetop/report.h"

/* The arguments of a row, escaped and space-separated, into buf. */
static void
text_args(const struct probes_row *r, char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->nargs && pos + 2 < len; i++) {
		if (i > 0)
			buf[pos++] = ' ';
		pos += str_escape(buf + pos, len - pos, r->args[i], strlen(r->args[i]));
	}
}

/* Print one refresh: a line per row. */
void
report_probes_text(FILE *out, const struct report_probes_info *ri,
                   const struct probes_snapshot *snap)
{
	char name[256], target[512], args[1024], hits[24], rate[24];

	if (ri->header) {
		fprintf(out, "# probes of group %s, hits counted on %s\n", ri->group, ri->target);
		fprintf(out, "#%13s %-36s %-10s %12s %12s %-9s %s  %s\n", "time", "name", "kind",
		        "hits", "rate/s", "state", "target", "args");
	}
	if (snap->notice != NULL)
		fprintf(out, "# note: %s\n", snap->notice);
	for (size_t i = 0; i < snap->n; i++) {
		const struct probes_row *r = &snap->rows[i];

		str_escape(name, sizeof name, r->name, strlen(r->name));
		str_escape(target, sizeof target, r->target, strlen(r->target));
		text_args(r, args, sizeof args);
		snprintf(hits, sizeof hits, "%llu", (unsigned long long)r->hits);
		snprintf(rate, sizeof rate, "%.1f", r->rate);
		if (!r->ours)
			strcpy(hits, "-"), strcpy(rate, "-");
		fprintf(out, "%14.6f %-36s %-10s %12s %12s %-9s %s  %s\n", snap->elapsed, name,
		        probe_kind_name(r->kind), hits, rate, r->state, target, args);
	}
	fflush(out);
}

/* One row as a JSON object. */
static void
json_row(FILE *out, const struct probes_row *r)
{
	fputs("{\"name\":", out);
	report_json_string(out, r->name);
	report_json_member(out, "kind", probe_kind_name(r->kind));
	report_json_member(out, "target", r->target);
	fputs(",\"args\":[", out);
	for (size_t i = 0; i < r->nargs; i++) {
		if (i > 0)
			fputc(',', out);
		report_json_string(out, r->args[i]);
	}
	fprintf(out, "],\"hits\":%llu,\"rate\":%.3f,\"enabled\":%s,\"ours\":%s",
	        (unsigned long long)r->hits, r->rate, r->enabled ? "true" : "false",
	        r->ours ? "true" : "false");
	report_json_member(out, "state", r->state);
	fputc('}', out);
}

/* Print one refresh as one JSON object on one line. */
void
report_probes_json(FILE *out, const struct report_probes_info *ri,
                   const struct probes_snapshot *snap)
{
	fprintf(out, "{\"view\":\"probes\",\"time\":%.3f,\"interval\":%.3f", snap->elapsed,
	        snap->interval);
	report_json_member(out, "group", ri->group);
	report_json_member(out, "target", ri->target);
	report_json_member(out, "notice", snap->notice);
	fputs(",\"rows\":[", out);
	for (size_t i = 0; i < snap->n; i++) {
		if (i > 0)
			fputc(',', out);
		json_row(out, &snap->rows[i]);
	}
	fputs("]}\n", out);
	fflush(out);
}
