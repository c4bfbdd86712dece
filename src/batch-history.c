/* batch-history: what batch prints from the history once the run ends:
 * the window's profile as pprof (--format pprof) and every interval as a
 * JSON line (--history-dump). */
#include "config.h"

#include <string.h>

#include "tracetop/batch.h"
#include "tracetop/history.h"
#include "tracetop/report-pprof.h"
#include "tracetop/report.h"
#include "tracetop/session.h"

/* Rows per interval in --history-dump without --rows. */
#define DUMP_ROWS 20

/* CPU time one sample stands for: -c PERIOD of a clock event is in
 * nanoseconds; -F HZ samples every 1/HZ s of a busy CPU. */
static uint64_t
batch_period_ns(const struct options *o)
{
	if (o->period != 0)
		return o->period;
	return o->freq != 0 ? 1000000000ULL / o->freq : 0;
}

/* The whole history of the first event as one pprof profile. */
static int
batch_pprof(struct session *s, const struct options *o, FILE *out)
{
	const struct history *h = session_history(s);
	const struct frame_event *ev = frame_event(session_frame(s), 0);
	struct hist_snapshot snap = {0};
	struct history_sum sum;
	struct pprof_info pi = {.event = ev != NULL ? ev->name : NULL,
	                        .period_ns = batch_period_ns(o)};
	struct tt_err err;
	int rc;

	if (history_len(h) == 0) {
		fprintf(stderr, "tracetop: no refresh ended: the pprof profile would be empty\n");
		return 1;
	}
	history_sum(h, 0, history_len(h) - 1, 0, &sum);
	pi.duration_ns = (int64_t)(sum.secs * 1e9);
	pi.time_ns =
	    (int64_t)(history_info(h, 0)->wall * 1e9) - (int64_t)(history_info(h, 0)->secs * 1e9);
	if (sum.cg == NULL)
		hist_snapshot(sum.hist, o->sort, NULL, NULL, &snap);
	rc = report_pprof(out, &pi, sum.cg, &snap, &err);
	if (rc != 0)
		fprintf(stderr, "tracetop: %s\n", err.msg);
	hist_snapshot_free(&snap);
	history_sum_free(&sum);
	return rc != 0 ? 1 : 0;
}

/* One interval as a JSON line: its numbers and its busiest rows. */
static void
batch_dump_interval(const struct history *h, size_t i, const struct options *o, FILE *out)
{
	static const enum hist_sort by_samples[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	const struct history_info *in = history_info(h, i);
	unsigned max = o->rows ? o->rows : DUMP_ROWS;
	struct hist_snapshot snap = {0};
	struct history_sum sum;
	char buf[1024];

	history_sum(h, i, i, 0, &sum);
	hist_snapshot(sum.hist, by_samples, NULL, NULL, &snap);
	fprintf(out,
	        "{\"view\":\"history\",\"index\":%zu,\"seq\":%llu,\"time\":%.3f,\"secs\":%.3f,"
	        "\"samples\":%llu,\"lost\":%llu,\"has_rows\":%s,\"bytes\":%zu,\"rows\":[",
	        i, (unsigned long long)in->seq, in->wall, in->secs, (unsigned long long)in->samples,
	        (unsigned long long)in->lost, in->rows ? "true" : "false", in->bytes);
	for (size_t r = 0; r < snap.n && r < max; r++) {
		const struct hist_entry *e = &snap.rows[r].copy;

		fprintf(out, "%s{\"pid\":%d,\"comm\":", r ? "," : "", e->key.pid);
		report_comm(e, buf, sizeof buf);
		report_json_string(out, buf);
		fputs(",\"dso\":", out);
		report_dso(e, buf, sizeof buf);
		report_json_string(out, buf);
		fputs(",\"sym\":", out);
		report_symbol(e, SYM_FULL, buf, sizeof buf);
		report_json_string(out, buf);
		fprintf(out, ",\"samples\":%llu,\"overhead\":%.2f}",
		        (unsigned long long)snap.rows[r].samples, snap.rows[r].overhead);
	}
	fputs("]}\n", out);
	hist_snapshot_free(&snap);
	history_sum_free(&sum);
}

/* Every interval, then a line of the whole history's size. */
static void
batch_dump(struct session *s, const struct options *o, FILE *out)
{
	const struct history *h = session_history(s);
	size_t n = history_len(h), sum = 0;

	for (size_t i = 0; i < n; i++) {
		batch_dump_interval(h, i, o, out);
		sum += history_info(h, i)->bytes;
	}
	fprintf(out,
	        "{\"view\":\"history\",\"intervals\":%zu,\"bytes\":%zu,\"shared_bytes\":%zu,"
	        "\"bytes_per_interval\":%zu,\"keys\":%zu,\"stacks\":%zu}\n",
	        n, history_bytes(h), history_shared_bytes(h), n ? sum / n : 0, history_nkeys(h),
	        history_nstacks(h));
}

/* What --format pprof and --history-dump print at the end. */
int
batch_history(struct session *s, const struct options *o, FILE *out)
{
	if (session_history(s) == NULL)
		return 0;
	if (o->history_dump)
		batch_dump(s, o, out);
	if (o->format == FORMAT_PPROF)
		return batch_pprof(s, o, out);
	return ferror(out) ? 1 : 0;
}
