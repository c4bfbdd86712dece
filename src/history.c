/* history: a ring of refresh intervals, each a compact list of (id, count)
 * pairs over interned row keys and call stacks shared by all intervals. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "history-impl.h"
#include "tracetop/frame.h"
#include "tracetop/history.h"
#include "tracetop/util.h"

/* An interned call-stack frame ([other]: a folded branch). */
struct hframe {
	struct cg_frame f;
	bool other;
};

/* A node of the stack prefix tree: a root is (0, 0, comm). */
struct hstack {
	uint32_t parent, frame;
	const char *comm;
};

/* Open-addressing index over one of the arrays: a slot holds id + 1. */
struct hindex {
	uint32_t *slot;
	size_t mask;
};

struct hrow {
	uint32_t key, self, children;
};

struct hleaf {
	uint32_t stack, count;
};

struct hevent {
	struct hrow *rows;
	struct hleaf *leaves;
	uint32_t nrows, nleaves;
	uint64_t samples;
	bool stacks;
};

struct hinterval {
	struct history_info info;
	struct hevent *ev;
	size_t nev;
	struct hparts parts; /* the other panes' */
};

struct history {
	double keep;
	size_t max_bytes;
	struct hinterval *ring;
	size_t cap, head, len; /* ring[head] is the oldest */
	size_t bytes;          /* of the intervals */
	size_t dropped;        /* intervals evicted for the bytes */
	struct hist_key *keys; /* ids from 1 */
	size_t nkeys, keys_cap, keys_live;
	struct hindex kidx;
	struct hframe *frames; /* ids from 1 */
	size_t nframes, frames_cap;
	struct hindex fidx;
	struct hstack *stacks; /* ids from 1; a parent's id is below its children's */
	size_t nstacks, stacks_cap, stacks_live;
	struct hindex sidx;
	/* scratch: the stack id of each call graph node, valid for gen */
	uint32_t *memo, *memo_gen, gen;
	size_t memo_cap;
	struct hrow *rows;
	struct hleaf *leaves;
	size_t rows_cap, leaves_cap;
	struct hparts_shared parts;
};

/* Hash of a row key's identity (the thread is not part of it). */
static uint64_t
key_hash(const struct hist_key *k)
{
	uint64_t h = hash_mix(HASH_SEED, (uint64_t)(uint32_t)k->pid | (uint64_t)k->kernel << 32 |
	                                     (uint64_t)k->inlined << 33);

	h = hash_mix(h, (uintptr_t)k->comm);
	h = hash_mix(h, (uintptr_t)k->cgroup);
	h = hash_mix(h, (uintptr_t)k->dso);
	h = hash_mix(h, (uintptr_t)k->sym);
	return hash_u64(hash_mix(h, k->addr));
}

/* Whether two row keys are the same row. */
static bool
key_same(const struct hist_key *a, const struct hist_key *b)
{
	return a->pid == b->pid && a->comm == b->comm && a->cgroup == b->cgroup &&
	       a->dso == b->dso && a->sym == b->sym && a->addr == b->addr &&
	       a->kernel == b->kernel && a->inlined == b->inlined;
}

/* Hash of an interned frame. */
static uint64_t
frame_hash(const struct hframe *f)
{
	uint64_t h = hash_mix(HASH_SEED, (uintptr_t)f->f.dso);

	h = hash_mix(h, (uintptr_t)f->f.sym);
	h = hash_mix(h, f->f.addr);
	return hash_u64(hash_mix(h, (uint64_t)f->f.kernel | (uint64_t)f->f.inlined << 1 |
	                                (uint64_t)f->other << 2));
}

/* Hash of a stack node. */
static uint64_t
stack_hash(const struct hstack *s)
{
	uint64_t h = hash_mix(HASH_SEED, (uint64_t)s->parent << 32 | s->frame);

	return hash_u64(hash_mix(h, (uintptr_t)s->comm));
}

/* The slot of the element eq says is the one, or the empty slot for it. */
#define HINDEX_FIND(ix, hash, arr, eq)                                                             \
	({                                                                                         \
		size_t i_ = (hash) & (ix)->mask;                                                   \
		while ((ix)->slot[i_] != 0 && !(eq(&(arr)[(ix)->slot[i_]])))                       \
			i_ = (i_ + 1) & (ix)->mask;                                                \
		i_;                                                                                \
	})

/* Slots for n elements at a load under a half. */
static void
hindex_reset(struct hindex *ix, size_t n)
{
	size_t want = 64;

	while (want < 2 * n + 2)
		want *= 2;
	if (ix->mask + 1 != want || ix->slot == NULL) {
		free(ix->slot);
		ix->slot = xcalloc(want, sizeof *ix->slot);
		ix->mask = want - 1;
	} else {
		memset(ix->slot, 0, want * sizeof *ix->slot);
	}
}

/* Re-index n row keys. */
static void
keys_reindex(struct history *h)
{
	hindex_reset(&h->kidx, h->nkeys);
	for (size_t id = 1; id <= h->nkeys; id++) {
		const struct hist_key *k = &h->keys[id];
#define KEY_EQ(p) key_same(p, k)
		size_t i = HINDEX_FIND(&h->kidx, key_hash(k), h->keys, KEY_EQ);
		h->kidx.slot[i] = (uint32_t)id;
	}
}

/* Re-index the frames. */
static void
frames_reindex(struct history *h)
{
	hindex_reset(&h->fidx, h->nframes);
	for (size_t id = 1; id <= h->nframes; id++) {
		const struct hframe *f = &h->frames[id];
#define FRAME_EQ(p) ((p)->other == f->other && cg_frame_eq(&(p)->f, &f->f))
		size_t i = HINDEX_FIND(&h->fidx, frame_hash(f), h->frames, FRAME_EQ);
		h->fidx.slot[i] = (uint32_t)id;
	}
}

/* Re-index the stack nodes. */
static void
stacks_reindex(struct history *h)
{
	hindex_reset(&h->sidx, h->nstacks);
	for (size_t id = 1; id <= h->nstacks; id++) {
		const struct hstack *s = &h->stacks[id];
#define STACK_EQ(p) ((p)->parent == s->parent && (p)->frame == s->frame && (p)->comm == s->comm)
		size_t i = HINDEX_FIND(&h->sidx, stack_hash(s), h->stacks, STACK_EQ);
		h->sidx.slot[i] = (uint32_t)id;
	}
}

/* Grow an id-indexed array (element 0 unused) to hold id n. */
static void *
grow(void *arr, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return arr;
	*cap = *cap < 64 ? 64 : *cap * 2;
	if (*cap <= n)
		*cap = n + 1;
	return xrealloc(arr, *cap * size);
}

/* The id of row key k, interned on first sight. */
static uint32_t
key_id(struct history *h, const struct hist_key *k)
{
	size_t i = HINDEX_FIND(&h->kidx, key_hash(k), h->keys, KEY_EQ);

	if (h->kidx.slot[i] != 0)
		return h->kidx.slot[i];
	h->keys = grow(h->keys, &h->keys_cap, ++h->nkeys, sizeof *h->keys);
	h->keys[h->nkeys] = *k;
	h->keys[h->nkeys].tid = 0;
	if (2 * h->nkeys + 2 > h->kidx.mask + 1)
		keys_reindex(h);
	else
		h->kidx.slot[i] = (uint32_t)h->nkeys;
	return (uint32_t)h->nkeys;
}

/* The id of a frame, interned on first sight. */
static uint32_t
frame_id(struct history *h, const struct hframe *f)
{
	size_t i = HINDEX_FIND(&h->fidx, frame_hash(f), h->frames, FRAME_EQ);

	if (h->fidx.slot[i] != 0)
		return h->fidx.slot[i];
	h->frames = grow(h->frames, &h->frames_cap, ++h->nframes, sizeof *h->frames);
	h->frames[h->nframes] = *f;
	if (2 * h->nframes + 2 > h->fidx.mask + 1)
		frames_reindex(h);
	else
		h->fidx.slot[i] = (uint32_t)h->nframes;
	return (uint32_t)h->nframes;
}

/* The id of a stack node, interned on first sight. */
static uint32_t
stack_id(struct history *h, const struct hstack *s)
{
	size_t i = HINDEX_FIND(&h->sidx, stack_hash(s), h->stacks, STACK_EQ);

	if (h->sidx.slot[i] != 0)
		return h->sidx.slot[i];
	h->stacks = grow(h->stacks, &h->stacks_cap, ++h->nstacks, sizeof *h->stacks);
	h->stacks[h->nstacks] = *s;
	if (2 * h->nstacks + 2 > h->sidx.mask + 1)
		stacks_reindex(h);
	else
		h->sidx.slot[i] = (uint32_t)h->nstacks;
	return (uint32_t)h->nstacks;
}

/* Make an empty history. */
struct history *
history_new(double keep_secs, size_t max_bytes)
{
	struct history *h = xcalloc(1, sizeof *h);

	h->keep = keep_secs;
	h->max_bytes = max_bytes;
	keys_reindex(h);
	frames_reindex(h);
	stacks_reindex(h);
	return h;
}

/* Free one interval's arrays. */
static void
interval_free(struct hinterval *iv)
{
	for (size_t e = 0; e < iv->nev; e++) {
		free(iv->ev[e].rows);
		free(iv->ev[e].leaves);
	}
	free(iv->ev);
	hparts_free(&iv->parts);
	memset(iv, 0, sizeof *iv);
}

/* Free everything. */
void
history_free(struct history *h)
{
	if (h == NULL)
		return;
	for (size_t i = 0; i < h->len; i++)
		interval_free(&h->ring[(h->head + i) % h->cap]);
	free(h->ring);
	free(h->keys);
	free(h->frames);
	free(h->stacks);
	free(h->kidx.slot);
	free(h->fidx.slot);
	free(h->sidx.slot);
	free(h->memo);
	free(h->memo_gen);
	free(h->rows);
	free(h->leaves);
	hparts_shared_free(&h->parts);
	free(h);
}

/* A copy of n bytes. */
static void *
dup_bytes(const void *p, size_t n)
{
	return memcpy(xmalloc(n), p, n);
}

/* The stack id of call graph node idx: its ancestors interned first. */
static uint32_t
node_stack(struct history *h, const struct callgraph *cg, uint32_t idx)
{
	const struct cg_node *n = cg_node(cg, idx);
	struct hstack s = {0};

	if (h->memo_gen[idx] == h->gen)
		return h->memo[idx];
	if (n->parent == 0) {
		s.comm = n->comm;
	} else {
		struct hframe f = {.f = n->frame, .other = n->other};

		/* depth is bounded by the unwinder's frames, so recursion is fine */
		s.parent = node_stack(h, cg, n->parent);
		s.frame = frame_id(h, &f);
	}
	h->memo_gen[idx] = h->gen;
	return h->memo[idx] = stack_id(h, &s);
}

/* One event's interval: its rows' and its stacks' last interval counts. */
static void
event_take(struct history *h, const struct frame_event *fe, struct hevent *ev)
{
	size_t nr = 0, nl = 0, cap;

	ev->samples = fe->samples;
	for (size_t i = 0; i < fe->rows.n; i++) {
		const struct hist_entry *e = &fe->rows.rows[i].copy;

		if (e->last == 0 && e->children_last == 0)
			continue;
		h->rows = grow(h->rows, &h->rows_cap, nr, sizeof *h->rows);
		h->rows[nr++] = (struct hrow){key_id(h, &e->key), (uint32_t)e->last,
		                              (uint32_t)e->children_last};
	}
	if (fe->cg != NULL) {
		cap = cg_capacity(fe->cg);
		if (cap > h->memo_cap) {
			h->memo = xrealloc(h->memo, cap * sizeof *h->memo);
			h->memo_gen = xrealloc(h->memo_gen, cap * sizeof *h->memo_gen);
			memset(h->memo_gen, 0, cap * sizeof *h->memo_gen);
			h->memo_cap = cap;
			h->gen = 0;
		}
		h->gen++;
		for (uint32_t idx = 1; idx < cap; idx++) {
			const struct cg_node *n = cg_node(fe->cg, idx);

			if (n == NULL || n->last_self == 0)
				continue;
			h->leaves = grow(h->leaves, &h->leaves_cap, nl, sizeof *h->leaves);
			h->leaves[nl++] =
			    (struct hleaf){node_stack(h, fe->cg, idx), (uint32_t)n->last_self};
		}
		ev->stacks = true;
	}
	ev->nrows = (uint32_t)nr;
	ev->nleaves = (uint32_t)nl;
	if (nr > 0)
		ev->rows = dup_bytes(h->rows, nr * sizeof *h->rows);
	if (nl > 0)
		ev->leaves = dup_bytes(h->leaves, nl * sizeof *h->leaves);
}

/* Bytes an interval holds. */
static size_t
interval_bytes(const struct hinterval *iv)
{
	size_t b = sizeof *iv + iv->nev * sizeof *iv->ev;

	for (size_t e = 0; e < iv->nev; e++)
		b += iv->ev[e].nrows * sizeof(struct hrow) +
		     iv->ev[e].nleaves * sizeof(struct hleaf);
	return b + hparts_bytes(&iv->parts);
}

/* Give back most of an id-indexed array that holds far fewer than it may
 * (after a compaction), so the bytes follow what is live. */
static void *
shrink(void *arr, size_t *cap, size_t n, size_t size)
{
	size_t want = n + n / 2 + 64;

	if (*cap <= 2 * want)
		return arr;
	*cap = want;
	return xrealloc(arr, want * size);
}

/* Keep only the keys, frames and stacks live intervals use, renumbered in
 * their order (so a stack's parent still comes first). */
static void
compact(struct history *h)
{
	uint32_t *kmap = xcalloc(h->nkeys + 1, sizeof *kmap);
	uint32_t *smap = xcalloc(h->nstacks + 1, sizeof *smap);
	uint32_t *fmap = xcalloc(h->nframes + 1, sizeof *fmap);
	size_t nk = 0, ns = 0, nf = 0;

	for (size_t i = 0; i < h->len; i++) {
		const struct hinterval *iv = &h->ring[(h->head + i) % h->cap];

		for (size_t e = 0; e < iv->nev; e++) {
			for (uint32_t r = 0; r < iv->ev[e].nrows; r++)
				kmap[iv->ev[e].rows[r].key] = 1;
			for (uint32_t l = 0; l < iv->ev[e].nleaves; l++)
				smap[iv->ev[e].leaves[l].stack] = 1;
		}
	}
	/* children after parents: mark ancestors walking down the ids */
	for (size_t id = h->nstacks; id >= 1; id--)
		if (smap[id] != 0) {
			smap[h->stacks[id].parent] = 1;
			fmap[h->stacks[id].frame] = 1;
		}
	for (size_t id = 1; id <= h->nkeys; id++)
		if (kmap[id] != 0) {
			kmap[id] = (uint32_t)++nk;
			h->keys[nk] = h->keys[id];
		}
	for (size_t id = 1; id <= h->nframes; id++)
		if (fmap[id] != 0) {
			fmap[id] = (uint32_t)++nf;
			h->frames[nf] = h->frames[id];
		}
	for (size_t id = 1; id <= h->nstacks; id++)
		if (smap[id] != 0) {
			struct hstack s = h->stacks[id];

			smap[id] = (uint32_t)++ns;
			s.parent = s.parent != 0 ? smap[s.parent] : 0;
			s.frame = s.frame != 0 ? fmap[s.frame] : 0;
			h->stacks[ns] = s;
		}
	for (size_t i = 0; i < h->len; i++) {
		struct hinterval *iv = &h->ring[(h->head + i) % h->cap];

		for (size_t e = 0; e < iv->nev; e++) {
			for (uint32_t r = 0; r < iv->ev[e].nrows; r++)
				iv->ev[e].rows[r].key = kmap[iv->ev[e].rows[r].key];
			for (uint32_t l = 0; l < iv->ev[e].nleaves; l++)
				iv->ev[e].leaves[l].stack = smap[iv->ev[e].leaves[l].stack];
		}
	}
	h->nkeys = h->keys_live = nk;
	h->nframes = nf;
	h->nstacks = h->stacks_live = ns;
	h->keys = shrink(h->keys, &h->keys_cap, nk, sizeof *h->keys);
	h->frames = shrink(h->frames, &h->frames_cap, nf, sizeof *h->frames);
	h->stacks = shrink(h->stacks, &h->stacks_cap, ns, sizeof *h->stacks);
	keys_reindex(h);
	frames_reindex(h);
	stacks_reindex(h);
	h->gen++; /* the memo's stack ids are stale */
	free(kmap);
	free(smap);
	free(fmap);
}

/* Keep only the parts' identities live intervals use. */
static void
compact_parts(struct history *h)
{
	struct hparts **ivs = xcalloc(h->len ? h->len : 1, sizeof *ivs);

	for (size_t i = 0; i < h->len; i++)
		ivs[i] = &h->ring[(h->head + i) % h->cap].parts;
	hparts_compact(&h->parts, ivs, h->len);
	free(ivs);
}

/* Drop the oldest interval. */
static void
evict(struct history *h)
{
	struct hinterval *iv = &h->ring[h->head];

	h->bytes -= iv->info.bytes;
	interval_free(iv);
	h->head = (h->head + 1) % h->cap;
	h->len--;
}

/* Seconds the intervals after the oldest cover. */
static double
newer_secs(const struct history *h)
{
	double s = 0;

	for (size_t i = 1; i < h->len; i++)
		s += h->ring[(h->head + i) % h->cap].info.secs;
	return s;
}

/* Append frame f's interval; evict what is past the window or the bytes. */
void
history_add(struct history *h, const struct frame *f, bool rows)
{
	struct hinterval *iv;

	if (!f->has_sampling && !f->has_counters && !f->has_probes && !f->has_trace &&
	    !f->has_system && !f->has_latency)
		return;
	if (h->len == h->cap) {
		size_t ncap = h->cap < 16 ? 16 : 2 * h->cap;
		struct hinterval *r = xcalloc(ncap, sizeof *r);

		for (size_t i = 0; i < h->len; i++)
			r[i] = h->ring[(h->head + i) % h->cap];
		free(h->ring);
		h->ring = r;
		h->cap = ncap;
		h->head = 0;
	}
	iv = &h->ring[(h->head + h->len) % h->cap];
	memset(iv, 0, sizeof *iv);
	iv->info =
	    (struct history_info){.seq = f->seq,
	                          .wall = f->wall,
	                          .secs = f->has_sampling && f->sampling.stats.interval_secs > 0
	                                      ? f->sampling.stats.interval_secs
	                                      : f->secs,
	                          .lost = f->sampling.stats.interval_lost,
	                          .rows = rows};
	iv->nev = f->has_sampling ? f->sampling.nevents : 0;
	iv->ev = xcalloc(iv->nev ? iv->nev : 1, sizeof *iv->ev);
	for (size_t e = 0; e < iv->nev; e++) {
		if (rows)
			event_take(h, &f->sampling.events[e], &iv->ev[e]);
		else
			iv->ev[e].samples = f->sampling.events[e].samples;
	}
	iv->info.samples = iv->nev > 0 ? iv->ev[0].samples : 0;
	hparts_take(&h->parts, &iv->parts, f, rows);
	iv->info.parts_bytes = hparts_bytes(&iv->parts);
	iv->info.bytes = interval_bytes(iv);
	h->bytes += iv->info.bytes;
	h->len++;
	while (h->len > 1 && newer_secs(h) >= h->keep)
		evict(h);
	if (h->nkeys > 2 * h->keys_live + 1024 || h->nstacks > 2 * h->stacks_live + 4096)
		compact(h);
	if (hparts_sparse(&h->parts))
		compact_parts(h);
	/* over the bytes: the oldest go, and what only they used */
	while (h->len > 1 && history_bytes(h) > h->max_bytes) {
		evict(h);
		h->dropped++;
		compact(h);
		compact_parts(h);
	}
}

/* Intervals held. */
size_t
history_len(const struct history *h)
{
	return h->len;
}

/* Interval i, the oldest first. */
const struct history_info *
history_info(const struct history *h, size_t i)
{
	return i < h->len ? &h->ring[(h->head + i) % h->cap].info : NULL;
}

/* The index of the interval of frame seq, or -1. */
long
history_find(const struct history *h, uint64_t seq)
{
	for (size_t i = 0; i < h->len; i++)
		if (history_info(h, i)->seq == seq)
			return (long)i;
	return -1;
}

/* Intervals evicted for the bytes. */
size_t
history_dropped(const struct history *h)
{
	return h->dropped;
}

/* The busiest interval by samples per second. */
size_t
history_spike(const struct history *h)
{
	size_t best = 0;
	double rate = -1;

	for (size_t i = 0; i < h->len; i++) {
		const struct history_info *in = history_info(h, i);
		double r = in->secs > 0 ? (double)in->samples / in->secs : (double)in->samples;

		if (r > rate) {
			rate = r;
			best = i;
		}
	}
	return best;
}

/* The shared tables' bytes. */
size_t
history_shared_bytes(const struct history *h)
{
	return h->keys_cap * sizeof *h->keys + h->frames_cap * sizeof *h->frames +
	       h->stacks_cap * sizeof *h->stacks +
	       (h->kidx.mask + h->fidx.mask + h->sidx.mask + 3) * sizeof(uint32_t) +
	       h->memo_cap * 2 * sizeof(uint32_t) + h->rows_cap * sizeof *h->rows +
	       h->leaves_cap * sizeof *h->leaves + h->cap * sizeof *h->ring + sizeof *h +
	       hparts_shared_bytes(&h->parts);
}

/* Everything held. */
size_t
history_bytes(const struct history *h)
{
	return h->bytes + history_shared_bytes(h);
}

/* The other panes' parts of intervals from..to added up into out. */
void
history_view(const struct history *h, size_t from, size_t to, const struct frame *live,
             struct frame *out)
{
	size_t start, n;
	const struct hparts **ivs;
	double *secs;

	if (to >= h->len)
		to = h->len - 1;
	if (h->len == 0 || from > to) {
		hparts_view(&h->parts, NULL, NULL, 0, 0, live, out);
		return;
	}
	/* the intervals before the range too, for the sparklines */
	start = to + 1 >= HPARTS_SPARKLINE ? to + 1 - HPARTS_SPARKLINE : 0;
	start = start < from ? start : from;
	n = to + 1 - start;
	ivs = xcalloc(n, sizeof *ivs);
	secs = xcalloc(n, sizeof *secs);
	for (size_t i = 0; i < n; i++) {
		const struct hinterval *iv = &h->ring[(h->head + start + i) % h->cap];

		ivs[i] = &iv->parts;
		secs[i] = iv->info.secs;
	}
	hparts_view(&h->parts, ivs, secs, n, from - start, live, out);
	free(ivs);
	free(secs);
}

/* Distinct parts' identities held. */
size_t
history_nparts(const struct history *h)
{
	return h->parts.nkeys;
}

/* Distinct row keys held. */
size_t
history_nkeys(const struct history *h)
{
	return h->nkeys;
}

/* Distinct stack nodes held. */
size_t
history_nstacks(const struct history *h)
{
	return h->nstacks;
}

/* Add one stack's count to cg: its frames leaf first, then its command. */
static void
sum_stack(const struct history *h, struct callgraph *cg, uint32_t id, uint64_t count,
          struct cg_frame *buf, bool *other, size_t max)
{
	size_t n = 0;

	while (id != 0 && h->stacks[id].parent != 0 && n < max) {
		const struct hframe *f = &h->frames[h->stacks[id].frame];

		buf[n] = f->f;
		other[n++] = f->other;
		id = h->stacks[id].parent;
	}
	while (id != 0 && h->stacks[id].parent != 0)
		id = h->stacks[id].parent;
	if (id != 0)
		cg_add_marked(cg, h->stacks[id].comm, buf, other, n, count);
}

/* Add up intervals from..to of event ev. */
void
history_sum(const struct history *h, size_t from, size_t to, size_t ev, struct history_sum *out)
{
	struct cg_frame buf[512];
	bool other[512], stacks = false;

	memset(out, 0, sizeof *out);
	out->hist = hist_new(1.0);
	for (size_t i = from; i <= to && i < h->len; i++) {
		const struct hinterval *iv = &h->ring[(h->head + i) % h->cap];

		out->secs += iv->info.secs;
		if (ev >= iv->nev)
			continue;
		out->samples += iv->ev[ev].samples;
		if (iv->ev[ev].stacks && !stacks) {
			out->cg = cg_new(1.0, 0.0);
			stacks = true;
		}
		for (uint32_t r = 0; r < iv->ev[ev].nrows; r++) {
			const struct hrow *row = &iv->ev[ev].rows[r];

			hist_add_n(out->hist, &h->keys[row->key], row->self);
			if (row->children > 0)
				hist_add_children_n(out->hist, &h->keys[row->key], row->children);
		}
		for (uint32_t l = 0; l < iv->ev[ev].nleaves && out->cg != NULL; l++)
			sum_stack(h, out->cg, iv->ev[ev].leaves[l].stack,
			          iv->ev[ev].leaves[l].count, buf, other, sizeof buf / sizeof *buf);
	}
	hist_tick(out->hist, true);
	if (out->cg != NULL)
		cg_tick(out->cg, true);
}

/* Intervals from..to of event ev: their samples and the row's, its keys
 * found once (a key falls in the row or not in every interval). */
void
history_row_counts(const struct history *h, size_t ev, const struct hist_key *key, unsigned group,
                   size_t from, size_t to, struct history_row_count *out)
{
	bool *in = xcalloc(h->nkeys + 1, sizeof *in);

	for (size_t id = 1; id <= h->nkeys; id++)
		in[id] = hist_same_group(&h->keys[id], key, group);
	for (size_t i = from; i <= to && i < h->len; i++) {
		const struct hinterval *iv = &h->ring[(h->head + i) % h->cap];
		struct history_row_count *o = &out[i - from];

		*o = (struct history_row_count){.seq = iv->info.seq, .rows = iv->info.rows};
		if (ev >= iv->nev)
			continue;
		o->samples = iv->ev[ev].samples;
		for (uint32_t r = 0; r < iv->ev[ev].nrows; r++)
			if (in[iv->ev[ev].rows[r].key])
				o->row += iv->ev[ev].rows[r].self;
	}
	free(in);
}

/* Free a sum's hist and call graph. */
void
history_sum_free(struct history_sum *s)
{
	hist_free(s->hist);
	cg_free(s->cg);
	memset(s, 0, sizeof *s);
}
