/* system-impl: the system source's insides, shared by its files: system.c
 * (the source: CPU, memory, paging, scalars, snapshots), system-dev.c
 * (disks, interfaces, interrupt tables), system-proc.c (processes) and
 * system-thread.c (their threads). Nothing outside the module includes it. */
#ifndef TRACETOP_SYSTEM_IMPL_H
#define TRACETOP_SYSTEM_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/system-file.h"
#include "tracetop/system-parse.h"
#include "tracetop/system.h"

/* ---- the source's state ---- */

/* A CPU line now and what the frame shows of it. */
struct sys_cpu_state {
	struct sys_cpu_raw raw;
	struct system_cpu pub;
};

/* A block device now, its place among the disks and what the frame shows. */
struct sys_disk_state {
	struct sys_disk_raw raw;
	struct system_disk pub;
	char parent[SYS_NAME_MAX]; /* a partition's disk, "" for a whole disk */
	bool partition;
	bool in_total;
	bool classified; /* partition, parent and in_total are known */
	bool by_name;    /* sysfs did not know it: classified by its name */
};

/* An interface now and what the frame shows. */
struct sys_net_state {
	struct sys_net_raw raw;
	struct system_net pub;
};

/* An interrupt table: this reading's and the last one's raw counts, and
 * the rates between them. */
struct sys_irq_state {
	struct sys_file file;
	struct sys_irqtab_raw raw[2]; /* [cur] this reading, [!cur] the last */
	int cur;
	uint64_t read_ns; /* the last reading (now_ns), 0: none to take rates from */
	struct system_irqs pub;
};

/* A process now: its counters of this reading and its row. */
struct sys_proc_state {
	uint64_t starttime; /* tells a reused pid from the process it had */
	uint64_t utime, stime, minflt, majflt, vcs, nvcs;
	uint64_t run_ns; /* the main thread's time on a CPU (schedstat) */
	bool have_cs;    /* vcs and nvcs were read */
	bool have_run;   /* run_ns was read */
	bool cmd_read;
	size_t thr_at, thr_n; /* its threads: threads[cur][thr_at .. thr_at + thr_n) */
	struct system_proc pub;
};

/* A thread now: its counters of this reading and its row. */
struct sys_thread_state {
	uint64_t starttime; /* tells a reused tid from the thread it had */
	uint64_t utime, stime, minflt, majflt;
	struct system_thread pub;
};

/* The busiest-first order of the process rows. */
struct sys_proc_order {
	double cpu;
	int pid;
	uint32_t idx;
};

struct system {
	char *proc, *sys; /* the roots */
	bool procs_on;
	bool threads_on;  /* with procs_on: read each process's threads */
	bool irqs_on;     /* read the interrupt tables */
	long hz;          /* clock ticks per second (/proc/PID/stat times) */
	long page_kib;    /* KiB per page */
	uint64_t last_ns; /* the previous reading */
	double secs, elapsed;
	uint64_t readings;
	struct frame_system now; /* the header numbers of the last reading */

	struct sys_file stat, meminfo, vmstat, loadavg, uptime;
	struct sys_stat_raw st[2]; /* [st_cur] this reading, [!st_cur] the last */
	int st_cur;
	struct sys_vmstat_raw vm[2];
	struct sys_cpu_state *cpus[2]; /* [st_cur] matches st[st_cur].cpus */
	size_t cpus_cap[2];

	struct sys_file diskstats, netdev;
	struct sys_disks_raw draw;       /* parse target */
	struct sys_disk_state *disks[2]; /* [dev_cur] this reading */
	size_t ndisks[2], disks_cap[2];
	bool sys_block;       /* /sys/class/block is there */
	size_t disks_by_name; /* devices it does not know: partitions told by name */
	struct sys_nets_raw nraw;
	struct sys_net_state *nets[2];
	size_t nnets[2], nets_cap[2];
	int dev_cur;
	struct sys_irq_state irqs, softirqs;

	int proc_fd;           /* the procfs root, for getdents and openat */
	struct sys_file pfile; /* per-process reads */
	char *dents;           /* getdents buffer */
	size_t dents_cap;
	struct sys_proc_state *procs[2]; /* [proc_cur], sorted by pid */
	size_t nprocs[2], procs_cap[2];
	int proc_cur;
	uint64_t procs_ns; /* when the last process scan was */
	bool procs_scanned;
	size_t procs_new;
	const char *procs_error;
	struct sys_proc_order *order;
	size_t order_cap;
	struct sys_thread_state *threads[2]; /* [proc_cur], each process's by tid */
	size_t nthreads[2], threads_cap[2];
	char *tdents; /* getdents buffer of a task directory */
	size_t tdents_cap;
};

/* Progress of a process's or thread's counter (0 if it went back). */
static inline uint64_t
sys_delta(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : 0;
}

/* ---- system-dev.c ---- */

/* Read disks, interfaces and interrupt tables; rates over secs seconds. */
void sys_dev_open(struct system *s);
void sys_dev_tick(struct system *s, double secs);
void sys_irqs_start(struct system *s);
void sys_dev_snapshot(struct system *s, struct frame_system *fs);
void sys_dev_totals(struct system *s, struct frame_system *fs);
void sys_dev_free(struct system *s);

/* ---- system-proc.c ---- */

/* Scan the processes (when on); rates over the time since the last scan. */
void sys_procs_tick(struct system *s, uint64_t now);
void sys_procs_snapshot(struct system *s, struct frame_system *fs);
void sys_procs_free(struct system *s);

/* ---- system-thread.c ---- */

/* Read the threads of process pid (st just read; old its last scan's
 * state or NULL) into this scan's thread table; rates over secs. */
void sys_threads_read(struct system *s, int pid, struct sys_proc_state *st,
                      const struct sys_proc_state *old, double secs);
/* The threads of the frame's processes (fs->procs, copied in s->order)
 * into fs. */
void sys_threads_snapshot(struct system *s, struct frame_system *fs);
void sys_threads_free(struct system *s);

/* Copy n elements of size bytes into *dst (room *cap, grown as needed). */
void sys_copy_array(void **dst, size_t *cap, const void *src, size_t n, size_t size);

#endif
