/* tasks-ns: a process's files as it sees them. A process in another mount
 * namespace (a container) maps paths that mean another file here, or
 * nothing: its files are read through /proc/PID/root (checked against the
 * mapped file by device and inode, else by build-id through
 * /proc/PID/map_files), and its perf map is the one in its own /tmp, named
 * by its pid in its own pid namespace. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tracetop/sym-elf.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"

/* The process's pid in its own pid namespace (the last NSpid field of its
 * status), or its pid. */
static int
task_nspid(const struct task *t)
{
	char path[PATH_MAX], buf[2048], *line, *end;
	ssize_t n;
	long v;

	snprintf(path, sizeof path, "%s/%d/status", tasks_proc_root(t->home), t->pid);
	if ((n = read_file(path, buf, sizeof buf - 1)) <= 0)
		return t->pid;
	buf[n] = '\0';
	if ((line = strstr(buf, "\nNSpid:")) == NULL)
		return t->pid;
	line += 7;
	end = strchr(line, '\n');
	if (end != NULL)
		*end = '\0';
	if (strrchr(line, '\t') != NULL)
		line = strrchr(line, '\t');
	v = strtol(line + 1, &end, 10);
	return v > 0 && v <= INT32_MAX ? (int)v : t->pid;
}

/* The perf map a process leaves in our /tmp, where it is read after it
 * exited. */
static char *
jit_ours(const struct task *t)
{
	return xasprintf("/tmp/perf-%d.map", t->pid);
}

/* Where the process's perf map is: its own /tmp (through /proc/PID/root,
 * which is "/" outside a container) while it lives, else ours. */
char *
tasks_ns_jit_path(const struct task *t)
{
	char root[PATH_MAX];
	struct stat sb;

	snprintf(root, sizeof root, "%s/%d/root/tmp", tasks_proc_root(t->home), t->pid);
	if (stat(root, &sb) == 0)
		return xasprintf("%s/perf-%d.map", root, task_nspid(t));
	return jit_ours(t);
}

/* Where to look again when t's perf map could not be opened where we
 * looked: ours, when t has left /proc (it exited before we saw its EXIT)
 * and that is not where we looked; else NULL (most processes have no
 * map: they are not asked twice). Malloc'd. */
char *
tasks_ns_jit_again(const struct task *t)
{
	char dir[PATH_MAX], *ours = jit_ours(t);
	struct stat sb;

	if (t->jit_path != NULL && strcmp(ours, t->jit_path) != 0) {
		snprintf(dir, sizeof dir, "%s/%d", tasks_proc_root(t->home), t->pid);
		if (stat(dir, &sb) != 0 && errno == ENOENT)
			return ours;
	}
	free(ours);
	return NULL;
}

/* Whether path is the file mapped as (dev, ino); unknown (ino 0) says no. */
static bool
same_file(const char *path, const struct dso *d)
{
	struct stat sb;

	return d->ino != 0 && stat(path, &sb) == 0 && sb.st_ino == d->ino && sb.st_dev == d->dev;
}

/* Whether two files carry the same build-id (both must have one). */
static bool
same_build_id(const char *a, const char *b)
{
	uint8_t ida[20], idb[20];
	int na = symelf_build_id(a, ida, sizeof ida), nb = symelf_build_id(b, idb, sizeof idb);

	return na > 0 && na == nb && memcmp(ida, idb, (size_t)na) == 0;
}

/* Tell d where its file is when t, its first mapper, lives in another
 * mount namespace: the path through t's root when it is the mapped file,
 * else the mapping itself in map_files. */
void
tasks_ns_locate(const struct task *t, struct dso *d, uint64_t start, uint64_t end)
{
	const char *root = tasks_proc_root(t->home);
	char via_root[PATH_MAX], via_map[PATH_MAX];

	if (!mntns_foreign(root, t->pid) || d->name[0] != '/')
		return; /* ours (or it cannot be told): the name is the path */
	snprintf(via_root, sizeof via_root, "%s/%d/root%s", root, t->pid, d->name);
	snprintf(via_map, sizeof via_map, "%s/%d/map_files/%" PRIx64 "-%" PRIx64, root, t->pid,
	         start, end);
	if (same_file(via_root, d) ||
	    (access(via_root, R_OK) == 0 &&
	     (access(via_map, R_OK) != 0 || same_build_id(via_root, via_map))))
		dso_set_open_path(d, via_root);
	else if (access(via_map, R_OK) == 0)
		dso_set_open_path(d, via_map);
}
