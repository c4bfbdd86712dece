/* pane-flame: a live flame graph of the window's call stacks (or an
 * icicle: i flips it), one row per stack depth, a frame's width in
 * proportion to its samples, coloured by kind (user, kernel, JIT,
 * inlined). Arrows move between frames, Enter zooms into one and
 * Backspace back out, / highlights the frames whose name matches and says
 * their share, r shows the callers of the selected function. The graph is
 * rebuilt from each frame's call graph only while the pane is seen; the
 * selection and the zoom follow their frames' paths across refreshes, and
 * a frozen screen keeps the graph it shows. The layout is src/flame.c's. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/flame.h"
#include "tracetop/util.h"
#include "ui/prompt.h"
#include "ui/tui.h"

#define FLAME_LABEL 1024 /* bytes of a box's label */

struct flame_pane {
	struct flame fl;         /* the graph shown */
	struct flame_layout lay; /* its boxes at the last draw's width */
	int lay_w;
	uint32_t lay_zoom;
	bool stacks;                             /* the engine records call stacks */
	bool stale;                              /* a frame came while the pane was not seen */
	bool seen;                               /* the pane is shown */
	uint32_t sel, zoom;                      /* nodes of fl */
	uint64_t sel_id, zoom_id;                /* their identities across refreshes */
	uint64_t zoom_path[FLAME_MAX_DEPTH + 1]; /* the ids from the root to the zoom */
	unsigned zoom_depth;
	bool icicle;
	bool callers;                 /* fl is the callers of callee */
	struct cg_frame callee;       /* whose callers */
	uint64_t back_sel, back_zoom; /* the whole graph's, while callers are shown */
	bool pick;                    /* select the heaviest frame of want at the next build */
	struct cg_frame want;
	char search[PROMPT_MAX * 4]; /* the highlighted text, escaped */
	char raw[PROMPT_MAX];        /* as typed */
	unsigned char *marks;        /* per node of fl: matches search */
	size_t capmarks;
	double share; /* of the graph's samples through a match */
	int top_row;  /* the first depth drawn (rows scroll to the selection) */
	/* where the last draw put the graph, for the keys and the mouse */
	int gy, gx, grows, gw;
};

/* Create the pane. */
static void *
flame_init(struct tui *t)
{
	struct flame_pane *p = xcalloc(1, sizeof *p);

	p->stacks = t->cg != NULL;
	p->stale = true;
	p->lay_w = -1;
	return p;
}

/* Free the pane. */
static void
flame_free_pane(void *pp)
{
	struct flame_pane *p = pp;

	flame_free(&p->fl);
	flame_layout_free(&p->lay);
	free(p->marks);
	free(p);
}

/* The heaviest node whose frame is f (0: none). */
static uint32_t
flame_heaviest(const struct flame *fl, const struct cg_frame *f)
{
	uint32_t best = 0;

	for (uint32_t i = 2; i < fl->n; i++)
		if (!fl->nodes[i].other && cg_frame_eq(&fl->nodes[i].frame, f) &&
		    fl->nodes[i].parent != 1 &&
		    (best == 0 || fl->nodes[i].total > fl->nodes[best].total))
			best = i;
	return best;
}

/* Mark the search's matches and sum their share of the whole graph. */
static void
flame_mark(struct flame_pane *p)
{
	if (p->capmarks < p->fl.n) {
		p->capmarks = p->fl.n * 2;
		p->marks = xrealloc(p->marks, p->capmarks);
	}
	p->share = flame_search(&p->fl, 1, p->raw, p->marks);
}

/* Rebuild the graph from the call graph shown, keeping the selection and
 * the zoom on their paths (or the nearest that still is). */
static void
flame_rebuild(struct flame_pane *p, struct tui *t)
{
	enum sym_form form = t->theme.utf8 ? SYM_COMPACT_UTF8 : SYM_COMPACT;

	p->stacks = t->cg != NULL;
	p->stale = false;
	p->lay_w = -1;
	if (t->cg == NULL) {
		flame_build(&p->fl, NULL, form);
		p->sel = p->zoom = 1;
		return;
	}
	if (p->callers)
		flame_build_callers(&p->fl, t->cg, &p->callee, form);
	else
		flame_build(&p->fl, t->cg, form);
	/* a zoomed frame gone from the window: its nearest caller still in it */
	p->zoom = flame_find(&p->fl, p->zoom_id);
	for (unsigned d = p->zoom_depth; p->zoom == 0 && d-- > 0;)
		p->zoom = flame_find(&p->fl, p->zoom_path[d]);
	if (p->zoom == 0)
		p->zoom = 1;
	p->sel = flame_find(&p->fl, p->sel_id);
	if (p->pick) {
		p->pick = false;
		p->zoom = 1;
		p->zoom_id = p->fl.nodes[1].id;
		p->zoom_depth = 0;
		if ((p->sel = flame_heaviest(&p->fl, &p->want)) == 0)
			tui_status(t, false, "that function is on no sampled stack in this window");
	}
	if (p->sel == 0 || !flame_within(&p->fl, p->sel, p->zoom))
		p->sel = p->zoom;
	/* zoom_id stays the frame asked for: it zooms back in when it returns */
	p->sel_id = p->fl.nodes[p->sel].id;
	flame_mark(p);
}

/* A new frame: rebuild now when seen, else when next shown. */
static void
flame_update(void *pp, struct tui *t, const struct frame *f)
{
	struct flame_pane *p = pp;

	(void)f;
	if (p->seen)
		flame_rebuild(p, t);
	else
		p->stale = true;
}

/* The pane is shown or hidden. */
static void
flame_show(void *pp, struct tui *t, bool shown)
{
	struct flame_pane *p = pp;

	p->seen = shown;
	if (shown && p->stale)
		flame_rebuild(p, t);
}

/* Lay the graph out for width w (kept until the width, zoom or graph
 * change); the selection moves out of frames left out. */
static void
flame_relayout(struct flame_pane *p, int w)
{
	if (p->lay_w == w && p->lay_zoom == p->zoom)
		return;
	flame_layout(&p->fl, p->zoom, w, &p->lay);
	p->lay_w = w;
	p->lay_zoom = p->zoom;
	/* a frame too narrow for a column: select its nearest caller drawn */
	while (p->sel > 1 && flame_box_of(&p->lay, p->sel) < 0)
		p->sel = p->fl.nodes[p->sel].parent;
	p->sel_id = p->fl.nodes[p->sel].id;
}

/* The attribute of a box: its kind's colour, a match's, reverse when
 * selected. */
static attr_t
flame_attr(const struct flame_pane *p, const struct theme *th, uint32_t node)
{
	static const enum theme_item kinds[] = {
	    [FLAME_USER] = TH_FLAME_USER,   [FLAME_KERNEL] = TH_FLAME_KERNEL,
	    [FLAME_JIT] = TH_FLAME_JIT,     [FLAME_INLINED] = TH_FLAME_INLINED,
	    [FLAME_OTHER] = TH_FLAME_OTHER,
	};
	attr_t a = th->attr[kinds[p->fl.nodes[node].kind]];

	if (p->search[0] != '\0' && p->marks[node])
		a = th->attr[TH_FLAME_MATCH];
	if (node == p->sel)
		a = th->attr[TH_SELECTED] | A_BOLD;
	return a;
}

/* One box on screen line y: its label in its colour, the selected one in
 * brackets, a blank last column between neighbours. */
static void
flame_draw_box(struct flame_pane *p, struct tui *t, WINDOW *win, int y, int x,
               const struct flame_box *b)
{
	const struct flame_node *n = &p->fl.nodes[b->node];
	bool sel = b->node == p->sel;
	int inner = b->w - (b->w >= 2 ? 1 : 0) - (sel && b->w >= 3 ? 2 : 0), used;
	double pct = p->fl.nodes[1].total > 0 ? n->total / p->fl.nodes[1].total * 100 : 0;
	char label[FLAME_LABEL];

	used = flame_label(flame_name(&p->fl, b->node), pct, inner, t->theme.ellipsis, label,
	                   sizeof label);
	wattrset(win, flame_attr(p, &t->theme, b->node));
	wmove(win, y, x + b->x);
	if (sel && b->w >= 3)
		waddch(win, '[');
	prompt_str_draw(win, label, inner, NULL);
	for (int k = used; k < inner; k++)
		waddch(win, ' ');
	if (sel && b->w >= 3)
		waddch(win, ']');
	wattrset(win, A_NORMAL);
}

/* The line over the graph: what it shows, the zoom, the search's share. */
static void
flame_title(struct flame_pane *p, struct tui *t, WINDOW *win, int y, int x, int w)
{
	char line[1024];
	int at;

	at = snprintf(line, sizeof line, "%s%s", p->callers ? "Callers of " : "Flame graph",
	              p->callers ? flame_name(&p->fl, 1) : "");
	if (p->zoom != 1 && at < (int)sizeof line)
		at += snprintf(line + at, sizeof line - (size_t)at, "  zoom: %s",
		               flame_name(&p->fl, p->zoom));
	if (p->search[0] != '\0' && at < (int)sizeof line)
		at += snprintf(line + at, sizeof line - (size_t)at, "  match '%s': %.1f%% of %s",
		               p->search, p->share * 100, p->callers ? "its calls" : "all");
	if (t->frozen && at < (int)sizeof line)
		snprintf(line + at, sizeof line - (size_t)at, "  (frozen)");
	wattrset(win, t->theme.attr[TH_TITLE]);
	wmove(win, y, x);
	for (int k = 0; k < w; k++)
		waddch(win, ' ');
	wmove(win, y, x);
	prompt_str_draw(win, line, w, t->theme.ellipsis);
	wattrset(win, A_NORMAL);
}

/* The line under the graph: the selected frame in full, its samples and
 * shares. */
static void
flame_footer(struct flame_pane *p, struct tui *t, WINDOW *win, int y, int x, int w)
{
	const struct flame_node *n = &p->fl.nodes[p->sel];
	double all = p->fl.nodes[1].total, zoom = p->fl.nodes[p->zoom].total;
	char line[1200];

	snprintf(line, sizeof line, "%s  %.0f samples  %.1f%% of %s  %.1f%% of the zoom",
	         flame_name(&p->fl, p->sel), n->total, all > 0 ? n->total / all * 100 : 0,
	         p->callers ? "its calls" : "all", zoom > 0 ? n->total / zoom * 100 : 0);
	wattrset(win, t->theme.attr[TH_DIM]);
	wmove(win, y, x);
	prompt_str_draw(win, line, w, t->theme.ellipsis);
	wattrset(win, A_NORMAL);
}

/* Say in the middle of the pane why there is no graph. */
static void
flame_message(struct tui *t, WINDOW *win, int y, int x, int h, int w, const char *a, const char *b)
{
	wattrset(win, t->theme.attr[TH_DIM]);
	mvwaddnstr(win, y + h / 2 - 1, x + ((int)strlen(a) < w ? (w - (int)strlen(a)) / 2 : 0), a,
	           w);
	if (b != NULL && h >= 3)
		mvwaddnstr(win, y + h / 2, x + ((int)strlen(b) < w ? (w - (int)strlen(b)) / 2 : 0),
		           b, w);
	wattrset(win, A_NORMAL);
}

/* Draw: a title line, the rows (scrolled so the selection shows), the
 * selected frame's line. */
static void
flame_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct flame_pane *p = pp;
	long si;
	int rows = h - 2;

	if (p->stale)
		flame_rebuild(p, t);
	if (!p->stacks) {
		flame_message(t, win, y, x, h, w, "No call stacks: the flame graph needs them.",
		              "Start tracetop with -g (or --call-graph dwarf).");
		return;
	}
	if (p->fl.n < 2 || !(p->fl.nodes[1].total > 0)) {
		flame_message(t, win, y, x, h, w, "No samples with call stacks yet.", NULL);
		return;
	}
	if (rows < 1 || w < 4)
		return;
	flame_title(p, t, win, y, x, w);
	flame_relayout(p, w);
	si = flame_box_of(&p->lay, p->sel);
	if (si >= 0) {
		int r = (int)p->lay.boxes[si].row;

		if (r < p->top_row)
			p->top_row = r;
		else if (r >= p->top_row + rows)
			p->top_row = r - rows + 1;
	}
	if (p->top_row > 0 && (int)p->lay.rows - p->top_row < rows)
		p->top_row = (int)p->lay.rows > rows ? (int)p->lay.rows - rows : 0;
	p->gy = y + 1;
	p->gx = x;
	p->grows = rows;
	p->gw = w;
	for (size_t i = 0; i < p->lay.n; i++) {
		const struct flame_box *b = &p->lay.boxes[i];
		int r = (int)b->row - p->top_row;

		if (r < 0 || r >= rows)
			continue;
		flame_draw_box(p, t, win, p->icicle ? y + 1 + r : y + rows - r, x, b);
	}
	flame_footer(p, t, win, y + h - 1, x, w);
}

/* Select node (on its path across refreshes). */
static void
flame_select(struct flame_pane *p, uint32_t node)
{
	p->sel = node;
	p->sel_id = p->fl.nodes[node].id;
}

/* Zoom into node (0: out all the way). */
static void
flame_zoom(struct flame_pane *p, uint32_t node)
{
	p->zoom = node != 0 ? node : 1;
	p->zoom_id = p->fl.nodes[p->zoom].id;
	p->zoom_depth = 0;
	for (uint32_t a = p->zoom; a != 0 && p->zoom_depth <= FLAME_MAX_DEPTH;
	     a = p->fl.nodes[a].parent)
		p->zoom_path[p->zoom_depth++] = p->fl.nodes[a].id;
	/* root first */
	for (unsigned i = 0; i < p->zoom_depth / 2; i++) {
		uint64_t tmp = p->zoom_path[i];

		p->zoom_path[i] = p->zoom_path[p->zoom_depth - 1 - i];
		p->zoom_path[p->zoom_depth - 1 - i] = tmp;
	}
	if (!flame_within(&p->fl, p->sel, p->zoom))
		flame_select(p, p->zoom);
	p->top_row = 0;
	flame_mark(p);
}

/* r: the callers of the selected function, or back to the whole graph. */
static int
flame_callers(struct flame_pane *p, struct tui *t)
{
	const struct flame_node *n = &p->fl.nodes[p->sel];

	if (p->callers) {
		p->callers = false;
		p->sel_id = p->back_sel;
		p->zoom_id = p->back_zoom;
	} else if (n->other || n->depth < 2) {
		tui_status(t, false, "select a function first: r shows its callers");
		return REACT_HANDLED | REACT_REDRAW;
	} else {
		p->callers = true;
		p->callee = n->frame;
		p->back_sel = p->sel_id;
		p->back_zoom = p->zoom_id;
		p->sel_id = p->zoom_id = 0;
		p->zoom_depth = 0;
	}
	p->top_row = 0;
	flame_rebuild(p, t);
	return REACT_HANDLED | REACT_REDRAW;
}

/* A move of the selection, in screen terms: up is the parent in an icicle
 * and a child in a flame. */
static int
flame_move_sel(struct flame_pane *p, enum action a)
{
	enum flame_move m;

	if (p->gw <= 0)
		return REACT_HANDLED; /* nothing drawn yet */
	flame_relayout(p, p->gw);     /* a refresh may have come since the draw */
	if (a == ACT_LEFT || a == ACT_RIGHT)
		m = a == ACT_LEFT ? FLAME_TO_PREV : FLAME_TO_NEXT;
	else
		m = (a == ACT_UP) == p->icicle ? FLAME_TO_PARENT : FLAME_TO_CHILD;
	flame_select(p, flame_move(&p->fl, &p->lay, p->sel, m));
	return REACT_HANDLED | REACT_REDRAW;
}

/* Act on an action. */
static int
flame_action(void *pp, struct tui *t, enum action a)
{
	struct flame_pane *p = pp;

	if (!p->stacks &&
	    (a == ACT_ENTER || a == ACT_SEARCH || a == ACT_FLAME_CALLERS || a == ACT_RETURN)) {
		tui_status(t, false,
		           "no call stacks: start tracetop with -g or --call-graph dwarf");
		return REACT_HANDLED | REACT_REDRAW;
	}
	switch (a) {
	case ACT_UP:
	case ACT_DOWN:
	case ACT_LEFT:
	case ACT_RIGHT:
		return flame_move_sel(p, a);
	case ACT_ENTER:
		flame_zoom(p, p->sel);
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_RETURN:
		if (p->zoom == 1)
			tui_status(t, false, "not zoomed: Enter zooms into the selected frame");
		else
			flame_zoom(p, p->fl.nodes[p->zoom].parent);
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_HOME:
		flame_zoom(p, 1);
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_SEARCH:
		t->prompt_owner = (int)t->cur;
		prompt_open(&t->prompt, "Highlight: ", p->raw);
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_FLAME_CALLERS:
		return flame_callers(p, t);
	case ACT_FLAME_FLIP:
		p->icicle = !p->icicle;
		tui_status(t, false, "%s",
		           p->icicle ? "icicle: the root at the top"
		                     : "flame: the root at the bottom");
		return REACT_HANDLED | REACT_REDRAW;
	case ACT_CLOSE:
		/* Esc: the highlight first, then the callers, then the zoom */
		if (p->search[0] != '\0') {
			p->search[0] = p->raw[0] = '\0';
			flame_mark(p);
		} else if (p->callers) {
			return flame_callers(p, t);
		} else if (p->zoom != 1) {
			flame_zoom(p, 1);
		} else {
			return REACT_IGNORED;
		}
		return REACT_HANDLED | REACT_REDRAW;
	default:
		return REACT_IGNORED;
	}
}

/* The highlight prompt: matches follow the text as typed. */
static int
flame_prompt(void *pp, struct tui *t, int result)
{
	struct flame_pane *p = pp;

	if (result == PROMPT_CANCEL)
		p->raw[0] = '\0';
	else
		snprintf(p->raw, sizeof p->raw, "%s", t->prompt.text);
	str_escape(p->search, sizeof p->search, p->raw, strlen(p->raw));
	flame_mark(p);
	if (result == PROMPT_DONE && p->raw[0] != '\0' && p->share == 0)
		tui_status(t, false, "no frame matches '%s'", p->search);
	return REACT_REDRAW;
}

/* A click selects the frame under it. */
static int
flame_mouse(void *pp, struct tui *t, int y, int x, unsigned long bstate)
{
	struct flame_pane *p = pp;
	int r;

	(void)t;
	if (!(bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) || p->gw <= 0 || y < p->gy ||
	    y >= p->gy + p->grows)
		return REACT_IGNORED;
	flame_relayout(p, p->gw);
	r = p->icicle ? y - p->gy : p->gy + p->grows - 1 - y;
	r += p->top_row;
	for (size_t i = 0; i < p->lay.n; i++) {
		const struct flame_box *b = &p->lay.boxes[i];

		if ((int)b->row == r && x - p->gx >= b->x && x - p->gx < b->x + b->w) {
			flame_select(p, b->node);
			return REACT_HANDLED | REACT_REDRAW;
		}
	}
	return REACT_IGNORED;
}

/* The header's fields: the zoom and the callers' function. */
static void
flame_header(void *pp, struct pane_header *h)
{
	struct flame_pane *p = pp;

	if (p->callers && h->n < PANE_HEADER_FIELDS) {
		h->field[h->n].label = "Callers: ";
		snprintf(h->field[h->n].text, sizeof h->field[h->n].text, "%s",
		         flame_name(&p->fl, 1));
		h->field[h->n].prio = 2;
		h->field[h->n++].minw = 8;
	}
	if (p->zoom > 1 && p->zoom < p->fl.n && h->n < PANE_HEADER_FIELDS) {
		h->field[h->n].label = "Zoom: ";
		snprintf(h->field[h->n].text, sizeof h->field[h->n].text, "%s",
		         flame_name(&p->fl, p->zoom));
		h->field[h->n].prio = 1;
		h->field[h->n++].minw = 8;
	}
}

/* i's state in the setup file: flame or icicle. */
static void
flame_setup(void *pp, struct tui *t, struct rcfile *rc, bool save)
{
	struct flame_pane *p = pp;

	(void)t;
	if (save)
		rcfile_set_bool(rc, "flame.icicle", p->icicle);
	else
		p->icicle = rcfile_get_bool(rc, "flame.icicle", p->icicle);
}

/* From the Top pane: show function f's heaviest frame in the graph. */
void
pane_flame_open(struct tui *t, const struct cg_frame *f)
{
	struct flame_pane *p = tui_pane_state(t, &pane_flame);

	if (p == NULL)
		return;
	if (p->callers) {
		p->callers = false;
		p->zoom_id = 0;
	}
	p->pick = true;
	p->want = *f;
	p->stale = true;
	tui_show_pane(t, &pane_flame);
}

const struct pane_ops pane_flame = {
    .name = "Flame",
    .scope = SCOPE_FLAME,
    .view = VIEW_FLAME,
    .reads = PANE_READS_SAMPLING,
    .init = flame_init,
    .free = flame_free_pane,
    .update = flame_update,
    .draw = flame_draw,
    .header = flame_header,
    .show = flame_show,
    .action = flame_action,
    .mouse = flame_mouse,
    .prompt = flame_prompt,
    .setup = flame_setup,
};
