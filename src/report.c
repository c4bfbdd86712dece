/* report: text and JSON renderings of a top snapshot. */
#include "config.h"

#include <string.h>

#include "tracetop/report.h"

/* The symbol column of an entry, escaped. */
void
report_symbol(const struct hist_entry *e, char *buf, size_t len)
{
	const struct sym *s = e->key.sym;

	if (s != NULL)
		str_escape(buf, len, s->name, strlen(s->name));
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

/* Samples per second of the refresh. */
static double
report_rate(const struct report_info *ri)
{
	return ri->seconds > 0 ? (double)ri->samples / ri->seconds : 0;
}

/* Print one refresh as a table. */
void
report_text(FILE *out, const struct report_info *ri, const struct hist_snapshot *snap)
{
	char comm[64], dso[256], sym[512];
	size_t i, n = snap->n;

	if (ri->max_rows && n > ri->max_rows)
		n = ri->max_rows;
	fprintf(out, "event: %s  samples/s: %.0f  samples: %llu  lost: %llu (total %llu)  target: %s\n",
		ri->event, report_rate(ri), (unsigned long long)ri->samples,
		(unsigned long long)ri->lost, (unsigned long long)ri->total_lost, ri->target);
	if (ri->notice != NULL)
		fprintf(out, "note: %s\n", ri->notice);
	fprintf(out, "%8s %9s  %-16s %7s  %-24s %s\n", "Overhead", "Samples", "Command", "PID",
		"Shared Object", "Symbol");
	for (i = 0; i < n; i++) {
		const struct hist_row *r = &snap->rows[i];

		report_comm(r->entry, comm, sizeof comm);
		report_dso(r->entry, dso, sizeof dso);
		report_symbol(r->entry, sym, sizeof sym);
		fprintf(out, "%7.2f%% %9llu  %-16s %7d  %-24s [%c] %s\n", r->overhead,
			(unsigned long long)r->samples, comm, r->entry->key.pid, dso,
			r->entry->key.kernel ? 'k' : '.', sym);
	}
	fputc('\n', out);
	fflush(out);
}

/* Write s as a JSON string: untrusted bytes escaped first, then JSON rules. */
void
report_json_string(FILE *out, const char *s)
{
	char esc[1024];
	const char *p;

	str_escape(esc, sizeof esc, s, strlen(s));
	fputc('"', out);
	for (p = esc; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

/* Print one refresh as a JSON object on one line. */
void
report_json(FILE *out, const struct report_info *ri, const struct hist_snapshot *snap)
{
	size_t i, n = snap->n;

	if (ri->max_rows && n > ri->max_rows)
		n = ri->max_rows;
	fputs("{\"view\":\"top\",\"event\":", out);
	report_json_string(out, ri->event);
	if (ri->requested != NULL) {
		fputs(",\"requested_event\":", out);
		report_json_string(out, ri->requested);
	}
	if (ri->notice != NULL) {
		fputs(",\"notice\":", out);
		report_json_string(out, ri->notice);
	}
	fputs(",\"target\":", out);
	report_json_string(out, ri->target);
	fprintf(out, ",\"time\":%.3f,\"interval\":%.3f,\"samples\":%llu,\"samples_per_sec\":%.1f,"
		     "\"lost\":%llu,\"total_samples\":%llu,\"total_lost\":%llu,\"rows\":[",
		ri->wall, ri->seconds, (unsigned long long)ri->samples, report_rate(ri),
		(unsigned long long)ri->lost, (unsigned long long)ri->total_samples,
		(unsigned long long)ri->total_lost);
	for (i = 0; i < n; i++) {
		const struct hist_row *r = &snap->rows[i];
		const struct hist_entry *e = r->entry;
		const char *dso = "[unknown]";

		if (e->key.dso != NULL)
			dso = e->key.dso->name;
		fprintf(out, "%s{\"overhead\":%.2f,\"samples\":%llu,\"comm\":", i ? "," : "",
			r->overhead, (unsigned long long)r->samples);
		report_json_string(out, e->key.comm ? e->key.comm : "[unknown]");
		fprintf(out, ",\"pid\":%d,\"dso\":", e->key.pid);
		report_json_string(out, dso);
		fputs(",\"symbol\":", out);
		report_json_string(out, hist_sym_name(e));
		if (e->key.sym == NULL)
			fprintf(out, ",\"offset\":%llu", (unsigned long long)e->key.addr);
		fprintf(out, ",\"kernel\":%s}", e->key.kernel ? "true" : "false");
	}
	fputs("]}\n", out);
	fflush(out);
}
