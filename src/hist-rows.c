/* hist-rows: what is done to a snapshot's rows after hist_snapshot: the
 * merge of the rows that agree on a grouping (hist_group, through a hash
 * of the groups), and the linear sort and selection by a numeric key the
 * screen uses (hist_sort_by, hist_top_by); split from hist.c. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hist-impl.h"
#include "tracetop/hist.h"
#include "tracetop/util.h"

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

/* The HIST_GROUP_* fields on which two keys differ (and HIST_MIXED_KIND). */
static unsigned
key_diff(const struct hist_key *a, const struct hist_key *b)
{
	return (a->comm != b->comm ? HIST_GROUP_COMM : 0) |
	       (a->pid != b->pid ? HIST_GROUP_PID : 0) | (a->tid != b->tid ? HIST_GROUP_TID : 0) |
	       (a->cgroup != b->cgroup ? HIST_GROUP_CGROUP : 0) |
	       (a->dso != b->dso ? HIST_GROUP_DSO : 0) |
	       (a->sym != b->sym || a->addr != b->addr || a->kernel != b->kernel ? HIST_GROUP_SYM
	                                                                         : 0) |
	       (a->kernel != b->kernel ? HIST_MIXED_KIND : 0);
}

/* Whether keys a and b fall in the same row of grouping g. */
bool
hist_same_group(const struct hist_key *a, const struct hist_key *b, unsigned g)
{
	return cmp_group_fields(a, b, g) == 0;
}

/* A row standing for itself alone, before any merge. */
static void
row_single(struct hist_row *r)
{
	r->members = r->procs = 1;
	r->mixed = 0;
	r->ncomm = r->ncgroup = r->ndso = r->nsym = 0;
}

/* The values a merge has met in the groups whose members differ, as
 * (group, field, value) in an open-addressed table that grows: what
 * counts a group's processes and its distinct commands, cgroups, objects
 * and functions. Most groups have one member and never enter it. */
struct gseen {
	uint64_t *slot; /* two words a slot: (group + 1) << 3 | field, value; 0: free */
	size_t used, mask;
};

/* The fields whose distinct values a merged row counts, and where. */
static const unsigned counted_fields[] = {HIST_GROUP_PID, HIST_GROUP_COMM, HIST_GROUP_CGROUP,
                                          HIST_GROUP_DSO, HIST_GROUP_SYM};

/* The value of a key's field f (one of counted_fields) as one word. */
static uint64_t
field_value(const struct hist_key *k, unsigned f)
{
	switch (f) {
	case HIST_GROUP_PID:
		return (uint32_t)k->pid;
	case HIST_GROUP_COMM:
		return (uintptr_t)k->comm;
	case HIST_GROUP_CGROUP:
		return (uintptr_t)k->cgroup;
	case HIST_GROUP_DSO:
		return (uintptr_t)k->dso;
	default:
		return group_hash(k, HIST_GROUP_SYM);
	}
}

/* The counter of a merged row's distinct values of field i of counted_fields. */
static uint32_t *
field_count(struct hist_row *r, size_t i)
{
	uint32_t *c[] = {&r->procs, &r->ncomm, &r->ncgroup, &r->ndso, &r->nsym};

	return c[i];
}

/* Whether (group gi, field i, value v) is new to s; it is in s after. */
static bool
gseen_add(struct gseen *s, size_t gi, size_t i, uint64_t v)
{
	uint64_t tag = (uint64_t)(gi + 1) << 3 | i;
	size_t j;

	if (s->slot == NULL || 2 * (s->used + 1) > s->mask + 1) {
		size_t size = s->slot == NULL ? 32 : 2 * (s->mask + 1);
		struct gseen big = {xcalloc(2 * size, sizeof *s->slot), 0, size - 1};

		for (size_t k = 0; s->slot != NULL && k <= s->mask; k++)
			if (s->slot[2 * k] != 0)
				(void)gseen_add(&big, (s->slot[2 * k] >> 3) - 1, s->slot[2 * k] & 7,
				                s->slot[2 * k + 1]);
		free(s->slot);
		*s = big;
	}
	for (j = hash_u64(tag ^ hash_u64(v)) & s->mask; s->slot[2 * j] != 0; j = (j + 1) & s->mask)
		if (s->slot[2 * j] == tag && s->slot[2 * j + 1] == v)
			return false;
	s->slot[2 * j] = tag;
	s->slot[2 * j + 1] = v;
	s->used++;
	return true;
}

/* Add row m's counts into row r, group gi's merged row; r takes m's key
 * when m weighs more than *best, the heaviest member so far (on a tie,
 * the lower pid's). The fields r's members differ on are counted: at the
 * first that differs, r's key stands for every member before it. */
static void
row_merge(struct hist_row *r, const struct hist_row *m, size_t gi, struct gseen *seen, double *best)
{
	struct hist_entry *e = &r->copy;
	const struct hist_entry *f = &m->copy;
	unsigned diff = key_diff(&e->key, &f->key);

	for (size_t i = 0; i < sizeof counted_fields / sizeof counted_fields[0]; i++) {
		unsigned fl = counted_fields[i];

		if (!(r->mixed & fl) && (diff & fl)) {
			(void)gseen_add(seen, gi, i, field_value(&e->key, fl));
			*field_count(r, i) = 1;
		}
		if (((r->mixed | diff) & fl) && gseen_add(seen, gi, i, field_value(&f->key, fl)))
			++*field_count(r, i);
	}
	r->mixed |= diff;
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

/* The hash table of the groups of n rows (group index + 1 a slot, 0
 * free), at most half full; its mask in *mask. */
static uint32_t *
group_table(size_t n, size_t *mask)
{
	size_t slots = 16;

	while (slots < 2 * n + 1)
		slots *= 2;
	*mask = slots - 1;
	return xcalloc(slots, sizeof(uint32_t));
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
	size_t n = 0, mask;
	uint32_t *tab; /* group index + 1 by the hash of its fields; 0: free */
	struct gseen seen = {0};
	double *best; /* each group's heaviest member's score */

	tab = group_table(nsrc, &mask);
	best = xmalloc((nsrc ? nsrc : 1) * sizeof *best);
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

			row_merge(&dst->rows[gi], &src[i], gi, &seen, &best[gi]);
			continue;
		}
		if (&dst->rows[n] != &src[i])
			dst->rows[n] = src[i];
		row_single(&dst->rows[n]);
		best[n] = dst->rows[n].copy.score;
		tab[j] = (uint32_t)++n;
	}
	free(tab);
	free(seen.slot);
	free(best);
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
		qsort_r(snap->rows, snap->n, sizeof *snap->rows, hist_cmp_rows,
		        (void *)(keys != NULL ? keys : no_keys));
		for (size_t i = 0; i < snap->n; i++)
			snap->rows[i].entry = &snap->rows[i].copy;
	}
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

/* A group being made by hist_group_top: its first row in the source,
 * and its merged row once it has a second. */
struct group_top {
	uint32_t first; /* source row */
	int32_t merged; /* row of the merged rows, or -1 */
	double best;    /* its heaviest member's score */
	uint64_t key;   /* the sort key's value, ~ when descending */
};

/* The rows of src that keep accepts, merged by group, only the k first by
 * key (see hist.h). */
size_t
hist_group_top(struct hist_snapshot *dst, const struct hist_snapshot *src,
               bool (*keep)(const struct hist_entry *, void *), void *arg, unsigned group,
               enum hist_sort key, bool descending, size_t k)
{
	const struct hist_row *rows = src->rows;
	size_t n = 0, nm = 0, capm = 0, mask, picked = 0, below = 0;
	bool numeric =
	    key == HIST_SORT_OVERHEAD || key == HIST_SORT_CHILDREN || key == HIST_SORT_SAMPLES;
	struct group_top *g = xmalloc((src->n ? src->n : 1) * sizeof *g);
	struct hist_row *merged = NULL;
	uint64_t cut = 0;
	uint32_t *tab;
	struct gseen seen = {0};

	tab = group_table(src->n, &mask);
	for (size_t i = 0; i < src->n; i++) {
		const struct hist_key *kk = &rows[i].copy.key;
		size_t j;

		if (keep != NULL && !keep(&rows[i].copy, arg))
			continue;
		j = group_hash(kk, group) & mask;
		while (tab[j] != 0 &&
		       cmp_group_fields(&rows[g[tab[j] - 1].first].copy.key, kk, group) != 0)
			j = (j + 1) & mask;
		if (tab[j] == 0) {
			g[n] = (struct group_top){
			    .first = (uint32_t)i, .merged = -1, .best = rows[i].copy.score};
			tab[j] = (uint32_t)++n;
			continue;
		}
		{
			struct group_top *t = &g[tab[j] - 1];

			if (t->merged < 0) {
				/* its second row: the first copied to be merged into */
				if (nm == capm) {
					capm = capm ? 2 * capm : 64;
					merged = xrealloc(merged, capm * sizeof *merged);
				}
				merged[nm] = rows[t->first];
				row_single(&merged[nm]);
				t->merged = (int32_t)nm++;
			}
			row_merge(&merged[t->merged], &rows[i], (size_t)(t - g), &seen, &t->best);
		}
	}
	free(tab);
	free(seen.slot);
	/* which groups stay: those before the k-th's key, then its ties in
	 * order until there are k */
	if (numeric && k > 0 && k < n) {
		uint64_t *keys = xmalloc(n * sizeof *keys);

		for (size_t i = 0; i < n; i++) {
			const struct hist_row *r =
			    g[i].merged >= 0 ? &merged[g[i].merged] : &rows[g[i].first];

			g[i].key = radix_key(r, key);
			g[i].key = descending ? ~g[i].key : g[i].key;
			keys[i] = g[i].key;
		}
		cut = select_kth(keys, n, k - 1);
		for (size_t i = 0; i < n; i++)
			below += keys[i] < cut;
		free(keys);
	} else {
		k = n;
	}
	if (dst->cap < k) {
		dst->cap = k;
		dst->rows = xrealloc(dst->rows, dst->cap * sizeof *dst->rows);
	}
	for (size_t i = 0; i < n && picked < k; i++) {
		struct hist_row *r = &dst->rows[picked];

		if (k < n && (g[i].key > cut || (g[i].key == cut && below >= k)))
			continue;
		below += k < n && g[i].key == cut;
		if (g[i].merged >= 0) {
			*r = merged[g[i].merged];
		} else {
			*r = rows[g[i].first];
			row_single(r);
		}
		r->entry = &r->copy;
		picked++;
	}
	free(g);
	free(merged);
	dst->n = picked;
	dst->total_score = src->total_score;
	dst->interval_samples = src->interval_samples;
	if (numeric)
		(void)hist_sort_by(dst, key, descending);
	return n;
}
