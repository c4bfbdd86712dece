/* Unit tests for src/engine-defer.c: samples whose DSO's symbols are not
 * loaded wait for the worker and are counted, with the right symbol, once
 * it answers; every DSO a stack lacks is asked for at once; a sample
 * whose process exits still waits, and is counted against the image it
 * ran in when its pid is reused or its process execs; a full buffer, a
 * thread about to be reaped and the last report count the waiting samples
 * at once; a replay waits again a bounded number of times; without the
 * worker everything stays synchronous. A real engine (a cpu-clock event
 * on a command never started, so its rings stay empty) is fed synthetic
 * records for processes that do not exist, whose mappings are small
 * libraries this test builds. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <cmocka.h>

#include "buildtest.h"
#include "engine-impl.h"
#include "recbuf.h"
#include "tracetop/dso.h"
#include "tracetop/engine.h"
#include "tracetop/evspec.h"
#include "tracetop/stream.h"
#include "tracetop/sym-elf.h"
#include "tracetop/unwind.h"
#include "tracetop/util.h"
#include "tracetop/worker.h"

/* Processes no kernel has (beyond pid_max): the model comes from records. */
#define PID_A 2147480000
#define PID_Q 2147480002
#define BASE 0x7f0000000000ULL  /* where the first library is mapped */
#define BASE_STEP 0x10000000ULL /* and each next one */
#define WAIT_NS 10000000000ULL  /* for the worker's answers, at most */
#define FULL_SAMPLES 40000      /* more than the buffer holds */
#define MANY_DSOS 25            /* a stack through more DSOs than an entry notes */
#define NREGS 17                /* popcount of UNWIND_REGS_MASK */
#define COPY_NAMES 32           /* lib_copy's names in use at once, at most */

/* One function per library; same-length names keep the layouts equal. */
static const char lib_src[] = "int FN(int x) { return x * 3 + 1; }\n";

/* A library's function as the tests sample it. */
struct fn {
	uint64_t off; /* file offset of a byte inside the function */
};

static struct fn alpha, beta;
static int copies;        /* library copies made (each a new DSO) */
static uint64_t clock_ns; /* record times */
static atomic_bool gate_open;

/* The file offset of the middle of function name in library file. */
static void
fn_offset(const char *file, const char *name, struct fn *f)
{
	struct symelf_hit hit;
	struct dso_seg *segs;
	struct tt_err err;
	size_t nsegs;

	assert_int_equal(symelf_find(bt_path(file), NULL, name, &hit, &segs, &nsegs, &err), 1);
	assert_int_equal(symelf_vaddr_to_offset(segs, nsegs, hit.addr + hit.size / 2, &f->off), 0);
	free(segs);
}

/* A new copy of a library (a DSO nobody has loaded); its name (valid for
 * the next COPY_NAMES copies). */
static const char *
lib_copy(const char *lib)
{
	static char names[COPY_NAMES][64];
	char *name = names[++copies % COPY_NAMES];

	snprintf(name, sizeof names[0], "copy%d-%s", copies, lib);
	assert_true(bt_sh("cp '%s' '%s'", bt_path(lib), bt_path(name)));
	return name;
}

/* The sample_id_all trailer of a side-band record of pid. */
static void
rb_sid(struct rb *b, uint64_t st, uint32_t pid)
{
	const struct record_id sid = {.pid = pid, .tid = pid, .time = ++clock_ns};

	rb_trailer(b, st, &sid);
}

/* MMAP2 of library file at base in pid (executable, from offset 0). */
static void
feed_mmap(struct engine *e, uint32_t pid, const char *file, uint64_t base)
{
	struct stat sb;
	struct rb b;

	assert_int_equal(stat(bt_path(file), &sb), 0);
	rb_start(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	rb_u32(&b, pid);
	rb_u32(&b, pid);
	rb_u64(&b, base);
	rb_u64(&b, ((uint64_t)sb.st_size + 4095) & ~4095ULL);
	rb_u64(&b, 0);
	rb_u32(&b, major(sb.st_dev));
	rb_u32(&b, minor(sb.st_dev));
	rb_u64(&b, sb.st_ino);
	rb_u64(&b, 0);
	rb_u32(&b, PROT_READ | PROT_EXEC);
	rb_u32(&b, MAP_PRIVATE);
	rb_str(&b, bt_path(file));
	rb_sid(&b, e->el.sample_type, pid);
	engine_record(e, rb_done(&b));
}

/* COMM of pid (an exec when exec). */
static void
feed_comm(struct engine *e, uint32_t pid, const char *comm, bool exec)
{
	struct rb b;

	rb_start(&b, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	rb_u32(&b, pid);
	rb_u32(&b, pid);
	rb_str(&b, comm);
	rb_sid(&b, e->el.sample_type, pid);
	engine_record(e, rb_done(&b));
}

/* FORK or EXIT of process pid (its main thread), child of ppid. */
static void
feed_task(struct engine *e, uint32_t type, uint32_t pid, uint32_t ppid)
{
	struct rb b;

	rb_start(&b, type, 0);
	rb_u32(&b, pid);
	rb_u32(&b, ppid);
	rb_u32(&b, pid);
	rb_u32(&b, ppid);
	rb_u64(&b, ++clock_ns);
	rb_sid(&b, e->el.sample_type, pid);
	engine_record(e, rb_done(&b));
}

/* Start a sample record of pid at ip (cpumode misc): the fields of
 * ENGINE_SAMPLE_TYPE, up to the period. */
static void
rb_sample(struct rb *b, uint16_t misc, uint32_t pid, uint64_t ip)
{
	rb_start(b, PERF_RECORD_SAMPLE, misc);
	rb_u64(b, 0); /* identifier */
	rb_u64(b, ip);
	rb_u32(b, pid);
	rb_u32(b, pid);
	rb_u64(b, ++clock_ns);
	rb_u32(b, 0); /* cpu */
	rb_u32(b, 0);
	rb_u64(b, 1000000); /* period */
}

/* A user-mode sample of pid at ip with the user callchain callers
 * (return addresses) and, when regs, user registers and a small stack
 * copy (what --call-graph dwarf records). */
static void
feed_sample(struct engine *e, uint32_t pid, uint64_t ip, const uint64_t *callers, size_t ncallers,
            bool regs)
{
	uint64_t st = e->el.sample_type;
	struct rb b;

	assert_int_equal(st & ~(ENGINE_SAMPLE_TYPE | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
	                        PERF_SAMPLE_STACK_USER),
	                 0);
	rb_sample(&b, PERF_RECORD_MISC_USER, pid, ip);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		rb_u64(&b, ncallers > 0 ? ncallers + 2 : 0);
		if (ncallers > 0) {
			rb_u64(&b, PERF_CONTEXT_USER);
			rb_u64(&b, ip);
		}
		for (size_t i = 0; i < ncallers; i++)
			rb_u64(&b, callers[i]);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		rb_u64(&b, regs ? PERF_SAMPLE_REGS_ABI_64 : PERF_SAMPLE_REGS_ABI_NONE);
		for (size_t i = 0; regs && i < NREGS; i++)
			rb_u64(&b, i == UNWIND_PERF_REG_IP   ? ip
			           : i == UNWIND_PERF_REG_SP ? 0x7ffc0000
			                                     : 0);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		static const unsigned char stack[64];

		rb_u64(&b, regs ? sizeof stack : 0);
		if (regs) {
			rb_bytes(&b, stack, sizeof stack);
			rb_u64(&b, sizeof stack);
		}
	}
	engine_record(e, rb_done(&b));
}

/* A kernel-mode sample at ip, without a call chain. */
static void
feed_kernel_sample(struct engine *e, uint32_t pid, uint64_t ip)
{
	struct rb b;

	assert_int_equal(e->el.sample_type & ~ENGINE_SAMPLE_TYPE, 0);
	rb_sample(&b, PERF_RECORD_MISC_KERNEL, pid, ip);
	engine_record(e, rb_done(&b));
}

/* An engine sampling cpu-clock on a command it never starts; the test is
 * skipped where perf events cannot be opened. */
static struct engine *
engine_make(enum callgraph_mode cg)
{
	static char *const argv[] = {"true", NULL};
	static struct evspec spec;
	struct tt_err err;
	struct engine_opts o = {.events = &spec,
	                        .nevents = 1,
	                        .argv = argv,
	                        .freq = 1000,
	                        .mmap_pages = 8,
	                        .decay = 1.0, /* no fading: count_of ticks at every call */
	                        .callgraph = cg,
	                        .stack_size = 8192};
	struct engine *e;

	assert_int_equal(evspec_parse("cpu-clock", &spec, &err), 0);
	e = engine_new(&o, &err);
	if (e == NULL) {
		print_message("# SKIP cannot open a cpu-clock event: %s\n", err.msg);
		skip();
	}
	assert_non_null(e->worker);
	return e;
}

/* The held job: wait for the gate. */
static bool
gate_run(struct worker_job *j, bool may_defer)
{
	const struct timespec nap = {0, 1000000};

	(void)j;
	(void)may_defer;
	while (!atomic_load(&gate_open))
		nanosleep(&nap, NULL);
	return true;
}

/* Nothing to hand back. */
static void
gate_done(struct worker_job *j)
{
	(void)j;
}

/* Hold the worker (loads posted after this wait) until gate_release. */
static void
gate_close(struct engine *e)
{
	const struct worker_job j = {.run = gate_run, .done = gate_done};

	atomic_store(&gate_open, false);
	assert_true(worker_post(e->worker, &j));
}

/* Let the worker go on. */
static void
gate_release(void)
{
	atomic_store(&gate_open, true);
}

/* Read (and so poll the worker) until want samples were replayed. */
static void
wait_replayed(struct engine *e, uint64_t want)
{
	const struct timespec nap = {0, 1000000};
	uint64_t deadline = now_ns() + WAIT_NS;

	while (engine_stats(e)->replayed < want) {
		assert_true(now_ns() < deadline);
		engine_read(e);
		nanosleep(&nap, NULL);
	}
}

/* Read until the worker has nothing in flight. */
static void
wait_idle(struct engine *e)
{
	const struct timespec nap = {0, 1000000};
	uint64_t deadline = now_ns() + WAIT_NS;

	while (worker_inflight(e->worker) > 0) {
		assert_true(now_ns() < deadline);
		engine_read(e);
		nanosleep(&nap, NULL);
	}
}

/* Self samples (since start) of the rows of function name in file (NULL:
 * the kernel), after a tick, and (children not NULL) their decayed
 * inclusive score. */
static uint64_t
count_of(struct engine *e, const char *name, const char *file, double *children)
{
	static const enum hist_sort by[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	struct hist_snapshot snap = {0};
	uint64_t self = 0;
	double incl = 0;

	engine_tick(e, false); /* no decay (engine_make): every row stays */
	engine_snapshot(e, 0, by, NULL, NULL, &snap);
	for (size_t i = 0; i < snap.n; i++) {
		const struct hist_entry *en = snap.rows[i].entry;

		if (en->key.sym == NULL || strcmp(en->key.sym->name, name) != 0 ||
		    (file != NULL ? strcmp(en->key.dso->name, bt_path(file)) != 0
		                  : !en->key.kernel))
			continue;
		self += snap.rows[i].total;
		incl += en->children;
	}
	hist_snapshot_free(&snap);
	if (children != NULL)
		*children = incl;
	return self;
}

/* Samples in a library nobody loaded wait, are not counted, and are
 * counted with their symbols once the worker answers (an unresolved
 * frame was not cached for them); both DSOs of the stack were asked for
 * with its first sample, and nothing loaded here. */
static void
test_waits_for_worker(void **state)
{
	struct engine *e = engine_make(CALLGRAPH_FP);
	const char *leaf = lib_copy("liba.so"), *caller = lib_copy("libb.so");
	uint64_t ret = BASE + BASE_STEP + beta.off + 1;
	double children;
	struct dso *dl, *dc;
	uint64_t kernel = dso_kernel(NULL)->loading; /* its table, asked for at start */

	(void)state;
	feed_comm(e, PID_A, "fake", false);
	feed_mmap(e, PID_A, leaf, BASE);
	feed_mmap(e, PID_A, caller, BASE + BASE_STEP);
	dl = bt_dso(leaf);
	dc = bt_dso(caller);
	for (int i = 0; i < 10; i++)
		feed_sample(e, PID_A, BASE + alpha.off, &ret, 1, false);
	assert_int_equal(engine_stats(e)->deferred, 10);
	assert_int_equal(engine_stats(e)->samples, 0);
	assert_true(dl->loading && dc->loading);
	assert_false(dl->loaded || dc->loaded);
	assert_int_equal(e->defer.n, 10);
	wait_replayed(e, 10);
	assert_int_equal(engine_stats(e)->samples, 10);
	wait_idle(e);
	assert_int_equal(engine_stats(e)->async_loads, 2 + kernel);
	assert_int_equal(engine_stats(e)->sync_loads, 0);
	assert_int_equal(e->defer.n, 0);
	assert_int_equal(count_of(e, "alpha_fn", leaf, NULL), 10);
	assert_int_equal(count_of(e, "betaa_fn", caller, &children), 0);
	assert_true(children > 5); /* the caller, on every stack */
	/* samples of a loaded DSO count at once */
	feed_sample(e, PID_A, BASE + alpha.off, &ret, 1, false);
	assert_int_equal(engine_stats(e)->deferred, 10);
	assert_int_equal(engine_stats(e)->samples, 11);
	assert_int_equal(count_of(e, "alpha_fn", leaf, NULL), 11);
	engine_free(e);
}

/* A waiting sample whose process exited still waits for the worker, and
 * counts with its symbols; so does one whose exited thread is about to be
 * reaped, at once. */
static void
test_exit_waits(void **state)
{
	struct engine *e = engine_make(CALLGRAPH_NONE);
	const char *a = lib_copy("liba.so"), *b = lib_copy("libb.so");

	(void)state;
	feed_mmap(e, PID_A, a, BASE);
	feed_sample(e, PID_A, BASE + alpha.off, NULL, 0, false);
	feed_task(e, PERF_RECORD_EXIT, PID_A, PID_Q);
	assert_int_equal(e->defer.n, 1);
	wait_replayed(e, 1);
	assert_int_equal(engine_stats(e)->async_loads, 1);
	assert_int_equal(engine_stats(e)->sync_loads, 0);
	assert_int_equal(count_of(e, "alpha_fn", a, NULL), 1);
	/* another process: its thread is reaped before the worker answers */
	gate_close(e);
	feed_mmap(e, PID_Q, b, BASE);
	feed_sample(e, PID_Q, BASE + beta.off, NULL, 0, false);
	feed_task(e, PERF_RECORD_EXIT, PID_Q, 1);
	engine_defer_gone(e, now_ns(), 3600 * 1000000000ULL); /* not dead long enough */
	assert_int_equal(e->defer.n, 1);
	engine_defer_gone(e, now_ns() + 10000000000ULL, 5000000000ULL);
	assert_int_equal(e->defer.n, 0);
	assert_int_equal(e->defer.forced[ENGINE_DEFER_GONE], 1);
	assert_int_equal(engine_stats(e)->sync_loads, 1);
	assert_int_equal(count_of(e, "betaa_fn", b, NULL), 1);
	gate_release();
	engine_free(e);
}

/* A waiting sample whose pid a new process takes is counted before the
 * fork, with the symbols of its own image: not those of the image the
 * new process maps at the same address. */
static void
test_pid_reuse(void **state)
{
	struct engine *e = engine_make(CALLGRAPH_NONE);
	const char *a = lib_copy("liba.so"), *b = lib_copy("libb.so");

	(void)state;
	gate_close(e);
	feed_comm(e, PID_A, "old", false);
	feed_mmap(e, PID_A, a, BASE);
	feed_sample(e, PID_A, BASE + alpha.off, NULL, 0, false);
	feed_task(e, PERF_RECORD_EXIT, PID_A, PID_Q);
	assert_int_equal(engine_stats(e)->deferred, 1);
	assert_int_equal(engine_stats(e)->samples, 0);
	/* the pid comes back as another program, b mapped where a was */
	feed_task(e, PERF_RECORD_FORK, PID_A, PID_Q);
	/* counted before the fork was applied, its symbols loaded here */
	assert_int_equal(engine_stats(e)->samples, 1);
	assert_int_equal(engine_stats(e)->replayed, 1);
	assert_int_equal(engine_stats(e)->sync_loads, 1);
	assert_int_equal(e->defer.forced[ENGINE_DEFER_MODEL], 1);
	assert_int_equal(e->defer.n, 0);
	feed_comm(e, PID_A, "new", true);
	feed_mmap(e, PID_A, b, BASE);
	feed_sample(e, PID_A, BASE + beta.off, NULL, 0, false);
	assert_int_equal(engine_stats(e)->deferred, 2);
	gate_release();
	wait_replayed(e, 2);
	assert_int_equal(count_of(e, "alpha_fn", a, NULL), 1);
	assert_int_equal(count_of(e, "betaa_fn", b, NULL), 1);
	engine_free(e);
}

/* An exec or a new mapping of a process also counts its waiting samples
 * first; those of other processes go on waiting. */
static void
test_exec_counts_first(void **state)
{
	struct engine *e = engine_make(CALLGRAPH_NONE);
	const char *a = lib_copy("liba.so"), *b = lib_copy("libb.so"), *q = lib_copy("liba.so");

	(void)state;
	gate_close(e);
	feed_mmap(e, PID_A, a, BASE);
	feed_mmap(e, PID_Q, q, BASE);
	feed_sample(e, PID_A, BASE + alpha.off, NULL, 0, false);
	feed_sample(e, PID_Q, BASE + alpha.off, NULL, 0, false);
	assert_int_equal(e->defer.n, 2);
	feed_comm(e, PID_A, "renamed", false); /* no new image: both wait on */
	assert_int_equal(e->defer.n, 2);
	feed_comm(e, PID_A, "new", true);
	assert_int_equal(e->defer.n, 1); /* Q's waits on */
	assert_int_equal(engine_stats(e)->samples, 1);
	feed_mmap(e, PID_A, b, BASE);
	feed_sample(e, PID_A, BASE + beta.off, NULL, 0, false);
	assert_int_equal(e->defer.n, 2);
	gate_release();
	wait_replayed(e, 3);
	assert_int_equal(count_of(e, "alpha_fn", a, NULL), 1);
	assert_int_equal(count_of(e, "alpha_fn", q, NULL), 1);
	assert_int_equal(count_of(e, "betaa_fn", b, NULL), 1);
	assert_int_equal(engine_stats(e)->sync_loads, 1);
	engine_free(e);
}

/* A full buffer counts what it holds at once, with the symbols the worker
 * is loading for them (waited for, not read a second time here); no
 * sample is lost. */
static void
test_buffer_full(void **state)
{
	struct engine *e = engine_make(CALLGRAPH_NONE);
	const char *a = lib_copy("liba.so");
	uint64_t deferred;

	(void)state;
	feed_mmap(e, PID_A, a, BASE);
	for (int i = 0; i < FULL_SAMPLES; i++)
		feed_sample(e, PID_A, BASE + alpha.off, NULL, 0, false);
	deferred = engine_stats(e)->deferred;
	assert_true(deferred > 1000 && deferred < FULL_SAMPLES);
	assert_int_equal(e->defer.forced[ENGINE_DEFER_FULL], deferred - 1);
	assert_int_equal(engine_stats(e)->sync_loads, 0);
	assert_int_equal(engine_stats(e)->async_loads, 1);
	/* the one that did not fit waits in the emptied buffer */
	assert_int_equal(e->defer.n, 1);
	assert_int_equal(engine_stats(e)->samples, FULL_SAMPLES - 1);
	wait_idle(e);
	engine_tick(e, true);
	assert_int_equal(e->defer.n, 0);
	assert_int_equal(engine_stats(e)->async_loads, 1);
	assert_int_equal(engine_stats(e)->replayed, deferred);
	assert_int_equal(engine_stats(e)->samples, FULL_SAMPLES);
	assert_int_equal(count_of(e, "alpha_fn", a, NULL), FULL_SAMPLES);
	engine_free(e);
}

/* Before the last report, the waiting samples are counted at once. */
static void
test_final_flush(void **state)
{
	struct engine *e = engine_make(CALLGRAPH_FP);
	const char *a = lib_copy("liba.so");

	(void)state;
	gate_close(e);
	feed_mmap(e, PID_A, a, BASE);
	for (int i = 0; i < 5; i++)
		feed_sample(e, PID_A, BASE + alpha.off, NULL, 0, false);
	assert_int_equal(engine_stats(e)->samples, 0);
	engine_settle(e, true);
	assert_int_equal(e->defer.forced[ENGINE_DEFER_FINAL], 5);
	assert_int_equal(engine_stats(e)->samples, 5);
	assert_int_equal(engine_stats(e)->sync_loads, 1);
	assert_int_equal(count_of(e, "alpha_fn", a, NULL), 5);
	gate_release();
	wait_idle(e);
	assert_int_equal(engine_stats(e)->samples, 5);
	assert_int_equal(engine_stats(e)->async_loads, 0);
	engine_free(e);
}

/* With DWARF stacks a sample whose leaf's DSO is loading is not unwound
 * until it is replayed. */
static void
test_dwarf_leaf(void **state)
{
	struct engine *e = engine_make(CALLGRAPH_DWARF);
	const char *a = lib_copy("liba.so");
	const struct unwind_stats *us = unwind_stats(e->unwind);

	(void)state;
	feed_mmap(e, PID_A, a, BASE);
	feed_sample(e, PID_A, BASE + alpha.off, NULL, 0, true);
	assert_int_equal(engine_stats(e)->deferred, 1);
	assert_int_equal(us->fast_steps + us->slow_unwinds, 0);
	wait_replayed(e, 1);
	assert_true(us->fast_steps + us->slow_unwinds > 0);
	assert_int_equal(count_of(e, "alpha_fn", a, NULL), 1);
	engine_free(e);
}

/* A stack through more DSOs than a waiting sample notes: its replays find
 * more still loading and it waits again, but only so often; then the
 * rest is loaded here. */
static void
test_rewait_bounded(void **state)
{
	struct engine *e = engine_make(CALLGRAPH_FP);
	uint64_t callers[MANY_DSOS - 1];
	struct dso *d[MANY_DSOS];

	(void)state;
	gate_close(e);
	for (int i = 0; i < MANY_DSOS; i++) {
		const char *lib = lib_copy("liba.so");

		feed_mmap(e, PID_A, lib, BASE + (uint64_t)i * BASE_STEP);
		d[i] = bt_dso(lib);
		if (i > 0)
			callers[i - 1] = BASE + (uint64_t)i * BASE_STEP + alpha.off + 1;
	}
	feed_sample(e, PID_A, BASE + alpha.off, callers, MANY_DSOS - 1, false);
	for (int i = 0; i < MANY_DSOS; i++)
		assert_true(d[i]->loading); /* all asked for at once */
	assert_int_equal(e->defer.n, 1);
	/* the worker is held: load what the sample noted here, as if answered */
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < ENGINE_DEFER_DSOS * (round + 1); i++)
			dso_load_now(d[i]);
		engine_tick(e, true);
		assert_int_equal(e->defer.rewaits, round < 2 ? round + 1 : 2);
	}
	/* third replay: no more waiting, the last DSO was loaded here */
	assert_int_equal(e->defer.n, 0);
	assert_int_equal(engine_stats(e)->samples, 1);
	assert_int_equal(engine_stats(e)->sync_loads, 1);
	assert_true(d[MANY_DSOS - 1]->loaded);
	gate_release();
	engine_free(e);
}

/* Without the worker, symbols load when a sample needs them, as before. */
static void
test_no_worker(void **state)
{
	struct engine *e = engine_make(CALLGRAPH_NONE);
	const char *a = lib_copy("liba.so");

	(void)state;
	worker_free(e->worker);
	e->worker = NULL;
	feed_mmap(e, PID_A, a, BASE);
	feed_sample(e, PID_A, BASE + alpha.off, NULL, 0, false);
	assert_int_equal(engine_stats(e)->deferred, 0);
	assert_int_equal(engine_stats(e)->samples, 1);
	assert_true(bt_dso(a)->loaded);
	assert_int_equal(count_of(e, "alpha_fn", a, NULL), 1);
	engine_free(e);
}

/* The kernel's symbols load on the worker from the engine's start: a
 * kernel sample waits for them (or finds them there) and counts with its
 * name, and nothing was read on the loop thread. First in the group: the
 * kernel's table is read once per process. */
static void
test_kernel_on_worker(void **state)
{
	struct engine *e = engine_make(CALLGRAPH_NONE);

	(void)state;
	/* asked for at start; the answer is installed by a read */
	assert_true(dso_kernel(NULL)->loading);
	assert_false(dso_kernel(NULL)->loaded);
	feed_kernel_sample(e, PID_A, 0xffffffff81000010ULL);
	wait_idle(e);
	engine_read(e);
	assert_int_equal(count_of(e, "kfixture_fn", NULL, NULL), 1);
	assert_int_equal(engine_stats(e)->async_loads, 1);
	assert_int_equal(engine_stats(e)->sync_loads, 0);
	assert_true(dso_kernel(NULL)->loaded);
	engine_free(e);
}

/* feed a LOST record of n records, as if read from the stream's own rings
 * (trace) or from the samples' */
static void
feed_lost(struct engine *e, uint64_t n, bool trace)
{
	struct rb b;

	rb_start(&b, PERF_RECORD_LOST, 0);
	rb_u64(&b, 1);
	rb_u64(&b, n);
	rb_sid(&b, e->el.sample_type, PID_A);
	e->in_trace_ring = trace;
	engine_record(e, rb_done(&b));
	e->in_trace_ring = false;
}

/* Losses are counted where they happened: the samples' rings' in the
 * profile's stats, the stream's own rings' in the stream's; a stream
 * sharing the samples' rings counts theirs too. */
static void
test_lost_by_source(void **state)
{
	struct engine *e = engine_make(CALLGRAPH_NONE);
	struct tt_err err;

	(void)state;
	feed_lost(e, 5, false);
	assert_int_equal(engine_stats(e)->lost, 5);
	/* a stream with no rings of its own yet: it shares the samples' */
	engine_stream(e);
	assert_int_equal(engine_trace_nrings(e), 0);
	feed_lost(e, 2, false);
	assert_int_equal(engine_stats(e)->lost, 7);
	assert_int_equal(stream_stats(engine_stream(e))->lost, 2);
	if (engine_trace_enable(e, "sched:sched_switch", NULL, &err) != 0) {
		print_message("# SKIP cannot stream sched:sched_switch: %s\n", err.msg);
		engine_free(e);
		skip();
	}
	assert_int_not_equal(engine_trace_nrings(e), 0);
	feed_lost(e, 40, true);
	assert_int_equal(engine_stats(e)->lost, 7);
	assert_int_equal(stream_stats(engine_stream(e))->lost, 42);
	feed_lost(e, 3, false);
	assert_int_equal(engine_stats(e)->lost, 10);
	assert_int_equal(stream_stats(engine_stream(e))->lost, 42);
	engine_free(e);
}

/* Build the two libraries; find their functions. */
static int
setup(void **state)
{
	FILE *f;

	(void)state;
	if (bt_mkdirs("tt-engine-defer") != 0)
		return -1;
	f = fopen(bt_path("lib.c"), "w");
	if (f == NULL || fputs(lib_src, f) < 0 || fclose(f) != 0)
		return -1;
	if (!bt_sh("cd '%s' && %s -O1 -shared -fPIC -DFN=alpha_fn -o liba.so lib.c && "
	           "%s -O1 -shared -fPIC -DFN=betaa_fn -o libb.so lib.c",
	           bt_dir, bt_cc, bt_cc))
		return -1;
	f = fopen(bt_path("kallsyms"), "w");
	if (f == NULL ||
	    fputs("ffffffff81000000 T kfixture_fn\nffffffff81001000 T kfixture_next\n", f) < 0 ||
	    fclose(f) != 0)
		return -1;
	dso_set_kallsyms_path(bt_path("kallsyms"));
	fn_offset("liba.so", "alpha_fn", &alpha);
	fn_offset("libb.so", "betaa_fn", &beta);
	/* the exit test maps b where a was: one address, two functions */
	return alpha.off == beta.off ? 0 : -1;
}

/* Remove the directory tree. */
static int
teardown(void **state)
{
	(void)state;
	dso_cache_free();
	return bt_sh("rm -rf '%s'", bt_dir) ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kernel_on_worker),  cmocka_unit_test(test_waits_for_worker),
	    cmocka_unit_test(test_exit_waits),        cmocka_unit_test(test_pid_reuse),
	    cmocka_unit_test(test_exec_counts_first), cmocka_unit_test(test_buffer_full),
	    cmocka_unit_test(test_final_flush),       cmocka_unit_test(test_dwarf_leaf),
	    cmocka_unit_test(test_rewait_bounded),    cmocka_unit_test(test_no_worker),
	    cmocka_unit_test(test_lost_by_source),
	};

	return bt_run_group("engine-defer", tests, ARRAY_SIZE(tests), NULL, 0, setup, teardown);
}
