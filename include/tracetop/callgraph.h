/* callgraph: sampled call stacks aggregated in a prefix tree (a trie from
 * the command through the outermost frame down to the leaf), with decay
 * like hist, so callers keep their share on every refresh. From it come
 * the caller and callee trees of any function, and folded stacks. Memory
 * stays bounded: small branches fold into an "[other]" node. */
#ifndef TRACETOP_CALLGRAPH_H
#define TRACETOP_CALLGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracetop/dso.h"
#include "tracetop/sym-name.h"
#include "tracetop/symtab.h"

/* One frame: a function (or an unresolved address) in a DSO. */
struct cg_frame {
	const struct dso *dso; /* NULL when no mapping held the address */
	const struct sym *sym; /* NULL when unresolved */
	uint64_t addr;         /* unresolved only: offset in the DSO (or the ip) */
	bool kernel;
	bool inlined; /* an inlined callee (from debug info) */
};

/* A node of the trie. Index 0 is never a node (means "none"). */
struct cg_node {
	struct cg_frame frame; /* for a root: all zero, comm set */
	const char *comm;      /* roots only: the command (interned) */
	uint32_t parent;       /* 0 for a root */
	uint32_t first_child, next_sibling;
	uint32_t birth; /* which node made it is (never 0): a place kept outside stays this one */
	uint64_t interval_self, interval_total; /* samples since the last tick */
	double self, total;                     /* decayed: samples ending here / passing through */
	uint64_t last_self; /* interval_self of the interval the last tick ended (history) */
	bool other;         /* the "[other]" node of its parent */
};

struct callgraph;

/* decay as hist (per tick); min_percent: at each tick, children whose total
 * is below this percent of their root's total fold into "[other]". */
struct callgraph *cg_new(double decay, double min_percent);
void cg_free(struct callgraph *cg);

/* An immutable copy of src in *dst (made on first call, reused after) for
 * a frame: the read functions below work on it; it takes no samples and
 * no ticks (cg_free releases it). */
void cg_snapshot(const struct callgraph *src, struct callgraph **dst);

/* Replay: the node under parent (0: a root) with this frame, comm and
 * other flag, made when missing, with no count; 0 when parent is no node.
 * cg_add_at then counts w samples ending at node idx. */
uint32_t cg_child(struct callgraph *cg, uint32_t parent, const struct cg_frame *f, const char *comm,
                  bool other);
void cg_add_at(struct callgraph *cg, uint32_t idx, uint64_t w);
/* The node of the path root(comm, pid, tid) -> frames[n - 1] -> ... ->
 * frames[0] (as cg_add_task_n walks it), made where missing, nothing
 * counted: a place to add below with cg_add_below. */
uint32_t cg_task_path(struct callgraph *cg, const char *comm, int pid, int tid,
                      const struct cg_frame *frames, size_t n);
/* Count w samples along frames[n - 1] -> ... -> frames[0] below node (the
 * nodes made where missing): self at the last, totals up to the root. */
void cg_add_below(struct callgraph *cg, uint32_t node, const struct cg_frame *frames, size_t n,
                  uint64_t w);
/* The birth of live node idx (0: none): the same birth later is the
 * same node, its path unchanged. */
uint32_t cg_node_birth(const struct callgraph *cg, uint32_t idx);

/* Count one sample: frames[0] is the leaf, frames[n-1] the outermost.
 * Allocates only when the trie grows (no allocation for a known stack). */
void cg_add(struct callgraph *cg, const char *comm, const struct cg_frame *frames, size_t n);
/* The same for w samples at once. */
void cg_add_n(struct callgraph *cg, const char *comm, const struct cg_frame *frames, size_t n,
              uint64_t w);
/* The same where other[i] marks frames[i] as an "[other]" node (a folded
 * branch, as history keeps them); other may be NULL. */
void cg_add_marked(struct callgraph *cg, const char *comm, const struct cg_frame *frames,
                   const bool *other, size_t n, uint64_t w);

/* The same under a root per process (pid) or thread (pid and tid; 0:
 * not split), for rows grouped by pid or tid. */
void cg_add_task_n(struct callgraph *cg, const char *comm, int pid, int tid,
                   const struct cg_frame *frames, size_t n, uint64_t w);

/* A root's process and thread (0: not split by them). */
static inline int
cg_root_pid(const struct cg_node *n)
{
	return (int)(uint32_t)(n->frame.addr >> 32);
}
static inline int
cg_root_tid(const struct cg_node *n)
{
	return (int)(uint32_t)n->frame.addr;
}

/* End an interval: decay (or zero) every node, fold small branches, free
 * faded nodes for reuse. */
void cg_tick(struct callgraph *cg, bool zero);
/* The same (decaying) for a trie whose last interval nobody took (a
 * recorder skipped it): each node's last_self adds this interval to it,
 * so the next taker has both. */
void cg_tick_keep_last(struct callgraph *cg);

/* Read access for views. */
const struct cg_node *cg_node(const struct callgraph *cg, uint32_t idx);
/* The roots (one per command), first one; follow next_sibling. */
uint32_t cg_first_root(const struct callgraph *cg);
/* Sum of every root's total. */
double cg_total(const struct callgraph *cg);

bool cg_frame_eq(const struct cg_frame *a, const struct cg_frame *b);
/* Display name: the symbol in a form of sym-name.h, "[unknown] 0xADDR" or
 * "[other]" (a root: its command), " (inlined)" appended for inlined
 * frames; escaped. */
void cg_frame_name(const struct cg_node *n, enum sym_form form, char *buf, size_t len);

/* A view tree built for one function: its callees (merged from every place
 * it occurs) or its callers (paths to the roots, reversed). */
struct cg_view_node {
	struct cg_frame frame;
	bool other;
	double total;                       /* weight of this branch */
	uint32_t first_child, next_sibling; /* indices into the view, 0 = none */
};

struct cg_view {
	struct cg_view_node *nodes; /* nodes[0] unused; nodes[1] is the function */
	size_t n, cap;              /* n counts nodes[0]: the nodes are 1 .. n-1 */
};

/* Callees of function f (in comm, or every comm when NULL): children
 * sorted by total, heaviest first. f's total counts each stack once: an
 * occurrence of f below another (recursion) adds nothing to node 1. A view
 * stops at 64 levels below f and 10000 nodes. v's storage is reused. */
void cg_callees(const struct callgraph *cg, const char *comm, const struct cg_frame *f,
                struct cg_view *v);
/* Callers of f: the first level is f's direct callers, and so on up to the
 * outermost frames; sorted by total. The paths start at f's outermost
 * occurrence on each stack, so no level outweighs f. */
void cg_callers(const struct callgraph *cg, const char *comm, const struct cg_frame *f,
                struct cg_view *v);

/* Which roots a view takes: a command (NULL: any), a process and a thread
 * (0: any; only roots split by them match one). */
struct cg_scope {
	const char *comm;
	int pid, tid;
};
void cg_callees_in(const struct callgraph *cg, const struct cg_scope *sc, const struct cg_frame *f,
                   struct cg_view *v);
void cg_callers_in(const struct callgraph *cg, const struct cg_scope *sc, const struct cg_frame *f,
                   struct cg_view *v);
/* The subtrees of trie nodes idx[0..n) (roots, say) merged by frame level
 * by level: node 1 stands for them all (a zero frame, their summed
 * total), children heaviest first, within the same limits. */
void cg_subtrees(const struct callgraph *cg, const uint32_t *idx, size_t n, struct cg_view *v);

void cg_view_free(struct cg_view *v);

/* The samples whose stacks pass through a frame of dso under the roots in
 * scope, each stack once (decayed). */
double cg_dso_total(const struct callgraph *cg, const struct cg_scope *sc, const struct dso *dso);

/* After hist_group by a grouping without the symbol: each row's inclusive
 * (children) count as its own, not its members' sum (which counts a stack
 * through two of its functions twice): its self count for whole
 * processes, threads, commands or cgroups, the stacks through it in cg
 * (may be NULL: no stacks) for a DSO. */
struct hist_snapshot;
void cg_group_children(const struct callgraph *cg, struct hist_snapshot *snap, unsigned group);

/* Display name of a view node, like cg_frame_name, in full. */
void cg_view_name(const struct cg_view_node *n, char *buf, size_t len);

/* Folded stacks, one line per distinct stack with self samples:
 * "comm;outermost;...;leaf COUNT" (decayed counts rounded, zero lines
 * skipped), names escaped and with ';' replaced so the format stays
 * parseable. Depth first, roots by command and children by name, so the
 * order does not depend on the order samples came in. */
void cg_print_folded(const struct callgraph *cg, FILE *out);

/* Live nodes, roots included. */
size_t cg_count(const struct callgraph *cg);

/* Node slots held, live or free (grows only when the node array does). */
size_t cg_capacity(const struct callgraph *cg);

#endif
