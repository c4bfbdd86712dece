/* unwind: user call stacks from a sample's copied stack and registers
 * (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER), with unwind tables
 * (.eh_frame_hdr / .eh_frame) read from the ELF files the task maps: our
 * own cached rules for ordinary frames, libunwind's remote unwinder for
 * the rest. Also the frame-pointer fix: the
 * real caller of a frameless leaf, from one unwind step. The only module
 * that includes libunwind. */
#ifndef TRACETOP_UNWIND_H
#define TRACETOP_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/tasks.h"
#include "tracetop/util.h"

/* The user registers to request (perf's x86-64 numbering): AX..IP and
 * R8..R15; segment registers and flags are not needed. */
#define UNWIND_REGS_MASK 0xff01ffULL

/* perf_event register indices (x86-64) used by the unwinder. */
enum unwind_perf_reg {
	UNWIND_PERF_REG_BP = 6,
	UNWIND_PERF_REG_SP = 7,
	UNWIND_PERF_REG_IP = 8,
};

struct unwind;

struct unwind *unwind_new(void);
void unwind_free(struct unwind *u);

/* A sample's user state: regs in the order of UNWIND_REGS_MASK's bits
 * (as record_parse_sample returns them), the stack bytes copied from SP. */
struct unwind_sample {
	const uint64_t *regs;
	size_t nregs;
	const void *stack;
	size_t stack_size;
};

/* Unwind the user stack of a sample taken in task t: writes at most max
 * return addresses, leaf (the sample's ip) first, and returns how many.
 * Stops quietly where the tables or the copied stack run out. */
size_t unwind_user(struct unwind *u, struct task *t, const struct unwind_sample *s, uint64_t *ips,
                   size_t max);

/* The return address of the function executing at the sample's ip, from
 * one unwind step (CFA rule of the leaf), or 0 if unknown. Used to insert
 * the caller that a frame-pointer chain skips when the leaf has no frame. */
uint64_t unwind_leaf_return(struct unwind *u, struct task *t, const struct unwind_sample *s);

/* What the unwinder did: steps taken by our own rules, unwinds finished
 * by libunwind, address rows interpreted. */
struct unwind_stats {
	uint64_t fast_steps, slow_unwinds, rows;
};
const struct unwind_stats *unwind_stats(const struct unwind *u);

/* Our rules first (true, the default), or libunwind for every frame: the
 * two must agree, and tests compare them. */
void unwind_set_fast(struct unwind *u, bool on);

/* Forget cached tables of a DSO whose file changed (or of every DSO). */
void unwind_flush(struct unwind *u);

#endif
