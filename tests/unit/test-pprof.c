/* Unit tests for the pprof export: the protobuf writer's encodings (the
 * examples of the protobuf documentation), gzip round trips, and a profile
 * of a known call graph read back (a minimal reader here; the independent
 * decoder runs in tests/e2e/pprof.sh, which has this test write the
 * profile and the folded stacks of the same graph into $TT_PPROF_OUT). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracetop/gz.h"
#include "tracetop/pb.h"
#include "tracetop/report-pprof.h"
#include "tracetop/util.h"

static struct dso dso_app = {.name = "/usr/bin/app", .kind = DSO_ELF};
static struct dso dso_kern = {.name = "[kernel.kallsyms]", .kind = DSO_KERNEL};
static struct sym sym_main = {.name = "main", .start = 0x1000};
static struct sym sym_alpha = {.name = "alpha", .start = 0x1100};
static struct sym sym_beta = {.name = "beta", .start = 0x1200};
static struct sym sym_semi = {.name = "ns;fn", .start = 0x1300};
static struct sym sym_sched = {.name = "schedule", .start = 0xffff0000};

/* b holds exactly the n bytes of want. */
static void
assert_bytes(const struct pb *b, const uint8_t *want, size_t n)
{
	assert_int_equal(b->len, n);
	assert_memory_equal(b->buf, want, n);
}

/* Varints, a varint field, a string and a packed list as the protobuf
 * encoding guide spells them; a negative int64 takes ten bytes. */
static void
test_pb_encoding(void **state)
{
	struct pb b = {0}, m = {0};
	static const uint8_t v300[] = {0xac, 0x02};
	static const uint8_t f150[] = {0x08, 0x96, 0x01};
	static const uint8_t str[] = {0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'};
	static const uint8_t packed[] = {0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05};
	static const uint8_t nested[] = {0x1a, 0x03, 0x08, 0x96, 0x01};
	static const uint8_t neg[] = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
	                              0xff, 0xff, 0xff, 0xff, 0x01};
	const uint64_t list[] = {3, 270, 86942};

	(void)state;
	pb_varint(&b, 300);
	assert_bytes(&b, v300, sizeof v300);
	pb_reset(&b);
	pb_uint(&b, 1, 150);
	assert_bytes(&b, f150, sizeof f150);
	pb_reset(&b);
	pb_string(&b, 2, "testing");
	assert_bytes(&b, str, sizeof str);
	pb_reset(&b);
	pb_packed(&b, 4, list, 3);
	assert_bytes(&b, packed, sizeof packed);
	pb_reset(&b);
	pb_packed(&b, 4, list, 0); /* empty: nothing */
	assert_int_equal(b.len, 0);
	pb_uint(&m, 1, 150);
	pb_message(&b, 3, &m);
	assert_bytes(&b, nested, sizeof nested);
	pb_reset(&b);
	pb_int(&b, 1, -1);
	assert_bytes(&b, neg, sizeof neg);
	pb_free(&b);
	pb_free(&m);
}

/* gzip out and back, with the gzip magic; a cut stream is refused. */
static void
test_gz_round_trip(void **state)
{
	char in[10000];
	uint8_t *z, *back;
	size_t zlen, blen;
	struct tt_err err;

	(void)state;
	for (size_t i = 0; i < sizeof in; i++)
		in[i] = (char)('a' + i % 7);
	assert_int_equal(gz_compress(in, sizeof in, &z, &zlen, &err), 0);
	assert_true(zlen > 18 && zlen < sizeof in / 4);
	assert_int_equal(z[0], 0x1f);
	assert_int_equal(z[1], 0x8b);
	assert_int_equal(gz_decompress(z, zlen, 1 << 20, &back, &blen, &err), 0);
	assert_int_equal(blen, sizeof in);
	assert_memory_equal(back, in, sizeof in);
	free(back);
	assert_int_equal(gz_decompress(z, zlen / 2, 1 << 20, &back, &blen, &err), -1);
	assert_int_equal(gz_decompress(z, zlen, 100, &back, &blen, &err), -1);
	free(z);
}

/* A varint at *p (below end), moving *p past it. */
static uint64_t
rd_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;

	for (int shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t c = *(*p)++;

		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	fail_msg("truncated varint");
	return 0;
}

/* What the minimal reader gathers from a profile. */
struct readback {
	uint64_t samples, total, cpu_ns, period, nstrings, nfunctions, nlocations, nmappings;
	bool has_cpu_ns_type;
};

/* Read the top-level fields of a profile and the values of its samples. */
static void
read_profile(const uint8_t *p, size_t len, struct readback *rb)
{
	const uint8_t *end = p + len;

	memset(rb, 0, sizeof *rb);
	while (p < end) {
		uint64_t tag = rd_varint(&p, end), field = tag >> 3, n;
		const uint8_t *q, *qend;

		if ((tag & 7) == 0) {
			n = rd_varint(&p, end);
			if (field == 12)
				rb->period = n;
			continue;
		}
		assert_int_equal(tag & 7, 2);
		n = rd_varint(&p, end);
		assert_true(n <= (uint64_t)(end - p));
		q = p;
		qend = p + n;
		p += n;
		rb->nstrings += field == 6;
		rb->nfunctions += field == 5;
		rb->nlocations += field == 4;
		rb->nmappings += field == 3;
		if (field == 6 && n == 11 && memcmp(q, "nanoseconds", 11) == 0)
			rb->has_cpu_ns_type = true;
		if (field != 2)
			continue;
		rb->samples++;
		while (q < qend) {
			uint64_t t = rd_varint(&q, qend), m = rd_varint(&q, qend);

			if (t == (2 << 3 | 2)) { /* values, packed */
				const uint8_t *v = q;

				rb->total += rd_varint(&v, q + m);
				rb->cpu_ns += rd_varint(&v, q + m);
			}
			if ((t & 7) == 2)
				q += m;
		}
	}
}

/* The known graph: app main->alpha x50, main->beta x30, main->"ns;fn" x15,
 * main->alpha->schedule (kernel) x5, and an unresolved leaf x7. */
static struct callgraph *
known_graph(void)
{
	struct callgraph *cg = cg_new(0.5, 0.0);
	const char *app = str_intern("app");
	struct cg_frame a[2] = {{.dso = &dso_app, .sym = &sym_alpha},
	                        {.dso = &dso_app, .sym = &sym_main}};
	struct cg_frame b[2] = {{.dso = &dso_app, .sym = &sym_beta},
	                        {.dso = &dso_app, .sym = &sym_main}};
	struct cg_frame c[2] = {{.dso = &dso_app, .sym = &sym_semi},
	                        {.dso = &dso_app, .sym = &sym_main}};
	struct cg_frame k[3] = {{.dso = &dso_kern, .sym = &sym_sched, .kernel = true},
	                        {.dso = &dso_app, .sym = &sym_alpha},
	                        {.dso = &dso_app, .sym = &sym_main}};
	struct cg_frame u[2] = {{.dso = &dso_app, .addr = 0x4242},
	                        {.dso = &dso_app, .sym = &sym_main}};

	cg_add_n(cg, app, a, 2, 50);
	cg_add_n(cg, app, b, 2, 30);
	cg_add_n(cg, app, c, 2, 15);
	cg_add_n(cg, app, k, 3, 5);
	cg_add_n(cg, app, u, 2, 7);
	cg_tick(cg, true);
	return cg;
}

/* The known graph's profile: one sample per stack, the counts, CPU time
 * at the period, the sample types and every table there. */
static void
test_profile_of_graph(void **state)
{
	struct callgraph *cg = known_graph();
	struct pprof_info pi = {
	    .event = "cpu-clock", .period_ns = 250000, .duration_ns = 1000000000};
	uint8_t *gz, *raw;
	size_t gzlen, rawlen;
	struct readback rb;
	struct tt_err err;
	const char *dir = getenv("TT_PPROF_OUT");

	(void)state;
	report_pprof_build(&pi, cg, NULL, &gz, &gzlen);
	assert_int_equal(gz_decompress(gz, gzlen, 1 << 24, &raw, &rawlen, &err), 0);
	read_profile(raw, rawlen, &rb);
	assert_int_equal(rb.samples, 5);
	assert_int_equal(rb.total, 107);
	assert_int_equal(rb.cpu_ns, 107 * 250000ULL);
	assert_int_equal(rb.period, 250000);
	assert_true(rb.has_cpu_ns_type);
	assert_int_equal(rb.nfunctions, 6); /* main alpha beta ns;fn schedule [unknown] */
	assert_int_equal(rb.nlocations, 6);
	assert_int_equal(rb.nmappings, 2);
	if (dir != NULL) {
		/* for tests/e2e/pprof.sh: the same graph as pprof and as folded stacks */
		char path[4096];
		FILE *f;

		snprintf(path, sizeof path, "%s/graph.pb.gz", dir);
		assert_non_null(f = fopen(path, "w"));
		assert_int_equal(fwrite(gz, 1, gzlen, f), gzlen);
		fclose(f);
		snprintf(path, sizeof path, "%s/graph.folded", dir);
		assert_non_null(f = fopen(path, "w"));
		cg_print_folded(cg, f);
		fclose(f);
	}
	free(raw);
	free(gz);
	cg_free(cg);
}

/* Without stacks: one sample per row with its function, counts kept. */
static void
test_profile_of_rows(void **state)
{
	static const enum hist_sort keys[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	struct hist *h = hist_new(0.5);
	struct hist_key ka = {
	    .pid = 3, .comm = str_intern("app"), .dso = &dso_app, .sym = &sym_alpha};
	struct hist_key kb = ka;
	struct hist_snapshot snap = {0};
	struct pprof_info pi = {.period_ns = 1000};
	uint8_t *gz, *raw;
	size_t gzlen, rawlen;
	struct readback rb;
	struct tt_err err;

	(void)state;
	kb.sym = &sym_beta;
	hist_add_n(h, &ka, 60);
	hist_add_n(h, &kb, 40);
	hist_tick(h, true);
	hist_snapshot(h, keys, NULL, NULL, &snap);
	report_pprof_build(&pi, NULL, &snap, &gz, &gzlen);
	assert_int_equal(gz_decompress(gz, gzlen, 1 << 24, &raw, &rawlen, &err), 0);
	read_profile(raw, rawlen, &rb);
	assert_int_equal(rb.samples, 2);
	assert_int_equal(rb.total, 100);
	assert_int_equal(rb.cpu_ns, 100000);
	assert_int_equal(rb.nfunctions, 2);
	free(raw);
	free(gz);
	hist_snapshot_free(&snap);
	hist_free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pb_encoding),
	    cmocka_unit_test(test_gz_round_trip),
	    cmocka_unit_test(test_profile_of_graph),
	    cmocka_unit_test(test_profile_of_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
