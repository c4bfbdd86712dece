/* latency-func: the latency source's timed functions (given at start, or
 * added and removed while running) and its BPF back-end: histograms
 * computed in the kernel, read at each tick. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/evspec.h"
#include "latency-impl.h"

/* Thread tid of process pid entered (entry) or left function k. */
void
latsys_func(struct latsys *l, int pid, int tid, size_t k, bool entry, uint64_t t)
{
	uint64_t ns;

	if (entry)
		lat_pair_enter(&l->fpair, tid, (int32_t)k, t);
	else if (lat_pair_exit(&l->fpair, tid, (int32_t)k, t, &ns))
		lat_hist_add(&latsys_row_get(l, pid, LATSYS_FUNC + (int)k)->acc.interval, ns,
		             false);
}

/* A SPEC as rows show it: its binary by base name, "/usr/bin/app:work"
 * as "app:work", so the function shows in a narrow column. */
static const char *
latsys_func_label(const char *name)
{
	const char *colon = strrchr(name, ':'), *slash;

	while (colon != NULL && (slash = memchr(name, '/', (size_t)(colon - name))) != NULL)
		name = slash + 1;
	return str_intern(name);
}

/* One more function slot. */
static size_t
latsys_fn_new(struct latsys *l, const char *name)
{
	l->fns = xrealloc(l->fns, (l->nfuncs + 1) * sizeof *l->fns);
	l->fns[l->nfuncs] = (struct latsys_fn){.name = latsys_func_label(name)};
	return l->nfuncs++;
}

/* Name the functions of the source's own events (offline: the only ones). */
void
latsys_set_funcs(struct latsys *l, const char *const *names, size_t n)
{
	for (size_t i = 0; i < l->nfuncs; i++)
		if (l->fns[i].el != NULL) {
			evlist_close(l->fns[i].el);
			free(l->fns[i].el);
		}
	l->nfuncs = 0;
	for (size_t i = 0; i < n; i++)
		latsys_fn_new(l, names[i]);
	l->nfuncs_el = n;
}

/* Open function k's entry and return events on the source's target, as
 * their own evlist (the source's is open already). */
static int
latsys_func_open(struct latsys *l, struct latsys_fn *f, const char *entry, const char *ret,
                 struct tt_err *err)
{
	struct evspec specs[2];
	struct evlist_target t = {.cpus = l->cpus,
	                          .ncpus = l->ncpus,
	                          .tids = l->tids,
	                          .ntids = l->ntids,
	                          .inherit = l->inherit};
	struct evlist_params p = {.mmap_pages = 64, .sample_type = l->el.sample_type};

	if (evspec_parse(entry, &specs[0], err) != 0 || evspec_parse(ret, &specs[1], err) != 0)
		return -1;
	f->el = xcalloc(1, sizeof *f->el);
	if (evlist_open(f->el, specs, 2, &t, &p, err) != 0 || evlist_enable(f->el) != 0) {
		evlist_close(f->el); /* whatever it opened (safe on a zeroed one) */
		free(f->el);
		f->el = NULL;
		return err->msg[0] ? -1
		                   : err_set(err, "cannot enable %s: %s", entry, strerror(errno));
	}
	return 0;
}

/* Time one more function. */
int
latsys_add_func(struct latsys *l, const char *name, const char *entry, const char *ret,
                struct tt_err *err)
{
	size_t k;

	err->msg[0] = '\0';
	if (!l->open && l->bpf == NULL)
		return err_set(err, "the latency source has no events (offline)");
	k = latsys_fn_new(l, name);
	if ((l->bpf != NULL ? latbpf_add_func(l->bpf, (uint32_t)k, entry, ret, err)
	                    : latsys_func_open(l, &l->fns[k], entry, ret, err)) != 0) {
		l->fns[k].gone = true;
		return -1;
	}
	return (int)k;
}

/* Stop timing function k. */
int
latsys_remove_func(struct latsys *l, size_t k, struct tt_err *err)
{
	struct latsys_fn *f = &l->fns[k];

	if (k >= l->nfuncs || f->gone)
		return err_set(err, "that function is not timed");
	if (k < l->nfuncs_el && l->bpf == NULL)
		return err_set(err, "%s was given with --latency: timed until exit", f->name);
	if (l->bpf != NULL)
		latbpf_remove_func(l->bpf, (uint32_t)k);
	if (f->el != NULL) {
		latsys_read(l); /* its last calls */
		evlist_close(f->el);
		free(f->el);
		f->el = NULL;
	}
	f->gone = true;
	return 0;
}

/* The function shown as name, or named by the SPEC name. */
int
latsys_find_func(const struct latsys *l, const char *name)
{
	const char *label = latsys_func_label(name); /* interned: one pointer each */

	for (size_t i = 0; i < l->nfuncs; i++)
		if (!l->fns[i].gone && l->fns[i].name == label)
			return (int)i;
	return -1;
}

/* Function k's shown name. */
const char *
latsys_func_name(const struct latsys *l, size_t k)
{
	return k < l->nfuncs ? l->fns[k].name : "";
}

/* In the kernel? */
bool
latsys_in_kernel(const struct latsys *l)
{
	return l->bpf != NULL;
}

/* How it measures. */
const char *
latsys_notice(const struct latsys *l)
{
	return l->notice;
}

/* ---- BPF ---- */

/* One bucket read from the kernel joins its row's running total. */
static void
latsys_bpf_bucket(void *ctx, const struct latbpf_bucket *v)
{
	struct latsys *l = ctx;
	int nr = (int)v->id;
	char comm[16];

	if (v->id >= LATSYS_FUNC && v->id - LATSYS_FUNC >= l->nfuncs)
		return; /* not ours (cannot happen: cookies are ours) */
	/* named as the kernel saw it: the process may be gone by now */
	if (!latsys_has_comm(l, v->pid) && latbpf_comm(l->bpf, v->pid, comm))
		latsys_set_comm(l, v->pid, comm);
	lat_hist_add_bucket(&latsys_row_get(l, v->pid, nr)->acc.interval, v->bucket, v->count,
	                    v->sum, v->min, v->max, v->error ? v->count : 0);
}

/* The kernel's histograms hold totals since start: each row's interval
 * is read whole, and what it adds to the last total is the refresh's. */
void
latsys_bpf_tick(struct latsys *l, double secs)
{
	uint64_t lost;

	latbpf_read(l->bpf, latsys_bpf_bucket, l);
	l->events = 0;
	for (size_t i = 0; i < l->nrows; i++) {
		lat_acc_tick_totals(&l->rows[i].acc, secs);
		l->events += 2 * l->rows[i].acc.total.count;
	}
	latbpf_lost(l->bpf, &l->bpf_unpaired, &lost);
	l->lost = lost;
}

/* BPF or the rings (see latency-impl.h). */
int
latsys_bpf_setup(struct latsys *l, const struct latsys_opts *o, struct tt_err *err)
{
	struct tt_err why;
	size_t n = o->npids;
	int *pids = xcalloc(o->npids + o->ntids + 1, sizeof *pids);
	struct latbpf_opts bo = {
	    .pids = pids, .include_self = o->include_self, .syscalls = !o->no_syscalls};

	snprintf(l->notice, sizeof l->notice,
	         "paired in user space from perf ring records: two records per call copied to "
	         "user space%s",
	         o->backend == ENGINE_BACKEND_PERF ? " (--engine perf)" : "");
	if (o->backend == ENGINE_BACKEND_PERF) {
		free(pids);
		return 0;
	}
	/* a thread is matched by its process id in the kernel: the main
	 * thread's tid is it */
	memcpy(pids, o->pids, o->npids * sizeof *pids);
	for (size_t i = 0; i < o->ntids; i++)
		pids[n++] = o->tids[i];
	if (o->command > 0)
		pids[n++] = o->command;
	bo.npids = n;
	if ((l->bpf = latbpf_new(&bo, &why)) != NULL)
		for (size_t k = 0; k < o->nfuncs; k++)
			if (latbpf_add_func(l->bpf, (uint32_t)k, o->funcs[2 * k],
			                    o->funcs[2 * k + 1], &why) != 0) {
				latbpf_free(l->bpf);
				l->bpf = NULL;
				break;
			}
	free(pids);
	if (l->bpf == NULL) {
		if (o->backend == ENGINE_BACKEND_BPF)
			return err_set(err, "--engine bpf: %s", why.msg);
		snprintf(l->notice, sizeof l->notice,
		         "paired in user space from perf ring records (two records per call copied "
		         "to user space): no BPF, %.250s",
		         why.msg);
		return 0;
	}
	snprintf(l->notice, sizeof l->notice,
	         "histograms computed in the kernel (BPF): no per-call copy to user space");
	return 1;
}
