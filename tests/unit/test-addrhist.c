/* Unit tests for src/addrhist.c: counts per address of each function,
 * decay and fading like hist, reuse without allocation, the bounds, and
 * per-instruction counts only for the top functions and the ones asked
 * for (with the per-sample cost printed, not asserted). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "tracetop/addrhist.h"
#include "tracetop/util.h"

/* The address record of off in a function's histogram, or NULL. */
static const struct addrhist_addr *
addr_of(const struct addrhist_sym *s, uint32_t off)
{
	for (uint32_t i = 0; s != NULL && i < s->cap; i++)
		if (s->addrs[i].off == off)
			return &s->addrs[i];
	return NULL;
}

/* Samples land per function and per offset; out-of-range ones are ignored. */
static void
test_counts(void **state)
{
	struct dso d1 = {.name = "a"}, d2 = {.name = "b"};
	struct sym f = {.start = 0x1000, .size = 0x40, .name = "f"};
	struct sym g = {.start = 0x2000, .size = 0x10, .name = "g"};
	struct addrhist *ah = addrhist_new(0.5);
	const struct addrhist_sym *s;

	(void)state;
	assert_null(addrhist_find(ah, &d1, &f));
	for (int i = 0; i < 3; i++)
		addrhist_add(ah, &d1, &f, false, 0x1004);
	addrhist_add(ah, &d1, &f, false, 0x1010);
	addrhist_add(ah, &d2, &f, false, 0x1010); /* same symbol, other DSO */
	addrhist_add(ah, &d1, &g, true, 0x200f);
	addrhist_add(ah, &d1, &g, true, 0x2010); /* past the end */
	addrhist_add(ah, &d1, &g, true, 0x1fff); /* before the start */
	s = addrhist_find(ah, &d1, &f);
	assert_non_null(s);
	assert_int_equal(s->interval, 4);
	assert_int_equal(s->naddrs, 2);
	assert_int_equal(addr_of(s, 4)->interval, 3);
	assert_int_equal(addr_of(s, 0x10)->interval, 1);
	assert_int_equal(addrhist_find(ah, &d2, &f)->total, 1);
	s = addrhist_find(ah, &d1, &g);
	assert_true(s->kernel);
	assert_int_equal(s->total, 1);
	assert_int_equal(addr_of(s, 0xf)->total, 1);

	addrhist_tick(ah, false);
	s = addrhist_find(ah, &d1, &f);
	assert_true(s->score == 4.0);
	assert_true(addr_of(s, 4)->score == 3.0);
	assert_int_equal(s->interval, 0);
	addrhist_add(ah, &d1, &f, false, 0x1010);
	addrhist_tick(ah, false); /* 3 * 0.5 and 1 * 0.5 + 1 */
	s = addrhist_find(ah, &d1, &f);
	assert_true(addr_of(s, 4)->score == 1.5);
	assert_true(addr_of(s, 0x10)->score == 1.5);
	assert_true(s->score == 3.0);
	assert_int_equal(s->total, 5);
	addrhist_add(ah, &d1, &f, false, 0x1004);
	addrhist_tick(ah, true); /* zeroing: the last interval only */
	assert_true(addrhist_find(ah, &d1, &f)->score == 1.0);
	assert_true(addr_of(addrhist_find(ah, &d1, &f), 0x10)->score == 0.0);
	addrhist_tick(ah, true); /* nothing new: gone, as in hist */
	assert_null(addrhist_find(ah, &d1, &f));
	addrhist_free(ah);
}

/* Faded functions go; their records (and address arrays) are reused, so a
 * steady stream of new functions allocates nothing more. */
static void
test_fade_and_reuse(void **state)
{
	static struct sym syms[64];
	struct dso d = {.name = "d"};
	struct addrhist *ah = addrhist_new(0.5);
	struct addrhist_stats st;
	size_t slots = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(syms); i++)
		syms[i] = (struct sym){.start = 0x1000 * (i + 1), .size = 0x100, .name = "s"};
	for (int round = 0; round < 40; round++) {
		/* 8 functions per round, a different 8 each round */
		for (size_t k = 0; k < 8; k++) {
			const struct sym *s = &syms[(round * 8 + k) % ARRAY_SIZE(syms)];

			for (uint64_t a = 0; a < 20; a++)
				addrhist_add(ah, &d, s, false, s->start + a * 4);
		}
		addrhist_tick(ah, false);
		addrhist_get_stats(ah, &st);
		assert_true(st.syms <= 8 * 6); /* faded ones went: 20 * 0.5^6 < 0.5 */
		if (round == 20)
			slots = st.slots;
		if (round > 20)
			assert_int_equal(st.slots, slots);
	}
	/* a function that stops being sampled fades: 20 * 0.5^n < 0.5 */
	for (int i = 0; i < 8; i++)
		addrhist_tick(ah, false);
	addrhist_get_stats(ah, &st);
	assert_int_equal(st.syms, 0);
	assert_null(addrhist_find(ah, &d, &syms[0]));
	addrhist_free(ah);
}

/* At most ADDRHIST_MAX_ADDRS addresses per function: the rest are dropped
 * (counted in the function's total all the same). */
static void
test_addr_bound(void **state)
{
	struct sym f = {.start = 0, .size = 1u << 20, .name = "big"};
	struct dso d = {.name = "d"};
	struct addrhist *ah = addrhist_new(0.875);
	const struct addrhist_sym *s;
	struct addrhist_stats st;

	(void)state;
	for (uint64_t a = 0; a < ADDRHIST_MAX_ADDRS + 100; a++)
		addrhist_add(ah, &d, &f, false, a);
	addrhist_add(ah, &d, &f, false, 0); /* a known address still counts */
	s = addrhist_find(ah, &d, &f);
	assert_int_equal(s->naddrs, ADDRHIST_MAX_ADDRS);
	assert_int_equal(s->dropped, 100);
	assert_int_equal(s->total, ADDRHIST_MAX_ADDRS + 101);
	assert_int_equal(addr_of(s, 0)->total, 2);
	addrhist_get_stats(ah, &st);
	assert_int_equal(st.dropped, 100);
	addrhist_free(ah);
}

/* At most ADDRHIST_MAX_SYMS functions and ADDRHIST_MAX_SLOTS address
 * slots per table, whatever the samples. */
static void
test_table_bounds(void **state)
{
	size_t n = ADDRHIST_MAX_SYMS + 1000;
	struct sym *syms = xcalloc(n, sizeof *syms);
	struct dso d = {.name = "d"};
	struct addrhist *ah = addrhist_new(0.875);
	struct addrhist_stats st;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		syms[i] = (struct sym){.start = 0x100 * i, .size = 0x100, .name = "s"};
		addrhist_add(ah, &d, &syms[i], false, syms[i].start);
	}
	addrhist_get_stats(ah, &st);
	assert_int_equal(st.syms, ADDRHIST_MAX_SYMS);
	assert_int_equal(st.dropped, 1000);
	assert_null(addrhist_find(ah, &d, &syms[n - 1]));
	/* 64 addresses each would take 128 slots: more than the bound */
	for (size_t i = 0; i < ADDRHIST_MAX_SYMS; i++)
		for (uint64_t a = 1; a < 64; a++)
			addrhist_add(ah, &d, &syms[i], false, syms[i].start + a);
	addrhist_get_stats(ah, &st);
	assert_true(st.slots <= ADDRHIST_MAX_SLOTS);
	assert_true(st.dropped > 1000);
	addrhist_free(ah);
	free(syms);
}

/* Add n samples to sym at its start (+ k % 4 * 4, so several addresses). */
static void
add_n(struct addrhist *ah, const struct dso *d, const struct sym *sym, int n)
{
	for (int k = 0; k < n; k++)
		addrhist_add(ah, d, sym, false, sym->start + (uint64_t)(k % 4) * 4);
}

/* Whether sym has per-instruction counts (and they match its samples). */
static bool
watched(const struct addrhist *ah, const struct dso *d, const struct sym *sym)
{
	const struct addrhist_sym *s = addrhist_find(ah, d, sym);

	if (s == NULL || !s->watched)
		return false;
	assert_true(s->cap > 0);
	return true;
}

/* With a top n: the first n sampled are watched at once; a tick keeps the
 * n best by score, and those already watched while among the best 2n;
 * the others only count samples and hold no address array. */
static void
test_keep_top(void **state)
{
	static struct sym f[5];
	struct dso d = {.name = "d"};
	struct addrhist *ah = addrhist_new(0.5);
	const struct addrhist_sym *s;
	struct addrhist_stats st;
	enum { A, B, C, D, E };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		f[i] = (struct sym){.start = 0x1000 * (i + 1), .size = 0x100, .name = "f"};
	addrhist_keep_top(ah, 2);
	add_n(ah, &d, &f[E], 1); /* first come */
	add_n(ah, &d, &f[D], 7);
	add_n(ah, &d, &f[C], 8);
	add_n(ah, &d, &f[B], 9);
	add_n(ah, &d, &f[A], 10);
	assert_true(watched(ah, &d, &f[E]) && watched(ah, &d, &f[D]));
	assert_false(watched(ah, &d, &f[A]));
	s = addrhist_find(ah, &d, &f[A]);
	assert_int_equal(s->total, 10); /* counted all the same */
	assert_int_equal(s->naddrs, 0);
	assert_null(s->addrs);

	addrhist_tick(ah, true); /* A 10, B 9, C 8, D 7, E 1 */
	assert_true(watched(ah, &d, &f[A]) && watched(ah, &d, &f[B]));
	assert_false(watched(ah, &d, &f[C]));
	assert_true(watched(ah, &d, &f[D])); /* 4th of 2n = 4: stays */
	assert_false(watched(ah, &d, &f[E]));
	assert_true(addrhist_find(ah, &d, &f[E])->score == 1.0);
	add_n(ah, &d, &f[A], 6);
	assert_int_equal(addrhist_find(ah, &d, &f[A])->naddrs, 4);
	assert_int_equal(addrhist_find(ah, &d, &f[A])->total, 16);

	add_n(ah, &d, &f[C], 20);
	add_n(ah, &d, &f[D], 19);
	add_n(ah, &d, &f[E], 18);
	add_n(ah, &d, &f[B], 4);
	addrhist_tick(ah, true); /* C 20, D 19, E 18, A 6, B 4 */
	assert_true(watched(ah, &d, &f[C]) && watched(ah, &d, &f[D]));
	assert_true(watched(ah, &d, &f[A]));  /* 4th, was watched */
	assert_false(watched(ah, &d, &f[E])); /* 3rd, was not */
	assert_false(watched(ah, &d, &f[B])); /* 5th */
	assert_int_equal(addrhist_find(ah, &d, &f[B])->cap, 0);
	addrhist_get_stats(ah, &st);
	assert_int_equal(st.syms, 5);
	assert_int_equal(st.watched, 3);
	addrhist_free(ah);
}

/* A function asked for is watched at once whatever its rank (a record is
 * made if it has none), and again when it comes back after fading; the
 * oldest of more than ADDRHIST_MAX_WANTED requests lapses. */
static void
test_want(void **state)
{
	static struct sym f[ADDRHIST_MAX_WANTED + 3];
	struct dso d = {.name = "d"};
	struct addrhist *ah = addrhist_new(0.5);
	const size_t cold = ADDRHIST_MAX_WANTED + 2;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		f[i] = (struct sym){.start = 0x1000 * (i + 1), .size = 0x100, .name = "f"};
	addrhist_keep_top(ah, 1);
	add_n(ah, &d, &f[0], 50);
	add_n(ah, &d, &f[1], 40);
	add_n(ah, &d, &f[cold], 1);
	addrhist_tick(ah, false);
	assert_true(watched(ah, &d, &f[0]));
	assert_false(watched(ah, &d, &f[cold]));
	addrhist_want(ah, &d, &f[cold], false);
	assert_true(watched(ah, &d, &f[cold]));
	add_n(ah, &d, &f[cold], 3);
	assert_int_equal(addrhist_find(ah, &d, &f[cold])->naddrs, 3);
	addrhist_tick(ah, false);
	assert_true(watched(ah, &d, &f[cold]));

	/* asked for before any sample: there at once, gone when it fades,
	 * watched again from its next sample */
	addrhist_want(ah, &d, &f[2], false);
	assert_true(watched(ah, &d, &f[2]));
	assert_int_equal(addrhist_find(ah, &d, &f[2])->total, 0);
	addrhist_tick(ah, false);
	assert_null(addrhist_find(ah, &d, &f[2]));
	add_n(ah, &d, &f[0], 50);
	add_n(ah, &d, &f[2], 1);
	assert_true(watched(ah, &d, &f[2]));

	/* more requests than kept: the first (f[cold]) lapses and is ranked */
	for (size_t i = 3; i < 3 + ADDRHIST_MAX_WANTED - 1; i++)
		addrhist_want(ah, &d, &f[i], false);
	add_n(ah, &d, &f[cold], 1);
	addrhist_tick(ah, false);
	assert_false(watched(ah, &d, &f[cold]));
	assert_true(watched(ah, &d, &f[2]));
	addrhist_want(ah, &d, &f[2], false); /* already asked for: nothing lapses */
	add_n(ah, &d, &f[3], 1);             /* faded unsampled, still asked for */
	assert_true(watched(ah, &d, &f[3]));
	addrhist_free(ah);
}

/* Functions asked for by name are watched from their first sample on,
 * and those already sampled at once, however many hotter ones there are. */
static void
test_want_name(void **state)
{
	static struct sym f[100];
	struct sym hot = {.start = 0x100000, .size = 0x100, .name = "hot_fn"};
	struct sym late = {.start = 0x200000, .size = 0x100, .name = "late_fn"};
	struct dso d = {.name = "d"}, d2 = {.name = "d2"};
	struct addrhist *ah = addrhist_new(0.875);

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		f[i] = (struct sym){.start = 0x1000 * (i + 1), .size = 0x100, .name = "f"};
	addrhist_keep_top(ah, 4);
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		add_n(ah, &d, &f[i], 100);
	add_n(ah, &d, &hot, 2); /* once only would make no record (test_long_tail) */
	addrhist_tick(ah, false);
	assert_false(watched(ah, &d, &hot));
	addrhist_want_name(ah, "hot_fn");
	addrhist_want_name(ah, "late_fn");
	assert_true(watched(ah, &d, &hot));
	add_n(ah, &d2, &late, 2); /* any DSO */
	assert_true(watched(ah, &d2, &late));
	assert_int_equal(addrhist_find(ah, &d2, &late)->naddrs, 2);
	for (int t = 0; t < 3; t++) {
		for (size_t i = 0; i < ARRAY_SIZE(f); i++)
			add_n(ah, &d, &f[i], 100);
		add_n(ah, &d, &hot, 1);
		add_n(ah, &d2, &late, 1);
		addrhist_tick(ah, false);
	}
	assert_true(watched(ah, &d, &hot) && watched(ah, &d2, &late));
	assert_int_equal(addrhist_find(ah, &d, &hot)->total, 5);
	addrhist_free(ah);
}

/* With a top n all watched, a function sampled once in a tick makes no
 * record (the long tail of a system-wide profile costs a tag each), one
 * sampled twice has one counting both, and a tick forgets the first. */
static void
test_long_tail(void **state)
{
	size_t n = 3000;
	struct sym *syms = xcalloc(n, sizeof *syms);
	struct sym hot = {.start = 0x10000000, .size = 0x100, .name = "hot"};
	struct sym twice = {.start = 0x20000000, .size = 0x100, .name = "twice"};
	struct sym cold = {.start = 0x30000000, .size = 0x100, .name = "cold"};
	struct dso d = {.name = "d"};
	struct addrhist *ah = addrhist_new(0.5);
	struct addrhist_stats st;

	(void)state;
	for (size_t i = 0; i < n; i++)
		syms[i] = (struct sym){.start = 0x1000 * (i + 1), .size = 0x100, .name = "s"};
	addrhist_keep_top(ah, 1);
	add_n(ah, &d, &hot, 5); /* watched: the first one */
	for (int t = 0; t < 3; t++) {
		for (size_t i = 0; i < n; i++)
			add_n(ah, &d, &syms[i], 1);
		add_n(ah, &d, &hot, 5);
		addrhist_get_stats(ah, &st);
		assert_int_equal(st.syms, 1);
		addrhist_tick(ah, false);
	}
	add_n(ah, &d, &twice, 1);
	assert_null(addrhist_find(ah, &d, &twice));
	add_n(ah, &d, &twice, 1);
	assert_non_null(addrhist_find(ah, &d, &twice));
	assert_int_equal(addrhist_find(ah, &d, &twice)->total, 2);
	add_n(ah, &d, &cold, 1);
	addrhist_tick(ah, false);
	add_n(ah, &d, &cold, 1); /* the tick forgot the first */
	assert_null(addrhist_find(ah, &d, &cold));
	addrhist_add_n(ah, &d, &cold, false, cold.start, 2); /* with the one remembered */
	assert_int_equal(addrhist_find(ah, &d, &cold)->total, 3);
	addrhist_add_n(ah, &d, &syms[0], false, syms[0].start, 2); /* two at once: a record */
	assert_int_equal(addrhist_find(ah, &d, &syms[0])->total, 2);
	assert_true(watched(ah, &d, &hot));
	addrhist_free(ah);
	free(syms);
}

/* Many functions with many addresses: with a top n, address slots go to
 * at most 2n functions (plus the ones asked for), not to every one. */
static void
test_top_memory(void **state)
{
	size_t n = 5000;
	struct sym *syms = xcalloc(n, sizeof *syms);
	struct dso d = {.name = "d"};
	struct addrhist *ah = addrhist_new(0.875);
	struct addrhist_stats st;

	(void)state;
	for (size_t i = 0; i < n; i++)
		syms[i] = (struct sym){.start = 0x1000 * i, .size = 0x1000, .name = "s"};
	addrhist_keep_top(ah, 16);
	for (int t = 0; t < 5; t++) {
		for (size_t i = 0; i < n; i++)
			for (uint64_t a = 0; a < 64; a++)
				addrhist_add(ah, &d, &syms[i], false, syms[i].start + a * 8);
		addrhist_tick(ah, false);
		addrhist_get_stats(ah, &st);
		assert_int_equal(st.syms, n);
		assert_true(st.watched <= 32);
		assert_true(st.slots <= 32 * 128);
	}
	addrhist_free(ah);
	free(syms);
}

/* The hot path's cost with every function watched and with a top 64, on
 * a system-wide-like mix (a few hot functions, a long tail): printed for
 * the record, not asserted (timings belong in bench/). */
static void
test_cost(void **state)
{
	size_t nsyms = 20000, nsamples = 2000000;
	struct sym *syms = xcalloc(nsyms, sizeof *syms);
	uint32_t *pick = xmalloc(nsamples * sizeof *pick);
	uint64_t r = 88172645463325252ULL;
	struct dso d = {.name = "d"};

	(void)state;
	for (size_t i = 0; i < nsyms; i++)
		syms[i] = (struct sym){.start = 0x1000 * i, .size = 0x800, .name = "s"};
	for (size_t k = 0; k < nsamples; k++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		/* half the samples in 8 functions, the rest over all of them */
		pick[k] = (uint32_t)(r % 2 ? (r >> 8) % 8 : (r >> 8) % nsyms) << 11 |
		          (uint32_t)(r >> 40) % 0x800;
	}
	for (int mode = 0; mode < 2; mode++) {
		struct addrhist *ah = addrhist_new(0.875);
		struct addrhist_stats st;
		uint64_t t0, t1, tick = 0;

		if (mode == 1)
			addrhist_keep_top(ah, 64);
		t0 = now_ns();
		for (size_t k = 0; k < nsamples; k++) {
			const struct sym *s = &syms[pick[k] >> 11];

			addrhist_add(ah, &d, s, false, s->start + (pick[k] & 0x7ff));
			if ((k + 1) % (nsamples / 8) == 0) {
				t1 = now_ns();
				addrhist_tick(ah, false);
				tick += now_ns() - t1;
			}
		}
		t1 = now_ns();
		addrhist_get_stats(ah, &st);
		printf("# addrhist %s: %.1f ns/sample, %.2f ms/tick, %zu functions, %zu watched, "
		       "%zu address slots (%.1f MiB)\n",
		       mode ? "top 64" : "all", (double)(t1 - t0 - tick) / (double)nsamples,
		       (double)tick / 8 / 1e6, st.syms, st.watched, st.slots,
		       (double)st.slots * sizeof(struct addrhist_addr) / 1048576.0);
		addrhist_free(ah);
	}
	free(pick);
	free(syms);
}

/* Count n samples at off of f from who. */
static void
add_who(struct addrhist *ah, const struct dso *d, const struct sym *f, uint32_t off, int n,
        const struct addrhist_who *who)
{
	for (int i = 0; i < n; i++)
		addrhist_add_who(ah, d, f, false, f->start + off, 1, who);
}

/* A row asked for (the Annotate pane's Top row) counts only the samples
 * of its command, or process, or thread; the function's own histogram
 * all of them; the row stays while asked for and goes when its request
 * lapses. */
static void
test_want_who(void **state)
{
	static const char comm_a[] = "app-a", comm_b[] = "app-b";
	const struct addrhist_who a1 = {.comm = comm_a, .pid = 10, .tid = 10};
	const struct addrhist_who a2 = {.comm = comm_a, .pid = 11, .tid = 12};
	const struct addrhist_who b = {.comm = comm_b, .pid = 20, .tid = 20};
	struct sym f = {.start = 0x1000, .size = 0x100, .name = "f"};
	struct sym other[ADDRHIST_MAX_WANTED];
	struct dso d = {.name = "d"};
	struct addrhist *ah = addrhist_new(0.5);
	struct addrhist_copy c = {0};
	const struct addrhist_sym *s;

	(void)state;
	addrhist_keep_top(ah, 4);
	add_who(ah, &d, &f, 0x10, 5, &a1); /* before the request: not in the rows */
	addrhist_want_who(ah, &d, &f, false, HIST_GROUP_COMM | HIST_GROUP_DSO, &a1);
	addrhist_want_who(ah, &d, &f, false, HIST_GROUP_PID, &a2);
	addrhist_want_who(ah, &d, &f, false, HIST_GROUP_TID, &b);
	add_who(ah, &d, &f, 0x10, 3, &a1);
	add_who(ah, &d, &f, 0x20, 2, &a2);
	add_who(ah, &d, &f, 0x30, 7, &b);
	addrhist_add(ah, &d, &f, false, 0x1040); /* nobody's: the function's only */
	addrhist_copy_wanted(ah, &c);
	/* the command's row: both its processes, from the request on */
	s = addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_COMM, &a2);
	assert_non_null(s);
	assert_int_equal(s->total, 5);
	assert_int_equal(s->naddrs, 2);
	assert_int_equal(addr_of(s, 0x10)->total, 3);
	assert_int_equal(addr_of(s, 0x20)->total, 2);
	/* the process's row: only its own */
	s = addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_PID, &a2);
	assert_int_equal(s->total, 2);
	assert_null(addr_of(s, 0x10));
	/* the thread's */
	s = addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_TID, &b);
	assert_int_equal(s->total, 7);
	assert_int_equal(addr_of(s, 0x30)->total, 7);
	/* rows not asked for, and the whole function (not asked for) */
	assert_null(addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_COMM, &b));
	assert_null(addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_PID, &a1));
	assert_null(addrhist_copy_find(&c, &d, &f));
	assert_int_equal(addrhist_find(ah, &d, &f)->total, 18);

	/* idle: the asked-for rows stay through the function's own fading
	 * (made again when it comes back) */
	for (int t = 0; t < 12; t++)
		addrhist_tick(ah, false);
	add_who(ah, &d, &f, 0x30, 1, &b);
	addrhist_copy_wanted(ah, &c);
	assert_int_equal(addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_TID, &b)->total, 1);
	assert_int_equal(addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_COMM, &a1)->total, 0);

	/* newer requests push the oldest out: its row goes */
	for (size_t i = 0; i < ARRAY_SIZE(other); i++) {
		other[i] = (struct sym){.start = 0x10000 * (i + 2), .size = 0x10, .name = "o"};
		addrhist_want(ah, &d, &other[i], false);
	}
	add_who(ah, &d, &f, 0x10, 1, &a1);
	addrhist_copy_wanted(ah, &c);
	assert_null(addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_COMM, &a1));
	assert_null(addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_TID, &b));
	addrhist_copy_free(&c);
	addrhist_free(ah);
}

/* A name asked for with a grouping (batch --annotate with -s) counts
 * every row of it apart as it comes, up to the bound; further rows count
 * in the function and as dropped. */
static void
test_name_rows(void **state)
{
	struct sym f = {.start = 0x1000, .size = 0x100, .name = "f"};
	struct dso d = {.name = "d"};
	struct addrhist *ah = addrhist_new(0.5);
	struct addrhist_copy c = {0};
	struct addrhist_stats st;
	struct addrhist_who w = {.comm = "x"};

	(void)state;
	addrhist_keep_top(ah, 4);
	addrhist_want_name_rows(ah, "f", HIST_GROUP_PID | HIST_GROUP_SYM);
	for (int pid = 1; pid <= ADDRHIST_MAX_ROWS + 5; pid++) {
		w.pid = pid;
		add_who(ah, &d, &f, (uint32_t)pid % 4, pid, &w);
	}
	addrhist_copy_wanted(ah, &c);
	assert_int_equal(c.n, 1 + ADDRHIST_MAX_ROWS);
	assert_int_equal(addrhist_copy_find(&c, &d, &f)->total,
	                 (ADDRHIST_MAX_ROWS + 5) * (ADDRHIST_MAX_ROWS + 6) / 2);
	w.pid = 3;
	assert_int_equal(addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_PID, &w)->total, 3);
	assert_int_equal(addr_of(addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_PID, &w), 3)->total,
	                 3);
	w.pid = ADDRHIST_MAX_ROWS + 5;
	assert_null(addrhist_copy_find_who(&c, &d, &f, HIST_GROUP_PID, &w));
	addrhist_get_stats(ah, &st);
	assert_int_equal(st.dropped, 5 * ADDRHIST_MAX_ROWS + 15); /* pids 65 to 69 */
	/* rows that fade go; the function stays asked for */
	for (int t = 0; t < 12; t++)
		addrhist_tick(ah, false);
	w.pid = 1;
	add_who(ah, &d, &f, 0, 1, &w);
	addrhist_copy_wanted(ah, &c);
	assert_int_equal(c.n, 2);
	addrhist_copy_free(&c);
	addrhist_free(ah);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counts),     cmocka_unit_test(test_fade_and_reuse),
	    cmocka_unit_test(test_addr_bound), cmocka_unit_test(test_table_bounds),
	    cmocka_unit_test(test_keep_top),   cmocka_unit_test(test_want),
	    cmocka_unit_test(test_long_tail),  cmocka_unit_test(test_want_name),
	    cmocka_unit_test(test_top_memory), cmocka_unit_test(test_want_who),
	    cmocka_unit_test(test_name_rows),  cmocka_unit_test(test_cost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
