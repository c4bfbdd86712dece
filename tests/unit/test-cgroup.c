/* Unit tests for cgroup: /proc/PID/cgroup on cgroup v1, v2 and hybrid
 * systems, short names of real-looking paths (docker, podman, containerd,
 * CRI-O, Kubernetes, LXC, systemd-nspawn, libvirt, systemd units), the
 * intern table, and the process model's cgroups (synthesis, fork, exec). */
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/cgroup.h"
#include "tracetop/dso.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"
#include "fakeproc.h"

/* A container id, 64 hex digits, and its first 12 as docker ps shows. */
#define ID "4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b"
#define ID12 "4f3c2b1a0e9d"
/* A pod uid as Kubernetes writes it in cgroupfs and systemd paths. */
#define POD "1f2e3d4c-5b6a-7980-a1b2-c3d4e5f60718"
#define POD_ "1f2e3d4c_5b6a_7980_a1b2_c3d4e5f60718"

static char proc_root[64];

/* The path cgroup_parse picks from text, or "(none)". */
static const char *
parse(const char *text)
{
	static char path[PATH_MAX];

	if (!cgroup_parse(text, path, sizeof path))
		return "(none)";
	return path;
}

/* cgroup v2 alone: the one "0::" line. */
static void
test_parse_v2(void **state)
{
	(void)state;
	assert_string_equal(parse("0::/system.slice/docker-" ID ".scope\n"),
	                    "/system.slice/docker-" ID ".scope");
	assert_string_equal(parse("0::/\n"), "/");
	/* no newline at the end; a path with a colon in it */
	assert_string_equal(parse("0::/user.slice/a:b"), "/user.slice/a:b");
}

/* cgroup v1: name=systemd, else the cpu controller (shared with cpuacct). */
static void
test_parse_v1(void **state)
{
	(void)state;
	assert_string_equal(parse("12:pids:/docker/" ID "\n"
	                          "11:cpu,cpuacct:/docker/" ID "\n"
	                          "4:memory:/docker/" ID "\n"
	                          "1:name=systemd:/docker/" ID "\n"),
	                    "/docker/" ID);
	assert_string_equal(
	    parse("3:memory:/a\n2:cpu,cpuacct:/kubepods/besteffort/pod" POD "/" ID "\n"),
	    "/kubepods/besteffort/pod" POD "/" ID);
	/* name=systemd before cpu */
	assert_string_equal(parse("2:cpu:/x\n1:name=systemd:/y\n"), "/y");
	/* only controllers we do not take */
	assert_string_equal(parse("4:memory:/m\n3:pids:/p\n"), "(none)");
}

/* Hybrid systems: the v2 line, unless it is at the root while v1 is not
 * (this machine has v2 mounted beside v1 and nobody using it). */
static void
test_parse_hybrid(void **state)
{
	(void)state;
	assert_string_equal(parse("9:name=systemd:/user.slice/user-0.slice/session-3.scope\n"
	                          "1:cpu:/\n"
	                          "0::/user.slice/user-0.slice/session-3.scope\n"),
	                    "/user.slice/user-0.slice/session-3.scope");
	assert_string_equal(parse("9:name=systemd:/\n8:pids:/\n"
	                          "4:memory:/process_api/9b63e652807c09b280e8d7f5cf2bd9a6\n"
	                          "1:cpu:/\n0::/tt-test-1234\n"),
	                    "/tt-test-1234");
	assert_string_equal(parse("9:name=systemd:/lxc/web1\n1:cpu:/lxc/web1\n0::/\n"),
	                    "/lxc/web1");
	assert_string_equal(parse("9:name=systemd:/\n1:cpu:/docker/" ID "\n0::/\n"), "/docker/" ID);
	assert_string_equal(parse("9:name=systemd:/\n"
	                          "4:memory:/process_api/9b63e652807c09b280e8d7f5cf2bd9a6\n"
	                          "1:cpu:/\n0::/\n"),
	                    "/");
}

/* Malformed lines are passed over; a long path is cut to the buffer. */
static void
test_parse_malformed(void **state)
{
	char small[8];

	(void)state;
	assert_string_equal(parse(""), "(none)");
	assert_string_equal(parse("garbage\n0:\n:\n0::\n0::relative\n"), "(none)");
	assert_string_equal(parse("junk line\n0::/ok\n"), "/ok");
	assert_true(cgroup_parse("0::/system.slice/cron.service\n", small, sizeof small));
	assert_string_equal(small, "/system");
	assert_false(cgroup_parse("0::/x\n", small, 0));
}

/* The short name of path. */
static const char *
short_name(const char *path)
{
	static char buf[PATH_MAX];

	cgroup_short_name(path, buf, sizeof buf);
	return buf;
}

/* A path and the short name it should get. */
struct name_case {
	const char *path, *name;
};

/* Every case's short name is the one wanted. */
static void
check_names(const struct name_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *got = short_name(cases[i].path);

		if (strcmp(got, cases[i].name) != 0)
			fail_msg("%s: got '%s', want '%s'", cases[i].path, got, cases[i].name);
	}
}

/* Container runtimes: their ids, cut as their ps commands cut them. */
static void
test_short_containers(void **state)
{
	static const struct name_case cases[] = {
	    /* docker, systemd driver (v2) and cgroupfs driver (v1) */
	    {"/system.slice/docker-" ID ".scope", ID12},
	    {"/docker/" ID, ID12},
	    /* systemd inside the container: the container still */
	    {"/system.slice/docker-" ID ".scope/init.scope", ID12},
	    /* podman, as root (cgroupns "container" child) and rootless */
	    {"/machine.slice/libpod-" ID ".scope/container", ID12},
	    {"/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID ".scope", ID12},
	    /* podman's and CRI-O's monitors */
	    {"/machine.slice/libpod-conmon-" ID ".scope", "conmon-" ID12},
	    {"/kubepods.slice/kubepods-pod" POD_ ".slice/crio-conmon-" ID ".scope", "conmon-" ID12},
	    /* Kubernetes: systemd driver with containerd and CRI-O, cgroupfs driver */
	    {"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" POD_
	     ".slice/cri-containerd-" ID ".scope",
	     ID12},
	    {"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" POD_
	     ".slice/crio-" ID ".scope",
	     ID12},
	    {"/kubepods/besteffort/pod" POD "/" ID, ID12},
	    {"/kubepods/pod" POD "/crio-" ID, ID12},
	    /* the pod's own group (no container): its last component */
	    {"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" POD_ ".slice",
	     "kubepods-besteffort-pod" POD_ ".slice"},
	    /* LXC 4+, older LXC, and LXC's monitor (not the container) */
	    {"/lxc.payload.web1", "web1"},
	    {"/lxc.payload.web1/system.slice/nginx.service", "web1"},
	    {"/lxc/web1", "web1"},
	    {"/lxc/web1/init.scope", "web1"},
	    {"/lxc.monitor.web1", "lxc.monitor.web1"},
	    /* systemd-nspawn and libvirt (systemd's escapes undone) */
	    {"/machine.slice/machine-debian12.scope/payload", "debian12"},
	    {"/machine.slice/machine-qemu\\x2d1\\x2dvm1.scope/libvirt/vcpu0", "qemu-1-vm1"},
	    {"/machine.slice", "machine.slice"},
	    {"/machine.slice/machine-.scope", "machine-.scope"},
	};

	(void)state;
	check_names(cases, ARRAY_SIZE(cases));
}

/* Everything else: the last component; the root is "/". */
static void
test_short_plain(void **state)
{
	static const struct name_case cases[] = {
	    {"/", "/"},
	    {"", "/"},
	    {"//", "/"},
	    {"/user.slice/user-0.slice/session-3.scope", "session-3.scope"},
	    {"/user.slice/user-0.slice/user@0.service", "user@0.service"},
	    {"/user.slice/user-0.slice/user@0.service/init.scope", "init.scope"},
	    {"/system.slice/cron.service", "cron.service"},
	    {"/system.slice/system-getty.slice/getty@tty1.service", "getty@tty1.service"},
	    {"/init.scope", "init.scope"},
	    {"/tt-test-1234/", "tt-test-1234"},
	    {"/process_api/9b63e652807c09b280e8d7f5cf2bd9a6", "9b63e652807c09b280e8d7f5cf2bd9a6"},
	    {"/../../user.slice", "user.slice"},
	    /* systemd escapes: printable ones undone, '/' and controls kept */
	    {"/system.slice/dev-disk-by\\x2duuid-12ab.swap", "dev-disk-by-uuid-12ab.swap"},
	    {"/a\\x2fb", "a\\x2fb"},
	    {"/a\\x1bb", "a\\x1bb"},
	    {"/a\\x2", "a\\x2"},
	    {"/a\\xzz", "a\\xzz"},
	    /* almost ids: 63 digits, one glued to a word, a non-hex digit */
	    {"/docker-" ID12 "0123456789abcdef0123456789abcdef0123456789abcdef012",
	     "docker-" ID12 "0123456789abcdef0123456789abcdef0123456789abcdef012"},
	    {"/x" ID, "x" ID},
	    {"/docker-" ID12 "g123456789abcdef0123456789abcdef0123456789abcdef0123",
	     "docker-" ID12 "g123456789abcdef0123456789abcdef0123456789abcdef0123"},
	};

	(void)state;
	check_names(cases, ARRAY_SIZE(cases));
}

/* Names are cut to the buffer; control bytes stay raw (escaped when
 * printed), and a name cut inside an escape keeps what fits. */
static void
test_short_cut(void **state)
{
	char buf[6];

	(void)state;
	cgroup_short_name("/docker/" ID, buf, sizeof buf);
	assert_string_equal(buf, "4f3c2");
	cgroup_short_name("/system.slice/cron.service", buf, sizeof buf);
	assert_string_equal(buf, "cron.");
	cgroup_short_name("/machine.slice/machine-q\\x2dvmname.scope", buf, sizeof buf);
	assert_string_equal(buf, "q-vmn");
	cgroup_short_name("/evil\x1b[31m", buf, sizeof buf);
	assert_string_equal(buf, "evil\x1b");
	cgroup_short_name("/x", buf, 1);
	assert_string_equal(buf, "");
}

/* One struct per path, with its short name. */
static void
test_intern(void **state)
{
	char path[128];
	const struct cgroup *a, *b, *c;

	(void)state;
	a = cgroup_get("/system.slice/docker-" ID ".scope");
	snprintf(path, sizeof path, "/docker/%s", ID);
	b = cgroup_get(path);
	c = cgroup_get("/system.slice/docker-" ID ".scope");
	assert_ptr_equal(a, c);
	assert_ptr_not_equal(a, b);
	assert_string_equal(a->name, ID12);
	/* same short name, different groups: the names are one string */
	assert_ptr_equal(a->name, b->name);
	assert_ptr_equal(a->path, str_intern("/system.slice/docker-" ID ".scope"));
	/* enough to grow the table several times */
	for (int i = 0; i < 500; i++) {
		snprintf(path, sizeof path, "/grow/g%d", i);
		assert_string_equal(cgroup_get(path)->name, path + 6);
	}
	assert_ptr_equal(cgroup_get("/system.slice/docker-" ID ".scope"), a);
	snprintf(path, sizeof path, "/grow/g%d", 77);
	assert_ptr_equal(cgroup_get(path), cgroup_get("/grow/g77"));
}

/* Write PROC/rel, creating its directories. */
static void
put(const char *rel, const char *text)
{
	fakeproc_put(proc_root, rel, text);
}

/* Write the status, comm and cgroup of a fake process pid. */
static void
put_proc(int pid, const char *comm, const char *cgroup)
{
	char rel[64], text[256];

	snprintf(rel, sizeof rel, "%d/status", pid);
	snprintf(text, sizeof text, "Name:\t%s\nTgid:\t%d\nPid:\t%d\nUid:\t0\t0\t0\t0\n", comm, pid,
	         pid);
	put(rel, text);
	snprintf(rel, sizeof rel, "%d/comm", pid);
	snprintf(text, sizeof text, "%s\n", comm);
	put(rel, text);
	snprintf(rel, sizeof rel, "%d/maps", pid);
	put(rel, "");
	if (cgroup != NULL) {
		snprintf(rel, sizeof rel, "%d/cgroup", pid);
		put(rel, cgroup);
	}
}

/* The fake proc root: 300 in a docker container, 310 with no cgroup file,
 * 320 a systemd service on a hybrid system. */
static int
group_setup(void **state)
{
	(void)state;
	strcpy(proc_root, "/tmp/tt-cgroup-XXXXXX");
	if (mkdtemp(proc_root) == NULL)
		return -1;
	put_proc(300, "nginx", "0::/system.slice/docker-" ID ".scope\n");
	put_proc(310, "nocg", NULL);
	put_proc(320, "cron", "1:name=systemd:/system.slice/cron.service\n0::/\n");
	return 0;
}

/* Remove the fake proc root and the DSO cache. */
static int
group_teardown(void **state)
{
	(void)state;
	fakeproc_remove(proc_root);
	dso_cache_free();
	return 0;
}

/* cgroup_of_pid reads the file; a process without one has none. */
static void
test_of_pid(void **state)
{
	(void)state;
	assert_string_equal(cgroup_of_pid(proc_root, 300)->name, ID12);
	assert_string_equal(cgroup_of_pid(proc_root, 320)->path, "/system.slice/cron.service");
	assert_null(cgroup_of_pid(proc_root, 310));
	assert_null(cgroup_of_pid(proc_root, 999));
}

/* Send a FORK record. */
static void
fork_rec(struct tasks *ts, int pid, int ppid)
{
	struct record_task t = {.pid = pid, .ppid = ppid, .tid = pid, .ptid = ppid};

	tasks_fork(ts, &t);
}

/* Send a COMM record for an exec. */
static void
exec_rec(struct tasks *ts, int pid, const char *comm)
{
	struct record_comm c = {.pid = pid, .tid = pid, .comm = comm, .exec = true};

	tasks_comm(ts, &c);
}

/* The model: a synthesized process has its cgroup, a fork inherits it,
 * an exec reads it again (a runtime moved the child before exec'ing the
 * container's program), the idle task is at the root, a process without
 * a cgroup file has none. */
static void
test_tasks(void **state)
{
	struct tasks *ts = tasks_new(proc_root);
	const struct task *p, *child;

	(void)state;
	p = tasks_thread(ts, 300, 300)->proc;
	assert_non_null(p->cgroup);
	assert_string_equal(p->cgroup->name, ID12);
	assert_string_equal(tasks_thread(ts, 320, 320)->proc->cgroup->name, "cron.service");
	assert_null(tasks_thread(ts, 310, 310)->proc->cgroup);
	assert_string_equal(tasks_thread(ts, 0, 0)->proc->cgroup->path, "/");
	/* a dead process read from nowhere has none */
	assert_null(tasks_thread(ts, 998, 998)->proc->cgroup);

	/* 330 forked by 320, not in our /proc: the parent's cgroup */
	fork_rec(ts, 330, 320);
	child = tasks_thread(ts, 330, 330)->proc;
	assert_ptr_equal(child->cgroup, tasks_thread(ts, 320, 320)->proc->cgroup);
	/* it execs while still unreadable: the inherited cgroup stays */
	exec_rec(ts, 330, "sh");
	tasks_settle(ts);
	assert_ptr_equal(child->cgroup, tasks_thread(ts, 320, 320)->proc->cgroup);
	/* moved into a container, then exec: read again after the records */
	put_proc(330, "sh", "0::/machine.slice/libpod-" ID ".scope/container\n");
	exec_rec(ts, 330, "postgres");
	tasks_settle(ts);
	assert_string_equal(child->cgroup->path, "/machine.slice/libpod-" ID ".scope/container");
	assert_string_equal(child->cgroup->name, ID12);
	/* without an exec a move is not seen (documented) */
	put_proc(330, "postgres", "0::/elsewhere\n");
	fork_rec(ts, 331, 330);
	assert_ptr_equal(tasks_thread(ts, 331, 331)->proc->cgroup, child->cgroup);
	tasks_free(ts);
}

/* This process's own cgroup is readable and absolute. */
static void
test_live(void **state)
{
	const struct cgroup *cg = cgroup_of_pid("/proc", getpid());

	(void)state;
	if (cg == NULL)
		skip(); /* no /proc/self/cgroup: a kernel without cgroups */
	assert_true(cg->path[0] == '/');
	assert_true(cg->name[0] != '\0');
}

/* Run every test, the /proc ones on a fake proc root. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_v2),
	    cmocka_unit_test(test_parse_v1),
	    cmocka_unit_test(test_parse_hybrid),
	    cmocka_unit_test(test_parse_malformed),
	    cmocka_unit_test(test_short_containers),
	    cmocka_unit_test(test_short_plain),
	    cmocka_unit_test(test_short_cut),
	    cmocka_unit_test(test_intern),
	    cmocka_unit_test(test_of_pid),
	    cmocka_unit_test(test_tasks),
	    cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
