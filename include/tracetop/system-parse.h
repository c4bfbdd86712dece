/* system-parse: pure parsers of the /proc files the system source reads
 * (stat, meminfo, vmstat, loadavg, uptime, diskstats, net/dev, interrupts,
 * softirqs, PID/stat, PID/status, PID/cmdline). Each takes the bytes of one
 * read (const char *buf, size_t len, not NUL-terminated) and fills the
 * caller's output; nothing here reads a file, allocates or keeps state, so
 * the fixtures and fuzz targets feed them directly.
 *
 * Arrays (CPUs, disks, interfaces, interrupt rows) are the caller's, with
 * their room in cap: a parser stores at most cap items but counts them all
 * in n, so n > cap tells the caller to grow the array and parse again (it
 * happens only when something new appears, never in steady state).
 *
 * The text is untrusted and may be anything (a fuzzer's bytes): lines that
 * do not parse are skipped, numbers saturate at UINT64_MAX, names are cut
 * to their fields' size. A field the kernel did not write is marked absent
 * (a "have" bit or a field count), never read as 0. */
#ifndef TRACETOP_SYSTEM_PARSE_H
#define TRACETOP_SYSTEM_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for a disk or interface name (IFNAMSIZ is 16; disk names are short). */
#define SYS_NAME_MAX 32
/* Room for an interrupt's name ("24", "NMI", "TIMER") and its description. */
#define SYS_IRQ_NAME 16
#define SYS_IRQ_DESC 64
/* Room for a command: /proc/PID/stat's comm is at most 15 bytes, but a
 * kernel worker's there reads "kworker/0:1-events_freezable". */
#define SYS_COMM_MAX 64

/* ---- /proc/stat ---- */

/* The columns of a cpu line, in the kernel's order (USER_HZ ticks). user
 * includes guest and nice includes guest_nice. */
enum sys_cpu_field {
	SYS_CPU_USER,
	SYS_CPU_NICE,
	SYS_CPU_SYSTEM,
	SYS_CPU_IDLE,
	SYS_CPU_IOWAIT,
	SYS_CPU_IRQ,
	SYS_CPU_SOFTIRQ,
	SYS_CPU_STEAL,
	SYS_CPU_GUEST,
	SYS_CPU_GUEST_NICE,
	SYS_CPU_NFIELDS,
};

/* One cpu line. */
struct sys_cpu_raw {
	int cpu;          /* N of "cpuN", -1 for the "cpu" line (all CPUs) */
	unsigned nfields; /* columns the line had: t[nfields...] are absent */
	uint64_t t[SYS_CPU_NFIELDS];
};

/* The single-number lines of /proc/stat, as bits of sys_stat_raw.have. */
enum {
	SYS_STAT_TOTAL = 1u << 0, /* the "cpu" line */
	SYS_STAT_INTR = 1u << 1,
	SYS_STAT_CTXT = 1u << 2,
	SYS_STAT_BTIME = 1u << 3,
	SYS_STAT_PROCESSES = 1u << 4,
	SYS_STAT_RUNNING = 1u << 5,
	SYS_STAT_BLOCKED = 1u << 6,
};

struct sys_stat_raw {
	struct sys_cpu_raw total;
	struct sys_cpu_raw *cpus; /* the caller's room for cap lines, in file order */
	size_t ncpus, cap;
	uint64_t intr;      /* interrupts since boot (first number of "intr") */
	uint64_t ctxt;      /* context switches since boot */
	uint64_t btime;     /* boot time, seconds since the epoch */
	uint64_t processes; /* forks since boot */
	uint64_t running;   /* procs_running: runnable tasks now */
	uint64_t blocked;   /* procs_blocked: tasks in uninterruptible I/O wait now */
	unsigned have;      /* SYS_STAT_* bits */
};

/* Parse /proc/stat. 0, or -1 when there is no cpu line at all. */
int sys_parse_stat(const char *buf, size_t len, struct sys_stat_raw *out);

/* Ticks a cpu line spent running something (user, nice, system, irq,
 * softirq; guest time is inside user and nice) and in all (those, idle,
 * iowait and steal). */
uint64_t sys_cpu_busy(const struct sys_cpu_raw *c);
uint64_t sys_cpu_all(const struct sys_cpu_raw *c);

/* ---- "Key: value" files: /proc/meminfo, /proc/vmstat, /proc/PID/status ---- */

/* Find each of n keys in the lines "KEY<sep>VALUE...": vals[i] gets the
 * value of keys[i] and bit i of *have is set when it was found (n <= 32).
 * Keys match whole (MemTotal is not MemTotalX). Returns how many were found. */
unsigned sys_parse_keyed(const char *buf, size_t len, const char *const *keys, unsigned n,
                         uint64_t *vals, uint32_t *have);

/* The /proc/meminfo keys the source reads, in KiB. */
enum sys_mem_key {
	SYS_MEM_TOTAL,
	SYS_MEM_FREE,
	SYS_MEM_AVAILABLE,
	SYS_MEM_BUFFERS,
	SYS_MEM_CACHED,
	SYS_MEM_SWAP_CACHED,
	SYS_MEM_SRECLAIMABLE,
	SYS_MEM_SHMEM,
	SYS_MEM_SLAB,
	SYS_MEM_DIRTY,
	SYS_MEM_WRITEBACK,
	SYS_MEM_SWAP_TOTAL,
	SYS_MEM_SWAP_FREE,
	SYS_MEM_NKEYS,
};

/* The key's name in /proc/meminfo ("MemTotal"). */
const char *sys_meminfo_key(enum sys_mem_key k);

struct sys_meminfo_raw {
	uint64_t kib[SYS_MEM_NKEYS];
	uint32_t have; /* bit k: kib[k] was in the file */
};

/* Parse /proc/meminfo. 0, or -1 when no key was found. */
int sys_parse_meminfo(const char *buf, size_t len, struct sys_meminfo_raw *out);

/* The /proc/vmstat counters the source reads (since boot). */
enum sys_vm_key {
	SYS_VM_PGFAULT,    /* page faults, minor and major */
	SYS_VM_PGMAJFAULT, /* major page faults (from disk) */
	SYS_VM_PGPGIN,     /* KiB paged in from block devices */
	SYS_VM_PGPGOUT,    /* KiB paged out to block devices */
	SYS_VM_PSWPIN,     /* pages swapped in */
	SYS_VM_PSWPOUT,    /* pages swapped out */
	SYS_VM_NKEYS,
};

/* The counter's name in /proc/vmstat ("pgfault"). */
const char *sys_vmstat_key(enum sys_vm_key k);

struct sys_vmstat_raw {
	uint64_t v[SYS_VM_NKEYS];
	uint32_t have;
};

/* Parse /proc/vmstat. 0, or -1 when no counter was found. */
int sys_parse_vmstat(const char *buf, size_t len, struct sys_vmstat_raw *out);

/* What the source reads of /proc/PID/status. */
struct sys_pid_status {
	uint64_t vcs;  /* voluntary_ctxt_switches */
	uint64_t nvcs; /* nonvoluntary_ctxt_switches */
	bool have;     /* both were there */
};

/* Parse /proc/PID/status. 0, or -1 without both context switch lines. */
int sys_parse_pid_status(const char *buf, size_t len, struct sys_pid_status *out);

/* /proc/PID/schedstat (kernels with CONFIG_SCHED_INFO): the main
 * thread's time on a CPU, waiting for one, and times it was run. */
struct sys_pid_schedstat {
	uint64_t run_ns, wait_ns, slices;
};

/* Parse /proc/PID/schedstat. 0, or -1 when malformed. */
int sys_parse_pid_schedstat(const char *buf, size_t len, struct sys_pid_schedstat *out);

/* ---- /proc/loadavg, /proc/uptime ---- */

/* "0.70 0.63 0.72 1/84 1889" */
struct sys_loadavg_raw {
	double load[3];   /* 1, 5 and 15 minutes */
	uint64_t running; /* runnable tasks now */
	uint64_t total;   /* tasks (threads) now */
};

/* Parse /proc/loadavg. 0, or -1 when malformed. */
int sys_parse_loadavg(const char *buf, size_t len, struct sys_loadavg_raw *out);

/* Parse /proc/uptime: seconds since boot, and idle seconds summed over
 * CPUs. 0, or -1 when malformed. */
int sys_parse_uptime(const char *buf, size_t len, double *up, double *idle);

/* ---- /proc/diskstats ---- */

/* The columns after the name (Documentation/admin-guide/iostats.rst):
 * kernels before 4.18 have 11, before 5.5 have 15, later ones 17. */
enum sys_disk_field {
	SYS_DISK_READS,        /* reads completed */
	SYS_DISK_READS_MERGED, /* reads merged */
	SYS_DISK_READ_SECTORS, /* 512-byte sectors read */
	SYS_DISK_READ_MS,      /* ms spent reading */
	SYS_DISK_WRITES,
	SYS_DISK_WRITES_MERGED,
	SYS_DISK_WRITE_SECTORS,
	SYS_DISK_WRITE_MS,
	SYS_DISK_INFLIGHT,    /* I/Os in progress now */
	SYS_DISK_IO_MS,       /* ms with I/O in progress (utilization) */
	SYS_DISK_WEIGHTED_MS, /* ms weighted by I/Os in progress (queue size) */
	SYS_DISK_DISCARDS,
	SYS_DISK_DISCARDS_MERGED,
	SYS_DISK_DISCARD_SECTORS,
	SYS_DISK_DISCARD_MS,
	SYS_DISK_FLUSHES,
	SYS_DISK_FLUSH_MS,
	SYS_DISK_NFIELDS,
};

/* The fewest columns a disk line has on the kernels the source reads. */
#define SYS_DISK_MIN_FIELDS 11

struct sys_disk_raw {
	unsigned major, minor;
	char name[SYS_NAME_MAX];
	unsigned nfields; /* columns after the name: f[nfields...] are absent */
	uint64_t f[SYS_DISK_NFIELDS];
};

struct sys_disks_raw {
	struct sys_disk_raw *v; /* the caller's room for cap devices */
	size_t n, cap;
};

/* Parse /proc/diskstats (lines with fewer than SYS_DISK_MIN_FIELDS
 * columns are skipped). Always 0. */
int sys_parse_diskstats(const char *buf, size_t len, struct sys_disks_raw *out);

/* ---- /proc/net/dev ---- */

/* Received columns, then transmitted ones at SYS_NET_TX + the same index. */
enum sys_net_field {
	SYS_NET_BYTES,
	SYS_NET_PACKETS,
	SYS_NET_ERRS,
	SYS_NET_DROP,
	SYS_NET_FIFO,
	SYS_NET_FRAME,      /* transmit: collisions */
	SYS_NET_COMPRESSED, /* transmit: carrier */
	SYS_NET_MULTICAST,  /* transmit: compressed */
	SYS_NET_TX,
	SYS_NET_NFIELDS = 2 * SYS_NET_TX,
};

struct sys_net_raw {
	char name[SYS_NAME_MAX];
	uint64_t f[SYS_NET_NFIELDS];
};

struct sys_nets_raw {
	struct sys_net_raw *v;
	size_t n, cap;
};

/* Parse /proc/net/dev (the two title lines, then "NAME: 16 numbers").
 * Lines with fewer numbers are skipped. Always 0. */
int sys_parse_netdev(const char *buf, size_t len, struct sys_nets_raw *out);

/* ---- /proc/interrupts, /proc/softirqs ---- */

/* One row: a source and its count on every CPU column. */
struct sys_irq_raw {
	char name[SYS_IRQ_NAME]; /* before the colon: "24", "NMI", "TIMER" */
	char desc[SYS_IRQ_DESC]; /* after the counts, blanks squeezed ("" for softirqs) */
	size_t ncounts;          /* counts on the line: fewer than ncpus for ERR, MIS */
	uint64_t sum;            /* of the counts */
};

/* A table of counts per row and CPU column. The CPU columns are those of
 * the title line ("CPU0 CPU1 ..."): online CPUs only, so their numbers
 * may have gaps. Row r's count on column c is counts[r * ncpus + c] (0
 * past the row's ncounts); all three arrays are the caller's. */
struct sys_irqtab_raw {
	int *cpus;
	size_t ncpus, cpus_cap;
	struct sys_irq_raw *rows;
	size_t nrows, rows_cap;
	uint64_t *counts;
	size_t counts_cap;
};

/* Whether everything parsed was stored (else grow and parse again). */
bool sys_irqtab_fits(const struct sys_irqtab_raw *t);

/* Parse /proc/interrupts or /proc/softirqs. 0, or -1 without a title line
 * of CPU columns. */
int sys_parse_irqtab(const char *buf, size_t len, struct sys_irqtab_raw *out);

/* ---- /proc/PID/stat, /proc/PID/cmdline ---- */

/* The fields of /proc/PID/stat the source reads (proc(5) numbers them). */
struct sys_pid_stat {
	int pid;                 /* 1 */
	char comm[SYS_COMM_MAX]; /* 2, raw: untrusted, escape before showing */
	char state;              /* 3 */
	int ppid;                /* 4 */
	uint64_t flags;          /* 9: PF_* (PF_KTHREAD 0x00200000: a kernel thread) */
	uint64_t minflt, majflt; /* 10, 12 */
	uint64_t utime, stime;   /* 14, 15: clock ticks */
	int64_t priority, nice;  /* 18, 19 */
	int64_t threads;         /* 20 */
	uint64_t starttime;      /* 22: clock ticks after boot */
	uint64_t vsize;          /* 23: bytes */
	int64_t rss;             /* 24: pages */
	int processor;           /* 39: the CPU it last ran on, -1 when absent */
	unsigned nfields;        /* fields on the line */
};

/* Parse /proc/PID/stat (the command is between the first '(' and the
 * last ')', and may hold anything). 0, or -1 when malformed or short of
 * the fields up to rss. */
int sys_parse_pid_stat(const char *buf, size_t len, struct sys_pid_stat *out);

/* /proc/PID/cmdline (arguments separated by NULs) as one line in out
 * (room for outlen bytes, NUL-terminated, arguments joined by spaces,
 * trailing NULs dropped); raw: escape before showing. Returns the length. */
size_t sys_parse_cmdline(const char *buf, size_t len, char *out, size_t outlen);

/* ---- /proc and /proc/PID/task listings ---- */

/* The next entry from *off on of a getdents64 buffer (len bytes of
 * struct linux_dirent64 records) that names a pid or a tid (digits only,
 * not 0), moving *off past it; 0 at the end of the buffer or at a
 * malformed record (a length that runs past the buffer or is too short
 * for its header, a name without its NUL). Reads no field in place: buf
 * needs no alignment. */
int sys_parse_dents_pid(const char *buf, size_t len, size_t *off);

#endif
