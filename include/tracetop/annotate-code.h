/* annotate-code: where the bytes of a function to disassemble come from.
 * User code: the mapped ELF file itself, through its PT_LOAD segments
 * (link-time addresses to file offsets, so PIE executables and shared
 * libraries map correctly). Kernel code: /proc/kcore (an ELF core whose
 * PT_LOADs map kernel virtual addresses; root only), else a vmlinux found in
 * the usual places whose build-id matches the running kernel (its link-time
 * addresses shifted by KASLR). Every header, offset and size read from a
 * file is checked: the files may belong to anyone. */
#ifndef TRACETOP_ANNOTATE_CODE_H
#define TRACETOP_ANNOTATE_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "tracetop/dso.h"
#include "tracetop/symtab.h"
#include "tracetop/util.h"

/* Longest function disassembled; longer ones are cut there. */
#define ANNOTATE_MAX_BYTES (256u * 1024)
/* Program headers read from an ELF image, at most. */
#define ANNOTATE_MAX_PHDRS 4096

/* Bytes of an ELF file's start that hold its ELF header and program
 * headers (head: the first len bytes, len >= 64 for a whole ELF header):
 * 0 when the header is not a little-endian 64-bit ELF one or its program
 * header table is absurd. */
size_t annotate_code_headers_size(const unsigned char *head, size_t len);

/* The PT_LOAD segments with file bytes from an ELF image's headers (head:
 * its first len bytes, which must cover what annotate_code_headers_size
 * says), into *segs (malloc'd, *nsegs of them; segments reaching past
 * file_size are left out). 0, or -1 for a malformed image. */
int annotate_code_segments(const unsigned char *head, size_t len, uint64_t file_size,
                           struct dso_seg **segs, size_t *nsegs);

/* The file offset of [vaddr, vaddr + len) when one segment holds it all. 0
 * or -1. */
int annotate_code_offset(const struct dso_seg *segs, size_t nsegs, uint64_t vaddr, uint64_t len,
                         uint64_t *off);

/* Read the len bytes at link-time address addr of an ELF DSO from its file
 * into buf. 0, or -1 with err. */
int annotate_code_user(struct dso *d, uint64_t addr, size_t len, unsigned char *buf,
                       struct tt_err *err);

/* Read the len bytes of kernel function sym (at kernel virtual address
 * sym->start) into buf: from /proc/kcore, else from a vmlinux. *len may
 * shrink to the vmlinux's size of the function. *from gets the file used
 * (static storage). 0, or -1 with err naming what is missing. */
int annotate_code_kernel(const struct sym *sym, unsigned char *buf, size_t *len, const char **from,
                         struct tt_err *err);

/* Test hooks: the kcore file, one vmlinux to try instead of the usual
 * places, and the kernel's notes file for the build-id check (NULL for
 * each: /proc/kcore, the usual places, /sys/kernel/notes; an empty notes
 * path skips the check). */
void annotate_code_set_paths(const char *kcore, const char *vmlinux, const char *notes);

#endif
