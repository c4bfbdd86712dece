/* tui: the interactive front end's state, shared by the loop, the screen
 * and the panes. */
#ifndef TRACETOP_UI_TUI_H
#define TRACETOP_UI_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/engine.h"
#include "tracetop/hist.h"
#include "tracetop/options.h"
#include "ui/action.h"
#include "ui/curses.h"
#include "ui/keymap.h"
#include "ui/menu.h"
#include "ui/picker.h"
#include "ui/prompt.h"
#include "ui/theme.h"

struct tui;

/* One pane: one file, one const instance of this. */
struct pane_ops {
	const char *name;     /* tab title */
	enum key_scope scope; /* which key map entries apply */
	void *(*init)(struct tui *t);
	void (*free)(void *p);
	/* A new snapshot is in t->snap (or the filters changed). */
	void (*update)(void *p, struct tui *t);
	/* Draw into win at (y, x), h lines by w columns. */
	void (*draw)(void *p, struct tui *t, WINDOW *win, int y, int x, int h, int w);
	/* Act on an action; REACT_* flags. */
	int (*action)(void *p, struct tui *t, enum action a);
	/* A mouse event at screen (y, x): bstate from getmouse. */
	int (*mouse)(void *p, struct tui *t, int y, int x, unsigned long bstate);
	/* Text typed into a prompt this pane opened changed, was accepted or
	 * cancelled. */
	int (*prompt)(void *p, struct tui *t, int result);
	/* An item of a menu this pane opened was chosen. */
	int (*menu)(void *p, struct tui *t, int id);
	/* Item idx of the picker this pane opened was chosen (Enter: the
	 * picker closed) or toggled (Space in a checklist: it stays open). */
	int (*pick)(void *p, struct tui *t, size_t idx, bool toggled);
};

/* What the Top pane is zoomed into (0 / NULL: not). */
struct zoom {
	int pid;
	int tid;
	const struct dso *dso;
};

struct counters;
struct probes;

struct tui {
	struct engine *engine;
	struct counters *counters;  /* the Counters pane's, NULL if they failed... */
	const char *counters_error; /* ...for this reason */
	struct probes *probes;      /* the Probes pane's manager, or NULL */
	const struct options *opts;
	struct theme theme;
	double delay; /* seconds between refreshes */
	bool zero;    /* zero counts each refresh instead of decay */
	bool frozen;  /* the display keeps its snapshot */
	bool hide_kernel, hide_user;
	bool mouse;
	size_t event; /* event shown (index into the engine's) */
	struct zoom zoom;
	struct hist_snapshot snap;  /* the shown event's rows, engine order */
	const struct callgraph *cg; /* the shown event's call graph, NULL without -g */
	uint64_t snap_samples;      /* samples of the refresh */
	double snap_rate;           /* samples/s of the refresh */
	long refreshes;
	/* panes */
	const struct pane_ops *const *panes;
	void **pane_state;
	size_t npanes, cur;
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
	bool dirty;            /* something to draw */
	bool quit;
};

/* Run the interactive screen until quit, -n refreshes, the command's or
 * targets' exit, or a signal. Returns the exit status. */
int tui_run(struct engine *e, struct counters *c, const char *counters_error, struct probes *p,
            const struct options *o);

/* Put a message on the status line for a few seconds. */
void tui_status(struct tui *t, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Take a fresh snapshot of the shown event with the current filters. */
void tui_snapshot(struct tui *t);

extern const struct pane_ops pane_top;
/* The snapshot filter for the Top pane's zooms and K/U (arg: the tui). */
bool top_keep_row(const struct hist_entry *e, void *arg);
extern const struct pane_ops pane_counters;
extern const struct pane_ops pane_trace;
extern const struct pane_ops pane_probes;
extern const struct pane_ops pane_annotate;
struct dso;
struct sym;
/* Annotate sym of dso in the Annotate pane and switch to it (or say on
 * the status line why it cannot be). */
void pane_annotate_open(struct tui *t, struct dso *dso, const struct sym *sym, bool kernel);
/* Switch to the Probes pane and ask how to probe func of binary (NULL or
 * "": a kernel function): entry or return, then arguments. */
void pane_probes_insert(struct tui *t, const char *binary, const char *func);
extern const struct pane_ops pane_help;

#endif
