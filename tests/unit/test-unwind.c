/* Unit tests for src/unwind.c: the chain workload (main -> chain_outer ->
 * chain_middle -> frameless chain_leaf, built -O2 -fomit-frame-pointer) is
 * sampled live with user registers and 8 KiB stack copies, then the saved
 * samples are unwound against its maps, whole, truncated and garbled. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "tracetop/record.h"
#include "tracetop/ring.h"
#include "tracetop/tasks.h"
#include "tracetop/unwind.h"
#include "tracetop/util.h"

#define SAMPLE_TYPE                                                                                \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_REGS_USER |             \
	 PERF_SAMPLE_STACK_USER)
#define NREGS ((size_t)__builtin_popcountll(UNWIND_REGS_MASK))
#define STACK_BYTES 8192
#define MAX_SAMPLES 600
#define SAMPLE_NS 3000000000ULL /* at most this long sampling */
#define MAX_FRAMES 64
#define CHAIN_DEPTH 4

/* One sample kept after its ring space is released. */
struct saved {
	uint64_t regs[32];
	size_t nregs;
	unsigned char *stack;
	size_t stack_size;
	uint64_t ip;
};

/* One sampled run of a workload and what the tests unwind. */
struct run {
	pid_t child;
	char dir[64];
	struct tasks *ts;
	struct task *task;
	struct saved samples[MAX_SAMPLES];
	size_t n;
	size_t leaf[MAX_SAMPLES]; /* indexes of samples taken in chain_leaf */
	size_t nleaf;
};

static struct run fx;     /* the PIE build, sampled once for most tests */
static struct unwind *uw; /* one unwinder for every run, as in the engine */

/* The chain's expected frames, leaf first. */
static const char *const chain[CHAIN_DEPTH] = {"chain_leaf", "chain_middle", "chain_outer", "main"};

/* The perf_event_attr of every sampling event here. */
static void
sample_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof *attr);
	attr->size = sizeof *attr;
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_CPU_CLOCK;
	attr->freq = 1;
	attr->sample_freq = 1000;
	attr->sample_type = SAMPLE_TYPE;
	attr->sample_regs_user = UNWIND_REGS_MASK;
	attr->sample_stack_user = STACK_BYTES;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* Open a cpu-clock sampling event on pid; the fd or -1 (errno set). */
static int
open_sampler(pid_t pid)
{
	struct perf_event_attr attr;

	sample_attr(&attr);
	return (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* The symbol name at ip in task t (and its DSO), as engine_resolve_user finds it. */
static const char *
name_at(struct task *t, uint64_t ip, struct dso **dso)
{
	const struct map *m = task_find_map(t, ip);
	const struct sym *s;

	if (dso != NULL)
		*dso = m != NULL ? m->dso : NULL;
	if (m == NULL || m->dso->kind != DSO_ELF)
		return NULL;
	s = dso_find_sym(m->dso, dso_offset_to_addr(m->dso, ip - m->start + m->pgoff));
	return s != NULL ? s->name : NULL;
}

/* Whether name is the expected string (NULL never is). */
static bool
name_is(const char *name, const char *want)
{
	return name != NULL && strcmp(name, want) == 0;
}

/* A saved sample as the unwinder's input. */
static struct unwind_sample
as_input(const struct saved *sv)
{
	return (struct unwind_sample){sv->regs, sv->nregs, sv->stack, sv->stack_size};
}

/* Start workload prog and wait (with a deadline) for its pid file. */
static int
start_chain(struct run *r, const char *prog)
{
	const char *builddir = getenv("TT_BUILDDIR");
	char path[4096], pidfile[128];
	uint64_t deadline = now_ns() + 10000000000ULL;

	snprintf(path, sizeof path, "%s/tests/workloads/%s", builddir ? builddir : ".", prog);
	snprintf(r->dir, sizeof r->dir, "/tmp/test-unwind.XXXXXX");
	if (mkdtemp(r->dir) == NULL)
		return -1;
	snprintf(pidfile, sizeof pidfile, "%s/pid", r->dir);
	r->child = fork();
	if (r->child < 0)
		return -1;
	if (r->child == 0) {
		setenv("CHAIN_PIDFILE", pidfile, 1);
		execl(path, "chain", "30", (char *)NULL);
		_exit(127);
	}
	while (access(pidfile, F_OK) != 0) {
		struct timespec ts = {0, 5000000};

		if (now_ns() > deadline || waitpid(r->child, NULL, WNOHANG) != 0) {
			fprintf(stderr, "# %s did not start\n", path);
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* Keep the user-mode samples of one ring pass. */
static void
drain(struct run *run, struct ring *r)
{
	const struct perf_event_header *h;
	struct record_sample rs;
	struct saved *sv;

	ring_begin(r);
	while ((h = ring_next(r)) != NULL && run->n < MAX_SAMPLES) {
		if (h->type != PERF_RECORD_SAMPLE ||
		    record_parse_sample(h, SAMPLE_TYPE, UNWIND_REGS_MASK, &rs) != 0 ||
		    rs.user_regs == NULL || rs.nr_regs != NREGS || rs.stack_size == 0 ||
		    rs.pid != (uint32_t)run->child)
			continue;
		sv = &run->samples[run->n++];
		memcpy(sv->regs, rs.user_regs, NREGS * sizeof *sv->regs);
		sv->nregs = NREGS;
		sv->stack_size = rs.stack_size;
		sv->stack = xmalloc(rs.stack_size);
		memcpy(sv->stack, rs.stack, rs.stack_size);
		sv->ip = rs.ip;
	}
	ring_end(r);
}

/* Sample the running workload until MAX_SAMPLES or the time limit. */
static int
sample_chain(struct run *run)
{
	uint64_t deadline = now_ns() + SAMPLE_NS;
	struct ring r;
	int fd = open_sampler(run->child);

	if (fd < 0 || ring_mmap(&r, fd, 8) != 0)
		return -1;
	while (run->n < MAX_SAMPLES && now_ns() < deadline) {
		struct timespec ts = {0, 20000000};

		nanosleep(&ts, NULL);
		drain(run, &r);
	}
	ring_unmap(&r);
	close(fd);
	return 0;
}

/* Stop a run's workload if it still runs. */
static void
run_stop(struct run *r)
{
	char path[128];

	if (r->child > 0) {
		kill(r->child, SIGKILL);
		waitpid(r->child, NULL, 0);
		r->child = 0;
	}
	snprintf(path, sizeof path, "%s/pid", r->dir);
	unlink(path);
	rmdir(r->dir);
}

/* Start, model and sample workload prog; note the samples in chain_leaf. */
static int
run_start(struct run *r, const char *prog)
{
	struct thread *th;
	int rc = -1;

	r->ts = tasks_new("/proc");
	if (start_chain(r, prog) != 0)
		goto out;
	th = tasks_thread(r->ts, r->child, r->child);
	if (th == NULL || th->proc->nmaps == 0 || sample_chain(r) != 0)
		goto out;
	r->task = th->proc;
	for (size_t i = 0; i < r->n; i++)
		if (name_is(name_at(r->task, r->samples[i].ip, NULL), "chain_leaf"))
			r->leaf[r->nleaf++] = i;
	printf("# %s: %zu samples, %zu in chain_leaf\n", prog, r->n, r->nleaf);
	rc = 0;
out:
	run_stop(r);
	return rc;
}

/* Free a run's samples and model. */
static void
run_free(struct run *r)
{
	run_stop(r);
	for (size_t i = 0; i < r->n; i++)
		free(r->samples[i].stack);
	r->n = r->nleaf = 0;
	tasks_free(r->ts);
	r->ts = NULL;
}

/* Sample the PIE build once for the tests. */
static int
setup(void **state)
{
	uw = unwind_new();
	return run_start(&fx, "chain");
}

/* Free everything. */
static int
teardown(void **state)
{
	run_free(&fx);
	unwind_free(uw);
	dso_cache_free();
	return 0;
}

/* Whether an unwound chain starts with the expected four frames (return
 * addresses resolved at ip - 1, inside their call instruction). */
static bool
chain_ok(struct task *t, const uint64_t *ips, size_t n)
{
	if (n < CHAIN_DEPTH)
		return false;
	for (size_t i = 0; i < CHAIN_DEPTH; i++)
		if (!name_is(name_at(t, ips[i] - (i > 0), NULL), chain[i]))
			return false;
	return true;
}

/* Unwind every chain_leaf sample of run r in task t; how many give the
 * full chain. */
static size_t
count_full_chains(const struct run *r, struct task *t)
{
	uint64_t ips[MAX_FRAMES];
	size_t ok = 0, n;

	for (size_t i = 0; i < r->nleaf; i++) {
		struct unwind_sample s = as_input(&r->samples[r->leaf[i]]);

		n = unwind_user(uw, t, &s, ips, MAX_FRAMES);
		assert_true(n >= 1 && n <= MAX_FRAMES);
		assert_int_equal(ips[0], r->samples[r->leaf[i]].ip);
		ok += chain_ok(t, ips, n);
	}
	return ok;
}

/* DWARF unwinding recovers leaf, middle, outer and main for >= 90 % of the
 * leaf samples; a second (cached) pass gives the same and is timed. */
static void
test_full_chain(void **state)
{
	uint64_t t0;
	size_t ok;

	assert_true(fx.nleaf >= 20);
	ok = count_full_chains(&fx, fx.task);
	printf("# full chain: %zu of %zu\n", ok, fx.nleaf);
	assert_true(ok * 10 >= fx.nleaf * 9);
	t0 = now_ns();
	assert_int_equal(count_full_chains(&fx, fx.task), ok);
	printf("# unwind_user, warm: %.2f us per sample\n",
	       (double)(now_ns() - t0) / 1000.0 / (double)fx.nleaf);
}

/* One step from the frameless leaf lands in chain_middle, the caller a
 * frame-pointer walk would skip. */
static void
test_leaf_return(void **state)
{
	size_t ok = 0;
	uint64_t ra;

	assert_true(fx.nleaf >= 20);
	for (size_t i = 0; i < fx.nleaf; i++) {
		struct unwind_sample s = as_input(&fx.samples[fx.leaf[i]]);

		ra = unwind_leaf_return(uw, fx.task, &s);
		ok += ra != 0 && name_is(name_at(fx.task, ra - 1, NULL), "chain_middle");
	}
	printf("# leaf return in chain_middle: %zu of %zu\n", ok, fx.nleaf);
	assert_true(ok * 10 >= fx.nleaf * 9);
}

/* Above main the chain goes on into libc (a shared library, unwound with
 * its own load bias) and ends by itself, well before MAX_FRAMES. */
static void
test_shared_library_frames(void **state)
{
	uint64_t ips[MAX_FRAMES];
	struct dso *exe, *lib;
	const char *name = NULL;
	size_t ok = 0, n;

	assert_true(fx.nleaf >= 20);
	for (size_t i = 0; i < fx.nleaf; i++) {
		struct unwind_sample s = as_input(&fx.samples[fx.leaf[i]]);

		n = unwind_user(uw, fx.task, &s, ips, MAX_FRAMES);
		if (!chain_ok(fx.task, ips, n) || n <= CHAIN_DEPTH || n >= MAX_FRAMES)
			continue;
		name_at(fx.task, ips[0], &exe);
		name = name_at(fx.task, ips[CHAIN_DEPTH] - 1, &lib);
		ok += lib != NULL && lib != exe && lib->kind == DSO_ELF;
	}
	printf("# main's caller in a shared library: %zu of %zu (%s)\n", ok, fx.nleaf,
	       name ? name : "?");
	assert_true(ok * 10 >= fx.nleaf * 9);
}

/* A stack copy cut to 64 bytes (or to nothing) stops quietly, leaf kept. */
static void
test_truncated_stack(void **state)
{
	static const size_t sizes[] = {64, 8, 0};
	uint64_t ips[MAX_FRAMES];
	size_t n;

	assert_true(fx.nleaf >= 1);
	for (size_t i = 0; i < fx.nleaf && i < 50; i++) {
		const struct saved *sv = &fx.samples[fx.leaf[i]];

		for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
			struct unwind_sample s = as_input(sv);

			s.stack_size = sizes[k];
			n = unwind_user(uw, fx.task, &s, ips, MAX_FRAMES);
			assert_true(n >= 1 && n <= MAX_FRAMES);
			assert_int_equal(ips[0], sv->ip);
			unwind_leaf_return(uw, fx.task, &s);
		}
	}
}

/* Next value of a xorshift generator. */
static uint64_t
xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Zero, missing and random registers give at most one frame or stop
 * quietly; nothing crashes. */
static void
test_garbage_regs(void **state)
{
	uint64_t regs[32] = {0}, ips[MAX_FRAMES], x = 0x9e3779b97f4a7c15ULL;
	unsigned char stack[256];
	struct unwind_sample s = {regs, NREGS, stack, sizeof stack};

	memset(stack, 0, sizeof stack);
	assert_true(unwind_user(uw, fx.task, &s, ips, MAX_FRAMES) <= 1);
	assert_int_equal(unwind_leaf_return(uw, fx.task, &s), 0);
	s.nregs = 3; /* too few to hold SP and IP */
	assert_int_equal(unwind_user(uw, fx.task, &s, ips, MAX_FRAMES), 0);
	s.regs = NULL;
	assert_int_equal(unwind_user(uw, fx.task, &s, ips, MAX_FRAMES), 0);
	assert_int_equal(unwind_user(uw, NULL, &s, ips, MAX_FRAMES), 0);
	s.regs = regs;
	s.nregs = NREGS;
	for (int round = 0; round < 2000; round++) {
		for (size_t i = 0; i < NREGS; i++)
			regs[i] = xorshift(&x);
		for (size_t i = 0; i < sizeof stack; i += 8)
			memcpy(stack + i, &(uint64_t){xorshift(&x)}, 8);
		/* Half the time a real code address, so the tables are used. */
		if (round & 1 && fx.nleaf > 0) {
			regs[UNWIND_PERF_REG_IP] = fx.samples[fx.leaf[0]].ip + (x & 0xff);
			memcpy(stack, &fx.samples[fx.leaf[0]].ip, 8);
		}
		assert_true(unwind_user(uw, fx.task, &s, ips, MAX_FRAMES) <= MAX_FRAMES);
		unwind_leaf_return(uw, fx.task, &s);
	}
	assert_int_equal(unwind_user(uw, fx.task, &s, ips, 0), 0);
}

/* Rules cached for one process's code are not used for another that maps
 * something else (here nothing) at the same address; the first process
 * unwinds fully again afterwards. */
static void
test_cache_owner(void **state)
{
	struct task empty = {.pid = 1};
	uint64_t ips[MAX_FRAMES];
	size_t n, stolen = 0;

	assert_true(fx.nleaf >= 20);
	count_full_chains(&fx, fx.task); /* warm the cache */
	for (size_t i = 0; i < fx.nleaf; i++) {
		struct unwind_sample s = as_input(&fx.samples[fx.leaf[i]]);

		n = unwind_user(uw, &empty, &s, ips, MAX_FRAMES);
		stolen += n >= 2 && ips[1] == 0; /* never a zero frame */
		stolen += chain_ok(fx.task, ips, n);
	}
	assert_int_equal(stolen, 0);
	assert_true(count_full_chains(&fx, fx.task) * 10 >= fx.nleaf * 9);
	unwind_flush(uw);
	assert_true(count_full_chains(&fx, fx.task) * 10 >= fx.nleaf * 9);
}

/* A non-PIE build (load bias 0, text at its link address) unwinds as
 * fully, with the same unwinder and its cache shared with the PIE run. */
static void
test_non_pie(void **state)
{
	static struct run np;
	size_t ok;

	assert_int_equal(run_start(&np, "chain-nopie"), 0);
	assert_true(np.nleaf >= 20);
	ok = count_full_chains(&np, np.task);
	printf("# non-PIE full chain: %zu of %zu\n", ok, np.nleaf);
	assert_true(ok * 10 >= np.nleaf * 9);
	assert_true(count_full_chains(&fx, fx.task) * 10 >= fx.nleaf * 9);
	run_free(&np);
}

/* A build whose rules are only in .debug_frame (no .eh_frame for its
 * code) unwinds as fully, by our rules alone (libunwind has no access to
 * .debug_frame through its remote tables). */
static void
test_debug_frame(void **state)
{
	static struct run dr;
	const struct unwind_stats *st = unwind_stats(uw);
	uint64_t slow0;
	size_t ok;

	assert_int_equal(run_start(&dr, "chain-dbgframe"), 0);
	assert_true(dr.nleaf >= 20);
	slow0 = st->slow_unwinds;
	ok = count_full_chains(&dr, dr.task);
	printf("# .debug_frame full chain: %zu of %zu\n", ok, dr.nleaf);
	assert_true(ok * 10 >= dr.nleaf * 9);
	assert_int_equal(st->slow_unwinds, slow0);
	run_free(&dr);
}

/* Our rules and libunwind alone give the same frames for every sample
 * (leaf or not); the chain's samples never need libunwind. */
static void
test_fast_matches_libunwind(void **state)
{
	uint64_t fast[MAX_FRAMES], slow[MAX_FRAMES];
	const struct unwind_stats *st = unwind_stats(uw);
	uint64_t slow0, steps0;
	size_t nf, ns, same = 0;

	assert_true(fx.n >= 20);
	for (size_t i = 0; i < fx.n; i++) {
		struct unwind_sample s = as_input(&fx.samples[i]);

		nf = unwind_user(uw, fx.task, &s, fast, MAX_FRAMES);
		unwind_set_fast(uw, false);
		ns = unwind_user(uw, fx.task, &s, slow, MAX_FRAMES);
		unwind_set_fast(uw, true);
		if (nf == ns && memcmp(fast, slow, nf * sizeof *fast) == 0) {
			same++;
			continue;
		}
		/* Say where they part, so a rare disagreement can be looked up. */
		printf("# sample %zu at ip %#" PRIx64 ": fast %zu frames, libunwind %zu\n", i,
		       fx.samples[i].ip, nf, ns);
		for (size_t k = 0; k < nf || k < ns; k++)
			printf("#   %zu: %#" PRIx64 " %#" PRIx64 "\n", k, k < nf ? fast[k] : 0,
			       k < ns ? slow[k] : 0);
	}
	printf("# same frames from both unwinders: %zu of %zu samples\n", same, fx.n);
	/* One sample in 600 differed once in a CI run and never in 60 runs here;
	 * the frames printed above say where, until that case is understood. */
	assert_true(same * 200 >= fx.n * 199);
	slow0 = st->slow_unwinds;
	steps0 = st->fast_steps;
	assert_true(count_full_chains(&fx, fx.task) * 10 >= fx.nleaf * 9);
	assert_int_equal(st->slow_unwinds, slow0);
	assert_true(st->fast_steps - steps0 >= fx.nleaf * (CHAIN_DEPTH - 1));
}

/* Run the tests; skip them all (saying why) if sampling is impossible. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_full_chain),
	    cmocka_unit_test(test_leaf_return),
	    cmocka_unit_test(test_shared_library_frames),
	    cmocka_unit_test(test_truncated_stack),
	    cmocka_unit_test(test_garbage_regs),
	    cmocka_unit_test(test_cache_owner),
	    cmocka_unit_test(test_non_pie),
	    cmocka_unit_test(test_fast_matches_libunwind),
	    cmocka_unit_test(test_debug_frame),
	};
	int fd = open_sampler(0);

	if (fd < 0) {
		printf("1..0 # SKIP perf_event_open(cpu-clock, regs and stack copies) on self: %s "
		       "(check /proc/sys/kernel/perf_event_paranoid)\n",
		       strerror(errno));
		return 0;
	}
	close(fd);
	return cmocka_run_group_tests(tests, setup, teardown);
}
