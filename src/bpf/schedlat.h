/* schedlat.h: the layout shared by the in-kernel run-queue and block I/O
 * histograms (schedlat.bpf.c) and their reader (src/latency-schedbpf.c).
 * The histogram key and value are latency.h's: id says the kind, pid the
 * process (runq) or the device (bio). Plain fixed-size types only. */
#ifndef TRACETOP_BPF_SCHEDLAT_H
#define TRACETOP_BPF_SCHEDLAT_H

/* The histogram key's id. */
enum tt_sl_kind { TT_SL_RUNQ, TT_SL_BIO };

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
	unsigned int runq, bio; /* the kinds measured */
};

#endif
