/* pane-fixture: shared by the Top pane's unit tests (test-pane-top.c,
 * test-calltree.c): a struct tui built by hand around a real hist (and
 * call graph) of fake entries, ncurses on /dev/null with the screen read
 * back cell by cell, and small fakes of tui_status, tui_snapshot,
 * engine_zoom_thread, engine_set_group, probe_kind_supported, pane_probes_insert,
 * pane_latency_time and pane_flame_open (the loop's, the engine's, the probe
 * manager's, the Probes, Latency and Flame panes'). */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>

#include "tracetop/callgraph.h"
#include "tracetop/hist.h"
#include "tracetop/probe.h"
#include "tracetop/symtab.h"
#include "tracetop/util.h"
#include "ui/tui.h"

#include "headless.h"
#include "pane-fixture.h"

/* The fixture the fakes see. */
struct fixture *cur;

/* What the fakes recorded. */
int snapshots;
int zoom_calls;
int zoom_tids[8];

static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};

/* Fake of the loop's status line: keep the message. */
void
tui_status(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->status, sizeof t->status, fmt, ap);
	va_end(ap);
	t->status_error = error;
	t->dirty = true;
}

/* Fake of the loop's snapshot: a frame of one event, the fixture's hist
 * and call graph, then every pane's update. */
void
tui_snapshot(struct tui *t)
{
	struct frame *f = &cur->frame;

	snapshots++;
	f->has_sampling = true;
	f->sampling.events = &cur->event;
	f->sampling.nevents = f->sampling.cap = 1;
	cur->event.name = "cpu-clock";
	cur->event.cg = cur->cg;
	hist_snapshot(cur->h, by_overhead, NULL, NULL, &cur->event.rows);
	t->frame = f;
	t->cg = cur->cg;
	for (size_t i = 0; i < t->npanes; i++)
		t->panes[i]->update(t->pane_state[i], t, f);
	t->dirty = true;
}

/* What the fixture's tui holds as its engine (a live session has one, a
 * replay none): only the fakes here are given it, never dereferenced. */
static char fixture_engine;

/* Fake of the engine's thread zoom: record the tid. */
void
engine_zoom_thread(struct engine *e, int tid)
{
	assert_ptr_equal(e, &fixture_engine);
	if (zoom_calls < (int)(sizeof zoom_tids / sizeof zoom_tids[0]))
		zoom_tids[zoom_calls] = tid;
	zoom_calls++;
}

/* The grouping the Top pane gives the engine: the fixture's. */
void
engine_set_group(struct engine *e, unsigned group)
{
	(void)group;
	assert_ptr_equal(e, &fixture_engine);
}

/* Fake of the probe manager's kernel check: no kprobes here. */
bool
probe_kind_supported(enum probe_kind k, struct tt_err *err)
{
	(void)k;
	return err_set(err, "no kprobes (fake)") == 0;
}

/* Fake of the Probes pane's entry point: record the function. */
char probe_insert_func[256];
void
pane_probes_insert(struct tui *t, const char *binary, const char *func)
{
	(void)t;
	(void)binary;
	snprintf(probe_insert_func, sizeof probe_insert_func, "%s", func);
}

/* Fake of the Latency pane's entry point: record the function and its
 * binary ("" for the kernel). */
char latency_time_func[256], latency_time_binary[256];
void
pane_latency_time(struct tui *t, const char *binary, const char *func)
{
	(void)t;
	snprintf(latency_time_binary, sizeof latency_time_binary, "%s", binary ? binary : "");
	snprintf(latency_time_func, sizeof latency_time_func, "%s", func);
}

/* Fake of the Annotate pane's entry point: record the function and
 * whose samples. */
char annotate_open_sym[256];
unsigned annotate_open_mask;
struct addrhist_who annotate_open_who;
void
pane_annotate_open(struct tui *t, struct dso *dso, const struct sym *sym, bool kernel,
                   unsigned mask, const struct addrhist_who *who)
{
	(void)t;
	(void)dso;
	(void)kernel;
	snprintf(annotate_open_sym, sizeof annotate_open_sym, "%s", sym->name);
	annotate_open_mask = mask;
	annotate_open_who = *who;
}

/* Fake of the Flame pane's entry point: record the function. */
char flame_open_sym[256];
void
pane_flame_open(struct tui *t, const struct cg_frame *f)
{
	(void)t;
	snprintf(flame_open_sym, sizeof flame_open_sym, "%s", f->sym ? f->sym->name : "");
}

/* Count n samples for a key. */
void
add_n(struct hist *h, const struct hist_key *k, int n)
{
	while (n-- > 0)
		hist_add(h, k);
}

/* Five rows of 100 samples: 40 alpha_fn (user), 30 beta_sched (kernel),
 * 20 gamma_work, 6 a long symbol, 4 an unresolved address; a Top pane
 * over them as the loop would set it up. */
int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct hist_key k;

	f->libc =
	    (struct dso){.name = "/usr/lib/libc.so.6", .short_name = "libc.so.6", .kind = DSO_ELF};
	f->app =
	    (struct dso){.name = "/opt/app/bin/gammad", .short_name = "gammad", .kind = DSO_ELF};
	f->kernel = (struct dso){
	    .name = "[kernel.kallsyms]", .short_name = "[kernel.kallsyms]", .kind = DSO_KERNEL};
	f->alpha = (struct sym){.start = 0x1000, .size = 0x100, .name = "alpha_fn"};
	f->beta = (struct sym){.start = 0xffff0000, .size = 0x80, .name = "beta_sched"};
	f->gamma = (struct sym){.start = 0x2000, .size = 0x100, .name = "gamma_work"};
	f->delta = (struct sym){.start = 0x3000, .size = 0x100, .name = LONG_NAME};
	f->h = hist_new(0.5);
	k = (struct hist_key){.pid = 100,
	                      .tid = 101,
	                      .comm = str_intern("alpha-app"),
	                      .dso = &f->libc,
	                      .sym = &f->alpha};
	add_n(f->h, &k, 40);
	k = (struct hist_key){.pid = 200,
	                      .tid = 200,
	                      .comm = str_intern("beta-app"),
	                      .dso = &f->kernel,
	                      .sym = &f->beta,
	                      .kernel = true};
	add_n(f->h, &k, 30);
	k = (struct hist_key){.pid = 100,
	                      .tid = 102,
	                      .comm = str_intern("alpha-app"),
	                      .dso = &f->app,
	                      .sym = &f->gamma};
	add_n(f->h, &k, 20);
	k = (struct hist_key){
	    .pid = 300, .tid = 300, .comm = str_intern("delta"), .dso = &f->app, .sym = &f->delta};
	add_n(f->h, &k, 6);
	k = (struct hist_key){
	    .pid = 300, .tid = 300, .comm = str_intern("delta"), .dso = NULL, .addr = 0x1a2b};
	add_n(f->h, &k, 4);
	hist_tick(f->h, true);

	theme_plain(&f->t.theme, false);
	f->t.engine = (struct engine *)&fixture_engine;
	f->t.delay = 2;
	f->t.prompt_owner = -1;
	f->t.refreshes = 1;
	f->panes[0] = &pane_top;
	f->t.panes = f->panes;
	f->t.pane_state = f->states;
	f->t.npanes = 1;
	f->states[0] = pane_top.init(&f->t);
	cur = f;
	tui_snapshot(&f->t);
	snapshots = 0;
	zoom_calls = 0;
	*state = f;
	return 0;
}

/* Release the fixture. */
int
teardown(void **state)
{
	struct fixture *f = *state;

	pane_top.free(f->states[0]);
	if (f->cg != NULL)
		cg_free(f->cg);
	hist_snapshot_free(&f->event.rows);
	hist_free(f->h);
	free(f);
	cur = NULL;
	return 0;
}

/* Draw the pane where the loop would, on a lines x columns screen. */
void
draw(struct fixture *f, int lines, int columns)
{
	headless_screen(lines, columns);
	pane_top.draw(f->states[0], &f->t, stdscr, PANE_Y, 0, LINES - PANE_Y - PANE_FOOT, COLS);
}

/* Line y of the screen as text, trailing blanks removed. */
const char *
line(int y)
{
	static char out[1024];
	int n = 0;

	for (int x = 0; x < COLS && n < (int)sizeof out - 1; x++) {
		wchar_t wc = headless_cell(y, x, NULL);

		out[n++] = wc < 128 ? (char)wc : '#';
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	return out;
}

/* Line y of the pane: 0 the titles, 1 the first row. */
const char *
pane_line(int y)
{
	return line(PANE_Y + y);
}

/* The symbols of the rows on screen, in order, space separated. */
const char *
symbols_shown(void)
{
	static char out[512];
	size_t o = 0;

	out[0] = '\0';
	for (int y = PANE_Y + 1; y < LINES - PANE_FOOT; y++) {
		const char *l = line(y), *u = strstr(l, "[.] "), *k = strstr(l, "[k] ");
		const char *m = u == NULL || (k != NULL && k < u) ? k : u;

		if (m != NULL)
			o += (size_t)snprintf(out + o, sizeof out - o, "%s%.12s", o ? " " : "",
			                      m + 4);
	}
	return out;
}

/* Act on the pane. */
int
act(struct fixture *f, enum action a)
{
	return pane_top.action(f->states[0], &f->t, a);
}

/* Type text into the open prompt, telling the pane as the loop does. */
void
type(struct fixture *f, const char *text)
{
	for (const char *c = text; *c != '\0'; c++) {
		enum prompt_result r = prompt_key(&f->t.prompt, (wint_t)(unsigned char)*c, false);

		assert_int_equal(r, PROMPT_CHANGED);
		pane_top.prompt(f->states[0], &f->t, r);
	}
}

/* Press Enter (done = true) or Esc in the open prompt, as the loop does. */
void
finish(struct fixture *f, bool done)
{
	enum prompt_result r = prompt_key(&f->t.prompt, done ? '\n' : 27, false);

	assert_int_equal(r, done ? PROMPT_DONE : PROMPT_CANCEL);
	prompt_close(&f->t.prompt);
	pane_top.prompt(f->states[0], &f->t, r);
}

/* The menu item whose label starts with prefix, or NULL. */
const struct menu_item *
menu_item(const struct menu *m, const char *prefix)
{
	for (size_t i = 0; i < m->n; i++)
		if (strncmp(m->items[i].label, prefix, strlen(prefix)) == 0)
			return &m->items[i];
	return NULL;
}

/* Open the selected row's menu and choose the item starting with prefix. */
void
choose(struct fixture *f, const char *prefix)
{
	const struct menu_item *it;

	assert_int_equal(act(f, ACT_ENTER), REACT_HANDLED | REACT_REDRAW);
	assert_true(f->t.menu.active);
	it = menu_item(&f->t.menu, prefix);
	assert_non_null(it);
	assert_false(it->disabled);
	menu_close(&f->t.menu);
	pane_top.menu(f->states[0], &f->t, it->id);
}

/* The title of the selected row's menu (the menu is closed again). */
const char *
menu_title_of_selection(struct fixture *f)
{
	static char title[64];

	assert_int_equal(act(f, ACT_ENTER), REACT_HANDLED | REACT_REDRAW);
	assert_true(f->t.menu.active);
	snprintf(title, sizeof title, "%s", f->t.menu.title);
	menu_close(&f->t.menu);
	return title;
}

/* 80 columns: Samples drops first, the rest in their places, rows in
 * overhead order with bars, the long symbol cut at the edge. */
/* Count n stacks, leaf first, in alpha-app. */
void
add_stack(struct fixture *f, int n, const struct sym *const *syms, size_t depth)
{
	struct cg_frame fr[8];

	for (size_t i = 0; i < depth; i++)
		fr[i] = (struct cg_frame){.dso = syms[i] == &f->alpha ? &f->libc : &f->app,
		                          .sym = syms[i]};
	while (n-- > 0)
		cg_add(f->cg, str_intern("alpha-app"), fr, depth);
}

/* The fixture with call stacks (70 samples in alpha-app): 30 main_fn ->
 * gamma_work -> alpha_fn, 10 main_fn -> gamma_work -> helper_fn, 10
 * main_fn -> alpha_fn, 20 main_fn -> gamma_work. The pane is set up again
 * as with -g: Children and Self columns. */
int
setup_cg(void **state)
{
	struct fixture *f;

	setup(state);
	f = *state;
	f->helper = (struct sym){.start = 0x4000, .size = 0x100, .name = "helper_fn"};
	f->mainf = (struct sym){.start = 0x5000, .size = 0x100, .name = "main_fn"};
	f->cg = cg_new(0.5, 0);
	add_stack(f, 30, (const struct sym *const[]){&f->alpha, &f->gamma, &f->mainf}, 3);
	add_stack(f, 10, (const struct sym *const[]){&f->helper, &f->gamma, &f->mainf}, 3);
	add_stack(f, 10, (const struct sym *const[]){&f->alpha, &f->mainf}, 2);
	add_stack(f, 20, (const struct sym *const[]){&f->gamma, &f->mainf}, 2);
	cg_tick(f->cg, true);
	pane_top.free(f->states[0]);
	f->t.cg = f->cg;
	f->states[0] = pane_top.init(&f->t);
	tui_snapshot(&f->t);
	return 0;
}

/* The screen line holding text (searched from the first row), or -1. */
int
find_line(const char *text)
{
	for (int y = PANE_Y + 1; y < LINES - PANE_FOOT; y++)
		if (strstr(line(y), text) != NULL)
			return y;
	return -1;
}

/* The selected line as drawn on a 30 x 120 screen (the reversed one),
 * or "" when none is. */
const char *
selected(struct fixture *f)
{
	attr_t a;

	draw(f, 30, 120);
	for (int y = PANE_Y + 1; y < LINES - PANE_FOOT; y++) {
		headless_cell(y, 0, &a);
		if (a & A_REVERSE)
			return line(y);
	}
	return "";
}

/* Is the selected line the row of sym (not a tree line)? */
bool
row_selected(struct fixture *f, const char *sym)
{
	const char *l = selected(f);
	const char *m = strstr(l, "[.] ");

	return m != NULL && strcmp(m + 4, sym) == 0;
}

/* Select the row of a symbol (Home, then down until it is selected). */
void
select_row(struct fixture *f, const char *sym)
{
	act(f, ACT_HOME);
	for (int i = 0; i < 20 && !row_selected(f, sym); i++)
		act(f, ACT_DOWN);
	assert_true(row_selected(f, sym));
}

/* The Top pane's fields of the header, as the screen joins them. */
const char *
header_of(struct fixture *f)
{
	static char out[512];
	struct pane_header h = {.n = 0};
	size_t o = 0;

	out[0] = '\0';
	pane_top.header(f->states[0], &h);
	for (size_t i = 0; i < h.n && o < sizeof out; i++)
		o += (size_t)snprintf(out + o, sizeof out - o, "%s%s%s", i ? "  " : "",
		                      h.field[i].label, h.field[i].text);
	return out;
}
