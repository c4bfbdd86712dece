/* Unit tests for the history of the panes other than the profile's:
 * counters, latency histograms, probe hits, trace counts and the system's
 * numbers of one interval and of a range (sums, rates over the range's
 * seconds, merged histograms, states at its end), deltas of values kept
 * since start, eviction, and the identities compacted within the bytes. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/history-impl.h"
#include "tracetop/frame.h"
#include "tracetop/history.h"
#include "tracetop/util.h"

/* What the sources would have counted so far. */
struct src {
	uint64_t seq;
	double faults_total;
	struct lat_hist read_hist;
	uint64_t hits, trace_total, trace_seq;
	struct counters_row crow[2];
	struct lat_row lrow;
	struct probes_row prow;
	struct stream_event_info tev;
	struct system_disk disk;
	struct system_cpu cpus[2];
};

/* End an interval of secs in which the sources saw faults page faults,
 * nread reads of ns each, hits probe hits and events tracepoint events,
 * at busy % CPU and disk bytes written, into h. */
static void
src_refresh(struct src *s, struct history *h, double secs, double faults, unsigned nread,
            uint64_t ns, uint64_t hits, uint64_t events, double busy, uint64_t disk)
{
	struct frame f = {.seq = ++s->seq, .wall = 1000.0 + (double)s->seq, .secs = secs};

	f.has_counters = f.has_latency = f.has_probes = f.has_trace = f.has_system = true;
	s->faults_total += faults;
	s->crow[0] = (struct counters_row){.event = str_intern("page-faults"),
	                                   .scope = "total",
	                                   .kind = COUNTERS_TOTAL,
	                                   .cpu = -1,
	                                   .supported = true,
	                                   .value = faults,
	                                   .rate = faults / secs,
	                                   .total = s->faults_total,
	                                   .share = 1};
	f.counters.scopes[COUNTERS_TOTAL].rows = s->crow;
	f.counters.scopes[COUNTERS_TOTAL].n = 1;
	f.counters.scopes[COUNTERS_TOTAL].elapsed = (double)s->seq;
	f.counters.taken = 1u << COUNTERS_TOTAL;
	for (unsigned i = 0; i < nread; i++)
		lat_hist_add(&s->read_hist, ns, false);
	s->lrow = (struct lat_row){.kind = LAT_SYSCALL, .name = str_intern("read"), .pid = 9};
	s->lrow.hist = s->read_hist;
	f.latency.rows = &s->lrow;
	f.latency.nrows = 1;
	s->hits += hits;
	s->prow = (struct probes_row){.name = "tracetop_1:hot",
	                              .target = "/bin/app:hot",
	                              .hits = s->hits,
	                              .state = "on",
	                              .ours = true};
	f.probes.rows = &s->prow;
	f.probes.n = 1;
	s->trace_total += events;
	s->tev = (struct stream_event_info){.name = str_intern("sched:sched_switch"),
	                                    .id = 3,
	                                    .total = s->trace_total,
	                                    .interval = events};
	f.trace.events = &s->tev;
	f.trace.nevents = 1;
	f.trace.log = (struct stream *)s; /* a cookie: history never reads the log */
	f.trace.first_seq = 0;
	f.trace.end_seq = s->trace_seq += events;
	s->disk = (struct system_disk){.name = "vda",
	                               .parent = -1,
	                               .in_total = true,
	                               .write_bytes = disk,
	                               .write_bytes_s = (double)disk / secs};
	f.system.readings = s->seq + 1;
	f.system.rows = true;
	f.system.total = (struct system_cpu){.cpu = -1, .busy = busy};
	for (int c = 0; c < 2; c++)
		s->cpus[c] = (struct system_cpu){.cpu = c, .busy = busy};
	f.system.cpus = s->cpus;
	f.system.ncpus = 2;
	f.system.disks = &s->disk;
	f.system.ndisks = 1;
	f.system.disk_total = s->disk;
	f.system.mem.kib[SYSTEM_MEM_USED] = 1000 * s->seq;
	history_add(h, &f, true);
}

/* The live frame the views take names from. */
static void
live_frame(struct frame *f)
{
	memset(f, 0, sizeof *f);
	f->has_counters = f->has_latency = f->has_probes = f->has_trace = f->has_system = true;
}

/* Sources that counted nothing yet, and the live frame. */
static struct src *
src_new(struct frame *live)
{
	struct src *s = calloc(1, sizeof *s);

	lat_hist_reset(&s->read_hist);
	live_frame(live);
	return s;
}

/* Three quiet intervals, then three busy ones: each interval's view has
 * its own numbers, a range the sums, its rates over its seconds. */
static void
test_parts_range(void **state)
{
	struct history *h = history_new(600, HISTORY_MAX_BYTES);
	struct frame live, v = {0};
	struct src *s = src_new(&live);

	(void)state;
	for (int i = 0; i < 3; i++)
		src_refresh(s, h, 1.0, 100, 10, 1000, 5, 20, 10, 4096);
	for (int i = 0; i < 3; i++)
		src_refresh(s, h, 2.0, 3000, 4, 1000000, 50, 400, 90, 0);
	assert_int_equal(history_len(h), 6);

	/* a quiet interval */
	history_view(h, 1, 1, &live, &v);
	assert_int_equal(v.counters.scopes[COUNTERS_TOTAL].n, 1);
	assert_true(fabs(v.counters.scopes[COUNTERS_TOTAL].rows[0].value - 100) < 1e-6);
	assert_true(fabs(v.counters.scopes[COUNTERS_TOTAL].rows[0].rate - 100) < 1e-6);
	assert_true(fabs(v.counters.scopes[COUNTERS_TOTAL].rows[0].total - 200) < 1e-6);
	assert_int_equal(v.latency.nrows, 1);
	assert_int_equal(v.latency.rows[0].hist.count, 10);
	assert_int_equal(v.latency.rows[0].hist.max, 1000);
	assert_int_equal(lat_hist_percentile(&v.latency.rows[0].hist, 50), 1000);
	assert_int_equal(v.probes.n, 1);
	assert_string_equal(v.probes.rows[0].name, "tracetop_1:hot");
	assert_int_equal(v.probes.rows[0].hits, 5);
	assert_int_equal(v.trace.nevents, 1);
	assert_int_equal(v.trace.events[0].interval, 20);
	assert_int_equal(v.trace.start_seq, 20);
	assert_int_equal(v.trace.end_seq, 40);
	assert_true(fabs(v.system.total.busy - 10) < 1e-3);
	assert_int_equal(v.system.ndisks, 1);
	assert_int_equal(v.system.disks[0].write_bytes, 4096);
	history_view_free(&v);

	/* a busy one: only its own values (the histogram's delta); the
	 * sparkline the intervals up to it */
	history_view(h, 4, 4, &live, &v);
	assert_true(fabs(v.counters.scopes[COUNTERS_TOTAL].rows[0].rate - 1500) < 1e-6);
	assert_int_equal(v.counters.scopes[COUNTERS_TOTAL].rows[0].nhist, 5);
	for (int i = 0; i < 5; i++)
		assert_true(fabs(v.counters.scopes[COUNTERS_TOTAL].rows[0].history[i] -
		                 (i < 3 ? 100 : 3000)) < 1e-6);
	assert_int_equal(v.latency.rows[0].hist.count, 4);
	/* the interval's least value is known to its bucket */
	assert_true(v.latency.rows[0].hist.min >= 524288 && v.latency.rows[0].hist.min <= 1000000);
	assert_int_equal(v.latency.rows[0].hist.max, 1000000);
	assert_true(fabs(v.latency.rows[0].rate - 2) < 1e-9);
	assert_int_equal(v.probes.rows[0].hits, 50);
	assert_true(fabs(v.probes.rows[0].rate - 25) < 1e-9);
	assert_true(fabs(v.trace.events[0].rate - 200) < 1e-9);
	assert_true(fabs(v.system.cpus[1].busy - 90) < 1e-3);
	assert_int_equal(v.system.total.busy_hist.n, 5);
	assert_true(fabs(system_hist_get(&v.system.total.busy_hist, 0) - 90) < 1e-3);
	assert_true(fabs(system_hist_get(&v.system.total.busy_hist, 4) - 10) < 1e-3);
	assert_int_equal(v.system.disks[0].write_hist.n, 5);
	assert_true(fabs(system_hist_get(&v.system.disks[0].write_hist, 3) - 4096) < 1e-3);
	history_view_free(&v);

	/* a range over both: sums, rates over 1 + 2 + 2 s, merged histograms,
	 * CPU shares averaged by seconds, states as at its end */
	history_view(h, 2, 4, &live, &v);
	assert_true(fabs(v.counters.scopes[COUNTERS_TOTAL].rows[0].value - 6100) < 1e-6);
	assert_true(fabs(v.counters.scopes[COUNTERS_TOTAL].rows[0].rate - 6100 / 5.0) < 1e-6);
	assert_int_equal(v.latency.rows[0].hist.count, 18);
	assert_int_equal(v.latency.rows[0].hist.min, 1000);
	assert_int_equal(v.latency.rows[0].hist.max, 1000000);
	assert_int_equal(lat_hist_percentile(&v.latency.rows[0].hist, 50), 1000);
	assert_int_equal(lat_hist_percentile(&v.latency.rows[0].hist, 90), 1000000);
	assert_int_equal(v.probes.rows[0].hits, 105);
	assert_int_equal(v.trace.events[0].interval, 820);
	assert_int_equal(v.trace.start_seq, 40);
	assert_int_equal(v.trace.end_seq, 860);
	assert_true(fabs(v.system.total.busy - (10 + 2 * 90 + 2 * 90) / 5.0) < 1e-3);
	assert_int_equal(v.system.disk_total.write_bytes, 4096);
	assert_int_equal(v.system.mem.kib[SYSTEM_MEM_USED], 5000);
	assert_non_null(v.system.procs_error);
	history_view_free(&v);
	history_free(h);
	free(s);
}

/* A histogram or hit count that starts again (a probe removed and made
 * anew) counts from zero, not as a negative delta. */
static void
test_parts_restart(void **state)
{
	struct history *h = history_new(600, HISTORY_MAX_BYTES);
	struct frame live, v = {0};
	struct src *s = src_new(&live);

	(void)state;
	src_refresh(s, h, 1.0, 1, 30, 500, 70, 1, 0, 0);
	s->hits = 0;
	lat_hist_reset(&s->read_hist);
	src_refresh(s, h, 1.0, 1, 3, 500, 4, 1, 0, 0);
	history_view(h, 1, 1, &live, &v);
	assert_int_equal(v.probes.rows[0].hits, 4);
	assert_int_equal(v.latency.rows[0].hist.count, 3);
	history_view_free(&v);
	/* an interval without new values has no latency row */
	src_refresh(s, h, 1.0, 1, 0, 500, 0, 1, 0, 0);
	history_view(h, 2, 2, &live, &v);
	assert_int_equal(v.latency.nrows, 0);
	assert_int_equal(v.probes.rows[0].hits, 0);
	history_view_free(&v);
	history_free(h);
	free(s);
}

/* Counters of processes that come and go (a new pid every interval): the
 * window evicts, compaction keeps the identities near those in use, and
 * a small byte limit holds. */
static void
test_parts_bound(void **state)
{
	enum { PER = 200, ROUNDS = 300 };
	struct history *h = history_new(10, HISTORY_MAX_BYTES);
	struct history *small = history_new(1e6, 256 << 10);
	struct counters_row *rows = calloc(PER, sizeof *rows);
	struct frame live, v = {0};

	(void)state;
	live_frame(&live);
	for (int r = 0; r < ROUNDS; r++) {
		struct frame f = {
		    .seq = (uint64_t)r + 1, .wall = r, .secs = 1, .has_counters = true};

		for (int k = 0; k < PER; k++) {
			rows[k] = (struct counters_row){.event = str_intern("task-clock"),
			                                .kind = COUNTERS_PROCESS,
			                                .cpu = -1,
			                                .pid = r * PER + k + 1,
			                                .supported = true,
			                                .value = 1};
			snprintf(rows[k].scope, sizeof rows[k].scope, "pid %d", rows[k].pid);
		}
		f.counters.scopes[COUNTERS_PROCESS].rows = rows;
		f.counters.scopes[COUNTERS_PROCESS].n = PER;
		f.counters.taken = 1u << COUNTERS_PROCESS;
		history_add(h, &f, true);
		history_add(small, &f, true);
		assert_true(history_bytes(small) <= 256 << 10);
		assert_true(history_info(h, history_len(h) - 1)->parts_bytes > 0);
	}
	assert_int_equal(history_len(h), 10);
	assert_true(history_nparts(h) <= 2 * 10 * PER + 256 + PER);
	assert_true(history_len(small) < ROUNDS);
	/* what is left still adds up: the last interval's processes */
	history_view(h, 9, 9, &live, &v);
	assert_int_equal(v.counters.scopes[COUNTERS_PROCESS].n, PER);
	assert_int_equal(v.counters.scopes[COUNTERS_PROCESS].rows[0].pid, (ROUNDS - 1) * PER + 1);
	history_view_free(&v);
	history_free(h);
	history_free(small);
	free(rows);
}

/* More latency rows than the history keeps the deltas of: from then on
 * no interval keeps latency (a later, smaller frame would otherwise count
 * everything since start as its own), and the view says why. */
static void
test_parts_lat_cap(void **state)
{
	enum { N = HPARTS_MAX_LAT_ROWS + 1 };
	struct history *h = history_new(600, HISTORY_MAX_BYTES);
	struct lat_row *rows = calloc(N, sizeof *rows);
	struct frame live, v = {0};

	(void)state;
	live_frame(&live);
	for (int r = 0; r < 3; r++) {
		struct frame f = {.seq = (uint64_t)r + 1, .secs = 1, .has_latency = true};

		for (int i = 0; i < N; i++) {
			rows[i].kind = LAT_OFFCPU;
			rows[i].name = str_intern("sleep");
			rows[i].pid = rows[i].tid = i + 1;
			lat_hist_reset(&rows[i].hist);
			lat_hist_add(&rows[i].hist, 1000u * (unsigned)(r + 1), false);
		}
		f.latency.rows = rows;
		f.latency.nrows = r == 0 ? 5 : r == 1 ? N : 5;
		history_add(h, &f, true);
	}
	history_view(h, 0, 0, &live, &v);
	assert_int_equal(v.latency.nrows, 5);
	history_view_free(&v);
	history_view(h, 1, 2, &live, &v);
	assert_int_equal(v.latency.nrows, 0);
	assert_non_null(strstr(v.latency.notice, "too many"));
	history_view_free(&v);
	assert_true(history_bytes(h) < (size_t)N * 64);
	history_free(h);
	free(rows);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parts_range),
	    cmocka_unit_test(test_parts_restart),
	    cmocka_unit_test(test_parts_bound),
	    cmocka_unit_test(test_parts_lat_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
