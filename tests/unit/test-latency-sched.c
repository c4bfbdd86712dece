/* Unit tests for the scheduler and block latencies, fed synthetic
 * events: block requests paired by (device, sector) in any order, with
 * unpaired completions, replaced issues and a table that grows and
 * deletes; device names from a sysfs fixture; run-queue waits from a
 * wakeup or a preemption to the switch-in, a blocking switch-out
 * cancelling a wakeup seen while running, a switch-in after a block with
 * no wakeup counted missed unless its wakeup comes later with an earlier
 * time (another CPU's ring read after it); off-CPU blocks weighing their
 * stack in the trie, by wait reason, runnable switch-outs not blocking;
 * the kinds list; snapshots keeping the other source's rows; the trie's
 * interval ended by the snapshot, so refreshes without one (a frozen
 * screen's) add up into the next (what a recording writes); rows and
 * stacks merged over threads; the
 * delivery check against perf's context-switch counters: none missing
 * within its slack, the missing ones counted lost and named in the
 * notice, with the rings' record rate. */
#include "config.h"

#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/callgraph.h"
#include "tracetop/frame.h"
#include "tracetop/latency-bio.h"
#include "tracetop/latency-merge.h"
#include "tracetop/latency-runq.h"
#include "tracetop/latency-sched.h"
#include "tracetop/latency.h"
#include "tracetop/offcpu.h"

#include "../../src/latency-sched-impl.h"

/* The row of (kind, pid, tid) in fl, or NULL. */
static const struct lat_row *
find(const struct frame_latency *fl, enum lat_kind kind, int pid, int tid)
{
	for (size_t i = 0; i < fl->nrows; i++)
		if (fl->rows[i].kind == kind && fl->rows[i].pid == pid && fl->rows[i].tid == tid)
			return &fl->rows[i];
	return NULL;
}

/* Requests pair by (dev, sector) whatever the order of completion. */
static void
test_bio_pairing(void **state)
{
	struct latbio b;
	uint64_t ns;

	(void)state;
	latbio_init(&b);
	latbio_issue(&b, 7u << 20, 100, 1000);
	latbio_issue(&b, 7u << 20, 108, 1100);
	latbio_issue(&b, 8u << 20, 100, 1200); /* same sector, another device */
	assert_true(latbio_complete(&b, 7u << 20, 108, 1500, &ns));
	assert_int_equal(ns, 400);
	assert_true(latbio_complete(&b, 8u << 20, 100, 1300, &ns));
	assert_int_equal(ns, 100);
	assert_true(latbio_complete(&b, 7u << 20, 100, 2000, &ns));
	assert_int_equal(ns, 1000);
	/* completed already, or in flight before the start: unpaired */
	assert_false(latbio_complete(&b, 7u << 20, 100, 2100, &ns));
	assert_int_equal(b.unpaired, 1);
	/* a second issue of a key replaces the first (its completion was lost) */
	latbio_issue(&b, 7u << 20, 5, 3000);
	latbio_issue(&b, 7u << 20, 5, 3500);
	assert_true(latbio_complete(&b, 7u << 20, 5, 3600, &ns));
	assert_int_equal(ns, 100);
	assert_int_equal(b.used, 0);
	latbio_free(&b);
}

/* Thousands in flight: the table grows, and deleting in another order
 * than issuing keeps every probe run whole. */
static void
test_bio_many(void **state)
{
	struct latbio b;
	uint64_t ns;
	unsigned n = 5000;

	(void)state;
	latbio_init(&b);
	for (unsigned i = 0; i < n; i++)
		latbio_issue(&b, (i % 3) << 20, i * 8, 10 + i);
	assert_int_equal(b.used, n);
	/* odd ones first, then the even ones backwards */
	for (unsigned i = 1; i < n; i += 2) {
		assert_true(latbio_complete(&b, (i % 3) << 20, i * 8, 100000 + i, &ns));
		assert_int_equal(ns, 100000 - 10);
	}
	for (unsigned i = n - 2;; i -= 2) {
		assert_true(latbio_complete(&b, (i % 3) << 20, i * 8, 200000, &ns));
		assert_int_equal(ns, 200000 - 10 - i);
		if (i == 0)
			break;
	}
	assert_int_equal(b.used, 0);
	assert_int_equal(b.unpaired, 0);
	latbio_free(&b);
}

/* Device names from sysfs's uevent, else MAJ:MIN. */
static void
test_devname(void **state)
{
	char root[] = "/tmp/tt-bio-XXXXXX", path[256], buf[32];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof path, "%s/dev", root);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/dev/block", root);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/dev/block/7:3", root);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/dev/block/7:3/uevent", root);
	assert_non_null(f = fopen(path, "w"));
	fputs("MAJOR=7\nMINOR=3\nDEVNAME=loop3\nDEVTYPE=disk\n", f);
	fclose(f);
	latbio_devname(root, 7u << 20 | 3, buf, sizeof buf);
	assert_string_equal(buf, "loop3");
	latbio_devname(root, 8u << 20 | 1, buf, sizeof buf);
	assert_string_equal(buf, "8:1");
	unlink(path);
	snprintf(path, sizeof path, "%s/dev/block/7:3", root);
	rmdir(path);
	snprintf(path, sizeof path, "%s/dev/block", root);
	rmdir(path);
	snprintf(path, sizeof path, "%s/dev", root);
	rmdir(path);
	rmdir(root);
}

/* Wait reasons from the kernel stack. */
static void
test_classify(void **state)
{
	const char *pipe[] = {"__schedule", "schedule", "pipe_read", "vfs_read", "ksys_read"};
	const char *futex[] = {"__schedule", "schedule", "futex_do_wait", "__futex_wait"};
	const char *io[] = {"__schedule", "schedule", "io_schedule", "folio_wait_bit_common"};
	const char *fault[] = {"__schedule", "io_schedule",     "filemap_fault",
	                       "__do_fault", "handle_mm_fault", "exc_page_fault"};
	const char *unknown[] = {NULL, NULL};

	(void)state;
	assert_int_equal(offcpu_classify(1, pipe, 5), OFFCPU_SLEEP);
	assert_int_equal(offcpu_classify(1, futex, 4), OFFCPU_LOCK);
	assert_int_equal(offcpu_classify(2, io, 4), OFFCPU_IO);
	assert_int_equal(offcpu_classify(2, fault, 6), OFFCPU_FAULT); /* the fault, not its I/O */
	assert_int_equal(offcpu_classify(1, unknown, 2), OFFCPU_SLEEP);
	assert_string_equal(offcpu_reason_name(OFFCPU_IO), "I/O");
	assert_true(offcpu_runnable(0));
	assert_true(offcpu_runnable(0x100)); /* preempted: TASK_REPORT_MAX */
	assert_false(offcpu_runnable(1));
	assert_false(offcpu_runnable(2));
}

/* Run-queue waits: wakeup -> switch in; preempted -> switch in; a block
 * cancels a wakeup seen while running. Thread 1 (init) is a real thread
 * whose process the model reads from /proc. */
static void
test_runq(void **state)
{
	struct latsched *l = latsched_new_offline(1u << LAT_RUNQ);
	struct frame_latency fl = {0};
	const struct lat_row *r;

	(void)state;
	latsched_wakeup(l, 1, 1000);
	latsched_switch(l, 0, 0, 0, 1, 1050, NULL, 0);     /* idle -> init: 50 ns */
	latsched_switch(l, 1, 1, 0x100, 0, 2000, NULL, 0); /* init preempted */
	latsched_switch(l, 0, 0, 0, 1, 2300, NULL, 0);     /* back: 300 ns */
	latsched_wakeup(l, 1, 2400);                       /* while running */
	latsched_switch(l, 1, 1, 1, 0, 2500, NULL, 0);     /* it blocks */
	latsched_switch(l, 0, 0, 0, 1, 9000, NULL, 0);     /* no wakeup since */
	latsched_tick(l);
	latsched_snapshot(l, &fl);
	assert_non_null(r = find(&fl, LAT_RUNQ, 1, 0));
	assert_int_equal(r->hist.count, 2);
	assert_int_equal(r->hist.min, 50);
	assert_int_equal(r->hist.max, 300);
	assert_int_equal(fl.sched_unpaired, 1);
	assert_null(find(&fl, LAT_OFFCPU, 1, 1)); /* not asked for */
	frame_latency_free(&fl);
	latsched_free(l);
}

/* The pairing's states: first seen in, a late wakeup, a miss, a
 * forgotten thread, many threads (the table grows, blocked ones kept). */
static void
test_runq_states(void **state)
{
	struct latrunq q;
	uint64_t ns = 0;

	(void)state;
	latrunq_init(&q);
	/* running since before the start: its first switch-in is no wait */
	assert_int_equal(latrunq_in(&q, 7, 100, &ns), LATRUNQ_NONE);
	latrunq_out(&q, 7, false, 200);
	/* read out of order: the switch-in (CPU 1's ring) before its wakeup */
	assert_int_equal(latrunq_in(&q, 7, 500, &ns), LATRUNQ_MISSED);
	assert_int_equal(latrunq_wakeup(&q, 7, 450, &ns), LATRUNQ_LATE);
	assert_int_equal(ns, 50);
	/* a wakeup while it runs is none; a block then no wakeup is missed */
	assert_int_equal(latrunq_wakeup(&q, 7, 600, &ns), LATRUNQ_NONE);
	latrunq_out(&q, 7, false, 700);
	assert_int_equal(latrunq_in(&q, 7, 900, &ns), LATRUNQ_MISSED);
	/* ...and a wakeup after that switch-in does not take it back */
	assert_int_equal(latrunq_wakeup(&q, 7, 950, &ns), LATRUNQ_NONE);
	/* two wakeups: the wait is from the first */
	latrunq_out(&q, 7, false, 1000);
	latrunq_wakeup(&q, 7, 1100, &ns);
	latrunq_wakeup(&q, 7, 1150, &ns);
	assert_int_equal(latrunq_in(&q, 7, 1200, &ns), LATRUNQ_WAIT);
	assert_int_equal(ns, 100);
	/* preempted: waits from its switch-out */
	latrunq_out(&q, 7, true, 1300);
	assert_int_equal(latrunq_in(&q, 7, 1340, &ns), LATRUNQ_WAIT);
	assert_int_equal(ns, 40);
	/* forgotten (exited): a reused tid starts clean */
	latrunq_out(&q, 7, false, 1400);
	latrunq_forget(&q, 7);
	assert_int_equal(latrunq_in(&q, 7, 1500, &ns), LATRUNQ_NONE);
	/* the idle task is never paired */
	assert_int_equal(latrunq_wakeup(&q, 0, 1, &ns), LATRUNQ_NONE);
	assert_int_equal(latrunq_in(&q, 0, 2, &ns), LATRUNQ_NONE);
	/* 5000 threads blocked, then each woken and in: every wait kept */
	for (int tid = 100; tid < 5100; tid++)
		latrunq_out(&q, tid, false, 10);
	for (int tid = 100; tid < 5100; tid++) {
		latrunq_wakeup(&q, tid, 20, &ns);
		assert_int_equal(latrunq_in(&q, tid, 20 + (uint64_t)tid, &ns), LATRUNQ_WAIT);
		assert_int_equal(ns, (uint64_t)tid);
	}
	latrunq_free(&q);
}

/* Off-CPU: a block weighs its stack; a runnable switch-out is none; the
 * snapshot keeps another source's rows, once. */
static void
test_offcpu(void **state)
{
	struct latsched *l = latsched_new_offline(1u << LAT_OFFCPU);
	struct frame_latency fl = {0};
	const struct lat_row *r;
	/* user addresses no mapping of init holds: unresolved, kept by address */
	const uint64_t ips[] = {(uint64_t)PERF_CONTEXT_USER, 0x10, 0x20, 0x30};
	uint32_t leaves[4];
	double ns[4];
	size_t depth = 0;

	(void)state;
	latsched_switch(l, 1, 1, 1, 0, 1000, ips, 4);
	latsched_switch(l, 0, 0, 0, 1, 1000 + 300000000, NULL, 0);
	latsched_switch(l, 1, 1, 0, 0, 400000000, ips, 4); /* preempted: no block */
	latsched_switch(l, 0, 0, 0, 1, 500000000, NULL, 0);
	latsched_tick(l);
	frame_latency_reserve(&fl, 1);
	fl.rows[0] = (struct lat_row){.kind = LAT_SYSCALL, .name = "read", .pid = 7};
	fl.nrows = 1;
	latsched_snapshot(l, &fl);
	latsched_snapshot(l, &fl);
	assert_int_equal(fl.nrows, 2);
	assert_non_null(find(&fl, LAT_SYSCALL, 7, 0));
	assert_non_null(r = find(&fl, LAT_OFFCPU, 1, 1));
	assert_string_equal(r->name, "sleep");
	assert_int_equal(r->hist.count, 1);
	assert_int_equal(r->hist.total, 300000000);
	assert_non_null(r->stack);
	assert_non_null(fl.offcpu);
	assert_int_equal(offcpu_stacks(fl.offcpu, r->stack, leaves, ns, 4), 1);
	assert_true(ns[0] == 300000000.0);
	for (uint32_t k = leaves[0]; cg_node(fl.offcpu, k)->parent != 0;
	     k = cg_node(fl.offcpu, k)->parent)
		depth++;
	assert_int_equal(depth, 3); /* the three user frames, markers left out */
	frame_latency_free(&fl);
	latsched_free(l);
}

/* The leaf's gain in the trie's last interval (last_self) under root. */
static uint64_t
leaf_gain(const struct callgraph *cg, const char *root)
{
	uint32_t leaves[4];
	double ns[4];

	assert_int_equal(offcpu_stacks(cg, root, leaves, ns, 4), 1);
	return cg_node(cg, leaves[0])->last_self;
}

/* A refresh whose frame leaves the rows out (a frozen screen's): the
 * next frame's trie holds its blocks with the next interval's as its
 * last gain, though the screen took the frame again between (a thaw);
 * a second snapshot of the same refresh changes nothing. */
static void
test_offcpu_frozen(void **state)
{
	struct latsched *l = latsched_new_offline(1u << LAT_OFFCPU);
	struct frame_latency fl = {0};
	const uint64_t ips[] = {(uint64_t)PERF_CONTEXT_USER, 0x10, 0x20};
	const struct lat_row *r;

	(void)state;
	latsched_switch(l, 1, 1, 1, 0, 1000, ips, 3);
	latsched_switch(l, 0, 0, 0, 1, 1000 + 5000, NULL, 0);
	latsched_tick(l);
	latsched_snapshot(l, &fl);
	assert_non_null(r = find(&fl, LAT_OFFCPU, 1, 1));
	assert_int_equal(leaf_gain(fl.offcpu, r->stack), 5000);
	latsched_switch(l, 1, 1, 1, 0, 20000, ips, 3);
	latsched_switch(l, 0, 0, 0, 1, 20000 + 7000, NULL, 0);
	latsched_tick(l);
	latsched_taken(l, false);  /* frozen: the frame has no rows */
	latsched_snapshot(l, &fl); /* thawed: the screen takes the frame again */
	assert_non_null(r = find(&fl, LAT_OFFCPU, 1, 1));
	assert_int_equal(r->hist.total, 5000 + 7000);
	latsched_switch(l, 1, 1, 1, 0, 40000, ips, 3);
	latsched_switch(l, 0, 0, 0, 1, 40000 + 11000, NULL, 0);
	latsched_tick(l);
	latsched_snapshot(l, &fl);
	assert_non_null(r = find(&fl, LAT_OFFCPU, 1, 1));
	assert_int_equal(r->hist.total, 5000 + 7000 + 11000);
	assert_int_equal(leaf_gain(fl.offcpu, r->stack), 7000 + 11000);
	assert_true(cg_total(fl.offcpu) == 5000 + 7000 + 11000);
	latsched_snapshot(l, &fl); /* the same refresh again (a new sort, say) */
	latsched_switch(l, 1, 1, 1, 0, 60000, ips, 3);
	latsched_switch(l, 0, 0, 0, 1, 60000 + 13000, NULL, 0);
	latsched_tick(l);
	latsched_snapshot(l, &fl);
	assert_int_equal(leaf_gain(fl.offcpu, find(&fl, LAT_OFFCPU, 1, 1)->stack), 13000);
	frame_latency_free(&fl);
	latsched_free(l);
}

/* On-CPU slices: switch in to switch out, per thread; one under way at
 * the start is none. */
static void
test_oncpu(void **state)
{
	struct latsched *l = latsched_new_offline((1u << LAT_ONCPU) | (1u << LAT_OFFCPU));
	struct frame_latency fl = {0};
	const struct lat_row *r;

	(void)state;
	latsched_switch(l, 1, 1, 1, 0, 50, NULL, 0);      /* on since before the start */
	latsched_switch(l, 0, 0, 0, 1, 100, NULL, 0);     /* in */
	latsched_switch(l, 1, 1, 0x100, 0, 600, NULL, 0); /* preempted: 500 on */
	latsched_switch(l, 0, 0, 0, 1, 700, NULL, 0);
	latsched_switch(l, 1, 1, 1, 0, 900, NULL, 0);  /* blocks: 200 on */
	latsched_switch(l, 0, 0, 0, 1, 1900, NULL, 0); /* 1000 blocked */
	latsched_tick(l);
	latsched_snapshot(l, &fl);
	assert_non_null(r = find(&fl, LAT_ONCPU, 1, 1));
	assert_int_equal(r->hist.count, 2);
	assert_int_equal(r->hist.total, 700);
	assert_non_null(r = find(&fl, LAT_OFFCPU, 1, 1));
	assert_int_equal(r->hist.total, 1000 + 50); /* the first block too */
	frame_latency_free(&fl);
	latsched_free(l);
}

/* Off-CPU rows merged over threads: one row per wait reason, pid -1,
 * its blocks summed, its stacks (the same in two threads) merged under
 * a root of its own at the same frames; a block I/O row stays. */
static void
test_offcpu_merged(void **state)
{
	struct latsched *l = latsched_new_offline(1u << LAT_OFFCPU);
	struct frame_latency fl = {0}, m = {0};
	const uint64_t ips[] = {(uint64_t)PERF_CONTEXT_USER, 0x10, 0x20, 0x30};
	const struct lat_row *r;
	uint32_t leaves[4];
	double ns[4];
	size_t depth = 0;

	(void)state;
	latsched_switch(l, 1, 1, 1, 0, 1000, ips, 4);
	latsched_switch(l, 0, 0, 0, 1, 1000 + 300000, NULL, 0);
	latsched_switch(l, 1, 2, 1, 0, 2000, ips, 4); /* another thread, the same stack */
	latsched_switch(l, 0, 0, 0, 2, 2000 + 100000, NULL, 0);
	latsched_bio_issue(l, 0x800001, 8, 1000);
	latsched_bio_complete(l, 0x800001, 8, 0, 5000);
	latsched_tick(l);
	latsched_snapshot(l, &fl);
	assert_int_equal(fl.nrows, 3);
	lat_merge(&fl, LAT_MERGE_KINDS, &m);
	assert_int_equal(m.nrows, 2);
	assert_non_null(find(&m, LAT_BIO, 0, 0));
	assert_non_null(r = find(&m, LAT_OFFCPU, -1, 0));
	assert_string_equal(r->name, "sleep");
	assert_string_equal(r->comm, "(all)");
	assert_int_equal(r->hist.count, 2);
	assert_int_equal(r->hist.total, 400000);
	assert_string_equal(r->stack, "sleep (all)");
	assert_int_equal(offcpu_stacks(m.offcpu, r->stack, leaves, ns, 4), 1);
	assert_true(ns[0] == 400000.0);
	for (uint32_t k = leaves[0]; cg_node(m.offcpu, k)->parent != 0;
	     k = cg_node(m.offcpu, k)->parent)
		depth++;
	assert_int_equal(depth, 3);
	/* again: its storage reused, the same answer */
	lat_merge(&fl, LAT_MERGE_KINDS, &m);
	assert_int_equal(m.nrows, 2);
	/* not merged: the threads' rows and stacks as they were */
	lat_merge(&fl, 1u << LAT_SYSCALL, &m);
	assert_int_equal(m.nrows, 3);
	assert_non_null(r = find(&m, LAT_OFFCPU, 1, 2));
	assert_int_equal(offcpu_stacks(m.offcpu, r->stack, leaves, ns, 4), 1);
	assert_true(ns[0] == 100000.0);
	frame_latency_free(&m);
	frame_latency_free(&fl);
	latsched_free(l);
}

/* Threads that exit leave the table (deleted, the others still found). */
static void
test_offcpu_forget(void **state)
{
	struct offcpu *o = offcpu_new(NULL);
	struct offcpu_block b;

	(void)state;
	for (int tid = 1; tid <= 1000; tid++)
		offcpu_out(o, 7, tid, "app", 1, 100, NULL, 0);
	for (int tid = 1; tid <= 1000; tid += 2)
		offcpu_forget(o, tid);
	for (int tid = 1; tid <= 1000; tid++) {
		bool paired = offcpu_in(o, tid, 100 + (uint64_t)tid, &b);

		assert_int_equal(paired, tid % 2 == 0);
		if (paired) {
			assert_int_equal(b.ns, tid);
			assert_int_equal(b.pid, 7);
		}
	}
	offcpu_free(o);
}

/* --latency-kinds. */
static void
test_kinds(void **state)
{
	struct tt_err err;
	unsigned k;

	(void)state;
	assert_int_equal(lat_kinds_parse("syscall,runq", &k, &err), 0);
	assert_int_equal(k, (1u << LAT_SYSCALL) | (1u << LAT_RUNQ));
	assert_int_equal(lat_kinds_parse("all", &k, &err), 0);
	assert_int_equal(k, (1u << LAT_SYSCALL) | (1u << LAT_RUNQ) | (1u << LAT_BIO) |
	                        (1u << LAT_OFFCPU) | (1u << LAT_ONCPU));
	assert_true(latsched_wanted(k));
	assert_false(latsched_wanted(1u << LAT_SYSCALL));
	assert_int_equal(lat_kinds_parse("bio,nope", &k, &err), -1);
	assert_non_null(strstr(err.msg, "'nope'"));
	assert_int_equal(lat_kinds_parse("function", &k, &err), -1);
	assert_int_equal(lat_kinds_parse("", &k, &err), -1);
}

/* Switches perf's counter saw (read before the drain) but neither read
 * nor counted lost: within the slack (a few a CPU: the counters are
 * enabled after the rings), nothing; past it, counted lost once (a
 * high-water mark: the same ones are not counted again) and said in the
 * notice the frame carries, with the rings' record rate. */
static void
test_delivery(void **state)
{
	struct latsched *l = latsched_new_offline(1u << LAT_RUNQ);
	struct frame_latency fl = {0};

	(void)state;
	snprintf(l->notice, sizeof l->notice, "run-queue times paired in user space");
	l->ncs = 2; /* two CPUs' counters (no fds: the sums are given) */
	l->cs0 = 1000;
	l->switches = 500;
	l->sw_lost = 10;
	l->records_s = 42;
	/* 516 counted, 510 got: within the slack */
	assert_non_null(strstr(latsched_check_delivery(l, true, 1516), "; 42 ring records/s"));
	assert_int_equal(l->undelivered, 0);
	assert_null(strstr(l->notice_now, "never reached"));
	/* 600 counted, 510 got: 90 the kernel never delivered */
	l->notice_shown = latsched_check_delivery(l, true, 1600);
	assert_int_equal(l->undelivered, 90);
	assert_non_null(strstr(l->notice_shown, "; 90 of 600 context switches (perf's counter) "
	                                        "never reached the rings, counted lost"));
	latsched_snapshot(l, &fl);
	assert_int_equal(fl.sched_lost, 90);
	assert_string_equal(fl.sched_notice, l->notice_now);
	/* not counted again */
	latsched_check_delivery(l, true, 1600);
	assert_int_equal(l->undelivered, 90);
	/* the counters unreadable: the last count stands */
	latsched_check_delivery(l, false, 0);
	assert_int_equal(l->undelivered, 90);
	l->ncs = 0;
	frame_latency_free(&fl);
	latsched_free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bio_pairing),   cmocka_unit_test(test_bio_many),
	    cmocka_unit_test(test_devname),       cmocka_unit_test(test_classify),
	    cmocka_unit_test(test_runq),          cmocka_unit_test(test_offcpu),
	    cmocka_unit_test(test_oncpu),         cmocka_unit_test(test_offcpu_forget),
	    cmocka_unit_test(test_offcpu_frozen), cmocka_unit_test(test_kinds),
	    cmocka_unit_test(test_runq_states),   cmocka_unit_test(test_delivery),
	    cmocka_unit_test(test_offcpu_merged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
