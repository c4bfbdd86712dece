/* procmaps: executable mappings from /proc/PID/maps (see procmaps.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tracetop/procmaps.h"

/* The ioctl's ABI (include/uapi/linux/fs.h of Linux 6.11), for headers
 * older than the kernel tracetop runs on. */
struct tt_procmap_query {
	uint64_t size, query_flags, query_addr;
	uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset, inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};
#define TT_PROCMAP_QUERY _IOWR('f', 17, struct tt_procmap_query)
#define TT_PROCMAP_EXECUTABLE 0x04
#define TT_PROCMAP_COVERING_OR_NEXT 0x10

/* A hex number at *p, moving past it; false when there is none. */
static bool
hex_at(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	for (;; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else
			break;
		if (x >> 60)
			return false;
		x = x << 4 | d;
	}
	if (s == *p)
		return false;
	*p = s, *v = x;
	return true;
}

/* Parse "start-end perms offset maj:min inode   name" (by hand: sscanf
 * was most of reading a process's maps). */
bool
procmaps_parse_line(const char *line, struct procmap *m)
{
	const char *p = line;
	uint64_t maj, min, ino = 0;

	if (!hex_at(&p, &m->start) || *p++ != '-' || !hex_at(&p, &m->end) || *p++ != ' ')
		return false;
	if (strnlen(p, 5) < 5 || p[4] != ' ')
		return false;
	m->exec = p[2] == 'x';
	p += 5;
	if (!hex_at(&p, &m->pgoff) || *p++ != ' ' || !hex_at(&p, &maj) || *p++ != ':' ||
	    !hex_at(&p, &min) || *p++ != ' ' || maj > UINT_MAX || min > UINT_MAX)
		return false;
	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		uint64_t d = (uint64_t)(*p - '0');

		if (ino > (UINT64_MAX - d) / 10)
			return false;
		ino = ino * 10 + d;
	}
	if (*p != ' ' && *p != '\0')
		return false;
	while (*p == ' ')
		p++;
	m->dev = makedev((unsigned)maj, (unsigned)min);
	m->ino = (ino_t)ino;
	m->name = p;
	return true;
}

/* The executable mappings of the open maps file fd by the ioctl: 1 when
 * the kernel has none (ENOTTY and the like: read the text instead). */
static int
query_exec(int fd, void (*fn)(void *arg, const struct procmap *m), void *arg)
{
	char name[PATH_MAX];
	uint64_t addr = 0;

	for (;;) {
		struct tt_procmap_query q = {.size = sizeof q,
		                             .query_flags = TT_PROCMAP_COVERING_OR_NEXT |
		                                            TT_PROCMAP_EXECUTABLE,
		                             .query_addr = addr,
		                             .vma_name_addr = (uintptr_t)name,
		                             .vma_name_size = sizeof name};
		struct procmap m;

		if (ioctl(fd, TT_PROCMAP_QUERY, &q) != 0)
			return addr == 0 &&
			               (errno == ENOTTY || errno == EINVAL || errno == EOPNOTSUPP)
			           ? 1
			           : 0; /* ENOENT: past the last; ESRCH: it exited */
		if (q.vma_name_size == 0)
			name[0] = '\0';
		m = (struct procmap){.start = q.vma_start,
		                     .end = q.vma_end,
		                     .pgoff = q.vma_offset,
		                     .dev = makedev(q.dev_major, q.dev_minor),
		                     .ino = (ino_t)q.inode,
		                     .exec = true,
		                     .name = name};
		fn(arg, &m);
		if (q.vma_end <= addr)
			return 0;
		addr = q.vma_end;
	}
}

/* The executable mappings in the text of the open maps file fd. */
static void
text_exec(int fd, void (*fn)(void *arg, const struct procmap *m), void *arg)
{
	FILE *f = fdopen(fd, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (f == NULL) {
		close(fd);
		return;
	}
	/* /proc says blocks of 1 KiB: a read a dozen lines */
	setvbuf(f, NULL, _IOFBF, 64 << 10);
	while ((n = getline(&line, &cap, f)) > 0) {
		struct procmap m;

		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (procmaps_parse_line(line, &m) && m.exec)
			fn(arg, &m);
	}
	free(line);
	fclose(f);
}

/* Each executable mapping of the maps file at path, by the ioctl or the text. */
int
procmaps_exec(const char *path, bool text, void (*fn)(void *arg, const struct procmap *m),
              void *arg)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (!text && query_exec(fd, fn, arg) == 0) {
		close(fd);
		return 0;
	}
	text_exec(fd, fn, arg);
	return 0;
}
