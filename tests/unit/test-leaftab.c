/* Unit tests for leaftab: finding and replacing judged leaves, forgetting
 * one process's leaves (and only its), the bound, room coming back after
 * a process is forgotten, long churn of processes, and a random mix of
 * operations checked against a plain list. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracetop/leaftab.h"

/* The ips leaftab_forget reported, in order. */
struct seen {
	uint64_t ips[64];
	size_t n;
};

/* leaftab_forget's callback: note the ip. */
static void
note_ip(void *arg, uint64_t ip)
{
	struct seen *s = arg;

	assert_true(s->n < 64);
	s->ips[s->n++] = ip;
}

/* Whether the seen set holds ip. */
static bool
seen_has(const struct seen *s, uint64_t ip)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->ips[i] == ip)
			return true;
	return false;
}

/* A put is found again; a second put of the key replaces its word. */
static void
test_put_find(void **state)
{
	struct leaftab *t = leaftab_new(16);
	uint8_t w = 0;

	(void)state;
	assert_false(leaftab_find(t, 7, 0x1000, &w));
	assert_true(leaftab_put(t, 7, 0x1000, 3));
	assert_true(leaftab_put(t, 8, 0x1000, 5));
	assert_true(leaftab_find(t, 7, 0x1000, &w));
	assert_int_equal(w, 3);
	assert_true(leaftab_find(t, 8, 0x1000, &w));
	assert_int_equal(w, 5);
	assert_true(leaftab_put(t, 7, 0x1000, 9));
	assert_true(leaftab_find(t, 7, 0x1000, &w));
	assert_int_equal(w, 9);
	assert_int_equal(leaftab_count(t), 2);
	assert_false(leaftab_find(t, 7, 0x1001, &w));
	leaftab_free(t);
}

/* Forgetting a process drops its leaves, reports each ip once, and keeps
 * the other processes' leaves (same ips included). */
static void
test_forget(void **state)
{
	struct leaftab *t = leaftab_new(64);
	struct seen s = {0};
	uint8_t w;

	(void)state;
	for (uint64_t ip = 1; ip <= 10; ip++) {
		assert_true(leaftab_put(t, 100, ip * 16, (uint8_t)ip));
		assert_true(leaftab_put(t, 200, ip * 16, (uint8_t)(ip + 1)));
	}
	assert_int_equal(leaftab_forget(t, 100, note_ip, &s), 10);
	assert_int_equal(s.n, 10);
	for (uint64_t ip = 1; ip <= 10; ip++) {
		assert_true(seen_has(&s, ip * 16));
		assert_false(leaftab_find(t, 100, ip * 16, &w));
		assert_true(leaftab_find(t, 200, ip * 16, &w));
		assert_int_equal(w, ip + 1);
	}
	assert_int_equal(leaftab_count(t), 10);
	/* a process without leaves, and one forgotten twice: nothing */
	s.n = 0;
	assert_int_equal(leaftab_forget(t, 300, note_ip, &s), 0);
	assert_int_equal(leaftab_forget(t, 100, note_ip, &s), 0);
	assert_int_equal(s.n, 0);
	/* the forgotten process judges again */
	assert_true(leaftab_put(t, 100, 16, 4));
	assert_true(leaftab_find(t, 100, 16, &w));
	assert_int_equal(w, 4);
	leaftab_free(t);
}

/* At the bound a new key is refused (an old one may still change); a
 * forgotten process's room comes back. */
static void
test_full(void **state)
{
	struct leaftab *t = leaftab_new(8);
	uint8_t w;

	(void)state;
	for (uint64_t ip = 0; ip < 8; ip++)
		assert_true(leaftab_put(t, (uint32_t)(ip % 2), ip, 1));
	assert_false(leaftab_put(t, 5, 99, 1));
	assert_false(leaftab_find(t, 5, 99, &w));
	assert_true(leaftab_put(t, 0, 0, 2));
	assert_int_equal(leaftab_forget(t, 1, NULL, NULL), 4);
	for (uint64_t ip = 0; ip < 4; ip++)
		assert_true(leaftab_put(t, 5, 99 + ip, 1));
	assert_false(leaftab_put(t, 6, 1, 1));
	assert_int_equal(leaftab_count(t), 8);
	leaftab_free(t);
}

/* Many short-lived processes come and go beside long-lived ones: the
 * table never fills, and the long-lived leaves stay found. */
static void
test_churn(void **state)
{
	struct leaftab *t = leaftab_new(1024);
	uint8_t w;

	(void)state;
	for (uint64_t ip = 0; ip < 500; ip++)
		assert_true(leaftab_put(t, 1, 0x400000 + ip * 4, (uint8_t)(ip & 7)));
	for (uint32_t pid = 1000; pid < 101000; pid++) {
		for (uint64_t ip = 0; ip < 3; ip++)
			assert_true(leaftab_put(t, pid, 0x7f0000 + ip + pid % 13, 2));
		assert_int_equal(leaftab_forget(t, pid, NULL, NULL), 3);
	}
	assert_int_equal(leaftab_count(t), 500);
	for (uint64_t ip = 0; ip < 500; ip++) {
		assert_true(leaftab_find(t, 1, 0x400000 + ip * 4, &w));
		assert_int_equal(w, ip & 7);
	}
	leaftab_free(t);
}

/* A reference entry for the random test. */
struct ref {
	uint32_t pid;
	uint64_t ip;
	uint8_t word;
	bool live;
};

/* Random puts and forgets over few pids and ips, against a plain list. */
static void
test_random(void **state)
{
	enum { MAX = 200, PIDS = 23, IPS = 40, STEPS = 200000 };
	static struct ref ref[PIDS * IPS];
	struct leaftab *t = leaftab_new(MAX);
	size_t live = 0;
	uint64_t x = 88172645463325252ULL;
	uint8_t w;

	(void)state;
	for (int step = 0; step < STEPS; step++) {
		uint32_t pid, ipi;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		pid = (uint32_t)(x % PIDS);
		ipi = (uint32_t)(x >> 20) % IPS;
		if ((x >> 40) % 16 == 0) {
			size_t n = 0;

			for (uint32_t i = 0; i < IPS; i++)
				if (ref[pid * IPS + i].live) {
					ref[pid * IPS + i].live = false;
					n++;
				}
			assert_int_equal(leaftab_forget(t, pid * 7919, NULL, NULL), n);
			live -= n;
		} else {
			struct ref *r = &ref[pid * IPS + ipi];
			bool ok = leaftab_put(t, pid * 7919, ipi * 0x1000, (uint8_t)step);

			assert_int_equal(ok, r->live || live < MAX);
			if (ok && !r->live)
				live++;
			if (ok)
				*r = (struct ref){
				    .pid = pid, .ip = ipi, .word = (uint8_t)step, .live = true};
		}
		assert_int_equal(leaftab_count(t), live);
	}
	for (uint32_t i = 0; i < PIDS * IPS; i++) {
		bool found = leaftab_find(t, (i / IPS) * 7919, (i % IPS) * 0x1000, &w);

		assert_int_equal(found, ref[i].live);
		if (found)
			assert_int_equal(w, ref[i].word);
	}
	leaftab_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_put_find), cmocka_unit_test(test_forget),
	    cmocka_unit_test(test_full),     cmocka_unit_test(test_churn),
	    cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
