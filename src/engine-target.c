/* engine-target: what the engine samples — the CPUs, the threads of -p
 * processes and -t threads, and a command started stopped before its exec
 * (so sampling can start at its exec) — turned into an evlist target. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine-impl.h"
#include "tracetop/evlist.h"

/* List the threads of process pid from /proc; -1 if it does not exist. */
static int
engine_pid_threads(int pid, int **tids, size_t *n)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof path, "/proc/%d/task", pid);
	if ((d = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		int tid;

		if (parse_int(de->d_name, &tid) != 0)
			continue;
		*tids = xrealloc(*tids, (*n + 1) * sizeof **tids);
		(*tids)[(*n)++] = tid;
	}
	closedir(d);
	return 0;
}

/* Fork the command, stopped until engine_start releases it. */
static int
engine_fork_command(struct engine *e, char *const *argv, struct tt_err *err)
{
	int go[2], ex[2];
	sigset_t all;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(ex, O_CLOEXEC) < 0)
		return err_set(err, "cannot create a pipe: %s", strerror(errno));
	e->child = fork();
	if (e->child < 0)
		return err_set(err, "cannot fork for '%s': %s", argv[0], strerror(errno));
	if (e->child == 0) {
		char c;
		int saved;

		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		close(go[1]);
		close(ex[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127); /* tracetop went away before starting us */
		execvp(argv[0], argv);
		saved = errno;
		if (write(ex[1], &saved, sizeof saved) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	e->go_fd = go[1];
	e->err_fd = ex[0];
	return 0;
}

/* Check the CPU list against the online CPUs (or take them all). */
static int
engine_cpus(struct engine *e, const struct engine_opts *o, struct tt_err *err)
{
	int *online;
	size_t nonline, i, j;

	if (online_cpus(&online, &nonline, err) != 0)
		return -1;
	if (o->ncpus == 0) {
		e->cpus = online;
		e->ncpus = nonline;
		return 0;
	}
	for (i = 0; i < o->ncpus; i++) {
		for (j = 0; j < nonline && online[j] != o->cpus[i]; j++)
			;
		if (j == nonline) {
			free(online);
			return err_set(err,
			               "CPU %d is not online (see /sys/devices/system/cpu/online)",
			               o->cpus[i]);
		}
	}
	free(online);
	e->cpus = xmalloc(o->ncpus * sizeof *e->cpus);
	memcpy(e->cpus, o->cpus, o->ncpus * sizeof *e->cpus);
	e->ncpus = o->ncpus;
	return 0;
}

/* Work out which threads to open and describe the target. */
int
engine_target_setup(struct engine *e, const struct engine_opts *o, struct evlist_target *t,
                    struct tt_err *err)
{
	size_t i;

	memset(t, 0, sizeof *t);
	if (engine_cpus(e, o, err) != 0)
		return -1;
	if (o->argv != NULL) {
		if (engine_fork_command(e, o->argv, err) != 0)
			return -1;
		e->tids = xmalloc(sizeof *e->tids);
		e->tids[e->ntids++] = e->child;
		t->inherit = t->enable_on_exec = true;
		snprintf(e->target, sizeof e->target, "command %s", o->argv[0]);
	} else if (o->npids > 0) {
		for (i = 0; i < o->npids; i++)
			if (engine_pid_threads(o->pids[i], &e->tids, &e->ntids) != 0)
				return err_set(err, "no such process %d: check the pid with ps",
				               o->pids[i]);
		e->pids = xmalloc(o->npids * sizeof *e->pids);
		memcpy(e->pids, o->pids, o->npids * sizeof *e->pids);
		e->npids = o->npids;
		t->inherit = true;
		snprintf(e->target, sizeof e->target, "pid %d%s", o->pids[0],
		         o->npids > 1 ? ",..." : "");
	} else if (o->ntids > 0) {
		char path[64];

		for (i = 0; i < o->ntids; i++) {
			snprintf(path, sizeof path, "/proc/%d/task/%d", o->tids[i], o->tids[i]);
			if (access(path, F_OK) != 0) {
				snprintf(path, sizeof path, "/proc/%d", o->tids[i]);
				if (access(path, F_OK) != 0)
					return err_set(err,
					               "no such thread %d: check the tid with "
					               "ps -eL",
					               o->tids[i]);
			}
		}
		e->tids = xmalloc(o->ntids * sizeof *e->tids);
		memcpy(e->tids, o->tids, o->ntids * sizeof *e->tids);
		e->ntids = o->ntids;
		e->pids = xmalloc(o->ntids * sizeof *e->pids);
		memcpy(e->pids, o->tids, o->ntids * sizeof *e->pids);
		e->npids = o->ntids;
		snprintf(e->target, sizeof e->target, "tid %d%s", o->tids[0],
		         o->ntids > 1 ? ",..." : "");
	} else {
		snprintf(e->target, sizeof e->target, "system-wide");
	}
	if (o->ncpus > 0 || o->argv == NULL)
		snprintf(e->target + strlen(e->target), sizeof e->target - strlen(e->target),
		         "%s(%zu CPU%s)", e->target[0] ? " " : "", e->ncpus,
		         e->ncpus == 1 ? "" : "s");
	t->cpus = e->cpus;
	t->ncpus = e->ncpus;
	t->tids = e->tids;
	t->ntids = e->ntids;
	return 0;
}
