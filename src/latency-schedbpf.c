/* latency-schedbpf: run-queue and block I/O histograms in the kernel (see
 * the header). */
#include "config.h"

#include <linux/perf_event.h>
#include <stdlib.h>
#include <unistd.h>

#include "bpf/latency.h"
#include "bpf/schedlat.h"
#include "tracetop/bpf.h"
#include "tracetop/latency-schedbpf.h"

/* Histogram buckets, runnable threads and requests in flight kept at
 * most: past them, waits are counted lost. */
#define SCHEDBPF_HISTS 65536U
#define SCHEDBPF_THREADS 65536U
#define SCHEDBPF_INFLIGHT 65536U
/* Off-CPU: threads blocked at once, stacks, (thread, stacks) sums a
 * refresh. */
#define SCHEDBPF_BLOCKED 65536U
#define SCHEDBPF_STACKS 16384U
#define SCHEDBPF_OFFSUMS 65536U

#if HAVE_BPF
/* The compiled program, embedded at build time (src/bpf-schedlat-obj.c). */
extern const unsigned char tt_bpf_schedlat_obj[];
extern const size_t tt_bpf_schedlat_obj_len;
#else
static const unsigned char tt_bpf_schedlat_obj[1];
static const size_t tt_bpf_schedlat_obj_len = 0;
#endif

/* The programs of each kind. */
static const char *const schedbpf_runq_progs[] = {"tt_sl_wakeup", "tt_sl_wakeup_new",
                                                  "tt_sl_switch"};
static const char *const schedbpf_bio_progs[] = {"tt_sl_issue", "tt_sl_complete"};
static const char *const schedbpf_off_progs[] = {"tt_sl_offcpu"};
/* ...and of the threads' (runq, offcpu): an exit forgets, a fork follows */
static const char *const schedbpf_exit_progs[] = {"tt_sl_exit"};
static const char *const schedbpf_fork_progs[] = {"tt_sl_fork"};

#define SCHEDBPF_N(a) (sizeof a / sizeof *a)

struct schedbpf {
	struct tt_bpf *obj;
	struct latbpf_maps m;
	int cfg;
	struct tt_sl_cfg c;
	int links[8];
	size_t nlinks;
	int offcpu, offstacks; /* off-CPU sums and stacks (fds), or -1 */
	struct tt_sl_offkey *keys;
	struct tt_sl_offval *vals;
};

/* Attach the n programs names, each by a fd of its own, when on. */
static int
schedbpf_attach(struct schedbpf *b, const char *const *names, size_t n, bool on, struct tt_err *err)
{
	for (size_t i = 0; on && i < n; i++) {
		int fd = tt_bpf_attach_trace(b->obj, names[i], err);

		if (fd < 0)
			return -1;
		b->links[b->nlinks++] = fd;
	}
	return 0;
}

/* Load (only the programs on) or not the n programs names. */
static int
schedbpf_autoload(struct schedbpf *b, const char *const *names, size_t n, bool on,
                  struct tt_err *err)
{
	for (size_t i = 0; i < n; i++)
		if (tt_bpf_autoload(b->obj, names[i], on, err) != 0)
			return -1;
	return 0;
}

/* Load, set up the target, attach. */
struct schedbpf *
schedbpf_new(const struct schedbpf_opts *o, struct tt_err *err)
{
	struct schedbpf *b;
	uint32_t zero = 0;
	uint8_t one = 1;
	bool threads = o->runq || o->offcpu, fork = threads && o->npids > 0;

	if (!latbpf_usable(err))
		return NULL;
	b = xcalloc(1, sizeof *b);
	b->offcpu = b->offstacks = -1;
	b->obj =
	    tt_bpf_open(tt_bpf_schedlat_obj, tt_bpf_schedlat_obj_len, "tracetop_schedlat", err);
	if (b->obj == NULL)
		goto fail;
	/* only the kinds asked for are loaded: their BTF is needed */
	if (schedbpf_autoload(b, schedbpf_runq_progs, SCHEDBPF_N(schedbpf_runq_progs), o->runq,
	                      err) != 0 ||
	    schedbpf_autoload(b, schedbpf_bio_progs, SCHEDBPF_N(schedbpf_bio_progs), o->bio, err) !=
	        0 ||
	    schedbpf_autoload(b, schedbpf_off_progs, SCHEDBPF_N(schedbpf_off_progs), o->offcpu,
	                      err) != 0 ||
	    schedbpf_autoload(b, schedbpf_exit_progs, 1, threads, err) != 0 ||
	    schedbpf_autoload(b, schedbpf_fork_progs, 1, fork, err) != 0 ||
	    tt_bpf_resize(b->obj, "hists", SCHEDBPF_HISTS, err) != 0 ||
	    tt_bpf_resize(b->obj, "runnable", SCHEDBPF_THREADS, err) != 0 ||
	    tt_bpf_resize(b->obj, "inflight", SCHEDBPF_INFLIGHT, err) != 0 ||
	    tt_bpf_resize(b->obj, "offstart", SCHEDBPF_BLOCKED, err) != 0 ||
	    tt_bpf_resize(b->obj, "offstacks", o->offcpu ? SCHEDBPF_STACKS : 1, err) != 0 ||
	    tt_bpf_resize(b->obj, "offcpu", SCHEDBPF_OFFSUMS, err) != 0 ||
	    tt_bpf_load(b->obj, err) != 0)
		goto fail;
	if (o->offcpu) {
		b->offcpu = tt_bpf_map_fd(b->obj, "offcpu");
		b->offstacks = tt_bpf_map_fd(b->obj, "offstacks");
		b->keys = xcalloc(SCHEDBPF_OFFSUMS, sizeof *b->keys);
		b->vals = xcalloc(SCHEDBPF_OFFSUMS, sizeof *b->vals);
	}
	latbpf_maps_init(&b->m, b->obj);
	b->cfg = tt_bpf_map_fd(b->obj, "cfg");
	b->c = (struct tt_sl_cfg){.filter = o->npids > 0,
	                          .self = o->include_self ? 0 : (unsigned)getpid(),
	                          .gen = 1,
	                          .runq = o->runq,
	                          .bio = o->bio,
	                          .offcpu = o->offcpu};
	for (size_t i = 0; i < o->npids; i++) {
		uint32_t pid = (uint32_t)o->pids[i];

		tt_bpf_update(tt_bpf_map_fd(b->obj, "targets"), &pid, &one);
	}
	tt_bpf_update(b->cfg, &zero, &b->c);
	if (schedbpf_attach(b, schedbpf_runq_progs, SCHEDBPF_N(schedbpf_runq_progs), o->runq,
	                    err) != 0 ||
	    schedbpf_attach(b, schedbpf_bio_progs, SCHEDBPF_N(schedbpf_bio_progs), o->bio, err) !=
	        0 ||
	    schedbpf_attach(b, schedbpf_off_progs, SCHEDBPF_N(schedbpf_off_progs), o->offcpu,
	                    err) != 0 ||
	    schedbpf_attach(b, schedbpf_exit_progs, 1, threads, err) != 0 ||
	    schedbpf_attach(b, schedbpf_fork_progs, 1, fork, err) != 0)
		goto fail;
	return b;
fail:
	schedbpf_free(b);
	return NULL;
}

/* On or paused; a resume starts a new generation. */
void
schedbpf_set_on(struct schedbpf *b, bool on)
{
	uint32_t zero = 0;

	if (on && !b->c.on)
		b->c.gen++;
	b->c.on = on;
	tt_bpf_update(b->cfg, &zero, &b->c);
}

/* Every bucket. */
int
schedbpf_read(struct schedbpf *b, void (*fn)(void *ctx, const struct latbpf_bucket *v), void *ctx)
{
	return latbpf_maps_read(&b->m, fn, ctx);
}

/* The run-queue kind's id. */
bool
schedbpf_is_runq(uint32_t id)
{
	return id == TT_SL_RUNQ;
}

/* A process's command. */
bool
schedbpf_comm(struct schedbpf *b, int pid, char *comm)
{
	return latbpf_maps_comm(&b->m, pid, comm);
}

/* Append a stack map entry's frames to ips behind its context marker
 * (innermost first, as perf's call chains); false when it is not there. */
static bool
schedbpf_stack(struct schedbpf *b, int id, uint64_t marker, uint64_t *ips, size_t *n)
{
	uint64_t frames[TT_SL_STACK_DEPTH];
	size_t k = 0;

	if (id < 0 || tt_bpf_lookup(b->offstacks, &id, frames) != 0)
		return false;
	ips[(*n)++] = marker;
	while (k < TT_SL_STACK_DEPTH && frames[k] != 0)
		ips[(*n)++] = frames[k++];
	return true;
}

/* Drain the off-CPU sums: each to fn with its stacks. */
int
schedbpf_offcpu_read(struct schedbpf *b, void (*fn)(void *ctx, const struct schedbpf_block *v),
                     void *ctx)
{
	uint64_t ips[2 * TT_SL_STACK_DEPTH + 2];
	uint32_t n = SCHEDBPF_OFFSUMS;
	int rc;

	if (b->offcpu < 0)
		return 0;
	rc = tt_bpf_drain(b->offcpu, b->keys, b->vals, sizeof *b->keys, sizeof *b->vals, &n);
	for (uint32_t i = 0; i < n; i++) {
		const struct tt_sl_offkey *k = &b->keys[i];
		const struct tt_sl_offval *v = &b->vals[i];
		struct schedbpf_block blk = {.pid = (int)k->pid,
		                             .tid = (int)k->tid,
		                             .state = k->state,
		                             .bucket = k->bucket,
		                             .ns = v->ns,
		                             .count = v->count,
		                             .min = v->min,
		                             .max = v->max,
		                             .ips = ips};
		/* (a stack the map had no room for is left out: the block still
		 * counts, under its thread and reason) */
		schedbpf_stack(b, k->kstack, (uint64_t)PERF_CONTEXT_KERNEL, ips, &blk.nips);
		schedbpf_stack(b, k->ustack, (uint64_t)PERF_CONTEXT_USER, ips, &blk.nips);
		fn(ctx, &blk);
	}
	return rc;
}

/* Unpaired completions and waits not counted. */
void
schedbpf_lost(struct schedbpf *b, uint64_t *unpaired, uint64_t *lost)
{
	*unpaired = latbpf_maps_lost(&b->m, TT_LAT_UNPAIRED);
	*lost = latbpf_maps_lost(&b->m, TT_LAT_FULL);
}

/* Detach, close, free. */
void
schedbpf_free(struct schedbpf *b)
{
	if (b == NULL)
		return;
	for (size_t i = 0; i < b->nlinks; i++)
		close(b->links[i]);
	tt_bpf_close(b->obj);
	latbpf_maps_free(&b->m);
	free(b->keys);
	free(b->vals);
	free(b);
}
