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
	size_t n = 0, nm = 0, capm = 0, slots = 16, mask, picked = 0, below = 0;
	bool one_pid = group & (HIST_GROUP_PID | HIST_GROUP_TID),
	     numeric =
	         key == HIST_SORT_OVERHEAD || key == HIST_SORT_CHILDREN || key == HIST_SORT_SAMPLES;
	struct group_top *g = xmalloc((src->n ? src->n : 1) * sizeof *g);
	struct hist_row *merged = NULL;
	uint64_t *pids = NULL, cut = 0;
	uint32_t *tab;

	while (slots < 2 * src->n + 1)
		slots *= 2;
	mask = slots - 1;
	tab = xcalloc(slots, sizeof *tab);
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
			int first_pid = rows[t->first].copy.key.pid;
			struct hist_row *m;
			bool new_pid = false;

			if (t->merged < 0) {
				/* its second row: the first copied to be merged into */
				if (nm == capm) {
					capm = capm ? 2 * capm : 64;
					merged = xrealloc(merged, capm * sizeof *merged);
				}
				merged[nm] = rows[t->first];
				merged[nm].members = merged[nm].procs = 1;
				merged[nm].mixed = 0;
				t->merged = (int32_t)nm++;
			}
			m = &merged[t->merged];
			if (!one_pid && (m->procs > 1 || kk->pid != first_pid)) {
				if (pids == NULL)
					pids = xcalloc(slots, sizeof *pids);
				if (m->procs == 1)
					(void)pid_add(pids, mask, (size_t)(t - g), first_pid);
				new_pid = pid_add(pids, mask, (size_t)(t - g), kk->pid);
			}
			row_merge(m, &rows[i], new_pid, &t->best);
		}
	}
	free(tab);
	free(pids);
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
			r->members = r->procs = 1;
			r->mixed = 0;
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
