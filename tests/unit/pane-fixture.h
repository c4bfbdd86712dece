/* pane-fixture: the Top pane on a headless screen, for its unit tests:
 * a hand-made tui with a real hist (and call graph), fakes of the loop and
 * engine calls the pane makes, and helpers to draw, type and read lines. */
#ifndef TRACETOP_TEST_PANE_FIXTURE_H
#define TRACETOP_TEST_PANE_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "tracetop/addrhist.h"
#include "tracetop/callgraph.h"
#include "tracetop/hist.h"
#include "ui/tui.h"
#include "headless.h"

/* The pane area as the loop gives it: below the header, above the footer. */
#define PANE_Y 3
#define PANE_FOOT 2

#define LONG_NAME "delta_a_very_long_symbol_name_that_will_not_fit_in_eighty_columns"

struct fixture {
	struct hist *h;
	struct dso libc, app, kernel;
	struct sym alpha, beta, gamma, delta;
	struct sym helper, mainf; /* on call stacks only */
	struct callgraph *cg;     /* set by setup_cg */
	const struct pane_ops *panes[1];
	void *states[1];
	struct frame frame; /* what tui_snapshot shows: one event */
	struct frame_event event;
	struct tui t;
};

/* The fixture the fakes see, and what they recorded. */
extern struct fixture *cur;
extern int snapshots;
extern int zoom_calls;
extern int zoom_tids[8];

void add_n(struct hist *h, const struct hist_key *k, int n);
int setup(void **state);
int teardown(void **state);
void draw(struct fixture *f, int lines, int columns);
const char *line(int y);
const char *pane_line(int y);
const char *symbols_shown(void);
int act(struct fixture *f, enum action a);
void type(struct fixture *f, const char *text);
void finish(struct fixture *f, bool done);
const struct menu_item *menu_item(const struct menu *m, const char *prefix);
void choose(struct fixture *f, const char *prefix);
const char *menu_title_of_selection(struct fixture *f);
void add_stack(struct fixture *f, int n, const struct sym *const *syms, size_t depth);
int setup_cg(void **state);
int find_line(const char *text);
const char *selected(struct fixture *f);
bool row_selected(struct fixture *f, const char *sym);
void select_row(struct fixture *f, const char *sym);
/* The Top pane's header fields joined as on screen ("Zoom: pid 1  K hidden"). */
const char *header_of(struct fixture *f);

/* What the fakes of the Annotate and Probes panes' entry points were given. */
extern char annotate_open_sym[256];
extern unsigned annotate_open_mask; /* its row: HIST_GROUP_* of who */
extern struct addrhist_who annotate_open_who;
extern char flame_open_sym[256];
extern char probe_insert_func[256];
extern char latency_time_func[256], latency_time_binary[256];

#endif
