/* offcpu: blocked time by (process, thread, wait reason, stack). */
#include "config.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/callgraph.h"
#include "tracetop/dso.h"
#include "tracetop/offcpu.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"

/* Frames held per switch-out: the kernel's default perf_event_max_stack
 * plus its context markers. */
#define OFFCPU_MAX_IPS 130

/* Resolved addresses kept (stacks repeat; symbol searches need not). */
#define OFFCPU_CACHE 4096

/* A thread's last switch-out. */
struct offcpu_held {
	int tid; /* 0: a free slot */
	int pid;
	bool open; /* switched out, not back yet */
	long state;
	uint64_t at;
	const char *comm;                       /* interned */
	const char *roots[OFFCPU_NREASONS];     /* trie roots made for it, by reason */
	const char *root_comm[OFFCPU_NREASONS]; /* the comm they were made with */
	uint16_t n;
	uint64_t ips[OFFCPU_MAX_IPS];
};

/* One resolved address. */
struct offcpu_cached {
	uint64_t ip, mgen; /* mgen: the process's maps (0: the kernel) */
	struct cg_frame frame;
	bool used;
};

struct offcpu {
	struct tasks *ts;
	struct callgraph *cg;
	struct offcpu_held *held;
	size_t mask, used;
	struct offcpu_cached *cache;
	uint64_t dropped;
};

static const char *const reason_names[OFFCPU_NREASONS] = {"sleep", "I/O", "lock", "fault"};

/* The reason's name. */
const char *
offcpu_reason_name(enum offcpu_reason r)
{
	return r < OFFCPU_NREASONS ? reason_names[r] : "?";
}

/* Runnable: TASK_RUNNING once the report bits (preemption) are off. */
bool
offcpu_runnable(long state)
{
	return (state & 0xff) == 0;
}

/* Does name start with one of the prefixes? */
static bool
has_prefix(const char *name, const char *const *prefixes)
{
	for (; *prefixes != NULL; prefixes++)
		if (strncmp(name, *prefixes, strlen(*prefixes)) == 0)
			return true;
	return false;
}

/* The reason from the kernel stack; the state is not needed yet (an
 * uninterruptible sleep without I/O or a lock on its stack still sleeps). */
enum offcpu_reason
offcpu_classify(long state, const char *const *kfuncs, size_t n)
{
	static const char *const fault[] = {"handle_mm_fault",
	                                    "exc_page_fault",
	                                    "do_user_addr_fault",
	                                    "do_page_fault",
	                                    "__do_fault",
	                                    "handle_page_fault",
	                                    NULL};
	static const char *const io[] = {
	    "io_schedule", "folio_wait", "__folio_lock",    "wait_on_page", "__wait_on_buffer",
	    "bit_wait_io", "blk_",       "submit_bio_wait", "jbd2_",        NULL};
	static const char *const lock[] = {"futex_", "__mutex_lock", "mutex_lock", "rwsem_down",
	                                   "__down", "down_",        "rt_mutex",   NULL};
	bool is_io = false, is_lock = false;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		if (kfuncs[i] == NULL)
			continue;
		if (has_prefix(kfuncs[i], fault))
			return OFFCPU_FAULT;
		is_io = is_io || has_prefix(kfuncs[i], io);
		is_lock = is_lock || has_prefix(kfuncs[i], lock);
	}
	return is_io ? OFFCPU_IO : is_lock ? OFFCPU_LOCK : OFFCPU_SLEEP;
}

/* A tracker with an empty trie. */
struct offcpu *
offcpu_new(struct tasks *ts)
{
	struct offcpu *o = xcalloc(1, sizeof *o);

	o->ts = ts;
	/* since start (no decay); branches under 0.1 % of their thread's
	 * blocked time fold into [other], which bounds the trie */
	o->cg = cg_new(1.0, OFFCPU_CG_MIN_PERCENT);
	o->mask = 63;
	o->held = xcalloc(o->mask + 1, sizeof *o->held);
	o->cache = xcalloc(OFFCPU_CACHE, sizeof *o->cache);
	return o;
}

/* Free everything. */
void
offcpu_free(struct offcpu *o)
{
	if (o == NULL)
		return;
	cg_free(o->cg);
	free(o->held);
	free(o->cache);
	free(o);
}

/* The slot of tid, or the free one where it would go. */
static struct offcpu_held *
held_slot(const struct offcpu *o, int tid)
{
	size_t i = hash_u64((uint64_t)(uint32_t)tid) & o->mask;

	while (o->held[i].tid != 0 && o->held[i].tid != tid)
		i = (i + 1) & o->mask;
	return &o->held[i];
}

/* tid's slot, made (the table growing) when new. */
static struct offcpu_held *
held_get(struct offcpu *o, int tid)
{
	struct offcpu_held *h = held_slot(o, tid);

	if (h->tid == tid)
		return h;
	if ((o->used + 1) * 2 > o->mask + 1) {
		struct offcpu_held *old = o->held;
		size_t n = o->mask + 1;

		o->mask = 2 * n - 1;
		o->held = xcalloc(2 * n, sizeof *o->held);
		for (size_t i = 0; i < n; i++)
			if (old[i].tid != 0)
				*held_slot(o, old[i].tid) = old[i];
		free(old);
		h = held_slot(o, tid);
	}
	o->used++;
	memset(h, 0, sizeof *h);
	h->tid = tid;
	return h;
}

/* Hold the switch-out. */
void
offcpu_out(struct offcpu *o, int pid, int tid, const char *comm, long state, uint64_t t,
           const uint64_t *ips, size_t n)
{
	struct offcpu_held *h;

	if (tid <= 0)
		return;
	h = held_get(o, tid);
	h->pid = pid;
	h->open = true;
	h->state = state;
	h->at = t;
	h->comm = str_intern(comm != NULL ? comm : "?");
	if (n > OFFCPU_MAX_IPS) {
		n = OFFCPU_MAX_IPS; /* the outermost frames go */
		o->dropped++;
	}
	h->n = (uint16_t)n;
	memcpy(h->ips, ips, n * sizeof *ips);
}

/* A kernel address or one of thread th's as a frame, through the cache. */
static struct cg_frame
resolve(struct offcpu *o, struct thread *th, uint64_t ip, bool kernel)
{
	const struct task *proc = kernel || th == NULL ? NULL : th->proc;
	uint64_t mgen = proc != NULL ? proc->mgen : 0;
	struct offcpu_cached *c = &o->cache[hash_mix(hash_u64(ip), mgen) & (OFFCPU_CACHE - 1)];
	struct cg_frame f = {.kernel = kernel, .addr = ip};
	const struct map *m;

	if (c->used && c->ip == ip && c->mgen == mgen)
		return c->frame;
	if (kernel) {
		f.dso = dso_kernel_resolve(ip, &f.sym);
	} else if (proc != NULL && (m = task_find_map(proc, ip)) != NULL) {
		uint64_t off = ip - m->start + m->pgoff;

		f.dso = m->dso;
		f.addr = off;
		if (m->dso->kind == DSO_ELF || dso_is_vdso(m->dso))
			f.sym = dso_find_sym(m->dso, dso_offset_to_addr(m->dso, off));
	}
	if (f.sym != NULL)
		f.addr = 0;
	*c = (struct offcpu_cached){.ip = ip, .mgen = mgen, .frame = f, .used = true};
	return f;
}

/* The trie root of h's blocks for a reason: "comm pid/tid reason". */
static const char *
held_root(struct offcpu_held *h, enum offcpu_reason r)
{
	char buf[96];

	if (h->roots[r] == NULL || h->root_comm[r] != h->comm) {
		snprintf(buf, sizeof buf, "%s %d/%d %s", h->comm, h->pid, h->tid, reason_names[r]);
		h->roots[r] = str_intern(buf);
		h->root_comm[r] = h->comm;
	}
	return h->roots[r];
}

/* The block ends: resolve, classify, weigh. */
bool
offcpu_in(struct offcpu *o, int tid, uint64_t t, struct offcpu_block *b)
{
	struct offcpu_held *h = tid > 0 ? held_slot(o, tid) : NULL;
	struct cg_frame frames[OFFCPU_MAX_IPS];
	const char *kfuncs[OFFCPU_MAX_IPS];
	static const char *const tracer[] = {"bpf_prog_",
	                                     "bpf_trace_run",
	                                     "__bpf_trace_",
	                                     "bpf_trampoline_",
	                                     "__traceiter_",
	                                     "perf_trace_",
	                                     NULL};
	struct thread *th = NULL;
	size_t n = 0, nk = 0;
	bool kernel = true;

	if (h == NULL || h->tid != tid || !h->open || t < h->at)
		return false;
	h->open = false;
	for (size_t i = 0; i < h->n; i++) {
		uint64_t ip = h->ips[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = ip == PERF_CONTEXT_KERNEL;
			if (!kernel && th == NULL && o->ts != NULL)
				th = tasks_thread(o->ts, h->pid, tid);
			continue;
		}
		frames[n] = resolve(o, th, ip, kernel);
		/* a stack taken in BPF starts in the program that took it; one
		 * taken while another tracer shares the tracepoint, in the
		 * tracepoint's own iterator */
		if (kernel && n == 0 && frames[0].sym != NULL &&
		    has_prefix(frames[0].sym->name, tracer))
			continue;
		if (kernel)
			kfuncs[nk++] = frames[n].sym != NULL ? frames[n].sym->name : NULL;
		n++;
	}
	*b = (struct offcpu_block){.pid = h->pid,
	                           .tid = tid,
	                           .comm = h->comm,
	                           .ns = t - h->at,
	                           .reason = offcpu_classify(h->state, kfuncs, nk)};
	b->root = held_root(h, b->reason);
	cg_add_n(o->cg, b->root, frames, n, b->ns);
	return true;
}

/* A slot's first slot (lp_delete's view), SIZE_MAX for a free one. */
static size_t
held_home(const void *slot, void *arg)
{
	const struct offcpu_held *h = slot;
	const struct offcpu *o = arg;

	return h->tid == 0 ? SIZE_MAX : hash_u64((uint64_t)(uint32_t)h->tid) & o->mask;
}

/* Forget tid (gone): its slot is freed, so the table keeps the size of
 * the threads alive, not of all ever seen. */
void
offcpu_forget(struct offcpu *o, int tid)
{
	struct offcpu_held *h = tid > 0 ? held_slot(o, tid) : NULL;

	if (h == NULL || h->tid != tid)
		return;
	lp_delete(o->held, sizeof *o->held, o->mask, (size_t)(h - o->held), held_home, o);
	o->used--;
}

/* Forget every held switch-out. */
void
offcpu_reset(struct offcpu *o)
{
	for (size_t i = 0; i <= o->mask; i++)
		o->held[i].open = false;
}

/* The interval joins the totals (no decay). */
void
offcpu_tick(struct offcpu *o, bool untaken)
{
	if (untaken)
		cg_tick_keep_last(o->cg);
	else
		cg_tick(o->cg, false);
}

/* The trie. */
const struct callgraph *
offcpu_graph(const struct offcpu *o)
{
	return o->cg;
}

/* Stacks cut short. */
uint64_t
offcpu_dropped(const struct offcpu *o)
{
	return o->dropped;
}

/* Keep (idx, w) among the max heaviest in leaves/ns, sorted. */
static void
stacks_keep(uint32_t *leaves, double *ns, size_t *n, size_t max, uint32_t idx, double w)
{
	size_t i = *n < max ? (*n)++ : max;

	if (i == max && (max == 0 || w <= ns[max - 1]))
		return;
	if (i == max)
		i = max - 1;
	while (i > 0 && ns[i - 1] < w) {
		leaves[i] = leaves[i - 1];
		ns[i] = ns[i - 1];
		i--;
	}
	leaves[i] = idx;
	ns[i] = w;
}

/* Walk root's subtree for the nodes where stacks end. */
size_t
offcpu_stacks(const struct callgraph *cg, const char *root, uint32_t *leaves, double *ns,
              size_t max)
{
	uint32_t r, stack[256];
	size_t n = 0, sp = 0;
	const struct cg_node *nd;

	if (cg == NULL)
		return 0;
	for (r = cg_first_root(cg); r != 0; r = nd->next_sibling) {
		nd = cg_node(cg, r);
		if (nd == NULL)
			return 0;
		if (nd->comm == root)
			break;
	}
	if (r == 0)
		return 0;
	stack[sp++] = r;
	while (sp > 0) {
		uint32_t idx = stack[--sp];

		nd = cg_node(cg, idx);
		if (nd == NULL)
			continue;
		if (idx != r && nd->self > 0)
			stacks_keep(leaves, ns, &n, max, idx, nd->self);
		for (uint32_t c = nd->first_child; c != 0; c = cg_node(cg, c)->next_sibling)
			if (sp < sizeof stack / sizeof stack[0])
				stack[sp++] = c;
	}
	return n;
}
