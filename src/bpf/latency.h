/* latency.h: the layout shared by the in-kernel latency histograms
 * (latency.bpf.c) and their reader (src/latency-bpf.c): the histogram
 * map's key and value, a thread's open calls, the configuration and the
 * reasons a call is not counted. Plain fixed-size types only: compiled
 * for the bpf target and for the host. */
#ifndef TRACETOP_BPF_LATENCY_H
#define TRACETOP_BPF_LATENCY_H

/* Calls open per thread (recursion): deeper ones are counted lost. */
#define TT_LAT_DEPTH 16

/* Ids of timed functions start here (a probe pair's attach cookie); a
 * syscall's id is its number. The same split as latency-sys's rows. */
#define TT_LAT_FUNC 1000000

/* One log2 bucket of one (id, process), and whether the calls failed
 * (a syscall's ret < 0). 16 bytes, no padding. */
struct tt_lat_key {
	unsigned int id, pid, bucket, err;
};

/* The bucket's calls (per CPU: the reader sums them). */
struct tt_lat_val {
	unsigned long long count, sum, min, max;
};

/* A thread's open function calls, innermost last; over counts the calls
 * entered past TT_LAT_DEPTH (their returns come first and are skipped);
 * gen is the configuration's generation they were entered in (a pause
 * starts a new one: calls open across it are not paired). */
struct tt_lat_stack {
	unsigned int depth, over, gen, pad;
	unsigned long long at[TT_LAT_DEPTH];
	unsigned int id[TT_LAT_DEPTH];
};

/* A thread's open syscall. */
struct tt_lat_sys {
	unsigned long long at;
	unsigned int nr, gen;
};

/* A process's command, as the comms map keeps it. */
struct tt_lat_comm {
	char comm[16];
};

/* Slot 0 of the cfg map. */
struct tt_lat_cfg {
	unsigned int on;     /* 0: paused, the programs return at once */
	unsigned int filter; /* 1: only the processes in the targets map */
	unsigned int self;   /* tracetop's pid: left out unless include_self */
	unsigned int gen;
	unsigned int only; /* with filter: the one process timed (no map lookup), or 0 */
	/* sched:sched_process_fork's parent_pid and child_pid offsets (its
	 * layout differs between kernels: read from its format) */
	unsigned short fork_parent, fork_child;
};

/* Why a call was not counted (the lost map's slots). */
enum tt_lat_lost {
	TT_LAT_UNPAIRED, /* a return without its entry (a call open at start) */
	TT_LAT_DEEP,     /* entered past TT_LAT_DEPTH */
	TT_LAT_FULL,     /* a map was full */
	TT_LAT_NLOST
};

#endif
