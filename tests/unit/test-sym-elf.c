/* Unit tests for src/sym-elf.c and the ELF side of src/dso.c, on binaries
 * this test builds with $TT_CC (default cc) and binutils: .symtab, .dynsym,
 * build-id and .gnu_debuglink debug files, PIE / non-PIE / shared-library
 * offset translation checked against a running process's own maps, and
 * broken files. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
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

static char dir[256];  /* canonical temporary directory */
static char root[300]; /* debug root inside it */
static const char *cc;

/* dir/name in a rotating static buffer (valid for the next three calls). */
static const char *
in_dir(const char *name)
{
	static char buf[4][PATH_MAX + 64];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return buf[i];
}

/* Run a shell command built from fmt; whether it exited 0. */
static bool __attribute__((format(printf, 1, 2))) sh(const char *fmt, ...)
{
	va_list ap;
	char *cmd;
	int rc;

	va_start(ap, fmt);
	if (vasprintf(&cmd, fmt, ap) < 0)
		abort();
	va_end(ap);
	rc = system(cmd);
	if (rc != 0)
		fprintf(stderr, "# command failed (%d): %s\n", rc, cmd);
	free(cmd);
	return rc == 0;
}

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

/* Address and size of a defined symbol per nm (-D: the dynamic table). */
static bool
nm_lookup(const char *file, bool dynamic, const char *name, uint64_t *addr, uint64_t *size)
{
	char cmd[PATH_MAX + 64], line[1024], n[512], type;
	unsigned long long a, s;
	bool found = false;
	FILE *p;

	snprintf(cmd, sizeof cmd, "nm -S --defined-only %s '%s'", dynamic ? "-D" : "", file);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof line, p) != NULL)
		if (sscanf(line, "%llx %llx %c %511s", &a, &s, &type, n) == 4 &&
		    strcmp(n, name) == 0) {
			*addr = a;
			*size = s;
			found = true;
		}
	pclose(p);
	return found;
}

/* Load a file's symbols (finished) with debug files under root. */
static int
load(const char *path, struct symtab *st, char **debug_used, struct tt_err *err)
{
	struct dso_seg *segs;
	size_t nsegs;
	int rc;

	symtab_init(st);
	rc = symelf_load(path, root, st, &segs, &nsegs, debug_used, err);
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
	assert_true(nm_lookup(file, dynamic, name, &addr, &size));
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
	const char *path = in_dir("full");
	struct dso_seg *segs;
	struct symtab st;
	struct tt_err err;
	char *dbg;
	size_t nsegs;

	symtab_init(&st);
	assert_int_equal(symelf_load(path, root, &st, &segs, &nsegs, &dbg, &err), 0);
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
	const char *path = in_dir("dyn");
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

/* (c) Stripped, with its debug file under ROOT/.build-id/. */
static void
test_build_id(void **state)
{
	char path[PATH_MAX], hex[128], got[128], dpath[PATH_MAX + 256], *dbg, *found;
	uint8_t id[20];
	struct symtab st;
	struct tt_err err;
	int len, i;

	snprintf(path, sizeof path, "%s", in_dir("bid"));
	assert_true(readelf_build_id(path, hex, sizeof hex));
	len = symelf_build_id(path, id, sizeof id);
	assert_int_equal(len, 20);
	for (i = 0; i < len; i++)
		snprintf(got + 2 * i, 3, "%02x", id[i]);
	assert_string_equal(got, hex);
	assert_int_equal(symelf_build_id(in_dir("prog.c"), id, sizeof id), -1);
	assert_int_equal(symelf_build_id(in_dir("dl"), id, sizeof id), -1); /* none */

	/* no debug file yet: stripped, no .dynsym functions */
	assert_int_equal(load(path, &st, &dbg, &err), -1);
	assert_non_null(strstr(err.msg, "no function symbols"));
	symtab_free(&st);

	snprintf(dpath, sizeof dpath, "%s/.build-id/%.2s/%s.debug", root, hex, hex + 2);
	assert_true(sh("mkdir -p '%s/.build-id/%.2s'", root, hex));
	/* a file with another build-id at that path is not used */
	assert_true(sh("cp '%s' '%s'", in_dir("pie"), dpath));
	assert_null(symelf_find_debug(path, root));
	assert_true(sh("objcopy --only-keep-debug '%s' '%s'", in_dir("bid.unstripped"), dpath));
	found = symelf_find_debug(path, root);
	assert_non_null(found);
	assert_string_equal(found, dpath);
	free(found);

	assert_int_equal(load(path, &st, &dbg, &err), 0);
	assert_non_null(dbg);
	assert_string_equal(dbg, dpath);
	free(dbg);
	check_fn(&st, in_dir("bid.unstripped"), false, "fn_local");
	check_fn(&st, in_dir("bid.unstripped"), false, "fn_beta");
	symtab_free(&st);
}

/* The debuglink test: expect symbols from debug file want (NULL: none). */
static void
check_debuglink(const char *want)
{
	struct symtab st;
	struct tt_err err;
	char *dbg;
	int rc = load(in_dir("dl"), &st, &dbg, &err);

	if (want == NULL) {
		assert_int_equal(rc, -1);
		assert_null(dbg);
	} else {
		assert_int_equal(rc, 0);
		assert_non_null(dbg);
		assert_string_equal(dbg, want);
		free(dbg);
		check_fn(&st, in_dir("dl.unstripped"), false, "fn_local");
	}
	symtab_free(&st);
}

/* (d) .gnu_debuglink: next to the file, in .debug/, under ROOT/DIR/; a
 * file with the right name but the wrong CRC is refused. */
static void
test_debuglink(void **state)
{
	char under_root[sizeof root + sizeof dir + 16];

	snprintf(under_root, sizeof under_root, "%s%s/dl.debug", root, dir);
	check_debuglink(in_dir("dl.debug"));
	assert_true(
	    sh("mkdir -p '%s/.debug' && mv '%s' '%s/.debug/'", dir, in_dir("dl.debug"), dir));
	check_debuglink(in_dir(".debug/dl.debug"));
	assert_true(sh("mkdir -p '%s%s' && mv '%s' '%s'", root, dir, in_dir(".debug/dl.debug"),
	               under_root));
	check_debuglink(under_root);
	/* same name, other contents: the CRC does not match */
	assert_true(sh("cp '%s' '%s'", in_dir("full"), in_dir("dl.debug")));
	assert_true(sh("rm '%s'", under_root));
	check_debuglink(NULL);
	assert_null(symelf_find_debug(in_dir("dl"), root));
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

	check_mapped(in_dir("pie"), in_dir("pie"), "fn_local");
	check_mapped(in_dir("nopie"), in_dir("nopie"), "fn_local");
	check_mapped(in_dir("libuser"), in_dir("libt.so"), "lib_inner");
	/* an offset outside every segment comes back unchanged */
	d = dso_get(in_dir("libt.so"), 0, 1);
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
	char *buf = slurp(in_dir("full"), &len);
	struct dso *d;

	write_file(in_dir("text"), "hello, this is not an ELF file\n", 31);
	expect_fail(in_dir("text"), "not an ELF file");
	write_file(in_dir("trunc"), buf, 100);
	expect_fail(in_dir("trunc"), NULL);
	write_file(in_dir("empty"), "", 0);
	expect_fail(in_dir("empty"), NULL);
	expect_fail(dir, "not a regular file");
	assert_true(sh("mkfifo '%s'", in_dir("fifo")));
	expect_fail(in_dir("fifo"), "not a regular file");
	expect_fail(in_dir("missing"), "cannot open");
	assert_null(symelf_find_debug(in_dir("trunc"), root));
	d = dso_get(in_dir("text"), 0, 0);
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

	write_file(in_dir("mutant"), buf, len);
	if (load(in_dir("mutant"), &st, &dbg, &err) == 0)
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
	char *orig = slurp(in_dir("full"), &len), *buf = xmalloc(len);
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

	snprintf(src, sizeof src, "%s/prog.c", dir);
	write_file(src, prog_src, sizeof prog_src - 1);
	write_file(in_dir("lib.c"), lib_src, sizeof lib_src - 1);
	write_file(in_dir("libuser.c"), libuser_src, sizeof libuser_src - 1);
	return sh("%s -g -O1 -Wl,--build-id -o '%s' '%s'", cc, in_dir("full"), src) &&
	       sh("%s -O1 -rdynamic -o '%s' '%s' && strip --strip-all '%s'", cc, in_dir("dyn"), src,
	          in_dir("dyn")) &&
	       sh("%s -g -O1 -Wl,--build-id=sha1 -o '%s' '%s' && cp '%s' '%s' && strip --strip-all "
	          "'%s'",
	          cc, in_dir("bid.unstripped"), src, in_dir("bid.unstripped"), in_dir("bid"),
	          in_dir("bid")) &&
	       sh("cd '%s' && %s -g -O1 -Wl,--build-id=none -o dl.unstripped prog.c && "
	          "objcopy --only-keep-debug dl.unstripped dl.debug && "
	          "strip --strip-all -o dl dl.unstripped && objcopy --add-gnu-debuglink=dl.debug "
	          "dl",
	          dir, cc) &&
	       sh("%s -O1 -fPIE -pie -o '%s' '%s'", cc, in_dir("pie"), src) &&
	       sh("%s -O1 -fno-pie -no-pie -o '%s' '%s'", cc, in_dir("nopie"), src) &&
	       sh("cd '%s' && %s -O1 -shared -fPIC -o libt.so lib.c && "
	          "%s -O1 -o libuser libuser.c -L. -lt -Wl,-rpath,'%s'",
	          dir, cc, cc, dir);
}

/* Make the directory tree and the binaries. */
static int
setup(void **state)
{
	char tmpl[] = "/tmp/tt-symelf-XXXXXX", real[PATH_MAX];

	if (mkdtemp(tmpl) == NULL || realpath(tmpl, real) == NULL || strlen(real) >= sizeof dir)
		return -1;
	strcpy(dir, real);
	snprintf(root, sizeof root, "%s/debugroot", dir);
	if (mkdir(root, 0700) != 0)
		return -1;
	dso_set_debug_root(root);
	return build_all() ? 0 : -1;
}

/* Remove the directory tree. */
static int
teardown(void **state)
{
	dso_cache_free();
	return sh("rm -rf '%s'", dir) ? 0 : -1;
}

/* Whether the tools this test needs are there (else the binary is skipped). */
static const char *
missing_tool(void)
{
	static char what[64];
	const char *tools[] = {"nm", "strip", "objcopy", "readelf"};
	size_t i;

	if (!sh("echo 'int main(void){return 0;}' | %s -x c -o /dev/null - 2>/dev/null", cc)) {
		snprintf(what, sizeof what, "no working C compiler (%s)", cc);
		return what;
	}
	for (i = 0; i < ARRAY_SIZE(tools); i++)
		if (!sh("command -v %s >/dev/null 2>&1", tools[i])) {
			snprintf(what, sizeof what, "%s (binutils) not found", tools[i]);
			return what;
		}
	return NULL;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_symtab_section), cmocka_unit_test(test_dynsym),
	    cmocka_unit_test(test_build_id),       cmocka_unit_test(test_debuglink),
	    cmocka_unit_test(test_offsets),        cmocka_unit_test(test_bad_files),
	    cmocka_unit_test(test_corrupt),
	};
	const char *why;

	cc = getenv("TT_CC");
	if (cc == NULL || cc[0] == '\0')
		cc = "cc";
	if ((why = missing_tool()) != NULL) {
		printf("1..0 # SKIP %s\n", why);
		return 0;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
