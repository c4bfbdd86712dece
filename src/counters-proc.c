/* counters-proc: /proc readers for the counters module. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/counters-proc.h"
#include "tracetop/util.h"

/* Skip n space-separated fields of s; NULL if there are fewer. */
static const char *
skip_fields(const char *s, unsigned n)
{
	while (n-- > 0) {
		s = strchr(s, ' ');
		if (s == NULL)
			return NULL;
		s++;
	}
	return s;
}

/* Parse /proc/PID/stat: "pid (comm) state ppid ... utime stime ...". */
int
counters_proc_stat(const char *root, int pid, struct counters_pstat *out)
{
	char path[64], buf[1024];
	const char *open, *close, *p;
	unsigned long long ut, st;
	size_t len;

	snprintf(path, sizeof path, "%s/%d/stat", root, pid);
	if (read_file(path, buf, sizeof buf) <= 0)
		return -1;
	/* the command may hold spaces and parentheses: it ends at the last ')' */
	if ((open = strchr(buf, '(')) == NULL || (close = strrchr(buf, ')')) == NULL ||
	    close < open || close[1] != ' ' || close[2] == '\0')
		return -1;
	len = (size_t)(close - open - 1);
	if (len >= sizeof out->comm)
		len = sizeof out->comm - 1;
	/* state is field 3, utime and stime fields 14 and 15 */
	if ((p = skip_fields(close + 2, 11)) == NULL || sscanf(p, "%llu %llu", &ut, &st) != 2)
		return -1;
	out->pid = pid;
	memcpy(out->comm, open + 1, len);
	out->comm[len] = '\0';
	out->state = close[2];
	out->cputime = ut + st;
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
