/* Unit tests for flame: the tree from a known call graph (names, order,
 * starts), layouts whose children fill their parent exactly at any width,
 * zoom, the callers (reversed) graph, moves, search with recursion counted
 * once, labels cut by display width (wide characters never split), and the
 * text and SVG reports (XML escaped). */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracetop/flame.h"
#include "tracetop/report-flame.h"
#include "tracetop/util.h"

static struct dso dso_app = {.name = "/usr/bin/app"};
static struct dso dso_kern = {.name = "[kernel.kallsyms]", .kind = DSO_KERNEL};
static struct dso dso_jit = {.name = "[JIT] tid 42", .kind = DSO_ANON};
static struct sym sym_main = {.name = "main"};
static struct sym sym_run = {.name = "run"};
static struct sym sym_alpha = {.name = "alpha"};
static struct sym sym_beta = {.name = "beta"};
static struct sym sym_gamma = {.name = "gamma"};
static struct sym sym_leaf = {.name = "leaf"};
static struct sym sym_rec = {.name = "rec"};
static struct sym sym_sched = {.name = "schedule"};
static struct sym sym_jitted = {.name = "Interp::loop"};
static struct sym sym_evil = {.name = "op<<&\"x\"'>"};

/* Count a stack given outermost first, n times, in comm. */
static void
add_path(struct callgraph *cg, const char *comm, const struct cg_frame *path, size_t len,
         unsigned times)
{
	struct cg_frame frames[64];

	assert_true(len <= 64);
	for (size_t i = 0; i < len; i++)
		frames[len - 1 - i] = path[i];
	while (times-- > 0)
		cg_add(cg, str_intern(comm), frames, len);
}

/* A user frame of the app. */
static struct cg_frame
fr(const struct sym *s)
{
	return (struct cg_frame){.dso = &dso_app, .sym = s};
}

/* The known profile: app: main>run>alpha>leaf 50, main>run>beta>leaf 30,
 * main>run>gamma 20 (gamma's own), one tick (decay keeps the counts). */
static struct callgraph *
known(void)
{
	struct callgraph *cg = cg_new(0.5, 0);
	struct cg_frame a[] = {fr(&sym_main), fr(&sym_run), fr(&sym_alpha), fr(&sym_leaf)};
	struct cg_frame b[] = {fr(&sym_main), fr(&sym_run), fr(&sym_beta), fr(&sym_leaf)};
	struct cg_frame g[] = {fr(&sym_main), fr(&sym_run), fr(&sym_gamma)};

	add_path(cg, "app", a, 4, 50);
	add_path(cg, "app", b, 4, 30);
	add_path(cg, "app", g, 3, 20);
	cg_tick(cg, false);
	return cg;
}

/* The node named name under parent (0: anywhere), failing when none. */
static uint32_t
node_named(const struct flame *fl, uint32_t parent, const char *name)
{
	for (uint32_t i = 1; i < fl->n; i++)
		if ((parent == 0 || fl->nodes[i].parent == parent) &&
		    strcmp(flame_name(fl, i), name) == 0)
			return i;
	fail_msg("no node %s", name);
	return 0;
}

/* The box of node in l, failing when it has none. */
static const struct flame_box *
box(const struct flame_layout *l, uint32_t node)
{
	long i = flame_box_of(l, node);

	assert_true(i >= 0);
	return &l->boxes[i];
}

/* Tree: root all 100, app, main ... with children by name and starts. */
static void
test_build(void **state)
{
	struct callgraph *cg = known();
	struct flame fl = {0};
	uint32_t run, a, b, g;

	(void)state;
	flame_build(&fl, cg, SYM_FULL);
	assert_string_equal(flame_name(&fl, 1), "all");
	assert_true(fl.nodes[1].total == 100);
	assert_int_equal(fl.nodes[node_named(&fl, 1, "app")].kind, FLAME_OTHER);
	run = node_named(&fl, 0, "run");
	a = node_named(&fl, run, "alpha");
	b = node_named(&fl, run, "beta");
	g = node_named(&fl, run, "gamma");
	assert_int_equal(fl.nodes[run].first_child, a);
	assert_int_equal(fl.nodes[a].next_sibling, b);
	assert_int_equal(fl.nodes[b].next_sibling, g);
	assert_true(fl.nodes[a].start == 0 && fl.nodes[b].start == 50 && fl.nodes[g].start == 80);
	assert_int_equal(fl.nodes[a].depth, 4);
	assert_int_equal(fl.depth, 5);
	assert_int_equal(fl.nodes[a].kind, FLAME_USER);
	/* ids: stable across builds, distinct for the two leaves */
	{
		uint64_t id = fl.nodes[node_named(&fl, b, "leaf")].id;

		assert_true(id != fl.nodes[node_named(&fl, a, "leaf")].id);
		flame_build(&fl, cg, SYM_FULL);
		assert_int_equal(flame_find(&fl, id),
		                 node_named(&fl, node_named(&fl, 0, "beta"), "leaf"));
	}
	flame_free(&fl);
	cg_free(cg);
}

/* Every box lies inside its parent's; a parent without self samples is
 * filled exactly by its children's widths. */
static void
check_nesting(const struct flame *fl, const struct flame_layout *l, int width)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct flame_box *p = &l->boxes[i];
		double kids_total = 0;
		int kids_w = 0;

		assert_true(p->x >= 0 && p->x + p->w <= width && p->w >= 1);
		for (uint32_t c = fl->nodes[p->node].first_child; c != 0;
		     c = fl->nodes[c].next_sibling) {
			long k = flame_box_of(l, c);

			kids_total += fl->nodes[c].total;
			if (k < 0 || p->ancestor)
				continue;
			assert_true(l->boxes[k].x >= p->x);
			assert_true(l->boxes[k].x + l->boxes[k].w <= p->x + p->w);
			assert_int_equal(l->boxes[k].row, p->row + 1);
			kids_w += l->boxes[k].w;
		}
		if (!p->ancestor && kids_total == fl->nodes[p->node].total && kids_w > 0)
			assert_int_equal(kids_w, p->w);
		assert_true(kids_w <= p->w);
	}
}

/* Widths: proportional, and children sum to their parent at odd widths. */
static void
test_layout_widths(void **state)
{
	static const int widths[] = {100, 80, 77, 33, 7, 200, 1};
	struct callgraph *cg = known();
	struct flame fl = {0};
	struct flame_layout l = {0};
	uint32_t run;

	(void)state;
	flame_build(&fl, cg, SYM_FULL);
	run = node_named(&fl, 0, "run");
	flame_layout(&fl, 1, 100, &l);
	assert_int_equal(l.rows, 6);
	assert_int_equal(box(&l, node_named(&fl, run, "alpha"))->w, 50);
	assert_int_equal(box(&l, node_named(&fl, run, "beta"))->w, 30);
	assert_int_equal(box(&l, node_named(&fl, run, "beta"))->x, 50);
	assert_int_equal(box(&l, node_named(&fl, run, "gamma"))->w, 20);
	/* boxes by row, then x */
	for (size_t i = 1; i < l.n; i++)
		assert_true(l.boxes[i - 1].row < l.boxes[i].row ||
		            (l.boxes[i - 1].row == l.boxes[i].row &&
		             l.boxes[i - 1].x + l.boxes[i - 1].w <= l.boxes[i].x));
	for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
		flame_layout(&fl, 1, widths[k], &l);
		check_nesting(&fl, &l, widths[k]);
	}
	/* at 77 columns: 38.5, 23.1, 15.4 rounded from exact edges */
	flame_layout(&fl, 1, 77, &l);
	assert_int_equal(box(&l, node_named(&fl, run, "alpha"))->w +
	                     box(&l, node_named(&fl, run, "beta"))->w +
	                     box(&l, node_named(&fl, run, "gamma"))->w,
	                 77);
	flame_layout_free(&l);
	flame_free(&fl);
	cg_free(cg);
}

/* Zoom: the subtree fills the width; ancestors span it, others vanish. */
static void
test_zoom(void **state)
{
	struct callgraph *cg = known();
	struct flame fl = {0};
	struct flame_layout l = {0};
	uint32_t run, beta, leaf;

	(void)state;
	flame_build(&fl, cg, SYM_FULL);
	run = node_named(&fl, 0, "run");
	beta = node_named(&fl, run, "beta");
	leaf = node_named(&fl, beta, "leaf");
	flame_layout(&fl, beta, 60, &l);
	assert_int_equal(box(&l, beta)->x, 0);
	assert_int_equal(box(&l, beta)->w, 60);
	assert_false(box(&l, beta)->ancestor);
	assert_int_equal(box(&l, leaf)->w, 60);
	assert_true(box(&l, run)->ancestor && box(&l, run)->w == 60);
	assert_true(box(&l, 1)->ancestor);
	assert_int_equal(flame_box_of(&l, node_named(&fl, run, "alpha")), -1);
	assert_int_equal(flame_box_of(&l, node_named(&fl, run, "gamma")), -1);
	assert_true(flame_within(&fl, leaf, beta) && !flame_within(&fl, run, beta));
	check_nesting(&fl, &l, 60);
	flame_layout_free(&l);
	flame_free(&fl);
	cg_free(cg);
}

/* Callers of leaf: leaf at the root (80), alpha 50 and beta 30 above it,
 * then run and main under each. */
static void
test_callers(void **state)
{
	struct callgraph *cg = known();
	struct flame fl = {0};
	struct flame_layout l = {0};
	struct cg_frame leaf = fr(&sym_leaf);
	uint32_t a, b;

	(void)state;
	flame_build_callers(&fl, cg, &leaf, SYM_FULL);
	assert_true(fl.callers);
	assert_string_equal(flame_name(&fl, 1), "leaf");
	assert_true(fl.nodes[1].total == 80);
	a = node_named(&fl, 1, "alpha");
	b = node_named(&fl, 1, "beta");
	assert_true(fl.nodes[a].total == 50 && fl.nodes[b].total == 30);
	assert_true(fl.nodes[node_named(&fl, a, "run")].total == 50);
	assert_true(fl.nodes[node_named(&fl, node_named(&fl, b, "run"), "main")].total == 30);
	flame_layout(&fl, 1, 80, &l);
	assert_int_equal(box(&l, a)->w, 50);
	assert_int_equal(box(&l, b)->w, 30);
	assert_int_equal(l.rows, 4);
	check_nesting(&fl, &l, 80);
	flame_layout_free(&l);
	flame_free(&fl);
	cg_free(cg);
}

/* Moves: parent, heaviest child, neighbours in a row, stops at the ends. */
static void
test_moves(void **state)
{
	struct callgraph *cg = known();
	struct flame fl = {0};
	struct flame_layout l = {0};
	uint32_t run, a, b, g;

	(void)state;
	flame_build(&fl, cg, SYM_FULL);
	run = node_named(&fl, 0, "run");
	a = node_named(&fl, run, "alpha");
	b = node_named(&fl, run, "beta");
	g = node_named(&fl, run, "gamma");
	flame_layout(&fl, 1, 100, &l);
	assert_int_equal(flame_move(&fl, &l, run, FLAME_TO_CHILD), a);
	assert_int_equal(flame_move(&fl, &l, a, FLAME_TO_PARENT), run);
	assert_int_equal(flame_move(&fl, &l, a, FLAME_TO_NEXT), b);
	assert_int_equal(flame_move(&fl, &l, b, FLAME_TO_NEXT), g);
	assert_int_equal(flame_move(&fl, &l, g, FLAME_TO_NEXT), g);
	assert_int_equal(flame_move(&fl, &l, a, FLAME_TO_PREV), a);
	assert_int_equal(flame_move(&fl, &l, 1, FLAME_TO_PARENT), 1);
	assert_int_equal(flame_move(&fl, &l, g, FLAME_TO_CHILD), g);
	/* cousins: alpha's leaf to beta's */
	assert_int_equal(flame_move(&fl, &l, node_named(&fl, a, "leaf"), FLAME_TO_NEXT),
	                 node_named(&fl, b, "leaf"));
	flame_layout_free(&l);
	flame_free(&fl);
	cg_free(cg);
}

/* Search: matches marked, share of the samples through one, a recursive
 * function counted once per stack, within a zoom only its subtree. */
static void
test_search(void **state)
{
	struct callgraph *cg = known();
	struct cg_frame r[] = {fr(&sym_main), fr(&sym_rec), fr(&sym_rec), fr(&sym_rec)};
	struct flame fl = {0};
	unsigned char *marks;
	uint32_t run;

	(void)state;
	add_path(cg, "app", r, 4, 100);
	cg_tick(cg, true);
	add_path(cg, "app", r, 4, 100);
	{
		struct cg_frame a[] = {fr(&sym_main), fr(&sym_run), fr(&sym_alpha), fr(&sym_leaf)};
		struct cg_frame b[] = {fr(&sym_main), fr(&sym_run), fr(&sym_beta), fr(&sym_leaf)};
		struct cg_frame g[] = {fr(&sym_main), fr(&sym_run), fr(&sym_gamma)};

		add_path(cg, "app", a, 4, 50);
		add_path(cg, "app", b, 4, 30);
		add_path(cg, "app", g, 3, 20);
	}
	cg_tick(cg, true);
	flame_build(&fl, cg, SYM_FULL);
	assert_true(fl.nodes[1].total == 200);
	marks = xcalloc(fl.n, 1);
	assert_true(flame_search(&fl, 1, "LEAF", marks) == 0.4);
	assert_true(marks[node_named(&fl, node_named(&fl, 0, "alpha"), "leaf")]);
	assert_false(marks[node_named(&fl, 0, "run")]);
	assert_true(flame_search(&fl, 1, "rec", marks) == 0.5); /* not 1.5 */
	assert_true(flame_search(&fl, 1, "nothing", marks) == 0);
	assert_true(flame_search(&fl, 1, "", marks) == 0);
	run = node_named(&fl, 0, "run");
	assert_true(flame_search(&fl, run, "leaf", marks) == 0.8);
	assert_false(marks[node_named(&fl, node_named(&fl, 0, "rec"), "rec")]);
	free(marks);
	flame_free(&fl);
	cg_free(cg);
}

/* Kinds: kernel, JIT, inlined, user. */
static void
test_kinds(void **state)
{
	struct callgraph *cg = cg_new(0.5, 0);
	struct cg_frame p[] = {fr(&sym_main),
	                       {.dso = &dso_jit, .sym = &sym_jitted},
	                       {.dso = &dso_app, .sym = &sym_leaf, .inlined = true},
	                       {.dso = &dso_kern, .sym = &sym_sched, .kernel = true}};
	struct flame fl = {0};

	(void)state;
	add_path(cg, "app", p, 4, 3);
	cg_tick(cg, false);
	flame_build(&fl, cg, SYM_FULL);
	assert_int_equal(fl.nodes[node_named(&fl, 0, "main")].kind, FLAME_USER);
	assert_int_equal(fl.nodes[node_named(&fl, 0, "Interp::loop")].kind, FLAME_JIT);
	assert_int_equal(fl.nodes[node_named(&fl, 0, "leaf (inlined)")].kind, FLAME_INLINED);
	assert_int_equal(fl.nodes[node_named(&fl, 0, "schedule")].kind, FLAME_KERNEL);
	flame_free(&fl);
	cg_free(cg);
}

/* Labels: whole with the share, the share dropped, the name cut with an
 * ellipsis and the share, cut alone; display width with wide characters. */
static void
test_labels(void **state)
{
	/* "関数" twice: 4 characters of 2 columns each, 12 bytes */
	static const char wide[] = "\xe9\x96\xa2\xe6\x95\xb0\xe9\x96\xa2\xe6\x95\xb0";
	char buf[128];
	int w;

	(void)state;
	assert_int_equal(flame_text_width("alpha"), 5);
	assert_int_equal(flame_text_width(wide), 8);
	assert_int_equal(flame_label("alpha", 50, 20, "~", buf, sizeof buf), 11);
	assert_string_equal(buf, "alpha 50.0%");
	assert_int_equal(flame_label("alpha", 50, 8, "~", buf, sizeof buf), 5);
	assert_string_equal(buf, "alpha");
	assert_int_equal(flame_label("function_name", 12.5, 12, "~", buf, sizeof buf), 12);
	assert_string_equal(buf, "funct~ 12.5%");
	assert_int_equal(flame_label("function_name", 12.5, 6, "~", buf, sizeof buf), 6);
	assert_string_equal(buf, "funct~");
	assert_int_equal(flame_label("function_name", 12.5, 1, "~", buf, sizeof buf), 1);
	assert_string_equal(buf, "f");
	assert_int_equal(flame_label("x", 1, 0, "~", buf, sizeof buf), 0);
	assert_string_equal(buf, "");
	/* UTF-8 ellipsis: one column, three bytes */
	assert_int_equal(flame_label("function_name", 12.5, 6, "\u2026", buf, sizeof buf), 6);
	assert_string_equal(buf, "funct\u2026");
	/* wide: whole; then cut at an odd width never splits a character */
	assert_int_equal(flame_label(wide, 10, 14, "~", buf, sizeof buf), 14);
	assert_int_equal(flame_label(wide, 10, 7, "~", buf, sizeof buf), 7);
	assert_string_equal(buf, "\xe9\x96\xa2\xe6\x95\xb0\xe9\x96\xa2~");
	w = flame_label(wide, 10, 6, "~", buf, sizeof buf);
	assert_int_equal(w, 5); /* 2 + 2 + "~": the third character does not fit */
	assert_int_equal(flame_text_width(buf), w);
	assert_int_equal(flame_label(wide, 10, 1, "~", buf, sizeof buf), 0);
	/* an invalid byte counts one column */
	assert_int_equal(flame_text_width("a\xff"
	                                  "b"),
	                 3);
}

/* Text report: a line per depth, segments of their width with labels. */
static void
test_text_report(void **state)
{
	struct callgraph *cg = known();
	struct flame fl = {0};
	char *text = NULL, *line;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	flame_build(&fl, cg, SYM_FULL);
	report_flame_text(f, &fl, 1, 100);
	fclose(f);
	assert_non_null(strstr(text, "  0 [all 100.0%"));
	line = strstr(text, "  4 [alpha 50.0%");
	assert_non_null(line);
	/* alpha 50 columns, beta 30, gamma 20: brackets at 4, 53, 54, 83, 84, 103 */
	assert_int_equal(line[4 + 49], ']');
	assert_int_equal(line[4 + 50], '[');
	assert_int_equal(strncmp(line + 4 + 50, "[beta 30.0%", 11), 0);
	assert_int_equal(line[4 + 80], '[');
	assert_int_equal(strncmp(line + 4 + 80, "[gamma 20.0%", 12), 0);
	assert_int_equal(line[4 + 99], ']');
	assert_non_null(strstr(text, "  5 [leaf 50.0%"));
	free(text);
	flame_free(&fl);
	cg_free(cg);
}

/* SVG: names XML-escaped, one <rect> per frame, widths by samples. */
static void
test_svg(void **state)
{
	struct callgraph *cg = known();
	struct cg_frame e[] = {fr(&sym_main), fr(&sym_evil)};
	struct flame fl = {0};
	char *text = NULL;
	size_t len = 0, rects = 0;
	FILE *f = open_memstream(&text, &len);
	const char *p;

	(void)state;
	add_path(cg, "app<&>", e, 2, 100);
	cg_tick(cg, true);
	flame_build(&fl, cg, SYM_FULL);
	report_flame_svg(f, &fl, "title & <more>");
	fclose(f);
	assert_non_null(strstr(text, "<svg "));
	assert_non_null(strstr(text, "title &amp; &lt;more&gt;"));
	assert_non_null(strstr(text, "op&lt;&lt;&amp;&quot;x&quot;&apos;&gt;"));
	assert_non_null(strstr(text, "app&lt;&amp;&gt;"));
	assert_null(strstr(text, "op<<"));
	for (p = text; (p = strstr(p, "<rect x=")) != NULL; p++)
		rects++;
	assert_int_equal(rects, fl.n - 1 + 1); /* every node, and the background */
	/* the root spans 1180 pixels */
	assert_non_null(strstr(text, "width=\"1180.000\""));
	free(text);
	flame_free(&fl);
	cg_free(cg);
}

/* Run the tests (in a UTF-8 locale, for the display widths). */
int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_build),       cmocka_unit_test(test_layout_widths),
	    cmocka_unit_test(test_zoom),        cmocka_unit_test(test_callers),
	    cmocka_unit_test(test_moves),       cmocka_unit_test(test_search),
	    cmocka_unit_test(test_kinds),       cmocka_unit_test(test_labels),
	    cmocka_unit_test(test_text_report), cmocka_unit_test(test_svg),
	};

	if (setlocale(LC_ALL, "C.UTF-8") == NULL) {
		printf("1..0 # SKIP no C.UTF-8 locale\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
