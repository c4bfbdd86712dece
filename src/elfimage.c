/* elfimage: an ELF object's bytes as the unwinder reads them: the file
 * (or our own copy of the vDSO) in 4 KiB chunks cached on first read, its
 * PT_LOAD segments and its .eh_frame_hdr search table. A file that changes
 * under us (size or mtime) is never read again. */
#include "config.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/elfimage.h"
#include "tracetop/sym-elf.h"
#include "tracetop/util.h"

#define CHUNK_SHIFT 12 /* file bytes are cached 4 KiB at a time */
#define CHUNK_SIZE (1U << CHUNK_SHIFT)
#define MAX_PHDRS 128 /* more program headers: not a file we unwind */
#define MAX_SHDRS 65535
#define DEBUG_FRAME_MAX (64ULL << 20) /* a bigger .debug_frame is not indexed */
#define FDE_STRIDE 64                 /* search table entries per index entry */

/* .eh_frame_hdr pointer encodings (DW_EH_PE_*). */
#define EH_PE_OMIT 0xff
#define EH_PE_APPL 0x70
#define EH_PE_TABLE 0x3b /* datarel | sdata4: the only table we search */

/* Bytes of a file (or of the in-memory vDSO) cached by chunk index. */
struct elfimage_chunk {
	uint64_t idx;
	unsigned char *data; /* NULL: empty slot */
	size_t len;          /* short only at the end of the file */
};

/* Free an image and its cached bytes. */
static void
image_free(struct elfimage *img)
{
	for (size_t i = 0; i < img->chunk_cap; i++)
		free(img->chunks[i].data);
	free(img->chunks);
	free(img->segs);
	free(img->dbg_fdes);
	free(img->fde_index);
	free(img);
}

/* Double a chunk table and re-insert its chunks. */
static void
chunks_grow(struct elfimage *img)
{
	size_t cap = img->chunk_cap ? img->chunk_cap * 2 : 16, i, j;
	struct elfimage_chunk *nc = xcalloc(cap, sizeof *nc);

	for (i = 0; i < img->chunk_cap; i++) {
		if (img->chunks[i].data == NULL)
			continue;
		for (j = hash_u64(img->chunks[i].idx) & (cap - 1); nc[j].data != NULL;
		     j = (j + 1) & (cap - 1))
			;
		nc[j] = img->chunks[i];
	}
	free(img->chunks);
	img->chunks = nc;
	img->chunk_cap = cap;
}

/* Open the image's file if it is still the one first read (-1 otherwise;
 * a different size or mtime marks the image stale for good). */
static int
image_open(struct elfimage *img)
{
	struct stat st;
	int fd = open(dso_path(img->dso), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size != img->size ||
	    st.st_mtim.tv_sec != img->mtime.tv_sec || st.st_mtim.tv_nsec != img->mtime.tv_nsec) {
		img->stale = true;
		close(fd);
		return -1;
	}
	return fd;
}

/* Read chunk idx of the image's file into the cache; NULL on failure. */
static const struct elfimage_chunk *
chunk_load(struct elfimage *img, uint64_t idx, size_t slot)
{
	unsigned char *buf;
	ssize_t n;
	int fd = image_open(img);

	if (fd < 0)
		return NULL;
	buf = xmalloc(CHUNK_SIZE);
	n = pread(fd, buf, CHUNK_SIZE, (off_t)(idx << CHUNK_SHIFT));
	close(fd);
	if (n <= 0) {
		free(buf);
		return NULL;
	}
	img->chunks[slot].idx = idx;
	img->chunks[slot].data = buf;
	img->chunks[slot].len = (size_t)n;
	img->nchunks++;
	return &img->chunks[slot];
}

/* The cached bytes of file chunk idx, reading them on first use. */
static const struct elfimage_chunk *
chunk_get(struct elfimage *img, uint64_t idx)
{
	size_t i;

	if (img->stale)
		return NULL;
	if (img->nchunks * 2 >= img->chunk_cap)
		chunks_grow(img);
	for (i = hash_u64(idx) & (img->chunk_cap - 1); img->chunks[i].data != NULL;
	     i = (i + 1) & (img->chunk_cap - 1))
		if (img->chunks[i].idx == idx)
			return &img->chunks[i];
	return chunk_load(img, idx, i);
}

/* Bytes at file offset off of the image: a pointer, how many follow
 * contiguously (*avail, to the end of its chunk) and how many precede it
 * (*before, from the chunk's start); NULL past the end. */
const unsigned char *
elfimage_bytes(struct elfimage *img, uint64_t off, uint64_t *avail, uint64_t *before)
{
	const struct elfimage_chunk *c;
	uint64_t in;

	if (off >= img->size)
		return NULL;
	if (img->mem != NULL) {
		*avail = img->size - off;
		*before = off;
		return img->mem + off;
	}
	c = chunk_get(img, off >> CHUNK_SHIFT);
	in = off & (CHUNK_SIZE - 1);
	if (c == NULL || in >= c->len)
		return NULL;
	*avail = c->len - in;
	*before = in;
	return c->data + in;
}

/* Copy len bytes at file offset off into buf, across chunks. 0 or -1. */
int
elfimage_copy(struct elfimage *img, uint64_t off, void *buf, size_t len)
{
	unsigned char *out = buf;
	const unsigned char *p;
	uint64_t avail, before;

	if (off > img->size || len > img->size - off)
		return -1;
	while (len > 0) {
		p = elfimage_bytes(img, off, &avail, &before);
		if (p == NULL)
			return -1;
		if (avail > len)
			avail = len;
		memcpy(out, p, avail);
		out += avail;
		off += avail;
		len -= avail;
	}
	return 0;
}

/* The PT_LOAD segment holding vaddr, or NULL. */
const struct dso_seg *
elfimage_seg_of_vaddr(const struct elfimage *img, uint64_t vaddr)
{
	for (size_t i = 0; i < img->nsegs; i++)
		if (vaddr - img->segs[i].vaddr < img->segs[i].filesz)
			return &img->segs[i];
	return NULL;
}

/* The PT_LOAD segment holding file offset off, or NULL. */
const struct dso_seg *
elfimage_seg_of_offset(const struct elfimage *img, uint64_t off)
{
	for (size_t i = 0; i < img->nsegs; i++)
		if (off - img->segs[i].off < img->segs[i].filesz)
			return &img->segs[i];
	return NULL;
}

/* Read one DW_EH_PE-encoded absolute value at b[*pos] (enc's format only:
 * 2, 4 or 8 bytes); 0 or -1 for an unsupported or truncated encoding. */
static int
eh_read(const unsigned char *b, size_t len, size_t *pos, unsigned enc, uint64_t *val)
{
	size_t size;
	uint64_t v = 0;
	bool sign = enc & 0x08;

	if (enc == EH_PE_OMIT) {
		*val = 0;
		return 0;
	}
	switch (enc & 0x07) {
	case 0x00: /* absptr, udata8, sdata8 */
	case 0x04:
		size = 8;
		break;
	case 0x02:
		size = 2;
		break;
	case 0x03:
		size = 4;
		break;
	default:
		return -1;
	}
	if (len - *pos < size)
		return -1;
	for (size_t i = 0; i < size; i++)
		v |= (uint64_t)b[*pos + i] << (8 * i);
	if (sign && size < 8 && (v >> (8 * size - 1)) != 0)
		v |= ~(uint64_t)0 << (8 * size);
	*pos += size;
	*val = v;
	return 0;
}

/* Check the .eh_frame_hdr described by ph and note where its search table is. */
static void
eh_hdr_parse(struct elfimage *img, const Elf64_Phdr *ph)
{
	unsigned char b[4 + 8 + 8];
	size_t len = ph->p_filesz < sizeof b ? (size_t)ph->p_filesz : sizeof b, pos = 4;
	uint64_t skip, count;

	if (len < 4 || elfimage_copy(img, ph->p_offset, b, len) != 0 || b[0] != 1 ||
	    b[3] != EH_PE_TABLE || (b[2] & EH_PE_APPL) != 0 || (b[2] & 0x08) != 0 ||
	    eh_read(b, len, &pos, b[1], &skip) != 0 || eh_read(b, len, &pos, b[2], &count) != 0)
		return;
	if (count == 0 || count > (ph->p_filesz - pos) / ELFIMAGE_TABLE_ENTRY)
		return;
	/* Served through a PT_LOAD segment, as in the process. */
	if (elfimage_seg_of_vaddr(img, ph->p_vaddr) == NULL ||
	    elfimage_seg_of_vaddr(img, ph->p_vaddr + ph->p_filesz - 1) !=
	        elfimage_seg_of_vaddr(img, ph->p_vaddr))
		return;
	img->hdr_vaddr = ph->p_vaddr;
	img->table_vaddr = ph->p_vaddr + pos;
	img->fde_count = count;
	img->has_table = true;
}

/* Read an x86-64 ELF's program headers: PT_LOAD segments, .eh_frame_hdr. */
static int
image_parse(struct elfimage *img)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph, hdr = {.p_type = PT_NULL};

	if (elfimage_copy(img, 0, &eh, sizeof eh) != 0 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_X86_64 ||
	    eh.e_phentsize != sizeof ph || eh.e_phnum == 0 || eh.e_phnum > MAX_PHDRS ||
	    eh.e_phoff > img->size)
		return -1;
	img->segs = xcalloc(eh.e_phnum, sizeof *img->segs);
	for (size_t i = 0; i < eh.e_phnum; i++) {
		if (elfimage_copy(img, eh.e_phoff + i * sizeof ph, &ph, sizeof ph) != 0)
			return -1;
		if (ph.p_type == PT_GNU_EH_FRAME)
			hdr = ph;
		if (ph.p_type != PT_LOAD || ph.p_filesz == 0 || ph.p_offset > img->size ||
		    ph.p_filesz > img->size - ph.p_offset)
			continue;
		img->segs[img->nsegs].off = ph.p_offset;
		img->segs[img->nsegs].vaddr = ph.p_vaddr;
		img->segs[img->nsegs].filesz = ph.p_filesz;
		img->nsegs++;
	}
	if (img->nsegs == 0)
		return -1;
	if (eh.e_shentsize == sizeof(Elf64_Shdr)) {
		img->shoff = eh.e_shoff;
		img->shnum = eh.e_shnum;
		img->shstrndx = eh.e_shstrndx;
	}
	if (hdr.p_type == PT_GNU_EH_FRAME && hdr.p_offset <= img->size &&
	    hdr.p_filesz <= img->size - hdr.p_offset)
		eh_hdr_parse(img, &hdr);
	return 0;
}

/* A new image for a DSO: its file, or our vDSO; ok stays false if neither
 * can be read as an x86-64 ELF. */
static struct elfimage *
image_new(struct dso *d)
{
	struct elfimage *img = xcalloc(1, sizeof *img);
	struct stat st;
	int fd;

	img->dso = d;
	if (d->kind == DSO_ELF) {
		fd = open(dso_path(d), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0)
			return img;
		/* The path names the mapped file only if the inode agrees (not,
		 * e.g., for a path inside another mount namespace). */
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    (d->ino == 0 || st.st_ino == d->ino)) {
			img->size = (uint64_t)st.st_size;
			img->mtime = st.st_mtim;
		}
		close(fd);
	} else if (strcmp(d->name, "[vdso]") == 0) {
		img->mem = symelf_vdso(&img->size);
	}
	if (img->size != 0)
		img->ok = image_parse(img) == 0;
	return img;
}

/* Double the image table and re-insert its images. */
static void
images_grow(struct elfimages *u)
{
	size_t cap = u->cap ? u->cap * 2 : 64, i, j;
	struct elfimage **ni = xcalloc(cap, sizeof *ni);

	for (i = 0; i < u->cap; i++) {
		if (u->v[i] == NULL)
			continue;
		for (j = hash_u64((uintptr_t)u->v[i]->dso) & (cap - 1); ni[j] != NULL;
		     j = (j + 1) & (cap - 1))
			;
		ni[j] = u->v[i];
	}
	free(u->v);
	u->v = ni;
	u->cap = cap;
}

/* The usable image of a DSO (read on first use), or NULL. */
struct elfimage *
elfimages_get(struct elfimages *u, struct dso *d)
{
	size_t i;

	if (u->n * 2 >= u->cap)
		images_grow(u);
	for (i = hash_u64((uintptr_t)d) & (u->cap - 1); u->v[i] != NULL; i = (i + 1) & (u->cap - 1))
		if (u->v[i]->dso == d)
			break;
	if (u->v[i] == NULL) {
		u->v[i] = image_new(d);
		u->n++;
	}
	return u->v[i]->ok && !u->v[i]->stale ? u->v[i] : NULL;
}

/* Load bias of the object mapped by m at ip (runtime = vaddr + bias). */
int
elfimage_bias(const struct elfimage *img, const struct map *m, uint64_t ip, uint64_t *bias)
{
	const struct dso_seg *seg = elfimage_seg_of_offset(img, ip - m->start + m->pgoff);

	if (seg == NULL)
		return -1;
	*bias = m->start - m->pgoff + seg->off - seg->vaddr;
	return 0;
}

/* Drop every cached image (their files are read again on next use). */
void
elfimages_clear(struct elfimages *u)
{
	for (size_t i = 0; i < u->cap; i++)
		if (u->v[i] != NULL)
			image_free(u->v[i]);
	free(u->v);
	u->v = NULL;
	u->n = u->cap = 0;
}

/* Copy len bytes at link-time address vaddr, inside one PT_LOAD segment. */
int
elfimage_read(struct elfimage *img, uint64_t vaddr, void *buf, size_t len)
{
	const struct dso_seg *seg = elfimage_seg_of_vaddr(img, vaddr);

	if (seg == NULL || len > seg->filesz - (vaddr - seg->vaddr))
		return -1;
	return elfimage_copy(img, seg->off + (vaddr - seg->vaddr), buf, len);
}

/* Entry i of the search table: start address and FDE address, link-time. */
static int
table_entry(struct elfimage *img, uint64_t i, uint64_t *start, uint64_t *fde)
{
	int32_t e[2];

	if (elfimage_read(img, img->table_vaddr + i * ELFIMAGE_TABLE_ENTRY, e, sizeof e) != 0)
		return -1;
	*start = img->hdr_vaddr + (uint64_t)(int64_t)e[0];
	*fde = img->hdr_vaddr + (uint64_t)(int64_t)e[1];
	return 0;
}

/* The start of every FDE_STRIDE-th entry of the search table, read once:
 * a search then reads one block of the table, not a word of each of its
 * steps (a table of 200,000 FDEs took 18 reads through the chunk cache
 * a search, most of the leaf judgments of such a program). */
static void
table_index(struct elfimage *img)
{
	uint64_t n = (img->fde_count + FDE_STRIDE - 1) / FDE_STRIDE, fde;

	img->fde_index = xmalloc(n * sizeof *img->fde_index);
	for (uint64_t i = 0; i < n; i++)
		if (table_entry(img, i * FDE_STRIDE, &img->fde_index[i], &fde) != 0) {
			free(img->fde_index);
			img->fde_index = NULL;
			img->has_table = false;
			return;
		}
	img->nfde_index = n;
}

/* Binary search of .eh_frame_hdr for the FDE that may cover vaddr: in the
 * index, then in its block of the table. */
int
elfimage_fde_find(struct elfimage *img, uint64_t vaddr, uint64_t *fde_vaddr)
{
	int32_t block[2 * FDE_STRIDE];
	uint64_t lo = 0, hi, mid, base, len;

	if (img->has_table && img->fde_index == NULL)
		table_index(img);
	if (!img->has_table || img->nfde_index == 0 || img->fde_index[0] > vaddr)
		return -1;
	/* The table is sorted by start; find the last start <= vaddr. */
	for (hi = img->nfde_index; hi - lo > 1;) {
		mid = lo + (hi - lo) / 2;
		if (img->fde_index[mid] <= vaddr)
			lo = mid;
		else
			hi = mid;
	}
	base = lo * FDE_STRIDE;
	len = img->fde_count - base < FDE_STRIDE ? img->fde_count - base : FDE_STRIDE;
	if (elfimage_read(img, img->table_vaddr + base * ELFIMAGE_TABLE_ENTRY, block,
	                  (size_t)len * ELFIMAGE_TABLE_ENTRY) != 0)
		return -1;
	for (lo = 0, hi = len; hi - lo > 1;) {
		mid = lo + (hi - lo) / 2;
		if (img->hdr_vaddr + (uint64_t)(int64_t)block[2 * mid] <= vaddr)
			lo = mid;
		else
			hi = mid;
	}
	if (img->hdr_vaddr + (uint64_t)(int64_t)block[2 * lo] > vaddr)
		return -1;
	*fde_vaddr = img->hdr_vaddr + (uint64_t)(int64_t)block[2 * lo + 1];
	return 0;
}

/* The file range of the .debug_frame section, from the section headers. */
static int
debug_frame_section(struct elfimage *img, uint64_t *off, uint64_t *size)
{
	static const char want[] = ".debug_frame";
	char name[sizeof want];
	Elf64_Shdr sh, strs;

	if (img->shnum == 0 || img->shstrndx >= img->shnum || img->shoff > img->size ||
	    elfimage_copy(img, img->shoff + img->shstrndx * sizeof sh, &strs, sizeof strs) != 0)
		return -1;
	for (size_t i = 1; i < img->shnum && i < MAX_SHDRS; i++) {
		if (elfimage_copy(img, img->shoff + i * sizeof sh, &sh, sizeof sh) != 0)
			return -1;
		if (sh.sh_type != SHT_PROGBITS || sh.sh_name >= strs.sh_size ||
		    strs.sh_offset > img->size - sizeof name ||
		    elfimage_copy(img, strs.sh_offset + sh.sh_name, name, sizeof name) != 0 ||
		    memcmp(name, want, sizeof want) != 0)
			continue;
		if (sh.sh_offset > img->size || sh.sh_size > img->size - sh.sh_offset ||
		    sh.sh_size > DEBUG_FRAME_MAX)
			return -1;
		*off = sh.sh_offset;
		*size = sh.sh_size;
		return 0;
	}
	return -1;
}

/* Order .debug_frame FDEs by start address. */
static int
fde_cmp(const void *a, const void *b)
{
	const struct elfimage_fde *x = a, *y = b;

	return CMP3(x->start, y->start);
}

/* Index the FDEs of .debug_frame: 32-bit DWARF records whose CIEs use
 * 8-byte absolute addresses (what compilers emit for x86-64). */
static void
debug_frame_index(struct elfimage *img)
{
	uint64_t off, size, pos = 0, cap = 0;
	uint32_t hdr[2];
	uint64_t range[2];

	img->dbg_state = -1;
	if (debug_frame_section(img, &off, &size) != 0)
		return;
	while (size - pos >= sizeof hdr && elfimage_copy(img, off + pos, hdr, sizeof hdr) == 0) {
		if (hdr[0] == 0xffffffff || hdr[0] > size - pos - 4)
			break;
		if (hdr[0] >= sizeof hdr[1] + sizeof range && hdr[1] != 0xffffffff &&
		    elfimage_copy(img, off + pos + sizeof hdr, range, sizeof range) == 0 &&
		    range[1] != 0 && range[0] + range[1] > range[0]) {
			if (img->ndbg_fdes == cap) {
				cap = cap ? cap * 2 : 64;
				img->dbg_fdes =
				    xrealloc(img->dbg_fdes, cap * sizeof *img->dbg_fdes);
			}
			img->dbg_fdes[img->ndbg_fdes++] =
			    (struct elfimage_fde){range[0], range[0] + range[1], off + pos};
		}
		pos += 4 + (uint64_t)hdr[0];
	}
	if (img->ndbg_fdes == 0)
		return;
	qsort(img->dbg_fdes, img->ndbg_fdes, sizeof *img->dbg_fdes, fde_cmp);
	img->dbg_off = off;
	img->dbg_state = 1;
}

/* Binary search of the .debug_frame index. */
int
elfimage_debug_fde_find(struct elfimage *img, uint64_t vaddr, uint64_t *fde_off,
                        uint64_t *section_off)
{
	size_t lo = 0, hi, mid;

	if (img->dbg_state == 0)
		debug_frame_index(img);
	if (img->dbg_state != 1)
		return -1;
	hi = img->ndbg_fdes;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (img->dbg_fdes[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || vaddr >= img->dbg_fdes[lo - 1].end)
		return -1;
	*fde_off = img->dbg_fdes[lo - 1].off;
	*section_off = img->dbg_off;
	return 0;
}
