/* tracefs: the mount, event formats, private instances and their clean-up,
 * filter errors in the kernel's words, the function tracer in a private
 * instance, snapshots of the global state. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "tracetop/symtab.h"
#include "tracetop/tracefs.h"

/* Most bytes read from one tracefs text file (formats, error_log). */
#define TFS_FILE_LIMIT (4u << 20)
/* Names tried before giving up on finding a free instance name. */
#define TFS_MAX_TRIES 64

struct tt_instance {
	char name[64];
	char path[PATH_MAX / 2];      /* room left in PATH_MAX buffers for its files */
	struct tracefs_instance *lib; /* libtracefs's handle, made on demand */
	struct tt_instance *next;
};

struct tt_ftrace {
	struct tt_instance *in;
};

static char tfs_override[PATH_MAX];
static bool tfs_overridden;
static char tfs_found[PATH_MAX];
static struct tt_instance *tfs_live; /* instances of ours still in tracefs */
static unsigned tfs_next;            /* N of the next instance name */
static bool tfs_atexit_done;

/* Whether dir has an events/ directory (or one we may not look into,
 * which still proves tracefs is there when allow_denied). */
static bool
tfs_has_events(const char *dir, bool allow_denied)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof path, "%s/events", dir);
	if (stat(path, &st) == 0)
		return S_ISDIR(st.st_mode);
	return allow_denied && errno == EACCES;
}

/* Point tracefs at dir instead of searching (tests); NULL searches again. */
void
tt_tracefs_set_dir(const char *dir)
{
	tfs_overridden = dir != NULL;
	if (dir != NULL)
		snprintf(tfs_override, sizeof tfs_override, "%s", dir);
}

/* Find the tracefs mount: the usual places, then /proc/mounts. */
const char *
tt_tracefs_dir(void)
{
	const char *dir = NULL;
	struct mntent *m;
	FILE *fp;

	if (tfs_overridden)
		return tfs_has_events(tfs_override, true) ? tfs_override : NULL;
	if (tfs_has_events("/sys/kernel/tracing", true))
		return "/sys/kernel/tracing";
	if (tfs_has_events("/sys/kernel/debug/tracing", false))
		return "/sys/kernel/debug/tracing";
	if ((fp = setmntent("/proc/mounts", "r")) == NULL)
		return NULL;
	while (dir == NULL && (m = getmntent(fp)) != NULL) {
		if (strcmp(m->mnt_type, "tracefs") == 0 && tfs_has_events(m->mnt_dir, true)) {
			snprintf(tfs_found, sizeof tfs_found, "%s", m->mnt_dir);
			dir = tfs_found;
		}
	}
	endmntent(fp);
	return dir;
}

/* Read a whole tracefs text file (they have no size) into a malloc'd,
 * NUL-terminated buffer; NULL with errno set. */
static char *
tfs_read(const char *path, size_t *len)
{
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc, saved;

	if (fd < 0)
		return NULL;
	rc = symtab_read_fd(fd, TFS_FILE_LIMIT, &buf, len);
	saved = errno;
	close(fd);
	errno = saved;
	return rc == 0 ? buf : NULL;
}

/* Write text to a tracefs file (truncating it); 0 or an errno. */
static int
tfs_write(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, len) != (ssize_t)len)
		e = errno ? errno : EIO;
	if (close(fd) != 0 && e == 0)
		e = errno;
	return e;
}

/* Read a file of tracefs (path relative to the mount) for an event. */
static char *
tfs_read_rel(const char *rel, const char *what, size_t *len, struct tt_err *err)
{
	const char *dir = tt_tracefs_dir();
	char path[PATH_MAX];
	char *text;

	if (dir == NULL) {
		err_set(err, "cannot read %s: tracefs is not mounted; " TT_TRACEFS_MOUNT_HINT,
		        what);
		return NULL;
	}
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	if ((text = tfs_read(path, len)) == NULL)
		err_set(err, "cannot read %s (%s): %s", what, path, strerror(errno));
	return text;
}

/* The format file of sys:event. */
char *
tt_tracefs_event_format(const char *sys, const char *event, size_t *len, struct tt_err *err)
{
	char rel[PATH_MAX], what[PATH_MAX];

	if (strchr(sys, '/') != NULL || strchr(event, '/') != NULL || sys[0] == '.' ||
	    event[0] == '.') {
		err_set(err, "bad tracepoint name '%s:%s'", sys, event);
		return NULL;
	}
	snprintf(rel, sizeof rel, "events/%s/%s/format", sys, event);
	snprintf(what, sizeof what, "the format of %s:%s", sys, event);
	return tfs_read_rel(rel, what, len, err);
}

/* The ring-buffer page header layout. */
char *
tt_tracefs_header_page(size_t *len, struct tt_err *err)
{
	return tfs_read_rel("events/header_page", "the ring-buffer page layout", len, err);
}

/* "tracetop-PID-N". */
void
tt_tracefs_instance_name(char *buf, size_t len, int pid, unsigned n)
{
	snprintf(buf, len, TT_TRACEFS_PREFIX "%d-%u", pid, n);
}

/* Parse "tracetop-PID-N" (digits only, no sign, no leading zero). */
bool
tt_tracefs_instance_parse(const char *name, int *pid)
{
	const char *p = name + strlen(TT_TRACEFS_PREFIX), *dash;
	char buf[16];
	size_t plen;

	if (strncmp(name, TT_TRACEFS_PREFIX, strlen(TT_TRACEFS_PREFIX)) != 0 ||
	    (dash = strchr(p, '-')) == NULL)
		return false;
	plen = (size_t)(dash - p);
	if (plen == 0 || plen >= sizeof buf || strspn(p, "0123456789") != plen || p[0] == '0')
		return false;
	if (dash[1] == '\0' || strspn(dash + 1, "0123456789") != strlen(dash + 1))
		return false;
	memcpy(buf, p, plen);
	buf[plen] = '\0';
	return parse_int(buf, pid) == 0 && *pid > 0;
}

/* Stop what a tracetop instance does so that it can be removed: its
 * tracer, its events, its function filter (errors ignored: a kernel
 * without some of these has nothing to stop there). */
static void
tfs_quiesce(const char *path)
{
	static const char *const files[][2] = {
	    {"tracing_on", "0"},       {"current_tracer", "nop"}, {"set_event", ""},
	    {"set_ftrace_filter", ""}, {"set_ftrace_pid", ""},
	};
	char f[PATH_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(f, sizeof f, "%s/%s", path, files[i][0]);
		tfs_write(f, files[i][1]);
	}
}

/* Remove an instance directory; a busy one is stopped first. 0 or an
 * errno. */
static int
tfs_rmdir(const char *path)
{
	if (rmdir(path) == 0)
		return 0;
	if (errno != EBUSY)
		return errno;
	tfs_quiesce(path);
	return rmdir(path) == 0 ? 0 : errno;
}

/* atexit: nothing of ours stays in tracefs. */
static void
tfs_atexit(void)
{
	tt_tracefs_remove_all();
}

/* Make a private instance. */
struct tt_instance *
tt_tracefs_instance_new(struct tt_err *err)
{
	const char *dir = tt_tracefs_dir();
	struct tt_instance *in;
	int tries;

	if (dir == NULL) {
		err_set(err, "tracefs is not mounted; " TT_TRACEFS_MOUNT_HINT);
		return NULL;
	}
	in = xcalloc(1, sizeof *in);
	for (tries = 0; tries < TFS_MAX_TRIES; tries++) {
		tt_tracefs_instance_name(in->name, sizeof in->name, (int)getpid(), tfs_next++);
		snprintf(in->path, sizeof in->path, "%s/instances/%s", dir, in->name);
		if (mkdir(in->path, 0750) == 0)
			break;
		if (errno != EEXIST) {
			err_set(err, "cannot make a private tracefs instance (%s): %s%s", in->path,
			        strerror(errno),
			        errno == EACCES || errno == EPERM ? "; run as root" : "");
			free(in);
			return NULL;
		}
	}
	if (tries == TFS_MAX_TRIES) {
		err_set(err, "cannot make a private tracefs instance: every name is taken");
		free(in);
		return NULL;
	}
	in->next = tfs_live;
	tfs_live = in;
	if (!tfs_atexit_done && atexit(tfs_atexit) == 0)
		tfs_atexit_done = true;
	return in;
}

/* The instance's name. */
const char *
tt_tracefs_instance_get_name(const struct tt_instance *in)
{
	return in->name;
}

/* libtracefs's handle on the instance (made on first use), or NULL. */
static struct tracefs_instance *
tfs_lib(struct tt_instance *in)
{
	const char *dir = tt_tracefs_dir();

	if (in->lib == NULL && dir != NULL)
		in->lib = tracefs_instance_alloc(dir, in->name);
	return in->lib;
}

/* Remove an instance and free it. */
void
tt_tracefs_instance_free(struct tt_instance *in)
{
	struct tt_instance **pp;

	if (in == NULL)
		return;
	for (pp = &tfs_live; *pp != NULL && *pp != in; pp = &(*pp)->next)
		;
	if (*pp == in)
		*pp = in->next;
	if (in->lib != NULL)
		tracefs_instance_free(in->lib); /* memory only */
	tfs_rmdir(in->path);
	free(in);
}

/* Remove all of this process's instances. */
void
tt_tracefs_remove_all(void)
{
	while (tfs_live != NULL)
		tt_tracefs_instance_free(tfs_live);
}

/* Whether a process with this pid exists (one we may not signal counts). */
static bool
tfs_pid_alive(int pid)
{
	return kill(pid, 0) == 0 || errno == EPERM;
}

/* Remove dead tracetops' instances. */
int
tt_tracefs_cleanup_stale(void (*removed)(void *arg, const char *name, int pid), void *arg,
                         struct tt_err *err)
{
	const char *dir = tt_tracefs_dir();
	char path[PATH_MAX];
	struct dirent *de;
	int n = 0, pid;
	DIR *d;

	if (dir == NULL)
		return 0;
	snprintf(path, sizeof path, "%s/instances", dir);
	if ((d = opendir(path)) == NULL)
		return errno == ENOENT ? 0
		                       : err_set(err, "cannot read %s: %s", path, strerror(errno));
	while ((de = readdir(d)) != NULL) {
		if (!tt_tracefs_instance_parse(de->d_name, &pid) || pid == (int)getpid() ||
		    tfs_pid_alive(pid))
			continue;
		snprintf(path, sizeof path, "%s/instances/%s", dir, de->d_name);
		if (tfs_rmdir(path) != 0)
			continue;
		n++;
		if (removed != NULL)
			removed(arg, de->d_name, pid);
	}
	closedir(d);
	return n;
}

/* The newest entry of an error_log text on one line, without its
 * timestamp: "event filter parse error: error: Field not found (at
 * column 11)", the column of the caret the kernel puts under its
 * "Command:" line; "" when there is no entry. */
static void
tfs_last_error(const char *log, char *buf, size_t len)
{
	const char *start = NULL, *p, *cmd, *line, *hat, *cmdline;
	size_t o;

	buf[0] = '\0';
	for (p = log; *p != '\0'; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != '\0'))
		if (*p == '[')
			start = p;
	if (start == NULL || (p = strchr(start, ']')) == NULL)
		return;
	p += 1 + strspn(p + 1, " ");
	snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
	if ((cmd = strstr(p, "Command: ")) == NULL)
		return;
	cmd += strlen("Command: ");
	line = cmd + strcspn(cmd, "\n");
	if (*line != '\n' || (hat = strchr(line + 1, '^')) == NULL ||
	    hat >= line + 1 + strcspn(line + 1, "\n"))
		return;
	for (cmdline = cmd; cmdline > p && cmdline[-1] != '\n'; cmdline--)
		;
	o = strlen(buf);
	snprintf(buf + o, len - o, " (at column %ld)",
	         (long)(hat - (line + 1)) - (long)(cmd - cmdline) + 1);
}

/* The kernel's words for a refused filter, from a private instance. */
int
tt_tracefs_filter_error(const char *sys, const char *event, const char *filter, char *buf,
                        size_t len, struct tt_err *err)
{
	struct tt_instance *in = tt_tracefs_instance_new(err);
	char path[PATH_MAX], *log;
	size_t loglen;
	int e;

	buf[0] = '\0';
	if (in == NULL)
		return -1;
	snprintf(path, sizeof path, "%s/events/%s/%s/filter", in->path, sys, event);
	e = tfs_write(path, filter);
	if (e != 0) {
		snprintf(path, sizeof path, "%s/error_log", in->path);
		if ((log = tfs_read(path, &loglen)) != NULL) {
			tfs_last_error(log, buf, len);
			free(log);
		}
		if (buf[0] == '\0')
			snprintf(buf, len, "%s", strerror(e));
	}
	tt_tracefs_instance_free(in);
	return 0;
}

static const char *const tfs_function_events[] = {"ftrace:function", NULL};
static const char *const tfs_graph_events[] = {"ftrace:funcgraph_entry", "ftrace:funcgraph_exit",
                                               NULL};

/* The events each tracer writes. */
const char *const *
tt_tracefs_ftrace_events(enum tt_ftrace_tracer tracer)
{
	return tracer == TT_FTRACE_GRAPH ? tfs_graph_events : tfs_function_events;
}

/* Why the kernel answers EPERM to function tracing, for the message. */
static void
tfs_eperm_reason(char *buf, size_t len)
{
	const char *dir = tt_tracefs_dir();
	char path[PATH_MAX], lock[200];
	int fd;

	if (read_file("/sys/kernel/security/lockdown", lock, sizeof lock) > 0 &&
	    strstr(lock, "[none]") == NULL) {
		lock[strcspn(lock, "\n")] = '\0';
		snprintf(buf, len, "kernel lockdown is on (%s)", lock);
		return;
	}
	snprintf(path, sizeof path, "%s/available_filter_functions", dir ? dir : "");
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 && (errno == EPERM || errno == EACCES)) {
		snprintf(buf, len,
		         "this kernel forbids the function tracer (even reading "
		         "available_filter_functions is refused)");
		return;
	}
	if (fd >= 0)
		close(fd);
	snprintf(buf, len, "this kernel's security policy forbids the function tracer");
}

/* Explain a failed write of what (funcs) to file of the instance. */
static struct tt_ftrace *
tfs_ftrace_fail(struct tt_instance *in, const char *file, const char *what, int e,
                const char *tracer, struct tt_err *err)
{
	char why[256];

	switch (e) {
	case EPERM:
	case EACCES:
		tfs_eperm_reason(why, sizeof why);
		err_set(
		    err,
		    "the kernel refused function tracing: writing '%s' to %s of tracetop's "
		    "private tracefs instance failed with %s (%s): %s; tracepoints (-T) still work",
		    what, file, e == EPERM ? "EPERM" : "EACCES", strerror(e), why);
		break;
	case ENODEV:
		err_set(err,
		        "the kernel has no function tracing (%s answered ENODEV): it needs "
		        "CONFIG_FUNCTION_TRACER and CONFIG_DYNAMIC_FTRACE",
		        file);
		break;
	case EBUSY:
		err_set(err,
		        "the function tracer is busy (%s answered EBUSY): another tool holds it",
		        file);
		break;
	case EINVAL:
	case ENOENT:
		if (strcmp(file, "set_ftrace_filter") == 0)
			err_set(err,
			        "no traceable kernel function matches '%s' (see "
			        "available_filter_functions)",
			        what);
		else
			err_set(
			    err,
			    "this kernel cannot run the %s tracer in a tracefs instance (%s: %s)",
			    tracer, file, strerror(e));
		break;
	default:
		err_set(err, "cannot set %s for the function tracer: %s", file, strerror(e));
	}
	tt_tracefs_instance_free(in);
	return NULL;
}

/* Write text to file of the instance; 0 or an errno. */
static int
tfs_instance_write(const struct tt_instance *in, const char *file, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%s", in->path, file);
	return tfs_write(path, text);
}

/* Whether the available_tracers of the tracefs directory dir (the mount or
 * an instance) lists tracer (true when it cannot be read). */
static bool
tfs_tracer_available(const char *dir, const char *tracer)
{
	char path[PATH_MAX], *list, *tok, *save = NULL;
	size_t len;
	bool found = false;

	snprintf(path, sizeof path, "%s/available_tracers", dir);
	if ((list = tfs_read(path, &len)) == NULL)
		return true; /* unknown: let current_tracer answer */
	for (tok = strtok_r(list, " \n", &save); tok != NULL && !found;
	     tok = strtok_r(NULL, " \n", &save))
		found = strcmp(tok, tracer) == 0;
	free(list);
	return found;
}

/* Start the function tracer in a private instance. */
struct tt_ftrace *
tt_tracefs_ftrace_start(const char *funcs, enum tt_ftrace_tracer tracer, const int *pids,
                        size_t npids, struct tt_err *err)
{
	const char *tname = tracer == TT_FTRACE_GRAPH ? "function_graph" : "function";
	struct tt_instance *in;
	struct tt_ftrace *f;
	char path[PATH_MAX], *list;
	int e;

	if (funcs == NULL || funcs[strspn(funcs, ", \t")] == '\0') {
		err_set(err, "--ftrace expects FUNC[,FUNC...]: kernel function names or globs");
		return NULL;
	}
	if ((in = tt_tracefs_instance_new(err)) == NULL)
		return NULL;
	snprintf(path, sizeof path, "%s/set_ftrace_filter", in->path);
	if (access(path, F_OK) != 0) {
		err_set(err, "this kernel has no function tracer: its tracefs instances have no "
		             "set_ftrace_filter (it needs CONFIG_FUNCTION_TRACER and "
		             "CONFIG_DYNAMIC_FTRACE)");
		tt_tracefs_instance_free(in);
		return NULL;
	}
	list = xstrdup(funcs);
	for (char *c = list; *c != '\0'; c++)
		if (*c == ',')
			*c = ' ';
	e = tfs_instance_write(in, "set_ftrace_filter", list);
	free(list);
	if (e != 0)
		return tfs_ftrace_fail(in, "set_ftrace_filter", funcs, e, tname, err);
	if (!tfs_tracer_available(in->path, tname)) {
		if (tfs_tracer_available(tt_tracefs_dir(), tname))
			err_set(err,
			        "this kernel cannot run the %s tracer in a tracefs instance (the "
			        "instance's available_tracers does not list it)",
			        tname);
		else
			err_set(err, "this kernel has no %s tracer (see available_tracers)", tname);
		tt_tracefs_instance_free(in);
		return NULL;
	}
	if (npids > 0) {
		char buf[4096] = "";

		for (size_t i = 0; i < npids && strlen(buf) + 16 < sizeof buf; i++)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%d ", pids[i]);
		if ((e = tfs_instance_write(in, "set_ftrace_pid", buf)) != 0)
			return tfs_ftrace_fail(in, "set_ftrace_pid", buf, e, tname, err);
		/* and the children they fork from now on */
		tfs_instance_write(in, "options/function-fork", "1");
	}
	/* the clock perf samples use, so both streams merge in time order */
	tfs_instance_write(in, "trace_clock", "perf");
	if ((e = tfs_instance_write(in, "current_tracer", tname)) != 0)
		return tfs_ftrace_fail(in, "current_tracer", tname, e, tname, err);
	if ((e = tfs_instance_write(in, "tracing_on", "1")) != 0)
		return tfs_ftrace_fail(in, "tracing_on", "1", e, tname, err);
	f = xcalloc(1, sizeof *f);
	f->in = in;
	return f;
}

/* What tracefs_iterate_raw_events calls back with. */
struct tfs_iter {
	void (*fn)(void *arg, const struct tt_ftrace_rec *r);
	void *arg;
	int n;
};

/* One event of the instance's buffers. */
static int
tfs_iter_event(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	struct tfs_iter *it = ctx;
	struct tt_ftrace_rec r = {
	    .time = rec->ts,
	    .cpu = cpu,
	    .raw = rec->data,
	    .size = rec->size > 0 ? (uint32_t)rec->size : 0,
	    .missed = rec->missed_events,
	};

	(void)ev;
	it->fn(it->arg, &r);
	it->n++;
	return 0;
}

/* Drain the function tracer's buffers. */
int
tt_tracefs_ftrace_read(struct tt_ftrace *f, struct tep_handle *tep,
                       void (*fn)(void *arg, const struct tt_ftrace_rec *r), void *arg)
{
	struct tracefs_instance *lib = tfs_lib(f->in);
	struct tfs_iter it = {fn, arg, 0};

	if (lib == NULL || tracefs_iterate_raw_events(tep, lib, NULL, 0, tfs_iter_event, &it) < 0)
		return -1;
	return it.n;
}

/* The function tracer's instance name. */
const char *
tt_tracefs_ftrace_instance(const struct tt_ftrace *f)
{
	return f->in->name;
}

/* Stop the function tracer and remove its instance. */
void
tt_tracefs_ftrace_stop(struct tt_ftrace *f)
{
	if (f == NULL)
		return;
	tfs_quiesce(f->in->path);
	tt_tracefs_instance_free(f->in);
	free(f);
}

/* A global file of tracefs, trailing newlines kept (NULL if unreadable). */
static char *
tfs_state_file(const char *dir, const char *name)
{
	char path[PATH_MAX];
	size_t len;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return tfs_read(path, &len);
}

/* Read the global state. */
int
tt_tracefs_state_read(struct tt_tracefs_state *st, struct tt_err *err)
{
	const char *dir = tt_tracefs_dir();
	char path[PATH_MAX], **names;
	size_t n = 0, len = 0;

	memset(st, 0, sizeof *st);
	if (dir == NULL)
		return err_set(err, "tracefs is not mounted; " TT_TRACEFS_MOUNT_HINT);
	st->set_event = tfs_state_file(dir, "set_event");
	st->tracing_on = tfs_state_file(dir, "tracing_on");
	st->current_tracer = tfs_state_file(dir, "current_tracer");
	snprintf(path, sizeof path, "%s/instances", dir);
	names = dir_list(path, &n);
	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + 1;
	st->instances = xcalloc(1, len + 1);
	for (size_t i = 0; i < n; i++) {
		strcat(st->instances, names[i]);
		strcat(st->instances, "\n");
	}
	names_free(names, n);
	if (st->set_event == NULL || st->tracing_on == NULL || st->current_tracer == NULL) {
		tt_tracefs_state_free(st);
		return err_set(err, "cannot read the tracing state in %s: %s", dir,
		               strerror(errno));
	}
	return 0;
}

/* Compare two states, naming the first difference. */
bool
tt_tracefs_state_equal(const struct tt_tracefs_state *a, const struct tt_tracefs_state *b,
                       char *why, size_t len)
{
	const char *names[] = {"set_event", "tracing_on", "current_tracer", "instances"};
	const char *va[] = {a->set_event, a->tracing_on, a->current_tracer, a->instances};
	const char *vb[] = {b->set_event, b->tracing_on, b->current_tracer, b->instances};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (strcmp(va[i] ? va[i] : "", vb[i] ? vb[i] : "") == 0)
			continue;
		snprintf(why, len, "%s changed: '%s' became '%s'", names[i], va[i] ? va[i] : "",
		         vb[i] ? vb[i] : "");
		return false;
	}
	if (len > 0)
		why[0] = '\0';
	return true;
}

/* Free a state. */
void
tt_tracefs_state_free(struct tt_tracefs_state *st)
{
	free(st->set_event);
	free(st->tracing_on);
	free(st->current_tracer);
	free(st->instances);
	memset(st, 0, sizeof *st);
}

/* The offset of field name in a tracepoint format text, or -1. */
int
tt_tracefs_format_offset(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(text, "field:"); p != NULL; p = strstr(p + 1, "field:")) {
		const char *semi = strchr(p, ';'), *off;
		int v;

		/* "field:long id;" "field:unsigned long args[6];" */
		if (semi == NULL || (size_t)(semi - p) < n + 1 || strncmp(semi - n, name, n) != 0 ||
		    (semi[-(long)n - 1] != ' ' && semi[-(long)n - 1] != '\t'))
			continue;
		if ((off = strstr(semi, "offset:")) == NULL || sscanf(off, "offset:%d", &v) != 1)
			return -1;
		return v;
	}
	return -1;
}

/* The offset of field of events/SYS/EVENT, or -1 (no such event or field). */
int
tt_tracefs_field_offset(const char *sys, const char *event, const char *field)
{
	struct tt_err err;
	size_t len;
	char *text = tt_tracefs_event_format(sys, event, &len, &err);
	int off = text != NULL ? tt_tracefs_format_offset(text, field) : -1;

	free(text);
	return off;
}
