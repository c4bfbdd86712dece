/* sym-elf: function symbols and load segments of ELF objects through
 * libelf (build-ids and separate debug files: sym-debug.c). The files may belong to anyone and be
 * corrupt on purpose: sizes and indices go through libelf's checked
 * accessors (elf_getdata, gelf_getsym, elf_strptr, gelf_getnote). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym-elf-impl.h"
#include "tracetop/sym-demangle.h"
#include "tracetop/sym-elf.h"
#include "tracetop/sym-name.h"

/* Functions a typed name may fit that an error message lists. */
#define SYMELF_NAMES 4

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* One-time set-up: the libelf version handshake. */
static void
init_globals(void)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		fatal("libelf is out of date: %s", elf_errmsg(-1));
}

/* Open path as an ELF file with libelf's cmd; NULL with err on failure.
 * *fdp gets the fd. */
static Elf *
symelf_open_cmd(const char *path, int *fdp, struct tt_err *err, Elf_Cmd cmd)
{
	struct stat sb;
	Elf *elf;
	int fd;

	pthread_once(&init_once, init_globals);
	/* O_NONBLOCK: a FIFO planted under a library's name must not hang us. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err_set(err, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		err_set(err, "%s: not a regular file", path);
		goto fail;
	}
	elf = elf_begin(fd, cmd, NULL);
	if (elf == NULL) {
		err_set(err, "%s: cannot read as ELF: %s", path, elf_errmsg(-1));
		goto fail;
	}
	if (elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		err_set(err, "%s: not an ELF file", path);
		goto fail;
	}
	*fdp = fd;
	return elf;
fail:
	close(fd);
	return NULL;
}

/* Open path as an ELF file; NULL with err on failure. *fdp gets the fd. */
Elf *
symelf_open(const char *path, int *fdp, struct tt_err *err)
{
	return symelf_open_cmd(path, fdp, err, ELF_C_READ_MMAP);
}

/* The same, mapped copy-on-write: its headers may be changed in memory. */
Elf *
symelf_open_private(const char *path, int *fdp, struct tt_err *err)
{
	return symelf_open_cmd(path, fdp, err, ELF_C_READ_MMAP_PRIVATE);
}

/* Read an open file fd as ELF, mapped copy-on-write (its headers may be
 * changed in memory); NULL when it is not ELF. */
Elf *
symelf_open_fd_private(int fd)
{
	Elf *elf;

	pthread_once(&init_once, init_globals);
	elf = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (elf != NULL && elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		elf = NULL;
	}
	return elf;
}

/* Release what symelf_open returned. */
void
symelf_close(Elf *elf, int fd)
{
	elf_end(elf);
	close(fd);
}

/* The first section of a type, or NULL. */
static Elf_Scn *
find_section_type(Elf *elf, Elf64_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, sh) != NULL && sh->sh_type == type)
			return scn;
	return NULL;
}

/* The first section called name, or NULL. */
Elf_Scn *
symelf_section_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *s;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, sh) == NULL)
			continue;
		s = elf_strptr(elf, shstrndx, sh->sh_name);
		if (s != NULL && strcmp(s, name) == 0)
			return scn;
	}
	return NULL;
}

/* The name of a defined function symbol i of a table, or NULL. */
static const char *
func_symbol(Elf *elf, Elf_Data *data, const GElf_Shdr *sh, size_t i, GElf_Sym *sym)
{
	const char *name;
	int type;

	if (gelf_getsym(data, (int)i, sym) == NULL)
		return NULL;
	type = GELF_ST_TYPE(sym->st_info);
	if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym->st_shndx == SHN_UNDEF)
		return NULL;
	name = elf_strptr(elf, sh->sh_link, sym->st_name);
	return name != NULL && name[0] != '\0' ? name : NULL;
}

/* Add the defined function symbols of one symbol table section; how many.
 * A weak symbol is left out where a strong one starts at the same
 * address: like perf, the strong name is the one shown
 * ("__vdso_clock_gettime", not its weak alias "clock_gettime"). */
static size_t
add_symbols(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct symtab *st)
{
	Elf_Data *data;
	GElf_Sym sym;
	size_t i, n, entsize, added = 0, nstrong = 0;
	uint64_t *strong;
	const char *name;

	if (sh->sh_type == SHT_NOBITS)
		return 0;
	data = elf_getdata(scn, NULL);
	entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (data == NULL || data->d_buf == NULL || entsize == 0)
		return 0;
	n = data->d_size / entsize;
	strong = xmalloc((n ? n : 1) * sizeof *strong);
	for (i = 1; i < n; i++)
		if (func_symbol(elf, data, sh, i, &sym) != NULL &&
		    GELF_ST_BIND(sym.st_info) != STB_WEAK)
			strong[nstrong++] = sym.st_value;
	qsort(strong, nstrong, sizeof *strong, qsort_u64);
	for (i = 1; i < n; i++) {
		if ((name = func_symbol(elf, data, sh, i, &sym)) == NULL ||
		    (GELF_ST_BIND(sym.st_info) == STB_WEAK &&
		     bsearch(&sym.st_value, strong, nstrong, sizeof *strong, qsort_u64) != NULL))
			continue;
		symtab_add(st, sym.st_value, sym.st_size, name, NULL);
		added++;
	}
	free(strong);
	return added;
}

/* Add the function symbols of the first section of a type; how many. */
static size_t
load_symbols(Elf *elf, Elf64_Word type, struct symtab *st)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section_type(elf, type, &sh);

	return scn != NULL ? add_symbols(elf, scn, &sh, st) : 0;
}

/* x86-64 PLT entries are 16 bytes; the lazy .plt starts with a 16-byte
 * header. */
#define PLT_ENTRY 16

/* Add "name@plt" at addr (size bytes), as perf names PLT stubs. */
static void
add_plt_symbol(struct symtab *st, uint64_t addr, uint64_t size, const char *name)
{
	char buf[512];

	snprintf(buf, sizeof buf, "%s@plt", name);
	symtab_add(st, addr, size, buf, NULL);
}

/* The name of the dynamic symbol a relocation refers to, or NULL. */
static const char *
reloc_name(Elf *elf, Elf_Data *syms, size_t strndx, const GElf_Rela *r)
{
	GElf_Sym sym;
	size_t idx = GELF_R_SYM(r->r_info);

	if (idx == 0 || gelf_getsym(syms, (int)idx, &sym) == NULL)
		return NULL;
	return elf_strptr(elf, strndx, sym.st_name);
}

/* A relocation section's data, its symbol table's data and string table
 * index; false when the file does not hold them. */
static bool
reloc_tables(Elf *elf, Elf_Scn *rel, const GElf_Shdr *rsh, Elf_Data **rdata, Elf_Data **syms,
             size_t *strndx)
{
	Elf_Scn *dyn = elf_getscn(elf, rsh->sh_link);
	GElf_Shdr dsh;

	*rdata = elf_getdata(rel, NULL);
	*syms = dyn != NULL ? elf_getdata(dyn, NULL) : NULL;
	if (*rdata == NULL || *syms == NULL || gelf_getshdr(dyn, &dsh) == NULL ||
	    rsh->sh_type != SHT_RELA)
		return false;
	*strndx = dsh.sh_link;
	return true;
}

/* The lazily bound calls: one PLT entry per .rela.plt relocation, in
 * order, in .plt.sec when the binary has one (IBT), else in .plt after
 * its header; how many were named. */
static size_t
add_plt_slots(Elf *elf, struct symtab *st)
{
	GElf_Shdr rsh, psh;
	Elf_Scn *rel = symelf_section_named(elf, ".rela.plt", &rsh), *plt;
	Elf_Data *rdata, *syms;
	size_t strndx, n, added = 0, rsize = gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
	uint64_t first;
	char abs[48];

	if (rel == NULL || rsize == 0 || !reloc_tables(elf, rel, &rsh, &rdata, &syms, &strndx))
		return 0;
	if ((plt = symelf_section_named(elf, ".plt.sec", &psh)) != NULL)
		first = psh.sh_addr;
	else if ((plt = symelf_section_named(elf, ".plt", &psh)) != NULL)
		first = psh.sh_addr + PLT_ENTRY;
	else
		return 0;
	n = rdata->d_size / rsize;
	for (size_t i = 0; i < n; i++) {
		uint64_t addr = first + i * PLT_ENTRY;
		const char *name;
		GElf_Rela r;

		if (addr + PLT_ENTRY > psh.sh_addr + psh.sh_size ||
		    gelf_getrela(rdata, (int)i, &r) == NULL)
			break;
		if (GELF_R_TYPE(r.r_info) == R_X86_64_IRELATIVE) {
			snprintf(abs, sizeof abs, "*ABS*+0x%" PRIx64, (uint64_t)r.r_addend);
			name = abs;
		} else if ((name = reloc_name(elf, syms, strndx, &r)) == NULL || name[0] == '\0') {
			continue;
		}
		add_plt_symbol(st, addr, PLT_ENTRY, name);
		added++;
	}
	return added;
}

/* The GOT slot a .plt.got entry jumps through (jmp *disp32(%rip), maybe
 * after endbr64 and a bnd prefix), or 0. */
static uint64_t
plt_got_target(const unsigned char *code, size_t len, uint64_t addr)
{
	for (size_t j = 0; j + 6 <= len; j++)
		if (code[j] == 0xff && code[j + 1] == 0x25) {
			int32_t disp;

			memcpy(&disp, code + j + 2, sizeof disp);
			return addr + j + 6 + (uint64_t)(int64_t)disp;
		}
	return 0;
}

/* The calls bound at load time (-z now, or functions whose address is
 * taken): each .plt.got entry jumps through a GOT slot that a GLOB_DAT
 * relocation of .rela.dyn names; how many were named. */
static size_t
add_plt_got(Elf *elf, struct symtab *st)
{
	GElf_Shdr rsh, psh;
	Elf_Scn *rel = symelf_section_named(elf, ".rela.dyn", &rsh);
	Elf_Scn *plt = symelf_section_named(elf, ".plt.got", &psh);
	Elf_Data *rdata, *syms, *code;
	size_t strndx, n, added = 0, rsize = gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
	uint64_t step;

	if (rel == NULL || plt == NULL || rsize == 0 || psh.sh_type == SHT_NOBITS ||
	    !reloc_tables(elf, rel, &rsh, &rdata, &syms, &strndx) ||
	    (code = elf_getdata(plt, NULL)) == NULL || code->d_buf == NULL)
		return 0;
	step = psh.sh_entsize >= 8 && psh.sh_entsize <= 32 ? psh.sh_entsize : 8;
	n = rdata->d_size / rsize;
	for (uint64_t off = 0; off + step <= code->d_size; off += step) {
		uint64_t slot = plt_got_target((const unsigned char *)code->d_buf + off,
		                               (size_t)step, psh.sh_addr + off);
		const char *name = NULL;

		for (size_t i = 0; slot != 0 && name == NULL && i < n; i++) {
			GElf_Rela r;

			if (gelf_getrela(rdata, (int)i, &r) != NULL && r.r_offset == slot &&
			    GELF_R_TYPE(r.r_info) == R_X86_64_GLOB_DAT)
				name = reloc_name(elf, syms, strndx, &r);
		}
		if (name != NULL && name[0] != '\0') {
			add_plt_symbol(st, psh.sh_addr + off, step, name);
			added++;
		}
	}
	return added;
}

/* Name the PLT stubs of an x86-64 binary ("memcpy@plt"), which have no
 * symbols of their own: without them a sample there would go to the
 * function before the PLT (_init); how many. */
static size_t
add_plt_symbols(Elf *elf, struct symtab *st)
{
	GElf_Ehdr eh;

	if (gelf_getehdr(elf, &eh) == NULL || eh.e_machine != EM_X86_64)
		return 0;
	return add_plt_slots(elf, st) + add_plt_got(elf, st);
}

/* The PT_LOAD segments, malloc'd into *segs. 0, or -1 on corrupt headers. */
static int
load_segments(Elf *elf, struct dso_seg **segs, size_t *nsegs)
{
	size_t i, n;
	GElf_Phdr ph;

	*segs = NULL;
	*nsegs = 0;
	if (elf_getphdrnum(elf, &n) != 0)
		return -1;
	for (i = 0; i < n && i < 65536; i++) {
		if (gelf_getphdr(elf, (int)i, &ph) == NULL)
			return -1;
		if (ph.p_type != PT_LOAD)
			continue;
		*segs = xrealloc(*segs, (*nsegs + 1) * sizeof **segs);
		(*segs)[*nsegs].off = ph.p_offset;
		(*segs)[*nsegs].vaddr = ph.p_vaddr;
		(*segs)[*nsegs].filesz = ph.p_filesz;
		(*nsegs)++;
	}
	return 0;
}

/* The .symtab functions of the separate debug file, if one is found; how many. */
static size_t
load_debug_symbols(Elf *elf, const char *path, const char *root, struct symtab *st,
                   char **debug_used)
{
	struct tt_err err;
	char *dpath = symelf_debug_path(elf, path, root);
	size_t n = 0;
	Elf *delf;
	int dfd;

	if (dpath == NULL)
		return 0;
	delf = symelf_open(dpath, &dfd, &err);
	if (delf != NULL) {
		n = load_symbols(delf, SHT_SYMTAB, st);
		symelf_close(delf, dfd);
	}
	if (n > 0)
		*debug_used = dpath;
	else
		free(dpath);
	return n;
}

/* Load the symbols and segments of an ELF file. */
int
symelf_load(const char *path, const char *debug_root, struct symtab *st, struct dso_seg **segs,
            size_t *nsegs, char **debug_used, struct tt_err *err)
{
	return symelf_load_want(path, debug_root, st, segs, nsegs, debug_used, NULL, err);
}

/* Load the symbols and segments of an ELF file; say whether a debug file
 * from elsewhere would name more. */
int
symelf_load_want(const char *path, const char *debug_root, struct symtab *st, struct dso_seg **segs,
                 size_t *nsegs, char **debug_used, struct symelf_want *want, struct tt_err *err)
{
	GElf_Ehdr eh;
	size_t n;
	int fd;
	Elf *elf;

	*segs = NULL;
	*nsegs = 0;
	*debug_used = NULL;
	if (want != NULL)
		memset(want, 0, sizeof *want);
	elf = symelf_open(path, &fd, err);
	if (elf == NULL)
		return -1;
	if (gelf_getehdr(elf, &eh) == NULL || load_segments(elf, segs, nsegs) != 0) {
		err_set(err, "%s: corrupt or truncated ELF: %s", path, elf_errmsg(-1));
		free(*segs);
		*segs = NULL;
		*nsegs = 0;
		symelf_close(elf, fd);
		return -1;
	}
	n = load_symbols(elf, SHT_SYMTAB, st);
	if (n == 0)
		n = load_debug_symbols(elf, path, debug_root, st, debug_used);
	if (n == 0 && want != NULL) {
		int len = symelf_elf_build_id(elf, want->build_id, sizeof want->build_id);

		want->build_id_len = len > 0 ? (size_t)len : 0;
		want->debug = len > 0;
	}
	if (n == 0)
		n = load_symbols(elf, SHT_DYNSYM, st);
	n += add_plt_symbols(elf, st); /* from the file itself: a debug file has no PLT */
	symelf_close(elf, fd);
	if (n == 0)
		return err_set(err,
		               "%s: no function symbols (stripped, and no debug file under %s)",
		               path, debug_root ? debug_root : SYMELF_DEFAULT_DEBUG_ROOT);
	return 0;
}

/* The kind of a symbol: code when a function or in executable code. */
static enum symelf_kind
sym_kind(Elf *elf, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (type == STT_FUNC || type == STT_GNU_IFUNC)
		return SYMELF_CODE;
	if (type == STT_NOTYPE && sym->st_shndx < SHN_LORESERVE &&
	    (scn = elf_getscn(elf, sym->st_shndx)) != NULL && gelf_getshdr(scn, &sh) != NULL &&
	    (sh.sh_flags & SHF_EXECINSTR))
		return SYMELF_CODE;
	return SYMELF_DATA;
}

/* A search by name: an exact (raw) hit wins; else the functions whose
 * demangled names match (sym-name.h), one per address, must be one. */
struct find {
	const char *name;
	bool found, exact;
	struct symelf_hit hit;
	size_t nloose;                     /* functions matched by a demangled name */
	uint64_t loose_addr[SYMELF_NAMES]; /* the first ones' addresses... */
	char *loose[SYMELF_NAMES];         /* ...and raw names (malloc'd) */
};

/* Count a function matched by a demangled name, once per address. */
static void
find_loose(struct find *f, const char *raw, const GElf_Sym *sym, enum symelf_kind kind)
{
	size_t i, k = f->nloose < SYMELF_NAMES ? f->nloose : SYMELF_NAMES;

	for (i = 0; i < k; i++)
		if (f->loose_addr[i] == sym->st_value)
			return;
	if (f->nloose == 0)
		f->hit =
		    (struct symelf_hit){.addr = sym->st_value, .size = sym->st_size, .kind = kind};
	if (f->nloose < SYMELF_NAMES) {
		f->loose_addr[f->nloose] = sym->st_value;
		f->loose[f->nloose] = xstrdup(raw);
	}
	f->nloose++;
}

/* Whether raw is name's default version ("memcpy@@GLIBC_2.14" for
 * "memcpy"), which the dynamic linker binds: as good as the name itself. */
static bool
default_version(const char *raw, const char *name)
{
	size_t base = symname_base_len(raw);

	return raw[base] == '@' && raw[base + 1] == '@' && strlen(name) == base &&
	       memcmp(raw, name, base) == 0;
}

/* Look f->name up in the first symbol table of a type; whether found,
 * exactly or by demangled name. */
static bool
find_symbol(Elf *elf, Elf64_Word type, struct find *f)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section_type(elf, type, &sh);
	Elf_Data *data;
	GElf_Sym sym;
	size_t i, n, entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	const char *s;

	if (scn == NULL || sh.sh_type == SHT_NOBITS || entsize == 0 ||
	    (data = elf_getdata(scn, NULL)) == NULL || data->d_buf == NULL)
		return false;
	n = data->d_size / entsize;
	for (i = 1; i < n && gelf_getsym(data, (int)i, &sym) != NULL; i++) {
		int t = GELF_ST_TYPE(sym.st_info);
		enum symelf_kind kind;

		if (sym.st_shndx == SHN_UNDEF || t == STT_SECTION || t == STT_FILE ||
		    (s = elf_strptr(elf, sh.sh_link, sym.st_name)) == NULL)
			continue;
		if (strcmp(s, f->name) != 0 && !default_version(s, f->name)) {
			if (!f->exact && symname_matches(f->name, s, NULL) &&
			    (kind = sym_kind(elf, &sym)) == SYMELF_CODE)
				find_loose(f, s, &sym, kind);
			continue;
		}
		if (f->exact && f->hit.kind == SYMELF_CODE)
			continue;
		f->hit = (struct symelf_hit){
		    .addr = sym.st_value, .size = sym.st_size, .kind = sym_kind(elf, &sym)};
		f->exact = true;
	}
	return f->exact || f->nloose > 0;
}

/* The answer of a search: 1 with one function, -1 with err naming the
 * candidates when the name fits several. Frees the names kept. */
static int
find_result(struct find *f, const char *path, struct symelf_hit *hit, struct tt_err *err)
{
	size_t k = f->nloose < SYMELF_NAMES ? f->nloose : SYMELF_NAMES;
	char list[400] = "", one[160];
	int rc = f->exact || f->nloose == 1 ? 1 : f->nloose == 0 ? 0 : -1;

	if (rc == 1)
		*hit = f->hit;
	for (size_t i = 0; i < k; i++) {
		if (rc < 0) {
			char *d = demangle(f->loose[i], symname_base_len(f->loose[i]));

			str_escape(one, sizeof one, d ? d : f->loose[i], SIZE_MAX);
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
			         i ? "; " : "", one);
			free(d);
		}
		free(f->loose[i]);
	}
	if (rc < 0) {
		str_escape(one, sizeof one, f->name, SIZE_MAX);
		err_set(err, "'%s' names %zu functions in %s: %s%s (give the full name)", one,
		        f->nloose, path, list, f->nloose > k ? "; ..." : "");
	}
	return rc;
}

/* Look a symbol up by name. */
int
symelf_find(const char *path, const char *debug_root, const char *name, struct symelf_hit *hit,
            struct dso_seg **segs, size_t *nsegs, struct tt_err *err)
{
	struct find f = {.name = name};
	struct tt_err derr;
	char *dpath;
	Elf *elf, *delf;
	int fd, dfd;
	bool found;

	*segs = NULL;
	*nsegs = 0;
	if ((elf = symelf_open(path, &fd, err)) == NULL)
		return -1;
	if (load_segments(elf, segs, nsegs) != 0) {
		symelf_close(elf, fd);
		return err_set(err, "%s: corrupt or truncated ELF: %s", path, elf_errmsg(-1));
	}
	found = find_symbol(elf, SHT_SYMTAB, &f);
	if (!found && (dpath = symelf_debug_path(elf, path, debug_root)) != NULL) {
		if ((delf = symelf_open(dpath, &dfd, &derr)) != NULL) {
			found = find_symbol(delf, SHT_SYMTAB, &f);
			symelf_close(delf, dfd);
		}
		free(dpath);
	}
	if (!found)
		find_symbol(elf, SHT_DYNSYM, &f);
	symelf_close(elf, fd);
	return find_result(&f, path, hit, err);
}

/* ELF address to file offset. */
int
symelf_vaddr_to_offset(const struct dso_seg *segs, size_t nsegs, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < nsegs; i++)
		if (vaddr - segs[i].vaddr < segs[i].filesz) {
			*off = vaddr - segs[i].vaddr + segs[i].off;
			return 0;
		}
	return -1;
}

/* The symbols and segments of our vDSO (every 64-bit process maps the
 * same image), from a copy of it. */
int
symelf_load_vdso(struct symtab *st, struct dso_seg **segs, size_t *nsegs, struct tt_err *err)
{
	uint64_t size;
	const unsigned char *image = symelf_vdso(&size);
	char *copy;
	Elf *elf;
	size_t n = 0;

	*segs = NULL;
	*nsegs = 0;
	if (image == NULL)
		return err_set(err, "[vdso]: this process has no vDSO to read");
	pthread_once(&init_once, init_globals);
	copy = xmalloc(size);
	memcpy(copy, image, size);
	elf = elf_memory(copy, size);
	if (elf != NULL && load_segments(elf, segs, nsegs) == 0)
		n = load_symbols(elf, SHT_DYNSYM, st);
	if (elf != NULL)
		elf_end(elf);
	free(copy);
	if (n == 0)
		return err_set(err, "[vdso]: no symbols in its image");
	return 0;
}
