/* latency-bpf: latency histograms in the kernel (see the header). */
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf/latency.h"
#include "tracetop/bpf.h"
#include "tracetop/evspec.h"
#include "tracetop/latency-bpf.h"
#include "tracetop/tracefs.h"

/* Histogram buckets kept at most (ids x processes x buckets), and
 * threads with open calls. */
#define LATBPF_HISTS 65536U
#define LATBPF_THREADS 32768U

#if HAVE_BPF
/* The compiled program, embedded at build time (src/bpf-latency-obj.c). */
extern const unsigned char tt_bpf_latency_obj[];
extern const size_t tt_bpf_latency_obj_len;
#else
static const unsigned char tt_bpf_latency_obj[1];
static const size_t tt_bpf_latency_obj_len = 0;
#endif

/* A tracepoint the program is attached to: its perf event and link. */
struct latbpf_att {
	int perf, link;
};

/* A timed function's entry and return. */
struct latbpf_func {
	uint32_t k;
	struct latbpf_att entry, ret;
	bool used;
};

struct latbpf {
	struct tt_bpf *obj;
	struct latbpf_maps m;
	int targets, cfg;
	struct tt_lat_cfg c;
	struct latbpf_att sys[2], fork;
	struct latbpf_func *funcs;
	size_t nfuncs;
};

/* BPF built in and allowed. */
bool
latbpf_usable(struct tt_err *why)
{
	if (!tt_bpf_built()) {
		err_set(why,
		        "BPF was not built in (configure found no libbpf or no clang for bpf)");
		return false;
	}
	return tt_bpf_allowed(why);
}

/* Open the tracepoint name system-wide on one CPU (a BPF program on a
 * tracepoint, kprobe or uprobe event runs on every CPU) and attach prog
 * with cookie. */
static int
latbpf_attach(struct latbpf *b, const char *name, const char *prog, uint64_t cookie,
              struct latbpf_att *a, struct tt_err *err)
{
	struct evspec s;

	a->perf = a->link = -1;
	if (evspec_parse(name, &s, err) != 0)
		return -1;
	/* counting, never sampling: a tracepoint program passes the event
	 * on (for others' events on it), and ours has no ring */
	s.attr.sample_period = 1ULL << 62;
	s.attr.sample_type = 0;
	a->perf = (int)syscall(SYS_perf_event_open, &s.attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (a->perf < 0)
		return err_set(err, "cannot open %s for BPF: %s", name, strerror(errno));
	if ((a->link = tt_bpf_attach_cookie(b->obj, prog, a->perf, cookie, err)) < 0) {
		close(a->perf);
		a->perf = -1;
		return -1;
	}
	return 0;
}

/* Detach and close. */
static void
latbpf_detach(struct latbpf_att *a)
{
	if (a->link >= 0)
		close(a->link);
	if (a->perf >= 0)
		close(a->perf);
	a->perf = a->link = -1;
}

/* Write the configuration slot. */
static void
latbpf_cfg(struct latbpf *b)
{
	struct tt_lat_cfg cur;
	uint32_t zero = 0;

	/* a fork seen by the program ended the one-process fast path: kept */
	if (tt_bpf_lookup(b->cfg, &zero, &cur) == 0 && cur.filter && cur.only == 0)
		b->c.only = 0;
	tt_bpf_update(b->cfg, &zero, &b->c);
}

/* Load, set up the target, attach the syscall programs. */
struct latbpf *
latbpf_new(const struct latbpf_opts *o, struct tt_err *err)
{
	struct latbpf *b;
	uint8_t one = 1;

	if (!latbpf_usable(err))
		return NULL;
	b = xcalloc(1, sizeof *b);
	b->sys[0].perf = b->sys[0].link = b->sys[1].perf = b->sys[1].link = -1;
	b->fork.perf = b->fork.link = -1;
	b->obj = tt_bpf_open(tt_bpf_latency_obj, tt_bpf_latency_obj_len, "tracetop_latency", err);
	if (b->obj == NULL || tt_bpf_resize(b->obj, "hists", LATBPF_HISTS, err) != 0 ||
	    tt_bpf_resize(b->obj, "stacks", LATBPF_THREADS, err) != 0 ||
	    tt_bpf_resize(b->obj, "sysopen", LATBPF_THREADS, err) != 0 ||
	    tt_bpf_load(b->obj, err) != 0)
		goto fail;
	latbpf_maps_init(&b->m, b->obj);
	b->targets = tt_bpf_map_fd(b->obj, "targets");
	b->cfg = tt_bpf_map_fd(b->obj, "cfg");
	b->c = (struct tt_lat_cfg){.filter = o->npids > 0,
	                           .self = o->include_self ? 0 : (unsigned)getpid(),
	                           .gen = 1,
	                           .only = o->npids == 1 ? (unsigned)o->pids[0] : 0};
	for (size_t i = 0; i < o->npids; i++) {
		uint32_t pid = (uint32_t)o->pids[i];

		tt_bpf_update(b->targets, &pid, &one);
	}
	/* children are followed where the fork tracepoint's layout is known */
	b->c.fork_parent =
	    (unsigned short)tt_tracefs_field_offset("sched", "sched_process_fork", "parent_pid");
	b->c.fork_child =
	    (unsigned short)tt_tracefs_field_offset("sched", "sched_process_fork", "child_pid");
	if (b->c.fork_parent == (unsigned short)-1 || b->c.fork_child == (unsigned short)-1)
		b->c.fork_parent = b->c.fork_child = 0;
	latbpf_cfg(b);
	if (b->c.filter && b->c.fork_child != 0 &&
	    latbpf_attach(b, "sched:sched_process_fork", "tt_fork", 0, &b->fork, err) != 0)
		goto fail;
	if (o->syscalls &&
	    (latbpf_attach(b, "raw_syscalls:sys_enter", "tt_sys_enter", 0, &b->sys[0], err) != 0 ||
	     latbpf_attach(b, "raw_syscalls:sys_exit", "tt_sys_exit", 0, &b->sys[1], err) != 0))
		goto fail;
	return b;
fail:
	latbpf_free(b);
	return NULL;
}

/* Attach to a function's probe pair, its cookie naming it. */
int
latbpf_add_func(struct latbpf *b, uint32_t k, const char *entry, const char *ret,
                struct tt_err *err)
{
	struct latbpf_func *f;

	b->funcs = xrealloc(b->funcs, (b->nfuncs + 1) * sizeof *b->funcs);
	f = &b->funcs[b->nfuncs];
	*f = (struct latbpf_func){.k = k, .used = true};
	if (latbpf_attach(b, entry, "tt_lat_entry", TT_LAT_FUNC + k, &f->entry, err) != 0)
		return -1;
	if (latbpf_attach(b, ret, "tt_lat_return", TT_LAT_FUNC + k, &f->ret, err) != 0) {
		latbpf_detach(&f->entry);
		return -1;
	}
	b->nfuncs++;
	return 0;
}

/* Detach function k. */
void
latbpf_remove_func(struct latbpf *b, uint32_t k)
{
	for (size_t i = 0; i < b->nfuncs; i++)
		if (b->funcs[i].used && b->funcs[i].k == k) {
			latbpf_detach(&b->funcs[i].entry);
			latbpf_detach(&b->funcs[i].ret);
			b->funcs[i].used = false;
		}
}

/* On or paused; a resume starts a new generation of open calls. */
void
latbpf_set_on(struct latbpf *b, bool on)
{
	if (on && !b->c.on)
		b->c.gen++;
	b->c.on = on;
	latbpf_cfg(b);
}

/* The maps. */
void
latbpf_maps_init(struct latbpf_maps *m, const struct tt_bpf *obj)
{
	m->hists = tt_bpf_map_fd(obj, "hists");
	m->lost = tt_bpf_map_fd(obj, "lost");
	m->comms = tt_bpf_map_fd(obj, "comms");
	m->ncpus = tt_bpf_ncpus();
	if (m->ncpus < 1)
		m->ncpus = 1;
	m->vals = xcalloc((size_t)m->ncpus, sizeof(struct tt_lat_val));
	m->percpu = xcalloc((size_t)m->ncpus, sizeof *m->percpu);
}

/* Walk the histogram map, summing each bucket over the CPUs. */
int
latbpf_maps_read(struct latbpf_maps *m, void (*fn)(void *ctx, const struct latbpf_bucket *v),
                 void *ctx)
{
	struct tt_lat_key k, next;
	const struct tt_lat_key *prev = NULL;
	const struct tt_lat_val *xs = m->vals;
	int rc;

	while ((rc = tt_bpf_next_key(m->hists, prev, &next)) == 0) {
		struct latbpf_bucket v = {.id = next.id,
		                          .pid = (int)next.pid,
		                          .bucket = next.bucket,
		                          .error = next.err != 0,
		                          .min = UINT64_MAX};

		k = next;
		prev = &k;
		if (tt_bpf_lookup(m->hists, &k, m->vals) != 0)
			continue; /* gone between the two calls */
		for (int c = 0; c < m->ncpus; c++) {
			const struct tt_lat_val *x = &xs[c];

			if (x->count == 0)
				continue;
			v.count += x->count;
			v.sum += x->sum;
			if (x->min < v.min)
				v.min = x->min;
			if (x->max > v.max)
				v.max = x->max;
		}
		if (v.count > 0)
			fn(ctx, &v);
	}
	return rc == -ENOENT ? 0 : rc;
}

/* Every bucket of the histogram map. */
int
latbpf_read(struct latbpf *b, void (*fn)(void *ctx, const struct latbpf_bucket *v), void *ctx)
{
	return latbpf_maps_read(&b->m, fn, ctx);
}

/* A process's command from the comms map. */
bool
latbpf_maps_comm(const struct latbpf_maps *m, int pid, char *comm)
{
	struct tt_lat_comm c;
	uint32_t p = (uint32_t)pid;

	if (tt_bpf_lookup(m->comms, &p, &c) != 0)
		return false;
	memcpy(comm, c.comm, sizeof c.comm);
	comm[sizeof c.comm - 1] = '\0';
	return true;
}

/* A process's command. */
bool
latbpf_comm(struct latbpf *b, int pid, char *comm)
{
	return latbpf_maps_comm(&b->m, pid, comm);
}

/* The lost map's slot why, summed over CPUs. */
uint64_t
latbpf_maps_lost(struct latbpf_maps *m, uint32_t why)
{
	uint64_t sum = 0;

	if (tt_bpf_lookup(m->lost, &why, m->percpu) != 0)
		return 0;
	for (int c = 0; c < m->ncpus; c++)
		sum += m->percpu[c];
	return sum;
}

/* Free the scratch. */
void
latbpf_maps_free(struct latbpf_maps *m)
{
	free(m->vals);
	free(m->percpu);
	m->vals = NULL;
	m->percpu = NULL;
}

/* Unpaired returns and calls not counted. */
void
latbpf_lost(struct latbpf *b, uint64_t *unpaired, uint64_t *lost)
{
	*unpaired = latbpf_maps_lost(&b->m, TT_LAT_UNPAIRED);
	*lost = latbpf_maps_lost(&b->m, TT_LAT_DEEP) + latbpf_maps_lost(&b->m, TT_LAT_FULL);
}

/* Detach, close, free. */
void
latbpf_free(struct latbpf *b)
{
	if (b == NULL)
		return;
	latbpf_detach(&b->sys[0]);
	latbpf_detach(&b->sys[1]);
	latbpf_detach(&b->fork);
	for (size_t i = 0; i < b->nfuncs; i++)
		latbpf_remove_func(b, b->funcs[i].k);
	tt_bpf_close(b->obj);
	free(b->funcs);
	latbpf_maps_free(&b->m);
	free(b);
}
