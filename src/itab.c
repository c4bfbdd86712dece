/* itab: an int-keyed open-addressing table (linear probing,
 * backward-shift deletion). */
#include "config.h"

#include <stdlib.h>

#include "tracetop/itab.h"
#include "tracetop/util.h"

/* The home slot of key in a table of cap slots. */
static size_t
itab_home(int key, size_t cap)
{
	return hash_u64((uint32_t)key) & (cap - 1);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t
itab_slot(const struct itab *tab, int key)
{
	size_t i = itab_home(key, tab->cap);

	while (tab->slots[i].val != NULL && tab->slots[i].key != key)
		i = (i + 1) & (tab->cap - 1);
	return i;
}

/* The value for key, or NULL. */
void *
itab_get(const struct itab *tab, int key)
{
	return tab->cap ? tab->slots[itab_slot(tab, key)].val : NULL;
}

/* Double the table (or create it). */
static void
itab_grow(struct itab *tab)
{
	struct itab n = {xcalloc(tab->cap ? tab->cap * 2 : 64, sizeof(struct itab_slot)),
	                 tab->cap ? tab->cap * 2 : 64, tab->used};
	size_t i;

	for (i = 0; i < tab->cap; i++)
		if (tab->slots[i].val != NULL)
			n.slots[itab_slot(&n, tab->slots[i].key)] = tab->slots[i];
	free(tab->slots);
	*tab = n;
}

/* Set key to val; the value it replaces, or NULL. */
void *
itab_put(struct itab *tab, int key, void *val)
{
	size_t i;
	void *old;

	if ((tab->used + 1) * 4 > tab->cap * 3)
		itab_grow(tab);
	i = itab_slot(tab, key);
	old = tab->slots[i].val;
	if (old == NULL)
		tab->used++;
	tab->slots[i].key = key;
	tab->slots[i].val = val;
	return old;
}

/* Empty slot i, shifting later entries of its cluster back so lookups still
 * find them; an entry may land in slot i itself. */
static void
itab_del_at(struct itab *tab, size_t i)
{
	size_t mask = tab->cap - 1, j = i, k;

	for (;;) {
		j = (j + 1) & mask;
		if (tab->slots[j].val == NULL)
			break;
		k = itab_home(tab->slots[j].key, tab->cap);
		/* Leave j alone when its home lies cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		tab->slots[i] = tab->slots[j];
		i = j;
	}
	tab->slots[i].val = NULL;
	tab->used--;
}

/* Remove key's value; returns it, or NULL. */
void *
itab_del(struct itab *tab, int key)
{
	size_t i;
	void *val;

	if (tab->cap == 0)
		return NULL;
	i = itab_slot(tab, key);
	if ((val = tab->slots[i].val) != NULL)
		itab_del_at(tab, i);
	return val;
}

/* Remove (and release) every value the predicate picks. Revisiting a slot
 * after a deletion covers entries shifted into it. */
void
itab_sweep(struct itab *tab, bool (*pick)(const void *val, const void *arg), const void *arg,
           void (*release)(void *val))
{
	size_t i = 0;

	while (i < tab->cap) {
		void *val = tab->slots[i].val;

		if (val != NULL && pick(val, arg)) {
			itab_del_at(tab, i);
			release(val);
			continue;
		}
		i++;
	}
}
