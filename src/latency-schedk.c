/* latency-schedk: what the kernel measures for the scheduler and block
 * latency source with BPF (run-queue and block I/O histograms, off-CPU
 * time by thread and stack) into its rows, and the notice saying where
 * each kind is measured and what it costs. */
#include "config.h"

#include <linux/perf_event.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tracetop/evlist.h"
#include "tracetop/latency-sched.h"
#include "tracetop/util.h"

#include "latency-sched-impl.h"

/* The names of kinds, in the notice's order: "a, b and c"; its length. */
static size_t
ls_kind_list(unsigned kinds, char *buf, size_t len)
{
	static const char *const what[LAT_NKINDS] = {[LAT_RUNQ] = "run-queue",
	                                             [LAT_OFFCPU] = "off-CPU",
	                                             [LAT_ONCPU] = "on-CPU",
	                                             [LAT_BIO] = "block I/O"};
	static const enum lat_kind order[] = {LAT_RUNQ, LAT_OFFCPU, LAT_ONCPU, LAT_BIO};
	size_t n = 0, left = (size_t)__builtin_popcount(kinds);

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (kinds & (1u << order[i])) {
			left--;
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
			                      n == 0      ? ""
			                      : left == 0 ? " and "
			                                  : ", ",
			                      what[order[i]]);
		}
	return n;
}

/* Append to the notice. */
static void __attribute__((format(printf, 2, 3))) ls_say(struct latsched *l, const char *fmt, ...)
{
	size_t n = strlen(l->notice);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->notice + n, sizeof l->notice - n, fmt, ap);
	va_end(ap);
}

/* What is measured and what it costs, for the notice. */
void
latsched_make_notice(struct latsched *l)
{
	char list[64];

	l->notice[0] = '\0';
	if (l->bpf != NULL) {
		ls_kind_list(l->bpf_kinds, list, sizeof list);
		ls_say(l,
		       "%s times in the kernel (BPF on BTF tracepoints: no record copied per "
		       "event%s)%s",
		       list,
		       l->bpf_kinds & (1u << LAT_OFFCPU)
		           ? "; off-CPU time summed by thread and stack, stacks from a stack map"
		           : "",
		       l->kinds ? "; " : "");
	}
	if (l->kinds == 0)
		return;
	ls_kind_list(l->kinds, list, sizeof list);
	ls_say(l, "%s times paired in user space: a ring record per %s%s%s", list,
	       l->kinds & LS_SWITCH_KINDS ? "context switch" : "",
	       l->kinds & (1u << LAT_OFFCPU)
	           ? " with both call chains (up to ~2 KiB, symbols resolved at each switch-in)"
	           : "",
	       l->kinds & (1u << LAT_RUNQ) ? ", wakeup" : "");
	if (l->kinds & (1u << LAT_BIO))
		ls_say(l, "%s",
		       l->kinds == (1u << LAT_BIO) ? "block request issued and completed"
		                                   : ", block request issued and completed");
	if (l->bpf_why[0] != '\0')
		ls_say(l, " (not in the kernel: %s)", l->bpf_why);
}

/* runq, bio and offcpu in the kernel when the backend and the kernel
 * allow it. */
int
latsched_bpf_setup(struct latsched *l, enum engine_backend backend, struct tt_err *err)
{
	unsigned k = l->kinds & LS_BPF_KINDS;
	struct schedbpf_opts bo = {.runq = k & (1u << LAT_RUNQ),
	                           .bio = k & (1u << LAT_BIO),
	                           .offcpu = k & (1u << LAT_OFFCPU),
	                           .pids = l->pids,
	                           .npids = l->npids,
	                           .include_self = l->include_self};
	struct tt_err why;

	if (k == 0)
		return 0;
	if (backend == ENGINE_BACKEND_PERF) {
		snprintf(l->bpf_why, sizeof l->bpf_why, "--engine perf");
		return 0;
	}
	if ((l->bpf = schedbpf_new(&bo, &why)) == NULL) {
		if (backend == ENGINE_BACKEND_BPF)
			return err_set(err, "--engine bpf: %s", why.msg);
		snprintf(l->bpf_why, sizeof l->bpf_why, "%.199s", why.msg);
		return 0;
	}
	l->bpf_kinds = k;
	l->kinds &= ~k;
	return 0;
}

/* One bucket of the kernel's histograms into its row's interval (which
 * gathers the totals so far: lat_acc_tick_totals). */
static void
ls_bpf_bucket(void *ctx, const struct latbpf_bucket *v)
{
	struct latsched *l = ctx;
	struct ls_row *r;
	char comm[16];

	if (schedbpf_is_runq(v->id)) {
		const char *now;

		r = latsched_row(l, LAT_RUNQ, v->pid, 0, NULL);
		if (r->label == NULL)
			r->born = l->ticks;
		/* named from /proc in its first refreshes: the kernel's map holds
		 * the command of the row's first wait, which for a command
		 * tracetop starts can come before its exec */
		if (l->ticks - r->born < LS_RENAME_TICKS &&
		    (now = tasks_read_comm(l->ts, v->pid, v->pid)) != NULL)
			r->label = r->comm = now;
		if (r->label == NULL && schedbpf_comm(l->bpf, v->pid, comm))
			r->label = r->comm = str_intern(comm);
	} else {
		r = latsched_row(l, LAT_BIO, 0, 0, latsched_devname(l, (uint32_t)v->pid));
	}
	lat_hist_add_bucket(&r->acc.interval, v->bucket, v->count, v->sum, v->min, v->max,
	                    v->error ? v->count : 0);
}

/* The blocks of one (thread, stacks) since the last read: weighed in the
 * off-CPU trie as the rings' switch-in would (resolved and classified by
 * offcpu), into the row of the thread and wait reason. */
static void
ls_bpf_block(void *ctx, const struct schedbpf_block *v)
{
	struct latsched *l = ctx;
	struct thread *th = latsched_thread(l, v->pid, v->tid);
	struct offcpu_block b;
	struct ls_row *r;

	offcpu_out(l->offcpu, v->pid, v->tid, th != NULL ? th->proc->comm : NULL, (long)v->state, 0,
	           v->ips, v->nips);
	if (!offcpu_in(l->offcpu, v->tid, v->ns, &b))
		return;
	r = latsched_row(l, LAT_OFFCPU, b.pid, b.tid, l->reason_names[b.reason]);
	r->stack = b.root;
	r->comm = b.comm;
	lat_hist_add_bucket(&r->acc.interval, v->bucket, v->count, v->ns, v->min, v->max, 0);
}

/* Read the kernel's histograms and off-CPU sums into the rows. */
void
latsched_bpf_read(struct latsched *l)
{
	schedbpf_read(l->bpf, ls_bpf_bucket, l);
	if (l->offcpu != NULL && (l->bpf_kinds & (1u << LAT_OFFCPU)))
		schedbpf_offcpu_read(l->bpf, ls_bpf_block, l);
	schedbpf_lost(l->bpf, &l->bpf_unpaired, &l->bpf_lost);
}

/* The counters, enabled at once. */
bool
latsched_cs_open(struct latsched *l, const int *cpus, size_t ncpus)
{
	l->cs_fds = xcalloc(ncpus, sizeof *l->cs_fds);
	for (l->ncs = 0; l->ncs < ncpus; l->ncs++)
		if ((l->cs_fds[l->ncs] =
		         evlist_counter_open(PERF_COUNT_SW_CONTEXT_SWITCHES, cpus[l->ncs])) < 0)
			break;
	if (l->ncs < ncpus) {
		for (size_t i = 0; i < l->ncs; i++)
			close(l->cs_fds[i]);
		free(l->cs_fds);
		l->cs_fds = NULL;
		l->ncs = 0;
		return false;
	}
	return true;
}

/* Start or stop the counters. */
void
latsched_cs_enable(struct latsched *l, bool on)
{
	for (size_t i = 0; i < l->ncs; i++)
		ioctl(l->cs_fds[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

/* The counters' sum. */
bool
latsched_cs_read(const struct latsched *l, uint64_t *v)
{
	uint64_t c;

	*v = 0;
	for (size_t i = 0; i < l->ncs; i++) {
		if (read(l->cs_fds[i], &c, sizeof c) != (ssize_t)sizeof c)
			return false;
		*v += c;
	}
	return l->ncs > 0;
}

/* Switches counted but neither delivered nor reported lost, made read
 * before the rings were drained: a record is written before its switch
 * is counted, so none is in flight; a few a CPU are allowed for the
 * counters' enabling after the rings'. */
const char *
latsched_check_delivery(struct latsched *l, bool have_made, uint64_t made)
{
	uint64_t got = l->switches + l->sw_lost;
	size_t len;

	if (l->kinds == 0) /* no ring of records */
		return l->notice[0] != '\0' ? l->notice : NULL;
	if (have_made && made >= l->cs0) {
		made -= l->cs0;
		if (made > got + 4 * l->ncs && made - got > l->undelivered)
			l->undelivered = made - got;
	}
	len = (size_t)snprintf(l->notice_now, sizeof l->notice_now, "%s; %.0f ring records/s",
	                       l->notice, l->records_s);
	if (l->undelivered > 0 && len < sizeof l->notice_now)
		snprintf(l->notice_now + len, sizeof l->notice_now - len,
		         "; %" PRIu64 " of %" PRIu64 " context switches (perf's counter) never "
		         "reached the rings, counted lost (the kernel wrote no lost record: it "
		         "withholds some from every perf user, e.g. those out of a CPU's idle task "
		         "on this kernel at times, or all while a BPF program attached to "
		         "sched_switch through perf returns 0, see bpftool perf list; --engine bpf "
		         "reads no ring)",
		         l->undelivered, got + l->undelivered);
	return l->notice_now;
}
