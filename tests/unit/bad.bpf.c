// SPDX-License-Identifier: GPL-2.0
/* bad.bpf.c: a program the verifier refuses (a map value used without the
 * NULL check), for tests/unit/test-bpf.c: the refusal must come back with
 * the verifier's own words. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

/* Reads a map value that may be NULL. */
SEC("perf_event")
int
tt_bad(void *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&vals, &k);

	return (int)*v;
}
