/* Unit tests for latency: log2 buckets, counts, min/max, percentiles
 * interpolated inside their bucket, merge and reset; the per-thread
 * pairing of entries and exits (nested, unpaired, exit without entry,
 * tid reuse, table growth). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <asm/unistd.h>

#include <cmocka.h>

#include "tracetop/frame.h"
#include "tracetop/latency-sys.h"
#include "tracetop/latency-merge.h"
#include "tracetop/latency.h"

/* Buckets like bpftrace's hist(): 0, then [2^(k-1), 2^k). */
static void
test_buckets(void **state)
{
	(void)state;
	assert_int_equal(lat_bucket(0), 0);
	assert_int_equal(lat_bucket(1), 1);
	assert_int_equal(lat_bucket(2), 2);
	assert_int_equal(lat_bucket(3), 2);
	assert_int_equal(lat_bucket(4), 3);
	assert_int_equal(lat_bucket(1023), 10);
	assert_int_equal(lat_bucket(1024), 11);
	assert_int_equal(lat_bucket(1000000), 20); /* 1 ms in [524288, 1048576) */
	assert_int_equal(lat_bucket(UINT64_MAX), 64);
	assert_int_equal(lat_bucket_low(0), 0);
	assert_int_equal(lat_bucket_low(1), 1);
	assert_int_equal(lat_bucket_low(20), 524288);
	assert_int_equal(lat_bucket_low(64), 1ull << 63);
	assert_true(lat_bucket_low(65) == UINT64_MAX);
	for (unsigned b = 1; b < 64; b++) {
		assert_int_equal(lat_bucket(lat_bucket_low(b)), b);
		assert_int_equal(lat_bucket(lat_bucket_low(b + 1) - 1), b);
	}
}

/* Counts, errors, total, min and max; reset empties. */
static void
test_add(void **state)
{
	struct lat_hist h;
	unsigned first, last;

	(void)state;
	lat_hist_reset(&h);
	assert_true(h.min == UINT64_MAX);
	assert_false(lat_hist_range(&h, &first, &last));
	assert_int_equal(lat_hist_percentile(&h, 50), 0);
	lat_hist_add(&h, 0, false);
	lat_hist_add(&h, 5, true);
	lat_hist_add(&h, 7, false);
	lat_hist_add(&h, 1000, true);
	assert_int_equal(h.count, 4);
	assert_int_equal(h.errors, 2);
	assert_int_equal(h.total, 1012);
	assert_int_equal(h.min, 0);
	assert_int_equal(h.max, 1000);
	assert_int_equal(h.buckets[0], 1);
	assert_int_equal(h.buckets[3], 2);
	assert_int_equal(h.buckets[10], 1);
	assert_true(lat_hist_range(&h, &first, &last));
	assert_int_equal(first, 0);
	assert_int_equal(last, 10);
	lat_hist_reset(&h);
	assert_int_equal(h.count, 0);
	assert_int_equal(h.buckets[3], 0);
}

/* Equal values answer exactly; spread values interpolate in the bucket
 * between the min and max seen. */
static void
test_percentile(void **state)
{
	struct lat_hist h;

	(void)state;
	lat_hist_reset(&h);
	for (int i = 0; i < 100; i++)
		lat_hist_add(&h, 1000000, false);
	assert_int_equal(lat_hist_percentile(&h, 50), 1000000);
	assert_int_equal(lat_hist_percentile(&h, 99), 1000000);

	/* 1100, 1200, ..., 2000 (bucket 11: [1024, 2048)): rank 5 of 10 is
	 * the 5th of the bucket's values, spread evenly over [1100, 2000]
	 * (mean 1550, 450 from min and max) */
	lat_hist_reset(&h);
	for (int i = 1; i <= 10; i++)
		lat_hist_add(&h, 1000 + 100 * (uint64_t)i, false);
	assert_int_equal(lat_hist_percentile(&h, 50), 1100 + (4 * 900 + 4) / 9); /* 1500 */
	assert_int_equal(lat_hist_percentile(&h, 90), 1100 + 800);
	assert_int_equal(lat_hist_percentile(&h, 100), 2000);
	assert_int_equal(lat_hist_percentile(&h, 0.1), 1100);

	/* 90 fast (10 ns), 10 slow (1 ms): p50 in the fast bucket, p99 in
	 * the slow one */
	lat_hist_reset(&h);
	for (int i = 0; i < 90; i++)
		lat_hist_add(&h, 10, false);
	for (int i = 0; i < 10; i++)
		lat_hist_add(&h, 1000000, false);
	/* bucket 4 is [8, 16): all at 10, the mean */
	assert_int_equal(lat_hist_percentile(&h, 50), 10);
	/* bucket 20 [524288, 1048575]: all at 1000000 */
	assert_int_equal(lat_hist_percentile(&h, 99), 1000000);
	assert_int_equal(lat_hist_percentile(&h, 100), 1000000);

	/* skewed in a bucket, like 1 ms sleeps: 1050..1098 us and one of
	 * 2.7 ms; bucket 21 is [1048576, 2097151]: mean 1074000 (+-24000
	 * to its nearest bound, min 1050000) */
	lat_hist_reset(&h);
	for (int i = 0; i < 25; i++) {
		lat_hist_add(&h, 1050000 + 2000 * (uint64_t)i, false);
		lat_hist_add(&h, 1098000 - 2000 * (uint64_t)i, false);
	}
	lat_hist_add(&h, 2700000, false);
	assert_int_equal(h.buckets[21], 50);
	/* rank 26 of 51: the 26th of 50 spread over [1050000, 1098000] */
	assert_int_equal(lat_hist_percentile(&h, 50),
	                 1050000 + (uint64_t)(25.0 / 49 * 48000 + 0.5));
	assert_int_equal(lat_hist_percentile(&h, 99), 2700000);
}

/* Merge adds buckets and counts and keeps the extremes. */
static void
test_merge(void **state)
{
	struct lat_hist a, b, e;

	(void)state;
	lat_hist_reset(&a);
	lat_hist_reset(&b);
	lat_hist_reset(&e);
	lat_hist_add(&a, 100, false);
	lat_hist_add(&b, 3, true);
	lat_hist_add(&b, 5000, false);
	lat_hist_merge(&a, &e); /* empty: no change */
	assert_int_equal(a.count, 1);
	assert_int_equal(a.min, 100);
	lat_hist_merge(&a, &b);
	assert_int_equal(a.count, 3);
	assert_int_equal(a.errors, 1);
	assert_int_equal(a.total, 5103);
	assert_int_equal(a.min, 3);
	assert_int_equal(a.max, 5000);
	assert_int_equal(a.buckets[2], 1);
	assert_int_equal(a.buckets[7], 1);
	assert_int_equal(a.buckets[13], 1);
	lat_hist_merge(&e, &a); /* into an empty one: a copy */
	assert_memory_equal(&e, &a, sizeof a);
}

/* Syscalls (depth 1): pairs by tid; an exit without its entry is not a
 * call; a new entry replaces an open one; another key does not pair. */
static void
test_pair_syscalls(void **state)
{
	struct lat_pair p;
	uint64_t ns = 0;

	(void)state;
	lat_pair_init(&p, 1);
	/* a call under way at start: exit only */
	assert_false(lat_pair_exit(&p, 10, 35, 100, &ns));
	assert_int_equal(p.unpaired, 1);
	lat_pair_enter(&p, 10, 35, 200);
	lat_pair_enter(&p, 11, 0, 210);
	assert_true(lat_pair_exit(&p, 11, 0, 260, &ns));
	assert_int_equal(ns, 50);
	assert_true(lat_pair_exit(&p, 10, 35, 1200, &ns));
	assert_int_equal(ns, 1000);
	/* paired once only */
	assert_false(lat_pair_exit(&p, 10, 35, 1300, &ns));
	assert_int_equal(p.unpaired, 2);
	/* a lost exit: the next entry replaces the open one */
	lat_pair_enter(&p, 10, 1, 2000);
	lat_pair_enter(&p, 10, 2, 2500);
	assert_false(lat_pair_exit(&p, 10, 1, 2600, &ns));
	lat_pair_enter(&p, 10, 2, 2500);
	assert_true(lat_pair_exit(&p, 10, 2, 2600, &ns));
	assert_int_equal(ns, 100);
	assert_int_equal(p.dropped, 0);
	/* an exit before its entry's time is not paired */
	lat_pair_enter(&p, 12, 3, 5000);
	assert_false(lat_pair_exit(&p, 12, 3, 4000, &ns));
	/* tid reuse: a thread gone with an open call, a new one of that tid */
	lat_pair_enter(&p, 13, 61, 7000);
	lat_pair_forget(&p, 13);
	assert_false(lat_pair_exit(&p, 13, 61, 9000, &ns));
	lat_pair_enter(&p, 13, 61, 9500);
	assert_true(lat_pair_exit(&p, 13, 61, 9600, &ns));
	assert_int_equal(ns, 100);
	/* tid 0 (idle) is never paired */
	lat_pair_enter(&p, 0, 1, 1);
	assert_false(lat_pair_exit(&p, 0, 1, 2, &ns));
	lat_pair_free(&p);
}

/* Functions: recursion nests per thread; threads are apart; a lost
 * inner exit leaves the outer call pairable; overflow drops the oldest. */
static void
test_pair_nested(void **state)
{
	struct lat_pair p;
	uint64_t ns = 0;

	(void)state;
	lat_pair_init(&p, 0);
	lat_pair_enter(&p, 20, 7, 1000); /* f */
	lat_pair_enter(&p, 21, 7, 1100); /* f on another thread */
	lat_pair_enter(&p, 20, 7, 1500); /* f recursing */
	assert_true(lat_pair_exit(&p, 20, 7, 1600, &ns));
	assert_int_equal(ns, 100); /* inner */
	assert_true(lat_pair_exit(&p, 20, 7, 3000, &ns));
	assert_int_equal(ns, 2000); /* outer */
	assert_true(lat_pair_exit(&p, 21, 7, 1400, &ns));
	assert_int_equal(ns, 300);
	/* g inside f, g's exit lost: f's exit still pairs with f */
	lat_pair_enter(&p, 20, 7, 5000);
	lat_pair_enter(&p, 20, 8, 5100);
	assert_true(lat_pair_exit(&p, 20, 7, 6000, &ns));
	assert_int_equal(ns, 1000);
	assert_false(lat_pair_exit(&p, 20, 8, 6100, &ns));
	/* deeper than LAT_PAIR_DEPTH: the oldest gives way */
	for (int i = 0; i < LAT_PAIR_DEPTH + 2; i++)
		lat_pair_enter(&p, 22, 9, 10000 + (uint64_t)i);
	assert_int_equal(p.dropped, 2);
	for (int i = LAT_PAIR_DEPTH + 1; i >= 2; i--) {
		assert_true(lat_pair_exit(&p, 22, 9, 20000, &ns));
		assert_int_equal(ns, 20000 - (10000 + (uint64_t)i));
	}
	assert_false(lat_pair_exit(&p, 22, 9, 20000, &ns));
	lat_pair_free(&p);
}

/* Many threads: the table grows keeping open calls, and threads with
 * none are dropped at a rebuild. */
static void
test_pair_growth(void **state)
{
	struct lat_pair p;
	uint64_t ns = 0;

	(void)state;
	lat_pair_init(&p, 1);
	for (int t = 1; t <= 1000; t++)
		lat_pair_enter(&p, t, t, (uint64_t)t);
	for (int t = 1; t <= 1000; t++) {
		assert_true(lat_pair_exit(&p, t, t, 5000, &ns));
		assert_int_equal(ns, 5000 - (uint64_t)t);
	}
	assert_int_equal(p.unpaired, 0);
	/* closed threads come and go: the table does not grow with them */
	size_t cap = p.mask + 1;
	for (int t = 2000; t < 200000; t++) {
		lat_pair_enter(&p, t, 1, 1);
		assert_true(lat_pair_exit(&p, t, 1, 2, &ns));
	}
	assert_true(p.mask + 1 <= cap);
	lat_pair_free(&p);
}

/* The row of (name, pid) in a snapshot, or NULL. */
static const struct lat_row *
find_row(const struct frame_latency *fl, const char *name, int pid)
{
	for (size_t i = 0; i < fl->nrows; i++)
		if (strcmp(fl->rows[i].name, name) == 0 && fl->rows[i].pid == pid)
			return &fl->rows[i];
	return NULL;
}

/* The syscall source fed synthetic records: rows per (process,
 * syscall), errors by ret < 0, exits without entries left out, names
 * from the architecture's table, the interval's calls in the totals
 * after a tick. */
static void
test_latsys_rows(void **state)
{
	struct latsys *l = latsys_new_offline();
	struct frame_latency fl = {0};
	const struct lat_row *r;

	(void)state;
	assert_string_equal(latsys_name(__NR_read), "read");
	assert_string_equal(latsys_name(__NR_openat), "openat");
	assert_null(latsys_name(-1));
	latsys_set_comm(l, 100, "web");
	latsys_set_comm(l, 200, "db\x1b");
	/* pid 100: a read open at start (exit only), then two reads */
	latsys_exit(l, 100, 101, __NR_read, 10, 50);
	latsys_enter(l, 100, 101, __NR_read, 100);
	latsys_enter(l, 100, 102, __NR_read, 150); /* another thread */
	latsys_exit(l, 100, 101, __NR_read, 10, 1100);
	latsys_exit(l, 100, 102, __NR_read, -11, 2150);
	/* pid 200: a failing openat, and an unknown syscall number */
	latsys_enter(l, 200, 200, __NR_openat, 500);
	latsys_exit(l, 200, 200, __NR_openat, -2, 800);
	latsys_enter(l, 200, 200, 9999, 900);
	latsys_exit(l, 200, 200, 9999, 0, 950);
	/* before a tick the interval's calls are not in the frame yet */
	latsys_snapshot(l, &fl);
	assert_int_equal(fl.nrows, 0);
	assert_int_equal(fl.unpaired, 1);
	latsys_tick(l);
	latsys_snapshot(l, &fl);
	assert_int_equal(fl.nrows, 3);
	assert_non_null(r = find_row(&fl, "read", 100));
	assert_int_equal(r->kind, LAT_SYSCALL);
	assert_string_equal(r->comm, "web");
	assert_int_equal(r->hist.count, 2);
	assert_int_equal(r->hist.errors, 1);
	assert_int_equal(r->hist.total, 1000 + 2000);
	assert_int_equal(r->hist.min, 1000);
	assert_int_equal(r->hist.max, 2000);
	assert_int_equal(r->interval, 2);
	assert_non_null(r = find_row(&fl, "openat", 200));
	assert_int_equal(r->hist.errors, 1);
	assert_int_equal(r->hist.max, 300);
	assert_non_null(r = find_row(&fl, "syscall 9999", 200));
	assert_int_equal(r->hist.count, 1);
	/* a second interval adds to the totals */
	latsys_enter(l, 100, 101, __NR_read, 3000);
	latsys_exit(l, 100, 101, __NR_read, 1, 3010);
	latsys_tick(l);
	latsys_snapshot(l, &fl);
	assert_non_null(r = find_row(&fl, "read", 100));
	assert_int_equal(r->hist.count, 3);
	assert_int_equal(r->interval, 1);
	assert_int_equal(r->hist.min, 10);
	assert_non_null(r = find_row(&fl, "openat", 200));
	assert_int_equal(r->interval, 0);
	frame_latency_free(&fl);
	latsys_free(l);
}

/* Functions: recursion and two threads pair per thread, into rows of
 * kind function named as given; a return without entry is not a call;
 * syscall exits with id -1 (the uretprobe trampoline's) are ignored. */
static void
test_latsys_funcs(void **state)
{
	static const char *const names[] = {"/usr/bin/app:work", "app:idle"};
	struct latsys *l = latsys_new_offline();
	struct frame_latency fl = {0};
	const struct lat_row *r;

	(void)state;
	latsys_set_funcs(l, names, 2);
	latsys_func(l, 7, 8, 0, false, 10);   /* open at start */
	latsys_func(l, 7, 8, 0, true, 100);   /* work */
	latsys_func(l, 7, 9, 0, true, 150);   /* work on thread 9 */
	latsys_func(l, 7, 8, 0, true, 200);   /* work recursing */
	latsys_func(l, 7, 8, 0, false, 2200); /* inner: 2000 */
	latsys_func(l, 7, 9, 0, false, 2150); /* thread 9: 2000 */
	latsys_func(l, 7, 8, 0, false, 4100); /* outer: 4000 */
	latsys_exit(l, 7, 8, -1, 0, 4200);    /* trampoline */
	latsys_func(l, 7, 8, 1, true, 5000);  /* idle */
	latsys_func(l, 7, 8, 1, false, 5010);
	latsys_tick(l);
	latsys_snapshot(l, &fl);
	assert_int_equal(fl.unpaired, 1);
	assert_int_equal(fl.nrows, 2);
	assert_non_null(r = find_row(&fl, "app:work", 7));
	assert_int_equal(r->kind, LAT_FUNCTION);
	assert_int_equal(r->hist.count, 3);
	assert_int_equal(r->hist.min, 2000);
	assert_int_equal(r->hist.max, 4000);
	assert_int_equal(r->hist.total, 8000);
	assert_non_null(r = find_row(&fl, "app:idle", 7));
	assert_int_equal(r->hist.total, 10);
	frame_latency_free(&fl);
	latsys_free(l);
}

/* A bucket read from the kernel at once is the same as its values added
 * one by one. */
static void
test_add_bucket(void **state)
{
	struct lat_hist a, b;

	(void)state;
	lat_hist_reset(&a);
	lat_hist_reset(&b);
	lat_hist_add(&a, 1500, false);
	lat_hist_add(&a, 1900, true);
	lat_hist_add(&a, 1100, false);
	lat_hist_add_bucket(&b, lat_bucket(1500), 3, 1500 + 1900 + 1100, 1100, 1900, 1);
	lat_hist_add_bucket(&b, 70, 5, 1, 1, 1, 0); /* past the last bucket: ignored */
	assert_memory_equal(&a, &b, sizeof a);
	assert_int_equal(lat_hist_percentile(&a, 50), lat_hist_percentile(&b, 50));
}

/* Rows merged over processes (p in the pane): one row per syscall and
 * function, pid -1, the calls of all; functions are found by their SPEC
 * or shown name; those of the source's own events stay timed, and an
 * offline source cannot time more. */
static void
test_latsys_merged(void **state)
{
	static const char *const names[] = {"/usr/bin/app:work"};
	struct latsys *l = latsys_new_offline();
	struct frame_latency fl = {0}, m = {0};
	const struct lat_row *r;
	struct tt_err err;

	(void)state;
	latsys_set_funcs(l, names, 1);
	latsys_enter(l, 100, 100, __NR_read, 0);
	latsys_exit(l, 100, 100, __NR_read, 1, 1000);
	latsys_enter(l, 200, 200, __NR_read, 0);
	latsys_exit(l, 200, 200, __NR_read, 1, 3000);
	latsys_func(l, 200, 201, 0, true, 10);
	latsys_func(l, 200, 201, 0, false, 20);
	latsys_tick(l);
	latsys_snapshot(l, &fl);
	assert_int_equal(fl.nrows, 3);
	/* merged over processes: one row per syscall and function */
	lat_merge(&fl, LAT_MERGE_KINDS, &m);
	assert_int_equal(m.nrows, 2);
	assert_non_null(r = find_row(&m, "read", -1));
	assert_string_equal(r->comm, "(all)");
	assert_int_equal(r->hist.count, 2);
	assert_int_equal(r->interval, 2);
	assert_int_equal(r->hist.min, 1000);
	assert_int_equal(r->hist.max, 3000);
	assert_non_null(find_row(&m, "app:work", -1));
	/* the kinds not asked for stay per process */
	lat_merge(&fl, 1u << LAT_FUNCTION, &m);
	assert_int_equal(m.nrows, 3);
	assert_non_null(find_row(&m, "read", 100));
	assert_non_null(find_row(&m, "app:work", -1));
	frame_latency_free(&m);
	assert_int_equal(latsys_find_func(l, "/usr/bin/app:work"), 0);
	assert_int_equal(latsys_find_func(l, "app:work"), 0);
	assert_int_equal(latsys_find_func(l, "/usr/bin/app:other"), -1);
	assert_int_equal(latsys_remove_func(l, 0, &err), -1);
	assert_non_null(strstr(err.msg, "--latency"));
	assert_int_equal(latsys_add_func(l, "/bin/x:f", "g:e", "g:r", &err), -1);
	assert_false(latsys_in_kernel(l));
	frame_latency_free(&fl);
	latsys_free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_buckets),       cmocka_unit_test(test_add),
	    cmocka_unit_test(test_percentile),    cmocka_unit_test(test_merge),
	    cmocka_unit_test(test_pair_syscalls), cmocka_unit_test(test_pair_nested),
	    cmocka_unit_test(test_pair_growth),   cmocka_unit_test(test_latsys_rows),
	    cmocka_unit_test(test_latsys_funcs),  cmocka_unit_test(test_add_bucket),
	    cmocka_unit_test(test_latsys_merged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
