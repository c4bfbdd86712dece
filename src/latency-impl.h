/* latency-impl.h: the latency source's state, shared by its files
 * (latency-sys.c: syscalls, rows, rings; latency-func.c: timed functions
 * and the BPF back-end). */
#ifndef TRACETOP_LATENCY_IMPL_H
#define TRACETOP_LATENCY_IMPL_H

#include "tracetop/evlist.h"
#include "tracetop/latency-bpf.h"
#include "tracetop/latency-sys.h"

/* Rows of function k are keyed nr = LATSYS_FUNC + k (syscall numbers
 * stay far below); the BPF program's ids are the same (TT_LAT_FUNC). */
#define LATSYS_FUNC 1000000

/* One (process, syscall or function). */
struct latsys_row {
	int pid, nr;
	enum lat_kind kind;
	const char *name; /* interned */
	struct lat_acc acc;
};

/* A process's command. */
struct latsys_comm {
	int pid; /* 0: free */
	char comm[16];
};

/* A timed function. */
struct latsys_fn {
	const char *name;  /* interned, as rows show it */
	struct evlist *el; /* its own events (added while running), or NULL */
	bool gone;         /* no longer timed: its rows are not shown */
};

struct latsys {
	struct evlist el;
	size_t nsys; /* the syscall events first in el: 2, or 0 (--no-syscalls) */
	bool open;
	int self;
	bool include_self;
	int off_enter_id, off_exit_id, off_exit_ret; /* payload offsets */
	struct lat_pair pair;                        /* syscalls: never nested */
	struct lat_pair fpair;                       /* functions: nested with recursion */
	struct latsys_fn *fns;                       /* function k */
	size_t nfuncs, nfuncs_el;                    /* ...of which the first are in el */
	struct latsys_row *rows;
	size_t nrows, rows_cap;
	uint32_t *rowtab; /* (pid, nr) -> row index + 1; 0 empty */
	size_t rowmask;
	struct latsys_comm *comms;
	size_t commmask, ncomms;
	uint64_t events, lost;
	uint64_t last_tick_ns;
	const char *target;
	/* the target, for functions timed later */
	int *cpus, *tids;
	size_t ncpus, ntids;
	bool inherit;
	/* in-kernel histograms, or NULL: paired here from the rings */
	struct latbpf *bpf;
	uint64_t bpf_unpaired;
	char notice[400];
};

/* The row of (pid, nr), made on its first call. */
struct latsys_row *latsys_row_get(struct latsys *l, int pid, int nr);

/* Whether pid's command is known. */
bool latsys_has_comm(const struct latsys *l, int pid);

/* BPF: histograms read from the kernel at a tick. */
void latsys_bpf_tick(struct latsys *l, double secs);

/* Choose the back-end for o (BPF or the rings), saying why in l->notice:
 * 1 for BPF (loaded, with o's functions), 0 for the rings, -1 with err
 * (--engine bpf refused). */
int latsys_bpf_setup(struct latsys *l, const struct latsys_opts *o, struct tt_err *err);

#endif
