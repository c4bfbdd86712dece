/* leaftab: entries in a pool of nodes (a free list), found by (pid, ip)
 * through one open-addressing table and by pid through another that
 * holds the head of the process's chain of nodes. Both tables use linear
 * probing with backward-shift deletion, so a process's death leaves no
 * tombstones behind and probes stay short however many come and go. */
#include "config.h"

#include <stdlib.h>

#include "tracetop/leaftab.h"
#include "tracetop/util.h"

#define NONE UINT32_MAX

/* One judged leaf, on its process's chain. */
struct leaf_node {
	uint64_t ip;
	uint32_t pid;
	uint32_t next; /* the next node of pid, or NONE (also: the free list) */
	uint8_t word;
};

/* A process with judged leaves: the head of its chain. */
struct leaf_proc {
	uint32_t pid;
	uint32_t head; /* NONE: a free slot */
};

struct leaftab {
	struct leaf_node *nodes;
	uint32_t max, count, free;
	uint32_t *keys;          /* node index + 1 by (pid, ip); 0: free */
	struct leaf_proc *procs; /* by pid */
	uint32_t mask;           /* of both tables: at least twice max slots */
};

/* The home slot of (pid, ip). */
static uint32_t
key_home(const struct leaftab *t, uint32_t pid, uint64_t ip)
{
	return (uint32_t)(hash_u64(hash_mix(hash_mix(HASH_SEED, pid), ip)) & t->mask);
}

/* The home slot of pid. */
static uint32_t
proc_home(const struct leaftab *t, uint32_t pid)
{
	return (uint32_t)(hash_u64(pid) & t->mask);
}

/* A table for max entries. */
struct leaftab *
leaftab_new(uint32_t max)
{
	struct leaftab *t = xcalloc(1, sizeof *t);
	uint32_t slots = 16;

	while (slots < 2 * (uint64_t)max)
		slots *= 2;
	t->max = max;
	t->mask = slots - 1;
	t->nodes = xcalloc(max, sizeof *t->nodes);
	t->keys = xcalloc(slots, sizeof *t->keys);
	t->procs = xcalloc(slots, sizeof *t->procs);
	for (uint32_t i = 0; i < slots; i++)
		t->procs[i].head = NONE;
	for (uint32_t i = 0; i < max; i++)
		t->nodes[i].next = i + 1 < max ? i + 1 : NONE;
	t->free = 0;
	return t;
}

/* Free the table. */
void
leaftab_free(struct leaftab *t)
{
	if (t == NULL)
		return;
	free(t->nodes);
	free(t->keys);
	free(t->procs);
	free(t);
}

/* The key slot holding (pid, ip), or the free slot ending its probe. */
static uint32_t
key_slot(const struct leaftab *t, uint32_t pid, uint64_t ip)
{
	uint32_t i = key_home(t, pid, ip);

	for (; t->keys[i] != 0; i = (i + 1) & t->mask) {
		const struct leaf_node *n = &t->nodes[t->keys[i] - 1];

		if (n->pid == pid && n->ip == ip)
			break;
	}
	return i;
}

/* The proc slot holding pid, or the free slot ending its probe. */
static uint32_t
proc_slot(const struct leaftab *t, uint32_t pid)
{
	uint32_t i = proc_home(t, pid);

	while (t->procs[i].head != NONE && t->procs[i].pid != pid)
		i = (i + 1) & t->mask;
	return i;
}

/* Whether slot j, whose entry's home is h, may fill the hole at i left
 * by a deletion: h is not cyclically within (i, j]. */
static bool
may_shift(uint32_t i, uint32_t j, uint32_t h)
{
	return i <= j ? (h <= i || h > j) : (h <= i && h > j);
}

/* Empty key slot i, moving later entries of its probe run back. */
static void
key_delete(struct leaftab *t, uint32_t i)
{
	uint32_t j = i;

	t->keys[i] = 0;
	for (;;) {
		const struct leaf_node *n;

		j = (j + 1) & t->mask;
		if (t->keys[j] == 0)
			return;
		n = &t->nodes[t->keys[j] - 1];
		if (may_shift(i, j, key_home(t, n->pid, n->ip))) {
			t->keys[i] = t->keys[j];
			t->keys[j] = 0;
			i = j;
		}
	}
}

/* Empty proc slot i, moving later entries of its probe run back. */
static void
proc_delete(struct leaftab *t, uint32_t i)
{
	uint32_t j = i;

	t->procs[i].head = NONE;
	for (;;) {
		j = (j + 1) & t->mask;
		if (t->procs[j].head == NONE)
			return;
		if (may_shift(i, j, proc_home(t, t->procs[j].pid))) {
			t->procs[i] = t->procs[j];
			t->procs[j].head = NONE;
			i = j;
		}
	}
}

/* The word judged for (pid, ip). */
bool
leaftab_find(const struct leaftab *t, uint32_t pid, uint64_t ip, uint8_t *word)
{
	uint32_t i = key_slot(t, pid, ip);

	if (t->keys[i] == 0)
		return false;
	*word = t->nodes[t->keys[i] - 1].word;
	return true;
}

/* Remember word for (pid, ip). */
bool
leaftab_put(struct leaftab *t, uint32_t pid, uint64_t ip, uint8_t word)
{
	uint32_t i = key_slot(t, pid, ip), p, k;
	struct leaf_node *n;

	if (t->keys[i] != 0) {
		t->nodes[t->keys[i] - 1].word = word;
		return true;
	}
	if (t->free == NONE)
		return false;
	k = t->free;
	n = &t->nodes[k];
	t->free = n->next;
	p = proc_slot(t, pid);
	*n = (struct leaf_node){.ip = ip, .pid = pid, .next = t->procs[p].head, .word = word};
	t->procs[p] = (struct leaf_proc){.pid = pid, .head = k};
	t->keys[i] = k + 1;
	t->count++;
	return true;
}

/* Drop every entry of pid. */
size_t
leaftab_forget(struct leaftab *t, uint32_t pid, void (*fn)(void *arg, uint64_t ip), void *arg)
{
	uint32_t p = proc_slot(t, pid), k, next;
	size_t dropped = 0;

	if (t->procs[p].head == NONE)
		return 0;
	for (k = t->procs[p].head; k != NONE; k = next) {
		struct leaf_node *n = &t->nodes[k];

		next = n->next;
		if (fn != NULL)
			fn(arg, n->ip);
		key_delete(t, key_slot(t, pid, n->ip));
		n->next = t->free;
		t->free = k;
		t->count--;
		dropped++;
	}
	proc_delete(t, p);
	return dropped;
}

/* Entries held. */
size_t
leaftab_count(const struct leaftab *t)
{
	return t->count;
}
