/* callgraph-fixture: the objects, the known profile and the trie checks
 * the callgraph tests share (test-callgraph.c, test-callgraph-view.c). */
#ifndef TRACETOP_TEST_CALLGRAPH_FIXTURE_H
#define TRACETOP_TEST_CALLGRAPH_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tracetop/callgraph.h"
#include "tracetop/util.h"

#define EPS 1e-9

/* |a - b| <= eps, reported at the caller's line (cmocka 1.1.5 has no
 * assert_double_equal). */
#define assert_near(a, b, eps) near((a), (b), (eps), #a, __FILE__, __LINE__)

/* The check behind assert_near. */
static inline void
near(double a, double b, double eps, const char *what, const char *file, int line)
{
	double d = a - b;

	if (d <= eps && -d <= eps)
		return;
	print_error("%s is %.12g, expected %.12g (+- %g)\n", what, a, b, eps);
	_fail(file, line);
}

static __attribute__((unused)) struct dso dso_app = {.name = "/usr/bin/app"};
static __attribute__((unused)) struct dso dso_libc = {.name = "/lib/libc.so.6"};
static __attribute__((unused)) struct dso dso_kern = {.name = "[kernel.kallsyms]"};
static __attribute__((unused)) struct sym sym_main = {.name = "main"};
static __attribute__((unused)) struct sym sym_run = {.name = "run"};
static __attribute__((unused)) struct sym sym_alpha = {.name = "alpha"};
static __attribute__((unused)) struct sym sym_beta = {.name = "beta"};
static __attribute__((unused)) struct sym sym_gamma = {.name = "gamma"};
static __attribute__((unused)) struct sym sym_leaf = {.name = "leaf"};
static __attribute__((unused)) struct sym sym_f = {.name = "f"};
static __attribute__((unused)) struct sym sym_semi = {.name = "ns;fn(int, char)"};
static __attribute__((unused)) struct sym sym_ctl = {.name = "bad\nname"};
static __attribute__((unused)) struct sym sym_sched = {.name = "schedule"};

/* A resolved user frame in the app. */
static inline struct cg_frame
fr(const struct sym *s)
{
	struct cg_frame f = {.dso = &dso_app, .sym = s};

	return f;
}

/* Count a stack given outermost first (as it reads), n times. */
static inline void
add_path(struct callgraph *cg, const char *comm, const struct sym *const *path, size_t len,
         unsigned times)
{
	struct cg_frame frames[64];
	size_t i;

	assert_true(len <= 64);
	for (i = 0; i < len; i++)
		frames[len - 1 - i] = fr(path[i]);
	while (times-- > 0)
		cg_add(cg, str_intern(comm), frames, len);
}

/* The known profile: main->run->alpha->leaf x50, ...->beta->leaf x30,
 * main->run->gamma x20 (times k), under comm "app". */
static inline void
add_known(struct callgraph *cg, unsigned k)
{
	const struct sym *a[] = {&sym_main, &sym_run, &sym_alpha, &sym_leaf};
	const struct sym *b[] = {&sym_main, &sym_run, &sym_beta, &sym_leaf};
	const struct sym *g[] = {&sym_main, &sym_run, &sym_gamma};

	add_path(cg, "app", a, 4, 50 * k);
	add_path(cg, "app", b, 4, 30 * k);
	add_path(cg, "app", g, 3, 20 * k);
}

/* The root for comm, failing the test when there is none. */
static inline const struct cg_node *
root_of(const struct callgraph *cg, const char *comm)
{
	const struct cg_node *r;

	for (r = cg_node(cg, cg_first_root(cg)); r != NULL; r = cg_node(cg, r->next_sibling))
		if (r->comm == str_intern(comm))
			return r;
	fail_msg("no root for %s", comm);
	return NULL;
}

/* The non-[other] child of n for symbol s, or NULL. */
static inline const struct cg_node *
child_of(const struct callgraph *cg, const struct cg_node *n, const struct sym *s)
{
	const struct cg_node *c;

	for (c = cg_node(cg, n->first_child); c != NULL; c = cg_node(cg, c->next_sibling))
		if (!c->other && c->frame.sym == s)
			return c;
	return NULL;
}

/* The [other] child of n, or NULL. */
static inline const struct cg_node *
other_of(const struct callgraph *cg, const struct cg_node *n)
{
	const struct cg_node *c;

	for (c = cg_node(cg, n->first_child); c != NULL; c = cg_node(cg, c->next_sibling))
		if (c->other)
			return c;
	return NULL;
}

/* Follow a path of symbols from comm's root; the node must exist. */
static inline const struct cg_node *
walk(const struct callgraph *cg, const char *comm, const struct sym *const *path, size_t len)
{
	const struct cg_node *n = root_of(cg, comm);
	size_t i;

	for (i = 0; i < len; i++) {
		n = child_of(cg, n, path[i]);
		assert_non_null(n);
	}
	return n;
}

/* Sums over a subtree, checked while walking it. */
struct sums {
	size_t nodes;
	double self;
};

/* Check the links of the subtree at idx (parents, [other] leaves, sizes)
 * and, when exact, total == self + children's totals; add to s. */
static inline void
check_subtree(const struct callgraph *cg, uint32_t idx, bool exact, struct sums *s)
{
	const struct cg_node *n = cg_node(cg, idx), *c;
	double kids = 0;
	uint32_t ci;

	assert_non_null(n);
	s->nodes++;
	s->self += n->self;
	if (n->other)
		assert_int_equal(n->first_child, 0);
	for (ci = n->first_child; ci != 0; ci = c->next_sibling) {
		c = cg_node(cg, ci);
		assert_non_null(c);
		assert_int_equal(c->parent, idx);
		assert_null(c->comm);
		kids += c->total;
		check_subtree(cg, ci, exact, s);
	}
	assert_true(n->total + 1e-6 * n->total >= kids);
	if (exact)
		assert_near(n->total, n->self + kids, 1e-6 * (n->total + 1));
}

/* Check the whole trie: every live node reachable once, totals consistent;
 * returns the sum of self counts. */
static inline double
check_all(const struct callgraph *cg, bool exact)
{
	struct sums s = {0};
	const struct cg_node *r;
	uint32_t idx;

	for (idx = cg_first_root(cg); idx != 0; idx = r->next_sibling) {
		r = cg_node(cg, idx);
		assert_non_null(r);
		assert_int_equal(r->parent, 0);
		check_subtree(cg, idx, exact, &s);
	}
	assert_int_equal(s.nodes, cg_count(cg));
	return s.self;
}

#endif
