/* evspec: perf-style event names ("cycles:u", "sched:sched_switch", "r003c")
 * to perf_event_attr, and the catalog of events this machine offers. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tracetop/evspec.h"
#include "tracetop/tracefs.h"

#define SEE_LIST "see tracetop --list-events"
#define RAW_HINT "raw events are r followed by 1-16 hex digits, e.g. r003c"
#define MOD_CHARS "ukhp"

/* A hardware or software event with a fixed name. */
struct named_event {
	const char *name;
	const char *alias;
	uint32_t type;
	uint64_t config;
};

/* Sorted by name within each type, so the catalog prints in order. */
static const struct named_event named_events[] = {
    {"branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"branches", "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES},
    {"cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cycles", "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
    {"stalled-cycles-backend", "idle-cycles-backend", PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
    {"stalled-cycles-frontend", "idle-cycles-frontend", PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
    {"alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS},
    {"cgroup-switches", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES},
    {"context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"dummy", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY},
    {"emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS},
    {"major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
};

/* Hardware cache event names, perf's spelling: the first alias is canonical,
 * all are matched case-insensitively. */
#define CACHE_ALIASES 4
#define NCACHE PERF_COUNT_HW_CACHE_MAX
#define NOP PERF_COUNT_HW_CACHE_OP_MAX
#define NRESULT PERF_COUNT_HW_CACHE_RESULT_MAX

static const char *const cache_types[NCACHE][CACHE_ALIASES] = {
    [PERF_COUNT_HW_CACHE_L1D] = {"L1-dcache", "l1-d", "l1d", "L1-data"},
    [PERF_COUNT_HW_CACHE_L1I] = {"L1-icache", "l1-i", "l1i", "L1-instruction"},
    [PERF_COUNT_HW_CACHE_LL] = {"LLC", "L2"},
    [PERF_COUNT_HW_CACHE_DTLB] = {"dTLB", "d-tlb", "Data-TLB"},
    [PERF_COUNT_HW_CACHE_ITLB] = {"iTLB", "i-tlb", "Instruction-TLB"},
    [PERF_COUNT_HW_CACHE_BPU] = {"branch", "branches", "bpu", "btb"},
    [PERF_COUNT_HW_CACHE_NODE] = {"node"},
};

/* The first alias is used before "-misses", the second alone ("-loads"). */
static const char *const cache_ops[NOP][CACHE_ALIASES] = {
    [PERF_COUNT_HW_CACHE_OP_READ] = {"load", "loads", "read"},
    [PERF_COUNT_HW_CACHE_OP_WRITE] = {"store", "stores", "write"},
    [PERF_COUNT_HW_CACHE_OP_PREFETCH] = {"prefetch", "prefetches", "speculative-read",
                                         "speculative-load"},
};

static const char *const cache_results[NRESULT][CACHE_ALIASES] = {
    [PERF_COUNT_HW_CACHE_RESULT_ACCESS] = {"refs", "reference", "ops", "access"},
    [PERF_COUNT_HW_CACHE_RESULT_MISS] = {"misses", "miss"},
};

#define OPBIT(op) (1u << PERF_COUNT_HW_CACHE_OP_##op)

/* Which operations each cache counts (as perf has it). */
static const unsigned cache_valid_ops[NCACHE] = {
    [PERF_COUNT_HW_CACHE_L1D] = OPBIT(READ) | OPBIT(WRITE) | OPBIT(PREFETCH),
    [PERF_COUNT_HW_CACHE_L1I] = OPBIT(READ) | OPBIT(PREFETCH),
    [PERF_COUNT_HW_CACHE_LL] = OPBIT(READ) | OPBIT(WRITE) | OPBIT(PREFETCH),
    [PERF_COUNT_HW_CACHE_DTLB] = OPBIT(READ) | OPBIT(WRITE) | OPBIT(PREFETCH),
    [PERF_COUNT_HW_CACHE_ITLB] = OPBIT(READ),
    [PERF_COUNT_HW_CACHE_BPU] = OPBIT(READ),
    [PERF_COUNT_HW_CACHE_NODE] = OPBIT(READ) | OPBIT(WRITE) | OPBIT(PREFETCH),
};

/* Match the longest alias of one row of tab at *s, case-insensitively, and
 * step past it and a following '-'; the row index or -1. */
static int
match_alias(const char *const (*tab)[CACHE_ALIASES], size_t rows, const char **s)
{
	size_t best_len = 0, r, a;
	int best = -1;

	for (r = 0; r < rows; r++) {
		for (a = 0; a < CACHE_ALIASES && tab[r][a] != NULL; a++) {
			size_t len = strlen(tab[r][a]);

			if (len <= best_len || strncasecmp(*s, tab[r][a], len) != 0)
				continue;
			if ((*s)[len] == '\0' || ((*s)[len] == '-' && (*s)[len + 1] != '\0')) {
				best = (int)r;
				best_len = len;
			}
		}
	}
	if (best >= 0)
		*s += best_len + ((*s)[best_len] == '-');
	return best;
}

/* The PERF_TYPE_HW_CACHE config for a cache, operation and result. */
static uint64_t
cache_config(unsigned cache, unsigned op, unsigned result)
{
	return cache | (op << 8) | (result << 16);
}

/* Name the idx-th hardware cache event (0 .. NCACHE*NOP*NRESULT-1) into buf;
 * false when that combination does not exist. */
static bool
cache_event_name(unsigned idx, char *buf, size_t len, uint64_t *config)
{
	unsigned cache = idx / (NOP * NRESULT), op = idx / NRESULT % NOP, result = idx % NRESULT;

	if (!(cache_valid_ops[cache] & (1u << op)))
		return false;
	if (result == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
		snprintf(buf, len, "%s-%s", cache_types[cache][0], cache_ops[op][1]);
	else
		snprintf(buf, len, "%s-%s-%s", cache_types[cache][0], cache_ops[op][0],
		         cache_results[result][0]);
	*config = cache_config(cache, op, result);
	return true;
}

/* Parse CACHE[-OP][-RESULT] (in any order after the cache, perf's defaults
 * load and access): 1 and attr filled, 0 if not a cache name, -1 on error. */
static int
cache_lookup(const char *name, struct perf_event_attr *attr, struct tt_err *err)
{
	const char *s = name;
	int cache = match_alias(cache_types, NCACHE, &s), op = -1, result = -1, k;

	if (cache < 0)
		return 0;
	while (*s != '\0') {
		if (op < 0 && (k = match_alias(cache_ops, NOP, &s)) >= 0)
			op = k;
		else if (result < 0 && (k = match_alias(cache_results, NRESULT, &s)) >= 0)
			result = k;
		else
			return 0;
	}
	op = op < 0 ? PERF_COUNT_HW_CACHE_OP_READ : op;
	result = result < 0 ? PERF_COUNT_HW_CACHE_RESULT_ACCESS : result;
	if (!(cache_valid_ops[cache] & (1u << op)))
		return err_set(err,
		               "invalid hardware cache event '%s': %s does not count %s; " SEE_LIST,
		               name, cache_types[cache][0], cache_ops[op][1]);
	attr->type = PERF_TYPE_HW_CACHE;
	attr->config = cache_config((unsigned)cache, (unsigned)op, (unsigned)result);
	return 1;
}

/* Parse rHEX: 1 and attr filled, 0 if not raw syntax, -1 on a bad raw spec. */
static int
raw_lookup(const char *name, struct perf_event_attr *attr, struct tt_err *err)
{
	const char *hex = name + 1;
	char buf[24];
	uint64_t config;

	if (name[0] != 'r')
		return 0;
	if (*hex == '\0')
		return err_set(err, "raw event 'r' has no hex digits; %s", RAW_HINT);
	if (strspn(hex, "0123456789abcdefABCDEF") != strlen(hex))
		return 0;
	if (strlen(hex) > 16)
		return err_set(err, "raw event '%s' has too many hex digits; %s", name, RAW_HINT);
	snprintf(buf, sizeof buf, "0x%s", hex);
	if (parse_u64(buf, &config) != 0)
		return err_set(err, "bad raw event '%s'; %s", name, RAW_HINT);
	attr->type = PERF_TYPE_RAW;
	attr->config = config;
	return 1;
}

/* Look up a hardware, software, cache or raw event name (no modifiers):
 * 1 and attr filled, 0 if unknown, -1 with err on a malformed one. */
static int
builtin_lookup(const char *name, struct perf_event_attr *attr, struct tt_err *err)
{
	size_t i;
	int r;

	for (i = 0; i < ARRAY_SIZE(named_events); i++) {
		const struct named_event *e = &named_events[i];

		if (strcmp(name, e->name) == 0 ||
		    (e->alias != NULL && strcmp(name, e->alias) == 0)) {
			attr->type = e->type;
			attr->config = e->config;
			return 1;
		}
	}
	if ((r = cache_lookup(name, attr, err)) != 0)
		return r;
	return raw_lookup(name, attr, err);
}

/* Edit distance between a and b, ignoring case; large when either is long. */
static unsigned
edit_distance(const char *a, const char *b)
{
	unsigned row[128], i, j;
	size_t la = strlen(a), lb = strlen(b);

	if (la >= ARRAY_SIZE(row) || lb >= ARRAY_SIZE(row))
		return UINT_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		unsigned diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned up = row[j];
			unsigned sub = diag + (tolower((unsigned char)a[i - 1]) !=
			                       tolower((unsigned char)b[j - 1]));

			row[j] = sub;
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

/* The closest candidate seen so far to a mistyped name. */
struct suggest {
	const char *want;
	unsigned dist;
	char best[128];
};

/* Start looking for names close to want. */
static void
suggest_init(struct suggest *s, const char *want)
{
	s->want = want;
	s->dist = UINT_MAX;
	s->best[0] = '\0';
}

/* Consider one candidate name. */
static void
suggest_feed(struct suggest *s, const char *cand)
{
	unsigned d = edit_distance(s->want, cand);

	if (d < s->dist) {
		s->dist = d;
		snprintf(s->best, sizeof s->best, "%s", cand);
	}
}

/* The best candidate if it is close enough to be a likely typo, else NULL. */
static const char *
suggest_result(const struct suggest *s)
{
	unsigned limit = (unsigned)strlen(s->want) / 3;

	limit = limit < 1 ? 1 : limit > 3 ? 3 : limit;
	return s->dist <= limit ? s->best : NULL;
}

/* Fail with "unknown event" for name, suggesting a close known name. */
static int
unknown_event(const char *name, struct tt_err *err)
{
	struct suggest s;
	const char *best;
	char buf[128];
	uint64_t config;
	unsigned i;

	suggest_init(&s, name);
	for (i = 0; i < ARRAY_SIZE(named_events); i++) {
		suggest_feed(&s, named_events[i].name);
		if (named_events[i].alias != NULL)
			suggest_feed(&s, named_events[i].alias);
	}
	for (i = 0; i < NCACHE * NOP * NRESULT; i++)
		if (cache_event_name(i, buf, sizeof buf, &config))
			suggest_feed(&s, buf);
	if ((best = suggest_result(&s)) != NULL)
		return err_set(err, "unknown event '%s' (did you mean '%s'?); " SEE_LIST, name,
		               best);
	if (name[0] == 'r')
		return err_set(err, "unknown event '%s' (%s); " SEE_LIST, name, RAW_HINT);
	return err_set(err, "unknown event '%s'; " SEE_LIST, name);
}

/* Apply modifiers (u, k, h, p, pp, ppp) the way perf does: naming any of
 * u/k/h excludes the others. spec is for messages. */
static int
parse_modifiers(const char *mods, const char *spec, struct perf_event_attr *attr,
                struct tt_err *err)
{
	bool u = false, k = false, h = false;
	unsigned p = 0;
	const char *m;

	for (m = mods; *m != '\0'; m++) {
		switch (*m) {
		case 'u':
			u = true;
			break;
		case 'k':
			k = true;
			break;
		case 'h':
			h = true;
			break;
		case 'p':
			p++;
			break;
		default:
			return err_set(err,
			               "unknown modifier '%c' in '%s'; use u, k, h, p, pp or ppp",
			               *m, spec);
		}
	}
	if (p > 3)
		return err_set(err, "too many 'p' in '%s'; precision is p, pp or ppp", spec);
	if (u || k || h) {
		attr->exclude_user = !u;
		attr->exclude_kernel = !k;
		attr->exclude_hv = !h;
	}
	attr->precise_ip = p;
	return 0;
}

/* Whether a tracepoint subsystem or event name is safe to use in a path. */
static bool
tp_name_ok(const char *s)
{
	const char *p;

	if (*s == '\0' || *s == '.')
		return false;
	for (p = s; *p != '\0'; p++)
		if (*p == '/' || !isgraph((unsigned char)*p))
			return false;
	return true;
}

/* Whether tracefs has the tracepoint sys:ev. */
static bool
tracepoint_exists(const char *sys, const char *ev)
{
	const char *dir = tt_tracefs_dir();
	char path[PATH_MAX];

	if (dir == NULL || !tp_name_ok(sys) || !tp_name_ok(ev))
		return false;
	snprintf(path, sizeof path, "%s/events/%s/%s/id", dir, sys, ev);
	return access(path, F_OK) == 0;
}

/* Fail with "unknown tracepoint", suggesting a close subsystem or event. */
static int
unknown_tracepoint(const char *dir, const char *sys, const char *ev, struct tt_err *err)
{
	char path[PATH_MAX];
	struct stat st;
	struct suggest s;
	const char *best;
	char **names;
	size_t n = 0, i;
	bool have_sys;

	snprintf(path, sizeof path, "%s/events/%s", dir, sys);
	have_sys = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	if (!have_sys)
		snprintf(path, sizeof path, "%s/events", dir);
	suggest_init(&s, have_sys ? ev : sys);
	names = dir_list(path, &n);
	for (i = 0; i < n; i++)
		suggest_feed(&s, names[i]);
	names_free(names, n);
	if ((best = suggest_result(&s)) == NULL)
		return err_set(err, "unknown tracepoint '%s:%s'%s; " SEE_LIST, sys, ev,
		               have_sys ? "" : " (no such subsystem)");
	if (have_sys)
		return err_set(err, "unknown tracepoint '%s:%s' (did you mean '%s:%s'?); " SEE_LIST,
		               sys, ev, sys, best);
	return err_set(err, "unknown tracepoint '%s:%s' (did you mean subsystem '%s'?); " SEE_LIST,
	               sys, ev, best);
}

/* Resolve the tracepoint sys:ev to its id from tracefs. */
static int
tracepoint_lookup(const char *sys, const char *ev, struct perf_event_attr *attr, struct tt_err *err)
{
	const char *dir;
	char path[PATH_MAX], buf[64];
	uint64_t id;
	ssize_t len;

	if (strpbrk(sys, "*?[") != NULL || strpbrk(ev, "*?[") != NULL)
		return err_set(err, "wildcards are not supported in '%s:%s'; name one tracepoint",
		               sys, ev);
	if (!tp_name_ok(sys) || !tp_name_ok(ev))
		return err_set(err, "bad tracepoint name '%s:%s'; expected SUBSYSTEM:EVENT", sys,
		               ev);
	if ((dir = tt_tracefs_dir()) == NULL)
		return err_set(
		    err,
		    "cannot use tracepoint '%s:%s': tracefs is not mounted; " TT_TRACEFS_MOUNT_HINT,
		    sys, ev);
	snprintf(path, sizeof path, "%s/events/%s/%s/id", dir, sys, ev);
	if ((len = read_file(path, buf, sizeof buf)) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return unknown_tracepoint(dir, sys, ev, err);
		if (errno == EACCES || errno == EPERM)
			return err_set(err,
			               "cannot read tracepoint '%s:%s' (%s): %s; run as root or "
			               "make tracefs readable",
			               sys, ev, path, strerror(errno));
		return err_set(err, "cannot read tracepoint '%s:%s' (%s): %s", sys, ev, path,
		               strerror(errno));
	}
	while (len > 0 && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	if (parse_u64(buf, &id) != 0)
		return err_set(err, "bad id '%s' in %s", buf, path);
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	return 0;
}

/* Parse "NAME", "NAME:MODS", "SUBSYS:EVENT" into attr; spec is for messages. */
static int
parse_parts(char *buf, const char *spec, struct perf_event_attr *attr, struct tt_err *err)
{
	char *second, *third;
	int r;

	if ((second = strchr(buf, ':')) != NULL)
		*second++ = '\0';
	if (second != NULL && (third = strchr(second, ':')) != NULL)
		*third++ = '\0';
	else
		third = NULL;
	if (second != NULL && *second == '\0')
		return err_set(err,
		               "nothing after ':' in '%s'; expected modifiers (u, k, h, p) or a "
		               "tracepoint SUBSYSTEM:EVENT",
		               spec);
	if ((r = builtin_lookup(buf, attr, err)) < 0)
		return -1;
	if (r == 1 && third != NULL)
		return err_set(err, "unexpected ':%s' after the modifiers in '%s'", third, spec);
	if (r == 1)
		return second == NULL ? 0 : parse_modifiers(second, spec, attr, err);
	if (second == NULL)
		return unknown_event(buf, err);
	if (third != NULL)
		return err_set(err,
		               "modifiers are not supported on tracepoints: '%s' (tracepoints "
		               "fire in the kernel; use '%s:%s')",
		               spec, buf, second);
	if (strspn(second, MOD_CHARS) == strlen(second) && !tracepoint_exists(buf, second))
		return unknown_event(buf, err);
	return tracepoint_lookup(buf, second, attr, err);
}

/* Parse one event spec into out. */
int
evspec_parse(const char *spec, struct evspec *out, struct tt_err *err)
{
	char buf[sizeof out->name];
	size_t len;

	memset(out, 0, sizeof *out);
	if (spec == NULL || *spec == '\0')
		return err_set(err, "empty event name; " SEE_LIST);
	if ((len = strlen(spec)) >= sizeof buf)
		return err_set(err, "event '%.32s...' is too long (at most %zu characters)", spec,
		               sizeof buf - 1);
	if (spec[0] == ':')
		return err_set(err, "missing event name before ':' in '%s'", spec);
	memcpy(buf, spec, len + 1);
	if (parse_parts(buf, spec, &out->attr, err) != 0) {
		memset(out, 0, sizeof *out);
		return -1;
	}
	memcpy(out->name, spec, len + 1);
	out->attr.size = sizeof out->attr;
	out->is_hw = out->attr.type != PERF_TYPE_SOFTWARE && out->attr.type != PERF_TYPE_TRACEPOINT;
	return 0;
}

/* cpu-clock with hw's privilege-level exclusions; precision dropped. */
void
evspec_fallback(const struct evspec *hw, struct evspec *out)
{
	struct perf_event_attr a = hw->attr;
	char mods[4];
	size_t n = 0;

	memset(out, 0, sizeof *out);
	out->attr.size = sizeof out->attr;
	out->attr.type = PERF_TYPE_SOFTWARE;
	out->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	out->attr.exclude_user = a.exclude_user;
	out->attr.exclude_kernel = a.exclude_kernel;
	out->attr.exclude_hv = a.exclude_hv;
	if (a.exclude_user || a.exclude_kernel || a.exclude_hv) {
		if (!a.exclude_user)
			mods[n++] = 'u';
		if (!a.exclude_kernel)
			mods[n++] = 'k';
		if (!a.exclude_hv)
			mods[n++] = 'h';
	}
	mods[n] = '\0';
	snprintf(out->name, sizeof out->name, "cpu-clock%s%s", n > 0 ? ":" : "", mods);
}

/* Ask the kernel whether it can count an event (user space of this
 * thread): 0 if so, else its errno. */
int
evspec_probe(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

/* "" if the kernel can count an event for this thread, else a bracketed
 * note for the catalog. */
static const char *
probe_note(uint32_t type, uint64_t config)
{
	int e = evspec_probe(type, config);

	if (e == 0)
		return "";
	return e == EACCES || e == EPERM ? "[no permission]" : "[not supported]";
}

/* The hardware or software events of the catalog. */
static void
catalog_named(const struct evspec_visitor *v, uint32_t type)
{
	for (size_t i = 0; i < ARRAY_SIZE(named_events); i++) {
		const struct named_event *e = &named_events[i];

		if (e->type == type)
			v->event(v->arg, e->name, e->alias,
			         type == PERF_TYPE_HARDWARE ? probe_note(e->type, e->config) : "");
	}
}

/* The hardware cache events of the catalog. */
static void
catalog_cache(const struct evspec_visitor *v)
{
	char name[128];
	uint64_t config;

	for (unsigned i = 0; i < NCACHE * NOP * NRESULT; i++)
		if (cache_event_name(i, name, sizeof name, &config))
			v->event(v->arg, name, NULL, probe_note(PERF_TYPE_HW_CACHE, config));
}

/* The tracepoints: SUBSYS:EVENT from tracefs (escaped), or why there are none. */
static void
catalog_tracepoints(const struct evspec_visitor *v)
{
	const char *dir = tt_tracefs_dir();
	char path[PATH_MAX], esc[2 * NAME_MAX + 8], name[2 * NAME_MAX + 2], msg[PATH_MAX + 64];
	char **subs, **evs;
	size_t nsub = 0, nev, i, j;

	if (dir == NULL) {
		v->message(v->arg, "(none: tracefs is not mounted; " TT_TRACEFS_MOUNT_HINT ")");
		return;
	}
	snprintf(path, sizeof path, "%s/events", dir);
	if ((subs = dir_list(path, &nsub)) == NULL) {
		snprintf(msg, sizeof msg, "(none: cannot read %s: %s)", path, strerror(errno));
		v->message(v->arg, msg);
		return;
	}
	for (i = 0; i < nsub; i++) {
		snprintf(path, sizeof path, "%s/events/%s", dir, subs[i]);
		nev = 0;
		evs = dir_list(path, &nev);
		for (j = 0; j < nev; j++) {
			snprintf(name, sizeof name, "%s:%s", subs[i], evs[j]);
			str_escape(esc, sizeof esc, name, sizeof name);
			v->event(v->arg, esc, NULL, "");
		}
		names_free(evs, nev);
	}
	names_free(subs, nsub);
}

/* Walk one section of the catalog. */
void
evspec_catalog(enum evspec_section s, const struct evspec_visitor *v)
{
	switch (s) {
	case EVSPEC_HARDWARE:
		catalog_named(v, PERF_TYPE_HARDWARE);
		break;
	case EVSPEC_SOFTWARE:
		catalog_named(v, PERF_TYPE_SOFTWARE);
		break;
	case EVSPEC_CACHE:
		catalog_cache(v);
		break;
	case EVSPEC_TRACEPOINT:
		catalog_tracepoints(v);
		break;
	}
}

/* One catalog line: the name (and alias), then a note in a column. */
static void
list_event(void *arg, const char *name, const char *alias, const char *note)
{
	FILE *out = arg;
	char full[160];

	snprintf(full, sizeof full, "%s%s%s", name, alias ? " OR " : "", alias ? alias : "");
	if (*note == '\0')
		fprintf(out, "  %s\n", full);
	else
		fprintf(out, "  %-48s %s\n", full, note);
}

/* An explanation in place of a section's events. */
static void
list_message(void *arg, const char *text)
{
	fprintf(arg, "  %s\n", text);
}

/* Print the event catalog like `perf list`. */
void
evspec_list(FILE *out)
{
	static const char *const titles[] = {
	    [EVSPEC_HARDWARE] = "Hardware events",
	    [EVSPEC_SOFTWARE] = "Software events",
	    [EVSPEC_CACHE] = "Hardware cache events",
	    [EVSPEC_TRACEPOINT] = "Tracepoint events",
	};
	const struct evspec_visitor v = {list_event, list_message, out};

	for (size_t s = 0; s < ARRAY_SIZE(titles); s++) {
		fprintf(out, "%s%s:\n", s > 0 ? "\n" : "", titles[s]);
		evspec_catalog((enum evspec_section)s, &v);
	}
	fputs("\nRaw events:\n", out);
	list_event(out, "rNNNN", NULL, "raw PMU event, NNNN = config in hex (e.g. r003c)");
}
