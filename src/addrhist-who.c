/* addrhist-who: the rows of a function counted apart (one Top row's
 * samples: its command, process, thread or cgroup), and the copies of
 * the functions and rows asked for that a frame keeps. A row is the
 * function's own record type with its own address array, in a small
 * array of the function's node: the rows asked for by the Annotate pane
 * (pinned, at most ADDRHIST_MAX_WANTED in all) and those a name's
 * grouping makes as samples come (at most ADDRHIST_MAX_ROWS per function,
 * made on a new row's first sample: a bounded allocation, not one per
 * sample). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "addrhist-impl.h"
#include "tracetop/sym-name.h"
#include "tracetop/util.h"

/* Whether a and b agree on mask's fields. */
bool
addrhist_who_eq(unsigned mask, const struct addrhist_who *a, const struct addrhist_who *b)
{
	return (!(mask & HIST_GROUP_COMM) || a->comm == b->comm) &&
	       (!(mask & HIST_GROUP_PID) || a->pid == b->pid) &&
	       (!(mask & HIST_GROUP_TID) || a->tid == b->tid) &&
	       (!(mask & HIST_GROUP_CGROUP) || a->cgroup == b->cgroup);
}

/* The row (mask, who) of n, or NULL. */
static struct addrhist_row *
row_find(struct addrhist_node *n, unsigned mask, const struct addrhist_who *who)
{
	for (uint32_t i = 0; i < n->nrows; i++)
		if (n->rows[i].mask == mask && addrhist_who_eq(mask, &n->rows[i].who, who))
			return &n->rows[i];
	return NULL;
}

/* A new row (mask, who) of n with an empty address array, or NULL when
 * the slot bound forbids it. */
static struct addrhist_row *
row_new(struct addrhist *ah, struct addrhist_node *n, unsigned mask, const struct addrhist_who *who)
{
	struct addrhist_row *r;

	if (n->nrows == n->rowcap) {
		n->rowcap = n->rowcap ? 2 * n->rowcap : 4;
		n->rows = xrealloc(n->rows, n->rowcap * sizeof *n->rows);
	}
	r = &n->rows[n->nrows];
	*r = (struct addrhist_row){.mask = mask, .who = *who};
	r->s.dso = n->s.dso;
	r->s.sym = n->s.sym;
	r->s.kernel = n->s.kernel;
	r->s.watched = true;
	if (!addrhist_addrs_new(ah, &r->s))
		return NULL;
	n->nrows++;
	return r;
}

/* Remove row i of n, giving its address slots back. */
static void
row_drop(struct addrhist *ah, struct addrhist_node *n, uint32_t i)
{
	ah->slots -= n->rows[i].s.cap;
	free(n->rows[i].s.addrs);
	n->rows[i] = n->rows[--n->nrows];
}

/* Make the rows asked for of n and note its name's grouping. */
void
addrhist_rows_pin(struct addrhist *ah, struct addrhist_node *n)
{
	for (size_t i = 0; i < ah->nwants && i < ADDRHIST_MAX_WANTED; i++) {
		const struct addrhist_want *w = &ah->wants[i];
		struct addrhist_row *r;

		if (w->mask == 0 || w->sym != n->s.sym || w->dso != n->s.dso)
			continue;
		if ((r = row_find(n, w->mask, &w->who)) == NULL)
			r = row_new(ah, n, w->mask, &w->who);
		if (r != NULL)
			r->pinned = true;
	}
	for (size_t i = 0; i < ah->nnames && n->split == 0; i++)
		if (ah->name_rows[i] != 0 && sym_matches(n->s.sym, ah->names[i]))
			n->split = ah->name_rows[i];
}

/* Count a sample in the rows of n that who belongs to; with a name's
 * grouping, in its row of that grouping, made if it is new. */
void
addrhist_rows_add(struct addrhist *ah, struct addrhist_node *n, uint32_t off, uint64_t w,
                  const struct addrhist_who *who)
{
	bool split_seen = false;
	struct addrhist_row *r;

	for (uint32_t i = 0; i < n->nrows; i++) {
		r = &n->rows[i];
		if (!addrhist_who_eq(r->mask, &r->who, who))
			continue;
		split_seen |= r->mask == n->split;
		r->s.interval += w;
		r->s.total += w;
		addrhist_count_addr(ah, &r->s, off, w);
	}
	if (n->split == 0 || split_seen)
		return;
	if (n->nrows >= ADDRHIST_MAX_ROWS || (r = row_new(ah, n, n->split, who)) == NULL) {
		n->s.dropped += w;
		return;
	}
	r->s.interval = r->s.total = w;
	addrhist_count_addr(ah, &r->s, off, w);
}

/* End an interval for n's rows; unasked ones that faded go. */
void
addrhist_rows_tick(struct addrhist *ah, struct addrhist_node *n, bool zero)
{
	for (uint32_t i = 0; i < n->nrows;) {
		struct addrhist_row *r = &n->rows[i];

		if (!addrhist_sym_tick(&r->s, ah->decay, zero) && !r->pinned)
			row_drop(ah, n, i);
		else
			i++;
	}
}

/* Drop the row (mask, who) of n. */
void
addrhist_rows_unpin(struct addrhist *ah, struct addrhist_node *n, unsigned mask,
                    const struct addrhist_who *who)
{
	struct addrhist_row *r = row_find(n, mask, who);

	if (r != NULL)
		row_drop(ah, n, (uint32_t)(r - n->rows));
}

/* Free n's rows (keeping the array for the node's next function). */
void
addrhist_rows_free(struct addrhist *ah, struct addrhist_node *n)
{
	while (n->nrows > 0)
		row_drop(ah, n, n->nrows - 1);
	n->split = 0;
}

/* Append a copy of s (its used address slots only) as row (mask, who)
 * to c, unless it is there already (asked for by name and by pointer). */
static void
copy_push(struct addrhist_copy *c, const struct addrhist_sym *s, unsigned mask,
          const struct addrhist_who *who)
{
	struct addrhist_copy_ent *d;
	uint32_t k = 0;

	for (size_t i = 0; i < c->n; i++)
		if (c->ents[i].s.sym == s->sym && c->ents[i].s.dso == s->dso &&
		    c->ents[i].mask == mask && addrhist_who_eq(mask, &c->ents[i].who, who))
			return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : ADDRHIST_MAX_WANTED;
		c->ents = xrealloc(c->ents, c->cap * sizeof *c->ents);
	}
	d = &c->ents[c->n++];
	d->s = *s;
	d->mask = mask;
	d->who = *who;
	d->s.addrs = s->naddrs ? xmalloc(s->naddrs * sizeof *d->s.addrs) : NULL;
	for (uint32_t i = 0; i < s->cap && k < s->naddrs; i++)
		if (s->addrs[i].off != ADDRHIST_EMPTY)
			d->s.addrs[k++] = s->addrs[i];
	d->s.naddrs = d->s.cap = k;
}

/* Empty a copy, keeping its array. */
static void
copy_clear(struct addrhist_copy *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->ents[i].s.addrs);
	c->n = 0;
}

/* Copy a function asked for by name, and all its rows. */
static void
copy_named(struct addrhist_copy *c, const struct addrhist_sym *s)
{
	static const struct addrhist_who nobody;
	const struct addrhist_node *n = node_of(s);

	copy_push(c, s, 0, &nobody);
	for (uint32_t i = 0; i < n->nrows; i++)
		copy_push(c, &n->rows[i].s, n->rows[i].mask, &n->rows[i].who);
}

/* Copy the functions and rows asked for. */
void
addrhist_copy_wanted(const struct addrhist *ah, struct addrhist_copy *c)
{
	const struct addrhist_sym *s;

	copy_clear(c);
	if (ah == NULL)
		return;
	for (size_t i = 0; i < ah->nwants && i < ADDRHIST_MAX_WANTED; i++) {
		const struct addrhist_want *w = &ah->wants[i];
		const struct addrhist_row *r;

		if ((s = addrhist_find(ah, w->dso, w->sym)) == NULL)
			continue;
		if (w->mask == 0)
			copy_push(c, s, 0, &w->who);
		else if ((r = row_find(node_of(s), w->mask, &w->who)) != NULL)
			copy_push(c, &r->s, r->mask, &r->who);
	}
	for (size_t i = 0; ah->nnames > 0 && i <= ah->mask; i++)
		if ((s = ah->tab[i]) != NULL && s->sym->name != NULL)
			for (size_t k = 0; k < ah->nnames; k++)
				if (sym_matches(s->sym, ah->names[k])) {
					copy_named(c, s);
					break;
				}
}

/* Order of functions by score, the hottest first. */
static int
hot_cmp(const void *a, const void *b)
{
	const struct addrhist_sym *x = *(const struct addrhist_sym *const *)a;
	const struct addrhist_sym *y = *(const struct addrhist_sym *const *)b;

	return x->score > y->score ? -1 : x->score < y->score;
}

/* Append copies of the n hottest functions with per-instruction counts. */
void
addrhist_copy_hot(const struct addrhist *ah, size_t n, struct addrhist_copy *c)
{
	static const struct addrhist_who nobody;
	struct addrhist_sym **hot;
	size_t k = 0;

	if (ah == NULL || n == 0 || ah->count == 0)
		return;
	hot = xcalloc(ah->count, sizeof *hot);
	for (size_t i = 0; i <= ah->mask && k < ah->count; i++)
		if (ah->tab[i] != NULL && ah->tab[i]->watched && ah->tab[i]->naddrs > 0)
			hot[k++] = ah->tab[i];
	qsort(hot, k, sizeof *hot, hot_cmp);
	for (size_t i = 0; i < k && i < n; i++)
		copy_push(c, hot[i], 0, &nobody);
	free(hot);
}

/* The copy of (dso, sym), or NULL. */
const struct addrhist_sym *
addrhist_copy_find(const struct addrhist_copy *c, const struct dso *dso, const struct sym *sym)
{
	return addrhist_copy_find_who(c, dso, sym, 0, NULL);
}

/* The copy of (dso, sym)'s row (mask, who), or NULL. */
const struct addrhist_sym *
addrhist_copy_find_who(const struct addrhist_copy *c, const struct dso *dso, const struct sym *sym,
                       unsigned mask, const struct addrhist_who *who)
{
	mask &= ADDRHIST_WHO_FIELDS;
	for (size_t i = 0; i < c->n; i++)
		if (c->ents[i].s.sym == sym && c->ents[i].s.dso == dso && c->ents[i].mask == mask &&
		    (mask == 0 || addrhist_who_eq(mask, &c->ents[i].who, who)))
			return &c->ents[i].s;
	return NULL;
}

/* Free a copy. */
void
addrhist_copy_free(struct addrhist_copy *c)
{
	copy_clear(c);
	free(c->ents);
	c->ents = NULL;
	c->cap = 0;
}
