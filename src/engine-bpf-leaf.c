/* engine-bpf-leaf: the frameless-leaf caller fix of the BPF engine. A
 * leaf without a frame hides its caller from the frame-pointer walk; the
 * ring path restores it from each sample's stack copy. Here the unwinder
 * is asked once per code place (DSO, offset) which word at the top of the
 * stack holds the return address there (engine_bpf_probe), a judgment
 * every process running that code shares (2,000 forked workers judge
 * their leaves once). Only the frameless places are told to the program
 * (the leafs map, by (pid, ip)): it then puts that word in the key, so
 * samples from different callers count apart. A framed place needs
 * nothing: it is not in the map, and the program keeps the top of the
 * stack of a key's first sample in its value, which the reader ignores.
 *
 * The map and its table hold ENGINE_BPF_LEAFS at most. A frameless place
 * without room there is still fixed, from the top of the stack its key's
 * first sample of the refresh kept, which is its caller for every sample
 * of the key only if the leaf has one caller: those samples are counted
 * (untold) and said in the engine's notices. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-bpf-impl.h"
#include "tracetop/bpf.h"
#include "tracetop/leaftab.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"

/* Where the probe's fake stack lies, and what its words hold. */
#define ENGINE_BPF_PROBE_SP 0x7ff000000000ULL
#define ENGINE_BPF_PROBE_WORD 0x5eed000000000000ULL

/* Make the tables for max frameless leaves told to the program. */
void
engine_bpf_leaf_init(struct engine_bpf *b, uint32_t max)
{
	b->judged_max = max > 0 ? max : 1;
	b->judged = leaftab_new(b->judged_max);
	b->code = xcalloc(ENGINE_BPF_CODE_SLOTS, sizeof *b->code);
}

/* Free them. */
void
engine_bpf_leaf_free(struct engine_bpf *b)
{
	leaftab_free(b->judged);
	free(b->code);
	b->judged = NULL;
	b->code = NULL;
}

/* Which top-of-stack word holds the return address of the code at user
 * ip of th: the leaf-return step the ring path takes, asked of the
 * unwinder on a fake stack whose words say where they are. A leaf with a
 * frame (its CFA from the frame pointer) gives TT_PROF_LEAF_NONE. */
static uint8_t
engine_bpf_probe(struct engine *e, struct thread *th, uint64_t ip)
{
	uint64_t regs[64] = {0}, stack[TT_PROF_TOP_WORDS], r;
	struct unwind_sample us = {.regs = regs,
	                           .nregs = (size_t)__builtin_popcountll(UNWIND_REGS_MASK),
	                           .stack = stack,
	                           .stack_size = sizeof stack};

	if (th == NULL || e->unwind == NULL)
		return TT_PROF_LEAF_NONE;
	for (unsigned w = 0; w < TT_PROF_TOP_WORDS; w++)
		stack[w] = ENGINE_BPF_PROBE_WORD + w;
	regs[engine_bpf_regs_slot(UNWIND_PERF_REG_IP)] = ip;
	regs[engine_bpf_regs_slot(UNWIND_PERF_REG_SP)] = ENGINE_BPF_PROBE_SP;
	r = unwind_leaf_return(e->unwind, th->proc, &us);
	return r >= ENGINE_BPF_PROBE_WORD && r < ENGINE_BPF_PROBE_WORD + TT_PROF_TOP_WORDS
	           ? (uint8_t)(r - ENGINE_BPF_PROBE_WORD)
	           : TT_PROF_LEAF_NONE;
}

/* The judgment of the code at user ip of th: remembered by its code
 * place, the unwinder asked on a miss. Code outside any mapping (a JIT's)
 * has no unwind information: TT_PROF_LEAF_NONE. */
static uint8_t
engine_bpf_code_word(struct engine *e, struct engine_bpf *b, struct thread *th, uint64_t ip)
{
	const struct map *m = th != NULL ? task_find_map(th->proc, ip) : NULL;
	struct engine_bpf_code *c;
	uint64_t off;

	if (m == NULL || m->dso == NULL)
		return TT_PROF_LEAF_NONE;
	off = ip - m->start + m->pgoff;
	c = &b->code[hash_u64(hash_mix(hash_mix(HASH_SEED, (uintptr_t)m->dso), off)) &
	             (ENGINE_BPF_CODE_SLOTS - 1)];
	if (c->dso != m->dso || c->off != off)
		*c = (struct engine_bpf_code){
		    .dso = m->dso, .off = off, .word = engine_bpf_probe(e, th, ip)};
	return c->word;
}

/* The word of the frameless leaf at (pid, ip), or TT_PROF_LEAF_NONE; a
 * frameless one is told to the program the first time (*told false when
 * the table had no room). */
static uint8_t
engine_bpf_judge(struct engine *e, struct engine_bpf *b, uint32_t pid, uint32_t tid, uint64_t ip,
                 bool *told)
{
	struct tt_prof_leaf_key lk = {.pid = pid, .ip = ip};
	uint32_t word;
	uint8_t w;

	*told = true;
	if (leaftab_find(b->judged, pid, ip, &w))
		return w;
	w = engine_bpf_code_word(e, b, tasks_thread(e->tasks, (int)pid, (int)tid), ip);
	if (w >= TT_PROF_TOP_WORDS)
		return TT_PROF_LEAF_NONE; /* a frame: nothing to tell */
	if (leaftab_count(b->judged) >= b->judged_max || !leaftab_put(b->judged, pid, ip, w)) {
		*told = false;
		return w;
	}
	word = w;
	tt_bpf_update(b->leafs_fd, &lk, &word);
	return w;
}

/* The state leaftab_forget passes on: the map and the process. */
struct engine_bpf_unjudge {
	int fd;
	uint32_t pid;
};

/* Take one forgotten leaf out of the program's map. */
static void
engine_bpf_unjudge(void *arg, uint64_t ip)
{
	const struct engine_bpf_unjudge *u = arg;
	struct tt_prof_leaf_key lk = {.pid = u->pid, .ip = ip};

	tt_bpf_delete(u->fd, &lk);
}

/* Judge pid's leaves again: the program forgets them at once (it keeps
 * the top of the stack again until told), the table too. The judgments
 * by code place stay: a new image is new DSOs. */
void
engine_bpf_forget(struct engine *e, int pid)
{
	struct engine_bpf *b = e->bpf;
	struct engine_bpf_unjudge u = {.fd = b != NULL ? b->leafs_fd : -1, .pid = (uint32_t)pid};

	/* forks and execs are many: the table finds pid's own leaves */
	if (b != NULL && b->judged != NULL)
		(void)leaftab_forget(b->judged, (uint32_t)pid, engine_bpf_unjudge, &u);
}

/* For a sample with a user stack: its frameless leaf's return address
 * (from the key, or the top of the stack kept in the value) into leaf;
 * false when there is nothing to fix. */
bool
engine_bpf_leaf(struct engine *e, struct engine_bpf *b, const struct tt_prof_key *k,
                const struct tt_prof_val *v, const uint64_t *uips, size_t nu,
                struct engine_bpf_leaf *leaf)
{
	uint64_t ip = engine_bpf_first_ip(uips, nu, 0);
	bool told;

	if (ip == 0)
		return false;
	leaf->ip = ip;
	leaf->word = engine_bpf_judge(e, b, k->pid, k->tid, ip, &told);
	if (leaf->word >= TT_PROF_TOP_WORDS)
		return false;
	if (!told && k->ret == 0)
		b->untold += v->count;
	leaf->ret = k->ret != 0 ? k->ret : v->top[leaf->word];
	return leaf->ret != 0;
}

/* Say how many samples of frameless leaves found no room in the table,
 * when that grew: their callers may be another's of the same leaf. */
void
engine_bpf_leaf_notice(struct engine *e, struct engine_bpf *b)
{
	if (b->untold == b->untold_seen)
		return;
	b->untold_seen = b->untold;
	snprintf(e->bpf_unjudged, sizeof e->bpf_unjudged,
	         "frameless leaves not told to the kernel: the table of %u is full, the callers of "
	         "%llu samples come from their stack's first sample",
	         b->judged_max, (unsigned long long)b->untold);
	engine_compose_notice(e);
}
