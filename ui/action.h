/* action: what a key (or mouse event) asks for. Keys map to actions in
 * keymap.c; panes and widgets act on actions, never on raw keys, so the
 * key map table alone decides the bindings, the help and the man page. */
#ifndef TRACETOP_UI_ACTION_H
#define TRACETOP_UI_ACTION_H

enum action {
	ACT_NONE,
	/* global */
	ACT_HELP,
	ACT_QUIT,
	ACT_CLOSE, /* Esc: close a dialog, leave a zoom, clear a filter */
	ACT_NEXT_PANE,
	ACT_PREV_PANE,
	ACT_REDRAW,
	ACT_TOGGLE_ZERO,  /* z */
	ACT_FREEZE,       /* Z */
	ACT_DELAY,        /* d */
	ACT_NEXT_EVENT,   /* e */
	ACT_METERS,       /* m: hide or show the header meters */
	ACT_SAVE_SETUP,   /* F2: write the setup file */
	ACT_HIST_BACK,    /* ,: one interval back in the history */
	ACT_HIST_FORWARD, /* .: one interval forward */
	ACT_HIST_SPIKE,   /* !: the interval with the most samples/s */
	ACT_HIST_RANGE,   /* R: a range from the interval shown */
	ACT_HIST_LIVE,    /* L: back to now */
	ACT_HIST_SHARE,   /* T: the strip shows samples/s or the selected row's share */
	ACT_BASELINE,     /* B: mark what is shown as the baseline, or clear it */
	/* tables */
	ACT_UP,
	ACT_DOWN,
	ACT_PAGE_UP,
	ACT_PAGE_DOWN,
	ACT_HOME,
	ACT_END,
	ACT_SEARCH,      /* F3 / */
	ACT_SEARCH_NEXT, /* n */
	ACT_SEARCH_PREV, /* N */
	ACT_FILTER,      /* F4 \ */
	ACT_SORT_MENU,   /* F6 */
	ACT_SORT_PREV,   /* < */
	ACT_SORT_NEXT,   /* > */
	ACT_SORT_INVERT, /* I */
	ACT_ENTER,       /* Enter: the row's menu */
	ACT_BACK,        /* Left: scroll back left, else back out of a zoom */
	ACT_DETAIL,      /* i: the selected row's whole text in a popup */
	/* top pane */
	ACT_HIDE_KERNEL,  /* K */
	ACT_HIDE_USER,    /* U */
	ACT_EXPAND,       /* + */
	ACT_COLLAPSE,     /* - */
	ACT_EXPAND_ALL,   /* E */
	ACT_COLLAPSE_ALL, /* C */
	ACT_TREE_MODE,    /* G: callers or callees */
	ACT_TREE_PERCENT, /* %: of the total or of the parent */
	ACT_CGROUP_COL,   /* c: hide or show the Cgroup column */
	ACT_GROUP,        /* g: the next grouping of the rows */
	/* counters pane */
	ACT_COUNTERS_SCOPE, /* s: total, per CPU, per process */
	ACT_ADD,            /* a, Insert: add (a counter) */
	ACT_REMOVE,         /* Delete: remove (the selected counter, event, probe) */
	/* trace pane */
	ACT_PAUSE,   /* p: pause the stream */
	ACT_SUMMARY, /* v: the stream or the counts per event */
	ACT_FTRACE,  /* f: follow kernel functions (function tracer) */
	ACT_KFILTER, /* F: edit the selected event's kernel filter */
	/* probes pane */
	ACT_TOGGLE, /* Space: turn the selected probe on or off */
	/* annotate pane (and a in Top) */
	ACT_ANNOTATE,      /* a in Top: annotate the selected function */
	ACT_HOT_NEXT,      /* ]: the next (cooler) hot line */
	ACT_HOT_PREV,      /* [: the previous (hotter) hot line */
	ACT_RETURN,        /* Backspace: back from a followed call */
	ACT_TOGGLE_SOURCE, /* S */
	ACT_TOGGLE_ADDR,   /* A */
	ACT_TOGGLE_COUNTS, /* P: percent or samples */
	/* processes pane */
	ACT_THREADS, /* H: show or hide each process's threads */
	/* latency (and t in Top and Probes) */
	ACT_TIME_FUNC,   /* t: time the selected function (entry/return probe pair) */
	ACT_PER_PROCESS, /* p in Latency: rows per process or over all */
	/* flame pane (and F in Top) */
	ACT_FLAME,         /* F in Top: the selected function in the Flame pane */
	ACT_LEFT,          /* Left: the frame to the left */
	ACT_RIGHT,         /* Right: the frame to the right; in lists, scroll the
	                    * long column right */
	ACT_FLAME_CALLERS, /* r: the callers of the selected function, or back */
	ACT_FLAME_FLIP,    /* i: flame (root at the bottom) or icicle (at the top) */
	ACT_COUNT
};

/* What a handler asks of the loop after an action (bit flags). */
enum reaction {
	REACT_IGNORED = 0, /* not for me: try the next handler */
	REACT_HANDLED = 1 << 0,
	REACT_REDRAW = 1 << 1, /* draw again */
	REACT_RESNAP = 1 << 2, /* re-filter / re-sort the current snapshot */
	REACT_QUIT = 1 << 3,
};

#endif
