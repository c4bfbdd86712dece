/* Unit tests for hist: counting per key, decay and zeroing, removal and
 * reuse, growth, sorting, filtering and sort-key parsing (the rows'
 * grouping: test-hist-rows.c). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracetop/hist.h"
#include "tracetop/util.h"

#include "hist-fixture.h"

/* The found entry for key, failing the test when there is none. */
static const struct hist_entry *
must_find(const struct hist *h, struct hist_key k)
{
	const struct hist_entry *e = hist_find(h, &k);

	assert_non_null(e);
	return e;
}

/* hist_rekey's resolver for the test: addresses 0x1000-0x1fff are "main"
 * of /bin/ls now; the others stay unknown. */
static bool
rekey_main(void *arg, struct hist_key *key)
{
	(void)arg;
	if (key->addr < 0x1000 || key->addr >= 0x2000)
		return false;
	key->sym = &sym_main;
	key->dso = &dso_ls;
	key->addr = 0;
	return true;
}

/* Unresolved entries named later move their counts (interval, total,
 * score) to the named entry, merging with one already there; the others
 * and the kernel's stay. */
static void
test_rekey(void **state)
{
	struct hist *h = hist_new(0.5);
	struct hist_key named = mk(7, "jit", &dso_ls, &sym_main, 0, false);
	const struct hist_entry *e;

	(void)state;
	add_n(h, mk(7, "jit", NULL, NULL, 0x1004, false), 3);
	add_n(h, mk(7, "jit", NULL, NULL, 0x1008, false), 2);
	add_n(h, mk(7, "jit", NULL, NULL, 0x3000, false), 4);
	add_n(h, mk(7, "jit", NULL, NULL, 0x1010, true), 1); /* kernel: never */
	hist_tick(h, false);
	add_n(h, named, 1);
	add_n(h, mk(7, "jit", NULL, NULL, 0x1004, false), 1);
	assert_int_equal(hist_rekey(h, rekey_main, NULL), 2);
	e = must_find(h, named);
	assert_int_equal(e->total, 7);
	assert_int_equal(e->interval, 2);
	assert_true(e->score == 5.0);
	assert_null(
	    hist_find(h, &(struct hist_key){.pid = 7, .comm = str_intern("jit"), .addr = 0x1004}));
	assert_int_equal(must_find(h, mk(7, "jit", NULL, NULL, 0x3000, false))->total, 4);
	assert_int_equal(must_find(h, mk(7, "jit", NULL, NULL, 0x1010, true))->total, 1);
	assert_int_equal(hist_count(h), 3);
	/* rekey looks at the unnamed entries it noted, not the whole table:
	 * one made after a rekey, before any tick, and one kept by ticks */
	add_n(h, mk(7, "jit", NULL, NULL, 0x1020, false), 2);
	assert_int_equal(hist_rekey(h, rekey_main, NULL), 1);
	assert_int_equal(must_find(h, named)->total, 9);
	add_n(h, mk(8, "jit", NULL, NULL, 0x1030, false), 2);
	hist_tick(h, false);
	hist_tick(h, false);
	assert_int_equal(hist_rekey(h, rekey_main, NULL), 1);
	assert_int_equal(must_find(h, mk(8, "jit", &dso_ls, &sym_main, 0, false))->total, 2);
	assert_int_equal(must_find(h, mk(7, "jit", NULL, NULL, 0x3000, false))->total, 4);
	hist_free(h);
}

/* Same key merges; a change in any one field makes a new entry. */
static void
test_merge_and_separate(void **state)
{
	struct hist *h = hist_new(0.5);
	struct hist_key base = mk(1, "bash", &dso_libc, &sym_malloc, 0, false);
	struct hist_key other[] = {
	    mk(2, "bash", &dso_libc, &sym_malloc, 0, false),
	    mk(1, "zsh", &dso_libc, &sym_malloc, 0, false),
	    mk(1, "bash", &dso_ls, &sym_malloc, 0, false),
	    mk(1, "bash", &dso_libc, &sym_main, 0, false),
	    mk(1, "bash", &dso_libc, &sym_malloc, 4, false),
	    mk(1, "bash", &dso_libc, &sym_malloc, 0, true),
	    mk(1, "bash", NULL, NULL, 0, false),
	    mk(1, NULL, &dso_libc, &sym_malloc, 0, false),
	};
	size_t i;

	(void)state;
	add_n(h, base, 3);
	assert_int_equal(hist_count(h), 1);
	assert_int_equal(must_find(h, base)->interval, 3);
	assert_int_equal(must_find(h, base)->total, 3);
	for (i = 0; i < ARRAY_SIZE(other); i++)
		add_n(h, other[i], (unsigned)i + 1);
	assert_int_equal(hist_count(h), 1 + ARRAY_SIZE(other));
	for (i = 0; i < ARRAY_SIZE(other); i++)
		assert_int_equal(must_find(h, other[i])->interval, i + 1);
	assert_int_equal(must_find(h, base)->interval, 3);
	/* An equal string at another address is another comm: identity counts. */
	base.comm = "bash";
	if (base.comm != str_intern("bash"))
		assert_null(hist_find(h, &base));
	hist_free(h);
}

/* 500/300/200 samples give 50/30/20 % and the snapshot's totals. */
static void
test_overhead(void **state)
{
	struct hist *h = hist_new(0.5);
	struct hist_snapshot snap = {0};
	double sum = 0;
	size_t i;

	(void)state;
	add_n(h, mk(1, "a", &dso_ls, &sym_main, 0, false), 200);
	add_n(h, mk(1, "a", &dso_ls, &sym_malloc, 0, false), 500);
	add_n(h, mk(1, "a", &dso_ls, &sym_free, 0, false), 300);
	hist_tick(h, false);
	hist_snapshot(h, NULL, NULL, NULL, &snap);
	assert_int_equal(snap.n, 3);
	assert_true(snap.total_score == 1000.0);
	assert_int_equal(snap.interval_samples, 1000);
	assert_string_equal(hist_sym_name(snap.rows[0].entry), "malloc");
	assert_string_equal(hist_sym_name(snap.rows[1].entry), "free");
	assert_string_equal(hist_sym_name(snap.rows[2].entry), "main");
	assert_float_equal(snap.rows[0].overhead, 50.0, 1e-9);
	assert_float_equal(snap.rows[1].overhead, 30.0, 1e-9);
	assert_float_equal(snap.rows[2].overhead, 20.0, 1e-9);
	assert_int_equal(snap.rows[0].samples, 500);
	assert_int_equal(snap.rows[1].samples, 300);
	assert_int_equal(snap.rows[2].samples, 200);
	assert_int_equal(snap.rows[2].total, 200);
	for (i = 0; i < snap.n; i++)
		sum += snap.rows[i].overhead;
	assert_float_equal(sum, 100.0, 1e-9);
	hist_snapshot_free(&snap);
	assert_null(snap.rows);
	hist_free(h);
}

/* score = score * decay + interval, exactly, until the entry fades. */
static void
test_decay(void **state)
{
	static const double want[] = {8, 8, 4, 2, 1};
	struct hist *h = hist_new(0.5);
	struct hist_key k = mk(7, "decay", &dso_ls, &sym_main, 0, false);
	struct hist_key other = mk(7, "decay", &dso_ls, NULL, HIST_ADDR_OTHER, false);
	struct hist_snapshot snap = {0};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		add_n(h, k, i == 0 ? 8 : i == 1 ? 4 : 0);
		hist_tick(h, false);
		assert_true(must_find(h, k)->score == want[i]);
		assert_int_equal(must_find(h, k)->interval, 0);
		assert_int_equal(must_find(h, k)->total, i == 0 ? 8 : 12);
		assert_null(hist_find(h, &other));
	}
	/* 0.5 with nothing new: its score and total go to the other
	 * functions of its process and object, which hold the whole share */
	hist_tick(h, false);
	assert_null(hist_find(h, &k));
	assert_true(must_find(h, other)->score == 0.5);
	assert_int_equal(must_find(h, other)->total, 12);
	assert_int_equal(hist_count(h), 1);
	hist_snapshot(h, NULL, NULL, NULL, &snap);
	assert_int_equal(snap.n, 1);
	assert_float_equal(snap.rows[0].overhead, 100.0, 1e-9);
	assert_string_equal(hist_sym_name(snap.rows[0].entry), HIST_OTHER_NAME);
	/* the other functions go in turn, not into themselves */
	hist_tick(h, false);
	assert_int_equal(hist_count(h), 0);
	hist_snapshot_free(&snap);
	hist_free(h);
}

/* A flat profile keeps its share: the functions of process 2, sampled
 * once each and faded, count on in its other functions, so that its row
 * by process holds its whole decayed share beside process 1's hot one. */
static void
test_flat_share(void **state)
{
	static const enum hist_sort by_pid[] = {HIST_SORT_PID, HIST_SORT_END};
	struct hist *h = hist_new(0.5);
	struct hist_key hot = mk(1, "hot", &dso_ls, &sym_main, 0, false);
	struct hist_snapshot snap = {0};

	(void)state;
	for (uint64_t i = 0; i < 100; i++)
		add_n(h, mk(2, "flat", &dso_libc, NULL, 0x1000 + i, false), 1);
	for (int t = 0; t < 4; t++) {
		add_n(h, hot, 100);
		hist_tick(h, false);
	}
	/* process 2: 100, 50 (faded), 25, 12.5; process 1: 100 + 50 + 25 + 12.5 */
	assert_int_equal(hist_count(h), 2);
	hist_snapshot(h, by_pid, NULL, NULL, &snap);
	hist_group(&snap, HIST_GROUP_PID, by_pid);
	assert_int_equal(snap.n, 2);
	assert_int_equal(snap.rows[1].entry->key.pid, 2);
	assert_float_equal(snap.rows[1].overhead, 100.0 * 12.5 / (187.5 + 12.5), 1e-9);
	assert_int_equal(snap.rows[1].total, 100);
	hist_snapshot_free(&snap);
	hist_free(h);
}

/* Decay 0: an entry lasts one tick past its last sample. */
static void
test_decay_zero_factor(void **state)
{
	struct hist *h = hist_new(0.0);
	struct hist_key k = mk(1, "x", NULL, NULL, 9, false);
	struct hist_snapshot snap = {0};

	(void)state;
	add_n(h, k, 1);
	hist_tick(h, false);
	assert_true(must_find(h, k)->score == 1.0);
	hist_tick(h, false);
	assert_null(hist_find(h, &k));
	hist_snapshot(h, NULL, NULL, NULL, &snap);
	assert_int_equal(snap.n, 0);
	assert_true(snap.total_score == 0.0);
	hist_snapshot_free(&snap);
	hist_free(h);
}

/* Zero mode: the score is the last interval; an idle entry goes away. */
static void
test_zero(void **state)
{
	struct hist *h = hist_new(0.875);
	struct hist_key a = mk(1, "z", &dso_ls, &sym_main, 0, false);
	struct hist_key b = mk(1, "z", &dso_ls, &sym_free, 0, false);
	struct hist_snapshot snap = {0};

	(void)state;
	add_n(h, a, 10);
	add_n(h, b, 30);
	hist_tick(h, true);
	assert_true(must_find(h, a)->score == 10.0);
	add_n(h, a, 3);
	hist_tick(h, true);
	assert_true(must_find(h, a)->score == 3.0);
	assert_int_equal(must_find(h, a)->total, 13);
	assert_null(hist_find(h, &b));
	hist_snapshot(h, NULL, NULL, NULL, &snap);
	assert_int_equal(snap.n, 1);
	assert_int_equal(snap.interval_samples, 3);
	assert_float_equal(snap.rows[0].overhead, 100.0, 1e-9);
	hist_tick(h, true);
	assert_int_equal(hist_count(h), 0);
	hist_snapshot_free(&snap);
	hist_free(h);
}

/* Faded entries leave, and their slots are reused without growing the pool. */
static void
test_fade_reuse(void **state)
{
	struct hist *h = hist_new(0.5);
	struct hist_key k;
	size_t cap, n, i;

	(void)state;
	for (n = 0; n < 1000 || hist_count(h) < hist_capacity(h); n++) {
		k = nth_key(n);
		hist_add(h, &k);
	}
	cap = hist_capacity(h);
	assert_int_equal(hist_count(h), cap);
	hist_tick(h, false);         /* 1 */
	for (i = 0; i < n; i += 2) { /* keep the even ones alive */
		k = nth_key(i);
		hist_add(h, &k);
	}
	/* odd: 0.5, gone into the other functions of their 97 processes;
	 * even: 1.5 */
	hist_tick(h, false);
	assert_int_equal(hist_count(h), (n + 1) / 2 + 97);
	for (i = 0; i < n; i++) {
		k = nth_key(i);
		assert_true((hist_find(h, &k) != NULL) == (i % 2 == 0));
	}
	/* As many new keys as were dropped, less the other functions': all
	 * from the free list. */
	for (i = n; i < n + n / 2 - 97; i++) {
		k = nth_key(i);
		hist_add(h, &k);
	}
	assert_int_equal(hist_count(h), cap);
	assert_int_equal(hist_capacity(h), cap);
	/* One more needs a new chunk. */
	k = nth_key(10 * n);
	hist_add(h, &k);
	assert_true(hist_capacity(h) > cap);
	hist_free(h);
}

/* 0 to 100k distinct keys; lookups stay right through growth and removals. */
static void
test_growth(void **state)
{
	const size_t n = 100000;
	struct hist *h = hist_new(0.5);
	struct hist_key k;
	size_t i, kept = 0;

	(void)state;
	for (i = 0; i < n; i++)
		add_n(h, nth_key(i), (unsigned)(i % 3) + 1);
	assert_int_equal(hist_count(h), n);
	for (i = 0; i < n; i++) {
		add_n(h, nth_key(i), 1);
		assert_int_equal(must_find(h, nth_key(i))->interval, i % 3 + 2);
	}
	assert_int_equal(hist_count(h), n);
	k = nth_key(n);
	assert_null(hist_find(h, &k));
	/* Drop every key not divisible by 3 or 5 (zero mode, no new samples):
	 * many backward shifts across the clusters. */
	hist_tick(h, true);
	for (i = 0; i < n; i++)
		if (i % 3 == 0 || i % 5 == 0) {
			add_n(h, nth_key(i), 1);
			kept++;
		}
	hist_tick(h, true);
	for (i = 0; i < n; i++) {
		k = nth_key(i);
		if (i % 3 == 0 || i % 5 == 0)
			assert_int_equal(must_find(h, k)->total, i % 3 + 3);
		else
			assert_null(hist_find(h, &k));
	}
	assert_int_equal(hist_count(h), kept);
	hist_free(h);
}

/* Random bursts, ticks and removals against a plain array model. */
static void
test_model(void **state)
{
	enum { NKEYS = 3000, ROUNDS = 60 };
	static double score[NKEYS], oscore[97];
	static uint64_t total[NKEYS], interval[NKEYS], ototal[97];
	static bool live[NKEYS], olive[97];
	struct hist *h = hist_new(0.5);
	struct hist_key k;
	uint64_t rnd = 88172645463325252ULL;
	size_t r, i, j, nlive;
	bool zero;

	(void)state;
	for (r = 0; r < ROUNDS; r++) {
		for (j = 0; j < 4000; j++) {
			rnd ^= rnd << 13, rnd ^= rnd >> 7, rnd ^= rnd << 17;
			/* Each round favours a different slice of the keys. */
			i = (rnd % 2 == 0 ? rnd / 2 % 500 + r * 40 : rnd / 2) % NKEYS;
			k = nth_key(i);
			hist_add(h, &k);
			interval[i]++;
			total[i]++;
			live[i] = true;
		}
		zero = r % 7 == 3;
		/* the other functions of each process (pid i % 97) decay first,
		 * then take what the keys dropped now held */
		for (i = 0; i < 97; i++) {
			oscore[i] = zero ? 0 : oscore[i] * 0.5;
			olive[i] = olive[i] && oscore[i] >= 1.0;
			if (!olive[i])
				oscore[i] = 0, ototal[i] = 0;
		}
		for (i = 0, nlive = 0; i < NKEYS; i++) {
			if (!live[i])
				continue;
			score[i] =
			    zero ? (double)interval[i] : score[i] * 0.5 + (double)interval[i];
			live[i] = score[i] >= 1.0 || interval[i] > 0;
			if (!live[i] && score[i] > 0) {
				olive[i % 97] = true;
				oscore[i % 97] += score[i];
				ototal[i % 97] += total[i];
			}
			if (!live[i])
				score[i] = 0, total[i] = 0;
			interval[i] = 0;
			nlive += live[i];
		}
		for (i = 0; i < 97; i++)
			nlive += olive[i];
		hist_tick(h, zero);
		assert_int_equal(hist_count(h), nlive);
		for (i = 0; i < 97; i++) {
			k = mk((int)i, "worker", &dso_libc, NULL, HIST_ADDR_OTHER, false);
			if (!olive[i]) {
				assert_null(hist_find(h, &k));
				continue;
			}
			assert_float_equal(must_find(h, k)->score, oscore[i], 1e-9);
			assert_int_equal(must_find(h, k)->total, ototal[i]);
		}
		for (i = 0; i < NKEYS; i++) {
			k = nth_key(i);
			if (!live[i]) {
				assert_null(hist_find(h, &k));
				continue;
			}
			assert_true(must_find(h, k)->score == score[i]);
			assert_int_equal(must_find(h, k)->total, total[i]);
		}
	}
	hist_free(h);
}

/* Four entries that order differently on every key. */
static struct hist *
sort_fixture(void)
{
	struct hist *h = hist_new(0.5);

	add_n(h, mk(30, "bash", &dso_libc, &sym_malloc, 0, false), 10);
	add_n(h, mk(10, "zsh", NULL, NULL, 0x20, false), 40);
	add_n(h, mk(20, "awk", &dso_kern, &sym_sched, 0, true), 20);
	add_n(h, mk(40, NULL, &dso_ls, &sym_main, 0, false), 30);
	hist_tick(h, false);
	return h;
}

/* Check the snapshot's order for spec, as letters from pids (10 -> A, 20 -> B...). */
static void
check_order(struct hist *h, const char *spec, const char *want)
{
	enum hist_sort keys[HIST_SORT_MAX + 1];
	struct hist_snapshot snap = {0};
	struct tt_err err;
	char got[16];
	size_t i;

	assert_int_equal(hist_parse_sort(spec, keys, &err), 0);
	hist_snapshot(h, keys, NULL, NULL, &snap);
	assert_true(snap.n < sizeof got);
	for (i = 0; i < snap.n; i++)
		got[i] = (char)('A' + snap.rows[i].entry->key.pid / 10 - 1);
	got[snap.n] = '\0';
	if (strcmp(got, want) != 0)
		print_error("sort '%s': got %s, want %s\n", spec, got, want);
	assert_string_equal(got, want);
	hist_snapshot_free(&snap);
}

/* Each key alone (A..D are pids 10..40: zsh, awk, bash, NULL comm). */
static void
test_sort_each_key(void **state)
{
	struct hist *h = sort_fixture();

	(void)state;
	check_order(h, "overhead", "ADBC");
	check_order(h, "samples", "ADBC");
	check_order(h, "comm", "BCAD"); /* awk bash zsh NULL */
	check_order(h, "pid", "ABCD");
	check_order(h, "dso", "DCBA"); /* /bin/ls /lib/libc [kernel] NULL */
	check_order(h, "sym", "ADCB"); /* [unknown] main malloc schedule */
	check_order(h, "symbol", "ADCB");
	hist_free(h);
}

/* Several keys: later keys order what earlier ones leave tied. */
static void
test_sort_multi(void **state)
{
	struct hist *h = hist_new(0.5);

	(void)state;
	add_n(h, mk(10, "bash", &dso_ls, &sym_main, 0, false), 5);
	add_n(h, mk(20, "bash", &dso_ls, &sym_free, 0, false), 50);
	add_n(h, mk(30, "awk", &dso_ls, &sym_free, 0, false), 5);
	add_n(h, mk(40, "bash", &dso_libc, &sym_main, 0, false), 20);
	hist_tick(h, false);
	check_order(h, "comm,overhead", "CBDA");
	check_order(h, "comm,pid", "CABD");
	check_order(h, "sym,samples", "BCDA");
	check_order(h, "sym,pid", "BCAD");
	check_order(h, "dso,sym,pid", "BCAD");
	check_order(h, "overhead,comm", "BDCA");
	hist_free(h);
}

/* Ties: overhead, then symbol name (then address), then pid, whatever the
 * insertion order. */
static void
test_sort_ties(void **state)
{
	struct hist *fwd = hist_new(0.5), *rev = hist_new(0.5);
	struct hist_key keys[] = {
	    mk(20, "t", &dso_ls, &sym_main, 0, false), mk(30, "t", &dso_ls, &sym_free, 0, false),
	    mk(10, "t", &dso_ls, &sym_main, 0, false), mk(50, "t", &dso_ls, NULL, 0x30, false),
	    mk(40, "t", &dso_ls, NULL, 0x10, false),
	};
	size_t i, n = ARRAY_SIZE(keys);

	(void)state;
	for (i = 0; i < n; i++) {
		add_n(fwd, keys[i], 4);
		add_n(rev, keys[n - 1 - i], 4);
	}
	hist_tick(fwd, false);
	hist_tick(rev, false);
	/* [unknown]@0x10 (40), [unknown]@0x30 (50), free (30), main 10, main 20 */
	check_order(fwd, "overhead", "DECAB");
	check_order(rev, "overhead", "DECAB");
	check_order(fwd, "comm", "DECAB");
	check_order(rev, "pid", "ABCDE");
	hist_free(fwd);
	hist_free(rev);
}

/* The cgroup is part of the identity (a process that exec'd into another
 * group gets new rows) and a sort key: by short name, then path, unknown
 * last; "cgroup,overhead" groups the rows of each container. */
static void
test_cgroup(void **state)
{
	static const struct cgroup web = {"/system.slice/docker-aa.scope", "4f3c2b1a0e9d"},
	                           web2 = {"/docker/aa", "4f3c2b1a0e9d"},
	                           cron = {"/system.slice/cron.service", "cron.service"};
	struct hist *h = hist_new(0.5);
	struct hist_key k = mk(10, "nginx", &dso_libc, &sym_malloc, 0, false), in[4];
	enum hist_sort keys[HIST_SORT_MAX + 1];
	struct tt_err err;

	(void)state;
	in[0] = k, in[0].cgroup = &web;
	in[1] = k, in[1].cgroup = &web2;
	in[2] = k, in[2].cgroup = NULL;
	in[3] = in[0];
	for (size_t i = 0; i < ARRAY_SIZE(in); i++)
		hist_add(h, &in[i]);
	assert_int_equal(hist_count(h), 3);
	assert_int_equal(must_find(h, in[0])->total, 2);
	assert_ptr_equal(must_find(h, in[1])->key.cgroup, &web2);
	hist_free(h);

	h = hist_new(0.5);
	k.cgroup = &cron;
	k.pid = 10;
	add_n(h, k, 10);
	k.cgroup = NULL;
	k.pid = 20;
	add_n(h, k, 40);
	k.cgroup = &web2;
	k.pid = 30;
	add_n(h, k, 20);
	k.cgroup = &web;
	k.pid = 40;
	add_n(h, k, 30);
	k.pid = 50;
	k.sym = &sym_main;
	add_n(h, k, 35);
	hist_tick(h, false);
	/* 4f3c... (/docker/aa before /system.slice/..., whose two rows go by
	 * overhead), cron, unknown */
	check_order(h, "cgroup", "CEDAB");
	check_order(h, "cgroup,pid", "CDEAB");
	check_order(h, "overhead", "BEDCA");
	assert_int_equal(hist_parse_sort("cgroup,pid", keys, &err), 0);
	assert_int_equal(keys[0], HIST_SORT_CGROUP);
	assert_true(hist_sort_has(keys, HIST_SORT_CGROUP));
	assert_true(hist_sort_has(keys, HIST_SORT_PID));
	assert_false(hist_sort_has(keys, HIST_SORT_COMM));
	assert_false(hist_sort_has(NULL, HIST_SORT_CGROUP));
	assert_int_equal(hist_parse_sort("cgroup,cgroup", keys, &err), -1);
	hist_free(h);
}

/* Samples are the rounded scores, and sort on that rounding. */
static void
test_samples_rounding(void **state)
{
	struct hist *h = hist_new(0.5);
	struct hist_snapshot snap = {0};
	enum hist_sort keys[] = {HIST_SORT_SAMPLES, HIST_SORT_PID, HIST_SORT_END};

	(void)state;
	add_n(h, mk(10, "r", NULL, NULL, 1, false), 5); /* 5 -> 2.5 */
	add_n(h, mk(20, "r", NULL, NULL, 2, false), 3); /* 3 -> 1.5 + 1 = 2.5 */
	add_n(h, mk(30, "r", NULL, NULL, 3, false), 1); /* 1 -> 0.5 + 1 = 1.5 */
	hist_tick(h, false);
	add_n(h, mk(20, "r", NULL, NULL, 2, false), 1);
	add_n(h, mk(30, "r", NULL, NULL, 3, false), 1);
	hist_tick(h, false);
	hist_snapshot(h, keys, NULL, NULL, &snap);
	assert_int_equal(snap.n, 3);
	assert_int_equal(snap.rows[0].samples, 3);
	assert_int_equal(snap.rows[0].entry->key.pid, 10);
	assert_int_equal(snap.rows[1].samples, 3);
	assert_int_equal(snap.rows[1].entry->key.pid, 20);
	assert_int_equal(snap.rows[2].samples, 2);
	assert_int_equal(snap.interval_samples, 2);
	assert_true(snap.total_score == 6.5);
	hist_snapshot_free(&snap);
	hist_free(h);
}

/* Filter callback: keep one pid. */
static bool
keep_pid(const struct hist_entry *e, void *arg)
{
	return e->key.pid == *(int *)arg;
}

/* Filtered rows keep their share of the whole. */
static void
test_filter(void **state)
{
	struct hist *h = sort_fixture();
	struct hist_snapshot snap = {0};
	int pid = 20;

	(void)state;
	hist_snapshot(h, NULL, keep_pid, &pid, &snap);
	assert_int_equal(snap.n, 1);
	assert_int_equal(snap.rows[0].entry->key.pid, 20);
	assert_float_equal(snap.rows[0].overhead, 20.0, 1e-9);
	assert_true(snap.total_score == 100.0);
	pid = 99;
	hist_snapshot(h, NULL, keep_pid, &pid, &snap);
	assert_int_equal(snap.n, 0);
	hist_snapshot_free(&snap);
	hist_free(h);
}

/* A snapshot's rows are reused across ticks and grow when needed. */
static void
test_snapshot_reuse(void **state)
{
	struct hist *h = sort_fixture();
	struct hist_snapshot snap = {0};
	size_t cap, i;

	(void)state;
	hist_snapshot(h, NULL, NULL, NULL, &snap);
	assert_int_equal(snap.n, 4);
	cap = snap.cap;
	assert_true(cap >= 4);
	hist_tick(h, false);
	hist_snapshot(h, NULL, NULL, NULL, &snap);
	assert_int_equal(snap.n, 4);
	assert_int_equal(snap.cap, cap);
	assert_int_equal(snap.interval_samples, 0);
	assert_float_equal(snap.rows[0].overhead, 40.0, 1e-9);
	assert_int_equal(snap.rows[0].samples, 20);
	for (i = 0; i < 100; i++)
		add_n(h, nth_key(i), 1);
	hist_tick(h, false);
	hist_snapshot(h, NULL, NULL, NULL, &snap);
	assert_int_equal(snap.n, 104);
	assert_true(snap.cap >= 104);
	hist_snapshot_free(&snap);
	hist_free(h);
}

/* Valid sort lists, aliases and spaces. */
static void
test_parse_sort_valid(void **state)
{
	enum hist_sort keys[HIST_SORT_MAX + 1];
	struct tt_err err;

	(void)state;
	assert_int_equal(hist_parse_sort("overhead,comm", keys, &err), 0);
	assert_int_equal(keys[0], HIST_SORT_OVERHEAD);
	assert_int_equal(keys[1], HIST_SORT_COMM);
	assert_int_equal(keys[2], HIST_SORT_END);
	assert_int_equal(hist_parse_sort("symbol,command,pid,dso,samples,overhead", keys, &err), 0);
	assert_int_equal(keys[0], HIST_SORT_SYM);
	assert_int_equal(keys[1], HIST_SORT_COMM);
	assert_int_equal(keys[2], HIST_SORT_PID);
	assert_int_equal(keys[3], HIST_SORT_DSO);
	assert_int_equal(keys[4], HIST_SORT_SAMPLES);
	assert_int_equal(keys[5], HIST_SORT_OVERHEAD);
	assert_int_equal(keys[6], HIST_SORT_END);
	assert_int_equal(hist_parse_sort(" pid , sym ", keys, &err), 0);
	assert_int_equal(keys[0], HIST_SORT_PID);
	assert_int_equal(keys[1], HIST_SORT_SYM);
	assert_int_equal(keys[2], HIST_SORT_END);
}

/* The grouping named by sort keys: their row keys, else the default. */
static void
test_sort_group(void **state)
{
	enum hist_sort keys[HIST_SORT_MAX + 1];
	struct tt_err err;
	char name[64];

	(void)state;
	assert_int_equal(hist_parse_sort("overhead", keys, &err), 0);
	assert_int_equal(hist_sort_group(keys), HIST_GROUP_DEFAULT);
	assert_string_equal(hist_group_name(hist_sort_group(keys), name, sizeof name),
	                    "comm,dso,sym");
	assert_int_equal(hist_parse_sort("pid,sym", keys, &err), 0);
	assert_int_equal(hist_sort_group(keys), HIST_GROUP_PID | HIST_GROUP_SYM);
	assert_int_equal(hist_parse_sort("samples,thread,cgroup", keys, &err), 0);
	assert_int_equal(keys[1], HIST_SORT_TID);
	assert_int_equal(hist_sort_group(keys), HIST_GROUP_TID | HIST_GROUP_CGROUP);
	assert_string_equal(hist_group_name(hist_sort_group(keys), name, sizeof name),
	                    "tid,cgroup");
	assert_int_equal(hist_parse_sort("children,dso", keys, &err), 0);
	assert_int_equal(hist_sort_group(keys), HIST_GROUP_DSO);
	/* the fields in a fixed order, whatever the order of the keys */
	assert_string_equal(
	    hist_group_name(HIST_GROUP_SYM | HIST_GROUP_COMM | HIST_GROUP_PID, name, sizeof name),
	    "comm,pid,sym");
}

/* -s without a share orders by overhead first, as perf's --sort does; a
 * share named anywhere keeps the keys as given. */
static void
test_sort_by_share(void **state)
{
	enum hist_sort k[HIST_SORT_MAX + 1] = {HIST_SORT_PID, HIST_SORT_SYM, HIST_SORT_END};

	(void)state;
	hist_sort_by_share(k, false);
	assert_int_equal(k[0], HIST_SORT_OVERHEAD);
	assert_int_equal(k[1], HIST_SORT_PID);
	assert_int_equal(k[2], HIST_SORT_SYM);
	assert_int_equal(k[3], HIST_SORT_END);
	hist_sort_by_share(k, false); /* once is enough */
	assert_int_equal(k[1], HIST_SORT_PID);
	k[0] = HIST_SORT_SYM, k[1] = HIST_SORT_SAMPLES, k[2] = HIST_SORT_END;
	hist_sort_by_share(k, false);
	assert_int_equal(k[0], HIST_SORT_SYM);
	assert_int_equal(k[1], HIST_SORT_SAMPLES);
	/* all six names: room for the share before them */
	k[0] = HIST_SORT_COMM, k[1] = HIST_SORT_PID, k[2] = HIST_SORT_TID, k[3] = HIST_SORT_CGROUP,
	k[4] = HIST_SORT_DSO, k[5] = HIST_SORT_SYM, k[6] = HIST_SORT_END;
	hist_sort_by_share(k, false);
	assert_int_equal(k[0], HIST_SORT_OVERHEAD);
	assert_int_equal(k[6], HIST_SORT_SYM);
	assert_int_equal(k[7], HIST_SORT_END);
	/* --children: children first, then the share and the names */
	hist_sort_by_share(k, true);
	assert_int_equal(k[0], HIST_SORT_CHILDREN);
	assert_int_equal(k[1], HIST_SORT_OVERHEAD);
	assert_int_equal(k[7], HIST_SORT_SYM);
	assert_int_equal(k[8], HIST_SORT_END);
	k[0] = HIST_SORT_SYM, k[1] = HIST_SORT_OVERHEAD, k[2] = HIST_SORT_END;
	hist_sort_by_share(k, true); /* a name first keeps its place */
	assert_int_equal(k[0], HIST_SORT_SYM);
}

/* Bad sort lists fail with a message and leave keys alone. */
static void
test_parse_sort_invalid(void **state)
{
	static const struct {
		const char *in, *msg;
	} bad[] = {
	    {"", "empty sort key list"},
	    {"  ", "empty sort key list"},
	    {"foo", "unknown sort key 'foo' (use overhead, samples, comm, pid, tid, dso, sym, "
	            "children, cgroup)"},
	    {"pid,tid,thread", "duplicate sort key 'thread'"},
	    {"comm,cpu", "unknown sort key 'cpu'"},
	    {"Comm", "unknown sort key 'Comm'"},
	    {"sym\x1b[2J", "unknown sort key 'sym\\x1b[2J'"},
	    {"comm,comm", "duplicate sort key 'comm'"},
	    {"sym,symbol", "duplicate sort key 'symbol'"},
	    {"overhead,", "empty sort key in list"},
	    {",pid", "empty sort key in list"},
	    {"pid,,sym", "empty sort key in list"},
	};
	enum hist_sort keys[HIST_SORT_MAX + 1];
	struct tt_err err;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		keys[0] = HIST_SORT_PID;
		keys[1] = HIST_SORT_END;
		err.msg[0] = '\0';
		assert_int_equal(hist_parse_sort(bad[i].in, keys, &err), -1);
		if (strncmp(err.msg, bad[i].msg, strlen(bad[i].msg)) != 0)
			print_error("'%s': got '%s'\n", bad[i].in, err.msg);
		assert_true(strncmp(err.msg, bad[i].msg, strlen(bad[i].msg)) == 0);
		assert_int_equal(keys[0], HIST_SORT_PID);
		assert_int_equal(keys[1], HIST_SORT_END);
	}
	assert_int_equal(hist_parse_sort("nope", keys, NULL), -1);
}

/* Display name of resolved and unresolved symbols. */
static void
test_sym_name(void **state)
{
	struct hist_entry e = {.key = mk(1, "n", NULL, &sym_sched, 0, true)};

	(void)state;
	assert_string_equal(hist_sym_name(&e), "schedule");
	e.key.sym = NULL;
	assert_string_equal(hist_sym_name(&e), "[unknown]");
}

/* Steady state: 10M adds over 1k warm keys leave the pool as it was.
 * Not a timing test. */
static void
test_steady_state(void **state)
{
	struct hist *h = hist_new(0.875);
	struct hist_key keys[1000];
	size_t cap, i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		keys[i] = nth_key(i);
		hist_add(h, &keys[i]);
	}
	hist_tick(h, false);
	cap = hist_capacity(h);
	for (j = 0; j < 10; j++) {
		for (i = 0; i < 1000000; i++)
			hist_add(h, &keys[(i * 7919) % ARRAY_SIZE(keys)]);
		hist_tick(h, false);
		assert_int_equal(hist_count(h), ARRAY_SIZE(keys));
		assert_int_equal(hist_capacity(h), cap);
	}
	assert_int_equal(must_find(h, keys[0])->total, 10001);
	hist_free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_merge_and_separate),
	    cmocka_unit_test(test_rekey),
	    cmocka_unit_test(test_overhead),
	    cmocka_unit_test(test_decay),
	    cmocka_unit_test(test_flat_share),
	    cmocka_unit_test(test_decay_zero_factor),
	    cmocka_unit_test(test_zero),
	    cmocka_unit_test(test_fade_reuse),
	    cmocka_unit_test(test_growth),
	    cmocka_unit_test(test_model),
	    cmocka_unit_test(test_sort_each_key),
	    cmocka_unit_test(test_sort_multi),
	    cmocka_unit_test(test_sort_ties),
	    cmocka_unit_test(test_cgroup),
	    cmocka_unit_test(test_samples_rounding),
	    cmocka_unit_test(test_filter),
	    cmocka_unit_test(test_snapshot_reuse),
	    cmocka_unit_test(test_parse_sort_valid),
	    cmocka_unit_test(test_parse_sort_invalid),
	    cmocka_unit_test(test_sort_group),
	    cmocka_unit_test(test_sort_by_share),
	    cmocka_unit_test(test_sym_name),
	    cmocka_unit_test(test_steady_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
