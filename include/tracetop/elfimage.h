/* elfimage: an ELF object's bytes as the unwinder reads them — the file (or
 * our own copy of the vDSO) in chunks cached on first read, its PT_LOAD
 * segments and its .eh_frame_hdr search table — and a set of them keyed by
 * DSO. Files are read defensively: they may belong to other users. */
#ifndef TRACETOP_ELFIMAGE_H
#define TRACETOP_ELFIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "tracetop/dso.h"
#include "tracetop/tasks.h"

/* One .eh_frame_hdr search-table entry: two 32-bit offsets. */
#define ELFIMAGE_TABLE_ENTRY 8

struct elfimage_chunk;

/* An ELF object's unwinding view, one per DSO. */
struct elfimage {
	struct dso *dso;      /* the key */
	bool ok;              /* headers parsed; false: no unwinding through it */
	bool stale;           /* the file changed since it was first read */
	struct dso_seg *segs; /* PT_LOAD */
	size_t nsegs;
	bool has_table; /* a usable .eh_frame_hdr search table */
	uint64_t hdr_vaddr, table_vaddr, fde_count;
	uint64_t *fde_index; /* the start of every 64th entry, read on first search */
	size_t nfde_index;
	const unsigned char *mem; /* in-memory image (the vDSO), or NULL: the file */
	uint64_t size;            /* bytes of the file or image */
	struct timespec mtime;
	struct elfimage_chunk *chunks; /* open addressing by idx */
	size_t nchunks, chunk_cap;
	uint64_t shoff; /* section headers, for .debug_frame */
	uint16_t shnum, shstrndx;
	int dbg_state;                 /* .debug_frame: 0 not looked for, 1 indexed, -1 none */
	uint64_t dbg_off;              /* its file offset */
	struct elfimage_fde *dbg_fdes; /* its FDEs by start address */
	size_t ndbg_fdes;
};

/* One .debug_frame FDE: the code it covers and its file offset. */
struct elfimage_fde {
	uint64_t start, end, off;
};

/* The images read so far, by DSO pointer. */
struct elfimages {
	struct elfimage **v;
	size_t n, cap;
};

/* The usable image of a DSO (read on first use), or NULL. */
struct elfimage *elfimages_get(struct elfimages *set, struct dso *d);
/* Drop every image (their files are read again on next use). */
void elfimages_clear(struct elfimages *set);

/* Bytes at file offset off: a pointer, how many follow contiguously
 * (*avail) and how many precede it in the same cached block (*before);
 * NULL past the end or on a read error. */
const unsigned char *elfimage_bytes(struct elfimage *img, uint64_t off, uint64_t *avail,
                                    uint64_t *before);
/* Copy len bytes at file offset off into buf. 0 or -1. */
int elfimage_copy(struct elfimage *img, uint64_t off, void *buf, size_t len);
/* Copy len bytes at link-time address vaddr (inside one PT_LOAD). 0 or -1. */
int elfimage_read(struct elfimage *img, uint64_t vaddr, void *buf, size_t len);

/* The PT_LOAD segment holding a link-time address / a file offset, or NULL. */
const struct dso_seg *elfimage_seg_of_vaddr(const struct elfimage *img, uint64_t vaddr);
const struct dso_seg *elfimage_seg_of_offset(const struct elfimage *img, uint64_t off);

/* Load bias of the object mapped by m at run-time address ip
 * (run-time = link-time + bias). 0 or -1. */
int elfimage_bias(const struct elfimage *img, const struct map *m, uint64_t ip, uint64_t *bias);

/* The link-time address of the FDE covering link-time address vaddr, from
 * the .eh_frame_hdr table (the last entry starting at or below vaddr;
 * the FDE's own range is checked by its parser). 0 or -1. */
int elfimage_fde_find(struct elfimage *img, uint64_t vaddr, uint64_t *fde_vaddr);

/* The file offset of the .debug_frame FDE covering link-time address
 * vaddr (for objects built without .eh_frame for it), and the file offset
 * of the section, which its CIE pointers are relative to. The section is
 * found and indexed on first use. 0 or -1. */
int elfimage_debug_fde_find(struct elfimage *img, uint64_t vaddr, uint64_t *fde_off,
                            uint64_t *section_off);

#endif
