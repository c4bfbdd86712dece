/* meters: the header's htop-like meters from the frame's system part —
 * a busy bar per CPU split by kind (a strip of one cell per CPU beyond
 * METER_BAR_CPUS), memory and swap bars, tasks, load and uptime — and the
 * small formatting helpers the system panes share (sizes, rates,
 * sparklines of a struct system_hist). The formatting is pure (tested
 * without a screen); only meters_draw touches curses. */
#ifndef TRACETOP_UI_METERS_H
#define TRACETOP_UI_METERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/system.h"

struct tui;

/* CPUs up to this many get a bar each; more get a strip. */
#define METER_BAR_CPUS 16

/* The kinds a CPU bar is split into, in drawing order. */
enum meter_cpu_seg {
	METER_USER,   /* user + nice */
	METER_SYSTEM, /* system */
	METER_IRQ,    /* irq + softirq */
	METER_IOWAIT,
	METER_STEAL,
	METER_CPU_SEGS
};

/* A CPU's shares by kind, in %, from its /proc/stat columns (an absent
 * column counts 0). */
void meter_cpu_segs(const struct system_cpu *c, double seg[METER_CPU_SEGS]);

/* A bar of w cells: segment i takes pct[i] % of it (rounded on the
 * running sum, so the cells never pass w and 100 % fills it), text
 * right-aligned over its end. chars[k] is the cell's character (segch[i]
 * for segment i, the text's, or a blank), seg[k] its segment or -1 (text
 * or blank). Returns the cells the segments fill. */
int meter_bar(const double *pct, size_t n, const char *segch, int w, const char *text, char *chars,
              signed char *seg);

/* The glyph of a level 0..7 (a sparkline step, a strip cell): a block of
 * that height in UTF-8, one of "_.-:=+*#" otherwise. */
const char *meter_glyph(int level, bool utf8);

/* The level 0..7 of a CPU's busy % (0 only when idle, 7 from 94 %). */
int meter_busy_level(double busy);

/* The load class of a busy %: 0 under 50, 1 under 80, 2 from there. */
int meter_load_class(double busy);

/* A sparkline of h's newest values (at most width, oldest on the left),
 * scaled to their largest; "" without values. The bytes written. */
size_t meter_sparkline(const struct system_hist *h, const struct system_hist *plus, int width,
                       bool utf8, char *buf, size_t len);

/* KiB as htop writes sizes: "812K", "512M", "1.21G", "3.0T". */
void meter_kib(uint64_t kib, char *buf, size_t len);

/* A rate with an SI suffix: "812", "12.3k", "4.56M"; "-" when not yet. */
void meter_rate(double v, char *buf, size_t len);

/* Bytes per second: "0 B/s", "812 B/s", "12.3 KiB/s", "4.56 MiB/s"; "-"
 * when not yet. */
void meter_bytes_rate(double v, char *buf, size_t len);

/* Seconds since boot as uptime(1) does: "01:02:03", "3 days, 01:02:03". */
void meter_uptime(double secs, char *buf, size_t len);

/* Lines the meters take at cols columns (0 when hidden, when the frame
 * has no system part, or on a screen too small for them). */
int meters_lines(const struct tui *t, int lines, int cols);

/* Draw the meters on stdscr from line y (meters_lines of them). */
void meters_draw(struct tui *t, int y);

#endif
