/* Unit tests for evspec: event names, modifiers, tracepoints against a
 * fixture tracefs, the cpu-clock fallback and the catalog. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/evspec.h"
#include "tracetop/tracefs.h"

/* The fixture tracefs directory of the running test. */
static char fixture[PATH_MAX];

/* Fail unless hay contains needle. */
static void
assert_contains(const char *hay, const char *needle)
{
	if (strstr(hay, needle) == NULL)
		fail_msg("\"%s\" does not contain \"%s\"", hay, needle);
}

/* Parse spec, which must succeed, and check the parts every event shares. */
static void
parse_ok(const char *spec, struct evspec *ev)
{
	struct tt_err err = {{0}};

	if (evspec_parse(spec, ev, &err) != 0)
		fail_msg("'%s' failed: %s", spec, err.msg);
	assert_string_equal(ev->name, spec);
	assert_int_equal(ev->attr.size, sizeof ev->attr);
	assert_int_equal(ev->attr.disabled, 0);
	assert_int_equal(ev->attr.sample_period, 0);
}

/* Parse spec, which must fail with one line containing need1 and need2. */
static void
parse_bad(const char *spec, const char *need1, const char *need2)
{
	struct tt_err err = {{0}};
	struct evspec ev;

	if (evspec_parse(spec, &ev, &err) == 0)
		fail_msg("'%s' parsed but should not have", spec ? spec : "(null)");
	assert_true(err.msg[0] != '\0');
	assert_null(strchr(err.msg, '\n'));
	assert_contains(err.msg, need1);
	if (need2 != NULL)
		assert_contains(err.msg, need2);
	assert_int_equal(ev.attr.type, 0);
	assert_string_equal(ev.name, "");
}

struct named_case {
	const char *spec;
	uint32_t type;
	uint64_t config;
};

/* Every hardware and software name and alias maps to its type and config. */
static void
test_named_events(void **state)
{
	static const struct named_case cases[] = {
	    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	    {"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
	    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
	    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
	    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
	    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
	    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
	    {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES},
	    {"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
	    {"idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND},
	    {"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
	    {"idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND},
	    {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
	    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
	    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
	    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
	    {"faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
	    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
	    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
	    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
	    {"cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
	    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
	    {"migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
	    {"alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS},
	    {"emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS},
	    {"dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY},
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct evspec ev;

		parse_ok(cases[i].spec, &ev);
		assert_int_equal(ev.attr.type, cases[i].type);
		assert_int_equal(ev.attr.config, cases[i].config);
		assert_int_equal(ev.is_hw, cases[i].type == PERF_TYPE_HARDWARE);
		assert_int_equal(ev.attr.exclude_user, 0);
		assert_int_equal(ev.attr.exclude_kernel, 0);
		assert_int_equal(ev.attr.exclude_hv, 0);
		assert_int_equal(ev.attr.precise_ip, 0);
	}
}

/* Hardware cache names, perf's spellings and case-insensitive variants. */
static void
test_cache_events(void **state)
{
	static const struct named_case cases[] = {
	    {"L1-dcache-loads", PERF_TYPE_HW_CACHE, 0x00000},
	    {"L1-dcache-load-misses", PERF_TYPE_HW_CACHE, 0x10000},
	    {"L1-dcache-stores", PERF_TYPE_HW_CACHE, 0x00100},
	    {"L1-dcache-store-misses", PERF_TYPE_HW_CACHE, 0x10100},
	    {"L1-dcache-prefetch-misses", PERF_TYPE_HW_CACHE, 0x10200},
	    {"L1-icache-loads", PERF_TYPE_HW_CACHE, 0x00001},
	    {"L1-icache-load-misses", PERF_TYPE_HW_CACHE, 0x10001},
	    {"LLC-loads", PERF_TYPE_HW_CACHE, 0x00002},
	    {"LLC-load-misses", PERF_TYPE_HW_CACHE, 0x10002},
	    {"LLC-stores", PERF_TYPE_HW_CACHE, 0x00102},
	    {"dTLB-loads", PERF_TYPE_HW_CACHE, 0x00003},
	    {"dTLB-load-misses", PERF_TYPE_HW_CACHE, 0x10003},
	    {"iTLB-loads", PERF_TYPE_HW_CACHE, 0x00004},
	    {"iTLB-load-misses", PERF_TYPE_HW_CACHE, 0x10004},
	    {"branch-loads", PERF_TYPE_HW_CACHE, 0x00005},
	    {"branch-load-misses", PERF_TYPE_HW_CACHE, 0x10005},
	    {"node-loads", PERF_TYPE_HW_CACHE, 0x00006},
	    {"node-load-misses", PERF_TYPE_HW_CACHE, 0x10006},
	    {"llc-load-misses", PERF_TYPE_HW_CACHE, 0x10002},
	    {"L1D-LOAD-MISSES", PERF_TYPE_HW_CACHE, 0x10000},
	    {"l1-d-store-miss", PERF_TYPE_HW_CACHE, 0x10100},
	    {"dtlb-misses", PERF_TYPE_HW_CACHE, 0x10003},
	    {"LLC", PERF_TYPE_HW_CACHE, 0x00002},
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct evspec ev;

		parse_ok(cases[i].spec, &ev);
		assert_int_equal(ev.attr.type, cases[i].type);
		assert_int_equal(ev.attr.config, cases[i].config);
		assert_true(ev.is_hw);
	}
}

/* Cache names that do not exist are refused, naming the bad one. */
static void
test_cache_invalid(void **state)
{
	parse_bad("L1-icache-stores", "'L1-icache-stores'", "does not count stores");
	parse_bad("iTLB-prefetches", "'iTLB-prefetches'", "does not count prefetches");
	parse_bad("LLC-loads-bogus", "unknown event 'LLC-loads-bogus'", NULL);
	parse_bad("LLC-", "unknown event 'LLC-'", NULL);
	parse_bad("LLC-load-store", "unknown event 'LLC-load-store'", NULL);
	parse_bad("Cycles", "unknown event 'Cycles'", "did you mean 'cycles'?");
}

/* rHEX is a raw PMU config. */
static void
test_raw_events(void **state)
{
	struct evspec ev;

	parse_ok("r003c", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_RAW);
	assert_int_equal(ev.attr.config, 0x3c);
	assert_true(ev.is_hw);
	parse_ok("r1a2B", &ev);
	assert_int_equal(ev.attr.config, 0x1a2b);
	parse_ok("rffffffffffffffff", &ev);
	assert_true(ev.attr.config == UINT64_MAX);
	parse_ok("r4e:u", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_RAW);
	assert_int_equal(ev.attr.config, 0x4e);
	assert_int_equal(ev.attr.exclude_kernel, 1);
}

/* Malformed raw specs name themselves and say what raw syntax is. */
static void
test_raw_invalid(void **state)
{
	parse_bad("rXYZ", "'rXYZ'", "hex digits");
	parse_bad("r12g", "'r12g'", "hex digits");
	parse_bad("r", "'r'", "no hex digits");
	parse_bad("r:u", "'r'", "no hex digits");
	parse_bad("r10000000000000000", "'r10000000000000000'", "too many hex digits");
}

struct mod_case {
	const char *spec;
	uint32_t type;
	unsigned eu, ek, eh, precise;
};

/* Modifiers alone and combined set exclude_* and precise_ip like perf. */
static void
test_modifiers(void **state)
{
	static const struct mod_case cases[] = {
	    {"cycles:u", PERF_TYPE_HARDWARE, 0, 1, 1, 0},
	    {"cycles:k", PERF_TYPE_HARDWARE, 1, 0, 1, 0},
	    {"cycles:h", PERF_TYPE_HARDWARE, 1, 1, 0, 0},
	    {"cycles:uk", PERF_TYPE_HARDWARE, 0, 0, 1, 0},
	    {"cycles:ku", PERF_TYPE_HARDWARE, 0, 0, 1, 0},
	    {"cycles:p", PERF_TYPE_HARDWARE, 0, 0, 0, 1},
	    {"cycles:pp", PERF_TYPE_HARDWARE, 0, 0, 0, 2},
	    {"cycles:ppp", PERF_TYPE_HARDWARE, 0, 0, 0, 3},
	    {"cycles:upp", PERF_TYPE_HARDWARE, 0, 1, 1, 2},
	    {"cycles:pku", PERF_TYPE_HARDWARE, 0, 0, 1, 1},
	    {"cs:k", PERF_TYPE_SOFTWARE, 1, 0, 1, 0},
	    {"page-faults:uh", PERF_TYPE_SOFTWARE, 0, 1, 0, 0},
	    {"cpu-clock:ukh", PERF_TYPE_SOFTWARE, 0, 0, 0, 0},
	    {"L1-dcache-load-misses:u", PERF_TYPE_HW_CACHE, 0, 1, 1, 0},
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct evspec ev;

		parse_ok(cases[i].spec, &ev);
		assert_int_equal(ev.attr.type, cases[i].type);
		assert_int_equal(ev.attr.exclude_user, cases[i].eu);
		assert_int_equal(ev.attr.exclude_kernel, cases[i].ek);
		assert_int_equal(ev.attr.exclude_hv, cases[i].eh);
		assert_int_equal(ev.attr.precise_ip, cases[i].precise);
	}
}

/* Bad modifiers and misplaced colons are refused with the bad part named. */
static void
test_bad_modifiers(void **state)
{
	parse_bad("cycles:x", "unknown modifier 'x'", "'cycles:x'");
	parse_bad("cycles:upz", "unknown modifier 'z'", "'cycles:upz'");
	parse_bad("cycles:U", "unknown modifier 'U'", NULL);
	parse_bad("cycles:pppp", "too many 'p'", "'cycles:pppp'");
	parse_bad("cycles:u:k", "unexpected ':k'", "'cycles:u:k'");
	parse_bad("cycles:", "nothing after ':'", "'cycles:'");
	parse_bad(":u", "missing event name", "':u'");
	parse_bad(":", "missing event name", NULL);
	parse_bad("cyclez:u", "unknown event 'cyclez'", "did you mean 'cycles'?");
}

/* Empty, unknown and oversized names are refused. */
static void
test_invalid(void **state)
{
	char big[300];
	struct tt_err err = {{0}};
	struct evspec ev;

	parse_bad("", "empty event name", NULL);
	parse_bad(NULL, "empty event name", NULL);
	parse_bad("cyclez", "unknown event 'cyclez'", "did you mean 'cycles'?");
	parse_bad("instrucions", "unknown event 'instrucions'", "did you mean 'instructions'?");
	parse_bad("xyzzy", "unknown event 'xyzzy'; see tracetop --list-events", NULL);
	assert_int_equal(evspec_parse("xyzzy", &ev, &err), -1);
	assert_string_equal(err.msg, "unknown event 'xyzzy'; see tracetop --list-events");
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	parse_bad(big, "too long", NULL);
	/* A NULL err is allowed: the caller only wants the verdict. */
	assert_int_equal(evspec_parse("nope", &ev, NULL), -1);
}

/* Create dir/rel (and its parents) as a file holding text, or a directory
 * when text is NULL. */
static void
make_path(const char *dir, const char *rel, const char *text)
{
	char path[2 * PATH_MAX], *p;
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	if (text == NULL) {
		assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* Build a fake tracefs and point evspec at it. */
static int
setup_tracefs(void **state)
{
	snprintf(fixture, sizeof fixture, "/tmp/test-evspec-XXXXXX");
	if (mkdtemp(fixture) == NULL || chmod(fixture, 0755) != 0)
		return -1;
	make_path(fixture, "events/sched/sched_switch/id", "316\n");
	make_path(fixture, "events/sched/sched_wakeup/id", "317\n");
	make_path(fixture, "events/sched/enable", "0\n");
	make_path(fixture, "events/irq/irq_handler_entry/id", "50");
	make_path(fixture, "events/header_page", "x\n");
	tt_tracefs_set_dir(fixture);
	return 0;
}

/* nftw callback removing one entry. */
static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* Remove the fake tracefs and search for the real one again. */
static int
teardown_tracefs(void **state)
{
	tt_tracefs_set_dir(NULL);
	return nftw(fixture, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* SUBSYS:EVENT reads its id from the fixture tracefs. */
static void
test_tracepoints(void **state)
{
	struct evspec ev;

	assert_string_equal(tt_tracefs_dir(), fixture);
	parse_ok("sched:sched_switch", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_TRACEPOINT);
	assert_int_equal(ev.attr.config, 316);
	assert_false(ev.is_hw);
	assert_int_equal(ev.attr.exclude_kernel, 0);
	parse_ok("irq:irq_handler_entry", &ev);
	assert_int_equal(ev.attr.config, 50);
}

/* Unknown, malformed and modified tracepoints are refused distinctly. */
static void
test_tracepoints_bad(void **state)
{
	make_path(fixture, "events/bad/garbled/id", "abc\n");
	parse_bad("sched:nope", "unknown tracepoint 'sched:nope'", "see tracetop --list-events");
	parse_bad("sched:sched_swich", "unknown tracepoint 'sched:sched_swich'",
	          "did you mean 'sched:sched_switch'?");
	parse_bad("nosub:x", "unknown tracepoint 'nosub:x'", "no such subsystem");
	parse_bad("schad:sched_switch", "unknown tracepoint", "did you mean subsystem 'sched'?");
	parse_bad("sched:enable", "unknown tracepoint 'sched:enable'", NULL);
	parse_bad("sched:sched_switch:u", "not supported on tracepoints", "'sched:sched_switch:u'");
	parse_bad("sched:*", "wildcards are not supported", "'sched:*'");
	parse_bad("sched:..", "bad tracepoint name 'sched:..'", NULL);
	parse_bad("..:sched", "bad tracepoint name", NULL);
	parse_bad("bad:garbled", "bad id 'abc'", "bad/garbled/id");
	parse_bad("sched:", "nothing after ':'", "'sched:'");
}

/* Without tracefs, tracepoints say so and how to mount it. */
static void
test_tracefs_missing(void **state)
{
	char dir[PATH_MAX + 16];

	snprintf(dir, sizeof dir, "%s/events/sched", fixture);
	tt_tracefs_set_dir(dir);
	assert_null(tt_tracefs_dir());
	parse_bad("sched:sched_switch", "tracefs is not mounted",
	          "mount it with: mount -t tracefs nodev /sys/kernel/tracing");
	/* Built-in events do not need tracefs. */
	{
		struct evspec ev;

		parse_ok("cpu-clock:u", &ev);
	}
}

/* An unreadable id is a permission error, not an unknown tracepoint. */
static void
test_tracepoint_denied(void **state)
{
	char path[PATH_MAX + 64];
	int status;
	pid_t pid;

	snprintf(path, sizeof path, "%s/events/sched/sched_switch/id", fixture);
	assert_int_equal(chmod(path, 0), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct tt_err err = {{0}};
		struct evspec ev;
		bool ok;

		/* root reads anything: drop to nobody to see what a user sees. */
		if (geteuid() == 0 && setuid(65534) != 0)
			_exit(2);
		if (evspec_parse("sched:sched_switch", &ev, &err) == 0)
			_exit(3);
		ok = strstr(err.msg, "Permission denied") != NULL &&
		     strstr(err.msg, "'sched:sched_switch'") != NULL &&
		     strstr(err.msg, "unknown") == NULL;
		_exit(ok ? 0 : 4);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* The search for the real tracefs gives a directory with events/, or NULL. */
static void
test_tracefs_search(void **state)
{
	const char *dir;
	char path[PATH_MAX + 16];
	struct stat st;

	tt_tracefs_set_dir(NULL);
	dir = tt_tracefs_dir();
	if (dir != NULL) {
		snprintf(path, sizeof path, "%s/events", dir);
		assert_true(stat(path, &st) == 0 || errno == EACCES);
	} else {
		assert_true(stat("/sys/kernel/tracing/events", &st) != 0);
	}
}

/* Hardware events fall back to cpu-clock keeping :u/:k, dropping :p. */
static void
test_fallback(void **state)
{
	static const struct {
		const char *spec, *name;
		unsigned eu, ek, eh;
	} cases[] = {
	    {"cycles", "cpu-clock", 0, 0, 0},
	    {"cycles:upp", "cpu-clock:u", 0, 1, 1},
	    {"instructions:k", "cpu-clock:k", 1, 0, 1},
	    {"cache-misses:uk", "cpu-clock:uk", 0, 0, 1},
	    {"r003c:ppp", "cpu-clock", 0, 0, 0},
	    {"LLC-load-misses:h", "cpu-clock:h", 1, 1, 0},
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct evspec hw, sw;

		parse_ok(cases[i].spec, &hw);
		assert_true(hw.is_hw);
		evspec_fallback(&hw, &sw);
		assert_string_equal(sw.name, cases[i].name);
		assert_int_equal(sw.attr.type, PERF_TYPE_SOFTWARE);
		assert_int_equal(sw.attr.config, PERF_COUNT_SW_CPU_CLOCK);
		assert_int_equal(sw.attr.size, sizeof sw.attr);
		assert_int_equal(sw.attr.precise_ip, 0);
		assert_int_equal(sw.attr.exclude_user, cases[i].eu);
		assert_int_equal(sw.attr.exclude_kernel, cases[i].ek);
		assert_int_equal(sw.attr.exclude_hv, cases[i].eh);
		assert_false(sw.is_hw);
		/* In place works too. */
		evspec_fallback(&hw, &hw);
		assert_string_equal(hw.name, cases[i].name);
		assert_int_equal(hw.attr.exclude_kernel, cases[i].ek);
	}
}

/* The catalog as a malloc'd string. */
static char *
list_to_string(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	evspec_list(fp);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(buf);
	return buf;
}

/* The line of text that starts with prefix, copied into line. */
static void
find_line(const char *text, const char *prefix, char *line, size_t len)
{
	const char *p = strstr(text, prefix), *end;

	if (p == NULL)
		fail_msg("no line starting \"%s\"", prefix);
	end = strchr(p, '\n');
	snprintf(line, len, "%.*s", (int)(end ? end - p : (ptrdiff_t)strlen(p)), p);
}

/* The catalog has every section in order, marks what the kernel refuses,
 * and lists the fixture's tracepoints sorted. */
static void
test_list(void **state)
{
	static const char *const order[] = {
	    "Hardware events:\n",
	    "Software events:\n",
	    "Hardware cache events:\n",
	    "Tracepoint events:\n",
	    "  irq:irq_handler_entry\n",
	    "  sched:sched_switch\n",
	    "  sched:sched_wakeup\n",
	    "Raw events:\n",
	    "  rNNNN",
	};
	struct perf_event_attr attr;
	char *text = list_to_string(), line[256];
	const char *at = text;
	size_t i;
	int fd;

	for (i = 0; i < sizeof order / sizeof order[0]; i++) {
		const char *p = strstr(at, order[i]);

		if (p == NULL)
			fail_msg("\"%s\" missing or out of order", order[i]);
		at = p;
	}
	assert_contains(text, "  context-switches OR cs\n");
	assert_contains(text, "  page-faults OR faults\n");
	assert_contains(text, "L1-dcache-load-misses");
	assert_null(strstr(text, "sched:enable"));
	assert_null(strstr(text, "header_page"));
	/* cpu-clock works everywhere, so it is never marked. */
	assert_contains(text, "  cpu-clock\n");
	/* cycles is marked exactly when the kernel refuses it. */
	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	find_line(text, "  cycles OR cpu-cycles", line, sizeof line);
	if (fd >= 0) {
		close(fd);
		assert_null(strchr(line, '['));
	} else {
		assert_contains(line, errno == EACCES || errno == EPERM ? "[no permission]"
		                                                        : "[not supported]");
	}
	free(text);
}

/* Every name the catalog offers parses back to an event. */
static void
test_list_names_parse(void **state)
{
	char *text = list_to_string(), *save = NULL, *ln;
	int n = 0;

	for (ln = strtok_r(text, "\n", &save); ln != NULL; ln = strtok_r(NULL, "\n", &save)) {
		char name[128], alias[128];
		struct evspec ev;
		int got;

		if (strncmp(ln, "  ", 2) != 0 || strstr(ln, "rNNNN") != NULL)
			continue;
		got = sscanf(ln, " %127s OR %127s", name, alias);
		assert_true(got >= 1);
		parse_ok(name, &ev);
		if (got == 2)
			parse_ok(alias, &ev);
		n++;
	}
	assert_true(n > 40);
	free(text);
}

/* Without tracefs the catalog says why there are no tracepoints. */
static void
test_list_no_tracefs(void **state)
{
	char dir[PATH_MAX + 16], *text;

	snprintf(dir, sizeof dir, "%s/nothing", fixture);
	tt_tracefs_set_dir(dir);
	text = list_to_string();
	assert_contains(text, "Tracepoint events:\n  (none: tracefs is not mounted; mount it with: "
	                      "mount -t tracefs nodev /sys/kernel/tracing)\n");
	assert_contains(text, "Raw events:");
	free(text);
}

/* Run the evspec tests. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_named_events),
	    cmocka_unit_test(test_cache_events),
	    cmocka_unit_test(test_cache_invalid),
	    cmocka_unit_test(test_raw_events),
	    cmocka_unit_test(test_raw_invalid),
	    cmocka_unit_test(test_modifiers),
	    cmocka_unit_test(test_bad_modifiers),
	    cmocka_unit_test(test_invalid),
	    cmocka_unit_test_setup_teardown(test_tracepoints, setup_tracefs, teardown_tracefs),
	    cmocka_unit_test_setup_teardown(test_tracepoints_bad, setup_tracefs, teardown_tracefs),
	    cmocka_unit_test_setup_teardown(test_tracefs_missing, setup_tracefs, teardown_tracefs),
	    cmocka_unit_test_setup_teardown(test_tracepoint_denied, setup_tracefs,
	                                    teardown_tracefs),
	    cmocka_unit_test(test_tracefs_search),
	    cmocka_unit_test(test_fallback),
	    cmocka_unit_test_setup_teardown(test_list, setup_tracefs, teardown_tracefs),
	    cmocka_unit_test_setup_teardown(test_list_names_parse, setup_tracefs, teardown_tracefs),
	    cmocka_unit_test_setup_teardown(test_list_no_tracefs, setup_tracefs, teardown_tracefs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
