/* screen: curses set-up and teardown (at exit and on crash signals), and
 * the frame around the panes: two header lines and the tab bar at the top,
 * the status line and the key bar at the bottom.
 *
 * Signals: the loop blocks SIGINT, SIGTERM, SIGHUP, SIGWINCH and SIGCHLD
 * before screen_init and reads them from a signalfd. ncurses still installs
 * its own SIGINT/SIGTERM/SIGWINCH handlers (it does for any signal left at
 * SIG_DFL), but a blocked signal never reaches a handler, so they never run;
 * the loop calls screen_resize on SIGWINCH. Only the crash signals get
 * handlers here.
 *
 * Mouse: mousemask with button events only makes ncurses send the
 * terminal's XM string; for xterm-256color that is mode 1000 (press and
 * release, the wheel as buttons 4 and 5) with SGR 1006 coordinates, and
 * endwin turns it off again. We never need 1002/1003 (motion). With
 * --no-mouse tracking is turned off, but reports are still parsed (and the
 * loop drops them) so that stray ones never turn into keys.
 *
 * stderr: while curses owns the terminal, stderr goes to a memory file
 * (htop does the same), so a library's chatter cannot scribble over the
 * screen and the last words of fatal() or assert() are not lost with the
 * alternate screen; screen_end replays them on the real stderr. */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracetop/dso.h"
#include "tracetop/engine.h"
#include "tracetop/util.h"
#include "ui/keymap.h"
#include "ui/meters.h"
#include "ui/screen.h"

#define SEG_MAX 12         /* fields on one header line */
#define SEG_GAP 2          /* blanks between fields */
#define SCREEN_TABS_MAX 24 /* tabs the bar draws: the panes and Help */

static volatile sig_atomic_t screen_active;
static pid_t screen_pid;       /* a forked child must not reset the terminal */
static int screen_stderr = -1; /* the real stderr while it is held */
static int screen_held = -1;   /* the memory file holding what was written */

/* One header field: "Label: value". */
struct seg {
	const char *label;
	char value[192];
	enum theme_item attr; /* of the value; labels are TH_HEADER_LABEL */
	int prio;             /* the highest number goes first when space runs out */
	int minw;             /* > 0: cut down to this many columns before it goes */
	int w;                /* columns given; 0 when dropped */
};

/* The fields of one header line, left to right. */
struct segs {
	struct seg seg[SEG_MAX];
	size_t n;
};

/* Send stderr to a memory file while curses owns the terminal. */
static void
screen_hold_stderr(void)
{
	int fd = memfd_create("tracetop-stderr", MFD_CLOEXEC);

	if (fd < 0)
		return; /* then stderr stays as it is */
	fflush(stderr);
	screen_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (screen_stderr < 0 || dup2(fd, STDERR_FILENO) < 0) {
		if (screen_stderr >= 0)
			close(screen_stderr);
		close(fd);
		screen_stderr = -1;
		return;
	}
	screen_held = fd;
}

/* Give stderr back and replay what was written to it meanwhile (only
 * async-signal-safe calls: this runs in the crash handler too). */
static void
screen_release_stderr(void)
{
	char buf[4096];
	off_t off = 0;
	ssize_t n;

	if (screen_held < 0)
		return;
	dup2(screen_stderr, STDERR_FILENO);
	close(screen_stderr);
	while ((n = pread(screen_held, buf, sizeof buf, off)) > 0) {
		if (write(STDERR_FILENO, buf, (size_t)n) != n)
			break;
		off += n;
	}
	close(screen_held);
	screen_held = screen_stderr = -1;
}

/* Restore the terminal, then die of the same signal (core as usual). */
static void
screen_crash(int sig)
{
	screen_end();
	raise(sig);
}

/* Restore the terminal on crash signals and at exit. */
static void
screen_handlers(void)
{
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
	static bool registered;
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = screen_crash;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER; /* raise() then kills at once */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	if (!registered && atexit(screen_end) == 0)
		registered = true;
}

/* Start curses on stdin/stdout. */
int
screen_init(bool mouse)
{
	const char *term = getenv("TERM"), *why = NULL;
	char esc[128];

	if (!isatty(STDIN_FILENO))
		why = "standard input is not a terminal";
	else if (!isatty(STDOUT_FILENO))
		why = "standard output is not a terminal";
	else if (term == NULL || term[0] == '\0')
		why = "TERM is not set";
	else if (newterm(NULL, stdout, stdin) == NULL)
		why = "unknown terminal type (is its terminfo entry installed?)";
	if (why != NULL) {
		str_escape(esc, sizeof esc, term != NULL ? term : "", SIZE_MAX);
		fprintf(stderr, "tracetop: cannot use the terminal (TERM=%s): %s\n", esc, why);
		return -1;
	}
	screen_pid = getpid();
	screen_active = 1;
	screen_handlers();
	screen_hold_stderr();
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	if (mouse) {
		mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED,
		          NULL);
		mouseinterval(0);
	} else {
		/* Reports still come from a terminal another program left in
		 * mouse mode: have ncurses parse them (not pass their bytes
		 * as keys, where a click could type 'q') with tracking off. */
		mousemask(BUTTON1_PRESSED, NULL);
		mousemask(0, NULL);
	}
	/* Until a first endwin, ncurses (6.4) takes the screen for not yet
	 * started and flushes its buffer at every cursor move: a frame went
	 * out in some 80 writes to the terminal, each a wakeup of its reader
	 * (sshd, tmux). Suspended now, the first frame resumes it (a full
	 * repaint, which the first frame is anyway) and frames go out in
	 * one or two writes. */
	endwin();
	/* Nor poll stdin every few lines of a frame for typed keys: the
	 * loop reads them between frames, and a frame is quick. */
	typeahead(-1);
	return 0;
}

/* Restore the terminal: cursor on, mouse off (endwin), modes as before;
 * then replay what went to stderr. */
void
screen_end(void)
{
	if (!screen_active || getpid() != screen_pid)
		return;
	screen_active = 0;
	curs_set(1);
	endwin();
	fflush(stdout);
	screen_release_stderr();
}

/* Follow the terminal's new size. */
void
screen_resize(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	clearok(curscr, TRUE);
}

/* Append a header field; the value is formatted (escape untrusted text
 * before). */
static void __attribute__((format(printf, 6, 7)))
seg_add(struct segs *l, const char *label, enum theme_item attr, int prio, int minw,
        const char *fmt, ...)
{
	struct seg *s;
	va_list ap;

	if (l->n >= SEG_MAX)
		return;
	s = &l->seg[l->n++];
	s->label = label;
	s->attr = attr;
	s->prio = prio;
	s->minw = minw;
	va_start(ap, fmt);
	vsnprintf(s->value, sizeof s->value, fmt, ap);
	va_end(ap);
	prompt_str_trim(s->value);
	s->w = prompt_str_width(label) + prompt_str_width(s->value);
}

/* Columns the fields still shown take, gaps included. */
static int
segs_width(const struct segs *l)
{
	int total = 0, shown = 0;

	for (size_t i = 0; i < l->n; i++)
		if (l->seg[i].w > 0) {
			total += l->seg[i].w;
			shown++;
		}
	return total + (shown > 1 ? (shown - 1) * SEG_GAP : 0);
}

/* Fit the fields to cols: the lowest priority (the rightmost on a tie) is
 * cut to its minimum or dropped first; only the last field left is cut
 * further. */
static void
segs_fit(struct segs *l, int cols)
{
	int excess;

	while ((excess = segs_width(l) - cols) > 0) {
		struct seg *v = NULL;
		int shown = 0;

		for (size_t i = 0; i < l->n; i++) {
			if (l->seg[i].w == 0)
				continue;
			shown++;
			if (v == NULL || l->seg[i].prio >= v->prio)
				v = &l->seg[i];
		}
		if (v == NULL)
			return;
		if (shown == 1)
			v->w = v->w > excess ? v->w - excess : 0;
		else if (v->minw > 0 && v->w > v->minw)
			v->w -= excess < v->w - v->minw ? excess : v->w - v->minw;
		else
			v->w = 0;
	}
}

/* Blank line y in attr, the cursor at its start. */
static void
screen_blank(int y, attr_t attr)
{
	mvwhline(stdscr, y, 0, ' ' | attr, COLS);
	wmove(stdscr, y, 0);
}

/* Draw the fields that fit on line y. */
static void
segs_draw(struct segs *l, int y, const struct theme *th)
{
	int x = 0;

	segs_fit(l, COLS);
	screen_blank(y, th->attr[TH_NORMAL]);
	for (size_t i = 0; i < l->n; i++) {
		struct seg *s = &l->seg[i];
		int used;

		if (s->w == 0)
			continue;
		wmove(stdscr, y, x);
		wattrset(stdscr, th->attr[TH_HEADER_LABEL]);
		used = prompt_str_draw(stdscr, s->label, s->w, th->ellipsis);
		wattrset(stdscr, th->attr[s->attr]);
		prompt_str_draw(stdscr, s->value, s->w - used, th->ellipsis);
		x += s->w + SEG_GAP;
	}
	wattrset(stdscr, A_NORMAL);
}

/* Escape untrusted text into buf; returns buf. */
static const char *
screen_esc(char *buf, size_t len, const char *s)
{
	str_escape(buf, len, s != NULL ? s : "", SIZE_MAX);
	return buf;
}

/* "no hardware PMU for cycles; BPF engine not used": the head of each of
 * the engine's notices (joined by "; "), up to its first ": " (the rest
 * names the event the header shows, or a reason too long for it). */
static void
screen_short_notice(char *buf, size_t len, const char *notice)
{
	char raw[192];
	size_t n = 0;

	raw[0] = '\0';
	for (const char *p = notice; *p != '\0' && n < sizeof raw - 1;) {
		const char *end = strstr(p, "; "), *colon = strstr(p, ": ");
		size_t part = end != NULL ? (size_t)(end - p) : strlen(p);
		size_t head =
		    colon != NULL && (size_t)(colon - p) < part ? (size_t)(colon - p) : part;

		snprintf(raw + n, sizeof raw - n, "%s%.*s", n > 0 ? "; " : "", (int)head, p);
		n = strlen(raw);
		p += part + (end != NULL ? 2 : 0);
	}
	screen_esc(buf, len, raw);
}

/* "2.0s", "0.5s", "0.05s": the refresh interval, short. */
static void
screen_delay(char *buf, size_t len, double delay)
{
	size_t n;

	snprintf(buf, len, "%.2f", delay);
	n = strlen(buf);
	if (n > 3 && buf[n - 1] == '0' && buf[n - 3] == '.')
		buf[n - 1] = '\0';
}

/* Header line 0: event, fallback notices, sample rate, lost samples. */
static void
screen_header_event(struct tui *t, struct segs *l)
{
	const struct frame_sampling *fs = t->frame != NULL ? &t->frame->sampling : NULL;
	const struct frame_event *ev = t->frame != NULL ? frame_event(t->frame, t->event) : NULL;
	char name[96], notice[160];

	if (ev != NULL) {
		screen_esc(name, sizeof name, ev->name);
		if (fs->nevents > 1)
			seg_add(l, "Event: ", TH_HEADER_VALUE, 0, 8, "%s [%zu/%zu]", name,
			        t->event + 1, fs->nevents);
		else
			seg_add(l, "Event: ", TH_HEADER_VALUE, 0, 8, "%s", name);
		if (fs->notice != NULL) {
			screen_short_notice(notice, sizeof notice, fs->notice);
			seg_add(l, "", TH_HEADER_WARN, 4, 12, "(%s)", notice);
		}
	}
	seg_add(l, "Samples/s: ", TH_HEADER_VALUE, 2, 0, "%.0f", t->snap_rate);
	if (ev != NULL)
		seg_add(l, "Lost: ", fs->stats.lost > 0 ? TH_HEADER_WARN : TH_HEADER_VALUE,
		        fs->stats.lost > 0 ? 1 : 3, 0, "%llu", (unsigned long long)fs->stats.lost);
}

/* Header line 1: target, refresh, decay or zero, the engine and why, frozen, a debuginfod
 * download or its servers out of reach, and what the panes say narrows
 * their view (the Top pane's zoom and hiding). */
static void
screen_header_view(struct tui *t, struct segs *l)
{
	const struct symdbg_status *dbg = t->frame != NULL ? &t->frame->sampling.debuginfod : NULL;
	const struct frame_sampling *fs = t->frame != NULL ? &t->frame->sampling : NULL;
	char buf[128], why[160];

	if (t->frame != NULL && t->frame->sampling.target != NULL)
		seg_add(l, "Target: ", TH_HEADER_VALUE, 0, 12, "%s",
		        screen_esc(buf, sizeof buf, t->frame->sampling.target));

	screen_delay(buf, sizeof buf, t->delay);
	seg_add(l, "Refresh: ", TH_HEADER_VALUE, 2, 0, "%ss", buf);
	seg_add(l, "", TH_HEADER_VALUE, 3, 0, "%s", t->zero ? "zero" : "decay");
	if (fs != NULL && fs->engine != NULL && fs->nevents > 0) {
		seg_add(l, "Engine: ", TH_HEADER_VALUE, 3, 0, "%s", fs->engine);
		/* why that engine (a refusal's reason): cut first */
		if (fs->engine_why != NULL && fs->engine_why[0] != '\0')
			seg_add(l, "", TH_HEADER_VALUE, 5, 12, "(%s)",
			        screen_esc(why, sizeof why, fs->engine_why));
	}
	if (t->frozen)
		seg_add(l, "", TH_HEADER_WARN, 1, 0, "FROZEN");
	if (t->history_label[0] != '\0')
		seg_add(l, "", TH_HEADER_WARN, 0, 0, "%s", t->history_label);
	for (size_t i = 0; i < t->npanes; i++) {
		struct pane_header h = {.n = 0};

		if (t->panes[i]->header == NULL)
			continue;
		t->panes[i]->header(t->pane_state[i], &h);
		for (size_t k = 0; k < h.n; k++)
			seg_add(l, h.field[k].label, TH_HEADER_VALUE, h.field[k].prio,
			        h.field[k].minw, "%s", h.field[k].text);
	}
	/* last: cut before the refresh interval on a narrow screen; the
	 * status's name is escaped already */
	if (dbg != NULL && symdbg_status_text(dbg, buf, sizeof buf))
		seg_add(l, "debuginfod: ", dbg->fetching ? TH_HEADER_VALUE : TH_HEADER_WARN, 2, 12,
		        "%s", buf);
}

/* The first tab the bar shows: 0 when every tab fits, else the first
 * that leaves the active one on screen, a marker's cell kept on each
 * side that has tabs cut off. */
static size_t
screen_first_tab(const int *w, size_t ntabs, size_t active, int gap)
{
	size_t first = 0;
	int all = -gap;

	for (size_t i = 0; i < ntabs; i++)
		all += w[i] + gap;
	while (all > COLS && first < active) {
		int need = first > 0 ? 1 : 0; /* the left marker */

		for (size_t i = first; i <= active; i++)
			need += w[i] + gap;
		if (need + (active + 1 < ntabs ? 1 : 0) <= COLS)
			break;
		first++;
	}
	return first;
}

/* The tab bar: one tab per pane, and Help while it is shown; the tabs
 * touch (no gap) when spaced they would not all fit, and when even so
 * they do not, the bar scrolls to the active tab with "<" and ">" where
 * tabs are cut off. */
static void
screen_draw_tabs(struct tui *t, int y)
{
	const struct theme *th = &t->theme;
	size_t ntabs = t->npanes + (t->help ? 1 : 0), active = t->help ? t->npanes : t->cur, first;
	char tab[SCREEN_TABS_MAX][64];
	int w[SCREEN_TABS_MAX], x = 0, gap = 1, all = 0;

	if (ntabs > SCREEN_TABS_MAX)
		ntabs = SCREEN_TABS_MAX;
	for (size_t i = 0; i < ntabs; i++) {
		snprintf(tab[i], sizeof tab[i], " %s ", i < t->npanes ? t->panes[i]->name : "Help");
		prompt_str_trim(tab[i]);
		w[i] = prompt_str_width(tab[i]);
		all += w[i] + 1;
	}
	if (all - 1 > COLS)
		gap = 0;
	first = screen_first_tab(w, ntabs, active < ntabs ? active : 0, gap);
	screen_blank(y, th->attr[TH_NORMAL]);
	if (first > 0) {
		mvaddstr(y, 0, "<");
		x = 1;
	}
	for (size_t i = first; i < ntabs; i++) {
		/* room for the right marker unless this is the last tab */
		if (x + w[i] + (i + 1 < ntabs ? 1 : 0) > COLS) {
			mvaddstr(y, COLS - 1, ">");
			break;
		}
		wmove(stdscr, y, x);
		wattrset(stdscr, th->attr[i == active ? TH_TAB_ACTIVE : TH_TAB]);
		prompt_str_draw(stdscr, tab[i], w[i], NULL);
		wattrset(stdscr, A_NORMAL);
		x += w[i] + gap;
	}
	wattrset(stdscr, A_NORMAL);
}

/* The history strip's lines, when the screen has room for it. */
static int
screen_strip_lines(const struct tui *t)
{
	return t->strip_draw != NULL && LINES >= SCREEN_STRIP_MIN_LINES ? t->strip_lines : 0;
}

/* Lines above the pane area. */
int
screen_header_lines(const struct tui *t)
{
	return SCREEN_HEADER_LINES + screen_strip_lines(t) + meters_lines(t, LINES, COLS);
}

/* Draw the header, the meters and the tab bar (the caller refreshes). */
void
screen_draw_header(struct tui *t)
{
	int meters = meters_lines(t, LINES, COLS), strip = screen_strip_lines(t);
	struct segs l;

	if (LINES > 0) {
		memset(&l, 0, sizeof l);
		screen_header_event(t, &l);
		segs_draw(&l, 0, &t->theme);
	}
	if (LINES > 1) {
		memset(&l, 0, sizeof l);
		screen_header_view(t, &l);
		segs_draw(&l, 1, &t->theme);
	}
	if (strip > 0)
		t->strip_draw(t, 2);
	if (meters > 0)
		meters_draw(t, 2 + strip);
	if (LINES > 2 + strip + meters)
		screen_draw_tabs(t, 2 + strip + meters);
}

/* The status line: the open prompt, or the message until it expires. */
static void
screen_draw_status(struct tui *t, int y)
{
	const struct theme *th = &t->theme;
	attr_t attr;

	if (t->prompt.active) {
		prompt_draw(&t->prompt, stdscr, y, COLS, th);
		return;
	}
	if (t->status[0] != '\0' && now_ns() >= t->status_until)
		t->status[0] = '\0';
	attr = th->attr[t->status[0] == '\0' ? TH_NORMAL : t->status_error ? TH_ERROR : TH_STATUS];
	screen_blank(y, attr);
	wattrset(stdscr, attr);
	prompt_str_draw(stdscr, t->status, COLS, th->ellipsis);
	wattrset(stdscr, A_NORMAL);
}

/* The key bar: the first bar-labelled binding of each action that applies
 * here (global ones only over the help), in table order, as many as fit. */
static void
screen_draw_keybar(struct tui *t, int y)
{
	const struct theme *th = &t->theme;
	enum key_scope scope = t->help || t->npanes == 0 ? SCOPE_GLOBAL : t->panes[t->cur]->scope;
	bool seen[ACT_COUNT] = {false};
	size_t n;
	const struct keybind *kb = keymap_table(&n);
	int x = 0;

	screen_blank(y, th->attr[TH_KEY_LABEL]);
	for (size_t i = 0; i < n; i++) {
		const struct keybind *b = &kb[i];
		int w;

		/* The lookup says whether this key does this action here. */
		if (b->bar == NULL || seen[b->action] ||
		    keymap_lookup(b->key, b->is_key, scope) != b->action ||
		    !keymap_applies(b, scope))
			continue;
		seen[b->action] = true;
		w = prompt_str_width(b->name) + prompt_str_width(b->bar);
		if (x + w > COLS)
			break;
		wmove(stdscr, y, x);
		wattrset(stdscr, th->attr[TH_KEY]);
		prompt_str_draw(stdscr, b->name, w, NULL);
		wattrset(stdscr, th->attr[TH_KEY_LABEL]);
		prompt_str_draw(stdscr, b->bar, w, NULL);
		x += w + SEG_GAP;
	}
	wattrset(stdscr, A_NORMAL);
}

/* Draw the status line and the key bar (the caller refreshes). */
void
screen_draw_footer(struct tui *t)
{
	if (LINES >= 2)
		screen_draw_status(t, LINES - 2);
	if (LINES >= 1)
		screen_draw_keybar(t, LINES - 1);
}
