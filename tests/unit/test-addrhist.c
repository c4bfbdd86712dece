/* Unit tests for src/addrhist.c: counts per address of each function,
 * decay and fading like hist, reuse without allocation, and the bounds. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counts),
	    cmocka_unit_test(test_fade_and_reuse),
	    cmocka_unit_test(test_addr_bound),
	    cmocka_unit_test(test_table_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
