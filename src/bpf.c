/* bpf: the libbpf adapter (see include/tracetop/bpf.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/bpf.h"

/* The useful end of a verifier log: its last non-blank lines but its
 * statistics. */
void
tt_bpf_log_tail(const char *log, size_t lines, char *buf, size_t len)
{
	const char *end = log + strlen(log), *p = end, *starts[16];
	size_t n = 0, used = 0;

	if (lines > 16)
		lines = 16;
	/* walk back over whole lines, keeping the starts of non-blank ones */
	while (p > log && n < lines) {
		const char *e = p, *s;

		while (e > log && (e[-1] == '\n' || e[-1] == ' '))
			e--;
		if (e == log)
			break;
		for (s = e; s > log && s[-1] != '\n'; s--)
			;
		/* the verifier's statistics say nothing of what is wrong */
		if (strncmp(s, "processed ", 10) != 0 && strncmp(s, "verification time", 17) != 0 &&
		    strncmp(s, "stack depth", 11) != 0)
			starts[n++] = s;
		p = s;
	}
	if (len == 0)
		return;
	buf[0] = '\0';
	while (n-- > 0) {
		const char *s = starts[n], *e = strchr(s, '\n');
		size_t l = e != NULL ? (size_t)(e - s) : strlen(s);
		int w = snprintf(buf + used, len - used, "%s%.*s", used > 0 ? "; " : "", (int)l, s);

		if (w < 0 || (size_t)w >= len - used) {
			buf[used] = '\0'; /* whole lines only */
			break;
		}
		used += (size_t)w;
	}
}

#if HAVE_BPF

#include <linux/capability.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* Verifier log bytes kept for the reason of a refused load. */
#define TT_BPF_LOG_SIZE (256U << 10)
/* Lines of it shown: the error is at its end. */
#define TT_BPF_LOG_LINES 3

struct tt_bpf {
	struct bpf_object *obj;
	char *log; /* the kernel's verifier log */
	char name[64];
};

/* The last message libbpf printed (it prints to stderr by default, which
 * must not happen under curses): kept for an error's reason. */
static char tt_bpf_last[256];

/* libbpf's print callback: keep warnings, say nothing. The last one
 * that says what failed is kept: libbpf ends a failed load with "failed
 * to load object", which only repeats that it failed. */
static int
tt_bpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char msg[sizeof tt_bpf_last];
	const char *m = msg;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(msg, sizeof msg, fmt, ap);
	msg[strcspn(msg, "\n")] = '\0';
	if (strncmp(m, "libbpf: ", 8) == 0)
		m += 8;
	if (strncmp(m, "failed to load object", 21) != 0 || tt_bpf_last[0] == '\0')
		snprintf(tt_bpf_last, sizeof tt_bpf_last, "%s", m);
	return 0;
}

/* Built with BPF. */
bool
tt_bpf_built(void)
{
	return true;
}

/* The effective capability set (64 bits), or 0 when unreadable. */
static uint64_t
tt_bpf_caps(void)
{
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof d);
	if (syscall(SYS_capget, &h, d) != 0)
		return 0;
	return (uint64_t)d[0].effective | (uint64_t)d[1].effective << 32;
}

/* Root's powers, or CAP_BPF with CAP_PERFMON. */
bool
tt_bpf_allowed(struct tt_err *err)
{
	uint64_t caps = tt_bpf_caps();
	bool admin = caps >> CAP_SYS_ADMIN & 1;
#ifdef CAP_BPF
	bool bpf = caps >> CAP_BPF & 1, perfmon = caps >> CAP_PERFMON & 1;
#else
	bool bpf = caps >> 39 & 1, perfmon = caps >> 38 & 1;
#endif

	if (admin || (bpf && perfmon))
		return true;
	err_set(err, "BPF needs root or CAP_BPF+CAP_PERFMON (this process lacks %s)",
	        !bpf && !perfmon ? "both"
	        : !bpf           ? "CAP_BPF"
	                         : "CAP_PERFMON");
	return false;
}

/* What a libbpf or kernel errno means for a user. */
static const char *
tt_bpf_why(int e)
{
	switch (e) {
	case EPERM:
	case EACCES:
		return "needs root or CAP_BPF+CAP_PERFMON";
	case ENOSYS:
		return "the kernel has no BPF (CONFIG_BPF_SYSCALL)";
	case E2BIG:
		return "a map is bigger than the kernel allows";
	case ENOMEM:
		return "not enough locked memory for the maps";
	case EINVAL:
		return "the kernel refused it";
	default:
		return strerror(e);
	}
}

/* Open an object image. */
struct tt_bpf *
tt_bpf_open(const void *obj, size_t len, const char *name, struct tt_err *err)
{
	struct tt_bpf *b = xcalloc(1, sizeof *b);
	LIBBPF_OPTS(bpf_object_open_opts, o);
	long rc;

	libbpf_set_print(tt_bpf_print);
	snprintf(b->name, sizeof b->name, "%s", name);
	b->log = xcalloc(1, TT_BPF_LOG_SIZE);
	o.object_name = b->name;
	o.kernel_log_buf = b->log;
	o.kernel_log_size = TT_BPF_LOG_SIZE;
	/* no log while all goes well (a verifier's log of every state costs
	 * time and memory at each start); on a refusal libbpf loads the
	 * program or BTF that failed again with log level 1 into our buffer,
	 * so the log holds only what failed, and is empty when the kernel
	 * refused something else (a map's size) */
	o.kernel_log_level = 0;
	b->obj = bpf_object__open_mem(obj, len, &o);
	rc = libbpf_get_error(b->obj);
	if (rc != 0) {
		err_set(err, "BPF object %s: %s", name, strerror((int)-rc));
		b->obj = NULL;
		tt_bpf_close(b);
		return NULL;
	}
	return b;
}

/* Size one map before the load. */
int
tt_bpf_resize(struct tt_bpf *b, const char *map, uint32_t entries, struct tt_err *err)
{
	struct bpf_map *m = bpf_object__find_map_by_name(b->obj, map);

	if (m == NULL || bpf_map__set_max_entries(m, entries) != 0)
		return err_set(err, "BPF object %s: cannot size map %s", b->name, map);
	return 0;
}

/* Load a program or not. */
int
tt_bpf_autoload(struct tt_bpf *b, const char *prog, bool on, struct tt_err *err)
{
	struct bpf_program *p = bpf_object__find_program_by_name(b->obj, prog);

	if (p == NULL || bpf_program__set_autoload(p, on) != 0)
		return err_set(err, "BPF object %s: no program %s", b->name, prog);
	return 0;
}

/* Create the maps and load the programs. */
int
tt_bpf_load(struct tt_bpf *b, struct tt_err *err)
{
	char tail[320];
	int rc;

	tt_bpf_last[0] = '\0';
	rc = bpf_object__load(b->obj);
	if (rc == 0)
		return 0;
	rc = rc < 0 ? -rc : rc;
	tt_bpf_log_tail(b->log, TT_BPF_LOG_LINES, tail, sizeof tail);
	if (tail[0] != '\0' && rc != EPERM)
		return err_set(err, "the kernel's verifier refused BPF program %s: %s", b->name,
		               tail);
	return err_set(err, "cannot load BPF program %s: %s%s%s", b->name, tt_bpf_why(rc),
	               tt_bpf_last[0] ? " — libbpf: " : "", tt_bpf_last);
}

/* A map's fd. */
int
tt_bpf_map_fd(const struct tt_bpf *b, const char *map)
{
	struct bpf_map *m = bpf_object__find_map_by_name(b->obj, map);

	return m != NULL ? bpf_map__fd(m) : -1;
}

/* Attach a program to a perf event through the event's own fd. */
int
tt_bpf_attach_perf(struct tt_bpf *b, const char *prog, int perf_fd, struct tt_err *err)
{
	struct bpf_program *p = bpf_object__find_program_by_name(b->obj, prog);
	int pfd = p != NULL ? bpf_program__fd(p) : -1;

	if (pfd < 0)
		return err_set(err, "BPF program %s is not loaded", prog);
	if (ioctl(perf_fd, PERF_EVENT_IOC_SET_BPF, pfd) != 0)
		return err_set(err, "cannot attach BPF program %s to the sampling event: %s", prog,
		               tt_bpf_why(errno));
	return 0;
}

/* Attach a program to a perf event through a BPF link carrying cookie
 * (the program reads it with bpf_get_attach_cookie): the link's fd, which
 * detaches it when closed, or -1 with err. */
int
tt_bpf_attach_cookie(struct tt_bpf *b, const char *prog, int perf_fd, uint64_t cookie,
                     struct tt_err *err)
{
	struct bpf_program *p = bpf_object__find_program_by_name(b->obj, prog);
	int pfd = p != NULL ? bpf_program__fd(p) : -1, fd;

	LIBBPF_OPTS(bpf_link_create_opts, o, .perf_event.bpf_cookie = cookie);
	if (pfd < 0)
		return err_set(err, "BPF program %s is not loaded", prog);
	if ((fd = bpf_link_create(pfd, perf_fd, BPF_PERF_EVENT, &o)) < 0)
		return err_set(err, "cannot attach BPF program %s to its event: %s", prog,
		               tt_bpf_why(errno));
	return fd;
}

/* Attach a BTF tracepoint program (SEC "tp_btf/...") as a raw
 * tracepoint of its own: the fd, which detaches it when closed, or -1
 * with err. */
int
tt_bpf_attach_trace(struct tt_bpf *b, const char *prog, struct tt_err *err)
{
	struct bpf_program *p = bpf_object__find_program_by_name(b->obj, prog);
	int pfd = p != NULL ? bpf_program__fd(p) : -1, fd;

	if (pfd < 0)
		return err_set(err, "BPF program %s is not loaded", prog);
	if ((fd = bpf_raw_tracepoint_open(NULL, pfd)) < 0)
		return err_set(err, "cannot attach BPF program %s to its tracepoint: %s", prog,
		               tt_bpf_why(errno));
	return fd;
}

/* The key after key (NULL: the first). */
int
tt_bpf_next_key(int fd, const void *key, void *next)
{
	return bpf_map_get_next_key(fd, key, next) == 0 ? 0 : -errno;
}

/* Look an entry up. */
int
tt_bpf_lookup(int fd, const void *key, void *value)
{
	return bpf_map_lookup_elem(fd, key, value) == 0 ? 0 : -errno;
}

/* Set an entry. */
int
tt_bpf_update(int fd, const void *key, const void *value)
{
	return bpf_map_update_elem(fd, key, value, BPF_ANY) == 0 ? 0 : -errno;
}

/* Remove an entry. */
int
tt_bpf_delete(int fd, const void *key)
{
	return bpf_map_delete_elem(fd, key) == 0 ? 0 : -errno;
}

/* Take and remove entries one at a time (kernels without batches). */
static int
tt_bpf_drain_each(int fd, unsigned char *keys, unsigned char *values, uint32_t ks, uint32_t vs,
                  uint32_t *count)
{
	uint32_t n = 0, max = *count;

	while (n < max && bpf_map_get_next_key(fd, NULL, keys + (size_t)n * ks) == 0) {
		if (bpf_map_lookup_and_delete_elem(fd, keys + (size_t)n * ks,
		                                   values + (size_t)n * vs) == 0) {
			n++;
		} else if (bpf_map_lookup_elem(fd, keys + (size_t)n * ks,
		                               values + (size_t)n * vs) == 0) {
			bpf_map_delete_elem(fd, keys + (size_t)n * ks);
			n++;
		} else {
			break;
		}
	}
	*count = n;
	return 0;
}

/* Take and remove a hash map's entries in batches. */
int
tt_bpf_drain(int fd, void *keys, void *values, uint32_t key_size, uint32_t value_size,
             uint32_t *count)
{
	unsigned char *k = keys, *v = values;
	uint32_t max = *count, n = 0, token = 0;
	bool first = true;

	LIBBPF_OPTS(bpf_map_batch_opts, o);
	while (n < max) {
		uint32_t got = max - n;
		int rc = bpf_map_lookup_and_delete_batch(fd, first ? NULL : &token, &token,
		                                         k + (size_t)n * key_size,
		                                         v + (size_t)n * value_size, &got, &o);

		first = false;
		if (rc != 0 && errno != ENOENT) {
			if (n == 0 &&
			    (errno == EINVAL || errno == ENOTSUP || errno == EOPNOTSUPP)) {
				return tt_bpf_drain_each(fd, keys, values, key_size, value_size,
				                         count);
			}
			*count = n + got;
			return -errno;
		}
		n += got;
		if (rc != 0)
			break; /* ENOENT: the last batch */
	}
	*count = n;
	return 0;
}

/* Possible CPUs. */
int
tt_bpf_ncpus(void)
{
	return libbpf_num_possible_cpus();
}

/* Close the object: its programs and maps go with their fds. */
void
tt_bpf_close(struct tt_bpf *b)
{
	if (b == NULL)
		return;
	bpf_object__close(b->obj);
	free(b->log);
	free(b);
}

#else /* !HAVE_BPF */

/* Not built with BPF. */
bool
tt_bpf_built(void)
{
	return false;
}

/* Never: not built in. */
bool
tt_bpf_allowed(struct tt_err *err)
{
	err_set(err, "BPF was not built in (configure found no libbpf or no clang for bpf)");
	return false;
}

/* Never: not built in. */
struct tt_bpf *
tt_bpf_open(const void *obj, size_t len, const char *name, struct tt_err *err)
{
	tt_bpf_allowed(err);
	return NULL;
}

/* Unreachable without an object. */
int
tt_bpf_resize(struct tt_bpf *b, const char *map, uint32_t entries, struct tt_err *err)
{
	return err_set(err, "BPF was not built in");
}

/* Unreachable without an object. */
int
tt_bpf_autoload(struct tt_bpf *b, const char *prog, bool on, struct tt_err *err)
{
	return err_set(err, "BPF was not built in");
}

/* Unreachable without an object. */
int
tt_bpf_load(struct tt_bpf *b, struct tt_err *err)
{
	return err_set(err, "BPF was not built in");
}

/* Unreachable without an object. */
int
tt_bpf_map_fd(const struct tt_bpf *b, const char *map)
{
	return -1;
}

/* Unreachable without an object. */
int
tt_bpf_attach_perf(struct tt_bpf *b, const char *prog, int perf_fd, struct tt_err *err)
{
	return err_set(err, "BPF was not built in");
}

/* Nothing to attach without BPF. */
int
tt_bpf_attach_cookie(struct tt_bpf *b, const char *prog, int perf_fd, uint64_t cookie,
                     struct tt_err *err)
{
	(void)b, (void)prog, (void)perf_fd, (void)cookie;
	return err_set(err, "BPF was not built in");
}

/* Not built in. */
int
tt_bpf_attach_trace(struct tt_bpf *b, const char *prog, struct tt_err *err)
{
	(void)b, (void)prog;
	return err_set(err, "BPF was not built in");
}

/* No maps without BPF. */
int
tt_bpf_next_key(int fd, const void *key, void *next)
{
	(void)fd, (void)key, (void)next;
	return -ENOSYS;
}

/* No maps without BPF. */
int
tt_bpf_lookup(int fd, const void *key, void *value)
{
	return -ENOSYS;
}

/* No maps without BPF. */
int
tt_bpf_update(int fd, const void *key, const void *value)
{
	return -ENOSYS;
}

/* No maps without BPF. */
int
tt_bpf_delete(int fd, const void *key)
{
	return -ENOSYS;
}

/* No maps without BPF. */
int
tt_bpf_drain(int fd, void *keys, void *values, uint32_t key_size, uint32_t value_size,
             uint32_t *count)
{
	*count = 0;
	return -ENOSYS;
}

/* One, without BPF. */
int
tt_bpf_ncpus(void)
{
	return 1;
}

/* Nothing to close. */
void
tt_bpf_close(struct tt_bpf *b)
{
}

#endif
