/* sym-elf: function symbols and load segments of an ELF file via libelf,
 * preferring a separate debug file found by build-id or .gnu_debuglink.
 * Files may belong to other users: every offset and size is checked.
 * Every call may run on any thread (the worker loads symbol tables while
 * the loop thread annotates): the only shared state is set up once under
 * pthread_once (libelf's version handshake, the CRC-32 table), each call
 * opens Elf handles of its own, and libelf keeps its error per thread. */
#ifndef TRACETOP_SYM_ELF_H
#define TRACETOP_SYM_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/dso.h"
#include "tracetop/symtab.h"
#include "tracetop/util.h"

struct Elf;

/* Open path read-only as ELF (a regular file only: a FIFO planted under its
 * name cannot hang us), libelf initialised; NULL with err. *fd gets the
 * descriptor that symelf_close closes. */
struct Elf *symelf_open(const char *path, int *fd, struct tt_err *err);
/* The same, mapped copy-on-write (its section headers may be changed in
 * memory, never in the file). */
struct Elf *symelf_open_private(const char *path, int *fd, struct tt_err *err);
/* The same for a file already open (it stays the caller's to close). */
struct Elf *symelf_open_fd_private(int fd);
void symelf_close(struct Elf *elf, int fd);

/* Read the NT_GNU_BUILD_ID note; its length (<= 20) or -1. */
int symelf_build_id(const char *path, uint8_t *id, size_t idlen);

/* The separate debug file for path under debug_root (build-id path
 * ROOT/.build-id/xx/yyyy.debug first, then .gnu_debuglink next to the file,
 * in its .debug/ and under ROOT + dirname, then a debuginfod download of
 * its build-id in the client's cache), malloc'd, or NULL. Reads files only
 * (see src/sym-debug.c). */
char *symelf_find_debug(const char *path, const char *debug_root);

/* Load STT_FUNC (and STT_GNU_IFUNC) symbols from .symtab, else from the
 * separate debug file's .symtab, else .dynsym, into st (not finished), and
 * the PT_LOAD segments (always the file's own) into *segs (malloc'd).
 * *debug_used gets the debug file used (malloc'd) or NULL. debug_root NULL
 * means /usr/lib/debug.
 * 0, or -1 with err saying why (unreadable, not ELF, corrupt, no symbols);
 * on "no symbols" *segs is still filled, so offsets can be translated. */
int symelf_load(const char *path, const char *debug_root, struct symtab *st, struct dso_seg **segs,
                size_t *nsegs, char **debug_used, struct tt_err *err);

/* What symelf_load_want says of a file with no .symtab of its own and no
 * separate debug file found: a debug file fetched by its build-id
 * (debuginfod) would name more than .dynsym does. */
struct symelf_want {
	bool debug; /* such a file would help, and the build-id is known: */
	uint8_t build_id[20];
	size_t build_id_len;
};

/* symelf_load, and in *want (zeroed first) whether a debug file from
 * elsewhere would name more. */
int symelf_load_want(const char *path, const char *debug_root, struct symtab *st,
                     struct dso_seg **segs, size_t *nsegs, char **debug_used,
                     struct symelf_want *want, struct tt_err *err);

/* What a symbol found by name is. */
enum symelf_kind {
	SYMELF_CODE, /* a function, or a label in an executable section */
	SYMELF_DATA, /* an object, TLS, or a label elsewhere */
};

struct symelf_hit {
	uint64_t addr, size; /* ELF address and size (0: unknown) */
	enum symelf_kind kind;
};

/* Look a defined symbol of any type up by name in .symtab, else the
 * separate debug file's .symtab (under debug_root, NULL: /usr/lib/debug),
 * else .dynsym; code wins over data of the same name. A name that is no
 * raw symbol name may be a function's demangled one in any form
 * symname_matches takes ("ns::Box<int>::get(int) const", "ns::Box::get").
 * *segs gets the PT_LOAD segments (malloc'd) as symelf_load gives them.
 * 1 when found, 0 when not, -1 with err when the file cannot be read as
 * ELF or the name fits several functions (err lists some). */
int symelf_find(const char *path, const char *debug_root, const char *name, struct symelf_hit *hit,
                struct dso_seg **segs, size_t *nsegs, struct tt_err *err);

/* Our own vDSO image (its headers, loaded bytes and section headers) and
 * its size, or NULL. */
const unsigned char *symelf_vdso(uint64_t *size);

/* The function symbols (.dynsym: "__vdso_clock_gettime", ...) and PT_LOAD
 * segments of the vDSO, which every 64-bit process maps from the same
 * kernel image: read from our own copy. 0, or -1 with err. */
int symelf_load_vdso(struct symtab *st, struct dso_seg **segs, size_t *nsegs, struct tt_err *err);

/* The file offset of ELF address vaddr through the PT_LOAD segments; -1
 * when no segment holds it. */
int symelf_vaddr_to_offset(const struct dso_seg *segs, size_t nsegs, uint64_t vaddr, uint64_t *off);

#endif
