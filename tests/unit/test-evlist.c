/* Unit tests for src/evlist.c's id table: every sample id of many events
 * (as events x CPUs x threads give) finds its event, ids no event has find
 * none, and the table is rebuilt whole. No perf_event_open here: the
 * evsels and their ids are made by hand. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tracetop/evlist.h"
#include "tracetop/util.h"

/* An evlist of nev events with nids ids each: event e's i-th id is
 * base + (i * nev + e) * stride, so ids of different events interleave. */
static void
fake_evlist(struct evlist *el, size_t nev, size_t nids, uint64_t base, uint64_t stride)
{
	memset(el, 0, sizeof *el);
	el->nevsels = nev;
	el->evsels = xcalloc(nev, sizeof *el->evsels);
	for (size_t e = 0; e < nev; e++) {
		el->evsels[e].nids = nids;
		el->evsels[e].ids = xcalloc(nids ? nids : 1, sizeof(uint64_t));
		for (size_t i = 0; i < nids; i++)
			el->evsels[e].ids[i] = base + (i * nev + e) * stride;
	}
	evlist_index_ids(el);
}

/* Many events x many ids: each id finds its own event; the ids between
 * them, before and after them find nothing. */
static void
test_find_many(void **state)
{
	static const uint64_t strides[] = {1, 2, 4096, 1ULL << 32};
	struct evlist el;

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(strides); k++) {
		uint64_t st = strides[k], base = 1000;
		size_t nev = 7, nids = 300;

		fake_evlist(&el, nev, nids, base, st);
		assert_true(el.idmask + 1 >= 2 * nev * nids);
		for (size_t e = 0; e < nev; e++)
			for (size_t i = 0; i < nids; i++)
				assert_ptr_equal(evlist_find_id(&el, el.evsels[e].ids[i]),
				                 &el.evsels[e]);
		assert_null(evlist_find_id(&el, base - 1));
		assert_null(evlist_find_id(&el, 0));
		assert_null(evlist_find_id(&el, base + nev * nids * st));
		assert_null(evlist_find_id(&el, UINT64_MAX));
		if (st > 1)
			for (size_t j = 0; j < nev * nids; j++)
				assert_null(evlist_find_id(&el, base + j * st + 1));
		evlist_close(&el);
	}
}

/* 0 and UINT64_MAX are ids like any other (no value marks a free slot);
 * an id listed twice keeps its first event. */
static void
test_find_edges(void **state)
{
	struct evlist el;

	(void)state;
	fake_evlist(&el, 2, 2, 0, 1); /* ids 0, 2 and 1, 3 */
	assert_ptr_equal(evlist_find_id(&el, 0), &el.evsels[0]);
	assert_ptr_equal(evlist_find_id(&el, 1), &el.evsels[1]);
	assert_ptr_equal(evlist_find_id(&el, 3), &el.evsels[1]);
	assert_null(evlist_find_id(&el, 4));
	el.evsels[1].ids[1] = UINT64_MAX;
	el.evsels[0].ids[1] = 1; /* also event 1's */
	evlist_index_ids(&el);
	assert_ptr_equal(evlist_find_id(&el, UINT64_MAX), &el.evsels[1]);
	assert_ptr_equal(evlist_find_id(&el, 1), &el.evsels[0]);
	assert_null(evlist_find_id(&el, 3)); /* rebuilt: the old id is gone */
	assert_null(evlist_find_id(&el, 2));
	evlist_close(&el);
}

/* No ids, or no table yet (a closed or never opened evlist): nothing. */
static void
test_find_empty(void **state)
{
	struct evlist el;

	(void)state;
	fake_evlist(&el, 3, 0, 1, 1);
	assert_null(evlist_find_id(&el, 1));
	evlist_close(&el);
	assert_null(evlist_find_id(&el, 1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_find_many),
	    cmocka_unit_test(test_find_edges),
	    cmocka_unit_test(test_find_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
