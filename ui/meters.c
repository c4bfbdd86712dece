/* meters: the header's htop-like meters, and the formatting the system
 * panes share. Colour tells a bar's kinds apart as htop does (every cell a
 * '|'); in monochrome each kind has its own character instead, so the
 * split still reads under NO_COLOR. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tracetop/util.h"
#include "ui/meters.h"
#include "ui/tui.h"

/* The pane area keeps at least this many lines: below it the meters go. */
#define METERS_MIN_PANE 8
/* A grid cell of a CPU bar, at least, when CPUs are laid out in columns. */
#define METERS_CPU_CELL 20

/* meter_* use no libm: the program links without it. */

/* Characters of the kinds: in colour, and in monochrome. */
static const char cpu_mono[METER_CPU_SEGS] = {'|', '#', '*', '.', '~'};
static const char cpu_color[METER_CPU_SEGS] = {'|', '|', '|', '|', '|'};
static const enum theme_item cpu_items[METER_CPU_SEGS] = {
    TH_METER_USER, TH_METER_SYSTEM, TH_METER_IRQ, TH_METER_IOWAIT, TH_METER_STEAL};
static const char mem_mono[3] = {'|', '#', '*'};
static const enum theme_item mem_items[3] = {TH_METER_USER, TH_METER_BUFFERS, TH_METER_CACHE};

/* A share that may be absent (NaN) as a number to add. */
static double
meter_pct(double v)
{
	return system_known(v) && v > 0 ? v : 0;
}

/* A CPU's shares by kind. */
void
meter_cpu_segs(const struct system_cpu *c, double seg[METER_CPU_SEGS])
{
	seg[METER_USER] = meter_pct(c->pct[SYS_CPU_USER]) + meter_pct(c->pct[SYS_CPU_NICE]);
	seg[METER_SYSTEM] = meter_pct(c->pct[SYS_CPU_SYSTEM]);
	seg[METER_IRQ] = meter_pct(c->pct[SYS_CPU_IRQ]) + meter_pct(c->pct[SYS_CPU_SOFTIRQ]);
	seg[METER_IOWAIT] = meter_pct(c->pct[SYS_CPU_IOWAIT]);
	seg[METER_STEAL] = meter_pct(c->pct[SYS_CPU_STEAL]);
}

/* A bar's cells: segments by their running sum, the text over the end. */
int
meter_bar(const double *pct, size_t n, const char *segch, int w, const char *text, char *chars,
          signed char *seg)
{
	double sum = 0;
	int filled = 0, tl = text != NULL ? (int)strlen(text) : 0;

	if (w <= 0)
		return 0;
	memset(chars, ' ', (size_t)w);
	memset(seg, -1, (size_t)w);
	for (size_t i = 0; i < n; i++) {
		int upto;

		sum += meter_pct(pct[i]);
		upto = sum > 100 ? w : (int)(sum / 100 * w + 0.5);
		for (; filled < upto && filled < w; filled++) {
			chars[filled] = segch[i];
			seg[filled] = (signed char)i;
		}
	}
	if (tl > w)
		tl = w;
	for (int k = 0; k < tl; k++) {
		chars[w - tl + k] = text[k];
		seg[w - tl + k] = -1;
	}
	return filled;
}

/* A level's glyph. */
const char *
meter_glyph(int level, bool utf8)
{
	static const char *const blocks[] = {"\u2581", "\u2582", "\u2583", "\u2584",
	                                     "\u2585", "\u2586", "\u2587", "\u2588"};
	static const char *const ascii[] = {"_", ".", "-", ":", "=", "+", "*", "#"};

	level = level < 0 ? 0 : level > 7 ? 7 : level;
	return utf8 ? blocks[level] : ascii[level];
}

/* Busy % as a level: the eighths, rounded up so any work shows. */
int
meter_busy_level(double busy)
{
	if (!system_known(busy) || busy <= 0.5)
		return 0;
	return busy >= 94 ? 7 : 1 + (int)(busy / 100 * 7);
}

/* Busy % as a load class. */
int
meter_load_class(double busy)
{
	return !system_known(busy) || busy < 50 ? 0 : busy < 80 ? 1 : 2;
}

/* Value age of a ring plus another's (when given and long enough). */
static double
meter_hist_at(const struct system_hist *h, const struct system_hist *plus, unsigned age)
{
	double v = system_hist_get(h, age);

	if (plus != NULL && age < plus->n)
		v += system_hist_get(plus, age);
	return v;
}

/* A sparkline of the newest values. */
size_t
meter_sparkline(const struct system_hist *h, const struct system_hist *plus, int width, bool utf8,
                char *buf, size_t len)
{
	unsigned n = h->n < (unsigned)(width > 0 ? width : 0) ? h->n : (unsigned)width;
	double max = 0;
	size_t used = 0;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	for (unsigned a = 0; a < n; a++)
		if (meter_hist_at(h, plus, a) > max)
			max = meter_hist_at(h, plus, a);
	for (unsigned a = n; a-- > 0;) {
		double v = meter_hist_at(h, plus, a);
		const char *g = meter_glyph(max > 0 ? (int)(v / max * 7 + 0.5) : 0, utf8);
		size_t gl = strlen(g);

		if (used + gl + 1 > len)
			break;
		memcpy(buf + used, g, gl + 1);
		used += gl;
	}
	return used;
}

/* KiB in htop's units. */
void
meter_kib(uint64_t kib, char *buf, size_t len)
{
	static const char units[] = "KMGTP";
	double v = (double)kib;
	size_t i = 0;

	while (v >= 1024 && i + 1 < sizeof units - 1) {
		v /= 1024;
		i++;
	}
	if (i == 0 || v >= 100)
		snprintf(buf, len, "%.0f%c", v, units[i]);
	else if (v >= 10)
		snprintf(buf, len, "%.1f%c", v, units[i]);
	else
		snprintf(buf, len, "%.2f%c", v, units[i]);
}

/* A rate, SI-scaled. */
void
meter_rate(double v, char *buf, size_t len)
{
	static const char suffix[] = " kMGTP";
	size_t i = 0;

	if (!system_known(v)) {
		snprintf(buf, len, "-");
		return;
	}
	while (v >= 1000 && i + 1 < sizeof suffix - 1) {
		v /= 1000;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, v < 10 && v != (double)(long long)v ? "%.1f" : "%.0f", v);
	else
		snprintf(buf, len, v < 10 ? "%.2f%c" : v < 100 ? "%.1f%c" : "%.0f%c", v, suffix[i]);
}

/* Bytes per second, binary-scaled. */
void
meter_bytes_rate(double v, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	size_t i = 0;

	if (!system_known(v)) {
		snprintf(buf, len, "-");
		return;
	}
	while (v >= 1024 && i + 1 < ARRAY_SIZE(units)) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len,
	         i == 0 || v >= 100 ? "%.0f %s/s"
	         : v >= 10          ? "%.1f %s/s"
	                            : "%.2f %s/s",
	         v, units[i]);
}

/* Uptime as uptime(1). */
void
meter_uptime(double secs, char *buf, size_t len)
{
	unsigned long s = secs > 0 ? (unsigned long)secs : 0, days = s / 86400;

	s %= 86400;
	if (days > 0)
		snprintf(buf, len, "%lu day%s, %02lu:%02lu:%02lu", days, days == 1 ? "" : "s",
		         s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%02lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
}

/* ---- layout and drawing ---- */

/* How the CPUs are laid out: bars beside memory (few CPUs), a grid of
 * bars, or a strip of cells. */
struct meters_layout {
	int cpu_lines;  /* lines of CPUs */
	int grid;       /* bars per line (0: the strip, or beside memory) */
	bool beside;    /* CPU bars on the left, memory and swap on the right */
	int strip_cols; /* cells per strip line */
};

/* The layout at cols columns for fs. */
static int
meters_layout(const struct frame_system *fs, int cols, struct meters_layout *m)
{
	int n = (int)fs->ncpus;

	memset(m, 0, sizeof *m);
	if (fs->cpu_error != NULL || n == 0) {
		m->cpu_lines = 1; /* "CPU: absent (reason)" */
		return m->cpu_lines + 2;
	}
	if (n > METER_BAR_CPUS) {
		m->strip_cols = cols - 6 > 8 ? cols - 6 : 8; /* "CPUs[" ... "]" */
		m->cpu_lines = (n + m->strip_cols - 1) / m->strip_cols;
		return m->cpu_lines + 2;
	}
	if (n <= 4) {
		m->beside = true;
		m->cpu_lines = n > 2 ? n : 2;
		return m->cpu_lines + 1;
	}
	m->grid = cols / METERS_CPU_CELL;
	m->grid = m->grid < 1 ? 1 : m->grid > 4 ? 4 : m->grid;
	m->cpu_lines = (n + m->grid - 1) / m->grid;
	return m->cpu_lines + 2;
}

/* Lines the meters take. */
int
meters_lines(const struct tui *t, int lines, int cols)
{
	struct meters_layout m;
	int need;

	if (t->no_meters || t->frame == NULL || !t->frame->has_system || cols < 20)
		return 0;
	need = meters_layout(&t->frame->system, cols, &m);
	/* the frame around the panes takes five lines */
	return lines - 5 - need >= METERS_MIN_PANE ? need : 0;
}

/* Draw a bar "label[cells]" at (y, x) in w columns. */
static void
meters_bar(const struct theme *th, int y, int x, int w, const char *label, const double *pct,
           size_t n, const char *mono, const enum theme_item *items, const char *text)
{
	int lw = (int)strlen(label), bw = w - lw - 2;
	char chars[512];
	signed char seg[512];

	if (bw < 1)
		return;
	bw = bw > (int)sizeof chars ? (int)sizeof chars : bw;
	meter_bar(pct, n, th->color ? cpu_color : mono, bw, text, chars, seg);
	wattrset(stdscr, th->attr[TH_HEADER_LABEL]);
	mvwaddstr(stdscr, y, x, label);
	wattrset(stdscr, th->attr[TH_HEADER_VALUE]);
	waddch(stdscr, '[');
	for (int k = 0; k < bw; k++) {
		wattrset(stdscr, seg[k] >= 0 ? th->attr[items[seg[k]]] : th->attr[TH_DIM]);
		waddch(stdscr, (chtype)(unsigned char)chars[k]);
	}
	wattrset(stdscr, th->attr[TH_HEADER_VALUE]);
	waddch(stdscr, ']');
	wattrset(stdscr, A_NORMAL);
}

/* Text at (y, x) cut to w columns, in attr. */
static void
meters_text(const struct theme *th, int y, int x, int w, enum theme_item attr, const char *text)
{
	if (w <= 0)
		return;
	wattrset(stdscr, th->attr[attr]);
	wmove(stdscr, y, x);
	prompt_str_draw(stdscr, text, w, th->ellipsis);
	wattrset(stdscr, A_NORMAL);
}

/* One CPU's bar. */
static void
meters_cpu(const struct theme *th, const struct system_cpu *c, int y, int x, int w, int digits)
{
	double seg[METER_CPU_SEGS];
	char label[16], text[16];

	meter_cpu_segs(c, seg);
	snprintf(label, sizeof label, "%*d", digits, c->cpu);
	if (system_known(c->busy))
		snprintf(text, sizeof text, "%.1f%%", c->busy);
	else
		snprintf(text, sizeof text, "-");
	meters_bar(th, y, x, w, label, seg, METER_CPU_SEGS, cpu_mono, cpu_items, text);
}

/* The strip: one cell per CPU, its height and colour by load. */
static void
meters_strip(const struct theme *th, const struct frame_system *fs, int y, int cols,
             const struct meters_layout *m)
{
	for (int l = 0; l < m->cpu_lines; l++) {
		meters_text(th, y + l, 0, 5, TH_HEADER_LABEL, l == 0 ? "CPUs" : "");
		wattrset(stdscr, th->attr[TH_HEADER_VALUE]);
		mvwaddch(stdscr, y + l, 4, '[');
		for (int k = 0; k < m->strip_cols; k++) {
			size_t i = (size_t)(l * m->strip_cols + k);
			double busy = i < fs->ncpus ? fs->cpus[i].busy : NAN;
			static const enum theme_item load[] = {TH_LOAD_LOW, TH_LOAD_MID,
			                                       TH_LOAD_HIGH};

			if (i >= fs->ncpus)
				break;
			wattrset(stdscr, th->attr[load[meter_load_class(busy)]]);
			waddstr(stdscr, meter_glyph(meter_busy_level(busy), th->utf8));
		}
		wattrset(stdscr, th->attr[TH_HEADER_VALUE]);
		if (l == m->cpu_lines - 1 && cols > 0)
			waddch(stdscr, ']');
	}
	wattrset(stdscr, A_NORMAL);
}

/* The memory or swap bar, or why it is absent. */
static void
meters_mem(const struct theme *th, const struct frame_system *fs, bool swap, int y, int x, int w)
{
	const struct system_mem *mm = &fs->mem;
	enum system_mem_field tf = swap ? SYSTEM_MEM_SWAP_TOTAL : SYSTEM_MEM_TOTAL,
	                      uf = swap ? SYSTEM_MEM_SWAP_USED : SYSTEM_MEM_USED;
	double pct[3] = {0, 0, 0}, total = (double)mm->kib[tf];
	char used[16], tot[16], text[48], why[160];

	if (fs->mem_error != NULL || mm->why[tf] != NULL || mm->why[uf] != NULL) {
		const char *r = fs->mem_error ? fs->mem_error
		                : mm->why[tf] ? mm->why[tf]
		                              : mm->why[uf];

		str_escape(why, sizeof why, r, strlen(r));
		snprintf(text, sizeof text, "%s absent: ", swap ? "Swp" : "Mem");
		meters_text(th, y, x, (int)strlen(text), TH_HEADER_LABEL, text);
		meters_text(th, y, x + (int)strlen(text), w - (int)strlen(text), TH_DIM, why);
		return;
	}
	if (total > 0) {
		pct[0] = (double)mm->kib[uf] / total * 100;
		if (!swap && mm->why[SYSTEM_MEM_BUFFERS] == NULL)
			pct[1] = (double)mm->kib[SYSTEM_MEM_BUFFERS] / total * 100;
		if (!swap && mm->why[SYSTEM_MEM_CACHED] == NULL)
			pct[2] = (double)mm->kib[SYSTEM_MEM_CACHED] / total * 100;
	}
	meter_kib(mm->kib[uf], used, sizeof used);
	meter_kib(mm->kib[tf], tot, sizeof tot);
	snprintf(text, sizeof text, "%s/%s", used, tot);
	meters_bar(th, y, x, w, swap ? "Swp" : "Mem", pct, swap ? 1 : 3, mem_mono, mem_items, text);
}

/* Tasks, load average and uptime on one line. */
static void
meters_info(const struct theme *th, const struct frame_system *fs, int y, int cols)
{
	const struct system_misc *m = &fs->misc;
	char line[256], up[48];
	size_t o = 0;

#define MISC_OK(f) (m->why[f] == NULL && system_known(m->v[f]))
	if (MISC_OK(SYSTEM_TASKS))
		o += (size_t)snprintf(line + o, sizeof line - o, "Tasks: %.0f", m->v[SYSTEM_TASKS]);
	if (MISC_OK(SYSTEM_PROCS_RUNNING) && o < sizeof line)
		o += (size_t)snprintf(line + o, sizeof line - o, "%s%.0f running",
		                      o ? ", " : "Tasks: ", m->v[SYSTEM_PROCS_RUNNING]);
	if (MISC_OK(SYSTEM_PROCS_BLOCKED) && m->v[SYSTEM_PROCS_BLOCKED] > 0 && o < sizeof line)
		o += (size_t)snprintf(line + o, sizeof line - o, ", %.0f blocked",
		                      m->v[SYSTEM_PROCS_BLOCKED]);
	if (MISC_OK(SYSTEM_LOAD1) && o < sizeof line)
		o += (size_t)snprintf(line + o, sizeof line - o, "%sLoad average: %.2f %.2f %.2f",
		                      o ? "  " : "", m->v[SYSTEM_LOAD1], m->v[SYSTEM_LOAD5],
		                      m->v[SYSTEM_LOAD15]);
	else if (o < sizeof line)
		o += (size_t)snprintf(line + o, sizeof line - o, "%sLoad average: absent",
		                      o ? "  " : "");
	if (MISC_OK(SYSTEM_UPTIME) && o < sizeof line) {
		meter_uptime(m->v[SYSTEM_UPTIME], up, sizeof up);
		snprintf(line + o, sizeof line - o, "%sUptime: %s", o ? "  " : "", up);
	}
#undef MISC_OK
	meters_text(th, y, 0, cols, TH_HEADER_VALUE, line);
}

/* Draw the meters. */
void
meters_draw(struct tui *t, int y)
{
	const struct frame_system *fs = &t->frame->system;
	const struct theme *th = &t->theme;
	struct meters_layout m;
	int cols = COLS, half = cols / 2, digits = fs->ncpus > 10 ? (fs->ncpus > 100 ? 3 : 2) : 1;
	char why[192];

	meters_layout(fs, cols, &m);
	for (int l = 0; l < meters_lines(t, LINES, cols); l++)
		mvwhline(stdscr, y + l, 0, ' ' | th->attr[TH_NORMAL], cols);
	if (fs->cpu_error != NULL || fs->ncpus == 0) {
		str_escape(why, sizeof why, fs->cpu_error ? fs->cpu_error : "no CPU in /proc/stat",
		           SIZE_MAX);
		meters_text(th, y, 0, 13, TH_HEADER_LABEL, "CPU absent: ");
		meters_text(th, y, 12, cols - 12, TH_DIM, why);
	} else if (m.strip_cols > 0) {
		meters_strip(th, fs, y, cols, &m);
	} else if (m.beside) {
		for (size_t i = 0; i < fs->ncpus; i++)
			meters_cpu(th, &fs->cpus[i], y + (int)i, 0, half - 1, digits);
	} else {
		int cw = cols / m.grid;

		for (size_t i = 0; i < fs->ncpus; i++)
			meters_cpu(th, &fs->cpus[i], y + (int)i / m.grid, (int)i % m.grid * cw,
			           cw - 1, digits);
	}
	if (m.beside) {
		meters_mem(th, fs, false, y, half + 1, cols - half - 1);
		meters_mem(th, fs, true, y + 1, half + 1, cols - half - 1);
	} else {
		meters_mem(th, fs, false, y + m.cpu_lines, 0, half - 1);
		meters_mem(th, fs, true, y + m.cpu_lines, half + 1, cols - half - 1);
	}
	meters_info(th, fs, y + m.cpu_lines + (m.beside ? 0 : 1), cols);
}
