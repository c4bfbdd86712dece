/* profile.h: the layout shared by the in-kernel profiler (profile.bpf.c)
 * and its reader (src/engine-bpf.c): the counts map's key, the lost
 * reasons. Plain fixed-size types only: it is compiled for the bpf target
 * and for the host. */
#ifndef TRACETOP_BPF_PROFILE_H
#define TRACETOP_BPF_PROFILE_H

/* Deepest stack the stack map keeps (the kernel's default
 * perf_event_max_stack is 127). */
#define TT_PROF_MAX_DEPTH 127

/* A stack id with this bit is in the overflow stack map (stacks2): its
 * bucket in the first was held by another stack. */
#define TT_PROF_STACK2 (1 << 30)

/* No stack: a stack id field that names none. */
#define TT_PROF_NO_STACK (-1)

/* One counted (thread, place): the sampled ip, and with stacks the ids of
 * the stacks of its callers (the kernel's without the sampled ip for a
 * sample in the kernel, the user's whole; the user's without it for a
 * sample in user space) and a frameless leaf's return address (or 0). The
 * ip kept apart, the stack map holds call paths rather than every
 * sampled instruction of them: far fewer stacks, far fewer collisions.
 * 32 bytes, no padding. */
struct tt_prof_key {
	unsigned int pid, tid;
	int ustack, kstack; /* stack map ids, or TT_PROF_NO_STACK */
	unsigned long long ip;
	unsigned long long ret;
};

/* Frames a stack id skips to leave the sampled ip out: with
 * PERF_SAMPLE_CALLCHAIN (as tracetop opens -g events) the kernel hands the
 * program its callchain, each part led by a context marker, then the
 * sampled ip. */
#define TT_PROF_SKIP_LEAF 2

/* Words read at the top of the user stack for a frameless leaf's return
 * address (a leaf that pushed up to seven registers or kept a few locals). */
#define TT_PROF_TOP_WORDS 8

/* A key's count, and for a user-mode sample whose leaf the reader has not
 * judged yet, the top of the user stack at its first sample (the reader
 * finds the return address there once it knows the leaf's frame). */
struct tt_prof_val {
	unsigned long long count;
	unsigned long long top[TT_PROF_TOP_WORDS];
};

/* The leafs map: for (pid, user ip), the word at the top of the stack
 * that holds the return address (the leaf has no frame: the frame-pointer
 * walk skips its caller), or TT_PROF_LEAF_NONE (it has a frame). Written
 * by the reader; with an entry the program puts that word in the key's
 * ip. */
struct tt_prof_leaf_key {
	unsigned int pid, pad;
	unsigned long long ip;
};
#define TT_PROF_LEAF_NONE 255U

/* Why a sample was not counted: slots of the per-CPU lost array. */
enum tt_prof_lost {
	TT_PROF_LOST_USTACK, /* the user stack did not fit the stack map (full, collision) */
	TT_PROF_LOST_KSTACK, /* the kernel stack did not fit it */
	TT_PROF_LOST_FULL,   /* the counts map was full */
	TT_PROF_NLOST,
};

#endif
