/* system-proc: the process table of the system source, like top's: every
 * process of /proc (listed with getdents on an fd kept open, so no
 * allocation), its CPU time, faults and context switches as rates since
 * the last scan, its resident memory, threads and state. A reused pid is
 * told from the process it had by its start time. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "system-impl.h"
#include "tracetop/util.h"

/* A kernel thread's flag in /proc/PID/stat (include/linux/sched.h). */
#define PF_KTHREAD 0x00200000u
/* The getdents buffer: about 1,300 pids per call. */
#define DENTS_BYTES 32768

/* Order of process states by pid. */
static int
state_cmp(const void *pa, const void *pb)
{
	const struct sys_proc_state *a = pa, *b = pb;

	return CMP3(a->pub.pid, b->pub.pid);
}

/* pid's state in the last scan (sorted by pid), or NULL. */
static const struct sys_proc_state *
proc_find(const struct sys_proc_state *v, size_t n, int pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].pub.pid == pid)
			return &v[mid];
		if (v[mid].pub.pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The command line: the last scan's when the command is the same (an
 * exec changes it), else read from PID/cmdline. */
static void
proc_cmd(struct system *s, int pid, struct sys_proc_state *st, const struct sys_proc_state *old)
{
	char name[32];

	st->cmd_read = true;
	if (old != NULL && old->cmd_read && strcmp(old->pub.comm, st->pub.comm) == 0) {
		memcpy(st->pub.cmd, old->pub.cmd, sizeof st->pub.cmd);
		return;
	}
	snprintf(name, sizeof name, "%d/cmdline", pid);
	if (st->pub.kernel || sys_file_read_at(&s->pfile, s->proc_fd, name) != 0) {
		st->pub.cmd[0] = '\0';
		st->cmd_read = st->pub.kernel; /* a kernel thread has none */
		return;
	}
	sys_parse_cmdline(s->pfile.buf, s->pfile.len, st->pub.cmd, sizeof st->pub.cmd);
}

/* The rates of a process between the last scan and this one (old NULL:
 * first seen now, rates not yet known). */
static void
proc_rates(struct system *s, struct sys_proc_state *st, const struct sys_proc_state *old,
           double secs)
{
	struct system_proc *p = &st->pub;
	double pct = 100.0 / (double)s->hz / secs;

	if (old == NULL || secs <= 0) {
		p->cpu = p->user = p->system = NAN;
		p->minflt_s = p->majflt_s = p->ctxt_s = NAN;
		s->procs_new++;
		return;
	}
	p->user = (double)sys_delta(old->utime, st->utime) * pct;
	p->system = (double)sys_delta(old->stime, st->stime) * pct;
	p->cpu = p->user + p->system;
	p->minflt_s = (double)sys_delta(old->minflt, st->minflt) / secs;
	p->majflt_s = (double)sys_delta(old->majflt, st->majflt) / secs;
	p->ctxt_s =
	    st->have_cs && old->have_cs
	        ? (double)(sys_delta(old->vcs, st->vcs) + sys_delta(old->nvcs, st->nvcs)) / secs
	        : NAN;
}

/* The main thread's context switches, from PID/status (the costliest
 * file: the kernel formats some fifty lines). A thread that did not run
 * since the last scan (its time on a CPU in PID/schedstat, a short file,
 * has not moved) cannot have switched: its last counts stand. */
static void
proc_switches(struct system *s, int pid, struct sys_proc_state *st,
              const struct sys_proc_state *old)
{
	struct sys_pid_schedstat ss;
	struct sys_pid_status cs;
	char name[32];

	snprintf(name, sizeof name, "%d/schedstat", pid);
	if (sys_file_read_at(&s->pfile, s->proc_fd, name) == 0 &&
	    sys_parse_pid_schedstat(s->pfile.buf, s->pfile.len, &ss) == 0) {
		st->run_ns = ss.run_ns;
		st->have_run = true;
		if (old != NULL && old->have_run && old->have_cs && old->run_ns == ss.run_ns) {
			st->vcs = old->vcs;
			st->nvcs = old->nvcs;
			st->have_cs = true;
			return;
		}
	}
	snprintf(name, sizeof name, "%d/status", pid);
	if (sys_file_read_at(&s->pfile, s->proc_fd, name) == 0 &&
	    sys_parse_pid_status(s->pfile.buf, s->pfile.len, &cs) == 0) {
		st->vcs = cs.vcs;
		st->nvcs = cs.nvcs;
		st->have_cs = true;
	}
}

/* Read process pid into st; false when it is gone (or its stat is bad). */
static bool
proc_read(struct system *s, int pid, struct sys_proc_state *st, const struct sys_proc_state *old,
          double secs)
{
	struct system_proc *p = &st->pub;
	struct sys_pid_stat ps;
	char name[32];

	snprintf(name, sizeof name, "%d/stat", pid);
	if (sys_file_read_at(&s->pfile, s->proc_fd, name) != 0 ||
	    sys_parse_pid_stat(s->pfile.buf, s->pfile.len, &ps) != 0)
		return false;
	if (old != NULL && old->starttime != ps.starttime)
		old = NULL; /* the pid was reused */
	memset(st, 0, sizeof *st);
	st->starttime = ps.starttime;
	st->utime = ps.utime;
	st->stime = ps.stime;
	st->minflt = ps.minflt;
	st->majflt = ps.majflt;
	proc_switches(s, pid, st, old);
	p->pid = pid;
	p->ppid = ps.ppid;
	memcpy(p->comm, ps.comm, sizeof p->comm);
	p->state = ps.state;
	p->kernel = (ps.flags & PF_KTHREAD) != 0;
	p->rss_kib = ps.rss > 0 ? (uint64_t)ps.rss * (uint64_t)s->page_kib : 0;
	p->threads = ps.threads;
	p->nice = ps.nice;
	p->priority = ps.priority;
	p->processor = ps.processor;
	p->start = (double)ps.starttime / (double)s->hz;
	proc_cmd(s, pid, st, old);
	proc_rates(s, st, old, secs);
	if (s->threads_on)
		sys_threads_read(s, pid, st, old, secs);
	return true;
}

/* Keep why the process table cannot be read. */
static void
procs_fail(struct system *s, int e)
{
	char msg[512];

	snprintf(msg, sizeof msg, "%s: %s", s->proc, strerror(e));
	s->procs_error = str_intern(msg);
}

/* Read the entries of one getdents call into procs[cur] from *n on;
 * *sorted stays true while pids come in ascending order. */
static void
procs_dents(struct system *s, int cur, long len, size_t *n, bool *sorted, double secs)
{
	const struct sys_proc_state *prev = s->procs[s->proc_cur];
	size_t nprev = s->nprocs[s->proc_cur], off = 0;
	int pid;

	while ((pid = sys_parse_dents_pid(s->dents, (size_t)len, &off)) != 0) {
		sys_grow((void **)&s->procs[cur], &s->procs_cap[cur], *n + 1,
		         sizeof *s->procs[cur]);
		if (!proc_read(s, pid, &s->procs[cur][*n], proc_find(prev, nprev, pid), secs))
			continue;
		*sorted &= *n == 0 || s->procs[cur][*n - 1].pub.pid < pid;
		(*n)++;
	}
}

/* Scan /proc: every process, against the last scan. */
void
sys_procs_tick(struct system *s, uint64_t now)
{
	double secs = s->procs_scanned ? (double)(now - s->procs_ns) / 1e9 : 0;
	int cur = !s->proc_cur;
	bool sorted = true;
	size_t n = 0;
	long len;

	if (!s->procs_on)
		return;
	s->procs_new = 0;
	s->nthreads[cur] = 0;
	if (s->proc_fd < 0 || lseek(s->proc_fd, 0, SEEK_SET) < 0) {
		procs_fail(s, s->proc_fd < 0 ? ENOENT : errno);
		return;
	}
	s->procs_error = NULL;
	sys_grow((void **)&s->dents, &s->dents_cap, DENTS_BYTES, 1);
	while ((len = syscall(SYS_getdents64, s->proc_fd, s->dents, s->dents_cap)) > 0)
		procs_dents(s, cur, len, &n, &sorted, secs);
	if (len < 0)
		procs_fail(s, errno);
	if (!sorted)
		qsort(s->procs[cur], n, sizeof *s->procs[cur], state_cmp);
	s->nprocs[cur] = n;
	s->proc_cur = cur;
	s->procs_ns = now;
	s->procs_scanned = true;
}

/* Busiest first (new processes, NaN, last), then by pid. */
static int
order_cmp(const void *pa, const void *pb)
{
	const struct sys_proc_order *a = pa, *b = pb;

	return a->cpu != b->cpu ? CMP3(b->cpu, a->cpu) : CMP3(a->pid, b->pid);
}

/* The processes into a frame part, busiest first. */
void
sys_procs_snapshot(struct system *s, struct frame_system *fs)
{
	const struct sys_proc_state *v = s->procs[s->proc_cur];
	size_t n = s->procs_on ? s->nprocs[s->proc_cur] : 0;

	fs->procs_on = s->procs_on;
	fs->procs_error = s->procs_error;
	fs->procs_new = s->procs_new;
	sys_grow((void **)&s->order, &s->order_cap, n, sizeof *s->order);
	for (size_t i = 0; i < n; i++)
		s->order[i] = (struct sys_proc_order){
		    .cpu = isnan(v[i].pub.cpu) ? -1 : v[i].pub.cpu, .pid = v[i].pub.pid, .idx = i};
	qsort(s->order, n, sizeof *s->order, order_cmp);
	sys_grow((void **)&fs->procs, &fs->procs_cap, n, sizeof *fs->procs);
	for (size_t i = 0; i < n; i++)
		fs->procs[i] = v[s->order[i].idx].pub;
	fs->nprocs = n;
	sys_threads_snapshot(s, fs);
}

/* Free the process table. */
void
sys_procs_free(struct system *s)
{
	for (int i = 0; i < 2; i++)
		free(s->procs[i]);
	free(s->order);
	free(s->dents);
	sys_threads_free(s);
	sys_file_close(&s->pfile);
}
