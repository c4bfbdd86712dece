/* addrhist-impl: the address histograms' table, shared by addrhist.c
 * (functions) and addrhist-who.c (the rows of a function counted apart,
 * and the copies for frames). Private to those two files. */
#ifndef TRACETOP_ADDRHIST_IMPL_H
#define TRACETOP_ADDRHIST_IMPL_H

#include "tracetop/addrhist.h"

/* A function asked for by addrhist_want (mask 0) or one row of it
 * (addrhist_want_who). */
struct addrhist_want {
	const struct dso *dso;
	const struct sym *sym;
	unsigned mask;
	struct addrhist_who who;
};

struct addrhist {
	double decay;
	struct addrhist_sym **tab; /* mask + 1 slots; NULL: empty */
	size_t mask;
	size_t count;
	struct addrhist_node *free_list;
	struct addrhist_sym *last; /* the function counted last */
	size_t slots;              /* address slots allocated, all functions */
	uint64_t dropped;          /* samples kept by no function (table full) */
	size_t top;                /* functions watched by rank, or WATCH_ALL */
	size_t nwatched;
	struct addrhist_sym **rank; /* 2 * top: a min-heap of the best scores at a tick */
	struct addrhist_want wants[ADDRHIST_MAX_WANTED]; /* a ring, the oldest replaced */
	size_t nwants;
	char *names[ADDRHIST_MAX_WANTED];
	unsigned name_rows[ADDRHIST_MAX_WANTED]; /* each name's rows counted apart */
	size_t nnames;
	/* with a top n all watched: the functions seen once in this tick,
	 * by hash tag (SEEN_SLOTS of them, 0 free; made with the top n), so that the long tail
	 * sampled once a tick costs no record */
	uint32_t *seen;
};

/* One row of a function counted apart: its samples from who as mask's
 * fields tell them. */
struct addrhist_row {
	struct addrhist_sym s;
	unsigned mask;
	struct addrhist_who who;
	bool pinned; /* asked for by addrhist_want_who, else made by a name's rows */
};

/* A function record, its link in the free list and the flags only the
 * table's own bookkeeping reads. */
struct addrhist_node {
	struct addrhist_sym s; /* first: a sym pointer is a node pointer */
	struct addrhist_node *next_free;
	bool pinned;    /* asked for: watched whatever its rank */
	bool ranked;    /* among the best of the tick being made */
	unsigned split; /* a name's grouping: its rows are made as they come */
	struct addrhist_row *rows;
	uint32_t nrows, rowcap;
};

/* The node of a function record. */
static inline struct addrhist_node *
node_of(const struct addrhist_sym *s)
{
	return (struct addrhist_node *)(uintptr_t)s;
}

/* Give s an empty address array within the slot bound (addrs_clear'ed);
 * false when the bound forbids it. */
bool addrhist_addrs_new(struct addrhist *ah, struct addrhist_sym *s);

/* Count w samples at off in s's address array (growing it within the
 * bounds, else counting them dropped). */
void addrhist_count_addr(struct addrhist *ah, struct addrhist_sym *s, uint32_t off, uint64_t w);

/* Fold s's interval into its scores; whether it stays (not faded). */
bool addrhist_sym_tick(struct addrhist_sym *s, double decay, bool zero);

/* Make the rows asked for of a function and note its name's grouping
 * (when it is new, or newly asked for). */
void addrhist_rows_pin(struct addrhist *ah, struct addrhist_node *n);

/* Count w samples at off from who in the function's rows it belongs to. */
void addrhist_rows_add(struct addrhist *ah, struct addrhist_node *n, uint32_t off, uint64_t w,
                       const struct addrhist_who *who);

/* End an interval for a function's rows, dropping faded unasked ones. */
void addrhist_rows_tick(struct addrhist *ah, struct addrhist_node *n, bool zero);

/* Drop the row (mask, who) of a function: its request lapsed. */
void addrhist_rows_unpin(struct addrhist *ah, struct addrhist_node *n, unsigned mask,
                         const struct addrhist_who *who);

/* Free every row of a function (it faded or the table goes). */
void addrhist_rows_free(struct addrhist *ah, struct addrhist_node *n);

#endif
