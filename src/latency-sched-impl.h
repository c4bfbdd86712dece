/* latency-sched-impl.h: the scheduler and block latency source's state,
 * shared by its files (latency-sched.c: rows, the rings and their
 * pairing; latency-schedk.c: what the kernel measures with BPF, and the
 * notice). */
#ifndef TRACETOP_LATENCY_SCHED_IMPL_H
#define TRACETOP_LATENCY_SCHED_IMPL_H

#include "tracetop/evlist.h"
#include "tracetop/latency-bio.h"
#include "tracetop/latency-runq.h"
#include "tracetop/latency-sched.h"
#include "tracetop/latency-schedbpf.h"
#include "tracetop/offcpu.h"
#include "tracetop/tasks.h"

#define LS_KINDS ((1u << LAT_RUNQ) | (1u << LAT_BIO) | (1u << LAT_OFFCPU) | (1u << LAT_ONCPU))
/* The kinds the kernel can measure with BPF. */
#define LS_BPF_KINDS ((1u << LAT_RUNQ) | (1u << LAT_BIO) | (1u << LAT_OFFCPU))
/* ...of which histograms read whole at each refresh (not drained) */
#define LS_BPF_TOTALS ((1u << LAT_RUNQ) | (1u << LAT_BIO))
/* The kinds read from sched_switch. */
#define LS_SWITCH_KINDS ((1u << LAT_RUNQ) | (1u << LAT_OFFCPU) | (1u << LAT_ONCPU))

/* Refreshes in which a runq row from the kernel is renamed from /proc. */
#define LS_RENAME_TICKS 4

/* One (kind, process, thread, name). */
struct ls_row {
	enum lat_kind kind;
	int pid, tid;
	const char *name;  /* interned */
	const char *stack; /* offcpu: its trie root */
	const char *label; /* runq: the process's command when last seen (not in the key) */
	const char *comm;  /* the process's command when last seen, or NULL (bio) */
	unsigned born;     /* runq from the kernel: the refresh it first came in */
	struct lat_acc acc;
};

/* The payload offsets the hot path reads (-1: absent). */
struct ls_offsets {
	int prev_pid, prev_state, next_pid; /* sched_switch */
	int wake_pid;                       /* sched_wakeup(_new) */
	int issue_dev, issue_sector;        /* block_rq_issue */
	int done_dev, done_sector, done_error;
};

struct latsched {
	unsigned kinds;
	struct evlist sw, other; /* sched_switch (with call chains for offcpu); the rest */
	bool sw_open, other_open;
	struct evsel *ev_switch, *ev_wake, *ev_wake_new, *ev_issue, *ev_done;
	struct ls_offsets off;
	struct tasks *ts;
	unsigned ticks; /* refreshes so far */
	struct offcpu *offcpu;
	/* whether the refresh's frame took the trie (false: a frozen
	 * screen's, counts only: its gains add up into the next tick's, so a
	 * recording misses none), and the refresh that frame was made at */
	bool offcpu_taken;
	unsigned taken_tick;
	struct latrunq runq;   /* per thread: runnable or blocked since when */
	uint64_t runq_missed;  /* the target's switch-ins with no wakeup seen */
	struct lat_pair oncpu; /* per thread: when it was switched in */
	struct latbio bio;
	struct ls_row *rows;
	size_t nrows, rows_cap;
	uint32_t *rowtab; /* row index + 1; 0 empty */
	size_t rowmask;
	int *pids; /* the target's processes; none: all */
	size_t npids;
	bool filtered;
	int self;
	bool include_self;
	const char *devnames[64]; /* by minor hash: (dev, name) pairs in devs */
	uint32_t devs[64];
	const char *oncpu_name;                    /* "on-CPU", interned */
	const char *reason_names[OFFCPU_NREASONS]; /* interned */
	uint64_t events, lost;
	/* context switches perf's counter saw (a counting context-switches
	 * event per CPU, counted at the same switch as the tracepoint, after
	 * it) against the sched_switch records that came: the kernel drops
	 * records without a lost record, for every perf user, when a BPF
	 * program attached to the tracepoint through perf returns 0, and on
	 * this 6.18 kernel at times every one written while a CPU runs its
	 * idle task (tests/e2e/latency-sched-bpf.sh has the proof); the
	 * counter still counts them. (/proc/stat's ctxt is no measure: the
	 * kernel counts there switches, in bursts, that neither fire
	 * sched_switch nor reach perf's counter.) */
	int *cs_fds; /* per CPU; none: no check (-C, or no sched_switch ring) */
	size_t ncs;
	uint64_t cs0;      /* the counters' sum when the check began (they pause with the rings) */
	uint64_t switches; /* sched_switch records read */
	uint64_t sw_lost;  /* ...and those the switch rings' lost records count */
	uint64_t undelivered;     /* made, but neither read nor counted lost */
	uint64_t last_events;     /* records read up to the last refresh */
	double records_s;         /* records read per second in the last refresh */
	char notice_now[1024];    /* the notice, the ring's rate, what was not delivered */
	const char *notice_shown; /* since the last refresh: notice or notice_now */
	uint64_t last_tick_ns;
	/* runq, bio, offcpu in the kernel (then not in kinds), or NULL */
	struct schedbpf *bpf;
	unsigned bpf_kinds;
	uint64_t bpf_events, bpf_lost, bpf_unpaired;
	char bpf_why[200]; /* why not in the kernel, or "" */
	char notice[600];
};

/* Is pid one of the target's (or any, without a target)? */
bool latsched_wanted_pid(const struct latsched *l, int pid);

/* The row of a key (name interned), made on first use. */
struct ls_row *latsched_row(struct latsched *l, enum lat_kind kind, int pid, int tid,
                            const char *name);

/* Thread tid of process pid (-1: unknown), read from /proc when new. */
struct thread *latsched_thread(struct latsched *l, int pid, int tid);

/* The name of block device dev, interned. */
const char *latsched_devname(struct latsched *l, uint32_t dev);

/* Take runq, bio and offcpu into the kernel when the backend and the
 * kernel allow it (then out of kinds), else say why in bpf_why; -1 with
 * err when --engine bpf cannot be had. */
int latsched_bpf_setup(struct latsched *l, enum engine_backend backend, struct tt_err *err);

/* Read what the kernel measured since the last refresh into the rows. */
void latsched_bpf_read(struct latsched *l);

/* What is measured, where, and what it costs, into l->notice. */
void latsched_make_notice(struct latsched *l);

/* Open and enable the counters (every CPU, system-wide); false without
 * them (the check is then off). */
bool latsched_cs_open(struct latsched *l, const int *cpus, size_t ncpus);

/* Start or stop the counters. */
void latsched_cs_enable(struct latsched *l, bool on);

/* Switches the counters saw so far (their sum); false when unreadable. */
bool latsched_cs_read(const struct latsched *l, uint64_t *v);

/* At a refresh, made the counters' sum read before the rings were
 * drained: the switches counted but neither delivered nor counted lost
 * so far into l->undelivered; the notice with the rings' record rate and
 * them, or the notice. */
const char *latsched_check_delivery(struct latsched *l, bool have_made, uint64_t made);

#endif
