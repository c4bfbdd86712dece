/* Tests of the system source's threads: the getdents listing parser on
 * built buffers (what /proc and /proc/PID/task list, unaligned, cut or
 * malformed records), the threads of a fixture /proc tree whose counters
 * the test moves by known amounts (rates per thread, a single-threaded
 * process's one thread, new, gone and reused tids, read only while asked
 * for, no growth in steady state), their JSON and the real /proc. */
#include "config.h"

#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/report-system.h"
#include "tracetop/system-parse.h"
#include "tracetop/system.h"
#include "tracetop/util.h"
#include "fakeproc.h"
#include "system-fixture.h"

/* ---- the listing parser ---- */

/* A buffer of getdents64 records being built. */
struct dents {
	char buf[1024];
	size_t len;
};

/* Append a record named name (reclen rounded up to 8, as the kernel does;
 * reclen_override non-zero: that length instead). */
static void
dent_add(struct dents *d, const char *name, unsigned short reclen_override)
{
	unsigned short reclen = (unsigned short)((19 + strlen(name) + 1 + 7) & ~7u);
	char *rec = d->buf + d->len;

	memset(rec, 0, reclen);
	memcpy(rec + 16, reclen_override ? &reclen_override : &reclen, 2);
	rec[18] = 4; /* DT_DIR */
	memcpy(rec + 19, name, strlen(name) + 1);
	d->len += reclen;
}

/* Every numeric entry of a buffer, as "1 2 3". */
static const char *
dent_all(const char *buf, size_t len)
{
	static char out[256];
	size_t off = 0, used = 0;
	int pid;

	out[0] = '\0';
	while ((pid = sys_parse_dents_pid(buf, len, &off)) != 0)
		used +=
		    (size_t)snprintf(out + used, sizeof out - used, "%s%d", used ? " " : "", pid);
	assert_true(off == len);
	return out;
}

/* The numeric entries of a listing, in order; the rest (".", "self",
 * names with a digit, 0, a pid past INT32_MAX) skipped. */
static void
test_dents(void **state)
{
	struct dents d = {0};
	char shifted[sizeof d.buf + 1];

	(void)state;
	dent_add(&d, ".", 0);
	dent_add(&d, "..", 0);
	dent_add(&d, "1", 0);
	dent_add(&d, "self", 0);
	dent_add(&d, "4242", 0);
	dent_add(&d, "12a", 0);
	dent_add(&d, "0", 0);
	dent_add(&d, "99999999999", 0);
	dent_add(&d, "2147483647", 0);
	dent_add(&d, "7", 0);
	assert_string_equal(dent_all(d.buf, d.len), "1 4242 2147483647 7");
	/* no alignment needed */
	memcpy(shifted + 1, d.buf, d.len);
	assert_string_equal(dent_all(shifted + 1, d.len), "1 4242 2147483647 7");
	/* a buffer cut inside a record: the whole records before it */
	assert_string_equal(dent_all(d.buf, d.len - 3), "1 4242 2147483647");
	assert_string_equal(dent_all(d.buf, 10), "");
	assert_string_equal(dent_all(d.buf, 0), "");
}

/* Malformed records end the listing: a length of 0, one too short for
 * its header and name, one past the buffer, a name without its NUL. */
static void
test_dents_malformed(void **state)
{
	struct dents d;

	(void)state;
	memset(&d, 0, sizeof d);
	dent_add(&d, "5", 0);
	dent_add(&d, "6", 0);
	memset(d.buf + 24 + 16, 0, 2); /* the second one's length: 0 */
	assert_string_equal(dent_all(d.buf, d.len), "5");
	memset(&d, 0, sizeof d);
	dent_add(&d, "5", 19);
	assert_string_equal(dent_all(d.buf, d.len), "");
	memset(&d, 0, sizeof d);
	dent_add(&d, "5", 0);
	dent_add(&d, "6", 512);
	assert_string_equal(dent_all(d.buf, d.len), "5");
	memset(&d, 0, sizeof d);
	dent_add(&d, "5", 0);
	dent_add(&d, "6", 0);
	memset(d.buf + 24 + 19, '7', 5); /* "77777": no NUL in the record */
	assert_string_equal(dent_all(d.buf, d.len), "5");
}

/* ---- the source on a fixture tree ---- */

static char root[64];

/* A stat line for pid or tid id at root/rel: its name, state, threads,
 * start time and counters (ticks, faults), last on CPU cpu. */
static void
put_stat(const char *rel, int id, const char *comm, char state, int threads, unsigned long start,
         unsigned long utime, unsigned long stime, unsigned long minflt, int cpu)
{
	char text[512];

	snprintf(text, sizeof text,
	         "%d (%s) %c 1 %d %d 0 -1 4194304 %lu 0 %lu 0 %lu %lu 0 0 20 0 %d 0 %lu 9000000 "
	         "100 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 %d 0 0 0 0 0 0 0 0 0 0 0 0\n",
	         id, comm, state, id, id, minflt, minflt / 10, utime, stime, threads, start, cpu);
	fakeproc_put(root, rel, text);
}

/* Process pid's own stat (counters the sum of its threads') and cmdline. */
static void
put_proc(int pid, const char *comm, int threads, unsigned long start, unsigned long utime,
         unsigned long minflt)
{
	char rel[64];

	snprintf(rel, sizeof rel, "%d/stat", pid);
	put_stat(rel, pid, comm, 'S', threads, start, utime, 0, minflt, 0);
	snprintf(rel, sizeof rel, "%d/cmdline", pid);
	fakeproc_put(root, rel, comm);
}

/* Thread tid of process pid. */
static void
put_thread(int pid, int tid, const char *comm, char state, unsigned long start, unsigned long utime,
           unsigned long stime, unsigned long minflt, int cpu)
{
	char rel[64];

	snprintf(rel, sizeof rel, "%d/task/%d/stat", pid, tid);
	put_stat(rel, tid, comm, state, 3, start, utime, stime, minflt, cpu);
}

/* Remove thread tid of process pid. */
static void
drop_thread(int pid, int tid)
{
	char path[128];

	snprintf(path, sizeof path, "%s/%d/task/%d/stat", root, pid, tid);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof path, "%s/%d/task/%d", root, pid, tid);
	assert_int_equal(rmdir(path), 0);
}

/* The tree: process 42 with threads 42, 43, 44 (4000 ticks in all),
 * single-threaded process 7. */
static int
tree_setup(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/tt-threads.XXXXXX");
	if (mkdtemp(root) == NULL)
		return -1;
	put_proc(42, "pool", 3, 100, 4000, 300);
	put_thread(42, 42, "pool", 'S', 100, 1000, 0, 100, 0);
	put_thread(42, 43, "worker-a", 'R', 110, 2000, 0, 100, 1);
	put_thread(42, 44, "worker-b", 'R', 120, 1000, 0, 100, 0);
	put_proc(7, "single", 1, 50, 500, 10);
	return 0;
}

/* Remove the tree. */
static int
tree_teardown(void **state)
{
	(void)state;
	fakeproc_remove(root);
	return 0;
}

/* Thread tid among its process's in a frame part, or NULL; checks that
 * it names its process back. */
static const struct system_thread *
thread_of(const struct frame_system *fs, int pid, int tid)
{
	const struct system_proc *p = proc_of(fs, pid);

	assert_non_null(p);
	for (uint32_t i = 0; i < p->thread_n; i++) {
		const struct system_thread *t = &fs->threads[p->thread_at + i];

		assert_int_equal(t->pid, pid);
		assert_ptr_equal(&fs->procs[t->proc], p);
		if (t->tid == tid)
			return t;
	}
	return NULL;
}

/* Whether a and b are within 1e-6 of each other. */
static bool
near(double a, double b)
{
	return fabs(a - b) < 1e-6;
}

/* Threads' rates over one interval of known steps, each process's by
 * tid; the single-threaded process's one thread is the process. */
static void
test_thread_rates(void **state)
{
	struct system_opts o = {
	    .proc = root, .sys = "/nonexistent", .procs = true, .threads = true};
	struct frame_system fs = {0};
	struct system *s = system_new(&o);
	const struct system_thread *t;
	const struct system_proc *p;
	double pct, secs;

	(void)state;
	nap(50);
	/* worker-a runs 100 ticks (60 user, 40 system), worker-b 50, the main
	 * one none; worker-a faults 30 times */
	put_proc(42, "pool", 3, 100, 4150, 330);
	put_thread(42, 43, "worker-a", 'R', 110, 2060, 40, 130, 1);
	put_thread(42, 44, "worker-b", 'S', 120, 1050, 0, 100, 0);
	put_proc(7, "single", 1, 50, 520, 10);
	system_tick(s);
	system_snapshot(s, &fs, true);
	secs = fs.secs;
	pct = 100.0 / (double)sysconf(_SC_CLK_TCK) / secs;
	assert_true(fs.threads_on);
	assert_null(fs.procs_error);
	assert_int_equal(fs.nprocs, 2);
	assert_int_equal(fs.nthreads, 4);
	/* busiest process first, its threads together, by tid */
	p = &fs.procs[0];
	assert_int_equal(p->pid, 42);
	assert_int_equal(p->thread_n, 3);
	assert_int_equal(fs.threads[p->thread_at].tid, 42);
	assert_int_equal(fs.threads[p->thread_at + 1].tid, 43);
	assert_int_equal(fs.threads[p->thread_at + 2].tid, 44);
	assert_non_null(t = thread_of(&fs, 42, 43));
	assert_string_equal(t->comm, "worker-a");
	assert_int_equal(t->state, 'R');
	assert_int_equal(t->processor, 1);
	assert_true(near(t->user, 60 * pct));
	assert_true(near(t->system, 40 * pct));
	assert_true(near(t->cpu, 100 * pct));
	assert_true(near(t->minflt_s, 30 / secs));
	assert_non_null(t = thread_of(&fs, 42, 44));
	assert_true(near(t->cpu, 50 * pct));
	assert_int_equal(t->state, 'S');
	assert_non_null(t = thread_of(&fs, 42, 42));
	assert_true(near(t->cpu, 0));
	assert_true(near(p->cpu, 150 * pct)); /* the process: the sum */
	/* one thread: the process's numbers, without a task directory */
	p = proc_of(&fs, 7);
	assert_int_equal(p->thread_n, 1);
	assert_non_null(t = thread_of(&fs, 7, 7));
	assert_string_equal(t->comm, "single");
	assert_true(near(t->cpu, 20 * pct) && near(t->cpu, p->cpu));
	frame_system_free(&fs);
	system_free(s);
}

/* A thread that starts has no rates yet, one that ends goes, a tid
 * reused (another start time) starts over; the process's count of threads
 * going to one leaves its one thread from its own stat. */
static void
test_thread_changes(void **state)
{
	struct system_opts o = {
	    .proc = root, .sys = "/nonexistent", .procs = true, .threads = true};
	struct frame_system fs = {0};
	struct system *s = system_new(&o);
	const struct system_thread *t;

	(void)state;
	nap(20);
	put_thread(42, 45, "late", 'R', 300, 10, 0, 0, 0);
	drop_thread(42, 44);
	put_thread(42, 43, "reborn", 'R', 400, 5, 0, 0, 0);
	put_thread(42, 42, "pool", 'S', 100, 1010, 0, 100, 0);
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_non_null(t = thread_of(&fs, 42, 45));
	assert_true(isnan(t->cpu) && isnan(t->minflt_s));
	assert_null(thread_of(&fs, 42, 44));
	assert_non_null(t = thread_of(&fs, 42, 43));
	assert_string_equal(t->comm, "reborn");
	assert_true(isnan(t->cpu));
	assert_non_null(t = thread_of(&fs, 42, 42));
	assert_true(t->cpu > 0);
	assert_int_equal(proc_of(&fs, 42)->thread_n, 3);
	/* the next interval knows them all */
	nap(20);
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_true(near(thread_of(&fs, 42, 45)->cpu, 0));
	assert_true(near(thread_of(&fs, 42, 43)->cpu, 0));
	/* down to one thread: the process's own stat */
	put_proc(42, "pool", 1, 100, 4000, 300);
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_int_equal(proc_of(&fs, 42)->thread_n, 1);
	assert_non_null(thread_of(&fs, 42, 42));
	frame_system_free(&fs);
	system_free(s);
}

/* Threads are read only while asked for: none in the frame before, rates
 * from the second tick after turning them on, none after turning them
 * off; no allocation in steady state. */
static void
test_thread_toggle(void **state)
{
	struct system_opts o = {.proc = root, .sys = "/nonexistent", .procs = true};
	struct frame_system fs = {0};
	struct system *s = system_new(&o);
	struct mallinfo2 before, after;

	(void)state;
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_false(fs.threads_on);
	assert_int_equal(fs.nthreads, 0);
	assert_int_equal(proc_of(&fs, 42)->thread_n, 0);
	system_set_threads(s, true);
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_true(fs.threads_on);
	assert_int_equal(fs.nthreads, 4);
	assert_true(isnan(thread_of(&fs, 42, 43)->cpu)); /* not read the tick before */
	nap(20);
	put_thread(42, 43, "worker-a", 'R', 110, 2010, 0, 100, 1);
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_true(thread_of(&fs, 42, 43)->cpu > 0);
	before = mallinfo2();
	for (int i = 0; i < 5; i++) {
		system_tick(s);
		system_snapshot(s, &fs, true);
	}
	after = mallinfo2();
	assert_int_equal(after.uordblks, before.uordblks);
	system_set_threads(s, false);
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_false(fs.threads_on);
	assert_int_equal(fs.nthreads, 0);
	assert_int_equal(proc_of(&fs, 42)->thread_n, 0);
	assert_int_equal(fs.nprocs, 2);
	/* no threads without the process table */
	system_set_threads(s, true);
	system_set_procs(s, false);
	system_tick(s);
	system_snapshot(s, &fs, true);
	assert_false(fs.threads_on);
	frame_system_free(&fs);
	system_free(s);
}

/* JSON: a thread_list in every process and threads_count with threads,
 * neither without; a thread's name escaped. */
static void
test_thread_json(void **state)
{
	struct system_opts o = {
	    .proc = root, .sys = "/nonexistent", .procs = true, .threads = true};
	struct report_system_info ri = {.time = 1};
	struct frame_system fs = {0};
	struct system *s;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	put_thread(42, 44, "ev\x1b[31mil", 'R', 120, 1000, 0, 100, 0);
	s = system_new(&o);
	nap(20);
	system_tick(s);
	system_snapshot(s, &fs, true);
	out = open_memstream(&text, &len);
	report_system_json(out, &ri, &fs);
	fclose(out);
	assert_non_null(
	    strstr(text, "\"processes_count\":2,\"processes_new\":0,\"threads_count\":4,"));
	assert_non_null(strstr(text,
	                       "\"kernel\":false,\"thread_list\":[{\"tid\":42,\"comm\":\"pool\","
	                       "\"state\":\"S\",\"cpu\":0.00,\"user\":0.00,\"system\":0.00,"
	                       "\"minflt_s\":0.00,\"majflt_s\":0.00,\"nice\":0,\"priority\":20,"
	                       "\"processor\":0,\"start\":"));
	assert_non_null(strstr(text, "{\"tid\":44,\"comm\":\"ev\\\\x1b[31mil\","));
	assert_null(strchr(text, '\x1b'));
	assert_non_null(strstr(text, "\"thread_list\":[{\"tid\":7,\"comm\":\"single\","));
	free(text);
	system_set_threads(s, false);
	system_tick(s);
	system_snapshot(s, &fs, true);
	out = open_memstream(&text, &len);
	report_system_json(out, &ri, &fs);
	fclose(out);
	assert_null(strstr(text, "thread_list"));
	assert_null(strstr(text, "threads_count"));
	free(text);
	frame_system_free(&fs);
	system_free(s);
}

/* ---- the real /proc ---- */

static volatile int spinning = 1;

/* A named thread that spins until told to stop. */
static void *
spinner(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "tt-spinner");
	while (spinning)
		;
	return NULL;
}

/* This process with a spinning thread: both its threads, the spinner
 * busy and named, this one (which sleeps) not. */
static void
test_thread_live(void **state)
{
	struct system_opts o = {.procs = true, .threads = true};
	struct frame_system fs = {0};
	const struct system_thread *spin, *me;
	struct system *s;
	pthread_t th;
	int tid = 0;

	(void)state;
	assert_int_equal(pthread_create(&th, NULL, spinner, NULL), 0);
	nap(20);
	s = system_new(&o);
	nap(300);
	system_tick(s);
	system_snapshot(s, &fs, true);
	spinning = 0;
	pthread_join(th, NULL);
	assert_int_equal(proc_of(&fs, getpid())->thread_n, 2);
	for (uint32_t i = 0; i < 2; i++)
		if (fs.threads[proc_of(&fs, getpid())->thread_at + i].tid != getpid())
			tid = fs.threads[proc_of(&fs, getpid())->thread_at + i].tid;
	assert_non_null(spin = thread_of(&fs, getpid(), tid));
	assert_non_null(me = thread_of(&fs, getpid(), getpid()));
	assert_string_equal(spin->comm, "tt-spinner");
	/* Relative, not absolute: on a loaded machine (or at nice 19) the
	 * spinner may get only a few percent, but always more than a sleeper. */
	assert_true(spin->cpu > 0);
	assert_true(spin->cpu > me->cpu);
	frame_system_free(&fs);
	system_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dents),
	    cmocka_unit_test(test_dents_malformed),
	    cmocka_unit_test_setup_teardown(test_thread_rates, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_thread_changes, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_thread_toggle, tree_setup, tree_teardown),
	    cmocka_unit_test_setup_teardown(test_thread_json, tree_setup, tree_teardown),
	    cmocka_unit_test(test_thread_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
