/* callgraph-view: the views of one function built from the call graph's
 * trie on demand, off the hot path: its callees (the subtrees under its
 * occurrences, merged by frame) and its callers (the paths up to the
 * outermost frames, reversed), over the roots a scope takes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "callgraph-impl.h"
#include "tracetop/hist.h"
#include "tracetop/util.h"

#define VIEW_MAX_DEPTH 64    /* view levels below the function */
#define VIEW_MAX_NODES 10000 /* view nodes, the function included */
#define VIEW_TABLE 32768     /* view hash slots: > 3 x VIEW_MAX_NODES, a power of two */

/* The outermost nodes matching f (or, f NULL, any frame of dso) under the
 * roots in scope: matches below a match (recursion) are not listed, so
 * totals count once. */
static void
find_matches(const struct callgraph *cg, const struct cg_scope *sc, const struct cg_frame *f,
             const struct dso *dso, struct idx_vec *out)
{
	struct idx_vec todo = {0};
	uint32_t idx, c;

	if (sc->comm != NULL && sc->pid == 0 && sc->tid == 0) {
		if ((idx = cg_lookup(cg, 0, &(const struct cg_frame){0}, sc->comm, false)) != 0)
			cg_vec_push(&todo, idx);
	}
	for (idx = cg->first_root; idx != 0; idx = cg->nodes[idx].next_sibling) {
		const struct cg_node *r = &cg->nodes[idx];

		if (sc->comm != NULL && r->comm != sc->comm)
			continue;
		if (sc->comm != NULL && sc->pid == 0 && sc->tid == 0 && r->frame.addr == 0)
			continue; /* found by lookup above */
		if ((sc->pid != 0 && cg_root_pid(r) != sc->pid) ||
		    (sc->tid != 0 && cg_root_tid(r) != sc->tid))
			continue;
		cg_vec_push(&todo, idx);
	}
	while (todo.n > 0) {
		idx = todo.v[--todo.n];
		for (c = cg->nodes[idx].first_child; c != 0; c = cg->nodes[c].next_sibling) {
			const struct cg_frame *cf = &cg->nodes[c].frame;

			if (!cg->nodes[c].other &&
			    (f != NULL ? cg_frame_eq(cf, f) : cf->dso == dso))
				cg_vec_push(out, c);
			else
				cg_vec_push(&todo, c);
		}
	}
	free(todo.v);
}

/* A view under construction: the view, and per view node its parent and
 * depth, with a hash of (view parent, frame) for merging. */
struct view_build {
	struct cg_view *v;
	uint32_t *parent;
	uint8_t *depth;
	uint32_t *tab; /* VIEW_TABLE slots of view indices, 0 empty */
};

/* Start a view of f: node 1 is f with a zero total. */
static void
view_begin(struct view_build *b, struct cg_view *v, const struct cg_frame *f)
{
	b->v = v;
	b->parent = xcalloc(VIEW_MAX_NODES + 1, sizeof *b->parent);
	b->depth = xcalloc(VIEW_MAX_NODES + 1, sizeof *b->depth);
	b->tab = xcalloc(VIEW_TABLE, sizeof *b->tab);
	if (v->cap < 64) {
		v->cap = 64;
		v->nodes = xrealloc(v->nodes, v->cap * sizeof *v->nodes);
	}
	memset(&v->nodes[0], 0, 2 * sizeof *v->nodes);
	v->nodes[1].frame = *f;
	v->n = 2;
}

/* The child of view node p for (f, other), created when missing; 0 when
 * the view is full or p is at the depth limit. */
static uint32_t
view_child(struct view_build *b, uint32_t p, const struct cg_frame *f, bool other)
{
	struct cg_view *v = b->v;
	uint32_t hash = cg_key_hash(p, f, NULL, other), idx;
	size_t i;

	for (i = hash & (VIEW_TABLE - 1); (idx = b->tab[i]) != 0; i = (i + 1) & (VIEW_TABLE - 1))
		if (b->parent[idx] == p && v->nodes[idx].other == other &&
		    cg_frame_eq(&v->nodes[idx].frame, f))
			return idx;
	if (v->n > VIEW_MAX_NODES || b->depth[p] >= VIEW_MAX_DEPTH)
		return 0;
	if (v->n == v->cap) {
		v->cap *= 2;
		v->nodes = xrealloc(v->nodes, v->cap * sizeof *v->nodes);
	}
	idx = (uint32_t)v->n++;
	memset(&v->nodes[idx], 0, sizeof v->nodes[idx]);
	v->nodes[idx].frame = *f;
	v->nodes[idx].other = other;
	v->nodes[idx].next_sibling = v->nodes[p].first_child;
	v->nodes[p].first_child = idx;
	b->parent[idx] = p;
	b->depth[idx] = (uint8_t)(b->depth[p] + 1);
	b->tab[i] = idx;
	return idx;
}

/* qsort_r order of view node indices: heaviest first, then by name. */
static int
cmp_view_weight(const void *pa, const void *pb, void *arg)
{
	const struct cg_view_node *nodes = arg;
	const struct cg_view_node *a = &nodes[*(const uint32_t *)pa];
	const struct cg_view_node *b = &nodes[*(const uint32_t *)pb];

	if (a->total != b->total)
		return CMP3(b->total, a->total);
	return cg_frame_order(&a->frame, a->other, &b->frame, b->other);
}

/* Sort every child list heaviest first and free the build's scratch. */
static void
view_end(struct view_build *b)
{
	struct cg_view *v = b->v;
	struct idx_vec kids = {0};
	uint32_t i, c;
	size_t k;

	for (i = 1; i < v->n; i++) {
		kids.n = 0;
		for (c = v->nodes[i].first_child; c != 0; c = v->nodes[c].next_sibling)
			cg_vec_push(&kids, c);
		if (kids.n < 2)
			continue;
		qsort_r(kids.v, kids.n, sizeof *kids.v, cmp_view_weight, v->nodes);
		for (k = 0; k < kids.n; k++)
			v->nodes[kids.v[k]].next_sibling = k + 1 < kids.n ? kids.v[k + 1] : 0;
		v->nodes[i].first_child = kids.v[0];
	}
	free(kids.v);
	free(b->parent);
	free(b->depth);
	free(b->tab);
}

/* Callees of f: the subtrees under f's outermost occurrences, merged by frame. */
void
cg_callees(const struct callgraph *cg, const char *comm, const struct cg_frame *f,
           struct cg_view *v)
{
	cg_callees_in(cg, &(struct cg_scope){.comm = comm}, f, v);
}

/* The subtrees under trie nodes idx[0..n), merged into a view whose node
 * 1 is f. */
static void
view_under(const struct callgraph *cg, const uint32_t *idx, size_t n, const struct cg_frame *f,
           struct cg_view *v)
{
	struct idx_vec pairs = {0}; /* (view node, trie node) */
	struct view_build b;
	const struct cg_node *t, *c;
	uint32_t vc;
	size_t i, k;

	view_begin(&b, v, f);
	for (k = 0; k < n; k++) {
		v->nodes[1].total += cg->nodes[idx[k]].total;
		cg_vec_push(&pairs, 1);
		cg_vec_push(&pairs, idx[k]);
	}
	/* Breadth first: every trie node adds its children to its view node's. */
	for (i = 0; i < pairs.n; i += 2) {
		t = &cg->nodes[pairs.v[i + 1]];
		for (c = cg_node(cg, t->first_child); c != NULL; c = cg_node(cg, c->next_sibling)) {
			vc = view_child(&b, pairs.v[i], &c->frame, c->other);
			if (vc == 0)
				continue;
			v->nodes[vc].total += c->total;
			cg_vec_push(&pairs, vc);
			cg_vec_push(&pairs, (uint32_t)(c - cg->nodes));
		}
	}
	view_end(&b);
	free(pairs.v);
}

/* Callees of f under the roots in scope. */
void
cg_callees_in(const struct callgraph *cg, const struct cg_scope *sc, const struct cg_frame *f,
              struct cg_view *v)
{
	struct idx_vec matches = {0};

	find_matches(cg, sc, f, NULL, &matches);
	view_under(cg, matches.v, matches.n, f, v);
	free(matches.v);
}

/* The subtrees of some nodes (roots) merged. */
void
cg_subtrees(const struct callgraph *cg, const uint32_t *idx, size_t n, struct cg_view *v)
{
	view_under(cg, idx, n, &(const struct cg_frame){0}, v);
}

/* Callers of f: from each outermost occurrence up to the outermost frame,
 * weighted by the occurrence's total, merged by frame level by level. */
void
cg_callers(const struct callgraph *cg, const char *comm, const struct cg_frame *f,
           struct cg_view *v)
{
	cg_callers_in(cg, &(struct cg_scope){.comm = comm}, f, v);
}

/* Callers of f under the roots in scope. */
void
cg_callers_in(const struct callgraph *cg, const struct cg_scope *sc, const struct cg_frame *f,
              struct cg_view *v)
{
	struct idx_vec matches = {0};
	struct view_build b;
	const struct cg_node *a;
	uint32_t vp;
	double w;
	size_t k;

	view_begin(&b, v, f);
	find_matches(cg, sc, f, NULL, &matches);
	for (k = 0; k < matches.n; k++) {
		w = cg->nodes[matches.v[k]].total;
		v->nodes[1].total += w;
		vp = 1;
		for (a = &cg->nodes[cg->nodes[matches.v[k]].parent]; a->parent != 0;
		     a = &cg->nodes[a->parent]) {
			if ((vp = view_child(&b, vp, &a->frame, false)) == 0)
				break;
			v->nodes[vp].total += w;
		}
	}
	view_end(&b);
	free(matches.v);
}

/* The samples whose stacks pass through a frame of dso under the roots in
 * scope, each stack once (decayed, as node totals). */
double
cg_dso_total(const struct callgraph *cg, const struct cg_scope *sc, const struct dso *dso)
{
	struct idx_vec matches = {0};
	double t = 0;

	find_matches(cg, sc, NULL, dso, &matches);
	for (size_t k = 0; k < matches.n; k++)
		t += cg->nodes[matches.v[k]].total;
	free(matches.v);
	return t;
}

/* Children of rows merged without their symbol: summed, a stack through
 * two functions of a row would count twice. A row of whole processes,
 * threads, commands or cgroups holds every frame of its samples, so its
 * inclusive count is its self count; a row of a DSO counts the stacks
 * through it, from the trie (each once). */
void
cg_group_children(const struct callgraph *cg, struct hist_snapshot *snap, unsigned group)
{
	if (group & HIST_GROUP_SYM)
		return; /* the members' samples are apart: their sums hold */
	for (size_t i = 0; i < snap->n; i++) {
		struct hist_row *r = &snap->rows[i];
		struct hist_entry *e = &r->copy;
		struct cg_scope sc = {0};
		double t, ratio;

		if (!(group & HIST_GROUP_DSO) || cg == NULL) {
			e->children = e->score;
			e->children_interval = e->interval;
			e->children_last = e->last;
			r->children = r->overhead;
			continue;
		}
		sc.comm = group & HIST_GROUP_COMM ? e->key.comm : NULL;
		sc.pid = group & HIST_GROUP_PID ? e->key.pid : 0;
		sc.tid = group & HIST_GROUP_TID ? e->key.thread : 0;
		/* a sample ending in the DSO passes through it: at least the
		 * self count (a stack the trie lacks or folded away) */
		t = cg_dso_total(cg, &sc, e->key.dso);
		if (t < e->score)
			t = e->score;
		/* the interval counts by the same share of the members' sums */
		ratio = e->children > 0 ? t / e->children : 0;
		if (ratio < 1) {
			e->children_interval = (uint64_t)(e->children_interval * ratio + 0.5);
			e->children_last = (uint64_t)(e->children_last * ratio + 0.5);
		}
		e->children = t;
		r->children = snap->total_score > 0 ? 100.0 * t / snap->total_score : 0.0;
	}
}

/* Free a view's nodes and reset it. */
void
cg_view_free(struct cg_view *v)
{
	free(v->nodes);
	memset(v, 0, sizeof *v);
}
