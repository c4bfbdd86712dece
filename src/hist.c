/* hist: per-key sample counts in an open-addressing (linear probing) table
 * of pointers into a pooled entry store. Entries never move, so the
 * snapshot's row pointers and the table's stay valid; removed entries go to
 * a free list and are reused, so hist_add allocates only when the table or
 * the pool grows. Removal uses backward-shift deletion (no tombstones). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/hist.h"
#include "tracetop/sym-name.h"
#include "tracetop/util.h"

#define TABLE_MIN 256        /* initial slots, a power of two */
#define POOL_FIRST 256       /* entries in the first pool chunk; later ones double */
#define POOL_CHUNK_MAX 65536 /* ... up to this many */
#define FADE_SCORE 0.5       /* entries below this with no new samples are dropped */

struct hist_node {
	struct hist_entry e;
	struct hist_node *next_free; /* itself while the entry lives */
};

struct hist_slot {
	uint64_t hash;
	struct hist_node *node; /* NULL: empty */
};

struct hist {
	double decay;
	struct hist_slot *tab;
	size_t mask;  /* slots - 1 */
	size_t count; /* live entries */
	struct hist_node **chunks;
	size_t nchunks;
	size_t chunk_size; /* entries in the last chunk */
	size_t chunk_used; /* of which handed out at least once */
	size_t pool_cap;   /* entries in all chunks */
	struct hist_node *free_list;
	double total_score;
	uint64_t interval_samples;
};

/* Hash of all key fields (pointers by identity). */
static inline uint64_t
key_hash(const struct hist_key *k)
{
	uint64_t h = hash_mix(HASH_SEED, (uint64_t)(uint32_t)k->pid | (uint64_t)k->kernel << 32);

	h = hash_mix(h, (uintptr_t)k->comm);
	h = hash_mix(h, (uintptr_t)k->cgroup);
	h = hash_mix(h, (uintptr_t)k->dso);
	h = hash_mix(h, (uintptr_t)k->sym);
	h = hash_mix(h, k->addr);
	h = hash_mix(h, (uint64_t)(uint32_t)k->thread);
	return hash_u64(h);
}

/* Whether two keys are the same (comm, cgroup, DSO and symbol by pointer). */
static inline bool
key_eq(const struct hist_key *a, const struct hist_key *b)
{
	return a->pid == b->pid && a->comm == b->comm && a->cgroup == b->cgroup &&
	       a->dso == b->dso && a->sym == b->sym && a->addr == b->addr &&
	       a->kernel == b->kernel && a->thread == b->thread;
}

/* The slot holding key, or the empty slot where it would go. */
static inline size_t
find_slot(const struct hist *h, const struct hist_key *key, uint64_t hash)
{
	size_t i;

	for (i = hash & h->mask;; i = (i + 1) & h->mask) {
		const struct hist_slot *s = &h->tab[i];

		if (s->node == NULL || (s->hash == hash && key_eq(&s->node->e.key, key)))
			return i;
	}
}

/* Double the table and re-insert every entry by its stored hash. */
static void
table_grow(struct hist *h)
{
	struct hist_slot *old = h->tab;
	size_t oldn = h->mask + 1, i, j;

	h->mask = oldn * 2 - 1;
	h->tab = xcalloc(oldn * 2, sizeof *h->tab);
	for (i = 0; i < oldn; i++) {
		if (old[i].node == NULL)
			continue;
		for (j = old[i].hash & h->mask; h->tab[j].node != NULL; j = (j + 1) & h->mask)
			;
		h->tab[j] = old[i];
	}
	free(old);
}

/* Empty the slot i, shifting later entries of its cluster back so lookups
 * never cross a hole. */
static void
slot_delete(struct hist *h, size_t i)
{
	size_t j = i, home;

	for (;;) {
		j = (j + 1) & h->mask;
		if (h->tab[j].node == NULL)
			break;
		home = h->tab[j].hash & h->mask;
		/* The entry at j may fill the hole unless its home lies in (i, j]. */
		if (((j - home) & h->mask) >= ((j - i) & h->mask)) {
			h->tab[i] = h->tab[j];
			i = j;
		}
	}
	h->tab[i].node = NULL;
}

/* An unused entry: from the free list, else the pool, growing it by a chunk. */
static struct hist_node *
node_alloc(struct hist *h)
{
	struct hist_node *n = h->free_list;

	if (n != NULL) {
		h->free_list = n->next_free;
		return n;
	}
	if (h->chunk_used == h->chunk_size) {
		h->chunk_size = h->nchunks == 0 ? POOL_FIRST : h->chunk_size * 2;
		if (h->chunk_size > POOL_CHUNK_MAX)
			h->chunk_size = POOL_CHUNK_MAX;
		h->chunks = xrealloc(h->chunks, (h->nchunks + 1) * sizeof *h->chunks);
		h->chunks[h->nchunks++] = xmalloc(h->chunk_size * sizeof(struct hist_node));
		h->chunk_used = 0;
		h->pool_cap += h->chunk_size;
	}
	return &h->chunks[h->nchunks - 1][h->chunk_used++];
}

/* Create an empty histogram whose scores decay by the given factor per tick. */
struct hist *
hist_new(double decay)
{
	struct hist *h;

	if (!(decay >= 0.0 && decay <= 1.0))
		fatal("hist_new: decay %g outside [0, 1]", decay);
	h = xcalloc(1, sizeof *h);
	h->decay = decay;
	h->mask = TABLE_MIN - 1;
	h->tab = xcalloc(TABLE_MIN, sizeof *h->tab);
	return h;
}

/* Free a histogram and all its entries. */
void
hist_free(struct hist *h)
{
	size_t i;

	if (h == NULL)
		return;
	for (i = 0; i < h->nchunks; i++)
		free(h->chunks[i]);
	free(h->chunks);
	free(h->tab);
	free(h);
}

/* The entry of key, created (zeroed) when new. */
static struct hist_node *
hist_node_of(struct hist *h, const struct hist_key *key)
{
	uint64_t hash = key_hash(key);
	size_t i = find_slot(h, key, hash);
	struct hist_node *n = h->tab[i].node;

	if (n == NULL) {
		/* Keep the load under 60 %. */
		if ((h->count + 1) * 5 > (h->mask + 1) * 3) {
			table_grow(h);
			i = find_slot(h, key, hash);
		}
		n = node_alloc(h);
		memset(&n->e, 0, sizeof n->e);
		n->e.key = *key;
		n->next_free = n; /* live: hist_snapshot walks the pool */
		h->tab[i].hash = hash;
		h->tab[i].node = n;
		h->count++;
	}
	return n;
}

/* Count one sample for key: the hot path, no allocation once warmed up. */
void
hist_add(struct hist *h, const struct hist_key *key)
{
	hist_add_n(h, key, 1);
}

/* Count w samples at once for key (an in-kernel aggregate). */
void
hist_add_n(struct hist *h, const struct hist_key *key, uint64_t w)
{
	struct hist_node *n = hist_node_of(h, key);

	n->e.key.tid = key->tid;
	n->e.interval += w;
	n->e.total += w;
}

/* Count one sample for the inclusive (children) time of key's function:
 * it was on the stack. */
void
hist_add_children(struct hist *h, const struct hist_key *key)
{
	hist_add_children_n(h, key, 1);
}

/* Count w samples at once for the inclusive time of key's function. */
void
hist_add_children_n(struct hist *h, const struct hist_key *key, uint64_t w)
{
	hist_node_of(h, key)->e.children_interval += w;
}

/* The entry for key, or NULL. */
const struct hist_entry *
hist_find(const struct hist *h, const struct hist_key *key)
{
	struct hist_node *n = h->tab[find_slot(h, key, key_hash(key))].node;

	return n != NULL ? &n->e : NULL;
}

/* Move the unresolved entries that resolve now under their new keys. */
size_t
hist_rekey(struct hist *h, bool (*resolve)(void *arg, struct hist_key *key), void *arg)
{
	struct hist_entry *moved = NULL;
	struct hist_key *keys = NULL;
	size_t n = 0, cap = 0;

	/* first find them all: moving one may grow and rehash the table */
	for (size_t i = 0; i <= h->mask; i++) {
		struct hist_node *nd = h->tab[i].node;
		struct hist_key k;

		if (nd == NULL || nd->e.key.sym != NULL || nd->e.key.kernel)
			continue;
		k = nd->e.key;
		if (!resolve(arg, &k))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			moved = xrealloc(moved, cap * sizeof *moved);
			keys = xrealloc(keys, cap * sizeof *keys);
		}
		moved[n] = nd->e;
		keys[n++] = k;
	}
	for (size_t j = 0; j < n; j++) {
		size_t i = find_slot(h, &moved[j].key, key_hash(&moved[j].key));
		struct hist_node *nd = h->tab[i].node;

		slot_delete(h, i);
		nd->next_free = h->free_list;
		h->free_list = nd;
		h->count--;
	}
	for (size_t j = 0; j < n; j++) {
		struct hist_entry *e = &hist_node_of(h, &keys[j])->e;

		e->key.tid = moved[j].key.tid;
		e->interval += moved[j].interval;
		e->total += moved[j].total;
		e->score += moved[j].score;
		e->children_interval += moved[j].children_interval;
		e->children += moved[j].children;
	}
	free(moved);
	free(keys);
	return n;
}

/* End an interval: fold it into the scores and drop faded entries. */
void
hist_tick(struct hist *h, bool zero)
{
	size_t start = 0, i, left;
	struct hist_node *n;
	struct hist_entry *e;
	double total = 0;
	uint64_t samples = 0;

	/* Walk from just after an empty slot (the load is < 1, so one exists):
	 * no cluster then wraps past the walk's end, and backward shifts only
	 * move entries not yet visited into the slot being visited. */
	while (h->tab[start].node != NULL)
		start++;
	i = (start + 1) & h->mask;
	for (left = h->mask; left > 0;) {
		n = h->tab[i].node;
		if (n == NULL) {
			i = (i + 1) & h->mask;
			left--;
			continue;
		}
		e = &n->e;
		samples += e->interval;
		e->score = zero ? (double)e->interval : e->score * h->decay + (double)e->interval;
		e->children = zero ? (double)e->children_interval
		                   : e->children * h->decay + (double)e->children_interval;
		/* A pure caller (no self samples) lives on its children share. */
		if (e->score < FADE_SCORE && e->children < FADE_SCORE && e->interval == 0 &&
		    e->children_interval == 0) {
			slot_delete(h, i);
			n->next_free = h->free_list;
			h->free_list = n;
			h->count--;
			continue; /* slot i now holds the next entry, if any */
		}
		e->last = e->interval;
		e->children_last = e->children_interval;
		e->interval = 0;
		e->children_interval = 0;
		total += e->score;
		i = (i + 1) & h->mask;
		left--;
	}
	h->total_score = total;
	h->interval_samples = samples;
}

/* Full name of an entry's symbol for display (demangled). */
const char *
hist_sym_name(const struct hist_entry *e)
{
	return e->key.sym != NULL ? sym_name(e->key.sym) : "[unknown]";
}

/* Ascending string order with NULL after everything. */
static int
cmp_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return (a == NULL) - (b == NULL);
	return strcmp(a, b);
}

/* Three-way comparison of unsigned numbers, ascending. */
static int
cmp_u64(uint64_t a, uint64_t b)
{
	return CMP3(a, b);
}

/* Compare two rows on one sort key. */
static int
cmp_key(const struct hist_row *ra, const struct hist_row *rb, enum hist_sort k)
{
	/* the copies: rows move while they sort, their entry pointers not */
	const struct hist_entry *a = &ra->copy, *b = &rb->copy;
	int c;

	switch (k) {
	case HIST_SORT_OVERHEAD:
		return (ra->overhead < rb->overhead) - (ra->overhead > rb->overhead);
	case HIST_SORT_CHILDREN:
		return (ra->children < rb->children) - (ra->children > rb->children);
	case HIST_SORT_SAMPLES:
		return cmp_u64(rb->samples, ra->samples);
	case HIST_SORT_COMM:
		return cmp_str(a->key.comm, b->key.comm);
	case HIST_SORT_PID:
		return CMP3(a->key.pid, b->key.pid);
	case HIST_SORT_TID:
		return a->key.thread != b->key.thread ? CMP3(a->key.thread, b->key.thread)
		                                      : CMP3(a->key.tid, b->key.tid);
	case HIST_SORT_DSO:
		return cmp_str(a->key.dso ? a->key.dso->name : NULL,
		               b->key.dso ? b->key.dso->name : NULL);
	case HIST_SORT_SYM:
		/* the same symbol: the same name, without reading it */
		c = a->key.sym == b->key.sym
		        ? 0
		        : strcmp(ra->sym_name ? ra->sym_name : hist_sym_name(a),
		                 rb->sym_name ? rb->sym_name : hist_sym_name(b));
		return c != 0 ? c : cmp_u64(a->key.addr, b->key.addr);
	case HIST_SORT_CGROUP:
		c = cmp_str(a->key.cgroup ? a->key.cgroup->name : NULL,
		            b->key.cgroup ? b->key.cgroup->name : NULL);
		return c != 0 ? c
		              : cmp_str(a->key.cgroup ? a->key.cgroup->path : NULL,
		                        b->key.cgroup ? b->key.cgroup->path : NULL);
	case HIST_SORT_END:
		break;
	}
	return 0;
}

/* Tie-breakers after the user's keys, so the order never depends on the table. */
static const enum hist_sort tie_keys[] = {
    HIST_SORT_OVERHEAD, HIST_SORT_SYM,    HIST_SORT_PID, HIST_SORT_COMM,
    HIST_SORT_DSO,      HIST_SORT_CGROUP, HIST_SORT_END,
};

/* qsort_r comparator: the user's keys, then the tie-breakers, then the kernel flag. */
static int
cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct hist_row *a = pa, *b = pb;
	const enum hist_sort *keys = arg;
	int c;

	for (; *keys != HIST_SORT_END; keys++)
		if ((c = cmp_key(a, b, *keys)) != 0)
			return c;
	for (keys = tie_keys; *keys != HIST_SORT_END; keys++)
		if ((c = cmp_key(a, b, *keys)) != 0)
			return c;
	return (int)a->copy.key.kernel - (int)b->copy.key.kernel;
}

const enum hist_sort hist_unsorted[] = {HIST_SORT_END};

/* Entries handed out in pool chunk c (chunks double up to a cap). */
static size_t
pool_chunk_len(const struct hist *h, size_t c)
{
	size_t len = POOL_FIRST;

	if (c + 1 == h->nchunks)
		return h->chunk_used;
	for (size_t i = 0; i < c && len < POOL_CHUNK_MAX; i++)
		len *= 2;
	return len < POOL_CHUNK_MAX ? len : POOL_CHUNK_MAX;
}

/* Fill snapshot row r from entry e; its symbol's name only when named
 * (for a sort: a comparison reads it then). */
static void
snapshot_row(const struct hist *h, struct hist_row *r, const struct hist_entry *e, bool named)
{
	r->copy = *e;
	r->members = r->procs = 1;
	r->mixed = 0;
	r->total = e->total;
	r->overhead = h->total_score > 0 ? 100.0 * e->score / h->total_score : 0.0;
	r->children = h->total_score > 0 ? 100.0 * e->children / h->total_score : 0.0;
	/* llround for a score >= 0, without needing libm. */
	r->samples = (uint64_t)(e->score + 0.5);
	/* once per row, not per comparison: with tens of thousands of rows
	 * (system-wide on a busy machine), the names the ties of the sort
	 * read were most of a refresh's CPU; unsorted rows go without
	 * (cmp_key reads it when missing) */
	r->sym_name = named ? hist_sym_name(e) : NULL;
}

/* Fill snap with the (filtered) entries sorted by keys, reusing its rows. */
void
hist_snapshot(struct hist *h, const enum hist_sort *keys,
              bool (*filter)(const struct hist_entry *, void *), void *arg,
              struct hist_snapshot *snap)
{
	static const enum hist_sort no_keys[] = {HIST_SORT_END};
	const struct hist_entry *e;
	size_t i;

	if (snap->cap < h->count) {
		snap->cap = h->count > snap->cap * 2 ? h->count : snap->cap * 2;
		snap->rows = xrealloc(snap->rows, snap->cap * sizeof *snap->rows);
	}
	snap->n = 0;
	/* in pool order, not the table's: an entry keeps its place there for
	 * its life, so rows that tie stay in the same order at every refresh
	 * for a front end that sorts them itself */
	for (size_t c = 0; c < h->nchunks; c++)
		for (size_t k = 0; k < pool_chunk_len(h, c); k++) {
			struct hist_node *nd = &h->chunks[c][k];

			if (nd->next_free != nd)
				continue;
			e = &nd->e;
			if (filter != NULL && !filter(e, arg))
				continue;
			snapshot_row(h, &snap->rows[snap->n++], e, keys != hist_unsorted);
		}
	snap->total_score = h->total_score;
	snap->interval_samples = h->interval_samples;
	if (keys != hist_unsorted)
		qsort_r(snap->rows, snap->n, sizeof *snap->rows, cmp_rows,
		        (void *)(keys != NULL ? keys : no_keys));
	/* Own the entries: a frozen display outlives the ticks that free them. */
	for (i = 0; i < snap->n; i++)
		snap->rows[i].entry = &snap->rows[i].copy;
}

/* Three-way comparison of two keys on the fields of grouping g, by
 * identity (interned pointers). */
static int
cmp_group_fields(const struct hist_key *a, const struct hist_key *b, unsigned g)
{
	if ((g & HIST_GROUP_COMM) && a->comm != b->comm)
		return CMP3((uintptr_t)a->comm, (uintptr_t)b->comm);
	if ((g & (HIST_GROUP_PID | HIST_GROUP_TID)) && a->pid != b->pid)
		return CMP3(a->pid, b->pid);
	if ((g & HIST_GROUP_TID) && a->thread != b->thread)
		return CMP3(a->thread, b->thread);
	if ((g & HIST_GROUP_CGROUP) && a->cgroup != b->cgroup)
		return CMP3((uintptr_t)a->cgroup, (uintptr_t)b->cgroup);
	if ((g & HIST_GROUP_DSO) && a->dso != b->dso)
		return CMP3((uintptr_t)a->dso, (uintptr_t)b->dso);
	if ((g & HIST_GROUP_SYM) && (a->sym != b->sym || a->addr != b->addr ||
	                             a->kernel != b->kernel || a->inlined != b->inlined))
		return a->sym != b->sym         ? CMP3((uintptr_t)a->sym, (uintptr_t)b->sym)
		       : a->addr != b->addr     ? CMP3(a->addr, b->addr)
		       : a->kernel != b->kernel ? a->kernel - b->kernel
		                                : a->inlined - b->inlined;
	return 0;
}

/* Hash of a key's fields of grouping g (pointers by identity): equal
 * for keys cmp_group_fields finds equal. */
static uint64_t
group_hash(const struct hist_key *k, unsigned g)
{
	uint64_t h = HASH_SEED;

	if (g & HIST_GROUP_COMM)
		h = hash_mix(h, (uintptr_t)k->comm);
	if (g & (HIST_GROUP_PID | HIST_GROUP_TID))
		h = hash_mix(h, (uint64_t)(uint32_t)k->pid);
	if (g & HIST_GROUP_TID)
		h = hash_mix(h, (uint64_t)(uint32_t)k->thread);
	if (g & HIST_GROUP_CGROUP)
		h = hash_mix(h, (uintptr_t)k->cgroup);
	if (g & HIST_GROUP_DSO)
		h = hash_mix(h, (uintptr_t)k->dso);
	if (g & HIST_GROUP_SYM) {
		h = hash_mix(h, (uintptr_t)k->sym);
		h = hash_mix(h, k->addr);
		h = hash_mix(h, (uint64_t)k->kernel | (uint64_t)k->inlined << 1);
	}
	return hash_u64(h);
}

/* The HIST_GROUP_* fields on which two keys differ. */
static unsigned
key_diff(const struct hist_key *a, const struct hist_key *b)
{
	return (a->comm != b->comm ? HIST_GROUP_COMM : 0) |
	       (a->pid != b->pid ? HIST_GROUP_PID : 0) | (a->tid != b->tid ? HIST_GROUP_TID : 0) |
	       (a->cgroup != b->cgroup ? HIST_GROUP_CGROUP : 0) |
	       (a->dso != b->dso ? HIST_GROUP_DSO : 0) |
	       (a->sym != b->sym || a->addr != b->addr || a->kernel != b->kernel ? HIST_GROUP_SYM
	                                                                         : 0);
}

/* Add row m's counts into row r (same group; new_pid: m's process is
 * not among r's yet); r takes m's key when m weighs more than *best, the
 * heaviest member so far (on a tie, the lower pid's). */
static void
row_merge(struct hist_row *r, const struct hist_row *m, bool new_pid, double *best)
{
	struct hist_entry *e = &r->copy;
	const struct hist_entry *f = &m->copy;

	r->mixed |= key_diff(&e->key, &f->key);
	r->procs += new_pid;
	r->members++;
	r->overhead += m->overhead;
	r->children += m->children;
	r->samples += m->samples;
	r->total += m->total;
	if (f->score > *best || (f->score == *best && f->key.pid < e->key.pid)) {
		e->key = f->key;
		*best = f->score;
	}
	e->interval += f->interval;
	e->total += f->total;
	e->score += f->score;
	e->children_interval += f->children_interval;
	e->children += f->children;
	/* the group's interval is its members' (history, recordings) */
	e->last += f->last;
	e->children_last += f->children_last;
}

/* Whether (group gi, pid) is new to the set of slots (mask + 1 of them,
 * each (gi + 1) << 32 | pid, 0 free); it is in the set after. */
static bool
pid_add(uint64_t *set, size_t mask, size_t gi, int pid)
{
	uint64_t key = (uint64_t)(gi + 1) << 32 | (uint32_t)pid;
	size_t i = hash_u64(key) & mask;

	for (; set[i] != 0; i = (i + 1) & mask)
		if (set[i] == key)
			return false;
	set[i] = key;
	return true;
}

/* Merge the rows src[0..n) that keep accepts (NULL: all) and agree on
 * the grouping into dst->rows (which may be src: a group's row is
 * written at or before the rows read), setting dst->n. One pass through
 * a hash of the groups, not a sort: the screen merges every row of a
 * refresh. */
static void
group_rows(struct hist_snapshot *dst, const struct hist_row *src, size_t nsrc,
           bool (*keep)(const struct hist_entry *, void *), void *arg, unsigned group)
{
	size_t n = 0, slots = 16, mask;
	bool one_pid = group & (HIST_GROUP_PID | HIST_GROUP_TID);
	uint32_t *tab;         /* group index + 1 by the hash of its fields; 0: free */
	uint64_t *pids = NULL; /* the (group, pid) seen, made at a group's second pid */
	double *best;          /* each group's heaviest member's score */
	int *first;            /* and its first member's pid */

	while (slots < 2 * nsrc + 1)
		slots *= 2;
	mask = slots - 1;
	tab = xcalloc(slots, sizeof *tab);
	best = xmalloc((nsrc ? nsrc : 1) * sizeof *best);
	first = xmalloc((nsrc ? nsrc : 1) * sizeof *first);
	for (size_t i = 0; i < nsrc; i++) {
		const struct hist_key *k = &src[i].copy.key;
		size_t j;

		if (keep != NULL && !keep(&src[i].copy, arg))
			continue;
		j = group_hash(k, group) & mask;
		while (tab[j] != 0 &&
		       cmp_group_fields(&dst->rows[tab[j] - 1].copy.key, k, group) != 0)
			j = (j + 1) & mask;
		if (tab[j] != 0) {
			size_t gi = tab[j] - 1;
			bool new_pid = false;

			/* the set of a group's pids is made at its first member of
			 * another process: most groups have one row */
			if (!one_pid && (dst->rows[gi].procs > 1 || k->pid != first[gi])) {
				if (pids == NULL)
					pids = xcalloc(slots, sizeof *pids);
				if (dst->rows[gi].procs == 1)
					(void)pid_add(pids, mask, gi, first[gi]);
				new_pid = pid_add(pids, mask, gi, k->pid);
			}
			row_merge(&dst->rows[gi], &src[i], new_pid, &best[gi]);
			continue;
		}
		if (&dst->rows[n] != &src[i])
			dst->rows[n] = src[i];
		dst->rows[n].members = dst->rows[n].procs = 1;
		dst->rows[n].mixed = 0;
		best[n] = dst->rows[n].copy.score;
		first[n] = dst->rows[n].copy.key.pid;
		tab[j] = (uint32_t)++n;
	}
	free(tab);
	free(pids);
	free(best);
	free(first);
	dst->n = n;
	for (size_t i = 0; i < n; i++)
		dst->rows[i].entry = &dst->rows[i].copy;
}

/* Merge rows that agree on the grouping, then sort by keys (hist_unsorted:
 * the groups in the order of their first rows). */
void
hist_group(struct hist_snapshot *snap, unsigned group, const enum hist_sort *keys)
{
	static const enum hist_sort no_keys[] = {HIST_SORT_END};

	group_rows(snap, snap->rows, snap->n, NULL, NULL, group);
	if (keys != hist_unsorted) {
		for (size_t i = 0; i < snap->n; i++) /* named once, for the sort */
			if (snap->rows[i].sym_name == NULL)
				snap->rows[i].sym_name = hist_sym_name(&snap->rows[i].copy);
		qsort_r(snap->rows, snap->n, sizeof *snap->rows, cmp_rows,
		        (void *)(keys != NULL ? keys : no_keys));
		for (size_t i = 0; i < snap->n; i++)
			snap->rows[i].entry = &snap->rows[i].copy;
	}
}

/* The rows of src that keep accepts, merged by the grouping into dst (see
 * hist.h). */
void
hist_group_from(struct hist_snapshot *dst, const struct hist_snapshot *src,
                bool (*keep)(const struct hist_entry *, void *), void *arg, unsigned group)
{
	if (dst->cap < src->n) {
		dst->cap = src->n;
		dst->rows = xrealloc(dst->rows, dst->cap * sizeof *dst->rows);
	}
	group_rows(dst, src->rows, src->n, keep, arg, group);
	dst->total_score = src->total_score;
	dst->interval_samples = src->interval_samples;
}

/* A row's value of a numeric sort key as an unsigned number in the same
 * order (a non-negative double's bits are). */
static uint64_t
radix_key(const struct hist_row *r, enum hist_sort k)
{
	double d = k == HIST_SORT_OVERHEAD ? r->overhead : r->children;
	uint64_t u;

	if (k == HIST_SORT_SAMPLES)
		return r->samples;
	if (!(d > 0)) /* also NaN, -0 */
		return 0;
	memcpy(&u, &d, sizeof u);
	return u;
}

/* Put row ix[i] at i for every i, in place, cycle by cycle (ix is
 * consumed: each place moved is marked by ix[j] = j). */
static void
rows_permute(struct hist_row *rows, uint32_t *ix, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct hist_row tmp;
		size_t j = i;

		if (ix[i] == i)
			continue;
		tmp = rows[i];
		while (ix[j] != i) {
			size_t from = ix[j];

			rows[j] = rows[from];
			ix[j] = (uint32_t)j;
			j = from;
		}
		rows[j] = tmp;
		ix[j] = (uint32_t)j;
	}
}

/* The k-th smallest (0-based) of the n keys in a, which it reorders: a
 * quickselect (expected linear), pivots the median of three. */
static uint64_t
select_kth(uint64_t *a, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, want = (ptrdiff_t)k;

	while (lo < hi) {
		uint64_t x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi], t;
		uint64_t pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
		ptrdiff_t i = lo, j = hi;

		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j) {
				t = a[i], a[i] = a[j], a[j] = t;
				i++;
				j--;
			}
		}
		/* [lo, j] <= pivot <= [i, hi], j < i */
		if (want <= j)
			hi = j;
		else if (want >= i)
			lo = i;
		else
			return a[want];
	}
	return a[want];
}

/* Keep only the k rows first by one numeric key (see hist.h). */
bool
hist_top_by(struct hist_snapshot *snap, enum hist_sort key, bool descending, size_t k)
{
	uint64_t *keys, cut;
	size_t n = snap->n, below = 0, kept = 0;

	if (key != HIST_SORT_OVERHEAD && key != HIST_SORT_CHILDREN && key != HIST_SORT_SAMPLES)
		return false;
	if (k < n) {
		keys = xmalloc(n * sizeof *keys);
		for (size_t i = 0; i < n; i++) {
			uint64_t v = radix_key(&snap->rows[i], key);

			keys[i] = descending ? ~v : v;
		}
		cut = select_kth(keys, n, k - 1); /* the k-th's key: those before it all stay */
		for (size_t i = 0; i < n; i++)
			below += keys[i] < cut;
		free(keys);
		/* rows in their order: all before the cut, then the first of its
		 * ties until there are k */
		for (size_t i = 0; i < n; i++) {
			uint64_t v = radix_key(&snap->rows[i], key);

			v = descending ? ~v : v;
			if (v > cut || (v == cut && below >= k))
				continue;
			below += v == cut;
			if (kept != i)
				snap->rows[kept] = snap->rows[i];
			kept++;
		}
		snap->n = kept;
	}
	return hist_sort_by(snap, key, descending);
}

/* Sort the rows by one numeric key (overhead, children or samples),
 * equal rows in the order they have: a radix sort in 11-bit digits, each
 * a counting pass over the rows' keys (linear in the rows, where a
 * comparison sort of the screen's tens of thousands was not), then one
 * move of each row. False for another key. */
bool
hist_sort_by(struct hist_snapshot *snap, enum hist_sort key, bool descending)
{
	enum { BITS = 11, DIGITS = 1 << BITS };
	size_t n = snap->n, cnt[DIGITS];
	uint64_t *k, *k2, *kbase;
	uint32_t *ix, *ix2, *ibase;

	if (key != HIST_SORT_OVERHEAD && key != HIST_SORT_CHILDREN && key != HIST_SORT_SAMPLES)
		return false;
	if (n < 2)
		return true;
	k = kbase = xmalloc(2 * n * sizeof *k);
	ix = ibase = xmalloc(2 * n * sizeof *ix);
	k2 = k + n;
	ix2 = ix + n;
	for (size_t i = 0; i < n; i++) {
		k[i] = radix_key(&snap->rows[i], key);
		k[i] = descending ? ~k[i] : k[i];
		ix[i] = (uint32_t)i;
	}
	for (unsigned shift = 0; shift < 64; shift += BITS) {
		size_t sum = 0;
		uint64_t *tk;
		uint32_t *ti;

		memset(cnt, 0, sizeof cnt);
		for (size_t i = 0; i < n; i++)
			cnt[k[i] >> shift & (DIGITS - 1)]++;
		if (cnt[k[0] >> shift & (DIGITS - 1)] == n)
			continue; /* every row has this digit */
		for (size_t d = 0; d < DIGITS; d++) {
			size_t c = cnt[d];

			cnt[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++) {
			size_t at = cnt[k[i] >> shift & (DIGITS - 1)]++;

			k2[at] = k[i];
			ix2[at] = ix[i];
		}
		tk = k, k = k2, k2 = tk;
		ti = ix, ix = ix2, ix2 = ti;
	}
	rows_permute(snap->rows, ix, n);
	for (size_t i = 0; i < n; i++)
		snap->rows[i].entry = &snap->rows[i].copy;
	free(kbase);
	free(ibase);
	return true;
}

/* Free a snapshot's rows and reset it. */
void
hist_snapshot_free(struct hist_snapshot *snap)
{
	free(snap->rows);
	memset(snap, 0, sizeof *snap);
}

/* Sort key names, with aliases. */
static const struct {
	const char *name;
	enum hist_sort key;
} sort_names[] = {
    {"overhead", HIST_SORT_OVERHEAD}, {"samples", HIST_SORT_SAMPLES},
    {"comm", HIST_SORT_COMM},         {"command", HIST_SORT_COMM},
    {"pid", HIST_SORT_PID},           {"dso", HIST_SORT_DSO},
    {"sym", HIST_SORT_SYM},           {"symbol", HIST_SORT_SYM},
    {"children", HIST_SORT_CHILDREN}, {"cgroup", HIST_SORT_CGROUP},
    {"tid", HIST_SORT_TID},           {"thread", HIST_SORT_TID},
};

/* The sort key named by the len bytes at s, or HIST_SORT_END. */
static enum hist_sort
sort_lookup(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sort_names); i++)
		if (strlen(sort_names[i].name) == len && strncmp(sort_names[i].name, s, len) == 0)
			return sort_names[i].key;
	return HIST_SORT_END;
}

/* Parse a comma-separated list of sort keys; keys is untouched on error. */
int
hist_parse_sort(const char *s, enum hist_sort keys[HIST_SORT_MAX + 1], struct tt_err *err)
{
	enum hist_sort out[HIST_SORT_MAX + 1], k;
	bool seen[HIST_SORT_MAX] = {false};
	const char *p = s, *end;
	char word[64];
	size_t n = 0, len;

	if (s == NULL || s[strspn(s, " \t")] == '\0')
		return err_set(err, "empty sort key list (use " HIST_SORT_NAMES ")");
	for (;;) {
		p += strspn(p, " \t");
		end = strchrnul(p, ',');
		for (len = (size_t)(end - p); len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t');)
			len--;
		str_escape(word, sizeof word, p, len);
		if (len == 0)
			return err_set(err, "empty sort key in list");
		k = sort_lookup(p, len);
		if (k == HIST_SORT_END)
			return err_set(err, "unknown sort key '%s' (use " HIST_SORT_NAMES ")",
			               word);
		if (seen[k])
			return err_set(err, "duplicate sort key '%s'", word);
		seen[k] = true;
		out[n++] = k;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	out[n] = HIST_SORT_END;
	memcpy(keys, out, (n + 1) * sizeof *out);
	return 0;
}

/* The grouping fields of the sort keys, in HIST_GROUP_* bits. */
static const struct {
	enum hist_sort key;
	unsigned group;
	const char *name;
} group_keys[] = {
    {HIST_SORT_COMM, HIST_GROUP_COMM, "comm"}, {HIST_SORT_PID, HIST_GROUP_PID, "pid"},
    {HIST_SORT_TID, HIST_GROUP_TID, "tid"},    {HIST_SORT_CGROUP, HIST_GROUP_CGROUP, "cgroup"},
    {HIST_SORT_DSO, HIST_GROUP_DSO, "dso"},    {HIST_SORT_SYM, HIST_GROUP_SYM, "sym"},
};

/* The grouping the sort keys name (the default when they name none). */
unsigned
hist_sort_group(const enum hist_sort *keys)
{
	unsigned g = 0;

	for (size_t i = 0; i < ARRAY_SIZE(group_keys); i++)
		if (hist_sort_has(keys, group_keys[i].key))
			g |= group_keys[i].group;
	return g != 0 ? g : HIST_GROUP_DEFAULT;
}

/* "comm,dso,sym": the grouping's field names in a fixed order. */
const char *
hist_group_name(unsigned group, char *buf, size_t len)
{
	size_t o = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(group_keys); i++)
		if ((group & group_keys[i].group) && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "",
			                      group_keys[i].name);
	return buf;
}

/* Whether the sort keys hold k. */
bool
hist_sort_has(const enum hist_sort *keys, enum hist_sort k)
{
	for (; keys != NULL && *keys != HIST_SORT_END; keys++)
		if (*keys == k)
			return true;
	return false;
}

/* Live entries. */
size_t
hist_count(const struct hist *h)
{
	return h->count;
}

/* Entries the pool holds, live or free: grows only when the pool does. */
size_t
hist_capacity(const struct hist *h)
{
	return h->pool_cap;
}
