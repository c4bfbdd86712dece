/* report-annotate: text and JSON renderings of an annotation. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "tracetop/annotate-code.h"
#include "tracetop/report-annotate.h"
#include "tracetop/report.h"

/* Escape untrusted text into buf. */
static const char *
report_annotate_esc(char *buf, size_t len, const char *s)
{
	str_escape(buf, len, s, strlen(s));
	return buf;
}

/* Print the annotation as a listing. */
void
report_annotate_text(FILE *out, const struct annotation *a)
{
	char name[4096], dso[512], text[2048];

	fprintf(out, "annotate: %s  object: %s  samples: %" PRIu64 " (total %" PRIu64 ")",
	        report_annotate_esc(name, sizeof name, a->symbol),
	        report_annotate_esc(dso, sizeof dso, a->dso_name), a->samples, a->total);
	if (a->truncated)
		fprintf(out, "  (only its first %u KiB)", ANNOTATE_MAX_BYTES / 1024);
	if (a->row[0] != '\0')
		fprintf(out, "  row: %s", report_annotate_esc(text, sizeof text, a->row));
	fputc('\n', out);
	if (a->notice[0] != '\0')
		fprintf(out, "note: %s\n", report_annotate_esc(text, sizeof text, a->notice));
	fprintf(out, "%8s │ %10s  %s\n", "Percent", "Address", "Instruction");
	for (size_t i = 0; i < a->nlines; i++) {
		const struct annotate_line *l = &a->lines[i];

		report_annotate_esc(text, sizeof text, l->text);
		if (l->kind == ANNOTATE_SOURCE) {
			fprintf(out, "%8s │ %s\n", "", text);
			continue;
		}
		if (l->samples > 0 || l->score > 0)
			fprintf(out, "%8.2f │ ", l->percent);
		else
			fprintf(out, "%8s │ ", "");
		fprintf(out, "%10" PRIx64 ":  %s", l->addr, text);
		if (l->target_name != NULL)
			fprintf(out, " <%s>",
			        report_annotate_esc(name, sizeof name, l->target_name));
		fputc('\n', out);
	}
	fputc('\n', out);
	fflush(out);
}

/* Print the annotation as one JSON object on one line. */
void
report_annotate_json(FILE *out, const struct annotation *a)
{
	fputs("{\"view\":\"annotate\",\"symbol\":", out);
	report_json_string(out, a->symbol);
	if (strcmp(a->sym->name, a->symbol) != 0)
		report_json_member(out, "raw", a->sym->name);
	fputs(",\"dso\":", out);
	report_json_string(out, a->dso_name);
	fprintf(out, ",\"kernel\":%s,\"debug\":%s", a->kernel ? "true" : "false",
	        a->debug ? "true" : "false");
	report_json_member(out, "notice", a->notice[0] ? a->notice : NULL);
	report_json_member(out, "from", a->code_from);
	/* whose samples: one row's (its key's fields), else the function's */
	report_json_member(out, "row", a->row[0] ? a->row : NULL);
	if (a->row_mask & HIST_GROUP_COMM)
		report_json_member(out, "comm", a->row_who.comm);
	if (a->row_mask & HIST_GROUP_PID)
		fprintf(out, ",\"pid\":%d", a->row_who.pid);
	if (a->row_mask & HIST_GROUP_TID)
		fprintf(out, ",\"tid\":%d", a->row_who.tid);
	fprintf(out,
	        ",\"start\":\"0x%" PRIx64 "\",\"size\":%" PRIu64 ",\"samples\":%" PRIu64
	        ",\"total\":%" PRIu64 ",\"lines\":[",
	        a->start, a->size, a->samples, a->total);
	for (size_t i = 0; i < a->nlines; i++) {
		const struct annotate_line *l = &a->lines[i];

		if (i > 0)
			fputc(',', out);
		if (l->kind == ANNOTATE_SOURCE) {
			fputs("{\"source\":", out);
			report_json_string(out, l->text);
			fputc('}', out);
			continue;
		}
		fprintf(out, "{\"addr\":\"0x%" PRIx64 "\",\"insn\":", l->addr);
		report_json_string(out, l->text);
		fprintf(out, ",\"percent\":%.2f,\"samples\":%" PRIu64 ",\"total\":%" PRIu64,
		        l->percent, l->samples, l->total);
		report_json_member(out, "target", l->target_name);
		if (l->target_addr != 0)
			fprintf(out, ",\"target_addr\":\"0x%" PRIx64 "\"", l->target_addr);
		fputc('}', out);
	}
	fputs("]}\n", out);
	fflush(out);
}
