/* report-system: the system part of frames as dstat-like text and as CSV
 * (JSON is report-system-json.c's). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tracetop/report-system.h"
#include "tracetop/system-file.h"
#include "tracetop/util.h"

/* ---- text ---- */

/* How a text column shows its value. */
enum tunit {
	T_TIME,  /* the wall clock */
	T_PCT,   /* a percentage, whole */
	T_BYTES, /* bytes, scaled by 1024 (k, M, G, T) */
	T_COUNT, /* a count or rate, scaled by 1000 */
	T_LOAD,  /* a load average, two decimals */
};

/* The text columns, section by section. */
enum tcol_id {
	TC_TIME,
	TC_USR,
	TC_SYS,
	TC_WAI,
	TC_STL,
	TC_IDL,
	TC_MUSED,
	TC_MFREE,
	TC_MBUFF,
	TC_MCACH,
	TC_MAVAI,
	TC_SUSED,
	TC_SIN,
	TC_SOUT,
	TC_MINF,
	TC_MAJF,
	TC_PIN,
	TC_POUT,
	TC_DREAD,
	TC_DWRIT,
	TC_DUTIL,
	TC_NRECV,
	TC_NSEND,
	TC_INT,
	TC_CSW,
	TC_FORK,
	TC_RUN,
	TC_BLK,
	TC_TASKS,
	TC_LOAD,
	TC_N,
};

static const struct {
	const char *section, *title;
	int width;
	enum tunit unit;
} tcols[TC_N] = {
    [TC_TIME] = {"time", "time", 8, T_TIME},        [TC_USR] = {"cpu %", "usr", 3, T_PCT},
    [TC_SYS] = {"cpu %", "sys", 3, T_PCT},          [TC_WAI] = {"cpu %", "wai", 3, T_PCT},
    [TC_STL] = {"cpu %", "stl", 3, T_PCT},          [TC_IDL] = {"cpu %", "idl", 3, T_PCT},
    [TC_MUSED] = {"memory", "used", 5, T_BYTES},    [TC_MFREE] = {"memory", "free", 5, T_BYTES},
    [TC_MBUFF] = {"memory", "buff", 5, T_BYTES},    [TC_MCACH] = {"memory", "cach", 5, T_BYTES},
    [TC_MAVAI] = {"memory", "avai", 5, T_BYTES},    [TC_SUSED] = {"swap", "used", 5, T_BYTES},
    [TC_SIN] = {"swap", "in", 5, T_BYTES},          [TC_SOUT] = {"swap", "out", 5, T_BYTES},
    [TC_MINF] = {"paging", "minf", 5, T_COUNT},     [TC_MAJF] = {"paging", "majf", 5, T_COUNT},
    [TC_PIN] = {"paging", "in", 5, T_BYTES},        [TC_POUT] = {"paging", "out", 5, T_BYTES},
    [TC_DREAD] = {"dsk/total", "read", 5, T_BYTES}, [TC_DWRIT] = {"dsk/total", "writ", 5, T_BYTES},
    [TC_DUTIL] = {"dsk/total", "util", 4, T_PCT},   [TC_NRECV] = {"net/total", "recv", 5, T_BYTES},
    [TC_NSEND] = {"net/total", "send", 5, T_BYTES}, [TC_INT] = {"system", "int", 5, T_COUNT},
    [TC_CSW] = {"system", "csw", 5, T_COUNT},       [TC_FORK] = {"system", "fork", 5, T_COUNT},
    [TC_RUN] = {"tasks", "run", 4, T_COUNT},        [TC_BLK] = {"tasks", "blk", 4, T_COUNT},
    [TC_TASKS] = {"tasks", "tot", 5, T_COUNT},      [TC_LOAD] = {"load", "1m", 5, T_LOAD},
};

/* The sum of the CPU columns in the bit set fields, in %. */
static double
cpu_pct(const struct frame_system *fs, unsigned fields)
{
	double v = 0;

	if (fs->cpu_error != NULL)
		return NAN;
	for (int f = 0; f < SYS_CPU_NFIELDS; f++)
		if (fields & (1u << f))
			v += fs->total.pct[f];
	return v;
}

/* A memory field in bytes, or NaN when absent. */
static double
mem_bytes(const struct frame_system *fs, enum system_mem_field f)
{
	return fs->mem_error == NULL && fs->mem.why[f] == NULL ? (double)fs->mem.kib[f] * 1024
	                                                       : NAN;
}

/* A paging rate (in bytes for the KiB ones), or NaN when absent. */
static double
vm_rate(const struct frame_system *fs, enum system_vm_field f, double scale)
{
	return fs->vm_error == NULL ? fs->vm.rate[f] * scale : NAN;
}

/* The value of text column c (NaN: absent or not yet). */
static double
text_value(const struct frame_system *fs, enum tcol_id c)
{
	static const enum system_mem_field mem[] = {
	    [TC_MUSED] = SYSTEM_MEM_USED,      [TC_MFREE] = SYSTEM_MEM_FREE,
	    [TC_MBUFF] = SYSTEM_MEM_BUFFERS,   [TC_MCACH] = SYSTEM_MEM_CACHED,
	    [TC_MAVAI] = SYSTEM_MEM_AVAILABLE, [TC_SUSED] = SYSTEM_MEM_SWAP_USED,
	};
	static const enum system_misc_field misc[] = {
	    [TC_INT] = SYSTEM_INTR,          [TC_CSW] = SYSTEM_CTXT,
	    [TC_FORK] = SYSTEM_FORKS,        [TC_RUN] = SYSTEM_PROCS_RUNNING,
	    [TC_BLK] = SYSTEM_PROCS_BLOCKED, [TC_TASKS] = SYSTEM_TASKS,
	    [TC_LOAD] = SYSTEM_LOAD1,
	};
	bool disks = fs->disks_error == NULL, nets = fs->net_error == NULL;

	switch (c) {
	case TC_USR:
		return cpu_pct(fs, 1u << SYS_CPU_USER | 1u << SYS_CPU_NICE);
	case TC_SYS:
		return cpu_pct(fs,
		               1u << SYS_CPU_SYSTEM | 1u << SYS_CPU_IRQ | 1u << SYS_CPU_SOFTIRQ);
	case TC_WAI:
		return cpu_pct(fs, 1u << SYS_CPU_IOWAIT);
	case TC_STL:
		return cpu_pct(fs, 1u << SYS_CPU_STEAL);
	case TC_IDL:
		return cpu_pct(fs, 1u << SYS_CPU_IDLE);
	case TC_MUSED:
	case TC_MFREE:
	case TC_MBUFF:
	case TC_MCACH:
	case TC_MAVAI:
	case TC_SUSED:
		return mem_bytes(fs, mem[c]);
	case TC_SIN:
		return vm_rate(fs, SYSTEM_VM_SWAPIN, 1024);
	case TC_SOUT:
		return vm_rate(fs, SYSTEM_VM_SWAPOUT, 1024);
	case TC_MINF:
		return vm_rate(fs, SYSTEM_VM_MINFLT, 1);
	case TC_MAJF:
		return vm_rate(fs, SYSTEM_VM_MAJFLT, 1);
	case TC_PIN:
		return vm_rate(fs, SYSTEM_VM_PGIN, 1024);
	case TC_POUT:
		return vm_rate(fs, SYSTEM_VM_PGOUT, 1024);
	case TC_DREAD:
		return disks ? fs->disk_total.read_bytes_s : NAN;
	case TC_DWRIT:
		return disks ? fs->disk_total.write_bytes_s : NAN;
	case TC_DUTIL:
		return disks ? fs->disk_total.util : NAN;
	case TC_NRECV:
		return nets ? fs->net_total.rx_bytes_s : NAN;
	case TC_NSEND:
		return nets ? fs->net_total.tx_bytes_s : NAN;
	case TC_INT:
	case TC_CSW:
	case TC_FORK:
	case TC_RUN:
	case TC_BLK:
	case TC_TASKS:
	case TC_LOAD:
		return fs->misc.v[misc[c]];
	case TC_TIME:
	case TC_N:
		break;
	}
	return NAN;
}

/* v in at most width characters: whole below 10^width, else scaled by
 * base with a suffix ("12k", "1.5M"); "-" for NaN. */
static void
text_scaled(char *buf, size_t len, double v, int width, double base)
{
	static const char suffix[] = "kMGTPE";
	double lim = 1;

	for (int i = 0; i < width; i++)
		lim *= 10;
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (v < lim) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	lim /= 10;
	for (size_t i = 0; i < sizeof suffix - 1; i++) {
		v /= base;
		if (v < 9.95 && width >= 4) {
			snprintf(buf, len, "%.1f%c", v, suffix[i]);
			return;
		}
		if (v < lim) {
			snprintf(buf, len, "%.0f%c", v, suffix[i]);
			return;
		}
	}
	snprintf(buf, len, "%.0e", v);
}

/* The cell of column c. */
static void
text_cell(char *buf, size_t len, const struct report_system_info *ri, const struct frame_system *fs,
          enum tcol_id c)
{
	double v = c == TC_TIME ? 0 : text_value(fs, c);
	time_t t = (time_t)ri->wall;
	struct tm tm;

	switch (tcols[c].unit) {
	case T_TIME:
		localtime_r(&t, &tm);
		strftime(buf, len, "%H:%M:%S", &tm);
		break;
	case T_PCT:
		snprintf(buf, len, isnan(v) ? "-" : "%.0f", v);
		break;
	case T_BYTES:
		text_scaled(buf, len, v, tcols[c].width, 1024);
		break;
	case T_COUNT:
		text_scaled(buf, len, v, tcols[c].width, 1000);
		break;
	case T_LOAD:
		snprintf(buf, len, isnan(v) ? "-" : "%.2f", v);
		break;
	}
}

/* The width of the section starting at column c, and where the next one starts. */
static int
text_section(enum tcol_id c, enum tcol_id *next)
{
	int w = tcols[c].width;

	for (*next = c + 1; *next < TC_N && strcmp(tcols[*next].section, tcols[c].section) == 0;
	     (*next)++)
		w += 1 + tcols[*next].width;
	return w;
}

/* The two title lines: sections centred in dashes, then the columns. */
static void
text_titles(FILE *out)
{
	enum tcol_id c, next;

	for (c = 0; c < TC_N; c = next) {
		int w = text_section(c, &next), tl = (int)strlen(tcols[c].section);
		int left = (w - tl) / 2, right = w - tl - left;

		fprintf(out, "%s%.*s%s%.*s", c ? " " : "", left, "------------------",
		        tcols[c].section, right, "------------------");
	}
	fputc('\n', out);
	for (c = 0; c < TC_N; c++)
		fprintf(out, "%s%*s",
		        c == 0                                           ? ""
		        : strcmp(tcols[c].section, tcols[c - 1].section) ? "|"
		                                                         : " ",
		        tcols[c].width, tcols[c].title);
	fputc('\n', out);
}

/* Append reason why to notes (room len) unless it is there already. */
static void
note_add(char *notes, size_t len, const char *why)
{
	size_t n = strlen(notes);

	if (why == NULL || strstr(notes, why) != NULL)
		return;
	snprintf(notes + n, len - n, "%s%s", n ? "\n" : "", why);
}

/* Every reason something the text shows is absent, one per line. */
static void
text_notes(const struct frame_system *fs, char *notes, size_t len)
{
	const char *errors[] = {fs->cpu_error, fs->mem_error, fs->vm_error, fs->disks_error,
	                        fs->net_error};

	notes[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(errors); i++)
		note_add(notes, len, errors[i]);
	for (int f = 0; f < SYSTEM_MEM_NFIELDS && fs->mem_error == NULL; f++)
		note_add(notes, len, fs->mem.why[f]);
	for (int f = 0; f < SYSTEM_VM_NFIELDS && fs->vm_error == NULL; f++)
		note_add(notes, len, fs->vm.why[f]);
	for (int f = 0; f < SYSTEM_MISC_NFIELDS; f++)
		note_add(notes, len, fs->misc.why[f]);
}

/* Print the "# absent:" lines of notes. */
static void
text_print_notes(FILE *out, const char *notes)
{
	const char *p = notes;

	while (*p != '\0') {
		size_t n = strcspn(p, "\n");
		char esc[1024];

		str_escape(esc, sizeof esc, p, n);
		fprintf(out, "# absent: %s\n", esc);
		p += n + (p[n] == '\n');
	}
}

/* One refresh as one line (titles first, and again when what is absent
 * changes or after ri->repeat lines). */
void
report_system_text(FILE *out, const struct report_system_info *ri, const struct frame_system *fs,
                   struct report_system_state *st)
{
	char notes[sizeof st->notes], cell[32];
	bool titles = st->lines == 0 || (ri->repeat > 0 && st->lines >= ri->repeat);

	text_notes(fs, notes, sizeof notes);
	if (strcmp(notes, st->notes) != 0) {
		text_print_notes(out, notes);
		memcpy(st->notes, notes, sizeof notes);
		titles = true;
	}
	if (titles) {
		text_titles(out);
		st->lines = 0;
	}
	for (enum tcol_id c = 0; c < TC_N; c++) {
		text_cell(cell, sizeof cell, ri, fs, c);
		fprintf(out, "%s%*s",
		        c == 0                                           ? ""
		        : strcmp(tcols[c].section, tcols[c - 1].section) ? "|"
		                                                         : " ",
		        tcols[c].width, cell);
	}
	fputc('\n', out);
	st->lines++;
	fflush(out);
}

/* ---- CSV ---- */

/* A CSV walk: either the title row or a row of values. */
struct csv {
	FILE *out;
	bool titles;
	bool first;
};

/* Write text as one CSV field: escaped, quoted when it must be. */
static void
csv_text(FILE *out, const char *s)
{
	char esc[256];

	str_escape(esc, sizeof esc, s, strlen(s));
	if (strpbrk(esc, ",\"\r\n ") == NULL) {
		fputs(esc, out);
		return;
	}
	fputc('"', out);
	for (const char *p = esc; *p != '\0'; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

/* One cell: the title prefix + name, or value v (empty for NaN) with
 * prec decimals. */
static void
csv_cell(struct csv *w, const char *prefix, const char *name, double v, int prec)
{
	char title[128];

	if (!w->first)
		fputc(',', w->out);
	w->first = false;
	if (w->titles) {
		snprintf(title, sizeof title, "%s%s%s", prefix, *prefix ? "_" : "", name);
		csv_text(w->out, title);
	} else if (!isnan(v)) {
		fprintf(w->out, "%.*f", prec, v);
	}
}

/* The CPU columns: the total's, then each CPU's busy % (NaN: absent). */
static void
csv_cpus(struct csv *w, const struct frame_system *fs, const struct report_system_state *st)
{
	bool ok = fs->cpu_error == NULL;
	char name[32];

	csv_cell(w, "cpu", "busy", ok ? fs->total.busy : NAN, 2);
	for (int f = 0; f < SYS_CPU_NFIELDS; f++)
		csv_cell(w, "cpu", system_cpu_field_name(f), ok ? fs->total.pct[f] : NAN, 2);
	for (size_t i = 0; i < st->ncpus; i++) {
		double v = NAN;

		for (size_t k = 0; ok && k < fs->ncpus; k++)
			if (fs->cpus[k].cpu == st->cpus[i])
				v = fs->cpus[k].busy;
		snprintf(name, sizeof name, "cpu%d", st->cpus[i]);
		csv_cell(w, name, "busy", v, 2);
	}
}

/* The memory, paging and scalar columns. */
static void
csv_scalars(struct csv *w, const struct frame_system *fs)
{
	for (int f = 0; f < SYSTEM_MEM_NFIELDS; f++)
		csv_cell(w, "mem", system_mem_name(f), mem_bytes(fs, f) / 1024, 0);
	for (int f = 0; f < SYSTEM_VM_NFIELDS; f++)
		csv_cell(w, "", system_vm_name(f), vm_rate(fs, f, 1), 2);
	for (int f = 0; f < SYSTEM_MISC_NFIELDS; f++)
		csv_cell(w, "", system_misc_name(f), fs->misc.v[f], 2);
}

/* A disk's columns (d NULL: absent). */
static void
csv_disk(struct csv *w, const char *prefix, const struct system_disk *d)
{
	csv_cell(w, prefix, "reads_s", d ? d->reads_s : NAN, 2);
	csv_cell(w, prefix, "writes_s", d ? d->writes_s : NAN, 2);
	csv_cell(w, prefix, "read_bytes_s", d ? d->read_bytes_s : NAN, 0);
	csv_cell(w, prefix, "write_bytes_s", d ? d->write_bytes_s : NAN, 0);
	csv_cell(w, prefix, "await_ms", d ? d->await_ms : NAN, 3);
	csv_cell(w, prefix, "queue", d ? d->queue : NAN, 3);
	csv_cell(w, prefix, "util", d ? d->util : NAN, 2);
}

/* An interface's columns (n NULL: absent). */
static void
csv_net(struct csv *w, const char *prefix, const struct system_net *n)
{
	bool ok = n != NULL && system_known(n->rx_bytes_s);

	csv_cell(w, prefix, "rx_bytes_s", n ? n->rx_bytes_s : NAN, 0);
	csv_cell(w, prefix, "tx_bytes_s", n ? n->tx_bytes_s : NAN, 0);
	csv_cell(w, prefix, "rx_packets_s", n ? n->rx_packets_s : NAN, 2);
	csv_cell(w, prefix, "tx_packets_s", n ? n->tx_packets_s : NAN, 2);
	csv_cell(w, prefix, "errors", ok ? (double)n->errors : NAN, 0);
	csv_cell(w, prefix, "drops", ok ? (double)n->drops : NAN, 0);
}

/* The disks' and interfaces' columns. */
static void
csv_devices(struct csv *w, const struct frame_system *fs, const struct report_system_state *st)
{
	size_t nd = fs->disks_error ? 0 : fs->ndisks, nn = fs->net_error ? 0 : fs->nnets;
	char prefix[SYS_NAME_MAX + 8];

	csv_disk(w, "disk_total", fs->disks_error ? NULL : &fs->disk_total);
	for (size_t i = 0; i < st->ndisks; i++) {
		size_t k = sys_find_name(fs->disks, nd, sizeof *fs->disks, 0, st->disks[i], i);

		snprintf(prefix, sizeof prefix, "disk_%s", st->disks[i]);
		csv_disk(w, prefix, k < nd ? &fs->disks[k] : NULL);
	}
	csv_net(w, "net_total", fs->net_error ? NULL : &fs->net_total);
	for (size_t i = 0; i < st->nnets; i++) {
		size_t k = sys_find_name(fs->nets, nn, sizeof *fs->nets, 0, st->nets[i], i);

		snprintf(prefix, sizeof prefix, "net_%s", st->nets[i]);
		csv_net(w, prefix, k < nn ? &fs->nets[k] : NULL);
	}
}

/* Fix the columns from the first frame: its CPUs, the whole disks that
 * did I/O since boot, and every interface. */
static void
csv_choose(const struct frame_system *fs, struct report_system_state *st)
{
	st->cpus = xcalloc(fs->ncpus + 1, sizeof *st->cpus);
	for (size_t i = 0; i < fs->ncpus; i++)
		st->cpus[st->ncpus++] = fs->cpus[i].cpu;
	st->disks = xcalloc(fs->ndisks + 1, sizeof *st->disks);
	for (size_t i = 0; i < fs->ndisks; i++)
		if (fs->disks[i].parent < 0 && fs->disks[i].used)
			memcpy(st->disks[st->ndisks++], fs->disks[i].name, SYS_NAME_MAX);
	st->nets = xcalloc(fs->nnets + 1, sizeof *st->nets);
	for (size_t i = 0; i < fs->nnets; i++)
		memcpy(st->nets[st->nnets++], fs->nets[i].name, SYS_NAME_MAX);
}

/* One refresh as a CSV row (the title row first, and the reasons of what
 * is absent on err). */
void
report_system_csv(FILE *out, FILE *err, const struct report_system_info *ri,
                  const struct frame_system *fs, struct report_system_state *st)
{
	char notes[sizeof st->notes];
	struct csv w = {.out = out};

	text_notes(fs, notes, sizeof notes);
	if (strcmp(notes, st->notes) != 0 && err != NULL) {
		text_print_notes(err, notes);
		memcpy(st->notes, notes, sizeof notes);
	}
	if (!st->csv_titled)
		csv_choose(fs, st);
	for (int pass = st->csv_titled; pass < 2; pass++) {
		w.titles = pass == 0;
		w.first = true;
		csv_cell(&w, "", "time", ri->time, 3);
		csv_cell(&w, "", "interval", fs->secs, 3);
		csv_cpus(&w, fs, st);
		csv_scalars(&w, fs);
		csv_devices(&w, fs, st);
		fputc('\n', out);
	}
	st->csv_titled = true;
	fflush(out);
}

/* Free the CSV's columns. */
void
report_system_state_free(struct report_system_state *st)
{
	free(st->cpus);
	free(st->disks);
	free(st->nets);
	memset(st, 0, sizeof *st);
}
