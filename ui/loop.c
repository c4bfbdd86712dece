/* loop: the screen's side of the session's loop. It adds the keyboard and
 * a signalfd to the session's poll set, hands every frame to the panes
 * (the first one after a short wait, not a whole interval) and draws only
 * when something changed, with one doupdate per frame. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracetop/counters.h"
#include "tracetop/history.h"
#include "tracetop/recdiff.h"
#include "tracetop/probe.h"
#include "tracetop/system.h"
#include "tracetop/util.h"
#include "ui/screen.h"
#include "ui/setup.h"
#include "ui/timeline.h"
#include "ui/tui.h"

/* How long a status message stays. */
#define LOOP_STATUS_NS 4000000000ULL

/* The screen's state and its signalfd, for the session's hooks. */
struct loop {
	struct tui t;
	int sfd;
};

/* Put a message on the status line. */
void
tui_status(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->status, sizeof t->status, fmt, ap);
	va_end(ap);
	t->status_error = error;
	t->status_until = now_ns() + LOOP_STATUS_NS;
	t->dirty = true;
}

/* Whether f has every part a pane reads (a source that could not be
 * opened leaves its part out, and the pane keeps saying why). */
static bool
loop_frame_has(const struct frame *f, unsigned reads)
{
	return (!(reads & PANE_READS_SAMPLING) || f->has_sampling) &&
	       (!(reads & PANE_READS_COUNTERS) || f->has_counters) &&
	       (!(reads & PANE_READS_PROBES) || f->has_probes) &&
	       (!(reads & PANE_READS_TRACE) || f->has_trace) &&
	       (!(reads & PANE_READS_SYSTEM) || f->has_system) &&
	       (!(reads & PANE_READS_LATENCY) || f->has_latency);
}

/* Put the newest debuginfod note of f on the status line, once. */
static void
loop_debuginfod(struct tui *t, const struct frame *f)
{
	const struct symdbg_status *st = &f->sampling.debuginfod;

	if (!f->has_sampling || st->note_seq <= t->dbg_seq)
		return;
	t->dbg_seq = st->note_seq;
	for (size_t i = 0; i < SYMDBG_NOTES; i++)
		if (st->notes[i].seq == st->note_seq)
			tui_status(t, false, "%s", st->notes[i].text); /* escaped already */
}

/* Show frame f to the panes that read any of reads: the header's numbers
 * of the shown event (when they read the profile), then the panes. A
 * history view (ui/timeline.c) is given to every pane and the header. */
void
tui_update(struct tui *t, const struct frame *f, unsigned reads)
{
	const struct frame_event *ev = frame_event(f, t->event);

	if (reads & ~PANE_READS_SAMPLING) {
		loop_debuginfod(t, f);
		t->frame = f;
	}
	if (reads & PANE_READS_SAMPLING) {
		t->top_frame = f;
		t->cg = ev != NULL ? ev->cg : NULL;
		t->snap_samples = ev != NULL ? ev->samples : 0;
		t->snap_rate = ev != NULL && f->sampling.stats.interval_secs > 0
		                   ? (double)ev->samples / f->sampling.stats.interval_secs
		                   : 0;
	}
	for (size_t i = 0; i < t->npanes; i++)
		if (t->panes[i]->update != NULL && (t->panes[i]->reads & reads) &&
		    loop_frame_has(f, t->panes[i]->reads))
			t->panes[i]->update(t->pane_state[i], t, f);
	t->dirty = true;
}

/* The parts live frames go to: all of them, or none while the history
 * is shown (its view has every part). */
static unsigned
loop_live_parts(const struct tui *t)
{
	return timeline_active(t) ? 0 : ~0u;
}

/* Take the sources' snapshots again and show them (a history view is
 * built again instead for the profile's panes). */
void
tui_snapshot(struct tui *t)
{
	session_snapshot(t->session);
	tui_update(t, session_frame(t->session), loop_live_parts(t));
	timeline_refresh(t);
}

/* The index of pane ops in the table, or npanes. */
static size_t
loop_pane_index(const struct tui *t, const struct pane_ops *ops)
{
	size_t i;

	for (i = 0; i < t->npanes; i++)
		if (t->panes[i] == ops)
			break;
	return i;
}

/* Switch to a pane. */
void
tui_show_pane(struct tui *t, const struct pane_ops *ops)
{
	size_t i = loop_pane_index(t, ops);

	if (i < t->npanes) {
		t->cur = i;
		t->help = false;
		t->dirty = true;
	}
}

/* A pane's state. */
void *
tui_pane_state(const struct tui *t, const struct pane_ops *ops)
{
	size_t i = loop_pane_index(t, ops);

	return i < t->npanes ? t->pane_state[i] : NULL;
}

/* Act on pending signals. */
static void
loop_read_signals(struct tui *t, int sfd)
{
	struct signalfd_siginfo si;

	while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si) {
		switch (si.ssi_signo) {
		case SIGWINCH:
			screen_resize();
			t->dirty = true;
			break;
		case SIGCHLD:
		case SIGPIPE:
			break;
		default: /* INT, TERM, HUP (the SSH session went away) */
			t->quit = true;
		}
	}
}

/* The delay prompt was answered. */
static void
loop_delay_prompt(struct tui *t, int result)
{
	double d;

	if (result != PROMPT_DONE)
		return;
	if (parse_double(t->prompt.text, &d) != 0 || d < 0.05 || d > 86400) {
		char esc[PROMPT_MAX * 4];

		str_escape(esc, sizeof esc, t->prompt.text, sizeof t->prompt.text);
		tui_status(t, true, "not a refresh interval: '%s' (seconds, 0.05 to 86400)", esc);
		return;
	}
	t->delay = d;
	session_set_delay(t->session, d);
	tui_status(t, false, "refreshing every %g s", d);
}

/* Route a key to the open prompt. */
static void
loop_prompt_key(struct tui *t, wint_t ch, bool is_key)
{
	enum prompt_result r = prompt_key(&t->prompt, ch, is_key);
	int owner = t->prompt_owner;

	if (r == PROMPT_DONE || r == PROMPT_CANCEL)
		prompt_close(&t->prompt);
	if (owner < 0)
		loop_delay_prompt(t, r);
	else if (t->panes[owner]->prompt != NULL)
		t->panes[owner]->prompt(t->pane_state[owner], t, r);
	t->dirty = true;
}

/* Route a key to the open picker; its owner acts on a choice. */
static void
loop_picker_key(struct tui *t, wint_t ch, bool is_key)
{
	int owner = t->picker_owner;
	size_t idx;

	enum picker_result r = picker_key(&t->picker, ch, is_key, &idx);

	if ((r == PICKER_CHOSEN || r == PICKER_TOGGLED) && owner >= 0 &&
	    t->panes[owner]->pick != NULL)
		t->panes[owner]->pick(t->pane_state[owner], t, idx, r == PICKER_TOGGLED);
	else if (r == PICKER_REFUSED)
		tui_status(t, true, "%s", t->picker.why);
	t->dirty = true;
}

/* Set the baseline (NULL clears it) and let the panes show it. */
static void
loop_set_baseline(struct tui *t, struct diff_set *base, const char *what)
{
	if (t->base != NULL)
		diff_set_free(t->base);
	free(t->base);
	t->base = base;
	t->base_seq++;
	snprintf(t->base_what, sizeof t->base_what, "%s", what);
}

/* B: what the panes show becomes the baseline (the profile of the
 * history's interval or range when one is shown); again: none. */
static int
loop_baseline(struct tui *t)
{
	struct diff_set *b;

	if (t->base != NULL) {
		loop_set_baseline(t, NULL, "");
		tui_status(t, false, "baseline cleared");
	} else {
		b = xcalloc(1, sizeof *b);
		diff_set_from_frame(b, t->top_frame != NULL ? t->top_frame : t->frame, t->frame,
		                    t->event, DIFF_GROUP_ALL);
		loop_set_baseline(t, b, t->history_label[0] ? t->history_label : "marked with B");
		tui_status(
		    t, false,
		    "baseline: %zu functions, %zu counters, %zu latency rows (B again: clear)",
		    b->n[DIFF_TOP], b->n[DIFF_COUNTERS], b->n[DIFF_LATENCY]);
	}
	if (t->frozen) /* the frozen rows compared, not new ones */
		tui_update(t, t->top_frame, PANE_READS_SAMPLING);
	else
		tui_snapshot(t);
	return REACT_REDRAW;
}

/* Actions that are the same on every pane. */
static int
loop_global(struct tui *t, enum action a)
{
	switch (a) {
	case ACT_HELP:
		t->help = true;
		t->help_top = 0;
		return REACT_REDRAW;
	case ACT_QUIT:
		t->quit = true;
		return REACT_HANDLED;
	case ACT_NEXT_PANE:
	case ACT_PREV_PANE:
		t->cur = (t->cur + (a == ACT_NEXT_PANE ? 1 : t->npanes - 1)) % t->npanes;
		return REACT_REDRAW;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		return REACT_REDRAW;
	case ACT_METERS:
		t->no_meters = !t->no_meters;
		if (!t->no_meters && (t->frame == NULL || !t->frame->has_system))
			tui_status(t, false, "no meters: the system source is not running");
		return REACT_REDRAW;
	case ACT_TOGGLE_ZERO:
		t->zero = !t->zero;
		session_set_zero(t->session, t->zero);
		tui_status(t, false, "counts %s at each refresh", t->zero ? "zeroed" : "decayed");
		return REACT_REDRAW;
	case ACT_BASELINE:
		return loop_baseline(t);
	case ACT_FREEZE:
		if (timeline_action(t, a) != REACT_IGNORED)
			return REACT_REDRAW; /* with a history: on its newest interval */
		t->frozen = !t->frozen;
		if (!t->frozen)
			tui_snapshot(t);
		return REACT_REDRAW;
	case ACT_SAVE_SETUP: {
		struct tt_err err;

		if (setup_save(t, false, &err) != 0)
			tui_status(t, true, "%s", err.msg);
		return REACT_REDRAW;
	}
	case ACT_DELAY:
		prompt_open(&t->prompt, "Refresh interval (s): ", "");
		t->prompt_owner = -1;
		return REACT_REDRAW;
	case ACT_NEXT_EVENT:
		if (t->frame->sampling.nevents < 2) {
			tui_status(t, false, "only one event: give several with -e");
			return REACT_REDRAW;
		}
		t->event = (t->event + 1) % t->frame->sampling.nevents;
		tui_snapshot(t);
		return REACT_REDRAW;
	default:
		return timeline_action(t, a);
	}
}

/* The help pane takes every key: arrows scroll it, Esc, q, F1 and Left
 * close it, F10 quits. */
static void
loop_help_key(struct tui *t, wint_t ch, bool is_key)
{
	enum action a = keymap_lookup(ch, is_key, SCOPE_TABLE);

	if (a == ACT_QUIT && is_key)
		t->quit = true;
	else if (a == ACT_CLOSE || a == ACT_QUIT || a == ACT_HELP || a == ACT_BACK)
		t->help = false;
	else
		pane_help.action(NULL, t, a);
	t->dirty = true;
}

/* A mouse event: menus first, then the pane. With --no-mouse, curses still
 * parses reports a terminal sends unasked (see screen_init): drop them. */
static void
loop_mouse(struct tui *t)
{
	const struct pane_ops *p = t->panes[t->cur];
	MEVENT ev;
	int id;

	if (getmouse(&ev) != OK || !t->mouse)
		return;
	if (t->menu.active) {
		if ((ev.bstate & BUTTON1_PRESSED) && menu_click(&t->menu, ev.y, ev.x, &id) &&
		    p->menu != NULL)
			p->menu(t->pane_state[t->cur], t, id);
		t->dirty = true;
		return;
	}
	if (!t->help && p->mouse != NULL &&
	    (p->mouse(t->pane_state[t->cur], t, ev.y, ev.x, (unsigned long)ev.bstate) &
	     REACT_REDRAW))
		t->dirty = true;
}

/* Whether action a changes what a live run measures (a replay, which
 * shows what its file holds, refuses it). */
static bool
loop_live_only(enum action a)
{
	switch (a) {
	case ACT_TOGGLE_ZERO:
	case ACT_DELAY:
	case ACT_COUNTERS_SCOPE:
	case ACT_ADD:
	case ACT_REMOVE:
	case ACT_PAUSE:
	case ACT_FTRACE:
	case ACT_KFILTER:
	case ACT_TOGGLE:
	case ACT_THREADS:
	case ACT_TIME_FUNC:
	case ACT_PER_PROCESS:
		return true;
	default:
		return false;
	}
}

/* One key: prompt, menu, help, global keys, then the pane. */
static void
loop_key(struct tui *t, wint_t ch, bool is_key)
{
	const struct pane_ops *p = t->panes[t->cur];
	enum action a;
	int r, id;

	if (t->prompt.active) {
		loop_prompt_key(t, ch, is_key);
		return;
	}
	if (t->picker.active && !(is_key && (ch == KEY_MOUSE || ch == KEY_RESIZE))) {
		if (is_key && ch == KEY_F(10))
			t->quit = true;
		else
			loop_picker_key(t, ch, is_key);
		return;
	}
	if (is_key && ch == KEY_MOUSE) {
		loop_mouse(t);
		return;
	}
	if (is_key && ch == KEY_RESIZE)
		return; /* handled through SIGWINCH */
	if (t->help) {
		loop_help_key(t, ch, is_key);
		return;
	}
	a = keymap_lookup(ch, is_key, p->scope);
	if (t->replay && loop_live_only(a)) {
		tui_status(t, false,
		           "a replay shows what %s holds: that key changes what a live run "
		           "measures",
		           t->opts->replay);
		return;
	}
	if (t->menu.active) {
		if (a == ACT_QUIT && is_key) /* F10 quits even from a menu */
			t->quit = true;
		else if (a == ACT_TIME_FUNC) /* t: time what the menu is about */
			p->action(t->pane_state[t->cur], t, a);
		else if ((menu_action(&t->menu, a, &id) & REACT_HANDLED) && !t->menu.active &&
		         a == ACT_ENTER && p->menu != NULL)
			p->menu(t->pane_state[t->cur], t, id);
		t->dirty = true;
		return;
	}
	r = p->action(t->pane_state[t->cur], t, a);
	if (r == REACT_IGNORED)
		r = loop_global(t, a);
	if (r & REACT_QUIT)
		t->quit = true;
	if (r & (REACT_REDRAW | REACT_RESNAP))
		t->dirty = true;
}

/* Read every key waiting on stdin. */
static void
loop_read_keys(struct tui *t)
{
	wint_t ch;
	int rc;

	while (!t->quit && (rc = wget_wch(stdscr, &ch)) != ERR)
		loop_key(t, ch, rc == KEY_CODE_YES);
}

/* Tell the panes which one is seen now, when that changed (the help over
 * a pane hides it). */
static void
loop_show(struct tui *t)
{
	size_t now = t->help ? t->npanes : t->cur;

	if (now == t->shown)
		return;
	if (t->shown < t->npanes && t->panes[t->shown]->show != NULL)
		t->panes[t->shown]->show(t->pane_state[t->shown], t, false);
	t->shown = now;
	if (now < t->npanes && t->panes[now]->show != NULL)
		t->panes[now]->show(t->pane_state[now], t, true);
}

/* Draw one frame: header, pane (or help), dialogs, footer. */
static void
loop_draw(struct tui *t)
{
	const struct pane_ops *p = t->panes[t->cur];
	int top = screen_header_lines(t), h = LINES - top - SCREEN_FOOTER_LINES;

	loop_show(t);

	werase(stdscr);
	screen_draw_header(t);
	if (h > 0) {
		if (t->help)
			pane_help.draw(NULL, t, stdscr, top, 0, h, COLS);
		else
			p->draw(t->pane_state[t->cur], t, stdscr, top, 0, h, COLS);
	}
	if (t->menu.active)
		menu_draw(&t->menu, stdscr, LINES, COLS, &t->theme);
	if (t->picker.active)
		picker_draw(&t->picker, stdscr, LINES, COLS, &t->theme);
	screen_draw_footer(t);
	wnoutrefresh(stdscr);
	doupdate();
	t->dirty = false;
}

/* The screen's fds: signals and keyboard (the session adds the sources'). */
static size_t
loop_pollfds(void *arg, struct pollfd *fds, size_t max)
{
	struct loop *l = arg;

	if (max < 2)
		return 0;
	fds[0] = (struct pollfd){.fd = l->sfd, .events = POLLIN};
	fds[1] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
	return 2;
}

/* After a poll: signals, then keys. */
static void
loop_ready(void *arg, const struct pollfd *fds, size_t n)
{
	struct loop *l = arg;
	struct tui *t = &l->t;

	if (n < 2)
		return;
	if (fds[0].revents & POLLIN)
		loop_read_signals(t, l->sfd);
	if (fds[1].revents & (POLLHUP | POLLERR))
		t->quit = true; /* the terminal is gone */
	else if (fds[1].revents & POLLIN)
		loop_read_keys(t);
}

/* Before each poll: expire the status message, draw what changed. */
static bool
loop_stop(void *arg)
{
	struct tui *t = &((struct loop *)arg)->t;

	if (t->status[0] != '\0' && now_ns() >= t->status_until) {
		t->status[0] = '\0';
		t->dirty = true;
	}
	if (t->dirty && !t->quit)
		loop_draw(t);
	return t->quit;
}

/* The status message's expiry bounds the wait. */
static int
loop_max_wait(void *arg)
{
	const struct tui *t = &((struct loop *)arg)->t;
	uint64_t now = now_ns();

	if (t->status[0] == '\0' || t->status_until == UINT64_MAX)
		return -1;
	return t->status_until <= now ? 0 : (int)((t->status_until - now + 999999) / 1000000);
}

/* A frozen screen keeps the rows it shows. */
static bool
loop_want_parts(void *arg)
{
	return !((struct loop *)arg)->t.frozen;
}

/* A refresh: show the frame (a frozen screen only its header). */
static void
loop_frame(void *arg, const struct frame *f)
{
	struct tui *t = &((struct loop *)arg)->t;

	t->refreshes++;
	if (!t->frozen) {
		tui_update(t, f, loop_live_parts(t));
		timeline_frame(t);
	} else
		t->dirty = true; /* the header's rates still move */
	if (f->final)
		t->quit = true;
}

/* Say once that the command or the targets have gone. */
static void
loop_finished(void *arg)
{
	struct tui *t = &((struct loop *)arg)->t;
	int st = t->engine != NULL ? engine_child_status(t->engine) : -1;
	const struct history *h = session_history(t->session);

	t->frozen = true;
	if (t->opts->replay != NULL && h != NULL && history_dropped(h) > 0)
		tui_status(t, false,
		           "replayed %s: its %ld intervals, frozen on the last; the history holds "
		           "the last %zu (the oldest %zu went for memory); q quits",
		           t->opts->replay, t->refreshes, history_len(h), history_dropped(h));
	else if (t->opts->replay != NULL)
		tui_status(t, false,
		           "replayed %s: its %ld intervals, frozen on the last; , . step "
		           "through them; q quits",
		           t->opts->replay, t->refreshes);
	else if (st >= 0 && WIFEXITED(st))
		tui_status(t, false, "the command exited with status %d; q quits", WEXITSTATUS(st));
	else if (st >= 0 && WIFSIGNALED(st))
		tui_status(t, false, "the command was killed by signal %d; q quits", WTERMSIG(st));
	else
		tui_status(t, false, "the profiled processes have exited; q quits");
	t->status_until = UINT64_MAX;
}

/* Set up the panes (a replay's too: the recording holds every pane's
 * part), and start on the one --view names. */
static void
loop_init_panes(struct tui *t)
{
	t->panes = tui_panes;
	t->npanes = tui_npanes;
	t->pane_state = xcalloc(t->npanes, sizeof *t->pane_state);
	t->shown = t->npanes;
	for (size_t i = 0; i < t->npanes; i++) {
		t->pane_state[i] = t->panes[i]->init(t);
		if (t->panes[i]->view == t->opts->view)
			t->cur = i;
	}
}

/* Tear the panes down. */
static void
loop_free_panes(struct tui *t)
{
	for (size_t i = 0; i < t->npanes; i++)
		t->panes[i]->free(t->pane_state[i]);
	free(t->pane_state);
}

/* Run the interactive screen. */
int
tui_run(struct session *s, const char *counters_error, const struct options *o)
{
	struct loop l = {.t = {.session = s,
	                       .engine = session_source(s, &source_sampling),
	                       .counters = session_source(s, &source_counters),
	                       .probes = session_source(s, &source_probes),
	                       .system = session_source(s, &source_system),
	                       .counters_error = counters_error,
	                       .opts = o,
	                       .delay = o->delay,
	                       .zero = o->zero,
	                       .mouse = !o->no_mouse,
	                       .prompt_owner = -1,
	                       .picker_owner = -1,
	                       .replay = o->replay != NULL,
	                       .dirty = true}};
	const struct session_hooks hooks = {.arg = &l,
	                                    .pollfds = loop_pollfds,
	                                    .ready = loop_ready,
	                                    .frame = loop_frame,
	                                    .finished = loop_finished,
	                                    .stop = loop_stop,
	                                    .max_wait = loop_max_wait,
	                                    .want_parts = loop_want_parts};
	struct tui *t = &l.t;
	struct tt_err err;
	sigset_t old;
	int status = 0;
	bool saved;

	if ((l.sfd = signals_fd(&old)) < 0) {
		fprintf(stderr, "tracetop: cannot set up signal handling: %s\n", strerror(errno));
		return 1;
	}
	if (o->baseline != NULL) {
		struct diff_set *b = xcalloc(1, sizeof *b);

		if (recdiff_load(b, o->baseline, DIFF_GROUP_ALL, &err) != 0) {
			fprintf(stderr, "tracetop: --baseline: %s\n", err.msg);
			free(b);
			close(l.sfd);
			return 1;
		}
		loop_set_baseline(t, b, "--baseline");
	}
	if (screen_init(t->mouse) != 0) {
		close(l.sfd);
		return 1;
	}
	nodelay(stdscr, TRUE);
	theme_init(&t->theme, false);
	/* the header's names before the first refresh, and no rows yet */
	session_snapshot(s);
	t->frame = session_frame(s);
	t->cg = frame_event(t->frame, 0) != NULL ? frame_event(t->frame, 0)->cg : NULL;
	loop_init_panes(t);
	timeline_init(t);
	tui_update(t, t->frame, ~0u);
	if (t->frame->sampling.notice != NULL)
		tui_status(t, false, "%s", t->frame->sampling.notice);
	setup_apply(t);
	if (session_run(s, &hooks) != 0)
		status = 1;
	saved = o->rc == NULL || setup_save(t, true, &err) == 0;
	screen_end();
	if (!saved)
		fprintf(stderr, "tracetop: %s\n", err.msg);
	for (size_t i = 0; i < t->nsetup_notes; i++)
		fprintf(stderr, "tracetop: %s\n", t->setup_notes[i]);
	names_free(t->setup_notes, t->nsetup_notes);
	rcfile_free(&t->setup0);
	picker_free(&t->picker);
	timeline_free(t);
	loop_free_panes(t);
	loop_set_baseline(t, NULL, "");
	close(l.sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (status != 0)
		fprintf(stderr, "tracetop: poll: %s\n", strerror(errno));
	return status;
}
