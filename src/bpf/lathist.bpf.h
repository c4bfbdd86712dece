/* lathist.bpf.h: what the in-kernel latency programs (latency.bpf.c,
 * schedlat.bpf.c) share: the histogram, command, lost and target maps read by
 * src/latency-bpf.c's helpers, the log2 bucket and adding a value. BPF
 * code only: include once, after the BPF headers and latency.h. */
#ifndef TRACETOP_BPF_LATHIST_BPF_H
#define TRACETOP_BPF_LATHIST_BPF_H

/* Sized by the reader before load. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct tt_lat_key);
	__type(value, struct tt_lat_val);
} hists SEC(".maps");

/* The command of a process with a histogram, taken when its first bucket
 * is made (one that exits before a refresh is still named). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct tt_lat_comm);
} comms SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TT_LAT_NLOST);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

/* Count one value not counted, by why. */
static __always_inline void
note_lost(__u32 why)
{
	__u64 *n = bpf_map_lookup_elem(&lost, &why);

	if (n != 0)
		*n += 1;
}

/* The processes measured, and their children (each program's fork
 * handler adds them with target_add). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u8);
} targets SEC(".maps");

/* Measure process pid too (a target's child); 0 when the map is full,
 * which is counted. */
static __always_inline int
target_add(__u32 pid)
{
	__u8 one = 1;

	if (bpf_map_update_elem(&targets, &pid, &one, BPF_ANY) == 0)
		return 1;
	note_lost(TT_LAT_FULL);
	return 0;
}

/* 0 -> 0, [2^(k-1), 2^k) -> k, as lat_bucket in user space. */
static __always_inline __u32
bucket(__u64 v)
{
	__u32 r = 0;

	if (v == 0)
		return 0;
	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r + 1;
}

/* How hist_add names a new bucket's process: not, by the current
 * command, or by the comm[16] at a kernel address. */
enum hist_name { HIST_NAME_NONE, HIST_NAME_CURRENT, HIST_NAME_AT };

/* Add a value of ns to (id, pid, err)'s histogram; a new bucket first
 * names pid as how says (only then: nothing is read per value); a full
 * map counts it lost. */
static __always_inline void
hist_add(__u32 id, __u32 pid, __u64 ns, __u32 err, enum hist_name how, const void *at)
{
	struct tt_lat_key k = {.id = id, .pid = pid, .bucket = bucket(ns), .err = err};
	struct tt_lat_val *v = bpf_map_lookup_elem(&hists, &k), nv = {.min = ~0ULL};

	if (v == 0) {
		struct tt_lat_comm c = {};

		if ((how == HIST_NAME_CURRENT &&
		     bpf_get_current_comm(c.comm, sizeof c.comm) == 0) ||
		    (how == HIST_NAME_AT && bpf_probe_read_kernel(c.comm, sizeof c.comm, at) == 0))
			bpf_map_update_elem(&comms, &pid, &c, BPF_ANY);
		bpf_map_update_elem(&hists, &k, &nv, BPF_NOEXIST);
		if ((v = bpf_map_lookup_elem(&hists, &k)) == 0) {
			note_lost(TT_LAT_FULL);
			return;
		}
	}
	/* a per-CPU entry made on another CPU starts zeroed here: its min
	 * is none until its first value */
	if (v->count == 0 || ns < v->min)
		v->min = ns;
	v->count += 1;
	v->sum += ns;
	if (ns > v->max)
		v->max = ns;
}

#endif
