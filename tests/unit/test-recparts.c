/* Unit tests for the recorded parts other than the profile: counters
 * (rows of two scopes, sparklines continued across chunks and given whole
 * for a new row), probes, latency (an unchanged row, a new one, one whose
 * histogram started again: the replayed histograms since start are the
 * live ones), the system's numbers and tables, the trace (entries decoded
 * with the recorded format, kernel symbols and stack frames though the
 * reader has neither a resolver nor an engine), Annotate's samples per
 * instruction (and why a function's code is not held), the offcpu rows'
 * stacks (what the off-CPU trie gained each interval, a branch folded
 * into [other], an interval with no gain: the replayed trie is the live
 * one, node for node and ns for ns), a version 1 recording still read,
 * and a version 2 one of a writer before the off-CPU stacks (its latency
 * rows, no stacks). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tracetop/addrhist.h"
#include "tracetop/annotate.h"
#include "tracetop/callgraph.h"
#include "tracetop/offcpu.h"
#include "tracetop/recfile.h"
#include "tracetop/recframe.h"
#include "tracetop/stream.h"
#include "tracetop/util.h"

#ifndef TT_FIXTURES
#define TT_FIXTURES "tests/fixtures"
#endif
#ifndef TT_CORPUS
#define TT_CORPUS "tests/fuzz/corpus/recfile"
#endif

/* A writer and a reader, and the frame the reader fills. */
struct pair {
	struct recframe_enc *e;
	struct recframe_dec *d;
	struct frame taken, out;
	struct pb chunk;
};

static int
setup(void **state)
{
	struct pair *p = calloc(1, sizeof *p);

	p->e = recframe_enc_new();
	p->d = recframe_dec_new(0.875, 0.05);
	*state = p;
	return 0;
}

/* Free the parts a test's frames hold. */
static void
parts_drop(struct frame *f)
{
	for (size_t i = 0; i < COUNTERS_NSCOPES; i++) {
		free(f->counters.scopes[i].rows);
		free(f->counters.scopes[i].hist);
	}
	free(f->probes.rows);
	free(f->latency.rows);
	cg_free(f->latency.offcpu);
	for (size_t i = 0; i < f->trace.non; i++)
		free(f->trace.on[i].filter);
	free(f->trace.on);
	free(f->trace.events);
	frame_system_free(&f->system);
	for (size_t i = 0; i < f->sampling.cap; i++) {
		hist_snapshot_free(&f->sampling.events[i].rows);
		cg_free(f->sampling.events[i].cg);
		addrhist_copy_free(&f->sampling.events[i].annot);
	}
	free(f->sampling.events);
	memset(f, 0, sizeof *f);
}

static int
teardown(void **state)
{
	struct pair *p = *state;

	parts_drop(&p->out);
	parts_drop(&p->taken);
	recframe_dec_free(p->d);
	recframe_enc_free(p->e);
	pb_free(&p->chunk);
	free(p);
	dso_cache_free();
	return 0;
}

/* Write live as a chunk and read it back into p->out. */
static void
round_trip(struct pair *p, const struct frame *live)
{
	static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	struct tt_err err;

	recframe_encode(p->e, live, true, &p->chunk);
	if (recframe_decode(p->d, p->chunk.buf, p->chunk.len, &p->taken, &err) != 0)
		fail_msg("decode: %s", err.msg);
	recframe_tick(p->d, false);
	recframe_snapshot(p->d, &p->taken, by_overhead, 0);
	recframe_parts(p->d, &p->out);
}

/* A counter row. */
static void
counter_row(struct counters_row *r, enum counters_scope kind, int cpu, const char *event,
            double value, double secs, double total, const double *hist, size_t nhist)
{
	memset(r, 0, sizeof *r);
	r->event = event;
	r->kind = kind;
	r->cpu = cpu;
	if (kind == COUNTERS_TOTAL)
		snprintf(r->scope, sizeof r->scope, "total");
	else
		snprintf(r->scope, sizeof r->scope, "cpu%d", cpu);
	r->supported = true;
	r->value = value;
	r->rate = value / secs;
	r->total = total;
	r->share = 0.5;
	r->history = hist;
	r->nhist = nhist;
}

/* Two scopes over two intervals; the second adds a row (its sparkline
 * given whole) and continues the others'. */
static void
test_counters(void **state)
{
	struct pair *p = *state;
	struct frame live = {0};
	struct counters_row tot[2], cpu[2];
	double h1[] = {100}, h2[] = {100, 250}, hc0[] = {40}, hc1[] = {7, 8, 9};
	const struct counters_snapshot *s;

	live.has_counters = true;
	live.counters.taken = (1u << COUNTERS_TOTAL) | (1u << COUNTERS_CPU);
	live.counters.notice = "multiplexed";
	counter_row(&tot[0], COUNTERS_TOTAL, -1, "task-clock", 100, 2, 100, h1, 1);
	counter_row(&cpu[0], COUNTERS_CPU, 0, "task-clock", 40, 2, 40, hc0, 1);
	live.counters.scopes[COUNTERS_TOTAL] = (struct counters_snapshot){
	    .rows = tot, .n = 1, .scope = COUNTERS_TOTAL, .interval = 2, .elapsed = 2};
	live.counters.scopes[COUNTERS_CPU] = (struct counters_snapshot){
	    .rows = cpu, .n = 1, .scope = COUNTERS_CPU, .interval = 2, .elapsed = 2};
	round_trip(p, &live);
	assert_true(p->out.has_counters);
	assert_string_equal(p->out.counters.notice, "multiplexed");
	s = &p->out.counters.scopes[COUNTERS_TOTAL];
	assert_int_equal(s->n, 1);
	assert_string_equal(s->rows[0].event, "task-clock");
	assert_string_equal(s->rows[0].scope, "total");
	assert_true(s->rows[0].value == 100 && s->rows[0].rate == 50 && s->rows[0].share == 0.5);
	assert_int_equal(s->rows[0].nhist, 1);

	counter_row(&tot[0], COUNTERS_TOTAL, -1, "task-clock", 250, 2, 350, h2, 2);
	counter_row(&cpu[0], COUNTERS_CPU, 0, "task-clock", 7, 2, 47, hc0, 1);
	counter_row(&cpu[1], COUNTERS_CPU, 1, "task-clock", 9, 2, 24, hc1, 3);
	live.counters.scopes[COUNTERS_CPU].n = 2;
	live.counters.scopes[COUNTERS_CPU].elapsed = 4;
	round_trip(p, &live);
	s = &p->out.counters.scopes[COUNTERS_TOTAL];
	assert_true(s->rows[0].total == 350);
	assert_int_equal(s->rows[0].nhist, 2);
	assert_true(s->rows[0].history[0] == 100 && s->rows[0].history[1] == 250);
	s = &p->out.counters.scopes[COUNTERS_CPU];
	assert_int_equal(s->n, 2);
	assert_true(s->elapsed == 4);
	assert_string_equal(s->rows[1].scope, "cpu1");
	assert_int_equal(s->rows[1].nhist, 3); /* new: given whole */
	assert_true(s->rows[1].history[0] == 7 && s->rows[1].history[2] == 9);
	/* cpu0's sparkline kept its one value: live says 1, so 1 */
	assert_int_equal(s->rows[0].nhist, 1);
	assert_true(s->rows[0].history[0] == 40);
}

/* Every probe row comes back, arguments and state too. */
static void
test_probes(void **state)
{
	struct pair *p = *state;
	static const char *const args[] = {"x=%di", "y=+0(%si):string"};
	struct probes_row rows[2] = {
	    {.name = "tracetop_1:f",
	     .kind = PROBE_UPROBE,
	     .target = "/bin/x:f",
	     .args = args,
	     .nargs = 2,
	     .hits = 25,
	     .rate = 7.5,
	     .enabled = true,
	     .ours = true,
	     .state = "on"},
	    {.name = "other:g", .kind = PROBE_KPROBE, .target = "g+4", .state = "other's"},
	};
	struct frame live = {.has_probes = true,
	                     .probes = {.rows = rows, .n = 2, .interval = 2, .elapsed = 6}};

	round_trip(p, &live);
	assert_true(p->out.has_probes);
	assert_int_equal(p->out.probes.n, 2);
	assert_string_equal(p->out.probes.rows[0].name, "tracetop_1:f");
	assert_int_equal(p->out.probes.rows[0].kind, PROBE_UPROBE);
	assert_int_equal(p->out.probes.rows[0].nargs, 2);
	assert_string_equal(p->out.probes.rows[0].args[1], "y=+0(%si):string");
	assert_true(p->out.probes.rows[0].hits == 25 && p->out.probes.rows[0].rate == 7.5);
	assert_true(p->out.probes.rows[0].enabled && p->out.probes.rows[0].ours);
	assert_false(p->out.probes.rows[1].ours);
	assert_string_equal(p->out.probes.rows[1].state, "other's");
	assert_true(p->out.probes.elapsed == 6);
}

/* A latency row of the replay equals the live one. */
static void
lat_same(const struct lat_row *a, const struct lat_row *b)
{
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->pid, b->pid);
	assert_string_equal(a->comm, b->comm);
	assert_int_equal(a->interval, b->interval);
	assert_true(a->rate == b->rate);
	assert_int_equal(a->hist.count, b->hist.count);
	assert_int_equal(a->hist.errors, b->hist.errors);
	assert_int_equal(a->hist.total, b->hist.total);
	assert_int_equal(a->hist.min, b->hist.min);
	assert_int_equal(a->hist.max, b->hist.max);
	assert_memory_equal(a->hist.buckets, b->hist.buckets, sizeof a->hist.buckets);
	assert_memory_equal(a->hist.sums, b->hist.sums, sizeof a->hist.sums);
}

/* Three intervals: a row that grows, one that does not, one that comes,
 * then one whose histogram starts again. */
static void
test_latency(void **state)
{
	struct pair *p = *state;
	const char *read = str_intern("read"), *write = str_intern("write");
	struct lat_row rows[3];
	struct frame live = {.has_latency = true, .latency = {.rows = rows, .target = "pid 5"}};

	memset(rows, 0, sizeof rows);
	for (int i = 0; i < 3; i++) {
		lat_hist_reset(&rows[i].hist);
		rows[i].kind = LAT_SYSCALL;
		rows[i].pid = 5 + i;
		snprintf(rows[i].comm, sizeof rows[i].comm, "app%d", i);
	}
	rows[0].name = read;
	rows[1].name = write;
	rows[2].name = read;
	lat_hist_add(&rows[0].hist, 1500, false);
	lat_hist_add(&rows[0].hist, 90000, true);
	lat_hist_add(&rows[1].hist, 20, false);
	rows[0].interval = 2;
	rows[0].rate = 1;
	live.latency.nrows = 2;
	live.latency.events = 10;
	round_trip(p, &live);
	assert_int_equal(p->out.latency.nrows, 2);
	lat_same(&p->out.latency.rows[0], &rows[0]);
	lat_same(&p->out.latency.rows[1], &rows[1]);
	assert_string_equal(p->out.latency.target, "pid 5");

	lat_hist_add(&rows[0].hist, 1600, false);
	rows[0].interval = 1;
	rows[1].interval = 0;
	lat_hist_add(&rows[2].hist, 7, false);
	live.latency.nrows = 3;
	round_trip(p, &live);
	assert_int_equal(p->out.latency.nrows, 3);
	for (int i = 0; i < 3; i++)
		lat_same(&p->out.latency.rows[i], &rows[i]);

	lat_hist_reset(&rows[0].hist); /* the source started again */
	lat_hist_add(&rows[0].hist, 3, false);
	round_trip(p, &live);
	for (int i = 0; i < 3; i++)
		lat_same(&p->out.latency.rows[i], &rows[i]);
}

/* The system's numbers and tables, the sparklines pushed per interval. */
static void
test_system(void **state)
{
	struct pair *p = *state;
	struct system_cpu cpus[2] = {{.cpu = 0, .name = "cpu0", .busy = 30},
	                             {.cpu = 1, .name = "cpu1", .busy = 70}};
	struct system_disk disks[1] = {
	    {.name = "vda", .parent = -1, .in_total = true, .used = true, .read_bytes_s = 4096}};
	struct system_net nets[1] = {{.name = "eth0", .rx_bytes_s = 100, .rx_bytes = 200}};
	struct system_proc procs[1] = {{.pid = 42,
	                                .comm = "app",
	                                .cmd = "app -x",
	                                .state = 'R',
	                                .cpu = 99.5,
	                                .threads = 2,
	                                .thread_n = 2}};
	struct system_thread threads[2] = {{.tid = 42, .pid = 42, .comm = "app", .cpu = 50},
	                                   {.tid = 43, .pid = 42, .comm = "worker", .cpu = 49.5}};
	int icpus[2] = {0, 1};
	struct system_irq irqs[1] = {{.name = "24", .desc = "virtio0", .rate = 30, .count = 60}};
	double rates[2] = {10, 20};
	struct frame live = {.has_system = true};
	struct frame_system *fs = &live.system;

	fs->readings = 3;
	fs->elapsed = 4;
	fs->rows = true;
	fs->total = (struct system_cpu){.cpu = -1, .name = "cpu", .busy = 50, .busy_cpus = 1};
	fs->cpus = cpus;
	fs->ncpus = 2;
	fs->mem.kib[SYSTEM_MEM_TOTAL] = 1000;
	fs->mem.kib[SYSTEM_MEM_USED] = 600;
	fs->mem.why[SYSTEM_MEM_DIRTY] = "no Dirty";
	fs->misc.v[SYSTEM_LOAD1] = 1.5;
	fs->disks = disks;
	fs->ndisks = 1;
	fs->nets = nets;
	fs->nnets = 1;
	fs->irqs =
	    (struct system_irqs){.cpus = icpus, .ncpus = 2, .rows = irqs, .n = 1, .rates = rates};
	fs->procs = procs;
	fs->nprocs = 1;
	fs->procs_on = fs->threads_on = true;
	fs->threads = threads;
	fs->nthreads = 2;
	round_trip(p, &live);
	fs = &p->out.system;
	assert_true(p->out.has_system);
	assert_int_equal(fs->ncpus, 2);
	assert_true(fs->cpus[1].busy == 70 && fs->total.busy == 50);
	assert_int_equal(fs->mem.kib[SYSTEM_MEM_USED], 600);
	assert_string_equal(fs->mem.why[SYSTEM_MEM_DIRTY], "no Dirty");
	assert_null(fs->mem.why[SYSTEM_MEM_USED]);
	assert_string_equal(fs->disks[0].name, "vda");
	assert_true(fs->disks[0].read_bytes_s == 4096);
	assert_string_equal(fs->nets[0].name, "eth0");
	assert_int_equal(fs->irqs.n, 1);
	assert_string_equal(fs->irqs.rows[0].desc, "virtio0");
	assert_true(system_irq_cpu_rate(&fs->irqs, 0, 1) == 20);
	assert_int_equal(fs->nprocs, 1);
	assert_string_equal(fs->procs[0].cmd, "app -x");
	assert_int_equal(fs->nthreads, 2);
	assert_string_equal(fs->threads[1].comm, "worker");
	assert_int_equal(fs->cpus[1].busy_hist.n, 1);
	/* the next interval's numbers without its tables: those stay */
	cpus[1].busy = 10;
	live.system.rows = false;
	round_trip(p, &live);
	fs = &p->out.system;
	assert_true(fs->cpus[1].busy == 10);
	assert_int_equal(fs->cpus[1].busy_hist.n, 2);
	assert_true(system_hist_get(&fs->cpus[1].busy_hist, 0) == 10);
	assert_string_equal(fs->procs[0].comm, "app");
	assert_int_equal(fs->disks[0].read_hist.n, 1);
}

/* A resolver of the live run's kernel symbols. */
static const char *
ksym(void *arg, uint64_t addr, uint64_t *start)
{
	(void)arg;
	if (addr < 0xffffffff81000000ULL || addr >= 0xffffffff81000100ULL)
		return NULL;
	*start = 0xffffffff81000000ULL;
	return "my_timer_fn";
}

/* The live run's stack frames: "f<ip> (obj)". */
static bool
live_stack(void *arg, const struct stream_entry *en, size_t i, char *buf, size_t len, bool *kernel)
{
	(void)arg;
	if (i >= en->nips)
		return false;
	snprintf(buf, len, "f%llx (obj)", (unsigned long long)en->ips[i]);
	*kernel = i == 0;
	return true;
}

/* The fixture's format of sys:name into s; its index. */
static int
load_format(struct stream *s, const char *sys, const char *name)
{
	char path[512], text[8192];
	struct tt_err err;
	size_t len;
	FILE *f;
	int ev;

	snprintf(path, sizeof path, "%s/tracefs/events/%s/%s/format", TT_FIXTURES, sys, name);
	if ((f = fopen(path, "r")) == NULL)
		fail_msg("cannot open %s", path);
	len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	if ((ev = stream_add_format(s, sys, text, len, &err)) < 0)
		fail_msg("%s: %s", path, err.msg);
	return ev;
}

/* Entries logged live come back as the same lines, fields (a %ps symbol
 * by the recorded name) and stacks; the counts too; only the new ones
 * in the next chunk. */
static void
test_trace(void **state)
{
	struct pair *p = *state;
	struct stream *s = stream_new(0, 0);
	int ev = load_format(s, "timer", "hrtimer_expire_entry");
	unsigned char raw[32] = {0};
	uint16_t id = 459;
	uint64_t fn = 0xffffffff81000010ULL, ips[2] = {0x1111, 0x2222};
	struct frame live = {.has_trace = true, .final = true};
	char a[1024], b[1024];
	struct stream_entry en, er;

	stream_set_ksym(s, ksym, NULL);
	memcpy(raw, &id, 2);
	memcpy(raw + 24, &fn, 8);
	for (int i = 0; i < 3; i++) {
		struct stream_sample smp = {.ev = ev,
		                            .time = 1000000000ULL * (uint64_t)(i + 1),
		                            .cpu = i,
		                            .pid = 10 + i,
		                            .tid = 10 + i,
		                            .comm = str_intern("app"),
		                            .raw = raw,
		                            .raw_size = sizeof raw,
		                            .ips = ips,
		                            .nips = (uint32_t)i};

		assert_true(stream_push(s, &smp));
	}
	stream_tick(s);
	frame_trace_take(&live.trace, s, true);
	live.trace.stack = live_stack;
	live.trace.on = calloc(1, sizeof *live.trace.on);
	live.trace.on[0].name = "timer:hrtimer_expire_entry";
	live.trace.non = 1;
	round_trip(p, &live);
	assert_true(p->out.has_trace);
	assert_int_equal(frame_trace_len(&p->out), 3);
	assert_int_equal(p->out.trace.nevents, 1);
	assert_string_equal(p->out.trace.events[0].name, "timer:hrtimer_expire_entry");
	assert_int_equal(p->out.trace.events[0].total, 3);
	assert_int_equal(p->out.trace.non, 1);
	assert_string_equal(p->out.trace.on[0].name, "timer:hrtimer_expire_entry");
	for (size_t i = 0; i < 3; i++) {
		bool ka = false, kb = false;

		assert_true(frame_trace_get(&live, i, &en));
		assert_true(frame_trace_get(&p->out, i, &er));
		frame_trace_line(&live, &en, a, sizeof a);
		frame_trace_line(&p->out, &er, b, sizeof b);
		assert_string_equal(a, b);
		assert_non_null(strstr(b, "function=my_timer_fn"));
		assert_int_equal(er.nips, en.nips);
		for (size_t k = 0; k < en.nips; k++) {
			assert_true(frame_trace_stack(&live, &en, k, a, sizeof a, &ka));
			assert_true(frame_trace_stack(&p->out, &er, k, b, sizeof b, &kb));
			assert_string_equal(a, b);
			assert_true(ka == kb);
		}
	}
	/* one more entry: only it is in the next chunk */
	{
		struct stream_sample smp = {.ev = ev,
		                            .time = 5000000000ULL,
		                            .pid = 20,
		                            .tid = 20,
		                            .raw = raw,
		                            .raw_size = sizeof raw};

		assert_true(stream_push(s, &smp));
	}
	frame_trace_take(&live.trace, s, true);
	round_trip(p, &live);
	assert_int_equal(frame_trace_len(&p->out), 4);
	assert_true(frame_trace_get(&p->out, 3, &er));
	assert_int_equal(er.pid, 20);
	free(live.trace.on);
	free(live.trace.events);
	stream_free(s);
}

/* Samples per instruction add up across chunks; a function whose code
 * could not be read says why when annotated from the recording. */
static void
test_code(void **state)
{
	struct pair *p = *state;
	static struct dso app = {.name = "/nonexistent/recparts-app", .kind = DSO_ELF};
	static struct sym alpha = {.name = "alpha", .start = 0x1100, .size = 0x20};
	struct addrhist_addr addrs[3] = {{.off = 0, .total = 5}, {.off = 4, .total = 3}};
	struct frame_event ev = {.name = "cpu-clock"};
	struct frame live = {.has_sampling = true,
	                     .sampling = {.events = &ev, .nevents = 1, .cap = 1, .rows = true}};
	struct addrhist_copy_ent ent = {.s = {.dso = &app,
	                                      .sym = &alpha,
	                                      .watched = true,
	                                      .addrs = addrs,
	                                      .naddrs = 2,
	                                      .cap = 2,
	                                      .total = 8}};
	const struct addrhist_sym *hs;
	struct annotation *a;
	struct tt_err err;
	uint64_t t[3] = {0};

	ev.annot.ents = &ent;
	ev.annot.n = 1;
	round_trip(p, &live);
	addrs[0].total = 8;
	addrs[2] = (struct addrhist_addr){.off = 8, .total = 2};
	ent.s.naddrs = ent.s.cap = 3;
	round_trip(p, &live);
	assert_int_equal(p->taken.sampling.events[0].annot.n, 1);
	hs = &p->taken.sampling.events[0].annot.ents[0].s;
	assert_string_equal(hs->sym->name, "alpha");
	assert_true(hs->dso->standin);
	for (uint32_t i = 0; i < hs->naddrs; i++)
		if (hs->addrs[i].off <= 8 && hs->addrs[i].off % 4 == 0)
			t[hs->addrs[i].off / 4] = hs->addrs[i].total;
	assert_int_equal(t[0], 8);
	assert_int_equal(t[1], 3);
	assert_int_equal(t[2], 2);
	a = annotate_new((struct dso *)(uintptr_t)hs->dso, hs->sym, false, &err);
	assert_null(a);
	assert_non_null(strstr(err.msg, "the recording holds no code of alpha"));
	ev.annot.ents = NULL;
}

/* A trie as folded stacks ("root;outer;...;leaf NS" per node with ns of
 * its own, in an order of names, not of history), a new string. */
static char *
folded(const struct callgraph *cg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cg_print_folded(cg, f);
	fclose(f);
	return buf;
}

/* Whether the folded stacks of cg hold line (with its newline). */
static bool
folded_has(const struct callgraph *cg, const char *line)
{
	char *a = folded(cg);
	bool has = strstr(a, line) != NULL;

	free(a);
	return has;
}

/* The replayed off-CPU stacks are the live trie's. */
static void
offcpu_same(const struct callgraph *live, const struct callgraph *replayed)
{
	char *a = folded(live), *b = folded(replayed);

	assert_non_null(replayed);
	assert_string_equal(a, b);
	assert_int_equal(cg_count(live), cg_count(replayed));
	assert_true(cg_total(live) == cg_total(replayed));
	free(a);
	free(b);
}

/* Four intervals of a live off-CPU trie (as src/offcpu.c keeps it: one
 * root per offcpu row, blocked ns, never decayed): a reader and a writer
 * block; the reader again, with a small branch the tick folds into
 * [other]; nothing; a new stack of the writer through an unresolved
 * frame. Each interval recorded and replayed: the replayed trie holds
 * the same stacks with the same ns, [other] included, and an interval
 * with no gain writes no node. */
static void
test_offcpu(void **state)
{
	struct pair *p = *state;
	static struct dso app = {.name = "/nonexistent/recparts-waiters", .kind = DSO_ELF};
	static struct sym fmain = {.name = "main", .start = 0x1000, .size = 0x40},
	                  reader = {.name = "blocked_reader", .start = 0x1100, .size = 0x40},
	                  nsleep = {.name = "clock_nanosleep", .start = 0x1200, .size = 0x40},
	                  tiny = {.name = "tiny_wait", .start = 0x1300, .size = 0x10};
	static struct dso *kern;
	struct sym kread = {.name = "pipe_read", .start = 0xffffffff81000000ull, .size = 0x100};
	const char *r1 = str_intern("waiters 5/5 sleep"), *r2 = str_intern("waiters 5/6 sleep");
	struct callgraph *cg = cg_new(1.0, OFFCPU_CG_MIN_PERCENT);
	struct cg_frame rd[3], wr[2], small[2], odd[2];
	struct lat_row rows[2];
	struct frame live = {.has_latency = true, .latency = {.rows = rows, .nrows = 2}};
	size_t before;

	kern = dso_kernel(NULL);
	/* leaf first, as offcpu_in adds them */
	rd[0] = (struct cg_frame){.dso = kern, .sym = &kread, .kernel = true};
	rd[1] = (struct cg_frame){.dso = &app, .sym = &reader};
	rd[2] = (struct cg_frame){.dso = &app, .sym = &fmain};
	wr[0] = (struct cg_frame){.dso = &app, .sym = &nsleep};
	wr[1] = rd[2];
	small[0] = (struct cg_frame){.dso = &app, .sym = &tiny};
	small[1] = rd[2];
	odd[0] = (struct cg_frame){.dso = NULL, .addr = 0xdead0, .kernel = false};
	odd[1] = rd[2];
	memset(rows, 0, sizeof rows);
	for (int i = 0; i < 2; i++) {
		rows[i].kind = LAT_OFFCPU;
		rows[i].name = str_intern("sleep");
		rows[i].pid = 5;
		rows[i].tid = 5 + i;
		rows[i].stack = i == 0 ? r1 : r2;
		snprintf(rows[i].comm, sizeof rows[i].comm, "waiters");
		lat_hist_reset(&rows[i].hist);
	}

	cg_add_n(cg, r1, rd, 3, 300000000);
	cg_add_n(cg, r2, wr, 2, 299000000);
	cg_tick(cg, false);
	cg_snapshot(cg, &live.latency.offcpu);
	round_trip(p, &live);
	assert_true(recframe_peek(p->chunk.buf, p->chunk.len) & RECFRAME_OFFCPU);
	offcpu_same(live.latency.offcpu, p->out.latency.offcpu);

	cg_add_n(cg, r1, rd, 3, 301000000);
	cg_add_n(cg, r1, small, 2, 1000); /* under 0.1 % of the reader's 601 ms */
	cg_tick(cg, false);
	cg_snapshot(cg, &live.latency.offcpu);
	round_trip(p, &live);
	offcpu_same(live.latency.offcpu, p->out.latency.offcpu);
	assert_true(folded_has(p->out.latency.offcpu, "waiters 5/5 sleep;main;[other] 1000\n"));

	cg_tick(cg, false); /* an interval without blocks */
	cg_snapshot(cg, &live.latency.offcpu);
	before = p->chunk.len;
	round_trip(p, &live);
	offcpu_same(live.latency.offcpu, p->out.latency.offcpu);
	assert_true(p->chunk.len < before); /* no node written */

	cg_add_n(cg, r2, odd, 2, 5000000);
	cg_tick(cg, false);
	cg_snapshot(cg, &live.latency.offcpu);
	round_trip(p, &live);
	offcpu_same(live.latency.offcpu, p->out.latency.offcpu);
	assert_true(folded_has(p->out.latency.offcpu,
	                       "waiters 5/6 sleep;main;[unknown] 0xdead0 5000000\n"));

	/* a frame without them: the stacks the last one had stay (the
	 * latency rows are since start) */
	cg_free(live.latency.offcpu);
	live.latency.offcpu = NULL;
	round_trip(p, &live);
	assert_false(recframe_peek(p->chunk.buf, p->chunk.len) & RECFRAME_OFFCPU);
	offcpu_same(cg, p->out.latency.offcpu);
	cg_free(cg);
}

/* A recording of version 1 (the profile only) is still read. */
static void
test_version1(void **state)
{
	char path[512];
	uint8_t *data, *raw;
	size_t len, rawlen, n = 0;
	struct recfile_reader r;
	struct tt_err err;
	struct pair *p = *state;

	snprintf(path, sizeof path, "%s/stacks.ttr", TT_CORPUS);
	if (recfile_load(path, &data, &len, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(recfile_open_mem(&r, data, len, &err), 0);
	assert_int_equal(r.h.version, 1);
	while (recfile_next(&r, &raw, &rawlen) == 1) {
		assert_int_equal(recframe_decode(p->d, raw, rawlen, &p->taken, &err), 0);
		assert_true(p->taken.has_sampling);
		assert_int_equal(recframe_peek(raw, rawlen), RECFRAME_SAMPLING);
		free(raw);
		n++;
	}
	assert_true(n > 0);
	recfile_reader_free(&r);
	free(data);
}

/* A version 2 recording of a writer before the off-CPU stacks (the
 * corpus's parts.ttr) is still read: its latency rows, no stacks. */
static void
test_version2_no_offcpu(void **state)
{
	char path[512];
	uint8_t *data, *raw;
	size_t len, rawlen, n = 0, rows = 0;
	struct recfile_reader r;
	struct tt_err err;
	struct pair *p = *state;

	snprintf(path, sizeof path, "%s/parts.ttr", TT_CORPUS);
	if (recfile_load(path, &data, &len, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(recfile_open_mem(&r, data, len, &err), 0);
	assert_int_equal(r.h.version, 2);
	while (recfile_next(&r, &raw, &rawlen) == 1) {
		assert_int_equal(recframe_decode(p->d, raw, rawlen, &p->taken, &err), 0);
		assert_false(recframe_peek(raw, rawlen) & RECFRAME_OFFCPU);
		recframe_tick(p->d, false);
		recframe_parts(p->d, &p->out);
		if (p->out.has_latency)
			rows += p->out.latency.nrows;
		assert_null(p->out.latency.offcpu);
		free(raw);
		n++;
	}
	assert_true(n > 0);
	assert_true(rows > 0);
	recfile_reader_free(&r);
	free(data);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_counters, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_probes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_latency, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_system, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_trace, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_code, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_offcpu, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_version1, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_version2_no_offcpu, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
