/* Unit tests for callgraph's views: callees and callers of a function,
 * subtrees of several roots merged, frame names, and the inclusive share of
 * rows merged without their symbol (cg_group_children); split from
 * test-callgraph.c. */
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

/* Callees of run: alpha 50, beta 30, gamma 20, leaf under alpha and beta. */
static void
test_callees(void **state)
{
	struct callgraph *cg = cg_new(0.5, 0);
	struct cg_view v = {0};
	struct cg_frame f = fr(&sym_run);
	const struct cg_view_node *n, *c;

	add_known(cg, 1);
	cg_tick(cg, false);
	cg_callees(cg, NULL, &f, &v);
	assert_int_equal(v.n, 1 + 1 + 3 + 2);
	n = &v.nodes[1];
	assert_true(cg_frame_eq(&n->frame, &f));
	assert_near(n->total, 100, EPS);
	assert_int_equal(n->next_sibling, 0);
	c = &v.nodes[n->first_child];
	assert_ptr_equal(c->frame.sym, &sym_alpha);
	assert_near(c->total, 50, EPS);
	assert_ptr_equal(v.nodes[c->first_child].frame.sym, &sym_leaf);
	assert_near(v.nodes[c->first_child].total, 50, EPS);
	c = &v.nodes[c->next_sibling];
	assert_ptr_equal(c->frame.sym, &sym_beta);
	assert_near(c->total, 30, EPS);
	assert_ptr_equal(v.nodes[c->first_child].frame.sym, &sym_leaf);
	c = &v.nodes[c->next_sibling];
	assert_ptr_equal(c->frame.sym, &sym_gamma);
	assert_near(c->total, 20, EPS);
	assert_int_equal(c->first_child, 0);
	assert_int_equal(c->next_sibling, 0);
	/* Per comm: the same for "app", empty for another command; reuse of v. */
	cg_callees(cg, str_intern("app"), &f, &v);
	assert_near(v.nodes[1].total, 100, EPS);
	cg_callees(cg, str_intern("nope"), &f, &v);
	assert_int_equal(v.n, 2);
	assert_near(v.nodes[1].total, 0, EPS);
	assert_int_equal(v.nodes[1].first_child, 0);
	cg_view_free(&v);
	assert_null(v.nodes);
	cg_free(cg);
}

/* Two roots' subtrees merged by frame: the shared path sums, the rest
 * stays apart, heaviest first; one root alone is its own subtree. */
static void
test_subtrees(void **state)
{
	struct callgraph *cg = cg_new(1.0, 0);
	struct cg_view v = {0};
	struct cg_frame a[] = {fr(&sym_leaf), fr(&sym_alpha), fr(&sym_main)};
	struct cg_frame b[] = {fr(&sym_leaf), fr(&sym_beta), fr(&sym_main)};
	uint32_t roots[2], n = 0, k;
	const struct cg_view_node *m;

	(void)state;
	cg_add_n(cg, str_intern("one"), a, 3, 30);
	cg_add_n(cg, str_intern("two"), a, 3, 10);
	cg_add_n(cg, str_intern("two"), b, 3, 50);
	cg_tick(cg, false);
	for (k = cg_first_root(cg); k != 0; k = cg_node(cg, k)->next_sibling)
		roots[n++] = k;
	assert_int_equal(n, 2);
	cg_subtrees(cg, roots, 2, &v);
	assert_near(v.nodes[1].total, 90, EPS);
	m = &v.nodes[v.nodes[1].first_child]; /* main, once */
	assert_ptr_equal(m->frame.sym, &sym_main);
	assert_near(m->total, 90, EPS);
	assert_int_equal(m->next_sibling, 0);
	assert_ptr_equal(v.nodes[m->first_child].frame.sym, &sym_beta); /* 50 first */
	assert_near(v.nodes[m->first_child].total, 50, EPS);
	assert_ptr_equal(v.nodes[v.nodes[m->first_child].next_sibling].frame.sym, &sym_alpha);
	assert_near(v.nodes[v.nodes[m->first_child].next_sibling].total, 40, EPS);
	for (k = 0; k < n && strcmp(cg_node(cg, roots[k])->comm, "one") != 0; k++)
		;
	cg_subtrees(cg, &roots[k], 1, &v);
	assert_near(v.nodes[1].total, 30, EPS);
	assert_int_equal(v.n, 2 + 3);
	cg_view_free(&v);
	cg_free(cg);
}

/* Callers of leaf: alpha 50 then beta 30, each with run then main above. */
static void
test_callers(void **state)
{
	struct callgraph *cg = cg_new(0.5, 0);
	struct cg_view v = {0};
	struct cg_frame f = fr(&sym_leaf);
	const struct sym *up[] = {&sym_run, &sym_main};
	const struct cg_view_node *c, *u;
	size_t i;

	add_known(cg, 1);
	cg_tick(cg, false);
	cg_callers(cg, NULL, &f, &v);
	assert_near(v.nodes[1].total, 80, EPS);
	assert_int_equal(v.n, 1 + 1 + 2 * 3);
	c = &v.nodes[v.nodes[1].first_child];
	assert_ptr_equal(c->frame.sym, &sym_alpha);
	assert_near(c->total, 50, EPS);
	for (u = c, i = 0; i < 2; i++) {
		u = &v.nodes[u->first_child];
		assert_ptr_equal(u->frame.sym, up[i]);
		assert_near(u->total, 50, EPS);
		assert_int_equal(u->next_sibling, 0);
	}
	assert_int_equal(u->first_child, 0);
	c = &v.nodes[c->next_sibling];
	assert_ptr_equal(c->frame.sym, &sym_beta);
	assert_near(c->total, 30, EPS);
	assert_ptr_equal(v.nodes[c->first_child].frame.sym, &sym_run);
	assert_int_equal(c->next_sibling, 0);
	/* main has no callers but the root. */
	f = fr(&sym_main);
	cg_callers(cg, NULL, &f, &v);
	assert_int_equal(v.n, 2);
	assert_near(v.nodes[1].total, 100, EPS);
	cg_view_free(&v);
	cg_free(cg);
}

/* Names: unknown addresses, inlined, [other], kernel frames. */
static void
test_frame_names(void **state)
{
	struct cg_node n = {.parent = 1,
	                    .frame = {.dso = &dso_kern, .sym = &sym_sched, .kernel = true}};
	char buf[64];

	cg_frame_name(&n, SYM_FULL, buf, sizeof buf);
	assert_string_equal(buf, "schedule");
	n.frame.sym = NULL;
	n.frame.addr = 0xffffffff81000000ULL;
	cg_frame_name(&n, SYM_FULL, buf, sizeof buf);
	assert_string_equal(buf, "[unknown] 0xffffffff81000000");
	n.frame.inlined = true;
	cg_frame_name(&n, SYM_FULL, buf, sizeof buf);
	assert_string_equal(buf, "[unknown] 0xffffffff81000000 (inlined)");
	n.other = true;
	cg_frame_name(&n, SYM_FULL, buf, sizeof buf);
	assert_string_equal(buf, "[other]");
}

/* Run the tests. */
/* One sample of a stack (outermost first, each frame its DSO) in both the
 * trie and the hist (self at the leaf, children once per function). */
static void
add_both(struct callgraph *cg, struct hist *h, const char *comm, const struct cg_frame *path,
         size_t len)
{
	struct cg_frame frames[8];
	struct hist_key k = {.pid = 7, .comm = str_intern(comm)};

	for (size_t i = 0; i < len; i++) {
		frames[len - 1 - i] = path[i];
		k.dso = (struct dso *)path[i].dso;
		k.sym = path[i].sym;
		k.kernel = path[i].kernel;
		hist_add_children(h, &k);
	}
	hist_add(h, &k);
	cg_add(cg, k.comm, frames, len);
}

/* The row of snap whose DSO is d. */
static const struct hist_row *
row_of(const struct hist_snapshot *snap, const struct dso *d)
{
	for (size_t i = 0; i < snap->n; i++)
		if (snap->rows[i].copy.key.dso == d)
			return &snap->rows[i];
	fail_msg("no row of %s", d->name);
	return NULL;
}

/* Rows merged without their symbol have their own inclusive share, not
 * their members' sum: 100 % for the whole command, the stacks through it
 * for a DSO (never below its self share). */
static void
test_group_children(void **state)
{
	struct callgraph *cg = cg_new(0.5, 0);
	struct hist *h = hist_new(0.5);
	struct hist_snapshot snap = {0};
	const struct cg_frame m = fr(&sym_main), a = fr(&sym_alpha), b = fr(&sym_beta),
	                      r = fr(&sym_run), l = {.dso = &dso_libc, .sym = &sym_leaf},
	                      k = {.dso = &dso_kern, .sym = &sym_sched, .kernel = true};
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		add_both(cg, h, "app", (const struct cg_frame[]){m, a, l}, 3);
	add_both(cg, h, "app", (const struct cg_frame[]){m, b}, 2);
	for (i = 0; i < 2; i++)
		add_both(cg, h, "app", (const struct cg_frame[]){m, r, k}, 3);
	hist_tick(h, true);
	cg_tick(cg, true);

	hist_snapshot(h, NULL, NULL, NULL, &snap);
	hist_group(&snap, HIST_GROUP_COMM, NULL);
	assert_int_equal(snap.n, 1);
	/* summed: main 6 + alpha 3 + leaf 3 + beta 1 + run 2 + schedule 2 = 283 % */
	cg_group_children(cg, &snap, HIST_GROUP_COMM);
	assert_near(snap.rows[0].children, 100.0, EPS);
	assert_near(snap.rows[0].overhead, 100.0, EPS);
	assert_int_equal(snap.rows[0].copy.children_last, 6);

	hist_snapshot(h, NULL, NULL, NULL, &snap);
	hist_group(&snap, HIST_GROUP_DSO, NULL);
	assert_int_equal(snap.n, 3);
	cg_group_children(cg, &snap, HIST_GROUP_DSO);
	/* the app: every stack (summed: main, alpha, beta, run = 200 %) */
	assert_near(row_of(&snap, &dso_app)->children, 100.0, EPS);
	assert_near(row_of(&snap, &dso_app)->overhead, 100.0 / 6, EPS);
	assert_near(row_of(&snap, &dso_libc)->children, 50.0, EPS);
	assert_near(row_of(&snap, &dso_kern)->children, 100.0 / 3, EPS);

	/* grouped with the symbol, the members' sums stand */
	hist_snapshot(h, NULL, NULL, NULL, &snap);
	hist_group(&snap, HIST_GROUP_DEFAULT, NULL);
	cg_group_children(cg, &snap, HIST_GROUP_DEFAULT);
	for (size_t j = 0; j < snap.n; j++)
		if (snap.rows[j].copy.key.sym == &sym_main)
			assert_near(snap.rows[j].children, 100.0, EPS);
	hist_snapshot_free(&snap);
	hist_free(h);
	cg_free(cg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_callees),        cmocka_unit_test(test_subtrees),
	    cmocka_unit_test(test_callers),        cmocka_unit_test(test_frame_names),
	    cmocka_unit_test(test_group_children),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
