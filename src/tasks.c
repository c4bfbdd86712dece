/* tasks: pid/tid → process and thread, from /proc and from records. */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "tracetop/cgroup.h"
#include "tracetop/commseen.h"
#include "tracetop/itab.h"
#include "tracetop/procmaps.h"
#include "tracetop/sym-jit.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"

/* A list of ids. */
struct ids {
	int *v;
	size_t n, cap;
};

/* Append id. */
static void
ids_push(struct ids *l, int id)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = id;
}

struct tasks {
	char *proc_root;
	struct itab threads;   /* tid → struct thread */
	struct itab procs;     /* pid → struct task */
	struct task **orphans; /* replaced in procs but still referenced */
	size_t norphans, orphans_cap;
	uint64_t refresh;      /* refreshes begun (perf maps are looked at once in each) */
	struct commseen *seen; /* the threads at the start, by tasks_prime (or NULL) */
	int *stale;            /* pids whose cgroup is to be read again (tasks_settle) */
	size_t nstale, stale_cap;
	/* what tasks_reap may free, so that it need not walk every thread and
	 * process (2,000 of them a refresh were 6 % of tracetop's CPU): the
	 * tids of threads marked dead, and the pids of processes made
	 * without a thread or left without one */
	struct ids dead, unused;
};

/* Free a process: its maps and JIT symbols. */
static void
task_free(struct task *t)
{
	symjit_free(t->jit);
	free(t->jit_path);
	free(t->maps);
	free(t);
}

/* task_free for itab_sweep. */
static void
task_release(void *val)
{
	task_free(val);
}

/* Take a process out of the pid table: freed now if no thread uses it,
 * else kept aside until tasks_reap finds it unused. */
static void
task_retire(struct tasks *ts, struct task *t)
{
	if (t->refs == 0) {
		task_free(t);
		return;
	}
	if (ts->norphans == ts->orphans_cap) {
		ts->orphans_cap = ts->orphans_cap ? ts->orphans_cap * 2 : 8;
		ts->orphans = xrealloc(ts->orphans, ts->orphans_cap * sizeof *ts->orphans);
	}
	ts->orphans[ts->norphans++] = t;
}

/* Map generations handed out (struct task's mgen). */
static uint64_t task_mgens;

/* A new process, installed for pid in place of any earlier one. */
static struct task *
task_new(struct tasks *ts, int pid, uid_t uid, const char *comm)
{
	struct task *t = xcalloc(1, sizeof *t), *old;

	t->pid = pid;
	t->home = ts;
	t->jit_refresh = UINT64_MAX;
	t->mgen = ++task_mgens;
	t->uid = uid;
	t->comm = comm;
	ids_push(&ts->unused, pid); /* no thread yet */
	old = itab_put(&ts->procs, pid, t);
	if (old != NULL)
		task_retire(ts, old);
	return t;
}

/* Free a thread, dropping its reference on the process. */
static void
thread_free(struct thread *th)
{
	if (--th->proc->refs == 0)
		ids_push(&th->proc->home->unused, th->proc->pid);
	free(th);
}

/* Mark a thread dead (at now), listed for tasks_reap. */
static void
thread_die(struct thread *th, uint64_t now)
{
	if (!th->dead)
		ids_push(&th->proc->home->dead, th->tid);
	th->dead = true;
	th->dead_at = now;
}

/* thread_free for itab_sweep. */
static void
thread_release(void *val)
{
	thread_free(val);
}

/* A new thread of proc, installed for tid in place of any earlier one. */
static struct thread *
thread_new(struct tasks *ts, int tid, const char *comm, struct task *proc)
{
	struct thread *th = xcalloc(1, sizeof *th), *old;

	th->tid = tid;
	th->comm = comm;
	th->proc = proc;
	proc->refs++;
	old = itab_put(&ts->threads, tid, th);
	if (old != NULL)
		thread_free(old);
	return th;
}

/* Ensure room for n maps, growing geometrically. */
static void
task_reserve(struct task *t, size_t n)
{
	if (n <= t->cap)
		return;
	t->cap = t->cap ? t->cap * 2 : 8;
	if (t->cap < n)
		t->cap = n;
	t->maps = xrealloc(t->maps, t->cap * sizeof *t->maps);
}

/* Index of the first map ending after addr (nmaps if none). */
static size_t
map_first_after(const struct task *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->maps[mid].end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Insert [start, end), replacing what it covers; a partly covered map keeps
 * its left and right remainders (the right one with its file offset moved). */
void
task_add_map(struct task *t, uint64_t start, uint64_t end, uint64_t pgoff, struct dso *dso)
{
	struct map repl[3];
	size_t lo, hi, nr = 0;

	if (start >= end)
		return;
	lo = map_first_after(t, start);
	for (hi = lo; hi < t->nmaps && t->maps[hi].start < end; hi++)
		;
	if (lo < hi && t->maps[lo].start < start) {
		repl[nr] = t->maps[lo];
		repl[nr++].end = start;
	}
	repl[nr++] = (struct map){start, end, pgoff, dso};
	if (lo < hi && t->maps[hi - 1].end > end) {
		const struct map *r = &t->maps[hi - 1];

		repl[nr++] = (struct map){end, r->end, r->pgoff + (end - r->start), r->dso};
	}
	task_reserve(t, t->nmaps - (hi - lo) + nr);
	memmove(t->maps + lo + nr, t->maps + hi, (t->nmaps - hi) * sizeof *t->maps);
	memcpy(t->maps + lo, repl, nr * sizeof *repl);
	t->nmaps = t->nmaps - (hi - lo) + nr;
	t->mgen = ++task_mgens;
}

/* Binary search for the map holding addr. */
const struct map *
task_find_map(const struct task *t, uint64_t addr)
{
	size_t i = map_first_after(t, addr);

	if (i < t->nmaps && t->maps[i].start <= addr)
		return &t->maps[i];
	return NULL;
}

/* Forget perf-PID.map symbols so the next lookup loads them again. */
static void
task_jit_reset(struct task *t)
{
	symjit_free(t->jit);
	t->jit = NULL;
	t->jit_refresh = UINT64_MAX;
	t->jit_final = false;
}

/* A process replaced its image: its maps and JIT symbols are stale. */
static void
task_exec(struct task *t)
{
	t->nmaps = 0;
	t->mgen = ++task_mgens;
	task_jit_reset(t);
}

/* Read what the process's perf map gained; true when it grew. */
static bool
task_jit_update(struct task *t)
{
	struct tt_err err;
	char name[48], *again;
	int rc;

	t->jit_refresh = t->home->refresh;
	/* an exited process's map grows no more: one look after its exit
	 * (its samples of unnamed code ask again at every refresh) */
	if (t->jit_final)
		return false;
	t->jit_final = t->dead;
	if (t->jit == NULL)
		t->jit = symjit_new();
	/* where the map is: through /proc/PID/root while the process lives,
	 * ours once it has exited (a JIT leaves its map behind) */
	if (t->jit_path == NULL || t->dead) {
		free(t->jit_path);
		t->jit_path = tasks_ns_jit_path(t);
	}
	rc = symjit_update(t->jit, t->jit_path, t->uid, &err);
	if (rc < 0 && (again = tasks_ns_jit_again(t)) != NULL) {
		free(t->jit_path);
		t->jit_path = again;
		rc = symjit_update(t->jit, t->jit_path, t->uid, &err);
	}
	if (rc <= 0)
		return false;
	if (t->jit_dso == NULL) {
		snprintf(name, sizeof name, "[JIT] tid %d", t->pid);
		t->jit_dso = dso_get(name, 0, 0);
	}
	return true;
}

/* JIT symbol lookup; a miss looks at the map again once per refresh. */
const struct sym *
task_jit_sym(struct task *t, uint64_t addr)
{
	const struct sym *s = symjit_lookup(t->jit, addr);

	if (s == NULL && t->jit_refresh != t->home->refresh && task_jit_update(t))
		s = symjit_lookup(t->jit, addr);
	return s;
}

/* The /proc the model reads. */
const char *
tasks_proc_root(const struct tasks *ts)
{
	return ts->proc_root;
}

/* The thread tid if the model has it (never read from /proc), or NULL. */
struct thread *
tasks_find_thread(struct tasks *ts, int tid)
{
	return itab_get(&ts->threads, tid);
}

/* A refresh began. */
void
tasks_refresh(struct tasks *ts)
{
	ts->refresh++;
}

/* The DSO for a mapping's file name: anonymous mappings share "//anon" and
 * a " (deleted)" suffix is dropped (dev and ino still tell the file). */
static struct dso *
map_dso(const struct task *t, const char *name, dev_t dev, ino_t ino, uint64_t start, uint64_t end)
{
	struct dso *d;

	static const char deleted[] = " (deleted)";
	size_t len = strlen(name), dlen = sizeof deleted - 1;
	char buf[PATH_MAX];

	if (*name == '\0' || strcmp(name, "//anon") == 0 || strncmp(name, "[anon", 5) == 0)
		return dso_get("//anon", 0, 0);
	if (len > dlen && len - dlen < sizeof buf && strcmp(name + len - dlen, deleted) == 0) {
		memcpy(buf, name, len - dlen);
		buf[len - dlen] = '\0';
		name = buf;
	}
	d = dso_get(name, dev, ino);
	if (d->kind == DSO_ELF && !d->located) {
		d->located = true; /* the first process that maps it says where it is */
		tasks_ns_locate(t, d, start, end);
	}
	return d;
}

/* Add one executable mapping of /proc/PID/maps to process arg. */
static void
maps_add(void *arg, const struct procmap *m)
{
	struct task *t = arg;

	task_add_map(t, m->start, m->end, m->pgoff,
	             map_dso(t, m->name, m->dev, m->ino, m->start, m->end));
}

/* Read a process's executable mappings from PROC/PID/maps. */
static void
task_read_maps(const struct tasks *ts, struct task *t)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%d/maps", ts->proc_root, t->pid);
	(void)procmaps_exec(path, false, maps_add, t);
}

/* What follows "key" on the line of a status file that starts with it, or NULL. */
static const char *
status_line(const char *buf, const char *key)
{
	size_t klen = strlen(key);
	const char *p = buf;

	while (strncmp(p, key, klen) != 0) {
		p = strchr(p, '\n');
		if (p == NULL)
			return NULL;
		p++;
	}
	return p + klen;
}

/* The number after "key" at the start of a line of a status file. */
static int
status_field(const char *buf, const char *key, unsigned long *out)
{
	const char *p = status_line(buf, key);
	char *end;

	if (p == NULL)
		return -1;
	*out = strtoul(p, &end, 10);
	return end == p || (*end != '\n' && *end != '\t' && *end != '\0') ? -1 : 0;
}

/* The thread's comm from the Name line of a status file, interned, or
 * NULL without one. The kernel escapes only newline and backslash there
 * (as \n and \\); the comm file has the name raw. */
static const char *
status_name(const char *buf)
{
	const char *p = status_line(buf, "Name:\t");
	char name[128];
	size_t n = 0;

	if (p == NULL)
		return NULL;
	for (; *p != '\n' && *p != '\0' && n < sizeof name - 1; p++) {
		if (*p == '\\' && (p[1] == 'n' || p[1] == '\\'))
			name[n++] = *++p == 'n' ? '\n' : '\\';
		else
			name[n++] = *p;
	}
	name[n] = '\0';
	return str_intern(name);
}

/* Tgid, real uid and comm of tid from PROC/TID/status (the comm NULL when
 * it has no Name line); -1 if it is gone. */
static int
proc_status(const struct tasks *ts, int tid, int *tgid, uid_t *uid, const char **comm)
{
	char path[PATH_MAX], buf[2048];
	unsigned long v;

	snprintf(path, sizeof path, "%s/%d/status", ts->proc_root, tid);
	if (read_file(path, buf, sizeof buf) < 0 || status_field(buf, "Tgid:", &v) < 0 || v == 0 ||
	    v > INT_MAX)
		return -1;
	*tgid = (int)v;
	*uid = status_field(buf, "Uid:", &v) == 0 ? (uid_t)v : (uid_t)-1;
	*comm = status_name(buf);
	return 0;
}

/* The comm of thread tid of pid (PROC/PID/task/TID/comm, else
 * PROC/TID/comm), interned; NULL if unreadable. */
const char *
tasks_read_comm(const struct tasks *ts, int pid, int tid)
{
	char path[PATH_MAX], buf[64];
	ssize_t n;

	snprintf(path, sizeof path, "%s/%d/task/%d/comm", ts->proc_root, pid, tid);
	n = read_file(path, buf, sizeof buf);
	if (n < 0) {
		snprintf(path, sizeof path, "%s/%d/comm", ts->proc_root, tid);
		n = read_file(path, buf, sizeof buf);
	}
	if (n < 0)
		return NULL;
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return str_intern(buf);
}

static struct thread *thread_lookup(struct tasks *ts, int pid, int tid, bool *fresh_proc);

/* The command of tid as the start's scan saw it, else dflt. */
static const char *
seen_comm(const struct tasks *ts, int tid, const char *dflt)
{
	const char *comm;
	int pid;

	return commseen_get(ts->seen, tid, &pid, &comm) ? comm : dflt;
}

/* A thread no longer in /proc: attached to its process (known, or read from
 * /proc through its main thread, else a dead one without maps), and dead
 * itself, so it lasts until reaped. */
static struct thread *
thread_gone(struct tasks *ts, int pid, int tid, bool *fresh_proc)
{
	struct task *proc = itab_get(&ts->procs, pid);
	uint64_t now;
	struct thread *th;

	if (proc == NULL && pid != tid)
		proc = thread_lookup(ts, pid, pid, fresh_proc)->proc;
	now = now_ns();
	if (proc == NULL) {
		proc = task_new(ts, pid, (uid_t)-1, seen_comm(ts, pid, str_intern("[unknown]")));
		proc->dead = true;
		proc->dead_at = now;
	}
	th = thread_new(ts, tid, seen_comm(ts, tid, proc->comm), proc);
	thread_die(th, now);
	return th;
}

/* Build thread tid (of pid, or of its Tgid when pid < 0) from /proc; the
 * process too if it is new, which sets *fresh_proc. */
static struct thread *
thread_synth(struct tasks *ts, int pid, int tid, bool *fresh_proc)
{
	struct task *proc;
	const char *comm;
	int tgid;
	uid_t uid;

	if (tid == 0) {
		proc = itab_get(&ts->procs, 0);
		if (proc == NULL) {
			proc = task_new(ts, 0, 0, str_intern("swapper"));
			proc->cgroup = cgroup_get("/"); /* as perf counts idle time */
		}
		return thread_new(ts, 0, proc->comm, proc);
	}
	if (proc_status(ts, tid, &tgid, &uid, &comm) < 0) {
		if (pid < 0 && !commseen_get(ts->seen, tid, &pid, &comm))
			pid = tid;
		return thread_gone(ts, pid, tid, fresh_proc);
	}
	if (pid < 0)
		pid = tgid;
	if (comm == NULL) /* the status told none: its comm file */
		comm = tasks_read_comm(ts, pid, tid);
	if (comm == NULL)
		comm = str_intern("[unknown]");
	proc = itab_get(&ts->procs, pid);
	if (proc == NULL) {
		const char *pcomm = pid == tid ? comm : tasks_read_comm(ts, pid, pid);

		proc = task_new(ts, pid, uid, pcomm != NULL ? pcomm : comm);
		proc->cgroup = cgroup_of_pid(ts->proc_root, pid);
		task_read_maps(ts, proc);
		if (fresh_proc != NULL)
			*fresh_proc = true;
	}
	return thread_new(ts, tid, comm, proc);
}

/* tasks_thread, also telling whether the process was just read from /proc. */
static struct thread *
thread_lookup(struct tasks *ts, int pid, int tid, bool *fresh_proc)
{
	struct thread *th;

	if (tid < 0)
		return NULL;
	if (tid == 0)
		pid = 0;
	th = itab_get(&ts->threads, tid);
	if (th != NULL && (pid < 0 || th->proc->pid == pid))
		return th;
	return thread_synth(ts, pid, tid, fresh_proc);
}

/* The thread for a sample or record (hot path when known). */
struct thread *
tasks_thread(struct tasks *ts, int pid, int tid)
{
	return thread_lookup(ts, pid, tid, NULL);
}

/* Mark process p's cgroup to be read again, at the next tasks_settle
 * (listed once however many times it execs before then). */
static void
cgroup_mark_stale(struct tasks *ts, struct task *p)
{
	if (p->cgroup_stale)
		return;
	p->cgroup_stale = true;
	if (ts->nstale == ts->stale_cap) {
		ts->stale_cap = ts->stale_cap ? 2 * ts->stale_cap : 16;
		ts->stale = xrealloc(ts->stale, ts->stale_cap * sizeof *ts->stale);
	}
	ts->stale[ts->nstale++] = p->pid;
}

/* Read again the cgroups marked since the last call, of the processes
 * still running: one read for a process that exec'd twice, none for one
 * whose exit came in the same records (a sample, if any, still asks). */
void
tasks_settle(struct tasks *ts)
{
	for (size_t i = 0; i < ts->nstale; i++) {
		struct task *p = itab_get(&ts->procs, ts->stale[i]);

		if (p != NULL && p->cgroup_stale && !p->dead)
			tasks_cgroup(ts, p);
	}
	ts->nstale = 0;
}

/* Process p's cgroup, read again if it has exec'd since it was read
 * and has not exited: its samples counted after its exit (the BPF
 * engine's, at the refresh) would look for a file that is gone. */
const struct cgroup *
tasks_cgroup(struct tasks *ts, struct task *p)
{
	if (p->cgroup_stale && p->dead)
		p->cgroup_stale = false; /* the inherited one stays */
	if (p->cgroup_stale) {
		const struct cgroup *cg = cgroup_of_pid(ts->proc_root, p->pid);

		if (cg != NULL)
			p->cgroup = cg;
		p->cgroup_stale = false; /* gone: the inherited one stays */
	}
	return p->cgroup;
}

/* An empty model reading /proc from proc_root. */
struct tasks *
tasks_new(const char *proc_root)
{
	struct tasks *ts = xcalloc(1, sizeof *ts);

	ts->proc_root = xstrdup(proc_root);
	return ts;
}

/* Read every thread /proc lists now, for threads that leave it before a
 * record names them. */
void
tasks_prime(struct tasks *ts)
{
	if (ts->seen == NULL)
		ts->seen = commseen_scan(ts->proc_root);
}

/* itab_sweep predicate: everything. */
static bool
pick_all(const void *val, const void *arg)
{
	return true;
}

/* Free the model: threads first, so processes are unreferenced. */
void
tasks_free(struct tasks *ts)
{
	size_t i;

	if (ts == NULL)
		return;
	itab_sweep(&ts->threads, pick_all, NULL, thread_release);
	itab_sweep(&ts->procs, pick_all, NULL, task_release);
	for (i = 0; i < ts->norphans; i++)
		task_free(ts->orphans[i]);
	free(ts->orphans);
	free(ts->dead.v);
	free(ts->unused.v);
	free(ts->threads.slots);
	free(ts->procs.slots);
	commseen_free(ts->seen);
	free(ts->stale);
	free(ts->proc_root);
	free(ts);
}

/* COMM: rename the thread; on exec (or a rename of the main thread) the
 * process too, and exec drops the old image's maps (MMAP2 records follow)
 * and marks the cgroup to be read again, unless the process was just read
 * from /proc, which is already current. */
void
tasks_comm(struct tasks *ts, const struct record_comm *c)
{
	bool fresh = false;
	struct thread *th = thread_lookup(ts, (int)c->pid, (int)c->tid, &fresh);
	const char *comm;

	if (th == NULL || c->comm == NULL)
		return;
	comm = str_intern(c->comm);
	th->comm = comm;
	if (c->exec && !fresh) {
		task_exec(th->proc);
		cgroup_mark_stale(ts, th->proc);
	}
	if (c->exec || c->tid == c->pid)
		th->proc->comm = comm;
}

/* MMAP/MMAP2: add an executable mapping to the process. */
void
tasks_mmap(struct tasks *ts, const struct record_mmap *m)
{
	struct thread *th;

	if (!m->exec || m->pid == UINT32_MAX || m->len == 0 || m->start + m->len < m->start)
		return;
	th = tasks_thread(ts, (int)m->pid, (int)m->tid);
	if (th == NULL)
		return;
	task_add_map(th->proc, m->start, m->start + m->len, m->pgoff,
	             map_dso(th->proc, m->filename != NULL ? m->filename : "",
	                     makedev(m->maj, m->min), (ino_t)m->ino, m->start, m->start + m->len));
}

/* A new process for pid forked by parent: its comm, uid, cgroup and maps. */
static struct task *
task_fork(struct tasks *ts, const struct thread *parent, int pid)
{
	const struct task *pp = parent->proc;
	struct task *t = task_new(ts, pid, pp->uid, parent->comm);

	t->cgroup = pp->cgroup;
	if (pp->cgroup_stale)
		cgroup_mark_stale(ts, t); /* the parent's, as yet unread */

	if (pp->nmaps > 0) {
		task_reserve(t, pp->nmaps);
		memcpy(t->maps, pp->maps, pp->nmaps * sizeof *t->maps);
		t->nmaps = pp->nmaps;
	}
	return t;
}

/* FORK: a new thread, in a new process when pid != ppid; an existing tid
 * (or pid) was reused and is replaced. */
void
tasks_fork(struct tasks *ts, const struct record_task *t)
{
	struct thread *parent;
	struct task *proc;

	if ((int)t->tid <= 0 || (int)t->pid <= 0)
		return;
	parent = tasks_thread(ts, (int)t->ppid, (int)t->ptid);
	if (parent == NULL)
		return;
	proc = t->pid == t->ppid ? parent->proc : task_fork(ts, parent, (int)t->pid);
	thread_new(ts, (int)t->tid, parent->comm, proc);
}

/* EXIT: mark the thread (and, for the main thread, the process) dead; they
 * are freed by tasks_reap once late samples can no longer name them. */
void
tasks_exit(struct tasks *ts, const struct record_task *t)
{
	struct thread *th;
	struct task *proc;
	uint64_t now;

	if (t->tid == 0)
		return;
	th = itab_get(&ts->threads, (int)t->tid);
	now = now_ns();
	if (th != NULL && th->proc->pid == (int)t->pid)
		thread_die(th, now);
	if (t->tid == t->pid && (proc = itab_get(&ts->procs, (int)t->pid)) != NULL) {
		proc->dead = true;
		proc->dead_at = now;
	}
}

struct reap_arg {
	uint64_t now, grace;
};

/* Reap predicate: a thread dead for at least the grace period. */
static bool
pick_expired(const void *val, const void *arg)
{
	const struct thread *th = val;
	const struct reap_arg *ra = arg;

	return th->dead && ra->now >= th->dead_at && ra->now - th->dead_at >= ra->grace;
}

/* Reap predicate: a process no thread refers to. */
static bool
pick_unused(const void *val, const void *arg)
{
	return ((const struct task *)val)->refs == 0;
}

/* Free expired dead threads, then the processes left without threads
 * (a dead process's threads are dead for as long, so it had its grace). */
void
tasks_reap(struct tasks *ts, uint64_t now, uint64_t grace_ns)
{
	struct reap_arg ra = {now, grace_ns};
	size_t i, kept = 0, n = 0;

	/* a listed tid whose thread was freed or replaced is dropped (a new
	 * dead one is listed again); one in its grace stays listed */
	for (i = 0; i < ts->dead.n; i++) {
		int tid = ts->dead.v[i];
		struct thread *th = itab_get(&ts->threads, tid);

		if (th == NULL || !th->dead)
			continue;
		if (pick_expired(th, &ra)) {
			itab_del(&ts->threads, tid);
			thread_release(th);
		} else {
			ts->dead.v[n++] = tid;
		}
	}
	ts->dead.n = n;
	/* after the threads: freeing them lists their processes */
	for (i = 0; i < ts->unused.n; i++) {
		int pid = ts->unused.v[i];
		struct task *t = itab_get(&ts->procs, pid);

		if (t != NULL && pick_unused(t, NULL)) {
			itab_del(&ts->procs, pid);
			task_release(t);
		}
	}
	ts->unused.n = 0;
	for (i = 0; i < ts->norphans; i++) {
		if (ts->orphans[i]->refs == 0)
			task_free(ts->orphans[i]);
		else
			ts->orphans[kept++] = ts->orphans[i];
	}
	ts->norphans = kept;
}
