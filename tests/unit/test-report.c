/* Unit tests of report: text and JSON renderings of a snapshot, and the
 * escaping of text that comes from the traced system. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracetop/report.h"

struct fixture {
	struct hist *h;
	struct hist_snapshot snap;
	struct dso libc, kernel;
	struct sym memcpy_sym, schedule_sym;
	char *buf;
	size_t len;
	FILE *out;
};

static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};

/* Count n samples for a key. */
static void
add_n(struct hist *h, const struct hist_key *k, int n)
{
	while (n-- > 0)
		hist_add(h, k);
}

/* A snapshot with a user row, a kernel row, an unresolved row and a hostile comm. */
static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct hist_key k = {0};

	f->libc =
	    (struct dso){.name = "/usr/lib/libc.so.6", .short_name = "libc.so.6", .kind = DSO_ELF};
	f->kernel = (struct dso){
	    .name = "[kernel.kallsyms]", .short_name = "[kernel.kallsyms]", .kind = DSO_KERNEL};
	f->memcpy_sym = (struct sym){.start = 0x1000, .size = 0x100, .name = "memcpy"};
	f->schedule_sym = (struct sym){.start = 0xffff0000, .size = 0x80, .name = "schedule"};
	f->h = hist_new(0.5);

	k = (struct hist_key){
	    .pid = 42, .comm = str_intern("app"), .dso = &f->libc, .sym = &f->memcpy_sym};
	add_n(f->h, &k, 50);
	k = (struct hist_key){.pid = 42,
	                      .comm = str_intern("app"),
	                      .dso = &f->kernel,
	                      .sym = &f->schedule_sym,
	                      .kernel = true};
	add_n(f->h, &k, 30);
	k = (struct hist_key){
	    .pid = 7, .comm = str_intern("ev\x1b[31m\"q\"\nx"), .dso = NULL, .addr = 0x1a2b};
	add_n(f->h, &k, 20);
	hist_tick(f->h, true);
	hist_snapshot(f->h, by_overhead, NULL, NULL, &f->snap);
	f->out = open_memstream(&f->buf, &f->len);
	*state = f;
	return 0;
}

/* Release the fixture. */
static int
teardown(void **state)
{
	struct fixture *f = *state;

	if (f->out)
		fclose(f->out);
	free(f->buf);
	hist_snapshot_free(&f->snap);
	hist_free(f->h);
	free(f);
	return 0;
}

/* Flush the stream and return what was written. */
static const char *
text_of(struct fixture *f)
{
	fflush(f->out);
	return f->buf;
}

static const struct report_info info = {
    .event = "cpu-clock",
    .target = "system-wide (2 CPUs)",
    .samples = 100,
    .lost = 3,
    .total_samples = 400,
    .total_lost = 5,
    .seconds = 2.0,
    .wall = 1700000000.25,
};

/* The text header and titles. */
static void
test_text_header(void **state)
{
	struct fixture *f = *state;
	const char *t;

	report_text(f->out, &info, &f->snap);
	t = text_of(f);
	assert_non_null(strstr(t,
	                       "event: cpu-clock  samples/s: 50  samples: 100  lost: 3 (total 5)  "
	                       "target: system-wide (2 CPUs)\n"));
	assert_null(strstr(t, "note:"));
	assert_non_null(strstr(t, "Overhead   Samples  Command"));
	assert_non_null(strstr(t, "Shared Object"));
}

/* Rows: percentages, [.] and [k], unresolved addresses, blank line at the end. */
static void
test_text_rows(void **state)
{
	struct fixture *f = *state;
	const char *t;

	report_text(f->out, &info, &f->snap);
	t = text_of(f);
	assert_non_null(strstr(t, "  50.00%        50  app                   42  libc.so.6"));
	assert_non_null(strstr(t, "[.] memcpy\n"));
	assert_non_null(strstr(t, "  30.00%        30  app"));
	assert_non_null(strstr(t, "[kernel.kallsyms]        [k] schedule\n"));
	assert_non_null(strstr(t, "[unknown]                [.] [unknown] 0x1a2b\n"));
	assert_true(strstr(t, "memcpy") < strstr(t, "schedule"));
	assert_string_equal(t + strlen(t) - 2, "\n\n");
}

/* Control characters never reach the output raw. */
static void
test_text_escapes(void **state)
{
	struct fixture *f = *state;
	const char *t;

	report_text(f->out, &info, &f->snap);
	t = text_of(f);
	assert_null(strchr(t, '\x1b'));
	assert_non_null(strstr(t, "ev\\x1b[31m\"q\"\\x0ax"));
}

/* The notice line, and the row limit. */
static void
test_text_notice_rows(void **state)
{
	struct fixture *f = *state;
	struct report_info ri = info;
	const char *t;

	ri.notice = "cycles is not supported here";
	ri.max_rows = 1;
	report_text(f->out, &ri, &f->snap);
	t = text_of(f);
	assert_non_null(strstr(t, "\nnote: cycles is not supported here\n"));
	assert_non_null(strstr(t, "memcpy"));
	assert_null(strstr(t, "schedule"));
}

/* The JSON object: header fields, one line, rows in order. */
static void
test_json_object(void **state)
{
	struct fixture *f = *state;
	const char *t;

	report_json(f->out, &info, &f->snap);
	t = text_of(f);
	assert_true(
	    strncmp(t,
	            "{\"view\":\"top\",\"event\":\"cpu-clock\",\"target\":"
	            "\"system-wide (2 CPUs)\",\"time\":1700000000.250,\"interval\":2.000,"
	            "\"samples\":100,\"samples_per_sec\":50.0,\"lost\":3,"
	            "\"total_samples\":400,\"total_lost\":5,\"rows\":[",
	            strlen("{\"view\":\"top\",\"event\":\"cpu-clock\",\"target\":"
	                   "\"system-wide (2 CPUs)\",\"time\":1700000000.250,\"interval\":2.000,"
	                   "\"samples\":100,\"samples_per_sec\":50.0,\"lost\":3,"
	                   "\"total_samples\":400,\"total_lost\":5,\"rows\":[")) == 0);
	assert_non_null(strstr(t, "{\"overhead\":50.00,\"samples\":50,\"comm\":\"app\",\"pid\":42,"
	                          "\"dso\":\"/usr/lib/libc.so.6\",\"symbol\":\"memcpy\","
	                          "\"kernel\":false}"));
	assert_non_null(strstr(t, "\"dso\":\"[kernel.kallsyms]\",\"symbol\":\"schedule\","
	                          "\"kernel\":true}"));
	assert_string_equal(t + strlen(t) - 3, "]}\n");
	assert_ptr_equal(strchr(t, '\n'), t + strlen(t) - 1);
	assert_null(strstr(t, "notice"));
	assert_null(strstr(t, "requested_event"));
}

/* Unresolved rows carry their offset; hostile names are valid JSON strings. */
static void
test_json_unknown_and_escapes(void **state)
{
	struct fixture *f = *state;
	const char *t;

	report_json(f->out, &info, &f->snap);
	t = text_of(f);
	assert_non_null(strstr(t, "\"comm\":\"ev\\\\x1b[31m\\\"q\\\"\\\\x0ax\",\"pid\":7,"
	                          "\"dso\":\"[unknown]\",\"symbol\":\"[unknown]\",\"offset\":6699,"
	                          "\"kernel\":false}"));
	assert_null(strchr(t, '\x1b'));
}

/* A name's own backslash is escaped once by JSON: decoded, "(\d+)" is
 * "(\d+)" (V8's RegExp names), not "(\\d+)". */
static void
test_json_backslash(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	report_json_string(f, "RegExp:([a-z]+)(\\d+)");
	fclose(f);
	assert_string_equal(buf, "\"RegExp:([a-z]+)(\\\\d+)\"");
	free(buf);
}

/* requested_event and notice appear when set. */
static void
test_json_fallback(void **state)
{
	struct fixture *f = *state;
	struct report_info ri = info;
	const char *t;

	ri.requested = "cycles";
	ri.notice = "cycles is not supported here";
	report_json(f->out, &ri, &f->snap);
	t = text_of(f);
	assert_non_null(strstr(t, "\"event\":\"cpu-clock\",\"requested_event\":\"cycles\","
	                          "\"notice\":\"cycles is not supported here\","));
}

/* The cgroup: a JSON member (short name and path, escaped) on rows that
 * know theirs; a text column only when asked for (--sort cgroup). */
static void
test_cgroup(void **state)
{
	static const struct cgroup web = {"/system.slice/docker-x.scope", "4f3c2b1a0e9d"},
	                           evil = {"/evil\x1b[2J\"", "evil\x1b[2J\""};
	struct fixture *f = *state;
	struct hist *h = hist_new(0.5);
	struct hist_snapshot snap = {0};
	struct report_info ri = info;
	struct hist_key k = {
	    .pid = 9, .comm = str_intern("nginx"), .dso = &f->libc, .sym = &f->memcpy_sym};
	const char *t;

	k.cgroup = &web;
	add_n(h, &k, 30);
	k.cgroup = &evil;
	k.pid = 10;
	add_n(h, &k, 20);
	k.cgroup = NULL;
	k.pid = 11;
	add_n(h, &k, 10);
	hist_tick(h, true);
	hist_snapshot(h, by_overhead, NULL, NULL, &snap);
	report_json(f->out, &ri, &snap);
	report_text(f->out, &ri, &snap);
	ri.cgroup = true;
	report_text(f->out, &ri, &snap);
	t = text_of(f);
	assert_non_null(strstr(t, "\"pid\":9,\"cgroup\":\"4f3c2b1a0e9d\","
	                          "\"cgroup_path\":\"/system.slice/docker-x.scope\",\"dso\":"));
	assert_non_null(strstr(t, "\"pid\":10,\"cgroup\":\"evil\\\\x1b[2J\\\"\","));
	assert_non_null(strstr(t, "\"pid\":11,\"dso\":"));
	assert_null(strchr(t, '\x1b'));
	/* the first text report has no column, the second has */
	assert_non_null(strstr(t, "   PID  Shared Object"));
	assert_non_null(strstr(t, "   PID  Cgroup           Shared Object"));
	assert_non_null(strstr(t, "nginx                  9  4f3c2b1a0e9d     libc.so.6"));
	assert_non_null(strstr(t, "nginx                 10  evil\\x1b[2J\"     libc.so.6"));
	assert_non_null(strstr(t, "nginx                 11  [unknown]        libc.so.6"));
	hist_snapshot_free(&snap);
	hist_free(h);
}

/* Column helpers used by the TUI too. */
static void
test_columns(void **state)
{
	struct fixture *f = *state;
	char buf[64];

	report_dso(f->snap.rows[0].entry, buf, sizeof buf);
	assert_string_equal(buf, "libc.so.6");
	report_dso(f->snap.rows[1].entry, buf, sizeof buf);
	assert_string_equal(buf, "[kernel.kallsyms]");
	report_symbol(f->snap.rows[2].entry, SYM_FULL, buf, sizeof buf);
	assert_string_equal(buf, "[unknown] 0x1a2b");
	report_comm(f->snap.rows[2].entry, buf, 8);
	assert_string_equal(buf, "ev\\x1b[");
}

/* Merged rows: the text's PID reads "-", JSON names the grouping, keeps
 * the busiest pid and says how many processes; with call stacks the text
 * prints each row's callers as a tree under it. */
static void
test_grouped(void **state)
{
	struct fixture *f = *state;
	struct report_info ri = info;
	struct hist_key k = {.comm = str_intern("pg"), .dso = &f->libc, .sym = &f->memcpy_sym};
	struct sym run = {.start = 0x2000, .size = 0x10, .name = "run"};
	struct sym mainf = {.start = 0x3000, .size = 0x10, .name = "main"};
	struct cg_frame st[3] = {{.dso = &f->libc, .sym = &f->memcpy_sym},
	                         {.dso = &f->libc, .sym = &run},
	                         {.dso = &f->libc, .sym = &mainf}};
	struct callgraph *cg = cg_new(0.5, 0);
	const char *t;

	for (k.pid = 100; k.pid < 110; k.pid++)
		add_n(f->h, &k, k.pid == 105 ? 9 : 3);
	hist_tick(f->h, true);
	hist_snapshot(f->h, by_overhead, NULL, NULL, &f->snap);
	hist_group(&f->snap, HIST_GROUP_DEFAULT, by_overhead);
	cg_add_n(cg, k.comm, st, 3, 30);
	cg_add_n(cg, k.comm, st, 2, 6);
	cg_tick(cg, true);
	ri.group = HIST_GROUP_DEFAULT;
	report_json(f->out, &ri, &f->snap);
	t = text_of(f);
	assert_non_null(strstr(t, ",\"group\":\"comm,dso,sym\","));
	assert_non_null(strstr(t, "\"comm\":\"pg\",\"pid\":105,\"processes\":10,"));
	assert_null(strstr(t, "\"processes\":1,"));
	ri.cg = cg;
	report_text(f->out, &ri, &f->snap);
	t = text_of(f);
	assert_non_null(strstr(t, "pg                     -  libc.so.6                [.] memcpy\n"
	                          "            ---memcpy\n"
	                          "               `--100.00%--run\n"
	                          "                   `--83.33%--main\n"));
	ri.chain_depth = 1;
	report_text(f->out, &ri, &f->snap);
	t = text_of(f);
	assert_non_null(strstr(t, "               `--100.00%--run\n"
	                          "                   `-- ... (--max-stack 1)\n"));
	cg_free(cg);
}

/* Grouped by pid alone, a process's row merges objects and functions:
 * the text says how many (no "-" that reads like a name), the [k]/[.]
 * marker is left out when both kinds are merged, JSON counts them. */
static void
test_grouped_pid(void **state)
{
	struct fixture *f = *state;
	struct report_info ri = info;
	const char *t;

	hist_group(&f->snap, HIST_GROUP_PID, by_overhead);
	ri.group = HIST_GROUP_PID;
	report_text(f->out, &ri, &f->snap);
	t = text_of(f);
	assert_non_null(
	    strstr(t, "  80.00%        80  app                   42  (2 objects)              "
	              "    (2 functions)\n"));
	assert_null(strstr(t, " - "));
	assert_non_null(strstr(t, "[unknown]                [.] [unknown] 0x1a2b\n"));
	report_json(f->out, &ri, &f->snap);
	t = text_of(f);
	/* the most sampled entry's fields, and how many were merged */
	assert_non_null(
	    strstr(t, "\"pid\":42,\"objects\":2,\"functions\":2,\"dso\":\"/usr/lib/libc.so.6\""));
}

/* With a baseline: each row's change (text columns, JSON members), rows
 * the baseline lacks marked new, its rows absent now after the others. */
static void
test_baseline(void **state)
{
	struct fixture *f = *state;
	struct report_info ri = info;
	struct diff_set base = {0};
	const char *t;

	diff_set_add(&base, DIFF_TOP, "app\tlibc.so.6\tmemcpy", 20, 0, 0);
	diff_set_add(&base, DIFF_TOP, "app\tlibc.so.6\tfree", 5, 0, 0);
	diff_set_seal(&base);
	base.group = HIST_GROUP_DEFAULT;
	ri.group = HIST_GROUP_DEFAULT;
	ri.base = &base;
	report_text(f->out, &ri, &f->snap);
	t = text_of(f);
	assert_non_null(strstr(t, "Overhead   Samples     Delta   Ratio  Command"));
	assert_non_null(strstr(t, "  50.00%        50    +30.00   x2.50  app "));
	assert_non_null(strstr(t, "  30.00%        30    +30.00     new  app "));
	assert_non_null(strstr(t, "   0.00%         0     -5.00    gone  app                    -  "
	                          "libc.so.6                [?] free\n"));
	report_json(f->out, &ri, &f->snap);
	t = text_of(f);
	assert_non_null(strstr(t, "\"symbol\":\"memcpy\",\"kernel\":false,\"status\":\"same\","
	                          "\"delta_pct\":30.00,\"base_pct\":20.00,\"ratio\":2.5000}"));
	assert_non_null(strstr(t, "\"symbol\":\"schedule\",\"kernel\":true,\"status\":\"new\","
	                          "\"delta_pct\":30.00,\"base_pct\":0.00,\"ratio\":null}"));
	assert_non_null(strstr(t, ",{\"overhead\":0.00,\"samples\":0,\"comm\":\"app\",\"dso\":"
	                          "\"libc.so.6\",\"symbol\":\"free\",\"status\":\"gone\","
	                          "\"delta_pct\":-5.00,\"base_pct\":5.00,\"ratio\":null}]}\n"));
	diff_set_free(&base);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_text_header, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_text_rows, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_text_escapes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_text_notice_rows, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_json_object, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_json_unknown_and_escapes, setup, teardown),
	    cmocka_unit_test(test_json_backslash),
	    cmocka_unit_test_setup_teardown(test_json_fallback, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cgroup, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_columns, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_grouped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_grouped_pid, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_baseline, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
