// SPDX-License-Identifier: GPL-2.0
/* schedlat.bpf.c: tracetop's in-kernel run-queue and block I/O latency
 * histograms, on BTF tracepoints (raw tracepoints: each attachment is its
 * own link, shared with no perf user of the tracepoint, so other tools'
 * and tracetop's own perf events on them are untouched). A wakeup, or a
 * preemption, stores the thread's time; its switch-in adds the wait to
 * its process's log2 histogram. A request's issue stores its time by
 * (device, sector); its completion adds the time to the device's. A
 * thread that blocks has its kernel and user stacks taken (a stack map)
 * and, at its switch-in, the time blocked is summed by (thread, stacks),
 * like bcc's offcputime. No event is copied to user space: it reads the
 * histograms and sums at each refresh. Kernel structures are read with CO-RE (relocated against the
 * running kernel's BTF at load). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "latency.h"
#include "lathist.bpf.h"
#include "schedlat.h"

char LICENSE[] SEC("license") = "GPL";

/* The fields read, relocated by name against vmlinux BTF. */
struct task_struct {
	int pid, tgid;
	unsigned int __state;
	char comm[16];
} __attribute__((preserve_access_index));

struct block_device {
	unsigned int bd_dev;
} __attribute__((preserve_access_index));

struct gendisk {
	struct block_device *part0;
} __attribute__((preserve_access_index));

struct request_queue {
	struct gendisk *disk;
} __attribute__((preserve_access_index));

struct request {
	struct request_queue *q;
	unsigned long long __sector;
} __attribute__((preserve_access_index));

/* Runnable threads not yet switched in (an exit removes its entry). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct tt_sl_start);
} runnable SEC(".maps");

/* Requests in flight. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct tt_sl_rq);
	__type(value, struct tt_sl_start);
} inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tt_sl_cfg);
} cfg SEC(".maps");

/* Blocked threads of the target (sized by the reader). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct tt_sl_off);
} offstart SEC(".maps");

/* Their stacks (a full or colliding map: the stack is not taken, which
 * the reader counts). */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 8192);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, TT_SL_STACK_DEPTH * sizeof(__u64));
} offstacks SEC(".maps");

/* Blocked time since the last drain. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct tt_sl_offkey);
	__type(value, struct tt_sl_offval);
} offcpu SEC(".maps");

/* The configuration, NULL while paused. */
static __always_inline struct tt_sl_cfg *
config(void)
{
	__u32 zero = 0;
	struct tt_sl_cfg *c = bpf_map_lookup_elem(&cfg, &zero);

	return c != 0 && c->on ? c : 0;
}

/* Whether process tgid's run-queue waits are measured. */
static __always_inline int
wanted(const struct tt_sl_cfg *c, __u32 tgid)
{
	if (tgid == 0 || tgid == c->self)
		return 0;
	return !c->filter || bpf_map_lookup_elem(&targets, &tgid) != 0;
}

/* Thread p waits for a CPU from now. */
static __always_inline void
runnable_from(const struct tt_sl_cfg *c, struct task_struct *p)
{
	__u32 tid = (__u32)BPF_CORE_READ(p, pid);
	struct tt_sl_start s = {.at = bpf_ktime_get_ns(), .gen = c->gen};

	if (tid == 0 || !wanted(c, (__u32)BPF_CORE_READ(p, tgid)))
		return;
	if (bpf_map_update_elem(&runnable, &tid, &s, BPF_ANY) != 0)
		note_lost(TT_LAT_FULL);
}

/* A thread was woken. */
SEC("tp_btf/sched_wakeup")
int
BPF_PROG(tt_sl_wakeup, struct task_struct *p)
{
	struct tt_sl_cfg *c = config();

	if (c != 0 && c->runq)
		runnable_from(c, p);
	return 0;
}

/* A new thread is runnable. */
SEC("tp_btf/sched_wakeup_new")
int
BPF_PROG(tt_sl_wakeup_new, struct task_struct *p)
{
	struct tt_sl_cfg *c = config();

	if (c != 0 && c->runq)
		runnable_from(c, p);
	return 0;
}

/* A thread switched out, another in: a preempted one waits again, a
 * blocked one's wakeup seen while it ran counts no more, and the one in
 * waited since its wakeup. */
SEC("tp_btf/sched_switch")
int
BPF_PROG(tt_sl_switch, int preempt, struct task_struct *prev, struct task_struct *next)
{
	struct tt_sl_cfg *c = config();
	__u32 tid, tgid;
	struct tt_sl_start *s;
	__u64 now;

	if (c == 0 || !c->runq)
		return 0;
	if (BPF_CORE_READ(prev, __state) == 0) { /* TASK_RUNNING: preempted */
		runnable_from(c, prev);
	} else {
		tid = (__u32)BPF_CORE_READ(prev, pid);
		bpf_map_delete_elem(&runnable, &tid);
	}
	tid = (__u32)BPF_CORE_READ(next, pid);
	s = bpf_map_lookup_elem(&runnable, &tid);
	if (s == 0)
		return 0;
	now = bpf_ktime_get_ns();
	tgid = (__u32)BPF_CORE_READ(next, tgid);
	if (s->gen == c->gen && s->at <= now && wanted(c, tgid))
		hist_add(TT_SL_RUNQ, tgid, now - s->at, 0, HIST_NAME_AT,
		         __builtin_preserve_access_index(&next->comm));
	bpf_map_delete_elem(&runnable, &tid);
	return 0;
}

/* The off-CPU side of a switch: prev (current: its stacks are taken
 * here) blocks, next's block ends and is summed. */
SEC("tp_btf/sched_switch")
int
BPF_PROG(tt_sl_offcpu, int preempt, struct task_struct *prev, struct task_struct *next)
{
	struct tt_sl_cfg *c = config();
	struct tt_sl_off *o, s = {};
	struct tt_sl_offkey k = {};
	struct tt_sl_offval *v, nv = {.min = ~0ULL};
	__u32 tid;
	__u64 now, ns;

	if (c == 0 || !c->offcpu)
		return 0;
	now = bpf_ktime_get_ns();
	s.state = BPF_CORE_READ(prev, __state);
	tid = (__u32)BPF_CORE_READ(prev, pid);
	if (s.state != 0 && tid != 0 && wanted(c, (__u32)BPF_CORE_READ(prev, tgid))) {
		s.at = now;
		s.gen = c->gen;
		s.kstack = bpf_get_stackid(ctx, &offstacks, 0);
		s.ustack = bpf_get_stackid(ctx, &offstacks, BPF_F_USER_STACK);
		if (bpf_map_update_elem(&offstart, &tid, &s, BPF_ANY) != 0)
			note_lost(TT_LAT_FULL);
	}
	tid = (__u32)BPF_CORE_READ(next, pid);
	o = bpf_map_lookup_elem(&offstart, &tid);
	if (o == 0)
		return 0;
	if (o->gen == c->gen && o->at <= now) {
		ns = now - o->at;
		k.pid = (__u32)BPF_CORE_READ(next, tgid);
		k.tid = tid;
		k.kstack = o->kstack;
		k.ustack = o->ustack;
		k.state = o->state;
		k.bucket = bucket(ns);
		v = bpf_map_lookup_elem(&offcpu, &k);
		if (v == 0) {
			bpf_map_update_elem(&offcpu, &k, &nv, BPF_NOEXIST);
			v = bpf_map_lookup_elem(&offcpu, &k);
		}
		if (v != 0) {
			__sync_fetch_and_add(&v->ns, ns);
			__sync_fetch_and_add(&v->count, 1);
			if (ns < v->min)
				v->min = ns;
			if (ns > v->max)
				v->max = ns;
		} else {
			note_lost(TT_LAT_FULL);
		}
	}
	bpf_map_delete_elem(&offstart, &tid);
	return 0;
}

/* A process forked: its child is measured when it is. */
SEC("tp_btf/sched_process_fork")
int
BPF_PROG(tt_sl_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 zero = 0, ptgid = (__u32)BPF_CORE_READ(parent, tgid),
	      ctgid = (__u32)BPF_CORE_READ(child, tgid);
	struct tt_sl_cfg *c = bpf_map_lookup_elem(&cfg, &zero);

	if (c == 0 || !c->filter || ptgid == ctgid || bpf_map_lookup_elem(&targets, &ptgid) == 0)
		return 0;
	target_add(ctgid);
	return 0;
}

/* A thread exited: its entry goes (the map is not an LRU: a full one is
 * counted, never silently evicted). */
SEC("tp_btf/sched_process_exit")
int
BPF_PROG(tt_sl_exit, struct task_struct *p)
{
	__u32 tid = (__u32)BPF_CORE_READ(p, pid);

	bpf_map_delete_elem(&runnable, &tid);
	bpf_map_delete_elem(&offstart, &tid);
	return 0;
}

/* The key of a request: the device as block_rq_issue reports it. */
static __always_inline struct tt_sl_rq
rq_key(struct request *rq)
{
	struct tt_sl_rq k = {.sector = BPF_CORE_READ(rq, __sector)};
	struct gendisk *d = BPF_CORE_READ(rq, q, disk);

	k.dev = d != 0 ? BPF_CORE_READ(d, part0, bd_dev) : 0;
	return k;
}

/* A block request was issued. */
SEC("tp_btf/block_rq_issue")
int
BPF_PROG(tt_sl_issue, struct request *rq)
{
	struct tt_sl_cfg *c = config();
	struct tt_sl_rq k;
	struct tt_sl_start s;

	if (c == 0 || !c->bio)
		return 0;
	k = rq_key(rq);
	s = (struct tt_sl_start){.at = bpf_ktime_get_ns(), .gen = c->gen};
	if (bpf_map_update_elem(&inflight, &k, &s, BPF_ANY) != 0)
		note_lost(TT_LAT_FULL);
	return 0;
}

/* A block request completed: its time in flight into its device's. */
SEC("tp_btf/block_rq_complete")
int
BPF_PROG(tt_sl_complete, struct request *rq, unsigned char error)
{
	struct tt_sl_cfg *c = config();
	struct tt_sl_rq k;
	struct tt_sl_start *s;
	__u64 now = bpf_ktime_get_ns();

	if (c == 0 || !c->bio)
		return 0;
	k = rq_key(rq);
	s = bpf_map_lookup_elem(&inflight, &k);
	if (s == 0) {
		note_lost(TT_LAT_UNPAIRED);
		return 0;
	}
	if (s->gen == c->gen && s->at <= now)
		hist_add(TT_SL_BIO, k.dev, now - s->at, error != 0, HIST_NAME_NONE, 0);
	bpf_map_delete_elem(&inflight, &k);
	return 0;
}
