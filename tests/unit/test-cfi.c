/* Unit tests for src/cfi.c: CIEs and FDEs built byte by byte, interpreted
 * at chosen addresses, and cut short at every length. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tracetop/cfi.h"

#define FDE_AT 0x2000  /* link-time address of every FDE here */
#define CIE_AT 0x1000  /* ...and of its CIE */
#define FUNC_AT 0x4000 /* the function the FDE covers */
#define FUNC_LEN 0x100

/* A record being built. */
struct rec {
	unsigned char b[512];
	size_t n;
};

/* Append bytes to a record. */
static void
put(struct rec *r, const void *p, size_t n)
{
	memcpy(r->b + r->n, p, n);
	r->n += n;
}

/* Append a little-endian 32-bit value. */
static void
put32(struct rec *r, uint32_t v)
{
	put(r, &v, 4);
}

/* Patch the length field once the record is complete. */
static void
finish(struct rec *r)
{
	uint32_t len = (uint32_t)(r->n - 4);

	memcpy(r->b, &len, 4);
}

/* A GCC-style CIE: version 1, "zR" or aug, code 1, data -8, RA 16,
 * pcrel|sdata4 FDE pointers; CFA = rsp + 8, RA at CFA - 8. */
static struct cfi_bytes
make_cie(struct rec *r, const char *aug)
{
	r->n = 0;
	put32(r, 0);
	put32(r, 0);
	put(r, "\x01", 1);
	put(r, aug, strlen(aug) + 1);
	put(r, "\x01\x78\x10", 3);
	if (strcmp(aug, "zR") == 0)
		put(r, "\x01\x1b", 2);
	else if (strcmp(aug, "zRS") == 0)
		put(r, "\x01\x1b", 2);
	else if (strcmp(aug, "zPLR") == 0)
		put(r, "\x0b\x00\x11\x22\x33\x44\x55\x66\x77\x88\x00\x1b", 12); /* absptr P */
	put(r, "\x0c\x07\x08\x90\x01", 5);
	finish(r);
	return (struct cfi_bytes){r->b, r->n, CIE_AT};
}

/* An FDE for [FUNC_AT, FUNC_AT + FUNC_LEN) with instructions insns. */
static struct cfi_bytes
make_fde(struct rec *r, const void *insns, size_t len)
{
	r->n = 0;
	put32(r, 0);
	put32(r, (uint32_t)(FDE_AT + 4 - CIE_AT));
	put32(r, (uint32_t)(FUNC_AT - (FDE_AT + 8)));
	put32(r, FUNC_LEN);
	put(r, "\x00", 1);
	put(r, insns, len);
	finish(r);
	return (struct cfi_bytes){r->b, r->n, FDE_AT};
}

/* The usual prologue: push rbp; mov rsp,rbp; ...; pop rbp (remembered). */
static const unsigned char prologue[] = {
    0x41,             /* advance 1: after push %rbp */
    0x0e, 0x10,       /* def_cfa_offset 16 */
    0x86, 0x02,       /* rbp at cfa-16 */
    0x43,             /* advance 3: after mov %rsp,%rbp */
    0x0d, 0x06,       /* def_cfa_register rbp */
    0x02, 0x40,       /* advance_loc1 0x40 */
    0x0a,             /* remember_state */
    0x0c, 0x07, 0x08, /* def_cfa rsp+8 */
    0xc6,             /* restore rbp */
    0x41,             /* advance 1 */
    0x0b,             /* restore_state */
};

/* Rows before, inside and after a frame-pointer prologue. */
static void
test_prologue(void **state)
{
	struct rec cr, fr;
	struct cfi_bytes cie = make_cie(&cr, "zR"), fde = make_fde(&fr, prologue, sizeof prologue);
	struct cfi_row row;
	uint64_t size, cie_vaddr;

	assert_int_equal(cfi_fde_header(&fde, CFI_EH_FRAME, &size, &cie_vaddr), 0);
	assert_int_equal(size, fde.len);
	assert_int_equal(cie_vaddr, CIE_AT);
	assert_int_equal(cfi_fde_header(&cie, CFI_EH_FRAME, &size, &cie_vaddr),
	                 -1); /* a CIE, not an FDE */

	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT, &row), 0);
	assert_int_equal(row.cfa_reg, CFI_REG_RSP);
	assert_int_equal(row.cfa_off, 8);
	assert_int_equal(row.rule[CFI_REG_RA], CFI_OFFSET);
	assert_int_equal(row.off[CFI_REG_RA], -8);
	assert_int_equal(row.rule[CFI_REG_RBP], CFI_SAME);
	assert_false(row.cfa_expr);
	assert_false(row.signal_frame);

	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 1, &row), 0);
	assert_int_equal(row.cfa_off, 16);
	assert_int_equal(row.rule[CFI_REG_RBP], CFI_OFFSET);
	assert_int_equal(row.off[CFI_REG_RBP], -16);

	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 4, &row), 0);
	assert_int_equal(row.cfa_reg, CFI_REG_RBP);
	assert_int_equal(row.cfa_off, 16);

	/* In the epilogue: rsp + 8 again, rbp restored to the CIE's rule. */
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 0x44, &row), 0);
	assert_int_equal(row.cfa_reg, CFI_REG_RSP);
	assert_int_equal(row.cfa_off, 8);
	assert_int_equal(row.rule[CFI_REG_RBP], CFI_SAME);

	/* After restore_state: the body's rules once more. */
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 0x45, &row), 0);
	assert_int_equal(row.cfa_reg, CFI_REG_RBP);
	assert_int_equal(row.rule[CFI_REG_RBP], CFI_OFFSET);

	/* Outside the FDE's range. */
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT - 1, &row), 1);
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + FUNC_LEN, &row), 1);
}

/* Expressions and register copies are reported, not guessed. */
static void
test_unsupported_rules(void **state)
{
	static const unsigned char expr[] = {
	    0x0f, 0x03, 0x77, 0x08, 0x06, /* def_cfa_expression (3 bytes) */
	    0x41, 0x0e, 0x20,             /* def_cfa_offset: no effect on an expression */
	    0x41, 0x0c, 0x07, 0x10,       /* def_cfa rsp+16: a rule again */
	    0x10, 0x03, 0x02, 0x77, 0x00, /* expression for rbx */
	    0x09, 0x06, 0x03,             /* rbp in rbx */
	    0x41, 0x07, 0x10,             /* RA undefined */
	};
	struct rec cr, fr;
	struct cfi_bytes cie = make_cie(&cr, "zR"), fde = make_fde(&fr, expr, sizeof expr);
	struct cfi_row row;

	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT, &row), 0);
	assert_true(row.cfa_expr);
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 1, &row), 0);
	assert_true(row.cfa_expr);
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 2, &row), 0);
	assert_false(row.cfa_expr);
	assert_int_equal(row.cfa_off, 16);
	assert_int_equal(row.rule[3], CFI_UNSUPPORTED);
	assert_int_equal(row.rule[CFI_REG_RBP], CFI_UNSUPPORTED);
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 3, &row), 0);
	assert_int_equal(row.rule[CFI_REG_RA], CFI_UNDEF);
}

/* Signed, extended and value forms, and vector registers ignored. */
static void
test_other_forms(void **state)
{
	static const unsigned char forms[] = {
	    0x12, 0x07, 0x7e,       /* def_cfa_sf rsp, -2 * -8 = 16 */
	    0x11, 0x03, 0x03,       /* offset_extended_sf rbx, 3 * -8 = -24 */
	    0x14, 0x0c, 0x01,       /* val_offset r12 = cfa - 8 */
	    0x05, 0x11, 0x05,       /* offset_extended xmm0: ignored */
	    0x2e, 0x10,             /* GNU_args_size */
	    0x03, 0x10, 0x00,       /* advance_loc2 16 */
	    0x13, 0x7c,             /* def_cfa_offset_sf 4 * -8... = 32 */
	    0x08, 0x03,             /* rbx same value */
	    0x04, 0x10, 0,    0, 0, /* advance_loc4 16 */
	    0x2f, 0x0d, 0x02,       /* GNU_negative_offset_extended r13: +16 */
	};
	struct rec cr, fr;
	struct cfi_bytes cie = make_cie(&cr, "zR"), fde = make_fde(&fr, forms, sizeof forms);
	struct cfi_row row;

	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 15, &row), 0);
	assert_int_equal(row.cfa_off, 16);
	assert_int_equal(row.rule[3], CFI_OFFSET);
	assert_int_equal(row.off[3], -24);
	assert_int_equal(row.rule[12], CFI_VAL_OFFSET);
	assert_int_equal(row.off[12], -8);
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 16, &row), 0);
	assert_int_equal(row.cfa_off, 32);
	assert_int_equal(row.rule[3], CFI_SAME);
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 40, &row), 0);
	assert_int_equal(row.rule[13], CFI_OFFSET);
	assert_int_equal(row.off[13], 16);
}

/* Augmentations: 'S' marks a signal frame, 'P' and 'L' are skipped. */
static void
test_augmentations(void **state)
{
	struct rec cr, fr;
	struct cfi_bytes cie, fde = make_fde(&fr, prologue, sizeof prologue);
	struct cfi_row row;

	cie = make_cie(&cr, "zRS");
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT, &row), 0);
	assert_true(row.signal_frame);
	cie = make_cie(&cr, "zPLR");
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 1, &row), 0);
	assert_int_equal(row.cfa_off, 16);
	cie = make_cie(&cr, "eh");
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT, &row), -1);
}

/* Every truncation of either record fails cleanly (or, cut inside the
 * instructions, still gives a row); bad opcodes and state underflow fail. */
static void
test_malformed(void **state)
{
	static const unsigned char bad_op[] = {0x41, 0x3f};
	static const unsigned char underflow[] = {0x41, 0x0b};
	static const unsigned char overflow[] = {0x0a, 0x0a, 0x0a, 0x0a, 0x0a,
	                                         0x0a, 0x0a, 0x0a, 0x0a, 0x41};
	struct rec cr, fr;
	struct cfi_bytes cie = make_cie(&cr, "zR"), fde = make_fde(&fr, prologue, sizeof prologue);
	struct cfi_bytes cut;
	struct cfi_row row;
	uint64_t size, cv;

	for (size_t len = 0; len < fde.len; len++) {
		cut = (struct cfi_bytes){fde.p, len, fde.vaddr};
		assert_int_equal(cfi_row_at(&cie, &cut, CFI_EH_FRAME, FUNC_AT + 0x45, &row), -1);
		if (len < 8)
			assert_int_equal(cfi_fde_header(&cut, CFI_EH_FRAME, &size, &cv), -1);
	}
	for (size_t len = 0; len < cie.len; len++) {
		cut = (struct cfi_bytes){cie.p, len, cie.vaddr};
		assert_int_equal(cfi_row_at(&cut, &fde, CFI_EH_FRAME, FUNC_AT + 1, &row), -1);
	}
	fde = make_fde(&fr, bad_op, sizeof bad_op);
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 2, &row), -1);
	fde = make_fde(&fr, underflow, sizeof underflow);
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 2, &row), -1);
	fde = make_fde(&fr, overflow, sizeof overflow);
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 2, &row), -1);
}

/* .debug_frame records: CIE id 0xffffffff (version 4, no augmentation),
 * an FDE whose CIE pointer is a section offset (here 0, which in
 * .eh_frame would mark a CIE) and absolute 8-byte addresses. */
static void
test_debug_frame(void **state)
{
	struct rec cr = {.n = 0}, fr = {.n = 0};
	struct cfi_bytes cie, fde;
	struct cfi_row row;
	uint64_t size, cie_at, a = FUNC_AT, len = FUNC_LEN;

	put32(&cr, 0);
	put32(&cr, 0xffffffff);
	put(&cr, "\x04\0\x08\x00\x01\x78\x10", 7);
	put(&cr, "\x0c\x07\x08\x90\x01", 5);
	finish(&cr);
	cie = (struct cfi_bytes){cr.b, cr.n, 0};
	put32(&fr, 0);
	put32(&fr, 0); /* the CIE at the section's start */
	put(&fr, &a, 8);
	put(&fr, &len, 8);
	put(&fr, prologue, sizeof prologue);
	finish(&fr);
	fde = (struct cfi_bytes){fr.b, fr.n, 0};

	assert_int_equal(cfi_fde_header(&fde, CFI_DEBUG_FRAME, &size, &cie_at), 0);
	assert_int_equal(size, fde.len);
	assert_int_equal(cie_at, 0);
	assert_int_equal(cfi_fde_header(&fde, CFI_EH_FRAME, &size, &cie_at), -1);
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_DEBUG_FRAME, FUNC_AT + 4, &row), 0);
	assert_int_equal(row.cfa_reg, CFI_REG_RBP);
	assert_int_equal(row.cfa_off, 16);
	assert_int_equal(row.rule[CFI_REG_RA], CFI_OFFSET);
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_DEBUG_FRAME, FUNC_AT + FUNC_LEN, &row), 1);
	/* The same bytes read as .eh_frame are not a CIE and an FDE. */
	assert_int_equal(cfi_row_at(&cie, &fde, CFI_EH_FRAME, FUNC_AT + 4, &row), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_prologue),    cmocka_unit_test(test_unsupported_rules),
	    cmocka_unit_test(test_other_forms), cmocka_unit_test(test_augmentations),
	    cmocka_unit_test(test_malformed),   cmocka_unit_test(test_debug_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
