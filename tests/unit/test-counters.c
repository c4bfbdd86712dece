/* Unit tests for counters: the arithmetic (deltas and wraps, scaling by
 * running/enabled, per-thread per-CPU scaling, rates, shares), the history
 * ring, derived metrics, the busiest-process choice, /proc parsing on a
 * fake proc root, and live counting of this process (page faults known,
 * unsupported events as rows, per-CPU sums, the fd limit, a child that
 * exits mid-run, adding and removing events). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/cgroup.h"
#include "tracetop/counters-proc.h"
#include "tracetop/counters.h"
#include "tracetop/evspec.h"
#include "tracetop/util.h"

/* Pages the live tests touch. */
#define TOUCH_PAGES 256
/* Faults besides the touched pages a live test may see (code, stack). */
#define FAULT_SLACK 40

/* Whether two doubles agree to a relative 1e-9. */
static bool
near(double a, double b)
{
	double d = a > b ? a - b : b - a, m = a > b ? a : b;

	return d <= 1e-9 * (m > 1 ? m : 1);
}

/* Forward progress, a wrap past 2^64, and a counter going backwards. */
static void
test_delta(void **state)
{
	assert_int_equal(counters_delta(10, 25), 15);
	assert_int_equal(counters_delta(7, 7), 0);
	assert_int_equal(counters_delta(UINT64_MAX - 5, 10), 16);
	assert_int_equal(counters_delta(UINT64_MAX, 0), 1);
	assert_int_equal(counters_delta(1000, 10), 0);
	assert_int_equal(counters_delta(UINT64_MAX, 5), 6);
}

/* One reading's count and times, and what scaling makes of them. */
struct scale_case {
	uint64_t value, enabled, running;
	double scaled, share;
};

/* value * enabled / running, exact without multiplexing, 0 when never run;
 * the share running / enabled, 1 when nothing was enabled. */
static void
test_scale(void **state)
{
	static const struct scale_case cases[] = {
	    {1000, 500, 500, 1000, 1},
	    {1000, 1000, 500, 2000, 0.5},
	    {300, 1000, 250, 1200, 0.25},
	    {1000, 100, 0, 0, 0},
	    {0, 0, 0, 0, 1},
	    {5, 0, 0, 5, 1},
	    {1000, 400, 500, 1000, 1}, /* running > enabled: no scaling */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct scale_case *c = &cases[i];

		if (counters_scale(c->value, c->enabled, c->running) != c->scaled ||
		    counters_share(c->enabled, c->running) != c->share)
			fail_msg("case %zu: scaled %g share %g", i,
			         counters_scale(c->value, c->enabled, c->running),
			         counters_share(c->enabled, c->running));
	}
	/* no overflow: 2^62 * 3e9 does not fit 64 bits */
	assert_true(near(counters_scale(1ULL << 62, 3000000000ULL, 1000000000ULL),
	                 3.0 * (double)(1ULL << 62)));
}

/* An interval between two readings: deltas, then the scaled count. */
static void
test_interval(void **state)
{
	struct counters_reading a = {100, 1000, 1000}, b = {600, 3000, 2000};
	struct counters_reading reset = {5, 10, 10};
	struct counters_interval iv;

	counters_interval(&a, &b, &iv);
	assert_int_equal(iv.delta, 500);
	assert_int_equal(iv.enabled, 2000);
	assert_int_equal(iv.running, 1000);
	assert_true(iv.value == 1000.0);
	/* a reading that went backwards counts nothing */
	counters_interval(&b, &reset, &iv);
	assert_true(iv.value == 0.0);
	assert_int_equal(iv.enabled + iv.running + iv.delta, 0);
	/* first reading of a new fd: from zero */
	memset(&a, 0, sizeof a);
	counters_interval(&a, &b, &iv);
	assert_true(iv.value == 900.0);
}

/* A thread's per-CPU fds scale together: no multiplexing leaves them as
 * read, half the time on the PMU doubles them, and never inflates one
 * CPU's count by the time the thread spent on another. */
static void
test_scale_thread(void **state)
{
	struct counters_interval iv[3] = {
	    {.delta = 100, .enabled = 1000, .running = 600},
	    {.delta = 80, .enabled = 1000, .running = 400},
	    {.delta = 0, .enabled = 1000, .running = 0},
	};

	counters_scale_thread(iv, 3);
	assert_true(iv[0].value == 100.0 && iv[1].value == 80.0 && iv[2].value == 0.0);
	assert_int_equal(iv[0].running, 1000);
	assert_true(counters_share(iv[1].enabled, iv[1].running) == 1.0);
	iv[0] = (struct counters_interval){.delta = 100, .enabled = 1000, .running = 300};
	iv[1] = (struct counters_interval){.delta = 80, .enabled = 1000, .running = 200};
	counters_scale_thread(iv, 2);
	assert_true(iv[0].value == 200.0 && iv[1].value == 160.0);
	assert_true(counters_share(iv[0].enabled, iv[0].running) == 0.5);
	/* a thread that did not run: nothing, share 1 */
	memset(iv, 0, sizeof iv);
	counters_scale_thread(iv, 2);
	assert_true(iv[0].value == 0.0 && counters_share(iv[0].enabled, iv[0].running) == 1.0);
}

/* Per second of wall time; an empty interval has no rate. */
static void
test_rate(void **state)
{
	assert_true(counters_rate(100, 0.5) == 200.0);
	assert_true(counters_rate(3, 2.0) == 1.5);
	assert_true(counters_rate(100, 0) == 0.0);
	assert_true(counters_rate(0, 1.0) == 0.0);
}

/* The ring keeps the last COUNTERS_HISTORY values, oldest first. */
static void
test_ring(void **state)
{
	struct counters_ring r;
	double out[COUNTERS_HISTORY];
	size_t n;

	counters_ring_clear(&r);
	assert_int_equal(counters_ring_copy(&r, out), 0);
	counters_ring_push(&r, 1);
	counters_ring_push(&r, 2);
	n = counters_ring_copy(&r, out);
	assert_int_equal(n, 2);
	assert_true(out[0] == 1 && out[1] == 2);
	assert_true(counters_ring_get(&r, 0) == 2 && counters_ring_get(&r, 1) == 1);
	for (int i = 3; i <= COUNTERS_HISTORY + 8; i++)
		counters_ring_push(&r, i);
	n = counters_ring_copy(&r, out);
	assert_int_equal(n, COUNTERS_HISTORY);
	for (size_t i = 0; i < n; i++)
		assert_true(out[i] == (double)(i + 9));
	assert_true(counters_ring_get(&r, 0) == COUNTERS_HISTORY + 8);
	assert_true(counters_ring_get(&r, COUNTERS_HISTORY - 1) == 9);
}

/* attr of a parsed event name. */
static struct perf_event_attr
attr_of(const char *name)
{
	struct evspec s;
	struct tt_err err;

	if (evspec_parse(name, &s, &err) != 0)
		fail_msg("%s: %s", name, err.msg);
	return s.attr;
}

/* Metric inputs by event, whatever it was called, and their arithmetic. */
static void
test_metrics(void **state)
{
	struct perf_event_attr ins = attr_of("instructions"), cyc = attr_of("cpu-cycles");
	struct perf_event_attr tc = attr_of("task-clock"), bm = attr_of("branch-misses");
	struct perf_event_attr br = attr_of("branch-instructions"), cm = attr_of("cache-misses");
	struct perf_event_attr cr = attr_of("cache-references"), pf = attr_of("page-faults");
	struct perf_event_attr ck = attr_of("cpu-clock");

	assert_true(counters_metric_input(COUNTERS_METRIC_IPC, &ins, false));
	assert_true(counters_metric_input(COUNTERS_METRIC_IPC, &cyc, true));
	assert_false(counters_metric_input(COUNTERS_METRIC_IPC, &cyc, false));
	assert_true(counters_metric_input(COUNTERS_METRIC_BRANCH_MISS, &bm, false));
	assert_true(counters_metric_input(COUNTERS_METRIC_BRANCH_MISS, &br, true));
	assert_true(counters_metric_input(COUNTERS_METRIC_CACHE_MISS, &cm, false));
	assert_true(counters_metric_input(COUNTERS_METRIC_CACHE_MISS, &cr, true));
	assert_true(counters_metric_input(COUNTERS_METRIC_CPU_UTIL, &tc, false));
	assert_true(counters_metric_input(COUNTERS_METRIC_CPU_UTIL, &ck, false));
	for (int m = 0; m < COUNTERS_NMETRICS; m++) {
		assert_false(counters_metric_input(m, &pf, false));
		assert_false(counters_metric_input(m, &pf, true));
		assert_non_null(counters_metric_name(m));
		assert_non_null(counters_metric_note(m));
		assert_int_equal(counters_metric_per_wall(m), m == COUNTERS_METRIC_CPU_UTIL);
	}
	assert_true(counters_metric_value(COUNTERS_METRIC_IPC, 2000, 1000) == 2.0);
	assert_true(counters_metric_value(COUNTERS_METRIC_BRANCH_MISS, 5, 100) == 5.0);
	assert_true(counters_metric_value(COUNTERS_METRIC_CACHE_MISS, 1, 4) == 25.0);
	assert_true(near(counters_metric_value(COUNTERS_METRIC_CPU_UTIL, 2e9, 1.0), 2.0));
	assert_true(counters_metric_value(COUNTERS_METRIC_IPC, 5, 0) == 0.0);
	assert_true(counters_metric_percent(COUNTERS_METRIC_BRANCH_MISS));
	assert_false(counters_metric_percent(COUNTERS_METRIC_IPC));
	assert_string_equal(counters_metric_name(COUNTERS_METRIC_CPU_UTIL), "CPUs utilized");
}

/* Busiest first, ties to those already counted, idle ones only if counted. */
static void
test_pick_busiest(void **state)
{
	struct counters_cand c[] = {
	    {10, 5, false}, {11, 50, false}, {12, 0, true},
	    {13, 0, false}, {14, 5, true},   {15, 7, false},
	};
	size_t k = counters_pick_busiest(c, ARRAY_SIZE(c), 3);

	assert_int_equal(k, 3);
	assert_int_equal(c[0].pid, 11);
	assert_int_equal(c[1].pid, 15);
	assert_int_equal(c[2].pid, 14);
	assert_int_equal(c[3].pid, 10);
	k = counters_pick_busiest(c, ARRAY_SIZE(c), 16);
	assert_int_equal(k, 5); /* 13 did nothing and is not counted */
	assert_int_equal(c[4].pid, 12);
	assert_int_equal(counters_pick_busiest(c, 0, 4), 0);
}

/* Scope names both ways. */
static void
test_scope_names(void **state)
{
	for (int s = 0; s < COUNTERS_NSCOPES; s++)
		assert_int_equal(counters_scope_parse(counters_scope_name(s)), s);
	assert_string_equal(counters_scope_name(COUNTERS_PROCESS), "process");
	assert_int_equal(counters_scope_parse("cpus"), -1);
	assert_int_equal(counters_scope_parse(""), -1);
}

static char proc_root[64];

/* Write ROOT/pid/stat with the given comm, state and CPU ticks (and a
 * task/ directory with tid pid). */
static void
fake_proc(int pid, const char *comm, char state, unsigned long ut, unsigned long st)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/%d", proc_root, pid);
	assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
	snprintf(path, sizeof path, "%s/%d/task", proc_root, pid);
	assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
	snprintf(path, sizeof path, "%s/%d/task/%d", proc_root, pid, pid);
	assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
	snprintf(path, sizeof path, "%s/%d/stat", proc_root, pid);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%d (%s) %c 1 %d %d 0 -1 4194560 100 0 0 0 %lu %lu 0 0 20 0 1 0 5 0 0\n", pid,
	        comm, state, pid, pid, ut, st);
	fclose(f);
}

/* Make an empty fake proc root. */
static int
proc_setup(void **state)
{
	snprintf(proc_root, sizeof proc_root, "/tmp/tt-counters.XXXXXX");
	return mkdtemp(proc_root) == NULL ? -1 : 0;
}

/* Remove the fake proc root. */
static int
proc_teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", proc_root);
	return system(cmd) == 0 ? 0 : -1;
}

/* /proc/PID/stat: commands with spaces and parentheses, states, ticks. */
static void
test_proc_stat(void **state)
{
	struct counters_pstat ps;
	struct counters_ints ints = {0};
	char path[PATH_MAX];

	fake_proc(100, "a) (b c", 'S', 7, 3);
	fake_proc(101, "zed", 'Z', 1, 1);
	assert_int_equal(counters_proc_stat(proc_root, 100, &ps), 0);
	assert_string_equal(ps.comm, "a) (b c");
	assert_int_equal(ps.state, 'S');
	assert_int_equal(ps.cputime, 10);
	assert_int_equal(counters_proc_stat(proc_root, 101, &ps), 0);
	assert_true(counters_proc_exited(ps.state));
	assert_false(counters_proc_exited('R'));
	assert_int_equal(counters_proc_stat(proc_root, 999, &ps), -1);
	snprintf(path, sizeof path, "%s/102", proc_root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/102/stat", proc_root);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("102 (trunc", f); /* no closing parenthesis */
	fclose(f);
	assert_int_equal(counters_proc_stat(proc_root, 102, &ps), -1);
	snprintf(path, sizeof path, "%s/self-not-a-pid", proc_root);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(counters_proc_ints(proc_root, &ints), 0);
	assert_int_equal(ints.n, 3);
	assert_true(ints.v[0] == 100 && ints.v[1] == 101 && ints.v[2] == 102);
	snprintf(path, sizeof path, "%s/nowhere", proc_root);
	assert_int_equal(counters_proc_ints(path, &ints), -1);
	free(ints.v);
}

/* Two scans: the first scores by lifetime CPU, the next by the delta;
 * zombies and malformed entries are no candidates. */
static void
test_scan(void **state)
{
	struct counters_scan s = {.root = proc_root};
	size_t n, i;

	fake_proc(200, "busy", 'R', 100, 0);
	fake_proc(201, "idle", 'S', 50, 0);
	fake_proc(202, "gone", 'Z', 10, 0);
	n = counters_scan_procs(&s);
	assert_int_equal(n, 2); /* not the zombie */
	for (i = 0; i < n && s.cands[i].pid != 200; i++)
		;
	assert_true(i < n && s.cands[i].score == 100);
	fake_proc(200, "busy", 'R', 130, 5);
	fake_proc(203, "new", 'R', 4, 0);
	n = counters_scan_procs(&s);
	for (i = 0; i < n; i++) {
		if (s.cands[i].pid == 200)
			assert_int_equal(s.cands[i].score, 35);
		if (s.cands[i].pid == 201)
			assert_int_equal(s.cands[i].score, 0);
		if (s.cands[i].pid == 203)
			assert_int_equal(s.cands[i].score, 4);
		assert_int_not_equal(s.cands[i].pid, 202);
	}
	assert_non_null(counters_scan_find(&s, 203));
	assert_string_equal(counters_scan_find(&s, 203)->comm, "new");
	assert_null(counters_scan_find(&s, 202));
	counters_scan_free(&s);
}

/* Whether perf events can count this process (else the live tests skip). */
static bool
can_count(void)
{
	return evspec_probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK) == 0;
}

/* The row of event in snap (scope key scope, or any), or NULL. */
static const struct counters_row *
row_of(const struct counters_snapshot *snap, const char *event, const char *scope)
{
	for (size_t i = 0; i < snap->n; i++)
		if (strcmp(snap->rows[i].event, event) == 0 &&
		    (scope == NULL || strcmp(snap->rows[i].scope, scope) == 0))
			return &snap->rows[i];
	return NULL;
}

/* Write once to each of n fresh pages. */
static void
touch(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *p =
	    mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	madvise((void *)p, n * page, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < n; i++)
		p[i * page] = 1;
	munmap((void *)p, n * page);
}

/* Counting this thread: known page faults, the clock metric, unsupported
 * events as rows with a reason, and no IPC without cycles. */
static void
test_live_self(void **state)
{
	const char *events[] = {"page-faults", "cycles", "task-clock", "context-switches"};
	int tid = (int)syscall(SYS_gettid);
	struct counters_opts o = {
	    .events = events, .nevents = ARRAY_SIZE(events), .tids = &tid, .ntids = 1};
	struct counters_snapshot snap = {0};
	const struct counters_row *r;
	bool pmu = evspec_probe(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES) == 0;
	struct tt_err err;
	struct counters *c;

	if (!can_count())
		skip();
	assert_non_null(c = counters_new(&o, &err));
	counters_tick(c);
	touch(TOUCH_PAGES);
	counters_tick(c);
	counters_snapshot(c, COUNTERS_TOTAL, &snap);
	assert_int_equal(snap.scope, COUNTERS_TOTAL);
	assert_non_null(r = row_of(&snap, "page-faults", "total"));
	assert_true(r->supported && !r->metric && r->reason == NULL);
	assert_true(r->value >= TOUCH_PAGES && r->value <= TOUCH_PAGES + FAULT_SLACK);
	assert_true(r->total >= r->value);
	assert_true(r->share == 1.0);
	assert_true(near(r->rate, r->value / snap.interval));
	assert_int_equal(r->nhist, 2);
	assert_true(r->history[1] == r->value);
	assert_non_null(r = row_of(&snap, "cycles", NULL));
	assert_int_equal(r->event_idx, 1);
	if (!pmu) {
		assert_false(r->supported);
		assert_true(r->value == 0 && r->total == 0 && r->nhist == 0);
		assert_string_equal(r->reason, "not supported: no hardware PMU on this machine");
		assert_null(row_of(&snap, "IPC", NULL));
	} else {
		print_message("# this machine has a PMU: the unsupported-row checks are skipped\n");
	}
	assert_non_null(r = row_of(&snap, "task-clock", NULL));
	assert_true(r->nsec && r->value > 0);
	assert_non_null(r = row_of(&snap, "CPUs utilized", NULL));
	assert_true(r->metric && r->supported && r->event_idx == 2);
	assert_true(r->value > 0 && r->value <= 1.05);
	assert_string_equal(r->note, "CPUs utilized");
	assert_null(row_of(&snap, "branch-miss %", NULL));
	assert_null(counters_notice(c));
	counters_snapshot_free(&snap);
	counters_free(c);
}

/* counters_add and counters_remove: bad names, duplicates, unsupported
 * events added as rows, and removal keeping the others' counts. */
static void
test_live_add_remove(void **state)
{
	const char *events[] = {"task-clock"};
	int pid = getpid();
	struct counters_opts o = {.events = events, .nevents = 1, .pids = &pid, .npids = 1};
	struct counters_snapshot snap = {0};
	const struct counters_row *r;
	struct tt_err err;
	struct counters *c;

	if (!can_count())
		skip();
	assert_non_null(c = counters_new(&o, &err));
	assert_int_equal(counters_add(c, "page-fautls", &err), -1);
	assert_non_null(strstr(err.msg, "page-faults")); /* the suggestion */
	assert_int_equal(counters_add(c, "task-clock", &err), -1);
	assert_non_null(strstr(err.msg, "already"));
	assert_int_equal(counters_add(c, "minor-faults", &err), 0);
	assert_int_equal(counters_add(c, "ref-cycles", &err), 0);
	assert_int_equal(counters_nevents(c), 3);
	assert_string_equal(counters_event_name(c, 1), "minor-faults");
	counters_tick(c);
	touch(TOUCH_PAGES);
	counters_tick(c);
	counters_snapshot(c, COUNTERS_TOTAL, &snap);
	assert_non_null(r = row_of(&snap, "minor-faults", NULL));
	assert_true(r->supported && r->value >= TOUCH_PAGES);
	assert_int_equal(counters_remove(c, 0), 0);
	assert_int_equal(counters_remove(c, 5), -1);
	assert_int_equal(counters_nevents(c), 2);
	counters_tick(c);
	touch(TOUCH_PAGES);
	counters_tick(c);
	counters_snapshot(c, COUNTERS_TOTAL, &snap);
	assert_null(row_of(&snap, "task-clock", NULL));
	assert_null(row_of(&snap, "CPUs utilized", NULL));
	assert_non_null(r = row_of(&snap, "minor-faults", NULL));
	assert_int_equal(r->event_idx, 0);
	assert_true(r->value >= TOUCH_PAGES && r->total >= 2 * TOUCH_PAGES);
	assert_non_null(row_of(&snap, "ref-cycles", NULL));
	counters_snapshot_free(&snap);
	counters_free(c);
}

/* System-wide: the CPUs add up to the total, exactly, for every event. */
static void
test_live_cpu_sum(void **state)
{
	const char *events[] = {"task-clock", "context-switches", "page-faults"};
	struct counters_opts o = {.events = events, .nevents = 3};
	struct counters_snapshot tot = {0}, cpu = {0};
	struct tt_err err;
	struct counters *c = NULL;

	if (!can_count() || (c = counters_new(&o, &err)) == NULL) {
		print_message("# system-wide counting refused: %s\n", c ? "" : err.msg);
		skip();
	}
	assert_true(counters_scope_available(c, COUNTERS_CPU));
	counters_tick(c);
	touch(TOUCH_PAGES);
	usleep(20000);
	counters_tick(c);
	counters_snapshot(c, COUNTERS_TOTAL, &tot);
	counters_snapshot(c, COUNTERS_CPU, &cpu);
	for (size_t i = 0; i < tot.n; i++) {
		double sum = 0, hsum = 0;
		size_t k = 0;

		for (size_t j = 0; j < cpu.n; j++)
			if (strcmp(cpu.rows[j].event, tot.rows[i].event) == 0) {
				sum += cpu.rows[j].value;
				hsum += cpu.rows[j].history[0];
				k++;
			}
		assert_true(k >= 1);
		if (tot.rows[i].metric)
			continue;
		assert_true(near(sum, tot.rows[i].value));
		assert_true(near(hsum, tot.rows[i].history[0]));
	}
	assert_true(row_of(&tot, "page-faults", NULL)->value >= TOUCH_PAGES);
	assert_string_equal(cpu.rows[0].scope, "cpu0");
	assert_int_equal(cpu.rows[0].cpu, 0);
	counters_snapshot_free(&tot);
	counters_snapshot_free(&cpu);
	counters_free(c);
}

/* System-wide, a CPU's software events but its clock are one group read
 * at once, and stay so as events are removed and added. */
static void
test_live_cpu_group(void **state)
{
	const char *events[] = {"task-clock", "context-switches", "page-faults"};
	struct counters_opts o = {.events = events, .nevents = 3};
	struct counters_snapshot tot = {0};
	const struct counters_row *r;
	struct tt_err err;
	struct counters *c = NULL;
	unsigned ncpus;

	if (!can_count() || (c = counters_new(&o, &err)) == NULL) {
		print_message("# system-wide counting refused: %s\n", c ? "" : err.msg);
		skip();
	}
	counters_tick(c);
	counters_snapshot(c, COUNTERS_CPU, &tot);
	ncpus = 0;
	for (size_t i = 0; i < tot.n; i++)
		ncpus += strcmp(tot.rows[i].event, "page-faults") == 0;
	assert_true(ncpus >= 1);
	assert_int_equal(counters_last_reads(c), 2 * ncpus);
	touch(TOUCH_PAGES);
	usleep(20000);
	counters_tick(c);
	counters_snapshot(c, COUNTERS_TOTAL, &tot);
	assert_true(row_of(&tot, "page-faults", NULL)->value >= TOUCH_PAGES);
	assert_true(row_of(&tot, "task-clock", NULL)->value > 0);
	assert_true(row_of(&tot, "context-switches", NULL)->value > 0);
	assert_int_equal(counters_remove(c, 0), 0);
	counters_tick(c);
	assert_int_equal(counters_last_reads(c), ncpus);
	touch(TOUCH_PAGES);
	counters_tick(c);
	counters_snapshot(c, COUNTERS_TOTAL, &tot);
	assert_non_null(r = row_of(&tot, "page-faults", NULL));
	assert_true(r->value >= TOUCH_PAGES && r->value < 100 * TOUCH_PAGES);
	assert_non_null(row_of(&tot, "context-switches", NULL));
	assert_int_equal(counters_add(c, "minor-faults", &err), 0);
	counters_tick(c);
	touch(TOUCH_PAGES);
	counters_tick(c);
	assert_int_equal(counters_last_reads(c), ncpus);
	counters_snapshot(c, COUNTERS_TOTAL, &tot);
	assert_true(row_of(&tot, "minor-faults", NULL)->value >= TOUCH_PAGES);
	assert_true(row_of(&tot, "page-faults", NULL)->value >= TOUCH_PAGES);
	counters_snapshot_free(&tot);
	counters_free(c);
}

/* A tiny fd budget: no per-CPU fds, then no thread at all; never fatal. */
static void
test_live_fd_limit(void **state)
{
	const char *events[] = {"task-clock", "page-faults"};
	int tid = (int)syscall(SYS_gettid);
	struct counters_opts o = {
	    .events = events, .nevents = 2, .tids = &tid, .ntids = 1, .max_fds = 2};
	struct counters_snapshot snap = {0};
	struct tt_err err;
	struct counters *c;

	if (!can_count())
		skip();
	assert_non_null(c = counters_new(&o, &err));
	assert_false(counters_scope_available(c, COUNTERS_CPU));
	assert_non_null(counters_notice(c));
	assert_non_null(strstr(counters_notice(c), "no CPU scope"));
	counters_tick(c);
	counters_snapshot(c, COUNTERS_CPU, &snap);
	assert_int_equal(snap.n, 0);
	counters_snapshot(c, COUNTERS_TOTAL, &snap);
	assert_true(snap.n >= 2 && snap.rows[0].supported);
	assert_int_equal(counters_add(c, "minor-faults", &err), -1);
	assert_non_null(strstr(err.msg, "ulimit -n"));
	assert_int_equal(counters_nevents(c), 2);
	counters_free(c);
	o.max_fds = 1;
	assert_non_null(c = counters_new(&o, &err));
	assert_non_null(strstr(counters_notice(c), "counting 0 of 1 threads"));
	counters_snapshot_free(&snap);
	counters_free(c);
}

/* A child that exits mid-run: its final counts stay, marked exited, for
 * COUNTERS_EXIT_TICKS refreshes. */
static void
test_live_exit(void **state)
{
	const char *events[] = {"page-faults"};
	struct counters_snapshot snap = {0};
	const struct counters_row *r;
	struct counters_opts o = {.events = events, .nevents = 1, .npids = 1};
	struct tt_err err;
	struct counters *c;
	int go[2], child;
	char b;

	if (!can_count())
		skip();
	assert_int_equal(pipe(go), 0);
	if ((child = fork()) == 0) {
		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(1);
		touch(TOUCH_PAGES);
		_exit(0);
	}
	close(go[0]);
	o.pids = &child;
	o.scope = COUNTERS_PROCESS;
	assert_non_null(c = counters_new(&o, &err));
	counters_tick(c);
	counters_snapshot(c, COUNTERS_PROCESS, &snap);
	assert_non_null(r = row_of(&snap, "page-faults", NULL));
	assert_int_equal(r->pid, child);
	assert_false(r->exited);
	/* the child is in our cgroup, read when it was first counted */
	assert_ptr_equal(r->cgroup, cgroup_of_pid("/proc", getpid()));
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(waitpid(child, NULL, 0), child);
	counters_tick(c);
	counters_snapshot(c, COUNTERS_PROCESS, &snap);
	assert_non_null(r = row_of(&snap, "page-faults", NULL));
	assert_true(r->exited);
	assert_true(r->total >= TOUCH_PAGES && r->total <= TOUCH_PAGES + FAULT_SLACK);
	for (int i = 1; i < COUNTERS_EXIT_TICKS; i++) {
		counters_tick(c);
		counters_snapshot(c, COUNTERS_PROCESS, &snap);
		assert_non_null(r = row_of(&snap, "page-faults", NULL));
		assert_true(r->exited && r->value == 0);
	}
	counters_tick(c);
	counters_snapshot(c, COUNTERS_PROCESS, &snap);
	assert_int_equal(snap.n, 0);
	/* the total keeps counting what it did */
	counters_snapshot(c, COUNTERS_TOTAL, &snap);
	assert_true(row_of(&snap, "page-faults", NULL)->total >= TOUCH_PAGES);
	close(go[1]);
	counters_snapshot_free(&snap);
	counters_free(c);
}

/* Missing processes and bad names fail with a message, not a crash. */
static void
test_errors(void **state)
{
	const char *bad[] = {"page-faults", "nosuchevent"};
	int nopid = INT_MAX;
	struct counters_opts o = {.events = bad, .nevents = 2};
	struct tt_err err;

	assert_null(counters_new(&o, &err));
	assert_non_null(strstr(err.msg, "nosuchevent"));
	if (!can_count())
		skip();
	o.nevents = 1;
	o.pids = &nopid;
	o.npids = 1;
	assert_null(counters_new(&o, &err));
	assert_non_null(strstr(err.msg, "no such process"));
	counters_free(NULL);
}

/* Write a fixture /proc/stat for cpus[0..n): each CPU busy for busy
 * ticks (user) and idle for idle ticks. */
static void
fake_stat(const int *cpus, size_t n, unsigned busy, unsigned idle)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/stat", proc_root);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "cpu  %zu 0 0 %zu 0 0 0 0 0 0\n", n * busy, n * idle);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "cpu%d %u 0 0 %u 0 0 0 0 0 0\n", cpus[i], busy, idle);
	fputs("ctxt 1\nprocesses 1\n", f);
	fclose(f);
}

/* Without a target, CPUs utilized is the busy time of /proc/stat, not
 * task-clock per CPU, which runs in the idle task too: on an idle machine
 * (a fixture /proc/stat that says so) it reads near 0, not one per CPU. */
static void
test_live_busy(void **state)
{
	const char *events[] = {"task-clock"};
	struct counters_opts o = {.events = events, .nevents = 1, .proc_root = proc_root};
	struct counters_snapshot tot = {0}, cpu = {0};
	const struct counters_row *r, *tc;
	struct tt_err err;
	struct counters *c = NULL;
	double hz = (double)sysconf(_SC_CLK_TCK);
	int *cpus;
	size_t n;

	assert_int_equal(online_cpus(&cpus, &n, &err), 0);
	fake_stat(cpus, n, 0, 0);
	if (!can_count() || (c = counters_new(&o, &err)) == NULL) {
		print_message("# system-wide counting refused: %s\n", c ? "" : err.msg);
		free(cpus);
		skip();
	}
	usleep(200000);
	fake_stat(cpus, n, 1, 19); /* 5 % busy */
	counters_tick(c);
	counters_snapshot(c, COUNTERS_TOTAL, &tot);
	assert_non_null(tc = row_of(&tot, "task-clock", "total"));
	assert_true(tc->value / 1e9 / tot.interval > 0.9 * (double)n); /* the idle time too */
	assert_non_null(r = row_of(&tot, "CPUs utilized", "total"));
	assert_true(r->supported && r->metric);
	assert_true(r->value <= 0.2);
	assert_true(near(r->value, (double)n / hz / tot.interval));
	assert_int_equal(r->nhist, 1);
	counters_snapshot(c, COUNTERS_CPU, &cpu);
	for (size_t i = 0; i < n; i++) {
		char scope[32];

		snprintf(scope, sizeof scope, "cpu%d", cpus[i]);
		assert_non_null(r = row_of(&cpu, "CPUs utilized", scope));
		assert_true(near(r->value, 1 / hz / cpu.interval));
	}
	counters_free(c);
	/* no /proc/stat: the row says why, never a 0 */
	o.proc_root = "/nonexistent";
	assert_non_null(c = counters_new(&o, &err));
	usleep(10000);
	counters_tick(c);
	counters_snapshot(c, COUNTERS_TOTAL, &tot);
	assert_non_null(r = row_of(&tot, "CPUs utilized", "total"));
	assert_false(r->supported);
	assert_non_null(strstr(r->reason, "busy time of /nonexistent/stat: No such file"));
	assert_non_null(row_of(&tot, "task-clock", "total"));
	counters_snapshot_free(&tot);
	counters_snapshot_free(&cpu);
	counters_free(c);
	free(cpus);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_delta),
	    cmocka_unit_test(test_scale),
	    cmocka_unit_test(test_interval),
	    cmocka_unit_test(test_scale_thread),
	    cmocka_unit_test(test_rate),
	    cmocka_unit_test(test_ring),
	    cmocka_unit_test(test_metrics),
	    cmocka_unit_test(test_pick_busiest),
	    cmocka_unit_test(test_scope_names),
	    cmocka_unit_test_setup_teardown(test_proc_stat, proc_setup, proc_teardown),
	    cmocka_unit_test_setup_teardown(test_scan, proc_setup, proc_teardown),
	    cmocka_unit_test(test_live_self),
	    cmocka_unit_test(test_live_add_remove),
	    cmocka_unit_test(test_live_cpu_sum),
	    cmocka_unit_test(test_live_cpu_group),
	    cmocka_unit_test_setup_teardown(test_live_busy, proc_setup, proc_teardown),
	    cmocka_unit_test(test_live_fd_limit),
	    cmocka_unit_test(test_live_exit),
	    cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
