/* system: the machine as /proc and /sys show it, a source of the session
 * (source_system): CPU time per CPU, memory and paging, load, disks,
 * network interfaces, interrupts and softirqs per CPU, context switches
 * and forks, and a top-like process table (with each process's threads
 * when asked for).
 *
 * Every tick reads each file once (fds kept open and read again with
 * pread at 0; per-process files opened, read and closed), parses it from
 * one reusable buffer, and turns the counters into rates over the time
 * since the previous reading; system_new takes the first reading, so the
 * first frame already has rates. Nothing is allocated per tick in steady
 * state: arrays grow only when a CPU, disk, interface, interrupt or
 * process appears, and the slots of those that go are reused.
 *
 * What cannot be read is absent with a reason, never a 0: a section whose
 * file is missing has an error ("/proc/diskstats: No such file or
 * directory"), a field the kernel does not write has a why ("/proc/meminfo
 * has no MemAvailable"), and a rate of something seen for the first time
 * in an interval (a new process, a hot-plugged disk) is NaN ("not yet").
 *
 * The frame part (struct frame_system) holds copies: a reader (a pane, a
 * batch report) needs no /proc access, and the key series of each section
 * carry a ring of their last SYSTEM_HISTORY interval values for
 * sparklines. Never prints, never exits. */
#ifndef TRACETOP_SYSTEM_H
#define TRACETOP_SYSTEM_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/system-parse.h"

/* Interval values kept per key series (a sparkline's width). */
#define SYSTEM_HISTORY 60
/* Room for a process's command line in the frame (cut beyond). */
#define SYSTEM_CMD_MAX 128

/* The last SYSTEM_HISTORY values of a series, a ring (floats: a copy per
 * frame stays small). */
struct system_hist {
	float v[SYSTEM_HISTORY];
	uint16_t head; /* the next slot to write */
	uint16_t n;    /* values held */
};

/* Append a value (NaN is not kept: a sparkline has no "not yet"). */
void system_hist_push(struct system_hist *h, double v);

/* The value age intervals ago (0: the newest); age < h->n. */
double system_hist_get(const struct system_hist *h, unsigned age);

/* Whether a rate is known (not NaN: "not yet", first seen this interval). */
static inline bool
system_known(double v)
{
	return !isnan(v);
}

/* ---- CPU ---- */

/* One CPU, or all of them: the share of the interval in each column of
 * /proc/stat, in % (NaN for a column this kernel does not write). user
 * includes guest, nice includes guest_nice (as the kernel counts them). */
struct system_cpu {
	int cpu;          /* -1: all CPUs */
	char name[16];    /* "cpu0", or "cpu" for all */
	unsigned columns; /* columns the kernel writes: pct[columns...] are absent */
	double pct[SYS_CPU_NFIELDS];
	/* user + nice + system + irq + softirq: running something; idle,
	 * iowait and steal (the hypervisor ran another guest) are not busy */
	double busy;
	double busy_cpus; /* busy as CPUs (1.0: one CPU's worth); all: the sum */
	struct system_hist busy_hist;
};

/* A column's name ("user", "guest_nice"), as JSON keys. */
const char *system_cpu_field_name(enum sys_cpu_field f);

/* ---- memory, paging ---- */

/* Memory fields, KiB. used is total - free - buffers - cached, cached
 * is Cached + SReclaimable (as free(1) counts them); swap_used is
 * SwapTotal - SwapFree. */
enum system_mem_field {
	SYSTEM_MEM_TOTAL,
	SYSTEM_MEM_USED,
	SYSTEM_MEM_FREE,
	SYSTEM_MEM_AVAILABLE,
	SYSTEM_MEM_BUFFERS,
	SYSTEM_MEM_CACHED,
	SYSTEM_MEM_DIRTY,
	SYSTEM_MEM_WRITEBACK,
	SYSTEM_MEM_SHMEM,
	SYSTEM_MEM_SLAB,
	SYSTEM_MEM_SWAP_TOTAL,
	SYSTEM_MEM_SWAP_USED,
	SYSTEM_MEM_SWAP_FREE,
	SYSTEM_MEM_SWAP_CACHED,
	SYSTEM_MEM_NFIELDS,
};

/* The field's JSON key ("used_kib"). */
const char *system_mem_name(enum system_mem_field f);

struct system_mem {
	uint64_t kib[SYSTEM_MEM_NFIELDS];
	const char *why[SYSTEM_MEM_NFIELDS]; /* non-NULL: absent, and why */
	struct system_hist used_hist, swap_hist;
};

/* Paging rates per second, from /proc/vmstat. */
enum system_vm_field {
	SYSTEM_VM_MINFLT,  /* minor page faults */
	SYSTEM_VM_MAJFLT,  /* major page faults (read from disk) */
	SYSTEM_VM_PGIN,    /* KiB paged in from block devices */
	SYSTEM_VM_PGOUT,   /* KiB paged out */
	SYSTEM_VM_SWAPIN,  /* KiB swapped in */
	SYSTEM_VM_SWAPOUT, /* KiB swapped out */
	SYSTEM_VM_NFIELDS,
};

/* The field's JSON key ("minflt_s"). */
const char *system_vm_name(enum system_vm_field f);

struct system_vm {
	double rate[SYSTEM_VM_NFIELDS];
	const char *why[SYSTEM_VM_NFIELDS];
	struct system_hist majflt_hist;
};

/* ---- the rest of /proc/stat, loadavg, uptime ---- */

/* Scalars of the whole system: counts of the interval, rates, states now. */
enum system_misc_field {
	SYSTEM_INTR,          /* interrupts (per second) */
	SYSTEM_CTXT,          /* context switches (per second) */
	SYSTEM_FORKS,         /* processes and threads created (per second) */
	SYSTEM_PROCS_RUNNING, /* runnable tasks now (/proc/stat) */
	SYSTEM_PROCS_BLOCKED, /* tasks in uninterruptible I/O wait now */
	SYSTEM_TASKS,         /* tasks (threads) now (/proc/loadavg) */
	SYSTEM_LOAD1,
	SYSTEM_LOAD5,
	SYSTEM_LOAD15,
	SYSTEM_UPTIME, /* seconds since boot */
	SYSTEM_MISC_NFIELDS,
};

/* The field's JSON key ("ctxt_s"). */
const char *system_misc_name(enum system_misc_field f);

struct system_misc {
	double v[SYSTEM_MISC_NFIELDS]; /* rates per second for the first three */
	uint64_t count[3];             /* intr, ctxt, forks: counts of the interval */
	const char *why[SYSTEM_MISC_NFIELDS];
	struct system_hist ctxt_hist, forks_hist, intr_hist, load_hist;
};

/* ---- disks ---- */

/* A block device of /proc/diskstats, or the sum of the whole disks. */
struct system_disk {
	char name[SYS_NAME_MAX];
	int parent;               /* a partition: index of its disk in disks[]; else -1 */
	bool in_total;            /* counted in the total: a whole disk, not a loop
	                           * device or one stacked on others (dm, md: their I/O
	                           * is also their members') */
	bool used;                /* did any I/O since boot (readers may hide the others) */
	double reads_s, writes_s; /* I/Os completed per second */
	double read_bytes_s, write_bytes_s; /* bytes per second */
	double await_ms;                    /* average ms per read, write or discard
	                                     * completed (0 when none was) */
	double queue;                       /* average I/Os in flight */
	double util;                        /* % of the interval with I/O in flight */
	uint64_t read_bytes, write_bytes;   /* of the interval */
	uint64_t inflight;                  /* I/Os in flight now */
	struct system_hist read_hist, write_hist;
};

/* ---- network ---- */

/* An interface of /proc/net/dev (tracetop's network namespace), or the
 * sum of all but lo. */
struct system_net {
	char name[SYS_NAME_MAX];
	double rx_bytes_s, tx_bytes_s, rx_packets_s, tx_packets_s;
	uint64_t rx_bytes, tx_bytes;    /* of the interval */
	uint64_t errors, drops;         /* of the interval, received and sent */
	uint64_t errors_all, drops_all; /* since boot */
	struct system_hist rx_hist, tx_hist;
};

/* ---- interrupts, softirqs ---- */

/* One source of /proc/interrupts or /proc/softirqs. */
struct system_irq {
	char name[SYS_IRQ_NAME];
	char desc[SYS_IRQ_DESC]; /* raw: escape before showing */
	double rate;             /* per second, all CPUs */
	uint64_t count;          /* of the interval */
	size_t at;               /* its per-CPU rates: table's rates[at .. at + ncpus) */
};

/* A table of sources by CPU, busiest first. */
struct system_irqs {
	int *cpus; /* the CPU of each column */
	size_t ncpus, cpus_cap;
	struct system_irq *rows;
	size_t n, cap;
	double *rates; /* per second, per row and CPU column */
	size_t rates_cap;
	const char *error; /* non-NULL: absent, and why */
};

/* Row i's rate on CPU column c. */
static inline double
system_irq_cpu_rate(const struct system_irqs *t, size_t i, size_t c)
{
	return t->rates[t->rows[i].at + c];
}

/* ---- processes ---- */

/* One process, like a row of top. */
struct system_proc {
	int pid, ppid;
	char comm[SYS_COMM_MAX];  /* raw: escape before showing */
	char cmd[SYSTEM_CMD_MAX]; /* the command line, raw; "" for a kernel thread */
	char state;               /* R, S, D, Z, T, I, ... */
	bool kernel;              /* a kernel thread */
	double cpu;               /* % of one CPU in the interval (user + system) */
	double user, system;      /* % of one CPU */
	uint64_t rss_kib;         /* resident memory */
	double minflt_s, majflt_s;
	double ctxt_s; /* context switches per second (voluntary + not),
	                * of the main thread (NaN when status is unreadable) */
	int64_t threads;
	int64_t nice, priority;
	int processor; /* the CPU it last ran on, -1 when unknown */
	double start;  /* seconds after boot it started */
	/* its threads, when read: the frame's threads[thread_at ..
	 * thread_at + thread_n), by tid (0: not read, or it went meanwhile) */
	uint32_t thread_at, thread_n;
};

/* One thread of a process (/proc/PID/task/TID/stat); a process with one
 * thread has it from its own stat (the same numbers). */
struct system_thread {
	int tid, pid;
	uint32_t proc;           /* its process's index in the frame's procs[] */
	char comm[SYS_COMM_MAX]; /* the thread's name, raw: escape before showing */
	char state;
	double cpu;          /* % of one CPU in the interval (user + system) */
	double user, system; /* % of one CPU */
	double minflt_s, majflt_s;
	int64_t nice, priority;
	int processor; /* the CPU it last ran on, -1 when unknown */
	double start;  /* seconds after boot it started */
};

/* ---- the frame part ---- */

struct frame_system {
	uint64_t readings; /* of the source, since it started (>= 2 in a frame) */
	double secs;       /* seconds between this reading and the one before */
	double elapsed;    /* seconds since the source's first reading */
	struct system_cpu total;
	struct system_cpu *cpus; /* by CPU number: online CPUs only */
	size_t ncpus, cpus_cap;
	const char *cpu_error; /* non-NULL: /proc/stat unreadable, and why */
	struct system_mem mem;
	const char *mem_error;
	struct system_vm vm;
	const char *vm_error;
	struct system_misc misc;
	/* disks in /proc/diskstats order, each partition after its disk */
	struct system_disk *disks;
	size_t ndisks, disks_cap;
	struct system_disk disk_total; /* of those in_total */
	const char *disks_error;
	const char *disks_note;  /* non-NULL: partitions guessed by name (no /sys/class/block) */
	struct system_net *nets; /* in /proc/net/dev order */
	size_t nnets, nets_cap;
	struct system_net net_total; /* of all but lo */
	const char *net_error;
	struct system_irqs irqs, softirqs;
	/* processes, busiest (CPU %) first, when taken */
	struct system_proc *procs;
	size_t nprocs, procs_cap;
	bool procs_on;           /* the source reads processes */
	size_t procs_new;        /* of them first seen this interval (NaN rates) */
	const char *procs_error; /* non-NULL: /proc unreadable, and why */
	/* with threads_on, every process's threads, a process's together
	 * (system_proc.thread_at) */
	struct system_thread *threads;
	size_t nthreads, threads_cap;
	bool threads_on; /* the source reads the processes' threads */
	bool rows;       /* the tables (disks, nets, irqs, procs) are this frame's; the
	                  * rest (CPUs, memory, paging, scalars, totals) always is */
};

/* Free the part's arrays and reset it. */
void frame_system_free(struct frame_system *fs);

/* ---- the source ---- */

struct system_opts {
	const char *proc; /* the procfs root; NULL: "/proc" (tests: a fixture tree) */
	const char *sys;  /* the sysfs root; NULL: "/sys" */
	bool procs;       /* read the process table (it costs most) */
	bool threads;     /* with procs: each process's threads too (costs as much again) */
	bool irqs;        /* the interrupt tables (the kernel's costliest text to make) */
};

struct system;

/* Open the files and take the first reading. Never fails: what cannot
 * be opened is absent with its reason. */
struct system *system_new(const struct system_opts *o);

/* Read the process table from the next tick on, or stop reading it
 * (when nobody shows it). */
void system_set_procs(struct system *s, bool on);
void system_set_irqs(struct system *s, bool on);
bool system_irqs_on(const struct system *s);

/* Read each process's threads (/proc/PID/task) along with the process
 * table from the next tick on, or stop; a thread's rates start with the
 * tick after. */
void system_set_threads(struct system *s, bool on);

/* Read everything, compute the interval's rates and push the histories. */
void system_tick(struct system *s);

/* Copy the last reading into fs (arrays grown as needed, reused); without
 * rows only the header numbers (CPUs, memory, paging, the scalars, the
 * disks' and interfaces' totals), the tables staying as they were. */
void system_snapshot(struct system *s, struct frame_system *fs, bool rows);

/* Close the files and free s (NULL is fine). */
void system_free(struct system *s);

#endif
