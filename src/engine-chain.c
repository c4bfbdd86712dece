/* engine-chain: a sample's call stack, leaf first, from the kernel's
 * callchain and the user stack (frame pointers with a frameless leaf's
 * caller restored, or the copied stack unwound with DWARF), and its count
 * in the children time and the call graph. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "engine-impl.h"
#include "tracetop/callgraph.h"
#include "tracetop/hist.h"
#include "tracetop/record.h"
#include "tracetop/tasks.h"
#include "tracetop/unwind.h"

/* The sample's user registers and stack copy, for the unwinder. */
static bool
engine_user_state(const struct record_sample *s, struct unwind_sample *us)
{
	if (s->user_abi != PERF_SAMPLE_REGS_ABI_64 || s->nr_regs == 0 || s->stack_size == 0)
		return false;
	*us = (struct unwind_sample){.regs = s->user_regs,
	                             .nregs = s->nr_regs,
	                             .stack = s->stack,
	                             .stack_size = s->stack_size};
	return true;
}

/* The user ip of a sample's registers (0 without it). */
static uint64_t
engine_user_ip(const struct unwind_sample *us)
{
	size_t i =
	    (size_t)__builtin_popcountll(UNWIND_REGS_MASK & ((1ULL << UNWIND_PERF_REG_IP) - 1));

	return i < us->nregs && (UNWIND_REGS_MASK >> UNWIND_PERF_REG_IP & 1) ? us->regs[i] : 0;
}

/* Insert at position at of the n addresses (room for one more is checked
 * by the caller). */
static void
engine_chain_insert(uint64_t *ips, bool *kern, size_t n, size_t at, uint64_t ip)
{
	memmove(ips + at + 1, ips + at, (n - at) * sizeof *ips);
	memmove(kern + at + 1, kern + at, (n - at) * sizeof *kern);
	ips[at] = ip;
	kern[at] = false;
}

/* The sampled stack, leaf first: the kernel's callchain, and the user part
 * from frame pointers (with the caller a frameless leaf hides restored) or
 * from unwinding the copied stack. Return addresses are moved back one
 * byte so they resolve to the call, not to the next line. */
size_t
engine_chain(struct engine *e, struct thread *th, const struct record_sample *s, uint64_t *ips,
             bool *kern)
{
	size_t n = 0, user0 = SIZE_MAX;
	bool kernel = s->kernel, first = true;
	struct unwind_sample us;
	uint64_t r;

	for (size_t i = 0; i < s->nr && n < ENGINE_MAX_FRAMES; i++) {
		uint64_t ip = s->ips[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			if (ip != PERF_CONTEXT_KERNEL && ip != PERF_CONTEXT_USER)
				break; /* guest contexts: not ours */
			kernel = ip == PERF_CONTEXT_KERNEL;
			first = true;
			continue;
		}
		if (!kernel && user0 == SIZE_MAX)
			user0 = n;
		ips[n] = first ? ip : ip - 1;
		kern[n++] = kernel;
		first = false;
	}
	if (th == NULL || !engine_user_state(s, &us)) {
		/* no user state: keep what the callchain gave */
	} else if (e->cg_mode == CALLGRAPH_DWARF) {
		uint64_t uips[ENGINE_MAX_FRAMES];
		size_t k = 0;

		/* A leaf whose symbols are loading makes the sample wait: it
		 * is unwound when replayed, when the worker's read has also
		 * warmed the file. The unwinder reads the ELF files it steps
		 * through itself (headers and unwind tables, in 4 KiB chunks
		 * cached per DSO), on this thread: left synchronous, they are
		 * small reads, unlike a symbol table. */
		if (!engine_defer_ip(e, th, engine_user_ip(&us)))
			k = unwind_user(e->unwind, th->proc, &us, uips, ENGINE_MAX_FRAMES - n);

		for (size_t j = 0; j < k; j++) {
			ips[n] = j ? uips[j] - 1 : uips[j];
			kern[n++] = false;
		}
	} else if (user0 != SIZE_MAX && n < ENGINE_MAX_FRAMES &&
	           (r = unwind_leaf_return(e->unwind, th->proc, &us)) != 0 &&
	           (user0 + 1 >= n || ips[user0 + 1] != r - 1)) {
		engine_chain_insert(ips, kern, n++, user0 + 1, r - 1);
	}
	if (n == 0) {
		ips[0] = s->ip;
		kern[n++] = s->kernel;
	}
	return n;
}

/* Count a stack: children time once per distinct function, the path in
 * the call graph. */
void
engine_count_stack(struct hist *hist, struct callgraph *cg, struct hist *zoom, unsigned group,
                   const struct hist_key *keys, size_t n, uint64_t w)
{
	bool by_pid = group & (HIST_GROUP_PID | HIST_GROUP_TID);

	struct cg_frame frames[ENGINE_MAX_FRAMES];

	for (size_t i = 0; i < n; i++) {
		size_t j;

		frames[i] = (struct cg_frame){.dso = keys[i].dso,
		                              .sym = keys[i].sym,
		                              .addr = keys[i].addr,
		                              .kernel = keys[i].kernel,
		                              .inlined = keys[i].inlined};
		for (j = 0; j < i && !cg_frame_eq(&frames[j], &frames[i]); j++)
			;
		if (j < i)
			continue; /* recursion: a function counts once per sample */
		hist_add_children_n(hist, &keys[i], w);
		if (zoom != NULL)
			hist_add_children_n(zoom, &keys[i], w);
	}
	cg_add_task_n(cg, keys[0].comm, by_pid ? keys[0].pid : 0,
	              group & HIST_GROUP_TID ? keys[0].tid : 0, frames, n, w);
}
