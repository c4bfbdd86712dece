/* Unit tests for history: exact per-interval counts of rows and stacks
 * under decay and folding, stepping to an interval and adding up a range,
 * the spike, a row's samples per interval as the rows are grouped (the
 * timeline's strip of its share; a counts-only interval marked),
 * eviction by the window and by bytes, and compaction of the shared keys
 * and stacks keeping memory bounded. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracetop/frame.h"
#include "tracetop/history.h"
#include "tracetop/util.h"

static struct dso dso_app = {.name = "/usr/bin/app"};
static struct sym sym_main = {.name = "main"};
static struct sym sym_one = {.name = "one"};
static struct sym sym_two = {.name = "two"};
static struct sym sym_rare = {.name = "rare"};

/* A live hist and call graph, as the engine has them. */
struct live {
	struct hist *hist;
	struct callgraph *cg;
	uint64_t samples; /* this interval */
	uint64_t seq;
};

/* Count n samples of main -> leaf in pid 7 of "app". */
static void
live_add(struct live *l, const struct sym *leaf, unsigned n)
{
	struct hist_key k = {.pid = 7, .comm = str_intern("app"), .dso = &dso_app, .sym = leaf};
	struct hist_key km = k;
	struct cg_frame st[2] = {{.dso = &dso_app, .sym = leaf},
	                         {.dso = &dso_app, .sym = &sym_main}};

	km.sym = &sym_main;
	for (unsigned i = 0; i < n; i++) {
		hist_add(l->hist, &k);
		hist_add_children(l->hist, &k);
		hist_add_children(l->hist, &km);
		cg_add(l->cg, str_intern("app"), st, 2);
	}
	l->samples += n;
}

/* End the interval as the session does (tick, snapshot) into h; rows:
 * the frame has its rows (false: a frozen screen's, counts only). */
static void
live_refresh_rows(struct live *l, struct history *h, double secs, bool rows)
{
	static const enum hist_sort keys[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	struct frame_event ev = {.name = "cpu-clock", .samples = l->samples};
	struct frame f = {.seq = ++l->seq, .wall = 1000.0 + (double)l->seq, .secs = secs};

	hist_tick(l->hist, false);
	cg_tick(l->cg, false);
	hist_snapshot(l->hist, keys, NULL, NULL, &ev.rows);
	cg_snapshot(l->cg, &ev.cg);
	f.has_sampling = true;
	f.sampling.events = &ev;
	f.sampling.nevents = 1;
	f.sampling.stats.interval_secs = secs;
	history_add(h, &f, rows);
	hist_snapshot_free(&ev.rows);
	cg_free(ev.cg);
	l->samples = 0;
}

/* The same with its rows. */
static void
live_refresh(struct live *l, struct history *h, double secs)
{
	live_refresh_rows(l, h, secs, true);
}

/* The summed samples of leaf's row, or 0. */
static uint64_t
row_samples(const struct history_sum *s, const struct sym *leaf, uint64_t *children)
{
	struct hist_key k = {.pid = 7, .comm = str_intern("app"), .dso = &dso_app, .sym = leaf};
	const struct hist_entry *e = hist_find(s->hist, &k);

	if (children != NULL)
		*children = e != NULL ? (uint64_t)(e->children + 0.5) : 0;
	return e != NULL ? e->total : 0;
}

/* The summed self samples of the stack main -> leaf, or 0. */
static uint64_t
stack_samples(const struct history_sum *s, const struct sym *leaf)
{
	for (uint32_t r = cg_first_root(s->cg); r != 0; r = cg_node(s->cg, r)->next_sibling)
		for (uint32_t m = cg_node(s->cg, r)->first_child; m != 0;
		     m = cg_node(s->cg, m)->next_sibling)
			for (uint32_t c = cg_node(s->cg, m)->first_child; c != 0;
			     c = cg_node(s->cg, c)->next_sibling)
				if (cg_node(s->cg, c)->frame.sym == leaf)
					return (uint64_t)(cg_node(s->cg, c)->self + 0.5);
	return 0;
}

/* Three intervals of "one", three of "two" (decaying live counts): each
 * interval holds its own exact counts, a range their sums. */
static void
test_phases(void **state)
{
	struct live l = {.hist = hist_new(0.5), .cg = cg_new(0.5, 1.0)};
	struct history *h = history_new(600, HISTORY_MAX_BYTES);
	struct history_sum s;
	uint64_t ch;

	(void)state;
	for (int i = 0; i < 6; i++) {
		live_add(&l, i < 3 ? &sym_one : &sym_two, 100 + 10 * (unsigned)i);
		live_refresh(&l, h, 1.0);
	}
	assert_int_equal(history_len(h), 6);
	history_sum(h, 1, 1, 0, &s);
	assert_int_equal(row_samples(&s, &sym_one, &ch), 110);
	assert_int_equal(ch, 110);
	assert_int_equal(row_samples(&s, &sym_two, NULL), 0);
	assert_int_equal(stack_samples(&s, &sym_one), 110);
	assert_int_equal(row_samples(&s, &sym_main, &ch), 0);
	assert_int_equal(ch, 110); /* a pure caller keeps its children */
	assert_int_equal(s.samples, 110);
	history_sum_free(&s);
	history_sum(h, 4, 4, 0, &s);
	assert_int_equal(row_samples(&s, &sym_two, NULL), 140);
	assert_int_equal(row_samples(&s, &sym_one, NULL), 0);
	assert_int_equal(stack_samples(&s, &sym_two), 140);
	history_sum_free(&s);
	/* a range over both phases: both, in proportion */
	history_sum(h, 0, 5, 0, &s);
	assert_int_equal(row_samples(&s, &sym_one, NULL), 330);
	assert_int_equal(row_samples(&s, &sym_two, NULL), 420);
	assert_int_equal(stack_samples(&s, &sym_one), 330);
	assert_int_equal(stack_samples(&s, &sym_two), 420);
	assert_true(s.secs > 5.99 && s.secs < 6.01);
	history_sum_free(&s);
	assert_int_equal(history_spike(h), 5);
	assert_int_equal(history_find(h, 3), 2);
	assert_int_equal(history_find(h, 99), -1);
	hist_free(l.hist);
	cg_free(l.cg);
	history_free(h);
}

/* A row's samples per interval: "two" under the default grouping in
 * intervals of one, of both (30/70) and of two, one of them counts only
 * (a frozen screen's: no row, marked); by command the row is every
 * sample; a process that has none, none; a stretch of the intervals the
 * same as the whole's. */
static void
test_row_counts(void **state)
{
	struct live l = {.hist = hist_new(0.5), .cg = cg_new(0.5, 1.0)};
	struct history *h = history_new(600, HISTORY_MAX_BYTES);
	struct hist_key two = {
	    .pid = 7, .comm = str_intern("app"), .dso = &dso_app, .sym = &sym_two};
	struct hist_key other = two;
	struct history_row_count c[6], part[2];
	const uint64_t samples[6] = {100, 100, 100, 100, 80, 90}, row[6] = {0, 70, 0, 0, 80, 90};
	const bool rows[6] = {true, true, true, false, true, true};

	(void)state;
	live_add(&l, &sym_one, 100);
	live_refresh(&l, h, 1.0);
	live_add(&l, &sym_one, 30);
	live_add(&l, &sym_two, 70);
	live_refresh(&l, h, 1.0);
	live_add(&l, &sym_one, 100);
	live_refresh(&l, h, 1.0);
	live_add(&l, &sym_two, 100);
	live_refresh_rows(&l, h, 1.0, false); /* frozen */
	live_add(&l, &sym_two, 80);
	live_refresh(&l, h, 1.0);
	live_add(&l, &sym_two, 90);
	live_refresh(&l, h, 1.0);
	history_row_counts(h, 0, &two, HIST_GROUP_DEFAULT, 0, 5, c);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(c[i].seq, (uint64_t)i + 1);
		assert_int_equal(c[i].samples, samples[i]);
		assert_int_equal(c[i].row, row[i]);
		assert_int_equal(c[i].rows, rows[i]);
	}
	history_row_counts(h, 0, &two, HIST_GROUP_COMM, 0, 5, c);
	for (int i = 0; i < 6; i++)
		assert_int_equal(c[i].row, rows[i] ? samples[i] : 0);
	other.pid = 8;
	history_row_counts(h, 0, &other, HIST_GROUP_PID | HIST_GROUP_SYM, 0, 5, c);
	for (int i = 0; i < 6; i++)
		assert_int_equal(c[i].row, 0);
	history_row_counts(h, 0, &other, HIST_GROUP_SYM, 0, 5, c); /* any process's two */
	assert_int_equal(c[1].row, 70);
	history_row_counts(h, 0, &two, HIST_GROUP_DEFAULT, 4, 5, part);
	assert_int_equal(part[0].seq, 5);
	assert_int_equal(part[0].row, 80);
	assert_int_equal(part[1].row, 90);
	history_row_counts(h, 3, &two, HIST_GROUP_DEFAULT, 0, 0, c); /* no such event */
	assert_int_equal(c[0].samples, 0);
	assert_int_equal(c[0].row, 0);
	hist_free(l.hist);
	cg_free(l.cg);
	history_free(h);
}

/* A branch the live graph folds into [other] at the tick keeps its
 * samples in the history, as [other]. */
static void
test_folded_branch(void **state)
{
	struct live l = {.hist = hist_new(0.5), .cg = cg_new(0.5, 5.0)};
	struct history *h = history_new(600, HISTORY_MAX_BYTES);
	struct history_sum s;
	uint64_t self = 0;

	(void)state;
	live_add(&l, &sym_one, 1000);
	live_add(&l, &sym_rare, 3); /* under 5 %: folded */
	live_refresh(&l, h, 1.0);
	history_sum(h, 0, 0, 0, &s);
	for (uint32_t i = 1; i < cg_capacity(s.cg); i++)
		if (cg_node(s.cg, i) != NULL)
			self += (uint64_t)(cg_node(s.cg, i)->self + 0.5);
	assert_int_equal(self, 1003);
	assert_int_equal(row_samples(&s, &sym_rare, NULL), 3);
	history_sum_free(&s);
	hist_free(l.hist);
	cg_free(l.cg);
	history_free(h);
}

/* The window: intervals older than keep seconds go; counts-only
 * intervals (a frozen screen's) are kept without rows. */
static void
test_window(void **state)
{
	struct live l = {.hist = hist_new(0.5), .cg = cg_new(0.5, 1.0)};
	struct history *h = history_new(5, HISTORY_MAX_BYTES);

	(void)state;
	for (int i = 0; i < 20; i++) {
		live_add(&l, &sym_one, 10);
		live_refresh(&l, h, 1.0);
	}
	assert_int_equal(history_len(h), 5);
	assert_int_equal(history_dropped(h), 0);
	assert_int_equal(history_info(h, 0)->seq, 16);
	assert_int_equal(history_info(h, 4)->seq, 20);
	assert_true(history_info(h, 4)->rows);
	assert_true(history_info(h, 4)->bytes > 0);
	hist_free(l.hist);
	cg_free(l.cg);
	history_free(h);
}

/* Every interval with keys and stacks never seen before: compaction keeps
 * the shared tables near what the live intervals use, and the byte limit
 * evicts the oldest. */
static void
test_memory_bound(void **state)
{
	enum { PER = 300, ROUNDS = 200 };
	struct sym *syms = calloc((size_t)PER * ROUNDS, sizeof *syms);
	struct history *h = history_new(10, HISTORY_MAX_BYTES), *small;
	struct live l = {.hist = hist_new(0.0), .cg = cg_new(0.0, 0.0)};
	size_t bytes_early = 0, bytes_max = 0;

	(void)state;
	small = history_new(1e6, 256 << 10);
	for (int r = 0; r < ROUNDS; r++) {
		for (int k = 0; k < PER; k++) {
			syms[r * PER + k].name = "gen";
			live_add(&l, &syms[r * PER + k], 1);
		}
		l.samples = PER;
		{
			/* the same frame into both histories */
			static const enum hist_sort keys[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
			struct frame_event ev = {.name = "cpu-clock", .samples = PER};
			struct frame f = {.seq = (uint64_t)r + 1, .secs = 1, .has_sampling = true};

			hist_tick(l.hist, true);
			cg_tick(l.cg, true);
			hist_snapshot(l.hist, keys, NULL, NULL, &ev.rows);
			cg_snapshot(l.cg, &ev.cg);
			f.sampling.events = &ev;
			f.sampling.nevents = 1;
			f.sampling.stats.interval_secs = 1;
			history_add(h, &f, true);
			history_add(small, &f, true);
			hist_snapshot_free(&ev.rows);
			cg_free(ev.cg);
		}
		if (r == 20)
			bytes_early = history_bytes(h);
		if (r > 20 && history_bytes(h) > bytes_max)
			bytes_max = history_bytes(h);
		assert_true(history_bytes(small) <= 256 << 10);
	}
	assert_int_equal(history_len(h), 10);
	/* 10 intervals of PER keys live: the tables hold at most about twice that */
	assert_true(history_nkeys(h) <= 2 * 10 * PER + 1024 + PER);
	assert_true(history_nstacks(h) <= 2 * (10 * PER + 2) + 4096 + PER);
	assert_true(bytes_max <= 2 * bytes_early);
	assert_true(history_len(small) < ROUNDS);
	/* what the byte limit took is counted (a replay says it), what the
	 * window's seconds took is not */
	assert_int_equal(history_dropped(small), ROUNDS - history_len(small));
	assert_int_equal(history_dropped(h), 0);
	hist_free(l.hist);
	cg_free(l.cg);
	history_free(h);
	history_free(small);
	free(syms);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_phases),       cmocka_unit_test(test_folded_branch),
	    cmocka_unit_test(test_row_counts),   cmocka_unit_test(test_window),
	    cmocka_unit_test(test_memory_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
