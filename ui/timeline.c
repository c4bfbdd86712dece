/* timeline: history on the screen. The view of an interval or a range is
 * a frame of its own, built from the history's sums, that every pane and
 * the header are given in place of the live one. The profile's part is
 * added up when the stretch shown changes; the other parts again at each
 * live refresh (they are cheap, and they share the live frame's trace
 * log and tracepoints, which a refresh moves). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/history.h"
#include "tracetop/util.h"
#include "ui/meters.h"
#include "ui/timeline.h"
#include "ui/tui.h"

struct timeline {
	struct history *h;
	bool active;
	uint64_t cur;    /* the seq of the interval shown (the cursor) */
	uint64_t anchor; /* the other end of the range, or 0 */
	struct frame view;
	struct frame_event *evs;
	struct history_sum *sums;
	size_t nev;
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

/* Draw the strip at line y: a cell per interval (the newest on the right,
 * scrolled to keep the cursor in sight), the shown ones highlighted. */
static void
timeline_draw(struct tui *t, int y)
{
	struct timeline *tl = t->timeline;
	size_t n = history_len(tl->h), first, w, a = 0, b = 0;
	int cols = COLS - 9, *levels;
	double *rates;
	char ago[16];

	move(y, 0);
	clrtoeol();
	attrset(t->theme.attr[TH_HEADER_LABEL]);
	addstr("History ");
	if (n == 0 || cols < 10) {
		attrset(A_NORMAL);
		return;
	}
	timeline_ago(ago, sizeof ago,
	             session_frame(t->session)->wall - history_info(tl->h, 0)->wall +
	                 history_info(tl->h, 0)->secs);
	cols -= (int)strlen(ago) + 5;
	if (cols < 1) {
		attrset(A_NORMAL);
		return;
	}
	w = n < (size_t)cols ? n : (size_t)cols;
	first = n - w;
	if (tl->active) {
		timeline_span(tl, &a, &b);
		if (b < first)
			first = b;
	}
	rates = xcalloc(w, sizeof *rates);
	levels = xcalloc(w, sizeof *levels);
	for (size_t i = 0; i < w; i++) {
		const struct history_info *in = history_info(tl->h, first + i);

		rates[i] = in->secs > 0 ? (double)in->samples / in->secs : 0;
	}
	timeline_levels(rates, w, levels);
	attrset(t->theme.attr[TH_HEADER_VALUE]);
	addstr(ago);
	addstr(" ");
	for (size_t i = 0; i < w; i++) {
		bool shown = tl->active && first + i >= a && first + i <= b;

		attrset(shown ? A_REVERSE | t->theme.attr[TH_HEADER_WARN]
		              : t->theme.attr[TH_HEADER_VALUE]);
		addstr(meter_glyph(levels[i], t->theme.utf8));
	}
	attrset(t->theme.attr[TH_HEADER_VALUE]);
	addstr(tl->active ? " " : " now");
	attrset(A_NORMAL);
	free(rates);
	free(levels);
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
	    a != ACT_HIST_RANGE && a != ACT_HIST_LIVE && a != ACT_FREEZE)
		return REACT_IGNORED;
	if (tl == NULL) {
		if (a == ACT_FREEZE)
			return REACT_IGNORED; /* the plain freeze */
		tui_status(t, false, "no history: it was turned off with --history 0");
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
