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
	__type(value, struct tt_prof_val);
} counts0 SEC(".maps"), counts1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct tt_prof_leaf_key);
	__type(value, __u32);
} leafs SEC(".maps");

/* Stacks, and those whose bucket in the first was taken by another: a
 * second chance, the overflow map holding few, so that collisions lose
 * about the product of the two maps' fill instead of the first's. */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1024);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, TT_PROF_MAX_DEPTH * sizeof(__u64));
} stacks SEC(".maps"), stacks2 SEC(".maps");

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

/* Count key in the counts map being written; a new entry takes the top
 * of the user stack at sp when sp is not 0. */
static __always_inline void
count(struct tt_prof_key *key, __u64 sp)
{
	__u32 zero = 0, *g = bpf_map_lookup_elem(&gen, &zero);
	void *map = g != 0 && *g != 0 ? (void *)&counts1 : (void *)&counts0;
	struct tt_prof_val *v, nv = {.count = 1};

	v = bpf_map_lookup_elem(map, key);
	if (v != 0) {
		__sync_fetch_and_add(&v->count, 1);
		return;
	}
	if (sp != 0 && bpf_probe_read_user(nv.top, sizeof nv.top, (void *)sp) != 0)
		__builtin_memset(nv.top, 0, sizeof nv.top);
	/* another CPU may have added it meanwhile: then count there */
	if (bpf_map_update_elem(map, key, &nv, BPF_NOEXIST) == 0)
		return;
	v = bpf_map_lookup_elem(map, key);
	if (v != 0)
		__sync_fetch_and_add(&v->count, 1);
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
	if (id == -EEXIST) {
		id = bpf_get_stackid(ctx, &stacks2, flags);
		if (id >= 0)
			return (int)id | TT_PROF_STACK2;
	}
	if (id != -EFAULT) {
		note_lost(why);
		*fail = 1;
	}
	return TT_PROF_NO_STACK;
}

/* A user-mode sample's frameless leaf: with the reader's word for its
 * (pid, ip), the return address into the key's ret (the caller the
 * frame-pointer walk skips), 0 returned; without one yet, sp, for the new
 * entry to keep the top of the stack until the reader has judged. */
static __always_inline __u64
leaf_return(struct tt_prof_key *key, __u64 ip, __u64 sp)
{
	struct tt_prof_leaf_key lk = {.pid = key->pid, .ip = ip};
	__u32 *w = bpf_map_lookup_elem(&leafs, &lk);
	__u64 ret = 0;

	if (w == 0)
		return sp;
	if (*w < TT_PROF_TOP_WORDS &&
	    bpf_probe_read_user(&ret, sizeof ret, (void *)(sp + 8 * *w)) == 0)
		key->ret = ret;
	return 0;
}

/* leaf_return for the user-mode state of the sample: its registers, or
 * in the kernel those the task entered it with. */
static __always_inline __u64
user_leaf(struct bpf_perf_event_data *ctx, struct tt_prof_key *key, __u64 ip)
{
	struct pt_regs *ur;
	__u64 sp = 0;

	if (!kernel_ip(ip))
		return leaf_return(key, ip, PT_REGS_SP(&ctx->regs));
	ur = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
	if (ur == 0 || bpf_probe_read_kernel(&ip, sizeof ip, &PT_REGS_IP(ur)) != 0 ||
	    bpf_probe_read_kernel(&sp, sizeof sp, &PT_REGS_SP(ur)) != 0 || kernel_ip(ip))
		return 0;
	return leaf_return(key, ip, sp);
}

/* With call stacks: count by (pid, tid, ip, user stack, kernel stack). */
SEC("perf_event")
int
tt_profile_stack(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 ip = PT_REGS_IP(&ctx->regs);
	struct tt_prof_key key = {.pid = id >> 32, .tid = (__u32)id};
	__u64 top_sp = 0;
	int fail = 0;

	key.ip = ip;
	key.kstack = kernel_ip(ip) ? stack_id(ctx, TT_PROF_SKIP_LEAF, TT_PROF_LOST_KSTACK, &fail)
	                           : TT_PROF_NO_STACK;
	key.ustack = key.pid == 0    ? TT_PROF_NO_STACK
	             : kernel_ip(ip) ? stack_id(ctx, BPF_F_USER_STACK, TT_PROF_LOST_USTACK, &fail)
	                             : stack_id(ctx, BPF_F_USER_STACK | TT_PROF_SKIP_LEAF,
	                                        TT_PROF_LOST_USTACK, &fail);
	if (fail)
		return 0;
	if (key.pid != 0)
		top_sp = user_leaf(ctx, &key, ip);
	count(&key, top_sp);
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

	count(&key, 0);
	return 0;
}
