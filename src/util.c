/* util: allocation, errors, parsing, escaping, clocks. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tracetop/util.h"

/* Report an allocation failure and stop: nothing sensible can follow. */
static void
oom(size_t size)
{
	fatal("out of memory allocating %zu bytes", size);
}

/* malloc that never returns NULL. */
void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		oom(size);
	return p;
}

/* calloc that never returns NULL. */
void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom(n * size);
	return p;
}

/* realloc that never returns NULL. */
void *
xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (p == NULL)
		oom(size);
	return p;
}

/* strdup that never returns NULL. */
char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* strndup that never returns NULL. */
char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		oom(n);
	return p;
}

/* asprintf that never fails. */
char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom(strlen(fmt));
	va_end(ap);
	return s;
}

/* Print a bug report and abort. */
void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("tracetop: fatal: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

/* Record an expected failure's message. */
int
err_set(struct tt_err *err, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

/* Parse an unsigned decimal (or 0x hex) number that fills the whole string. */
int
parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;
	int base;

	/* no sign or space (strtoull takes both), and no octal for a leading 0 */
	if (s == NULL || !isdigit((unsigned char)*s))
		return -1;
	base = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno != 0 || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

/* Parse a decimal int that fills the whole string. */
int
parse_int(const char *s, int *out)
{
	long v;
	char *end;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < INT_MIN || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

/* Parse a finite decimal number that fills the whole string. */
int
parse_double(const char *s, double *out)
{
	double v;
	char *end;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* Parse "1,2,3" into positive ints. */
int
parse_int_list(const char *s, int **out, size_t *n)
{
	char *copy, *tok, *save = NULL;
	int *v = NULL;
	size_t cnt = 0;

	if (s == NULL || *s == '\0')
		return -1;
	copy = xstrdup(s);
	for (tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		int x;

		if (parse_int(tok, &x) != 0 || x <= 0) {
			free(copy);
			free(v);
			return -1;
		}
		v = xrealloc(v, (cnt + 1) * sizeof *v);
		v[cnt++] = x;
	}
	free(copy);
	if (cnt == 0 || s[strlen(s) - 1] == ',' || s[0] == ',' || strstr(s, ",,") != NULL) {
		free(v);
		return -1;
	}
	*out = v;
	*n = cnt;
	return 0;
}

/* Order ints for qsort and bsearch. */
int
qsort_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return CMP3(x, y);
}

/* Order uint64_t values for qsort and bsearch. */
int
qsort_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return CMP3(x, y);
}

/* Parse "0-3,5" into a sorted, unique CPU list. */
int
parse_cpu_list(const char *s, int **out, size_t *n)
{
	const char *p = s;
	int *v = NULL;
	size_t cnt = 0, i, j;

	if (s == NULL || *s == '\0')
		return -1;
	while (*p != '\0') {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (lo < 0 || hi < lo || hi > 65535)
			goto bad;
		for (long c = lo; c <= hi; c++) {
			v = xrealloc(v, (cnt + 1) * sizeof *v);
			v[cnt++] = (int)c;
		}
		if (*p == ',') {
			p++;
			if (*p == '\0')
				goto bad;
		} else if (*p == '\n' && p[1] == '\0')
			break;
		else if (*p != '\0')
			goto bad;
	}
	qsort(v, cnt, sizeof *v, qsort_int);
	for (i = j = 0; i < cnt; i++)
		if (j == 0 || v[j - 1] != v[i])
			v[j++] = v[i];
	*out = v;
	*n = j;
	return 0;
bad:
	free(v);
	return -1;
}

/* The CPUs the kernel has online. */
int
online_cpus(int **out, size_t *n, struct tt_err *err)
{
	char buf[4096];

	if (read_file("/sys/devices/system/cpu/online", buf, sizeof buf) < 0)
		return err_set(err, "cannot read /sys/devices/system/cpu/online: %s",
		               strerror(errno));
	if (parse_cpu_list(buf, out, n) != 0)
		return err_set(err, "cannot parse the online CPU list \"%s\"", buf);
	return 0;
}

/* Length of a valid UTF-8 sequence at s (at most len bytes), or 0. */
static size_t
utf8_len(const unsigned char *s, size_t len)
{
	size_t need, i;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	need = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (need > len)
		return 0;
	cp = s[0] & (0x7f >> need);
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((need == 3 && cp < 0x800) || (need == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
		return 0;
	return need;
}

/* Escape untrusted text; a backslash is doubled (keep_backslash false) so
 * that an escape in the output is never the name's own text. */
static size_t
escape_text(char *dst, size_t dstlen, const char *src, size_t srclen, bool keep_backslash)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0, i = 0;

	if (dstlen == 0)
		return 0;
	while (i < srclen && s[i] != '\0') {
		char tmp[5];
		size_t k, len;

		if (s[i] >= 0x20 && s[i] < 0x7f && (s[i] != '\\' || keep_backslash)) {
			tmp[0] = (char)s[i];
			len = 1;
		} else if (s[i] == '\\') {
			memcpy(tmp, "\\\\", 2);
			len = 2;
		} else if (s[i] >= 0x80 && (k = utf8_len(s + i, srclen - i)) > 0) {
			if (o + k >= dstlen)
				break;
			memcpy(dst + o, s + i, k);
			o += k;
			i += k;
			continue;
		} else {
			snprintf(tmp, sizeof tmp, "\\x%02x", s[i]);
			len = 4;
		}
		if (o + len >= dstlen)
			break;
		memcpy(dst + o, tmp, len);
		o += len;
		i++;
	}
	dst[o] = '\0';
	return o;
}

/* Escape untrusted text for a terminal or a file. */
size_t
str_escape(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	return escape_text(dst, dstlen, src, srclen, false);
}

/* Escape untrusted text for a JSON string, whose own escaping doubles the
 * backslashes: control and invalid bytes become \xHH text, a backslash
 * stays one (decoded, "\d" reads as the name has it). */
size_t
str_escape_json(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	return escape_text(dst, dstlen, src, srclen, true);
}

struct intern_slot {
	const char *s;
	uint64_t hash;
};

static struct intern_slot *intern_tab;
static size_t intern_cap, intern_used;

/* FNV-1a of a string (the intern table, srcline's names, row ids). */
uint64_t
str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* Grow the intern table to twice its size. */
static void
intern_grow(void)
{
	size_t ncap = intern_cap ? intern_cap * 2 : 256, i;
	struct intern_slot *nt = xcalloc(ncap, sizeof *nt);

	for (i = 0; i < intern_cap; i++) {
		size_t j;

		if (intern_tab[i].s == NULL)
			continue;
		for (j = intern_tab[i].hash & (ncap - 1); nt[j].s != NULL; j = (j + 1) & (ncap - 1))
			;
		nt[j] = intern_tab[i];
	}
	free(intern_tab);
	intern_tab = nt;
	intern_cap = ncap;
}

/* One shared copy of each distinct string. */
const char *
str_intern(const char *s)
{
	uint64_t h = str_hash(s);
	size_t j;

	if ((intern_used + 1) * 2 > intern_cap)
		intern_grow();
	for (j = h & (intern_cap - 1); intern_tab[j].s != NULL; j = (j + 1) & (intern_cap - 1))
		if (intern_tab[j].hash == h && strcmp(intern_tab[j].s, s) == 0)
			return intern_tab[j].s;
	intern_tab[j].s = xstrdup(s);
	intern_tab[j].hash = h;
	intern_used++;
	return intern_tab[j].s;
}

/* CLOCK_MONOTONIC in ns. */
uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The mount namespace link of /proc entry pid ("mnt:[4026531841]") into
 * buf; false when it cannot be read. */
static bool
mntns_link(const char *proc_root, const char *pid, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof path, "%s/%s/ns/mnt", proc_root, pid);
	if ((n = readlink(path, buf, len - 1)) <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

/* Whether process pid (under proc_root) lives in another mount namespace
 * than ours; false when that cannot be told. */
bool
mntns_foreign(const char *proc_root, int pid)
{
	/* ours, read once: tracetop never changes namespace, and this runs
	 * for every new object of every process seen at start-up */
	static char ours[64];
	char id[16], theirs[64];

	snprintf(id, sizeof id, "%d", pid);
	if (!mntns_link(proc_root, id, theirs, sizeof theirs))
		return false;
	if (ours[0] == '\0' && !mntns_link("/proc", "self", ours, sizeof ours))
		return false;
	return strcmp(ours, theirs) != 0;
}

/* A hex digit's value. */
int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Read a small file whole. */
ssize_t
read_file(const char *path, char *buf, size_t len)
{
	ssize_t n = 0, got = 0;
	int fd;

	if (len == 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((size_t)got < len - 1 && (n = read(fd, buf + got, len - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	if (n < 0 && got == 0)
		return -1;
	buf[got] = '\0';
	return got;
}

/* Block the signals the front ends' loops wait for (INT, TERM, HUP: stop;
 * WINCH: resize; CHLD: a command ended; PIPE: a closed output) and return
 * a non-blocking signalfd for them. The old mask goes to *old if given. */
int
signals_fd(sigset_t *old)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCHLD, SIGPIPE};
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, old);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* Stop polling fds that hung up: a perf fd whose task exited reports
 * POLLHUP for ever, which would turn the loop into a busy spin. Their
 * rings are still drained by whoever owns them. */
void
poll_drop_hangups(struct pollfd *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i].revents & (POLLHUP | POLLERR | POLLNVAL))
			fds[i].fd = -1;
}

/* Order strings for qsort. */
static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append a name to a growing array of names. */
void
names_push(char ***v, size_t *n, size_t *cap, char *name)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[(*n)++] = name;
}

/* The subdirectory names of path, sorted. */
char **
dir_list(const char *path, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **v = NULL;
	size_t cnt = 0, cap = 0;

	if (d == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		if (de->d_type == DT_UNKNOWN
		        ? fstatat(dirfd(d), de->d_name, &st, 0) != 0 || !S_ISDIR(st.st_mode)
		        : de->d_type != DT_DIR)
			continue;
		names_push(&v, &cnt, &cap, xstrdup(de->d_name));
	}
	closedir(d);
	if (v == NULL)
		v = xmalloc(sizeof *v); /* empty, but not a failure */
	qsort(v, cnt, sizeof *v, name_cmp);
	*n = cnt;
	return v;
}

/* Free a dir_list result. */
void
names_free(char **v, size_t n)
{
	for (size_t i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

/* Backward-shift deletion. */
void
lp_delete(void *slots, size_t size, size_t mask, size_t i,
          size_t (*home)(const void *slot, void *arg), void *arg)
{
	char *base = slots;
	size_t j = i, k;

	for (;;) {
		j = (j + 1) & mask;
		if ((k = home(base + j * size, arg)) == SIZE_MAX)
			break;
		/* j stays when its home lies cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		memcpy(base + i * size, base + j * size, size);
		i = j;
	}
	memset(base + i * size, 0, size);
}
