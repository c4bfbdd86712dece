/* callgraph-impl: the call graph's trie, shared by callgraph.c (the trie,
 * its ticks and folded output) and callgraph-view.c (the caller and callee
 * views of one function) and nothing else. */
#ifndef TRACETOP_CALLGRAPH_IMPL_H
#define TRACETOP_CALLGRAPH_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/callgraph.h"

/* One slot of the node hash table. */
struct cg_slot {
	uint32_t node; /* 0: empty */
	uint32_t hash;
};

/* A trie walk's work item: a node and the root it hangs under. */
struct cg_walk {
	uint32_t node, root;
};

struct callgraph {
	double decay;
	double min_frac; /* min_percent / 100 */
	struct cg_node *nodes;
	uint32_t used; /* array entries handed out at least once, index 0 included */
	uint32_t cap;
	uint32_t free_list;
	size_t count; /* live nodes */
	uint32_t first_root;
	uint32_t births; /* nodes made: each one's birth */
	struct cg_slot *tab;
	size_t mask;           /* slots - 1 */
	struct cg_walk *stack; /* cg_tick's work stack, kept between ticks */
	size_t sp, stack_cap;
	bool keep_last; /* the tick under way adds to last_self (cg_tick_keep_last) */
};

/* A growable array of node indices. */
struct idx_vec {
	uint32_t *v;
	size_t n, cap;
};

/* Hash of a child key: parent index, frame (pointers by identity), comm, other. */
uint32_t cg_key_hash(uint32_t parent, const struct cg_frame *f, const char *comm, bool other);

/* The live node with this key, or 0. */
uint32_t cg_lookup(const struct callgraph *cg, uint32_t parent, const struct cg_frame *f,
                   const char *comm, bool other);

/* Ascending display order of two frames: [other] last, then by symbol
 * name (unresolved after resolved, by address), inlined, kernel, DSO. */
int cg_frame_order(const struct cg_frame *a, bool a_other, const struct cg_frame *b, bool b_other);

/* Append x to the array, growing it. */
void cg_vec_push(struct idx_vec *a, uint32_t x);

#endif
