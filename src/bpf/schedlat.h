/* schedlat.h: the layout shared by the in-kernel run-queue and block I/O
 * histograms (schedlat.bpf.c) and their reader (src/latency-schedbpf.c).
 * The histogram key and value are latency.h's: id says the kind, pid the
 * process (runq) or the device (bio). Plain fixed-size types only. */
#ifndef TRACETOP_BPF_SCHEDLAT_H
#define TRACETOP_BPF_SCHEDLAT_H

/* The histogram key's id. */
enum tt_sl_kind { TT_SL_RUNQ, TT_SL_BIO };

/* Frames a stack map's entry holds (the kernel's PERF_MAX_STACK_DEPTH). */
#define TT_SL_STACK_DEPTH 127

/* A thread blocked: since when, its stacks (stack map ids, negative when
 * not taken) and state, in which generation. */
struct tt_sl_off {
	unsigned long long at;
	int kstack, ustack;
	unsigned int state, gen;
};

/* Blocked time summed by (process, thread, stacks, state, log2 bucket of
 * each block's ns): the reader drains it each refresh. */
struct tt_sl_offkey {
	unsigned int pid, tid;
	int kstack, ustack;
	unsigned int state, bucket;
};

struct tt_sl_offval {
	unsigned long long ns, count, min, max;
};

/* When a thread became runnable, or a request was issued, and in which
 * generation (a pause starts a new one: nothing open across it pairs). */
struct tt_sl_start {
	unsigned long long at;
	unsigned int gen, pad;
};

/* A block request: its device and first sector. */
struct tt_sl_rq {
	unsigned long long sector;
	unsigned int dev, pad;
};

/* Slot 0 of the cfg map. */
struct tt_sl_cfg {
	unsigned int on;     /* 0: paused, the programs return at once */
	unsigned int filter; /* 1: runq of the processes in the targets map only */
	unsigned int self;   /* tracetop's pid: left out unless include_self */
	unsigned int gen;
	unsigned int runq, bio, offcpu; /* the kinds measured */
	unsigned int pad;
};

#endif
