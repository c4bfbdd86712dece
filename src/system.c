/* system: the system source: its files, the CPU, memory, paging and
 * scalar readings, and snapshots into frames. Disks, interfaces and
 * interrupt tables are system-dev.c's, processes system-proc.c's, their
 * threads system-thread.c's. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system-impl.h"
#include "tracetop/util.h"

/* ---- reading ---- */

/* "FILE has no KEY", interned (a reason for an absent field). */
static const char *
why_missing(const struct sys_file *f, const char *key)
{
	char msg[256];

	snprintf(msg, sizeof msg, "%s has no %s", f->path, key);
	return str_intern(msg);
}

/* Progress of a kernel counter: 0 when it went back (a reset). */
static uint64_t
delta(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : 0;
}

/* One CPU's shares between two readings (old NULL: none yet). */
static void
cpu_shares(struct system_cpu *pub, const struct sys_cpu_raw *old, const struct sys_cpu_raw *raw)
{
	uint64_t all = old != NULL ? delta(sys_cpu_all(old), sys_cpu_all(raw)) : 0;

	pub->columns = raw->nfields;

	for (int k = 0; k < SYS_CPU_NFIELDS; k++)
		pub->pct[k] = all > 0 && (unsigned)k < raw->nfields && (unsigned)k < old->nfields
		                  ? 100.0 * (double)delta(old->t[k], raw->t[k]) / (double)all
		                  : NAN;
	pub->busy = all > 0
	                ? 100.0 * (double)delta(sys_cpu_busy(old), sys_cpu_busy(raw)) / (double)all
	                : NAN;
	pub->busy_cpus = pub->busy / 100.0;
	system_hist_push(&pub->busy_hist, pub->busy);
}

/* Fill pub's name for CPU cpu (-1: all). */
static void
cpu_name(struct system_cpu *pub, int cpu)
{
	pub->cpu = cpu;
	if (cpu < 0)
		snprintf(pub->name, sizeof pub->name, "cpu");
	else
		snprintf(pub->name, sizeof pub->name, "cpu%d", cpu);
}

/* The CPU lines of the new reading st[cur] against the last one. */
static void
cpus_update(struct system *s, int cur)
{
	const struct sys_stat_raw *raw = &s->st[cur], *old = &s->st[!cur];
	const struct sys_cpu_state *prev = s->cpus[!cur];
	double sum = 0;
	bool known = true;

	sys_grow((void **)&s->cpus[cur], &s->cpus_cap[cur], raw->ncpus, sizeof *s->cpus[cur]);
	for (size_t i = 0; i < raw->ncpus; i++) {
		struct sys_cpu_state *c = &s->cpus[cur][i];
		size_t j = old->ncpus;

		if (s->readings > 0 && i < old->ncpus && old->cpus[i].cpu == raw->cpus[i].cpu)
			j = i;
		for (size_t k = 0; s->readings > 0 && j == old->ncpus && k < old->ncpus; k++)
			if (old->cpus[k].cpu == raw->cpus[i].cpu)
				j = k;
		c->raw = raw->cpus[i];
		memset(&c->pub, 0, sizeof c->pub);
		if (j < old->ncpus)
			c->pub.busy_hist = prev[j].pub.busy_hist;
		cpu_name(&c->pub, raw->cpus[i].cpu);
		cpu_shares(&c->pub, j < old->ncpus ? &old->cpus[j] : NULL, &raw->cpus[i]);
		sum += c->pub.busy_cpus;
		known &= system_known(c->pub.busy);
	}
	cpu_name(&s->now.total, -1);
	cpu_shares(&s->now.total,
	           s->readings > 0 && (old->have & SYS_STAT_TOTAL) ? &old->total : NULL,
	           &raw->total);
	/* all CPUs' worth: the sum of each one's (the total line's share is of
	 * every CPU's time together) */
	s->now.total.busy_cpus = known && raw->ncpus > 0 ? sum : NAN;
}

/* The counters of /proc/stat that are not CPU lines, into the scalars. */
static void
stat_scalars(struct system *s, int cur, double secs)
{
	static const struct {
		enum system_misc_field f;
		unsigned bit;
		const char *key;
	} rates[] = {{SYSTEM_INTR, SYS_STAT_INTR, "intr"},
	             {SYSTEM_CTXT, SYS_STAT_CTXT, "ctxt"},
	             {SYSTEM_FORKS, SYS_STAT_PROCESSES, "processes"}};
	const struct sys_stat_raw *raw = &s->st[cur], *old = &s->st[!cur];
	const uint64_t now[] = {raw->intr, raw->ctxt, raw->processes};
	const uint64_t before[] = {old->intr, old->ctxt, old->processes};
	struct system_misc *m = &s->now.misc;

	for (size_t i = 0; i < ARRAY_SIZE(rates); i++) {
		bool have = raw->have & rates[i].bit;

		m->count[i] = have && s->readings > 0 ? delta(before[i], now[i]) : 0;
		m->v[rates[i].f] = have && s->readings > 0 && (old->have & rates[i].bit) && secs > 0
		                       ? (double)m->count[i] / secs
		                       : NAN;
		m->why[rates[i].f] = have ? NULL : why_missing(&s->stat, rates[i].key);
	}
	m->v[SYSTEM_PROCS_RUNNING] = raw->have & SYS_STAT_RUNNING ? (double)raw->running : NAN;
	m->why[SYSTEM_PROCS_RUNNING] =
	    raw->have & SYS_STAT_RUNNING ? NULL : why_missing(&s->stat, "procs_running");
	m->v[SYSTEM_PROCS_BLOCKED] = raw->have & SYS_STAT_BLOCKED ? (double)raw->blocked : NAN;
	m->why[SYSTEM_PROCS_BLOCKED] =
	    raw->have & SYS_STAT_BLOCKED ? NULL : why_missing(&s->stat, "procs_blocked");
	system_hist_push(&m->intr_hist, m->v[SYSTEM_INTR]);
	system_hist_push(&m->ctxt_hist, m->v[SYSTEM_CTXT]);
	system_hist_push(&m->forks_hist, m->v[SYSTEM_FORKS]);
}

/* Mark the scalars of file f absent for its error. */
static void
misc_absent(struct system *s, const enum system_misc_field *fields, size_t n, const char *why)
{
	for (size_t i = 0; i < n; i++) {
		s->now.misc.v[fields[i]] = NAN;
		s->now.misc.why[fields[i]] = why;
	}
}

/* /proc/stat: CPUs, interrupts, context switches, forks, tasks. */
static void
read_stat(struct system *s, double secs)
{
	static const enum system_misc_field mine[] = {SYSTEM_INTR, SYSTEM_CTXT, SYSTEM_FORKS,
	                                              SYSTEM_PROCS_RUNNING, SYSTEM_PROCS_BLOCKED};
	int cur = !s->st_cur;
	struct sys_stat_raw *raw = &s->st[cur];

	s->now.cpu_error = NULL;
	if (sys_file_read(&s->stat) != 0) {
		s->now.cpu_error = s->stat.error;
	} else {
		while (sys_parse_stat(s->stat.buf, s->stat.len, raw) == 0 && raw->ncpus > raw->cap)
			sys_grow((void **)&raw->cpus, &raw->cap, raw->ncpus, sizeof *raw->cpus);
		if (!(raw->have & SYS_STAT_TOTAL))
			s->now.cpu_error = why_missing(&s->stat, "cpu lines");
	}
	if (s->now.cpu_error != NULL) {
		s->now.ncpus = 0;
		misc_absent(s, mine, ARRAY_SIZE(mine), s->now.cpu_error);
		return;
	}
	cpus_update(s, cur);
	stat_scalars(s, cur, secs);
	s->now.ncpus = raw->ncpus;
	s->st_cur = cur;
}

/* A field of meminfo into the memory part, or why it is absent. */
static void
mem_field(struct system *s, const struct sys_meminfo_raw *r, enum system_mem_field f,
          enum sys_mem_key k)
{
	bool have = r->have & (1u << k);

	s->now.mem.kib[f] = have ? r->kib[k] : 0;
	s->now.mem.why[f] = have ? NULL : why_missing(&s->meminfo, sys_meminfo_key(k));
}

/* /proc/meminfo: memory and swap. */
static void
read_meminfo(struct system *s)
{
	static const struct {
		enum system_mem_field f;
		enum sys_mem_key k;
	} direct[] = {
	    {SYSTEM_MEM_TOTAL, SYS_MEM_TOTAL},
	    {SYSTEM_MEM_FREE, SYS_MEM_FREE},
	    {SYSTEM_MEM_AVAILABLE, SYS_MEM_AVAILABLE},
	    {SYSTEM_MEM_BUFFERS, SYS_MEM_BUFFERS},
	    {SYSTEM_MEM_DIRTY, SYS_MEM_DIRTY},
	    {SYSTEM_MEM_WRITEBACK, SYS_MEM_WRITEBACK},
	    {SYSTEM_MEM_SHMEM, SYS_MEM_SHMEM},
	    {SYSTEM_MEM_SLAB, SYS_MEM_SLAB},
	    {SYSTEM_MEM_SWAP_TOTAL, SYS_MEM_SWAP_TOTAL},
	    {SYSTEM_MEM_SWAP_FREE, SYS_MEM_SWAP_FREE},
	    {SYSTEM_MEM_SWAP_CACHED, SYS_MEM_SWAP_CACHED},
	    {SYSTEM_MEM_CACHED, SYS_MEM_CACHED},
	};
	struct system_mem *m = &s->now.mem;
	struct sys_meminfo_raw r;
	uint64_t *kib = m->kib;

	s->now.mem_error = NULL;
	if (sys_file_read(&s->meminfo) != 0 ||
	    sys_parse_meminfo(s->meminfo.buf, s->meminfo.len, &r) != 0) {
		s->now.mem_error =
		    s->meminfo.error ? s->meminfo.error : why_missing(&s->meminfo, "MemTotal");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(direct); i++)
		mem_field(s, &r, direct[i].f, direct[i].k);
	if (m->why[SYSTEM_MEM_CACHED] == NULL) /* SReclaimable only since 2.6.19 */
		kib[SYSTEM_MEM_CACHED] +=
		    r.have & (1u << SYS_MEM_SRECLAIMABLE) ? r.kib[SYS_MEM_SRECLAIMABLE] : 0;
	m->why[SYSTEM_MEM_USED] = m->why[SYSTEM_MEM_TOTAL]     ? m->why[SYSTEM_MEM_TOTAL]
	                          : m->why[SYSTEM_MEM_FREE]    ? m->why[SYSTEM_MEM_FREE]
	                          : m->why[SYSTEM_MEM_BUFFERS] ? m->why[SYSTEM_MEM_BUFFERS]
	                                                       : m->why[SYSTEM_MEM_CACHED];
	kib[SYSTEM_MEM_USED] = 0;
	if (m->why[SYSTEM_MEM_USED] == NULL) {
		uint64_t off =
		    kib[SYSTEM_MEM_FREE] + kib[SYSTEM_MEM_BUFFERS] + kib[SYSTEM_MEM_CACHED];

		/* Cached can pass what is left of MemTotal (shared memory
		 * counted twice): then all is cache, nothing "used" */
		kib[SYSTEM_MEM_USED] =
		    kib[SYSTEM_MEM_TOTAL] > off ? kib[SYSTEM_MEM_TOTAL] - off : 0;
	}
	m->why[SYSTEM_MEM_SWAP_USED] = m->why[SYSTEM_MEM_SWAP_TOTAL] ? m->why[SYSTEM_MEM_SWAP_TOTAL]
	                                                             : m->why[SYSTEM_MEM_SWAP_FREE];
	kib[SYSTEM_MEM_SWAP_USED] =
	    m->why[SYSTEM_MEM_SWAP_USED] == NULL
	        ? delta(kib[SYSTEM_MEM_SWAP_FREE], kib[SYSTEM_MEM_SWAP_TOTAL])
	        : 0;
	system_hist_push(&m->used_hist,
	                 m->why[SYSTEM_MEM_USED] ? NAN : (double)kib[SYSTEM_MEM_USED]);
	system_hist_push(&m->swap_hist,
	                 m->why[SYSTEM_MEM_SWAP_USED] ? NAN : (double)kib[SYSTEM_MEM_SWAP_USED]);
}

/* /proc/vmstat: paging and swapping rates. */
static void
read_vmstat(struct system *s, double secs)
{
	static const enum sys_vm_key keys[SYSTEM_VM_NFIELDS] = {
	    [SYSTEM_VM_MINFLT] = SYS_VM_PGFAULT, [SYSTEM_VM_MAJFLT] = SYS_VM_PGMAJFAULT,
	    [SYSTEM_VM_PGIN] = SYS_VM_PGPGIN,    [SYSTEM_VM_PGOUT] = SYS_VM_PGPGOUT,
	    [SYSTEM_VM_SWAPIN] = SYS_VM_PSWPIN,  [SYSTEM_VM_SWAPOUT] = SYS_VM_PSWPOUT,
	};
	int cur = s->readings & 1;
	struct sys_vmstat_raw *raw = &s->vm[cur], *old = &s->vm[!cur];
	struct system_vm *v = &s->now.vm;

	s->now.vm_error = NULL;
	if (sys_file_read(&s->vmstat) != 0 ||
	    sys_parse_vmstat(s->vmstat.buf, s->vmstat.len, raw) != 0) {
		s->now.vm_error =
		    s->vmstat.error ? s->vmstat.error : why_missing(&s->vmstat, "pgfault");
		raw->have = 0;
		return;
	}
	for (int f = 0; f < SYSTEM_VM_NFIELDS; f++) {
		uint32_t bits = 1u << keys[f];
		uint64_t d;

		if (f == SYSTEM_VM_MINFLT) /* pgfault counts major faults too */
			bits |= 1u << SYS_VM_PGMAJFAULT;
		v->why[f] = (raw->have & bits) == bits
		                ? NULL
		                : why_missing(&s->vmstat, sys_vmstat_key(keys[f]));
		if (v->why[f] != NULL || (old->have & bits) != bits || secs <= 0) {
			v->rate[f] = NAN;
			continue;
		}
		d = delta(old->v[keys[f]], raw->v[keys[f]]);
		if (f == SYSTEM_VM_MINFLT)
			d = delta(delta(old->v[SYS_VM_PGMAJFAULT], raw->v[SYS_VM_PGMAJFAULT]), d);
		if (f == SYSTEM_VM_SWAPIN || f == SYSTEM_VM_SWAPOUT)
			d *= (uint64_t)s->page_kib; /* pages */
		v->rate[f] = (double)d / secs;
	}
	system_hist_push(&v->majflt_hist, v->rate[SYSTEM_VM_MAJFLT]);
}

/* /proc/loadavg and /proc/uptime. */
static void
read_load(struct system *s)
{
	static const enum system_misc_field load[] = {SYSTEM_TASKS, SYSTEM_LOAD1, SYSTEM_LOAD5,
	                                              SYSTEM_LOAD15};
	static const enum system_misc_field up[] = {SYSTEM_UPTIME};
	struct system_misc *m = &s->now.misc;
	struct sys_loadavg_raw la;
	double idle;

	if (sys_file_read(&s->loadavg) != 0 ||
	    sys_parse_loadavg(s->loadavg.buf, s->loadavg.len, &la) != 0) {
		misc_absent(s, load, ARRAY_SIZE(load),
		            s->loadavg.error ? s->loadavg.error
		                             : why_missing(&s->loadavg, "load averages"));
	} else {
		misc_absent(s, load, ARRAY_SIZE(load), NULL);
		m->v[SYSTEM_TASKS] = (double)la.total;
		for (int i = 0; i < 3; i++)
			m->v[SYSTEM_LOAD1 + i] = la.load[i];
		system_hist_push(&m->load_hist, la.load[0]);
	}
	if (sys_file_read(&s->uptime) != 0 ||
	    sys_parse_uptime(s->uptime.buf, s->uptime.len, &m->v[SYSTEM_UPTIME], &idle) != 0)
		misc_absent(s, up, 1,
		            s->uptime.error ? s->uptime.error : why_missing(&s->uptime, "uptime"));
	else
		m->why[SYSTEM_UPTIME] = NULL;
}

/* Take one reading of everything; rates over secs (0: the first). */
static void
system_read(struct system *s, uint64_t now, double secs)
{
	read_stat(s, secs);
	read_meminfo(s);
	read_vmstat(s, secs);
	read_load(s);
	sys_dev_tick(s, secs);
	sys_procs_tick(s, now);
	s->readings++;
}

/* ---- the source ---- */

/* Open everything and take the first reading. */
struct system *
system_new(const struct system_opts *o)
{
	struct system *s = xcalloc(1, sizeof *s);
	long hz = sysconf(_SC_CLK_TCK), page = sysconf(_SC_PAGESIZE);

	s->proc = xstrdup(o->proc != NULL ? o->proc : "/proc");
	s->sys = xstrdup(o->sys != NULL ? o->sys : "/sys");
	s->hz = hz > 0 ? hz : 100;
	s->page_kib = page >= 1024 ? page / 1024 : 4;
	s->procs_on = o->procs;
	s->threads_on = o->threads;
	s->irqs_on = o->irqs;
	s->pfile.fd = -1;
	sys_file_open(&s->stat, s->proc, "stat");
	sys_file_open(&s->meminfo, s->proc, "meminfo");
	sys_file_open(&s->vmstat, s->proc, "vmstat");
	sys_file_open(&s->loadavg, s->proc, "loadavg");
	sys_file_open(&s->uptime, s->proc, "uptime");
	sys_dev_open(s);
	s->proc_fd = open(s->proc, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	s->last_ns = now_ns();
	system_read(s, s->last_ns, 0);
	return s;
}

/* Start or stop reading the processes. */
void
system_set_procs(struct system *s, bool on)
{
	if (s->procs_on == on)
		return;
	s->procs_on = on;
	s->procs_scanned = false; /* rates start over */
	s->nprocs[s->proc_cur] = 0;
}

/* Start or stop reading the interrupt tables (/proc/interrupts and
 * softirqs): the System pane's, the costliest text of its reading. */
void
system_set_irqs(struct system *s, bool on)
{
	if (s->irqs_on == on)
		return;
	s->irqs_on = on;
	if (on)
		sys_irqs_start(s);
}

/* Whether the interrupt tables are read. */
bool
system_irqs_on(const struct system *s)
{
	return s->irqs_on;
}

/* Start or stop reading the processes' threads. */
void
system_set_threads(struct system *s, bool on)
{
	s->threads_on = on; /* the last scan has none: rates from the next */
}

/* A new reading, and the interval since the last. */
void
system_tick(struct system *s)
{
	uint64_t now = now_ns();
	double secs = (double)(now - s->last_ns) / 1e9;

	s->last_ns = now;
	s->secs = secs;
	s->elapsed += secs;
	system_read(s, now, secs);
}

/* Copy n elements into *dst, growing it. */
void
sys_copy_array(void **dst, size_t *cap, const void *src, size_t n, size_t size)
{
	sys_grow(dst, cap, n, size);
	if (n > 0)
		memcpy(*dst, src, n * size);
}

/* The reading into a frame part. */
void
system_snapshot(struct system *s, struct frame_system *fs, bool rows)
{
	const struct sys_cpu_state *cpus = s->cpus[s->st_cur];

	fs->readings = s->readings;
	fs->secs = s->secs;
	fs->elapsed = s->elapsed;
	fs->total = s->now.total;
	fs->cpu_error = s->now.cpu_error;
	sys_grow((void **)&fs->cpus, &fs->cpus_cap, s->now.ncpus, sizeof *fs->cpus);
	fs->ncpus = s->now.ncpus;
	for (size_t i = 0; i < fs->ncpus; i++)
		fs->cpus[i] = cpus[i].pub;
	fs->mem = s->now.mem;
	fs->mem_error = s->now.mem_error;
	fs->vm = s->now.vm;
	fs->vm_error = s->now.vm_error;
	fs->misc = s->now.misc;
	sys_dev_totals(s, fs);
	if (!rows)
		return;
	sys_dev_snapshot(s, fs);
	sys_procs_snapshot(s, fs);
	fs->rows = true;
}

/* Close and free. */
void
system_free(struct system *s)
{
	if (s == NULL)
		return;
	sys_file_close(&s->stat);
	sys_file_close(&s->meminfo);
	sys_file_close(&s->vmstat);
	sys_file_close(&s->loadavg);
	sys_file_close(&s->uptime);
	for (int i = 0; i < 2; i++) {
		free(s->st[i].cpus);
		free(s->cpus[i]);
	}
	sys_dev_free(s);
	sys_procs_free(s);
	if (s->proc_fd >= 0)
		close(s->proc_fd);
	free(s->proc);
	free(s->sys);
	free(s);
}
