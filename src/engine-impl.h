/* engine-impl: the engine's state, shared by engine.c (sampling),
 * engine-trace.c (tracepoints and the function tracer into the stream),
 * engine-target.c (what is sampled), engine-stack.c (a logged event's
 * stack as text) and engine-defer.c (samples waiting for symbol tables
 * the worker loads). Calls go one way: engine.c into engine-trace.c,
 * engine-target.c and engine-defer.c, engine-stack.c into engine.c's
 * resolver; engine-defer.c calls engine_sample back to replay a sample.
 * Nothing outside the engine includes it (but its unit tests). */
#ifndef TRACETOP_ENGINE_IMPL_H
#define TRACETOP_ENGINE_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tracetop/engine.h"
#include "tracetop/evlist.h"
#include "tracetop/record.h"

#define ENGINE_SAMPLE_TYPE                                                                         \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* Deepest stack kept (the kernel's default perf_event_max_stack is 127). */
#define ENGINE_MAX_FRAMES 128

/* DSOs a waiting sample remembers it waits for; with more it may wait
 * again when replayed. */
#define ENGINE_DEFER_DSOS 8

/* Inlined callees kept in a frame cache entry (innermost first); a deeper
 * chain, rare, is read whole from srcline's cache at each use. */
#define ENGINE_MAX_INLINE 4
/* Resolved frames remembered by (task, ip); a power of two. */
#define ENGINE_FCACHE_SIZE 8192

struct engine_event;
struct engine_head;
struct sym;
struct dso;
struct task;

/* One resolved address: valid while gen matches the engine's and proc is
 * the same task with the same maps (its mgen, unique: a reaped task's
 * address may be reused; another process's new mapping changes nothing
 * here); one without a symbol only until the next refresh (a JIT's map
 * may come). */
struct engine_fcache {
	uint64_t ip;
	const struct task *proc; /* NULL for kernel addresses */
	uint64_t mgen;           /* proc's, 0 for kernel addresses */
	uint64_t tick_ns;        /* the engine's last_tick_ns when made */
	uint32_t gen;
	bool kernel;
	bool inl_pending; /* inlines asked of the worker, not known yet */
	struct dso *dso;
	const struct sym *sym;
	uint64_t addr;
	uint64_t elf;    /* ip in the symbol's space (ELF or kernel address), or 0 */
	uint8_t ninline; /* inlined callees at ip (call stacks only), all of them */
	const struct sym *inl[ENGINE_MAX_INLINE];
};

struct engine_trace;
struct procprime;
struct srcline_async;
struct tasks;
struct unwind;
struct worker;

struct engine_load;
struct engine_defer_entry;
struct dso;

/* Why waiting samples were counted at once, their symbols loaded on the
 * loop thread (engine_defer.forced). */
enum engine_defer_why {
	ENGINE_DEFER_MODEL, /* their process or thread is about to change (exec,
	                       exec mapping, pid or tid reused) */
	ENGINE_DEFER_GONE,  /* their thread exited and is about to be freed */
	ENGINE_DEFER_FULL,  /* the buffer had no room for another */
	ENGINE_DEFER_FINAL, /* the last report */
	ENGINE_DEFER_FIRST, /* the first report: only a short wait for the worker */
	ENGINE_DEFER_NWHY,
};

/* Samples that wait for symbol tables being loaded on the worker: their
 * records copied back to back into one buffer, replayed through
 * engine_sample once the worker has answered (src/engine-defer.c). */
struct engine_defer {
	unsigned char *buf;        /* ENGINE_DEFER_BYTES, made on first use */
	size_t used;               /* bytes held */
	size_t n;                  /* samples held */
	uint64_t pids, tids;       /* one bit per (hash of a) held sample's pid, tid */
	struct engine_load *loads; /* jobs with the worker */
	uint64_t answers, seen;    /* loads answered; answered at the last replay */
	/* the sample being resolved: */
	struct dso *miss[ENGINE_DEFER_DSOS]; /* DSOs it waits for */
	size_t nmiss;
	bool waiting;                         /* it waits for one at least */
	bool sync;                            /* it may not wait: load now */
	struct engine_defer_entry *replaying; /* the held sample it is, or NULL */
	bool kept;                            /* that one waits again */
	uint64_t forced[ENGINE_DEFER_NWHY];   /* samples counted at once, by why */
	uint64_t rewaits;                     /* replays that had to wait again */
};

/* One object's leaf samples in this refresh, and whether its inlined
 * frames are looked up (once it held ENGINE_INLINE_SHARE of a refresh). */
struct engine_inl_dso {
	const struct dso *dso; /* NULL: a free slot */
	uint64_t n;
	bool wanted;
};

/* The objects sampled, by pointer (open addressing, at most half full). */
struct engine_inl {
	struct engine_inl_dso *tab;
	size_t mask, count;
	uint64_t total;              /* leaf samples of this refresh */
	struct engine_inl_dso *last; /* the object counted last */
};

struct engine {
	struct evlist el;
	uint64_t read_ns;  /* the last engine_read (now_ns) */
	size_t hot_copies; /* the hottest functions' per-instruction samples copied to frames */
	struct engine_event *events;
	size_t nheap;             /* heap slots: one per ring, the stream's included */
	struct engine_head *heap; /* one slot per ring */
	struct tasks *tasks;
	struct engine_stats stats;
	int *tids; /* threads opened (for -p / -t / command) */
	size_t ntids;
	int *pids; /* processes whose end ends the run (-p) */
	size_t npids;
	int *cpus;
	size_t ncpus;
	pid_t child; /* the command, or 0 */
	int child_status;
	bool child_done;
	int go_fd, err_fd; /* command start handshake */
	int self;
	bool include_self;
	int zoom_tid;       /* thread zoom: also count its samples apart */
	bool in_trace_ring; /* the record being applied came from the stream's rings */
	/* the rows' grouping: threads counted apart (HIST_GROUP_TID), call
	 * graph roots per process or thread (HIST_GROUP_PID, _TID) */
	unsigned group;
	double decay;
	enum callgraph_mode cg_mode;
	struct unwind *unwind; /* fp leaf fix and dwarf mode */
	struct engine_fcache *fcache;
	uint32_t fgen;              /* bumped when mappings change */
	struct worker *worker;      /* symbol tables, inlines; NULL: all on this thread */
	struct srcline_async *srcl; /* inline chains through the worker, or NULL */
	struct engine_inl inl;      /* the objects whose inlined frames are looked up */
	uint64_t last_tick_ns;
	uint64_t tick_samples, tick_lost;
	char target[128];
	const char *unknown_comm;
	bool started;               /* engine_start has run */
	bool inherit;               /* events follow children (-p, command) */
	unsigned trace_log;         /* stream entries kept (0: default) */
	struct engine_trace *trace; /* tracepoints and function tracer, or NULL */
	struct engine_defer defer;  /* samples waiting for symbols */
	struct engine_bpf *bpf;     /* the in-kernel counts, or NULL: the rings */
	struct procprime *prime;    /* the start's processes still to read, or NULL */
	bool primed, prime_due;     /* the first tick came; their list is to be made */
	const char *backend;        /* "bpf" or "perf" */
	char backend_why[sizeof(struct tt_err)];
	char bpf_notice[480];   /* auto: why BPF was refused (a load, privileges) */
	char bpf_unjudged[160]; /* frameless leaves the BPF engine could not judge */
	char notice[1024];      /* all of them (engine_compose_notice) */
};

struct hist_key;
struct thread;
struct record_sample;
/* ---- addresses to keys (engine-resolve.c) ---- */

/* Resolve a user-space ip of thread th to (dso, sym, addr) in key; the
 * ELF address in *elf_addr (0 if none); also for engine-stack.c. */
void engine_resolve_user(struct thread *th, uint64_t ip, struct hist_key *key, uint64_t *elf_addr);

/* Resolve an address of thread th (or the kernel) into key through the
 * frame cache; an entry without a symbol when the sample must wait for
 * its DSO's symbols (see engine_defer_ip). */
const struct engine_fcache *engine_resolve(struct engine *e, struct thread *th, uint64_t ip,
                                           bool kernel, struct hist_key *key);

/* Count w samples whose sampled function is in d, for the share that
 * decides whether d's inlined frames are looked up. */
void engine_inl_count(struct engine *e, const struct dso *d, uint64_t w);

/* End a refresh for the shares: the objects that reached theirs are
 * looked up from now on (the frame cache starts again). */
void engine_inl_tick(struct engine *e);

/* Free the shares' table. */
void engine_inl_free(struct engine *e);

/* A sample's n addresses (of thread tid of process pid) into keys, each
 * frame's inlined callees in front of it; *self the sampled function's
 * index. The number of keys. *unsettled (unless NULL) is set when one of
 * them may resolve otherwise at a later refresh (no symbol, inlines not
 * known yet). */
size_t engine_keys(struct engine *e, struct thread *th, int pid, int tid, const uint64_t *ips,
                   const bool *kern, size_t n, struct hist_key *keys, size_t *self,
                   bool *unsettled);

/* Per-event state, hung off evsel->priv (engine.c). */
struct engine_event {
	struct hist *hist;
	struct callgraph *cg;  /* call stacks, or NULL without -g */
	struct hist *zoom;     /* samples of the zoomed thread only, or NULL */
	struct addrhist *ah;   /* self samples per instruction, made on first use or request */
	uint64_t samples;      /* since start */
	uint64_t tick_samples; /* samples at the last tick */
	uint64_t interval;     /* samples in the last refresh */
};

/* Count w samples of the sampled function only (engine.c): its self
 * row, in zoom (unless NULL), per instruction, its object's share and
 * the samples; the callers are the caller's. */
void engine_count_self(struct engine *e, struct engine_event *ev, struct thread *th,
                       struct hist *zoom, uint64_t ip, bool kernel, const struct hist_key *leaf,
                       uint64_t w);

/* Count w samples of a resolved stack of n keys (engine.c): self at
 * keys[self] (the sampled address ip), per instruction, in zoom (unless
 * NULL), children and call path. */
void engine_count_keys(struct engine *e, struct engine_event *ev, struct thread *th,
                       struct hist *zoom, uint64_t ip, bool kernel, const struct hist_key *keys,
                       size_t n, size_t self, uint64_t w);

/* hist_rekey's question: a JIT address its perf map names now. */
bool engine_rekey_jit(void *arg, struct hist_key *key);

/* Count one sample record (engine.c): the hot path, and the replay of a
 * sample that waited. */
void engine_sample(struct engine *e, const struct perf_event_header *h);

/* Join the notices into e->notice (engine.c). */
void engine_compose_notice(struct engine *e);

/* Count n samples the kernel could not deliver (engine.c). */
void engine_lost(struct engine *e, uint64_t n);

/* ---- the BPF back-end (engine-bpf.c) ---- */
struct tt_prof_key;

/* A frameless leaf's return address for a record made from a count: the
 * leaf's ip, and the word of the top of its stack holding ret. */
struct engine_bpf_leaf {
	uint64_t ip, ret;
	unsigned word;
};

/* Words of the longest record made from a count: the fixed fields, both
 * stacks with their markers, the user registers and a few stack words. */
#define ENGINE_BPF_RECORD_WORDS 320

/* Choose the back-end (e->backend, e->backend_why) and load BPF on the
 * open evlist when it is chosen. 0; 1 when a BPF load failed after the
 * attach began and auto falls back (the caller reopens the evlist); -1
 * with err when --engine bpf cannot run. */
int engine_bpf_setup(struct engine *e, const struct engine_opts *o, struct tt_err *err);
bool engine_bpf_wanted(const struct engine_opts *o);

/* Read and clear the in-kernel counts into the hists (nothing on the ring
 * path). */
void engine_bpf_collect(struct engine *e);

struct record_mmap;
/* An exec mapping, applied to the model, seen by the BPF engine. */
void engine_bpf_mmap(struct engine *e, const struct record_mmap *m);

/* Process pid has a new image (exec, or a new process took the pid): its
 * frameless leaves are judged again. */
void engine_bpf_forget(struct engine *e, int pid);

/* Close the BPF program and maps. */
void engine_bpf_free(struct engine *e);

/* Map entries for one refresh of samples (rate x CPUs x seconds), a power
 * of two within [lo, hi]. */
uint32_t engine_bpf_entries(uint64_t rate, size_t ncpus, double refresh, uint32_t lo, uint32_t hi);

/* Read the counts now when they are due before the refresh. */
void engine_bpf_poll(struct engine *e);

/* When engine_bpf_poll must run next (now_ns clock), UINT64_MAX for never. */
uint64_t engine_bpf_deadline(const struct engine *e);

/* The time between reads within a refresh after a read over elapsed ns
 * of used keys of entries and counted samples, full lost to a full map
 * (*light: how long the reads have used little of the map); 0 for at the
 * refresh only. */
uint64_t engine_bpf_drain_every(uint64_t every, uint64_t refresh_ns, uint64_t *light,
                                uint64_t elapsed, uint32_t used, uint32_t entries, uint64_t counted,
                                uint64_t full);

/* The growth of per-CPU counters since *seen (moved on). */
uint64_t engine_bpf_lost_delta(const uint64_t *percpu, size_t ncpus, uint64_t *seen);

/* A PERF_RECORD_SAMPLE for sample_type from a counted key (count as its
 * period, the stacks as its callchain, a frameless leaf's return address
 * as its user registers and stack when leaf is not NULL) into rec
 * (ENGINE_BPF_RECORD_WORDS); returns its size in words. */
size_t engine_bpf_record(uint64_t sample_type, const struct tt_prof_key *k, uint64_t count,
                         uint64_t id, const uint64_t *kips, size_t nk, const uint64_t *uips,
                         size_t nu, const struct engine_bpf_leaf *leaf, uint64_t *rec);

/* Apply one record of any type (engine.c); tests feed records here. */
void engine_record(struct engine *e, const struct perf_event_header *h);

/* ---- samples waiting for symbols (engine-defer.c) ----
 * A sample with a user frame in an ELF DSO whose symbols are not loaded
 * waits: the DSO's load goes to the worker (once), the sample's frames
 * are all resolved so that every DSO it lacks is asked for at once, and
 * its record is copied aside. When the worker has answered for all its
 * DSOs it is replayed through engine_sample. Before anything could make
 * it resolve differently (its process execs or maps, its pid or tid is
 * reused, its exited thread is reaped), when the buffer is full and
 * before the last report, waiting samples are counted at once, their
 * symbols loaded on this thread. */

/* Whether user address ip of th (NULL: none) lies in an ELF DSO whose
 * symbols are not loaded and the sample must wait for them: then the load
 * is asked of the worker (once per DSO) and noted for the sample. False
 * when it can be resolved now (it is loaded here first when the sample
 * may not wait: no worker, a replay that waited enough, a full queue). */
bool engine_defer_ip(struct engine *e, struct thread *th, uint64_t ip);
/* The same for a kernel address. */
bool engine_defer_kernel(struct engine *e);

/* After resolving sample record h of thread tid of process pid: true when
 * it waits for a DSO (it is copied aside, or a replayed one is kept),
 * false when it is to be counted now. Resets the per-sample state either
 * way. */
bool engine_defer_keep(struct engine *e, const struct perf_event_header *h,
                       const struct record_sample *s);

/* Load d's symbols ahead of any sample that needs them, on the worker or
 * (or_now) here when it has no room: the kernel's at start, and the BPF
 * engine's objects, whose samples come at the refresh, after a
 * short-lived process may have taken the only way to its files with it.
 * Whether they are loaded or on their way. */
bool engine_defer_preload(struct engine *e, struct dso *d, bool or_now);

/* Take the worker's answers (worker_poll) and replay the samples whose
 * DSOs are all answered for (looked for only after new answers unless
 * rescan: a DSO may also have been loaded synchronously meanwhile). */
void engine_defer_poll(struct engine *e, bool rescan);

/* Before a record changes the model of process pid (exec, exec mapping,
 * a new process taking the pid) or of thread tid (a new thread taking
 * the tid): count their waiting samples now. -1: no pid, no tid. */
void engine_defer_model(struct engine *e, int pid, int tid);

/* Before tasks_reap(now, grace): count now the waiting samples of the
 * threads it frees (dead for grace). */
void engine_defer_gone(struct engine *e, uint64_t now, uint64_t grace);

/* Count every waiting sample now (a full buffer, the last report),
 * loading their symbols on this thread; for the last report, after
 * waiting a few seconds at most for the loads the worker has. */
void engine_defer_flush(struct engine *e, enum engine_defer_why why);

/* Free the buffer and the load jobs never answered; after worker_free. */
void engine_defer_free(struct engine *e);

struct record_sample;
struct callgraph;
struct hist;
/* Sample s's stack into ips (room for ENGINE_MAX_FRAMES), leaf first, with
 * kern[i] telling kernel addresses; returns how many. (engine-chain.c) */
size_t engine_chain(struct engine *e, struct thread *th, const struct record_sample *s,
                    uint64_t *ips, bool *kern);

/* Count a resolved stack of n keys: children time once per distinct
 * function (in hist, and zoom unless NULL), the path in cg. */
void engine_count_stack(struct hist *hist, struct callgraph *cg, struct hist *zoom, unsigned group,
                        const struct hist_key *keys, size_t n, uint64_t w);

/* Trace samples (tracepoints opened by engine-trace.c): true when h was
 * one of them and went to the stream, false for everything else. */
bool engine_trace_sample(struct engine *e, const struct perf_event_header *h);

/* Fill t with the options' target: the CPUs, the threads of -p and -t, a
 * command forked stopped before its exec (src/engine-target.c). 0, or -1
 * with err (a missing pid, a bad CPU, a command that cannot start). */
int engine_target_setup(struct engine *e, const struct engine_opts *o, struct evlist_target *t,
                        struct tt_err *err);

/* Open the tracepoints and function tracer of the options. */
int engine_trace_setup(struct engine *e, const struct engine_opts *o, struct tt_err *err);

/* Enable the tracepoints opened before the start (not for a command:
 * they start at its exec). */
int engine_trace_start(struct engine *e, struct tt_err *err);

/* Drain the function tracer's buffers into the stream. */
void engine_trace_read(struct engine *e);

/* The stream's own rings (engine-trace.c): how many (0: the stream
 * shares the samples' rings), and ring i with its fd for polling. */
size_t engine_trace_nrings(const struct engine *e);
struct ring *engine_trace_ring(const struct engine *e, size_t i, int *fd);

/* Close a refresh interval of the stream. */
void engine_trace_tick(struct engine *e);

/* Close every trace fd, stop the function tracer, free the stream. */
void engine_trace_free(struct engine *e);

#endif
