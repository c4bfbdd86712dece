/* bpf: the one adapter to libbpf. Opens a BPF object embedded in the
 * binary, sizes its maps, loads it, attaches its programs to perf event
 * fds and reads and clears its maps; libbpf's errors and the verifier's
 * log come back as a struct tt_err with a reason a user can act on.
 * Nothing is pinned and no link outlives its fds: programs and maps
 * vanish with tracetop, even after SIGKILL. Built without libbpf (no
 * HAVE_BPF), every call fails saying BPF was not built in. Serves the
 * in-kernel profiler (engine-bpf) and, later, latency histograms. */
#ifndef TRACETOP_BPF_H
#define TRACETOP_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/util.h"

struct tt_bpf;

/* Whether tracetop was built with BPF support. */
bool tt_bpf_built(void);

/* Whether this process may load BPF programs and attach them to perf
 * events (root, or CAP_BPF and CAP_PERFMON); false with err saying what
 * is missing. */
bool tt_bpf_allowed(struct tt_err *err);

/* Open the object image obj (len bytes) called name; NULL with err. */
struct tt_bpf *tt_bpf_open(const void *obj, size_t len, const char *name, struct tt_err *err);

/* Before tt_bpf_load: give map name max_entries entries. */
int tt_bpf_resize(struct tt_bpf *b, const char *map, uint32_t entries, struct tt_err *err);

/* Before tt_bpf_load: load program prog or not (all are by default). */
int tt_bpf_autoload(struct tt_bpf *b, const char *prog, bool on, struct tt_err *err);

/* Create the maps and load the programs; -1 with err carrying the
 * kernel's reason (the last lines of the verifier's log, or what EPERM
 * and the like mean here). */
int tt_bpf_load(struct tt_bpf *b, struct tt_err *err);

/* The fd of map name (after load), or -1. */
int tt_bpf_map_fd(const struct tt_bpf *b, const char *map);

/* Attach program prog to the perf event perf_fd (PERF_EVENT_IOC_SET_BPF:
 * held by that fd, undone when it closes). -1 with err. */
int tt_bpf_attach_perf(struct tt_bpf *b, const char *prog, int perf_fd, struct tt_err *err);

/* Attach program prog to perf_fd through a BPF link carrying cookie
 * (bpf_get_attach_cookie): the link's fd (closing it detaches), or -1
 * with err. */
int tt_bpf_attach_cookie(struct tt_bpf *b, const char *prog, int perf_fd, uint64_t cookie,
                         struct tt_err *err);

/* Attach program prog, a BTF tracepoint program, as a raw tracepoint
 * of its own (no perf event: other users of the tracepoint are not
 * affected): the fd (closing it detaches), or -1 with err. */
int tt_bpf_attach_trace(struct tt_bpf *b, const char *prog, struct tt_err *err);

/* The key after key in map fd (key NULL: the first): 0, or -errno
 * (-ENOENT past the last). */
int tt_bpf_next_key(int fd, const void *key, void *next);

/* Map access by fd: 0, or -errno. */
int tt_bpf_lookup(int fd, const void *key, void *value);
int tt_bpf_update(int fd, const void *key, const void *value);
int tt_bpf_delete(int fd, const void *key);

/* Take up to *count entries of hash map fd into keys and values and
 * remove them (lookup-and-delete in batches); *count tells how many were
 * taken. 0, or -errno. */
int tt_bpf_drain(int fd, void *keys, void *values, uint32_t key_size, uint32_t value_size,
                 uint32_t *count);

/* The number of possible CPUs (per-CPU map values hold one each). */
int tt_bpf_ncpus(void);

/* Close everything the object holds. */
void tt_bpf_close(struct tt_bpf *b);

/* The useful end of a verifier log: its last lines that are not blank
 * nor statistics, joined by "; ", at most len bytes (pure; for tests
 * too). */
void tt_bpf_log_tail(const char *log, size_t lines, char *buf, size_t len);

#endif
