/* cfi: DWARF call frame information (.eh_frame CIEs and FDEs) for x86-64,
 * interpreted up to one address into the rule row the unwinder applies:
 * where the caller's frame (CFA) is, and where each register was saved.
 * Pure byte parsing, no I/O: the bytes may come from a hostile file. */
#ifndef TRACETOP_CFI_H
#define TRACETOP_CFI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* DWARF register numbers on x86-64: 0..15 the integer registers
 * (rax rdx rcx rbx rsi rdi rbp rsp r8..r15), 16 the return address. */
enum {
	CFI_REG_RBP = 6,
	CFI_REG_RSP = 7,
	CFI_REG_RA = 16,
	CFI_NREGS = 17,
};

enum cfi_rule {
	CFI_SAME,        /* unchanged from the callee (the x86-64 default) */
	CFI_UNDEF,       /* no value: for the return address, the stack's end */
	CFI_OFFSET,      /* saved at CFA + off */
	CFI_VAL_OFFSET,  /* the value is CFA + off */
	CFI_UNSUPPORTED, /* an expression or a register copy: not handled here */
};

/* The unwind rules at one address. */
struct cfi_row {
	uint8_t cfa_reg; /* CFA = value of cfa_reg + cfa_off... */
	bool cfa_expr;   /* ...unless given by an expression (not handled) */
	int32_t cfa_off;
	bool signal_frame; /* a signal trampoline's FDE ('S') */
	uint8_t rule[CFI_NREGS];
	int32_t off[CFI_NREGS];
};

/* A record's bytes and the link-time address of its first byte (for
 * pc-relative pointers). */
struct cfi_bytes {
	const unsigned char *p;
	size_t len;
	uint64_t vaddr;
};

/* Where a record comes from: .eh_frame (CIE id 0, an FDE's CIE pointer
 * relative to itself, pointers as the CIE's augmentation says) or
 * .debug_frame (CIE id 0xffffffff, CIE pointers are section offsets). */
enum cfi_section {
	CFI_EH_FRAME,
	CFI_DEBUG_FRAME,
};

/* The size of the FDE starting at b (length field included) and where
 * its CIE is: a link-time address (.eh_frame) or an offset in the section
 * (.debug_frame). 0 or -1 (a terminator, a CIE, or a truncated header). */
int cfi_fde_header(const struct cfi_bytes *b, enum cfi_section sec, uint64_t *size,
                   uint64_t *cie_at);

/* The rules at address pc from an FDE and its CIE (whole records).
 * 0; 1 when pc is outside the FDE's range; -1 for a malformed or
 * unsupported record. */
int cfi_row_at(const struct cfi_bytes *cie, const struct cfi_bytes *fde, enum cfi_section sec,
               uint64_t pc, struct cfi_row *row);

#endif
