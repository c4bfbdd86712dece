/* batch-history: what batch prints from the history once the run ends:
 * the window's profile as pprof (--format pprof) and every interval, its
 * profile and the other panes' parts, as JSON lines or text
 * (--history-dump). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/batch.h"
#include "tracetop/history.h"
#include "tracetop/report-counters.h"
#include "tracetop/report-latency.h"
#include "tracetop/report-pprof.h"
#include "tracetop/report-probes.h"
#include "tracetop/report-system.h"
#include "tracetop/report-trace.h"
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

/* One interval's profile: its numbers and its busiest rows, as a JSON
 * line or as text. */
static void
batch_dump_interval(const struct history *h, size_t i, const struct options *o, FILE *out)
{
	static const enum hist_sort by_samples[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	const struct history_info *in = history_info(h, i);
	unsigned max = o->rows ? o->rows : DUMP_ROWS;
	bool json = o->format == FORMAT_JSON;
	struct hist_snapshot snap = {0};
	struct history_sum sum;
	char comm[256], dso[512], sym[1024];

	history_sum(h, i, i, 0, &sum);
	hist_snapshot(sum.hist, by_samples, NULL, NULL, &snap);
	if (json)
		fprintf(out,
		        "{\"view\":\"history\",\"index\":%zu,\"seq\":%llu,\"time\":%.3f,"
		        "\"secs\":%.3f,\"samples\":%llu,\"lost\":%llu,\"has_rows\":%s,"
		        "\"bytes\":%zu,\"parts_bytes\":%zu,\"rows\":[",
		        i, (unsigned long long)in->seq, in->wall, in->secs,
		        (unsigned long long)in->samples, (unsigned long long)in->lost,
		        in->rows ? "true" : "false", in->bytes, in->parts_bytes);
	else
		fprintf(out,
		        "# history interval %zu: seq %llu, time %.3f, %.3f s, %llu samples, %llu "
		        "lost, %s, %zu bytes (%zu of the other panes)\n",
		        i, (unsigned long long)in->seq, in->wall, in->secs,
		        (unsigned long long)in->samples, (unsigned long long)in->lost,
		        in->rows ? "rows" : "counts only", in->bytes, in->parts_bytes);
	for (size_t r = 0; r < snap.n && r < max; r++) {
		const struct hist_entry *e = &snap.rows[r].copy;

		report_comm(e, comm, sizeof comm);
		report_dso(e, dso, sizeof dso);
		report_symbol(e, SYM_FULL, sym, sizeof sym);
		if (!json) {
			fprintf(out, "%7.2f%% %10llu  %-16s %7d  %-24s %s\n", snap.rows[r].overhead,
			        (unsigned long long)snap.rows[r].samples, comm, e->key.pid, dso,
			        sym);
			continue;
		}
		fprintf(out, "%s{\"pid\":%d,\"comm\":", r ? "," : "", e->key.pid);
		report_json_string(out, comm);
		fputs(",\"dso\":", out);
		report_json_string(out, dso);
		fputs(",\"sym\":", out);
		report_json_string(out, sym);
		fprintf(out, ",\"samples\":%llu,\"overhead\":%.2f}",
		        (unsigned long long)snap.rows[r].samples, snap.rows[r].overhead);
	}
	if (json)
		fputs("]}\n", out);
	hist_snapshot_free(&snap);
	history_sum_free(&sum);
}

/* The counters of every scope the view has, as the counters view prints
 * them. */
static void
batch_dump_counters(const struct frame *v, const struct frame *live, bool json, FILE *out)
{
	struct counters_snapshot snaps[COUNTERS_NSCOPES];
	char scopes[64];
	size_t n = report_counters_taken(v->counters.scopes, v->counters.taken, snaps, scopes,
	                                 sizeof scopes);

	if (n == 0)
		return;
	struct report_counters_info ri = {.target = live->sampling.target,
	                                  .scopes = scopes,
	                                  .time = snaps[0].elapsed,
	                                  .interval = snaps[0].interval,
	                                  .header = true};
	if (json)
		report_counters_json(out, &ri, snaps, n);
	else
		report_counters_text(out, &ri, snaps, n);
}

/* One part of the view as its view prints it: JSON in a line of its own
 * that says the interval, text as it is. */
static void
batch_dump_part(const struct frame *v, const struct frame *live, size_t i, int part,
                const struct options *o, FILE *out)
{
	static const char *const names[] = {"counters", "latency", "probes", "trace", "system"};
	bool json = o->format == FORMAT_JSON;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = json ? open_memstream(&buf, &len) : out;
	struct report_system_state st = {0};

	if (f == NULL)
		return;
	if (part == 0) {
		batch_dump_counters(v, live, json, f);
	} else if (part == 1) {
		struct report_latency_info ri = {
		    .time = v->secs, .max_rows = o->rows, .header = true};

		(json ? report_latency_json : report_latency_text)(f, &ri, &v->latency);
	} else if (part == 2) {
		struct report_probes_info ri = {.target = live->sampling.target, .header = true};

		(json ? report_probes_json : report_probes_text)(f, &ri, &v->probes);
	} else if (part == 3) {
		const struct frame_trace *ft = &v->trace;
		struct report_trace_info ri = {.from = ft->first_seq,
		                               .to = ft->end_seq,
		                               .time = ft->stats.secs,
		                               .stacks = o->callgraph != CALLGRAPH_NONE};

		if (!json && ft->first_seq > ft->start_seq)
			fprintf(f, "# %llu events of this interval are gone from the log\n",
			        (unsigned long long)(ft->first_seq - ft->start_seq));
		(json ? report_trace_json : report_trace_text)(f, &ri, v);
	} else {
		struct report_system_info ri = {
		    .time = v->system.elapsed, .wall = v->wall, .max_rows = o->rows};

		if (json)
			report_system_json(f, &ri, &v->system);
		else
			report_system_text(f, &ri, &v->system, &st);
		report_system_state_free(&st);
	}
	if (!json)
		return;
	fclose(f);
	while (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (len > 0) {
		fprintf(out, "{\"view\":\"history\",\"index\":%zu,\"part\":\"%s\"", i, names[part]);
		if (part == 3)
			fprintf(out, ",\"gone\":%llu",
			        (unsigned long long)(v->trace.first_seq - v->trace.start_seq));
		fprintf(out, ",\"report\":%s}\n", buf);
	}
	free(buf);
}

/* Every interval, then a line of the whole history's size. */
static void
batch_dump(struct session *s, const struct options *o, FILE *out)
{
	const struct history *h = session_history(s);
	const struct frame *live = session_frame(s);
	size_t n = history_len(h), sum = 0, parts = 0;

	for (size_t i = 0; i < n; i++) {
		struct frame v = {.seq = history_info(h, i)->seq,
		                  .wall = history_info(h, i)->wall,
		                  .secs = history_info(h, i)->secs};
		const bool has[] = {live->has_counters, live->has_latency, live->has_probes,
		                    live->has_trace, live->has_system};

		batch_dump_interval(h, i, o, out);
		history_view(h, i, i, live, &v);
		for (int p = 0; p < 5; p++)
			if (has[p])
				batch_dump_part(&v, live, i, p, o, out);
		history_view_free(&v);
		sum += history_info(h, i)->bytes;
		parts += history_info(h, i)->parts_bytes;
	}
	if (o->format == FORMAT_JSON)
		fprintf(out,
		        "{\"view\":\"history\",\"intervals\":%zu,\"bytes\":%zu,"
		        "\"shared_bytes\":%zu,\"bytes_per_interval\":%zu,"
		        "\"parts_bytes_per_interval\":%zu,\"keys\":%zu,\"stacks\":%zu,"
		        "\"part_keys\":%zu}\n",
		        n, history_bytes(h), history_shared_bytes(h), n ? sum / n : 0,
		        n ? parts / n : 0, history_nkeys(h), history_nstacks(h), history_nparts(h));
	else
		fprintf(out,
		        "# history: %zu intervals, %zu bytes (%zu shared), %zu bytes per interval "
		        "(%zu of the other panes), %zu row keys, %zu stacks, %zu other rows\n",
		        n, history_bytes(h), history_shared_bytes(h), n ? sum / n : 0,
		        n ? parts / n : 0, history_nkeys(h), history_nstacks(h), history_nparts(h));
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
