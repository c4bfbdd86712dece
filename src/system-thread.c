/* system-thread: the threads of the system source's processes, read only
 * while asked for (system_set_threads): each process's /proc/PID/task
 * listed with getdents into a buffer kept from one scan to the next, each
 * thread's stat parsed like a process's, its CPU time and faults turned
 * into rates since the last scan. A process with one thread has it from
 * its own stat, which says the same, without its task directory. A reused
 * tid is told from the thread it had by its start time. No allocation in
 * steady state. */
#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "system-impl.h"
#include "tracetop/util.h"

/* The getdents buffer of a task directory: about 500 tids per call. */
#define TDENTS_BYTES 16384

/* Order of thread states by tid. */
static int
thread_cmp(const void *pa, const void *pb)
{
	const struct sys_thread_state *a = pa, *b = pb;

	return CMP3(a->pub.tid, b->pub.tid);
}

/* Thread tid among the last scan's threads of its process (old), or NULL. */
static const struct sys_thread_state *
thread_find(const struct system *s, const struct sys_proc_state *old, int tid)
{
	struct sys_thread_state key;

	if (old == NULL || old->thr_n == 0)
		return NULL;
	key.pub.tid = tid;
	return bsearch(&key, s->threads[s->proc_cur] + old->thr_at, old->thr_n, sizeof key,
	               thread_cmp);
}

/* The rates of a thread between the last scan and this one (old NULL or
 * another thread of the same tid: not yet known). */
static void
thread_rates(const struct system *s, struct sys_thread_state *th,
             const struct sys_thread_state *old, double secs)
{
	struct system_thread *t = &th->pub;
	double pct = 100.0 / (double)s->hz / secs;

	if (old == NULL || old->starttime != th->starttime || secs <= 0) {
		t->cpu = t->user = t->system = t->minflt_s = t->majflt_s = NAN;
		return;
	}
	t->user = (double)sys_delta(old->utime, th->utime) * pct;
	t->system = (double)sys_delta(old->stime, th->stime) * pct;
	t->cpu = t->user + t->system;
	t->minflt_s = (double)sys_delta(old->minflt, th->minflt) / secs;
	t->majflt_s = (double)sys_delta(old->majflt, th->majflt) / secs;
}

/* Read thread tid of process pid into th; false when it is gone. */
static bool
thread_read(struct system *s, int pid, int tid, struct sys_thread_state *th,
            const struct sys_proc_state *old, double secs)
{
	struct sys_pid_stat ps;
	char name[48];

	snprintf(name, sizeof name, "%d/task/%d/stat", pid, tid);
	if (sys_file_read_at(&s->pfile, s->proc_fd, name) != 0 ||
	    sys_parse_pid_stat(s->pfile.buf, s->pfile.len, &ps) != 0)
		return false;
	memset(th, 0, sizeof *th);
	th->starttime = ps.starttime;
	th->utime = ps.utime;
	th->stime = ps.stime;
	th->minflt = ps.minflt;
	th->majflt = ps.majflt;
	th->pub.tid = tid;
	th->pub.pid = pid;
	memcpy(th->pub.comm, ps.comm, sizeof th->pub.comm);
	th->pub.state = ps.state;
	th->pub.nice = ps.nice;
	th->pub.priority = ps.priority;
	th->pub.processor = ps.processor;
	th->pub.start = (double)ps.starttime / (double)s->hz;
	thread_rates(s, th, thread_find(s, old, tid), secs);
	return true;
}

/* The one thread of a single-threaded process: the process's own numbers. */
static void
thread_only(struct sys_thread_state *th, const struct sys_proc_state *st)
{
	const struct system_proc *p = &st->pub;

	memset(th, 0, sizeof *th);
	th->starttime = st->starttime;
	th->utime = st->utime;
	th->stime = st->stime;
	th->minflt = st->minflt;
	th->majflt = st->majflt;
	th->pub = (struct system_thread){
	    .tid = p->pid,
	    .pid = p->pid,
	    .state = p->state,
	    .cpu = p->cpu,
	    .user = p->user,
	    .system = p->system,
	    .minflt_s = p->minflt_s,
	    .majflt_s = p->majflt_s,
	    .nice = p->nice,
	    .priority = p->priority,
	    .processor = p->processor,
	    .start = p->start,
	};
	memcpy(th->pub.comm, p->comm, sizeof th->pub.comm);
}

/* The threads of a process with more than one: its task directory. */
static void
threads_list(struct system *s, int pid, struct sys_proc_state *st, const struct sys_proc_state *old,
             double secs)
{
	int cur = !s->proc_cur; /* this scan's table (proc_cur flips when it ends) */
	bool sorted = true;
	char name[32];
	long len;
	int fd, tid;

	snprintf(name, sizeof name, "%d/task", pid);
	if ((fd = openat(s->proc_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return; /* it went meanwhile */
	sys_grow((void **)&s->tdents, &s->tdents_cap, TDENTS_BYTES, 1);
	while ((len = syscall(SYS_getdents64, fd, s->tdents, s->tdents_cap)) > 0)
		for (size_t off = 0;
		     (tid = sys_parse_dents_pid(s->tdents, (size_t)len, &off)) != 0;) {
			size_t n = s->nthreads[cur];

			sys_grow((void **)&s->threads[cur], &s->threads_cap[cur], n + 1,
			         sizeof *s->threads[cur]);
			if (!thread_read(s, pid, tid, &s->threads[cur][n], old, secs))
				continue;
			sorted &= st->thr_n == 0 || s->threads[cur][n - 1].pub.tid < tid;
			st->thr_n++;
			s->nthreads[cur]++;
		}
	close(fd);
	if (!sorted)
		qsort(s->threads[cur] + st->thr_at, st->thr_n, sizeof *s->threads[cur], thread_cmp);
}

/* A process's threads into this scan's table. */
void
sys_threads_read(struct system *s, int pid, struct sys_proc_state *st,
                 const struct sys_proc_state *old, double secs)
{
	int cur = !s->proc_cur;

	st->thr_at = s->nthreads[cur];
	st->thr_n = 0;
	if (st->pub.threads > 1) {
		threads_list(s, pid, st, old, secs);
		return;
	}
	sys_grow((void **)&s->threads[cur], &s->threads_cap[cur], st->thr_at + 1,
	         sizeof *s->threads[cur]);
	thread_only(&s->threads[cur][st->thr_at], st);
	st->thr_n = 1;
	s->nthreads[cur]++;
}

/* The threads of the frame's processes, each process's together. */
void
sys_threads_snapshot(struct system *s, struct frame_system *fs)
{
	const struct sys_proc_state *v = s->procs[s->proc_cur];
	const struct sys_thread_state *th = s->threads[s->proc_cur];
	size_t n = 0;

	fs->threads_on = s->procs_on && s->threads_on;
	for (size_t i = 0; fs->threads_on && i < fs->nprocs; i++)
		n += v[s->order[i].idx].thr_n;
	sys_grow((void **)&fs->threads, &fs->threads_cap, n, sizeof *fs->threads);
	n = 0;
	for (size_t i = 0; i < fs->nprocs; i++) {
		const struct sys_proc_state *st = &v[s->order[i].idx];

		fs->procs[i].thread_at = (uint32_t)n;
		fs->procs[i].thread_n = fs->threads_on ? (uint32_t)st->thr_n : 0;
		for (size_t k = 0; k < fs->procs[i].thread_n; k++, n++) {
			fs->threads[n] = th[st->thr_at + k].pub;
			fs->threads[n].proc = (uint32_t)i;
		}
	}
	fs->nthreads = n;
}

/* Free the thread tables. */
void
sys_threads_free(struct system *s)
{
	for (int i = 0; i < 2; i++)
		free(s->threads[i]);
	free(s->tdents);
}
