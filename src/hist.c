/* hist: per-key sample counts in an open-addressing (linear probing) table
 * of pointers into a pooled entry store. Entries never move, so the
 * snapshot's row pointers and the table's stay valid; removed entries go to
 * a free list and are reused, so hist_add allocates only when the table or
 * the pool grows. Removal uses backward-shift deletion (no tombstones). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist-impl.h"
#include "tracetop/hist.h"
#include "tracetop/sym-name.h"
#include "tracetop/util.h"

#define TABLE_MIN 256        /* initial slots, a power of two */
#define POOL_FIRST 256       /* entries in the first pool chunk; later ones double */
#define POOL_CHUNK_MAX 65536 /* ... up to this many */
/* Entries below this with no new samples are folded into their process's
 * and object's other functions (hist_key_other): at 0.5 a function sampled
 * once a minute lived 6 refreshes, the table of a flat profile (200,000
 * functions) held 5 times the functions of a refresh, and each pass over
 * it was most of a refresh; their share was lost with them. */
#define FADE_SCORE 1.0

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
	/* the entries of user addresses without a symbol (hist_rekey's,
	 * a JIT's map may name them later): those hist_tick kept, then those
	 * made since; hist_rekey reads it, the next hist_tick makes it again */
	struct hist_node **unres;
	size_t nunres, unres_cap;
	struct hist_entry *faded; /* dropped by the tick, for their other functions */
	size_t nfaded, faded_cap;
};

/* Note an entry of an unnamed user address. */
static void
unres_push(struct hist *h, struct hist_node *n)
{
	if (n->e.key.sym != NULL || n->e.key.kernel || hist_key_other(&n->e.key))
		return;
	if (h->nunres == h->unres_cap) {
		h->unres_cap = h->unres_cap ? 2 * h->unres_cap : 64;
		h->unres = xrealloc(h->unres, h->unres_cap * sizeof *h->unres);
	}
	h->unres[h->nunres++] = n;
}

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
	free(h->unres);
	free(h->faded);
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
		unres_push(h, n);
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

	/* first find them all (those noted, not the whole table): moving one
	 * may grow and rehash the table */
	for (size_t i = 0; i < h->nunres; i++) {
		struct hist_node *nd = h->unres[i];
		struct hist_key k;

		if (nd->next_free != nd || nd->e.key.sym != NULL || nd->e.key.kernel ||
		    hist_key_other(&nd->e.key))
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
	/* the moved entries' nodes are free now, maybe reused below: the
	 * list is stale until the next hist_tick makes it again */
	if (n > 0)
		h->nunres = 0;
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

/* Keep what a dropped entry held, for its other functions. */
static void
fade_push(struct hist *h, const struct hist_entry *e)
{
	if (hist_key_other(&e->key) || (e->score <= 0 && e->children <= 0))
		return; /* the other functions themselves go with what is left */
	if (h->nfaded == h->faded_cap) {
		h->faded_cap = h->faded_cap ? 2 * h->faded_cap : 64;
		h->faded = xrealloc(h->faded, h->faded_cap * sizeof *h->faded);
	}
	h->faded[h->nfaded++] = *e;
}

/* Add the dropped entries to their other functions (made after the walk:
 * a new entry may grow the table); the score they add. */
static double
fade_fold(struct hist *h)
{
	double added = 0;

	for (size_t i = 0; i < h->nfaded; i++) {
		const struct hist_entry *d = &h->faded[i];
		struct hist_key k = d->key;
		struct hist_entry *o;

		k.sym = NULL;
		k.addr = HIST_ADDR_OTHER;
		k.inlined = false;
		o = &hist_node_of(h, &k)->e;
		o->score += d->score;
		o->children += d->children;
		o->total += d->total;
		added += d->score;
	}
	h->nfaded = 0;
	return added;
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
	h->nunres = 0; /* made again from the entries kept */
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
			fade_push(h, e);
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
		unres_push(h, n);
		i = (i + 1) & h->mask;
		left--;
	}
	h->total_score = total + fade_fold(h);
	h->interval_samples = samples;
}

/* Full name of an entry's symbol for display (demangled). */
const char *
hist_sym_name(const struct hist_entry *e)
{
	return e->key.sym != NULL        ? sym_name(e->key.sym)
	       : hist_key_other(&e->key) ? HIST_OTHER_NAME
	                                 : "[unknown]";
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
int
hist_cmp_rows(const void *pa, const void *pb, void *arg)
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
	r->ncomm = r->ncgroup = r->ndso = r->nsym = 0;
	r->total = e->total;
	r->overhead = h->total_score > 0 ? 100.0 * e->score / h->total_score : 0.0;
	r->children = h->total_score > 0 ? 100.0 * e->children / h->total_score : 0.0;
	/* llround for a score >= 0, without needing libm (a recording's
	 * counts can pass what a uint64_t holds) */
	r->samples = e->score < 0x1p64 ? (uint64_t)(e->score + 0.5) : UINT64_MAX;
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
		qsort_r(snap->rows, snap->n, sizeof *snap->rows, hist_cmp_rows,
		        (void *)(keys != NULL ? keys : no_keys));
	/* Own the entries: a frozen display outlives the ticks that free them. */
	for (i = 0; i < snap->n; i++)
		snap->rows[i].entry = &snap->rows[i].copy;
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

/* Put k first, the keys after it (k is not among them: there is room). */
static void
sort_prepend(enum hist_sort keys[HIST_SORT_MAX + 1], enum hist_sort k)
{
	size_t n = 0;

	while (keys[n] != HIST_SORT_END)
		n++;
	memmove(keys + 1, keys, (n + 1) * sizeof *keys);
	keys[0] = k;
}

/* Overhead first unless the keys name a share; children before it. */
void
hist_sort_by_share(enum hist_sort keys[HIST_SORT_MAX + 1], bool children)
{
	if (!hist_sort_has(keys, HIST_SORT_OVERHEAD) && !hist_sort_has(keys, HIST_SORT_SAMPLES) &&
	    !hist_sort_has(keys, HIST_SORT_CHILDREN))
		sort_prepend(keys, HIST_SORT_OVERHEAD);
	if (children && keys[0] == HIST_SORT_OVERHEAD && !hist_sort_has(keys, HIST_SORT_CHILDREN))
		sort_prepend(keys, HIST_SORT_CHILDREN);
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
