/* Tests of the system source's parsers on the /proc files of
 * tests/fixtures/system: this machine's files, 256 CPUs with one offline,
 * an old kernel's short lines, odd names and cut lines, and junk. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sysfixture.h"
#include "tracetop/system-parse.h"
#include "tracetop/util.h"

/* This machine's /proc/stat: the total, both CPUs and the counters. */
static void
test_stat(void **state)
{
	struct sys_cpu_raw cpus[8];
	struct sys_stat_raw st = {.cpus = cpus, .cap = 8};
	size_t len;
	char *buf = sysfix_read("stat", &len);

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
	char *buf = sysfix_read("stat-256", &len);

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
	char *buf = sysfix_read("stat-old", &len);

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
	char *buf = sysfix_read("meminfo", &len);

	(void)state;
	assert_int_equal(sys_parse_meminfo(buf, len, &m), 0);
	assert_int_equal(m.have, (1u << SYS_MEM_NKEYS) - 1);
	assert_int_equal(m.kib[SYS_MEM_TOTAL], 24684092);
	assert_int_equal(m.kib[SYS_MEM_AVAILABLE], 24291852);
	free(buf);
	buf = sysfix_read("meminfo-old", &len);
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
	char *buf = sysfix_read("vmstat", &len);

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
	char *buf = sysfix_read("loadavg", &len);

	(void)state;
	assert_int_equal(sys_parse_loadavg(buf, len, &la), 0);
	assert_true(sysfix_near(la.load[0], 0.70, 1e-9) && sysfix_near(la.load[2], 0.72, 1e-9));
	assert_int_equal(la.running, 1);
	assert_int_equal(la.total, 84);
	free(buf);
	assert_int_equal(sys_parse_loadavg("1.0 2.0", 7, &la), -1);
	assert_int_equal(sys_parse_loadavg("1 2 3 4", 7, &la), -1);
	assert_int_equal(sys_parse_loadavg("1 2 3 4/", 8, &la), -1);
	buf = sysfix_read("uptime", &len);
	assert_int_equal(sys_parse_uptime(buf, len, &up, &idle), 0);
	assert_true(sysfix_near(up, 10727.17, 1e-12) && sysfix_near(idle, 8769.52, 1e-12));
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
	char *buf = sysfix_read("diskstats", &len);

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
	char *buf = sysfix_read("netdev", &len);

	(void)state;
	assert_int_equal(sys_parse_netdev(buf, len, &n), 0);
	assert_int_equal(n.n, 4);
	assert_string_equal(v[0].name, "lo");
	assert_string_equal(v[3].name, "eth0");
	assert_int_equal(v[0].f[SYS_NET_BYTES], v[0].f[SYS_NET_TX + SYS_NET_BYTES]);
	free(buf);
	buf = sysfix_read("netdev-odd", &len);
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
	char *buf = sysfix_read("interrupts", &len);

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
	buf = sysfix_read("softirqs", &len);
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
	char *buf = sysfix_read("interrupts-256", &len);

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
	char *buf = sysfix_read("pid-stat", &len);

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
	buf = sysfix_read("pid-stat-odd", &len);
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
	buf = sysfix_read("pid-stat-kthread", &len);
	assert_int_equal(sys_parse_pid_stat(buf, len, &ps), 0);
	assert_true(ps.flags & 0x00200000u);
	free(buf);
	assert_int_equal(sys_parse_pid_stat("123 (x", 6, &ps), -1);
	assert_int_equal(sys_parse_pid_stat("(x) S 1", 7, &ps), -1);
	assert_int_equal(sys_parse_pid_stat("1 (x) S 1 2 3", 13, &ps), -1);
	assert_int_equal(sys_parse_pid_stat("0 (x) S", 7, &ps), -1);
	buf = sysfix_read("pid-status", &len);
	assert_int_equal(sys_parse_pid_status(buf, len, &cs), 0);
	assert_int_equal(cs.vcs, 15);
	assert_int_equal(cs.nvcs, 20);
	free(buf);
	assert_int_equal(sys_parse_pid_status("Name:\tx\n", 8, &cs), -1);
	buf = sysfix_read("pid-schedstat", &len);
	assert_int_equal(sys_parse_pid_schedstat(buf, len, &ss), 0);
	assert_int_equal(ss.run_ns, 203851);
	assert_int_equal(ss.slices, 2);
	free(buf);
	assert_int_equal(sys_parse_pid_schedstat("1 2", 3, &ss), -1);
	buf = sysfix_read("pid-cmdline", &len);
	assert_int_equal(sys_parse_cmdline(buf, len, cmd, sizeof cmd), 31);
	assert_string_equal(cmd, "/usr/bin/python3 -c print('hi')");
	assert_int_equal(sys_parse_cmdline(buf, len, cmd, 8), 7);
	assert_string_equal(cmd, "/usr/bi");
	free(buf);
	assert_int_equal(sys_parse_cmdline("", 0, cmd, sizeof cmd), 0);
	assert_string_equal(cmd, "");
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
