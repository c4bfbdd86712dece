/* engine-resolve: the sampling source's addresses to (DSO, symbol) keys,
 * through a frame cache, with the inlined callees the worker found and
 * the JIT maps' late names; split from engine.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine-impl.h"
#include "tracetop/dso.h"
#include "tracetop/hist.h"
#include "tracetop/srcline.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"

/* A JIT's symbol for ip from its process's perf map, shown in the
 * process's "[JIT] tid N" object as perf does. */
static void
engine_resolve_jit(struct thread *th, uint64_t ip, struct hist_key *key)
{
	key->sym = th ? task_jit_sym(th->proc, ip) : NULL;
	if (key->sym != NULL)
		key->dso = th->proc->jit_dso;
}

/* hist_rekey's question: an unresolved user address of a JIT that its
 * perf map names now (the map grew since the sample; it is read again at
 * most once per refresh). */
bool
engine_rekey_jit(void *arg, struct hist_key *key)
{
	struct engine *e = arg;
	struct thread *th;
	const struct sym *s;

	if ((key->dso != NULL && (key->dso->kind != DSO_ANON || dso_is_vdso(key->dso))) ||
	    (th = tasks_find_thread(e->tasks, key->tid)) == NULL || th->proc->pid != key->pid ||
	    (s = task_jit_sym(th->proc, key->addr)) == NULL)
		return false;
	key->sym = s;
	key->dso = th->proc->jit_dso;
	key->addr = 0;
	return true;
}

/* Resolve a user-space ip of thread th to (dso, sym, addr) in key. */
void
engine_resolve_user(struct thread *th, uint64_t ip, struct hist_key *key, uint64_t *elf_addr)
{
	const struct map *m = th ? task_find_map(th->proc, ip) : NULL;

	key->addr = ip;
	*elf_addr = 0;
	if (m == NULL) {
		engine_resolve_jit(th, ip, key);
		return;
	}
	key->dso = m->dso;
	if (m->dso->kind == DSO_ELF) {
		uint64_t off = ip - m->start + m->pgoff;
		uint64_t addr = dso_offset_to_addr(m->dso, off);

		key->sym = dso_find_sym(m->dso, addr);
		key->addr = off;
		*elf_addr = addr;
	} else if (dso_is_vdso(m->dso)) {
		/* named from our own copy; no file for inlines or annotation */
		uint64_t off = ip - m->start + m->pgoff;

		key->sym = dso_find_sym(m->dso, dso_offset_to_addr(m->dso, off));
		key->addr = off;
	} else if (m->dso->kind == DSO_ANON) {
		/* unresolved: by address, as perf shows it, so the JIT's map
		 * can name it later (engine_rekey_jit) */
		engine_resolve_jit(th, ip, key);
	}
	if (key->sym != NULL)
		key->addr = 0;
}

/* Fill a cache entry's inlined callees if the worker has answered: until
 * then the frame goes without them and the entry asks again at each use, a
 * hash probe. */
static void
engine_inlines(struct engine *e, struct engine_fcache *c)
{
	const struct sym *chain[SRCLINE_MAX_DEPTH];
	int n = srcline_async_inlines(e->srcl, c->dso, c->elf, chain, SRCLINE_MAX_DEPTH);

	c->inl_pending = n < 0;
	c->ninline = n < 0 ? 0 : (uint8_t)n;
	memcpy(c->inl, chain,
	       (c->ninline < ENGINE_MAX_INLINE ? c->ninline : ENGINE_MAX_INLINE) * sizeof *chain);
}

/* The share of a refresh's samples an object's functions must hold for
 * its debug info to be read for inlined frames: the hot code's inlines
 * are what a profile reads; each object's debug info costs its size in
 * lookups and megabytes, and the objects under 1 % (the shell, the
 * terminal, a monitoring agent) are most of them on a server. */
#define ENGINE_INLINE_SHARE 0.01

/* The slot of d in the shares' table, or the free one where it goes. */
static struct engine_inl_dso *
inl_slot(const struct engine_inl *t, const struct dso *d)
{
	size_t i = hash_u64((uintptr_t)d) & t->mask;

	while (t->tab[i].dso != NULL && t->tab[i].dso != d)
		i = (i + 1) & t->mask;
	return &t->tab[i];
}

/* The entry of d, made if new. */
static struct engine_inl_dso *
inl_entry(struct engine_inl *t, const struct dso *d)
{
	struct engine_inl_dso *x;

	if (t->tab == NULL || 2 * (t->count + 1) > t->mask + 1) {
		struct engine_inl big = {.mask = t->tab == NULL ? 31 : 2 * t->mask + 1};

		big.tab = xcalloc(big.mask + 1, sizeof *big.tab);
		for (size_t i = 0; t->tab != NULL && i <= t->mask; i++)
			if (t->tab[i].dso != NULL)
				*inl_slot(&big, t->tab[i].dso) = t->tab[i];
		free(t->tab);
		t->tab = big.tab;
		t->mask = big.mask;
		t->last = NULL;
	}
	x = inl_slot(t, d);
	if (x->dso == NULL) {
		*x = (struct engine_inl_dso){.dso = d};
		t->count++;
	}
	return x;
}

/* Count w samples in d's functions (only with inline lookups). */
void
engine_inl_count(struct engine *e, const struct dso *d, uint64_t w)
{
	struct engine_inl *t = &e->inl;

	if (e->srcl == NULL || d == NULL)
		return;
	if (t->last == NULL || t->last->dso != d)
		t->last = inl_entry(t, d);
	t->last->n += w;
	t->total += w;
}

/* Whether cache entry c asks the worker for its inlined callees: a
 * symbol in a file's code, of an object whose inlines are looked up. */
static bool
inl_asks(const struct engine *e, const struct engine_fcache *c)
{
	return e->srcl != NULL && c->sym != NULL && c->elf != 0 && !c->kernel &&
	       e->inl.tab != NULL && inl_slot(&e->inl, c->dso)->wanted;
}

/* End a refresh: the objects that held their share are looked up. */
void
engine_inl_tick(struct engine *e)
{
	struct engine_inl *t = &e->inl;
	bool more = false;

	for (size_t i = 0; t->tab != NULL && i <= t->mask; i++) {
		struct engine_inl_dso *x = &t->tab[i];

		if (x->dso != NULL && !x->wanted && x->n > 0 &&
		    (double)x->n >= ENGINE_INLINE_SHARE * (double)t->total) {
			x->wanted = true;
			more = true;
		}
		x->n = 0;
	}
	t->total = 0;
	if (!more)
		return;
	/* ask now for the addresses met so far: the in-kernel counts are
	 * resolved at the next refresh, and should find the answers there */
	for (size_t i = 0; i < ENGINE_FCACHE_SIZE; i++) {
		struct engine_fcache *c = &e->fcache[i];

		if (c->gen == e->fgen && inl_asks(e, c))
			engine_inlines(e, c);
	}
	e->fgen++; /* their addresses are resolved again, with inlines */
}

/* Free the table. */
void
engine_inl_free(struct engine *e)
{
	free(e->inl.tab);
	e->inl = (struct engine_inl){0};
}

/* The inlined callees of a cache entry, all of them: its own copy, or for
 * a deeper chain srcline's (a hash probe). */
static const struct sym *const *
engine_inline_chain(struct engine *e, const struct engine_fcache *c, const struct sym **buf)
{
	if (c->ninline <= ENGINE_MAX_INLINE)
		return c->inl;
	if (srcline_async_inlines(e->srcl, c->dso, c->elf, buf, SRCLINE_MAX_DEPTH) != c->ninline)
		return NULL; /* srcline's cache let it go: only the cached part */
	return buf;
}

/* What engine_resolve gives for an address whose DSO's symbols are still
 * loading: nothing, and not cached (the sample waits, and is resolved
 * again when replayed). */
static const struct engine_fcache engine_fcache_waiting;

/* Resolve an address of thread th (or the kernel) into key's dso, sym and
 * addr, through a cache: stacks repeat, symbol searches need not. With call
 * stacks the cache entry also holds the functions inlined there. */
const struct engine_fcache *
engine_resolve(struct engine *e, struct thread *th, uint64_t ip, bool kernel, struct hist_key *key)
{
	const struct task *proc = kernel || th == NULL ? NULL : th->proc;
	uint64_t mgen = proc != NULL ? proc->mgen : 0;
	size_t hash = hash_u64(hash_mix(hash_mix(HASH_SEED, (uintptr_t)proc), ip));
	struct engine_fcache *c = &e->fcache[hash & (ENGINE_FCACHE_SIZE - 1)];
	uint64_t elf_addr = 0;

	key->kernel = kernel;
	if (c->gen != e->fgen || c->ip != ip || c->proc != proc || c->mgen != mgen ||
	    c->kernel != kernel || (c->sym == NULL && c->tick_ns != e->last_tick_ns)) {
		key->dso = NULL;
		key->sym = NULL;
		if (kernel && engine_defer_kernel(e)) {
			key->addr = ip;
			return &engine_fcache_waiting;
		} else if (kernel) {
			key->dso = dso_kernel_resolve(ip, &key->sym);
			key->addr = key->sym ? 0 : ip;
		} else if (engine_defer_ip(e, th, ip)) {
			key->addr = ip;
			return &engine_fcache_waiting;
		} else {
			engine_resolve_user(th, ip, key, &elf_addr);
		}
		*c = (struct engine_fcache){.ip = ip,
		                            .proc = proc,
		                            .mgen = mgen,
		                            .tick_ns = e->last_tick_ns,
		                            .gen = e->fgen,
		                            .kernel = kernel,
		                            .dso = key->dso,
		                            .sym = key->sym,
		                            .addr = key->addr,
		                            .elf = kernel ? ip : elf_addr};
		if (inl_asks(e, c))
			engine_inlines(e, c);
	} else if (c->inl_pending) {
		engine_inlines(e, c);
	}
	key->dso = c->dso;
	key->sym = c->sym;
	key->addr = c->addr;
	return c;
}

/* Resolve the n addresses into keys, with each frame's inlined callees
 * (from debug info) as frames of their own in front of it. *self is the
 * index of the sampled function itself (self time goes to the function
 * the symbol table names, as in perf). Returns the number of keys. */
size_t
engine_keys(struct engine *e, struct thread *th, int pid, int tid, const uint64_t *ips,
            const bool *kern, size_t n, struct hist_key *keys, size_t *self, bool *unsettled)
{
	const struct hist_key base = {.pid = pid,
	                              .tid = tid,
	                              .thread = e->group & HIST_GROUP_TID ? tid : 0,
	                              .comm = th ? th->comm : e->unknown_comm,
	                              .cgroup = th ? tasks_cgroup(e->tasks, th->proc) : NULL};
	size_t k = 0;

	*self = 0;
	for (size_t i = 0; i < n && k < ENGINE_MAX_FRAMES; i++) {
		struct hist_key key = base;
		const struct engine_fcache *c = engine_resolve(e, th, ips[i], kern[i], &key);

		/* what may read otherwise at a later refresh: an address
		 * without a symbol outside a loaded file (a JIT's map may
		 * name it, its DSO may still be loading), inlines still asked
		 * of the worker, a chain deeper than the cache entry holds */
		if (unsettled != NULL &&
		    ((c->sym == NULL &&
		      (c->dso == NULL || c->dso->kind == DSO_ANON || !c->dso->loaded)) ||
		     c->inl_pending || c->ninline > ENGINE_MAX_INLINE))
			*unsettled = true;
		const struct sym *deep[SRCLINE_MAX_DEPTH];
		const struct sym *const *inl = engine_inline_chain(e, c, deep);
		size_t ninl = inl != NULL ? c->ninline : ENGINE_MAX_INLINE;

		for (size_t j = 0; j < ninl && k + 1 < ENGINE_MAX_FRAMES; j++) {
			keys[k] = key;
			keys[k].sym = inl != NULL ? inl[j] : c->inl[j];
			keys[k++].inlined = true;
		}
		if (i == 0)
			*self = k;
		keys[k++] = key;
	}
	return k;
}
