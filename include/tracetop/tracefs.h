/* tracefs: the one adapter for libtracefs and the files of tracefs: where it
 * is mounted, event formats, tracetop's private instances
 * ("tracetop-PID-N") and their removal (also of those a killed tracetop
 * left, and only those), the kernel's own words for a refused event filter,
 * the function tracer in a private instance, and snapshots of the global
 * tracing state that tests compare. Nothing here writes a global tracefs
 * file. Functions carry the prefix tt_tracefs_ because libtracefs owns
 * tracefs_; nothing else includes libtracefs. */
#ifndef TRACETOP_TRACEFS_H
#define TRACETOP_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/util.h"

#define TT_TRACEFS_MOUNT_HINT "mount it with: mount -t tracefs nodev /sys/kernel/tracing"

/* Instances tracetop makes are named TT_TRACEFS_PREFIX "PID-N". */
#define TT_TRACEFS_PREFIX "tracetop-"

/* The tracefs mount point: /sys/kernel/tracing, the debugfs one, or the
 * first tracefs in /proc/mounts (one with an events/ directory), or NULL. */
const char *tt_tracefs_dir(void);

/* Use dir as the tracefs mount instead of searching (tests point it at a
 * fixture); a dir without events/ counts as not mounted. NULL searches
 * again. */
void tt_tracefs_set_dir(const char *dir);

/* events/SYS/EVENT/format as a malloc'd NUL-terminated text (free it), its
 * length in *len; NULL with err naming the event and why. */
char *tt_tracefs_event_format(const char *sys, const char *event, size_t *len, struct tt_err *err);

/* The offset of field name in a tracepoint format text ("field:long
 * id;	offset:8;..."), or -1. Pure. */
int tt_tracefs_format_offset(const char *text, const char *name);

/* The offset of field of events/SYS/EVENT, or -1 (no such event or
 * field). */
int tt_tracefs_field_offset(const char *sys, const char *event, const char *field);

/* events/header_page (the ring-buffer page layout the function tracer's
 * buffers use), like tt_tracefs_event_format. */
char *tt_tracefs_header_page(size_t *len, struct tt_err *err);

/* "tracetop-PID-N" into buf. */
void tt_tracefs_instance_name(char *buf, size_t len, int pid, unsigned n);

/* Whether name is a tracetop instance name; its pid in *pid. */
bool tt_tracefs_instance_parse(const char *name, int *pid);

struct tt_instance;

/* Make a private instance named after this process (a name someone else
 * already uses is skipped). It is removed by tt_tracefs_instance_free, or
 * at exit. NULL with err (no tracefs, no permission). */
struct tt_instance *tt_tracefs_instance_new(struct tt_err *err);

/* The instance's name. */
const char *tt_tracefs_instance_get_name(const struct tt_instance *in);

/* Remove the instance from tracefs and free it (NULL is ignored). */
void tt_tracefs_instance_free(struct tt_instance *in);

/* Remove every instance this process made and still has (exit paths;
 * also registered with atexit when the first one is made). */
void tt_tracefs_remove_all(void);

/* Remove the instances of tracetops that are gone: names
 * tracetop-PID-N whose PID no longer exists (never this process's, never
 * another name). removed (may be NULL) hears of each one. Returns how many
 * were removed, or -1 with err when the instances directory cannot be
 * read (tracefs not mounted is 0: there is nothing to clean). */
int tt_tracefs_cleanup_stale(void (*removed)(void *arg, const char *name, int pid), void *arg,
                             struct tt_err *err);

/* The kernel's own words for why it refuses filter on the event sys:event:
 * the filter is written to the event's filter file in a private instance
 * and the error read back into buf ("" when the kernel takes it there).
 * 0, or -1 with err when no instance could be made. */
int tt_tracefs_filter_error(const char *sys, const char *event, const char *filter, char *buf,
                            size_t len, struct tt_err *err);

/* The function tracer in a private instance. */
enum tt_ftrace_tracer {
	TT_FTRACE_FUNCTION, /* one event per call: ftrace:function */
	TT_FTRACE_GRAPH,    /* entries and exits: ftrace:funcgraph_entry/_exit */
};

struct tt_ftrace;

/* One event of the function tracer's buffers: the raw payload laid out
 * like a PERF_SAMPLE_RAW one (common fields first), valid in the callback. */
struct tt_ftrace_rec {
	uint64_t time; /* trace clock "perf" when the kernel has it */
	int cpu;
	const void *raw;
	uint32_t size;
	long long missed; /* events the kernel dropped before this one */
};

/* The events the tracer writes, NULL-terminated ("ftrace:function", ...),
 * whose formats must be known to the stream that decodes them. */
const char *const *tt_tracefs_ftrace_events(enum tt_ftrace_tracer tracer);

/* Trace the kernel functions in funcs (comma- or space-separated names or
 * globs, as set_ftrace_filter takes them) with tracer, in a private
 * instance, limited to pids when npids > 0. NULL with err naming the
 * missing kernel support or the kernel's refusal (EPERM, ENODEV, EBUSY,
 * no such function). */
struct tt_ftrace *tt_tracefs_ftrace_start(const char *funcs, enum tt_ftrace_tracer tracer,
                                          const int *pids, size_t npids, struct tt_err *err);

struct tep_handle;
/* Drain the instance's buffers, every CPU merged in time order, calling fn
 * for each event tep knows (tep: formats of tt_tracefs_ftrace_events and
 * the header page). Returns the number of events, or -1. */
int tt_tracefs_ftrace_read(struct tt_ftrace *f, struct tep_handle *tep,
                           void (*fn)(void *arg, const struct tt_ftrace_rec *r), void *arg);

/* The instance's name (for messages and tests). */
const char *tt_tracefs_ftrace_instance(const struct tt_ftrace *f);

/* Stop tracing and remove the instance (NULL is ignored). */
void tt_tracefs_ftrace_stop(struct tt_ftrace *f);

/* The global tracing state a run must leave as it found it. */
struct tt_tracefs_state {
	char *set_event; /* events enabled in the global buffer */
	char *tracing_on;
	char *current_tracer;
	char *instances; /* instance names, sorted, one per line */
};

/* Read the state. 0, or -1 with err (no tracefs). */
int tt_tracefs_state_read(struct tt_tracefs_state *st, struct tt_err *err);

/* Whether a and b are the same; else the first difference in why. */
bool tt_tracefs_state_equal(const struct tt_tracefs_state *a, const struct tt_tracefs_state *b,
                            char *why, size_t len);

void tt_tracefs_state_free(struct tt_tracefs_state *st);

#endif
