/* flame: a flame graph of a call graph, without curses. A flame is a tree
 * copied from the call-graph trie (root "all", then the commands, then the
 * frames outermost first) or from a function's callers (the function at the
 * root, its callers above it), children ordered by name so boxes keep their
 * place across live refreshes. flame_layout turns it into boxes (row = depth,
 * x and width in columns, width proportional to samples) for a given width
 * and zoom node; labels are names cut to a display width with the frame's
 * share; search marks the frames whose name matches and sums their share.
 * The screen's Flame pane and the batch reports (report-flame.h) draw
 * from these boxes. */
#ifndef TRACETOP_FLAME_H
#define TRACETOP_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracetop/callgraph.h"
#include "tracetop/sym-name.h"

#define FLAME_MAX_DEPTH 256 /* rows kept below the root */

/* What a frame is, for its colour. */
enum flame_kind {
	FLAME_USER,
	FLAME_KERNEL,
	FLAME_JIT,     /* a JIT's code, named by its perf map */
	FLAME_INLINED, /* an inlined callee (from debug info) */
	FLAME_OTHER,   /* the root, a command, [other] */
};

/* One node: a frame on one path. Index 0 is never a node; 1 is the root. */
struct flame_node {
	struct cg_frame frame;
	bool other;
	enum flame_kind kind;
	uint32_t parent, first_child, next_sibling; /* 0: none */
	unsigned depth;                             /* the root's is 0 */
	double total;                               /* samples through it */
	double start;                               /* samples left of it in its row */
	uint64_t id;                                /* its path's identity across refreshes */
	size_t name;                                /* offset of its name in names */
};

struct flame {
	struct flame_node *nodes;
	size_t n, cap; /* n counts nodes[0] */
	char *names;   /* NUL-terminated names, escaped */
	size_t nlen, ncap;
	bool callers;   /* the callers of nodes[1]'s function */
	unsigned depth; /* the deepest node's depth */
};

/* The whole call graph cg: root "all", a node per command, then its
 * stacks outermost first; names in form. Storage of fl is reused. */
void flame_build(struct flame *fl, const struct callgraph *cg, enum sym_form form);

/* The callers of function f in every command: f at the root, its direct
 * callers in the next row and so on up to the outermost frames. */
void flame_build_callers(struct flame *fl, const struct callgraph *cg, const struct cg_frame *f,
                         enum sym_form form);

void flame_free(struct flame *fl);

/* A node's name. */
const char *flame_name(const struct flame *fl, uint32_t node);

/* The node with this id, or 0. */
uint32_t flame_find(const struct flame *fl, uint64_t id);

/* Is node a descendant of anc (or anc itself)? */
bool flame_within(const struct flame *fl, uint32_t node, uint32_t anc);

/* One box of a layout. */
struct flame_box {
	uint32_t node;
	unsigned row;  /* the node's depth: the root's row is 0 */
	int x, w;      /* columns, w >= 1 */
	double fx, fw; /* the same, unrounded */
	bool ancestor; /* an ancestor of the zoom node: spans the whole width */
};

struct flame_layout {
	struct flame_box *boxes; /* by row, then x */
	size_t n, cap;
	unsigned rows; /* the deepest row + 1 */
};

/* Boxes of the subtree of zoom (its total fills width columns) and of its
 * ancestors (full width), a node's children starting at its left edge in
 * name order. A box's edges are its exact edges rounded, so children stay
 * inside their parent and, when it has no self samples, fill it exactly.
 * Boxes narrower than a column are left out with their subtrees. */
void flame_layout(const struct flame *fl, uint32_t zoom, int width, struct flame_layout *out);

void flame_layout_free(struct flame_layout *l);

/* The index of node's box in l, or -1. */
long flame_box_of(const struct flame_layout *l, uint32_t node);

enum flame_move {
	FLAME_TO_PARENT,
	FLAME_TO_CHILD, /* the heaviest child with a box */
	FLAME_TO_PREV,  /* the box left of it in its row */
	FLAME_TO_NEXT,  /* the box right of it in its row */
};

/* The node a move from sel leads to (sel when there is none). */
uint32_t flame_move(const struct flame *fl, const struct flame_layout *l, uint32_t sel,
                    enum flame_move m);

/* Mark (marks[i] = 1, fl->n entries) the nodes under root whose name
 * contains text (any case); returns the share of root's samples that pass
 * through a match (each stack counted once, recursion included). */
double flame_search(const struct flame *fl, uint32_t root, const char *text, unsigned char *marks);

/* Columns s takes on a terminal (wide characters two; an undecodable or
 * unprintable byte one). The locale must be set. */
int flame_text_width(const char *s);

/* The label of a box width columns wide: "name 12.3%" when it fits, else
 * the name cut (by display width, a wide character never split) followed
 * by ellipsis and the share when at least 3 columns of the name stay, else
 * the name alone cut. Returns the columns it takes (<= width). */
int flame_label(const char *name, double percent, int width, const char *ellipsis, char *buf,
                size_t len);

#endif
