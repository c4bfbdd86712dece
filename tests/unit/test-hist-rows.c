/* Unit tests for hist-rows: the merge of a snapshot's rows by a grouping
 * (their processes counted, fields that differ marked, threads apart),
 * the linear sort by a number and the merge that keeps only the first
 * rows by one. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hist-fixture.h"

/* The rows of one command's processes merge into one row by default, with
 * their summed share; grouped by pid they stay apart; the merged row
 * takes the most sampled process's key and tells what differs. */
static void
test_group(void **state)
{
	static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	static const enum hist_sort by_pid[] = {HIST_SORT_PID, HIST_SORT_END};
	struct hist *h = hist_new(1.0); /* nothing fades: the last part's tick keeps them */
	struct hist_snapshot snap = {0};
	int pid;

	(void)state;
	/* 500 processes of "pg" in malloc: pid 1000 + i, i + 1 samples for
	 * the last ten, one for the others; and "ls" in main */
	for (pid = 1000; pid < 1500; pid++)
		add_n(h, mk(pid, "pg", &dso_libc, &sym_malloc, 0, false),
		      pid >= 1490 ? (unsigned)(pid - 1490 + 2) : 1);
	add_n(h, mk(7, "ls", &dso_ls, &sym_main, 0, false), 100);
	add_n(h, mk(1499, "pg", &dso_kern, &sym_sched, 0, true), 10);
	hist_tick(h, true);
	hist_snapshot(h, by_overhead, NULL, NULL, &snap);
	assert_int_equal(snap.n, 502);
	hist_group(&snap, HIST_GROUP_DEFAULT, by_overhead);
	assert_int_equal(snap.n, 3);
	/* 490 + (2 + ... + 11) = 490 + 65 = 555 samples of 665 */
	assert_ptr_equal(snap.rows[0].entry->key.sym, &sym_malloc);
	assert_int_equal(snap.rows[0].samples, 555);
	assert_float_equal(snap.rows[0].overhead, 100.0 * 555 / 665, 1e-6);
	assert_int_equal(snap.rows[0].members, 500);
	assert_int_equal(snap.rows[0].procs, 500);
	assert_int_equal(snap.rows[0].entry->key.pid, 1499); /* the most sampled */
	assert_true(snap.rows[0].mixed & HIST_GROUP_PID);
	assert_false(snap.rows[0].mixed & (HIST_GROUP_COMM | HIST_GROUP_SYM | HIST_GROUP_DSO));
	assert_ptr_equal(snap.rows[0].entry, &snap.rows[0].copy);
	assert_int_equal(snap.rows[1].entry->key.pid, 7);
	assert_int_equal(snap.rows[1].procs, 1);
	assert_int_equal(snap.rows[1].mixed, 0);
	assert_ptr_equal(snap.rows[2].entry->key.sym, &sym_sched);

	/* by pid and symbol: one row each, in pid order */
	hist_snapshot(h, by_pid, NULL, NULL, &snap);
	hist_group(&snap, HIST_GROUP_PID | HIST_GROUP_SYM, by_pid);
	assert_int_equal(snap.n, 502);
	assert_int_equal(snap.rows[0].entry->key.pid, 7);
	assert_int_equal(snap.rows[1].entry->key.pid, 1000);
	assert_int_equal(snap.rows[1].members, 1);

	/* by command only: every function of pg in one row, its DSOs and
	 * symbols differing */
	hist_snapshot(h, by_overhead, NULL, NULL, &snap);
	hist_group(&snap, HIST_GROUP_COMM, by_overhead);
	assert_int_equal(snap.n, 2);
	assert_int_equal(snap.rows[0].samples, 565);
	assert_int_equal(snap.rows[0].members, 501);
	assert_int_equal(snap.rows[0].procs, 500);
	assert_true(snap.rows[0].mixed & HIST_GROUP_SYM);
	assert_true(snap.rows[0].mixed & HIST_GROUP_DSO);
	/* ... counted, for the screen and the text to say what they are */
	assert_int_equal(snap.rows[0].ndso, 2);
	assert_int_equal(snap.rows[0].nsym, 2);
	assert_int_equal(snap.rows[0].ncomm, 0);           /* not mixed: not counted */
	assert_true(snap.rows[0].mixed & HIST_MIXED_KIND); /* kernel and user */
	assert_int_equal(snap.rows[0].procs, 500);
	assert_false(snap.rows[1].mixed & HIST_MIXED_KIND);
	/* by dso: the commands of libc's row counted, its function is one */
	add_n(h, mk(8, "sh", &dso_libc, &sym_malloc, 0, false), 5);
	hist_tick(h, false);
	hist_snapshot(h, by_overhead, NULL, NULL, &snap);
	hist_group(&snap, HIST_GROUP_DSO, by_overhead);
	for (size_t i = 0; i < snap.n; i++) {
		if (snap.rows[i].entry->key.dso != &dso_libc)
			continue;
		assert_int_equal(snap.rows[i].ncomm, 2);
		assert_false(snap.rows[i].mixed & HIST_GROUP_SYM);
		assert_int_equal(snap.rows[i].nsym, 0);
		assert_int_equal(snap.rows[i].procs, 501);
	}
	hist_snapshot_free(&snap);
	hist_free(h);
}

/* The screen's path: rows left unsorted (hist_unsorted), then merged and
 * sorted by the Top pane, come out as from sorted rows, and every entry
 * is in the unsorted snapshot once. */
static void
test_group_unsorted(void **state)
{
	static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	struct hist *h = hist_new(0.5);
	struct hist_snapshot sorted = {0}, unsorted = {0};
	uint64_t sum = 0, want = 900;
	int pid;

	(void)state;
	for (pid = 2000; pid < 2300; pid++) {
		add_n(h, mk(pid, "pg", &dso_libc, &sym_malloc, 0, false), (unsigned)(pid % 7 + 1));
		add_n(h, mk(pid, "pg", &dso_libc, &sym_free, 0, false), (unsigned)(pid % 5 + 1));
		want += (uint64_t)(pid % 7 + 1 + pid % 5 + 1);
	}
	add_n(h, mk(7, "ls", &dso_ls, &sym_main, 0, false), 900);
	hist_tick(h, true);
	hist_snapshot(h, hist_unsorted, NULL, NULL, &unsorted);
	assert_int_equal(unsorted.n, 601);
	for (size_t i = 0; i < unsorted.n; i++) {
		assert_ptr_equal(unsorted.rows[i].entry, &unsorted.rows[i].copy);
		sum += unsorted.rows[i].samples;
	}
	assert_int_equal(sum, want);
	hist_snapshot(h, by_overhead, NULL, NULL, &sorted);
	hist_group(&sorted, HIST_GROUP_DEFAULT, NULL);
	hist_group(&unsorted, HIST_GROUP_DEFAULT, NULL);
	assert_int_equal(unsorted.n, 3);
	assert_int_equal(sorted.n, unsorted.n);
	/* the same groups whatever the rows' order (free's and main's 900
	 * samples tie: their sums may differ in the last bit, so their
	 * order is not compared) */
	for (size_t i = 0; i < sorted.n; i++) {
		size_t j = 0;

		while (j < unsorted.n &&
		       unsorted.rows[j].entry->key.sym != sorted.rows[i].entry->key.sym)
			j++;
		assert_true(j < unsorted.n);
		assert_int_equal(sorted.rows[i].samples, unsorted.rows[j].samples);
		assert_int_equal(sorted.rows[i].members, unsorted.rows[j].members);
		assert_int_equal(sorted.rows[i].procs, unsorted.rows[j].procs);
		assert_ptr_equal(sorted.rows[i].entry->key.comm, unsorted.rows[j].entry->key.comm);
		assert_int_equal(sorted.rows[i].entry->key.pid, unsorted.rows[j].entry->key.pid);
	}
	assert_ptr_equal(unsorted.rows[0].entry->key.sym, &sym_malloc);
	/* left in the grouping's order when the caller sorts: both rows of pg */
	hist_snapshot(h, hist_unsorted, NULL, NULL, &unsorted);
	hist_group(&unsorted, HIST_GROUP_DEFAULT, hist_unsorted);
	assert_int_equal(unsorted.n, 3);
	hist_snapshot_free(&sorted);
	hist_snapshot_free(&unsorted);
	hist_free(h);
}

/* Grouping by hash counts a group's processes once each, however its
 * rows are ordered (a process with rows of two functions grouped by
 * command alone), and matches a pairwise count on many rows. */
static void
test_group_procs(void **state)
{
	struct hist *h = hist_new(0.5);
	struct hist_snapshot snap = {0};

	(void)state;
	/* rows i of command b (i % 3 != 0): 2,666, in all 97 pids (i % 97) */
	for (uint64_t i = 0; i < 4000; i++) {
		struct hist_key k = nth_key(i);

		k.comm = str_intern(i % 3 == 0 ? "a" : "b");
		hist_add(h, &k);
	}
	hist_tick(h, true);
	hist_snapshot(h, hist_unsorted, NULL, NULL, &snap);
	hist_group(&snap, HIST_GROUP_COMM, hist_unsorted);
	assert_int_equal(snap.n, 2);
	for (size_t i = 0; i < snap.n; i++) {
		bool b = snap.rows[i].entry->key.comm == str_intern("b");

		assert_int_equal(snap.rows[i].members, b ? 2666 : 1334);
		assert_int_equal(snap.rows[i].procs, 97);
		assert_true(snap.rows[i].mixed & HIST_GROUP_PID);
		assert_false(snap.rows[i].mixed & HIST_GROUP_COMM);
	}
	hist_snapshot_free(&snap);
	hist_free(h);
}

/* The linear sort by a number: biggest first (or last), rows that tie in
 * the order they had, the entry pointers set. */
static void
test_sort_by(void **state)
{
	struct hist_snapshot snap = {0};
	const double ov[] = {1.5, 30, 1.5, 0, 99.25, 30, 1.5};
	const size_t n = sizeof ov / sizeof *ov;

	(void)state;
	snap.rows = calloc(n, sizeof *snap.rows);
	snap.n = snap.cap = n;
	for (size_t i = 0; i < n; i++) {
		snap.rows[i].overhead = ov[i];
		snap.rows[i].samples = (uint64_t)ov[i];
		snap.rows[i].copy.key.pid = (int)i; /* the original place */
	}
	assert_true(hist_sort_by(&snap, HIST_SORT_OVERHEAD, true));
	{
		const int want[] = {4, 1, 5, 0, 2, 6, 3};

		for (size_t i = 0; i < n; i++) {
			assert_int_equal(snap.rows[i].copy.key.pid, want[i]);
			assert_ptr_equal(snap.rows[i].entry, &snap.rows[i].copy);
		}
	}
	assert_true(hist_sort_by(&snap, HIST_SORT_SAMPLES, false));
	{
		/* samples 99 30 30 1 1 1 0 from the order above, ascending */
		const int want[] = {3, 0, 2, 6, 1, 5, 4};

		for (size_t i = 0; i < n; i++)
			assert_int_equal(snap.rows[i].copy.key.pid, want[i]);
	}
	assert_false(hist_sort_by(&snap, HIST_SORT_SYM, false));
	hist_snapshot_free(&snap);
}

/* Merged and cut at once: the groups of the rows kept, only the k first
 * by a number, in order, the ties with the k-th in their groups' order,
 * each as hist_group makes it; all of them, unsorted, for another key. */
static void
test_group_top(void **state)
{
	struct hist *h = hist_new(0.5);
	struct hist_snapshot src = {0}, top = {0}, ref = {0};
	size_t groups;

	(void)state;
	/* pg's malloc in three processes (3 + 4 + 5), pg's free 9, ls main 9,
	 * ls free 1, sh main 2 */
	add_n(h, mk(10, "pg", &dso_libc, &sym_malloc, 0, false), 3);
	add_n(h, mk(11, "pg", &dso_libc, &sym_malloc, 0, false), 4);
	add_n(h, mk(10, "pg", &dso_libc, &sym_free, 0, false), 9);
	add_n(h, mk(12, "pg", &dso_libc, &sym_malloc, 0, false), 5);
	add_n(h, mk(20, "ls", &dso_ls, &sym_main, 0, false), 9);
	add_n(h, mk(20, "ls", &dso_libc, &sym_free, 0, false), 1);
	add_n(h, mk(30, "sh", &dso_ls, &sym_main, 0, false), 2);
	hist_tick(h, true);
	hist_snapshot(h, hist_unsorted, NULL, NULL, &src);
	groups =
	    hist_group_top(&top, &src, NULL, NULL, HIST_GROUP_DEFAULT, HIST_SORT_SAMPLES, true, 2);
	assert_int_equal(groups, 5);
	assert_int_equal(top.n, 2);
	assert_ptr_equal(top.rows[0].entry->key.sym, &sym_malloc);
	assert_int_equal(top.rows[0].samples, 12);
	assert_int_equal(top.rows[0].members, 3);
	assert_int_equal(top.rows[0].procs, 3);
	assert_int_equal(top.rows[0].entry->key.pid, 12); /* the heaviest member's key */
	/* then one of the two 9s: the group met first in the frame's order */
	assert_int_equal(top.rows[1].samples, 9);
	ref = src;
	ref.rows = malloc(src.cap * sizeof *src.rows);
	memcpy(ref.rows, src.rows, src.n * sizeof *src.rows);
	hist_group(&ref, HIST_GROUP_DEFAULT, hist_unsorted);
	for (size_t i = 0; i < ref.n; i++)
		if (ref.rows[i].samples == 9) {
			assert_ptr_equal(top.rows[1].entry->key.sym, ref.rows[i].entry->key.sym);
			break;
		}
	/* another key: every group, as hist_group merges them */
	assert_int_equal(
	    hist_group_top(&top, &src, NULL, NULL, HIST_GROUP_DEFAULT, HIST_SORT_SYM, true, 2), 5);
	assert_int_equal(top.n, ref.n);
	for (size_t i = 0; i < ref.n; i++) {
		assert_ptr_equal(top.rows[i].entry->key.sym, ref.rows[i].entry->key.sym);
		assert_int_equal(top.rows[i].samples, ref.rows[i].samples);
		assert_int_equal(top.rows[i].procs, ref.rows[i].procs);
		assert_ptr_equal(top.rows[i].entry, &top.rows[i].copy);
	}
	/* by command: the fields that differ counted as hist_group counts them
	 * (pg: one object, two functions; ls: two objects, two functions) */
	hist_group_top(&top, &src, NULL, NULL, HIST_GROUP_COMM, HIST_SORT_SAMPLES, true, 0);
	assert_int_equal(top.n, 3);
	assert_int_equal(top.rows[0].samples, 21); /* pg */
	assert_int_equal(top.rows[0].procs, 3);
	assert_int_equal(top.rows[0].nsym, 2);
	assert_int_equal(top.rows[0].ndso, 0);
	assert_int_equal(top.rows[1].samples, 10); /* ls */
	assert_int_equal(top.rows[1].ndso, 2);
	assert_int_equal(top.rows[1].nsym, 2);
	assert_int_equal(top.rows[1].procs, 1);
	assert_int_equal(top.rows[2].members, 1);
	assert_int_equal(top.rows[2].nsym, 0);
	memcpy(ref.rows, src.rows, src.n * sizeof *src.rows);
	ref.n = src.n;
	hist_group(&ref, HIST_GROUP_COMM, hist_unsorted);
	for (size_t i = 0; i < ref.n; i++)
		if (ref.rows[i].samples == 21)
			assert_int_equal(ref.rows[i].nsym, 2);
	/* k past the groups: all, sorted ascending */
	assert_int_equal(hist_group_top(&top, &src, NULL, NULL, HIST_GROUP_DEFAULT,
	                                HIST_SORT_SAMPLES, false, 100),
	                 5);
	assert_int_equal(top.n, 5);
	assert_int_equal(top.rows[0].samples, 1);
	assert_int_equal(top.rows[4].samples, 12);
	hist_snapshot_free(&src);
	hist_snapshot_free(&top);
	hist_snapshot_free(&ref);
	hist_free(h);
}

/* Threads counted apart (key.thread) stay apart when grouped by tid and
 * merge otherwise. */
static void
test_group_threads(void **state)
{
	struct hist *h = hist_new(0.5);
	struct hist_snapshot snap = {0};
	struct hist_key a = mk(5, "app", &dso_ls, &sym_main, 0, false), b = a;

	(void)state;
	a.thread = a.tid = 5;
	b.thread = b.tid = 6;
	add_n(h, a, 3);
	add_n(h, b, 4);
	hist_tick(h, true);
	hist_snapshot(h, NULL, NULL, NULL, &snap);
	assert_int_equal(snap.n, 2);
	hist_group(&snap, HIST_GROUP_TID | HIST_GROUP_SYM, NULL);
	assert_int_equal(snap.n, 2);
	hist_snapshot(h, NULL, NULL, NULL, &snap);
	hist_group(&snap, HIST_GROUP_PID | HIST_GROUP_SYM, NULL);
	assert_int_equal(snap.n, 1);
	assert_int_equal(snap.rows[0].samples, 7);
	assert_int_equal(snap.rows[0].entry->key.tid, 6);
	assert_int_equal(snap.rows[0].procs, 1);
	hist_snapshot_free(&snap);
	hist_free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_group),       cmocka_unit_test(test_group_unsorted),
	    cmocka_unit_test(test_group_procs), cmocka_unit_test(test_sort_by),
	    cmocka_unit_test(test_group_top),   cmocka_unit_test(test_group_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
