/* latency-schedbpf: run-queue and block I/O histograms in the kernel (see
 * the header). */
#include "config.h"

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
                                                  "tt_sl_switch", "tt_sl_exit"};
static const char *const schedbpf_bio_progs[] = {"tt_sl_issue", "tt_sl_complete"};

struct schedbpf {
	struct tt_bpf *obj;
	struct latbpf_maps m;
	int cfg;
	struct tt_sl_cfg c;
	int links[8];
	size_t nlinks;
};

/* Attach the n programs names, each by a fd of its own. */
static int
schedbpf_attach(struct schedbpf *b, const char *const *names, size_t n, struct tt_err *err)
{
	for (size_t i = 0; i < n; i++) {
		int fd = tt_bpf_attach_trace(b->obj, names[i], err);

		if (fd < 0)
			return -1;
		b->links[b->nlinks++] = fd;
	}
	return 0;
}

/* Load, set up the target, attach. */
struct schedbpf *
schedbpf_new(const struct schedbpf_opts *o, struct tt_err *err)
{
	struct schedbpf *b;
	uint32_t zero = 0;
	uint8_t one = 1;
	bool fork = o->runq && o->npids > 0;

	if (!latbpf_usable(err))
		return NULL;
	b = xcalloc(1, sizeof *b);
	b->obj =
	    tt_bpf_open(tt_bpf_schedlat_obj, tt_bpf_schedlat_obj_len, "tracetop_schedlat", err);
	if (b->obj == NULL)
		goto fail;
	/* only the kinds asked for are loaded: their BTF is needed */
	for (size_t i = 0; i < sizeof schedbpf_runq_progs / sizeof *schedbpf_runq_progs; i++)
		if (tt_bpf_autoload(b->obj, schedbpf_runq_progs[i], o->runq, err) != 0)
			goto fail;
	for (size_t i = 0; i < sizeof schedbpf_bio_progs / sizeof *schedbpf_bio_progs; i++)
		if (tt_bpf_autoload(b->obj, schedbpf_bio_progs[i], o->bio, err) != 0)
			goto fail;
	if (tt_bpf_autoload(b->obj, "tt_sl_fork", fork, err) != 0 ||
	    tt_bpf_resize(b->obj, "hists", SCHEDBPF_HISTS, err) != 0 ||
	    tt_bpf_resize(b->obj, "runnable", SCHEDBPF_THREADS, err) != 0 ||
	    tt_bpf_resize(b->obj, "inflight", SCHEDBPF_INFLIGHT, err) != 0 ||
	    tt_bpf_load(b->obj, err) != 0)
		goto fail;
	latbpf_maps_init(&b->m, b->obj);
	b->cfg = tt_bpf_map_fd(b->obj, "cfg");
	b->c = (struct tt_sl_cfg){.filter = o->npids > 0,
	                          .self = o->include_self ? 0 : (unsigned)getpid(),
	                          .gen = 1,
	                          .runq = o->runq,
	                          .bio = o->bio};
	for (size_t i = 0; i < o->npids; i++) {
		uint32_t pid = (uint32_t)o->pids[i];

		tt_bpf_update(tt_bpf_map_fd(b->obj, "targets"), &pid, &one);
	}
	tt_bpf_update(b->cfg, &zero, &b->c);
	if ((o->runq &&
	     schedbpf_attach(b, schedbpf_runq_progs,
	                     sizeof schedbpf_runq_progs / sizeof *schedbpf_runq_progs, err) != 0) ||
	    (o->bio &&
	     schedbpf_attach(b, schedbpf_bio_progs,
	                     sizeof schedbpf_bio_progs / sizeof *schedbpf_bio_progs, err) != 0))
		goto fail;
	if (fork) {
		static const char *const f[] = {"tt_sl_fork"};

		if (schedbpf_attach(b, f, 1, err) != 0)
			goto fail;
	}
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
	free(b);
}
