/* sym-kernel: /proc/kallsyms parsing into a symbol table. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/sym-kernel.h"
#include "tracetop/symtab-pack.h"
#include "tracetop/util.h"

/* Kernel symbols carry no sizes: a symbol reaches the next one, but never
 * further than this (the largest x86-64 kernel functions are ~20 KiB), so
 * addresses in gaps (trampolines, padding) stay unresolved. */
#define KSYM_MAX_GAP (64 * 1024)

/* /proc/kallsyms is ~10 MiB on big kernels; refuse anything absurd. */
#define KALLSYMS_LIMIT (256u * 1024 * 1024)
/* Bytes read at a time (a line is at most ~600: KSYM_NAME_LEN 512). */
#define KALLSYMS_CHUNK (64u * 1024)

/* The padding the kernel puts before each function (CONFIG_CALL_PADDING)
 * has a symbol of its own, "__pfx_" and the function's name: about half of
 * kallsyms' text symbols on a 6.x kernel, and half of the table's memory.
 * Padding is not executed (NOPs, or call-depth accounting charged to the
 * function it precedes), so these are not kept; an address in padding
 * falls to the function before it. */
#define KSYM_PAD_PREFIX "__pfx_"

/* Where parsed symbols go: a plain table, or a packed one being built. */
struct ksink {
	struct symtab *st;
	struct sympack *pack;
};

/* Add a text symbol to the sink's table. */
static void
sink_add(struct ksink *k, uint64_t addr, const char *name, size_t namelen, const char *mod)
{
	if (k->pack != NULL)
		sympack_add(k->pack, addr, name, namelen, mod);
	else
		symtab_add_n(k->st, addr, 0, name, namelen, mod);
}

/* Symbols in the sink's table. */
static size_t
sink_count(const struct ksink *k)
{
	return k->pack != NULL ? sympack_count(k->pack) : k->st->n;
}

/* Parse one line [p, end): "ADDR TYPE NAME[\t[MODULE]]". Adds text symbols;
 * *nonzero notes any non-zero address. The line is modified in place.
 * False for a line not in that format. */
static bool
parse_line(char *p, char *end, struct ksink *st, bool *nonzero)
{
	uint64_t addr = 0;
	int v, digits = 0;
	char type, *name, *mod = NULL, *q;
	size_t namelen;

	while (p < end && (v = hex_digit(*p)) >= 0) {
		addr = (addr << 4) | (uint64_t)v;
		p++;
		digits++;
	}
	if (digits == 0 || digits > 16 || end - p < 4 || p[0] != ' ' || p[2] != ' ')
		return false;
	if (addr != 0)
		*nonzero = true;
	type = p[1];
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return true;
	name = p + 3;
	for (q = name; q < end && *q != '\t' && *q != ' '; q++)
		;
	namelen = (size_t)(q - name);
	if (namelen == 0)
		return false;
	if (namelen > strlen(KSYM_PAD_PREFIX) &&
	    memcmp(name, KSYM_PAD_PREFIX, strlen(KSYM_PAD_PREFIX)) == 0)
		return true;
	while (q < end && (*q == '\t' || *q == ' '))
		q++;
	if (end - q >= 3 && *q == '[' && end[-1] == ']') {
		end[-1] = '\0';
		mod = q + 1;
	}
	sink_add(st, addr, name, namelen, mod);
	return true;
}

/* Parse the whole lines of [buf, buf + len) (modified in place), the last
 * one also without its newline when eof; the number of well-formed lines
 * goes to *good. Returns the bytes consumed (the rest is a partial line). */
static size_t
parse_lines(char *buf, size_t len, bool eof, struct ksink *st, bool *nonzero, size_t *good)
{
	char *p = buf, *end = buf + len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL && !eof)
			break;
		if (nl == NULL)
			nl = end;
		if (nl > p && parse_line(p, nl, st, nonzero))
			(*good)++;
		p = nl < end ? nl + 1 : end;
	}
	return (size_t)(p - buf);
}

/* Parse a kallsyms file in chunks: its text is ~5 MiB (120k+ lines) and
 * made by the kernel at each read, and a copy of it all would be most of
 * tracetop's peak memory. The number of well-formed lines, -1 on a read
 * error (errno set); *nonzero set if any address was not zero. */
static ssize_t
parse_fd(int fd, struct ksink *st, bool *nonzero)
{
	char *buf = xmalloc(KALLSYMS_CHUNK + 1);
	size_t len = 0, used, good = 0, total = 0;
	ssize_t n;

	*nonzero = false;
	for (;;) {
		n = read(fd, buf + len, KALLSYMS_CHUNK - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (total += (size_t)n) > KALLSYMS_LIMIT) {
			int e = n < 0 ? errno : EFBIG;

			free(buf);
			errno = e;
			return -1;
		}
		len += (size_t)n;
		used = parse_lines(buf, len, n == 0, st, nonzero, &good);
		if (n == 0)
			break;
		if (used == 0 && len == KALLSYMS_CHUNK)
			used = len; /* a line longer than a chunk: not kallsyms, dropped */
		memmove(buf, buf + used, len - used);
		len -= used;
	}
	free(buf);
	return (ssize_t)good;
}

/* The message for a kallsyms whose addresses are all zero. */
static int
hidden_error(const char *path, struct tt_err *err)
{
	char val[32];

	if (read_file("/proc/sys/kernel/kptr_restrict", val, sizeof val) > 0)
		val[strcspn(val, "\n")] = '\0';
	else
		strcpy(val, "?");
	return err_set(err,
	               "%s: kernel addresses are hidden (kernel.kptr_restrict=%s): run as root or "
	               "set sysctl kernel.kptr_restrict=0",
	               path, val);
}

/* Load a kallsyms-format file into the sink, and finish its table into
 * st. */
static int
load(const char *path, struct ksink *k, struct symtab *st, struct tt_err *err)
{
	ssize_t good;
	bool nonzero;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		rc = err_set(err, "cannot open %s: %s", path, strerror(errno));
	else if ((good = parse_fd(fd, k, &nonzero)) < 0)
		rc = err_set(err, "cannot read %s: %s", path, strerror(errno));
	else if (good == 0)
		rc = err_set(err, "%s: no symbols in kallsyms format", path);
	else if (!nonzero)
		rc = hidden_error(path, err);
	else if (sink_count(k) == 0)
		rc = err_set(err, "%s has no kernel text symbols", path);
	if (fd >= 0)
		close(fd);
	if (rc != 0) {
		sympack_free(k->pack);
		symtab_free(st);
	} else if (k->pack != NULL) {
		sympack_finish(k->pack, KSYM_MAX_GAP, st);
	} else {
		symtab_finish(st, KSYM_MAX_GAP);
	}
	return rc;
}

/* Load a kallsyms-format file into st and finish it. */
int
symkernel_load(const char *path, struct symtab *st, struct tt_err *err)
{
	struct ksink k = {.st = st};

	return load(path, &k, st, err);
}

/* The same into a packed table. */
int
symkernel_load_packed(const char *path, struct symtab *st, struct tt_err *err)
{
	struct ksink k = {.st = st, .pack = sympack_new()};

	return load(path, &k, st, err);
}
