/* addrhist: per-function address histograms. Functions sit in an
 * open-addressing table of pointers (linear probing, at most half full);
 * each function's addresses in its own open-addressing array. Faded
 * functions are unlinked at a tick by rebuilding the table into its twin
 * array (no tombstones, no allocation) and go to a free list with their
 * address arrays, which the next new function reuses. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/addrhist.h"
#include "tracetop/util.h"

#define TABLE_MIN 64   /* function slots at first, a power of two */
#define ADDRS_MIN 16   /* address slots of a new function, a power of two */
#define FADE_SCORE 0.5 /* as hist: a function below this with no new sample goes */

struct addrhist {
	double decay;
	struct addrhist_sym **tab, **twin; /* mask + 1 slots each; NULL: empty */
	size_t mask;
	size_t count;
	struct addrhist_node *free_list;
	struct addrhist_sym *last; /* the function counted last */
	size_t slots;              /* address slots allocated, all functions */
	uint64_t dropped;          /* samples kept by no function (table full) */
};

/* A function record and its link in the free list. */
struct addrhist_node {
	struct addrhist_sym s; /* first: a sym pointer is a node pointer */
	struct addrhist_node *next_free;
};

/* Hash of a (DSO, symbol) pair, by identity. */
static inline size_t
sym_hash(const struct dso *dso, const struct sym *sym)
{
	return hash_u64((uint64_t)(uintptr_t)sym * 0x9e3779b97f4a7c15ULL ^ (uintptr_t)dso);
}

/* The slot of (dso, sym) in tab, or the empty slot where it would go. */
static size_t
sym_slot(struct addrhist_sym *const *tab, size_t mask, const struct dso *dso, const struct sym *sym)
{
	size_t i = sym_hash(dso, sym) & mask;

	while (tab[i] != NULL && (tab[i]->sym != sym || tab[i]->dso != dso))
		i = (i + 1) & mask;
	return i;
}

/* Create an empty table. */
struct addrhist *
addrhist_new(double decay)
{
	struct addrhist *ah;

	if (!(decay >= 0.0 && decay <= 1.0))
		fatal("addrhist_new: decay %g outside [0, 1]", decay);
	ah = xcalloc(1, sizeof *ah);
	ah->decay = decay;
	ah->mask = TABLE_MIN - 1;
	ah->tab = xcalloc(TABLE_MIN, sizeof *ah->tab);
	ah->twin = xcalloc(TABLE_MIN, sizeof *ah->twin);
	return ah;
}

/* Free one function record and its addresses. */
static void
node_free(struct addrhist_node *n)
{
	free(n->s.addrs);
	free(n);
}

/* Free the table, its functions and the free list. */
void
addrhist_free(struct addrhist *ah)
{
	if (ah == NULL)
		return;
	for (size_t i = 0; i <= ah->mask; i++)
		if (ah->tab[i] != NULL)
			node_free((struct addrhist_node *)ah->tab[i]);
	while (ah->free_list != NULL) {
		struct addrhist_node *n = ah->free_list;

		ah->free_list = n->next_free;
		node_free(n);
	}
	free(ah->tab);
	free(ah->twin);
	free(ah);
}

/* Double the function table (and its twin). */
static void
table_grow(struct addrhist *ah)
{
	size_t n = (ah->mask + 1) * 2;
	struct addrhist_sym **tab = xcalloc(n, sizeof *tab);

	for (size_t i = 0; i <= ah->mask; i++)
		if (ah->tab[i] != NULL)
			tab[sym_slot(tab, n - 1, ah->tab[i]->dso, ah->tab[i]->sym)] = ah->tab[i];
	free(ah->tab);
	free(ah->twin);
	ah->tab = tab;
	ah->twin = xcalloc(n, sizeof *ah->twin);
	ah->mask = n - 1;
}

/* Mark every address slot of a function free. */
static void
addrs_clear(struct addrhist_sym *s)
{
	for (uint32_t i = 0; i < s->cap; i++)
		s->addrs[i].off = ADDRHIST_EMPTY;
	s->naddrs = 0;
}

/* A new function's record: reused from the free list (with its address
 * array) or allocated; NULL when the bounds are reached. */
static struct addrhist_sym *
sym_new(struct addrhist *ah, const struct dso *dso, const struct sym *sym, bool kernel)
{
	struct addrhist_node *n = ah->free_list;
	struct addrhist_sym *s;
	size_t i;

	if (ah->count >= ADDRHIST_MAX_SYMS)
		return NULL;
	if (n == NULL && ah->slots + ADDRS_MIN > ADDRHIST_MAX_SLOTS)
		return NULL;
	if ((ah->count + 1) * 2 > ah->mask + 1)
		table_grow(ah);
	if (n != NULL) {
		ah->free_list = n->next_free;
	} else {
		n = xcalloc(1, sizeof *n);
		n->s.cap = ADDRS_MIN;
		n->s.addrs = xmalloc(ADDRS_MIN * sizeof *n->s.addrs);
		ah->slots += ADDRS_MIN;
	}
	s = &n->s;
	addrs_clear(s);
	s->dso = dso;
	s->sym = sym;
	s->kernel = kernel;
	s->interval = s->total = s->dropped = 0;
	s->score = 0;
	i = sym_slot(ah->tab, ah->mask, dso, sym);
	ah->tab[i] = s;
	ah->count++;
	return s;
}

/* The slot of off in a function's address array (full or free). */
static uint32_t
addr_slot(const struct addrhist_sym *s, uint32_t off)
{
	uint32_t mask = s->cap - 1, i = (uint32_t)hash_u64(off) & mask;

	while (s->addrs[i].off != ADDRHIST_EMPTY && s->addrs[i].off != off)
		i = (i + 1) & mask;
	return i;
}

/* Double a function's address array; false when a bound forbids it. */
static bool
addrs_grow(struct addrhist *ah, struct addrhist_sym *s)
{
	struct addrhist_addr *old = s->addrs;
	uint32_t oldcap = s->cap;

	if (s->naddrs >= ADDRHIST_MAX_ADDRS || ah->slots + oldcap > ADDRHIST_MAX_SLOTS)
		return false;
	s->cap = oldcap * 2;
	s->addrs = xmalloc(s->cap * sizeof *s->addrs);
	addrs_clear(s);
	for (uint32_t i = 0; i < oldcap; i++)
		if (old[i].off != ADDRHIST_EMPTY) {
			s->addrs[addr_slot(s, old[i].off)] = old[i];
			s->naddrs++;
		}
	ah->slots += oldcap;
	free(old);
	return true;
}

/* Count one sample at addr of sym: the hot path. */
void
addrhist_add(struct addrhist *ah, const struct dso *dso, const struct sym *sym, bool kernel,
             uint64_t addr)
{
	struct addrhist_sym *s = ah->last;
	struct addrhist_addr *a;
	uint32_t off, i;

	if (addr < sym->start || addr - sym->start >= sym->size ||
	    addr - sym->start >= ADDRHIST_EMPTY)
		return;
	off = (uint32_t)(addr - sym->start);
	if (s == NULL || s->sym != sym || s->dso != dso) {
		s = ah->tab[sym_slot(ah->tab, ah->mask, dso, sym)];
		if (s == NULL && (s = sym_new(ah, dso, sym, kernel)) == NULL) {
			ah->dropped++;
			return;
		}
		ah->last = s;
	}
	s->interval++;
	s->total++;
	i = addr_slot(s, off);
	if (s->addrs[i].off == ADDRHIST_EMPTY) {
		/* keep the array at most half full */
		if ((s->naddrs + 1) * 2 > s->cap) {
			if (!addrs_grow(ah, s)) {
				s->dropped++;
				return;
			}
			i = addr_slot(s, off);
		}
		s->addrs[i] = (struct addrhist_addr){.off = off};
		s->naddrs++;
	}
	a = &s->addrs[i];
	a->interval++;
	a->total++;
}

/* Fold one function's interval into its scores; whether it stays. */
static bool
sym_tick(struct addrhist_sym *s, double decay, bool zero)
{
	double total = 0;

	for (uint32_t i = 0; i < s->cap; i++) {
		struct addrhist_addr *a = &s->addrs[i];

		if (a->off == ADDRHIST_EMPTY)
			continue;
		a->score = zero ? (double)a->interval : a->score * decay + (double)a->interval;
		a->interval = 0;
		total += a->score;
	}
	s->score = total;
	if (s->interval == 0 && total < FADE_SCORE)
		return false;
	s->interval = 0;
	return true;
}

/* End an interval for every function; unlink the faded ones. */
void
addrhist_tick(struct addrhist *ah, bool zero)
{
	struct addrhist_sym **tmp;
	size_t removed = 0;

	ah->last = NULL;
	for (size_t i = 0; i <= ah->mask; i++) {
		struct addrhist_sym *s = ah->tab[i];

		if (s == NULL || sym_tick(s, ah->decay, zero))
			continue;
		((struct addrhist_node *)s)->next_free = ah->free_list;
		ah->free_list = (struct addrhist_node *)s;
		ah->tab[i] = NULL;
		removed++;
	}
	if (removed == 0)
		return;
	/* Re-insert the survivors into the twin: probe chains stay whole. */
	memset(ah->twin, 0, (ah->mask + 1) * sizeof *ah->twin);
	for (size_t i = 0; i <= ah->mask; i++)
		if (ah->tab[i] != NULL)
			ah->twin[sym_slot(ah->twin, ah->mask, ah->tab[i]->dso, ah->tab[i]->sym)] =
			    ah->tab[i];
	tmp = ah->tab;
	ah->tab = ah->twin;
	ah->twin = tmp;
	ah->count -= removed;
}

/* The histogram of (dso, sym), or NULL. */
const struct addrhist_sym *
addrhist_find(const struct addrhist *ah, const struct dso *dso, const struct sym *sym)
{
	if (ah == NULL || sym == NULL)
		return NULL;
	return ah->tab[sym_slot(ah->tab, ah->mask, dso, sym)];
}

/* Sizes and drops. */
void
addrhist_get_stats(const struct addrhist *ah, struct addrhist_stats *st)
{
	st->syms = ah->count;
	st->slots = ah->slots;
	st->dropped = ah->dropped;
	for (size_t i = 0; i <= ah->mask; i++)
		if (ah->tab[i] != NULL)
			st->dropped += ah->tab[i]->dropped;
}
