/* unwind: DWARF unwinding of copied user stacks with libunwind's remote
 * unwinder. Registers come from PERF_SAMPLE_REGS_USER, stack words from
 * PERF_SAMPLE_STACK_USER, and everything else (the .eh_frame_hdr search
 * table, FDEs and CIEs, code) from the ELF files the task maps, read in
 * 4 KiB chunks cached per DSO. The [vdso] is read from our own copy (the
 * kernel maps the same image into every process).
 *
 * libunwind's global cache keeps register rules by instruction address
 * only, for every process unwound in our one address space. So we remember
 * which mapping each cached range came from ("claims") and flush the cache
 * before a step whose address now belongs to another object: exec, dlclose
 * and two non-PIE programs at the same address stay correct. */
#include "config.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libunwind.h>

#include "tracetop/unwind.h"

/* Exported by libunwind but declared in no public header (perf does the same). */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip,
                                              unw_dyn_info_t *di, unw_proc_info_t *pi,
                                              int need_unwind_info, void *arg);
#define dwarf_search_unwind_table UNW_OBJ(dwarf_search_unwind_table)

#define CHUNK_SHIFT 12 /* file bytes are cached 4 KiB at a time */
#define CHUNK_SIZE (1U << CHUNK_SHIFT)
#define RS_CACHE_SIZE 1024 /* libunwind's per-address rule cache */
#define MAX_PHDRS 128      /* more program headers: not a file we unwind */

/* .eh_frame_hdr pointer encodings (DW_EH_PE_*). */
#define EH_PE_OMIT 0xff
#define EH_PE_APPL 0x70
#define EH_PE_TABLE 0x3b /* datarel | sdata4: the only table libunwind searches */

/* One search-table entry: two 32-bit offsets. */
#define EH_TABLE_ENTRY 8

/* Bytes of a file (or of the in-memory vDSO) cached by chunk index. */
struct chunk {
	uint64_t idx;
	unsigned char *data; /* NULL: empty slot */
	size_t len;          /* short only at the end of the file */
};

/* An ELF object's unwinding view, one per DSO. */
struct image {
	struct dso *dso;      /* the key */
	bool ok;              /* headers parsed; false: no unwinding through it */
	bool stale;           /* the file changed since it was first read */
	struct dso_seg *segs; /* PT_LOAD */
	size_t nsegs;
	bool has_table; /* a usable .eh_frame_hdr search table */
	uint64_t hdr_vaddr, table_vaddr, fde_count;
	const unsigned char *mem; /* in-memory image (the vDSO), or NULL: the file */
	uint64_t size;            /* bytes of the file or image */
	struct timespec mtime;
	struct chunk *chunks; /* open addressing by idx */
	size_t nchunks, chunk_cap;
};

/* What the global cache may hold for [start, end): rules of dso loaded at base. */
struct claim {
	uint64_t start, end, base;
	const struct dso *dso;
};

struct unwind {
	unw_addr_space_t as;
	struct image **images; /* open addressing by DSO pointer */
	size_t nimages, image_cap;
	struct claim *claims; /* sorted by start, non-overlapping */
	size_t nclaims, claim_cap;
};

/* One unwinding call: the argument libunwind hands to every accessor. */
struct uw_call {
	struct unwind *u;
	struct task *task;
	const struct unwind_sample *s;
	uint64_t sp; /* where the stack copy starts */
	uint64_t stack_size;
	struct image *img; /* object of the last find_proc_info... */
	uint64_t bias;     /* ...and its load bias */
	uint64_t fast_lo;  /* run-time range served by the last chunk read... */
	uint64_t fast_len;
	const unsigned char *fast; /* ...and its bytes */
};

/* Free an image and its cached bytes. */
static void
image_free(struct image *img)
{
	for (size_t i = 0; i < img->chunk_cap; i++)
		free(img->chunks[i].data);
	free(img->chunks);
	free(img->segs);
	free(img);
}

/* Spread a key's bits over a table index. */
static size_t
hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (size_t)v;
}

/* Double a chunk table and re-insert its chunks. */
static void
chunks_grow(struct image *img)
{
	size_t cap = img->chunk_cap ? img->chunk_cap * 2 : 16, i, j;
	struct chunk *nc = xcalloc(cap, sizeof *nc);

	for (i = 0; i < img->chunk_cap; i++) {
		if (img->chunks[i].data == NULL)
			continue;
		for (j = hash64(img->chunks[i].idx) & (cap - 1); nc[j].data != NULL;
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
image_open(struct image *img)
{
	struct stat st;
	int fd = open(img->dso->name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

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
static const struct chunk *
chunk_load(struct image *img, uint64_t idx, size_t slot)
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
static const struct chunk *
chunk_get(struct image *img, uint64_t idx)
{
	size_t i;

	if (img->stale)
		return NULL;
	if (img->nchunks * 2 >= img->chunk_cap)
		chunks_grow(img);
	for (i = hash64(idx) & (img->chunk_cap - 1); img->chunks[i].data != NULL;
	     i = (i + 1) & (img->chunk_cap - 1))
		if (img->chunks[i].idx == idx)
			return &img->chunks[i];
	return chunk_load(img, idx, i);
}

/* Bytes at file offset off of the image: a pointer, how many follow
 * contiguously (*avail, to the end of its chunk) and how many precede it
 * (*before, from the chunk's start); NULL past the end. */
static const unsigned char *
image_bytes(struct image *img, uint64_t off, uint64_t *avail, uint64_t *before)
{
	const struct chunk *c;
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
static int
image_copy(struct image *img, uint64_t off, void *buf, size_t len)
{
	unsigned char *out = buf;
	const unsigned char *p;
	uint64_t avail, before;

	if (off > img->size || len > img->size - off)
		return -1;
	while (len > 0) {
		p = image_bytes(img, off, &avail, &before);
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
static const struct dso_seg *
seg_of_vaddr(const struct image *img, uint64_t vaddr)
{
	for (size_t i = 0; i < img->nsegs; i++)
		if (vaddr - img->segs[i].vaddr < img->segs[i].filesz)
			return &img->segs[i];
	return NULL;
}

/* The PT_LOAD segment holding file offset off, or NULL. */
static const struct dso_seg *
seg_of_offset(const struct image *img, uint64_t off)
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
eh_hdr_parse(struct image *img, const Elf64_Phdr *ph)
{
	unsigned char b[4 + 8 + 8];
	size_t len = ph->p_filesz < sizeof b ? (size_t)ph->p_filesz : sizeof b, pos = 4;
	uint64_t skip, count;

	if (len < 4 || image_copy(img, ph->p_offset, b, len) != 0 || b[0] != 1 ||
	    b[3] != EH_PE_TABLE || (b[2] & EH_PE_APPL) != 0 || (b[2] & 0x08) != 0 ||
	    eh_read(b, len, &pos, b[1], &skip) != 0 || eh_read(b, len, &pos, b[2], &count) != 0)
		return;
	if (count == 0 || count > (ph->p_filesz - pos) / EH_TABLE_ENTRY)
		return;
	/* Served through a PT_LOAD segment, as in the process. */
	if (seg_of_vaddr(img, ph->p_vaddr) == NULL ||
	    seg_of_vaddr(img, ph->p_vaddr + ph->p_filesz - 1) != seg_of_vaddr(img, ph->p_vaddr))
		return;
	img->hdr_vaddr = ph->p_vaddr;
	img->table_vaddr = ph->p_vaddr + pos;
	img->fde_count = count;
	img->has_table = true;
}

/* Read an x86-64 ELF's program headers: PT_LOAD segments, .eh_frame_hdr. */
static int
image_parse(struct image *img)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph, hdr = {.p_type = PT_NULL};

	if (image_copy(img, 0, &eh, sizeof eh) != 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_machine != EM_X86_64 || eh.e_phentsize != sizeof ph || eh.e_phnum == 0 ||
	    eh.e_phnum > MAX_PHDRS || eh.e_phoff > img->size)
		return -1;
	img->segs = xcalloc(eh.e_phnum, sizeof *img->segs);
	for (size_t i = 0; i < eh.e_phnum; i++) {
		if (image_copy(img, eh.e_phoff + i * sizeof ph, &ph, sizeof ph) != 0)
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
	if (hdr.p_type == PT_GNU_EH_FRAME && hdr.p_offset <= img->size &&
	    hdr.p_filesz <= img->size - hdr.p_offset)
		eh_hdr_parse(img, &hdr);
	return 0;
}

/* Our own vDSO and its size (end of its headers and loaded bytes), or NULL. */
static const unsigned char *
vdso_self(uint64_t *size)
{
	const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	const Elf64_Phdr *ph;
	uint64_t end;

	/* The kernel's own image, mapped in every process: trusted. */
	if (base == NULL || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phentsize != sizeof *ph)
		return NULL;
	ph = (const Elf64_Phdr *)(base + eh->e_phoff);
	end = eh->e_phoff + (uint64_t)eh->e_phnum * sizeof *ph;
	for (size_t i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	*size = end;
	return base;
}

/* A new image for a DSO: its file, or our vDSO; ok stays false if neither
 * can be read as an x86-64 ELF. */
static struct image *
image_new(struct dso *d)
{
	struct image *img = xcalloc(1, sizeof *img);
	struct stat st;
	int fd;

	img->dso = d;
	if (d->kind == DSO_ELF) {
		fd = open(d->name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
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
		img->mem = vdso_self(&img->size);
	}
	if (img->size != 0)
		img->ok = image_parse(img) == 0;
	return img;
}

/* Double the image table and re-insert its images. */
static void
images_grow(struct unwind *u)
{
	size_t cap = u->image_cap ? u->image_cap * 2 : 64, i, j;
	struct image **ni = xcalloc(cap, sizeof *ni);

	for (i = 0; i < u->image_cap; i++) {
		if (u->images[i] == NULL)
			continue;
		for (j = hash64((uintptr_t)u->images[i]->dso) & (cap - 1); ni[j] != NULL;
		     j = (j + 1) & (cap - 1))
			;
		ni[j] = u->images[i];
	}
	free(u->images);
	u->images = ni;
	u->image_cap = cap;
}

/* The usable image of a DSO (read on first use), or NULL. */
static struct image *
image_get(struct unwind *u, struct dso *d)
{
	size_t i;

	if (u->nimages * 2 >= u->image_cap)
		images_grow(u);
	for (i = hash64((uintptr_t)d) & (u->image_cap - 1); u->images[i] != NULL;
	     i = (i + 1) & (u->image_cap - 1))
		if (u->images[i]->dso == d)
			break;
	if (u->images[i] == NULL) {
		u->images[i] = image_new(d);
		u->nimages++;
	}
	return u->images[i]->ok && !u->images[i]->stale ? u->images[i] : NULL;
}

/* Forget every claim, and the cached rules they stood for. */
static void
claims_reset(struct unwind *u)
{
	unw_flush_cache(u->as, 0, 0);
	u->nclaims = 0;
}

/* Index of the first claim ending after addr. */
static size_t
claim_search(const struct unwind *u, uint64_t addr)
{
	size_t lo = 0, hi = u->nclaims, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (u->claims[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether a claim stands for mapping m's object at m's place. */
static bool
claim_matches(const struct claim *c, const struct map *m)
{
	return m != NULL && c->dso == m->dso && c->base == m->start - m->pgoff;
}

/* Note that the cache may now hold rules for mapping m; a different claim
 * overlapping it has stale rules there, so flush. */
static void
claim_note(struct unwind *u, const struct map *m)
{
	size_t i = claim_search(u, m->start);

	if (i < u->nclaims && u->claims[i].start < m->end) {
		if (u->claims[i].start == m->start && u->claims[i].end == m->end &&
		    claim_matches(&u->claims[i], m))
			return;
		claims_reset(u);
		i = 0;
	}
	if (u->nclaims == u->claim_cap) {
		u->claim_cap = u->claim_cap ? u->claim_cap * 2 : 32;
		u->claims = xrealloc(u->claims, u->claim_cap * sizeof *u->claims);
	}
	memmove(&u->claims[i + 1], &u->claims[i], (u->nclaims - i) * sizeof *u->claims);
	u->claims[i] = (struct claim){m->start, m->end, m->start - m->pgoff, m->dso};
	u->nclaims++;
}

/* Before stepping from ip in task t: flush cached rules that another
 * mapping left at ip. */
static void
claim_check(struct unwind *u, const struct task *t, uint64_t ip)
{
	size_t i = claim_search(u, ip);

	if (i < u->nclaims && u->claims[i].start <= ip &&
	    !claim_matches(&u->claims[i], task_find_map(t, ip)))
		claims_reset(u);
}

/* Load bias of the object mapped by m at ip (runtime = vaddr + bias). */
static int
image_bias(const struct image *img, const struct map *m, uint64_t ip, uint64_t *bias)
{
	const struct dso_seg *seg = seg_of_offset(img, ip - m->start + m->pgoff);

	if (seg == NULL)
		return -1;
	*bias = m->start - m->pgoff + seg->off - seg->vaddr;
	return 0;
}

/* libunwind: the unwind info for ip, from its object's .eh_frame_hdr. */
static int
find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi, int need_unwind_info,
               void *arg)
{
	struct uw_call *c = arg;
	const struct map *m = task_find_map(c->task, ip);
	struct image *img = m != NULL ? image_get(c->u, m->dso) : NULL;
	unw_dyn_info_t di;
	uint64_t bias;

	if (img == NULL || !img->has_table || image_bias(img, m, ip, &bias) != 0)
		return -UNW_ENOINFO;
	c->img = img;
	c->bias = bias;
	claim_note(c->u, m);
	memset(&di, 0, sizeof di);
	di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di.start_ip = m->start;
	di.end_ip = m->end;
	di.u.rti.segbase = img->hdr_vaddr + bias;
	di.u.rti.table_data = img->table_vaddr + bias;
	di.u.rti.table_len = img->fde_count * EH_TABLE_ENTRY / sizeof(unw_word_t);
	return dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
}

/* libunwind: nothing to release (the info lives in our caches). */
static void
put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
}

/* libunwind: no dynamically registered unwind info in a remote process. */
static int
get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *dilap, void *arg)
{
	return -UNW_ENOINFO;
}

/* Where run-time address addr is in a file: its image, file offset, and
 * the file range [*lo, *hi) mapped contiguously around it. 0 or -1. */
static int
addr_locate(struct uw_call *c, uint64_t addr, struct image **img, uint64_t *off, uint64_t *lo,
            uint64_t *hi)
{
	const struct dso_seg *seg;
	const struct map *m;

	/* Tables and FDEs of the object being looked up, in any of its segments. */
	if (c->img != NULL && (seg = seg_of_vaddr(c->img, addr - c->bias)) != NULL) {
		*img = c->img;
		*off = addr - c->bias - seg->vaddr + seg->off;
		*lo = seg->off;
		*hi = seg->off + seg->filesz;
		return 0;
	}
	/* Code of any mapped object. */
	m = task_find_map(c->task, addr);
	if (m == NULL || (*img = image_get(c->u, m->dso)) == NULL)
		return -1;
	*off = addr - m->start + m->pgoff;
	*lo = m->pgoff;
	*hi = m->pgoff + (m->end - m->start);
	return 0;
}

/* Read the word at addr from the files the task maps, and keep the
 * contiguous bytes around it for the next reads. */
static int
mem_from_file(struct uw_call *c, uint64_t addr, unw_word_t *valp)
{
	struct image *img;
	uint64_t off, lo, hi, avail, before;
	const unsigned char *p;
	size_t len;

	if (addr_locate(c, addr, &img, &off, &lo, &hi) != 0 ||
	    (p = image_bytes(img, off, &avail, &before)) == NULL)
		return -UNW_EINVAL;
	/* An aligned word at a segment's end may run on into the file's next
	 * bytes (zeros past its end). */
	len = img->size - off < sizeof *valp ? (size_t)(img->size - off) : sizeof *valp;
	if (image_copy(img, off, valp, len) != 0)
		return -UNW_EINVAL;
	if (before > off - lo)
		before = off - lo;
	if (avail > hi - off)
		avail = hi - off;
	c->fast = p - before;
	c->fast_lo = addr - before;
	c->fast_len = before + avail;
	return 0;
}

/* libunwind: read a word from the stack copy or the mapped files; no writes. */
static int
access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *valp, int write, void *arg)
{
	struct uw_call *c = arg;

	if (write)
		return -UNW_EINVAL;
	*valp = 0;
	if (c->stack_size >= sizeof *valp && addr - c->sp <= c->stack_size - sizeof *valp) {
		memcpy(valp, (const unsigned char *)c->s->stack + (addr - c->sp), sizeof *valp);
		return 0;
	}
	if (c->fast_len >= sizeof *valp && addr - c->fast_lo <= c->fast_len - sizeof *valp) {
		memcpy(valp, c->fast + (addr - c->fast_lo), sizeof *valp);
		return 0;
	}
	return mem_from_file(c, addr, valp);
}

/* Position in the sample's regs of perf register r (UNWIND_REGS_MASK order). */
static size_t
regs_index(unsigned r)
{
	return (size_t)__builtin_popcountll(UNWIND_REGS_MASK & ((1ULL << r) - 1));
}

/* libunwind's x86-64 register numbers to perf's. */
static const unsigned char perf_reg_of[] = {
    [UNW_X86_64_RAX] = 0,  [UNW_X86_64_RDX] = 3,  [UNW_X86_64_RCX] = 2,  [UNW_X86_64_RBX] = 1,
    [UNW_X86_64_RSI] = 4,  [UNW_X86_64_RDI] = 5,  [UNW_X86_64_RBP] = 6,  [UNW_X86_64_RSP] = 7,
    [UNW_X86_64_R8] = 16,  [UNW_X86_64_R9] = 17,  [UNW_X86_64_R10] = 18, [UNW_X86_64_R11] = 19,
    [UNW_X86_64_R12] = 20, [UNW_X86_64_R13] = 21, [UNW_X86_64_R14] = 22, [UNW_X86_64_R15] = 23,
    [UNW_X86_64_RIP] = 8,
};

/* libunwind: a register from the sample; read-only. */
static int
access_reg(unw_addr_space_t as, unw_regnum_t regnum, unw_word_t *valp, int write, void *arg)
{
	struct uw_call *c = arg;
	size_t i;

	if (write)
		return -UNW_EREADONLYREG;
	if (regnum < 0 || (size_t)regnum >= ARRAY_SIZE(perf_reg_of))
		return -UNW_EBADREG;
	i = regs_index(perf_reg_of[regnum]);
	if (i >= c->s->nregs)
		return -UNW_EBADREG;
	*valp = c->s->regs[i];
	return 0;
}

/* libunwind: no floating-point registers in a sample. */
static int
access_fpreg(unw_addr_space_t as, unw_regnum_t regnum, unw_fpreg_t *val, int write, void *arg)
{
	return -UNW_EINVAL;
}

/* libunwind: a copied stack cannot be resumed. */
static int
resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	return -UNW_EINVAL;
}

/* libunwind: names come from our own symbol tables. */
static int
get_proc_name(unw_addr_space_t as, unw_word_t addr, char *bufp, size_t buf_len, unw_word_t *offp,
              void *arg)
{
	return -UNW_EINVAL;
}

static unw_accessors_t accessors = {
    .find_proc_info = find_proc_info,
    .put_unwind_info = put_unwind_info,
    .get_dyn_info_list_addr = get_dyn_info_list_addr,
    .access_mem = access_mem,
    .access_reg = access_reg,
    .access_fpreg = access_fpreg,
    .resume = resume,
    .get_proc_name = get_proc_name,
};

/* A new unwinder: one libunwind address space with a global cache. */
struct unwind *
unwind_new(void)
{
	struct unwind *u = xcalloc(1, sizeof *u);

	u->as = unw_create_addr_space(&accessors, 0);
	if (u->as == NULL)
		fatal("libunwind: cannot create an address space");
	unw_set_caching_policy(u->as, UNW_CACHE_GLOBAL);
	unw_set_cache_size(u->as, RS_CACHE_SIZE, 0);
	return u;
}

/* Drop every cached image (their files are read again on next use). */
static void
images_clear(struct unwind *u)
{
	for (size_t i = 0; i < u->image_cap; i++)
		if (u->images[i] != NULL)
			image_free(u->images[i]);
	free(u->images);
	u->images = NULL;
	u->nimages = u->image_cap = 0;
}

/* Free an unwinder and its caches. */
void
unwind_free(struct unwind *u)
{
	if (u == NULL)
		return;
	images_clear(u);
	free(u->claims);
	unw_destroy_addr_space(u->as);
	free(u);
}

/* Forget every cached table, rule and file byte. */
void
unwind_flush(struct unwind *u)
{
	claims_reset(u);
	images_clear(u);
}

/* Set up a call and a cursor at the sample's registers; false if the
 * sample lacks the registers an unwind needs. */
static bool
call_init(struct uw_call *c, unw_cursor_t *cur, struct unwind *u, struct task *t,
          const struct unwind_sample *s)
{
	memset(c, 0, sizeof *c);
	if (t == NULL || s->regs == NULL || s->nregs <= regs_index(UNWIND_PERF_REG_IP) ||
	    s->nregs <= regs_index(UNWIND_PERF_REG_SP))
		return false;
	c->u = u;
	c->task = t;
	c->s = s;
	c->sp = s->regs[regs_index(UNWIND_PERF_REG_SP)];
	c->stack_size = s->stack != NULL ? s->stack_size : 0;
	return unw_init_remote(cur, u->as, c) >= 0;
}

/* Unwind a sample's user stack: return addresses, leaf first. */
size_t
unwind_user(struct unwind *u, struct task *t, const struct unwind_sample *s, uint64_t *ips,
            size_t max)
{
	struct uw_call c;
	unw_cursor_t cur;
	unw_word_t ip, sp, last_sp = 0;
	size_t n = 0;

	if (max == 0 || !call_init(&c, &cur, u, t, s))
		return 0;
	while (n < max) {
		if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 || ip == 0 ||
		    unw_get_reg(&cur, UNW_REG_SP, &sp) < 0)
			break;
		/* A step that moved nothing would repeat forever. */
		if (n > 0 && ip == ips[n - 1] && sp == last_sp)
			break;
		ips[n++] = ip;
		last_sp = sp;
		if (n == max)
			break;
		claim_check(u, t, ip);
		if (unw_step(&cur) <= 0)
			break;
	}
	return n;
}

/* The leaf's return address from one unwind step, or 0. */
uint64_t
unwind_leaf_return(struct unwind *u, struct task *t, const struct unwind_sample *s)
{
	struct uw_call c;
	unw_cursor_t cur;
	unw_word_t ip;

	if (!call_init(&c, &cur, u, t, s) || unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 || ip == 0)
		return 0;
	claim_check(u, t, ip);
	if (unw_step(&cur) <= 0 || unw_get_reg(&cur, UNW_REG_IP, &ip) < 0)
		return 0;
	return ip;
}
