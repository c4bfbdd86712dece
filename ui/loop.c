/* loop: the interactive front end's one poll loop. It waits on the ring
 * fds, the keyboard and a signalfd, drains the rings as they fill, takes a
 * snapshot every refresh (the first one as soon as there is data) and
 * draws only when something changed, with one doupdate per frame. */
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
#include "tracetop/probe.h"
#include "tracetop/util.h"
#include "ui/screen.h"
#include "ui/tui.h"

/* The first frame comes after this much sampling, not a whole interval. */
#define LOOP_FIRST_FRAME_NS 250000000ULL
/* Longest sleep: bounds how late an exit or expired message is noticed. */
#define LOOP_MAX_WAIT_MS 200
/* How long a status message stays. */
#define LOOP_STATUS_NS 4000000000ULL
#define LOOP_MAX_FDS 1024

/* The panes, in tab order. */
static const struct pane_ops *const loop_panes[] = {&pane_top, &pane_counters, &pane_trace,
                                                    &pane_probes, &pane_annotate};
#define LOOP_PANE_COUNTERS 1
#define LOOP_PANE_TRACE 2
#define LOOP_PANE_PROBES 3

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

/* Refresh t->snap for the shown event and tell the panes. */
void
tui_snapshot(struct tui *t)
{
	static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	uint64_t total;

	engine_snapshot(t->engine, t->event, by_overhead, top_keep_row, t, &t->snap);
	t->cg = engine_callgraph(t->engine, t->event);
	engine_event_samples(t->engine, t->event, &t->snap_samples, &total);
	t->snap_rate = engine_stats(t->engine)->interval_secs > 0
	                   ? (double)t->snap_samples / engine_stats(t->engine)->interval_secs
	                   : 0;
	for (size_t i = 0; i < t->npanes; i++)
		if (t->panes[i]->update != NULL)
			t->panes[i]->update(t->pane_state[i], t);
	t->dirty = true;
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
	t->dirty = true;
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
	case ACT_TOGGLE_ZERO:
		t->zero = !t->zero;
		tui_status(t, false, "counts %s at each refresh", t->zero ? "zeroed" : "decayed");
		return REACT_REDRAW;
	case ACT_FREEZE:
		t->frozen = !t->frozen;
		if (!t->frozen)
			tui_snapshot(t);
		return REACT_REDRAW;
	case ACT_DELAY:
		prompt_open(&t->prompt, "Refresh interval (s): ", "");
		t->prompt_owner = -1;
		return REACT_REDRAW;
	case ACT_NEXT_EVENT:
		if (engine_nevents(t->engine) < 2) {
			tui_status(t, false, "only one event: give several with -e");
			return REACT_REDRAW;
		}
		t->event = (t->event + 1) % engine_nevents(t->engine);
		tui_snapshot(t);
		return REACT_REDRAW;
	default:
		return REACT_IGNORED;
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
	if (t->menu.active) {
		if (a == ACT_QUIT && is_key) /* F10 quits even from a menu */
			t->quit = true;
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

/* Draw one frame: header, pane (or help), dialogs, footer. */
static void
loop_draw(struct tui *t)
{
	const struct pane_ops *p = t->panes[t->cur];
	int top = SCREEN_HEADER_LINES, h = LINES - SCREEN_HEADER_LINES - SCREEN_FOOTER_LINES;

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

/* Fill the poll set: signals, keyboard, rings. */
static size_t
loop_pollfds(struct tui *t, struct pollfd *fds, int sfd)
{
	fds[0] = (struct pollfd){.fd = sfd, .events = POLLIN};
	fds[1] = (struct pollfd){.fd = STDIN_FILENO, .events = POLLIN};
	return 2 + engine_pollfds(t->engine, fds + 2, LOOP_MAX_FDS - 2);
}

/* Milliseconds until the next refresh or status expiry, capped. */
static int
loop_timeout(const struct tui *t, uint64_t next)
{
	uint64_t now = now_ns(), wake = next;

	if (t->status[0] != '\0' && t->status_until < wake)
		wake = t->status_until;
	if (wake <= now)
		return 0;
	return (wake - now) / 1000000 > LOOP_MAX_WAIT_MS ? LOOP_MAX_WAIT_MS
	                                                 : (int)((wake - now + 999999) / 1000000);
}

/* End of a refresh interval: tick the engine, take the new snapshot. */
static void
loop_refresh(struct tui *t)
{
	engine_tick(t->engine, t->zero);
	if (t->counters != NULL)
		counters_tick(t->counters);
	if (t->probes != NULL)
		probes_tick(t->probes);
	t->refreshes++;
	if (!t->frozen)
		tui_snapshot(t);
	else
		t->dirty = true; /* the header's rates still move */
	if (t->opts->count > 0 && t->refreshes >= t->opts->count)
		t->quit = true;
}

/* Say once that the command or the targets have gone. */
static void
loop_finished(struct tui *t)
{
	int st = engine_child_status(t->engine);

	t->frozen = true;
	if (st >= 0 && WIFEXITED(st))
		tui_status(t, false, "the command exited with status %d; q quits", WEXITSTATUS(st));
	else if (st >= 0 && WIFSIGNALED(st))
		tui_status(t, false, "the command was killed by signal %d; q quits", WTERMSIG(st));
	else
		tui_status(t, false, "the profiled processes have exited; q quits");
	t->status_until = UINT64_MAX;
}

/* Set up the panes. */
static void
loop_init_panes(struct tui *t)
{
	t->panes = loop_panes;
	t->npanes = ARRAY_SIZE(loop_panes);
	t->pane_state = xcalloc(t->npanes, sizeof *t->pane_state);
	for (size_t i = 0; i < t->npanes; i++)
		t->pane_state[i] = t->panes[i]->init(t);
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
tui_run(struct engine *e, struct counters *c, const char *counters_error, struct probes *p,
        const struct options *o)
{
	struct tui t = {.engine = e,
	                .counters = c,
	                .probes = p,
	                .counters_error = counters_error,
	                .opts = o,
	                .delay = o->delay,
	                .zero = o->zero,
	                .mouse = !o->no_mouse,
	                .prompt_owner = -1,
	                .picker_owner = -1,
	                .dirty = true};
	struct pollfd fds[LOOP_MAX_FDS];
	sigset_t old;
	uint64_t next =
	    now_ns() + (o->delay * 1e9 < LOOP_FIRST_FRAME_NS ? (uint64_t)(o->delay * 1e9)
	                                                     : LOOP_FIRST_FRAME_NS);
	bool finished = false;
	int sfd = signals_fd(&old);
	size_t nfds;

	if (sfd < 0) {
		fprintf(stderr, "tracetop: cannot set up signal handling: %s\n", strerror(errno));
		return 1;
	}
	if (screen_init(t.mouse) != 0) {
		close(sfd);
		return 1;
	}
	nodelay(stdscr, TRUE);
	theme_init(&t.theme, false);
	t.cg = engine_callgraph(e, t.event);
	loop_init_panes(&t);
	if (o->view == VIEW_COUNTERS)
		t.cur = LOOP_PANE_COUNTERS;
	else if (o->view == VIEW_TRACE)
		t.cur = LOOP_PANE_TRACE;
	else if (o->view == VIEW_PROBES)
		t.cur = LOOP_PANE_PROBES;
	if (engine_notice(e) != NULL)
		tui_status(&t, false, "%s", engine_notice(e));
	nfds = loop_pollfds(&t, fds, sfd);
	while (!t.quit) {
		if (t.status[0] != '\0' && now_ns() >= t.status_until) {
			t.status[0] = '\0';
			t.dirty = true;
		}
		if (t.dirty)
			loop_draw(&t);
		if (poll(fds, nfds, loop_timeout(&t, next)) < 0 && errno != EINTR)
			break;
		if (fds[0].revents & POLLIN)
			loop_read_signals(&t, sfd);
		poll_drop_hangups(fds + 2, nfds - 2);
		if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (fds[1].revents & (POLLHUP | POLLERR))
				t.quit = true; /* the terminal is gone */
			else
				loop_read_keys(&t);
		}
		engine_read(e);
		if (now_ns() >= next) {
			loop_refresh(&t);
			next = now_ns() + (uint64_t)(t.delay * 1e9);
		}
		if (!finished && engine_finished(e)) {
			finished = true;
			engine_read(e);
			loop_refresh(&t);
			loop_finished(&t);
		}
	}
	screen_end();
	picker_free(&t.picker);
	loop_free_panes(&t);
	hist_snapshot_free(&t.snap);
	close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}
