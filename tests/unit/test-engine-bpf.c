/* Unit tests for the BPF engine's pure parts: map sizing, lost counting,
 * the sample records made from counted keys (parsed back by record.c as
 * engine_sample does), the verifier log's tail, and the weighted counts
 * the aggregates go into, and the notices joined. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine-impl.h"
#include "bpf/profile.h"
#include "tracetop/bpf.h"
#include "tracetop/callgraph.h"
#include "tracetop/hist.h"
#include "tracetop/record.h"
#include "tracetop/unwind.h"

#define ST_STACKS                                                                                  \
	(ENGINE_SAMPLE_TYPE | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |                      \
	 PERF_SAMPLE_STACK_USER)

/* Maps hold a refresh of samples, a power of two, within the bounds. */
static void
test_entries(void **state)
{
	(void)state;
	assert_int_equal(engine_bpf_entries(4000, 2, 2.0, 4096, 1U << 20), 16384);
	assert_int_equal(engine_bpf_entries(4000, 2, 1.0, 4096, 1U << 20), 8192);
	assert_int_equal(engine_bpf_entries(100, 1, 0.5, 4096, 1U << 20), 4096);
	assert_int_equal(engine_bpf_entries(100000, 256, 10, 4096, 1U << 20), 1U << 20);
	/* no refresh given: 2 s; no CPUs: one */
	assert_int_equal(engine_bpf_entries(4000, 0, 0, 1024, 1U << 20), 8192);
}

/* Reads within a refresh: after a loss, half the time the map took to
 * fill; back to the refresh only after whole refreshes of light reads. */
static void
test_drain_every(void **state)
{
	const uint64_t ms = 1000000, s = 1000 * ms;
	uint64_t light = 0;

	(void)state;
	/* nothing lost, nothing changes */
	assert_int_equal(engine_bpf_drain_every(0, s, &light, s, 4096, 4096, 9000, 0), 0);
	/* a second's read counted a tenth of its samples: the map filled in
	 * 100 ms, read every 50 */
	assert_int_equal(engine_bpf_drain_every(0, s, &light, s, 4096, 4096, 1000, 9000), 50 * ms);
	/* lost again over a 100 ms read counting three quarters: 37.5 ms */
	assert_int_equal(
	    engine_bpf_drain_every(100 * ms, s, &light, 100 * ms, 4096, 4096, 3000, 1000),
	    37500000);
	/* never under the floor, even with nothing counted */
	assert_int_equal(engine_bpf_drain_every(0, s, &light, s, 4096, 4096, 0, 5000), 20 * ms);
	assert_int_equal(engine_bpf_drain_every(0, s, &light, 0, 4096, 4096, 0, 5000), 20 * ms);
	/* light reads keep the pace until they have lasted a refresh */
	for (int i = 0; i < 19; i++)
		assert_int_equal(
		    engine_bpf_drain_every(50 * ms, s, &light, 50 * ms, 1023, 4096, 1023, 0),
		    50 * ms);
	/* a read of a quarter of the map or more starts the count again */
	assert_int_equal(engine_bpf_drain_every(50 * ms, s, &light, 50 * ms, 1024, 4096, 1024, 0),
	                 50 * ms);
	assert_int_equal(light, 0);
	for (int i = 0; i < 19; i++)
		engine_bpf_drain_every(50 * ms, s, &light, 50 * ms, 10, 4096, 10, 0);
	/* the twentieth light read makes a refresh of them: twice as long */
	assert_int_equal(engine_bpf_drain_every(50 * ms, s, &light, 50 * ms, 10, 4096, 10, 0),
	                 100 * ms);
	assert_int_equal(light, 0);
	/* reaching the refresh ends the reads within it */
	light = 0;
	assert_int_equal(engine_bpf_drain_every(500 * ms, s, &light, s, 10, 4096, 10, 0), 0);
	/* a loss forgets the light reads */
	light = 900 * ms;
	engine_bpf_drain_every(50 * ms, s, &light, 50 * ms, 4096, 4096, 100, 100);
	assert_int_equal(light, 0);
}

/* Lost samples: what the per-CPU counters grew by since the last read. */
static void
test_lost_delta(void **state)
{
	uint64_t seen = 0, a[] = {3, 4}, b[] = {5, 4}, c[] = {1, 1};

	(void)state;
	assert_int_equal(engine_bpf_lost_delta(a, 2, &seen), 7);
	assert_int_equal(seen, 7);
	assert_int_equal(engine_bpf_lost_delta(a, 2, &seen), 0);
	assert_int_equal(engine_bpf_lost_delta(b, 2, &seen), 2);
	/* counters never shrink; if they seem to, nothing is invented */
	assert_int_equal(engine_bpf_lost_delta(c, 2, &seen), 0);
	assert_int_equal(seen, 2);
}

/* A key with both stacks becomes a sample whose callchain is the kernel
 * then the user stack with their markers (markers in the map's stacks are
 * dropped), its count the period, no registers or stack copy. */
static void
test_record_stacks(void **state)
{
	struct tt_prof_key k = {.pid = 10, .tid = 11, .ustack = 3, .kstack = 4};
	const uint64_t kips[] = {(uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL,
	                         0xffffffff81000020ULL};
	const uint64_t uips[] = {(uint64_t)PERF_CONTEXT_USER, 0x401000, 0x401100, 0x401200};
	uint64_t rec[ENGINE_BPF_RECORD_WORDS];
	struct perf_event_header h;
	struct record_sample s;
	size_t n;

	(void)state;
	n = engine_bpf_record(ST_STACKS, &k, 1234, 77, kips, 3, uips, 4, NULL, rec);
	memcpy(&h, rec, sizeof h);
	assert_int_equal(h.size, n * 8);
	assert_int_equal(h.type, PERF_RECORD_SAMPLE);
	assert_int_equal(
	    record_parse_sample((struct perf_event_header *)rec, ST_STACKS, UNWIND_REGS_MASK, &s),
	    0);
	assert_int_equal(s.pid, 10);
	assert_int_equal(s.tid, 11);
	assert_int_equal(s.id, 77);
	assert_int_equal(s.period, 1234);
	assert_true(s.kernel);
	assert_int_equal(s.ip, 0xffffffff81000010ULL); /* the marker is not the ip */
	assert_int_equal(s.nr, 7);
	assert_int_equal(s.ips[0], (uint64_t)PERF_CONTEXT_KERNEL);
	assert_int_equal(s.ips[1], 0xffffffff81000010ULL);
	assert_int_equal(s.ips[2], 0xffffffff81000020ULL);
	assert_int_equal(s.ips[3], (uint64_t)PERF_CONTEXT_USER);
	assert_int_equal(s.ips[4], 0x401000);
	assert_int_equal(s.ips[6], 0x401200);
	assert_int_equal(s.nr_regs, 0);
	assert_int_equal(s.stack_size, 0);
}

/* A user-only stack, and a key without stacks (by ip). */
static void
test_record_user_and_ip(void **state)
{
	struct tt_prof_key k = {.pid = 5, .tid = 6, .ustack = 1, .kstack = TT_PROF_NO_STACK};
	struct tt_prof_key ipk = {.pid = 5,
	                          .tid = 6,
	                          .ustack = TT_PROF_NO_STACK,
	                          .kstack = TT_PROF_NO_STACK,
	                          .ip = 0x400123};
	const uint64_t uips[] = {0x401000, 0x401100};
	uint64_t rec[ENGINE_BPF_RECORD_WORDS];
	struct record_sample s;

	(void)state;
	engine_bpf_record(ST_STACKS, &k, 9, 0, NULL, 0, uips, 2, NULL, rec);
	assert_int_equal(
	    record_parse_sample((struct perf_event_header *)rec, ST_STACKS, UNWIND_REGS_MASK, &s),
	    0);
	assert_false(s.kernel);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.nr, 3);
	assert_int_equal(s.ips[0], (uint64_t)PERF_CONTEXT_USER);
	assert_int_equal(s.period, 9);

	engine_bpf_record(ENGINE_SAMPLE_TYPE, &ipk, 42, 0, NULL, 0, NULL, 0, NULL, rec);
	assert_int_equal(record_parse_sample((struct perf_event_header *)rec, ENGINE_SAMPLE_TYPE,
	                                     UNWIND_REGS_MASK, &s),
	                 0);
	assert_false(s.kernel);
	assert_int_equal(s.ip, 0x400123);
	assert_int_equal(s.nr, 0);
	assert_int_equal(s.period, 42);
	ipk.ip = 0xffffffff81234567ULL;
	engine_bpf_record(ENGINE_SAMPLE_TYPE, &ipk, 1, 0, NULL, 0, NULL, 0, NULL, rec);
	record_parse_sample((struct perf_event_header *)rec, ENGINE_SAMPLE_TYPE, UNWIND_REGS_MASK,
	                    &s);
	assert_true(s.kernel);
}

/* A frameless leaf's return address rides as the leaf's registers and
 * the top of its stack, as a ring sample's would, for engine_chain's
 * leaf step. */
static void
test_record_leaf(void **state)
{
	struct tt_prof_key k = {.pid = 5, .tid = 6, .ustack = 1, .kstack = TT_PROF_NO_STACK};
	const uint64_t uips[] = {0x401000, 0x402000};
	struct engine_bpf_leaf leaf = {.ip = 0x401000, .ret = 0x403333, .word = 2};
	uint64_t rec[ENGINE_BPF_RECORD_WORDS], w;
	struct record_sample s;
	size_t ip_at = (size_t)__builtin_popcountll(UNWIND_REGS_MASK & ((1ULL << 8) - 1));

	(void)state;
	engine_bpf_record(ST_STACKS, &k, 3, 0, NULL, 0, uips, 2, &leaf, rec);
	assert_int_equal(
	    record_parse_sample((struct perf_event_header *)rec, ST_STACKS, UNWIND_REGS_MASK, &s),
	    0);
	assert_int_equal(s.user_abi, PERF_SAMPLE_REGS_ABI_64);
	assert_int_equal(s.nr_regs, __builtin_popcountll(UNWIND_REGS_MASK));
	assert_int_equal(s.user_regs[ip_at], 0x401000);
	assert_int_equal(s.stack_size, 24);
	memcpy(&w, (const unsigned char *)s.stack + 16, sizeof w);
	assert_int_equal(w, 0x403333);
	assert_int_equal(s.period, 3);
	assert_int_equal(s.nr, 3);
}

/* The reason shown for a refused load: the verifier log's last lines. */
static void
test_log_tail(void **state)
{
	char buf[128];

	(void)state;
	tt_bpf_log_tail("0: (b7) r1 = 0\n1: (79) r2 = *(u64 *)(r1 +0)\nR1 invalid mem access "
	                "'scalar'\n\nprocessed 2 insns\n\n",
	                2, buf, sizeof buf);
	/* the statistics line is left out */
	assert_string_equal(buf, "1: (79) r2 = *(u64 *)(r1 +0); R1 invalid mem access 'scalar'");
	tt_bpf_log_tail("", 3, buf, sizeof buf);
	assert_string_equal(buf, "");
	tt_bpf_log_tail("only line", 3, buf, sizeof buf);
	assert_string_equal(buf, "only line");
	tt_bpf_log_tail("aaaa\nbbbb\n", 2, buf, 7);
	assert_string_equal(buf, "aaaa");
}

/* An aggregate of w samples counts as w samples, self, children and path. */
static void
test_weighted(void **state)
{
	static struct sym f = {.name = "f"}, g = {.name = "g"};
	struct hist *h = hist_new(0.5);
	struct callgraph *cg = cg_new(0.5, 0);
	struct hist_key k = {.pid = 1, .tid = 1, .comm = "c", .sym = &f};
	struct cg_frame fr[2] = {{.sym = &f}, {.sym = &g}};
	const struct hist_entry *en;

	(void)state;
	hist_add_n(h, &k, 5);
	hist_add(h, &k);
	hist_add_children_n(h, &k, 7);
	en = hist_find(h, &k);
	assert_non_null(en);
	assert_int_equal(en->interval, 6);
	assert_int_equal(en->total, 6);
	assert_int_equal(en->children_interval, 7);
	cg_add_n(cg, "c", fr, 2, 40);
	cg_add(cg, "c", fr, 2);
	cg_tick(cg, true);
	assert_true(cg_total(cg) == 41.0);
	hist_free(h);
	cg_free(cg);
}

/* Every notice reaches the one the header and batch print: the event's
 * fallback does not hide BPF's refusal (nor the leaves left untold). */
static void
test_notices(void **state)
{
	struct engine *e = calloc(1, sizeof *e);

	(void)state;
	assert_non_null(e);
	engine_compose_notice(e);
	assert_null(engine_notice(e));
	snprintf(e->bpf_notice, sizeof e->bpf_notice, "BPF engine not used: no");
	engine_compose_notice(e);
	assert_string_equal(engine_notice(e), "BPF engine not used: no");
	snprintf(e->el.notice, sizeof e->el.notice, "no hardware PMU for cycles: cpu-clock");
	engine_compose_notice(e);
	assert_string_equal(engine_notice(e),
	                    "no hardware PMU for cycles: cpu-clock; BPF engine not used: no");
	snprintf(e->bpf_unjudged, sizeof e->bpf_unjudged, "leaves: 3");
	e->bpf_notice[0] = '\0';
	engine_compose_notice(e);
	assert_string_equal(engine_notice(e), "no hardware PMU for cycles: cpu-clock; leaves: 3");
	free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_entries),       cmocka_unit_test(test_lost_delta),
	    cmocka_unit_test(test_record_stacks), cmocka_unit_test(test_record_user_and_ip),
	    cmocka_unit_test(test_record_leaf),   cmocka_unit_test(test_log_tail),
	    cmocka_unit_test(test_weighted),      cmocka_unit_test(test_notices),
	    cmocka_unit_test(test_drain_every),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
