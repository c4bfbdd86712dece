/* addrhist: per-function address histograms. Functions sit in an
 * open-addressing table of pointers (linear probing, at most half full);
 * each watched function's addresses in its own open-addressing array.
 * Faded functions are unlinked at a tick by backward-shift deletion (no
 * tombstones, no allocation, no pass over the whole table for each tick
 * that drops one: the long tail of functions fades at every tick) and
 * go to a free list with
 * their address arrays, which the next new function reuses. With a top n,
 * a function leaving the watched set gives its array back at the tick
 * (allocation at a tick, never per sample), so the long tail of a
 * system-wide profile costs a record each, not an array each; and once
 * the top n are all watched, a function seen once in a tick costs only a
 * tag, its record made at its second sample. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "addrhist-impl.h"
#include "tracetop/sym-name.h"
#include "tracetop/util.h"

#define TABLE_MIN 64   /* function slots at first, a power of two */
#define ADDRS_MIN 16   /* address slots of a new function, a power of two */
#define FADE_SCORE 1.0 /* as hist: a function below this with no new sample goes */
#define WATCH_ALL SIZE_MAX
#define SEEN_SLOTS 32768 /* tags of functions seen once a tick, a power of two */

/* Hash of a (DSO, symbol) pair, by identity. */
static inline size_t
sym_hash(const struct dso *dso, const struct sym *sym)
{
	return hash_u64(hash_mix(hash_mix(HASH_SEED, (uintptr_t)dso), (uintptr_t)sym));
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
	ah->top = WATCH_ALL;
	ah->mask = TABLE_MIN - 1;
	ah->tab = xcalloc(TABLE_MIN, sizeof *ah->tab);
	return ah;
}

/* Free one function record and its addresses. */
static void
node_free(struct addrhist *ah, struct addrhist_node *n)
{
	addrhist_rows_free(ah, n);
	free(n->rows);
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
			node_free(ah, (struct addrhist_node *)ah->tab[i]);
	while (ah->free_list != NULL) {
		struct addrhist_node *n = ah->free_list;

		ah->free_list = n->next_free;
		node_free(ah, n);
	}
	for (size_t i = 0; i < ah->nnames; i++)
		free(ah->names[i]);
	free(ah->rank);
	free(ah->seen);
	free(ah->tab);
	free(ah);
}

/* Double the function table. */
static void
table_grow(struct addrhist *ah)
{
	size_t n = (ah->mask + 1) * 2;
	struct addrhist_sym **tab = xcalloc(n, sizeof *tab);

	for (size_t i = 0; i <= ah->mask; i++)
		if (ah->tab[i] != NULL)
			tab[sym_slot(tab, n - 1, ah->tab[i]->dso, ah->tab[i]->sym)] = ah->tab[i];
	free(ah->tab);
	ah->tab = tab;
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

/* An empty address array for s: its own, or a new one within the bound. */
bool
addrhist_addrs_new(struct addrhist *ah, struct addrhist_sym *s)
{
	if (s->cap == 0) {
		if (ah->slots + ADDRS_MIN > ADDRHIST_MAX_SLOTS)
			return false;
		s->cap = ADDRS_MIN;
		s->addrs = xmalloc(ADDRS_MIN * sizeof *s->addrs);
		ah->slots += ADDRS_MIN;
	}
	addrs_clear(s);
	return true;
}

/* Give s an empty address array (its own, or a new one within the slot
 * bound) and count it watched; false when the bound forbids it. */
static bool
sym_watch(struct addrhist *ah, struct addrhist_sym *s)
{
	if (!addrhist_addrs_new(ah, s))
		return false;
	s->watched = true;
	ah->nwatched++;
	return true;
}

/* Stop counting s per instruction and free its address array (a tick's
 * work, not a sample's). */
static void
sym_unwatch(struct addrhist *ah, struct addrhist_sym *s)
{
	free(s->addrs);
	s->addrs = NULL;
	ah->slots -= s->cap;
	s->cap = s->naddrs = 0;
	s->watched = false;
	ah->nwatched--;
}

/* Whether (dso, sym) was asked for, by itself or by name. */
static bool
sym_wanted(const struct addrhist *ah, const struct dso *dso, const struct sym *sym)
{
	for (size_t i = 0; i < ah->nwants && i < ADDRHIST_MAX_WANTED; i++)
		if (ah->wants[i].sym == sym && ah->wants[i].dso == dso)
			return true;
	for (size_t i = 0; i < ah->nnames; i++)
		if (sym_matches(sym, ah->names[i]))
			return true;
	return false;
}

/* A new function's record: reused from the free list (with its address
 * array) or allocated; watched if everything is, if asked for, or while
 * fewer than the top n are; NULL when the bounds are reached. */
static struct addrhist_sym *
sym_new(struct addrhist *ah, const struct dso *dso, const struct sym *sym, bool kernel)
{
	struct addrhist_node *n = ah->free_list;
	struct addrhist_sym *s;
	bool pinned;

	if (ah->count >= ADDRHIST_MAX_SYMS)
		return NULL;
	if (ah->top == WATCH_ALL && (n == NULL || n->s.cap == 0) &&
	    ah->slots + ADDRS_MIN > ADDRHIST_MAX_SLOTS)
		return NULL;
	if ((ah->count + 1) * 2 > ah->mask + 1)
		table_grow(ah);
	if (n != NULL)
		ah->free_list = n->next_free;
	else
		n = xcalloc(1, sizeof *n);
	s = &n->s;
	pinned = ah->top != WATCH_ALL && sym_wanted(ah, dso, sym);
	n->pinned = pinned;
	n->ranked = false;
	s->dso = dso;
	s->sym = sym;
	s->kernel = kernel;
	s->interval = s->total = s->dropped = 0;
	s->score = 0;
	s->watched = false;
	s->naddrs = 0;
	if (ah->top == WATCH_ALL || pinned || ah->nwatched < ah->top)
		sym_watch(ah, s);
	ah->tab[sym_slot(ah->tab, ah->mask, dso, sym)] = s;
	ah->count++;
	addrhist_rows_pin(ah, n);
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
	addrhist_add_who(ah, dso, sym, kernel, addr, 1, NULL);
}

/* Count w samples at once at addr of sym (an in-kernel aggregate). */
void
addrhist_add_n(struct addrhist *ah, const struct dso *dso, const struct sym *sym, bool kernel,
               uint64_t addr, uint64_t w)
{
	addrhist_add_who(ah, dso, sym, kernel, addr, w, NULL);
}

/* Count w samples at off in s's address array. */
void
addrhist_count_addr(struct addrhist *ah, struct addrhist_sym *s, uint32_t off, uint64_t w)
{
	struct addrhist_addr *a;
	uint32_t i = addr_slot(s, off);

	if (s->addrs[i].off == ADDRHIST_EMPTY) {
		/* keep the array at most half full */
		if ((s->naddrs + 1) * 2 > s->cap) {
			if (!addrs_grow(ah, s)) {
				s->dropped += w;
				return;
			}
			i = addr_slot(s, off);
		}
		s->addrs[i] = (struct addrhist_addr){.off = off};
		s->naddrs++;
	}
	a = &s->addrs[i];
	a->interval += (uint32_t)w;
	a->total += w;
}

/* Whether a function without a record gets one for w samples; extra:
 * the sample of it seen before, to count as well. With a top n and all
 * n watched, a record only ranks it, and a function seen once in a tick
 * is never among the best: its first lone sample is only remembered by
 * tag (a colliding function's is forgotten: it counts one less). */
static bool
sym_admit(struct addrhist *ah, const struct dso *dso, const struct sym *sym, uint64_t w,
          uint64_t *extra)
{
	uint64_t h;
	uint32_t tag;
	size_t i;

	*extra = 0;
	if (ah->top == WATCH_ALL || ah->nwatched < ah->top || sym_wanted(ah, dso, sym))
		return true;
	h = sym_hash(dso, sym);
	tag = (uint32_t)(h >> 32) | 1;
	i = (size_t)h & (SEEN_SLOTS - 1);
	if (ah->seen[i] == tag) {
		ah->seen[i] = 0;
		*extra = 1;
		return true;
	}
	if (w >= 2)
		return true;
	ah->seen[i] = tag;
	return false;
}

/* Count w samples from who at addr of sym, in the function and its rows. */
void
addrhist_add_who(struct addrhist *ah, const struct dso *dso, const struct sym *sym, bool kernel,
                 uint64_t addr, uint64_t w, const struct addrhist_who *who)
{
	struct addrhist_sym *s = ah->last;
	uint32_t off;

	if (addr < sym->start || addr - sym->start >= sym->size ||
	    addr - sym->start >= ADDRHIST_EMPTY)
		return;
	off = (uint32_t)(addr - sym->start);
	if (s == NULL || s->sym != sym || s->dso != dso) {
		s = ah->tab[sym_slot(ah->tab, ah->mask, dso, sym)];
		if (s == NULL) {
			uint64_t extra;

			if (!sym_admit(ah, dso, sym, w, &extra))
				return;
			if ((s = sym_new(ah, dso, sym, kernel)) == NULL) {
				ah->dropped++;
				return;
			}
			s->interval += extra;
			s->total += extra;
		}
		ah->last = s;
	}
	s->interval += w;
	s->total += w;
	if (who != NULL && (node_of(s)->nrows > 0 || node_of(s)->split != 0))
		addrhist_rows_add(ah, node_of(s), off, w, who);
	if (s->watched)
		addrhist_count_addr(ah, s, off, w);
}

/* Fold one function's interval into its scores; whether it stays. */
bool
addrhist_sym_tick(struct addrhist_sym *s, double decay, bool zero)
{
	for (uint32_t i = 0; i < s->cap && s->watched; i++) {
		struct addrhist_addr *a = &s->addrs[i];

		if (a->off == ADDRHIST_EMPTY)
			continue;
		a->score = zero ? (double)a->interval : a->score * decay + (double)a->interval;
		a->interval = 0;
	}
	s->score = zero ? (double)s->interval : s->score * decay + (double)s->interval;
	if (s->interval == 0 && s->score < FADE_SCORE)
		return false;
	s->interval = 0;
	return true;
}

/* Move heap[i] down to its place in a min-heap of n by score. */
static void
rank_down(struct addrhist_sym **heap, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct addrhist_sym *tmp;

		if (l < n && heap[l]->score < heap[m]->score)
			m = l;
		if (l + 1 < n && heap[l + 1]->score < heap[m]->score)
			m = l + 1;
		if (m == i)
			return;
		tmp = heap[i];
		heap[i] = heap[m];
		heap[m] = tmp;
		i = m;
	}
}

/* Order by score, highest first. */
static int
rank_cmp(const void *x, const void *y)
{
	const struct addrhist_sym *a = *(struct addrhist_sym *const *)x;
	const struct addrhist_sym *b = *(struct addrhist_sym *const *)y;

	return (a->score < b->score) - (a->score > b->score);
}

/* Choose the watched functions again: the top n by score, those already
 * watched within the top 2n (hysteresis), and the pinned ones. A min-heap
 * of 2n keeps this O(functions log n) per tick. */
static void
rank_watch(struct addrhist *ah)
{
	size_t n = 0, cap = 2 * ah->top;

	for (size_t i = 0; i <= ah->mask; i++) {
		struct addrhist_sym *s = ah->tab[i];

		if (s == NULL)
			continue;
		if (n < cap) {
			ah->rank[n++] = s;
			if (n == cap)
				for (size_t k = n / 2; k-- > 0;)
					rank_down(ah->rank, n, k);
		} else if (s->score > ah->rank[0]->score) {
			ah->rank[0] = s;
			rank_down(ah->rank, n, 0);
		}
	}
	qsort(ah->rank, n, sizeof *ah->rank, rank_cmp);
	for (size_t k = 0; k < n; k++)
		node_of(ah->rank[k])->ranked = k < ah->top || ah->rank[k]->watched;
	for (size_t i = 0; i <= ah->mask; i++) {
		struct addrhist_sym *s = ah->tab[i];
		struct addrhist_node *nd;

		if (s == NULL)
			continue;
		nd = node_of(s);
		if ((nd->ranked || nd->pinned) && !s->watched)
			sym_watch(ah, s);
		else if (!nd->ranked && !nd->pinned && s->watched)
			sym_unwatch(ah, s);
		nd->ranked = false;
	}
}

/* Empty slot i of the function table, moving the entries after it in its
 * cluster back so that lookups never cross a hole. */
static void
slot_delete(struct addrhist *ah, size_t i)
{
	size_t j = i, mask = ah->mask;

	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (ah->tab[j] == NULL)
			break;
		home = sym_hash(ah->tab[j]->dso, ah->tab[j]->sym) & mask;
		if (((j - home) & mask) >= ((j - i) & mask)) {
			ah->tab[i] = ah->tab[j];
			i = j;
		}
	}
	ah->tab[i] = NULL;
}

/* End an interval for every function; unlink the faded ones. */
void
addrhist_tick(struct addrhist *ah, bool zero)
{
	size_t start = 0, i, left;

	ah->last = NULL;
	if (ah->seen != NULL)
		memset(ah->seen, 0, SEEN_SLOTS * sizeof *ah->seen);
	/* from just after an empty slot (the table is at most half full): no
	 * cluster wraps past the walk's end, and a deletion's backward shift
	 * only moves entries not yet visited into the slot being visited */
	while (ah->tab[start] != NULL)
		start++;
	for (i = (start + 1) & ah->mask, left = ah->mask; left > 0;) {
		struct addrhist_sym *s = ah->tab[i];

		if (s == NULL) {
			i = (i + 1) & ah->mask;
			left--;
			continue;
		}
		addrhist_rows_tick(ah, node_of(s), zero);
		if (addrhist_sym_tick(s, ah->decay, zero)) {
			i = (i + 1) & ah->mask;
			left--;
			continue;
		}
		addrhist_rows_free(ah, node_of(s));
		if (s->watched && ah->top != WATCH_ALL) {
			sym_unwatch(ah, s);
		} else if (s->watched) {
			s->watched = false; /* keeps its array for the next function */
			ah->nwatched--;
		}
		node_of(s)->next_free = ah->free_list;
		ah->free_list = node_of(s);
		slot_delete(ah, i); /* slot i now holds the next entry, if any */
		ah->count--;
	}
	if (ah->top != WATCH_ALL)
		rank_watch(ah);
}

/* Watch only the top n functions (and the ones asked for). */
void
addrhist_keep_top(struct addrhist *ah, size_t n)
{
	if (n == 0 || n > ADDRHIST_MAX_SYMS)
		fatal("addrhist_keep_top: %zu functions", n);
	ah->top = n;
	free(ah->rank);
	ah->rank = xcalloc(2 * n, sizeof *ah->rank);
	if (ah->seen == NULL)
		ah->seen = xcalloc(SEEN_SLOTS, sizeof *ah->seen);
	for (size_t i = 0; i <= ah->mask; i++)
		if (ah->tab[i] != NULL)
			node_of(ah->tab[i])->pinned =
			    sym_wanted(ah, ah->tab[i]->dso, ah->tab[i]->sym);
	rank_watch(ah);
}

/* Whether want w is (dso, sym)'s row (mask, who). */
static bool
want_is(const struct addrhist_want *w, const struct dso *dso, const struct sym *sym, unsigned mask,
        const struct addrhist_who *who)
{
	return w->sym == sym && w->dso == dso && w->mask == mask &&
	       (mask == 0 || addrhist_who_eq(mask, &w->who, who));
}

/* Watch (dso, sym) whatever its rank: now (making its record if it has
 * none yet) and whenever it comes back after fading. */
void
addrhist_want(struct addrhist *ah, const struct dso *dso, const struct sym *sym, bool kernel)
{
	addrhist_want_who(ah, dso, sym, kernel, 0, NULL);
}

/* The same, counting the row (mask, who) of it apart from now on. */
void
addrhist_want_who(struct addrhist *ah, const struct dso *dso, const struct sym *sym, bool kernel,
                  unsigned mask, const struct addrhist_who *who)
{
	static const struct addrhist_who nobody;
	struct addrhist_sym *s;
	size_t k;

	if (sym == NULL)
		return;
	mask &= ADDRHIST_WHO_FIELDS;
	for (k = 0; k < ah->nwants && k < ADDRHIST_MAX_WANTED; k++)
		if (want_is(&ah->wants[k], dso, sym, mask, who))
			break;
	if (k == ah->nwants || k == ADDRHIST_MAX_WANTED) {
		struct addrhist_want *w = &ah->wants[ah->nwants % ADDRHIST_MAX_WANTED];
		struct addrhist_want old = *w;
		const struct addrhist_sym *o;

		*w = (struct addrhist_want){dso, sym, mask, mask != 0 ? *who : nobody};
		/* the oldest request lapses: its function is ranked again */
		if (ah->nwants++ >= ADDRHIST_MAX_WANTED &&
		    (o = addrhist_find(ah, old.dso, old.sym)) != NULL) {
			node_of(o)->pinned = sym_wanted(ah, o->dso, o->sym);
			if (old.mask != 0)
				addrhist_rows_unpin(ah, node_of(o), old.mask, &old.who);
		}
	}
	s = ah->tab[sym_slot(ah->tab, ah->mask, dso, sym)];
	if (ah->top == WATCH_ALL) {
		if (s != NULL)
			addrhist_rows_pin(ah, node_of(s));
		return;
	}
	if (s == NULL && (s = sym_new(ah, dso, sym, kernel)) == NULL)
		return;
	node_of(s)->pinned = true;
	if (!s->watched)
		sym_watch(ah, s);
	addrhist_rows_pin(ah, node_of(s));
}

/* Watch every function called name. */
void
addrhist_want_name(struct addrhist *ah, const char *name)
{
	addrhist_want_name_rows(ah, name, 0);
}

/* The same, counting its rows of the grouping mask apart. */
void
addrhist_want_name_rows(struct addrhist *ah, const char *name, unsigned mask)
{
	if (ah->nnames >= ADDRHIST_MAX_WANTED)
		return;
	for (size_t i = 0; i < ah->nnames; i++)
		if (strcmp(ah->names[i], name) == 0)
			return;
	ah->name_rows[ah->nnames] = mask & ADDRHIST_WHO_FIELDS;
	ah->names[ah->nnames++] = xstrdup(name);
	for (size_t i = 0; i <= ah->mask; i++) {
		struct addrhist_sym *s = ah->tab[i];

		if (s == NULL || !sym_matches(s->sym, name))
			continue;
		addrhist_rows_pin(ah, node_of(s));
		if (ah->top == WATCH_ALL)
			continue;
		node_of(s)->pinned = true;
		if (!s->watched)
			sym_watch(ah, s);
	}
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
	st->watched = ah->nwatched;
	st->slots = ah->slots;
	st->dropped = ah->dropped;
	for (size_t i = 0; i <= ah->mask; i++)
		if (ah->tab[i] != NULL)
			st->dropped += ah->tab[i]->dropped;
}
