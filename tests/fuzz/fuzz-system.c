/* libFuzzer target for the system source's parsers (system-parse.c): the
 * /proc files of the machine, which a container or an odd kernel may
 * write differently. Build from a configured build directory:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     $SRC/tests/fuzz/fuzz-system.c $SRC/src/system-parse.c \
 *     -o fuzz-system && ./fuzz-system $SRC/tests/fuzz/corpus/system
 *
 * The first byte picks the file (its value modulo the number of rows of
 * fz_files), the rest is its text, not NUL-terminated. The seeds in tests/fuzz/corpus/system are
 * the fixtures of tests/fixtures/system behind their selector byte. Each
 * array parser runs first with room for two items (so counting past the
 * room runs), then with room for all it counted; besides not crashing,
 * both runs must count the same, and what is stored must be in bounds. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/system-parse.h"
#include "tracetop/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The most items a grown second run may hold (a few MiB at most). */
#define FZ_MAX_ITEMS 65536

/* Abort unless name holds a NUL within size bytes. */
static void
check_name(const char *name, size_t size)
{
	if (memchr(name, '\0', size) == NULL)
		abort();
}

/* /proc/stat, twice. */
static void
fz_stat(const char *buf, size_t len)
{
	struct sys_cpu_raw few[2];
	struct sys_stat_raw st = {.cpus = few, .cap = 2};
	size_t n;

	if (sys_parse_stat(buf, len, &st) != 0 || st.ncpus > FZ_MAX_ITEMS)
		return;
	n = st.ncpus;
	st.cap = n ? n : 1;
	st.cpus = calloc(st.cap, sizeof *st.cpus);
	if (sys_parse_stat(buf, len, &st) != 0 || st.ncpus != n)
		abort();
	for (size_t i = 0; i < n; i++)
		if (st.cpus[i].nfields > SYS_CPU_NFIELDS || st.cpus[i].cpu < 0)
			abort();
	(void)sys_cpu_all(&st.total);
	free(st.cpus);
}

/* /proc/diskstats, twice. */
static void
fz_disks(const char *buf, size_t len)
{
	struct sys_disk_raw few[2];
	struct sys_disks_raw d = {.v = few, .cap = 2};
	size_t n;

	sys_parse_diskstats(buf, len, &d);
	if ((n = d.n) > FZ_MAX_ITEMS)
		return;
	d.cap = n ? n : 1;
	d.v = calloc(d.cap, sizeof *d.v);
	sys_parse_diskstats(buf, len, &d);
	if (d.n != n)
		abort();
	for (size_t i = 0; i < n; i++) {
		check_name(d.v[i].name, sizeof d.v[i].name);
		if (d.v[i].nfields < SYS_DISK_MIN_FIELDS || d.v[i].nfields > SYS_DISK_NFIELDS)
			abort();
	}
	free(d.v);
}

/* /proc/net/dev, twice. */
static void
fz_netdev(const char *buf, size_t len)
{
	struct sys_net_raw few[2];
	struct sys_nets_raw d = {.v = few, .cap = 2};
	size_t n;

	sys_parse_netdev(buf, len, &d);
	if ((n = d.n) > FZ_MAX_ITEMS)
		return;
	d.cap = n ? n : 1;
	d.v = calloc(d.cap, sizeof *d.v);
	sys_parse_netdev(buf, len, &d);
	if (d.n != n)
		abort();
	for (size_t i = 0; i < n; i++)
		check_name(d.v[i].name, sizeof d.v[i].name);
	free(d.v);
}

/* /proc/interrupts or softirqs, twice. */
static void
fz_irqs(const char *buf, size_t len)
{
	int cpus[2];
	struct sys_irq_raw rows[2];
	uint64_t counts[4];
	struct sys_irqtab_raw t = {.cpus = cpus,
	                           .cpus_cap = 2,
	                           .rows = rows,
	                           .rows_cap = 2,
	                           .counts = counts,
	                           .counts_cap = 4};
	size_t nc, nr;

	if (sys_parse_irqtab(buf, len, &t) != 0)
		return;
	nc = t.ncpus, nr = t.nrows;
	if (nc == 0 || nr > FZ_MAX_ITEMS || nc > FZ_MAX_ITEMS || nr * nc > FZ_MAX_ITEMS)
		return;
	t.cpus = calloc(nc, sizeof *t.cpus);
	t.cpus_cap = nc;
	t.rows = calloc(nr + 1, sizeof *t.rows);
	t.rows_cap = nr + 1;
	t.counts = calloc((nr + 1) * nc, sizeof *t.counts);
	t.counts_cap = (nr + 1) * nc;
	if (sys_parse_irqtab(buf, len, &t) != 0 || t.ncpus != nc || t.nrows != nr ||
	    !sys_irqtab_fits(&t))
		abort();
	for (size_t i = 0; i < nr; i++) {
		check_name(t.rows[i].name, sizeof t.rows[i].name);
		check_name(t.rows[i].desc, sizeof t.rows[i].desc);
		if (t.rows[i].ncounts > nc)
			abort();
	}
	free(t.cpus);
	free(t.rows);
	free(t.counts);
}

/* /proc/meminfo. */
static void
fz_meminfo(const char *buf, size_t len)
{
	struct sys_meminfo_raw mem;

	(void)sys_parse_meminfo(buf, len, &mem);
}

/* /proc/vmstat. */
static void
fz_vmstat(const char *buf, size_t len)
{
	struct sys_vmstat_raw vm;

	(void)sys_parse_vmstat(buf, len, &vm);
}

/* /proc/loadavg and /proc/uptime. */
static void
fz_load(const char *buf, size_t len)
{
	struct sys_loadavg_raw la;
	double up, idle;

	(void)sys_parse_loadavg(buf, len, &la);
	(void)sys_parse_uptime(buf, len, &up, &idle);
}

/* /proc/PID/stat, status and schedstat. */
static void
fz_pid(const char *buf, size_t len)
{
	struct sys_pid_stat ps;
	struct sys_pid_status cs;
	struct sys_pid_schedstat ss;

	if (sys_parse_pid_stat(buf, len, &ps) == 0 && (ps.pid <= 0 || ps.nfields < 24))
		abort();
	check_name(ps.comm, sizeof ps.comm);
	(void)sys_parse_pid_status(buf, len, &cs);
	(void)sys_parse_pid_schedstat(buf, len, &ss);
}

/* /proc/PID/cmdline, into a small buffer. */
static void
fz_cmdline(const char *buf, size_t len)
{
	char cmd[16];

	if (sys_parse_cmdline(buf, len, cmd, sizeof cmd) != strlen(cmd) ||
	    strlen(cmd) >= sizeof cmd)
		abort();
}

/* A getdents64 listing: every step moves forward, the walk ends at the
 * buffer's end, and each pid is positive. */
static void
fz_dents(const char *buf, size_t len)
{
	size_t off = 0, was = 0;
	int pid;

	while ((pid = sys_parse_dents_pid(buf, len, &off)) != 0) {
		if (pid < 0 || off <= was || off > len)
			abort();
		was = off;
	}
	if (off != len)
		abort();
}

/* The files and their parsers, by selector: a row's index is the first
 * byte of its seeds in tests/fuzz/corpus/system (0-stat, 1-meminfo, ...),
 * so rows are only ever added at the end. */
static const struct fz_file {
	const char *name;
	void (*parse)(const char *buf, size_t len);
} fz_files[] = {
    {"stat", fz_stat},
    {"meminfo", fz_meminfo},
    {"vmstat", fz_vmstat},
    {"loadavg, uptime", fz_load},
    {"diskstats", fz_disks},
    {"net/dev", fz_netdev},
    {"interrupts, softirqs", fz_irqs},
    {"PID/stat, status, schedstat", fz_pid},
    {"PID/cmdline", fz_cmdline},
    {"a getdents64 listing of /proc or a task directory", fz_dents},
};

/* One input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	fz_files[data[0] % ARRAY_SIZE(fz_files)].parse((const char *)data + 1, size - 1);
	return 0;
}
