/* engine-bpf-impl: the BPF back-end's reader state, shared by
 * engine-bpf.c (loading, reading the counts into records) and
 * engine-bpf-leaf.c (judging frameless leaves) and nothing else. */
#ifndef TRACETOP_ENGINE_BPF_IMPL_H
#define TRACETOP_ENGINE_BPF_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine-impl.h"
#include "bpf/profile.h"
#include "tracetop/unwind.h"

/* (pid, ip) frameless leaves the program is told of at most (the leafs
 * map's size; the table holds three quarters of it). */
#define ENGINE_BPF_LEAFS 16384U
/* Code places (DSO, offset) judged, remembered at most (direct-mapped:
 * a miss only judges again). */
#define ENGINE_BPF_CODE_SLOTS 8192U

/* A stack read from the stack map, cached by its id while it is in use. */
struct engine_bpf_stack {
	uint64_t *ips; /* NULL: not cached */
	uint32_t nr;
	uint32_t birth; /* which read of the map it is (never 0): an id may name another later */
	uint64_t seen;  /* the read that last named it */
};

/* One judged code place: which top-of-stack word holds the return
 * address there (TT_PROF_LEAF_NONE: it has a frame). */
struct engine_bpf_code {
	const struct dso *dso; /* NULL: a free slot */
	uint64_t off;
	uint8_t word;
};

struct engine_bpf {
	struct tt_bpf *obj;
	int counts[2], gen_fd, stacks_fd[2], lost_fd, leafs_fd;
	/* the frameless (pid, ip) the program puts the return address of
	 * in the key: which top-of-stack word holds it */
	struct leaftab *judged;
	uint32_t judged_max;          /* entries it may hold */
	struct engine_bpf_code *code; /* judgments by code place */
	/* samples of frameless leaves the table had no room for: their
	 * callers come from the top of the stack of each key's first sample */
	uint64_t untold, untold_seen;
	uint32_t gen; /* the counts map the program writes */
	bool stacks;
	uint32_t entries, nstacks;
	struct tt_prof_key *keys; /* a read's entries */
	struct tt_prof_val *vals;
	struct engine_bpf_stack *cache; /* by stack id */
	uint32_t *live, nlive;          /* the cached ones' places */
	uint32_t births;                /* stacks read: each one's birth */
	uint32_t ubirth, kbirth;        /* the births of the key being counted */
	uint64_t reads;
	/* reads within a refresh when its keys overflowed the maps */
	uint64_t refresh_ns, drain_every, next_drain, last_read, light;
	int ncpus;        /* possible CPUs: the per-CPU values */
	uint64_t *percpu; /* one lost counter per CPU */
	uint64_t lost_seen[TT_PROF_NLOST];
	uint64_t lost_by[TT_PROF_NLOST + 1]; /* the last: stacks gone before read */
	uint64_t *rec;                       /* a sample record being made */
	size_t rec_cap;                      /* in u64 */
	uint64_t *buf;                       /* a stack being read */
	uint64_t *kb, *ub; /* a count's kernel and user frames, the sampled ip first */
	/* resolved stacks kept (engine-bpf-count.c), by (thread, stack ids,
	 * leaf's caller); those met in this read */
	uint32_t *stab;                     /* slots: an entry's index + 1, 0 free */
	struct engine_bpf_sent *scache;     /* the entries, dense */
	uint32_t spool_n, spool_cap, sfree; /* entries made, room, free list (index + 1) */
	uint32_t scache_mask, nscache;
	uint32_t *touched, ntouched; /* entries met in this read (indices) */
};

/* Where perf register r sits among UNWIND_REGS_MASK's. */
static inline unsigned
engine_bpf_regs_slot(unsigned r)
{
	return (unsigned)__builtin_popcountll(UNWIND_REGS_MASK & ((1ULL << r) - 1));
}

/* The first address of a stack that is not a context marker (the
 * kernel's stacks for a perf event may start with one), or dflt. */
static inline uint64_t
engine_bpf_first_ip(const uint64_t *ips, size_t nr, uint64_t dflt)
{
	for (size_t i = 0; i < nr; i++)
		if (ips[i] < (uint64_t)PERF_CONTEXT_MAX)
			return ips[i];
	return dflt;
}

/* ---- counting without records (engine-bpf-count.c) ---- */

/* Make and free the cache of resolved stacks (sized from b->nstacks). */
void engine_bpf_scache_init(struct engine_bpf *b);
void engine_bpf_scache_free(struct engine_bpf *b);

/* Count key k's w samples with its frames (each side's led by the sampled
 * ip when it is there) and its frameless leaf's caller ret (or 0); false
 * when a frame waits for a symbol table: nothing counted, the caller
 * hands a record of it to engine_sample. */
bool engine_bpf_count(struct engine *e, struct engine_bpf *b, const struct tt_prof_key *k,
                      uint64_t w, const uint64_t *kips, size_t nk, const uint64_t *uips, size_t nu,
                      uint64_t ret);

/* After a read's counts: the kept stacks' callers' children time. */
void engine_bpf_scache_flush(struct engine *e, struct engine_bpf *b);

/* Drop the kept stacks not met in this read nor the one before. */
void engine_bpf_scache_gc(struct engine_bpf *b);

/* ---- frameless leaves (engine-bpf-leaf.c) ---- */

/* Make the judging state for a table of max frameless leaves. */
void engine_bpf_leaf_init(struct engine_bpf *b, uint32_t max);

/* Free it. */
void engine_bpf_leaf_free(struct engine_bpf *b);

/* For a counted key with a user stack (uips, nu: the leaf first): its
 * frameless leaf's return address (from the key, or the top of the stack
 * kept in the value) into leaf; false when there is nothing to fix. */
bool engine_bpf_leaf(struct engine *e, struct engine_bpf *b, const struct tt_prof_key *k,
                     const struct tt_prof_val *v, const uint64_t *uips, size_t nu,
                     struct engine_bpf_leaf *leaf);

/* After a read: say in the engine's notices how many samples' frameless
 * leaves the table had no room for, when that grew. */
void engine_bpf_leaf_notice(struct engine *e, struct engine_bpf *b);

#endif
