/* callgraph: sampled stacks in a trie (command root, outermost frame, ...,
 * leaf). Nodes live in one growable array and refer to each other by index,
 * so growth can realloc; freed nodes go to a free list (linked through
 * next_sibling) and are reused. A child is found by an open-addressing hash
 * keyed (parent index, frame), roots by (0, interned comm), so counting a
 * known stack allocates nothing. Removal uses backward-shift deletion as in
 * hist. cg_tick walks the trie top-down with an explicit stack (no
 * recursion, whatever the depth), decays, folds small branches into
 * "[other]" and frees faded ones. Views and folded output are built on
 * demand, off the hot path. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph-impl.h"
#include "tracetop/util.h"

#define NODES_FIRST 256        /* initial node slots (index 0 unused) */
#define TABLE_MIN 256          /* initial hash slots, a power of two */
#define FADE_TOTAL 0.5         /* nodes whose decayed total drops below this are freed */
#define FREE_PARENT UINT32_MAX /* parent of a node on the free list */
#define NAME_LEN 4096          /* one escaped frame name in folded output */

static const struct cg_frame no_frame; /* the frame of roots and [other] nodes */

/* Hash of a child key: parent index, frame (pointers by identity), comm, other. */
uint32_t
cg_key_hash(uint32_t parent, const struct cg_frame *f, const char *comm, bool other)
{
	uint64_t flags = (uint64_t)f->kernel | (uint64_t)f->inlined << 1 | (uint64_t)other << 2;
	uint64_t h = hash_mix(HASH_SEED, (uint64_t)parent | flags << 32);

	h = hash_mix(h, (uintptr_t)f->dso);
	h = hash_mix(h, (uintptr_t)f->sym);
	h = hash_mix(h, f->addr);
	h = hash_mix(h, (uintptr_t)comm);
	return (uint32_t)hash_u64(h);
}

/* Whether node n is the child of parent with this frame, comm and other flag. */
static inline bool
node_is(const struct cg_node *n, uint32_t parent, const struct cg_frame *f, const char *comm,
        bool other)
{
	return n->parent == parent && n->other == other && n->comm == comm &&
	       cg_frame_eq(&n->frame, f);
}

/* The slot holding the key, or the empty slot where it would go. */
static inline size_t
find_slot(const struct callgraph *cg, uint32_t parent, const struct cg_frame *f, const char *comm,
          bool other, uint32_t hash)
{
	size_t i;

	for (i = hash & cg->mask;; i = (i + 1) & cg->mask) {
		const struct cg_slot *s = &cg->tab[i];

		if (s->node == 0 ||
		    (s->hash == hash && node_is(&cg->nodes[s->node], parent, f, comm, other)))
			return i;
	}
}

/* The live node with this key, or 0. */
uint32_t
cg_lookup(const struct callgraph *cg, uint32_t parent, const struct cg_frame *f, const char *comm,
          bool other)
{
	return cg->tab[find_slot(cg, parent, f, comm, other, cg_key_hash(parent, f, comm, other))]
	    .node;
}

/* Double the table and re-insert every node by its stored hash. */
static void
table_grow(struct callgraph *cg)
{
	struct cg_slot *old = cg->tab;
	size_t oldn = cg->mask + 1, i, j;

	cg->mask = oldn * 2 - 1;
	cg->tab = xcalloc(oldn * 2, sizeof *cg->tab);
	for (i = 0; i < oldn; i++) {
		if (old[i].node == 0)
			continue;
		for (j = old[i].hash & cg->mask; cg->tab[j].node != 0; j = (j + 1) & cg->mask)
			;
		cg->tab[j] = old[i];
	}
	free(old);
}

/* Empty the slot of node idx, shifting later entries of its cluster back
 * so lookups never cross a hole. */
static void
slot_delete(struct callgraph *cg, uint32_t idx)
{
	const struct cg_node *n = &cg->nodes[idx];
	size_t i = cg_key_hash(n->parent, &n->frame, n->comm, n->other) & cg->mask, j, home;

	while (cg->tab[i].node != idx)
		i = (i + 1) & cg->mask;
	for (j = i;;) {
		j = (j + 1) & cg->mask;
		if (cg->tab[j].node == 0)
			break;
		home = cg->tab[j].hash & cg->mask;
		/* The entry at j may fill the hole unless its home lies in (i, j]. */
		if (((j - home) & cg->mask) >= ((j - i) & cg->mask)) {
			cg->tab[i] = cg->tab[j];
			i = j;
		}
	}
	cg->tab[i].node = 0;
}

/* An unused node index: from the free list, else the array, growing it. */
static uint32_t
node_alloc(struct callgraph *cg)
{
	uint32_t idx = cg->free_list;

	if (idx != 0) {
		cg->free_list = cg->nodes[idx].next_sibling;
		return idx;
	}
	if (cg->used == cg->cap) {
		if (cg->cap >= UINT32_MAX / 2)
			fatal("callgraph: more than %" PRIu32 " nodes", cg->cap);
		cg->cap *= 2;
		cg->nodes = xrealloc(cg->nodes, (size_t)cg->cap * sizeof *cg->nodes);
	}
	return cg->used++;
}

/* Put node idx on the free list (its slot must be gone already). */
static void
node_release(struct callgraph *cg, uint32_t idx)
{
	struct cg_node *n = &cg->nodes[idx];

	memset(n, 0, sizeof *n);
	n->parent = FREE_PARENT;
	n->next_sibling = cg->free_list;
	cg->free_list = idx;
	cg->count--;
}

/* The node with this key, created (first among its siblings) when missing. */
static uint32_t
get_node(struct callgraph *cg, uint32_t parent, const struct cg_frame *f, const char *comm,
         bool other)
{
	uint32_t hash = cg_key_hash(parent, f, comm, other), idx;
	size_t i = find_slot(cg, parent, f, comm, other, hash);
	struct cg_node *n;

	if (cg->tab[i].node != 0)
		return cg->tab[i].node;
	/* Keep the load under 60 %. */
	if ((cg->count + 1) * 5 > (cg->mask + 1) * 3) {
		table_grow(cg);
		i = find_slot(cg, parent, f, comm, other, hash);
	}
	idx = node_alloc(cg);
	n = &cg->nodes[idx];
	memset(n, 0, sizeof *n);
	n->frame = *f;
	n->comm = comm;
	n->parent = parent;
	n->other = other;
	n->birth = ++cg->births != 0 ? cg->births : ++cg->births;
	if (parent == 0) {
		n->next_sibling = cg->first_root;
		cg->first_root = idx;
	} else {
		n->next_sibling = cg->nodes[parent].first_child;
		cg->nodes[parent].first_child = idx;
	}
	cg->tab[i].node = idx;
	cg->tab[i].hash = hash;
	cg->count++;
	return idx;
}

/* Create an empty call graph. */
struct callgraph *
cg_new(double decay, double min_percent)
{
	struct callgraph *cg;

	if (!(decay >= 0.0 && decay <= 1.0))
		fatal("cg_new: decay %g outside [0, 1]", decay);
	if (!(min_percent >= 0.0 && min_percent <= 100.0))
		fatal("cg_new: min_percent %g outside [0, 100]", min_percent);
	cg = xcalloc(1, sizeof *cg);
	cg->decay = decay;
	cg->min_frac = min_percent / 100.0;
	cg->cap = NODES_FIRST;
	cg->used = 1;
	cg->nodes = xcalloc(cg->cap, sizeof *cg->nodes);
	cg->mask = TABLE_MIN - 1;
	cg->tab = xcalloc(TABLE_MIN, sizeof *cg->tab);
	return cg;
}

/* Free a call graph and all its nodes. */
void
cg_free(struct callgraph *cg)
{
	if (cg == NULL)
		return;
	free(cg->nodes);
	free(cg->tab);
	free(cg->stack);
	free(cg);
}

/* A node of a replayed path, made when missing. */
uint32_t
cg_child(struct callgraph *cg, uint32_t parent, const struct cg_frame *f, const char *comm,
         bool other)
{
	if (parent != 0 && cg_node(cg, parent) == NULL)
		return 0;
	return get_node(cg, parent, f, comm, other);
}

/* w samples ending at node idx: its self, its and its callers' totals. */
void
cg_add_at(struct callgraph *cg, uint32_t idx, uint64_t w)
{
	if (cg_node(cg, idx) == NULL)
		return;
	cg->nodes[idx].interval_self += w;
	for (; idx != 0; idx = cg->nodes[idx].parent)
		cg->nodes[idx].interval_total += w;
}

/* Copy src into *dst (made on first use, its storage reused after). */
void
cg_snapshot(const struct callgraph *src, struct callgraph **dst)
{
	struct callgraph *d = *dst;

	if (d == NULL)
		d = *dst = xcalloc(1, sizeof *d);
	if (d->cap < src->used) {
		d->cap = src->used;
		d->nodes = xrealloc(d->nodes, (size_t)d->cap * sizeof *d->nodes);
	}
	memcpy(d->nodes, src->nodes, (size_t)src->used * sizeof *d->nodes);
	/* the views find a command's root and a node's children by the table */
	if (d->tab == NULL || d->mask != src->mask) {
		free(d->tab);
		d->tab = xcalloc(src->mask + 1, sizeof *d->tab);
	}
	memcpy(d->tab, src->tab, (src->mask + 1) * sizeof *d->tab);
	d->mask = src->mask;
	d->decay = src->decay;
	d->min_frac = src->min_frac;
	d->used = src->used;
	d->count = src->count;
	d->first_root = src->first_root;
	d->free_list = src->free_list;
}

/* Count one sample along the path root(comm) -> frames[n-1] -> ... -> frames[0]. */
void
cg_add(struct callgraph *cg, const char *comm, const struct cg_frame *frames, size_t n)
{
	cg_add_n(cg, comm, frames, n, 1);
}

/* Count w samples along one path (outermost caller last) under the root
 * of (comm, pid, tid): the root's frame address holds the task (0 when rows
 * merge processes); frames marked in other (may be NULL) are [other]. */
static void
cg_add_path(struct callgraph *cg, const char *comm, int pid, int tid, const struct cg_frame *frames,
            const bool *other, size_t n, uint64_t w)
{
	struct cg_frame root = {.addr = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid};
	uint32_t cur = get_node(cg, 0, &root, comm, false);

	cg->nodes[cur].interval_total += w;
	while (n-- > 0) {
		bool o = other != NULL && other[n];

		cur = get_node(cg, cur, o ? &no_frame : &frames[n], NULL, o);
		cg->nodes[cur].interval_total += w;
	}
	cg->nodes[cur].interval_self += w;
}

/* The node of a task's path, made where missing, nothing counted. */
uint32_t
cg_task_path(struct callgraph *cg, const char *comm, int pid, int tid,
             const struct cg_frame *frames, size_t n)
{
	struct cg_frame root = {.addr = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid};
	uint32_t cur = get_node(cg, 0, &root, comm, false);

	while (n-- > 0)
		cur = get_node(cg, cur, &frames[n], NULL, false);
	return cur;
}

/* Count w samples along frames below node. */
void
cg_add_below(struct callgraph *cg, uint32_t node, const struct cg_frame *frames, size_t n,
             uint64_t w)
{
	if (cg_node(cg, node) == NULL)
		return;
	while (n-- > 0)
		node = get_node(cg, node, &frames[n], NULL, false);
	cg_add_at(cg, node, w);
}

/* The birth of a live node, or 0. */
uint32_t
cg_node_birth(const struct callgraph *cg, uint32_t idx)
{
	const struct cg_node *n = cg_node(cg, idx);

	return n != NULL ? n->birth : 0;
}

/* Count w samples at once along one path (an in-kernel aggregate). */
void
cg_add_n(struct callgraph *cg, const char *comm, const struct cg_frame *frames, size_t n,
         uint64_t w)
{
	cg_add_path(cg, comm, 0, 0, frames, NULL, n, w);
}

/* The same with some frames being [other] nodes (a history's paths). */
void
cg_add_marked(struct callgraph *cg, const char *comm, const struct cg_frame *frames,
              const bool *other, size_t n, uint64_t w)
{
	cg_add_path(cg, comm, 0, 0, frames, other, n, w);
}

/* Count w samples along one path under the root of (comm, pid, tid): the
 * root's frame address holds the task, its other fields stay zero. */
void
cg_add_task_n(struct callgraph *cg, const char *comm, int pid, int tid,
              const struct cg_frame *frames, size_t n, uint64_t w)
{
	cg_add_path(cg, comm, pid, tid, frames, NULL, n, w);
}

/* Push a work item on cg_tick's stack, growing it. */
static void
push(struct callgraph *cg, uint32_t node, uint32_t root)
{
	if (cg->sp == cg->stack_cap) {
		cg->stack_cap = cg->stack_cap == 0 ? 256 : cg->stack_cap * 2;
		cg->stack = xrealloc(cg->stack, cg->stack_cap * sizeof *cg->stack);
	}
	cg->stack[cg->sp].node = node;
	cg->stack[cg->sp].root = root;
	cg->sp++;
}

/* Fold the interval into the decayed counts (factor 0: zeroing); keep:
 * last_self adds the interval up with those before it. */
static inline void
decay_node(struct cg_node *n, double factor, bool keep)
{
	n->last_self = (keep ? n->last_self : 0) + n->interval_self;
	n->self = n->self * factor + (double)n->interval_self;
	n->total = n->total * factor + (double)n->interval_total;
	n->interval_self = n->interval_total = 0;
}

/* Free node top (already unlinked and decayed) and its whole subtree,
 * decaying the descendants first; returns the sum of their self counts
 * (and adds their last interval's to *last, which [other] takes over). */
static double
drop_subtree(struct callgraph *cg, uint32_t top, double factor, uint64_t *last)
{
	size_t base = cg->sp;
	double self = 0;
	uint32_t idx, c;

	push(cg, top, 0);
	while (cg->sp > base) {
		idx = cg->stack[--cg->sp].node;
		if (idx != top)
			decay_node(&cg->nodes[idx], factor, cg->keep_last);
		self += cg->nodes[idx].self;
		*last += cg->nodes[idx].last_self;
		for (c = cg->nodes[idx].first_child; c != 0; c = cg->nodes[c].next_sibling)
			push(cg, c, 0);
		slot_delete(cg, idx);
		node_release(cg, idx);
	}
	return self;
}

/* Decay the children of p; free faded ones; fold those below thr (except
 * [other]) into p's [other] child; queue the rest for their own children. */
static void
tick_children(struct callgraph *cg, uint32_t p, uint32_t root, double thr, double factor)
{
	double fold_total = 0, fold_self = 0;
	uint64_t fold_last = 0, gone = 0;
	uint32_t *link = &cg->nodes[p].first_child, c, o;
	struct cg_node *n;

	while ((c = *link) != 0) {
		n = &cg->nodes[c];
		decay_node(n, factor, cg->keep_last);
		if (n->total < FADE_TOTAL) {
			*link = n->next_sibling;
			drop_subtree(cg, c, factor, &gone);
			continue;
		}
		if (!n->other && n->total < thr) {
			*link = n->next_sibling;
			fold_total += n->total;
			fold_self += drop_subtree(cg, c, factor, &fold_last);
			continue;
		}
		push(cg, c, root);
		link = &n->next_sibling;
	}
	/* After the walk: creating [other] relinks p's children and may move nodes. */
	if (fold_total > 0) {
		o = get_node(cg, p, &no_frame, NULL, true);
		cg->nodes[o].total += fold_total;
		cg->nodes[o].self += fold_self;
		cg->nodes[o].last_self += fold_last;
	}
}

/* End an interval: decay (or zero), fold small branches, free faded nodes;
 * keep: the nodes' last_self add it up with the intervals before. */
static void
tick(struct callgraph *cg, bool zero, bool keep)
{
	double factor = zero ? 0.0 : cg->decay;
	uint64_t gone = 0; /* a faded root had no samples in the interval */
	uint32_t *link = &cg->first_root, r;
	struct cg_walk w;

	cg->sp = 0;
	cg->keep_last = keep;
	while ((r = *link) != 0) {
		decay_node(&cg->nodes[r], factor, keep);
		if (cg->nodes[r].total < FADE_TOTAL) {
			*link = cg->nodes[r].next_sibling;
			drop_subtree(cg, r, factor, &gone);
			continue;
		}
		push(cg, r, r);
		link = &cg->nodes[r].next_sibling;
	}
	while (cg->sp > 0) {
		w = cg->stack[--cg->sp];
		tick_children(cg, w.node, w.root, cg->min_frac * cg->nodes[w.root].total, factor);
	}
}

/* End an interval. */
void
cg_tick(struct callgraph *cg, bool zero)
{
	tick(cg, zero, false);
}

/* End an interval whose last_self nobody took: they add up. */
void
cg_tick_keep_last(struct callgraph *cg)
{
	tick(cg, false, true);
}

/* A live node, or NULL for 0, out of range or free. */
const struct cg_node *
cg_node(const struct callgraph *cg, uint32_t idx)
{
	if (idx == 0 || idx >= cg->used || cg->nodes[idx].parent == FREE_PARENT)
		return NULL;
	return &cg->nodes[idx];
}

/* The first root (0 when empty). */
uint32_t
cg_first_root(const struct callgraph *cg)
{
	return cg->first_root;
}

/* Sum of the roots' decayed totals. */
double
cg_total(const struct callgraph *cg)
{
	double t = 0;
	uint32_t r;

	for (r = cg->first_root; r != 0; r = cg->nodes[r].next_sibling)
		t += cg->nodes[r].total;
	return t;
}

/* Live nodes, roots included. */
size_t
cg_count(const struct callgraph *cg)
{
	return cg->count;
}

/* Node slots the array holds, live or free: grows only when the array does. */
size_t
cg_capacity(const struct callgraph *cg)
{
	return cg->cap;
}

/* Same function: DSO and symbol by identity, address and flags equal. */
bool
cg_frame_eq(const struct cg_frame *a, const struct cg_frame *b)
{
	return a->dso == b->dso && a->sym == b->sym && a->addr == b->addr &&
	       a->kernel == b->kernel && a->inlined == b->inlined;
}

/* Display name of a frame (or of an [other] node) in a form, escaped. */
static void
frame_name(const struct cg_frame *f, bool other, enum sym_form form, char *buf, size_t len)
{
	static const char inl[] = " (inlined)";
	size_t o;

	if (len == 0)
		return;
	if (other)
		o = (size_t)snprintf(buf, len, "[other]");
	else if (f->sym != NULL)
		o = sym_format(f->sym, form, buf, len);
	else
		o = (size_t)snprintf(buf, len, "[unknown] 0x%llx", (unsigned long long)f->addr);
	if (!other && f->inlined && o + sizeof inl <= len)
		memcpy(buf + o, inl, sizeof inl);
}

/* Display name of a trie node: its frame, or a root's command. */
void
cg_frame_name(const struct cg_node *n, enum sym_form form, char *buf, size_t len)
{
	size_t o;

	if (n->parent != 0 || n->other) {
		frame_name(&n->frame, n->other, form, buf, len);
		return;
	}
	if (n->comm != NULL)
		str_escape(buf, len, n->comm, strlen(n->comm));
	else if (len > 0)
		snprintf(buf, len, "[unknown]");
	/* a root per process or thread: "comm-PID" or "comm-PID/TID" as
	 * perf script and stackcollapse-perf --pid --tid name them */
	o = strnlen(buf, len);
	if (cg_root_pid(n) != 0 && o < len)
		o += (size_t)snprintf(buf + o, len - o, "-%d", cg_root_pid(n));
	if (cg_root_tid(n) != 0 && o < len)
		snprintf(buf + o, len - o, "/%d", cg_root_tid(n));
}

/* Display name of a view node. */
void
cg_view_name(const struct cg_view_node *n, char *buf, size_t len)
{
	frame_name(&n->frame, n->other, SYM_FULL, buf, len);
}

/* Ascending display order of two frames: [other] last, then by symbol
 * name (unresolved after resolved, by address), inlined, kernel, DSO. */
int
cg_frame_order(const struct cg_frame *a, bool a_other, const struct cg_frame *b, bool b_other)
{
	int c;

	if (a_other != b_other)
		return a_other ? 1 : -1;
	if ((a->sym == NULL) != (b->sym == NULL))
		return a->sym == NULL ? 1 : -1;
	if (a->sym != NULL && a->sym != b->sym &&
	    (c = strcmp(sym_name(a->sym), sym_name(b->sym))) != 0)
		return c;
	if (a->addr != b->addr)
		return CMP3(a->addr, b->addr);
	if (a->inlined != b->inlined || a->kernel != b->kernel)
		return a->inlined != b->inlined ? a->inlined - b->inlined : a->kernel - b->kernel;
	if (a->dso != b->dso && a->dso != NULL && b->dso != NULL &&
	    (c = strcmp(a->dso->name, b->dso->name)) != 0)
		return c;
	return CMP3(a->dso, b->dso);
}

/* qsort_r order of trie node indices by name (roots by command). */
static int
cmp_trie_name(const void *pa, const void *pb, void *arg)
{
	const struct cg_node *nodes = arg;
	const struct cg_node *a = &nodes[*(const uint32_t *)pa], *b = &nodes[*(const uint32_t *)pb];

	if (a->parent == 0 && b->parent == 0) {
		int c = a->comm == NULL || b->comm == NULL ? (a->comm == NULL) - (b->comm == NULL)
		                                           : strcmp(a->comm, b->comm);

		return c != 0 ? c : CMP3(a->frame.addr, b->frame.addr);
	}
	return cg_frame_order(&a->frame, a->other, &b->frame, b->other);
}

/* Append x to the array. */
void
cg_vec_push(struct idx_vec *a, uint32_t x)
{
	if (a->n == a->cap) {
		a->cap = a->cap == 0 ? 64 : a->cap * 2;
		a->v = xrealloc(a->v, a->cap * sizeof *a->v);
	}
	a->v[a->n++] = x;
}

/* Append the node list starting at first (a sibling chain), sorted by name. */
static void
push_sorted(const struct callgraph *cg, struct idx_vec *a, uint32_t first)
{
	size_t from = a->n;

	for (; first != 0; first = cg->nodes[first].next_sibling)
		cg_vec_push(a, first);
	if (a->n - from > 1) /* (a->v is NULL while empty) */
		qsort_r(a->v + from, a->n - from, sizeof *a->v, cmp_trie_name, cg->nodes);
}

/* Append a name to a folded line, ';' (the separator) turned into ':'. */
static void
line_append(char **line, size_t *len, size_t *cap, const char *name)
{
	size_t k = strlen(name), i;

	if (*len + k + 2 > *cap) {
		*cap = (*len + k + 2) * 2;
		*line = xrealloc(*line, *cap);
	}
	if (*len > 0)
		(*line)[(*len)++] = ';';
	for (i = 0; i < k; i++)
		(*line)[(*len)++] = name[i] == ';' ? ':' : name[i];
	(*line)[*len] = '\0';
}

/* Folded stacks, depth first; roots sorted by command, children by name
 * (the frame_order), so equal trees print the same whatever their history. */
void
cg_print_folded(const struct callgraph *cg, FILE *out)
{
	struct idx_vec todo = {0}, lens = {0};
	size_t len = 0, cap = 256, from, i;
	char *line = xmalloc(cap), name[NAME_LEN];
	const struct cg_node *n;
	uint32_t idx, tmp;

	/* todo is a stack: each level is pushed sorted, then reversed. */
	push_sorted(cg, &todo, cg->first_root);
	for (i = 0; i < todo.n; i++)
		cg_vec_push(&lens, 0);
	for (i = 0; i < todo.n / 2; i++) {
		tmp = todo.v[i];
		todo.v[i] = todo.v[todo.n - 1 - i];
		todo.v[todo.n - 1 - i] = tmp;
	}
	while (todo.n > 0) {
		idx = todo.v[--todo.n];
		len = lens.v[--lens.n];
		n = &cg->nodes[idx];
		cg_frame_name(n, SYM_QUALIFIED, name, sizeof name);
		line_append(&line, &len, &cap, name);
		if (n->self >= 0.5)
			fprintf(out, "%s %" PRIu64 "\n", line, (uint64_t)(n->self + 0.5));
		from = todo.n;
		push_sorted(cg, &todo, n->first_child);
		for (i = from; i < todo.n; i++)
			cg_vec_push(&lens, (uint32_t)len);
		for (i = 0; i < (todo.n - from) / 2; i++) {
			tmp = todo.v[from + i];
			todo.v[from + i] = todo.v[todo.n - 1 - i];
			todo.v[todo.n - 1 - i] = tmp;
		}
	}
	free(todo.v);
	free(lens.v);
	free(line);
}
