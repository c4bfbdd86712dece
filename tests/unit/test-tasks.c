/* Unit tests for tasks: /proc synthesis from a fake proc root, records,
 * map overlays and one live lookup of this process (exits and reaping:
 * test-tasks-exit.c). */
#include "tasks-fixture.h"

/* Process synthesis: comms, uid, executable maps with their DSOs. */
static void
test_synth(void **state)
{
	struct thread *th = tasks_thread(*state, 123, 123);
	const struct task *p;

	assert_non_null(th);
	p = th->proc;
	assert_string_equal(th->comm, "fakeproc");
	assert_string_equal(p->comm, "fakeproc");
	assert_int_equal(p->pid, 123);
	assert_int_equal(p->uid, getuid());
	assert_false(th->dead);
	assert_false(p->dead);
	assert_int_equal(p->refs, 1);
	assert_int_equal(p->nmaps, 5);
	check_map(p, 0, 0x400000, 0x452000, 0, "/bin/true");
	assert_true(p->maps[0].dso == dso_get("/bin/true", makedev(8, 2), 173521));
	check_map(p, 1, 0x7f0000000000, 0x7f0000010000, 0x2000, "/opt/my app/lib x.so");
	assert_int_equal(p->maps[1].dso->dev, makedev(0xfd, 1));
	assert_int_equal(p->maps[1].dso->ino, 42);
	check_map(p, 2, 0x7f1000000000, 0x7f1000001000, 0, "//anon");
	assert_int_equal(p->maps[2].dso->kind, DSO_ANON);
	check_map(p, 3, 0x7ffd00000000, 0x7ffd00002000, 0, "[vdso]");
	assert_int_equal(p->maps[3].dso->kind, DSO_ANON);
	check_map(p, 4, 0xffffffffff600000, 0xffffffffff601000, 0, "[vsyscall]");
	/* A known tid is the same thread. */
	assert_ptr_equal(tasks_thread(*state, 123, 123), th);
	assert_ptr_equal(tasks_thread(*state, -1, 123), th);
}

/* tid → pid through Tgid; thread comm from its status, else task/TID,
 * else PROC/TID/comm; status's escapes of newline and backslash undone. */
static void
test_tgid(void **state)
{
	struct thread *w = tasks_thread(*state, -1, 124);
	struct thread *f = tasks_thread(*state, -1, 125);
	struct thread *m = tasks_thread(*state, -1, 123);
	struct thread *e = tasks_thread(*state, -1, 127);

	assert_non_null(w);
	assert_non_null(e);
	assert_string_equal(e->comm, "a\nb\\c\\d");
	assert_int_equal(w->proc->pid, 123);
	assert_string_equal(w->comm, "worker");
	assert_string_equal(w->proc->comm, "fakeproc");
	assert_string_equal(f->comm, "fallback");
	assert_ptr_equal(w->proc, f->proc);
	assert_ptr_equal(w->proc, m->proc);
	assert_ptr_equal(w->proc, e->proc);
	assert_int_equal(w->proc->refs, 4);
	assert_int_equal(w->proc->nmaps, 5);
}

/* A tid not in /proc: a dead "[unknown]" thread, cached until reaped;
 * with a pid it joins that process, read from /proc if need be. */
static void
test_unknown(void **state)
{
	struct thread *u = tasks_thread(*state, -1, 999), *k;

	assert_non_null(u);
	assert_string_equal(u->comm, "[unknown]");
	assert_true(u->dead);
	assert_true(u->proc->dead);
	assert_int_equal(u->proc->nmaps, 0);
	assert_ptr_equal(tasks_thread(*state, -1, 999), u);
	k = tasks_thread(*state, 123, 126);
	assert_true(k->dead);
	assert_int_equal(k->proc->pid, 123);
	assert_false(k->proc->dead);
	assert_string_equal(k->comm, "fakeproc");
	assert_int_equal(k->proc->nmaps, 5);
	assert_ptr_equal(tasks_thread(*state, -1, 123)->proc, k->proc);
	assert_null(tasks_thread(*state, -1, -1));
	tasks_reap(*state, now_ns(), 0);
	u = tasks_thread(*state, -1, 999);
	assert_string_equal(u->comm, "[unknown]");
}

/* tid 0 is the idle task, never read from /proc. */
static void
test_idle(void **state)
{
	struct thread *th = tasks_thread(*state, -1, 0);

	assert_non_null(th);
	assert_string_equal(th->comm, "swapper");
	assert_int_equal(th->proc->pid, 0);
	assert_int_equal(th->proc->nmaps, 0);
	assert_ptr_equal(tasks_thread(*state, 0, 0), th);
	assert_ptr_equal(tasks_thread(*state, 5, 0), th);
}

/* COMM renames a thread, the main thread renames the process, exec drops
 * the maps. */
static void
test_comm(void **state)
{
	struct thread *w = tasks_thread(*state, 123, 124);
	struct task *p = w->proc;

	comm_rec(*state, 123, 124, "renamed", false);
	assert_string_equal(w->comm, "renamed");
	assert_string_equal(p->comm, "fakeproc");
	comm_rec(*state, 123, 123, "leader", false);
	assert_string_equal(p->comm, "leader");
	assert_int_equal(p->nmaps, 5);
	comm_rec(*state, 123, 123, "newimage", true);
	assert_string_equal(p->comm, "newimage");
	assert_string_equal(tasks_thread(*state, 123, 123)->comm, "newimage");
	assert_int_equal(p->nmaps, 0);
	assert_null(p->jit);
	mmap_rec(*state, 123, 0x1000, 0x1000, 0, "/usr/bin/new");
	assert_int_equal(p->nmaps, 1);
}

/* An exec seen for a process first read from /proc now keeps its maps (they
 * are the new image's); a second exec drops them. */
static void
test_comm_exec_fresh(void **state)
{
	struct task *p;

	comm_rec(*state, 130, 130, "fresh2", true);
	p = tasks_thread(*state, 130, 130)->proc;
	assert_string_equal(p->comm, "fresh2");
	assert_int_equal(p->nmaps, 1);
	comm_rec(*state, 130, 130, "fresh3", true);
	assert_int_equal(p->nmaps, 0);
}

/* An exec marks the cgroup to be read again after the records that held
 * it, not at the record: the process may have moved between fork and exec
 * (a runtime into its container's group), and one read serves two execs;
 * a fork of a process not read since its exec is marked too; a process
 * whose exit came in the same records is not read, even when a sample
 * asks (the BPF engine's, counted after the exit, where the file is gone
 * or the zombie's): it keeps the one it had. */
static void
test_cgroup_exec(void **state)
{
	struct task *p, *child;

	put_status(150, 150, getuid(), "runtime");
	put("150/comm", "runtime\n");
	put("150/task/150/comm", "runtime\n");
	put("150/maps", "");
	put("150/cgroup", "0::/outside\n");
	p = tasks_thread(*state, 150, 150)->proc;
	assert_string_equal(p->cgroup->path, "/outside");
	assert_false(p->cgroup_stale);
	comm_rec(*state, 150, 150, "sh", true);
	put("150/cgroup", "0::/inside\n");
	comm_rec(*state, 150, 150, "app", true);
	assert_true(p->cgroup_stale);
	assert_string_equal(p->cgroup->path, "/outside");
	fork_rec(*state, 151, 150, 151, 150);
	child = tasks_thread(*state, 151, 151)->proc;
	assert_true(child->cgroup_stale);
	exit_rec(*state, 151, 151);
	tasks_settle(*state);
	assert_false(p->cgroup_stale);
	assert_string_equal(p->cgroup->path, "/inside");
	/* 151 exited: not read, even when asked; it keeps its parent's */
	assert_true(child->cgroup_stale);
	put("151/cgroup", "0::/zombie\n");
	assert_string_equal(tasks_cgroup(*state, child)->path, "/outside");
	assert_false(child->cgroup_stale);
	comm_rec(*state, 150, 150, "app2", true);
	put("150/cgroup", "0::/moved\n");
	assert_string_equal(tasks_cgroup(*state, p)->path, "/moved");
	assert_false(p->cgroup_stale);
	tasks_settle(*state);
	assert_string_equal(p->cgroup->path, "/moved");
}

/* MMAP2 adds a map; one in the middle of another splits it and the right
 * remainder's file offset moves; non-exec and kernel records are ignored. */
static void
test_mmap(void **state)
{
	struct task *p = tasks_thread(*state, 123, 123)->proc;
	struct record_mmap data = {.pid = 123,
	                           .tid = 123,
	                           .start = 0x10000,
	                           .len = 0x1000,
	                           .filename = "/data",
	                           .exec = false};
	struct record_mmap kern = {.pid = UINT32_MAX,
	                           .tid = UINT32_MAX,
	                           .start = 0x10000,
	                           .len = 0x1000,
	                           .filename = "/k",
	                           .exec = true};

	comm_rec(*state, 123, 123, "x", true);
	mmap_rec(*state, 123, 0x1000, 0x8000, 0x100000, "/lib/big.so");
	check_map(p, 0, 0x1000, 0x9000, 0x100000, "/lib/big.so");
	assert_int_equal(p->maps[0].dso->dev, makedev(8, 2));
	mmap_rec(*state, 123, 0x3000, 0x2000, 0, "//anon");
	assert_int_equal(p->nmaps, 3);
	check_map(p, 0, 0x1000, 0x3000, 0x100000, "/lib/big.so");
	check_map(p, 1, 0x3000, 0x5000, 0, "//anon");
	assert_int_equal(p->maps[1].dso->kind, DSO_ANON);
	check_map(p, 2, 0x5000, 0x9000, 0x104000, "/lib/big.so");
	tasks_mmap(*state, &data);
	tasks_mmap(*state, &kern);
	assert_int_equal(p->nmaps, 3);
	/* Across all three: cut the first, drop the middle, cut the last. */
	mmap_rec(*state, 123, 0x2000, 0x6000, 0x7000, "[anon:jit]");
	assert_int_equal(p->nmaps, 3);
	check_map(p, 0, 0x1000, 0x2000, 0x100000, "/lib/big.so");
	check_map(p, 1, 0x2000, 0x8000, 0x7000, "//anon");
	check_map(p, 2, 0x8000, 0x9000, 0x107000, "/lib/big.so");
	/* The same mapping again (as after synthesis) changes nothing. */
	mmap_rec(*state, 123, 0x2000, 0x6000, 0x7000, "");
	assert_int_equal(p->nmaps, 3);
	check_map(p, 1, 0x2000, 0x8000, 0x7000, "//anon");
}

/* A mapping of a process read from /proc at its MMAP2 record is harmless. */
static void
test_mmap_synth(void **state)
{
	struct task *p;

	mmap_rec(*state, 123, 0x400000, 0x52000, 0, "/bin/true");
	p = tasks_thread(*state, 123, 123)->proc;
	assert_int_equal(p->nmaps, 5);
	check_map(p, 0, 0x400000, 0x452000, 0, "/bin/true");
}

/* FORK of a new process copies the parent's maps, comm and uid. */
static void
test_fork_process(void **state)
{
	struct thread *parent = tasks_thread(*state, 123, 124), *child;
	struct task *pp = parent->proc;
	size_t i;

	fork_rec(*state, 200, 123, 200, 124);
	child = tasks_thread(*state, 200, 200);
	assert_non_null(child);
	assert_ptr_not_equal(child->proc, pp);
	assert_int_equal(child->proc->pid, 200);
	assert_string_equal(child->comm, "worker");
	assert_string_equal(child->proc->comm, "worker");
	assert_int_equal(child->proc->uid, pp->uid);
	assert_false(child->dead);
	assert_int_equal(child->proc->nmaps, pp->nmaps);
	for (i = 0; i < pp->nmaps; i++)
		assert_memory_equal(&child->proc->maps[i], &pp->maps[i], sizeof pp->maps[i]);
	/* The copy is the child's own. */
	mmap_rec(*state, 200, 0x1000, 0x1000, 0, "/c");
	assert_int_equal(child->proc->nmaps, pp->nmaps + 1);
}

/* A process's map generation is its own: a mapping or an exec of another
 * process leaves it as it was (what resolved its addresses still holds),
 * its own mapping, exec or a fork's new task gives a new one. */
static void
test_mgen(void **state)
{
	struct task *p = tasks_thread(*state, 123, 123)->proc, *q, *c;
	uint64_t g;

	q = tasks_thread(*state, 130, 130)->proc;
	assert_int_not_equal(p->mgen, q->mgen);
	g = p->mgen;
	mmap_rec(*state, 130, 0x9000, 0x1000, 0, "/usr/bin/other");
	comm_rec(*state, 130, 130, "other", true);
	assert_int_equal(p->mgen, g);
	mmap_rec(*state, 123, 0x9000, 0x1000, 0, "/usr/bin/mine");
	assert_int_not_equal(p->mgen, g);
	g = p->mgen;
	fork_rec(*state, 210, 123, 210, 123);
	c = tasks_thread(*state, 210, 210)->proc;
	assert_int_not_equal(c->mgen, g);
	assert_int_equal(p->mgen, g);
	comm_rec(*state, 123, 123, "again", true);
	assert_int_not_equal(p->mgen, g);
}

/* FORK of a thread shares the process. */
static void
test_fork_thread(void **state)
{
	struct thread *main_th = tasks_thread(*state, 123, 123), *th;

	fork_rec(*state, 123, 123, 127, 123);
	th = tasks_thread(*state, -1, 127);
	assert_ptr_equal(th->proc, main_th->proc);
	assert_string_equal(th->comm, "fakeproc");
	assert_int_equal(main_th->proc->refs, 2);
}

/* A FORK naming a known tid replaces it; so does a sample with another pid. */
static void
test_pid_reuse(void **state)
{
	struct thread *th;

	tasks_thread(*state, 123, 124);
	fork_rec(*state, 300, 123, 124, 123);
	th = tasks_thread(*state, -1, 124);
	assert_int_equal(th->proc->pid, 300);
	assert_string_equal(th->comm, "fakeproc");
	assert_int_equal(th->proc->nmaps, 5);
	assert_int_equal(th->proc->refs, 1);
	assert_int_equal(tasks_thread(*state, 123, 123)->proc->refs, 1);
	th = tasks_thread(*state, 123, 124);
	assert_int_equal(th->proc->pid, 123);
	assert_string_equal(th->comm, "worker");
	assert_int_equal(th->proc->refs, 2);
}

/* task_find_map: start inclusive, end exclusive, gaps, below and above. */
static void
test_find_map(void **state)
{
	static struct dso d1, d2;
	struct task t = {0};

	assert_null(task_find_map(&t, 0x1000));
	task_add_map(&t, 0x5000, 0x6000, 0, &d2);
	task_add_map(&t, 0x1000, 0x2000, 0, &d1);
	task_add_map(&t, 0x3000, 0x3000, 0, &d1); /* empty: ignored */
	assert_int_equal(t.nmaps, 2);
	assert_null(task_find_map(&t, 0));
	assert_null(task_find_map(&t, 0xfff));
	assert_ptr_equal(task_find_map(&t, 0x1000)->dso, &d1);
	assert_ptr_equal(task_find_map(&t, 0x1fff)->dso, &d1);
	assert_null(task_find_map(&t, 0x2000));
	assert_null(task_find_map(&t, 0x4fff));
	assert_ptr_equal(task_find_map(&t, 0x5000)->dso, &d2);
	assert_ptr_equal(task_find_map(&t, 0x5fff)->dso, &d2);
	assert_null(task_find_map(&t, 0x6000));
	assert_null(task_find_map(&t, UINT64_MAX));
	free(t.maps);
}

/* Many disjoint maps added in shuffled order end up sorted and findable. */
static void
test_many_maps(void **state)
{
	enum { N = 1000 };
	static struct dso d;
	struct task t = {0};
	int order[N], i;
	uint32_t seed = 7;

	for (i = 0; i < N; i++)
		order[i] = i;
	for (i = N - 1; i > 0; i--) {
		int j = (int)(lcg(&seed) % (uint32_t)(i + 1)), tmp = order[i];

		order[i] = order[j];
		order[j] = tmp;
	}
	for (i = 0; i < N; i++)
		task_add_map(&t, 0x10000 * (uint64_t)order[i],
		             0x10000 * (uint64_t)order[i] + 0x8000, (uint64_t)order[i], &d);
	assert_int_equal(t.nmaps, N);
	assert_true(t.cap >= t.nmaps && t.cap < 2 * N);
	for (i = 0; i < N; i++) {
		const struct map *m = task_find_map(&t, 0x10000 * (uint64_t)i + 0x4000);

		assert_non_null(m);
		assert_int_equal(m->pgoff, i);
		assert_null(task_find_map(&t, 0x10000 * (uint64_t)i + 0x8000));
		if (i > 0)
			assert_true(t.maps[i - 1].end <= t.maps[i].start);
	}
	free(t.maps);
}

/* Random overlays against a page-by-page model. */
static void
test_overlay_model(void **state)
{
	enum { PAGES = 256, PG = 0x1000, BASE = 0x100000 };
	static struct dso d[4];
	struct task t = {0};
	int owner[PAGES], round, p;
	uint64_t off[PAGES];
	uint32_t seed = 42;
	size_t i;

	for (p = 0; p < PAGES; p++)
		owner[p] = -1;
	for (round = 0; round < 3000; round++) {
		int s = (int)(lcg(&seed) % PAGES), len = 1 + (int)(lcg(&seed) % 40), k;
		int who = (int)(lcg(&seed) % 4);
		uint64_t pgoff = (uint64_t)(lcg(&seed) % 100) * PG;

		if (s + len > PAGES)
			len = PAGES - s;
		task_add_map(&t, BASE + (uint64_t)s * PG, BASE + (uint64_t)(s + len) * PG, pgoff,
		             &d[who]);
		for (k = 0; k < len; k++) {
			owner[s + k] = who;
			off[s + k] = pgoff + (uint64_t)k * PG;
		}
	}
	for (i = 1; i < t.nmaps; i++)
		assert_true(t.maps[i - 1].end <= t.maps[i].start);
	for (p = 0; p < PAGES; p++) {
		uint64_t a = BASE + (uint64_t)p * PG;
		const struct map *m = task_find_map(&t, a + 7);

		if (owner[p] < 0) {
			assert_null(m);
			continue;
		}
		assert_non_null(m);
		assert_ptr_equal(m->dso, &d[owner[p]]);
		assert_int_equal(m->pgoff + (a - m->start), off[p]);
	}
	free(t.maps);
}

/* perf-PID.map symbols: looked for when first asked for, read again for
 * what the map gained at most once per refresh when an address misses,
 * shown in "[JIT] tid PID"; symbols stay valid as the map grows, is
 * rewritten, and after exec. */
static void
test_jit(void **state)
{
	char path[64], dso[48];
	struct task *p;
	const struct sym *s, *first;
	FILE *f;

	fork_rec(*state, JIT_PID, 123, JIT_PID, 123);
	p = tasks_thread(*state, JIT_PID, JIT_PID)->proc;
	snprintf(path, sizeof path, "/tmp/perf-%d.map", JIT_PID);
	unlink(path);
	assert_null(task_jit_sym(p, 0x1008));
	assert_null(p->jit_dso);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("1000 10 jitted_fn\n2000 20 other_fn\n3000 10 half", f);
	fflush(f);
	/* Not looked for again in the same refresh... */
	assert_null(task_jit_sym(p, 0x1008));
	/* ...and found in the next one; a line being written is left for later. */
	tasks_refresh(*state);
	first = s = task_jit_sym(p, 0x1008);
	assert_non_null(s);
	assert_string_equal(s->name, "jitted_fn");
	assert_string_equal(task_jit_sym(p, 0x2004)->name, "other_fn");
	snprintf(dso, sizeof dso, "[JIT] tid %d", JIT_PID);
	assert_non_null(p->jit_dso);
	assert_string_equal(p->jit_dso->name, dso);
	assert_null(task_jit_sym(p, 0x3004));
	/* The map grows: the end of the half line and new code, once per refresh. */
	fputs("_done\n4000 10 newer_fn\n1000 8 replaced_fn\n", f);
	fflush(f);
	assert_null(task_jit_sym(p, 0x4004));
	tasks_refresh(*state);
	assert_string_equal(task_jit_sym(p, 0x4004)->name, "newer_fn");
	assert_string_equal(task_jit_sym(p, 0x3004)->name, "half_done");
	/* code space reused: the newer entry wins; the old symbol stays valid */
	assert_string_equal(task_jit_sym(p, 0x1004)->name, "replaced_fn");
	assert_string_equal(first->name, "jitted_fn");
	assert_int_equal(symjit_count(p->jit), 4);
	/* rewritten from scratch (truncated): read again */
	fclose(f);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("5000 10 fresh_fn\n", f);
	fclose(f);
	tasks_refresh(*state);
	assert_string_equal(task_jit_sym(p, 0x5004)->name, "fresh_fn");
	/* exec forgets them; symbols already handed out stay readable */
	comm_rec(*state, JIT_PID, JIT_PID, "execd", true);
	assert_null(p->jit);
	assert_string_equal(first->name, "jitted_fn");
	/* what it wrote before it exited is read once after; then no more */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("7000 10 last_fn\n", f);
	fflush(f);
	exit_rec(*state, JIT_PID, JIT_PID);
	tasks_refresh(*state);
	assert_string_equal(task_jit_sym(p, 0x7004)->name, "last_fn");
	fputs("8000 10 never_fn\n", f);
	fclose(f);
	tasks_refresh(*state);
	assert_null(task_jit_sym(p, 0x8004));
	unlink(path);
}

/* A containerized process's perf map is read from its own /tmp, named by
 * its pid in its namespace. */
static void
test_jit_container(void **state)
{
	struct task *p = tasks_thread(*state, 140, 140)->proc;
	const struct sym *s = task_jit_sym(p, 0x7010);

	assert_non_null(s);
	assert_string_equal(s->name, "JS:*inside_container");
	assert_non_null(strstr(p->jit_path, "/140/root/tmp/perf-7.map"));
}

/* A process with no perf map is looked for once (the path through its
 * root); one that left /proc before its EXIT came has the map it left in
 * our /tmp read instead. */
static void
test_jit_exited_unseen(void **state)
{
	int pid = JIT_PID + 1;
	char rel[64], dir[128], path[64];
	struct task *p;
	FILE *f;

	snprintf(rel, sizeof rel, "%d/status", pid);
	put(rel, "Name:\tshort\nUmask:\t0022\n");
	snprintf(rel, sizeof rel, "%d/root/tmp/other", pid);
	put(rel, "");
	fork_rec(*state, pid, 123, pid, 123);
	p = tasks_thread(*state, pid, pid)->proc;
	assert_null(task_jit_sym(p, 0x9004));
	assert_non_null(strstr(p->jit_path, "/root/tmp/perf-"));
	snprintf(dir, sizeof dir, "%s/%d", proc_root, pid);
	fakeproc_remove(dir);
	snprintf(path, sizeof path, "/tmp/perf-%d.map", pid);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("9000 10 gone_fn\n", f);
	fclose(f);
	tasks_refresh(*state);
	assert_string_equal(task_jit_sym(p, 0x9004)->name, "gone_fn");
	assert_string_equal(p->jit_path, path);
	unlink(path);
}

/* A function whose address the live test looks up. */
static void __attribute__((noinline)) some_function(void)
{
	__asm__ volatile("");
}

/* The real /proc: this thread's comm and the map holding our own code. */
static void
test_live(void **state)
{
	struct tasks *ts = tasks_new("/proc");
	char old[17] = {0};
	struct thread *th;
	const struct map *m;
	const char *name;
	size_t len;

	prctl(PR_GET_NAME, old);
	prctl(PR_SET_NAME, "tt-live-test");
	th = tasks_thread(ts, getpid(), (int)syscall(SYS_gettid));
	prctl(PR_SET_NAME, old);
	assert_non_null(th);
	assert_false(th->dead);
	assert_string_equal(th->comm, "tt-live-test");
	assert_int_equal(th->proc->pid, getpid());
	assert_int_equal(th->proc->uid, getuid());
	some_function();
	m = task_find_map(th->proc, (uint64_t)(uintptr_t)&some_function);
	assert_non_null(m);
	name = m->dso->name;
	len = strlen(name);
	assert_true(len >= 10);
	assert_string_equal(name + len - 10, "test-tasks");
	assert_int_equal(m->dso->kind, DSO_ELF);
	tasks_free(ts);
}

/* A thread /proc listed at tasks_prime keeps its process and name after it
 * leaves /proc; one the scan never saw is "[unknown]". */
static void
test_prime(void **state)
{
	struct tasks *ts = *state;
	struct thread *th;

	put_status(150, 150, 0, "olddaemon");
	put("150/comm", "olddaemon\n");
	put("150/task/150/comm", "olddaemon\n");
	put("150/task/151/comm", "daemon-io\n");
	tasks_prime(ts);
	fakeproc_put(proc_root, "150/status", ""); /* gone: no Tgid */
	put("150/comm", "");
	th = tasks_thread(ts, -1, 151);
	assert_true(th->dead);
	assert_string_equal(th->comm, "daemon-io");
	assert_int_equal(th->proc->pid, 150);
	assert_string_equal(th->proc->comm, "olddaemon");
	th = tasks_thread(ts, -1, 152);
	assert_string_equal(th->comm, "[unknown]");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_synth, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tgid, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unknown, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_prime, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_idle, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_mgen, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_comm, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_comm_exec_fresh, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cgroup_exec, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_mmap, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_mmap_synth, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_fork_process, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_fork_thread, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_pid_reuse, setup, teardown),
	    cmocka_unit_test(test_find_map),
	    cmocka_unit_test(test_many_maps),
	    cmocka_unit_test(test_overlay_model),
	    cmocka_unit_test_setup_teardown(test_jit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_jit_container, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_jit_exited_unseen, setup, teardown),
	    cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
