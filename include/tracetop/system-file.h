/* system-file: /proc and /sys files read whole into buffers kept from one
 * read to the next, for the system source and the counters' CPU busy
 * time: an fd kept open and read again with pread at 0 where the kernel
 * allows it, per-process files opened, read and closed. No allocation in
 * steady state (a buffer grows only when its file outgrows it). */
#ifndef TRACETOP_SYSTEM_FILE_H
#define TRACETOP_SYSTEM_FILE_H

#include <stddef.h>

/* A /proc or /sys file read whole into a buffer kept from one read to the
 * next (grown when the file outgrows it). */
struct sys_file {
	char *path; /* as shown in reasons: root + name */
	int fd;     /* kept open, read again with pread at 0; -1: not open */
	char *buf;  /* the last read, len bytes (a NUL after them) */
	size_t len, cap;
	const char *error; /* interned "PATH: reason" of the last failure, or NULL */
};

/* Open root/name to be read by sys_file_read (a failure is kept in
 * f->error for the reader to show). */
void sys_file_open(struct sys_file *f, const char *root, const char *name);

/* Read the whole file again: 0, or -1 with f->error. */
int sys_file_read(struct sys_file *f);

/* Open, read whole and close name under the directory fd dirfd into f's
 * buffer (per-process files: a pid's fds are not kept). 0, or -1 with
 * errno (f->error is not set: a process that exits is no error). */
int sys_file_read_at(struct sys_file *f, int dirfd, const char *name);

/* Close the fd and free the buffer and path. */
void sys_file_close(struct sys_file *f);

/* Grow *v (of elements of size bytes, room for *cap) to hold need; new
 * room is zeroed. */
void sys_grow(void **v, size_t *cap, size_t need, size_t size);

/* The index of the element named name in base[0..n) (elements of stride
 * bytes, the name at byte off), trying hint first; n when absent. */
size_t sys_find_name(const void *base, size_t n, size_t stride, size_t off, const char *name,
                     size_t hint);

#endif
