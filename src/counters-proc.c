/* counters-proc: /proc readers for the counters module. */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/counters-proc.h"
#include "tracetop/system-parse.h"
#include "tracetop/util.h"

/* Read /proc/PID/stat (parsed as the system source parses it). */
int
counters_proc_stat(const char *root, int pid, struct counters_pstat *out)
{
	char path[64], buf[1024];
	struct sys_pid_stat ps;
	ssize_t len;

	snprintf(path, sizeof path, "%s/%d/stat", root, pid);
	if ((len = read_file(path, buf, sizeof buf)) <= 0 ||
	    sys_parse_pid_stat(buf, (size_t)len, &ps) != 0)
		return -1;
	out->pid = pid;
	snprintf(out->comm, sizeof out->comm, "%.*s", (int)sizeof out->comm - 1, ps.comm);
	out->state = ps.state;
	out->cputime = ps.utime + ps.stime;
	return 0;
}

/* Zombies and dead tasks count no more. */
bool
counters_proc_exited(char state)
{
	return state == 'Z' || state == 'X' || state == 'x';
}

/* List the numeric entries of a directory, sorted. */
int
counters_proc_ints(const char *dir, struct counters_ints *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	out->n = 0;
	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		int v;

		if (de->d_name[0] < '0' || de->d_name[0] > '9' || parse_int(de->d_name, &v) != 0)
			continue;
		if (out->n == out->cap) {
			out->cap = out->cap ? 2 * out->cap : 64;
			out->v = xrealloc(out->v, out->cap * sizeof *out->v);
		}
		out->v[out->n++] = v;
	}
	closedir(d);
	qsort(out->v, out->n, sizeof *out->v, qsort_int);
	return 0;
}

/* Make room for n records in a reused array. */
static void *
reserve(void *p, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return p;
	*cap = n > 2 * *cap ? n : 2 * *cap;
	return xrealloc(p, *cap * size);
}

/* Look pid up in a pid-sorted array of records. */
static const struct counters_pstat *
pstat_find(const struct counters_pstat *v, size_t n, int pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].pid == pid)
			return &v[mid];
		if (v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Read every process's stat and score it by CPU time since the last scan. */
size_t
counters_scan_procs(struct counters_scan *s)
{
	struct counters_pstat *swap;
	size_t i, n = 0;

	swap = s->prev;
	s->prev = s->cur;
	s->cur = swap;
	i = s->cap_prev;
	s->cap_prev = s->cap_cur;
	s->cap_cur = i;
	s->nprev = s->ncur;
	s->ncur = 0;
	if (counters_proc_ints(s->root, &s->pids) != 0)
		s->pids.n = 0;
	s->cur = reserve(s->cur, &s->cap_cur, s->pids.n, sizeof *s->cur);
	s->cands = reserve(s->cands, &s->cap_cands, s->pids.n, sizeof *s->cands);
	for (i = 0; i < s->pids.n; i++) {
		struct counters_pstat *ps = &s->cur[s->ncur];
		const struct counters_pstat *old;

		if (counters_proc_stat(s->root, s->pids.v[i], ps) != 0 ||
		    counters_proc_exited(ps->state))
			continue;
		s->ncur++;
		old = s->scanned ? pstat_find(s->prev, s->nprev, ps->pid) : NULL;
		s->cands[n++] = (struct counters_cand){
		    .pid = ps->pid,
		    /* new since the last scan: all its life was in the interval */
		    .score = old != NULL ? counters_delta(old->cputime, ps->cputime) : ps->cputime,
		};
	}
	s->scanned = true;
	return n;
}

/* The latest record of pid. */
const struct counters_pstat *
counters_scan_find(const struct counters_scan *s, int pid)
{
	return pstat_find(s->cur, s->ncur, pid);
}

/* Free the scan's arrays. */
void
counters_scan_free(struct counters_scan *s)
{
	free(s->prev);
	free(s->cur);
	free(s->cands);
	free(s->pids.v);
	memset(s, 0, sizeof *s);
}

/* Open ROOT/stat and take the first reading. */
void
counters_busy_open(struct counters_busy *b, const char *root)
{
	long hz = sysconf(_SC_CLK_TCK);

	memset(b, 0, sizeof *b);
	b->hz = hz > 0 ? (double)hz : 100;
	sys_file_open(&b->file, root, "stat");
	counters_busy_read(b);
}

/* A new reading of the CPU lines. */
int
counters_busy_read(struct counters_busy *b)
{
	struct sys_stat_raw *st = &b->st[!b->cur];

	if (sys_file_read(&b->file) != 0)
		return -1;
	while (sys_parse_stat(b->file.buf, b->file.len, st) == 0 && st->ncpus > st->cap)
		sys_grow((void **)&st->cpus, &st->cap, st->ncpus, sizeof *st->cpus);
	if (!(st->have & SYS_STAT_TOTAL))
		return -1;
	b->cur = !b->cur;
	b->readings++;
	return 0;
}

/* The CPU line of cpu in st, or NULL. */
static const struct sys_cpu_raw *
busy_line(const struct sys_stat_raw *st, int cpu, size_t hint)
{
	if (hint < st->ncpus && st->cpus[hint].cpu == cpu)
		return &st->cpus[hint];
	for (size_t i = 0; i < st->ncpus; i++)
		if (st->cpus[i].cpu == cpu)
			return &st->cpus[i];
	return NULL;
}

/* Busy seconds of one CPU between the last two readings. */
double
counters_busy_secs(const struct counters_busy *b, int cpu, size_t hint)
{
	const struct sys_cpu_raw *now, *then;

	if (b->readings < 2)
		return NAN;
	now = busy_line(&b->st[b->cur], cpu, hint);
	then = busy_line(&b->st[!b->cur], cpu, hint);
	if (now == NULL || then == NULL)
		return NAN;
	return (double)counters_delta(sys_cpu_busy(then), sys_cpu_busy(now)) / b->hz;
}

/* Close the file and free the readings. */
void
counters_busy_free(struct counters_busy *b)
{
	sys_file_close(&b->file);
	free(b->st[0].cpus);
	free(b->st[1].cpus);
	memset(b, 0, sizeof *b);
}
