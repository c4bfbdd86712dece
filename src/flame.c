/* flame: the flame graph's tree, layout, moves, search and labels. The
 * tree is a copy (the trie's snapshot goes with its frame; a frozen screen
 * keeps its flame), built top-down with an explicit stack, then each
 * node's children are sorted by name and given their start, so a box's
 * place is its parent's start plus its elder siblings' samples. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "tracetop/flame.h"
#include "tracetop/util.h"

#define NAME_LEN 1024 /* one frame's escaped name */

/* The kind of a frame, for its colour. */
static enum flame_kind
flame_kind_of(const struct cg_frame *f, bool other)
{
	if (other)
		return FLAME_OTHER;
	if (f->inlined)
		return FLAME_INLINED;
	if (f->kernel)
		return FLAME_KERNEL;
	if (f->dso != NULL && strncmp(f->dso->name, "[JIT]", 5) == 0)
		return FLAME_JIT;
	return FLAME_USER;
}

/* Forget every node (storage kept). */
static void
flame_reset(struct flame *fl, bool callers)
{
	fl->n = 1;
	fl->nlen = 0;
	fl->depth = 0;
	fl->callers = callers;
	if (fl->cap < 64) {
		fl->cap = 64;
		fl->nodes = xrealloc(fl->nodes, fl->cap * sizeof *fl->nodes);
	}
	memset(&fl->nodes[0], 0, sizeof fl->nodes[0]);
}

/* Keep a name; its offset. */
static size_t
flame_add_name(struct flame *fl, const char *name)
{
	size_t k = strlen(name) + 1, at = fl->nlen;

	if (fl->nlen + k > fl->ncap) {
		fl->ncap = (fl->nlen + k) * 2;
		fl->names = xrealloc(fl->names, fl->ncap);
	}
	memcpy(fl->names + at, name, k);
	fl->nlen += k;
	return at;
}

/* Add a node under parent (0: it is the root); returns its index. */
static uint32_t
flame_add(struct flame *fl, uint32_t parent, const struct cg_frame *f, bool other, double total,
          const char *name, uint64_t key)
{
	struct flame_node *n, *p;
	uint32_t idx;

	if (fl->n == fl->cap) {
		fl->cap *= 2;
		fl->nodes = xrealloc(fl->nodes, fl->cap * sizeof *fl->nodes);
	}
	idx = (uint32_t)fl->n++;
	n = &fl->nodes[idx];
	memset(n, 0, sizeof *n);
	n->frame = *f;
	n->other = other;
	n->kind = parent == 0 ? FLAME_OTHER : flame_kind_of(f, other);
	n->total = total;
	n->parent = parent;
	n->name = flame_add_name(fl, name);
	if (parent == 0) {
		n->id = hash_u64(HASH_SEED ^ key);
		return idx;
	}
	p = &fl->nodes[parent];
	n->depth = p->depth + 1;
	n->id = hash_u64(
	    hash_mix(hash_mix(hash_mix(hash_mix(p->id, (uintptr_t)f->dso), (uintptr_t)f->sym),
	                      f->addr * 8 + f->kernel * 4 + f->inlined * 2 + other),
	             key));
	if (n->depth > fl->depth)
		fl->depth = n->depth;
	/* any order: flame_finish sorts the children */
	n->next_sibling = p->first_child;
	p->first_child = idx;
	return idx;
}

/* qsort_r order of node indices: by name, then by id. */
static int
flame_cmp_name(const void *pa, const void *pb, void *arg)
{
	const struct flame *fl = arg;
	const struct flame_node *a = &fl->nodes[*(const uint32_t *)pa];
	const struct flame_node *b = &fl->nodes[*(const uint32_t *)pb];
	int c;

	if (a->other != b->other)
		return a->other ? 1 : -1; /* [other] last */
	if ((c = strcmp(fl->names + a->name, fl->names + b->name)) != 0)
		return c;
	return CMP3(a->id, b->id);
}

/* Sort every child list by name and give each child its start. Parents
 * come before their children in the array, so one pass in order works. */
static void
flame_finish(struct flame *fl)
{
	uint32_t *kids = NULL, c;
	size_t nk, cap = 0, i, k;
	double at;

	for (i = 1; i < fl->n; i++) {
		struct flame_node *p = &fl->nodes[i];

		nk = 0;
		for (c = p->first_child; c != 0; c = fl->nodes[c].next_sibling) {
			if (nk == cap) {
				cap = cap ? cap * 2 : 64;
				kids = xrealloc(kids, cap * sizeof *kids);
			}
			kids[nk++] = c;
		}
		if (nk == 0)
			continue;
		qsort_r(kids, nk, sizeof *kids, flame_cmp_name, fl);
		at = p->start;
		for (k = 0; k < nk; k++) {
			fl->nodes[kids[k]].next_sibling = k + 1 < nk ? kids[k + 1] : 0;
			fl->nodes[kids[k]].start = at;
			at += fl->nodes[kids[k]].total;
		}
		p->first_child = kids[0];
	}
	free(kids);
}

/* The whole call graph as a flame. */
void
flame_build(struct flame *fl, const struct callgraph *cg, enum sym_form form)
{
	struct pair {
		uint32_t trie, node;
	} *todo = NULL;
	size_t ntodo = 0, captodo = 0;
	static const struct cg_frame none;
	char name[NAME_LEN];
	uint32_t r, c;

	flame_reset(fl, false);
	flame_add(fl, 0, &none, false, cg != NULL ? cg_total(cg) : 0, "all", 0);
	if (cg == NULL)
		return;
	for (r = cg_first_root(cg); r != 0; r = cg_node(cg, r)->next_sibling) {
		if (ntodo == captodo) {
			captodo = captodo ? captodo * 2 : 64;
			todo = xrealloc(todo, captodo * sizeof *todo);
		}
		todo[ntodo++] = (struct pair){r, 1};
	}
	/* depth first; each trie node becomes a flame node under its pair's */
	while (ntodo > 0) {
		struct pair w = todo[--ntodo];
		const struct cg_node *t = cg_node(cg, w.trie);
		uint32_t idx;

		if (t == NULL || fl->nodes[w.node].depth >= FLAME_MAX_DEPTH)
			continue;
		cg_frame_name(t, form, name, sizeof name);
		idx = flame_add(fl, w.node, &t->frame, t->other, t->total, name,
		                (uintptr_t)(t->parent == 0 ? t->comm : NULL));
		if (t->parent == 0)
			fl->nodes[idx].kind = FLAME_OTHER;
		for (c = t->first_child; c != 0; c = cg_node(cg, c)->next_sibling) {
			if (ntodo == captodo) {
				captodo = captodo ? captodo * 2 : 64;
				todo = xrealloc(todo, captodo * sizeof *todo);
			}
			todo[ntodo++] = (struct pair){c, idx};
		}
	}
	free(todo);
	flame_finish(fl);
}

/* A view node's name in form (an [other] or unresolved one as callgraph
 * names it). */
static void
flame_view_name(const struct cg_view_node *vn, enum sym_form form, char *buf, size_t len)
{
	struct cg_node n = {.frame = vn->frame, .parent = 1, .other = vn->other};

	cg_frame_name(&n, form, buf, len);
}

/* The callers of f as a flame: f at the root. */
void
flame_build_callers(struct flame *fl, const struct callgraph *cg, const struct cg_frame *f,
                    enum sym_form form)
{
	struct cg_view v = {0};
	uint32_t *map = NULL, *todo = NULL, c;
	size_t ntodo = 0;
	char name[NAME_LEN];

	cg_callers(cg, NULL, f, &v);
	flame_reset(fl, true);
	flame_view_name(&v.nodes[1], form, name, sizeof name);
	flame_add(fl, 0, &v.nodes[1].frame, false, v.nodes[1].total, name, 1);
	fl->nodes[1].kind = flame_kind_of(&v.nodes[1].frame, false);
	map = xcalloc(v.n, sizeof *map);
	todo = xmalloc(v.n * sizeof *todo);
	map[1] = 1;
	todo[ntodo++] = 1;
	while (ntodo > 0) {
		uint32_t p = todo[--ntodo];

		for (c = v.nodes[p].first_child; c != 0; c = v.nodes[c].next_sibling) {
			flame_view_name(&v.nodes[c], form, name, sizeof name);
			map[c] = flame_add(fl, map[p], &v.nodes[c].frame, v.nodes[c].other,
			                   v.nodes[c].total, name, 0);
			todo[ntodo++] = c;
		}
	}
	free(map);
	free(todo);
	cg_view_free(&v);
	flame_finish(fl);
}

/* Free the flame's storage. */
void
flame_free(struct flame *fl)
{
	free(fl->nodes);
	free(fl->names);
	memset(fl, 0, sizeof *fl);
}

/* A node's name. */
const char *
flame_name(const struct flame *fl, uint32_t node)
{
	return node != 0 && node < fl->n ? fl->names + fl->nodes[node].name : "";
}

/* The node with this id (a linear scan: once per refresh and key). */
uint32_t
flame_find(const struct flame *fl, uint64_t id)
{
	for (size_t i = 1; i < fl->n; i++)
		if (fl->nodes[i].id == id)
			return (uint32_t)i;
	return 0;
}

/* Is node under anc (or anc)? */
bool
flame_within(const struct flame *fl, uint32_t node, uint32_t anc)
{
	while (node != 0 && node < fl->n) {
		if (node == anc)
			return true;
		node = fl->nodes[node].parent;
	}
	return false;
}

/* Append a box. */
static void
flame_box_add(struct flame_layout *l, const struct flame_box *b)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->boxes = xrealloc(l->boxes, l->cap * sizeof *l->boxes);
	}
	l->boxes[l->n++] = *b;
	if (b->row + 1 > l->rows)
		l->rows = b->row + 1;
}

/* qsort order of boxes: by row, then x. */
static int
flame_cmp_box(const void *pa, const void *pb)
{
	const struct flame_box *a = pa, *b = pb;

	if (a->row != b->row)
		return CMP3(a->row, b->row);
	return CMP3(a->x, b->x);
}

/* Round an exact edge to a column. */
static int
flame_col(double x)
{
	return (int)(x + 0.5);
}

/* The boxes of zoom's subtree and of its ancestors. */
void
flame_layout(const struct flame *fl, uint32_t zoom, int width, struct flame_layout *out)
{
	const struct flame_node *z;
	uint32_t *todo, a, c;
	size_t ntodo = 0;
	double scale;

	out->n = 0;
	out->rows = 0;
	if (zoom == 0 || zoom >= fl->n || width <= 0)
		return;
	z = &fl->nodes[zoom];
	if (!(z->total > 0))
		return;
	scale = width / z->total;
	for (a = z->parent; a != 0; a = fl->nodes[a].parent)
		flame_box_add(out, &(struct flame_box){.node = a,
		                                       .row = fl->nodes[a].depth,
		                                       .w = width,
		                                       .fw = width,
		                                       .ancestor = true});
	todo = xmalloc(fl->n * sizeof *todo);
	todo[ntodo++] = zoom;
	while (ntodo > 0) {
		const struct flame_node *n = &fl->nodes[todo[--ntodo]];
		double fx = (n->start - z->start) * scale, fw = n->total * scale;
		struct flame_box b = {.node = (uint32_t)(n - fl->nodes), .row = n->depth};

		/* children may add up to a hair over their parent (decay) */
		if (fx + fw > width)
			fw = width - fx;
		b.x = flame_col(fx);
		b.w = flame_col(fx + fw) - b.x;
		b.fx = fx;
		b.fw = fw;
		if (b.w < 1)
			continue; /* and its children, inside it, too */
		flame_box_add(out, &b);
		for (c = n->first_child; c != 0; c = fl->nodes[c].next_sibling)
			todo[ntodo++] = c;
	}
	free(todo);
	qsort(out->boxes, out->n, sizeof *out->boxes, flame_cmp_box);
}

/* Free a layout's boxes. */
void
flame_layout_free(struct flame_layout *l)
{
	free(l->boxes);
	memset(l, 0, sizeof *l);
}

/* The box of node, or -1. */
long
flame_box_of(const struct flame_layout *l, uint32_t node)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->boxes[i].node == node)
			return (long)i;
	return -1;
}

/* Where a move from sel leads. */
uint32_t
flame_move(const struct flame *fl, const struct flame_layout *l, uint32_t sel, enum flame_move m)
{
	long i = flame_box_of(l, sel);
	uint32_t best = 0, c;

	if (i < 0)
		return sel;
	switch (m) {
	case FLAME_TO_PARENT:
		c = fl->nodes[sel].parent;
		return c != 0 && flame_box_of(l, c) >= 0 ? c : sel;
	case FLAME_TO_CHILD:
		for (c = fl->nodes[sel].first_child; c != 0; c = fl->nodes[c].next_sibling)
			if (flame_box_of(l, c) >= 0 &&
			    (best == 0 || fl->nodes[c].total > fl->nodes[best].total))
				best = c;
		return best != 0 ? best : sel;
	case FLAME_TO_PREV:
		return i > 0 && l->boxes[i - 1].row == l->boxes[i].row ? l->boxes[i - 1].node : sel;
	case FLAME_TO_NEXT:
		return (size_t)i + 1 < l->n && l->boxes[i + 1].row == l->boxes[i].row
		           ? l->boxes[i + 1].node
		           : sel;
	}
	return sel;
}

/* Mark the matches under root; the share of root's samples through one. */
double
flame_search(const struct flame *fl, uint32_t root, const char *text, unsigned char *marks)
{
	double sum = 0;
	size_t i;

	memset(marks, 0, fl->n);
	if (root == 0 || root >= fl->n || text == NULL || text[0] == '\0' ||
	    !(fl->nodes[root].total > 0))
		return 0;
	/* parents precede children: a node is counted unless an ancestor
	 * below root matched already */
	for (i = root; i < fl->n; i++) {
		const struct flame_node *n = &fl->nodes[i];
		bool inside = i == root || (n->parent != 0 && flame_within(fl, n->parent, root));
		uint32_t a;
		bool counted = false;

		if (!inside || strcasestr(fl->names + n->name, text) == NULL)
			continue;
		marks[i] = 1;
		for (a = n->parent; i != root && a != 0; a = fl->nodes[a].parent) {
			if (marks[a]) {
				counted = true;
				break;
			}
			if (a == root)
				break;
		}
		if (!counted)
			sum += n->total;
	}
	return sum / fl->nodes[root].total;
}

/* Decode one character of s (len bytes): its byte length, its columns in
 * *cols (an undecodable or unprintable byte: 1 byte, 1 column). */
static size_t
flame_char(const char *s, size_t len, int *cols)
{
	mbstate_t st;
	wchar_t wc;
	size_t k;
	int w;

	memset(&st, 0, sizeof st);
	k = mbrtowc(&wc, s, len, &st);
	if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
		*cols = 1;
		return 1;
	}
	w = iswprint((wint_t)wc) ? wcwidth(wc) : 1;
	*cols = w < 0 ? 1 : w;
	return k;
}

/* Columns s takes. */
int
flame_text_width(const char *s)
{
	size_t len = strlen(s), i = 0;
	int cols = 0, w;

	while (i < len) {
		i += flame_char(s + i, len - i, &w);
		cols += w;
	}
	return cols;
}

/* Copy the longest prefix of s that fits in cols columns to buf (len
 * bytes); returns the columns it takes. */
static int
flame_cut(const char *s, int cols, char *buf, size_t len)
{
	size_t n = strlen(s), i = 0, k;
	int used = 0, w;

	while (i < n) {
		k = flame_char(s + i, n - i, &w);
		if (used + w > cols || i + k >= len)
			break;
		i += k;
		used += w;
	}
	memcpy(buf, s, i);
	buf[i] = '\0';
	return used;
}

/* The label of a box width columns wide. */
int
flame_label(const char *name, double percent, int width, const char *ellipsis, char *buf,
            size_t len)
{
	char share[32];
	int nw = flame_text_width(name), sw, ew = flame_text_width(ellipsis), used;
	size_t at;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	if (width <= 0)
		return 0;
	snprintf(share, sizeof share, " %.1f%%", percent);
	sw = (int)strlen(share);
	if (nw + sw <= width) {
		snprintf(buf, len, "%s%s", name, share);
		return nw + sw;
	}
	if (nw <= width) {
		snprintf(buf, len, "%s", name);
		return nw;
	}
	/* the name cut: with the share when 3 columns of the name stay */
	if (width - sw - ew < 3)
		sw = 0, share[0] = '\0';
	if (width - sw - ew < 1) /* not even the ellipsis: the name's first columns */
		return flame_cut(name, width, buf, len);
	used = flame_cut(name, width - sw - ew, buf, len);
	at = strlen(buf);
	snprintf(buf + at, len - at, "%s%s", ellipsis, share);
	return used + ew + sw;
}
