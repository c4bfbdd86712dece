/* timeline: history on the screen. The view of an interval or a range is
 * a frame of its own, built from the history's sums, that every pane and
 * the header are given in place of the live one. The profile's part is
 * added up when the stretch shown changes; the other parts again at each
 * live refresh (they are cheap, and they share the live frame's trace
 * log and tracepoints, which a refresh moves). The strip shows samples/s
 * per interval or (T) the share of the Top pane's selected row, whose
 * per-interval counts are taken from the history when the row changes
 * and for each interval that comes, not at every draw. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/history.h"
#include "tracetop/util.h"
#include "ui/meters.h"
#include "ui/timeline.h"
#include "ui/tui.h"
#include "ui/wtext.h"

/* Columns of a row's name in the strip's label at most. */
#define TIMELINE_NAME_CELLS 24

struct timeline {
	struct history *h;
	bool active;
	uint64_t cur;    /* the seq of the interval shown (the cursor) */
	uint64_t anchor; /* the other end of the range, or 0 */
	struct frame view;
	struct frame_event *evs;
	struct history_sum *sums;
	size_t nev;
	/* T: the strip shows the share of the Top pane's selected row (have:
	 * one was selected; it stays while none is): its key, grouping,
	 * event and name, and the counts of the intervals held, oldest
	 * first */
	bool share, have;
	struct hist_key key;
	unsigned group;
	size_t ev;
	char name[128];
	struct history_row_count *counts;
	size_t ncounts, counts_cap;
};

/* Free the view's rows and sums. */
static void
timeline_clear_view(struct timeline *tl)
{
	history_view_free(&tl->view);
	for (size_t e = 0; e < tl->nev; e++) {
		hist_snapshot_free(&tl->evs[e].rows);
		history_sum_free(&tl->sums[e]);
	}
	free(tl->evs);
	free(tl->sums);
	tl->evs = NULL;
	tl->sums = NULL;
	tl->nev = 0;
}

/* The index of seq in the history, or the oldest's when it has gone. */
static size_t
timeline_index(const struct timeline *tl, uint64_t seq)
{
	long i = history_find(tl->h, seq);

	return i >= 0 ? (size_t)i : 0;
}

/* The indices of the stretch shown: the cursor's interval, or the range
 * between it and the anchor, oldest first. */
static void
timeline_span(const struct timeline *tl, size_t *a, size_t *b)
{
	size_t x = timeline_index(tl, tl->anchor ? tl->anchor : tl->cur);
	size_t y = timeline_index(tl, tl->cur);

	*a = x < y ? x : y;
	*b = x < y ? y : x;
}

/* Minutes and seconds before now, "-MM:SS". */
static void
timeline_ago(char *buf, size_t len, double secs)
{
	long s = secs > 0 && secs < 1e9 ? (long)(secs + 0.5) : 0;
	int m = s / 60 > 9999 ? 9999 : (int)(s / 60), sec = (int)(s % 60);

	snprintf(buf, len, "-%02d:%02d", m, sec);
}

/* The header's label: which stretch of the past is shown. */
static void
timeline_label(struct tui *t)
{
	struct timeline *tl = t->timeline;
	const struct history_info *from, *to;
	double now = session_frame(t->session)->wall;
	char x[16], y[16];
	size_t a, b;

	timeline_span(tl, &a, &b);
	from = history_info(tl->h, a);
	to = history_info(tl->h, b);
	if (from == NULL || to == NULL) {
		t->history_label[0] = '\0';
		return;
	}
	timeline_ago(x, sizeof x, now - (from->wall - from->secs));
	timeline_ago(y, sizeof y, now - to->wall);
	snprintf(t->history_label, sizeof t->history_label, "HISTORY %s .. %s%s", x, y,
	         tl->anchor ? " (range)" : "");
}

/* The view's header numbers from the live frame (what the sampling
 * source says of itself), its samples and seconds the stretch's. */
static void
timeline_sampling(struct timeline *tl, const struct frame *live)
{
	struct frame_sampling *fs = &tl->view.sampling;
	double secs = fs->stats.interval_secs;

	*fs = live->sampling;
	fs->events = tl->evs;
	fs->nevents = fs->cap = tl->nev;
	fs->stats.interval_secs = secs;
}

/* The other parts of the view, added up again, to the panes that read
 * them and the header. */
static void
timeline_parts(struct tui *t)
{
	struct timeline *tl = t->timeline;
	const struct frame *live = session_frame(t->session);
	size_t a, b;

	timeline_span(tl, &a, &b);
	history_view_free(&tl->view);
	history_view(tl->h, a, b, live, &tl->view);
	timeline_sampling(tl, live);
	tui_update(t, &tl->view, ~(unsigned)PANE_READS_SAMPLING);
}

/* Build the view of the cursor's interval (or the range to the anchor)
 * and give it to the panes and the header. */
void
timeline_refresh(struct tui *t)
{
	static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	struct timeline *tl = t->timeline;
	const struct frame *live = session_frame(t->session);
	size_t a, b, n = live->sampling.nevents;

	if (tl == NULL || !tl->active || history_len(tl->h) == 0)
		return;
	timeline_span(tl, &a, &b);
	timeline_clear_view(tl);
	tl->nev = n;
	tl->evs = xcalloc(n ? n : 1, sizeof *tl->evs);
	tl->sums = xcalloc(n ? n : 1, sizeof *tl->sums);
	memset(&tl->view, 0, sizeof tl->view);
	tl->view.seq = live->seq;
	tl->view.wall = history_info(tl->h, b)->wall;
	tl->view.has_sampling = true;
	tl->view.sampling = live->sampling;
	tl->view.sampling.events = tl->evs;
	tl->view.sampling.nevents = tl->view.sampling.cap = n;
	for (size_t e = 0; e < n; e++) {
		history_sum(tl->h, a, b, e, &tl->sums[e]);
		tl->evs[e].name = live->sampling.events[e].name;
		tl->evs[e].samples = tl->sums[e].samples;
		tl->evs[e].total = live->sampling.events[e].total;
		tl->evs[e].cg = tl->sums[e].cg;
		hist_snapshot(tl->sums[e].hist, by_overhead, NULL, NULL, &tl->evs[e].rows);
	}
	tl->view.secs = n > 0 ? tl->sums[0].secs : 0;
	tl->view.sampling.stats.interval_secs = tl->view.secs;
	timeline_label(t);
	tui_update(t, &tl->view, PANE_READS_SAMPLING);
	timeline_parts(t);
}

/* Leave the history: the panes get the live frame again. */
static void
timeline_live(struct tui *t)
{
	struct timeline *tl = t->timeline;

	tl->active = false;
	tl->anchor = 0;
	t->history_label[0] = '\0';
	tui_update(t, session_frame(t->session), ~0u);
	timeline_clear_view(tl);
}

/* Move the cursor to interval i and show it. */
static void
timeline_go(struct tui *t, size_t i)
{
	struct timeline *tl = t->timeline;

	tl->cur = history_info(tl->h, i)->seq;
	tl->active = true;
	timeline_refresh(t);
}

/* Follow the Top pane's selection: a row other than the one counted (or
 * another event shown) is counted again from the start. */
static void
timeline_share_row(struct tui *t)
{
	struct timeline *tl = t->timeline;
	struct hist_key key;
	unsigned group;
	char name[sizeof tl->name];

	if (!pane_top_selected(t, &key, &group, name, sizeof name))
		return; /* none selected: the row counted stays */
	if (tl->have && group == tl->group && t->event == tl->ev &&
	    hist_same_group(&key, &tl->key, group))
		return;
	tl->have = true;
	tl->key = key;
	tl->group = group;
	tl->ev = t->event;
	memcpy(tl->name, name, sizeof name);
	tl->ncounts = 0;
}

/* Bring the row's counts up to the history: the intervals gone dropped,
 * those that came counted. */
static void
timeline_share_sync(struct timeline *tl)
{
	size_t n = history_len(tl->h), gone = 0;

	if (!tl->have || n == 0) {
		tl->ncounts = 0;
		return;
	}
	while (gone < tl->ncounts && tl->counts[gone].seq < history_info(tl->h, 0)->seq)
		gone++;
	if (gone > 0) {
		memmove(tl->counts, tl->counts + gone, (tl->ncounts - gone) * sizeof *tl->counts);
		tl->ncounts -= gone;
	}
	if (tl->ncounts > n || (tl->ncounts > 0 && tl->counts[tl->ncounts - 1].seq !=
	                                               history_info(tl->h, tl->ncounts - 1)->seq))
		tl->ncounts = 0; /* not the history's intervals any more: again */
	if (tl->ncounts == n)
		return;
	if (tl->counts_cap < n) {
		tl->counts_cap = 2 * n;
		tl->counts = xrealloc(tl->counts, tl->counts_cap * sizeof *tl->counts);
	}
	history_row_counts(tl->h, tl->ev, &tl->key, tl->group, tl->ncounts, n - 1,
	                   tl->counts + tl->ncounts);
	tl->ncounts = n;
}

/* The strip's label: what it shows ("samples/s", or the row's share and
 * its peak among the cells drawn) and for which row (its name cut to
 * TIMELINE_NAME_CELLS), into wt. */
static void
timeline_strip_label(struct tui *t, const double *rates, size_t w, struct wtext *wt)
{
	struct timeline *tl = t->timeline;
	struct pen pen;
	struct wtext tail;
	double peak = 0;
	char buf[64];

	wtext_set(wt, "History ");
	if (!tl->share) {
		wtext_set(&tail, "samples/s ");
		wtext_append(wt, &tail);
		return;
	}
	if (!tl->have) {
		wtext_set(&tail, "share: no Top row selected ");
		wtext_append(wt, &tail);
		return;
	}
	for (size_t i = 0; i < w; i++)
		peak = rates[i] > peak ? rates[i] : peak;
	pen_init(&pen, stdscr, &t->theme);
	wtext_set(&tail, "share of ");
	wtext_append(wt, &tail);
	wtext_set(&tail, tl->name);
	wtext_fit(&tail, TIMELINE_NAME_CELLS, &pen.ell);
	wtext_append(wt, &tail);
	snprintf(buf, sizeof buf, " (peak %.0f%%) ", 100 * peak);
	wtext_set(&tail, buf);
	wtext_append(wt, &tail);
}

/* Draw the strip at line y: a label, then a cell per interval (the
 * newest on the right, scrolled to keep the cursor in sight), the shown
 * ones highlighted; with T, the cells are the selected row's share of
 * each interval's samples, blank for an interval whose rows were not
 * kept (a frozen screen's). */
static void
timeline_draw(struct tui *t, int y)
{
	struct timeline *tl = t->timeline;
	size_t n = history_len(tl->h), first, w, a = 0, b = 0;
	int cols, *levels;
	double *rates;
	bool *blank;
	char ago[16];
	struct wtext label;

	move(y, 0);
	clrtoeol();
	if (tl->share) {
		timeline_share_row(t);
		timeline_share_sync(tl);
	}
	timeline_ago(ago, sizeof ago,
	             n == 0 ? 0
	                    : session_frame(t->session)->wall - history_info(tl->h, 0)->wall +
	                          history_info(tl->h, 0)->secs);
	/* the cells' room: the label at its widest (a peak of 100 %) */
	timeline_strip_label(t, (const double[]){1.0}, 1, &label);
	cols = COLS - label.width - (int)strlen(ago) - 6;
	w = n < (size_t)(cols > 0 ? cols : 0) ? n : (size_t)(cols > 0 ? cols : 0);
	first = n - w;
	if (tl->active) {
		timeline_span(tl, &a, &b);
		if (b < first)
			first = b;
	}
	rates = xcalloc(w ? w : 1, sizeof *rates);
	levels = xcalloc(w ? w : 1, sizeof *levels);
	blank = xcalloc(w ? w : 1, sizeof *blank);
	for (size_t i = 0; i < w; i++) {
		const struct history_info *in = history_info(tl->h, first + i);
		const struct history_row_count *c =
		    first + i < tl->ncounts ? &tl->counts[first + i] : NULL;

		if (!tl->share)
			rates[i] = in->secs > 0 ? (double)in->samples / in->secs : 0;
		else if (c != NULL && c->rows)
			rates[i] = c->samples > 0 ? (double)c->row / (double)c->samples : 0;
		else
			blank[i] = true;
	}
	timeline_levels(rates, w, levels);
	timeline_strip_label(t, rates, w, &label);
	attrset(t->theme.attr[TH_HEADER_LABEL]);
	addnwstr(label.s, label.n);
	if (n > 0 && cols >= 1) {
		attrset(t->theme.attr[TH_HEADER_VALUE]);
		addstr(ago);
		addstr(" ");
		for (size_t i = 0; i < w; i++) {
			bool shown = tl->active && first + i >= a && first + i <= b;

			attrset(shown ? A_REVERSE | t->theme.attr[TH_HEADER_WARN]
			              : t->theme.attr[TH_HEADER_VALUE]);
			addstr(blank[i] ? " " : meter_glyph(levels[i], t->theme.utf8));
		}
		attrset(t->theme.attr[TH_HEADER_VALUE]);
		addstr(tl->active ? " " : " now");
	}
	attrset(A_NORMAL);
	free(rates);
	free(levels);
	free(blank);
}

/* Levels of a strip, the largest rate at 7; a non-zero rate at least 1. */
void
timeline_levels(const double *rates, size_t n, int *levels)
{
	double max = 0;

	for (size_t i = 0; i < n; i++)
		if (rates[i] > max)
			max = rates[i];
	for (size_t i = 0; i < n; i++) {
		int l = max > 0 ? (int)(rates[i] / max * 7 + 0.5) : 0;

		levels[i] = l == 0 && rates[i] > 0 ? 1 : l;
	}
}

/* Make the timeline when the session keeps a history. */
void
timeline_init(struct tui *t)
{
	struct history *h = session_history(t->session);

	if (h == NULL)
		return;
	t->timeline = xcalloc(1, sizeof *t->timeline);
	t->timeline->h = h;
	t->strip_lines = 1;
	t->strip_draw = timeline_draw;
}

/* Free the timeline and its view. */
void
timeline_free(struct tui *t)
{
	if (t->timeline == NULL)
		return;
	t->frame = session_frame(t->session); /* not the view, about to go */
	timeline_clear_view(t->timeline);
	free(t->timeline->counts);
	free(t->timeline);
	t->timeline = NULL;
}

/* Whether the history is shown. */
bool
timeline_active(const struct tui *t)
{
	return t->timeline != NULL && t->timeline->active;
}

/* A live refresh: a view whose intervals have gone moves to the oldest;
 * the label's "ago" moves on. */
void
timeline_frame(struct tui *t)
{
	struct timeline *tl = t->timeline;

	if (!timeline_active(t))
		return;
	if (history_find(tl->h, tl->cur) < 0 ||
	    (tl->anchor != 0 && history_find(tl->h, tl->anchor) < 0)) {
		if (history_find(tl->h, tl->anchor) < 0)
			tl->anchor = 0;
		timeline_go(t, timeline_index(tl, tl->cur));
		return;
	}
	timeline_label(t);
	timeline_parts(t);
}

/* The history keys. */
int
timeline_action(struct tui *t, enum action a)
{
	struct timeline *tl = t->timeline;
	size_t n, i;

	if (a != ACT_HIST_BACK && a != ACT_HIST_FORWARD && a != ACT_HIST_SPIKE &&
	    a != ACT_HIST_RANGE && a != ACT_HIST_LIVE && a != ACT_FREEZE && a != ACT_HIST_SHARE)
		return REACT_IGNORED;
	if (tl == NULL) {
		if (a == ACT_FREEZE)
			return REACT_IGNORED; /* the plain freeze */
		tui_status(t, false, "no history: it was turned off with --history 0");
		return REACT_REDRAW;
	}
	if (a == ACT_HIST_SHARE) {
		tl->share = !tl->share;
		tl->have = false; /* the row selected now */
		tl->ncounts = 0;
		return REACT_REDRAW;
	}
	n = history_len(tl->h);
	if (n == 0 && a != ACT_HIST_LIVE) {
		tui_status(t, false, "no history yet: the first refresh has not ended");
		return REACT_REDRAW;
	}
	i = tl->active ? timeline_index(tl, tl->cur) : n - 1;
	switch (a) {
	case ACT_FREEZE:
		if (tl->active)
			timeline_live(t);
		else
			timeline_go(t, n - 1);
		break;
	case ACT_HIST_BACK:
		timeline_go(t, tl->active && i > 0 ? i - 1 : i);
		break;
	case ACT_HIST_FORWARD:
		if (!tl->active)
			break;
		if (i + 1 < n)
			timeline_go(t, i + 1);
		else if (tl->anchor == 0)
			timeline_live(t); /* past the newest: now */
		break;
	case ACT_HIST_SPIKE:
		tl->anchor = 0;
		timeline_go(t, history_spike(tl->h));
		break;
	case ACT_HIST_RANGE:
		if (tl->anchor != 0) {
			tl->anchor = 0;
		} else {
			tl->active = true;
			tl->cur = history_info(tl->h, i)->seq;
			tl->anchor = tl->cur;
			tui_status(t, false,
			           "range from this interval: step with , and . to its other end");
		}
		timeline_refresh(t);
		break;
	default:
		timeline_live(t);
		break;
	}
	return REACT_REDRAW;
}
