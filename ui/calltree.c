/* calltree: the lines of the Top pane, rows and the call-graph trees
 * under the expanded ones. A node opens when the user opened it, or by
 * default when it is the only child (so a chain shows whole); the user's
 * choices are kept by node identity, a hash of the row, the view and the
 * frames on the path. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/latency.h"
#include "tracetop/report.h"
#include "tracetop/util.h"
#include "ui/calltree.h"

#define CT_MAX_STATES 1024

/* What one tree walk needs. */
struct walk {
	struct calltree *ct;
	const struct cg_view_node *v;
	const struct hist_row *top;
	const void *row;
	uint32_t ord, seq;
	double total; /* cg_total, for percentages of the total */
	bool utf8;
	char prefix[CT_MAX_DEPTH * 8 + 1]; /* the glyphs of the levels above */
};

/* Free everything. */
void
calltree_free(struct calltree *ct)
{
	free(ct->open);
	free(ct->states);
	free(ct->lines);
	free(ct->nodes);
	free(ct->ptrs);
	cg_view_free(&ct->view);
	memset(ct, 0, sizeof *ct);
}

/* A snapshot row's identity: its key, without the fields its merged
 * entries differ on (those are the most sampled entry's, which may change
 * from one refresh to the next). */
uintptr_t
calltree_row_id(const struct hist_row *r)
{
	const struct hist_key *k = &r->entry->key;
	unsigned m = r->mixed;
	uint64_t h = hash_mix(HASH_SEED, m & HIST_GROUP_COMM ? 0 : (uintptr_t)k->comm);

	h = hash_mix(h, m & HIST_GROUP_CGROUP ? 0 : (uintptr_t)k->cgroup);
	h = hash_mix(h, m & HIST_GROUP_DSO ? 0 : (uintptr_t)k->dso);
	h = hash_mix(h, m & HIST_GROUP_SYM ? 0 : (uintptr_t)k->sym);
	h = hash_mix(h, m & HIST_GROUP_SYM ? 0 : k->addr);
	return (uintptr_t)hash_mix(h, (uint64_t)(unsigned)(m & HIST_GROUP_PID ? 0 : k->pid) * 2 +
	                                  k->kernel);
}

/* The frame a row stands for. */
struct cg_frame
calltree_frame(const struct hist_row *r)
{
	const struct hist_key *k = &r->entry->key;

	return (struct cg_frame){
	    .dso = k->dso, .sym = k->sym, .addr = k->addr, .kernel = k->kernel};
}

/* The full name of a line's function when its line shows it compact. */
bool
calltree_full_name(const struct calltree *ct, const struct ct_line *l, enum sym_form form,
                   char *buf, size_t len)
{
	const struct sym *s;
	char shown[1024];

	if (l == NULL)
		return false;
	s = l->node != 0 ? ct->nodes[l->node].sym : l->top->entry->key.sym;
	if (s == NULL || !sym_demangled(s))
		return false;
	sym_format(s, form, shown, sizeof shown);
	sym_format(s, SYM_FULL, buf, len);
	return strcmp(shown, buf) != 0;
}

/* Is the row with this id expanded? */
bool
calltree_is_open(const struct calltree *ct, uintptr_t id)
{
	for (size_t i = 0; i < ct->nopen; i++)
		if (ct->open[i] == id)
			return true;
	return false;
}

/* Expand or collapse a row. */
void
calltree_set_open(struct calltree *ct, uintptr_t id, bool open)
{
	for (size_t i = 0; i < ct->nopen; i++) {
		if (ct->open[i] == id) {
			if (!open)
				ct->open[i] = ct->open[--ct->nopen];
			return;
		}
	}
	if (!open)
		return;
	if (ct->nopen == ct->capopen) {
		ct->capopen = ct->capopen ? ct->capopen * 2 : 16;
		ct->open = xrealloc(ct->open, ct->capopen * sizeof *ct->open);
	}
	ct->open[ct->nopen++] = id;
}

/* The node's explicit state, or NULL. */
static struct ct_state *
node_state(const struct calltree *ct, uintptr_t id)
{
	for (size_t i = 0; i < ct->nstates; i++)
		if (ct->states[i].id == id)
			return &ct->states[i];
	return NULL;
}

/* Expand or collapse a node (remembered until C). */
void
calltree_set_node(struct calltree *ct, uintptr_t id, bool open)
{
	struct ct_state *s = node_state(ct, id);

	if (s == NULL) {
		if (ct->nstates >= CT_MAX_STATES)
			ct->nstates = 0; /* forget the oldest choices rather than grow */
		if (ct->nstates == ct->capstates) {
			ct->capstates = ct->capstates ? ct->capstates * 2 : 32;
			ct->states = xrealloc(ct->states, ct->capstates * sizeof *ct->states);
		}
		s = &ct->states[ct->nstates++];
		s->id = id;
	}
	s->open = open;
}

/* Collapse everything. */
void
calltree_clear(struct calltree *ct)
{
	ct->nopen = 0;
	ct->nstates = 0;
}

/* Append a line (under the row of the last line but one, when a node's). */
static void
add_line(struct calltree *ct, const struct hist_row *top, const void *row, uint32_t node,
         uint32_t ord, uint32_t seq, uintptr_t id)
{
	if (ct->nlines == ct->caplines) {
		ct->caplines = ct->caplines ? ct->caplines * 2 : 256;
		ct->lines = xrealloc(ct->lines, ct->caplines * sizeof *ct->lines);
	}
	ct->lines[ct->nlines++] = (struct ct_line){
	    .top = top, .row = row, .node = node, .ord = ord, .seq = seq, .id = id};
}

/* Append a node (index returned; pointers into nodes move). */
static uint32_t
add_node(struct calltree *ct)
{
	if (ct->nnodes == ct->capnodes) {
		ct->capnodes = ct->capnodes ? ct->capnodes * 2 : 64;
		ct->nodes = xrealloc(ct->nodes, ct->capnodes * sizeof *ct->nodes);
	}
	memset(&ct->nodes[ct->nnodes], 0, sizeof ct->nodes[ct->nnodes]);
	return (uint32_t)ct->nnodes++;
}

/* A view node's display name, as cg_frame_name gives it, compact. */
static void
view_name(const struct cg_view_node *vn, bool utf8, char *buf, size_t len)
{
	struct cg_node n = {.frame = vn->frame, .parent = 1, .other = vn->other};

	cg_frame_name(&n, utf8 ? SYM_COMPACT_UTF8 : SYM_COMPACT, buf, len);
}

/* Is the node open: by the user's choice, else when it is an only child's
 * parent (a chain)? */
static bool
node_open(const struct walk *w, uint32_t c, uintptr_t id, size_t depth)
{
	const struct ct_state *s = node_state(w->ct, id);
	uint32_t kid = w->v[c].first_child;

	if (kid == 0 || depth >= CT_MAX_DEPTH)
		return false;
	if (s != NULL)
		return s->open;
	return w->v[kid].next_sibling == 0;
}

/* The lines of parent's children, depth first, and of the open ones'. */
static void
walk_tree(struct walk *w, uint32_t parent, uintptr_t parent_id, size_t depth)
{
	static const char *const glyphs[2][4] = {
	    {"|- ", "`- ", "|  ", "   "},
	    {"\u251c\u2500 ", "\u2514\u2500 ", "\u2502  ", "   "},
	};
	const char *const *g = glyphs[w->utf8];
	size_t plen = strlen(w->prefix);

	for (uint32_t c = w->v[parent].first_child; c != 0; c = w->v[c].next_sibling) {
		const struct cg_view_node *vn = &w->v[c];
		bool last = vn->next_sibling == 0;
		double base = w->ct->relative ? w->v[parent].total : w->total;
		uintptr_t id =
		    (uintptr_t)hash_mix(hash_mix(hash_mix(parent_id, (uintptr_t)vn->frame.sym),
		                                 (uintptr_t)vn->frame.dso),
		                        vn->frame.addr * 4 + vn->frame.kernel * 2 + vn->other);
		uint32_t k;
		struct ct_node *n;
		char name[256];
		int at;

		if (w->ct->nnodes >= CT_MAX_NODES)
			return;
		k = add_node(w->ct);
		n = &w->ct->nodes[k];
		view_name(vn, w->utf8, name, sizeof name);
		at = snprintf(n->text, sizeof n->text, "%s%s%.2f%% ", w->prefix, g[last],
		              base > 0 ? vn->total / base * 100 : 0.0);
		if (w->ct->times && at > 0 && (size_t)at < sizeof n->text / 2) {
			char ns[16];

			lat_format_ns(ns, sizeof ns, (uint64_t)vn->total);
			at += snprintf(n->text + at, sizeof n->text - (size_t)at, "%s ", ns);
		}
		snprintf(n->text + at, sizeof n->text - (size_t)at, "%s", name);
		n->name = n->text + at;
		n->sym = vn->other ? NULL : vn->frame.sym;
		n->has_kids = vn->first_child != 0;
		n->open = node_open(w, c, id, depth);
		add_line(w->ct, w->top, w->row, k, w->ord, ++w->seq, id);
		if (!n->open)
			continue;
		snprintf(w->prefix + plen, sizeof w->prefix - plen, "%s", g[last ? 3 : 2]);
		walk_tree(w, c, id, depth + 1);
		w->prefix[plen] = '\0';
	}
}

/* The tree lines under one expanded row. */
static void
build_tree(struct calltree *ct, const struct callgraph *cg, struct walk *w)
{
	struct cg_frame f = calltree_frame(w->top);
	struct cg_scope sc;

	if (ct->group != 0 && !(ct->group & HIST_GROUP_SYM))
		return; /* a row of many functions has no one tree */
	report_cg_scope(w->top, ct->group, &sc);
	if (ct->callers)
		cg_callers_in(cg, &sc, &f, &ct->view);
	else
		cg_callees_in(cg, &sc, &f, &ct->view);
	if (ct->view.n < 2)
		return;
	w->v = ct->view.nodes;
	w->prefix[0] = '\0';
	walk_tree(w, 1, (uintptr_t)hash_mix(calltree_row_id(w->top), ct->callers ? 2 : 1), 1);
}

/* Scroll so the selected line's tree shows below it. */
void
calltree_show_below(struct table *t)
{
	const struct ct_line *l = table_selected(t);
	size_t end = t->sel, page = t->height > 0 ? (size_t)t->height : 1;

	if (l == NULL)
		return;
	while (end + 1 < t->nrows && ((const struct ct_line *)t->rows[end + 1])->row == l->row)
		end++;
	if (end >= t->top + page)
		t->top = end - page + 1 < t->sel ? end - page + 1 : t->sel;
}

/* Start the lines over. */
void
calltree_begin(struct calltree *ct)
{
	ct->nlines = 0;
	ct->nnodes = 0;
	add_node(ct); /* index 0: none */
}

/* A row's line. */
void
calltree_add_row(struct calltree *ct, const struct hist_row *top, const void *row, uint32_t ord,
                 uintptr_t id)
{
	add_line(ct, top, row, 0, ord, 0, id);
}

/* The tree of v under the row last added. */
void
calltree_add_view(struct calltree *ct, const struct cg_view *v, double total, bool utf8)
{
	const struct ct_line *r;
	struct walk w = {.ct = ct, .utf8 = utf8};

	if (ct->nlines == 0 || v->n < 2)
		return;
	r = &ct->lines[ct->nlines - 1];
	w.top = r->top;
	w.row = r->row;
	w.ord = r->ord;
	w.v = v->nodes;
	w.total = total > 0 ? total : v->nodes[1].total;
	w.prefix[0] = '\0';
	walk_tree(&w, 1, r->id, 1);
}

/* Done: the table's pointers. */
void
calltree_end(struct calltree *ct)
{
	if (ct->capptrs < ct->nlines) {
		ct->capptrs = ct->nlines * 2;
		ct->ptrs = xrealloc(ct->ptrs, ct->capptrs * sizeof *ct->ptrs);
	}
	for (size_t i = 0; i < ct->nlines; i++)
		ct->ptrs[i] = &ct->lines[i];
}

/* Rebuild the lines from a snapshot. */
void
calltree_build(struct calltree *ct, const struct callgraph *cg, const struct hist_snapshot *snap,
               bool utf8)
{
	struct walk w = {.ct = ct, .utf8 = utf8, .total = cg != NULL ? cg_total(cg) : 0};

	calltree_begin(ct);
	for (size_t i = 0; i < snap->n; i++) {
		const struct hist_row *r = &snap->rows[i];
		uintptr_t id = calltree_row_id(r);

		calltree_add_row(ct, r, r, (uint32_t)i, id);
		if (cg == NULL || ct->nopen == 0 || !calltree_is_open(ct, id))
			continue;
		w.top = r;
		w.row = r;
		w.ord = (uint32_t)i;
		w.seq = 0;
		build_tree(ct, cg, &w);
	}
	calltree_end(ct);
}
