/* latency-hist: log2 histograms of nanoseconds and the per-thread pairing
 * of entries and exits that feeds them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/latency.h"
#include "tracetop/util.h"

/* Empty h. */
void
lat_hist_reset(struct lat_hist *h)
{
	memset(h, 0, sizeof *h);
	h->min = UINT64_MAX;
}

/* 0 -> 0, [2^(k-1), 2^k) -> k. */
unsigned
lat_bucket(uint64_t ns)
{
	return ns == 0 ? 0 : 64u - (unsigned)__builtin_clzll(ns);
}

/* The lowest value bucket b holds. */
uint64_t
lat_bucket_low(unsigned b)
{
	if (b == 0)
		return 0;
	if (b >= LAT_BUCKETS)
		return UINT64_MAX;
	return 1ull << (b - 1);
}

/* One value. */
void
lat_hist_add(struct lat_hist *h, uint64_t ns, bool error)
{
	unsigned b = lat_bucket(ns);

	h->buckets[b]++;
	h->sums[b] += ns;
	h->count++;
	h->errors += error;
	h->total += ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

/* A bucket's values at once. */
void
lat_hist_add_bucket(struct lat_hist *h, unsigned b, uint64_t n, uint64_t sum, uint64_t min,
                    uint64_t max, uint64_t errors)
{
	if (n == 0 || b >= LAT_BUCKETS)
		return;
	h->buckets[b] += n;
	h->sums[b] += sum;
	h->count += n;
	h->errors += errors;
	h->total += sum;
	if (min < h->min)
		h->min = min;
	if (max > h->max)
		h->max = max;
}

/* dst += src. */
void
lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	if (src->count == 0)
		return;
	for (unsigned b = 0; b < LAT_BUCKETS; b++) {
		dst->buckets[b] += src->buckets[b];
		dst->sums[b] += src->sums[b];
	}
	dst->count += src->count;
	dst->errors += src->errors;
	dst->total += src->total;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

/* The percentile, interpolated inside its bucket (see the header). */
uint64_t
lat_hist_percentile(const struct lat_hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (h->count == 0)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	rank = (uint64_t)((double)h->count * p / 100.0);
	if ((double)rank < (double)h->count * p / 100.0)
		rank++; /* ceil */
	if (rank == 0)
		rank = 1;
	for (unsigned b = 0; b < LAT_BUCKETS; b++) {
		uint64_t n = h->buckets[b], lo, hi, mean, w;
		double frac;

		if (n == 0 || seen + n < rank) {
			seen += n;
			continue;
		}
		/* the bucket's values lie in [lo, hi], narrowed by min and max */
		lo = lat_bucket_low(b);
		hi = b + 1 < LAT_BUCKETS ? lat_bucket_low(b + 1) - 1 : UINT64_MAX;
		if (lo < h->min)
			lo = h->min;
		if (hi > h->max)
			hi = h->max;
		/* centred on the mean, within [lo, hi] */
		mean = h->sums[b] / n;
		if (mean < lo)
			mean = lo;
		if (mean > hi)
			mean = hi;
		w = mean - lo < hi - mean ? mean - lo : hi - mean;
		lo = mean - w;
		hi = mean + w;
		if (n == 1 || hi <= lo)
			return mean;
		/* the first of its n values at lo, the last at hi */
		frac = (double)(rank - seen - 1) / (double)(n - 1);
		return lo + (uint64_t)(frac * (double)(hi - lo) + 0.5);
	}
	return h->max;
}

/* The first and last non-empty buckets. */
bool
lat_hist_range(const struct lat_hist *h, unsigned *first, unsigned *last)
{
	int f = -1, l = -1;

	for (unsigned b = 0; b < LAT_BUCKETS; b++)
		if (h->buckets[b] != 0) {
			if (f < 0)
				f = (int)b;
			l = (int)b;
		}
	if (f < 0)
		return false;
	*first = (unsigned)f;
	*last = (unsigned)l;
	return true;
}

/* A duration in the unit that keeps three digits. */
void
lat_format_ns(char *buf, size_t len, uint64_t ns)
{
	static const struct {
		uint64_t div;
		const char *unit;
	} units[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "us"}};

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		double v = (double)ns / (double)units[i].div;

		if (ns < units[i].div)
			continue;
		snprintf(buf, len,
		         v < 10    ? "%.2f%s"
		         : v < 100 ? "%.1f%s"
		                   : "%.0f%s",
		         v, units[i].unit);
		return;
	}
	snprintf(buf, len, ns ? "%lluns" : "0", (unsigned long long)ns);
}

/* A power of two as bpftrace writes it: 512, 1K, 2M. */
static void
lat_pow2(char *buf, size_t len, unsigned shift)
{
	static const char suffix[] = " KMGTPE";
	unsigned k = shift / 10;

	if (k == 0)
		snprintf(buf, len, "%llu", 1ull << shift);
	else
		snprintf(buf, len, "%llu%c", 1ull << (shift - 10 * k), suffix[k]);
}

/* "[lo, hi)" of bucket b. */
void
lat_bucket_label(char *buf, size_t len, unsigned b)
{
	char lo[16], hi[16];

	if (b <= 1) {
		snprintf(buf, len, "[%u]", b);
		return;
	}
	lat_pow2(lo, sizeof lo, b - 1);
	if (b >= 64)
		snprintf(hi, sizeof hi, "...");
	else
		lat_pow2(hi, sizeof hi, b);
	snprintf(buf, len, "[%s, %s)", lo, hi);
}

/* One bucket's line, bar scaled to the fullest bucket. */
void
lat_hist_line(const struct lat_hist *h, unsigned b, unsigned width, char *buf, size_t len)
{
	uint64_t top = 0;
	char label[40], bar[256];
	unsigned n;

	for (unsigned i = 0; i < LAT_BUCKETS; i++)
		if (h->buckets[i] > top)
			top = h->buckets[i];
	if (width >= sizeof bar)
		width = sizeof bar - 1;
	n = top ? (unsigned)(h->buckets[b] * width / top) : 0;
	memset(bar, '@', n);
	memset(bar + n, ' ', width - n);
	bar[width] = '\0';
	lat_bucket_label(label, sizeof label, b);
	snprintf(buf, len, "%-20s %8llu |%s|", label, (unsigned long long)h->buckets[b], bar);
}

/* ---- rows ---- */

/* The kind as the JSON and the table say it. */
const char *
lat_kind_name(enum lat_kind k)
{
	static const char *const names[LAT_NKINDS] = {"syscall", "function", "runq",
	                                              "bio",     "offcpu",   "oncpu"};

	return k < LAT_NKINDS ? names[k] : "?";
}

/* The kinds of a list, "all" for every one. */
int
lat_kinds_parse(const char *list, unsigned *kinds, struct tt_err *err)
{
	const char *p = list;

	*kinds = 0;
	while (*p != '\0') {
		size_t n = strcspn(p, ",");
		unsigned k;

		for (k = 0; k < LAT_NKINDS; k++)
			if (strlen(lat_kind_name(k)) == n && strncmp(p, lat_kind_name(k), n) == 0)
				break;
		if (n == 3 && strncmp(p, "all", 3) == 0)
			*kinds |= (1u << LAT_NKINDS) - 1;
		else if (k < LAT_NKINDS && k != LAT_FUNCTION)
			*kinds |= 1u << k;
		else
			return err_set(
			    err,
			    "unknown latency kind '%.*s' in '%s': use syscall, runq, bio, "
			    "offcpu, oncpu or all, comma-separated (functions: --latency SPEC)",
			    (int)n, p, list);
		p += n;
		if (*p == ',')
			p++;
	}
	if (*kinds == 0)
		return err_set(err,
		               "--latency-kinds needs at least one of syscall, runq, bio, offcpu");
	*kinds &= ~(1u << LAT_FUNCTION);
	return 0;
}

/* Both histograms empty. */
void
lat_acc_reset(struct lat_acc *a)
{
	lat_hist_reset(&a->total);
	lat_hist_reset(&a->interval);
	a->last_interval = 0;
	a->rate = 0;
}

/* The interval into the total. */
void
lat_acc_tick(struct lat_acc *a, double secs)
{
	a->last_interval = a->interval.count;
	a->rate = secs > 0 ? (double)a->interval.count / secs : 0;
	lat_hist_merge(&a->total, &a->interval);
	lat_hist_reset(&a->interval);
}

/* End an interval of secs whose interval histogram holds every value so
 * far (read whole from the kernel): the new ones are the difference. */
void
lat_acc_tick_totals(struct lat_acc *a, double secs)
{
	a->last_interval =
	    a->interval.count > a->total.count ? a->interval.count - a->total.count : 0;
	a->rate = secs > 0 ? (double)a->last_interval / secs : 0;
	if (a->interval.count >= a->total.count)
		a->total = a->interval;
	lat_hist_reset(&a->interval);
}

/* ---- pairing ---- */

/* A table of 64 threads to begin with. */
void
lat_pair_init(struct lat_pair *p, uint32_t max_depth)
{
	memset(p, 0, sizeof *p);
	p->max_depth = max_depth == 0 || max_depth > LAT_PAIR_DEPTH ? LAT_PAIR_DEPTH : max_depth;
	p->mask = 63;
	p->slots = xcalloc(p->mask + 1, sizeof *p->slots);
}

/* Release the table. */
void
lat_pair_free(struct lat_pair *p)
{
	free(p->slots);
	memset(p, 0, sizeof *p);
}

/* The slot of tid, or the free one where it would go. */
static struct lat_pair_slot *
lat_pair_slot(const struct lat_pair *p, int tid)
{
	size_t i = hash_u64((uint64_t)(uint32_t)tid) & p->mask;

	while (p->slots[i].tid != 0 && p->slots[i].tid != tid)
		i = (i + 1) & p->mask;
	return &p->slots[i];
}

/* Rebuild the table with room for one more thread: threads with no open
 * call are left out (so tids that came and went do not pile up), and it
 * doubles only when the open ones fill half of it. */
static void
lat_pair_rehash(struct lat_pair *p)
{
	struct lat_pair_slot *old = p->slots;
	size_t n = p->mask + 1, live = 0, cap = n;

	for (size_t i = 0; i < n; i++)
		live += old[i].tid != 0 && old[i].depth > 0;
	while ((live + 1) * 2 > cap)
		cap *= 2;
	p->slots = xcalloc(cap, sizeof *p->slots);
	p->mask = cap - 1;
	p->used = 0;
	for (size_t i = 0; i < n; i++)
		if (old[i].tid != 0 && old[i].depth > 0) {
			*lat_pair_slot(p, old[i].tid) = old[i];
			p->used++;
		}
	free(old);
}

/* The slot of tid, made when missing. */
static struct lat_pair_slot *
lat_pair_get(struct lat_pair *p, int tid)
{
	struct lat_pair_slot *s = lat_pair_slot(p, tid);

	if (s->tid == tid)
		return s;
	if ((p->used + 1) * 2 > p->mask + 1) {
		lat_pair_rehash(p);
		s = lat_pair_slot(p, tid);
	}
	s->tid = tid;
	s->depth = 0;
	p->used++;
	return s;
}

/* Push an entry time on tid's stack. */
void
lat_pair_enter(struct lat_pair *p, int tid, int32_t key, uint64_t t)
{
	struct lat_pair_slot *s;

	if (tid == 0)
		return; /* the idle task: slot 0 marks a free slot */
	s = lat_pair_get(p, tid);
	if (s->depth == p->max_depth) {
		/* the oldest open call gives way (depth 1: an exit was lost) */
		if (p->max_depth > 1)
			p->dropped++;
		memmove(s->at, s->at + 1, (p->max_depth - 1) * sizeof *s->at);
		memmove(s->key, s->key + 1, (p->max_depth - 1) * sizeof *s->key);
		s->depth--;
	}
	s->at[s->depth] = t;
	s->key[s->depth] = key;
	s->depth++;
}

/* Pop the innermost open call of key (those above it lost their exits). */
bool
lat_pair_exit(struct lat_pair *p, int tid, int32_t key, uint64_t t, uint64_t *ns)
{
	struct lat_pair_slot *s;
	uint32_t d;

	if (tid == 0 || (s = lat_pair_slot(p, tid))->tid != tid) {
		p->unpaired++;
		return false;
	}
	for (d = s->depth; d > 0 && s->key[d - 1] != key; d--)
		;
	if (d == 0 || s->at[d - 1] > t) {
		p->unpaired++;
		return false;
	}
	*ns = t - s->at[d - 1];
	s->depth = d - 1;
	return true;
}

/* The innermost open call of tid. */
bool
lat_pair_top(const struct lat_pair *p, int tid, int32_t *key, uint64_t *t)
{
	const struct lat_pair_slot *s;

	if (tid == 0 || (s = lat_pair_slot(p, tid))->tid != tid || s->depth == 0)
		return false;
	*key = s->key[s->depth - 1];
	*t = s->at[s->depth - 1];
	return true;
}

/* Drop tid's open calls. */
void
lat_pair_forget(struct lat_pair *p, int tid)
{
	struct lat_pair_slot *s;

	if (tid != 0 && (s = lat_pair_slot(p, tid))->tid == tid)
		s->depth = 0;
}
