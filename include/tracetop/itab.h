/* itab: an int-keyed open-addressing table of pointers (linear probing,
 * backward-shift deletion), as the process model keeps its pids and tids;
 * val == NULL marks an empty slot. A zeroed struct is an empty table. */
#ifndef TRACETOP_ITAB_H
#define TRACETOP_ITAB_H

#include <stdbool.h>
#include <stddef.h>

struct itab_slot {
	int key;
	void *val;
};

struct itab {
	struct itab_slot *slots;
	size_t cap, used; /* cap is a power of two (or 0) */
};

/* The value for key, or NULL. */
void *itab_get(const struct itab *tab, int key);

/* Set key to val (not NULL); the value it replaces, or NULL. */
void *itab_put(struct itab *tab, int key, void *val);

/* Remove key's value; returns it, or NULL. */
void *itab_del(struct itab *tab, int key);

/* Remove, and hand to release, every value pick picks. */
void itab_sweep(struct itab *tab, bool (*pick)(const void *val, const void *arg), const void *arg,
                void (*release)(void *val));

#endif
