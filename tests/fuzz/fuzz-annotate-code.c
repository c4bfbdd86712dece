/* libFuzzer target for the ELF image headers annotate-code reads from
 * /proc/kcore and vmlinux files (ELF header, program header table, PT_LOAD
 * segments, address to file offset). Each input is tried as it is and laid
 * over a valid x86-64 core header, so random bytes reach the program
 * headers. Build from a configured build directory, e.g.:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     $SRC/tests/fuzz/fuzz-annotate-code.c $SRC/src/annotate-code.c \
 *     $SRC/src/elfimage.c $SRC/src/sym-elf.c $SRC/src/symtab.c \
 *     $SRC/src/sym-kernel.c $SRC/src/sym-jit.c $SRC/src/dso.c $SRC/src/util.c \
 *     -lelf -o fuzz-annotate-code && ./fuzz-annotate-code -max_len=4096
 *
 * where $SRC is the source tree and "." holds config.h. */
#include "config.h"

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/annotate-code.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parse an image head and look up addresses around every segment. */
static void
fuzz_image(const unsigned char *head, size_t len)
{
	struct dso_seg *segs;
	size_t nsegs, need = annotate_code_headers_size(head, len);
	uint64_t off;

	if (need > len)
		return;
	if (annotate_code_segments(head, len, len, &segs, &nsegs) != 0) {
		free(segs);
		return;
	}
	for (size_t i = 0; i < nsegs; i++) {
		uint64_t v = segs[i].vaddr;

		if (annotate_code_offset(segs, nsegs, v, segs[i].filesz, &off) != 0 || off > len ||
		    segs[i].filesz > len - off)
			abort(); /* a whole segment must map inside the file */
		(void)annotate_code_offset(segs, nsegs, v + segs[i].filesz - 1, 2, &off);
		(void)annotate_code_offset(segs, nsegs, v - 1, 1, &off);
		(void)annotate_code_offset(segs, nsegs, v, UINT64_MAX, &off);
	}
	free(segs);
}

/* The input as an image head, then over a valid ELF header. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *buf;
	Elf64_Ehdr eh = {
	    .e_ident = {ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT},
	    .e_type = ET_CORE,
	    .e_machine = EM_X86_64,
	    .e_version = EV_CURRENT,
	    .e_phoff = sizeof(Elf64_Ehdr),
	    .e_ehsize = sizeof(Elf64_Ehdr),
	    .e_phentsize = sizeof(Elf64_Phdr),
	};

	fuzz_image(data, size);
	buf = malloc(sizeof eh + size);
	if (buf == NULL)
		return 0;
	eh.e_phnum = (uint16_t)(size / sizeof(Elf64_Phdr));
	memcpy(buf, &eh, sizeof eh);
	memcpy(buf + sizeof eh, data, size);
	fuzz_image(buf, sizeof eh + size);
	free(buf);
	return 0;
}
