/* engine: from ring bytes to counted (task, DSO, symbol) samples. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracetop/addrhist.h"
#include "tracetop/callgraph.h"
#include "tracetop/dso.h"
#include "tracetop/engine.h"
#include "tracetop/stream.h"
#include "engine-impl.h"
#include "tracetop/evlist.h"
#include "tracetop/procprime.h"
#include "tracetop/record.h"
#include "tracetop/srcline.h"
#include "tracetop/tasks.h"
#include "tracetop/unwind.h"
#include "tracetop/sym-debuginfod.h"
#include "tracetop/worker.h"

/* User stack copied per sample in fp mode: enough for a frameless leaf's
 * return address (its CFA rule), far cheaper than a dwarf copy. */
#define ENGINE_LEAF_STACK 512
/* Records between two releases of ring space during a pass. */
#define ENGINE_RELEASE_EVERY 64
/* Jobs queued to the worker at most: symbol loads (more load at once) and
 * inline lookups (more wait for a later miss). */
#define ENGINE_WORKER_DEPTH 1024
/* Functions with per-instruction counts without being asked for: the
 * hottest of the last refresh, about a Top pane's screenful, so the
 * Annotate pane opens on any of them with history. */
#define ENGINE_ANNOTATE_TOP 64
/* Call-graph branches under this percent of their command fold into [other]. */

/* Dead tasks are kept this long for samples still queued on other CPUs. */
#define ENGINE_REAP_GRACE_NS (5ULL * 1000000000ULL)
/* The loop thread's time per pass for reading the start's processes
 * (procprime): 2,000 take some 150 ms here, so about ten passes of the
 * loop's 200 ms turns, and a key waits 20 ms at most behind one. */
#define ENGINE_PRIME_BUDGET_NS (20ULL * 1000000ULL)
/* The side-band records (new processes and mappings) are read at least
 * this often: a process in another mount namespace, or whose binary was
 * deleted, must still be there for its symbols to load. The rings of
 * samples wake the loop only when an eighth full; the BPF engine's, which
 * carry only side band, wake it at each record and then hold off this
 * long (the session's holdoff). */
#define ENGINE_SIDE_WAIT_NS (500ULL * 1000000ULL)

/* The next unread record of one ring, in the merge heap. */
struct engine_head {
	uint64_t time;
	const struct perf_event_header *h;
	struct ring *ring;
	bool trace; /* one of the stream's own rings */
};

/* Open the session. */
struct engine *
engine_new(const struct engine_opts *o, struct tt_err *err)
{
	struct engine *e = xcalloc(1, sizeof *e);
	struct evlist_target t;
	struct evlist_params p = {
	    .freq = o->freq,
	    .period = o->period,
	    .mmap_pages = o->mmap_pages,
	    .sample_type = ENGINE_SAMPLE_TYPE,
	    .wake_each = engine_bpf_wanted(o),
	};

	if (o->callgraph != CALLGRAPH_NONE) {
		/* The kernel part of a stack always comes from the callchain;
		 * the user part from frame pointers (plus a small stack copy
		 * for the leaf's caller) or from unwinding a full copy. */
		p.sample_type |=
		    PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		p.regs_user = UNWIND_REGS_MASK;
		p.stack_user = o->callgraph == CALLGRAPH_DWARF ? o->stack_size : ENGINE_LEAF_STACK;
		p.exclude_callchain_user = o->callgraph == CALLGRAPH_DWARF;
	}
	size_t i;

	e->go_fd = e->err_fd = -1;
	e->self = getpid();
	e->include_self = o->include_self;
	e->decay = o->decay;
	e->cg_mode = o->callgraph;
	e->trace_log = o->trace_log;
	e->fcache = xcalloc(ENGINE_FCACHE_SIZE, sizeof *e->fcache);
	e->fgen = 1;
	/* Without the thread symbols load on this one, as samples need them,
	 * and stacks lack inlined frames. */
	if (o->nevents > 0) {
		int errnum;

		e->worker = worker_new(ENGINE_WORKER_DEPTH, &errnum);
	}
	if (o->callgraph != CALLGRAPH_NONE) {
		e->unwind = unwind_new();
		if (e->worker != NULL)
			e->srcl = srcline_async_new(e->worker);
	}
	e->unknown_comm = str_intern("[unknown]");
	if (engine_target_setup(e, o, &t, err) != 0 ||
	    evlist_open(&e->el, o->events, o->nevents, &t, &p, err) != 0) {
		engine_free(e);
		return NULL;
	}
	/* The same events either way: with BPF on them their samples are
	 * counted in the kernel and only side-band records reach the rings.
	 * A program attached to some fds before a refusal stays with them:
	 * the ring path then reopens the events. */
	switch (engine_bpf_setup(e, o, err)) {
	case -1:
		engine_free(e);
		return NULL;
	case 1:
		evlist_close(&e->el);
		memset(&e->el, 0, sizeof e->el);
		p.wake_each = false; /* samples in the rings again */
		if (evlist_open(&e->el, o->events, o->nevents, &t, &p, err) != 0) {
			engine_free(e);
			return NULL;
		}
		break;
	}
	engine_compose_notice(e);
	e->inherit = t.inherit;
	e->nheap = e->el.nrings;
	e->heap = xcalloc(e->nheap ? e->nheap : 1, sizeof *e->heap);
	e->events = xcalloc(e->el.nevsels, sizeof *e->events);
	for (i = 0; i < e->el.nevsels; i++) {
		e->events[i].hist = hist_new(o->decay);
		if (o->callgraph != CALLGRAPH_NONE)
			e->events[i].cg = cg_new(o->decay, ENGINE_CG_MIN_PERCENT);
		e->el.evsels[i].priv = &e->events[i];
	}
	e->tasks = tasks_new("/proc");
	/* Kernel symbols (kallsyms takes ~0.1 s to read) load on the worker
	 * from the start, their samples waiting meanwhile. With DWARF stack
	 * copies (8 KiB a sample) or without a worker, now: waiting samples
	 * would fill the defer buffer, and a stall in the first drain while
	 * stack copies stream in overflows the rings (999 lost at 4 kHz). */
	if ((o->callgraph == CALLGRAPH_DWARF ||
	     !engine_defer_preload(e, dso_kernel(NULL), false)) &&
	    o->callgraph != CALLGRAPH_NONE)
		dso_find_sym(dso_kernel(NULL), 0);
	e->last_tick_ns = now_ns();
	if ((o->ntraces > 0 || o->ftrace != NULL) && engine_trace_setup(e, o, err) != 0) {
		engine_free(e);
		return NULL;
	}
	return e;
}

/* Enable sampling and release the command. */
int
engine_start(struct engine *e, struct tt_err *err)
{
	int rc;

	if (e->child == 0) {
		rc = evlist_enable(&e->el);
		if (rc < 0)
			return err_set(err, "cannot enable the events: %s", strerror(-rc));
		if (e->trace != NULL && engine_trace_start(e, err) != 0)
			return -1;
		e->started = true;
		e->last_tick_ns = now_ns();
		return 0;
	}
	/* enable_on_exec starts the counters at the exec itself */
	if (write(e->go_fd, "g", 1) != 1)
		return err_set(err, "cannot start the command: %s", strerror(errno));
	close(e->go_fd);
	e->go_fd = -1;
	if (read(e->err_fd, &rc, sizeof rc) == (ssize_t)sizeof rc) {
		waitpid(e->child, &e->child_status, 0);
		e->child_done = true;
		return err_set(err, "cannot start %s: %s%s", e->target, strerror(rc),
		               rc == ENOENT   ? " (check its name and PATH)"
		               : rc == EACCES ? " (is it executable?)"
		                              : "");
	}
	close(e->err_fd);
	e->err_fd = -1;
	e->started = true;
	e->last_tick_ns = now_ns();
	return 0;
}

/* The ring fds for poll. */
size_t
engine_pollfds(const struct engine *e, struct pollfd *fds, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < e->el.nrings && n < max; i++)
		fds[n++] = (struct pollfd){.fd = e->el.ring_fds[i], .events = POLLIN};
	for (i = 0; i < engine_trace_nrings(e) && n < max; i++) {
		int fd;

		engine_trace_ring(e, i, &fd);
		fds[n++] = (struct pollfd){.fd = fd, .events = POLLIN};
	}
	return n;
}

/* Count records the kernel dropped (full rings): the stream's when they
 * came from its own rings, else the profile's; a stream sharing the
 * samples' rings counts those too, so its reports say that events are
 * missing. */
void
engine_lost(struct engine *e, uint64_t n)
{
	if (e->in_trace_ring) {
		stream_add_lost(engine_stream(e), n);
		return;
	}
	e->stats.lost += n;
	if (e->trace != NULL && engine_trace_nrings(e) == 0)
		stream_add_lost(engine_stream(e), n);
}

/* Apply a side-band record to the process model and counters. */
static void
engine_sideband(struct engine *e, const struct perf_event_header *h)
{
	uint64_t st = e->el.sample_type;
	union {
		struct record_mmap m;
		struct record_comm c;
		struct record_task t;
		struct record_lost l;
		struct record_lost_samples ls;
	} r;

	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (record_parse_mmap(h, st, &r.m) == 0 && r.m.exec) {
			engine_defer_model(e, (int)r.m.pid, -1);
			tasks_mmap(e->tasks, &r.m);
			/* a process's new mapping changes what its own addresses
			 * are (its mgen); the kernel's, any kernel address */
			if (r.m.pid == UINT32_MAX)
				e->fgen++;
			if (e->bpf != NULL)
				engine_bpf_mmap(e, &r.m);
		}
		break;
	case PERF_RECORD_COMM:
		if (record_parse_comm(h, st, &r.c) == 0) {
			/* A rename alone changes no image: a waiting sample of
			 * the thread takes the new name, as it would a moment
			 * later. */
			if (r.c.exec)
				engine_defer_model(e, (int)r.c.pid, -1);
			tasks_comm(e->tasks, &r.c); /* an exec: a new mgen */
			if (r.c.exec && e->bpf != NULL)
				engine_bpf_forget(e, (int)r.c.pid);
		}
		break;
	case PERF_RECORD_FORK:
		/* A new task may take the pid or tid of one that exited with
		 * samples waiting: those count against the old one first. */
		if (record_parse_task(h, st, &r.t) == 0) {
			engine_defer_model(e, r.t.pid != r.t.ppid ? (int)r.t.pid : -1,
			                   (int)r.t.tid);
			tasks_fork(e->tasks, &r.t);
			if (r.t.pid != r.t.ppid && e->bpf != NULL)
				engine_bpf_forget(e, (int)r.t.pid);
		}
		break;
	case PERF_RECORD_EXIT:
		/* Its waiting samples may wait on: the dead thread keeps its
		 * process and maps until reaped (see engine_tick). */
		if (record_parse_task(h, st, &r.t) == 0)
			tasks_exit(e->tasks, &r.t);
		break;
	case PERF_RECORD_LOST:
		if (record_parse_lost(h, st, &r.l) == 0)
			engine_lost(e, r.l.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (record_parse_lost_samples(h, st, &r.ls) == 0)
			engine_lost(e, r.ls.lost);
		break;
	case PERF_RECORD_THROTTLE:
		e->stats.throttled++;
		break;
	}
}

/* The event's address histogram, made on first use: per-instruction
 * counts only for the functions a user may annotate. */
static struct addrhist *
engine_event_ah(struct engine *e, struct engine_event *ev)
{
	if (ev->ah == NULL) {
		ev->ah = addrhist_new(e->decay);
		addrhist_keep_top(ev->ah, ENGINE_ANNOTATE_TOP);
	}
	return ev->ah;
}

/* Count the sampled instruction in its function's address histogram (the
 * leaf was just resolved: a cache hit). */
static void
engine_addrhist_add(struct engine *e, struct engine_event *ev, struct thread *th, uint64_t ip,
                    bool kernel, uint64_t w, const struct hist_key *leaf)
{
	struct hist_key key;
	const struct engine_fcache *c = engine_resolve(e, th, ip, kernel, &key);
	const struct addrhist_who who = {
	    .comm = leaf->comm, .pid = leaf->pid, .tid = leaf->tid, .cgroup = leaf->cgroup};

	if (c->sym == NULL || c->elf == 0)
		return;
	addrhist_add_who(engine_event_ah(e, ev), c->dso, c->sym, kernel, c->elf, w, &who);
}

/* Count one sample: the hot path (no allocation once tasks are known). */
void
engine_sample(struct engine *e, const struct perf_event_header *h)
{
	struct hist_key keys[ENGINE_MAX_FRAMES];
	uint64_t ips[ENGINE_MAX_FRAMES];
	bool kern[ENGINE_MAX_FRAMES];
	struct record_sample s;
	struct thread *th;
	struct engine_event *ev;
	struct evsel *sel;
	struct hist *zoom;
	size_t n = 1, self;
	uint64_t w;

	if (e->trace != NULL && engine_trace_sample(e, h))
		return;
	if (record_parse_sample(h, e->el.sample_type, UNWIND_REGS_MASK, &s) != 0) {
		e->stats.bad_records++;
		return;
	}
	if (!e->include_self && (int)s.pid == e->self) {
		e->stats.excluded++;
		return;
	}
	/* a BPF aggregate carries its count as its period */
	w = e->bpf != NULL ? s.period : 1;
	sel = e->el.nevsels == 1 ? &e->el.evsels[0] : evlist_find_id(&e->el, s.id);
	if (sel == NULL)
		return;
	ev = sel->priv;
	zoom = e->zoom_tid != 0 && (int)s.tid == e->zoom_tid ? ev->zoom : NULL;
	th = tasks_thread(e->tasks, (int)s.pid, (int)s.tid);
	if (ev->cg != NULL) {
		n = engine_chain(e, th, &s, ips, kern);
	} else {
		ips[0] = s.ip;
		kern[0] = s.kernel;
	}
	n = engine_keys(e, th, (int)s.pid, (int)s.tid, ips, kern, n, keys, &self, NULL);
	if (engine_defer_keep(e, h, &s))
		return; /* counted once its symbols are loaded */
	engine_count_keys(e, ev, th, zoom, ips[0], kern[0], keys, n, self, w);
}

/* Count w samples of the sampled function (its key leaf; ip, kernel: the
 * sampled address): its self row, per instruction, its object's share
 * and the samples; the callers are the caller's. */
void
engine_count_self(struct engine *e, struct engine_event *ev, struct thread *th, struct hist *zoom,
                  uint64_t ip, bool kernel, const struct hist_key *leaf, uint64_t w)
{
	hist_add_n(ev->hist, leaf, w);
	engine_addrhist_add(e, ev, th, ip, kernel, w, leaf);
	engine_inl_count(e, leaf->dso, w);
	if (zoom != NULL)
		hist_add_n(zoom, leaf, w);
	ev->samples += w;
	e->stats.samples += w;
}

/* Count w samples of a resolved stack of n keys (the sampled function
 * at self; ip, kernel: the sampled address): self, per instruction,
 * children and path. */
void
engine_count_keys(struct engine *e, struct engine_event *ev, struct thread *th, struct hist *zoom,
                  uint64_t ip, bool kernel, const struct hist_key *keys, size_t n, size_t self,
                  uint64_t w)
{
	engine_count_self(e, ev, th, zoom, ip, kernel, &keys[self], w);
	if (ev->cg != NULL)
		engine_count_stack(ev->hist, ev->cg, zoom, e->group, keys, n, w);
}

/* Apply one record of any type. */
void
engine_record(struct engine *e, const struct perf_event_header *h)
{
	if (h->type == PERF_RECORD_SAMPLE)
		engine_sample(e, h);
	else
		engine_sideband(e, h);
}

/* Restore the min-heap property below slot i (ordered by record time). */
static void
engine_heap_down(struct engine_head *heap, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct engine_head tmp;

		if (l < n && heap[l].time < heap[m].time)
			m = l;
		if (l + 1 < n && heap[l + 1].time < heap[m].time)
			m = l + 1;
		if (m == i)
			return;
		tmp = heap[i];
		heap[i] = heap[m];
		heap[m] = tmp;
		i = m;
	}
}

/* Drain every ring, merging them in time order: a sample must meet the
 * process model as it was at that instant (a fork's child samples before
 * its exec belong to the parent's image, those after to the new one), and
 * the records of one task may sit on different CPUs' rings. */
void
engine_read(struct engine *e)
{
	size_t i, n = 0, done = 0, ntr = engine_trace_nrings(e);
	uint64_t st = e->el.sample_type;
	struct engine_head *heap;

	if (e->nheap < e->el.nrings + ntr) { /* the stream's rings came */
		e->nheap = e->el.nrings + ntr;
		e->heap = xrealloc(e->heap, e->nheap * sizeof *e->heap);
	}
	heap = e->heap;
	e->read_ns = now_ns();
	engine_defer_poll(e, false); /* worker answers, for the samples below */
	for (i = 0; i < e->el.nrings + ntr; i++) {
		int fd = i < e->el.nrings ? e->el.ring_fds[i] : -1;
		struct ring *r = i < e->el.nrings ? &e->el.rings[i]
		                                  : engine_trace_ring(e, i - e->el.nrings, &fd);
		const struct perf_event_header *h;

		if (fd < 0 || ring_begin(r) == 0 || (h = ring_next(r)) == NULL) {
			ring_end(r);
			continue;
		}
		heap[n++] = (struct engine_head){
		    .time = record_time(h, st), .h = h, .ring = r, .trace = i >= e->el.nrings};
	}
	for (i = n / 2; i-- > 0;)
		engine_heap_down(heap, n, i);
	while (n > 0) {
		struct ring *r = heap[0].ring;

		/* A long pass (cold caches at start) must not fill the rings,
		 * nor keep the worker's answers from the samples after. */
		if (++done % ENGINE_RELEASE_EVERY == 0) {
			for (i = 0; i < n; i++)
				ring_release(heap[i].ring);
			engine_defer_poll(e, false);
		}
		e->in_trace_ring = heap[0].trace;
		engine_record(e, heap[0].h);
		e->in_trace_ring = false;
		heap[0].h = ring_next(r);
		if (heap[0].h != NULL) {
			heap[0].time = record_time(heap[0].h, st);
		} else {
			ring_end(r);
			e->stats.bad_records += r->bad;
			r->bad = 0;
			heap[0] = heap[--n];
		}
		engine_heap_down(heap, n, 0);
	}
	engine_defer_poll(e, false);
	tasks_settle(e->tasks);
	if (e->trace != NULL)
		engine_trace_read(e);
	if (e->prime_due) { /* listed at the first pass after the first tick: none for -n 1 */
		e->prime_due = false;
		e->prime = procprime_scan(tasks_proc_root(e->tasks), e->include_self ? 0 : e->self);
	}
	if (e->prime != NULL && procprime_step(e->prime, e->tasks, ENGINE_PRIME_BUDGET_NS) == 0) {
		procprime_free(e->prime);
		e->prime = NULL;
	}
	engine_bpf_poll(e);
}

/* When the engine must be read next at the latest (now_ns clock),
 * UINT64_MAX when only its fds say. */
uint64_t
engine_deadline(const struct engine *e)
{
	if (e->bpf == NULL)
		return e->read_ns + ENGINE_SIDE_WAIT_NS;
	return engine_bpf_deadline(e);
}

/* How long the first *n fds of engine_pollfds go unpolled once they woke
 * the loop (the session's holdoff): the BPF engine's rings, which wake it
 * at every side-band record (not the stream's, after them). */
unsigned
engine_holdoff(const struct engine *e, size_t *n)
{
	*n = e->bpf != NULL ? e->el.nrings : 0;
	return *n > 0 ? (unsigned)(ENGINE_SIDE_WAIT_NS / 1000000) : 0;
}

/* Has the command, or every target process, gone? */
bool
engine_finished(struct engine *e)
{
	size_t i;

	if (e->child > 0) {
		if (!e->child_done && waitpid(e->child, &e->child_status, WNOHANG) == e->child)
			e->child_done = true;
		return e->child_done;
	}
	if (e->npids == 0)
		return false;
	for (i = 0; i < e->npids; i++)
		if (kill(e->pids[i], 0) == 0 || errno == EPERM)
			return false;
	return true;
}

/* A command or target processes to watch, or the start's processes to
 * read (the loop then wakes often enough to read them in a second or
 * two). */
bool
engine_watching(const struct engine *e)
{
	return e->child > 0 || e->npids > 0 || e->prime != NULL;
}

/* The command's wait status. */
int
engine_child_status(const struct engine *e)
{
	return e->child > 0 && e->child_done ? e->child_status : -1;
}

/* Close a refresh interval. */
void
engine_tick(struct engine *e, bool zero)
{
	uint64_t now;
	size_t i;

	/* perf maps may have grown: the Top rows of JIT code sampled before its
	 * map line was written get their names now (the call graph keeps them
	 * unknown), and unknown addresses look again from now on; the kernel's
	 * counts, resolved below, look in this refresh already, so the rows
	 * made of them are not looked up twice */
	tasks_refresh(e->tasks);
	engine_bpf_collect(e);      /* the kernel's counts of this refresh */
	engine_defer_poll(e, true); /* the samples answered for count in this refresh */
	now = now_ns();
	for (i = 0; i < e->el.nevsels; i++) {
		struct engine_event *ev = &e->events[i];

		hist_rekey(ev->hist, engine_rekey_jit, e);
		hist_tick(ev->hist, zero);
		if (ev->ah != NULL)
			addrhist_tick(ev->ah, zero);
		if (ev->zoom != NULL) {
			hist_rekey(ev->zoom, engine_rekey_jit, e);
			hist_tick(ev->zoom, zero);
		}
		if (ev->cg != NULL)
			cg_tick(ev->cg, zero);
		ev->interval = ev->samples - ev->tick_samples;
		ev->tick_samples = ev->samples;
	}
	e->stats.interval_samples = e->stats.samples - e->tick_samples;
	e->stats.interval_lost = e->stats.lost - e->tick_lost;
	e->stats.interval_secs = (double)(now - e->last_tick_ns) / 1e9;
	e->tick_samples = e->stats.samples;
	e->tick_lost = e->stats.lost;
	e->last_tick_ns = now;
	engine_inl_tick(e);
	if (e->trace != NULL)
		engine_trace_tick(e);
	engine_defer_gone(e, now, ENGINE_REAP_GRACE_NS);
	tasks_reap(e->tasks, now, ENGINE_REAP_GRACE_NS);
	/* system-wide, the processes running now are read ahead of their
	 * samples, once the first frame is out (its wait is not theirs) */
	if (!e->primed && e->child == 0 && e->ntids == 0)
		e->primed = e->prime_due = true;
}

/* Sorted rows of one event (of the zoomed thread during a thread zoom). */
void
engine_snapshot(struct engine *e, size_t idx, const enum hist_sort *sort,
                bool (*filter)(const struct hist_entry *, void *), void *arg,
                struct hist_snapshot *snap)
{
	struct engine_event *ev = &e->events[idx];

	hist_snapshot(ev->zoom ? ev->zoom : ev->hist, sort, filter, arg, snap);
}

/* Start (tid > 0) or end (0) counting one thread's samples apart: rows
 * are per process, so a thread's own profile builds up from now on. */
void
engine_zoom_thread(struct engine *e, int tid)
{
	for (size_t i = 0; i < e->el.nevsels; i++) {
		struct engine_event *ev = &e->events[i];

		if (ev->zoom != NULL)
			hist_free(ev->zoom);
		ev->zoom = tid > 0 ? hist_new(e->decay) : NULL;
	}
	e->zoom_tid = tid > 0 ? tid : 0;
}

/* Count threads apart and split the call graph's roots as group asks. */
void
engine_set_group(struct engine *e, unsigned group)
{
	e->group = group;
}

/* The call graph of event idx, or NULL without call stacks. */
const struct callgraph *
engine_callgraph(const struct engine *e, size_t idx)
{
	return e->events[idx].cg;
}

/* Samples of one event: in the last refresh and since start. */
void
engine_event_samples(const struct engine *e, size_t idx, uint64_t *interval, uint64_t *total)
{
	*interval = e->events[idx].interval;
	*total = e->events[idx].samples;
}

/* Number of events sampled. */
size_t
engine_nevents(const struct engine *e)
{
	return e->el.nevsels;
}

/* Name of an event as opened. */
const char *
engine_event_name(const struct engine *e, size_t idx)
{
	return e->el.evsels[idx].spec.name;
}

/* Every notice of the session, joined by "; ", in e->notice: the event's
 * fallback (no PMU: cpu-clock), the BPF engine's refusal, and what the
 * BPF engine could not do (frameless leaves left unjudged). Each part is
 * "what: detail" with no "; " of its own, so the screen can show each
 * one's head. */
void
engine_compose_notice(struct engine *e)
{
	const char *parts[] = {e->el.notice, e->bpf_notice, e->bpf_unjudged};
	size_t n = 0;

	e->notice[0] = '\0';
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		if (parts[i][0] != '\0' && n < sizeof e->notice - 1) {
			snprintf(e->notice + n, sizeof e->notice - n, "%s%s", n > 0 ? "; " : "",
			         parts[i]);
			n = strlen(e->notice);
		}
}

/* The notices (fallbacks, what the engine could not do), or NULL. */
const char *
engine_notice(const struct engine *e)
{
	return e->notice[0] ? e->notice : NULL;
}

/* The back-end counting the samples. */
const char *
engine_backend(const struct engine *e)
{
	return e->backend != NULL ? e->backend : "perf";
}

/* Why that back-end. */
const char *
engine_backend_why(const struct engine *e)
{
	return e->backend_why;
}

/* What is being profiled. */
const char *
engine_target(const struct engine *e)
{
	return e->target;
}

/* Counters of the session. */
const struct engine_stats *
engine_stats(const struct engine *e)
{
	return &e->stats;
}

/* Count the samples that wait for symbols, before the first or the last
 * refresh. */
void
engine_settle(struct engine *e, bool final)
{
	engine_bpf_collect(e); /* the kernel's counts wait for symbols too */
	engine_defer_poll(e, true);
	engine_defer_flush(e, final ? ENGINE_DEFER_FINAL : ENGINE_DEFER_FIRST);
}

/* Tear the session down; a command still running is killed. */
void
engine_free(struct engine *e)
{
	size_t i;

	if (e == NULL)
		return;
	if (e->child > 0 && !e->child_done) {
		if (e->go_fd >= 0)
			close(e->go_fd); /* never released: it exits on EOF */
		else
			kill(e->child, SIGTERM);
		waitpid(e->child, &e->child_status, 0);
	}
	if (e->err_fd >= 0)
		close(e->err_fd);
	engine_trace_free(e);
	procprime_free(e->prime);
	engine_bpf_free(e);
	for (i = 0; e->events != NULL && i < e->el.nevsels; i++) {
		hist_free(e->events[i].hist);
		addrhist_free(e->events[i].ah);
		if (e->events[i].zoom != NULL)
			hist_free(e->events[i].zoom);
		if (e->events[i].cg != NULL)
			cg_free(e->events[i].cg);
	}
	if (e->unwind != NULL)
		unwind_free(e->unwind);
	symdbg_interrupt(true); /* a download in progress gives up */
	worker_free(e->worker); /* before the symbols its lookups use go */
	symdbg_interrupt(false);
	engine_defer_free(e);
	srcline_async_free(e->srcl);
	srcline_free_all();
	engine_inl_free(e);
	free(e->fcache);
	free(e->events);
	free(e->heap);
	evlist_close(&e->el);
	if (e->tasks)
		tasks_free(e->tasks);
	free(e->tids);
	free(e->pids);
	free(e->cpus);
	free(e);
}

/* The command's pid, from engine_new on (the counters view counts it from
 * its exec too), or 0 without a command. */
int
engine_child_pid(const struct engine *e)
{
	return e->child > 0 ? (int)e->child : 0;
}

/* The per-instruction samples of event idx, or NULL before its first. */
const struct addrhist *
engine_addrhist(const struct engine *e, size_t idx)
{
	return e->events[idx].ah;
}

/* Keep per-instruction samples of one function in every event. */
void
engine_addrhist_want(struct engine *e, const struct dso *dso, const struct sym *sym, bool kernel,
                     unsigned mask, const struct addrhist_who *who)
{
	for (size_t i = 0; i < e->el.nevsels; i++)
		addrhist_want_who(engine_event_ah(e, &e->events[i]), dso, sym, kernel, mask, who);
}

/* Copy the n hottest functions' per-instruction samples to every frame. */
void
engine_copy_hot(struct engine *e, size_t n)
{
	e->hot_copies = n < ENGINE_ANNOTATE_TOP ? n : ENGINE_ANNOTATE_TOP;
}

/* How many hottest functions' samples frames get. */
size_t
engine_hot_copies(const struct engine *e)
{
	return e->hot_copies;
}

/* Keep per-instruction samples of every function called name. */
void
engine_addrhist_want_name(struct engine *e, const char *name, unsigned mask)
{
	for (size_t i = 0; i < e->el.nevsels; i++)
		addrhist_want_name_rows(engine_event_ah(e, &e->events[i]), name, mask);
}
