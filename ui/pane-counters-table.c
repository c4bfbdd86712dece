/* pane-counters-table: the Counters pane's table: its columns, each
 * row's cells (counts grouped, times in ms, sparklines, the change against
 * a baseline), their order and identity. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tracetop/report-counters.h"
#include "tracetop/report-diff.h"
#include "tracetop/util.h"
#include "ui/meters.h"
#include "ui/pane-counters-impl.h"

/* Drop order at narrow widths: History, Run%, Total, Per second (the
 * rate outlasts the total); Scope and Event are as wide as their text. */
const struct table_col cnt_cols[COL_COUNT] = {
    [COL_SCOPE] = {.title = "Scope",
                   .width = 18,
                   .min_width = 5,
                   .priority = 8,
                   .fit = true,
                   .sortable = true},
    [COL_EVENT] = {.title = "Event",
                   .width = 24,
                   .min_width = 10,
                   .priority = 9,
                   .fit = true,
                   .sortable = true},
    [COL_VALUE] = {.title = "Interval",
                   .width = 15,
                   .min_width = 8,
                   .priority = 9,
                   .right = true,
                   .sortable = true},
    [COL_RATE] = {.title = "Per second",
                  .width = 11,
                  .min_width = 8,
                  .priority = 7,
                  .right = true,
                  .sortable = true},
    [COL_TOTAL] = {.title = "Total",
                   .width = 14,
                   .min_width = 8,
                   .priority = 5,
                   .right = true,
                   .sortable = true},
    [COL_SHARE] = {.title = "Run%",
                   .width = 5,
                   .min_width = 4,
                   .priority = 2,
                   .right = true,
                   .sortable = true},
    [COL_HIST] = {.title = "History", .width = 12, .min_width = 8, .priority = 1},
    [COL_CHANGE] = {.title = "Change",
                    .width = 14,
                    .min_width = 6,
                    .priority = 6,
                    .right = true,
                    .hidden = true,
                    .sortable = true},
    [COL_NOTE] = {.title = "Note", .width = 8, .min_width = 4, .priority = 3, .flex = true},
};

/* How much a row changed since the baseline, for sorting (-1: no change
 * known). */
static double
cnt_change_key(const struct cnt *p, const struct counters_row *r)
{
	struct diff_row d;

	return diff_counter_change(p->tui->base, r, &d) ? diff_row_score(&d, false) : -1;
}

/* A count in a column: thousands grouped ("1,234,567"), or a time in
 * milliseconds for nanosecond events, or a metric's value. */
static void
cnt_number(const struct counters_row *r, double v, char *buf, size_t len)
{
	char digits[32], *o = buf;
	size_t n, lead;

	if (r->metric) {
		snprintf(buf, len, r->percent ? "%.2f%%" : "%.2f", v);
		return;
	}
	if (r->nsec) {
		snprintf(buf, len, "%.2f ms", v / 1e6);
		return;
	}
	snprintf(digits, sizeof digits, "%.0f", v < 0 ? 0 : v);
	n = strlen(digits);
	lead = n % 3 ? n % 3 : 3;
	if (len < n + n / 3 + 1) {
		snprintf(buf, len, "%s", digits);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (i >= lead && (i - lead) % 3 == 0)
			*o++ = ',';
		*o++ = digits[i];
	}
	*o = '\0';
}

/* A sparkline of the row's history, scaled to its largest value. */
static void
cnt_sparkline(const struct counters_row *r, bool utf8, char *buf, size_t len)
{
	size_t used = 0, from = r->nhist > 12 ? r->nhist - 12 : 0;
	double max = 0;

	buf[0] = '\0';
	for (size_t i = from; i < r->nhist; i++)
		max = r->history[i] > max ? r->history[i] : max;
	for (size_t i = from; i < r->nhist; i++) {
		int level = max > 0 ? (int)(r->history[i] / max * 7 + 0.5) : 0;
		const char *g = meter_glyph(level, utf8);
		size_t gl = strlen(g);

		if (used + gl + 1 > len)
			break;
		memcpy(buf + used, g, gl + 1);
		used += gl;
	}
}

/* Cell text. */
static void
cnt_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct counters_row *r = row;
	const struct cnt *p = ctx;
	char esc[96];

	buf[0] = '\0';
	switch ((enum cnt_col)col) {
	case COL_SCOPE:
		report_counters_scope(r, buf, len);
		break;
	case COL_EVENT:
		str_escape(esc, sizeof esc, r->event, strlen(r->event));
		snprintf(buf, len, "%s", esc);
		break;
	case COL_VALUE:
		if (!r->supported)
			snprintf(buf, len, "<not supported>");
		else
			cnt_number(r, r->value, buf, len);
		break;
	case COL_RATE:
		cntgrid_rate_text(r, buf, len);
		break;
	case COL_TOTAL:
		if (r->supported)
			cnt_number(r, r->total, buf, len);
		break;
	case COL_SHARE:
		if (r->supported && !r->metric)
			snprintf(buf, len, r->share >= 0.9995 ? "100" : "%.1f", r->share * 100);
		break;
	case COL_HIST:
		if (r->supported)
			cnt_sparkline(r, p->utf8, buf, len);
		break;
	case COL_CHANGE: {
		struct diff_row d;

		if (diff_counter_change(p->tui->base, r, &d))
			report_diff_text_cell(&d, false, buf, len);
		break;
	}
	case COL_NOTE:
		if (!r->supported)
			snprintf(buf, len, "%s", r->reason ? r->reason : "");
		else if (r->metric && r->note != NULL && strcmp(r->note, r->event) != 0)
			snprintf(buf, len, "%s", r->note);
		break;
	case COL_COUNT:
		break;
	}
}

/* The natural order: scope kind, CPU or pid, then the events as given
 * with their metrics after them. */
static int
cnt_natural(const struct counters_row *a, const struct counters_row *b)
{
	if (a->kind != b->kind)
		return CMP3(a->kind, b->kind);
	if (a->cpu != b->cpu)
		return CMP3(a->cpu, b->cpu);
	if (a->pid != b->pid)
		return CMP3(a->pid, b->pid);
	if (a->metric != b->metric)
		return a->metric ? 1 : -1;
	return CMP3(a->event_idx, b->event_idx);
}

/* Numbers of unsupported rows sort below every real value. */
static double
cnt_key(const struct counters_row *r, double v)
{
	return r->supported ? v : -INFINITY;
}

/* Order two rows by a column. */
static int
cnt_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct counters_row *a = pa, *b = pb;
	double x = 0, y = 0;

	switch ((enum cnt_col)col) {
	case COL_EVENT: {
		int c = strcmp(a->event, b->event);

		return c != 0 ? c : cnt_natural(a, b);
	}
	case COL_VALUE:
		x = cnt_key(a, a->value), y = cnt_key(b, b->value);
		break;
	case COL_RATE:
		x = cnt_key(a, a->rate), y = cnt_key(b, b->rate);
		break;
	case COL_TOTAL:
		x = cnt_key(a, a->total), y = cnt_key(b, b->total);
		break;
	case COL_SHARE:
		x = cnt_key(a, a->share), y = cnt_key(b, b->share);
		break;
	case COL_CHANGE:
		x = cnt_change_key(ctx, a), y = cnt_change_key(ctx, b);
		break;
	default:
		return cnt_natural(a, b);
	}
	if (x != y)
		return CMP3(x, y);
	return cnt_natural(a, b);
}

/* Identity across refreshes: scope key and event (names are interned). */
static uintptr_t
cnt_row_id(const void *row, void *ctx)
{
	const struct counters_row *r = row;

	(void)ctx;
	return (uintptr_t)hash_u64((uint64_t)(uintptr_t)r->event ^
	                           ((uint64_t)r->kind << 60 | (uint64_t)(uint32_t)r->cpu << 32 |
	                            (uint32_t)r->pid | (uint64_t)r->metric << 59));
}

/* Filter and search over scope and event. */
static bool
cnt_match(const void *row, const char *text, void *ctx)
{
	const struct counters_row *r = row;
	char scope[96];

	(void)ctx;
	report_counters_scope(r, scope, sizeof scope);
	return strcasestr(scope, text) != NULL || strcasestr(r->event, text) != NULL;
}

/* Dim what cannot be counted. */
static attr_t
cnt_cell_attr(const void *row, size_t col, const struct theme *th, void *ctx)
{
	const struct counters_row *r = row;

	(void)ctx;
	if (!r->supported && (col == COL_VALUE || col == COL_NOTE))
		return th->attr[TH_DIM];
	if (col == COL_HIST)
		return th->attr[TH_BAR];
	return 0;
}

const struct table_ops cnt_table_ops = {
    .cell = cnt_cell,
    .compare = cnt_compare,
    .row_id = cnt_row_id,
    .match = cnt_match,
    .cell_attr = cnt_cell_attr,
};
