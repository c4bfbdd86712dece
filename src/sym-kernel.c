/* sym-kernel: /proc/kallsyms parsing into a symbol table. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/sym-kernel.h"
#include "tracetop/util.h"

/* Kernel symbols carry no sizes: a symbol reaches the next one, but never
 * further than this (the largest x86-64 kernel functions are ~20 KiB), so
 * addresses in gaps (trampolines, padding) stay unresolved. */
#define KSYM_MAX_GAP (64 * 1024)

/* /proc/kallsyms is ~10 MiB on big kernels; refuse anything absurd. */
#define KALLSYMS_LIMIT (256u * 1024 * 1024)

/* Parse one line [p, end): "ADDR TYPE NAME[\t[MODULE]]". Adds text symbols;
 * *nonzero notes any non-zero address. The line is modified in place.
 * False for a line not in that format. */
static bool
parse_line(char *p, char *end, struct symtab *st, bool *nonzero)
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
	while (q < end && (*q == '\t' || *q == ' '))
		q++;
	if (end - q >= 3 && *q == '[' && end[-1] == ']') {
		end[-1] = '\0';
		mod = q + 1;
	}
	symtab_add_n(st, addr, 0, name, namelen, mod);
	return true;
}

/* Parse a whole kallsyms text (modified in place); the number of
 * well-formed lines, with *nonzero set if any address was not zero. */
static size_t
parse_text(char *buf, size_t len, struct symtab *st, bool *nonzero)
{
	char *p = buf, *end = buf + len, *nl;
	size_t good = 0;

	*nonzero = false;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (nl > p && parse_line(p, nl, st, nonzero))
			good++;
		p = nl + 1;
	}
	return good;
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

/* Load a kallsyms-format file into st and finish it. */
int
symkernel_load(const char *path, struct symtab *st, struct tt_err *err)
{
	char *buf;
	size_t len, good;
	bool nonzero;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return err_set(err, "cannot open %s: %s", path, strerror(errno));
	if (symtab_read_fd(fd, KALLSYMS_LIMIT, &buf, &len) != 0) {
		int e = errno;

		close(fd);
		return err_set(err, "cannot read %s: %s", path, strerror(e));
	}
	close(fd);
	good = parse_text(buf, len, st, &nonzero);
	free(buf);
	if (good == 0 || !nonzero || st->n == 0)
		symtab_free(st);
	if (good == 0)
		return err_set(err, "%s: no symbols in kallsyms format", path);
	if (!nonzero)
		return hidden_error(path, err);
	if (st->n == 0)
		return err_set(err, "%s has no kernel text symbols", path);
	symtab_finish(st, KSYM_MAX_GAP);
	return 0;
}
