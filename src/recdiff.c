/* recdiff: a baseline from a recording's range, made by replaying it in a
 * child process that hands the set back as lines through a pipe. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracetop/history.h"
#include "tracetop/recdiff.h"
#include "tracetop/recfile.h"
#include "tracetop/replay.h"
#include "tracetop/session.h"

/* The most a child's set may take (a recording of many functions). */
#define RECDIFF_MAX (256u << 20)

/* A range of intervals: by their middle's seconds since the start
 * [a, b), or by their numbers [ia, ib]. */
struct range {
	bool by_index;
	double a, b;
	int ia, ib;
};

/* One end of a range: "" (open), "#N" or seconds. 0, or -1. */
static int
range_end(const char *s, size_t n, bool *index, double *secs, int *num, bool *given)
{
	char buf[64];

	*given = n > 0;
	if (n == 0)
		return 0;
	if (n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*index = buf[0] == '#';
	if (*index)
		return parse_int(buf + 1, num) == 0 && *num >= 1 ? 0 : -1;
	return parse_double(buf, secs) == 0 && *secs >= 0 ? 0 : -1;
}

/* Parse a range's text. 0, or -1 with err. */
static int
range_parse(const char *text, struct range *r, struct tt_err *err)
{
	const char *dots = strstr(text, "..");
	bool ia = false, ib = false, ga, gb;
	double a = 0, b = 1e18;
	int na = 1, nb = INT_MAX;

	if (dots == NULL) { /* one interval: "#N" */
		if (text[0] != '#' || parse_int(text + 1, &na) != 0 || na < 1)
			goto bad;
		*r = (struct range){.by_index = true, .ia = na, .ib = na};
		return 0;
	}
	if (range_end(text, (size_t)(dots - text), &ia, &a, &na, &ga) != 0 ||
	    range_end(dots + 2, strlen(dots + 2), &ib, &b, &nb, &gb) != 0 ||
	    (ga && gb && ia != ib) || (!ga && !gb))
		goto bad;
	*r = (struct range){.by_index = ia || ib, .a = a, .b = b, .ia = na, .ib = nb};
	if (r->by_index && !ga)
		r->ia = 1;
	if (r->by_index && !gb)
		r->ib = INT_MAX;
	if (!r->by_index && !gb)
		r->b = 1e18;
	if ((r->by_index && r->ia > r->ib) || (!r->by_index && r->a >= r->b))
		goto bad;
	return 0;
bad:
	return err_set(err,
	               "'%s' is not a range of a recording: give START..END in seconds since "
	               "it began (e.g. 10..20, 5.5.., ..30) or #FIRST..#LAST in intervals "
	               "(e.g. #1..#5, #3)",
	               text);
}

/* The history's intervals in range r: from..to, false when none. */
static bool
range_find(const struct history *h, double start, const struct range *r, size_t *from, size_t *to)
{
	bool any = false;

	for (size_t i = 0; i < history_len(h); i++) {
		const struct history_info *in = history_info(h, i);
		bool in_range = r->by_index
		                    ? in->seq >= (uint64_t)r->ia && in->seq <= (uint64_t)r->ib
		                    : in->wall - in->secs / 2 - start >= r->a &&
		                          in->wall - in->secs / 2 - start < r->b;

		if (!in_range)
			continue;
		if (!any)
			*from = i;
		*to = i;
		any = true;
	}
	return any;
}

/* The set of the range's profile, counters and latency rows. */
static void
range_set(struct diff_set *s, struct session *ss, size_t from, size_t to, unsigned group)
{
	static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	const struct history *h = session_history(ss);
	const struct frame *live = session_frame(ss);
	struct counters_snapshot snaps[COUNTERS_NSCOPES];
	struct frame v = {0};
	size_t n = 0;

	if (live->has_sampling && live->sampling.nevents > 0) {
		struct hist_snapshot snap = {0};
		struct history_sum sum;

		history_sum(h, from, to, 0, &sum);
		if (sum.samples > 0) {
			hist_snapshot(sum.hist, by_overhead, NULL, NULL, &snap);
			diff_set_add_top(s, &snap, group);
		}
		hist_snapshot_free(&snap);
		history_sum_free(&sum);
	}
	history_view(h, from, to, live, &v);
	for (int k = 0; v.has_counters && k < COUNTERS_NSCOPES; k++)
		if (v.counters.taken & (1u << k))
			snaps[n++] = v.counters.scopes[k];
	if (n > 0)
		diff_set_add_counters(s, snaps, n);
	if (v.has_latency)
		diff_set_add_latency(s, &v.latency);
	history_view_free(&v);
	diff_set_seal(s);
}

/* A recording's range in this process. */
int
recdiff_load_range(struct diff_set *s, const char *path, const char *range, unsigned group,
                   struct tt_err *err)
{
	struct session_opts so = {.stop_when_finished = true,
	                          .idle_when_finished = true,
	                          .sort = hist_unsorted,
	                          .history = REPLAY_HISTORY_SECS,
	                          .history_bytes = replay_history_bytes()};
	const struct session_hooks hooks = {0};
	struct range r = {.by_index = true, .ia = 1, .ib = INT_MAX};
	struct replay *rp;
	struct session *ss;
	const struct history *h;
	double start, covered;
	size_t from = 0, to = 0;
	int rc = 0;

	memset(s, 0, sizeof *s);
	if (range != NULL && range_parse(range, &r, err) != 0)
		return -1;
	if ((rp = replay_open(path, err)) == NULL)
		return -1;
	start = replay_header(rp)->start;
	ss = session_new(&so);
	session_add(ss, &source_replay, rp);
	if (session_run(ss, &hooks) != 0)
		rc = err_set(err, "cannot replay %s: %s", path, strerror(errno));
	h = session_history(ss);
	/* a range reaching into what the history dropped would be cut short */
	if (rc == 0 && history_dropped(h) > 0 &&
	    (r.by_index ? (uint64_t)r.ia < history_info(h, 0)->seq
	                : r.a <= history_info(h, 0)->wall - history_info(h, 0)->secs / 2 - start))
		rc = err_set(err,
		             "%s is too long to replay whole in memory: its first %zu intervals "
		             "went; give a range after them (from #%llu)",
		             path, history_dropped(h), (unsigned long long)history_info(h, 0)->seq);
	if (rc == 0 && !range_find(h, start, &r, &from, &to)) {
		size_t n = history_len(h);

		covered = n > 0 ? history_info(h, n - 1)->wall - start : 0;
		rc = err_set(err,
		             "%s@%s: no interval in that range (it has %zu intervals, #1..#%zu, "
		             "over %.1f s)",
		             path, range, n, n, covered);
	}
	if (rc == 0)
		range_set(s, ss, from, to, group);
	session_free(ss);
	return rc;
}

/* Split spec into its path (malloc'd) and its range (in spec, or NULL):
 * the whole spec when it is a file, else what comes before the last @. */
static char *
spec_split(const char *spec, const char **range)
{
	const char *at = strrchr(spec, '@');
	struct stat st;

	*range = NULL;
	if (at == NULL || stat(spec, &st) == 0)
		return xstrdup(spec);
	*range = at + 1;
	return xstrndup(spec, (size_t)(at - spec));
}

/* Whether the file at path starts like a recording. */
static bool
is_recording(const char *path)
{
	char head[RECFILE_MAGIC_LEN];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	bool yes;

	if (fd < 0)
		return false;
	yes = read(fd, head, sizeof head) == (ssize_t)sizeof head &&
	      memcmp(head, RECFILE_MAGIC, RECFILE_MAGIC_LEN) == 0;
	close(fd);
	return yes;
}

/* Whether spec names a recording. */
bool
recdiff_is_recording(const char *spec)
{
	const char *range;
	char *path = spec_split(spec, &range);
	bool yes = is_recording(path);

	free(path);
	return yes;
}

/* The child: the set as lines on fd ("G group", "H kind", "I kind value
 * value2 weight key"), or "E why". */
static void
child_write(int fd, const char *path, const char *range, unsigned group)
{
	FILE *w = fdopen(fd, "w");
	struct diff_set s;
	struct tt_err err;

	if (w == NULL)
		_exit(1);
	if (recdiff_load_range(&s, path, range, group, &err) != 0) {
		fprintf(w, "E\t%s\n", err.msg);
	} else {
		fprintf(w, "G\t%u\n", s.group);
		for (int k = 0; k < DIFF_NKINDS; k++) {
			if (s.has[k])
				fprintf(w, "H\t%d\n", k);
			for (size_t i = 0; i < s.n[k]; i++)
				fprintf(w, "I\t%d\t%.17g\t%.17g\t%.17g\t%s\n", k,
				        s.items[k][i].value, s.items[k][i].value2,
				        s.items[k][i].weight, s.items[k][i].key);
		}
		diff_set_free(&s);
	}
	_exit(fclose(w) == 0 ? 0 : 1);
}

/* The lines of a child into s. 0, or -1 with err. */
static int
parent_read(struct diff_set *s, FILE *r, const char *spec, struct tt_err *err)
{
	char *line = NULL;
	size_t cap = 0, total = 0;
	ssize_t n;
	int rc = -2;

	while ((n = getline(&line, &cap, r)) > 0 && (total += (size_t)n) < RECDIFF_MAX) {
		char *key;
		int k;
		double v, v2, w;

		line[n - 1] = line[n - 1] == '\n' ? '\0' : line[n - 1];
		if (line[0] == 'E' && line[1] == '\t') {
			rc = err_set(err, "%s", line + 2);
			break;
		}
		rc = 0;
		if (line[0] == 'G')
			s->group = (unsigned)strtoul(line + 2, NULL, 10);
		else if (line[0] == 'H' && (k = atoi(line + 2)) >= 0 && k < DIFF_NKINDS)
			s->has[k] = true;
		else if (line[0] == 'I' &&
		         sscanf(line + 2, "%d\t%lg\t%lg\t%lg\t", &k, &v, &v2, &w) == 4 && k >= 0 &&
		         k < DIFF_NKINDS) {
			key = line + 2;
			for (int tabs = 0; tabs < 4 && key != NULL; tabs++)
				key = (key = strchr(key, '\t')) != NULL ? key + 1 : NULL;
			if (key != NULL)
				diff_set_add(s, (enum diff_kind)k, key, v, v2, w);
		}
	}
	free(line);
	if (rc == -2)
		rc = err_set(err, "cannot replay %s: its replay ended without a word", spec);
	return rc;
}

/* A set from a recording (in a child) or a JSON report. */
int
recdiff_load(struct diff_set *s, const char *spec, unsigned group, struct tt_err *err)
{
	const char *range;
	char *path = spec_split(spec, &range);
	int fds[2], rc, wst;
	pid_t pid;
	FILE *r;

	if (!is_recording(path)) {
		free(path);
		return diff_set_load_file(s, spec, err);
	}
	memset(s, 0, sizeof *s);
	if (pipe2(fds, O_CLOEXEC) != 0 || (pid = fork()) < 0) {
		free(path);
		return err_set(err, "cannot replay %s: %s", spec, strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		child_write(fds[1], path, range, group);
	}
	close(fds[1]);
	free(path);
	if ((r = fdopen(fds[0], "r")) == NULL) {
		close(fds[0]);
		waitpid(pid, &wst, 0);
		return err_set(err, "cannot replay %s: %s", spec, strerror(errno));
	}
	rc = parent_read(s, r, spec, err);
	fclose(r);
	while (waitpid(pid, &wst, 0) < 0 && errno == EINTR)
		;
	if (rc != 0) {
		diff_set_free(s);
		return -1;
	}
	diff_set_seal(s);
	return 0;
}
