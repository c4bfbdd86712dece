/* procmaps: a process's executable mappings, from the PROCMAP_QUERY ioctl
 * of /proc/PID/maps where the kernel has it (Linux 6.11: it hands over the
 * executable mappings alone, where the text lists every mapping to be
 * formatted and parsed, eight times the cost for a small process), else
 * from the text. */
#ifndef TRACETOP_PROCMAPS_H
#define TRACETOP_PROCMAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* One mapping, as a line of /proc/PID/maps describes it. */
struct procmap {
	uint64_t start, end, pgoff;
	dev_t dev;
	ino_t ino;
	bool exec;
	const char *name; /* the path or [name]; "" for anonymous memory */
};

/* Parse one line of /proc/PID/maps (without its newline) into m, its name
 * pointing into line; false when it is not such a line. */
bool procmaps_parse_line(const char *line, struct procmap *m);

/* Hand each executable mapping of the maps file path to fn, in address
 * order, by the ioctl unless text (or it is not there: an old kernel, a
 * file that is not /proc's); m->name lasts until fn returns. -1 when the
 * file cannot be opened (the process is gone), else 0. */
int procmaps_exec(const char *path, bool text, void (*fn)(void *arg, const struct procmap *m),
                  void *arg);

#endif
