/* probe: the probe manager. Kprobes and uprobes defined from a SPEC,
 * made in tracefs in a group that names tracetop and its pid
 * ("tracetop_PID": only this process ever writes to it), counted with
 * perf counting fds on their tracepoint id (enabled: those fds are open;
 * the global trace buffer's events/.../enable is never written), listed
 * with the tracepoints tracetop counts and the system's other dynamic
 * events (read-only: never touched), and removed again: on
 * probes_free, at exit (atexit), and the groups of tracetops that are gone
 * at the next start or with --cleanup. Never prints, never exits.
 *
 * SPEC: kernel "FUNC[+OFF|%return] [ARG...]", user
 * "BINARY:FUNC[+OFF|%return] [ARG...]" (FUNC may be 0xFILEOFFSET); an ARG
 * as probe-args.h says. BINARY is a path, or a name looked up as the
 * command, in the targets' mappings (libc: libc.so.6), in PATH and in the
 * library directories. */
#ifndef TRACETOP_PROBE_H
#define TRACETOP_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracetop/counters.h"
#include "tracetop/probe-args.h"
#include "tracetop/util.h"

/* The group prefix: tracetop's probes live in PROBE_GROUP_PREFIX "PID". */
#define PROBE_GROUP_PREFIX "tracetop_"

/* What a row is. The kinds after PROBE_URETPROBE are other tools' dynamic
 * events, only ever listed. */
enum probe_kind {
	PROBE_TRACEPOINT,
	PROBE_KPROBE,
	PROBE_KRETPROBE,
	PROBE_UPROBE,
	PROBE_URETPROBE,
	PROBE_EPROBE,
	PROBE_SYNTHETIC,
	PROBE_FPROBE,
	PROBE_OTHER,
};

/* "tracepoint", "kprobe", "kretprobe", "uprobe", "uretprobe", "eprobe",
 * "synthetic", "fprobe", "other". */
const char *probe_kind_name(enum probe_kind k);

/* ---- SPECs and listings (src/probe-spec.c: parsing only, no I/O) ---- */

/* Most arguments one probe takes. */
#define PROBE_MAX_ARGS 64

struct probe_spec {
	enum probe_kind kind; /* KPROBE, KRETPROBE, UPROBE or URETPROBE */
	char *binary;         /* user: as written; NULL for the kernel */
	char *func;           /* function name, or "0x..." (user: a file offset) */
	uint64_t offset;      /* +OFF (raw_offset: the whole file offset) */
	bool raw_offset;      /* func is a file offset, not a symbol */
	struct probe_arg *args;
	size_t nargs;
};

/* Parse a SPEC. 0, or -1 with err naming the bad part (the usage error of
 * a malformed spec: exit 2). Arguments are checked for syntax only. */
int probe_spec_parse(const char *spec, struct probe_spec *out, struct tt_err *err);

/* Write [BINARY:]FUNC (binary NULL or "": the kernel) into buf as the
 * target of a spec that probe_spec_parse reads back: a binary with blanks
 * or ':' is quoted ("/opt/my app:v2/bin":main), a function with blanks,
 * '+' or '%' too. 0, or -1 with err (a '"' in a name; too long). */
int probe_spec_target(char *buf, size_t len, const char *binary, const char *func,
                      struct tt_err *err);
void probe_spec_free(struct probe_spec *s);

/* Whether s is "tracetop_PID"; the PID in *pid. */
bool probe_group_parse(const char *s, int *pid);

/* ---- resolving a SPEC to a place (src/probe-resolve.c) ---- */

/* What names the binaries of user SPECs: the command and the targets. */
struct probe_ctx {
	char *const *argv; /* the command (argv[0] names a binary), or NULL */
	const int *pids;   /* processes whose mappings name libraries */
	size_t npids;
};

/* A SPEC resolved: what to write to tracefs. */
struct probe_place {
	enum probe_kind kind;
	char *path;      /* user: the binary's canonical path */
	char *func;      /* the function (or the offset as written) */
	uint64_t addr;   /* user: the probe's ELF address (0 for a raw offset) */
	uint64_t offset; /* user: its file offset; kernel: the offset in func */
	char *target;    /* for people: "FUNC+OFF", "/path:FUNC+OFF" */
	char *place;     /* for tracefs: "FUNC+OFF", "/path:0xOFFSET" */
	/* a path with blanks, which tracefs cannot take, goes to it as
	 * /proc/self/fd/N of this descriptor, open until the place is freed
	 * (the kernel holds the file once the probe is made) */
	bool has_fd;
	int fd;
	char **args; /* "NAME=FETCHARG", for tracefs and people */
	size_t nargs;
};

/* Resolve a parsed SPEC: find the binary and the function (rejecting an
 * unknown binary, an unknown function, a data symbol, an offset past the
 * function's end), check that the kernel has the probe type (a kprobe
 * without CONFIG_KPROBE_EVENTS is refused, naming it), translate named
 * arguments. 0, or -1 with err. */
int probe_resolve(const struct probe_spec *s, const struct probe_ctx *ctx, struct probe_place *out,
                  struct tt_err *err);
void probe_place_free(struct probe_place *pl);

/* Find the binary a user SPEC names (see above); its canonical path,
 * malloc'd, or NULL with err. */
char *probe_find_binary(const char *name, const struct probe_ctx *ctx, struct tt_err *err);

/* A path that process pid maps (as probe_process_objects lists them), as
 * we can read and probe it: through /proc/PID/root when pid lives in
 * another mount namespace (a container), else the path; malloc'd. */
char *probe_local_path(int pid, const char *path);

/* Whether the kernel can make probes of kind k (KPROBE or UPROBE, or
 * their return kinds); else false with err saying what it lacks. */
bool probe_kind_supported(enum probe_kind k, struct tt_err *err);

/* The parameters and variables visible at the SPEC's probe point (its
 * arguments are ignored): from DWARF for user code, from BTF for a kernel
 * function's entry; *what (malloc'd) says where ("f in /bin/x", "f
 * (kernel)"). 0, or -1 with err (no such binary or function, no debug
 * info, no BTF). Free with probe_vars_free. */
int probe_vars_get(const struct probe_spec *s, const struct probe_ctx *ctx, struct probe_vars *out,
                   char **what, struct tt_err *err);

/* --probe-vars: print the parameters and variables visible at the SPEC's
 * probe point (its arguments are ignored) with their fetch-args, like
 * `perf probe -V`. 0, or -1 with err. */
int probe_vars_print(FILE *out, const struct probe_spec *s, const struct probe_ctx *ctx,
                     struct tt_err *err);

/* ---- the system's dynamic events (src/probe-sys.c) ---- */

/* One line of dynamic_events / uprobe_events / kprobe_events. */
struct probe_event {
	char *group, *event;
	enum probe_kind kind;
	char *target; /* the place as tracefs shows it */
	char **args;  /* the fetch-args as shown */
	size_t nargs;
};

/* Parse a listing (text of len bytes, need not be NUL-terminated) into
 * *out (malloc'd, *n entries); malformed lines are skipped. */
void probe_events_parse(const char *text, size_t len, struct probe_event **out, size_t *n);

/* Every dynamic event of the system, from dynamic_events (or from
 * uprobe_events and kprobe_events). -1 with err when tracefs is missing or
 * unreadable. */
int probe_events_list(struct probe_event **out, size_t *n, struct tt_err *err);

void probe_events_free(struct probe_event *v, size_t n);

/* Write a definition or removal line to the tracefs file name
 * ("uprobe_events", ...); 0, or -1 with err quoting the kernel's
 * error_log when it has something to say. */
int probe_tracefs_write(const char *name, const char *line, struct tt_err *err);

/* Remove every event of group; how many were removed (-1 with err when
 * some could not be, e.g. still open by someone: EBUSY). */
int probe_group_remove(const char *group, struct tt_err *err);

/* Remove the groups of tracetops that are gone: "tracetop_PID" whose PID
 * no longer exists (never this process's, never another name). removed
 * (may be NULL) hears of each, with how many events it had. Returns how
 * many groups were removed, or -1 with err (tracefs unreadable; a group
 * that could not be removed is reported too, after the others). */
int probe_cleanup_stale(void (*removed)(void *arg, const char *group, int pid, size_t nevents),
                        void *arg, struct tt_err *err);

/* For pickers: the kernel's probe-able functions (available_filter_functions
 * when readable, else the text symbols of /proc/kallsyms), the function
 * symbols of an ELF file, the ELF files a process maps executable. Sorted,
 * unique, malloc'd (free with names_free); NULL with err. A function is
 * listed by its full name (demangled, version suffix dropped: sym-name.h);
 * when that is not its raw name, the raw one follows the item's NUL, for
 * probe_function_raw. */
char **probe_kernel_functions(size_t *n, struct tt_err *err);
char **probe_binary_functions(const char *path, size_t *n, struct tt_err *err);

/* The raw name of a function item of those lists: what a SPEC names it by
 * exactly (an overloaded C++ function's full name may fit several). */
const char *probe_function_raw(const char *item);
char **probe_process_objects(int pid, size_t *n, struct tt_err *err);

/* ---- the manager (src/probe.c) ---- */

struct probes;

/* A manager for this process's group (nothing is made in tracefs yet).
 * ctx names the binaries of user SPECs (copied). */
struct probes *probes_new(const struct probe_ctx *ctx);

/* The group: "tracetop_PID". */
const char *probes_group(const struct probes *p);

/* Make the probe of SPEC in tracefs (counted at once when counting has
 * started). Its index, or -1 with err: a malformed SPEC (*usage set when
 * usage is not NULL), or one the system refuses. */
int probes_add(struct probes *p, const char *spec, bool *usage, struct tt_err *err);

/* Count the hits of the tracepoint name ("sched:sched_switch") that
 * tracetop has enabled elsewhere, as a row of kind tracepoint (nothing is
 * made or removed in tracefs). Its index, or -1 with err. */
int probes_add_tracepoint(struct probes *p, const char *name, struct tt_err *err);

/* How many rows are tracetop's (probes and counted tracepoints). */
size_t probes_count(const struct probes *p);

/* Row i's tracepoint name, "tracetop_PID:EVENT" or "sys:event": what -e,
 * -T, evspec_parse and engine_trace_enable take. */
const char *probes_tracepoint(const struct probes *p, size_t i);

/* The row whose tracepoint name (or event name in our group) is name, or -1. */
int probes_find(const struct probes *p, const char *name);

/* Start counting hits on the target (events and nevents of t are ignored;
 * its command is the engine's child, not yet released). 0, or -1 with
 * err. */
int probes_count_start(struct probes *p, const struct counters_opts *t, struct tt_err *err);

/* Open (on) or close (off) row i's counting fds; hits so far are kept. */
int probes_set_enabled(struct probes *p, size_t i, bool on, struct tt_err *err);

/* Remove row i: close its fds, delete the probe from tracefs. -1 with err
 * (the kernel refused: the row stays). */
int probes_remove(struct probes *p, size_t i, struct tt_err *err);

/* End an interval: read the counts. */
void probes_tick(struct probes *p);

/* One row of a snapshot. Strings stay valid until the next snapshot into
 * the same struct or a change of the manager. */
struct probes_row {
	const char *name; /* "tracetop_PID:EVENT", "sys:event" */
	enum probe_kind kind;
	const char *target; /* "FUNC+OFF", "/path:FUNC", others: as tracefs says */
	const char *const *args;
	size_t nargs;
	uint64_t hits;     /* since counting began (0 for others' events) */
	double rate;       /* hits per second in the last interval */
	bool enabled;      /* our counting fds are open */
	bool ours;         /* false: another tool's, read-only */
	const char *state; /* "on", "off", "waiting" (not counting yet), "other's" */
};

struct probes_snapshot {
	struct probes_row *rows;
	size_t n, cap;
	struct probe_event *others; /* the rows of other groups own these */
	size_t nothers;
	double interval, elapsed; /* seconds of the last interval, since counting began */
	const char *notice;       /* why other events are missing, or NULL */
	char notice_buf[sizeof(struct tt_err)];
};

/* Our rows in the order made, then every other group's dynamic events. */
void probes_snapshot(struct probes *p, struct probes_snapshot *snap);
void probes_snapshot_free(struct probes_snapshot *snap);

/* Close the fds, remove every probe of ours from tracefs, free p (NULL is
 * fine). Close any other fd on the probes first (the engine's): the
 * kernel refuses to remove a probe in use. */
void probes_free(struct probes *p);

/* Remove whatever this process's group still holds (exit paths; also run
 * at exit once a probe was made). */
void probes_remove_all(void);

#endif
