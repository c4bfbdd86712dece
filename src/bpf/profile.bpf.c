// SPDX-License-Identifier: GPL-2.0
/* profile.bpf.c: tracetop's in-kernel sampler. Attached to each sampling
 * perf event (BPF_PROG_TYPE_PERF_EVENT), it counts the sample by (pid,
 * tid, user stack id, kernel stack id), or by (pid, tid, ip) without
 * stacks, in one of two counts maps (the reader flips between them at each
 * refresh, so it never reads a map being written), and returns 0 so the
 * sample is not written to the ring: only side-band records reach it. */
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <linux/errno.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "profile.h"

char LICENSE[] SEC("license") = "GPL";

/* Sizes are set by the reader before load (from -F, CPUs and refresh). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct tt_prof_key);
	__type(value, __u64);
} counts0 SEC(".maps"), counts1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1024);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, TT_PROF_MAX_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/* Slot 0: which counts map is written (0 or 1). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} gen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TT_PROF_NLOST);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

/* Count one sample not counted, by why. */
static __always_inline void
note_lost(__u32 why)
{
	__u64 *n = bpf_map_lookup_elem(&lost, &why);

	if (n != 0)
		*n += 1;
}

/* Count key in the counts map being written. */
static __always_inline void
count(struct tt_prof_key *key)
{
	__u32 zero = 0, *g = bpf_map_lookup_elem(&gen, &zero);
	void *map = g != 0 && *g != 0 ? (void *)&counts1 : (void *)&counts0;
	__u64 one = 1, *n;

	n = bpf_map_lookup_elem(map, key);
	if (n != 0) {
		__sync_fetch_and_add(n, 1);
		return;
	}
	/* another CPU may have added it meanwhile: then count there */
	if (bpf_map_update_elem(map, key, &one, BPF_NOEXIST) == 0)
		return;
	n = bpf_map_lookup_elem(map, key);
	if (n != 0)
		__sync_fetch_and_add(n, 1);
	else
		note_lost(TT_PROF_LOST_FULL);
}

/* Whether a sampled ip is kernel code (the upper half on 64-bit). */
static __always_inline int
kernel_ip(__u64 ip)
{
	return (long long)ip < 0;
}

/* A stack id, or TT_PROF_NO_STACK when there is none to take (-EFAULT: a
 * kernel thread's user stack, an empty walk); a stack that does not fit
 * the map (-EEXIST: another stack holds its bucket, -ENOMEM: full) loses
 * the sample, counted by why. */
static __always_inline int
stack_id(struct bpf_perf_event_data *ctx, __u64 flags, __u32 why, int *fail)
{
	long id = bpf_get_stackid(ctx, &stacks, flags);

	if (id >= 0)
		return (int)id;
	if (id != -EFAULT) {
		note_lost(why);
		*fail = 1;
	}
	return TT_PROF_NO_STACK;
}

/* With call stacks: count by (pid, tid, user stack, kernel stack). */
SEC("perf_event")
int
tt_profile_stack(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 ip = PT_REGS_IP(&ctx->regs);
	struct tt_prof_key key = {.pid = id >> 32, .tid = (__u32)id};
	int fail = 0;

	key.kstack =
	    kernel_ip(ip) ? stack_id(ctx, 0, TT_PROF_LOST_KSTACK, &fail) : TT_PROF_NO_STACK;
	key.ustack = key.pid != 0 ? stack_id(ctx, BPF_F_USER_STACK, TT_PROF_LOST_USTACK, &fail)
	                          : TT_PROF_NO_STACK;
	if (fail)
		return 0;
	if (key.kstack == TT_PROF_NO_STACK && key.ustack == TT_PROF_NO_STACK)
		key.ip = ip;
	count(&key);
	return 0;
}

/* Without stacks: count by (pid, tid, ip). */
SEC("perf_event")
int
tt_profile_ip(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct tt_prof_key key = {.pid = id >> 32,
	                          .tid = (__u32)id,
	                          .ustack = TT_PROF_NO_STACK,
	                          .kstack = TT_PROF_NO_STACK,
	                          .ip = PT_REGS_IP(&ctx->regs)};

	count(&key);
	return 0;
}
