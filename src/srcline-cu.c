/* srcline-cu: the compilation unit of an address: from .debug_aranges (our
 * own table of it, src/dwaranges.c) or, for files without, from every
 * unit's ranges; for the worker's inline lookups, in a view of that one
 * unit (libdw interns every unit before the one asked for). Split from
 * srcline.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "srcline-impl.h"
#include "tracetop/sym-elf.h"
#include "tracetop/sym-inflate.h"
#include "tracetop/util.h"

/* Order CU ranges by start address. */
static int
range_cmp(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return CMP3(x->start, y->start);
}

/* Add the address ranges of one CU DIE to the table. */
static void
add_cu_ranges(struct dwinfo *w, Dwarf_Die *cudie, size_t *cap)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(cudie, off, &base, &start, &end)) > 0 &&
	       w->nranges < MAX_CU_RANGES) {
		if (end <= start)
			continue;
		if (w->nranges == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			w->ranges = xrealloc(w->ranges, *cap * sizeof *w->ranges);
		}
		w->ranges[w->nranges++] =
		    (struct cu_range){.start = start, .end = end, .cu = dwarf_dieoffset(cudie)};
	}
}

/* Build the CU range table from every CU's DW_AT_low_pc/high_pc/ranges, for
 * files without .debug_aranges (clang's default). */
static void
build_cu_ranges(struct dwinfo *w)
{
	Dwarf_Off off = 0, next;
	Dwarf_Die cudie;
	size_t hsize, cap = 0;

	w->ranges_built = true;
	while (dwarf_nextcu(w->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(w->dw, off + hsize, &cudie) != NULL)
			add_cu_ranges(w, &cudie, &cap);
		off = next;
	}
	qsort(w->ranges, w->nranges, sizeof *w->ranges, range_cmp);
}

/* Our table of .debug_aranges, when the file has one we can read in
 * place (not compressed: the worker's inflated copy, a plain file). */
static void
read_aranges(struct dwinfo *w)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	w->ar_read = true;
	if (elf_getshdrstrndx(w->elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(w->elf, scn)) != NULL) {
		const char *name;
		Elf_Data *data;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (name = elf_strptr(w->elf, shstrndx, sh.sh_name)) == NULL ||
		    strcmp(name, ".debug_aranges") != 0)
			continue;
		if (!(sh.sh_flags & SHF_COMPRESSED) && (data = elf_rawdata(scn, NULL)) != NULL &&
		    data->d_buf != NULL)
			w->nar = dwaranges_parse(data->d_buf, data->d_size, &w->ar);
		return;
	}
}

/* Close the view of a unit. */
void
srcline_view_close(struct dwinfo *w)
{
	if (w->view_dw != NULL)
		dwarf_end(w->view_dw);
	if (w->view_elf != NULL)
		elf_end(w->view_elf);
	w->view_dw = NULL;
	w->view_elf = NULL;
	w->view_unit = UINT64_MAX;
}

/* The Dwarf of a view of unit off of .debug_info, made on a change of
 * unit: the file again (copy-on-write), its .debug_info's header moved
 * to start at the unit and end with it, so libdw reads that one unit.
 * It reads the units of a file in order up to the one asked for, each
 * interned (5 MiB of them and their pages for libc6-dbg's); a unit at
 * offset 0 is the first. NULL when it cannot be made. */
static Dwarf *
view_of(struct dwinfo *w, uint64_t off)
{
	unsigned char hdr[12];
	uint64_t len;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (w->view_unit == off)
		return w->view_dw;
	srcline_view_close(w);
	/* the unit's length, read not mapped (a page mapped twice counts
	 * twice) */
	if (off >= w->info_size ||
	    pread(w->fd, hdr, sizeof hdr, (off_t)(w->info_off + off)) != (ssize_t)sizeof hdr)
		return NULL;
	len = (uint64_t)hdr[0] | (uint64_t)hdr[1] << 8 | (uint64_t)hdr[2] << 16 |
	      (uint64_t)hdr[3] << 24;
	if (len == 0xffffffffULL) {
		len = 0;
		for (int i = 11; i >= 4; i--)
			len = len << 8 | hdr[i];
		len += 12;
	} else if (len >= 0xfffffff0ULL) {
		return NULL;
	} else {
		len += 4;
	}
	if (len > w->info_size - off || (w->view_elf = symelf_open_fd_private(w->fd)) == NULL ||
	    elf_getshdrstrndx(w->view_elf, &shstrndx) != 0) {
		srcline_view_close(w);
		return NULL;
	}
	syminfl_hide_unread(w->view_elf);
	while ((scn = elf_nextscn(w->view_elf, scn)) != NULL) {
		const char *name;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (name = elf_strptr(w->view_elf, shstrndx, sh.sh_name)) == NULL ||
		    strcmp(name, ".debug_info") != 0)
			continue;
		sh.sh_offset += off;
		sh.sh_size = len;
		if (gelf_update_shdr(scn, &sh) == 0)
			break;
		w->view_dw = dwarf_begin_elf(w->view_elf, DWARF_C_READ, NULL);
		break;
	}
	if (w->view_dw == NULL) {
		srcline_view_close(w);
		return NULL;
	}
	w->view_unit = off;
	return w->view_dw;
}

/* Where .debug_info lies in the file, when it can be viewed unit by unit
 * (in place: not compressed). */
static void
info_place(struct dwinfo *w)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(w->elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(w->elf, scn)) != NULL) {
		const char *name;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (name = elf_strptr(w->elf, shstrndx, sh.sh_name)) == NULL ||
		    strcmp(name, ".debug_info") != 0)
			continue;
		if (!(sh.sh_flags & SHF_COMPRESSED) && sh.sh_type == SHT_PROGBITS) {
			w->views = true;
			w->info_off = sh.sh_offset;
			w->info_size = sh.sh_size;
		}
		return;
	}
}

/* Read .debug_aranges on first use. */
static void
aranges_ready(struct dwinfo *w)
{
	if (w->ar_read)
		return;
	read_aranges(w);
	if (w->nar > 0)
		info_place(w);
	w->view_unit = UINT64_MAX;
}

/* The unit of addr per .debug_aranges (its offset in .debug_info); false
 * when the file has no such table or addr is in none of its ranges. */
bool
srcline_unit_of(struct dwinfo *w, uint64_t addr, uint64_t *unit)
{
	const struct dwarange *r;

	aranges_ready(w);
	if (w->nar == 0 || (r = dwaranges_find(w->ar, w->nar, addr)) == NULL)
		return false;
	*unit = r->unit;
	return true;
}

/* The CU DIE covering addr: from our table of .debug_aranges (only the
 * unit's own header read, where libdw's table of the same takes 2 MiB
 * for libc), else libdw's, else from our table of every CU's ranges. An
 * address outside every range of .debug_aranges has no CU: the scan of
 * all units, which reads all of .debug_info, is for files without it.
 * With views, the DIE is the unit's in its view. */
Dwarf_Die *
srcline_cu_at(struct dwinfo *w, uint64_t addr, Dwarf_Die *cudie, bool views, bool *in_view)
{
	size_t lo = 0, hi, mid;

	*in_view = false;
	aranges_ready(w);
	if (w->nar > 0) {
		const struct dwarange *r = dwaranges_find(w->ar, w->nar, addr);
		Dwarf_Off next;
		size_t hsize;
		Dwarf *v;

		if (r == NULL)
			return NULL;
		if (views && w->views && (v = view_of(w, r->unit)) != NULL) {
			if (dwarf_nextcu(v, 0, &next, &hsize, NULL, NULL, NULL) != 0)
				return NULL;
			*in_view = true;
			return dwarf_offdie(v, hsize, cudie);
		}
		if (dwarf_nextcu(w->dw, r->unit, &next, &hsize, NULL, NULL, NULL) != 0)
			return NULL;
		return dwarf_offdie(w->dw, r->unit + hsize, cudie);
	}
	if (dwarf_addrdie(w->dw, addr, cudie) != NULL)
		return cudie;
	if (!w->ranges_built)
		build_cu_ranges(w);
	hi = w->nranges;
	while (lo < hi) { /* first range starting past addr */
		mid = lo + (hi - lo) / 2;
		if (w->ranges[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= w->ranges[lo - 1].end)
		return NULL;
	return dwarf_offdie(w->dw, w->ranges[lo - 1].cu, cudie);
}
