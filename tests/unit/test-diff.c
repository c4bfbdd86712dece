/* Unit tests for diff and its JSON reader: keys of live rows equal those
 * read back from the JSON reports, changes in points and ratios, new and
 * gone rows, ordering by the change, and bad input (truncated, nested too
 * deep, not a report, random bytes) refused with a message saying where. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracetop/diff.h"
#include "tracetop/json.h"
#include "tracetop/util.h"

/* A JSON value parses, and a second one follows it. */
static void
json_values(void **state)
{
	static const char text[] =
	    " {\"a\":[1,-2.5e1,true,false,null],\"s\":\"x\\ty\\u00e9\\ud83d\\ude00\"}\n"
	    "[\"\\\"q\\\\\"]";
	struct json v, w;
	struct tt_err err;
	size_t pos = 0;
	const struct json *a;
	double d;

	(void)state;
	assert_int_equal(json_parse(text, strlen(text), &pos, &v, &err), 0);
	assert_int_equal(v.type, JSON_OBJECT);
	a = json_get(&v, "a");
	assert_non_null(a);
	assert_int_equal(a->type, JSON_ARRAY);
	assert_int_equal(a->n, 5);
	assert_true(a->items[1].number == -25.0);
	assert_true(a->items[2].boolean);
	assert_false(a->items[3].boolean);
	assert_int_equal(a->items[4].type, JSON_NULL);
	assert_string_equal(json_get_str(&v, "s"), "x\ty\xc3\xa9\xf0\x9f\x98\x80");
	assert_false(json_get_num(&v, "s", &d));
	assert_null(json_get(&v, "missing"));
	assert_false(json_at_end(text, strlen(text), pos));
	assert_int_equal(json_parse(text, strlen(text), &pos, &w, &err), 0);
	assert_string_equal(w.items[0].string, "\"q\\");
	assert_true(json_at_end(text, strlen(text), pos));
	json_free(&v);
	json_free(&w);
}

/* Bad JSON is refused with the line and column of the fault. */
static void
json_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {"{\"a\":1,", "line 1, column 8: expected a member name in quotes, found the end"},
	    {"{\"a\" 1}", "line 1, column 6: expected ':' after the member name, found '1'"},
	    {"[1,\n 2 3]", "line 2, column 4: expected ',' or ']', found '3'"},
	    {"\"abc", "expected the string's closing quote"},
	    {"\"a\\x\"", "expected one of"},
	    {"\"\\u12g4\"", "expected four hex digits"},
	    {"tru", "expected a value"},
	    {"-", "expected a digit"},
	    {"1e999", "expected a valid number"},
	    {"\"a\x01\"", "expected no control character"},
	};
	struct tt_err err;
	struct json v;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t pos = 0;

		assert_int_equal(json_parse(cases[i].text, strlen(cases[i].text), &pos, &v, &err),
		                 -1);
		if (strstr(err.msg, cases[i].msg) == NULL)
			fail_msg("%s: got '%s'", cases[i].text, err.msg);
	}
}

/* Nesting past the bound is an error, not a stack overflow. */
static void
json_depth(void **state)
{
	char deep[4 * JSON_MAX_DEPTH];
	struct tt_err err;
	struct json v;
	size_t pos = 0;

	(void)state;
	memset(deep, '[', sizeof deep);
	assert_int_equal(json_parse(deep, sizeof deep, &pos, &v, &err), -1);
	assert_non_null(strstr(err.msg, "64 levels"));
}

/* Random bytes and every prefix of a report: no crash, no leak, an
 * error or a value. */
static void
json_fuzz(void **state)
{
	static const char report[] = "{\"view\":\"top\",\"rows\":[{\"overhead\":50.00,\"comm\":"
	                             "\"a\\u0001b\",\"dso\":\"/x/y\","
	                             "\"symbol\":\"f\",\"kernel\":false}]}\n";
	struct diff_set s;
	struct tt_err err;
	char buf[256];
	unsigned seed = 1;

	(void)state;
	for (size_t n = 0; n < sizeof report - 1; n++) {
		int rc = diff_set_load(&s, report, n, "cut", &err);

		assert_true(rc == -1 || n >= sizeof report - 3);
		diff_set_free(&s);
	}
	for (int round = 0; round < 2000; round++) {
		size_t n = (size_t)(rand_r(&seed) % sizeof buf);

		for (size_t i = 0; i < n; i++)
			buf[i] = "{}[]\",:0123456789.eE-truefalsnl\\u \n\"abc"[rand_r(&seed) % 40];
		if (diff_set_load(&s, buf, n, "fuzz", &err) == 0)
			diff_set_free(&s);
	}
}

/* The two reports (text) a test compares: 50/30/20, then 20/30/50 with
 * one function gone and one new, from another run (other pids, another
 * path to the binary). */
static const char base_report[] =
    "{\"view\":\"history\",\"intervals\":3}\n"
    "{\"view\":\"top\",\"group\":\"comm,dso,sym\",\"rows\":[{\"overhead\":10,\"comm\":\"split\","
    "\"pid\":1,\"dso\":\"/a/split\",\"symbol\":\"split_alpha\"}]}\n"
    "{\"view\":\"top\",\"group\":\"comm,dso,sym\",\"rows\":["
    "{\"overhead\":50.00,\"samples\":500,\"comm\":\"split\",\"pid\":11,\"dso\":\"/a/split\","
    "\"symbol\":\"split_alpha\",\"kernel\":false},"
    "{\"overhead\":30.00,\"samples\":300,\"comm\":\"split\",\"pid\":11,\"dso\":\"/a/split\","
    "\"symbol\":\"split_beta\",\"kernel\":false},"
    "{\"overhead\":19.00,\"samples\":190,\"comm\":\"split\",\"pid\":11,\"dso\":\"/a/split\","
    "\"symbol\":\"split_gamma\",\"kernel\":false},"
    "{\"overhead\":1.00,\"samples\":10,\"comm\":\"split\",\"pid\":11,\"dso\":\"/a/split\","
    "\"symbol\":\"old_fn\",\"kernel\":false},"
    /* a row gone since that report's own baseline is not one of its rows */
    "{\"overhead\":0.00,\"samples\":0,\"comm\":\"split\",\"dso\":\"split\","
    "\"symbol\":\"older_fn\",\"status\":\"gone\",\"delta_pct\":-2.00}]}\n"
    "{\"view\":\"counters\",\"rows\":[{\"event\":\"page-faults\",\"scope\":\"total\","
    "\"value\":10,\"rate\":100.0,\"total\":50,\"share\":1,\"supported\":true},"
    "{\"event\":\"cycles\",\"scope\":\"total\",\"value\":null,\"rate\":null,\"total\":null,"
    "\"share\":null,\"supported\":false}]}\n"
    "{\"view\":\"latency\",\"rows\":[{\"kind\":\"syscall\",\"name\":\"read\",\"pid\":5,"
    "\"comm\":\"cat\",\"count\":10,\"p50_ns\":1000,\"p99_ns\":5000}]}\n";

/* A live snapshot of the second run, as hist_group leaves it. */
static void
cur_set(struct diff_set *s)
{
	static struct dso dso = {.name = "/b/split"};
	static struct sym syms[4] = {{.name = "split_alpha"},
	                             {.name = "split_beta"},
	                             {.name = "split_gamma"},
	                             {.name = "new_fn"}};
	static const double shares[4] = {20, 30, 49, 1};
	struct hist_row rows[4];
	struct hist_snapshot snap = {.rows = rows, .n = 4};
	struct counters_row cr = {.event = "page-faults", .supported = true, .rate = 400};
	struct counters_snapshot cs = {.rows = &cr, .n = 1};
	struct lat_row lr = {.kind = LAT_SYSCALL, .name = "read", .pid = 99, .comm = "cat"};
	struct frame_latency fl = {.rows = &lr, .nrows = 1};

	memset(rows, 0, sizeof rows);
	for (int i = 0; i < 4; i++) {
		rows[i].copy.key = (struct hist_key){
		    .pid = 22, .comm = str_intern("split"), .dso = &dso, .sym = &syms[i]};
		rows[i].entry = &rows[i].copy;
		rows[i].overhead = shares[i];
	}
	snprintf(cr.scope, sizeof cr.scope, "total");
	lat_hist_reset(&lr.hist);
	for (int i = 0; i < 10; i++)
		lat_hist_add(&lr.hist, 2000, false);
	memset(s, 0, sizeof *s);
	diff_set_add_top(s, &snap, HIST_GROUP_DEFAULT);
	diff_set_add_counters(s, &cs, 1);
	diff_set_add_latency(s, &fl);
	diff_set_seal(s);
}

/* The row of key in rows. */
static const struct diff_row *
row_of(const struct diff_row *rows, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].key, key) == 0)
			return &rows[i];
	fail_msg("no row %s", key);
	return NULL;
}

/* The last top report of a file is the baseline; live keys match it. */
static void
diff_top(void **state)
{
	struct diff_set base, cur;
	struct diff_row *rows;
	struct tt_err err;
	const struct diff_row *r;
	size_t n;

	(void)state;
	assert_int_equal(diff_set_load(&base, base_report, strlen(base_report), "base", &err), 0);
	assert_int_equal(base.group, HIST_GROUP_DEFAULT);
	assert_int_equal(base.n[DIFF_TOP], 4);
	cur_set(&cur);
	n = diff_compare(&base, &cur, DIFF_TOP, &rows);
	assert_int_equal(n, 5);
	/* most changed first: gamma +30, alpha -30 (ties by key), then ... */
	assert_string_equal(rows[0].key, "split\tsplit\tsplit_alpha");
	assert_string_equal(rows[1].key, "split\tsplit\tsplit_gamma");
	r = row_of(rows, n, "split\tsplit\tsplit_alpha");
	assert_int_equal(r->status, DIFF_SAME);
	assert_true(fabs(r->delta + 30) < 1e-9);
	assert_true(fabs(r->ratio - 0.4) < 1e-9);
	r = row_of(rows, n, "split\tsplit\tsplit_beta");
	assert_true(fabs(r->delta) < 1e-9 && fabs(r->ratio - 1) < 1e-9);
	r = row_of(rows, n, "split\tsplit\tnew_fn");
	assert_int_equal(r->status, DIFF_NEW);
	assert_true(r->delta == 1 && r->ratio == 0);
	r = row_of(rows, n, "split\tsplit\told_fn");
	assert_int_equal(r->status, DIFF_GONE);
	assert_true(r->delta == -1 && r->cur == 0);
	free(rows);
	diff_set_free(&base);
	diff_set_free(&cur);
}

/* Counters compare rates, latency rows p50 and p99; unsupported
 * counters are left out. */
static void
diff_other_kinds(void **state)
{
	struct diff_set base, cur;
	struct diff_row *rows;
	struct tt_err err;
	size_t n;

	(void)state;
	assert_int_equal(diff_set_load(&base, base_report, strlen(base_report), "base", &err), 0);
	cur_set(&cur);
	assert_int_equal(base.n[DIFF_COUNTERS], 1);
	n = diff_compare(&base, &cur, DIFF_COUNTERS, &rows);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].key, "page-faults\ttotal");
	assert_true(rows[0].ratio == 4.0 && rows[0].delta == 300);
	free(rows);
	n = diff_compare(&base, &cur, DIFF_LATENCY, &rows);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].key, "syscall\tread\tcat");
	assert_true(rows[0].base == 1000 && rows[0].cur == 2000 && rows[0].base2 == 5000);
	assert_true(rows[0].ratio == 2.0);
	free(rows);
	diff_set_free(&base);
	diff_set_free(&cur);
}

/* Keys: a name with a tab or control byte stays one escaped field; the
 * grouping picks the fields; rows keyed alike add up. */
static void
diff_keys(void **state)
{
	static struct dso dso = {.name = "[kernel.kallsyms]"};
	static struct sym sym = {.name = "do_syscall_64"};
	struct hist_entry e = {
	    .key = {.pid = 3, .tid = 4, .comm = "a\tb", .dso = &dso, .sym = &sym}};
	struct diff_set s = {0};
	char key[256], f[64];

	(void)state;
	diff_top_key(&e, HIST_GROUP_DEFAULT, key, sizeof key);
	assert_string_equal(key, "a\\x09b\t[kernel.kallsyms]\tdo_syscall_64");
	diff_key_field(key, 0, f, sizeof f);
	assert_string_equal(f, "a\\x09b");
	diff_key_field(key, 2, f, sizeof f);
	assert_string_equal(f, "do_syscall_64");
	diff_key_field(key, 3, f, sizeof f);
	assert_string_equal(f, "");
	diff_top_key(&e, HIST_GROUP_PID | HIST_GROUP_SYM, key, sizeof key);
	assert_string_equal(key, "3\tdo_syscall_64");
	diff_set_add(&s, DIFF_TOP, "x", 2, 0, 0);
	diff_set_add(&s, DIFF_TOP, "x", 3, 0, 0);
	diff_set_add(&s, DIFF_LATENCY, "y", 1, 0, 5);
	diff_set_add(&s, DIFF_LATENCY, "y", 9, 0, 50);
	diff_set_seal(&s);
	assert_true(diff_set_find(&s, DIFF_TOP, "x")->value == 5);
	assert_true(diff_set_find(&s, DIFF_LATENCY, "y")->value == 9);
	assert_null(diff_set_find(&s, DIFF_COUNTERS, "x"));
	diff_set_free(&s);
}

/* Reports that are not tracetop's, or broken, say what is wrong. */
static void
diff_load_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {"", "base: empty"},
	    {"[1]\n", "base:1: not a tracetop report"},
	    {"{\"view\":\"trace\",\"rows\":[]}\n", "no top, counters or latency report"},
	    {"{\"view\":\"top\"}\n", "base:1: a report without a \"rows\" array"},
	    {"{\"view\":\"top\",\"rows\":[1]}", "row 1 is not an object"},
	    {"\n\n{\"view\":\"top\",\"rows\":[{\"comm\":\"x\"}]}",
	     "base:3: top row 1 has no number"},
	    {"{\"view\":\"top\",\"group\":\"bogus\",\"rows\":[]}", "\"group\": "},
	    {"{\"view\":\"latency\",\"rows\":[{\"kind\":\"syscall\"}]}", "latency row 1 lacks"},
	    {"{\"view\":\"top\",\"rows\":[]}\n{\"view\"", "not tracetop's JSON report: line 2"},
	};
	struct diff_set s;
	struct tt_err err;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(
		    diff_set_load(&s, cases[i].text, strlen(cases[i].text), "base", &err), -1);
		if (strstr(err.msg, cases[i].msg) == NULL)
			fail_msg("case %zu: got '%s'", i, err.msg);
		assert_int_equal(s.n[DIFF_TOP], 0);
	}
	assert_int_equal(diff_set_load_file(&s, "/nonexistent/base.json", &err), -1);
	assert_non_null(strstr(err.msg, "cannot read /nonexistent/base.json"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(json_values), cmocka_unit_test(json_errors),
	    cmocka_unit_test(json_depth),  cmocka_unit_test(json_fuzz),
	    cmocka_unit_test(diff_top),    cmocka_unit_test(diff_other_kinds),
	    cmocka_unit_test(diff_keys),   cmocka_unit_test(diff_load_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
