/* engine-defer: samples that wait for symbol tables loaded on the worker.
 * The first samples of a process name DSOs whose symbols nobody has read
 * yet (11 ms for libc, 55 ms for libLLVM, more with demangling); read on
 * the loop thread, in the middle of a ring drain, they would stall it
 * while the rings fill. So a DSO's load goes to the worker as a
 * dso_load_job, and a sample that needs it waits: its record is copied
 * into one buffer, allocated once, and replayed through engine_sample
 * when the worker has answered for every DSO it waits for. A replay runs
 * against the process model as it is then, so nothing that changes a
 * waiting sample's process or thread may be applied first: before an
 * exec or an exec mapping of its process, a new task taking its pid or
 * tid, or tasks_reap freeing its exited thread, it is counted at once,
 * its symbols loaded here, the old synchronous way (as when the buffer is
 * full, and before the last report once the worker has had up to 5 s to
 * answer). Loaded here, a stripped file gets no debuginfod download (the
 * loop thread never waits for the network): only one already in the
 * client's cache names it. An exit itself changes nothing a
 * replay reads (the dead thread keeps its process and maps until reaped),
 * so a short-lived process's samples still wait for the worker. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine-impl.h"
#include "tracetop/sym-debuginfod.h"
#include "tracetop/dso.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"
#include "tracetop/worker.h"

/* Bytes of waiting samples held at most: a few hundred with DWARF stack
 * copies of 8 KiB, thousands with frame pointers. */
#define ENGINE_DEFER_BYTES (4U << 20)
/* Times a sample may wait (its replay found another DSO loading, e.g. a
 * DWARF sample unwound only once its leaf's symbols came); then it is
 * counted with the rest of its symbols loaded here. */
#define ENGINE_DEFER_MAX_WAITS 3
/* The last report waits this long at most for the symbol tables the worker
 * is still loading (a debuginfod download, a big library) rather than
 * count their samples with tables loaded here, without the download. */
#define ENGINE_DEFER_SETTLE_NS 5000000000ULL
/* How long the first report waits for it with debuginfod on (a download
 * may be under way); off, it counts what waits at once: the first screen
 * should show rows, not wait for tables the worker is still reading. */
#define ENGINE_DEFER_FIRST_NS 50000000ULL
/* How long a load needed here waits for the worker's load of the same DSO
 * already under way (reading it twice would double the time and the peak
 * memory: kallsyms is ~10 MiB of table). */
#define ENGINE_DEFER_JOIN_NS 500000000ULL
/* How long it naps between looks at the worker's answers. */
#define ENGINE_DEFER_SETTLE_NAP_NS 1000000L

/* A load with the worker, in the engine's list until answered. */
struct engine_load {
	struct engine_load *prev, *next;
	struct engine *e;
	struct dso *d;
	struct dso_load_job *job;
};

/* A waiting sample in the buffer; its record's bytes follow. */
struct engine_defer_entry {
	uint32_t len; /* of the entry, record included, a multiple of 8 */
	int32_t pid, tid;
	uint8_t waits; /* times it had to wait */
	uint8_t ndso;
	struct dso *dso[ENGINE_DEFER_DSOS]; /* what it waits for */
};

/* Which held samples a pass counts at once (the others only when the
 * worker has answered for them). */
struct engine_defer_sel {
	int why;             /* an engine_defer_why, or -1 for none */
	int pid, tid;        /* ENGINE_DEFER_MODEL: of process pid, of thread tid */
	uint64_t now, grace; /* ENGINE_DEFER_GONE: of threads dead for grace */
};

/* The bit of a pid or tid in engine_defer's filters. */
static uint64_t
id_bit(int id)
{
	return 1ULL << (hash_u64((uint64_t)(uint32_t)id) & 63);
}

/* On the worker: read the DSO's file into the job. Samples wait for it,
 * so it goes before put-off jobs, unless it would download a debug file
 * (debuginfod): that waits until the quick jobs are done. */
static bool
engine_load_run(struct worker_job *j, bool may_defer)
{
	return dso_load_job_run(((struct engine_load *)j->obj)->job, may_defer);
}

/* Take a load out of the engine's list. */
static void
engine_load_unlink(struct engine *e, struct engine_load *l)
{
	if (l->prev != NULL)
		l->prev->next = l->next;
	else
		e->defer.loads = l->next;
	if (l->next != NULL)
		l->next->prev = l->prev;
}

/* On the loop thread (worker_poll): install the answer, unless the DSO
 * was loaded here meanwhile. */
static void
engine_load_done(struct worker_job *j)
{
	struct engine_load *l = j->obj;
	struct engine *e = l->e;

	if (!l->d->loaded)
		e->stats.async_loads++;
	engine_load_unlink(e, l);
	dso_load_job_finish(l->job);
	free(l);
	e->defer.answers++;
}

/* Ask the worker to load d; false when its queue is full. */
static bool
engine_load_post(struct engine *e, struct dso *d)
{
	struct engine_load *l = xcalloc(1, sizeof *l);
	struct worker_job j = {.run = engine_load_run, .done = engine_load_done, .obj = l};

	l->e = e;
	l->d = d;
	l->job = dso_load_job_new(d);
	if (!worker_post(e->worker, &j)) {
		dso_load_job_free(l->job);
		free(l);
		return false;
	}
	l->next = e->defer.loads;
	if (l->next != NULL)
		l->next->prev = l;
	e->defer.loads = l;
	return true;
}

/* Load d's symbols on this thread: a sample needs them and cannot wait
 * (for the worker's load of them, if one is under way, a little). */
static void
engine_load_now(struct engine *e, struct dso *d)
{
	const struct timespec nap = {0, ENGINE_DEFER_SETTLE_NAP_NS};
	uint64_t end = now_ns() + ENGINE_DEFER_JOIN_NS;

	while (d->loading && !d->loaded && e->worker != NULL && now_ns() < end) {
		nanosleep(&nap, NULL);
		worker_poll(e->worker); /* installs answers; replays nothing */
	}
	if (d->loaded)
		return;
	dso_load_now(d);
	e->stats.sync_loads++;
}

/* Load d's symbols ahead of its samples: on the worker, or (or_now) here
 * when it has no room; whether they are loaded or on their way. */
bool
engine_defer_preload(struct engine *e, struct dso *d, bool or_now)
{
	if ((d->kind != DSO_ELF && d->kind != DSO_KERNEL) || d->loaded || d->loading)
		return true;
	if (e->worker != NULL && engine_load_post(e, d))
		return true;
	if (or_now)
		engine_load_now(e, d);
	return or_now;
}

/* Whether the sample being resolved waits for d (see engine_defer_ip). */
static bool
engine_defer_dso(struct engine *e, struct dso *d)
{
	struct engine_defer *df = &e->defer;
	size_t i;

	if ((d->kind != DSO_ELF && d->kind != DSO_KERNEL) || d->loaded)
		return false;
	if (df->sync || (!d->loading && !engine_load_post(e, d))) {
		engine_load_now(e, d);
		return false;
	}
	df->waiting = true;
	for (i = 0; i < df->nmiss && df->miss[i] != d; i++)
		;
	if (i == df->nmiss && df->nmiss < ENGINE_DEFER_DSOS)
		df->miss[df->nmiss++] = d;
	return true;
}

/* Whether a user address's symbols make the sample wait. */
bool
engine_defer_ip(struct engine *e, struct thread *th, uint64_t ip)
{
	const struct map *m;

	if (e->worker == NULL || th == NULL || (m = task_find_map(th->proc, ip)) == NULL)
		return false;
	return engine_defer_dso(e, m->dso);
}

/* Whether a kernel address's symbols make the sample wait (the kernel's
 * table, read from kallsyms on the worker since the start). */
bool
engine_defer_kernel(struct engine *e)
{
	return e->worker != NULL && engine_defer_dso(e, dso_kernel(NULL));
}

/* Whether the worker has answered for every DSO an entry waits for. */
static bool
engine_defer_ready(const struct engine_defer_entry *en)
{
	for (size_t i = 0; i < en->ndso; i++)
		if (!en->dso[i]->loaded && en->dso[i]->loading)
			return false;
	return true;
}

/* Copy the sample's list of DSOs it waits for into an entry. */
static void
engine_defer_note(struct engine_defer *df, struct engine_defer_entry *en)
{
	memcpy(en->dso, df->miss, df->nmiss * sizeof *df->miss);
	en->ndso = (uint8_t)df->nmiss;
	en->waits++;
}

/* Keep a sample that waits. */
bool
engine_defer_keep(struct engine *e, const struct perf_event_header *h,
                  const struct record_sample *s)
{
	struct engine_defer *df = &e->defer;
	int pid = (int)s->pid, tid = (int)s->tid;
	struct engine_defer_entry en = {.pid = pid, .tid = tid};
	size_t size;

	if (!df->waiting) {
		df->nmiss = 0;
		return false;
	}
	df->waiting = false;
	if (df->replaying != NULL) {
		/* in place: the buffer is being walked */
		engine_defer_note(df, df->replaying);
		df->kept = true;
		df->rewaits++;
		df->nmiss = 0;
		return true;
	}
	engine_defer_note(df, &en);
	df->nmiss = 0;
	en.len = (uint32_t)((sizeof en + h->size + 7) & ~(size_t)7);
	if (df->buf == NULL)
		df->buf = xmalloc(ENGINE_DEFER_BYTES);
	if (df->used + en.len > ENGINE_DEFER_BYTES)
		engine_defer_flush(e, ENGINE_DEFER_FULL); /* empties it: a record fits */
	/* only the stack the kernel filled: a DWARF sample's 8 KiB copy is
	 * mostly unused, and the buffer's pages are tracetop's peak RSS */
	size = record_sample_shrink_stack(h, s, df->buf + df->used + sizeof en);
	en.len = (uint32_t)((sizeof en + size + 7) & ~(size_t)7);
	memcpy(df->buf + df->used, &en, sizeof en);
	df->used += en.len;
	df->n++;
	df->pids |= id_bit(pid);
	df->tids |= id_bit(tid);
	e->stats.deferred++;
	return true;
}

/* Count a held sample (forced: loading what it lacks here first); whether
 * it waits again instead. */
static bool
engine_defer_replay(struct engine *e, struct engine_defer_entry *en, bool force)
{
	struct engine_defer *df = &e->defer;

	if (force)
		for (size_t i = 0; i < en->ndso; i++)
			engine_load_now(e, en->dso[i]);
	df->replaying = en;
	df->kept = false;
	df->sync = force || en->waits >= ENGINE_DEFER_MAX_WAITS;
	engine_sample(e, (const struct perf_event_header *)(en + 1));
	df->sync = false;
	df->replaying = NULL;
	if (!df->kept)
		e->stats.replayed++;
	return df->kept;
}

/* Whether a pass counts a held sample at once. */
static bool
engine_defer_selected(struct engine *e, const struct engine_defer_sel *sel,
                      const struct engine_defer_entry *en)
{
	struct thread *th;

	switch (sel->why) {
	case ENGINE_DEFER_MODEL:
		return (sel->pid >= 0 && en->pid == sel->pid) ||
		       (sel->tid >= 0 && en->tid == sel->tid);
	case ENGINE_DEFER_GONE:
		th = tasks_thread(e->tasks, en->pid, en->tid);
		return th == NULL || (th->dead && sel->now >= th->dead_at &&
		                      sel->now - th->dead_at >= sel->grace);
	case ENGINE_DEFER_FULL:
	case ENGINE_DEFER_FINAL:
	case ENGINE_DEFER_FIRST:
		return true;
	default:
		return false;
	}
}

/* One walk over the held samples: replay those answered for, count at
 * once those sel selects; pack the rest to the front. */
static void
engine_defer_pass(struct engine *e, const struct engine_defer_sel *sel)
{
	struct engine_defer *df = &e->defer;
	size_t r = 0, w = 0, n = 0;

	df->pids = df->tids = 0;
	while (r < df->used) {
		struct engine_defer_entry *en = (struct engine_defer_entry *)(df->buf + r);
		size_t len = en->len;
		int pid = en->pid, tid = en->tid;
		bool force = engine_defer_selected(e, sel, en);

		if (force)
			df->forced[sel->why]++;
		if ((force || engine_defer_ready(en)) && !engine_defer_replay(e, en, force)) {
			r += len;
			continue;
		}
		if (w != r)
			memmove(df->buf + w, df->buf + r, len);
		df->pids |= id_bit(pid);
		df->tids |= id_bit(tid);
		w += len;
		r += len;
		n++;
	}
	df->used = w;
	df->n = n;
}

/* Take the worker's answers; replay what they complete. */
void
engine_defer_poll(struct engine *e, bool rescan)
{
	struct engine_defer *df = &e->defer;

	if (e->worker == NULL)
		return;
	worker_poll(e->worker);
	if ((rescan || df->answers != df->seen) && df->n > 0) {
		const struct engine_defer_sel none = {.why = -1};

		engine_defer_pass(e, &none);
	}
	df->seen = df->answers;
}

/* Before process pid's or thread tid's model changes: their samples now. */
void
engine_defer_model(struct engine *e, int pid, int tid)
{
	const struct engine_defer *df = &e->defer;
	const struct engine_defer_sel sel = {.why = ENGINE_DEFER_MODEL, .pid = pid, .tid = tid};

	if (df->n > 0 &&
	    ((pid >= 0 && (df->pids & id_bit(pid))) || (tid >= 0 && (df->tids & id_bit(tid)))))
		engine_defer_pass(e, &sel);
}

/* Before tasks_reap: the samples of the threads it frees, now. */
void
engine_defer_gone(struct engine *e, uint64_t now, uint64_t grace)
{
	const struct engine_defer_sel sel = {.why = ENGINE_DEFER_GONE, .now = now, .grace = grace};

	if (e->defer.n > 0)
		engine_defer_pass(e, &sel);
}

/* Before the first or last report: let the worker answer the loads it has
 * (for at most wait_ns), replaying the samples they complete. */
static void
engine_defer_settle(struct engine *e, uint64_t wait_ns)
{
	const struct timespec nap = {0, ENGINE_DEFER_SETTLE_NAP_NS};
	uint64_t end = now_ns() + wait_ns;

	while (e->worker != NULL && e->defer.n > 0 && e->defer.loads != NULL && now_ns() < end) {
		nanosleep(&nap, NULL);
		engine_defer_poll(e, false);
	}
}

/* Every waiting sample now (the last report first gives the worker a
 * little time); for the first report with debuginfod on, only the samples
 * the worker answers within a short wait. */
void
engine_defer_flush(struct engine *e, enum engine_defer_why why)
{
	const struct engine_defer_sel sel = {.why = (int)why};

	if (why == ENGINE_DEFER_FIRST && symdbg_enabled()) {
		/* with debuginfod on, only wait: a load still out may be a
		 * download, which a load here would lose (it never downloads) */
		engine_defer_settle(e, ENGINE_DEFER_FIRST_NS);
		return;
	}
	if (why == ENGINE_DEFER_FINAL)
		engine_defer_settle(e, ENGINE_DEFER_SETTLE_NS);

	if (e->defer.n > 0)
		engine_defer_pass(e, &sel);
}

/* Free what the worker never answered, and the buffer. */
void
engine_defer_free(struct engine *e)
{
	struct engine_load *l, *next;

	for (l = e->defer.loads; l != NULL; l = next) {
		next = l->next;
		dso_load_job_free(l->job);
		free(l);
	}
	e->defer.loads = NULL;
	free(e->defer.buf);
	e->defer.buf = NULL;
	e->defer.used = e->defer.n = 0;
}
