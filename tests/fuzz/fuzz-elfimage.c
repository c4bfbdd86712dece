/* libFuzzer target for elfimage (the ELF bytes the unwinder reads from
 * files that may belong to other users: program headers, the chunk cache,
 * the .eh_frame_hdr search table, the .debug_frame index). elfimage reads
 * files by path, so each input is written to a memfd and opened through
 * /proc/self/fd. Build from a configured build directory:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     $SRC/tests/fuzz/fuzz-elfimage.c $SRC/src/elfimage.c $SRC/src/util.c \
 *     -o fuzz-elfimage && ./fuzz-elfimage -max_len=65536 $SRC/tests/fuzz/corpus/elfimage
 *
 * The input is the file as it is, so real ELF objects are seeds; besides
 * not crashing, every byte elfimage hands out must be the file's. The
 * seeds in tests/fuzz/corpus/elfimage are small objects built with
 * gcc -O1 -nostdlib (-static or -shared) -Wl,-z,noseparate-code
 * -Wl,--build-id=none: one function chain with -Wl,--eh-frame-hdr or with
 * -g -fno-asynchronous-unwind-tables (.debug_frame, other debug sections
 * removed with objcopy), 300 functions so the search table and
 * .debug_frame cross a 4 KiB chunk, and the first 8 KiB of libc.so.6. */
#include "config.h"

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracetop/elfimage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t *fz_data; /* the input, to check elfimage's bytes against */
static size_t fz_size;

/* Abort unless elfimage's bytes at file offset off match the input's. */
static void
check_bytes(struct elfimage *img, uint64_t off)
{
	uint64_t avail, before;
	const unsigned char *p = elfimage_bytes(img, off, &avail, &before);

	if (p == NULL)
		return;
	if (off >= fz_size || avail == 0 || avail > fz_size - off || before > off ||
	    memcmp(p, fz_data + off, avail) != 0 ||
	    memcmp(p - before, fz_data + off - before, before) != 0)
		abort();
}

/* Copy a few ranges and read a few link-time addresses; check the bytes. */
static void
check_copies(struct elfimage *img)
{
	static unsigned char buf[3 * 4096];
	static const uint64_t lens[] = {1, 8, 4095, 4096, 4097, sizeof buf};

	for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		uint64_t offs[] = {0, 4095, 4096 - lens[i] / 2, fz_size - lens[i], fz_size};

		for (size_t j = 0; j < sizeof offs / sizeof offs[0]; j++)
			if (elfimage_copy(img, offs[j], buf, lens[i]) == 0 &&
			    (offs[j] > fz_size || lens[i] > fz_size - offs[j] ||
			     memcmp(buf, fz_data + offs[j], lens[i]) != 0))
				abort();
	}
	for (size_t i = 0; i < img->nsegs; i++) {
		const struct dso_seg *s = &img->segs[i];
		uint64_t va[] = {s->vaddr, s->vaddr + s->filesz - 1, s->vaddr + s->filesz / 2};

		if (s->off > fz_size || s->filesz > fz_size - s->off)
			abort(); /* a segment must lie inside the file */
		for (size_t j = 0; j < 3; j++) {
			const struct dso_seg *at = elfimage_seg_of_vaddr(img, va[j]);

			if (at == NULL)
				abort();
			if (elfimage_read(img, va[j], buf, 8) == 0 &&
			    memcmp(buf, fz_data + at->off + (va[j] - at->vaddr), 8) != 0)
				abort();
		}
		check_bytes(img, s->off);
		check_bytes(img, s->off + s->filesz - 1);
		(void)elfimage_seg_of_offset(img, s->off + s->filesz / 2);
	}
}

/* Look up the FDEs of addresses the image itself names: segment bounds,
 * search-table entries, and a spread of addresses between them. */
static void
check_lookups(struct elfimage *img)
{
	uint64_t fde, fde_off, sec_off, bias;
	struct map m = {.start = 0x7f0000000000, .end = 0x7f0000100000, .pgoff = 0};

	for (size_t i = 0; i < img->nsegs; i++) {
		const struct dso_seg *s = &img->segs[i];

		for (uint64_t k = 0; k <= 16; k++) {
			uint64_t va = s->vaddr + s->filesz / 16 * k;

			(void)elfimage_fde_find(img, va, &fde);
			(void)elfimage_fde_find(img, va - 1, &fde);
			if (elfimage_debug_fde_find(img, va, &fde_off, &sec_off) == 0 &&
			    (sec_off > fde_off || fde_off >= fz_size))
				abort(); /* an FDE found must lie in its section */
		}
		m.pgoff = s->off & ~(uint64_t)4095;
		if (elfimage_bias(img, &m, m.start + (s->off - m.pgoff), &bias) == 0 &&
		    elfimage_seg_of_offset(img, s->off) == NULL)
			abort();
	}
	for (uint64_t i = 0; img->has_table && i < img->fde_count && i < 64; i++) {
		int32_t e[2];

		if (elfimage_read(img, img->table_vaddr + i * ELFIMAGE_TABLE_ENTRY, e, sizeof e) !=
		    0)
			break;
		(void)elfimage_fde_find(img, img->hdr_vaddr + (uint64_t)(int64_t)e[0], &fde);
		(void)elfimage_debug_fde_find(img, img->hdr_vaddr + (uint64_t)(int64_t)e[0],
		                              &fde_off, &sec_off);
	}
	m.pgoff = 0;
	if (elfimage_bias(img, &m, m.start + fz_size, &bias) == 0)
		abort(); /* past the end of the file: in no segment */
	(void)elfimage_fde_find(img, 0, &fde);
	(void)elfimage_fde_find(img, UINT64_MAX, &fde);
	(void)elfimage_debug_fde_find(img, UINT64_MAX, &fde_off, &sec_off);
}

/* Once: our own vDSO (an image in memory, not a file), and a set of more
 * images than its first table holds. */
static void
check_once(void)
{
	static struct dso vdso = {.name = "[vdso]", .short_name = "[vdso]", .kind = DSO_ANON};
	static struct dso many[80];
	struct elfimages set = {0};
	struct elfimage *img = elfimages_get(&set, &vdso);

	if (img != NULL) {
		fz_data = img->mem;
		fz_size = img->size;
		check_copies(img);
		check_lookups(img);
	}
	for (size_t i = 0; i < sizeof many / sizeof many[0]; i++) {
		many[i] =
		    (struct dso){.name = "/proc/self/exe", .short_name = "exe", .kind = DSO_ELF};
		if (elfimages_get(&set, &many[i]) == NULL)
			break;
	}
	for (size_t i = 0; i < sizeof many / sizeof many[0]; i++)
		if (many[i].name != NULL && elfimages_get(&set, &many[i]) == NULL)
			abort(); /* found again in the grown set */
	elfimages_clear(&set);
}

/* The input as a file: parse, read, look up; then change the file under
 * the image, which must stop reading it. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct dso d = {.name = path, .short_name = path, .kind = DSO_ELF};
	struct elfimages set = {0};
	struct elfimage *img;

	if (fd < 0) {
		check_once();
		fd = memfd_create("fuzz-elfimage", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || (size > 0 && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	fz_data = data;
	fz_size = size;
	img = elfimages_get(&set, &d);
	if (img != NULL) {
		if (img->nsegs == 0 || img->size != size)
			abort();
		check_copies(img);
		check_lookups(img);
		if (elfimages_get(&set, &d) != img)
			abort(); /* the set caches images by DSO */
		/* A changed file: the image goes stale and hands out nothing new. */
		if (pwrite(fd, "", 1, (off_t)size) != 1)
			abort();
		for (uint64_t off = 0; off < size; off += 4096)
			check_bytes(img, off);
		check_lookups(img);
	}
	elfimages_clear(&set);
	return 0;
}
