/* Tests of the system source: the parsers of every /proc file on fixtures
 * (tests/fixtures/system: this machine's files, 256 CPUs with one
 * offline, an old kernel's short lines, odd names and cut lines), the
 * source on a fixture /proc tree whose counters the test moves by known
 * amounts (rates, partitions, absent files and fields, new and reused
 * processes, no growth in steady state), and the source on the real /proc. */
#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/report-system.h"
#include "tracetop/system-parse.h"
#include "tracetop/system.h"
#include "tracetop/util.h"
#include "system-fixture.h"

#ifndef TT_FIXTURES
#error "TT_FIXTURES must name tests/fixtures"
#endif

/* A fixture file read whole (the caller frees it). */
static char *
fixture(const char *name, size_t *len)
{
	char path[512];
	FILE *f;
	char *buf = xmalloc(1 << 20);

	snprintf(path, sizeof path, "%s/system/%s", TT_FIXTURES, name);
	if ((f = fopen(path, "rb")) == NULL)
		fail_msg("cannot read %s: %s", path, strerror(errno));
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* Whether a and b are within a relative tolerance. */
static bool
near(double a, double b, double tol)
{
	double d = a - b;

	return (d < 0 ? -d : d) <= tol * (b < 0 ? -b : b) + 1e-9;
}

/* ---- parsers ---- */

/* This machine's /proc/stat: the total, both CPUs and the counters. */
static void
test_stat(void **state)
{
	struct sys_cpu_raw cpus[8];
	struct sys_stat_raw st = {.cpus = cpus, .cap = 8};
	size_t len;
	char *buf = fixture("stat", &len);

	(void)state;
	assert_int_equal(sys_parse_stat(buf, len, &st), 0);
	assert_int_equal(st.ncpus, 2);
	assert_int_equal(st.total.cpu, -1);
	assert_int_equal(st.total.nfields, 10);
	assert_int_equal(st.total.t[SYS_CPU_USER], 1183402);
	assert_int_equal(st.total.t[SYS_CPU_STEAL], 8663);
	assert_int_equal(cpus[1].cpu, 1);
	assert_int_equal(cpus[1].t[SYS_CPU_IOWAIT], 4070);
	assert_int_equal(st.have, SYS_STAT_TOTAL | SYS_STAT_INTR | SYS_STAT_CTXT | SYS_STAT_BTIME |
	                              SYS_STAT_PROCESSES | SYS_STAT_RUNNING | SYS_STAT_BLOCKED);
	assert_int_equal(st.ctxt, 15735791);
	assert_int_equal(st.processes, 421787);
	assert_int_equal(st.intr, 24645738);
	assert_int_equal(st.running, 3);
	assert_int_equal(st.blocked, 0);
	assert_int_equal(sys_cpu_busy(&st.total), 1183402 + 4382 + 202889 + 0 + 1930);
	assert_int_equal(sys_cpu_all(&st.total), sys_cpu_busy(&st.total) + 955431 + 4960 + 8663);
	free(buf);
}

/* 256 CPUs (CPU 7 offline): counted beyond the room, stored once grown. */
static void
test_stat_many(void **state)
{
	struct sys_cpu_raw few[4];
	struct sys_stat_raw st = {.cpus = few, .cap = 4};
	size_t len;
	char *buf = fixture("stat-256", &len);

	(void)state;
	assert_int_equal(sys_parse_stat(buf, len, &st), 0);
	assert_int_equal(st.ncpus, 256);
	assert_int_equal(few[3].cpu, 3);
	st.cpus = xcalloc(st.ncpus, sizeof *st.cpus);
	st.cap = st.ncpus;
	assert_int_equal(sys_parse_stat(buf, len, &st), 0);
	assert_int_equal(st.ncpus, 256);
	assert_int_equal(st.cpus[6].cpu, 6);
	assert_int_equal(st.cpus[7].cpu, 8);
	assert_int_equal(st.cpus[255].cpu, 256);
	assert_int_equal(st.ctxt, 987654321);
	assert_int_equal(st.intr, 123456789);
	assert_int_equal(st.blocked, 1);
	free(st.cpus);
	free(buf);
}

/* An old kernel: seven columns, no procs_running or procs_blocked. */
static void
test_stat_old(void **state)
{
	struct sys_cpu_raw cpus[2];
	struct sys_stat_raw st = {.cpus = cpus, .cap = 2};
	size_t len;
	char *buf = fixture("stat-old", &len);

	(void)state;
	assert_int_equal(sys_parse_stat(buf, len, &st), 0);
	assert_int_equal(st.total.nfields, 7);
	assert_int_equal(st.total.t[SYS_CPU_SOFTIRQ], 7);
	assert_int_equal(st.total.t[SYS_CPU_STEAL], 0);
	assert_true(st.have & SYS_STAT_CTXT);
	assert_false(st.have & (SYS_STAT_RUNNING | SYS_STAT_BLOCKED));
	free(buf);
}

/* Junk: no cpu line, a cut last line, a CPU number out of range, a
 * number that overflows. */
static void
test_stat_junk(void **state)
{
	static const char cut[] = "cpu  1 2 3", big[] = "cpu 99999999999999999999999 1\n"
	                                                "cpu99999999999 1 2\nctxt\nctxt x\n";
	struct sys_cpu_raw cpus[2];
	struct sys_stat_raw st = {.cpus = cpus, .cap = 2};

	(void)state;
	assert_int_equal(sys_parse_stat("", 0, &st), -1);
	assert_int_equal(sys_parse_stat("cpux 1 2\nintr 5\n", 16, &st), -1);
	assert_int_equal(sys_parse_stat(cut, sizeof cut - 1, &st), 0);
	assert_int_equal(st.total.nfields, 3);
	assert_int_equal(sys_parse_stat(big, sizeof big - 1, &st), 0);
	assert_true(st.total.t[SYS_CPU_USER] == UINT64_MAX);
	assert_int_equal(st.ncpus, 0);
	assert_false(st.have & SYS_STAT_CTXT);
}

/* meminfo: every key of this machine's; an old kernel's missing ones;
 * keys match whole. */
static void
test_meminfo(void **state)
{
	static const char tricky[] = "MemTotalX: 5 kB\nMemTotal: 7 kB\nMemTotal: 9 kB\nCached 3\n";
	struct sys_meminfo_raw m;
	size_t len;
	char *buf = fixture("meminfo", &len);

	(void)state;
	assert_int_equal(sys_parse_meminfo(buf, len, &m), 0);
	assert_int_equal(m.have, (1u << SYS_MEM_NKEYS) - 1);
	assert_int_equal(m.kib[SYS_MEM_TOTAL], 24684092);
	assert_int_equal(m.kib[SYS_MEM_AVAILABLE], 24291852);
	free(buf);
	buf = fixture("meminfo-old", &len);
	assert_int_equal(sys_parse_meminfo(buf, len, &m), 0);
	assert_false(m.have & (1u << SYS_MEM_AVAILABLE));
	assert_false(m.have & (1u << SYS_MEM_SRECLAIMABLE));
	assert_false(m.have & (1u << SYS_MEM_SWAP_TOTAL));
	assert_true(m.have & (1u << SYS_MEM_CACHED));
	assert_int_equal(m.kib[SYS_MEM_CACHED], 400000);
	free(buf);
	assert_int_equal(sys_parse_meminfo(tricky, sizeof tricky - 1, &m), 0);
	assert_int_equal(m.kib[SYS_MEM_TOTAL], 7);
	assert_int_equal(m.kib[SYS_MEM_CACHED], 3);
	assert_int_equal(sys_parse_meminfo("nothing here\n", 13, &m), -1);
	assert_string_equal(sys_meminfo_key(SYS_MEM_AVAILABLE), "MemAvailable");
}

/* vmstat: the paging counters. */
static void
test_vmstat(void **state)
{
	struct sys_vmstat_raw v;
	size_t len;
	char *buf = fixture("vmstat", &len);

	(void)state;
	assert_int_equal(sys_parse_vmstat(buf, len, &v), 0);
	assert_int_equal(v.have, (1u << SYS_VM_NKEYS) - 1);
	assert_int_equal(v.v[SYS_VM_PGFAULT], 157122282);
	assert_int_equal(v.v[SYS_VM_PGMAJFAULT], 19657);
	assert_int_equal(v.v[SYS_VM_PGPGOUT], 17610756);
	assert_string_equal(sys_vmstat_key(SYS_VM_PSWPIN), "pswpin");
	free(buf);
}

/* loadavg and uptime, and their malformed forms. */
static void
test_loadavg_uptime(void **state)
{
	struct sys_loadavg_raw la;
	double up, idle;
	size_t len;
	char *buf = fixture("loadavg", &len);

	(void)state;
	assert_int_equal(sys_parse_loadavg(buf, len, &la), 0);
	assert_true(near(la.load[0], 0.70, 1e-9) && near(la.load[2], 0.72, 1e-9));
	assert_int_equal(la.running, 1);
	assert_int_equal(la.total, 84);
	free(buf);
	assert_int_equal(sys_parse_loadavg("1.0 2.0", 7, &la), -1);
	assert_int_equal(sys_parse_loadavg("1 2 3 4", 7, &la), -1);
	assert_int_equal(sys_parse_loadavg("1 2 3 4/", 8, &la), -1);
	buf = fixture("uptime", &len);
	assert_int_equal(sys_parse_uptime(buf, len, &up, &idle), 0);
	assert_true(near(up, 10727.17, 1e-12) && near(idle, 8769.52, 1e-12));
	free(buf);
	assert_int_equal(sys_parse_uptime("12", 2, &up, &idle), -1);
}

/* diskstats: 11, 15 and 17 columns; short and junk lines skipped; the
 * count goes on past the room. */
static void
test_diskstats(void **state)
{
	struct sys_disk_raw few[2], all[16];
	struct sys_disks_raw d = {.v = few, .cap = 2};
	size_t len;
	char *buf = fixture("diskstats", &len);

	(void)state;
	assert_int_equal(sys_parse_diskstats(buf, len, &d), 0);
	assert_int_equal(d.n, 10);
	d.v = all;
	d.cap = 16;
	assert_int_equal(sys_parse_diskstats(buf, len, &d), 0);
	assert_int_equal(d.n, 10);
	assert_string_equal(all[0].name, "sda");
	assert_int_equal(all[0].nfields, 11);
	assert_int_equal(all[0].f[SYS_DISK_WRITE_SECTORS], 160000);
	assert_string_equal(all[2].name, "nvme0n1");
	assert_int_equal(all[2].nfields, 15);
	assert_int_equal(all[2].major, 259);
	assert_int_equal(all[2].f[SYS_DISK_DISCARD_MS], 5);
	assert_string_equal(all[5].name, "mmcblk0");
	assert_int_equal(all[5].nfields, 17);
	assert_int_equal(all[5].f[SYS_DISK_FLUSH_MS], 4);
	assert_string_equal(all[9].name, "loop0");
	free(buf);
}

/* net/dev: title lines and cut lines skipped, names cut, numbers saturate. */
static void
test_netdev(void **state)
{
	struct sys_net_raw v[8];
	struct sys_nets_raw n = {.v = v, .cap = 8};
	size_t len;
	char *buf = fixture("netdev", &len);

	(void)state;
	assert_int_equal(sys_parse_netdev(buf, len, &n), 0);
	assert_int_equal(n.n, 4);
	assert_string_equal(v[0].name, "lo");
	assert_string_equal(v[3].name, "eth0");
	assert_int_equal(v[0].f[SYS_NET_BYTES], v[0].f[SYS_NET_TX + SYS_NET_BYTES]);
	free(buf);
	buf = fixture("netdev-odd", &len);
	assert_int_equal(sys_parse_netdev(buf, len, &n), 0);
	assert_int_equal(n.n, 4);
	assert_string_equal(v[1].name, "a,b");
	assert_int_equal(v[1].f[SYS_NET_TX + SYS_NET_MULTICAST], 16);
	assert_int_equal(strlen(v[2].name), SYS_NAME_MAX - 1);
	assert_true(v[2].f[SYS_NET_BYTES] == UINT64_MAX);
	assert_true(v[2].f[SYS_NET_TX + SYS_NET_BYTES] == UINT64_MAX);
	assert_string_equal(v[3].name, "ev\x01il");
	free(buf);
}

/* The row named name of a parsed table, or NULL. */
static const struct sys_irq_raw *
irq_row(const struct sys_irqtab_raw *t, const char *name, size_t *idx)
{
	for (size_t i = 0; i < t->nrows && i < t->rows_cap; i++)
		if (strcmp(t->rows[i].name, name) == 0) {
			*idx = i;
			return &t->rows[i];
		}
	return NULL;
}

/* Room for a table of n rows of 300 CPU columns. */
static void
irqtab_room(struct sys_irqtab_raw *t, size_t rows)
{
	t->cpus = xcalloc(300, sizeof *t->cpus);
	t->cpus_cap = 300;
	t->rows = xcalloc(rows, sizeof *t->rows);
	t->rows_cap = rows;
	t->counts = xcalloc(rows * 300, sizeof *t->counts);
	t->counts_cap = rows * 300;
}

/* interrupts of this machine and softirqs. */
static void
test_interrupts(void **state)
{
	struct sys_irqtab_raw t = {0};
	const struct sys_irq_raw *r;
	size_t len, i = 0;
	char *buf = fixture("interrupts", &len);

	(void)state;
	irqtab_room(&t, 64);
	assert_int_equal(sys_parse_irqtab(buf, len, &t), 0);
	assert_true(sys_irqtab_fits(&t));
	assert_int_equal(t.ncpus, 2);
	assert_non_null(r = irq_row(&t, "24", &i));
	assert_string_equal(r->desc, "IO-APIC 5-edge ACPI:Ged");
	assert_int_equal(t.counts[i * 2], 1);
	assert_non_null(r = irq_row(&t, "LOC", &i));
	assert_string_equal(r->desc, "Local timer interrupts");
	assert_int_equal(r->sum, t.counts[i * 2] + t.counts[i * 2 + 1]);
	assert_non_null(r = irq_row(&t, "ERR", &i));
	assert_int_equal(r->ncounts, 1);
	assert_string_equal(r->desc, "");
	free(buf);
	buf = fixture("softirqs", &len);
	assert_int_equal(sys_parse_irqtab(buf, len, &t), 0);
	assert_int_equal(t.nrows, 10);
	assert_non_null(r = irq_row(&t, "TIMER", &i));
	assert_int_equal(t.counts[i * 2], 399086);
	assert_int_equal(t.counts[i * 2 + 1], 390107);
	assert_string_equal(r->desc, "");
	free(buf);
	assert_int_equal(sys_parse_irqtab("  0: 1 2\n", 9, &t), -1);
	assert_int_equal(sys_parse_irqtab(" CPU0 CPUx\n 0: 1\n", 17, &t), -1);
	assert_int_equal(sys_parse_irqtab("", 0, &t), -1);
	free(t.cpus);
	free(t.rows);
	free(t.counts);
}

/* 256 CPU columns with CPU 7 offline, a long description cut, a cut name,
 * rows of one count; too little room says so. */
static void
test_interrupts_many(void **state)
{
	int cpus[4];
	struct sys_irq_raw rows[2];
	uint64_t counts[8];
	struct sys_irqtab_raw t = {.cpus = cpus,
	                           .cpus_cap = 4,
	                           .rows = rows,
	                           .rows_cap = 2,
	                           .counts = counts,
	                           .counts_cap = 8};
	const struct sys_irq_raw *r;
	size_t len, i = 0;
	char *buf = fixture("interrupts-256", &len);

	(void)state;
	assert_int_equal(sys_parse_irqtab(buf, len, &t), 0);
	assert_false(sys_irqtab_fits(&t));
	assert_int_equal(t.ncpus, 256);
	assert_int_equal(t.nrows, 6);
	irqtab_room(&t, 8);
	assert_int_equal(sys_parse_irqtab(buf, len, &t), 0);
	assert_true(sys_irqtab_fits(&t));
	assert_int_equal(t.cpus[6], 6);
	assert_int_equal(t.cpus[7], 8);
	assert_int_equal(t.cpus[255], 256);
	assert_non_null(r = irq_row(&t, "120", &i));
	assert_int_equal(r->ncounts, 256);
	assert_int_equal(strlen(r->desc), SYS_IRQ_DESC - 1);
	assert_memory_equal(r->desc, "IR-PCI-MSIX-0000:3b:00.0 524288-edge mlx5_async0@pci", 52);
	assert_non_null(r = irq_row(&t, "ERR", &i));
	assert_int_equal(r->ncounts, 1);
	assert_int_equal(r->sum, 3);
	assert_int_equal(t.counts[i * 256 + 1], 0);
	assert_non_null(r = irq_row(&t, "VERYLONGIRQNAME", &i));
	assert_int_equal(r->sum, 256);
	assert_string_equal(r->desc, "cut name");
	free(t.cpus);
	free(t.rows);
	free(t.counts);
	free(buf);
}

/* /proc/PID/stat: a real one, a command with parentheses and spaces,
 * a kernel thread, malformed ones; status and cmdline. */
static void
test_pid_files(void **state)
{
	struct sys_pid_stat ps;
	struct sys_pid_status cs;
	struct sys_pid_schedstat ss;
	char cmd[64];
	size_t len;
	char *buf = fixture("pid-stat", &len);

	(void)state;
	assert_int_equal(sys_parse_pid_stat(buf, len, &ps), 0);
	assert_int_equal(ps.pid, 32270);
	assert_string_equal(ps.comm, "python3");
	assert_int_equal(ps.state, 'R');
	assert_int_equal(ps.ppid, 32267);
	assert_int_equal(ps.minflt, 2953);
	assert_int_equal(ps.majflt, 1);
	assert_int_equal(ps.utime, 5);
	assert_int_equal(ps.stime, 2);
	assert_int_equal(ps.threads, 1);
	assert_int_equal(ps.starttime, 1184562);
	assert_int_equal(ps.rss, 3463);
	assert_int_equal(ps.processor, 1);
	assert_int_equal(ps.nfields, 52);
	free(buf);
	buf = fixture("pid-stat-odd", &len);
	assert_int_equal(sys_parse_pid_stat(buf, len, &ps), 0);
	assert_string_equal(ps.comm, "a) b (c) d");
	assert_int_equal(ps.state, 'S');
	assert_int_equal(ps.minflt, 1500);
	assert_int_equal(ps.majflt, 7);
	assert_int_equal(ps.utime, 250);
	assert_int_equal(ps.priority, -51);
	assert_int_equal(ps.nice, -20);
	assert_int_equal(ps.threads, 3);
	assert_int_equal(ps.rss, 256);
	free(buf);
	buf = fixture("pid-stat-kthread", &len);
	assert_int_equal(sys_parse_pid_stat(buf, len, &ps), 0);
	assert_true(ps.flags & 0x00200000u);
	free(buf);
	assert_int_equal(sys_parse_pid_stat("123 (x", 6, &ps), -1);
	assert_int_equal(sys_parse_pid_stat("(x) S 1", 7, &ps), -1);
	assert_int_equal(sys_parse_pid_stat("1 (x) S 1 2 3", 13, &ps), -1);
	assert_int_equal(sys_parse_pid_stat("0 (x) S", 7, &ps), -1);
	buf = fixture("pid-status", &len);
	assert_int_equal(sys_parse_pid_status(buf, len, &cs), 0);
	assert_int_equal(cs.vcs, 15);
	assert_int_equal(cs.nvcs, 20);
	free(buf);
	assert_int_equal(sys_parse_pid_status("Name:\tx\n", 8, &cs), -1);
	buf = fixture("pid-schedstat", &len);
	assert_int_equal(sys_parse_pid_schedstat(buf, len, &ss), 0);
	assert_int_equal(ss.run_ns, 203851);
	assert_int_equal(ss.slices, 2);
	free(buf);
	assert_int_equal(sys_parse_pid_schedstat("1 2", 3, &ss), -1);
	buf = fixture("pid-cmdline", &len);
	assert_int_equal(sys_parse_cmdline(buf, len, cmd, sizeof cmd), 31);
	assert_string_equal(cmd, "/usr/bin/python3 -c print('hi')");
	assert_int_equal(sys_parse_cmdline(buf, len, cmd, 8), 7);
	assert_string_equal(cmd, "/usr/bi");
	free(buf);
	assert_int_equal(sys_parse_cmdline("", 0, cmd, sizeof cmd), 0);
	assert_string_equal(cmd, "");
}

/* ---- the source on a fixture tree ---- */

/* The fixture /proc tree of a test. */
struct tree {
	char root[64];
};

/* Write text to root/name, making its directory. */
static void
put(const struct tree *t, const char *name, const char *fmt, ...)
{
	char path[256], *slash;
	va_list ap;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", t->root, name);
	if ((slash = strrchr(path, '/')) != NULL) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	if ((f = fopen(path, "w")) == NULL)
		fail_msg("cannot write %s", path);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* Remove root/name. */
static void
drop(const struct tree *t, const char *name)
{
	char path[256];

	snprintf(path, sizeof path, "%s/%s", t->root, name);
	unlink(path);
}

/* A process's files: stat with the given times, status, cmdline. */
static void
put_proc(const struct tree *t, int pid, const char *comm, unsigned long start, unsigned long utime,
         unsigned long minflt, unsigned long cs)
{
	char name[64];

	snprintf(name, sizeof name, "%d/stat", pid);
	put(t, name,
	    "%d (%s) S 1 %d %d 0 -1 4194304 %lu 0 0 0 %lu 0 0 0 20 0 1 0 %lu 9000000 100 "
	    "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
	    pid, comm, pid, pid, minflt, utime, start);
	snprintf(name, sizeof name, "%d/status", pid);
	put(t, name, "Name:\t%s\nvoluntary_ctxt_switches:\t%lu\nnonvoluntary_ctxt_switches:\t5\n",
	    comm, cs);
	snprintf(name, sizeof name, "%d/cmdline", pid);
	put(t, name, "%s%c--flag%c", comm, 0, 0);
}

/* Remove a process's files. */
static void
drop_proc(const struct tree *t, int pid)
{
	static const char *const files[] = {"stat", "status", "cmdline"};
	char name[128];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(name, sizeof name, "%d/%s", pid, files[i]);
		drop(t, name);
	}
	snprintf(name, sizeof name, "%s/%d", t->root, pid);
	rmdir(name);
}

/* The first reading of the tree: counters at step 0. */
static void
tree_step(const struct tree *t, unsigned k)
{
	/* cpu0 runs user 90 and system 10 ticks per step, cpu1 idles 100 */
	put(t, "stat",
	    "cpu  %u 0 %u %u 0 0 0 0 0 0\ncpu0 %u 0 %u 400 0 0 0 0 0 0\n"
	    "cpu1 100 0 50 %u 0 0 0 0 0 0\nintr %u 0\nctxt %u\nbtime 1\nprocesses %u\n"
	    "procs_running 2\nprocs_blocked 1\n",
	    100 + 90 * k, 50 + 10 * k, 800 + 100 * k, 90 * k, 10 * k, 400 + 100 * k, 5000 + 70 * k,
	    1000 + 1000 * k, 300 + 10 * k);
	put(t, "meminfo",
	    "MemTotal: 1000000 kB\nMemFree: 400000 kB\nMemAvailable: 700000 kB\nBuffers: 10000 "
	    "kB\nCached: 200000 kB\nSwapCached: 0 kB\nSReclaimable: 40000 kB\nShmem: 5000 kB\n"
	    "Slab: 60000 kB\nDirty: %u kB\nWriteback: 0 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n",
	    100 * k);
	put(t, "vmstat", "pgpgin %u\npgpgout 0\npswpin 0\npswpout 0\npgfault %u\npgmajfault %u\n",
	    64 * k, 1000 + 110 * k, 10 + 10 * k);
	put(t, "loadavg", "0.50 0.25 0.10 2/120 999\n");
	put(t, "uptime", "%u.50 10.00\n", 100 + k);
	put(t, "diskstats",
	    "   8       0 sda 10 0 80 5 %u 0 %u 20 0 30 40\n"
	    "   8       1 sda1 10 0 80 5 %u 0 %u 20 0 30 40\n"
	    " 259       0 nvme0n1 %u 0 %u %u 0 0 0 0 1 %u %u 0 0 0 0 0 0\n"
	    " 259       1 nvme0n1p1 0 0 0 0 0 0 0 0 0 0 0\n"
	    " 253       0 dm-0 0 0 0 0 %u 0 %u 0 0 0 0\n"
	    "   7       0 loop0 0 0 0 0 %u 0 %u 0 0 0 0\n",
	    20 + 8 * k, 160 + 2048 * k, 20 + 8 * k, 160 + 2048 * k, 5 + 10 * k, 40 + 80 * k,
	    100 + 500 * k, 100 + 50 * k, 200 + 1000 * k, 4 * k, 512 * k, 4 * k, 512 * k);
	put(t, "net/dev",
	    "Inter-| Receive | Transmit\n face |bytes packets errs drop fifo frame compressed "
	    "multicast|bytes packets errs drop fifo colls carrier compressed\n"
	    "    lo: %u %u 0 0 0 0 0 0 %u %u 0 0 0 0 0 0\n"
	    "  eth0: %u 10 %u 0 0 0 0 0 500 5 0 %u 0 0 0 0\n",
	    1000 + 4096 * k, 10 + 4 * k, 1000 + 4096 * k, 10 + 4 * k, 100 + 300 * k, k, 2 * k);
	put(t, "interrupts",
	    "           CPU0       CPU1\n  0:  %u  0  IO-APIC 2-edge timer\n"
	    "LOC:  %u  %u  Local timer interrupts\nERR:  0\n",
	    10 + k, 1000 + 500 * k, 1000 + 100 * k);
	put(t, "softirqs", "      CPU0 CPU1\n  TIMER: %u %u\n  NET_RX: 0 %u\n", 50 * k, 50 * k,
	    300 * k);
}

/* A tree with every file at step 0, and three processes. */
static int
tree_setup(void **state)
{
	struct tree *t = xcalloc(1, sizeof *t);

	snprintf(t->root, sizeof t->root, "/tmp/tt-system.XXXXXX");
	if (mkdtemp(t->root) == NULL)
		return -1;
	tree_step(t, 0);
	put_proc(t, 1, "init", 5, 100, 50, 10);
	put_proc(t, 42, "busy", 10, 200, 60, 20);
	put_proc(t, 7, "leaving", 12, 5, 0, 0);
	*state = t;
	return 0;
}

/* Remove the tree. */
static int
tree_teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf %s", ((struct tree *)*state)->root);
	free(*state);
	return system(cmd) == 0 ? 0 : -1;
}

/* The disk or interface named name, or its index -1. */
static int
disk_idx(const struct frame_system *fs, const char *name)
{
	for (size_t i = 0; i < fs->ndisks; i++)
		if (strcmp(fs->disks[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Rates over one interval of known counter steps: CPU shares, scalars,
 * paging, disks (partitions folded by name without sysfs), interfaces,
 * interrupts busiest first, processes (new, gone, reused pids). */
static void
test_source_rates(void **state)
{
	struct tree *t = *state;
	struct system_opts o = {.proc = t->root, .sys = "/nonexistent", .procs = true};
	struct frame_system fs = {0};
	struct system *s = system_new(&o);
	const struct system_proc *p;
	double secs;
	int sda, sda1, nv, nvp;

	nap(100);
	tree_step(t, 1);
	put_proc(t, 42, "busy", 10, 250, 260, 120); /* 50 ticks, 200 faults, 100 switches */
	put_proc(t, 1, "init", 6, 100, 50, 10);     /* pid 1 reused: started again */
	put_proc(t, 99, "newcomer", 20, 1, 1, 1);
	drop_proc(t, 7);
	system_tick(s);
	system_snapshot(s, &fs, true);
	secs = fs.secs;
	assert_true(secs >= 0.09 && secs < 5);
	assert_int_equal(fs.readings, 2);
	/* CPUs */
	assert_null(fs.cpu_error);
	assert_int_equal(fs.ncpus, 2);
	assert_string_equal(fs.cpus[0].name, "cpu0");
	assert_true(near(fs.cpus[0].busy, 100, 1e-9));
	assert_true(near(fs.cpus[0].pct[SYS_CPU_USER], 90, 1e-9));
	assert_true(near(fs.cpus[0].pct[SYS_CPU_SYSTEM], 10, 1e-9));
	assert_true(near(fs.cpus[1].busy, 0, 1e-9));
	assert_true(near(fs.cpus[1].pct[SYS_CPU_IDLE], 100, 1e-9));
	assert_true(near(fs.total.busy, 50, 1e-9));
	assert_true(near(fs.total.busy_cpus, 1.0, 1e-9));
	assert_int_equal(fs.cpus[0].busy_hist.n, 1);
	/* scalars */
	assert_true(near(fs.misc.v[SYSTEM_CTXT], 1000 / secs, 1e-9));
	assert_int_equal(fs.misc.count[2], 10);
	assert_true(near(fs.misc.v[SYSTEM_FORKS], 10 / secs, 1e-9));
	assert_true(near(fs.misc.v[SYSTEM_INTR], 70 / secs, 1e-9));
	assert_true(fs.misc.v[SYSTEM_PROCS_BLOCKED] == 1 && fs.misc.v[SYSTEM_TASKS] == 120);
	assert_true(near(fs.misc.v[SYSTEM_LOAD1], 0.5, 1e-9));
	assert_true(near(fs.misc.v[SYSTEM_UPTIME], 101.5, 1e-9));
	/* memory: used = total - free - buffers - (cached + sreclaimable) */
	assert_null(fs.mem_error);
	assert_int_equal(fs.mem.kib[SYSTEM_MEM_USED], 1000000 - 400000 - 10000 - 240000);
	assert_int_equal(fs.mem.kib[SYSTEM_MEM_CACHED], 240000);
	assert_int_equal(fs.mem.kib[SYSTEM_MEM_DIRTY], 100);
	assert_null(fs.mem.why[SYSTEM_MEM_AVAILABLE]);
	assert_true(near(fs.vm.rate[SYSTEM_VM_MINFLT], 100 / secs, 1e-9));
	assert_true(near(fs.vm.rate[SYSTEM_VM_MAJFLT], 10 / secs, 1e-9));
	assert_true(near(fs.vm.rate[SYSTEM_VM_PGIN], 64 / secs, 1e-9));
	/* disks */
	assert_null(fs.disks_error);
	assert_non_null(fs.disks_note);
	sda = disk_idx(&fs, "sda"), sda1 = disk_idx(&fs, "sda1");
	nv = disk_idx(&fs, "nvme0n1"), nvp = disk_idx(&fs, "nvme0n1p1");
	assert_true(sda >= 0 && sda1 >= 0 && nv >= 0 && nvp >= 0);
	assert_int_equal(fs.disks[sda].parent, -1);
	assert_int_equal(fs.disks[sda1].parent, sda);
	assert_int_equal(fs.disks[nvp].parent, nv);
	assert_true(fs.disks[sda].in_total && fs.disks[nv].in_total);
	assert_false(fs.disks[sda1].in_total);
	assert_false(fs.disks[disk_idx(&fs, "dm-0")].in_total);
	assert_false(fs.disks[disk_idx(&fs, "loop0")].in_total);
	assert_int_equal(fs.disks[sda].write_bytes, 2048 * 512);
	assert_true(near(fs.disks[sda].writes_s, 8 / secs, 1e-9));
	assert_true(near(fs.disks[nv].await_ms, 500.0 / 10, 1e-9));
	assert_true(near(fs.disks[nv].util, 50 / (secs * 10), 1e-9));
	assert_true(near(fs.disks[nv].queue, 1000 / (secs * 1000), 1e-9));
	assert_int_equal(fs.disks[nv].inflight, 1);
	assert_int_equal(fs.disk_total.write_bytes, 2048 * 512);
	assert_int_equal(fs.disk_total.read_bytes, 80 * 512);
	/* interfaces: the total leaves lo out */
	assert_null(fs.net_error);
	assert_int_equal(fs.nnets, 2);
	assert_int_equal(fs.nets[0].rx_bytes, 4096);
	assert_true(near(fs.nets[0].tx_packets_s, 4 / secs, 1e-9));
	assert_int_equal(fs.nets[1].errors, 1);
	assert_int_equal(fs.nets[1].drops, 2);
	assert_int_equal(fs.net_total.rx_bytes, 300);
	/* interrupts: LOC first, per CPU */
	assert_null(fs.irqs.error);
	assert_string_equal(fs.irqs.rows[0].name, "LOC");
	assert_int_equal(fs.irqs.rows[0].count, 600);
	assert_true(near(system_irq_cpu_rate(&fs.irqs, 0, 0), 500 / secs, 1e-9));
	assert_true(near(system_irq_cpu_rate(&fs.irqs, 0, 1), 100 / secs, 1e-9));
	assert_string_equal(fs.irqs.rows[fs.irqs.n - 1].name, "ERR");
	assert_string_equal(fs.softirqs.rows[0].name, "NET_RX");
	/* processes: 42 busiest; 99 new and 1 reused have no rates yet; 7 gone */
	assert_null(fs.procs_error);
	assert_int_equal(fs.nprocs, 3);
	assert_int_equal(fs.procs_new, 2);
	p = &fs.procs[0];
	assert_int_equal(p->pid, 42);
	assert_true(near(p->cpu, 50.0 / sysconf(_SC_CLK_TCK) / secs * 100, 1e-9));
	assert_true(near(p->minflt_s, 200 / secs, 1e-9));
	assert_true(near(p->ctxt_s, 100 / secs, 1e-9));
	assert_string_equal(p->cmd, "busy --flag");
	assert_int_equal(p->rss_kib, 100 * (sysconf(_SC_PAGESIZE) / 1024));
	assert_non_null(p = proc_of(&fs, 99));
	assert_true(isnan(p->cpu) && isnan(p->ctxt_s));
	assert_non_null(p = proc_of(&fs, 1));
	assert_true(isnan(p->cpu));
	assert_null(proc_of(&fs, 7));
	/* the next interval knows them all */
	nap(20);
	tree_step(t, 2);
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_int_equal(fs.procs_new, 0);
	assert_true(proc_of(&fs, 99)->cpu == 0);
	assert_int_equal(fs.cpus[0].busy_hist.n, 2);
	frame_system_free(&fs);
	system_free(s);
}

/* Missing files are absent with their reason, missing fields too; a
 * snapshot without rows keeps the tables. */
static void
test_source_absent(void **state)
{
	struct tree *t = *state;
	struct system_opts o = {.proc = t->root, .sys = "/nonexistent", .procs = true};
	struct frame_system fs = {0};
	struct system *s;
	size_t len;
	char *buf = fixture("meminfo-old", &len);

	drop(t, "diskstats");
	drop(t, "net/dev");
	drop(t, "softirqs");
	put(t, "meminfo", "%s", buf);
	put(t, "stat", "cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\nctxt 10\n");
	free(buf);
	s = system_new(&o);
	nap(20);
	put(t, "stat", "cpu  2 2 3 5 5 6 7\ncpu0 2 2 3 5 5 6 7\nctxt 20\n");
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_non_null(fs.disks_error);
	assert_non_null(strstr(fs.disks_error, "/diskstats: No such file"));
	assert_non_null(strstr(fs.net_error, "/net/dev: No such file"));
	assert_non_null(strstr(fs.softirqs.error, "/softirqs: No such file"));
	assert_null(fs.irqs.error);
	assert_null(fs.mem_error);
	assert_non_null(strstr(fs.mem.why[SYSTEM_MEM_AVAILABLE], "meminfo has no MemAvailable"));
	assert_non_null(fs.mem.why[SYSTEM_MEM_SWAP_USED]);
	assert_null(fs.mem.why[SYSTEM_MEM_USED]);
	assert_int_equal(fs.mem.kib[SYSTEM_MEM_USED], 2000000 - 500000 - 10000 - 400000);
	assert_int_equal(fs.cpus[0].columns, 7);
	assert_true(isnan(fs.cpus[0].pct[SYS_CPU_STEAL]));
	assert_true(near(fs.cpus[0].busy, 50, 1e-9));
	assert_non_null(strstr(fs.misc.why[SYSTEM_PROCS_RUNNING], "stat has no procs_running"));
	assert_true(isnan(fs.misc.v[SYSTEM_PROCS_RUNNING]));
	assert_true(isnan(fs.misc.v[SYSTEM_FORKS]));
	assert_true(near(fs.misc.v[SYSTEM_CTXT], 10 / fs.secs, 1e-9));
	/* the header moves without rows; the tables stay */
	fs.nprocs = 1234;
	system_tick(s);
	system_snapshot(s, &fs, false);
	assert_int_equal(fs.nprocs, 1234);
	assert_int_equal(fs.readings, 3);
	fs.nprocs = 0;
	frame_system_free(&fs);
	system_free(s);
	/* no /proc at all */
	o.proc = "/nonexistent";
	s = system_new(&o);
	system_snapshot(s, &fs, true);
	assert_non_null(strstr(fs.cpu_error, "/nonexistent/stat: No such file"));
	assert_non_null(fs.mem_error);
	assert_non_null(strstr(fs.procs_error, "/nonexistent: No such file"));
	assert_true(isnan(fs.misc.v[SYSTEM_CTXT]) && fs.misc.why[SYSTEM_CTXT] != NULL);
	frame_system_free(&fs);
	system_free(s);
}

/* A disk and an interface that appear later: no rate in their first
 * interval, rates after; the tables grow, then stay. */
static void
test_source_grows(void **state)
{
	struct tree *t = *state;
	struct system_opts o = {.proc = t->root, .sys = "/nonexistent"};
	struct frame_system fs = {0};
	struct system *s = system_new(&o);
	struct mallinfo2 before, after;

	nap(10);
	put(t, "diskstats",
	    "   8       0 sda 10 0 80 5 0 0 0 0 0 0 0\n"
	    "   8      16 sdb 1 0 8 1 0 0 0 0 0 0 0\n");
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_int_equal(fs.ndisks, 2);
	assert_false(fs.procs_on);
	assert_true(isnan(fs.disks[1].reads_s));
	assert_true(isnan(fs.disk_total.reads_s));
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_true(fs.disks[1].reads_s == 0);
	/* steady state: nothing more is allocated */
	system_set_procs(s, true);
	for (int i = 0; i < 3; i++) {
		system_tick(s);
		system_snapshot(s, &fs, true);
	}
	before = mallinfo2();
	for (int i = 0; i < 5; i++) {
		system_tick(s);
		system_snapshot(s, &fs, true);
	}
	after = mallinfo2();
	assert_int_equal(after.uordblks, before.uordblks);
	assert_int_equal(fs.nprocs, 3);
	frame_system_free(&fs);
	system_free(s);
}

/* A process whose main thread did not run (its schedstat time is the
 * same) keeps its context switch counts without reading status; one that
 * ran has status read. */
static void
test_source_schedstat(void **state)
{
	struct tree *t = *state;
	struct system_opts o = {.proc = t->root, .sys = "/nonexistent", .procs = true};
	struct frame_system fs = {0};
	struct system *s;

	put(t, "42/schedstat", "1000 0 5\n");
	put(t, "1/schedstat", "1000 0 5\n");
	s = system_new(&o);
	nap(20);
	put_proc(t, 42, "busy", 10, 200, 60, 90); /* status moved, schedstat not */
	put_proc(t, 1, "init", 5, 100, 50, 50);
	put(t, "1/schedstat", "2000 0 9\n");
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_true(proc_of(&fs, 42)->ctxt_s == 0);
	assert_true(near(proc_of(&fs, 1)->ctxt_s, 40 / fs.secs, 1e-9));
	assert_true(near(proc_of(&fs, 7)->ctxt_s, 0, 1e-9)); /* no schedstat: status */
	nap(20);
	put(t, "42/schedstat", "5000 0 6\n");
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_true(near(proc_of(&fs, 42)->ctxt_s, 70 / fs.secs, 1e-9));
	frame_system_free(&fs);
	system_free(s);
}

/* ---- the reports ---- */

/* Text, CSV and JSON of one frame of the fixture tree. */
static void
test_reports(void **state)
{
	struct tree *t = *state;
	struct system_opts o = {.proc = t->root, .sys = "/nonexistent", .procs = true};
	struct report_system_info ri = {.time = 1.5, .wall = 0, .max_rows = 2};
	struct report_system_state st = {0};
	struct frame_system fs = {0};
	struct system *s;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	drop(t, "diskstats");
	s = system_new(&o);
	nap(10);
	tree_step(t, 1);
	put_proc(t, 42, "busy", 10, 250, 60, 20);
	system_tick(s);
	system_snapshot(s, &fs, true);
	out = open_memstream(&text, &len);
	report_system_text(out, &ri, &fs, &st);
	report_system_text(out, &ri, &fs, &st);
	fclose(out);
	assert_non_null(strstr(text, "# absent: "));
	assert_non_null(strstr(text, "diskstats: No such file"));
	assert_non_null(strstr(text, "|usr sys wai stl idl|"));
	assert_non_null(strstr(text, "| 45   5   0   0  50|"));
	assert_int_equal(strstr(strstr(text, "|usr") + 1, "|usr"), NULL); /* titles once */
	free(text);
	out = open_memstream(&text, &len);
	report_system_csv(out, NULL, &ri, &fs, &st);
	report_system_csv(out, NULL, &ri, &fs, &st);
	fclose(out);
	assert_int_equal(strncmp(text, "time,interval,cpu_busy,cpu_user,", 32), 0);
	assert_non_null(strstr(text, ",cpu0_busy,cpu1_busy,"));
	assert_non_null(strstr(text, ",net_eth0_rx_bytes_s,"));
	assert_non_null(strstr(text, "\n1.500,"));
	free(text);
	report_system_state_free(&st);
	out = open_memstream(&text, &len);
	report_system_json(out, &ri, &fs);
	fclose(out);
	assert_int_equal(strncmp(text, "{\"view\":\"system\",\"time\":1.500,\"interval\":", 41), 0);
	assert_non_null(
	    strstr(text, "\"cpus\":[{\"cpu\":\"cpu0\",\"busy\":100.00,\"user\":90.00,"));
	assert_non_null(strstr(text, "\"disks\":null,\"disks_error\":\""));
	assert_non_null(strstr(text, "\"net\":[{\"name\":\"lo\",\"rx_bytes_s\":"));
	assert_non_null(strstr(text, "\"interrupts\":[{\"name\":\"LOC\",\"desc\":\"Local timer "
	                             "interrupts\",\"rate\":"));
	assert_non_null(strstr(text, "\"per_cpu\":{\"cpu0\":"));
	assert_non_null(strstr(text, "\"processes\":[{\"pid\":42,\"ppid\":1,\"comm\":\"busy\","));
	assert_null(strstr(text, "\"pid\":7,")); /* --rows 2 */
	assert_string_equal(text + len - 2, "}\n");
	free(text);
	frame_system_free(&fs);
	system_free(s);
}

/* ---- the real /proc ---- */

/* This machine: every CPU online, memory, this process in the table. */
static void
test_live(void **state)
{
	struct system_opts o = {.procs = true};
	struct frame_system fs = {0};
	struct system *s = system_new(&o);
	const struct system_proc *me;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	(void)state;
	nap(50);
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_null(fs.cpu_error);
	assert_int_equal(fs.ncpus, online);
	assert_true(fs.total.busy >= 0 && fs.total.busy <= 100.0001);
	assert_null(fs.mem_error);
	assert_true(fs.mem.kib[SYSTEM_MEM_TOTAL] > 0);
	assert_null(fs.procs_error);
	assert_true(fs.nprocs > 1);
	assert_non_null(me = proc_of(&fs, getpid()));
	assert_string_equal(me->comm, "test-system");
	assert_true(me->rss_kib > 0 && me->threads == 1 && me->state == 'R');
	assert_false(isnan(me->cpu));
	assert_null(fs.irqs.error);
	assert_true(fs.irqs.ncpus >= 1);
	frame_system_free(&fs);
	system_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stat),
	    cmocka_unit_test(test_stat_many),
	    cmocka_unit_test(test_stat_old),
	    cmocka_unit_test(test_stat_junk),
	    cmocka_unit_test(test_meminfo),
	    cmocka_unit_test(test_vmstat),
	    cmocka_unit_test(test_loadavg_uptime),
	    cmocka_unit_test(test_diskstats),
	    cmocka_unit_test(test_netdev),
	    cmocka_unit_test(test_interrupts),
	    cmocka_unit_test(test_interrupts_many),
	    cmocka_unit_test(test_pid_files),
	    cmocka_unit_test_setup_teardown(test_source_rates, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_source_absent, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_source_grows, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_source_schedstat, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_reports, tree_setup, tree_teardown),
	    cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
