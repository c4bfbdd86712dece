/* sym-elf: function symbols and load segments of an ELF file via libelf,
 * preferring a separate debug file found by build-id or .gnu_debuglink.
 * Files may belong to other users: every offset and size is checked. */
#ifndef TRACETOP_SYM_ELF_H
#define TRACETOP_SYM_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "tracetop/dso.h"
#include "tracetop/symtab.h"
#include "tracetop/util.h"

/* Read the NT_GNU_BUILD_ID note; its length (<= 20) or -1. */
int symelf_build_id(const char *path, uint8_t *id, size_t idlen);

/* The separate debug file for path under debug_root (build-id path
 * ROOT/.build-id/xx/yyyy.debug first, then .gnu_debuglink next to the file,
 * in its .debug/ and under ROOT + dirname), malloc'd, or NULL. */
char *symelf_find_debug(const char *path, const char *debug_root);

/* Load STT_FUNC (and STT_GNU_IFUNC) symbols from .symtab, else from the
 * separate debug file's .symtab, else .dynsym, into st (not finished), and
 * the PT_LOAD segments (always the file's own) into *segs (malloc'd).
 * *debug_used gets the debug file used (malloc'd) or NULL. debug_root NULL
 * means /usr/lib/debug.
 * 0, or -1 with err saying why (unreadable, not ELF, corrupt, no symbols);
 * on "no symbols" *segs is still filled, so offsets can be translated. */
int symelf_load(const char *path, const char *debug_root, struct symtab *st,
		struct dso_seg **segs, size_t *nsegs, char **debug_used, struct tt_err *err);

#endif
