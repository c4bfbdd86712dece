/* Unit tests for src/sym-elf.c and the ELF side of src/dso.c, on binaries
 * this test builds with $TT_CC (default cc) and binutils: .symtab, .dynsym,
 * build-id and .gnu_debuglink debug files, PIE / non-PIE / shared-library
 * offset translation checked against a running process's own maps, and
 * broken files. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "buildtest.h"

#include "tracetop/dso.h"
#include "tracetop/sym-elf.h"
#include "tracetop/symtab.h"
#include "tracetop/util.h"

static const char prog_src[] =
    "#include <stdio.h>\n"
    "#include <string.h>\n"
    "#define NOINLINE __attribute__((noinline, used))\n"
    "volatile int sink;\n"
    "NOINLINE static int fn_local(int x)\n"
    "{ for (int i = 0; i < x; i++) sink += i * 3; return sink; }\n"
    "NOINLINE int fn_alpha(int x) { sink += x; return sink + 1; }\n"
    "NOINLINE int fn_beta(int x)\n"
    "{ int s = 0; for (int i = 0; i < x; i++) { s += i * i; sink = s;\n"
    "  if (s & 1) sink ^= 7; else sink += 5; } return s * x; }\n"
    "NOINLINE int fn_exported(int x) { return fn_alpha(x) * 2 + fn_local(x); }\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "	char line[4096];\n"
    "	FILE *f;\n"
    "	if (argc > 1 && strcmp(argv[1], \"maps\") == 0) {\n"
    "		printf(\"addr %p\\n\", (void *)fn_local);\n"
    "		f = fopen(\"/proc/self/maps\", \"r\");\n"
    "		while (f && fgets(line, sizeof line, f)) fputs(line, stdout);\n"
    "		return 0;\n"
    "	}\n"
    "	/* puts' address taken: a .plt.got entry when bound at load time */\n"
    "	int (*volatile say)(const char *) = puts;\n"
    "	if (argc > 2) say(argv[2]);\n"
    "	return fn_exported(argc) + fn_beta(argc) > 0 ? 0 : 1;\n"
    "}\n";

static const char lib_src[] =
    "#define NOINLINE __attribute__((noinline, used))\n"
    "volatile int lib_sink;\n"
    "NOINLINE static int lib_inner(int x)\n"
    "{ for (int i = 0; i < x; i++) lib_sink += i ^ x; return lib_sink; }\n"
    "NOINLINE int lib_exported(int x) { return lib_inner(x) + 1; }\n"
    "void *lib_inner_addr(void) { return (void *)lib_inner; }\n";

static const char libuser_src[] =
    "#include <stdio.h>\n"
    "void *lib_inner_addr(void);\n"
    "int main(void)\n"
    "{\n"
    "	char line[4096];\n"
    "	FILE *f = fopen(\"/proc/self/maps\", \"r\");\n"
    "	printf(\"addr %p\\n\", lib_inner_addr());\n"
    "	while (f && fgets(line, sizeof line, f)) fputs(line, stdout);\n"
    "	return 0;\n"
    "}\n";

/* Write a whole file. */
static void
write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		abort();
}

/* Read a whole file into a malloc'd buffer. */
static char *
slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	char *buf;

	assert_true(fd >= 0);
	assert_int_equal(symtab_read_fd(fd, 64 << 20, &buf, len), 0);
	close(fd);
	return buf;
}

/* The symbol called name in a table, or NULL. */
static const struct sym *
by_name(const struct symtab *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (strcmp(st->syms[i].name, name) == 0)
			return &st->syms[i];
	return NULL;
}

/* Load a file's symbols (finished) with debug files under bt_root. */
static int
load(const char *path, struct symtab *st, char **debug_used, struct tt_err *err)
{
	struct dso_seg *segs;
	size_t nsegs;
	int rc;

	symtab_init(st);
	rc = symelf_load(path, bt_root, st, &segs, &nsegs, debug_used, err);
	free(segs);
	if (rc == 0)
		symtab_finish(st, 4096);
	return rc;
}

/* The function must be in st where nm says, and lookups must agree. */
static void
check_fn(const struct symtab *st, const char *file, bool dynamic, const char *name)
{
	const struct sym *s = by_name(st, name), *after;
	uint64_t addr, size;

	assert_non_null(s);
	assert_true(bt_nm(file, dynamic, name, &addr, &size));
	assert_int_equal(s->start, addr);
	assert_int_equal(s->size, size);
	assert_true(s->size > 0);
	assert_ptr_equal(symtab_lookup(st, s->start), s);
	assert_ptr_equal(symtab_lookup(st, s->start + 1), s);
	assert_ptr_equal(symtab_lookup(st, s->start + s->size - 1), s);
	after = symtab_lookup(st, s->start + s->size);
	assert_true(after == NULL || strcmp(after->name, name) != 0);
}

/* (a) An unstripped binary: .symtab, local functions included. */
static void
test_symtab_section(void **state)
{
	const char *path = bt_path("full");
	struct dso_seg *segs;
	struct symtab st;
	struct tt_err err;
	char *dbg;
	size_t nsegs;

	symtab_init(&st);
	assert_int_equal(symelf_load(path, bt_root, &st, &segs, &nsegs, &dbg, &err), 0);
	assert_null(dbg);
	assert_true(nsegs >= 2);
	assert_int_equal(segs[0].off, 0);
	free(segs);
	symtab_finish(&st, 4096);
	check_fn(&st, path, false, "fn_alpha");
	check_fn(&st, path, false, "fn_beta");
	check_fn(&st, path, false, "fn_local");
	check_fn(&st, path, false, "fn_exported");
	check_fn(&st, path, false, "main");
	assert_true(by_name(&st, "fn_alpha")->size != by_name(&st, "fn_beta")->size);
	assert_null(by_name(&st, "sink"));   /* data, not a function */
	assert_null(by_name(&st, "printf")); /* undefined */
	symtab_free(&st);
}

/* (b) Stripped with -rdynamic: only .dynsym, so no static functions. */
static void
test_dynsym(void **state)
{
	const char *path = bt_path("dyn");
	struct symtab st;
	struct tt_err err;
	char *dbg;

	assert_int_equal(load(path, &st, &dbg, &err), 0);
	assert_null(dbg);
	check_fn(&st, path, true, "fn_alpha");
	check_fn(&st, path, true, "fn_exported");
	assert_null(by_name(&st, "fn_local"));
	symtab_free(&st);
}

/* The build-id of a file as readelf prints it, in hex. */
static bool
readelf_build_id(const char *file, char *hex, size_t len)
{
	char cmd[PATH_MAX + 32], line[512], *p;
	bool found = false;
	FILE *f;

	snprintf(cmd, sizeof cmd, "readelf -n '%s'", file);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f) != NULL)
		if ((p = strstr(line, "Build ID: ")) != NULL) {
			snprintf(hex, len, "%s", p + 10);
			hex[strcspn(hex, " \n")] = '\0';
			found = true;
		}
	pclose(f);
	return found;
}

/* A stripped file without a debug file: the PLT stubs are its only names. */
static void
assert_only_plt(const struct symtab *st)
{
	assert_true(st->n > 0);
	for (size_t i = 0; i < st->n; i++)
		assert_non_null(strstr(st->syms[i].name, "@plt"));
}

/* (c) Stripped, with its debug file under ROOT/.build-id/. */
static void
test_build_id(void **state)
{
	char path[PATH_MAX], hex[128], got[128], dpath[PATH_MAX + 256], *dbg, *found;
	uint8_t id[20];
	struct symtab st;
	struct tt_err err;
	int len, i;

	snprintf(path, sizeof path, "%s", bt_path("bid"));
	assert_true(readelf_build_id(path, hex, sizeof hex));
	len = symelf_build_id(path, id, sizeof id);
	assert_int_equal(len, 20);
	for (i = 0; i < len; i++)
		snprintf(got + 2 * i, 3, "%02x", id[i]);
	assert_string_equal(got, hex);
	assert_int_equal(symelf_build_id(bt_path("prog.c"), id, sizeof id), -1);
	assert_int_equal(symelf_build_id(bt_path("dl"), id, sizeof id), -1); /* none */

	/* no debug file yet: stripped, no .dynsym functions: only the PLT's */
	assert_int_equal(load(path, &st, &dbg, &err), 0);
	assert_null(dbg);
	assert_only_plt(&st);
	symtab_free(&st);

	snprintf(dpath, sizeof dpath, "%s/.build-id/%.2s/%s.debug", bt_root, hex, hex + 2);
	assert_true(bt_sh("mkdir -p '%s/.build-id/%.2s'", bt_root, hex));
	/* a file with another build-id at that path is not used */
	assert_true(bt_sh("cp '%s' '%s'", bt_path("pie"), dpath));
	assert_null(symelf_find_debug(path, bt_root));
	assert_true(bt_sh("objcopy --only-keep-debug '%s' '%s'", bt_path("bid.unstripped"), dpath));
	found = symelf_find_debug(path, bt_root);
	assert_non_null(found);
	assert_string_equal(found, dpath);
	free(found);

	assert_int_equal(load(path, &st, &dbg, &err), 0);
	assert_non_null(dbg);
	assert_string_equal(dbg, dpath);
	free(dbg);
	check_fn(&st, bt_path("bid.unstripped"), false, "fn_local");
	check_fn(&st, bt_path("bid.unstripped"), false, "fn_beta");
	symtab_free(&st);
}

/* The debuglink test: expect symbols from debug file want (NULL: none, but
 * the PLT's). */
static void
check_debuglink(const char *want)
{
	struct symtab st;
	struct tt_err err;
	char *dbg;
	int rc = load(bt_path("dl"), &st, &dbg, &err);

	if (want == NULL) {
		assert_int_equal(rc, 0);
		assert_null(dbg);
		assert_only_plt(&st);
	} else {
		assert_int_equal(rc, 0);
		assert_non_null(dbg);
		assert_string_equal(dbg, want);
		free(dbg);
		check_fn(&st, bt_path("dl.unstripped"), false, "fn_local");
	}
	symtab_free(&st);
}

/* (d) .gnu_debuglink: next to the file, in .debug/, under ROOT/DIR/; a
 * file with the right name but the wrong CRC is refused. */
static void
test_debuglink(void **state)
{
	char under_root[sizeof bt_root + sizeof bt_dir + 16];

	snprintf(under_root, sizeof under_root, "%s%s/dl.debug", bt_root, bt_dir);
	check_debuglink(bt_path("dl.debug"));
	assert_true(bt_sh("mkdir -p '%s/.debug' && mv '%s' '%s/.debug/'", bt_dir,
	                  bt_path("dl.debug"), bt_dir));
	check_debuglink(bt_path(".debug/dl.debug"));
	assert_true(bt_sh("mkdir -p '%s%s' && mv '%s' '%s'", bt_root, bt_dir,
	                  bt_path(".debug/dl.debug"), under_root));
	check_debuglink(under_root);
	/* same name, other contents: the CRC does not match */
	assert_true(bt_sh("cp '%s' '%s'", bt_path("full"), bt_path("dl.debug")));
	assert_true(bt_sh("rm '%s'", under_root));
	check_debuglink(NULL);
	assert_null(symelf_find_debug(bt_path("dl"), bt_root));
}

/* Run a program printing "addr %p" and its maps; translate that address to
 * a file offset as the profiler would and check the DSO resolves it. */
static void
check_mapped(const char *prog, const char *object, const char *fn)
{
	char cmd[PATH_MAX + 16], line[PATH_MAX + 256], path[PATH_MAX];
	unsigned long long addr = 0, start, end, pgoff, ino;
	unsigned maj, min;
	bool seen = false;
	const struct sym *s;
	struct dso *d;
	uint64_t off, vaddr;
	FILE *p;

	snprintf(cmd, sizeof cmd, "'%s' maps", prog);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof line, p) != NULL) {
		if (sscanf(line, "addr %llx", &addr) == 1)
			continue;
		if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu %4095s", &start, &end, &pgoff, &maj,
		           &min, &ino, path) != 7 ||
		    addr < start || addr >= end)
			continue;
		assert_string_equal(path, object);
		off = addr - start + pgoff;
		d = dso_get(path, makedev(maj, min), (ino_t)ino);
		assert_int_equal(d->kind, DSO_ELF);
		vaddr = dso_offset_to_addr(d, off);
		assert_true(d->loaded);
		assert_null(d->load_error);
		s = dso_find_sym(d, vaddr);
		assert_non_null(s);
		assert_string_equal(s->name, fn);
		assert_int_equal(s->start, vaddr);
		s = dso_find_sym(d, dso_offset_to_addr(d, off + 2));
		assert_non_null(s);
		assert_string_equal(s->name, fn);
		seen = true;
	}
	assert_int_equal(pclose(p), 0);
	assert_true(addr != 0);
	assert_true(seen);
}

/* (e) PIE, non-PIE and a shared library: offsets from real mappings map to
 * the right functions. */
static void
test_offsets(void **state)
{
	struct dso *d;

	check_mapped(bt_path("pie"), bt_path("pie"), "fn_local");
	check_mapped(bt_path("nopie"), bt_path("nopie"), "fn_local");
	check_mapped(bt_path("libuser"), bt_path("libt.so"), "lib_inner");
	/* an offset outside every segment comes back unchanged */
	d = dso_get(bt_path("libt.so"), 0, 1);
	assert_int_equal(dso_offset_to_addr(d, 0x7fffffff), 0x7fffffff);
	/* segments and symbols are loaded once */
	assert_true(d->has_syms);
	assert_true(d->nsegs >= 2);
	dso_cache_free();
}

/* Expect a clean failure on path with a message containing want (or any). */
static void
expect_fail(const char *path, const char *want)
{
	struct symtab st;
	struct tt_err err;
	char *dbg;

	err.msg[0] = '\0';
	assert_int_equal(load(path, &st, &dbg, &err), -1);
	assert_null(dbg);
	assert_true(err.msg[0] != '\0');
	if (want != NULL && strstr(err.msg, want) == NULL)
		fail_msg("\"%s\" lacks \"%s\"", err.msg, want);
	symtab_free(&st);
}

/* (f) Not ELF, truncated, empty, a directory, a FIFO: errors, no crash. */
static void
test_bad_files(void **state)
{
	size_t len;
	char *buf = slurp(bt_path("full"), &len);
	struct dso *d;

	write_file(bt_path("text"), "hello, this is not an ELF file\n", 31);
	expect_fail(bt_path("text"), "not an ELF file");
	write_file(bt_path("trunc"), buf, 100);
	expect_fail(bt_path("trunc"), NULL);
	write_file(bt_path("empty"), "", 0);
	expect_fail(bt_path("empty"), NULL);
	expect_fail(bt_dir, "not a regular file");
	assert_true(bt_sh("mkfifo '%s'", bt_path("fifo")));
	expect_fail(bt_path("fifo"), "not a regular file");
	expect_fail(bt_path("missing"), "cannot open");
	assert_null(symelf_find_debug(bt_path("trunc"), bt_root));
	d = dso_get(bt_path("text"), 0, 0);
	assert_null(dso_find_sym(d, 0x1000));
	assert_non_null(strstr(d->load_error, "not an ELF"));
	dso_cache_free();
	free(buf);
}

/* Load a mutated copy of an ELF file; must not crash (result irrelevant,
 * but names must be NUL-terminated strings). */
static void
load_mutant(const char *buf, size_t len)
{
	struct symtab st;
	struct tt_err err;
	char *dbg;
	size_t i;

	write_file(bt_path("mutant"), buf, len);
	if (load(bt_path("mutant"), &st, &dbg, &err) == 0)
		for (i = 0; i < st.n; i++)
			assert_true(strlen(st.syms[i].name) < len);
	free(dbg);
	symtab_free(&st);
}

/* Headers pointing outside the file, bad sh_link, random bytes flipped. */
static void
test_corrupt(void **state)
{
	size_t len, i, k;
	char *orig = slurp(bt_path("full"), &len), *buf = xmalloc(len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	Elf64_Shdr *sh;
	unsigned seed = 12345;

	assert_true(len > 4096);
	assert_int_equal(((Elf64_Ehdr *)orig)->e_ident[EI_CLASS], ELFCLASS64);
	memcpy(buf, orig, len);
	eh->e_shoff = UINT64_MAX - 100;
	load_mutant(buf, len);
	memcpy(buf, orig, len);
	eh->e_shnum = 0xffff;
	eh->e_phnum = 0xfffe;
	load_mutant(buf, len);
	memcpy(buf, orig, len);
	eh->e_phoff = len - 8;
	load_mutant(buf, len);
	/* every section header's link, offset and size in turn */
	assert_true(eh->e_shoff + (uint64_t)eh->e_shnum * sizeof *sh <= len);
	for (i = 0; i < eh->e_shnum; i++) {
		for (k = 0; k < 3; k++) {
			memcpy(buf, orig, len);
			sh = (Elf64_Shdr *)(buf + eh->e_shoff) + i;
			if (k == 0)
				sh->sh_link = 9999;
			else if (k == 1)
				sh->sh_offset = len - 4;
			else
				sh->sh_size = UINT64_MAX / 2;
			load_mutant(buf, len);
		}
	}
	/* random flips, mostly in the headers at both ends */
	for (i = 0; i < 150; i++) {
		memcpy(buf, orig, len);
		for (k = 0; k < 8; k++) {
			size_t pos = (size_t)rand_r(&seed) % 512;

			if (k & 1)
				pos = len - 1 - (size_t)rand_r(&seed) % 2048;
			buf[pos] = (char)rand_r(&seed);
		}
		load_mutant(buf, len);
	}
	free(buf);
	free(orig);
}

/* Write the sources and build every variant; false if that is impossible. */
static bool
build_all(void)
{
	char src[PATH_MAX + 16];

	snprintf(src, sizeof src, "%s/prog.c", bt_dir);
	write_file(src, prog_src, sizeof prog_src - 1);
	write_file(bt_path("lib.c"), lib_src, sizeof lib_src - 1);
	write_file(bt_path("libuser.c"), libuser_src, sizeof libuser_src - 1);
	return bt_sh("%s -g -O1 -Wl,--build-id -o '%s' '%s'", bt_cc, bt_path("full"), src) &&
	       bt_sh("%s -O1 -rdynamic -o '%s' '%s' && strip --strip-all '%s'", bt_cc,
	             bt_path("dyn"), src, bt_path("dyn")) &&
	       bt_sh("%s -g -O1 -Wl,--build-id=sha1 -o '%s' '%s' && cp '%s' '%s' && strip "
	             "--strip-all "
	             "'%s'",
	             bt_cc, bt_path("bid.unstripped"), src, bt_path("bid.unstripped"),
	             bt_path("bid"), bt_path("bid")) &&
	       bt_sh(
	           "cd '%s' && %s -g -O1 -Wl,--build-id=none -o dl.unstripped prog.c && "
	           "objcopy --only-keep-debug dl.unstripped dl.debug && "
	           "strip --strip-all -o dl dl.unstripped && objcopy --add-gnu-debuglink=dl.debug "
	           "dl",
	           bt_dir, bt_cc) &&
	       bt_sh("%s -O1 -fPIE -pie -o '%s' '%s'", bt_cc, bt_path("pie"), src) &&
	       bt_sh("%s -O1 -fcf-protection=full -Wl,-z,ibtplt -Wl,-z,now -o '%s' '%s'", bt_cc,
	             bt_path("ibt"), src) &&
	       bt_sh("%s -O1 -fno-pie -no-pie -o '%s' '%s'", bt_cc, bt_path("nopie"), src) &&
	       bt_sh("cd '%s' && %s -O1 -shared -fPIC -o libt.so lib.c && "
	             "%s -O1 -o libuser libuser.c -L. -lt -Wl,-rpath,'%s'",
	             bt_dir, bt_cc, bt_cc, bt_dir);
}

/* The PLT stubs of path as objdump labels them ("ADDR name@plt" lines,
 * sorted) into buf; how many. */
static size_t
objdump_plt(const char *path, char *buf, size_t len)
{
	char cmd[PATH_MAX + 96], line[512];
	size_t n = 0, used = 0;
	FILE *f;

	snprintf(
	    cmd, sizeof cmd,
	    "objdump -d '%s' | sed -n 's/^0*\\([0-9a-f]*\\) <\\(.*@plt\\)>:$/\\1 \\2/p' | sort",
	    path);
	f = popen(cmd, "r");
	assert_non_null(f);
	buf[0] = '\0';
	while (fgets(line, sizeof line, f) != NULL && used + strlen(line) < len) {
		used += (size_t)snprintf(buf + used, len - used, "%s", line);
		n++;
	}
	pclose(f);
	return n;
}

/* The same lines from our symbol table. */
static size_t
our_plt(const struct symtab *st, char *buf, size_t len)
{
	char cmd[64];
	size_t n = 0;
	FILE *f;

	snprintf(cmd, sizeof cmd, "sort > '%s'", bt_path("plt.txt"));
	f = popen(cmd, "w");
	assert_non_null(f);
	for (size_t i = 0; i < st->n; i++)
		if (strstr(st->syms[i].name, "@plt") != NULL) {
			fprintf(f, "%" PRIx64 " %s\n", st->syms[i].start, st->syms[i].name);
			n++;
		}
	assert_int_equal(pclose(f), 0);
	f = fopen(bt_path("plt.txt"), "r");
	assert_non_null(f);
	buf[fread(buf, 1, len - 1, f)] = '\0';
	fclose(f);
	return n;
}

/* PLT stubs are named as objdump names them (lazy .plt, IBT's .plt.sec,
 * .plt.got for an address-taken function), and a sample in one is never
 * given to _init. */
static void
test_plt(void **state)
{
	static const char *const names[] = {"full", "nopie", "ibt", "libuser"};
	static char ours[16384], theirs[16384];

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		const char *path = bt_path(names[k]);
		struct symtab st;
		struct tt_err err;
		const struct sym *s;
		char *dbg;
		size_t n;

		assert_int_equal(load(path, &st, &dbg, &err), 0);
		free(dbg);
		n = our_plt(&st, ours, sizeof ours);
		assert_true(n > 0);
		assert_int_equal(objdump_plt(path, theirs, sizeof theirs), n);
		assert_string_equal(ours, theirs);
		for (size_t i = 0; i < st.n; i++)
			if (strstr(st.syms[i].name, "@plt") != NULL) {
				s = symtab_lookup(&st, st.syms[i].start + 4);
				assert_non_null(s);
				assert_string_equal(s->name, st.syms[i].name);
			}
		symtab_free(&st);
	}
}

/* Make the directory tree and the binaries. */
static int
setup(void **state)
{

	if (bt_mkdirs("tt-symelf") != 0)
		return -1;
	return build_all() ? 0 : -1;
}

/* Remove the directory tree. */
static int
teardown(void **state)
{
	dso_cache_free();
	return bt_sh("rm -rf '%s'", bt_dir) ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_symtab_section), cmocka_unit_test(test_dynsym),
	    cmocka_unit_test(test_build_id),       cmocka_unit_test(test_debuglink),
	    cmocka_unit_test(test_offsets),        cmocka_unit_test(test_bad_files),
	    cmocka_unit_test(test_corrupt),        cmocka_unit_test(test_plt),
	};
	static const char *const tools[] = {"nm", "strip", "objcopy", "readelf", "objdump"};
	const char *why;

	if ((why = bt_missing(tools, ARRAY_SIZE(tools))) != NULL) {
		printf("1..0 # SKIP %s\n", why);
		return 0;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
