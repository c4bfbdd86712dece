/* tui: the interactive front end's state, shared by the loop, the screen
 * and the panes. */
#ifndef TRACETOP_UI_TUI_H
#define TRACETOP_UI_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/diff.h"
#include "tracetop/engine.h"
#include "tracetop/frame.h"
#include "tracetop/hist.h"
#include "tracetop/options.h"
#include "tracetop/rcfile.h"
#include "tracetop/session.h"
#include "ui/action.h"
#include "ui/curses.h"
#include "ui/keymap.h"
#include "ui/menu.h"
#include "ui/picker.h"
#include "ui/prompt.h"
#include "ui/theme.h"

struct tui;

/* What a pane reads of a frame. */
enum pane_parts {
	PANE_READS_SAMPLING = 1 << 0,
	PANE_READS_COUNTERS = 1 << 1,
	PANE_READS_PROBES = 1 << 2,
	PANE_READS_TRACE = 1 << 3,
	PANE_READS_SYSTEM = 1 << 4,
	PANE_READS_LATENCY = 1 << 5,
};

/* What a pane adds to the header's second line (what narrows its view),
 * up to PANE_HEADER_FIELDS fields, its text escaped. */
#define PANE_HEADER_FIELDS 4
struct pane_header {
	struct {
		const char *label; /* "Zoom: ", or "" */
		char text[160];
		int prio; /* the lower, the later it gives way at narrow widths */
		int minw; /* cut to no fewer columns than this (0: whole or dropped) */
	} field[PANE_HEADER_FIELDS];
	size_t n;
};

/* One pane: one file, one const instance of this, one line in the table
 * of ui/panes.c. */
struct pane_ops {
	const char *name;       /* tab title */
	enum key_scope scope;   /* which key map entries apply */
	enum options_view view; /* the --view that starts on it (VIEW_NONE: none) */
	unsigned reads;         /* PANE_READS_*: the frame parts it shows */
	void *(*init)(struct tui *t);
	void (*free)(void *p);
	/* A new frame f (or the filters changed and f was taken again); only
	 * frames that hold every part the pane reads. */
	void (*update)(void *p, struct tui *t, const struct frame *f);
	/* Draw into win at (y, x), h lines by w columns. */
	void (*draw)(void *p, struct tui *t, WINDOW *win, int y, int x, int h, int w);
	/* Its fields of the header (NULL: none). */
	void (*header)(void *p, struct pane_header *h);
	/* The pane became the one shown (shown), or stopped being it (NULL:
	 * nothing to do): to read what only it needs while it is seen. */
	void (*show)(void *p, struct tui *t, bool shown);
	/* Act on an action; REACT_* flags. */
	int (*action)(void *p, struct tui *t, enum action a);
	/* A mouse event at screen (y, x): bstate from getmouse. */
	int (*mouse)(void *p, struct tui *t, int y, int x, unsigned long bstate);
	/* Text typed into a prompt this pane opened changed, was accepted or
	 * cancelled. */
	int (*prompt)(void *p, struct tui *t, int result);
	/* An item of a menu this pane opened was chosen. */
	int (*menu)(void *p, struct tui *t, int id);
	/* Its state begins with its struct listpane (the setup file keeps its
	 * sort). */
	bool listpane;
	/* Its own settings in the setup file (NULL: none): put them in rc
	 * (save), or apply those rc has. */
	void (*setup)(void *p, struct tui *t, struct rcfile *rc, bool save);
	/* Item idx of the picker this pane opened was chosen (Enter: the
	 * picker closed) or toggled (Space in a checklist: it stays open). */
	int (*pick)(void *p, struct tui *t, size_t idx, bool toggled);
};

/* The panes, in tab order (ui/panes.c). */
extern const struct pane_ops *const tui_panes[];
extern const size_t tui_npanes;

struct counters;
struct probes;
struct system;

struct tui {
	struct session *session;
	const struct frame *frame; /* the last one shown */
	/* the session's sources, for what the panes do (the data they show
	 * comes from frames) */
	struct engine *engine;
	struct counters *counters;  /* the Counters pane's, NULL if they failed... */
	const char *counters_error; /* ...for this reason */
	struct probes *probes;      /* the Probes pane's manager, or NULL */
	struct system *system;      /* the system source (meters, System pane), or NULL */
	const struct options *opts;
	struct theme theme;
	double delay; /* seconds between refreshes */
	bool zero;    /* zero counts each refresh instead of decay */
	bool frozen;  /* the display keeps its snapshot */
	bool replay;  /* -r FILE: what the panes show is a recording's (read-only) */
	bool mouse;
	bool no_meters;             /* the header meters are hidden (m) */
	size_t event;               /* event shown (index into the frame's) */
	const struct callgraph *cg; /* the shown event's call graph, NULL without -g */
	uint64_t snap_samples;      /* samples of the refresh */
	double snap_rate;           /* samples/s of the refresh */
	long refreshes;
	/* panes */
	const struct pane_ops *const *panes;
	void **pane_state;
	size_t npanes, cur;
	size_t shown;    /* the pane whose show op last said it is seen (npanes: none) */
	bool help;       /* the help pane is over the current one */
	size_t help_top; /* help scroll position */
	/* dialogs */
	struct prompt prompt;
	int prompt_owner; /* pane index, or -1 for the loop's own (delay) */
	struct menu menu;
	struct picker picker;
	int picker_owner; /* pane index */
	/* status line */
	char status[256];
	bool status_error;
	uint64_t status_until; /* now_ns() deadline */
	uint64_t dbg_seq;      /* the last debuginfod note put there */
	/* the setup file: the state as the screen started, notes on its bad
	 * settings (printed at exit) */
	struct rcfile setup0;
	char **setup_notes;
	size_t nsetup_notes, setup_notes_cap;
	/* the history timeline (ui/timeline.c), NULL without one; its strip's
	 * lines under the header and how to draw it; the header's label of the
	 * stretch shown ("" when live) */
	struct timeline *timeline;
	int strip_lines;
	void (*strip_draw)(struct tui *t, int y);
	char history_label[64];
	/* B or --baseline: what every Top, counter and latency row is
	 * compared with (NULL: none); base_seq counts the baselines set, so
	 * panes know theirs is stale; top_frame: the frame whose profile the
	 * panes show (live, or the history's interval or range) */
	struct diff_set *base;
	uint64_t base_seq;
	char base_what[64];
	const struct frame *top_frame;
	bool dirty; /* something to draw */
	bool quit;
};

/* Run the interactive screen over session s until quit, -n refreshes,
 * the command's or targets' exit, or a signal (counters_error: why there
 * are no counters, or NULL). Returns the exit status. */
int tui_run(struct session *s, const char *counters_error, const struct options *o);

/* Put a message on the status line for a few seconds. */
void tui_status(struct tui *t, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Take the sources' snapshots again and let the panes show them (after a
 * change of what they show: filters, zoom, scope, events). */
void tui_snapshot(struct tui *t);

/* Give frame f to the panes that read any part in reads (PANE_READS_*),
 * with the header's numbers when that includes the profile. */
void tui_update(struct tui *t, const struct frame *f, unsigned reads);

/* Switch to pane ops (it must be in the table). */
void tui_show_pane(struct tui *t, const struct pane_ops *ops);

/* The state of pane ops (NULL when it is not in the table). */
void *tui_pane_state(const struct tui *t, const struct pane_ops *ops);

extern const struct pane_ops pane_top;
extern const struct pane_ops pane_annotate;
extern const struct pane_ops pane_probes;
extern const struct pane_ops pane_counters;
struct dso;
struct sym;
struct addrhist_who;
/* Annotate sym of dso in the Annotate pane and switch to it (or say on
 * the status line why it cannot be); with mask (HIST_GROUP_*), only the
 * samples of the Top row whose key agrees with *who on those fields. */
void pane_annotate_open(struct tui *t, struct dso *dso, const struct sym *sym, bool kernel,
                        unsigned mask, const struct addrhist_who *who);
/* Switch to the Probes pane and ask how to probe func of binary (NULL or
 * "": a kernel function): entry or return, then arguments. */
void pane_probes_insert(struct tui *t, const char *binary, const char *func);

/* Every tracepoint's name, for a picker (the Trace pane's checklist, the
 * Probes pane's "count a tracepoint"): n of them, 0 with the reason on
 * the status line; names_free them. */
char **pane_trace_catalog(struct tui *t, size_t *n);
/* Stream the events of tracetop's probes while the Trace pane is seen
 * (on), only count their hits when it is not (off): every streamed hit
 * goes through the rings, counting costs nothing per hit. Probes streamed
 * by hand (the Probes pane's row menu) stay streamed. */
void pane_probes_stream(struct tui *t, bool on);
extern const struct pane_ops pane_help;
extern const struct pane_ops pane_latency;
/* Time func of binary (NULL or "": a kernel function) with an
 * entry/return probe pair (uprobes, or kprobes where the kernel has
 * them) and show its histogram in the Latency pane (or say on the status
 * line why it cannot be). */
void pane_latency_time(struct tui *t, const char *binary, const char *func);
extern const struct pane_ops pane_flame;
struct cg_frame;
/* Switch to the Flame pane with the heaviest frame of function f selected
 * (the whole graph, not zoomed). */
void pane_flame_open(struct tui *t, const struct cg_frame *f);
/* Zoom the Top pane into process pid and switch to it. */
void pane_top_zoom_pid(struct tui *t, int pid);
/* Zoom the Top pane into thread tid of process pid and switch to it. */
void pane_top_zoom_tid(struct tui *t, int pid, int tid);
/* The Top pane's selected row (the row of a tree line selected): its
 * key, the rows' grouping (HIST_GROUP_*) and what names the row there
 * ("phase_two", "libc.so.6", "app pid 12"; escaped) in name; false when
 * none is (or a row gone since the baseline). */
bool pane_top_selected(const struct tui *t, struct hist_key *key, unsigned *group, char *name,
                       size_t len);
/* Zoom the Counters pane into process pid (its process scope), staying in
 * the pane shown. */
void pane_counters_zoom_pid(struct tui *t, int pid);

#endif
