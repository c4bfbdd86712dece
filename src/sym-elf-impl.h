/* sym-elf-impl: what sym-elf.c (symbols, segments) and sym-debug.c
 * (build-ids, separate debug files) share. Nothing else includes it. */
#ifndef TRACETOP_SYM_ELF_IMPL_H
#define TRACETOP_SYM_ELF_IMPL_H

#include <gelf.h>
#include <stdint.h>

#define SYMELF_DEFAULT_DEBUG_ROOT "/usr/lib/debug"
#define SYMELF_BUILD_ID_MAX 20

/* The first section called name, or NULL (sym-elf.c). */
Elf_Scn *symelf_section_named(Elf *elf, const char *name, GElf_Shdr *sh);

/* The build-id from SHT_NOTE sections, else PT_NOTE segments: its length
 * (<= idlen), or -1 (sym-debug.c). */
int symelf_elf_build_id(Elf *elf, uint8_t *id, size_t idlen);

/* The separate debug file of an open ELF (path is where it was opened):
 * ROOT/.build-id/xx/yyyy.debug, then .gnu_debuglink's targets, then a
 * past debuginfod download of its build-id; malloc'd, or NULL. root NULL
 * means SYMELF_DEFAULT_DEBUG_ROOT (sym-debug.c). */
char *symelf_debug_path(Elf *elf, const char *path, const char *root);

#endif
