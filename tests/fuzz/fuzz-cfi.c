/* libFuzzer target for cfi_fde_header and cfi_row_at (.eh_frame CIEs and
 * FDEs from untrusted files). Build from a configured build directory:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     $SRC/tests/fuzz/fuzz-cfi.c $SRC/src/cfi.c -o fuzz-cfi && ./fuzz-cfi
 *
 * The first byte picks the shape: odd, raw records (the second byte splits
 * the rest into a CIE and an FDE); even, well-formed headers around fuzzed
 * instruction streams, so the interpreter itself is reached. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tracetop/cfi.h"

#define BASE 0x1000 /* link-time address of the FDE */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Append a little-endian 32-bit value. */
static size_t
put32(unsigned char *p, size_t at, uint32_t v)
{
	memcpy(p + at, &v, 4);
	return at + 4;
}

/* Look up rows at every address of the FDE's range and around it, as
 * .eh_frame and as .debug_frame records. */
static void
rows(const struct cfi_bytes *cie, const struct cfi_bytes *fde)
{
	static const enum cfi_section secs[] = {CFI_EH_FRAME, CFI_DEBUG_FRAME};
	struct cfi_row row;
	uint64_t size, cie_at;

	for (size_t s = 0; s < 2; s++) {
		(void)cfi_fde_header(fde, secs[s], &size, &cie_at);
		for (uint64_t pc = 0; pc < 80; pc++)
			if (cfi_row_at(cie, fde, secs[s], BASE + pc * 3, &row) == 0 &&
			    (row.cfa_reg >= CFI_NREGS || row.rule[CFI_REG_RA] > CFI_UNSUPPORTED))
				__builtin_trap();
	}
}

/* One input: raw records or fuzzed instructions in valid records. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char cie[4096 + 32], fde[4096 + 32];
	struct cfi_bytes c = {cie, 0, BASE + 0x800}, f = {fde, 0, BASE};
	size_t split, n;

	if (size < 2)
		return 0;
	if (data[0] & 1) {
		split = data[1] < size - 2 ? data[1] : size - 2;
		c.p = data + 2;
		c.len = split;
		f.p = data + 2 + split;
		f.len = size - 2 - split;
		rows(&c, &f);
		return 0;
	}
	data += 2;
	size -= 2;
	split = size / 2 > 4000 ? 4000 : size / 2;
	/* CIE: version 1, "zR", code 1, data -8, RA 16, pcrel|sdata4. */
	n = put32(cie, 0, 0);
	n = put32(cie, n, 0);
	memcpy(cie + n, "\x01zR\0\x01\x78\x10\x01\x1b", 9);
	n += 9;
	memcpy(cie + n, data, split);
	n += split;
	put32(cie, 0, (uint32_t)(n - 4));
	c.len = n;
	/* FDE: its CIE 0x800 bytes on, range 240 bytes from BASE. */
	n = put32(fde, 0, 0);
	n = put32(fde, n, (uint32_t)(4 - 0x800));
	n = put32(fde, n, (uint32_t)(BASE - (BASE + n)));
	n = put32(fde, n, 240);
	fde[n++] = 0;
	size -= split;
	if (size > 4000)
		size = 4000;
	memcpy(fde + n, data + split, size);
	n += size;
	put32(fde, 0, (uint32_t)(n - 4));
	f.len = n;
	rows(&c, &f);
	return 0;
}
