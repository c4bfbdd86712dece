/* The fake /proc and record helpers of the tasks tests (test-tasks.c,
 * test-tasks-exit.c): a process 123 with threads and maps, records made
 * and applied, a fresh model per test. */
#ifndef TT_TASKS_FIXTURE_H
#define TT_TASKS_FIXTURE_H

#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/dso.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"
#include "fakeproc.h"

/* A pid above PID_MAX_LIMIT (so no real process's /tmp/perf-PID.map can
 * collide) and unique to this run (so parallel runs do not either). */
#define JIT_PID (4194304 + getpid())

static char proc_root[64];

/* The fake process 123's maps: 5 executable lines out of 6. */
static const char __attribute__((unused)) fake_maps[] =
    "00400000-00452000 r-xp 00000000 08:02 173521                             /bin/true\n"
    "00651000-00652000 rw-p 00051000 08:02 173521                             /bin/true\n"
    "7f0000000000-7f0000010000 r-xp 00002000 fd:01 42                         "
    "/opt/my app/lib x.so (deleted)\n"
    "7f1000000000-7f1000001000 r-xp 00000000 00:00 0 \n"
    "7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0                          [vdso]\n"
    "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]\n";

/* Write PROC/rel, creating its directories. */
static void __attribute__((unused)) put(const char *rel, const char *text)
{
	fakeproc_put(proc_root, rel, text);
}

/* Write PROC/TID/status with a Tgid, a real uid and the comm as the
 * kernel escapes it there (NULL: no Name line, as no kernel writes). */
static void __attribute__((unused)) put_status(int tid, int tgid, unsigned uid, const char *name)
{
	char rel[64], text[512], nl[160] = "";

	if (name != NULL)
		snprintf(nl, sizeof nl, "Name:\t%s\n", name);
	snprintf(rel, sizeof rel, "%d/status", tid);
	snprintf(text, sizeof text,
	         "%sUmask:\t0022\nState:\tS (sleeping)\nTgid:\t%d\nNgid:\t0\nPid:\t%d\n"
	         "PPid:\t1\nTracerPid:\t0\nUid:\t%u\t%u\t%u\t%u\nGid:\t0\t0\t0\t0\n",
	         nl, tgid, tid, uid, uid + 1, uid + 1, uid + 1);
	put(rel, text);
}

/* Build the fake proc root. */
static int __attribute__((unused)) group_setup(void **state)
{
	unsigned uid = getuid();

	strcpy(proc_root, "/tmp/tt-tasks-XXXXXX");
	if (mkdtemp(proc_root) == NULL)
		return -1;
	/* Process 123 "fakeproc" with threads 124 "worker" and 125 (no
	 * Name line and only PROC/125/comm: the fallbacks), and 127, whose
	 * name has the two characters status escapes (its comm file, which
	 * has it raw, is not read). */
	put_status(123, 123, uid, "fakeproc");
	put("123/comm", "fakeproc\n");
	put("123/task/123/comm", "fakeproc\n");
	put("123/maps", fake_maps);
	put_status(124, 123, uid, "worker");
	put("123/task/124/comm", "worker\n");
	put("124/comm", "wrong\n");
	put_status(125, 123, uid, NULL);
	put("125/comm", "fallback\n");
	put_status(127, 123, uid, "a\\nb\\\\c\\d");
	put("123/task/127/comm", "not read\n");
	/* Process 130: one mapping. */
	put_status(130, 130, 1000, "fresh");
	put("130/comm", "fresh\n");
	put("130/task/130/comm", "fresh\n");
	put("130/maps", "00400000-00401000 r-xp 00000000 08:02 7 /usr/bin/fresh\n");
	/* Process 140: in a container, pid 7 in its own namespace, whose
	 * perf map is in its own /tmp (our /tmp has none). */
	put("140/status", "Name:\tnode\nTgid:\t140\nPid:\t140\nPPid:\t1\n"
	                  "Uid:\t0\t0\t0\t0\nNSpid:\t140\t7\n");
	put("140/comm", "node\n");
	put("140/task/140/comm", "node\n");
	put("140/maps", "");
	put("140/root/tmp/perf-7.map", "7000 100 JS:*inside_container\n");
	/* tid 0 must never be read. */
	put_status(0, 0, 0, "bogus");
	put("0/comm", "bogus\n");
	return 0;
}

/* Remove the fake proc root and the DSO cache. */
static int __attribute__((unused)) group_teardown(void **state)
{
	fakeproc_remove(proc_root);
	dso_cache_free();
	return 0;
}

/* A model on the fake proc root. */
static int __attribute__((unused)) setup(void **state)
{
	*state = tasks_new(proc_root);
	return 0;
}

/* Free the model. */
static int __attribute__((unused)) teardown(void **state)
{
	tasks_free(*state);
	return 0;
}

/* Send a FORK record. */
static void __attribute__((unused)) fork_rec(struct tasks *ts, int pid, int ppid, int tid, int ptid)
{
	struct record_task t = {.pid = pid, .ppid = ppid, .tid = tid, .ptid = ptid};

	tasks_fork(ts, &t);
}

/* Send an EXIT record. */
static void __attribute__((unused)) exit_rec(struct tasks *ts, int pid, int tid)
{
	struct record_task t = {.pid = pid, .ppid = pid, .tid = tid, .ptid = tid};

	tasks_exit(ts, &t);
}

/* Send a COMM record. */
static void __attribute__((unused))
comm_rec(struct tasks *ts, int pid, int tid, const char *comm, bool exec)
{
	struct record_comm c = {.pid = pid, .tid = tid, .comm = comm, .exec = exec};

	tasks_comm(ts, &c);
}

/* Send an executable MMAP2 record of a file on 08:02. */
static void __attribute__((unused))
mmap_rec(struct tasks *ts, int pid, uint64_t start, uint64_t len, uint64_t pgoff, const char *file)
{
	struct record_mmap m = {.pid = pid,
	                        .tid = pid,
	                        .start = start,
	                        .len = len,
	                        .pgoff = pgoff,
	                        .maj = 8,
	                        .min = 2,
	                        .ino = 99,
	                        .filename = file,
	                        .exec = true};

	tasks_mmap(ts, &m);
}

/* Check map i of t. */
static void __attribute__((unused)) check_map(const struct task *t, size_t i, uint64_t start,
                                              uint64_t end, uint64_t pgoff, const char *dso_name)
{
	assert_true(i < t->nmaps);
	assert_int_equal(t->maps[i].start, start);
	assert_int_equal(t->maps[i].end, end);
	assert_int_equal(t->maps[i].pgoff, pgoff);
	if (dso_name != NULL)
		assert_string_equal(t->maps[i].dso->name, dso_name);
}

/* A small deterministic generator. */
static uint32_t __attribute__((unused)) lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

#endif
