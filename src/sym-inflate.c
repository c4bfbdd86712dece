/* sym-inflate: a debug file's compressed sections inflated into a file of
 * their own. libdw inflates every compressed .debug_* section it opens
 * onto the heap (libc6-dbg's .debug_info alone is 5.8 MiB), all of it in
 * tracetop's peak RSS although an inline lookup reads a few compilation
 * units. Written once into an unlinked temporary file on a disk-backed
 * file system and mapped, only the pages read count, and they are the
 * page cache's to reclaim; the compressed bytes are read with pread in
 * chunks, never mapped. The copy is an ELF file with the same section
 * headers: the sections the caller keeps hold their inflated bytes, the
 * others nothing and no name (libdw leaves them alone). Nothing is left
 * behind: the file has no name from its start (O_TMPFILE) and goes with
 * its last fd, also when tracetop is killed. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "tracetop/gz.h"
#include "tracetop/sym-elf.h"
#include "tracetop/sym-inflate.h"
#include "tracetop/util.h"

/* Bytes copied at a time from an uncompressed section. */
#define INFL_CHUNK (64U << 10)

/* An unnamed file in the first directory that is on a disk (a file
 * system in memory would hold the whole copy in RAM, just not in our
 * RSS): $TMPDIR, /var/tmp, /tmp; -1 when none takes one. */
static int
infl_tmpfile(void)
{
	const char *dirs[] = {getenv("TMPDIR"), "/var/tmp", "/tmp"};

	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		struct statfs sf;
		int fd;

		if (dirs[i] == NULL || dirs[i][0] == '\0' || statfs(dirs[i], &sf) != 0 ||
		    sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC)
			continue;
		fd = open(dirs[i], O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
	}
	return -1;
}

/* Write n bytes of buf at the end of fd. */
static int
infl_write(int fd, const void *buf, size_t n)
{
	const unsigned char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Copy len bytes at off of in to the end of out. */
static int
infl_copy_raw(int in, uint64_t off, uint64_t len, int out)
{
	unsigned char *buf = xmalloc(INFL_CHUNK);
	int rc = 0;

	while (len > 0 && rc == 0) {
		size_t step = len < INFL_CHUNK ? (size_t)len : INFL_CHUNK;
		ssize_t got = pread(in, buf, step, (off_t)off);

		if (got <= 0 || infl_write(out, buf, (size_t)got) != 0)
			rc = -1;
		off += got > 0 ? (uint64_t)got : 0;
		len -= got > 0 ? (uint64_t)got : len;
	}
	free(buf);
	return rc;
}

/* Pad the end of fd with zeros to a multiple of align; the new end. */
static off_t
infl_align(int fd, uint64_t align)
{
	static const unsigned char zeros[64];
	off_t end = lseek(fd, 0, SEEK_END);

	if (end < 0)
		return -1;
	if (align > 1 && align <= sizeof zeros && end % (off_t)align != 0) {
		size_t pad = (size_t)((off_t)align - end % (off_t)align);

		if (infl_write(fd, zeros, pad) != 0)
			return -1;
		end += (off_t)pad;
	}
	return end;
}

/* Whether elf is one this copies: 64-bit, of this machine's byte order,
 * with sections, its debug info in no other file (DWZ). */
static bool
infl_fits(Elf *elf, GElf_Ehdr *eh)
{
	const uint16_t one = 1;
	unsigned char here = *(const unsigned char *)&one ? ELFDATA2LSB : ELFDATA2MSB;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (gelf_getehdr(elf, eh) == NULL || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != here || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;

		if (gelf_getshdr(scn, &sh) == NULL)
			return false;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name != NULL &&
		    (strcmp(name, ".gnu_debugaltlink") == 0 || strncmp(name, ".zdebug_", 8) == 0))
			return false;
	}
	return true;
}

/* Write section sh's kept bytes (inflated if compressed) at the end of
 * out, updating sh to describe them there. */
static int
infl_section(int in, int out, GElf_Shdr *sh)
{
	uint64_t from = sh->sh_offset;
	Elf64_Chdr ch;
	off_t at;
	struct tt_err err;

	if (sh->sh_type == SHT_NOBITS)
		return 0;
	if (!(sh->sh_flags & SHF_COMPRESSED)) {
		if ((at = infl_align(out, sh->sh_addralign)) < 0)
			return -1;
		sh->sh_offset = (uint64_t)at;
		return infl_copy_raw(in, from, sh->sh_size, out);
	}
	if (sh->sh_size < sizeof ch ||
	    pread(in, &ch, sizeof ch, (off_t)sh->sh_offset) != (ssize_t)sizeof ch ||
	    ch.ch_type != ELFCOMPRESS_ZLIB || (at = infl_align(out, ch.ch_addralign)) < 0 ||
	    gz_inflate_fd(in, sh->sh_offset + sizeof ch, sh->sh_size - sizeof ch, out, ch.ch_size,
	                  &err) != 0)
		return -1;
	sh->sh_flags &= ~(uint64_t)SHF_COMPRESSED;
	sh->sh_offset = (uint64_t)at;
	sh->sh_size = ch.ch_size;
	sh->sh_addralign = ch.ch_addralign;
	return 0;
}

/* Make the copy (see sym-inflate.h). */
static int
syminfl_copy(Elf *elf, int in, bool (*keep)(const char *name))
{
	GElf_Ehdr eh;
	Elf64_Ehdr out_eh;
	Elf64_Shdr *shdrs = NULL;
	size_t nsec, shstrndx, inflated = 0;
	int out = -1;
	off_t at;

	if (!infl_fits(elf, &eh) || elf_getshdrnum(elf, &nsec) != 0 || nsec == 0 ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0)
		return -1;
	/* worth a copy only when a kept section is compressed */
	for (size_t i = 1; i < nsec; i++) {
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(elf, i);
		const char *name;

		if (scn == NULL || gelf_getshdr(scn, &sh) == NULL)
			return -1;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		inflated += name != NULL && keep(name) && (sh.sh_flags & SHF_COMPRESSED);
	}
	if (inflated == 0 || (out = infl_tmpfile()) < 0)
		return -1;
	shdrs = xcalloc(nsec, sizeof *shdrs);
	memset(&out_eh, 0, sizeof out_eh);
	if (infl_write(out, &out_eh, sizeof out_eh) != 0)
		goto fail;
	for (size_t i = 0; i < nsec; i++) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(elf_getscn(elf, i), &sh) == NULL)
			goto fail;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (i == 0) {
			/* extended numbering lives here: kept as it is */
		} else if (i == shstrndx || (name != NULL && keep(name))) {
			if (infl_section(in, out, &sh) != 0)
				goto fail;
		} else {
			/* nothing, and no name libdw knows */
			sh.sh_type = SHT_NOBITS;
			sh.sh_flags &= ~(uint64_t)SHF_COMPRESSED;
			sh.sh_name = 0;
			sh.sh_offset = 0;
			sh.sh_size = 0;
		}
		shdrs[i] = (Elf64_Shdr){.sh_name = sh.sh_name,
		                        .sh_type = sh.sh_type,
		                        .sh_flags = sh.sh_flags,
		                        .sh_addr = sh.sh_addr,
		                        .sh_offset = sh.sh_offset,
		                        .sh_size = sh.sh_size,
		                        .sh_link = sh.sh_link,
		                        .sh_info = sh.sh_info,
		                        .sh_addralign = sh.sh_addralign,
		                        .sh_entsize = sh.sh_entsize};
	}
	if ((at = infl_align(out, 8)) < 0 || infl_write(out, shdrs, nsec * sizeof *shdrs) != 0)
		goto fail;
	memcpy(out_eh.e_ident, eh.e_ident, EI_NIDENT);
	out_eh.e_type = (Elf64_Half)eh.e_type;
	out_eh.e_machine = (Elf64_Half)eh.e_machine;
	out_eh.e_version = (Elf64_Word)eh.e_version;
	out_eh.e_entry = eh.e_entry;
	out_eh.e_flags = (Elf64_Word)eh.e_flags;
	out_eh.e_ehsize = sizeof out_eh;
	out_eh.e_shoff = (Elf64_Off)at;
	out_eh.e_shentsize = sizeof *shdrs;
	out_eh.e_shnum = (Elf64_Half)eh.e_shnum;
	out_eh.e_shstrndx = (Elf64_Half)eh.e_shstrndx;
	if (pwrite(out, &out_eh, sizeof out_eh, 0) != (ssize_t)sizeof out_eh)
		goto fail;
	free(shdrs);
	return out;
fail:
	free(shdrs);
	close(out);
	return -1;
}

/* Debug sections the inline walk never reads. libdw inflates every
 * compressed one it knows when it opens a file: libc6-dbg's line table
 * and location lists are 2.7 of its 9.7 MiB inflated. */
static const char *const unread_sections[] = {
    "line", "loc", "loclists", "frame", "macinfo", "macro", "pubnames", "pubtypes", "names",
};

/* Whether the inline walk reads section name (.debug_NAME or GNU's
 * .zdebug_NAME). */
static bool
section_read(const char *name)
{
	if (strncmp(name, ".debug_", 7) == 0)
		name += 7;
	else if (strncmp(name, ".zdebug_", 8) == 0)
		name += 8;
	else
		return false;
	for (size_t i = 0; i < sizeof unread_sections / sizeof *unread_sections; i++)
		if (strcmp(name, unread_sections[i]) == 0)
			return false;
	return true;
}

/* Unname the debug sections the walk never reads in elf's headers, in
 * memory only, so that libdw leaves them alone. */
void
syminfl_hide_unread(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)) == NULL ||
		    (strncmp(name, ".debug_", 7) != 0 && strncmp(name, ".zdebug_", 8) != 0) ||
		    section_read(name))
			continue;
		sh.sh_name = 0; /* "": a name libdw does not know */
		(void)gelf_update_shdr(scn, &sh);
	}
}

/* The file to read inline chains from (see sym-inflate.h). */
Elf *
syminfl_for_inlines(Elf *elf, int *fd)
{
	int copy = syminfl_copy(elf, *fd, section_read);
	Elf *c = copy >= 0 ? symelf_open_fd_private(copy) : NULL;

	if (c == NULL) {
		if (copy >= 0)
			close(copy);
		syminfl_hide_unread(elf);
		return elf;
	}
	symelf_close(elf, *fd);
	*fd = copy;
	return c;
}
