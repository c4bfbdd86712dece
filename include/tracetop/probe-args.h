/* probe-args: the arguments of a probe. An ARG is a raw fetch-arg as
 * tracefs takes it (%di, +8(%sp):u32, +0(%si):string, $retval, $argN,
 * $stackN, $comm, @ADDR), NAME=FETCHARG, or the NAME of a parameter or
 * variable, which is translated into a fetch-arg: from DWARF for user code
 * with debug info (its location at the probe address: a register, or
 * memory at a register plus an offset, or at the frame base), from BTF
 * (/sys/kernel/btf/vmlinux) for kernel functions, whose parameters are
 * then mapped to the x86-64 argument registers. The DWARF part is the
 * adapter for libdw here (src/probe-dwarf.c), the BTF part reads the raw
 * format itself (src/probe-btf.c); the syntax is src/probe-args.c. */
#ifndef TRACETOP_PROBE_ARGS_H
#define TRACETOP_PROBE_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/dso.h"
#include "tracetop/util.h"

/* The longest fetch-arg or argument name kept. */
#define PROBE_ARG_MAX 256

/* Where a probe is, for checking and translating its arguments. */
enum {
	PROBE_ARGF_KERNEL = 1,  /* a kprobe (else a uprobe) */
	PROBE_ARGF_RETURN = 2,  /* a return probe: $retval is there */
	PROBE_ARGF_ENTRY = 4,   /* at the function's first instruction */
	PROBE_ARGF_NO_ARGN = 8, /* the kernel has no $argN: use the registers */
	PROBE_ARGF_EARLY = 16   /* the address is not final yet: $argN is left as is */
};

/* One argument of a probe as given, then resolved. */
struct probe_arg {
	char *name;  /* the event's field name: given or derived ("di", "arg2") */
	char *fetch; /* the fetch-arg with its :TYPE, as the kernel takes it;
	              * NULL for a variable not translated yet */
	char *var;   /* a parameter or variable name to translate, or NULL */
	char *type;  /* var: a :TYPE given with it, or NULL */
	bool named;  /* name given by the user */
};

/* Parse one ARG ("NAME", "NAME:TYPE", "NAME=FETCHARG", "NAME=VAR",
 * "FETCHARG") for a probe of kind flags (PROBE_ARGF_*), checking the
 * fetch-arg's syntax and type. pos (1-based) names an unnamed fetch-arg
 * that has no better name ("arg3"). 0, or -1 with err naming the bad part. */
int probe_arg_parse(const char *s, unsigned flags, unsigned pos, struct probe_arg *out,
                    struct tt_err *err);

void probe_arg_free(struct probe_arg *a);

/* Check a fetch-arg with an optional :TYPE for a probe of kind flags and
 * write its canonical form to out: registers named as the kernel names
 * them (%rdi -> %di), $argN of a user probe at function entry (or of a
 * kernel without $argN) turned into the argument register. 0, or -1 with
 * err. */
int probe_fetcharg_check(const char *s, unsigned flags, char *out, size_t len, struct tt_err *err);

/* Whether a :TYPE (without the colon) is one tracefs takes: u8..u64,
 * s8..s64, x8..x64, char, string, ustring, symbol, symstr, %pd, %pD,
 * b<width>@<offset>/<size>, each but the strings with an optional [N]. */
bool probe_type_ok(const char *type);

/* The x86-64 register that holds integer argument n (1-based) at function
 * entry ("di", "si", "dx", "cx", "r8", "r9"), or NULL past the sixth. */
const char *probe_arg_register(unsigned n);

/* Give every argument a distinct name (a clash gets _2, _3, ...); -1 with
 * err when two names given by the user are the same. */
int probe_args_unique(struct probe_arg *args, size_t n, struct tt_err *err);

/* A parameter or variable visible at a probe point. */
struct probe_var {
	char *name;
	char *type;  /* its C type, as in the source ("const char *") */
	char *fetch; /* the fetch-arg with its :TYPE, or NULL when not available */
	char *value; /* fetch: the fetch-arg of the value itself, without a type
	              * (for a char *, the pointer rather than the string) */
	char *why;   /* fetch NULL: why ("optimized out here", "a struct") */
	bool param;  /* a formal parameter (else a local variable) */
};

/* What is visible at a probe point. */
struct probe_vars {
	struct probe_var *v;
	size_t n;
	uint64_t addr;       /* the probe address the locations hold at */
	bool after_prologue; /* addr was moved past the prologue */
	char *where;         /* "file.c:12" of the function, or NULL */
	const char *source;  /* "DWARF" or "BTF" */
};

void probe_vars_free(struct probe_vars *vs);

/* The parameters and variables of the function func (at ELF address
 * func_addr) of the ELF file path, at func_addr + off (a return probe when
 * ret), from its DWARF debug info (in the file or its separate debug
 * file). At the entry of a function whose parameters live in its stack
 * frame (code built without optimization), the probe point moves past the
 * prologue, where they have been stored (as perf probe does). segs map
 * addresses of static variables to file offsets. -1 with err: no debug
 * info, no such function in it. */
int probe_dwarf_vars(const char *path, const char *func, uint64_t func_addr, uint64_t off, bool ret,
                     const struct dso_seg *segs, size_t nsegs, struct probe_vars *out,
                     struct tt_err *err);

/* The BTF file of the running kernel (tests point it elsewhere; NULL
 * restores /sys/kernel/btf/vmlinux). */
void probe_btf_set_path(const char *path);

/* The parameters of the kernel function func from BTF, mapped to the
 * argument registers at its entry (the seventh on at $stack1...; a struct
 * passed by value ends the mapping). -1 with err: no BTF, no such
 * function in it, a corrupt file. */
int probe_btf_params(const char *func, struct probe_vars *out, struct tt_err *err);

/* Finish args for a probe of kind flags (its address now final): give
 * variable arguments (var set) their fetch-arg from vars (NULL: none
 * known), turn a whole "$argN[:TYPE]" of a user probe into the n-th
 * parameter's fetch-arg when vars are known, and check every fetch-arg
 * again (probe_fetcharg_check). -1 with err naming an unknown or
 * unavailable variable, with what there is. */
int probe_args_resolve(struct probe_arg *args, size_t n, const struct probe_vars *vars,
                       unsigned flags, struct tt_err *err);

#endif
