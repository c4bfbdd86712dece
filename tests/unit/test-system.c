/* Tests of the system source (its parsers are in test-system-parse.c):
 * the source on a fixture /proc tree whose counters the test moves by
 * known amounts (rates, partitions, absent files and fields, new and
 * reused processes, no growth in steady state), its reports, and the
 * source on the real /proc. */
#include "config.h"

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

#include "sysfixture.h"
#include "tracetop/report-system.h"
#include "tracetop/system-parse.h"
#include "tracetop/system.h"
#include "tracetop/util.h"
#include "system-fixture.h"

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
	struct system_opts o = {
	    .proc = t->root, .sys = "/nonexistent", .procs = true, .irqs = true};
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
	assert_true(sysfix_near(fs.cpus[0].busy, 100, 1e-9));
	assert_true(sysfix_near(fs.cpus[0].pct[SYS_CPU_USER], 90, 1e-9));
	assert_true(sysfix_near(fs.cpus[0].pct[SYS_CPU_SYSTEM], 10, 1e-9));
	assert_true(sysfix_near(fs.cpus[1].busy, 0, 1e-9));
	assert_true(sysfix_near(fs.cpus[1].pct[SYS_CPU_IDLE], 100, 1e-9));
	assert_true(sysfix_near(fs.total.busy, 50, 1e-9));
	assert_true(sysfix_near(fs.total.busy_cpus, 1.0, 1e-9));
	assert_int_equal(fs.cpus[0].busy_hist.n, 1);
	/* scalars */
	assert_true(sysfix_near(fs.misc.v[SYSTEM_CTXT], 1000 / secs, 1e-9));
	assert_int_equal(fs.misc.count[2], 10);
	assert_true(sysfix_near(fs.misc.v[SYSTEM_FORKS], 10 / secs, 1e-9));
	assert_true(sysfix_near(fs.misc.v[SYSTEM_INTR], 70 / secs, 1e-9));
	assert_true(fs.misc.v[SYSTEM_PROCS_BLOCKED] == 1 && fs.misc.v[SYSTEM_TASKS] == 120);
	assert_true(sysfix_near(fs.misc.v[SYSTEM_LOAD1], 0.5, 1e-9));
	assert_true(sysfix_near(fs.misc.v[SYSTEM_UPTIME], 101.5, 1e-9));
	/* memory: used = total - free - buffers - (cached + sreclaimable) */
	assert_null(fs.mem_error);
	assert_int_equal(fs.mem.kib[SYSTEM_MEM_USED], 1000000 - 400000 - 10000 - 240000);
	assert_int_equal(fs.mem.kib[SYSTEM_MEM_CACHED], 240000);
	assert_int_equal(fs.mem.kib[SYSTEM_MEM_DIRTY], 100);
	assert_null(fs.mem.why[SYSTEM_MEM_AVAILABLE]);
	assert_true(sysfix_near(fs.vm.rate[SYSTEM_VM_MINFLT], 100 / secs, 1e-9));
	assert_true(sysfix_near(fs.vm.rate[SYSTEM_VM_MAJFLT], 10 / secs, 1e-9));
	assert_true(sysfix_near(fs.vm.rate[SYSTEM_VM_PGIN], 64 / secs, 1e-9));
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
	assert_true(sysfix_near(fs.disks[sda].writes_s, 8 / secs, 1e-9));
	assert_true(sysfix_near(fs.disks[nv].await_ms, 500.0 / 10, 1e-9));
	assert_true(sysfix_near(fs.disks[nv].util, 50 / (secs * 10), 1e-9));
	assert_true(sysfix_near(fs.disks[nv].queue, 1000 / (secs * 1000), 1e-9));
	assert_int_equal(fs.disks[nv].inflight, 1);
	assert_int_equal(fs.disk_total.write_bytes, 2048 * 512);
	assert_int_equal(fs.disk_total.read_bytes, 80 * 512);
	/* interfaces: the total leaves lo out */
	assert_null(fs.net_error);
	assert_int_equal(fs.nnets, 2);
	assert_int_equal(fs.nets[0].rx_bytes, 4096);
	assert_true(sysfix_near(fs.nets[0].tx_packets_s, 4 / secs, 1e-9));
	assert_int_equal(fs.nets[1].errors, 1);
	assert_int_equal(fs.nets[1].drops, 2);
	assert_int_equal(fs.net_total.rx_bytes, 300);
	/* interrupts: LOC first, per CPU */
	assert_null(fs.irqs.error);
	assert_string_equal(fs.irqs.rows[0].name, "LOC");
	assert_int_equal(fs.irqs.rows[0].count, 600);
	assert_true(sysfix_near(system_irq_cpu_rate(&fs.irqs, 0, 0), 500 / secs, 1e-9));
	assert_true(sysfix_near(system_irq_cpu_rate(&fs.irqs, 0, 1), 100 / secs, 1e-9));
	assert_string_equal(fs.irqs.rows[fs.irqs.n - 1].name, "ERR");
	assert_string_equal(fs.softirqs.rows[0].name, "NET_RX");
	/* processes: 42 busiest; 99 new and 1 reused have no rates yet; 7 gone */
	assert_null(fs.procs_error);
	assert_int_equal(fs.nprocs, 3);
	assert_int_equal(fs.procs_new, 2);
	p = &fs.procs[0];
	assert_int_equal(p->pid, 42);
	assert_true(sysfix_near(p->cpu, 50.0 / sysconf(_SC_CLK_TCK) / secs * 100, 1e-9));
	assert_true(sysfix_near(p->minflt_s, 200 / secs, 1e-9));
	assert_true(sysfix_near(p->ctxt_s, 100 / secs, 1e-9));
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
	struct system_opts o = {
	    .proc = t->root, .sys = "/nonexistent", .procs = true, .irqs = true};
	struct frame_system fs = {0};
	struct system *s;
	size_t len;
	char *buf = sysfix_read("meminfo-old", &len);

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
	assert_true(sysfix_near(fs.cpus[0].busy, 50, 1e-9));
	assert_non_null(strstr(fs.misc.why[SYSTEM_PROCS_RUNNING], "stat has no procs_running"));
	assert_true(isnan(fs.misc.v[SYSTEM_PROCS_RUNNING]));
	assert_true(isnan(fs.misc.v[SYSTEM_FORKS]));
	assert_true(sysfix_near(fs.misc.v[SYSTEM_CTXT], 10 / fs.secs, 1e-9));
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
	struct system_opts o = {.proc = t->root, .sys = "/nonexistent", .irqs = true};
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
	struct system_opts o = {
	    .proc = t->root, .sys = "/nonexistent", .procs = true, .irqs = true};
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
	assert_true(sysfix_near(proc_of(&fs, 1)->ctxt_s, 40 / fs.secs, 1e-9));
	assert_true(sysfix_near(proc_of(&fs, 7)->ctxt_s, 0, 1e-9)); /* no schedstat: status */
	nap(20);
	put(t, "42/schedstat", "5000 0 6\n");
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_true(sysfix_near(proc_of(&fs, 42)->ctxt_s, 70 / fs.secs, 1e-9));
	frame_system_free(&fs);
	system_free(s);
}

/* ---- the reports ---- */

/* Text, CSV and JSON of one frame of the fixture tree. */
static void
test_reports(void **state)
{
	struct tree *t = *state;
	struct system_opts o = {
	    .proc = t->root, .sys = "/nonexistent", .procs = true, .irqs = true};
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
	struct system_opts o = {.procs = true, .irqs = true};
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

/* The interrupt tables only while asked for (the System pane shown):
 * absent with the reason before, a first reading when asked, rates over
 * the time since it at the next tick, absent again once off. */
static void
test_irqs_when_shown(void **state)
{
	struct tree *t = *state;
	struct system_opts o = {.proc = t->root, .sys = "/nonexistent"};
	struct frame_system fs = {0};
	struct system *s = system_new(&o);
	uint64_t on;
	double secs;

	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_int_equal(fs.irqs.n, 0);
	assert_int_equal(fs.softirqs.n, 0);
	assert_non_null(fs.irqs.error);
	assert_non_null(strstr(fs.irqs.error, "not read while no pane shows it"));
	assert_non_null(fs.softirqs.error);
	nap(50);
	on = now_ns();
	system_set_irqs(s, true); /* at step 0 */
	nap(100);
	tree_step(t, 1);
	system_tick(s);
	secs = (double)(now_ns() - on) / 1e9;
	system_snapshot(s, &fs, true);
	assert_null(fs.irqs.error);
	assert_string_equal(fs.irqs.rows[0].name, "LOC");
	assert_int_equal(fs.irqs.rows[0].count, 600);
	/* over the ~100 ms since it was asked for (at most secs), not the
	 * tick's ~150 ms */
	assert_true(fs.irqs.rows[0].rate >= 600 / secs * 0.999);
	assert_true(fs.irqs.rows[0].rate > 600 / fs.secs * 1.2);
	assert_string_equal(fs.softirqs.rows[0].name, "NET_RX");
	system_set_irqs(s, false);
	tree_step(t, 2);
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_int_equal(fs.irqs.n, 0);
	assert_non_null(fs.irqs.error);
	frame_system_free(&fs);
	system_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_source_rates, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_source_absent, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_source_grows, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_source_schedstat, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_reports, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_irqs_when_shown, tree_setup, tree_teardown),
	    cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
