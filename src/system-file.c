/* system-file: /proc and /sys files read whole into reusable buffers. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/system-file.h"
#include "tracetop/util.h"

/* A file's buffer starts this big (most of /proc fits). */
#define SYS_FILE_MIN 4096

/* Keep "PATH: reason" for errno e as f's error. */
static void
file_fail(struct sys_file *f, int e)
{
	char msg[512];

	snprintf(msg, sizeof msg, "%s: %s", f->path, strerror(e));
	f->error = str_intern(msg);
}

/* Open root/name for reading again and again. */
void
sys_file_open(struct sys_file *f, const char *root, const char *name)
{
	memset(f, 0, sizeof *f);
	f->path = xasprintf("%s/%s", root, name);
	f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		file_fail(f, errno);
}

/* Room for at least one more byte and the NUL. */
static void
file_room(struct sys_file *f)
{
	if (f->cap - f->len >= 2)
		return;
	f->cap = f->cap ? 2 * f->cap : SYS_FILE_MIN;
	f->buf = xrealloc(f->buf, f->cap);
}

/* Read fd from offset 0 to the end into f's buffer (pread: the kept fd's
 * position does not matter; a seq_file starts over at 0). With whole, a
 * short read ends it: the file was made whole at its first read. */
static int
file_slurp(struct sys_file *f, int fd, bool whole)
{
	f->len = 0;
	for (;;) {
		size_t room;
		ssize_t r;

		file_room(f);
		room = f->cap - f->len - 1;
		r = pread(fd, f->buf + f->len, room, (off_t)f->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		f->len += (size_t)r;
		if (r == 0 || (whole && (size_t)r < room))
			break;
	}
	f->buf[f->len] = '\0';
	return 0;
}

/* Read the kept fd again. */
int
sys_file_read(struct sys_file *f)
{
	if (f->fd < 0)
		return -1;
	if (file_slurp(f, f->fd, false) != 0) {
		file_fail(f, errno);
		return -1;
	}
	f->error = NULL;
	return 0;
}

/* Open, read and close dirfd/name. */
int
sys_file_read_at(struct sys_file *f, int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC), rc, e;

	if (fd < 0)
		return -1;
	rc = file_slurp(f, fd, true);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

/* Close and free. */
void
sys_file_close(struct sys_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->buf);
	free(f->path);
	memset(f, 0, sizeof *f);
	f->fd = -1;
}

/* Grow an array to hold need elements. */
void
sys_grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t n;

	if (need <= *cap)
		return;
	for (n = *cap ? 2 * *cap : 8; n < need; n *= 2)
		;
	*v = xrealloc(*v, n * size);
	memset((char *)*v + *cap * size, 0, (n - *cap) * size);
	*cap = n;
}

/* Find an element by name, trying the hint first. */
size_t
sys_find_name(const void *base, size_t n, size_t stride, size_t off, const char *name, size_t hint)
{
	const char *b = base;

	if (hint < n && strcmp(b + hint * stride + off, name) == 0)
		return hint;
	for (size_t i = 0; i < n; i++)
		if (strcmp(b + i * stride + off, name) == 0)
			return i;
	return n;
}
