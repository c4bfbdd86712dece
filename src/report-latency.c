/* report-latency: text and JSON renderings of latency rows. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/callgraph.h"
#include "tracetop/offcpu.h"
#include "tracetop/report-latency.h"
#include "tracetop/report-diff.h"
#include "tracetop/report.h"
#include "tracetop/util.h"

/* The frame being ordered (qsort has no argument). */
static const struct frame_latency *order_fl;

/* By total time, then count, descending; then name and pid for a stable
 * order. */
static int
order_cmp(const void *a, const void *b)
{
	const struct lat_row *x = &order_fl->rows[*(const size_t *)a];
	const struct lat_row *y = &order_fl->rows[*(const size_t *)b];
	int c;

	if (x->hist.total != y->hist.total)
		return x->hist.total > y->hist.total ? -1 : 1;
	if (x->hist.count != y->hist.count)
		return x->hist.count > y->hist.count ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Indices of the rows in report order. */
size_t *
report_latency_order(const struct frame_latency *fl)
{
	size_t *v;

	if (fl->nrows == 0)
		return NULL;
	v = xmalloc(fl->nrows * sizeof *v);
	for (size_t i = 0; i < fl->nrows; i++)
		v[i] = i;
	order_fl = fl;
	qsort(v, fl->nrows, sizeof *v, order_cmp);
	order_fl = NULL;
	return v;
}

/* bpftrace's hist() lines. */
void
report_latency_hist(FILE *out, const struct lat_hist *h, unsigned width)
{
	unsigned first, last;
	char line[400];

	if (!lat_hist_range(h, &first, &last))
		return;
	for (unsigned b = first; b <= last; b++) {
		lat_hist_line(h, b, width, line, sizeof line);
		fprintf(out, "%s\n", line);
	}
}

/* How many rows to print. */
static size_t
report_latency_rows(const struct report_latency_info *ri, const struct frame_latency *fl)
{
	return ri->max_rows && fl->nrows > ri->max_rows ? ri->max_rows : fl->nrows;
}

/* A row's name, escaped: an offcpu row's names its thread too. */
void
report_latency_name(const struct lat_row *r, char *buf, size_t len)
{
	char name[64];

	str_escape(name, sizeof name, r->name, strlen(r->name));
	if ((r->kind == LAT_OFFCPU || r->kind == LAT_ONCPU) && r->tid > 0)
		snprintf(buf, len, "%s tid %d", name, r->tid);
	else
		snprintf(buf, len, "%s", name);
}

/* The heaviest off-CPU stacks of a row as bcc's offcputime prints them:
 * the frames from where the thread blocked out to its outermost caller,
 * then the time blocked there. */
static void
text_stacks(FILE *out, const struct callgraph *cg, const char *root)
{
	uint32_t leaves[REPORT_LATENCY_STACKS];
	double ns[REPORT_LATENCY_STACKS];
	size_t n = offcpu_stacks(cg, root, leaves, ns, REPORT_LATENCY_STACKS);
	char name[300], t[16];

	for (size_t i = 0; i < n; i++) {
		const struct cg_node *nd;

		for (uint32_t k = leaves[i]; (nd = cg_node(cg, k)) != NULL && nd->parent != 0;
		     k = nd->parent) {
			cg_frame_name(nd, SYM_QUALIFIED, name, sizeof name);
			fprintf(out, "    %s\n", name);
		}
		lat_format_ns(t, sizeof t, (uint64_t)ns[i]);
		fprintf(out, "        %s blocked here\n\n", t);
	}
}

/* Wall clock (on + off), descending. */
static int
thread_cmp(const void *a, const void *b)
{
	const struct report_latency_thread *x = a, *y = b;
	uint64_t wx = x->oncpu + x->offcpu_sum, wy = y->oncpu + y->offcpu_sum;

	return wx > wy ? -1 : wx < wy ? 1 : (x->tid > y->tid) - (x->tid < y->tid);
}

/* The threads' wall clocks. */
size_t
report_latency_threads(const struct frame_latency *fl, struct report_latency_thread **out)
{
	struct report_latency_thread *v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < fl->nrows; i++) {
		const struct lat_row *r = &fl->rows[i];
		size_t k;

		if ((r->kind != LAT_ONCPU && r->kind != LAT_OFFCPU) || r->tid <= 0)
			continue;
		for (k = 0; k < n && v[k].tid != r->tid; k++)
			;
		if (k == n) {
			v = xrealloc(v, (n + 1) * sizeof *v);
			memset(&v[n], 0, sizeof v[n]);
			v[n].pid = r->pid;
			v[n].tid = r->tid;
			memcpy(v[n].comm, r->comm, sizeof v[n].comm);
			n++;
		}
		if (r->kind == LAT_ONCPU) {
			v[k].oncpu += r->hist.total;
			continue;
		}
		for (unsigned reason = 0; reason < OFFCPU_NREASONS; reason++)
			if (strcmp(r->name, offcpu_reason_name(reason)) == 0)
				v[k].offcpu[reason] += r->hist.total;
		v[k].offcpu_sum += r->hist.total;
	}
	if (n > 0)
		qsort(v, n, sizeof *v, thread_cmp);
	*out = v;
	return n;
}

/* The threads' blocked time as a table, by wait reason; with oncpu rows
 * (any thread on a CPU) their wall clocks too: on-CPU + blocked. */
static void
text_threads(FILE *out, const struct report_latency_info *ri, const struct frame_latency *fl)
{
	struct report_latency_thread *v;
	size_t n = report_latency_threads(fl, &v), shown = 0;
	char comm[80], t[6][16];
	bool wall = false;

	for (size_t i = 0; i < n; i++)
		wall = wall || v[i].oncpu > 0;
	for (size_t i = 0; i < n && (ri->max_rows == 0 || shown < ri->max_rows); i++) {
		uint64_t w = v[i].oncpu + v[i].offcpu_sum;

		if (wall && v[i].oncpu == 0)
			continue;
		if (!wall && v[i].offcpu_sum == 0)
			continue;
		if (shown++ == 0 && wall)
			fprintf(out,
			        "\n# wall clock per thread (on-CPU + blocked):\n#%7s %8s %-16s %8s "
			        "%8s %6s %8s %8s %8s %8s\n",
			        "pid", "tid", "comm", "wall", "on-CPU", "on%", "sleep", "I/O",
			        "lock", "fault");
		else if (shown == 1)
			fprintf(
			    out,
			    "\n# blocked time per thread:\n#%7s %8s %-16s %8s %8s %8s %8s %8s\n",
			    "pid", "tid", "comm", "blocked", "sleep", "I/O", "lock", "fault");
		str_escape(comm, sizeof comm, v[i].comm, strnlen(v[i].comm, sizeof v[i].comm));
		lat_format_ns(t[0], sizeof t[0], wall ? w : v[i].offcpu_sum);
		lat_format_ns(t[1], sizeof t[1], v[i].oncpu);
		for (unsigned k = 0; k < OFFCPU_NREASONS; k++)
			lat_format_ns(t[2 + k], sizeof t[2 + k], v[i].offcpu[k]);
		if (wall)
			fprintf(out, " %7d %8d %-16s %8s %8s %5.1f%% %8s %8s %8s %8s\n", v[i].pid,
			        v[i].tid, comm, t[0], t[1],
			        w ? 100.0 * (double)v[i].oncpu / (double)w : 0.0, t[2], t[3], t[4],
			        t[5]);
		else
			fprintf(out, " %7d %8d %-16s %8s %8s %8s %8s %8s\n", v[i].pid, v[i].tid,
			        comm, t[0], t[2], t[3], t[4], t[5]);
	}
	free(v);
}

/* A signed duration: "+1.05ms", "-850ns". */
static void
signed_ns(char *buf, size_t len, double ns)
{
	buf[0] = ns < 0 ? '-' : '+';
	lat_format_ns(buf + 1, len - 1, (uint64_t)(ns < 0 ? -ns : ns));
}

/* A row's change of p50 as "+DELTA RATIO" (with p99's "+DELTA" after a
 * comma when p99 is set); false without a baseline. */
bool
report_latency_change(const struct diff_set *base, const struct lat_row *r, bool p99, char *buf,
                      size_t len)
{
	char d50[20], d99[20], ratio[24];
	struct diff_row d;

	if (!diff_latency_change(base, r, &d))
		return false;
	signed_ns(d50, sizeof d50, d.delta);
	signed_ns(d99, sizeof d99, d.cur2 - d.base2);
	if (d.status != DIFF_SAME)
		snprintf(ratio, sizeof ratio, "%s", diff_status_name(d.status));
	else
		snprintf(ratio, sizeof ratio, "x%.2f", d.ratio);
	snprintf(buf, len, p99 ? "%s %s, p99 %s" : "%s %s", d50, ratio, d99);
	return true;
}

/* Text: " [p50 +DELTA RATIO, p99 +DELTA]" after a row, with a baseline. */
static void
text_change(FILE *out, const struct report_latency_info *ri, const struct lat_row *r)
{
	char change[80];

	if (report_latency_change(ri->base, r, true, change, sizeof change))
		fprintf(out, " [p50 %s]", change);
}

/* A table of the rows, then each row's histogram. */
void
report_latency_text(FILE *out, const struct report_latency_info *ri, const struct frame_latency *fl)
{
	size_t *order = report_latency_order(fl), n = report_latency_rows(ri, fl);
	char comm[80], name[80], p50[16], p90[16], p99[16], max[16], total[16];

	fprintf(out, "# latency at %.3f s, %s: %zu rows, %llu events, %llu lost, %llu unpaired\n",
	        ri->time, fl->target ? fl->target : "-", fl->nrows,
	        (unsigned long long)(fl->events + fl->sched_events),
	        (unsigned long long)(fl->lost + fl->sched_lost),
	        (unsigned long long)(fl->unpaired + fl->sched_unpaired));
	if (ri->header && fl->notice != NULL)
		fprintf(out, "# note: %s\n", fl->notice);
	if (ri->header && fl->sched_notice != NULL)
		fprintf(out, "# note: %s\n", fl->sched_notice);
	fprintf(out, "#%-8s %-20s %8s %-16s %9s %7s %9s %8s %8s %8s %8s %8s\n", "kind", "name",
	        "pid", "comm", "count", "errors", "rate/s", "p50", "p90", "p99", "max", "total");
	for (size_t i = 0; i < n; i++) {
		const struct lat_row *r = &fl->rows[order[i]];

		str_escape(comm, sizeof comm, r->comm, strnlen(r->comm, sizeof r->comm));
		report_latency_name(r, name, sizeof name);
		lat_format_ns(p50, sizeof p50, lat_hist_percentile(&r->hist, 50));
		lat_format_ns(p90, sizeof p90, lat_hist_percentile(&r->hist, 90));
		lat_format_ns(p99, sizeof p99, lat_hist_percentile(&r->hist, 99));
		lat_format_ns(max, sizeof max, r->hist.max);
		lat_format_ns(total, sizeof total, r->hist.total);
		fprintf(out, " %-8s %-20s %8d %-16s %9llu %7llu %9.1f %8s %8s %8s %8s %8s",
		        lat_kind_name(r->kind), name, r->pid, comm,
		        (unsigned long long)r->hist.count, (unsigned long long)r->hist.errors,
		        r->rate, p50, p90, p99, max, total);
		text_change(out, ri, r);
		fputc('\n', out);
	}
	for (size_t i = 0; i < n; i++) {
		const struct lat_row *r = &fl->rows[order[i]];

		str_escape(comm, sizeof comm, r->comm, strnlen(r->comm, sizeof r->comm));
		report_latency_name(r, name, sizeof name);
		fprintf(out, "\n@%s[%s, %s %d]:\n", lat_kind_name(r->kind), name, comm, r->pid);
		report_latency_hist(out, &r->hist, 52);
		if (r->stack != NULL)
			text_stacks(out, fl->offcpu, r->stack);
	}
	text_threads(out, ri, fl);
	fputc('\n', out);
	free(order);
	fflush(out);
}

/* An offcpu row's heaviest stacks: [{"ns":N,"frames":[leaf, ..., outermost]}]. */
static void
json_stacks(FILE *out, const struct callgraph *cg, const char *root)
{
	uint32_t leaves[REPORT_LATENCY_STACKS];
	double ns[REPORT_LATENCY_STACKS];
	size_t n = offcpu_stacks(cg, root, leaves, ns, REPORT_LATENCY_STACKS);
	char name[300];

	fputs(",\"stacks\":[", out);
	for (size_t i = 0; i < n; i++) {
		const struct cg_node *nd;
		bool first = true;

		fprintf(out, "%s{\"ns\":%.0f,\"frames\":[", i > 0 ? "," : "", ns[i]);
		for (uint32_t k = leaves[i]; (nd = cg_node(cg, k)) != NULL && nd->parent != 0;
		     k = nd->parent) {
			/* escaped as text everywhere else is, then for JSON */
			cg_frame_name(nd, SYM_QUALIFIED, name, sizeof name);
			if (!first)
				fputc(',', out);
			report_json_string(out, name);
			first = false;
		}
		fputs("]}", out);
	}
	fputc(']', out);
}

/* One row as a JSON object. */
static void
json_row(FILE *out, const struct report_latency_info *ri, const struct lat_row *r,
         const struct callgraph *cg)
{
	struct diff_row d;
	unsigned first, last;
	char comm[16];
	bool any = lat_hist_range(&r->hist, &first, &last);

	fprintf(out, "{\"kind\":\"%s\",\"name\":", lat_kind_name(r->kind));
	report_json_string(out, r->name);
	fprintf(out, ",\"pid\":%d", r->pid);
	if (r->tid > 0)
		fprintf(out, ",\"tid\":%d", r->tid);
	snprintf(comm, sizeof comm, "%s", r->comm);
	report_json_member(out, "comm", comm);
	fprintf(out,
	        ",\"count\":%llu,\"errors\":%llu,\"p50_ns\":%llu,\"p99_ns\":%llu,\"max_ns\":%llu,"
	        "\"hist\":[",
	        (unsigned long long)r->hist.count, (unsigned long long)r->hist.errors,
	        (unsigned long long)lat_hist_percentile(&r->hist, 50),
	        (unsigned long long)lat_hist_percentile(&r->hist, 99),
	        (unsigned long long)r->hist.max);
	for (unsigned b = first; any && b <= last; b++)
		if (r->hist.buckets[b] != 0)
			fprintf(out, "%s[%llu,%llu]", b > first ? "," : "",
			        (unsigned long long)lat_bucket_low(b),
			        (unsigned long long)r->hist.buckets[b]);
	fprintf(out,
	        "],\"p90_ns\":%llu,\"min_ns\":%llu,\"total_ns\":%llu,\"interval\":%llu,"
	        "\"rate\":%.2f",
	        (unsigned long long)lat_hist_percentile(&r->hist, 90),
	        (unsigned long long)(r->hist.count ? r->hist.min : 0),
	        (unsigned long long)r->hist.total, (unsigned long long)r->interval, r->rate);
	if (r->stack != NULL)
		json_stacks(out, cg, r->stack);
	if (diff_latency_change(ri->base, r, &d)) {
		report_diff_json_members(out, &d, "p50_ns");
		fprintf(out, ",\"delta_p99_ns\":%.0f,\"base_p99_ns\":%.0f", d.cur2 - d.base2,
		        d.base2);
	}
	fputc('}', out);
}

/* The threads' wall clocks: "threads":[{"pid","tid","comm","oncpu_ns",
 * "offcpu_ns","sleep_ns","io_ns","lock_ns","fault_ns"}], when any. */
static void
json_threads(FILE *out, const struct frame_latency *fl)
{
	static const char *const keys[OFFCPU_NREASONS] = {"sleep_ns", "io_ns", "lock_ns",
	                                                  "fault_ns"};
	struct report_latency_thread *v;
	size_t n = report_latency_threads(fl, &v);
	char comm[17];

	if (n == 0)
		return;
	fputs(",\"threads\":[", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s{\"pid\":%d,\"tid\":%d", i ? "," : "", v[i].pid, v[i].tid);
		snprintf(comm, sizeof comm, "%.16s", v[i].comm);
		report_json_member(out, "comm", comm);
		fprintf(out, ",\"oncpu_ns\":%llu,\"offcpu_ns\":%llu",
		        (unsigned long long)v[i].oncpu, (unsigned long long)v[i].offcpu_sum);
		for (unsigned k = 0; k < OFFCPU_NREASONS; k++)
			fprintf(out, ",\"%s\":%llu", keys[k], (unsigned long long)v[i].offcpu[k]);
		fputc('}', out);
	}
	fputc(']', out);
	free(v);
}

/* One refresh as one JSON object on one line. */
void
report_latency_json(FILE *out, const struct report_latency_info *ri, const struct frame_latency *fl)
{
	size_t *order = report_latency_order(fl), n = report_latency_rows(ri, fl);

	fprintf(out, "{\"view\":\"latency\",\"time\":%.3f", ri->time);
	report_json_member(out, "target", fl->target);
	report_json_member(out, "notice", fl->notice);
	report_json_member(out, "sched_notice", fl->sched_notice);
	fprintf(out, ",\"events\":%llu,\"lost\":%llu,\"unpaired\":%llu,\"rows\":[",
	        (unsigned long long)(fl->events + fl->sched_events),
	        (unsigned long long)(fl->lost + fl->sched_lost),
	        (unsigned long long)(fl->unpaired + fl->sched_unpaired));
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			fputc(',', out);
		json_row(out, ri, &fl->rows[order[i]], fl->offcpu);
	}
	fputc(']', out);
	json_threads(out, fl);
	fputs("}\n", out);
	free(order);
	fflush(out);
}
