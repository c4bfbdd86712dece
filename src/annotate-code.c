/* annotate-code: the bytes of a function, from its ELF file or, for the
 * kernel, from /proc/kcore or a matching vmlinux. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tracetop/annotate-code.h"
#include "tracetop/elfimage.h"
#include "tracetop/sym-elf.h"

#define DEFAULT_KCORE "/proc/kcore"
#define DEFAULT_NOTES "/sys/kernel/notes"
#define HEADERS_MAX (4u << 20) /* ELF + program headers read, at most */
#define BUILD_ID_MAX 20

static char *kcore_path, *vmlinux_path, *notes_path;

/* Replace a path setting (NULL: the default). */
static void
set_path(char **slot, const char *value)
{
	free(*slot);
	*slot = value != NULL ? xstrdup(value) : NULL;
}

/* Point the kernel code sources elsewhere (tests). */
void
annotate_code_set_paths(const char *kcore, const char *vmlinux, const char *notes)
{
	set_path(&kcore_path, kcore);
	set_path(&vmlinux_path, vmlinux);
	set_path(&notes_path, notes);
}

/* Bytes that hold the ELF header and the program header table. */
size_t
annotate_code_headers_size(const unsigned char *head, size_t len)
{
	Elf64_Ehdr eh;
	uint64_t end;

	if (len < sizeof eh)
		return 0;
	memcpy(&eh, head, sizeof eh);
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_X86_64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 ||
	    eh.e_phnum > ANNOTATE_MAX_PHDRS || eh.e_phoff < sizeof eh || eh.e_phoff > HEADERS_MAX)
		return 0;
	end = eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr);
	return end <= HEADERS_MAX ? (size_t)end : 0;
}

/* The PT_LOAD segments of an image's headers. */
int
annotate_code_segments(const unsigned char *head, size_t len, uint64_t file_size,
                       struct dso_seg **segs, size_t *nsegs)
{
	size_t need = annotate_code_headers_size(head, len);
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	*segs = NULL;
	*nsegs = 0;
	if (need == 0 || need > len)
		return -1;
	memcpy(&eh, head, sizeof eh);
	*segs = xcalloc(eh.e_phnum, sizeof **segs);
	for (size_t i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, head + eh.e_phoff + i * sizeof ph, sizeof ph);
		if (ph.p_type != PT_LOAD || ph.p_filesz == 0 || ph.p_offset > file_size ||
		    ph.p_filesz > file_size - ph.p_offset || ph.p_vaddr + ph.p_filesz < ph.p_vaddr)
			continue;
		(*segs)[*nsegs].off = ph.p_offset;
		(*segs)[*nsegs].vaddr = ph.p_vaddr;
		(*segs)[(*nsegs)++].filesz = ph.p_filesz;
	}
	return 0;
}

/* The file offset of [vaddr, vaddr + len) inside one segment. */
int
annotate_code_offset(const struct dso_seg *segs, size_t nsegs, uint64_t vaddr, uint64_t len,
                     uint64_t *off)
{
	for (size_t i = 0; i < nsegs; i++) {
		uint64_t in = vaddr - segs[i].vaddr;

		if (vaddr >= segs[i].vaddr && in < segs[i].filesz && len <= segs[i].filesz - in) {
			*off = segs[i].off + in;
			return 0;
		}
	}
	return -1;
}

/* Read len bytes at file offset off (procfs may answer in parts). 0 or -1. */
static int
pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	unsigned char *p = buf;

	while (len > 0) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* The PT_LOAD segments of an open ELF image. 0 or -1. */
static int
read_segments(int fd, uint64_t file_size, struct dso_seg **segs, size_t *nsegs)
{
	unsigned char eh[sizeof(Elf64_Ehdr)], *head;
	size_t need;
	int rc = -1;

	*segs = NULL;
	*nsegs = 0;
	if (pread_full(fd, eh, sizeof eh, 0) != 0 ||
	    (need = annotate_code_headers_size(eh, sizeof eh)) == 0)
		return -1;
	head = xmalloc(need);
	if (pread_full(fd, head, need, 0) == 0)
		rc = annotate_code_segments(head, need, file_size, segs, nsegs);
	free(head);
	return rc;
}

/* Read a user function's bytes from its file. */
int
annotate_code_user(struct dso *d, uint64_t addr, size_t len, unsigned char *buf, struct tt_err *err)
{
	struct elfimages set = {0};
	struct elfimage *img;
	int rc = 0;

	if (d->kind != DSO_ELF)
		return err_set(err, "%s is not a file: no code to disassemble", d->name);
	img = elfimages_get(&set, d);
	if (img == NULL)
		rc = err_set(err, "cannot read %s as the x86-64 ELF file that was mapped", d->name);
	else if (elfimage_read(img, addr, buf, len) != 0)
		rc = err_set(err, "%s: 0x%llx..0x%llx is not in a loaded segment of the file",
		             d->name, (unsigned long long)addr, (unsigned long long)(addr + len));
	elfimages_clear(&set);
	return rc;
}

/* Open an image file, its size (0 when it has none, as procfs files may)
 * in *size. -1 with errno. */
static int
open_image(const char *path, uint64_t *size)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	*size = sb.st_size > 0 ? (uint64_t)sb.st_size : UINT64_MAX;
	return fd;
}

/* Read [vaddr, vaddr + len) of an open image through its segments. 0 or -1. */
static int
read_vaddr(int fd, uint64_t size, uint64_t vaddr, size_t len, unsigned char *buf)
{
	struct dso_seg *segs;
	size_t nsegs;
	uint64_t off;
	int rc = -1;

	if (read_segments(fd, size, &segs, &nsegs) == 0 &&
	    annotate_code_offset(segs, nsegs, vaddr, len, &off) == 0)
		rc = pread_full(fd, buf, len, off);
	free(segs);
	return rc;
}

/* Try /proc/kcore; on failure say why in why. 0 or -1. */
static int
kernel_from_kcore(const struct sym *sym, unsigned char *buf, size_t len, char *why, size_t whylen)
{
	const char *path = kcore_path ? kcore_path : DEFAULT_KCORE;
	uint64_t size;
	int fd = open_image(path, &size), rc;

	if (fd < 0) {
		if (errno == ENOENT)
			snprintf(why, whylen, "%s does not exist (no CONFIG_PROC_KCORE)", path);
		else
			snprintf(why, whylen, "cannot read %s: %s%s", path, strerror(errno),
			         errno == EACCES || errno == EPERM ? " (root only)" : "");
		return -1;
	}
	rc = read_vaddr(fd, size, sym->start, len, buf);
	close(fd);
	if (rc != 0)
		snprintf(why, whylen, "%s does not map 0x%llx", path,
		         (unsigned long long)sym->start);
	return rc;
}

/* The running kernel's build-id from its notes file; its length or -1. */
static int
kernel_build_id(const char *path, uint8_t *id)
{
	unsigned char buf[4096];
	ssize_t n = read_file(path, (char *)buf, sizeof buf);
	size_t pos = 0;

	while (n > 0 && (size_t)n - pos >= 12) {
		uint32_t w[3];
		size_t name, desc;

		memcpy(w, buf + pos, sizeof w);
		name = ((size_t)w[0] + 3) & ~(size_t)3;
		desc = ((size_t)w[1] + 3) & ~(size_t)3;
		if (w[0] > 4096 || w[1] > 4096 || name + desc > (size_t)n - pos - 12)
			return -1;
		if (w[2] == NT_GNU_BUILD_ID && w[0] == 4 && memcmp(buf + pos + 12, "GNU", 4) == 0 &&
		    w[1] > 0 && w[1] <= BUILD_ID_MAX) {
			memcpy(id, buf + pos + 12 + name, w[1]);
			return (int)w[1];
		}
		pos += 12 + name + desc;
	}
	return -1;
}

/* Whether a vmlinux is the running kernel's (unknown: assumed so). */
static bool
vmlinux_matches(const char *path)
{
	const char *notes = notes_path ? notes_path : DEFAULT_NOTES;
	uint8_t want[BUILD_ID_MAX], got[BUILD_ID_MAX];
	int n;

	if (notes[0] == '\0' || (n = kernel_build_id(notes, want)) < 0)
		return true;
	return symelf_build_id(path, got, sizeof got) == n && memcmp(want, got, (size_t)n) == 0;
}

/* Read a kernel function from one vmlinux: found by name in its symbols,
 * at its link-time address (KASLR moves the running one). 0 or -1. */
static int
vmlinux_read(const char *path, const struct sym *sym, unsigned char *buf, size_t *len)
{
	struct symtab st;
	struct dso_seg *segs;
	size_t nsegs, i;
	char *dbg;
	struct tt_err err;
	uint64_t size;
	int fd, rc = -1;

	symtab_init(&st);
	if (symelf_load(path, NULL, &st, &segs, &nsegs, &dbg, &err) != 0) {
		free(segs);
		return -1;
	}
	for (i = 0; i < st.n && strcmp(st.syms[i].name, sym->name) != 0; i++)
		;
	if (i < st.n && (fd = open_image(path, &size)) >= 0) {
		if (st.syms[i].size > 0 && st.syms[i].size < *len)
			*len = (size_t)st.syms[i].size;
		rc = read_vaddr(fd, size, st.syms[i].start, *len, buf);
		close(fd);
	}
	symtab_free(&st);
	free(segs);
	free(dbg);
	return rc;
}

/* Try the vmlinux of the test hook, else the usual places. */
static int
kernel_from_vmlinux(const struct sym *sym, unsigned char *buf, size_t *len, const char **from)
{
	static char found[512];
	struct utsname u;
	char path[512];
	/* The places perf looks, around the kernel release. */
	static const char *const around[][2] = {
	    {"/boot/vmlinux-", ""},
	    {"/usr/lib/debug/boot/vmlinux-", ""},
	    {"/usr/lib/debug/boot/vmlinux-", ".debug"},
	    {"/usr/lib/debug/lib/modules/", "/vmlinux"},
	    {"/lib/modules/", "/build/vmlinux"},
	};
	size_t n = vmlinux_path ? 1 : ARRAY_SIZE(around);

	if (sym->module != NULL || (vmlinux_path == NULL && uname(&u) != 0))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (vmlinux_path != NULL)
			snprintf(path, sizeof path, "%s", vmlinux_path);
		else
			snprintf(path, sizeof path, "%s%s%s", around[i][0], u.release,
			         around[i][1]);
		if (access(path, R_OK) != 0 || !vmlinux_matches(path) ||
		    vmlinux_read(path, sym, buf, len) != 0)
			continue;
		snprintf(found, sizeof found, "%s", path);
		*from = found;
		return 0;
	}
	return -1;
}

/* Read a kernel function's bytes. */
int
annotate_code_kernel(const struct sym *sym, unsigned char *buf, size_t *len, const char **from,
                     struct tt_err *err)
{
	char why[256];

	if (kernel_from_kcore(sym, buf, *len, why, sizeof why) == 0) {
		*from = kcore_path ? kcore_path : DEFAULT_KCORE;
		return 0;
	}
	if (kernel_from_vmlinux(sym, buf, len, from) == 0)
		return 0;
	if (sym->module != NULL)
		return err_set(err,
		               "cannot disassemble %s [%s]: %s, and module code is only read "
		               "from there",
		               sym->name, sym->module, why);
	return err_set(err,
	               "cannot disassemble kernel function %s: %s, and no vmlinux of the running "
	               "kernel was found in /boot or /usr/lib/debug (install the kernel's debug "
	               "image, e.g. linux-image-amd64-dbg)",
	               sym->name, why);
}
