/* annotate: a sampled function as its instructions and source lines, with
 * the share of the function's samples each instruction took. The
 * disassembly (capstone, x86-64, AT&T syntax as perf and objdump print it;
 * this is the only module that includes capstone) is made once, by
 * annotate_new; annotate_update refreshes the counts from the function's
 * address histogram (cheap: call it every refresh). Source lines come from
 * the DSO's debug info (line table) and, when the source file is readable,
 * carry its text; without debug info the annotation is the disassembly
 * alone and says so in its notice. Text taken from files (symbol names,
 * source lines) is raw: escape it before it reaches a terminal or file. */
#ifndef TRACETOP_ANNOTATE_H
#define TRACETOP_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tracetop/addrhist.h"
#include "tracetop/dso.h"
#include "tracetop/symtab.h"
#include "tracetop/util.h"

enum annotate_kind {
	ANNOTATE_INSN,   /* one instruction */
	ANNOTATE_SOURCE, /* a source line, above the instructions made from it */
};

struct annotate_line {
	enum annotate_kind kind;
	uint64_t addr;                /* insn: its address (the ELF address for user code, the
	                               * kernel virtual address for the kernel); source: the
	                               * address of the instruction below it */
	uint32_t size;                /* insn: its bytes */
	const char *text;             /* insn: "mnemonic operands"; source: "file.c:LINE text"
	                               * (just "file.c:LINE" when the file cannot be read) */
	const char *file;             /* source: the file as the debug info names it */
	int lineno;                   /* source: its line number */
	bool jump, call, ret;         /* insn: a jump (conditional or not), call, return */
	uint64_t target_addr;         /* jump or call with a direct target: where to; else 0 */
	ssize_t target;               /* ...the line of that instruction in this function, or -1 */
	const char *target_name;      /* ..."name" or "name+0xOFF", or NULL if unknown */
	struct dso *target_dso;       /* ...outside the function: the function */
	const struct sym *target_sym; /* there, to annotate it (else NULL) */
	double score;                 /* insn: decayed samples, from annotate_update */
	uint64_t samples;             /* insn: score, rounded */
	uint64_t total;               /* insn: samples since the function's first */
	double percent;               /* insn: share of the function's (decayed) samples */
};

struct annotation {
	const char *symbol;   /* the function's full name (demangled; sym->name is raw) */
	const char *dso_name; /* its object: a path, [kernel.kallsyms] or [module] */
	struct dso *dso;      /* the keys of its address histogram */
	const struct sym *sym;
	bool kernel;
	uint64_t start, size;  /* the bytes disassembled (size may be cut) */
	bool truncated;        /* the function is longer than ANNOTATE_MAX_BYTES */
	bool debug;            /* source lines are interleaved */
	char notice[256];      /* why not ("no debug info for libc.so.6:
	                        * disassembly only"), or "" */
	const char *code_from; /* the file the bytes were read from */
	unsigned char *code;   /* the size bytes disassembled (a recording writes them) */
	struct annotate_line *lines;
	size_t nlines;
	size_t ninsns;
	double score;     /* the function's decayed samples placed on lines */
	uint64_t samples; /* score, rounded */
	uint64_t total;   /* samples since the first */
	ssize_t hottest;  /* the hottest instruction's line, or -1 without samples */
	/* whose samples: all of the function's (row_mask 0), or one Top
	 * row's (annotate_set_row); row names them ("command x, pid 12"),
	 * raw: escape it to print */
	unsigned row_mask;
	struct addrhist_who row_who;
	char row[160];
	/* private */
	size_t *insn_line; /* line of each instruction, in address order */
	size_t *hot;       /* instruction lines with samples, hottest first */
	size_t nhot;
	char **strings; /* owned texts */
	size_t nstrings;
};

/* A source line of a function as a recording holds it. */
struct annotate_srcline {
	uint64_t addr;    /* the instruction it stands above */
	const char *file; /* as the debug info names it */
	int lineno;
	const char *text; /* "file.c:LINE text", raw */
};

/* A function's code and source lines as a recording holds them. */
struct annotate_code {
	uint64_t start, size;
	const unsigned char *bytes; /* size of them; NULL: not recorded (why says why) */
	const char *why;
	bool truncated, debug, kernel;
	const char *notice;                   /* the live annotation's, or NULL */
	const char *code_from;                /* the file the live run read */
	const struct annotate_srcline *lines; /* by address */
	size_t nlines;
};

/* Where the code of a replay's stand-in functions comes from (the
 * recording): the recorded code of (dso, sym), or NULL; the recorded
 * function of dso that holds addr (a call's target), or NULL. */
struct annotate_source {
	const struct annotate_code *(*code)(void *arg, const struct dso *dso,
	                                    const struct sym *sym);
	const struct sym *(*find)(void *arg, const struct dso *dso, uint64_t addr);
	void *arg;
};

/* Annotate stand-in DSOs' functions from src from now on (NULL: none;
 * a replay's decoder sets it). */
void annotate_set_source(const struct annotate_source *src);

/* Disassemble sym of dso (a hist entry's dso and sym; kernel for kernel
 * code) with source lines when there is debug info. The samples are kept
 * per real function: an inlined entry's symbol (key.inlined) has none.
 * NULL with err saying why: no symbol, code that is not in a file (JIT,
 * anonymous), unreadable or changed file, no /proc/kcore and no vmlinux
 * for kernel code. No samples yet: call annotate_update. symbol, dso_name
 * and the dso and sym pointers stay valid as long as the DSO cache (the
 * engine's run); everything else belongs to the annotation. A replay's
 * stand-in function is annotated from what the recording holds (see
 * annotate_set_source), no file being read. */
struct annotation *annotate_new(struct dso *dso, const struct sym *sym, bool kernel,
                                struct tt_err *err);

/* Refresh the per-instruction samples, percentages, hottest line and the
 * hot order from the function's address histogram (a frame's copy, see
 * frame_annot; NULL: no samples, all zero). */
void annotate_update(struct annotation *a, const struct addrhist_sym *hs);

/* Say whose samples a shows: the Top row whose key agrees with *who on
 * mask's fields (HIST_GROUP_*; those outside ADDRHIST_WHO_FIELDS are
 * ignored; none: the whole function's). */
void annotate_set_row(struct annotation *a, unsigned mask, const struct addrhist_who *who);

/* The hot instruction after line (dir > 0: the next cooler one; dir < 0:
 * the next hotter one), wrapping around; from a line without samples, the
 * hottest (dir > 0) or the coolest sampled one. -1 without samples. */
ssize_t annotate_next_hot(const struct annotation *a, ssize_t line, int dir);

/* The line of the instruction holding addr, or -1 outside the function. */
ssize_t annotate_line_of(const struct annotation *a, uint64_t addr);

/* The next line after from (dir > 0) or before it (dir < 0), wrapping,
 * whose text contains needle (case-insensitively); -1 when none does. */
ssize_t annotate_search(const struct annotation *a, ssize_t from, const char *needle, int dir);

void annotate_free(struct annotation *a);

#endif
