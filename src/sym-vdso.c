/* sym-vdso: our own copy of the kernel's vDSO image, the same in every
 * 64-bit process: for its symbols (sym-elf) and for unwinding through it
 * (elfimage). No libelf here, so the unwinder's fuzz target stays small. */
#include "config.h"

#include <elf.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>

#include "tracetop/sym-elf.h"

/* Our own vDSO image: its ELF header, program and section headers and
 * loaded bytes, and its size; NULL when there is none. */
const unsigned char *
symelf_vdso(uint64_t *size)
{
	const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	const Elf64_Phdr *ph;
	uint64_t end, pages;

	/* The kernel's own image, mapped in every process: trusted. */
	if (base == NULL || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phentsize != sizeof *ph)
		return NULL;
	ph = (const Elf64_Phdr *)(base + eh->e_phoff);
	end = eh->e_phoff + (uint64_t)eh->e_phnum * sizeof *ph;
	for (size_t i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	/* the section headers follow in the same pages (the image is the
	 * whole vdso.so): include them when they end before the last page */
	pages = (end + 4095) & ~(uint64_t)4095;
	if (eh->e_shoff > 0 && eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize <= pages)
		end = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize > end
		          ? eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize
		          : end;
	*size = end;
	return base;
}
