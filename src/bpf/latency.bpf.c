// SPDX-License-Identifier: GPL-2.0
/* latency.bpf.c: tracetop's in-kernel latency histograms. Programs on the
 * entry and return probes of timed functions (a uprobe/uretprobe or
 * kprobe/kretprobe pair; the attach cookie says which function) and on
 * raw_syscalls:sys_enter/sys_exit keep each thread's open calls (a stack
 * of entry times for functions, which nest with recursion) and add each
 * finished call to a log2 histogram keyed by (id, process, bucket): no
 * event is copied to user space, which reads the histograms at each
 * refresh. Nothing reaches the perf rings (see PASS). */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "latency.h"
#include "lathist.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Threads that ended with calls open age out. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct tt_lat_stack);
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct tt_lat_sys);
} sysopen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tt_lat_cfg);
} cfg SEC(".maps");

/* What the tracepoint programs return: 1, so that other perf events on
 * the shared tracepoints (another tool's, tracetop's Trace pane) still
 * get theirs (0 would discard the event for all of them); ours counts
 * it without sampling. The probe pairs' programs return 0: those probes
 * are tracetop's own, and it reads them only through the maps. */
#define PASS 1

/* The configuration when this process is timed, else NULL. */
static __always_inline struct tt_lat_cfg *
wanted(__u32 pid)
{
	__u32 zero = 0;
	struct tt_lat_cfg *c = bpf_map_lookup_elem(&cfg, &zero);

	if (c == 0 || !c->on || pid == c->self)
		return 0;
	/* one process (a command, one -p): no lookup on every event */
	if (c->filter && (c->only != 0 ? pid != c->only : bpf_map_lookup_elem(&targets, &pid) == 0))
		return 0;
	return c;
}

/* A timed function was entered: push the time on the thread's stack. */
SEC("kprobe")
int
tt_lat_entry(struct pt_regs *ctx)
{
	__u64 pt = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	__u32 tid = (__u32)pt, id = (__u32)bpf_get_attach_cookie(ctx), d;
	struct tt_lat_cfg *c = wanted((__u32)(pt >> 32));
	struct tt_lat_stack *s, zero = {};

	if (c == 0)
		return 0;
	s = bpf_map_lookup_elem(&stacks, &tid);
	if (s == 0) {
		zero.gen = c->gen;
		bpf_map_update_elem(&stacks, &tid, &zero, BPF_NOEXIST);
		if ((s = bpf_map_lookup_elem(&stacks, &tid)) == 0) {
			note_lost(TT_LAT_FULL);
			return 0;
		}
	}
	if (s->gen != c->gen) { /* entered before a pause: forgotten */
		s->gen = c->gen;
		s->depth = 0;
		s->over = 0;
	}
	d = s->depth;
	if (d >= TT_LAT_DEPTH || s->over > 0) {
		s->over++;
		note_lost(TT_LAT_DEEP);
		return 0;
	}
	/* for the verifier, which lost the bound on another register: the
	 * compiler may not drop the mask as known */
	__asm__ volatile("" : "+r"(d));
	d &= TT_LAT_DEPTH - 1;
	s->at[d] = now;
	s->id[d] = id;
	s->depth = d + 1;
	return 0;
}

/* A timed function returned: pair it with its innermost open call. */
SEC("kprobe")
int
tt_lat_return(struct pt_regs *ctx)
{
	__u64 pt = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	__u32 tid = (__u32)pt, id = (__u32)bpf_get_attach_cookie(ctx);
	struct tt_lat_cfg *c = wanted((__u32)(pt >> 32));
	struct tt_lat_stack *s;

	if (c == 0)
		return 0;
	s = bpf_map_lookup_elem(&stacks, &tid);
	if (s == 0 || s->gen != c->gen) {
		note_lost(TT_LAT_UNPAIRED);
		return 0;
	}
	if (s->over > 0) { /* the return of a call entered too deep */
		s->over--;
		return 0;
	}
	/* the innermost open call of this function (those above it lost
	 * their returns) */
	for (__u32 j = 0; j < TT_LAT_DEPTH; j++) {
		__u32 i;

		if (j >= s->depth)
			break;
		i = (s->depth - 1 - j) & (TT_LAT_DEPTH - 1); /* masked for the verifier */
		if (s->id[i] != id)
			continue;
		if (s->at[i] <= now)
			hist_add(id, (__u32)(pt >> 32), now - s->at[i], 0, HIST_NAME_CURRENT, 0);
		s->depth = i;
		return 0;
	}
	note_lost(TT_LAT_UNPAIRED);
	return 0;
}

/* A process forked: its child is timed when it is. */
SEC("tracepoint")
int
tt_fork(void *ctx)
{
	__u32 zero = 0, parent = 0, child = 0;
	struct tt_lat_cfg *c = bpf_map_lookup_elem(&cfg, &zero);

	/* a child of a timed process is timed too (a new thread's tid is
	 * added as well: harmless, it never names a process) */
	if (c == 0 || !c->filter || c->fork_child == 0 ||
	    bpf_probe_read_kernel(&parent, sizeof parent, (char *)ctx + c->fork_parent) != 0 ||
	    bpf_probe_read_kernel(&child, sizeof child, (char *)ctx + c->fork_child) != 0)
		return PASS;
	if (c->only != 0 ? parent != c->only : bpf_map_lookup_elem(&targets, &parent) == 0)
		return PASS;
	if (!target_add(child))
		return PASS;
	c->only = 0; /* several now: the map decides */
	return PASS;
}

/* raw_syscalls:sys_enter's and sys_exit's payloads. */
struct sys_enter_args {
	__u64 common;
	long id;
	unsigned long args[6];
};
struct sys_exit_args {
	__u64 common;
	long id;
	long ret;
};

/* A syscall was entered: the thread's open syscall. */
SEC("tracepoint")
int
tt_sys_enter(struct sys_enter_args *ctx)
{
	__u64 pt = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)pt;
	struct tt_lat_cfg *c = wanted((__u32)(pt >> 32));
	struct tt_lat_sys o;

	if (c == 0 || ctx->id < 0)
		return PASS;
	o.at = bpf_ktime_get_ns();
	o.nr = (__u32)ctx->id;
	o.gen = c->gen;
	if (bpf_map_update_elem(&sysopen, &tid, &o, BPF_ANY) != 0)
		note_lost(TT_LAT_FULL);
	return PASS;
}

/* A syscall returned: its time into the histogram. */
SEC("tracepoint")
int
tt_sys_exit(struct sys_exit_args *ctx)
{
	__u64 pt = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	__u32 tid = (__u32)pt;
	struct tt_lat_cfg *c = wanted((__u32)(pt >> 32));
	struct tt_lat_sys *o;

	/* id -1: no syscall ran (a uretprobe's trampoline) */
	if (c == 0 || ctx->id < 0)
		return PASS;
	o = bpf_map_lookup_elem(&sysopen, &tid);
	if (o == 0 || o->gen != c->gen || o->nr != (__u32)ctx->id || o->at > now) {
		note_lost(TT_LAT_UNPAIRED);
		return PASS;
	}
	hist_add((__u32)ctx->id, (__u32)(pt >> 32), now - o->at, ctx->ret < 0, HIST_NAME_CURRENT,
	         0);
	o->gen = c->gen - 1; /* closed */
	return PASS;
}
