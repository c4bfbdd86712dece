/* engine-bpf-count: the BPF engine's counts into the hists without making
 * sample records of them, and with -g a cache of resolved stacks. A
 * counted key is (thread, sampled ip, user stack id, kernel stack id, the
 * frameless leaf's caller); its stack, the same from refresh to refresh
 * while the thread loops, is resolved once: its callers' frames (with
 * their inlined callees), which of them count in the children time (one
 * per function and sample), and the call graph node of the deepest
 * caller are kept by (thread, stack ids, leaf's caller). Then a key costs
 * its leaf: the sampled ip resolved (the frame cache), self and
 * per-instruction counts, the leaf's children, and its nodes below the
 * kept one; the callers' children are added once per stack and refresh,
 * with all its keys' samples. What the ring path would count is counted:
 * the same keys, chains and paths (engine_count_keys for a stack met
 * first), only fewer times.
 *
 * A stack is not kept while one of its frames may still read otherwise
 * (no symbol outside a loaded file, inlines the worker has not answered);
 * a kept one is dropped when its process's mappings change (mgen; the
 * kernel's: fgen), the thread's command or cgroup or the grouping
 * changes, or its call graph node has gone (faded: its birth differs) or
 * one of its stack ids names another stack now (the map gave it again
 * after engine_bpf_stacks_gc), and is freed when it was not met for a
 * few reads. A
 * key whose frames wait for a symbol table goes the ring path's way (a
 * record, copied aside until the worker has answered). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine-bpf-impl.h"
#include "tracetop/callgraph.h"
#include "tracetop/hist.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"

/* One caller frame of a kept stack. */
struct bpf_cframe {
	struct dso *dso;
	const struct sym *sym;
	uint64_t addr;
	bool kernel, inlined;
	bool first; /* the first of its function in the stack: counts in the children time */
};

/* A kept stack. */
struct engine_bpf_sent {
	uint32_t next_free; /* on the pool's free list: the next's index + 1 */
	uint32_t pid, tid;
	int32_t ustack, kstack;
	uint64_t ret;            /* the frameless leaf's caller restored, or 0 */
	uint32_t ubirth, kbirth; /* its stacks' (an id may name another stack later) */
	/* what the resolution depended on */
	uint32_t fgen;
	uint64_t mgen; /* the process's maps */
	unsigned group;
	const char *comm;
	const struct cgroup *cgroup;
	uint32_t cg_node, cg_birth; /* the deepest caller's node */
	uint64_t pending;           /* samples of this read: the callers' children */
	uint64_t seen;              /* the read that met it last */
	uint16_t n;
	struct bpf_cframe *f; /* the callers, the leaf's first */
};

/* Slots of the table of kept stacks: twice the stack map's entries, within
 * these bounds (a power of two; three quarters used at most). The slots
 * hold an entry's index in a dense pool: a sparse table of whole
 * entries touched a page for every few entries. */
#define SCACHE_MIN 4096U
#define SCACHE_MAX 32768U
/* Reads between two collections of the stacks no longer met. */
#define SCACHE_GC_EVERY 8U

/* Make the cache for a stack map of nstacks entries. */
void
engine_bpf_scache_init(struct engine_bpf *b)
{
	uint32_t n = SCACHE_MIN;

	while (n < 2 * b->nstacks && n < SCACHE_MAX)
		n *= 2;
	b->stab = xcalloc(n, sizeof *b->stab);
	b->scache_mask = n - 1;
	b->touched = xmalloc(n * sizeof *b->touched);
}

/* Free it. */
void
engine_bpf_scache_free(struct engine_bpf *b)
{
	for (uint32_t i = 0; i < b->spool_n; i++)
		free(b->scache[i].f);
	free(b->scache);
	free(b->stab);
	free(b->touched);
	b->scache = NULL;
	b->stab = NULL;
	b->touched = NULL;
	b->spool_n = b->spool_cap = 0;
}

/* The home slot of a stack's identity. */
static uint32_t
scache_home(const struct engine_bpf *b, uint32_t pid, uint32_t tid, int32_t us, int32_t ks,
            uint64_t ret)
{
	uint64_t h = hash_mix(hash_mix(HASH_SEED, (uint64_t)pid << 32 | tid),
	                      (uint64_t)(uint32_t)us << 32 | (uint32_t)ks);

	return (uint32_t)hash_u64(hash_mix(h, ret)) & b->scache_mask;
}

/* The entry of table slot i, or NULL. */
static struct engine_bpf_sent *
sent_at(const struct engine_bpf *b, uint32_t i)
{
	return b->stab[i] != 0 ? &b->scache[b->stab[i] - 1] : NULL;
}

/* The slot of a stack's identity: its entry's, or the free one it would
 * take. */
static uint32_t
scache_slot(const struct engine_bpf *b, uint32_t pid, uint32_t tid, int32_t us, int32_t ks,
            uint64_t ret)
{
	uint32_t i = scache_home(b, pid, tid, us, ks, ret);

	for (;; i = (i + 1) & b->scache_mask) {
		const struct engine_bpf_sent *s = sent_at(b, i);

		if (s == NULL || (s->pid == pid && s->tid == tid && s->ustack == us &&
		                  s->kstack == ks && s->ret == ret))
			return i;
	}
}

/* A new entry of the pool for slot i (from the free list, or the pool
 * grown: entry pointers held before are stale after). */
static struct engine_bpf_sent *
sent_new(struct engine_bpf *b, uint32_t i)
{
	uint32_t idx;

	if (b->sfree != 0) {
		idx = b->sfree - 1;
		b->sfree = b->scache[idx].next_free;
	} else {
		if (b->spool_n == b->spool_cap) {
			b->spool_cap = b->spool_cap ? 2 * b->spool_cap : 256;
			b->scache = xrealloc(b->scache, b->spool_cap * sizeof *b->scache);
		}
		idx = b->spool_n++;
	}
	memset(&b->scache[idx], 0, sizeof b->scache[idx]);
	b->stab[i] = idx + 1;
	b->nscache++;
	return &b->scache[idx];
}

/* Empty slot i (its entry back to the pool's free list), moving the
 * slots after it in its cluster back so that lookups never cross a hole. */
static void
scache_delete(struct engine_bpf *b, uint32_t i)
{
	uint32_t j = i, mask = b->scache_mask, idx = b->stab[i] - 1;

	free(b->scache[idx].f);
	memset(&b->scache[idx], 0, sizeof b->scache[idx]);
	b->scache[idx].next_free = b->sfree;
	b->sfree = idx + 1;
	for (;;) {
		const struct engine_bpf_sent *s;
		uint32_t home;

		j = (j + 1) & mask;
		if ((s = sent_at(b, j)) == NULL)
			break;
		home = scache_home(b, s->pid, s->tid, s->ustack, s->kstack, s->ret);
		if (((j - home) & mask) >= ((j - i) & mask)) {
			b->stab[i] = b->stab[j];
			i = j;
		}
	}
	b->stab[i] = 0;
	b->nscache--;
}

/* Drop the stacks not met for SCACHE_GC_EVERY reads, at one read in that
 * many (a scan of the table; a stack id the map gave to another stack
 * meanwhile has another birth: its entry is invalid already). */
void
engine_bpf_scache_gc(struct engine_bpf *b)
{
	if (b->reads % SCACHE_GC_EVERY != 0)
		return;
	for (uint32_t i = 0; i <= b->scache_mask;) {
		const struct engine_bpf_sent *s = sent_at(b, i);

		if (s != NULL && s->seen + SCACHE_GC_EVERY < b->reads) {
			scache_delete(b, i); /* slot i may hold the next entry now */
			continue;
		}
		i++;
	}
}

/* A key of a kept stack's frame. */
static struct hist_key
sent_key(const struct engine_bpf_sent *s, const struct bpf_cframe *f)
{
	return (struct hist_key){.pid = (int)s->pid,
	                         .tid = (int)s->tid,
	                         .thread = s->group & HIST_GROUP_TID ? (int)s->tid : 0,
	                         .comm = s->comm,
	                         .cgroup = s->cgroup,
	                         .dso = f->dso,
	                         .sym = f->sym,
	                         .addr = f->addr,
	                         .kernel = f->kernel,
	                         .inlined = f->inlined};
}

/* The frame of a key, for the call graph and comparisons. */
static struct cg_frame
key_frame(const struct hist_key *k)
{
	return (struct cg_frame){.dso = k->dso,
	                         .sym = k->sym,
	                         .addr = k->addr,
	                         .kernel = k->kernel,
	                         .inlined = k->inlined};
}

/* Whether a frame is f's function. */
static bool
frame_is(const struct bpf_cframe *f, const struct cg_frame *c)
{
	return f->dso == c->dso && f->sym == c->sym && f->addr == c->addr &&
	       f->kernel == c->kernel && f->inlined == c->inlined;
}

/* Add the pending samples of the stacks met in this read to their
 * callers' children time (once per function of the stack). */
void
engine_bpf_scache_flush(struct engine *e, struct engine_bpf *b)
{
	struct engine_event *ev = e->el.nevsels > 0 ? e->el.evsels[0].priv : NULL;

	for (uint32_t t = 0; ev != NULL && t < b->ntouched; t++) {
		struct engine_bpf_sent *s = &b->scache[b->touched[t]];
		struct hist *zoom =
		    e->zoom_tid != 0 && (int)s->tid == e->zoom_tid ? ev->zoom : NULL;

		if (s->pending == 0)
			continue;
		for (uint16_t i = 0; i < s->n; i++) {
			struct hist_key k;

			if (!s->f[i].first)
				continue;
			k = sent_key(s, &s->f[i]);
			hist_add_children_n(ev->hist, &k, s->pending);
			if (zoom != NULL)
				hist_add_children_n(zoom, &k, s->pending);
		}
		s->pending = 0;
	}
	b->ntouched = 0;
}

/* The sampled stack as the ring path's engine_chain makes it: the
 * kernel's frames then the user's (each led by the sampled ip on its
 * side), return addresses moved back a byte but the first of each side,
 * markers dropped, and a frameless leaf's caller ret after the user leaf
 * (unless it is there already). */
static size_t
bpf_chain(const uint64_t *kips, size_t nk, const uint64_t *uips, size_t nu, uint64_t ret,
          uint64_t *ips, bool *kern)
{
	size_t n = 0, user0 = SIZE_MAX;

	for (int side = 0; side < 2; side++) {
		const uint64_t *p = side == 0 ? kips : uips;
		size_t np = side == 0 ? nk : nu;
		bool first = true;

		for (size_t i = 0; i < np && n < ENGINE_MAX_FRAMES; i++) {
			if (p[i] >= (uint64_t)PERF_CONTEXT_MAX)
				continue;
			if (side == 1 && user0 == SIZE_MAX)
				user0 = n;
			ips[n] = first ? p[i] : p[i] - 1;
			kern[n++] = side == 0;
			first = false;
		}
	}
	if (ret != 0 && user0 != SIZE_MAX && n < ENGINE_MAX_FRAMES &&
	    (user0 + 1 >= n || ips[user0 + 1] != ret - 1)) {
		memmove(ips + user0 + 2, ips + user0 + 1, (n - user0 - 1) * sizeof *ips);
		memmove(kern + user0 + 2, kern + user0 + 1, (n - user0 - 1) * sizeof *kern);
		ips[user0 + 1] = ret - 1;
		kern[user0 + 1] = false;
		n++;
	}
	return n;
}

/* Keep the callers keys[self + 1 .. n) of a stack just counted in table
 * slot slot (its entry, stale, or free), with its call graph node; nothing
 * when the table is full. */
static void
scache_keep(struct engine *e, struct engine_bpf *b, uint32_t slot, const struct tt_prof_key *k,
            uint64_t ret, struct thread *th, const struct hist_key *keys, size_t n, size_t self,
            struct callgraph *cg)
{
	size_t nc = n - self - 1;
	struct cg_frame frames[ENGINE_MAX_FRAMES];
	bool by_pid = e->group & (HIST_GROUP_PID | HIST_GROUP_TID);
	struct engine_bpf_sent *s = sent_at(b, slot);

	if (th == NULL || (s == NULL && (b->nscache + 1) * 4 > (b->scache_mask + 1) * 3))
		return;
	if (s == NULL)
		s = sent_new(b, slot);
	*s = (struct engine_bpf_sent){.pid = k->pid,
	                              .tid = k->tid,
	                              .ustack = k->ustack,
	                              .kstack = k->kstack,
	                              .ret = ret,
	                              .ubirth = b->ubirth,
	                              .kbirth = b->kbirth,
	                              .fgen = e->fgen,
	                              .mgen = th->proc->mgen,
	                              .group = e->group,
	                              .comm = keys[0].comm,
	                              .cgroup = keys[0].cgroup,
	                              .seen = b->reads,
	                              .n = (uint16_t)nc,
	                              .f = xmalloc((nc ? nc : 1) * sizeof *s->f)};
	for (size_t i = 0; i < nc; i++) {
		const struct hist_key *c = &keys[self + 1 + i];
		size_t j;

		frames[i] = key_frame(c);
		s->f[i] = (struct bpf_cframe){.dso = c->dso,
		                              .sym = c->sym,
		                              .addr = c->addr,
		                              .kernel = c->kernel,
		                              .inlined = c->inlined};
		for (j = 0; j < i && !frame_is(&s->f[j], &frames[i]); j++)
			;
		s->f[i].first = j == i;
	}
	if (cg != NULL) {
		s->cg_node = cg_task_path(cg, s->comm, by_pid ? (int)k->pid : 0,
		                          e->group & HIST_GROUP_TID ? (int)k->tid : 0, frames, nc);
		s->cg_birth = cg_node_birth(cg, s->cg_node);
	}
}

/* Whether kept stack s still reads as it did for thread th. */
static bool
sent_valid(const struct engine *e, const struct engine_bpf *b, const struct engine_bpf_sent *s,
           const struct thread *th, const struct callgraph *cg)
{
	return s->fgen != 0 && s->fgen == e->fgen && s->ubirth == b->ubirth &&
	       s->kbirth == b->kbirth && s->group == e->group && th != NULL &&
	       s->mgen == th->proc->mgen && s->comm == th->comm && s->cgroup == th->proc->cgroup &&
	       (cg == NULL || cg_node_birth(cg, s->cg_node) == s->cg_birth);
}

/* Count a key of a kept stack: its leaf only, the callers' children at
 * the flush. False when the leaf waits for a symbol table (nothing was
 * counted). */
static bool
count_kept(struct engine *e, struct engine_bpf *b, struct engine_bpf_sent *s,
           struct engine_event *ev, struct thread *th, const struct tt_prof_key *k, uint64_t w)
{
	struct hist_key keys[ENGINE_MAX_INLINE + 1];
	struct cg_frame frames[ENGINE_MAX_INLINE + 1];
	bool kernel = (int64_t)k->ip < 0, unsettled = false;
	uint64_t ip = k->ip;
	struct hist *zoom = e->zoom_tid != 0 && (int)k->tid == e->zoom_tid ? ev->zoom : NULL;
	size_t self, n = engine_keys(e, th, (int)k->pid, (int)k->tid, &ip, &kernel, 1, keys, &self,
	                             &unsettled);

	if (e->defer.waiting)
		return false;
	engine_count_self(e, ev, th, zoom, ip, kernel, &keys[self], w);
	for (size_t i = 0; i < n; i++) {
		size_t j;

		frames[i] = key_frame(&keys[i]);
		for (j = 0; j < i && !cg_frame_eq(&frames[j], &frames[i]); j++)
			;
		if (j < i)
			continue; /* recursion within the leaf's inlines */
		for (j = 0; j < s->n && !frame_is(&s->f[j], &frames[i]); j++)
			;
		if (j < s->n)
			continue; /* the leaf's function is also a caller: counted there */
		hist_add_children_n(ev->hist, &keys[i], w);
		if (zoom != NULL)
			hist_add_children_n(zoom, &keys[i], w);
	}
	if (ev->cg != NULL)
		cg_add_below(ev->cg, s->cg_node, frames, n, w);
	if (s->pending == 0)
		b->touched[b->ntouched++] = (uint32_t)(s - b->scache);
	s->pending += w;
	s->seen = b->reads;
	return true;
}

/* Count one key of w samples with its frames (the sampled ip leading its
 * side's; the frameless leaf's caller ret, or 0) straight into the hists;
 * false when a frame waits for a symbol table (then nothing is counted:
 * the caller makes a record of it for engine_sample, which keeps it). */
bool
engine_bpf_count(struct engine *e, struct engine_bpf *b, const struct tt_prof_key *k, uint64_t w,
                 const uint64_t *kips, size_t nk, const uint64_t *uips, size_t nu, uint64_t ret)
{
	struct engine_event *ev = e->el.evsels[0].priv;
	struct hist_key keys[ENGINE_MAX_FRAMES];
	uint64_t ips[ENGINE_MAX_FRAMES];
	bool kern[ENGINE_MAX_FRAMES], unsettled = false;
	struct thread *th;
	struct engine_bpf_sent *s;
	uint32_t slot = UINT32_MAX;
	struct hist *zoom;
	size_t n, self;

	if (!e->include_self && (int)k->pid == e->self) {
		e->stats.excluded += w;
		return true;
	}
	th = tasks_thread(e->tasks, (int)k->pid, (int)k->tid);
	zoom = e->zoom_tid != 0 && (int)k->tid == e->zoom_tid ? ev->zoom : NULL;
	if (b->stacks && b->stab != NULL) {
		slot = scache_slot(b, k->pid, k->tid, k->ustack, k->kstack, ret);
		s = sent_at(b, slot);
		if (s != NULL && sent_valid(e, b, s, th, ev->cg))
			return count_kept(e, b, s, ev, th, k, w);
		if (s != NULL) {
			/* stale (not met in this read: its validity holds for a
			 * read): made again in place from this key, or left
			 * invalid for the collection */
			free(s->f);
			s->f = NULL;
			s->n = 0;
			s->fgen = 0;
		}
	}
	if (b->stacks) {
		n = bpf_chain(kips, nk, uips, nu, ret, ips, kern);
	} else {
		ips[0] = k->ip;
		kern[0] = (int64_t)k->ip < 0;
		n = 1;
	}
	if (n == 0) {
		ips[0] = k->ip;
		kern[n++] = (int64_t)k->ip < 0;
	}
	n = engine_keys(e, th, (int)k->pid, (int)k->tid, ips, kern, n, keys, &self, &unsettled);
	if (e->defer.waiting)
		return false;
	engine_count_keys(e, ev, th, zoom, ips[0], kern[0], keys, n, self, w);
	if (slot != UINT32_MAX && !unsettled)
		scache_keep(e, b, slot, k, ret, th, keys, n, self, ev->cg);
	return true;
}
