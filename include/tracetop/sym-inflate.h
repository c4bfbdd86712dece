/* sym-inflate: a copy of a debug file with its compressed sections
 * inflated, in an unlinked temporary file, for libdw to map instead of
 * inflating them on the heap (see src/sym-inflate.c). */
#ifndef TRACETOP_SYM_INFLATE_H
#define TRACETOP_SYM_INFLATE_H

struct Elf;

/* The ELF to read inline chains from, for debug file elf (opened
 * copy-on-write through *fd, which symelf_close closes): when the
 * sections the walk reads are compressed, an inflated copy of them in an
 * unlinked temporary file on a disk-backed file system (mapped: only
 * what is read is in memory), elf closed and *fd the copy's; else elf
 * itself. Either way the debug sections the walk never reads (line
 * tables, location lists...) are hidden from libdw, which inflates every
 * compressed one it knows when it opens a file. No copy for a file that
 * does not fit (32-bit, another byte order, GNU .zdebug_*, DWZ) or when
 * no disk-backed temporary directory takes one. */
struct Elf *syminfl_for_inlines(struct Elf *elf, int *fd);

/* Hide from libdw, in elf's headers in memory (a copy-on-write mapping),
 * the debug sections the inline walk never reads. */
void syminfl_hide_unread(struct Elf *elf);

#endif
