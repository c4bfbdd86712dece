/* report-trace: text and JSON renderings of the stream's log. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "tracetop/report-trace.h"
#include "tracetop/report.h"

/* Fields decoded per event at most. */
#define REPORT_TRACE_FIELDS 64

/* The next entry of the range at index *i, advancing it; false at the
 * range's end. */
static bool
report_trace_next(const struct report_trace_info *ri, const struct frame *f, size_t *i,
                  struct stream_entry *en)
{
	return frame_trace_get(f, (*i)++, en) && en->seq < ri->to;
}

/* Print the range's entries as trace-cmd-like lines. */
void
report_trace_text(FILE *out, const struct report_trace_info *ri, const struct frame *f)
{
	struct stream_entry en;
	char line[8192], frame[512];

	for (size_t i = frame_trace_index(f, ri->from); report_trace_next(ri, f, &i, &en);) {
		frame_trace_line(f, &en, line, sizeof line);
		fprintf(out, "%s\n", line);
		for (size_t k = 0;
		     ri->stacks && frame_trace_stack(f, &en, k, frame, sizeof frame, NULL); k++)
			fprintf(out, "  => %s\n", frame);
	}
	if (ri->dropped > 0 || ri->lost > 0)
		fprintf(out,
		        "# %" PRIu64 " events dropped (log full), %" PRIu64
		        " lost by the kernel in this refresh\n",
		        ri->dropped, ri->lost);
	if (ri->notice != NULL)
		fprintf(out, "# note: %s\n", ri->notice);
	fflush(out);
}

/* Write len bytes of untrusted text as a JSON string. */
static void
report_trace_json_text(FILE *out, const char *text, size_t len)
{
	char buf[1024];

	if (len >= sizeof buf)
		len = sizeof buf - 1;
	memcpy(buf, text, len);
	buf[len] = '\0';
	report_json_string(out, buf);
}

/* One decoded value as JSON. */
void
report_trace_json_value(FILE *out, const struct stream_value *v)
{
	char sym[512];

	switch (v->kind) {
	case STREAM_INT:
		fprintf(out, "%" PRId64, v->i);
		break;
	case STREAM_UINT:
		fprintf(out, "%" PRIu64, v->u);
		break;
	case STREAM_BOOL:
		fputs(v->u ? "true" : "false", out);
		break;
	case STREAM_STR:
		report_trace_json_text(out, v->str, v->len);
		break;
	case STREAM_SYM:
		if (v->str == NULL) {
			fprintf(out, "%" PRIu64, v->u);
			break;
		}
		snprintf(sym, sizeof sym, "%s+0x%" PRIx64, v->str, v->off);
		report_json_string(out, sym);
		break;
	case STREAM_ARRAY:
		fputc('[', out);
		for (size_t i = 0; i < v->count; i++) {
			uint64_t x = stream_array_elem(v, i);

			if (v->is_signed)
				fprintf(out, "%s%" PRId64, i ? "," : "", (int64_t)x);
			else
				fprintf(out, "%s%" PRIu64, i ? "," : "", x);
		}
		fputc(']', out);
		break;
	case STREAM_BAD:
		fputs("null", out);
		break;
	}
}

/* One entry as a JSON object. */
static void
report_trace_json_row(FILE *out, const struct report_trace_info *ri, const struct frame *f,
                      const struct stream_entry *en)
{
	struct stream_value vals[REPORT_TRACE_FIELDS];
	size_t n = frame_trace_decode(f, en, vals, REPORT_TRACE_FIELDS);
	char frame[512];

	fprintf(out, "{\"ts\":%" PRIu64 ",\"cpu\":%d,\"pid\":%d,\"tid\":%d,\"comm\":", en->time,
	        en->cpu, en->pid, en->tid);
	report_json_string(out, en->comm ? en->comm : "<...>");
	report_json_member(out, "event", en->event);
	fputs(",\"fields\":{", out);
	for (size_t i = 0; i < n && i < REPORT_TRACE_FIELDS; i++) {
		fputs(i ? "," : "", out);
		report_json_string(out, vals[i].name);
		fputc(':', out);
		report_trace_json_value(out, &vals[i]);
	}
	fputc('}', out);
	if (ri->stacks && en->nips > 0) {
		fputs(",\"stack\":[", out);
		for (size_t k = 0; frame_trace_stack(f, en, k, frame, sizeof frame, NULL); k++) {
			fputs(k ? "," : "", out);
			report_json_string(out, frame);
		}
		fputc(']', out);
	}
	fputc('}', out);
}

/* Print the log and the summary as one JSON object. */
void
report_trace_json(FILE *out, const struct report_trace_info *ri, const struct frame *f)
{
	struct stream_entry en;
	bool first = true;

	fprintf(out, "{\"view\":\"trace\",\"time\":%.3f,\"dropped\":%" PRIu64 ",\"lost\":%" PRIu64,
	        ri->time, ri->dropped, ri->lost);
	report_json_member(out, "notice", ri->notice);
	fputs(",\"rows\":[", out);
	for (size_t i = frame_trace_index(f, ri->from); report_trace_next(ri, f, &i, &en);) {
		fputs(first ? "" : ",", out);
		report_trace_json_row(out, ri, f, &en);
		first = false;
	}
	fputs("],\"summary\":[", out);
	for (size_t i = 0; i < f->trace.nevents; i++) {
		const struct stream_event_info *info = &f->trace.events[i];

		fputs(i ? "," : "", out);
		fputs("{\"event\":", out);
		report_json_string(out, info->name);
		fprintf(out, ",\"count\":%" PRIu64 ",\"total\":%" PRIu64 ",\"rate\":%.3f}",
		        info->interval, info->total, info->rate);
	}
	fputs("]}\n", out);
	fflush(out);
}
