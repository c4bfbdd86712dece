/* sym-jit: perf-PID.map files written by JIT compilers. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/sym-jit.h"

/* Refuse map files past this size: a JIT writing more is misbehaving. */
#define JIT_MAP_LIMIT (64u * 1024 * 1024)

/* JIT entries normally have sizes; a zero size reaches at most this far. */
#define JIT_MAX_GAP 4096

/* Parse a hex number (optional 0x) at *pp before end; advances *pp. */
static bool
parse_hex(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int digits = 0, d;

	if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < end; p++, digits++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (digits == 16)
			return false;
		v = (v << 4) | (uint64_t)d;
	}
	if (digits == 0)
		return false;
	*pp = p;
	*out = v;
	return true;
}

/* Skip spaces and tabs; false if there were none. */
static bool
skip_blanks(const char **pp, const char *end)
{
	const char *p = *pp;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == *pp)
		return false;
	*pp = p;
	return true;
}

/* One line "START SIZE name with spaces" [p, end); malformed lines are ignored. */
static void
parse_line(const char *p, const char *end, struct symtab *st)
{
	uint64_t start, size;

	while (end > p && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		end--;
	skip_blanks(&p, end);
	if (!parse_hex(&p, end, &start) || !skip_blanks(&p, end) || !parse_hex(&p, end, &size) ||
	    !skip_blanks(&p, end) || p == end)
		return;
	symtab_add_n(st, start, size, p, (size_t)(end - p), NULL);
}

/* Parse perf map text line by line. */
void
symjit_parse(const char *text, size_t len, struct symtab *st)
{
	const char *p = text, *end = text + len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		parse_line(p, nl, st);
		p = nl + 1;
	}
}

/* Open a map file without following symlinks and check who owns it. */
static int
open_checked(const char *path, uid_t owner, struct tt_err *err)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 && errno == ELOOP)
		return err_set(err, "%s is a symbolic link: not trusted", path);
	if (fd < 0)
		return err_set(err, "cannot open %s: %s", path, strerror(errno));
	if (fstat(fd, &sb) != 0) {
		err_set(err, "cannot stat %s: %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(sb.st_mode)) {
		err_set(err, "%s is not a regular file: not trusted", path);
		goto fail;
	}
	if (sb.st_uid != owner && sb.st_uid != 0) {
		err_set(
		    err,
		    "%s is owned by uid %u, not by the process's user (%u) or root: not trusted",
		    path, (unsigned)sb.st_uid, (unsigned)owner);
		goto fail;
	}
	if ((uint64_t)sb.st_size > JIT_MAP_LIMIT) {
		err_set(err, "%s is too big (%lld bytes, limit %u)", path, (long long)sb.st_size,
		        JIT_MAP_LIMIT);
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/* Load a trusted perf map into st and finish it. */
int
symjit_load(const char *path, uid_t owner, struct symtab *st, struct tt_err *err)
{
	char *buf;
	size_t len;
	int fd = open_checked(path, owner, err);

	if (fd < 0)
		return -1;
	if (symtab_read_fd(fd, JIT_MAP_LIMIT, &buf, &len) != 0) {
		int e = errno;

		close(fd);
		return err_set(err, "cannot read %s: %s", path, strerror(e));
	}
	close(fd);
	symjit_parse(buf, len, st);
	free(buf);
	symtab_finish(st, JIT_MAX_GAP);
	return 0;
}
