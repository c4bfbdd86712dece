/* commseen: the threads /proc listed at the start, sorted by tid. */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "tracetop/commseen.h"
#include "tracetop/util.h"

struct seen {
	int tid, pid;
	const char *comm; /* interned */
};

struct commseen {
	struct seen *v;
	size_t n, cap;
};

/* A /proc entry's name as a pid, or -1 when it is not one. */
static int
name_pid(const char *name)
{
	char *end;
	long v = strtol(name, &end, 10);

	return *name != '\0' && *end == '\0' && v > 0 && v <= INT_MAX ? (int)v : -1;
}

/* Add the threads of process pid (read from dir, its task directory). */
static void
scan_threads(struct commseen *cs, const char *proc_root, int pid)
{
	char path[PATH_MAX], buf[64];
	struct dirent *de;
	DIR *d;
	ssize_t n;
	int tid;

	snprintf(path, sizeof path, "%s/%d/task", proc_root, pid);
	if ((d = opendir(path)) == NULL)
		return; /* gone meanwhile */
	while ((de = readdir(d)) != NULL) {
		if ((tid = name_pid(de->d_name)) < 0)
			continue;
		snprintf(path, sizeof path, "%s/%d/task/%d/comm", proc_root, pid, tid);
		if ((n = read_file(path, buf, sizeof buf)) <= 0)
			continue;
		if (buf[n - 1] == '\n')
			buf[n - 1] = '\0';
		if (cs->n == cs->cap) {
			cs->cap = cs->cap ? cs->cap * 2 : 256;
			cs->v = xrealloc(cs->v, cs->cap * sizeof *cs->v);
		}
		cs->v[cs->n++] = (struct seen){.tid = tid, .pid = pid, .comm = str_intern(buf)};
	}
	closedir(d);
}

/* Order of two entries by tid. */
static int
cmp_tid(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Every thread under proc_root, sorted for lookups. */
struct commseen *
commseen_scan(const char *proc_root)
{
	struct commseen *cs;
	struct dirent *de;
	DIR *d;
	int pid;

	if ((d = opendir(proc_root)) == NULL)
		return NULL;
	cs = xcalloc(1, sizeof *cs);
	while ((de = readdir(d)) != NULL)
		if ((pid = name_pid(de->d_name)) > 0)
			scan_threads(cs, proc_root, pid);
	closedir(d);
	if (cs->n == 0) {
		commseen_free(cs);
		return NULL;
	}
	qsort(cs->v, cs->n, sizeof *cs->v, cmp_tid);
	return cs;
}

/* Free the table. */
void
commseen_free(struct commseen *cs)
{
	if (cs == NULL)
		return;
	free(cs->v);
	free(cs);
}

/* Thread tid as the scan saw it. */
bool
commseen_get(const struct commseen *cs, int tid, int *pid, const char **comm)
{
	const struct seen key = {.tid = tid}, *s;

	if (cs == NULL || (s = bsearch(&key, cs->v, cs->n, sizeof *cs->v, cmp_tid)) == NULL)
		return false;
	*pid = s->pid;
	*comm = s->comm;
	return true;
}
