/* engine-bpf: the sampling engine's second back-end. A BPF program on each
 * sampling perf event counts the samples in the kernel (src/bpf/
 * profile.bpf.c) and writes none to the rings, which then carry only the
 * side-band records that keep the process model current. Once per refresh
 * the counts are read and turned back into sample records, each carrying
 * its count as its period, and fed to engine_sample: the same resolution,
 * symbol deferral, hist, call graph and per-instruction counts as the
 * ring path, at a cost per distinct (thread, stack) instead of per sample.
 *
 * Two counts maps, flipped by a generation slot at each refresh: the
 * program writes one while the other, no longer written, is read and
 * emptied in batches, so no increment races the read (one that looked the
 * generation up just before the flip may land in the old map after it is
 * read; it is counted at the next read of that map, a refresh later).
 * Deleting as we read would lose the increments between a lookup and its
 * delete.
 *
 * The key holds the sampled ip apart from the stack of its callers (the
 * stack ids skip it, TT_PROF_SKIP_LEAF): a hot function's many sampled
 * instructions share one stack, so the stack map holds call paths, not
 * every instruction of them, and collides far less. The reader puts the
 * ip back at the head of its side's stack.
 *
 * Stack ids are bucket indexes of a stack map; a stack whose bucket holds
 * another goes to a second map of the same size (its ids marked
 * TT_PROF_STACK2), which holds only those, so collisions lose about the
 * product of the two maps' fill (system-wide under -g beside compilers:
 * 7 % of the first refresh's samples with one map). A stack stays in its
 * map (and in our cache, by id) while samples name it, and is removed
 * from both after two refreshes without any, so the map does not fill
 * with stacks of the past. What the kernel could not count (a stack that found its
 * bucket taken or the map full, a full counts map) is summed from a
 * per-CPU array and reported as lost samples.
 *
 * The frameless-leaf caller fix of the ring path (a leaf without a frame
 * hides its caller from the frame-pointer walk) is kept by asking the
 * same unwinder which word at the top of the stack holds the leaf's
 * return address (engine_bpf_probe: once per (pid, ip)), and telling the
 * program (the leafs map): it then puts that word in the key. A key
 * counted before the answer carries the top of its stack in its value
 * instead. The record made from a key then carries the leaf's registers
 * and that word as its user regs and stack copy, so engine_chain restores
 * the caller exactly as for a ring sample (in the kernel, the program
 * reads the user registers the task entered with). A process that execs
 * (or a new one with the pid) has its leaves judged again
 * (engine_bpf_forget).
 *
 * Samples are counted at the refresh against the process model as it is
 * then, not at their instant: a process that execs within a refresh has
 * that refresh's samples resolved against its new image. A file only a
 * short-lived process can reach (another mount namespace) has its symbols
 * loaded from its exec mapping (engine_bpf_mmap). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-bpf-impl.h"
#include "tracetop/bpf.h"
#include "tracetop/dso.h"
#include "tracetop/evlist.h"
#include "tracetop/leaftab.h"
#include "tracetop/tasks.h"
#include "tracetop/unwind.h"
#include "tracetop/util.h"

/* Counts map entries at least and at most (the sizing rule is
 * engine_bpf_entries). */
#define ENGINE_BPF_MIN_ENTRIES 4096U
#define ENGINE_BPF_MAX_ENTRIES (1U << 20)
/* Stack map entries at least and at most (each holds TT_PROF_MAX_DEPTH
 * frames, about 1 KiB of kernel memory). */
#define ENGINE_BPF_MIN_STACKS 2048U
#define ENGINE_BPF_MAX_STACKS 32768U
/* Where a record's fake user stack lies (the unwinder reads the leaf's
 * return address in it). */
#define ENGINE_BPF_PROBE_SP 0x7ff000000000ULL
/* The rate assumed when sampling by period (-c): unknown, so generous. */
#define ENGINE_BPF_PERIOD_RATE 10000U
/* The shortest time between two reads of the counts when a refresh's keys
 * overflow the maps (engine_bpf_drain_every). */
#define ENGINE_BPF_MIN_DRAIN_NS 20000000ULL

#if HAVE_BPF
/* The compiled program, embedded at build time (src/bpf-profile-obj.c). */
extern const unsigned char tt_bpf_profile_obj[];
extern const size_t tt_bpf_profile_obj_len;
#else
/* None: tt_bpf_allowed refuses first, saying BPF was not built in. */
static const unsigned char tt_bpf_profile_obj[1];
static const size_t tt_bpf_profile_obj_len = 0;
#endif

/* Entries for a map holding one refresh's distinct keys at most: the
 * samples of a refresh (rate x CPUs x seconds), a power of two within
 * [lo, hi]. Pure. */
uint32_t
engine_bpf_entries(uint64_t rate, size_t ncpus, double refresh, uint32_t lo, uint32_t hi)
{
	double want = (double)rate * (double)(ncpus ? ncpus : 1) * (refresh > 0 ? refresh : 2);
	uint32_t n = lo;

	while (n < hi && (double)n < want)
		n *= 2;
	return n < hi ? n : hi;
}

/* The time between reads of the counts within a refresh after a read of
 * used keys and counted samples gathered over elapsed ns, full samples
 * lost to a full map (0: at the refresh only). After a loss, half the
 * time the map took to fill (the read's time in the share of its samples
 * it counted), down to a floor; doubled back, up to the refresh, once the
 * reads have used under a quarter of the map for a whole refresh (*light:
 * for how long so far), as bursts come and go within seconds. So keys no
 * map size foresaw (-c on a bursty event, many short processes) are lost
 * for a read, not for every refresh. Pure. */
uint64_t
engine_bpf_drain_every(uint64_t every, uint64_t refresh_ns, uint64_t *light, uint64_t elapsed,
                       uint32_t used, uint32_t entries, uint64_t counted, uint64_t full)
{
	if (full > 0) {
		double took = (double)(elapsed > 0 ? elapsed : refresh_ns) * (double)counted /
		              (double)(counted + full);

		*light = 0;
		every = (uint64_t)(took / 2);
		return every < ENGINE_BPF_MIN_DRAIN_NS ? ENGINE_BPF_MIN_DRAIN_NS : every;
	}
	if (every == 0 || used >= entries / 4) {
		*light = 0;
		return every;
	}
	*light += elapsed;
	if (*light < refresh_ns)
		return every;
	*light = 0;
	every *= 2;
	return every >= refresh_ns ? 0 : every;
}

/* The sum of per-CPU counters minus what was seen before (counters only
 * grow); seen is moved on. Pure. */
uint64_t
engine_bpf_lost_delta(const uint64_t *percpu, size_t ncpus, uint64_t *seen)
{
	uint64_t sum = 0, d;

	for (size_t i = 0; i < ncpus; i++)
		sum += percpu[i];
	d = sum >= *seen ? sum - *seen : 0;
	*seen = sum;
	return d;
}

/* Append v to the record at *n (the caller sized it). */
static void
put(uint64_t *rec, size_t *n, uint64_t v)
{
	rec[(*n)++] = v;
}

/* Append the non-marker addresses of a stack read from the map. */
static void
put_stack(uint64_t *rec, size_t *n, const uint64_t *ips, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (ips[i] < (uint64_t)PERF_CONTEXT_MAX)
			rec[(*n)++] = ips[i];
}

/* Lay out a PERF_RECORD_SAMPLE for sample_type from one counted key:
 * its count as the period, the kernel then the user stack as the
 * callchain (with their context markers), no user registers or stack
 * copy. rec must hold 16 + nk + nu words. Returns the record's size in
 * words. Pure (the unit tests parse it back). */
size_t
engine_bpf_record(uint64_t sample_type, const struct tt_prof_key *k, uint64_t count, uint64_t id,
                  const uint64_t *kips, size_t nk, const uint64_t *uips, size_t nu,
                  const struct engine_bpf_leaf *leaf, uint64_t *rec)
{
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE};
	uint64_t ip = k->ip;
	size_t n = 1, nrat = 0;
	bool kernel;

	if (nk > 0)
		ip = engine_bpf_first_ip(kips, nk, ip);
	else if (nu > 0)
		ip = engine_bpf_first_ip(uips, nu, ip);
	kernel = (int64_t)ip < 0;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		put(rec, &n, id);
	if (sample_type & PERF_SAMPLE_IP)
		put(rec, &n, ip);
	if (sample_type & PERF_SAMPLE_TID)
		put(rec, &n, (uint64_t)k->tid << 32 | k->pid);
	if (sample_type & PERF_SAMPLE_TIME)
		put(rec, &n, 0);
	if (sample_type & PERF_SAMPLE_CPU)
		put(rec, &n, 0);
	if (sample_type & PERF_SAMPLE_PERIOD)
		put(rec, &n, count);
	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		nrat = n;
		put(rec, &n, 0);
		if (nk > 0) {
			put(rec, &n, (uint64_t)PERF_CONTEXT_KERNEL);
			put_stack(rec, &n, kips, nk);
		}
		if (nu > 0) {
			put(rec, &n, (uint64_t)PERF_CONTEXT_USER);
			put_stack(rec, &n, uips, nu);
		}
		rec[nrat] = n - nrat - 1;
	}
	if (leaf != NULL && (sample_type & PERF_SAMPLE_REGS_USER) &&
	    (sample_type & PERF_SAMPLE_STACK_USER)) {
		/* what the unwinder needs to find the return address: the
		 * leaf's ip and sp, and the stack up to that word */
		unsigned nregs = (unsigned)__builtin_popcountll(UNWIND_REGS_MASK);

		put(rec, &n, PERF_SAMPLE_REGS_ABI_64);
		for (unsigned r = 0; r < nregs; r++)
			put(rec, &n, 0);
		rec[n - nregs + engine_bpf_regs_slot(UNWIND_PERF_REG_IP)] = leaf->ip;
		rec[n - nregs + engine_bpf_regs_slot(UNWIND_PERF_REG_SP)] = ENGINE_BPF_PROBE_SP;
		put(rec, &n, 8 * (leaf->word + 1U));
		for (unsigned w = 0; w <= leaf->word; w++)
			put(rec, &n, w == leaf->word ? leaf->ret : 0);
		put(rec, &n, 8 * (leaf->word + 1U));
	} else {
		if (sample_type & PERF_SAMPLE_REGS_USER)
			put(rec, &n, PERF_SAMPLE_REGS_ABI_NONE);
		if (sample_type & PERF_SAMPLE_STACK_USER)
			put(rec, &n, 0);
	}
	h.misc = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	h.size = (uint16_t)(n * sizeof *rec);
	memcpy(rec, &h, sizeof h);
	return n;
}

/* The ring path instead of BPF, for why; a refusal (privileges, the
 * kernel) is also the notice the header and batch show, once. */
static void
engine_bpf_fallback(struct engine *e, const struct tt_err *why, bool refused)
{
	snprintf(e->backend_why, sizeof e->backend_why, "%s", why->msg);
	if (refused) {
		/* one part of the session's notices: no "; " of its own (a
		 * verifier log's lines are joined so) */
		snprintf(e->bpf_notice, sizeof e->bpf_notice,
		         "BPF engine not used: %.420s, sampling through the rings", why->msg);
		for (char *p = e->bpf_notice; (p = strstr(p, "; ")) != NULL;)
			*p = ',';
	}
}

/* Whether the options let the BPF engine run, and why not (into why;
 * *refused when the mode fits but the kernel or privileges do not). */
static bool
engine_bpf_fits(const struct engine_opts *o, struct tt_err *why, bool *refused)
{
	if (!tt_bpf_built()) {
		err_set(why,
		        "BPF was not built in (configure found no libbpf or no clang for bpf)");
		return false;
	}
	if (o->nevents != 1) {
		err_set(why, "the BPF engine samples one event (%zu asked for)", o->nevents);
		return false;
	}
	if (o->callgraph == CALLGRAPH_DWARF) {
		err_set(why, "--call-graph dwarf needs the copied user stack of each sample");
		return false;
	}
	/* seen in tests/vm: Debian's 6.1 kernel locked up (soft lockup in
	 * tracetop) sampling a command with both; --engine bpf still tries */
	if (o->ftrace != NULL && o->backend != ENGINE_BACKEND_BPF) {
		err_set(why, "the function tracer is on (--ftrace): sampling through the rings");
		return false;
	}
	*refused = true;
	return tt_bpf_allowed(why);
}

/* Whether engine_bpf_setup will try the BPF engine: its rings then carry
 * only side-band records, opened to wake the loop at each. */
bool
engine_bpf_wanted(const struct engine_opts *o)
{
	struct tt_err why;
	bool refused = false;

	return o->backend != ENGINE_BACKEND_PERF && engine_bpf_fits(o, &why, &refused);
}

/* Load the program and attach it to every sampling fd of the evlist. */
static int
engine_bpf_load(struct engine *e, struct engine_bpf *b, const struct engine_opts *o,
                struct tt_err *err)
{
	const char *prog = b->stacks ? "tt_profile_stack" : "tt_profile_ip";
	uint32_t zero = 0;

	b->obj = tt_bpf_open(tt_bpf_profile_obj, tt_bpf_profile_obj_len, "tracetop_profile", err);
	if (b->obj == NULL || tt_bpf_resize(b->obj, "counts0", b->entries, err) != 0 ||
	    tt_bpf_resize(b->obj, "counts1", b->entries, err) != 0 ||
	    tt_bpf_resize(b->obj, "stacks", b->stacks ? b->nstacks : 1, err) != 0 ||
	    tt_bpf_resize(b->obj, "stacks2", b->stacks ? b->nstacks : 1, err) != 0 ||
	    tt_bpf_resize(b->obj, "leafs", b->stacks ? ENGINE_BPF_LEAFS : 1, err) != 0 ||
	    tt_bpf_autoload(b->obj, "tt_profile_stack", b->stacks, err) != 0 ||
	    tt_bpf_autoload(b->obj, "tt_profile_ip", !b->stacks, err) != 0 ||
	    tt_bpf_load(b->obj, err) != 0)
		return -1;
	b->counts[0] = tt_bpf_map_fd(b->obj, "counts0");
	b->counts[1] = tt_bpf_map_fd(b->obj, "counts1");
	b->gen_fd = tt_bpf_map_fd(b->obj, "gen");
	b->stacks_fd[0] = tt_bpf_map_fd(b->obj, "stacks");
	b->stacks_fd[1] = tt_bpf_map_fd(b->obj, "stacks2");
	b->lost_fd = tt_bpf_map_fd(b->obj, "lost");
	b->leafs_fd = tt_bpf_map_fd(b->obj, "leafs");
	if (tt_bpf_update(b->gen_fd, &zero, &zero) != 0)
		return err_set(err, "cannot set up the BPF maps");
	for (size_t i = 0; i < e->el.nfds; i++)
		if (tt_bpf_attach_perf(b->obj, prog, e->el.fds[i], err) != 0)
			return -1;
	return 0;
}

/* Free the reader and close the program (its fds: nothing outlives us). */
void
engine_bpf_free(struct engine *e)
{
	struct engine_bpf *b = e->bpf;

	if (b == NULL)
		return;
	tt_bpf_close(b->obj);
	for (uint32_t l = 0; b->cache != NULL && l < b->nlive; l++)
		free(b->cache[b->live[l]].ips);
	free(b->cache);
	engine_bpf_leaf_free(b);
	engine_bpf_scache_free(b);
	free(b->live);
	free(b->keys);
	free(b->vals);
	free(b->percpu);
	free(b->rec);
	free(b->buf);
	free(b->kb);
	free(b->ub);
	free(b);
	e->bpf = NULL;
}

/* The engine's line: what it aggregates in maps of what size, and how
 * often it reads them when a refresh's keys overflowed them. */
static void
engine_bpf_say(struct engine *e)
{
	const struct engine_bpf *b = e->bpf;
	char every[48] = "";

	if (b->drain_every != 0)
		snprintf(every, sizeof every, ", read every %llu ms",
		         (unsigned long long)(b->drain_every / 1000000));
	snprintf(e->backend_why, sizeof e->backend_why, "in-kernel aggregation, %s, maps of %u%s%s",
	         b->stacks ? "frame-pointer stacks" : "no stacks", b->entries,
	         b->stacks ? " keys and stacks" : " keys", every);
}

/* Choose the back-end and, for BPF, load it on the open evlist. With
 * --engine bpf a refusal is an error; with auto it falls back to the
 * rings, its reason kept for the header. */
int
engine_bpf_setup(struct engine *e, const struct engine_opts *o, struct tt_err *err)
{
	struct engine_bpf *b;
	struct tt_err why;
	bool refused = false;
	const char *env = getenv("TRACETOP_BPF_ENTRIES"); /* tests: small maps */
	uint64_t rate = o->freq ? o->freq : ENGINE_BPF_PERIOD_RATE;
	size_t ncpus = e->ncpus;

	e->backend = "perf";
	if (o->backend == ENGINE_BACKEND_PERF) {
		snprintf(e->backend_why, sizeof e->backend_why, "--engine perf");
		return 0;
	}
	if (!engine_bpf_fits(o, &why, &refused)) {
		if (o->backend == ENGINE_BACKEND_BPF)
			return err_set(err, "--engine bpf: %s", why.msg);
		engine_bpf_fallback(e, &why, refused);
		return 0;
	}
	b = e->bpf = xcalloc(1, sizeof *b);
	b->stacks = o->callgraph == CALLGRAPH_FP;
	b->refresh_ns = (uint64_t)((o->refresh > 0 ? o->refresh : 2) * 1e9);
	b->next_drain = UINT64_MAX;
	b->last_read = now_ns();
	b->entries = engine_bpf_entries(rate, ncpus, o->refresh, ENGINE_BPF_MIN_ENTRIES,
	                                ENGINE_BPF_MAX_ENTRIES);
	b->nstacks = engine_bpf_entries(rate, ncpus, o->refresh, ENGINE_BPF_MIN_STACKS,
	                                ENGINE_BPF_MAX_STACKS);
	if (env != NULL && atoi(env) > 0)
		b->entries = b->nstacks = (uint32_t)atoi(env);
	if (engine_bpf_load(e, b, o, &why) != 0) {
		engine_bpf_free(e);
		if (o->backend == ENGINE_BACKEND_BPF)
			return err_set(err, "--engine bpf: %s", why.msg);
		engine_bpf_fallback(e, &why, true);
		return 1; /* the evlist may hold a half-attached program: reopen */
	}
	b->keys = xcalloc(b->entries, sizeof *b->keys);
	b->vals = xcalloc(b->entries, sizeof *b->vals);
	b->ncpus = tt_bpf_ncpus();
	b->percpu = xcalloc((size_t)(b->ncpus > 0 ? b->ncpus : 1), sizeof *b->percpu);
	b->rec_cap = ENGINE_BPF_RECORD_WORDS;
	b->rec = xcalloc(b->rec_cap, sizeof *b->rec);
	b->buf = xcalloc(TT_PROF_MAX_DEPTH, sizeof *b->buf);
	b->kb = xcalloc(TT_PROF_MAX_DEPTH + 1, sizeof *b->kb);
	b->ub = xcalloc(TT_PROF_MAX_DEPTH + 1, sizeof *b->ub);
	if (b->stacks) {
		const char *leaves = getenv("TRACETOP_BPF_LEAVES"); /* tests: a full table */

		b->cache = xcalloc(2 * (size_t)b->nstacks, sizeof *b->cache);
		b->live = xmalloc(2 * (size_t)b->nstacks * sizeof *b->live);
		engine_bpf_scache_init(b);
		engine_bpf_leaf_init(b, leaves != NULL && atoi(leaves) > 0
		                            ? (uint32_t)atoi(leaves)
		                            : ENGINE_BPF_LEAFS / 4 * 3);
	}
	e->backend = "bpf";
	engine_bpf_say(e);
	return 0;
}

/* A count's frames into out (TT_PROF_MAX_DEPTH + 1): ip first unless 0,
 * then the stack of its callers; returns how many. */
static size_t
engine_bpf_frames(uint64_t *out, uint64_t ip, const uint64_t *ips, size_t nr)
{
	size_t n = 0;

	if (ip != 0)
		out[n++] = ip;
	for (size_t i = 0; i < nr && n < TT_PROF_MAX_DEPTH + 1; i++)
		out[n++] = ips[i];
	return n;
}

/* The frames of stack id (from the cache, or read from the map and
 * cached); false when the map no longer has it. */
static bool
engine_bpf_stack(struct engine_bpf *b, int id, const uint64_t **ips, size_t *nr, uint32_t *birth)
{
	struct engine_bpf_stack *c;
	uint32_t n = 0, map, key;

	*nr = 0;
	*ips = NULL;
	*birth = 0;
	if (id < 0)
		return true;
	map = (id & TT_PROF_STACK2) != 0;
	key = (uint32_t)id & ~(uint32_t)TT_PROF_STACK2;
	if (key >= b->nstacks)
		return false;
	c = &b->cache[map * b->nstacks + key]; /* the overflow map's after the first's */
	if (c->ips == NULL) {
		memset(b->buf, 0, TT_PROF_MAX_DEPTH * sizeof *b->buf);
		if (tt_bpf_lookup(b->stacks_fd[map], &key, b->buf) != 0)
			return false;
		while (n < TT_PROF_MAX_DEPTH && b->buf[n] != 0)
			n++;
		c->ips = xmalloc((n ? n : 1) * sizeof *c->ips);
		memcpy(c->ips, b->buf, n * sizeof *c->ips);
		c->nr = n;
		c->birth = ++b->births != 0 ? b->births : ++b->births;
		b->live[b->nlive++] = map * b->nstacks + key;
	}
	c->seen = b->reads;
	*ips = c->ips;
	*nr = c->nr;
	*birth = c->birth;
	return true;
}

/* Remove the stacks no count named in this read nor the one before from
 * the map and the cache: their buckets are free for new stacks. */
static void
engine_bpf_stacks_gc(struct engine_bpf *b)
{
	/* the cached ones only, not every bucket of both maps */
	for (uint32_t l = 0; l < b->nlive;) {
		uint32_t i = b->live[l], key = i % b->nstacks;
		struct engine_bpf_stack *c = &b->cache[i];

		/* two reads without it: a sample just after the flip that
		 * names a stack idle for one read still finds it at the next */
		if (c->seen + 1 >= b->reads) {
			l++;
			continue;
		}
		tt_bpf_delete(b->stacks_fd[i / b->nstacks], &key);
		free(c->ips);
		c->ips = NULL;
		b->live[l] = b->live[--b->nlive];
	}
}

/* A file that only a process in another mount namespace (or with its
 * binary deleted) reaches, through /proc/PID/root or map_files: its
 * symbols are loaded while that process lives, from its exec mapping (the
 * side-band is read within SESSION_IDLE_WAIT_MS), for its samples come
 * only at the refresh, maybe after it has gone with its files. */
void
engine_bpf_mmap(struct engine *e, const struct record_mmap *m)
{
	struct thread *th = tasks_find_thread(e->tasks, (int)m->tid);
	const struct map *mp = th != NULL ? task_find_map(th->proc, m->start) : NULL;

	if (mp != NULL && mp->dso->open_path != NULL)
		engine_defer_preload(e, mp->dso, true);
}

/* What the kernel could not count since the last read, as lost samples. */
static uint64_t
engine_bpf_lost(struct engine_bpf *b)
{
	uint64_t n = 0;

	for (uint32_t why = 0; why < TT_PROF_NLOST; why++) {
		uint64_t d;

		memset(b->percpu, 0, (size_t)b->ncpus * sizeof *b->percpu);
		if (tt_bpf_lookup(b->lost_fd, &why, b->percpu) != 0)
			continue;
		d = engine_bpf_lost_delta(b->percpu, (size_t)b->ncpus, &b->lost_seen[why]);
		b->lost_by[why] += d;
		n += d;
	}
	return n;
}

/* Read and empty the counts of the last refresh, feeding each to
 * engine_sample as a record weighted by its count; side-band records
 * first, so that the samples meet the process model of their refresh. */
void
engine_bpf_collect(struct engine *e)
{
	struct engine_bpf *b = e->bpf;
	uint64_t id = e->el.nevsels == 1 && e->el.evsels[0].nids > 0 ? e->el.evsels[0].ids[0] : 0;
	uint32_t old, n;
	uint64_t gone = 0, counted = 0, lost, full, every, now;

	if (b == NULL)
		return;
	b->next_drain = UINT64_MAX; /* the read below must not drain again */
	engine_read(e);
	old = b->gen;
	b->gen ^= 1;
	{
		uint32_t zero = 0;

		tt_bpf_update(b->gen_fd, &zero, &b->gen);
	}
	n = b->entries;
	tt_bpf_drain(b->counts[old], b->keys, b->vals, sizeof *b->keys, sizeof *b->vals, &n);
	b->reads++;
	for (uint32_t i = 0; i < n; i++) {
		const struct tt_prof_key *k = &b->keys[i];
		const uint64_t *kips = NULL, *uips = NULL;
		size_t nk = 0, nu = 0;
		struct engine_bpf_leaf leaf;
		uint32_t kbirth, ubirth;
		bool fix;

		counted += b->vals[i].count;
		if (b->stacks && (!engine_bpf_stack(b, k->kstack, &kips, &nk, &kbirth) ||
		                  !engine_bpf_stack(b, k->ustack, &uips, &nu, &ubirth))) {
			gone += b->vals[i].count;
			continue;
		}
		if (b->stacks) {
			/* the sampled ip leads the stack of its side */
			bool kernel = (int64_t)k->ip < 0;

			nk = engine_bpf_frames(b->kb, kernel ? k->ip : 0, kips, nk);
			nu = engine_bpf_frames(b->ub, kernel ? 0 : k->ip, uips, nu);
			kips = b->kb;
			uips = b->ub;
		}
		fix = b->stacks && engine_bpf_leaf(e, b, k, &b->vals[i], uips, nu, &leaf);
		b->ubirth = ubirth;
		b->kbirth = kbirth;
		if (engine_bpf_count(e, b, k, b->vals[i].count, kips, nk, uips, nu,
		                     fix ? leaf.ret : 0))
			continue;
		/* a frame waits for symbols: a record of it waits (engine-defer.c) */
		engine_bpf_record(e->el.sample_type, k, b->vals[i].count, id, kips, nk, uips, nu,
		                  fix ? &leaf : NULL, b->rec);
		engine_sample(e, (const struct perf_event_header *)b->rec);
	}
	engine_bpf_scache_flush(e, b);
	if (b->stacks) {
		engine_bpf_stacks_gc(b);
		engine_bpf_scache_gc(b);
		engine_bpf_leaf_notice(e, b);
	}
	b->lost_by[TT_PROF_NLOST] += gone;
	full = b->lost_by[TT_PROF_LOST_FULL];
	lost = engine_bpf_lost(b) + gone;
	now = now_ns();
	every =
	    engine_bpf_drain_every(b->drain_every, b->refresh_ns, &b->light, now - b->last_read, n,
	                           b->entries, counted, b->lost_by[TT_PROF_LOST_FULL] - full);
	b->last_read = now;
	if (every != b->drain_every) {
		b->drain_every = every;
		engine_bpf_say(e);
	}
	b->next_drain = b->drain_every != 0 ? now + b->drain_every : UINT64_MAX;
	if (lost > 0)
		engine_lost(e, lost);
}

/* Read the counts before the refresh when they are due (the maps filled
 * within a refresh). */
void
engine_bpf_poll(struct engine *e)
{
	if (e->bpf != NULL && e->bpf->drain_every != 0 && now_ns() >= e->bpf->next_drain)
		engine_bpf_collect(e);
}

/* When the counts must be read next, UINT64_MAX when at the refresh. */
uint64_t
engine_bpf_deadline(const struct engine *e)
{
	return e->bpf != NULL && e->bpf->drain_every != 0 ? e->bpf->next_drain : UINT64_MAX;
}
