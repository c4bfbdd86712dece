/* pane-trace: the live tracepoint stream, like trace-cmd stream, in the
 * shared table: one row per logged event (time, CPU, command, event,
 * decoded fields), following the newest unless the user moved away or
 * paused; a second table counts events per tracepoint; with -g the stack
 * of the selected event sits below the list. Rows hold only what sorting
 * needs and the event's sequence number: the fields are decoded from the
 * log when drawn, so an event pushed out of the log meanwhile just says so. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/evspec.h"
#include "tracetop/stream.h"
#include "tracetop/util.h"
#include "ui/listpane.h"
#include "ui/trace-edit.h"
#include "ui/timeline.h"
#include "ui/tui.h"

#define TRACE_STACK_LINES 8 /* frames shown under the list, at most */
#define TRACE_FIELDS_MAX 1024

enum trace_col { TCOL_TIME, TCOL_CPU, TCOL_TASK, TCOL_EVENT, TCOL_FIELDS, TCOL_COUNT };

/* At 80 columns the fields keep 30 and more: the CPU, then the time go
 * first; the command and the event are as wide as their text. */
static const struct table_col trace_cols[TCOL_COUNT] = {
    [TCOL_TIME] = {.title = "Time",
                   .width = 15,
                   .min_width = 8,
                   .priority = 5,
                   .right = true,
                   .fit = true,
                   .sortable = true},
    [TCOL_CPU] = {.title = "CPU",
                  .width = 4,
                  .min_width = 3,
                  .priority = 2,
                  .right = true,
                  .sortable = true},
    [TCOL_TASK] = {.title = "Command-PID",
                   .width = 22,
                   .min_width = 8,
                   .priority = 6,
                   .fit = true,
                   .sortable = true},
    [TCOL_EVENT] = {.title = "Event",
                    .width = 26,
                    .min_width = 10,
                    .priority = 7,
                    .fit = true,
                    .sortable = true},
    [TCOL_FIELDS] = {.title = "Fields", .width = 30, .min_width = 8, .priority = 9, .flex = true},
};

enum sum_col { SCOL_EVENT, SCOL_TOTAL, SCOL_RATE, SCOL_INTERVAL, SCOL_FILTER, SCOL_COUNT };

/* At 80 columns the rate and the filters stay: Last refresh goes first,
 * the event is as wide as its names, the filter takes the rest. */
static const struct table_col sum_cols[SCOL_COUNT] = {
    [SCOL_EVENT] = {.title = "Event",
                    .width = 40,
                    .min_width = 10,
                    .priority = 9,
                    .fit = true,
                    .sortable = true},
    [SCOL_TOTAL] = {.title = "Total",
                    .width = 10,
                    .min_width = 6,
                    .priority = 8,
                    .right = true,
                    .sortable = true},
    [SCOL_RATE] = {.title = "Per second",
                   .width = 11,
                   .min_width = 6,
                   .priority = 7,
                   .right = true,
                   .sortable = true},
    [SCOL_INTERVAL] = {.title = "Last refresh",
                       .width = 12,
                       .min_width = 6,
                       .priority = 3,
                       .right = true,
                       .sortable = true},
    [SCOL_FILTER] = {.title = "Filter", .width = 24, .min_width = 6, .priority = 4, .flex = true},
};

enum trace_menu_id {
	MENU_ONLY_PID,
	MENU_ONLY_EVENT,
	MENU_SHOW_ALL,
	MENU_STOP_EVENT,
};

/* What a stream row keeps: enough to sort and to find the event again. */
struct trace_row {
	uint64_t seq, time;
	int cpu, pid;
	const char *comm, *event; /* interned by the stream */
};

struct trace {
	struct listpane list; /* first: the listpane_pane_* ops take the pane as it */
	struct listpane sum;  /* the counts per event */
	bool summary;         /* the summary is shown */
	struct trace_row *rows;
	const void **ptrs;
	size_t nrows, cap;
	struct stream_event_info *infos;
	const void **info_ptrs;
	size_t ninfos, info_cap;
	struct stream_filter only; /* from the Enter menu */
	char only_comm[32], only_event[128];
	char **catalog; /* tracepoints for the checklist, on first use */
	bool *marks;
	size_t ncatalog;
	uint64_t t0;                  /* time of the first event seen: times are shown from it */
	bool ftrace_prompt;           /* the open prompt asks for functions to follow */
	struct trace_kfilter kfilter; /* ... or for an event's kernel filter */
	struct tui *tui;
};

/* The frame's entry for a row, if the log still holds it. */
static bool
trace_entry(const struct trace *p, const struct trace_row *r, struct stream_entry *en)
{
	return p->tui->frame != NULL && frame_trace_find(p->tui->frame, r->seq, en);
}

/* Cell text of a stream row. */
static void
trace_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct trace_row *r = row;
	struct trace *p = ctx;
	struct stream_entry en;
	char esc[64];
	uint64_t t = r->time - p->t0;

	buf[0] = '\0';
	switch ((enum trace_col)col) {
	case TCOL_TIME:
		snprintf(buf, len, "%llu.%06llu", (unsigned long long)(t / 1000000000),
		         (unsigned long long)(t % 1000000000 / 1000));
		break;
	case TCOL_CPU:
		snprintf(buf, len, "%d", r->cpu);
		break;
	case TCOL_TASK:
		str_escape(esc, sizeof esc, r->comm ? r->comm : "<...>",
		           r->comm ? strlen(r->comm) : 5);
		snprintf(buf, len, "%s-%d", esc, r->pid);
		break;
	case TCOL_EVENT:
		snprintf(buf, len, "%s", r->event ? r->event : "?");
		break;
	case TCOL_FIELDS:
		if (trace_entry(p, r, &en))
			frame_trace_fields(p->tui->frame, &en, buf, len);
		else
			snprintf(buf, len, "(dropped from the log)");
		break;
	case TCOL_COUNT:
		break;
	}
}

/* Rows by a column; ties in time order. */
static int
trace_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct trace_row *a = pa, *b = pb;
	int c = 0;

	(void)ctx;
	switch ((enum trace_col)col) {
	case TCOL_CPU:
		c = CMP3(a->cpu, b->cpu);
		break;
	case TCOL_TASK:
		c = strcmp(a->comm ? a->comm : "", b->comm ? b->comm : "");
		if (c == 0)
			c = CMP3(a->pid, b->pid);
		break;
	case TCOL_EVENT:
		c = strcmp(a->event ? a->event : "", b->event ? b->event : "");
		break;
	default:
		break;
	}
	return c != 0 ? c : CMP3(a->seq, b->seq);
}

/* A row's identity: its sequence number in the stream. */
static uintptr_t
trace_row_id(const void *row, void *ctx)
{
	(void)ctx;
	return (uintptr_t)((const struct trace_row *)row)->seq + 1;
}

/* Filter and search: command, pid, event and the decoded fields. */
static bool
trace_match(const void *row, const char *text, void *ctx)
{
	const struct trace_row *r = row;
	char buf[TRACE_FIELDS_MAX];

	if ((r->comm && strcasestr(r->comm, text)) || (r->event && strcasestr(r->event, text)))
		return true;
	snprintf(buf, sizeof buf, "%d", r->pid);
	if (strcmp(buf, text) == 0)
		return true;
	trace_cell(row, TCOL_FIELDS, buf, sizeof buf, ctx);
	return strcasestr(buf, text) != NULL;
}

/* Kernel-side names dimmed, like the Top pane's markers. */
static attr_t
trace_cell_attr(const void *row, size_t col, const struct theme *th, void *ctx)
{
	(void)row;
	(void)ctx;
	return col == TCOL_TIME || col == TCOL_CPU ? th->attr[TH_DIM] : 0;
}

static const struct table_ops trace_table_ops = {
    .cell = trace_cell,
    .compare = trace_compare,
    .row_id = trace_row_id,
    .match = trace_match,
    .cell_attr = trace_cell_attr,
};

/* The tracepoint name as the shown frame had it: NULL when it was off
 * (its row stays in the summary). */
static const struct frame_tracepoint *
sum_on(const struct trace *p, const char *name)
{
	return p->tui->frame != NULL ? frame_trace_on(p->tui->frame, name) : NULL;
}

/* Cell text of a summary row. */
static void
sum_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct stream_event_info *in = row;
	struct trace *p = ctx;
	const struct frame_tracepoint *on = sum_on(p, in->name);

	buf[0] = '\0';
	switch ((enum sum_col)col) {
	case SCOL_EVENT:
		snprintf(buf, len, "%s%s", in->name, on != NULL ? "" : " (off)");
		break;
	case SCOL_TOTAL:
		snprintf(buf, len, "%llu", (unsigned long long)in->total);
		break;
	case SCOL_RATE:
		snprintf(buf, len, "%.1f", in->rate);
		break;
	case SCOL_INTERVAL:
		snprintf(buf, len, "%llu", (unsigned long long)in->interval);
		break;
	case SCOL_FILTER:
		snprintf(buf, len, "%s", on != NULL && on->filter != NULL ? on->filter : "");
		break;
	case SCOL_COUNT:
		break;
	}
}

/* Summary rows by a column. */
static int
sum_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct stream_event_info *a = pa, *b = pb;

	(void)ctx;
	switch ((enum sum_col)col) {
	case SCOL_TOTAL:
		if (a->total != b->total)
			return CMP3(a->total, b->total);
		break;
	case SCOL_RATE:
		if (a->rate != b->rate)
			return CMP3(a->rate, b->rate);
		break;
	case SCOL_INTERVAL:
		if (a->interval != b->interval)
			return CMP3(a->interval, b->interval);
		break;
	default:
		break;
	}
	return strcmp(a->name, b->name);
}

/* A summary row's identity: its (interned) event name. */
static uintptr_t
sum_row_id(const void *row, void *ctx)
{
	(void)ctx;
	return (uintptr_t)((const struct stream_event_info *)row)->name;
}

/* Filter and search the summary by event name. */
static bool
sum_match(const void *row, const char *text, void *ctx)
{
	(void)ctx;
	return strcasestr(((const struct stream_event_info *)row)->name, text) != NULL;
}

static const struct table_ops sum_table_ops = {
    .cell = sum_cell,
    .compare = sum_compare,
    .row_id = sum_row_id,
    .match = sum_match,
};

/* Create the pane. */
static void *
trace_init(struct tui *t)
{
	struct trace *p = xcalloc(1, sizeof *p);

	p->tui = t;
	table_init(&p->list.table, trace_cols, TCOL_COUNT, &trace_table_ops, p);
	table_sort_by(&p->list.table, TCOL_TIME, false);
	p->list.table.follow = true;
	table_init(&p->sum.table, sum_cols, SCOL_COUNT, &sum_table_ops, p);
	table_sort_by(&p->sum.table, SCOL_TOTAL, true);
	return p;
}

/* Free the pane. */
static void
trace_free(void *pp)
{
	struct trace *p = pp;

	table_free(&p->list.table);
	table_free(&p->sum.table);
	names_free(p->catalog, p->ncatalog);
	free(p->marks);
	free(p->rows);
	free(p->ptrs);
	free(p->infos);
	free(p->info_ptrs);
	free(p);
}

/* Make room for n rows and n summary rows. */
static void
trace_reserve(struct trace *p, size_t n, size_t ninfos)
{
	if (p->cap < n) {
		p->cap = n;
		p->rows = xrealloc(p->rows, n * sizeof *p->rows);
		p->ptrs = xrealloc(p->ptrs, n * sizeof *p->ptrs);
	}
	if (p->info_cap < ninfos) {
		p->info_cap = ninfos;
		p->infos = xrealloc(p->infos, ninfos * sizeof *p->infos);
		p->info_ptrs = xrealloc(p->info_ptrs, ninfos * sizeof *p->info_ptrs);
	}
}

/* A refresh: the frame's log entries (those the Enter menu keeps) and the
 * per-event counts. */
static void
trace_update(void *pp, struct tui *t, const struct frame *f)
{
	struct trace *p = pp;
	size_t n = frame_trace_len(f), ne = f->trace.nevents, k = 0;
	struct stream_entry en;

	(void)t;
	trace_reserve(p, n, ne);
	for (size_t i = 0; i < n; i++) {
		if (!frame_trace_get(f, i, &en) || !stream_match(&en, &p->only))
			continue;
		if (p->t0 == 0 || en.time < p->t0)
			p->t0 = en.time;
		p->rows[k] = (struct trace_row){en.seq, en.time, en.cpu, en.pid, en.comm, en.event};
		p->ptrs[k] = &p->rows[k];
		k++;
	}
	p->nrows = k;
	table_set_rows(&p->list.table, p->ptrs, k);
	for (size_t i = 0; i < ne; i++) {
		p->infos[i] = f->trace.events[i];
		p->info_ptrs[i] = &p->infos[i];
	}
	p->ninfos = ne;
	table_set_rows(&p->sum.table, p->info_ptrs, ne);
}

/* The stack of the selected event (with -g), under the list; returns the
 * lines it took. */
static int
trace_draw_stack(struct trace *p, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	const struct trace_row *r = table_selected(&p->list.table);
	struct stream_entry en;
	char frame[256];
	bool kernel;
	int n = 0;

	if (r == NULL || !trace_entry(p, r, &en) || en.nips == 0 || h < 8)
		return 0;
	while (n < TRACE_STACK_LINES && n < h / 3 &&
	       frame_trace_stack(t->frame, &en, (size_t)n, frame, sizeof frame, &kernel))
		n++;
	if (n == 0)
		return 0;
	wattrset(win, t->theme.attr[TH_TITLE]);
	mvwhline(win, y + h - n - 1, x, ' ', w);
	mvwaddnstr(win, y + h - n - 1, x, "Stack of the selected event", w);
	for (int i = 0; i < n; i++) {
		frame_trace_stack(t->frame, &en, (size_t)i, frame, sizeof frame, &kernel);
		wattrset(win, kernel ? t->theme.attr[TH_KERNEL] : A_NORMAL);
		mvwhline(win, y + h - n + i, x, ' ', w);
		mvwaddnstr(win, y + h - n + i, x + 2, frame, w - 2);
	}
	wattrset(win, A_NORMAL);
	return n + 1;
}

/* The kernel filters on the tracepoints, for the status line: " (filter:
 * EXPR)" for one, " (N filtered)" for more, "" for none. */
static void
trace_filters_note(const struct frame_trace *ft, char *buf, size_t len)
{
	size_t n = 0, last = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ft->non; i++)
		if (ft->on[i].filter != NULL && ft->on[i].filter[0] != '\0') {
			n++;
			last = i;
		}
	if (n == 1) {
		char esc[160];

		str_escape(esc, sizeof esc, ft->on[last].filter, strlen(ft->on[last].filter));
		snprintf(buf, len, " (filter: %s)", esc);
	} else if (n > 1)
		snprintf(buf, len, " (%zu filtered in the kernel)", n);
}

/* The status line of a history view: the stretch's counts, and how many
 * of its events the log no longer holds. */
static int
trace_history_title(const struct frame_trace *ft, char *line, size_t len)
{
	uint64_t events = 0;
	double rate = 0;
	int n;

	for (size_t i = 0; i < ft->nevents; i++) {
		events += ft->events[i].interval;
		rate += ft->events[i].rate;
	}
	n = snprintf(line, len, "history: %llu events (%.0f/s)", (unsigned long long)events, rate);
	if (ft->first_seq > ft->start_seq)
		n += snprintf(line + n, len - (size_t)n,
		              "  %llu of them gone from the log (it keeps the last --trace-log)",
		              (unsigned long long)(ft->first_seq - ft->start_seq));
	return n;
}

/* The status line of the pane: counts, kernel filters, drops, pause, the
 * Enter filter. */
static void
trace_draw_title(struct trace *p, struct tui *t, WINDOW *win, int y, int x, int w)
{
	const struct frame_trace *ft = &t->frame->trace;
	const struct stream_stats *st = &ft->stats;
	char line[512], filters[192];
	int n;

	trace_filters_note(ft, filters, sizeof filters);
	if (timeline_active(t))
		n = trace_history_title(ft, line, sizeof line);
	else
		n = snprintf(
		    line, sizeof line,
		    "%zu tracepoint%s on%s%s  events: %llu (%.0f/s)  dropped from the log: %llu  "
		    "lost: %llu%s",
		    ft->non, ft->non == 1 ? "" : "s", filters,
		    ft->ftrace ? " + function tracer" : "", (unsigned long long)st->events,
		    st->interval_secs > 0 ? (double)st->interval_events / st->interval_secs : 0.0,
		    (unsigned long long)st->dropped, (unsigned long long)st->lost,
		    ft->paused ? "  PAUSED (p resumes)" : "");
	if (p->only.pid != 0 || p->only.event != NULL)
		snprintf(line + n, sizeof line - (size_t)n, "  showing only %s%s",
		         p->only.event ? p->only.event : "", p->only.pid ? p->only_comm : "");
	wattrset(win, !timeline_active(t) && (ft->paused || st->lost)
	                  ? t->theme.attr[TH_HEADER_WARN]
	                  : t->theme.attr[TH_DIM]);
	mvwaddnstr(win, y, x, line, w);
	wattrset(win, A_NORMAL);
}

/* Draw the stream (or the summary) and the selected event's stack. */
static void
trace_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct trace *p = pp;
	struct listpane *lp = p->summary ? &p->sum : &p->list;
	int stack;

	if (h < 2)
		return;
	trace_draw_title(p, t, win, y, x, w);
	stack = p->summary ? 0 : trace_draw_stack(p, t, win, y + 1, x, h - 1, w);
	table_draw(&lp->table, win, y + 1, x, h - 1 - stack, w, &t->theme);
	if (lp->table.nrows > 0 || h < 4)
		return;
	if (lp->table.nall > 0)
		listpane_message(win, y + h / 2, x, w, "No rows match the filter (Esc clears it)",
		                 &t->theme);
	else if (t->frame->trace.non == 0 && !t->frame->trace.ftrace)
		listpane_message(win, y + h / 2, x, w,
		                 "No tracepoint on: a picks them (or start with -T EVENT)",
		                 &t->theme);
	else
		listpane_message(win, y + h / 2, x, w, "Waiting for events...", &t->theme);
}

/* Open the checklist of every tracepoint, the ones on checked. */
static int
trace_pick(struct trace *p, struct tui *t)
{
	names_free(p->catalog, p->ncatalog);
	p->catalog = pane_trace_catalog(t, &p->ncatalog);
	if (p->ncatalog == 0)
		return REACT_HANDLED | REACT_REDRAW;
	free(p->marks);
	p->marks = xcalloc(p->ncatalog, sizeof *p->marks);
	for (size_t i = 0; i < p->ncatalog; i++)
		p->marks[i] = engine_trace_enabled(t->engine, p->catalog[i]);
	picker_open_checklist(&t->picker, "Tracepoints (Space: on/off, Enter: on and close)",
	                      (const char *const *)p->catalog, p->ncatalog, p->marks);
	picker_allow_typed(&t->picker, trace_typed, p);
	t->picker_owner = (int)t->cur;
	return REACT_HANDLED | REACT_REDRAW;
}

/* Turn a tracepoint on or off, saying what happened. */
static void
trace_set(struct tui *t, const char *name, bool on)
{
	struct tt_err err;
	int rc = on ? engine_trace_enable(t->engine, name, NULL, &err)
	            : engine_trace_disable(t->engine, name, &err);

	if (rc != 0)
		tui_status(t, true, "%s", err.msg);
	else
		tui_status(t, false, "%s %s", on ? "tracing" : "stopped tracing", name);
}

/* A tracepoint was toggled (Space) or chosen (Enter) in the checklist. */
static int
trace_picked(void *pp, struct tui *t, size_t idx, bool toggled)
{
	struct trace *p = pp;
	bool on;

	if (idx == PICKER_TYPED) {
		on = engine_trace_enabled(t->engine, t->picker.query.text);
		if (toggled || !on)
			trace_set(t, t->picker.query.text, !on);
		return REACT_REDRAW;
	}
	if (idx >= p->ncatalog)
		return REACT_REDRAW;
	on = engine_trace_enabled(t->engine, p->catalog[idx]);
	if (toggled || !on)
		trace_set(t, p->catalog[idx], !on);
	if (p->marks != NULL && t->picker.active)
		p->marks[idx] = engine_trace_enabled(t->engine, p->catalog[idx]);
	return REACT_REDRAW;
}

/* The event name of the selected row, in either view. */
static const char *
trace_selected_event(const struct trace *p)
{
	if (p->summary) {
		const struct stream_event_info *in = table_selected(&p->sum.table);

		return in ? in->name : NULL;
	}
	const struct trace_row *r = table_selected(&p->list.table);

	return r ? r->event : NULL;
}

/* Stop tracing the selected row's event. */
static int
trace_stop_selected(struct trace *p, struct tui *t)
{
	const char *name = trace_selected_event(p);

	if (name == NULL || t->engine == NULL || !engine_trace_enabled(t->engine, name))
		tui_status(t, false, "select a row of a tracepoint that is on");
	else
		trace_set(t, name, false);
	return REACT_HANDLED | REACT_REDRAW;
}

/* The Enter menu: show only this process or event, or everything. */
static int
trace_row_menu(struct trace *p, struct tui *t)
{
	const struct trace_row *r = p->summary ? NULL : table_selected(&p->list.table);
	const char *event = trace_selected_event(p);
	char comm[64];

	listpane_menu_opened(&p->list);
	listpane_menu_opened(&p->sum);
	menu_open(&t->menu, "Trace");
	if (r != NULL) {
		str_escape(comm, sizeof comm, r->comm ? r->comm : "?",
		           r->comm ? strlen(r->comm) : 1);
		menu_add(&t->menu, MENU_ONLY_PID, false, "Show only %s-%d", comm, r->pid);
	}
	if (event != NULL)
		menu_add(&t->menu, MENU_ONLY_EVENT, false, "Show only %s", event);
	menu_add(&t->menu, MENU_SHOW_ALL, p->only.pid == 0 && p->only.event == NULL,
	         "Show every event");
	if (event != NULL)
		menu_add(&t->menu, MENU_STOP_EVENT,
		         t->engine == NULL || !engine_trace_enabled(t->engine, event),
		         "Stop tracing %s", event);
	return REACT_HANDLED | REACT_REDRAW;
}

/* Act on an action: the pane's own, then the list's (of the view shown). */
static int
trace_action(void *pp, struct tui *t, enum action a)
{
	struct trace *p = pp;
	struct stream *s = t->engine != NULL ? engine_stream(t->engine) : NULL;

	if (s == NULL && (a == ACT_ADD || a == ACT_REMOVE || a == ACT_PAUSE || a == ACT_FTRACE ||
	                  a == ACT_KFILTER))
		return REACT_HANDLED; /* a replay: nothing live to change */
	switch (a) {
	case ACT_ADD:
		return trace_pick(p, t);
	case ACT_REMOVE:
		return trace_stop_selected(p, t);
	case ACT_PAUSE:
		stream_pause(s, !stream_paused(s));
		tui_status(t, false, "%s",
		           stream_paused(s) ? "stream paused: events are still counted"
		                            : "stream resumed");
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_SUMMARY:
		p->summary = !p->summary;
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_FTRACE:
		if (engine_ftrace_on(t->engine)) {
			engine_ftrace_stop(t->engine);
			tui_status(t, false, "function tracer stopped");
			return REACT_HANDLED | REACT_REDRAW;
		}
		p->ftrace_prompt = true;
		t->prompt_owner = (int)t->cur;
		prompt_open(&t->prompt,
		            "Kernel functions to follow (names or globs, comma-separated): ", "");
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_ENTER:
		return trace_row_menu(p, t);
	case ACT_KFILTER:
		return trace_kfilter_open(&p->kfilter, t, trace_selected_event(p));
	default:
		return listpane_action(p->summary ? &p->sum : &p->list, t, a);
	}
}

/* Mouse events go to the table shown. */
static int
trace_mouse(void *pp, struct tui *t, int y, int x, unsigned long bstate)
{
	struct trace *p = pp;

	(void)t;
	return listpane_mouse(p->summary ? &p->sum : &p->list, y, x, bstate);
}

/* Prompts of the table shown. */
static int
trace_prompt(void *pp, struct tui *t, int result)
{
	struct trace *p = pp;

	struct tt_err err;

	if (p->kfilter.open) {
		trace_kfilter_done(&p->kfilter, t, result);
		return REACT_REDRAW;
	}
	if (p->ftrace_prompt) {
		if (result == PROMPT_DONE && t->prompt.text[0] != '\0') {
			if (engine_ftrace_start(t->engine, t->prompt.text, false, &err) != 0)
				tui_status(t, true, "%s", err.msg);
			else
				tui_status(t, false, "following %s with the function tracer",
				           t->prompt.text);
		}
		if (result == PROMPT_DONE || result == PROMPT_CANCEL)
			p->ftrace_prompt = false;
		return REACT_REDRAW;
	}
	return listpane_prompt(p->summary ? &p->sum : &p->list, t, result);
}

/* A menu choice. */
static int
trace_menu(void *pp, struct tui *t, int id)
{
	struct trace *p = pp;
	const struct trace_row *r = table_selected(&p->list.table);
	const char *event = trace_selected_event(p);

	if (listpane_menu(p->summary ? &p->sum : &p->list, id) != REACT_IGNORED)
		return REACT_REDRAW;
	switch (id) {
	case MENU_ONLY_PID:
		if (r != NULL) {
			p->only.pid = r->pid;
			snprintf(p->only_comm, sizeof p->only_comm, "pid %d", r->pid);
		}
		break;
	case MENU_ONLY_EVENT:
		if (event != NULL) {
			snprintf(p->only_event, sizeof p->only_event, "%s", event);
			p->only.event = p->only_event;
			p->summary = false;
		}
		break;
	case MENU_SHOW_ALL:
		memset(&p->only, 0, sizeof p->only);
		break;
	case MENU_STOP_EVENT:
		if (event != NULL)
			trace_set(t, event, false);
		break;
	}
	trace_update(p, t, t->frame);
	return REACT_REDRAW;
}

/* Seen: our probes' events stream into the log; hidden: only counted. */
static void
trace_show(void *pp, struct tui *t, bool shown)
{
	(void)pp;
	pane_probes_stream(t, shown);
}

const struct pane_ops pane_trace = {
    .name = "Trace",
    .listpane = true,
    .scope = SCOPE_TRACE,
    .view = VIEW_TRACE,
    .reads = PANE_READS_TRACE,
    .init = trace_init,
    .free = trace_free,
    .update = trace_update,
    .draw = trace_draw,
    .action = trace_action,
    .mouse = trace_mouse,
    .prompt = trace_prompt,
    .menu = trace_menu,
    .pick = trace_picked,
    .show = trace_show,
};
