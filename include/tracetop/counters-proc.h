/* counters-proc: what the counters module reads from /proc: the threads
 * of a process, a process's command, state and CPU time, a scan of every
 * process's CPU time to find the busiest, and the busy time of each CPU.
 * Buffers are reused from one scan to the next (no allocation in steady
 * state). */
#ifndef TRACETOP_COUNTERS_PROC_H
#define TRACETOP_COUNTERS_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/counters-math.h"
#include "tracetop/system-file.h"
#include "tracetop/system-parse.h"

/* What /proc/PID/stat says about a process. */
struct counters_pstat {
	int pid;
	char comm[16];    /* raw (untrusted: escape before showing) */
	char state;       /* R, S, D, Z, X, ... */
	uint64_t cputime; /* utime + stime, in clock ticks */
};

/* A growable array of ints, kept between calls. */
struct counters_ints {
	int *v;
	size_t n, cap;
};

/* Read ROOT/PID/stat; -1 if the process is gone or the file is malformed. */
int counters_proc_stat(const char *root, int pid, struct counters_pstat *out);

/* Whether a state letter means the process has exited (zombie or dead). */
bool counters_proc_exited(char state);

/* The numeric entries of dir (pids of /proc, tids of /proc/PID/task),
 * sorted, into out (replacing its contents); -1 if dir cannot be read. */
int counters_proc_ints(const char *dir, struct counters_ints *out);

/* Every process's CPU time, and how much each used since the last scan. */
struct counters_scan {
	const char *root;                  /* "/proc", or a test's fixture */
	struct counters_pstat *prev, *cur; /* sorted by pid */
	size_t nprev, ncur, cap_prev, cap_cur;
	struct counters_cand *cands;
	size_t cap_cands;
	struct counters_ints pids;
	bool scanned; /* a previous scan exists */
};

/* Scan root: fill s->cands with one candidate per live process (score: CPU
 * ticks since the previous scan, or since the process started on the
 * first scan; followed false). Returns the number of candidates. */
size_t counters_scan_procs(struct counters_scan *s);

/* The latest scan's record of pid, or NULL. */
const struct counters_pstat *counters_scan_find(const struct counters_scan *s, int pid);

/* Release the scan's buffers. */
void counters_scan_free(struct counters_scan *s);

/* The busy time of each CPU from ROOT/stat (user, nice, system, irq and
 * softirq ticks): what "CPUs utilized" means for the whole system, where
 * a CPU's task-clock also counts its idle task's time. */
struct counters_busy {
	struct sys_file file;
	struct sys_stat_raw st[2]; /* [cur] the last reading */
	int cur;
	unsigned readings;
	double hz; /* ticks per second */
};

/* Open ROOT/stat and take the first reading (a failure leaves
 * b->file.error for the rows to show). */
void counters_busy_open(struct counters_busy *b, const char *root);

/* Take a new reading: 0, or -1 when the file cannot be read or has no
 * CPU lines. */
int counters_busy_read(struct counters_busy *b);

/* Seconds CPU cpu was busy between the last two readings (its line is
 * tried at index hint first), or NaN when unknown. */
double counters_busy_secs(const struct counters_busy *b, int cpu, size_t hint);

/* Close the file and free the readings. */
void counters_busy_free(struct counters_busy *b);

#endif
