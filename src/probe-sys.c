/* probe-sys: the system's side of probes: the dynamic-event listings of
 * tracefs (parsed, never changed but for our own groups), writing
 * definitions and removals with the kernel's own words on refusal, the
 * clean-up of groups that dead tracetops left, and the lists the pickers
 * offer (kernel functions, a binary's functions, a process's objects). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/probe.h"
#include "tracetop/procmaps.h"
#include "tracetop/sym-elf.h"
#include "tracetop/sym-kernel.h"
#include "tracetop/sym-name.h"
#include "tracetop/symtab.h"
#include "tracetop/tracefs.h"

/* Most bytes read from a listing or error_log. */
#define SYS_FILE_LIMIT (16u << 20)

/* Read a tracefs (or /proc) file into a malloc'd NUL-terminated buffer;
 * NULL with errno. */
static char *
sys_read(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), saved;
	char *buf = NULL;

	if (fd < 0)
		return NULL;
	if (symtab_read_fd(fd, SYS_FILE_LIMIT, &buf, len) != 0)
		buf = NULL;
	saved = errno;
	close(fd);
	errno = saved;
	return buf;
}

/* DIR/name of tracefs into path; false when tracefs is not mounted. */
static bool
sys_path(const char *name, char *path, size_t len)
{
	const char *dir = tt_tracefs_dir();

	if (dir == NULL)
		return false;
	snprintf(path, len, "%s/%s", dir, name);
	return true;
}

/* Every dynamic event. */
int
probe_events_list(struct probe_event **out, size_t *n, struct tt_err *err)
{
	static const char *const files[] = {"uprobe_events", "kprobe_events"};
	char path[PATH_MAX], *text = NULL, *part;
	size_t len = 0, plen;

	*out = NULL;
	*n = 0;
	if (!sys_path("dynamic_events", path, sizeof path))
		return err_set(err, "tracefs is not mounted; " TT_TRACEFS_MOUNT_HINT);
	if ((text = sys_read(path, &len)) == NULL && errno != ENOENT)
		return err_set(err, "cannot read %s: %s", path, strerror(errno));
	for (size_t i = 0; text == NULL && i < ARRAY_SIZE(files); i++) {
		sys_path(files[i], path, sizeof path);
		if ((part = sys_read(path, &plen)) == NULL)
			continue;
		text = xrealloc(text, len + plen + 1);
		memcpy(text + len, part, plen + 1);
		len += plen;
		free(part);
	}
	if (text != NULL)
		probe_events_parse(text, len, out, n);
	free(text);
	return 0;
}

/* The kernel's last complaint in error_log, if it is new since before
 * (what error_log held then), into buf ("" when none). */
static void
last_error(const char *before, char *buf, size_t len)
{
	char path[PATH_MAX], *log, *at, *end;
	size_t n;

	buf[0] = '\0';
	if (!sys_path("error_log", path, sizeof path) || (log = sys_read(path, &n)) == NULL)
		return;
	if (before == NULL || strcmp(before, log) != 0) {
		for (at = log; (end = strstr(at, "error: ")) != NULL; at = end + 1)
			;
		if (at != log) {
			at += strlen("error: ") - 1;
			str_escape(buf, len, at, strcspn(at, "\n"));
		}
	}
	free(log);
}

/* Write a line to a tracefs control file. */
int
probe_tracefs_write(const char *name, const char *line, struct tt_err *err)
{
	char path[PATH_MAX], *before, *text, kernel[256];
	size_t n;
	int fd, e = 0;

	if (!sys_path(name, path, sizeof path))
		return err_set(err, "tracefs is not mounted; " TT_TRACEFS_MOUNT_HINT);
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)) < 0)
		return err_set(err, "cannot write %s: %s%s", path, strerror(errno),
		               errno == EACCES || errno == EPERM ? "; run as root" : "");
	sys_path("error_log", kernel, sizeof kernel);
	before = sys_read(kernel, &n);
	text = xasprintf("%s\n", line);
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		e = errno ? errno : EIO;
	close(fd);
	free(text);
	if (e != 0) {
		last_error(before, kernel, sizeof kernel);
		err_set(err, "the kernel refused '%s' (%s)%s%s", line, strerror(e),
		        kernel[0] ? ":" : "", kernel);
	}
	free(before);
	return e ? -1 : 0;
}

/* The file that removes an event of kind k. */
static const char *
removal_file(enum probe_kind k)
{
	char path[PATH_MAX];

	if (sys_path("dynamic_events", path, sizeof path) && access(path, W_OK) == 0)
		return "dynamic_events";
	return k == PROBE_UPROBE || k == PROBE_URETPROBE ? "uprobe_events" : "kprobe_events";
}

/* Remove every event of a group. */
int
probe_group_remove(const char *group, struct tt_err *err)
{
	struct probe_event *v;
	struct tt_err e2;
	size_t n, i;
	int removed = 0, failed = 0;

	if (probe_events_list(&v, &n, err) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		char *line;

		if (strcmp(v[i].group, group) != 0)
			continue;
		line = xasprintf("-:%s/%s", v[i].group, v[i].event);
		if (probe_tracefs_write(removal_file(v[i].kind), line, &e2) == 0)
			removed++;
		else if (failed++ == 0 && err != NULL)
			*err = e2;
		free(line);
	}
	probe_events_free(v, n);
	return failed ? -1 : removed;
}

/* Whether a process with this pid exists (one we may not signal counts). */
static bool
pid_alive(int pid)
{
	return kill(pid, 0) == 0 || errno == EPERM;
}

/* Remove dead tracetops' groups. */
int
probe_cleanup_stale(void (*removed)(void *arg, const char *group, int pid, size_t nevents),
                    void *arg, struct tt_err *err)
{
	struct probe_event *v;
	struct tt_err e2;
	size_t n, i, j, count;
	int pid, groups = 0, failed = 0, r;

	if (tt_tracefs_dir() == NULL)
		return 0;
	if (probe_events_list(&v, &n, err) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (!probe_group_parse(v[i].group, &pid) || pid == (int)getpid() || pid_alive(pid))
			continue;
		for (j = 0; j < i && strcmp(v[j].group, v[i].group) != 0; j++)
			;
		if (j < i) /* seen */
			continue;
		for (count = 0, j = i; j < n; j++)
			count += strcmp(v[j].group, v[i].group) == 0;
		if ((r = probe_group_remove(v[i].group, &e2)) < 0) {
			if (failed++ == 0)
				err_set(err, "cannot remove probe group %s: %s", v[i].group,
				        e2.msg);
			continue;
		}
		groups++;
		if (removed != NULL)
			removed(arg, v[i].group, pid, count);
	}
	probe_events_free(v, n);
	return failed ? -1 : groups;
}

/* qsort comparison of names. */
static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort v and drop repeats. */
static char **
names_unique(char **v, size_t *n)
{
	size_t k = 0;

	if (*n == 0)
		return v ? v : xcalloc(1, sizeof *v);
	qsort(v, *n, sizeof *v, str_cmp);
	for (size_t i = 0; i < *n; i++) {
		if (k > 0 && strcmp(v[k - 1], v[i]) == 0)
			free(v[i]);
		else
			v[k++] = v[i];
	}
	*n = k;
	return v;
}

/* Append a copy of s (len bytes) to v, with an empty raw name after it
 * (probe_function_raw). */
static void
names_add(char ***v, size_t *n, size_t *cap, const char *s, size_t len)
{
	char *item = xmalloc(len + 2);

	memcpy(item, s, len);
	item[len] = item[len + 1] = '\0';
	names_push(v, n, cap, item);
}

/* The names of a symbol table: full names, each followed by its raw name
 * when that differs (sorting and de-duplication see the full name only). */
static char **
symtab_names(const struct symtab *st, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; i < st->n; i++) {
		const char *raw = st->syms[i].name, *full = sym_name(&st->syms[i]);
		size_t fl = strlen(full), rl = strlen(raw);
		char *item;

		if (full == raw) {
			names_add(&v, n, &cap, raw, rl);
			continue;
		}
		item = xmalloc(fl + rl + 2);
		memcpy(item, full, fl + 1);
		memcpy(item + fl + 1, raw, rl + 1);
		names_push(&v, n, &cap, item);
	}
	return names_unique(v, n);
}

/* The raw name after an item's NUL, or the item. */
const char *
probe_function_raw(const char *item)
{
	const char *raw = item + strlen(item) + 1;

	return *raw != '\0' ? raw : item;
}

/* The kernel's probe-able functions. */
char **
probe_kernel_functions(size_t *n, struct tt_err *err)
{
	char path[PATH_MAX], *text, *line, *save = NULL, **v = NULL;
	struct symtab st;
	size_t len, cap = 0;

	*n = 0;
	if (sys_path("available_filter_functions", path, sizeof path) &&
	    (text = sys_read(path, &len)) != NULL) {
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (strcspn(line, " \t") > 0 && strncmp(line, "__ftrace_invalid", 16) != 0)
				names_add(&v, n, &cap, line, strcspn(line, " \t"));
		free(text);
		return names_unique(v, n);
	}
	symtab_init(&st);
	if (symkernel_load("/proc/kallsyms", &st, err) != 0) {
		symtab_free(&st);
		return NULL;
	}
	v = symtab_names(&st, n);
	symtab_free(&st);
	return v;
}

/* The function symbols of an ELF file. */
char **
probe_binary_functions(const char *path, size_t *n, struct tt_err *err)
{
	struct symtab st;
	struct dso_seg *segs;
	size_t nsegs;
	char *debug, **v = NULL;

	*n = 0;
	symtab_init(&st);
	if (symelf_load(path, NULL, &st, &segs, &nsegs, &debug, err) == 0)
		v = symtab_names(&st, n);
	symtab_free(&st);
	free(segs);
	free(debug);
	return v;
}

/* The names collected by probe_process_objects. */
struct objects {
	char **v;
	size_t n, cap;
};

/* Keep an executable mapping's file (not memory, nor a deleted file). */
static void
objects_add(void *arg, const struct procmap *m)
{
	struct objects *o = arg;

	if (m->name[0] == '/' && strstr(m->name, " (deleted)") == NULL)
		names_add(&o->v, &o->n, &o->cap, m->name, strlen(m->name));
}

/* The ELF files a process maps executable. */
char **
probe_process_objects(int pid, size_t *n, struct tt_err *err)
{
	struct objects o = {0};
	char path[64];

	*n = 0;
	snprintf(path, sizeof path, "/proc/%d/maps", pid);
	if (procmaps_exec(path, false, objects_add, &o) != 0) {
		err_set(err, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	*n = o.n;
	return names_unique(o.v, n);
}
