/* Unit tests for the header meters and the system panes' formatting:
 * bars split by kind, strip and sparkline glyphs (UTF-8 and ASCII),
 * sizes, rates, uptime, and the meters drawn under the header on a
 * headless screen (bars beside memory, a grid, a strip of 256 CPUs in
 * four lines, hidden with m, absent sections with their reason). */
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

#include "headless.h"

#include "tracetop/util.h"
#include "ui/meters.h"
#include "ui/screen.h"
#include "ui/tui.h"

/* A bar's characters as a string. */
static const char *
bar(const double *pct, size_t n, int w, const char *text)
{
	static char out[128];
	signed char seg[128];

	meter_bar(pct, n, "|#*.~", w, text, out, seg);
	out[w] = '\0';
	return out;
}

/* Segments by their running sum, rounded; the text over the end. */
static void
test_bar(void **state)
{
	const double half[] = {50, 25};
	const double full[] = {60, 30, 10};
	const double over[] = {80, 80};
	const double absent[] = {NAN, 50};
	char chars[10];
	signed char seg[10];

	(void)state;
	assert_string_equal(bar(half, 2, 8, NULL), "||||##  ");
	assert_string_equal(bar(full, 3, 10, NULL), "||||||###*");
	assert_string_equal(bar(over, 2, 6, NULL), "|||||#");
	assert_string_equal(bar(absent, 2, 4, NULL), "##  ");
	assert_string_equal(bar(half, 2, 10, "75%"), "|||||##75%");
	assert_string_equal(bar(half, 2, 2, "75.0%"), "75");
	assert_int_equal(meter_bar(half, 2, "|#", 8, NULL, chars, seg), 6);
	assert_int_equal(seg[0], 0);
	assert_int_equal(seg[5], 1);
	assert_int_equal(seg[6], -1);
	assert_int_equal(meter_bar(half, 2, "|#", 0, NULL, chars, seg), 0);
}

/* A CPU's /proc/stat columns into the five kinds. */
static void
test_cpu_segs(void **state)
{
	struct system_cpu c;
	double s[METER_CPU_SEGS];

	(void)state;
	memset(&c, 0, sizeof c);
	c.pct[SYS_CPU_USER] = 10;
	c.pct[SYS_CPU_NICE] = 5;
	c.pct[SYS_CPU_SYSTEM] = 20;
	c.pct[SYS_CPU_IRQ] = 1;
	c.pct[SYS_CPU_SOFTIRQ] = 2;
	c.pct[SYS_CPU_IOWAIT] = 3;
	c.pct[SYS_CPU_STEAL] = NAN; /* a kernel without the column */
	meter_cpu_segs(&c, s);
	assert_true(s[METER_USER] == 15);
	assert_true(s[METER_SYSTEM] == 20);
	assert_true(s[METER_IRQ] == 3);
	assert_true(s[METER_IOWAIT] == 3);
	assert_true(s[METER_STEAL] == 0);
}

/* Levels of busy %, glyphs in both sets, load classes. */
static void
test_glyphs(void **state)
{
	(void)state;
	assert_int_equal(meter_busy_level(0), 0);
	assert_int_equal(meter_busy_level(NAN), 0);
	assert_int_equal(meter_busy_level(3), 1);
	assert_int_equal(meter_busy_level(50), 4);
	assert_int_equal(meter_busy_level(100), 7);
	assert_string_equal(meter_glyph(0, true), "\u2581");
	assert_string_equal(meter_glyph(7, true), "\u2588");
	assert_string_equal(meter_glyph(0, false), "_");
	assert_string_equal(meter_glyph(7, false), "#");
	assert_string_equal(meter_glyph(99, false), "#");
	assert_int_equal(meter_load_class(10), 0);
	assert_int_equal(meter_load_class(60), 1);
	assert_int_equal(meter_load_class(95), 2);
}

/* The newest values, oldest first, scaled to the largest; a second ring
 * adds to the first; no values, no glyphs. */
static void
test_sparkline(void **state)
{
	struct system_hist h, w;
	char buf[64];

	(void)state;
	memset(&h, 0, sizeof h);
	memset(&w, 0, sizeof w);
	assert_int_equal(meter_sparkline(&h, NULL, 8, false, buf, sizeof buf), 0);
	assert_string_equal(buf, "");
	for (int i = 0; i < 8; i++)
		system_hist_push(&h, i);
	system_hist_push(&h, NAN); /* not kept */
	meter_sparkline(&h, NULL, 8, false, buf, sizeof buf);
	assert_string_equal(buf, "_.-:=+*#");
	meter_sparkline(&h, NULL, 3, false, buf, sizeof buf);
	assert_string_equal(buf, "+*#"); /* scaled to the newest three */
	meter_sparkline(&h, NULL, 2, true, buf, sizeof buf);
	assert_string_equal(buf, "\u2587\u2588");
	for (int i = 0; i < 8; i++)
		system_hist_push(&w, 7 - i);
	meter_sparkline(&h, &w, 4, false, buf, sizeof buf);
	assert_string_equal(buf, "####");                                /* 7 every interval */
	assert_int_equal(meter_sparkline(&h, NULL, 8, true, buf, 7), 6); /* two glyphs fit */
}

/* Sizes, rates and uptimes as htop and uptime(1) write them. */
static void
test_formats(void **state)
{
	char buf[32];

	(void)state;
	meter_kib(0, buf, sizeof buf);
	assert_string_equal(buf, "0K");
	meter_kib(812, buf, sizeof buf);
	assert_string_equal(buf, "812K");
	meter_kib(512 * 1024, buf, sizeof buf);
	assert_string_equal(buf, "512M");
	meter_kib(1268776, buf, sizeof buf);
	assert_string_equal(buf, "1.21G");
	meter_kib(24641536, buf, sizeof buf);
	assert_string_equal(buf, "23.5G");
	meter_rate(NAN, buf, sizeof buf);
	assert_string_equal(buf, "-");
	meter_rate(812, buf, sizeof buf);
	assert_string_equal(buf, "812");
	meter_rate(0.5, buf, sizeof buf);
	assert_string_equal(buf, "0.5");
	meter_rate(12345, buf, sizeof buf);
	assert_string_equal(buf, "12.3k");
	meter_bytes_rate(0, buf, sizeof buf);
	assert_string_equal(buf, "0 B/s");
	meter_bytes_rate(1536, buf, sizeof buf);
	assert_string_equal(buf, "1.50 KiB/s");
	meter_bytes_rate(NAN, buf, sizeof buf);
	assert_string_equal(buf, "-");
	meter_uptime(3723, buf, sizeof buf);
	assert_string_equal(buf, "01:02:03");
	meter_uptime(86400 + 3723, buf, sizeof buf);
	assert_string_equal(buf, "1 day, 01:02:03");
	meter_uptime(3 * 86400, buf, sizeof buf);
	assert_string_equal(buf, "3 days, 00:00:00");
}

/* ---- drawing ---- */

struct fixture {
	struct tui t;
	struct frame frame;
	struct system_cpu cpus[256];
};

/* A frame with n CPUs at 0, 50 and 100 % in turn, memory, swap, tasks. */
static void
fixture_init(struct fixture *f, size_t n)
{
	memset(f, 0, sizeof *f);
	f->frame.has_system = true;
	f->frame.system.cpus = f->cpus;
	f->frame.system.ncpus = n;
	for (size_t i = 0; i < n; i++) {
		f->cpus[i].cpu = (int)i;
		f->cpus[i].pct[SYS_CPU_USER] = (double)(i % 3) * 50;
		f->cpus[i].busy = (double)(i % 3) * 50;
	}
	f->frame.system.mem.kib[SYSTEM_MEM_TOTAL] = 4 * 1024 * 1024;
	f->frame.system.mem.kib[SYSTEM_MEM_USED] = 1024 * 1024;
	f->frame.system.mem.kib[SYSTEM_MEM_SWAP_TOTAL] = 1024 * 1024;
	f->frame.system.misc.v[SYSTEM_TASKS] = 120;
	f->frame.system.misc.v[SYSTEM_PROCS_RUNNING] = 3;
	f->frame.system.misc.v[SYSTEM_LOAD1] = 0.5;
	f->frame.system.misc.v[SYSTEM_UPTIME] = 3723;
	f->t.frame = &f->frame;
	theme_plain(&f->t.theme, true);
	f->t.delay = 2;
}

/* Column of needle on line y, -1 when absent. */
static int
line_col(int y, const char *needle)
{
	const char *line = headless_text(y, 0, COLS);
	const char *at = strstr(line, needle);

	return at == NULL ? -1 : (int)(at - line);
}

/* Two CPUs: bars on the left, memory and swap on the right, the tasks
 * line, then the tab bar; m hides them; no system part, no meters. */
static void
test_draw_few(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f, 2);
	headless_screen(24, 80);
	assert_int_equal(screen_header_lines(&f.t), 6);
	screen_draw_header(&f.t);
	assert_int_equal(line_col(2, "0["), 0);
	assert_true(line_col(2, "0.0%]") > 0);
	assert_int_equal(line_col(3, "1[||||||||||||||||||"), 0);
	assert_true(line_col(3, "50.0%]") > 0);
	assert_true(line_col(2, "Mem[||||") > 0);
	assert_true(line_col(2, "1.00G/4.00G]") > 0);
	assert_true(line_col(3, "Swp[") > 0);
	assert_true(line_col(3, "0K/1.00G]") > 0);
	assert_int_equal(line_col(4, "Tasks: 120, 3 running  Load average: 0.50 0.00 0.00  "
	                             "Uptime: 01:02:03"),
	                 0);
	f.t.no_meters = true;
	assert_int_equal(screen_header_lines(&f.t), 3);
	f.t.no_meters = false;
	f.frame.has_system = false;
	assert_int_equal(screen_header_lines(&f.t), 3);
	/* too short a screen: the pane keeps its lines */
	f.frame.has_system = true;
	headless_screen(12, 80);
	assert_int_equal(screen_header_lines(&f.t), 3);
}

/* Twelve CPUs at 80 columns: a grid of four bars a line; 256 CPUs: a
 * strip of one cell each, in four lines. */
static void
test_draw_many(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f, 12);
	headless_screen(40, 80);
	assert_int_equal(screen_header_lines(&f.t), 3 + 3 + 2);
	screen_draw_header(&f.t);
	assert_int_equal(line_col(2, " 0["), 0);
	assert_int_equal(line_col(2, " 1["), 20);
	assert_int_equal(line_col(4, "11["), 60);
	assert_int_equal(line_col(5, "Mem["), 0);
	fixture_init(&f, 256);
	headless_screen(40, 80);
	assert_int_equal(screen_header_lines(&f.t), 3 + 4 + 2);
	screen_draw_header(&f.t);
	assert_int_equal(line_col(2, "CPUs["), 0);
	/* 0, 50, 100 %: the lowest block, a middle one, the full one */
	assert_int_equal(line_col(2, "\u2581\u2585\u2588\u2581"), 5);
	assert_true(line_col(5, "]") > 0);
	assert_int_equal(line_col(6, "Mem["), 0);
	theme_plain(&f.t.theme, false);
	screen_draw_header(&f.t);
	assert_int_equal(line_col(2, "CPUs[_=#_=#"), 0);
}

/* What /proc could not tell is absent with its reason, never 0. */
static void
test_draw_absent(void **state)
{
	struct fixture f;

	(void)state;
	fixture_init(&f, 0);
	f.frame.system.cpu_error = "/proc/stat: Permission denied";
	f.frame.system.mem.why[SYSTEM_MEM_SWAP_TOTAL] = "/proc/meminfo has no SwapTotal";
	f.frame.system.misc.why[SYSTEM_LOAD1] = "/proc/loadavg: No such file";
	headless_screen(24, 100);
	screen_draw_header(&f.t);
	assert_int_equal(line_col(2, "CPU absent: /proc/stat: Permission denied"), 0);
	assert_true(line_col(3, "Swp absent: /proc/meminfo has no SwapTotal") > 0);
	assert_true(line_col(4, "Load average: absent") > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bar),       cmocka_unit_test(test_cpu_segs),
	    cmocka_unit_test(test_glyphs),    cmocka_unit_test(test_sparkline),
	    cmocka_unit_test(test_formats),   cmocka_unit_test(test_draw_few),
	    cmocka_unit_test(test_draw_many), cmocka_unit_test(test_draw_absent),
	};

	return headless_run("meters", tests, sizeof tests / sizeof tests[0], true);
}
