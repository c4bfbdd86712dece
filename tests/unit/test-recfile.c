/* Unit tests for recordings: the field encodings, a profile recorded over
 * two intervals and replayed (the same rows, shares and call graph, one
 * stand-in object per function across chunks), and the file framing (a
 * file cut at every byte reads its whole chunks and says where it was
 * cut; a newer version and a non-recording are refused). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/callgraph.h"
#include "tracetop/recfile.h"
#include "tracetop/recframe.h"
#include "tracetop/util.h"

static struct dso dso_app = {.name = "/nonexistent/app", .kind = DSO_ELF};
static struct dso dso_kern = {.name = "[kernel.kallsyms]", .kind = DSO_KERNEL};
static struct sym sym_main = {.name = "main", .start = 0x1000, .size = 0x10};
static struct sym sym_alpha = {.name = "alpha", .start = 0x1100, .size = 0x10};
static struct sym sym_beta = {.name = "beta", .start = 0x1200, .size = 0x10};
static struct sym sym_sched = {.name = "schedule", .start = 0xffff0000, .size = 0x40};

static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};

/* Every field type back as written; a read past the end sets bad. */
static void
test_fields(void **state)
{
	struct pb b = {0};
	struct rec_cursor c;
	char *s;

	(void)state;
	rec_put_u(&b, 300);
	rec_put_i(&b, -5);
	rec_put_f64(&b, 0.875);
	rec_put_str(&b, "split_alpha");
	rec_put_u(&b, UINT64_MAX);
	c = (struct rec_cursor){.p = b.buf, .n = b.len};
	assert_int_equal(rec_get_u(&c), 300);
	assert_int_equal(rec_get_i(&c), -5);
	assert_true(rec_get_f64(&c) == 0.875);
	s = rec_get_str(&c);
	assert_string_equal(s, "split_alpha");
	free(s);
	assert_true(rec_get_u(&c) == UINT64_MAX);
	assert_false(c.bad);
	assert_int_equal(rec_get_u(&c), 0);
	assert_true(c.bad);
	/* a count the bytes left cannot hold */
	pb_reset(&b);
	rec_put_u(&b, 1000);
	c = (struct rec_cursor){.p = b.buf, .n = b.len};
	assert_int_equal(rec_get_count(&c, 1), 0);
	assert_true(c.bad);
	pb_free(&b);
}

/* One interval of the live side: samples into h and cg, ticked. */
static void
live_interval(struct hist *h, struct callgraph *cg, uint64_t alpha, uint64_t beta, uint64_t sched)
{
	const char *comm = str_intern("app");
	struct hist_key ka = {.pid = 7, .comm = comm, .dso = &dso_app, .sym = &sym_alpha};
	struct hist_key kb = {.pid = 7, .comm = comm, .dso = &dso_app, .sym = &sym_beta};
	struct hist_key km = {.pid = 7, .comm = comm, .dso = &dso_app, .sym = &sym_main};
	struct hist_key ks = {
	    .pid = 7, .comm = comm, .dso = &dso_kern, .sym = &sym_sched, .kernel = true};
	struct cg_frame fa[] = {{.dso = &dso_app, .sym = &sym_alpha},
	                        {.dso = &dso_app, .sym = &sym_main}};
	struct cg_frame fb[] = {{.dso = &dso_app, .sym = &sym_beta},
	                        {.dso = &dso_app, .sym = &sym_main}};
	struct cg_frame fs[] = {{.dso = &dso_kern, .sym = &sym_sched, .kernel = true},
	                        {.dso = &dso_app, .sym = &sym_alpha},
	                        {.dso = &dso_app, .sym = &sym_main}};

	hist_add_n(h, &ka, alpha);
	hist_add_n(h, &kb, beta);
	hist_add_n(h, &ks, sched);
	hist_add_children_n(h, &km, alpha + beta + sched);
	hist_add_children_n(h, &ka, alpha + sched);
	cg_add_n(cg, comm, fa, 2, alpha);
	cg_add_n(cg, comm, fb, 2, beta);
	cg_add_n(cg, comm, fs, 3, sched);
	hist_tick(h, false);
	cg_tick(cg, false);
}

/* The live frame of h and cg. */
static void
live_frame(struct frame *f, struct hist *h, struct callgraph *cg, uint64_t seq)
{
	struct frame_event *ev;

	if (f->sampling.cap == 0) {
		f->sampling.events = calloc(1, sizeof *f->sampling.events);
		f->sampling.cap = 1;
	}
	ev = &f->sampling.events[0];
	f->seq = seq;
	f->wall = 1700000000.0 + (double)seq;
	f->secs = 1.0;
	f->has_sampling = true;
	f->sampling.nevents = 1;
	f->sampling.rows = true;
	f->sampling.target = "command app";
	ev->name = "cpu-clock";
	ev->samples = seq * 100;
	hist_snapshot(h, by_overhead, NULL, NULL, &ev->rows);
	cg_snapshot(cg, &ev->cg);
}

/* The profile part of a frame freed. */
static void
frame_drop(struct frame *f)
{
	for (size_t i = 0; i < f->sampling.cap; i++) {
		hist_snapshot_free(&f->sampling.events[i].rows);
		cg_free(f->sampling.events[i].cg);
	}
	free(f->sampling.events);
	memset(f, 0, sizeof *f);
}

/* Two intervals recorded and replayed: each replayed frame has the live
 * frame's rows (names, samples, shares) and call graph total. */
static void
test_frame_round_trip(void **state)
{
	struct hist *h = hist_new(0.875);
	struct callgraph *cg = cg_new(0.875, 0.05);
	struct recframe_enc *enc = recframe_enc_new();
	struct recframe_dec *dec = recframe_dec_new(0.875, 0.05);
	struct frame live = {0}, rep = {0}, taken = {0};
	struct pb chunk = {0};
	struct tt_err err;
	const struct sym *alpha_first = NULL;

	(void)state;
	for (uint64_t seq = 1; seq <= 2; seq++) {
		live_interval(h, cg, 50 * seq, 30, 5);
		live_frame(&live, h, cg, seq);
		recframe_encode(enc, &live, true, &chunk);
		assert_int_equal(recframe_decode(dec, chunk.buf, chunk.len, &taken, &err), 0);
		recframe_tick(dec, false);
		rep.sampling.events = calloc(1, sizeof *rep.sampling.events);
		rep.sampling.cap = rep.sampling.nevents = 1;
		recframe_snapshot(dec, &rep, by_overhead, 0);
		assert_true(taken.wall == live.wall);
		assert_int_equal(taken.sampling.events[0].samples, seq * 100);
		assert_string_equal(taken.sampling.target, "command app");

		const struct hist_snapshot *a = &live.sampling.events[0].rows;
		const struct hist_snapshot *b = &rep.sampling.events[0].rows;

		assert_int_equal(a->n, b->n);
		for (size_t i = 0; i < a->n; i++) {
			assert_string_equal(a->rows[i].sym_name, b->rows[i].sym_name);
			assert_int_equal(a->rows[i].samples, b->rows[i].samples);
			assert_true(a->rows[i].overhead - b->rows[i].overhead < 1e-9 &&
			            b->rows[i].overhead - a->rows[i].overhead < 1e-9);
			assert_string_equal(b->rows[i].copy.key.dso->name,
			                    a->rows[i].copy.key.dso->name);
			if (strcmp(b->rows[i].sym_name, "alpha") == 0) {
				/* one stand-in per function, chunk after chunk */
				if (alpha_first == NULL)
					alpha_first = b->rows[i].copy.key.sym;
				assert_ptr_equal(alpha_first, b->rows[i].copy.key.sym);
				assert_true(b->rows[i].copy.key.dso->standin);
			}
		}
		assert_non_null(rep.sampling.events[0].cg);
		assert_true(cg_total(live.sampling.events[0].cg) -
		                cg_total(rep.sampling.events[0].cg) <
		            1e-9);
		assert_int_equal(cg_count(live.sampling.events[0].cg),
		                 cg_count(rep.sampling.events[0].cg));
		frame_drop(&rep);
	}
	assert_non_null(alpha_first);
	pb_free(&chunk);
	frame_drop(&live);
	frame_drop(&taken);
	recframe_enc_free(enc);
	recframe_dec_free(dec);
	hist_free(h);
	cg_free(cg);
	dso_cache_free();
}

/* A file of three chunks: whole, cut at every byte, of a newer version,
 * not a recording. */
static void
test_file(void **state)
{
	char path[] = "/tmp/tt-recfile-XXXXXX";
	char *events[] = {"cpu-clock"};
	struct recfile_header h = {.writer = "test",
	                           .delay = 1,
	                           .freq = 4000,
	                           .decay = 0.875,
	                           .events = events,
	                           .nevents = 1};
	struct recfile_writer *w;
	struct recfile_reader r;
	struct tt_err err;
	uint8_t *data, *raw, *copy;
	size_t len, rawlen, cut, whole = 0;
	size_t ends[3];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	w = recfile_create(path, &h, &err);
	assert_non_null(w);
	for (int i = 0; i < 3; i++) {
		char text[64];

		snprintf(text, sizeof text, "interval %d", i);
		assert_int_equal(recfile_write(w, text, strlen(text) + 1, &err), 0);
		ends[i] = (size_t)recfile_size(w);
	}
	assert_int_equal(recfile_close(w, &err), 0);
	assert_int_equal(recfile_load(path, &data, &len, &err), 0);
	unlink(path);
	assert_int_equal(len, ends[2]);
	assert_int_equal(recfile_open_mem(&r, data, len, &err), 0);
	assert_string_equal(r.h.events[0], "cpu-clock");
	assert_true(r.h.decay == 0.875 && r.h.freq == 4000);
	for (int i = 0; i < 3; i++) {
		char want[64];

		assert_int_equal(recfile_next(&r, &raw, &rawlen), 1);
		snprintf(want, sizeof want, "interval %d", i);
		assert_string_equal((char *)raw, want);
		free(raw);
	}
	assert_int_equal(recfile_next(&r, &raw, &rawlen), 0);
	assert_string_equal(r.stop, "");
	recfile_reader_free(&r);
	/* cut anywhere after the header: the whole chunks before the cut */
	for (cut = ends[0] - 1; cut < len; cut++) {
		size_t n = 0;

		while (whole < 3 && ends[whole] <= cut)
			whole++;
		assert_int_equal(recfile_open_mem(&r, data, cut, &err), 0);
		while (recfile_next(&r, &raw, &rawlen) == 1) {
			free(raw);
			n++;
		}
		assert_int_equal(n, whole);
		assert_true((whole > 0 && cut == ends[whole - 1]) || strstr(r.stop, "cut") != NULL);
		recfile_reader_free(&r);
	}
	/* a newer format, then not a recording at all */
	copy = malloc(len);
	memcpy(copy, data, len);
	copy[RECFILE_MAGIC_LEN] = RECFILE_VERSION + 1;
	assert_int_equal(recfile_open_mem(&r, copy, len, &err), -1);
	assert_non_null(strstr(err.msg, "newer tracetop"));
	memcpy(copy, "#!/bin/sh\n", 10);
	assert_int_equal(recfile_open_mem(&r, copy, len, &err), -1);
	assert_non_null(strstr(err.msg, "not a tracetop recording"));
	free(copy);
	free(data);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fields),
	    cmocka_unit_test(test_frame_round_trip),
	    cmocka_unit_test(test_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
