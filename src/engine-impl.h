/* engine-impl: the engine's state, shared by engine.c (sampling),
 * engine-trace.c (tracepoints and the function tracer into the stream),
 * engine-target.c (what is sampled) and engine-stack.c (a logged event's
 * stack as text). Calls go one way: engine.c into engine-trace.c and
 * engine-target.c, engine-stack.c into engine.c's resolver. Nothing
 * outside the engine includes it. */
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

struct engine_event;
struct engine_head;
struct engine_fcache;
struct engine_trace;
struct srcline_async;
struct tasks;
struct unwind;
struct worker;

struct engine {
	struct evlist el;
	struct engine_event *events;
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
	int zoom_tid; /* thread zoom: also count its samples apart */
	double decay;
	enum callgraph_mode cg_mode;
	struct unwind *unwind; /* fp leaf fix and dwarf mode */
	struct engine_fcache *fcache;
	uint32_t fgen;              /* bumped when mappings change */
	struct worker *worker;      /* slow lookups (call stacks only), or NULL */
	struct srcline_async *srcl; /* inline chains through the worker, or NULL */
	uint64_t last_tick_ns;
	uint64_t tick_samples, tick_lost;
	char target[128];
	const char *unknown_comm;
	bool started;               /* engine_start has run */
	bool inherit;               /* events follow children (-p, command) */
	unsigned trace_log;         /* stream entries kept (0: default) */
	struct engine_trace *trace; /* tracepoints and function tracer, or NULL */
};

struct hist_key;
struct thread;
/* Resolve a user-space ip of thread th to (dso, sym, addr) in key; the
 * ELF address in *elf_addr (0 if none). (engine.c, for engine-stack.c) */
void engine_resolve_user(struct thread *th, uint64_t ip, struct hist_key *key, uint64_t *elf_addr);

struct record_sample;
struct callgraph;
struct hist;
/* Sample s's stack into ips (room for ENGINE_MAX_FRAMES), leaf first, with
 * kern[i] telling kernel addresses; returns how many. (engine-chain.c) */
size_t engine_chain(struct engine *e, struct thread *th, const struct record_sample *s,
                    uint64_t *ips, bool *kern);

/* Count a resolved stack of n keys: children time once per distinct
 * function (in hist, and zoom unless NULL), the path in cg. */
void engine_count_stack(struct hist *hist, struct callgraph *cg, struct hist *zoom,
                        const char *comm, const struct hist_key *keys, size_t n);

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

/* Close a refresh interval of the stream. */
void engine_trace_tick(struct engine *e);

/* Close every trace fd, stop the function tracer, free the stream. */
void engine_trace_free(struct engine *e);

#endif
