/* Unit tests for callgraph: counting into the trie, decay and zeroing (and
 * pure callers keeping their share, which perf top 6.1 gets wrong), folding
 * into [other], freeing and reuse, snapshots, recursion, folded output and
 * names, task roots, and a large trie (the views: test-callgraph-view.c). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "callgraph-fixture.h"
#include "tracetop/callgraph.h"
#include "tracetop/hist.h"
#include "tracetop/util.h"

/* The known stacks give exact self and total per node, before and after a tick. */
static void
test_known_totals(void **state)
{
	struct callgraph *cg = cg_new(0.5, 0);
	const struct sym *run[] = {&sym_main, &sym_run};
	const struct sym *al[] = {&sym_main, &sym_run, &sym_alpha, &sym_leaf};
	const struct sym *bl[] = {&sym_main, &sym_run, &sym_beta, &sym_leaf};
	const struct sym *g[] = {&sym_main, &sym_run, &sym_gamma};
	const struct cg_node *n;

	add_known(cg, 1);
	assert_int_equal(cg_count(cg), 8);
	assert_int_equal(root_of(cg, "app")->interval_total, 100);
	assert_int_equal(walk(cg, "app", al, 4)->interval_self, 50);
	cg_tick(cg, false);
	assert_near(cg_total(cg), 100, EPS);
	assert_near(root_of(cg, "app")->self, 0, EPS);
	n = walk(cg, "app", run, 2);
	assert_near(n->total, 100, EPS);
	assert_near(n->self, 0, EPS);
	assert_int_equal(n->interval_total, 0);
	assert_near(walk(cg, "app", al, 3)->total, 50, EPS);
	assert_near(walk(cg, "app", al, 3)->self, 0, EPS);
	assert_near(walk(cg, "app", al, 4)->total, 50, EPS);
	assert_near(walk(cg, "app", al, 4)->self, 50, EPS);
	assert_near(walk(cg, "app", bl, 3)->total, 30, EPS);
	assert_near(walk(cg, "app", bl, 4)->self, 30, EPS);
	assert_near(walk(cg, "app", g, 3)->total, 20, EPS);
	assert_near(walk(cg, "app", g, 3)->self, 20, EPS);
	assert_null(cg_node(cg, walk(cg, "app", g, 3)->first_child));
	assert_near(check_all(cg, true), 100, EPS);
	/* The same leaf function under two parents is two nodes. */
	assert_ptr_not_equal(walk(cg, "app", al, 4), walk(cg, "app", bl, 4));
	cg_free(cg);
}

/* A known stack allocates nothing: count and capacity stay put. */
static void
test_known_stack_no_growth(void **state)
{
	struct callgraph *cg = cg_new(0.875, 0);
	size_t count, cap;

	add_known(cg, 1);
	count = cg_count(cg);
	cap = cg_capacity(cg);
	add_known(cg, 20);
	assert_int_equal(cg_count(cg), count);
	assert_int_equal(cg_capacity(cg), cap);
	cg_tick(cg, false);
	assert_near(cg_total(cg), 2100, EPS);
	cg_free(cg);
}

/* Frames differ by any field; comms give separate roots. */
static void
test_frame_identity(void **state)
{
	struct callgraph *cg = cg_new(0.5, 0);
	struct cg_frame base = fr(&sym_main), f[6];
	size_t i;

	for (i = 0; i < 6; i++)
		f[i] = base;
	f[1].dso = &dso_libc;
	f[2].sym = &sym_run;
	f[3].addr = 4;
	f[4].kernel = true;
	f[5].inlined = true;
	for (i = 1; i < 6; i++)
		assert_false(cg_frame_eq(&f[0], &f[i]));
	assert_true(cg_frame_eq(&f[0], &base));
	for (i = 0; i < 6; i++)
		cg_add(cg, str_intern("a"), &f[i], 1);
	cg_add(cg, str_intern("b"), &f[0], 1);
	cg_add(cg, str_intern("a"), &f[0], 1);
	assert_int_equal(cg_count(cg), 2 + 6 + 1);
	cg_tick(cg, false);
	assert_near(root_of(cg, "a")->total, 7, EPS);
	assert_near(root_of(cg, "b")->total, 1, EPS);
	assert_near(cg_total(cg), 8, EPS);
	/* No frames at all: the sample is the root's own. */
	cg_add(cg, str_intern("b"), NULL, 0);
	cg_tick(cg, true);
	assert_near(root_of(cg, "b")->self, 1, EPS);
	cg_free(cg);
}

/* Capture cg_print_folded's output in a malloc'd string. */
static char *
folded(const struct callgraph *cg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cg_print_folded(cg, f);
	fclose(f);
	return buf;
}

/* Roots per process (rows grouped by pid): folded stacks start at
 * comm-PID (comm-PID/TID by thread), and a scope takes its roots only. */
static void
test_task_roots(void **state)
{
	struct callgraph *cg = cg_new(0.5, 0);
	const char *pg = str_intern("pg");
	struct cg_frame st[2] = {fr(&sym_alpha), fr(&sym_main)};
	struct cg_frame f = fr(&sym_alpha);
	struct cg_view v = {0};
	char *out;

	(void)state;
	cg_add_task_n(cg, pg, 100, 0, st, 2, 3);
	cg_add_task_n(cg, pg, 200, 0, st, 2, 5);
	cg_add_task_n(cg, pg, 200, 201, st, 1, 2);
	cg_add_n(cg, pg, st, 2, 7);
	cg_tick(cg, true);
	out = folded(cg);
	assert_string_equal(out, "pg;main;alpha 7\n"
	                         "pg-100;main;alpha 3\n"
	                         "pg-200;main;alpha 5\n"
	                         "pg-200/201;alpha 2\n");
	free(out);
	cg_callers_in(cg, &(struct cg_scope){.comm = pg, .pid = 200}, &f, &v);
	assert_near(v.nodes[1].total, 7, EPS); /* pid 200's roots, its thread's included */
	cg_callers_in(cg, &(struct cg_scope){.comm = pg, .pid = 200, .tid = 201}, &f, &v);
	assert_near(v.nodes[1].total, 2, EPS);
	cg_callers_in(cg, &(struct cg_scope){.comm = pg}, &f, &v);
	assert_near(v.nodes[1].total, 17, EPS); /* the command: every root */
	cg_callers_in(cg, &(struct cg_scope){0}, &f, &v);
	assert_near(v.nodes[1].total, 17, EPS);
	cg_callees_in(cg, &(struct cg_scope){.pid = 100}, &st[1], &v);
	assert_near(v.nodes[1].total, 3, EPS);
	cg_view_free(&v);
	cg_free(cg);
}

/* Sum of the counts (after each line's last space) of folded text. */
static unsigned long long
sum_counts(const char *s, size_t *lines)
{
	unsigned long long sum = 0;
	const char *nl, *sp;

	for (*lines = 0; (nl = strchr(s, '\n')) != NULL; s = nl + 1) {
		sp = memrchr(s, ' ', (size_t)(nl - s));
		assert_non_null(sp);
		sum += strtoull(sp + 1, NULL, 10);
		(*lines)++;
	}
	return sum;
}

/* Folded output: exact text, sorted, rounded, zero lines skipped. */
static void
test_folded_known(void **state)
{
	struct callgraph *cg = cg_new(0.5, 0);
	char *s;

	add_known(cg, 1);
	cg_tick(cg, false);
	s = folded(cg);
	assert_string_equal(s, "app;main;run;alpha;leaf 50\n"
	                       "app;main;run;beta;leaf 30\n"
	                       "app;main;run;gamma 20\n");
	free(s);
	/* Decayed by half: 25, 15, 10; then 12.5 -> 13, 7.5 -> 8, 5. */
	cg_tick(cg, false);
	cg_tick(cg, false);
	s = folded(cg);
	assert_string_equal(s, "app;main;run;alpha;leaf 13\n"
	                       "app;main;run;beta;leaf 8\n"
	                       "app;main;run;gamma 5\n");
	free(s);
	cg_free(cg);
}

/* Folded output escapes names and comms, replaces ';', keeps spaces, and
 * names unknown, inlined and [other] frames. */
static void
test_folded_names(void **state)
{
	struct callgraph *cg = cg_new(0.5, 10);
	struct cg_frame st[3] = {fr(&sym_semi), fr(&sym_main)};
	struct cg_frame unk = {.dso = &dso_libc, .addr = 0x1a2b};
	struct cg_frame inl[2] = {fr(&sym_leaf), fr(&sym_main)};
	struct cg_frame ctl = fr(&sym_ctl);
	struct cg_frame small[2] = {fr(&sym_beta), fr(&sym_main)};
	char *s, name[64];
	unsigned i;

	inl[0].inlined = true;
	for (i = 0; i < 40; i++) {
		cg_add(cg, str_intern("a;b c"), st, 2);
		cg_add(cg, str_intern("a;b c"), &unk, 1);
		cg_add(cg, str_intern("a;b c"), inl, 2);
		cg_add(cg, str_intern("e\x1b[2J"), &ctl, 1);
	}
	for (i = 0; i < 3; i++)
		cg_add(cg, str_intern("a;b c"), small, 2);
	cg_tick(cg, false);
	s = folded(cg);
	assert_string_equal(s, "a:b c;main;leaf (inlined) 40\n"
	                       "a:b c;main;ns:fn(int, char) 40\n"
	                       "a:b c;main;[other] 3\n"
	                       "a:b c;[unknown] 0x1a2b 40\n"
	                       "e\\x1b[2J;bad\\x0aname 40\n");
	free(s);
	/* Names outside folded output keep ';'; a small buffer truncates. */
	cg_frame_name(
	    child_of(cg, walk(cg, "a;b c", (const struct sym *[]){&sym_main}, 1), &sym_semi),
	    SYM_FULL, name, sizeof name);
	assert_string_equal(name, "ns;fn(int, char)");
	cg_frame_name(root_of(cg, "a;b c"), SYM_FULL, name, sizeof name);
	assert_string_equal(name, "a;b c");
	cg_frame_name(root_of(cg, "a;b c"), SYM_FULL, name, 3);
	assert_string_equal(name, "a;");
	cg_free(cg);
}

/* A snapshot is the trie as it was: later samples and ticks of the live
 * graph leave it alone, and a second snapshot reuses its storage. */
static void
test_snapshot(void **state)
{
	struct callgraph *cg = cg_new(0.5, 0), *snap = NULL, *first;
	struct cg_view v = {0};
	struct cg_frame f = fr(&sym_run);
	const struct sym *other[] = {&sym_main, &sym_beta};
	char *s;

	(void)state;
	add_known(cg, 1);
	cg_tick(cg, false);
	cg_snapshot(cg, &snap);
	first = snap;
	add_path(cg, "app", other, 2, 400);
	cg_tick(cg, false);
	s = folded(snap);
	assert_string_equal(s, "app;main;run;alpha;leaf 50\n"
	                       "app;main;run;beta;leaf 30\n"
	                       "app;main;run;gamma 20\n");
	free(s);
	assert_near(cg_total(snap), 100, EPS);
	cg_callees(snap, NULL, &f, &v);
	assert_near(v.nodes[1].total, 100, EPS);
	/* a command's root is found through the copied table */
	cg_callers(snap, str_intern("app"), &f, &v);
	assert_near(v.nodes[1].total, 100, EPS);
	check_all(snap, true);
	/* the live graph moved on; a new snapshot follows it, in place */
	cg_snapshot(cg, &snap);
	assert_ptr_equal(snap, first);
	assert_near(cg_total(snap), cg_total(cg), EPS);
	s = folded(snap);
	assert_non_null(strstr(s, "app;main;beta 400\n"));
	free(s);
	cg_view_free(&v);
	cg_free(snap);
	cg_free(cg);
}

/* Recursion: f->f->f counts once in the view total; both comms merge when
 * comm is NULL. */
static void
test_recursion(void **state)
{
	struct callgraph *cg = cg_new(0.5, 0);
	struct cg_view v = {0};
	struct cg_frame f = fr(&sym_f);
	const struct sym *deep[] = {&sym_main, &sym_f, &sym_f, &sym_f, &sym_leaf};
	const struct sym *flat[] = {&sym_main, &sym_run, &sym_f};
	const struct cg_view_node *n;
	unsigned depth;

	add_path(cg, "app", deep, 5, 10);
	add_path(cg, "app", flat, 3, 5);
	add_path(cg, "other", flat, 3, 4);
	cg_tick(cg, false);
	cg_callees(cg, str_intern("app"), &f, &v);
	assert_near(v.nodes[1].total, 15, EPS);
	/* The callee tree keeps the recursion: f -> f -> f -> leaf. */
	for (n = &v.nodes[1], depth = 0; n->first_child != 0; depth++) {
		n = &v.nodes[n->first_child];
		assert_near(n->total, 10, EPS);
		assert_int_equal(n->next_sibling, 0);
	}
	assert_int_equal(depth, 3);
	assert_ptr_equal(n->frame.sym, &sym_leaf);
	cg_callees(cg, NULL, &f, &v);
	assert_near(v.nodes[1].total, 19, EPS);
	/* Callers: main 10 directly, run 9 (5 + 4) with main above. */
	cg_callers(cg, NULL, &f, &v);
	assert_near(v.nodes[1].total, 19, EPS);
	n = &v.nodes[v.nodes[1].first_child];
	assert_ptr_equal(n->frame.sym, &sym_main);
	assert_near(n->total, 10, EPS);
	assert_int_equal(n->first_child, 0);
	n = &v.nodes[n->next_sibling];
	assert_ptr_equal(n->frame.sym, &sym_run);
	assert_near(n->total, 9, EPS);
	assert_ptr_equal(v.nodes[n->first_child].frame.sym, &sym_main);
	assert_near(v.nodes[n->first_child].total, 9, EPS);
	cg_view_free(&v);
	cg_free(cg);
}

/* Decay: with new samples every tick, pure callers keep their share of the
 * root (perf top 6.1 drops them to ~17 %) and the 50/30/20 split holds. */
static void
test_decay_keeps_callers(void **state)
{
	struct callgraph *cg = cg_new(0.875, 0.5);
	const struct sym *path[] = {&sym_main, &sym_run, &sym_alpha};
	const struct cg_node *root, *main_n, *run, *a, *b, *g;
	double expect = 0;
	int t;

	for (t = 0; t < 5; t++) {
		add_known(cg, 1);
		cg_tick(cg, false);
		expect = expect * 0.875 + 100;
		root = root_of(cg, "app");
		main_n = walk(cg, "app", path, 1);
		run = walk(cg, "app", path, 2);
		assert_near(root->total, expect, 1e-6);
		assert_near(main_n->total / root->total, 1.0, 1e-9);
		assert_near(run->total / root->total, 1.0, 1e-9);
		a = child_of(cg, run, &sym_alpha);
		b = child_of(cg, run, &sym_beta);
		g = child_of(cg, run, &sym_gamma);
		assert_near(a->total / root->total, 0.5, 1e-9);
		assert_near(b->total / root->total, 0.3, 1e-9);
		assert_near(g->total / root->total, 0.2, 1e-9);
		assert_near(check_all(cg, true), root->total, 1e-6);
	}
	/* No new samples: everything decays together, the shares stay. */
	cg_tick(cg, false);
	root = root_of(cg, "app");
	assert_near(root->total, expect * 0.875, 1e-6);
	assert_near(walk(cg, "app", path, 1)->total / root->total, 1.0, 1e-9);
	assert_near(walk(cg, "app", path, 3)->total / root->total, 0.5, 1e-9);
	cg_free(cg);
}

/* Zero mode: each tick shows the last interval only. */
static void
test_zero_mode(void **state)
{
	struct callgraph *cg = cg_new(0.875, 0);
	const struct sym *path[] = {&sym_main, &sym_run, &sym_gamma};

	add_known(cg, 3);
	cg_tick(cg, true);
	assert_near(cg_total(cg), 300, EPS);
	add_known(cg, 1);
	cg_tick(cg, true);
	assert_near(cg_total(cg), 100, EPS);
	assert_near(walk(cg, "app", path, 3)->self, 20, EPS);
	/* An empty interval frees everything. */
	cg_tick(cg, true);
	assert_int_equal(cg_count(cg), 0);
	assert_int_equal(cg_first_root(cg), 0);
	assert_near(cg_total(cg), 0, EPS);
	cg_free(cg);
}

/* Branches under min_percent of the root fold into their parent's [other]
 * (subtree and all); the parent's total and the self sum are kept; [other]
 * is never folded further. */
static void
test_fold_other(void **state)
{
	struct callgraph *cg = cg_new(0.5, 5);
	const struct sym *big[] = {&sym_main, &sym_run, &sym_alpha};
	const struct sym *b1[] = {&sym_main, &sym_run, &sym_beta, &sym_leaf};
	const struct sym *b2[] = {&sym_main, &sym_run, &sym_beta};
	const struct sym *g[] = {&sym_main, &sym_gamma};
	const struct cg_node *run, *o, *m;
	size_t before;
	char *s;

	add_path(cg, "app", big, 3, 94);
	add_path(cg, "app", b1, 4, 2);
	add_path(cg, "app", b2, 3, 1);
	add_path(cg, "app", g, 2, 3);
	before = cg_count(cg);
	cg_tick(cg, false);
	/* beta (3, with leaf) and gamma (3) are under 5 % of 100. */
	assert_int_equal(cg_count(cg), before - 3 + 2);
	run = walk(cg, "app", big, 2);
	assert_near(run->total, 97, EPS);
	assert_null(child_of(cg, run, &sym_beta));
	o = other_of(cg, run);
	assert_non_null(o);
	assert_near(o->total, 3, EPS);
	assert_near(o->self, 3, EPS);
	m = walk(cg, "app", big, 1);
	assert_near(m->total, 100, EPS);
	assert_near(other_of(cg, m)->total, 3, EPS);
	assert_near(check_all(cg, true), 100, EPS);
	s = folded(cg);
	assert_string_equal(s, "app;main;run;alpha 94\n"
	                       "app;main;run;[other] 3\n"
	                       "app;main;[other] 3\n");
	free(s);
	/* More small samples: the [other] decays and takes the new fold. */
	add_path(cg, "app", big, 3, 94);
	add_path(cg, "app", b2, 3, 2);
	cg_tick(cg, false);
	run = walk(cg, "app", big, 2);
	o = other_of(cg, run);
	assert_near(o->total, 1.5 + 2, EPS);
	assert_near(run->total, 48.5 + 96, EPS);
	assert_near(check_all(cg, true), 50 + 96, EPS);
	/* [other] below the limit stays (until it fades under 0.5). */
	add_path(cg, "app", big, 3, 200);
	cg_tick(cg, false);
	o = other_of(cg, walk(cg, "app", big, 2));
	assert_non_null(o);
	assert_near(o->total, 1.75, EPS);
	assert_int_equal(o->first_child, 0);
	cg_free(cg);
}

/* Faded nodes are freed and their slots reused: rotating stacks keep the
 * count and the capacity flat. */
static void
test_fade_reuse(void **state)
{
	struct callgraph *cg = cg_new(0.5, 0);
	struct cg_frame st[3] = {{.dso = &dso_app}, fr(&sym_run), fr(&sym_main)};
	size_t cap = 0, t, i, most = 0;

	for (t = 0; t < 400; t++) {
		for (i = 0; i < 500; i++) {
			st[0].addr = t * 500 + i; /* a new leaf every sample */
			cg_add(cg, str_intern("rot"), st, 3);
		}
		cg_tick(cg, false);
		if (t == 100)
			cap = cg_capacity(cg);
		if (cg_count(cg) > most)
			most = cg_count(cg);
		check_all(cg, false);
	}
	/* A leaf's 1 sample fades after one tick (1 -> 0.5 kept, -> 0.25 freed). */
	assert_int_equal(cg_count(cg), 3 + 1000);
	assert_true(most <= 3 + 1000);
	assert_true(cap >= 3 + 1500);
	assert_int_equal(cg_capacity(cg), cap);
	/* Parents keep the faded leaves' history in their totals. */
	assert_near(root_of(cg, "rot")->total, 1000, 1e-6);
	cg_free(cg);
}

/* 100k distinct stacks: the trie stays consistent, folded output has one
 * line per stack, and a fold keeps the sums. */
static void
test_many_stacks(void **state)
{
	enum { N = 100000 };
	struct callgraph *cg = cg_new(0.875, 0);
	struct cg_frame st[4] = {
	    {.dso = &dso_libc}, {.dso = &dso_kern, .kernel = true}, fr(&sym_run), fr(&sym_main)};
	struct cg_view v = {0};
	size_t lines, i;
	char *s;

	for (i = 0; i < N; i++) {
		st[0].addr = i;
		st[1].addr = i % 1000;
		cg_add(cg, str_intern(i % 2 ? "odd" : "even"), st, 4);
	}
	/* Per comm: root, main, run and 500 kernel frames, then the leaves. */
	assert_int_equal(cg_count(cg), 2 * (3 + 500) + N);
	cg_tick(cg, false);
	assert_near(check_all(cg, true), N, 1e-6);
	s = folded(cg);
	assert_int_equal(sum_counts(s, &lines), N);
	assert_int_equal(lines, N);
	free(s);
	/* Views stay bounded. */
	cg_callees(cg, NULL, &st[2], &v);
	assert_near(v.nodes[1].total, N, 1e-6);
	assert_true(v.n <= 10001);
	cg_view_free(&v);
	/* Fold everything under 1 %: each kernel frame (100 samples) goes. */
	cg_free(cg);
	cg = cg_new(0.875, 1);
	for (i = 0; i < N; i++) {
		st[0].addr = i;
		st[1].addr = i % 1000;
		cg_add(cg, str_intern("all"), st, 4);
	}
	cg_tick(cg, false);
	assert_int_equal(cg_count(cg), 1 + 2 + 1);
	assert_near(check_all(cg, true), N, 1e-6);
	cg_free(cg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_known_totals),
	    cmocka_unit_test(test_snapshot),
	    cmocka_unit_test(test_known_stack_no_growth),
	    cmocka_unit_test(test_frame_identity),
	    cmocka_unit_test(test_folded_known),
	    cmocka_unit_test(test_folded_names),
	    cmocka_unit_test(test_recursion),
	    cmocka_unit_test(test_decay_keeps_callers),
	    cmocka_unit_test(test_zero_mode),
	    cmocka_unit_test(test_fold_other),
	    cmocka_unit_test(test_fade_reuse),
	    cmocka_unit_test(test_many_stacks),
	    cmocka_unit_test(test_task_roots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
