/* Unit tests for src/symtab.c, src/sym-kernel.c, src/sym-jit.c and the
 * non-ELF parts of src/dso.c: table edge cases, kallsyms fixtures and the
 * real /proc/kallsyms, perf-map parsing and its ownership rule, the DSO
 * cache. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tracetop/dso.h"
#include "tracetop/sym-jit.h"
#include "tracetop/sym-kernel.h"
#include "tracetop/symtab-pack.h"
#include "tracetop/symtab.h"
#include "tracetop/util.h"

static char tmpdir[] = "/tmp/tt-symtab-XXXXXX";

/* A path inside the test's temporary directory (static buffer). */
static const char *
tmp_path(const char *name)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", tmpdir, name);
	return buf[i];
}

/* Write text to a file in the temporary directory; its path. */
static const char *
write_tmp(const char *name, const char *text)
{
	const char *path = tmp_path(name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* Name of the symbol at addr, or NULL. */
static const char *
name_at(const struct symtab *st, uint64_t addr)
{
	const struct sym *s = symtab_lookup(st, addr);

	return s != NULL ? s->name : NULL;
}

/* Below the first symbol, inside, at the end, past the end, capped gaps. */
static void
test_symtab_lookup_edges(void **state)
{
	struct symtab st;

	symtab_init(&st);
	assert_null(symtab_lookup(&st, 0x1000)); /* empty table */
	symtab_add(&st, 0x3000, 0, "gap_to_far", NULL);
	symtab_add(&st, 0x1000, 0x10, "first", NULL);
	symtab_add(&st, 0x2000, 0, "zero", NULL);
	symtab_add(&st, 0x2040, 0x20, "sized", NULL);
	symtab_add(&st, 0x100000, 0, "last", NULL);
	symtab_finish(&st, 0x100);
	assert_int_equal(st.n, 5);
	assert_null(name_at(&st, 0));
	assert_null(name_at(&st, 0xfff));
	assert_string_equal(name_at(&st, 0x1000), "first");
	assert_string_equal(name_at(&st, 0x100f), "first");
	assert_null(name_at(&st, 0x1010)); /* past a sized symbol's end */
	/* a zero-sized symbol reaches the next one... */
	assert_string_equal(name_at(&st, 0x203f), "zero");
	assert_string_equal(name_at(&st, 0x2040), "sized");
	assert_null(name_at(&st, 0x2060));
	/* ...but no further than max_gap */
	assert_string_equal(name_at(&st, 0x30ff), "gap_to_far");
	assert_null(name_at(&st, 0x3100));
	/* the last zero-sized symbol gets max_gap */
	assert_string_equal(name_at(&st, 0x1000ff), "last");
	assert_null(name_at(&st, 0x100100));
	assert_null(name_at(&st, UINT64_MAX));
	symtab_free(&st);
}

/* One symbol per start: sized beats zero-sized, "malloc" beats "__libc_malloc". */
static void
test_symtab_duplicates(void **state)
{
	struct symtab st;

	symtab_init(&st);
	symtab_add(&st, 0x500, 0, "label", NULL);
	symtab_add(&st, 0x500, 0x40, "sized", NULL);
	symtab_add(&st, 0x500, 0, "label2", NULL);
	symtab_add(&st, 0x600, 0x10, "__libc_malloc", NULL);
	symtab_add(&st, 0x600, 0x10, "malloc", NULL);
	symtab_add(&st, 0x600, 0x10, "__GI___libc_malloc", NULL);
	symtab_add(&st, 0x700, 0x10, "__memcpy_avx_unaligned_erms", NULL);
	symtab_add(&st, 0x700, 0x10, "__memmove_avx_unaligned_erms", NULL);
	symtab_finish(&st, 4096);
	assert_int_equal(st.n, 3);
	assert_string_equal(name_at(&st, 0x705), "__memmove_avx_unaligned_erms"); /* as perf */
	assert_string_equal(name_at(&st, 0x520), "sized");
	assert_int_equal(symtab_lookup(&st, 0x520)->size, 0x40);
	assert_string_equal(name_at(&st, 0x605), "malloc");
	symtab_free(&st);
}

/* Nested sized symbols: the innermost covering one wins, never a wrong one. */
static void
test_symtab_nested(void **state)
{
	struct symtab st;

	symtab_init(&st);
	symtab_add(&st, 0x1000, 0x100, "outer", NULL);
	symtab_add(&st, 0x1010, 0x10, "inner", NULL);
	symtab_add(&st, 0x2000, 0x10, "after", NULL);
	symtab_finish(&st, 4096);
	assert_string_equal(name_at(&st, 0x1015), "inner");
	assert_string_equal(name_at(&st, 0x1050), "outer");
	assert_string_equal(name_at(&st, 0x1005), "outer");
	assert_null(name_at(&st, 0x1100));
	symtab_free(&st);
}

/* Many symbols, a huge name and module sharing: strings survive block growth. */
static void
test_symtab_many(void **state)
{
	struct symtab st;
	char name[32], *big = xmalloc(40000);
	const struct sym *s;
	uint64_t i;

	memset(big, 'x', 39999);
	big[39999] = '\0';
	symtab_init(&st);
	for (i = 0; i < 100000; i++) {
		snprintf(name, sizeof name, "f%llu", (unsigned long long)i);
		symtab_add(&st, 0x10000 + (99999 - i) * 16, 8, name, i % 2 ? "mod" : NULL);
		if (i == 500)
			symtab_add(&st, 0x1000, 4, big, NULL);
	}
	symtab_add_n(&st, 0x2000, 4, "prefix-only", 6, NULL);
	symtab_finish(&st, 4096);
	assert_int_equal(st.n, 100002);
	assert_true(st.nblocks > 1);
	for (i = 0; i < 100000; i += 997) {
		s = symtab_lookup(&st, 0x10000 + (99999 - i) * 16 + 7);
		snprintf(name, sizeof name, "f%llu", (unsigned long long)i);
		assert_non_null(s);
		assert_string_equal(s->name, name);
		if (i % 2)
			assert_string_equal(s->module, "mod");
		else
			assert_null(s->module);
		assert_null(symtab_lookup(&st, 0x10000 + (99999 - i) * 16 + 8));
	}
	assert_string_equal(name_at(&st, 0x1002), big);
	assert_string_equal(name_at(&st, 0x2000), "prefix");
	symtab_free(&st);
	free(big);
}

/* The symbol holding addr by a walk of every symbol: what the indexed
 * lookup must agree with (the last one starting at or before addr, if it
 * holds addr, else one of the few before it that does). */
static const struct sym *
walk_lookup(const struct symtab *st, uint64_t addr)
{
	size_t i = st->n;

	while (i > 0 && st->syms[i - 1].start > addr)
		i--;
	for (size_t k = 0; k < 4 && i > 0; k++, i--)
		if (addr - st->syms[i - 1].start < st->syms[i - 1].size)
			return &st->syms[i - 1];
	return NULL;
}

/* A big table's index: symbols bunched in two regions far apart (a
 * kernel's text and its modules), sizes and gaps of every kind, one
 * symbol nested in another; every lookup, inside, between, before and
 * after, agrees with a walk, also after symbols are added and the table
 * is finished again. */
static void
test_symtab_index(void **state)
{
	struct symtab st;
	char name[32];
	uint64_t seed = 12345, a;

	(void)state;
	symtab_init(&st);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 3000; i++) {
			uint64_t base = i % 3 == 0 ? 0xffffffffc0000000ULL : 0xffffffff81000000ULL;

			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			snprintf(name, sizeof name, "s%d_%d", round, i);
			symtab_add(&st, base + (seed >> 40) % 0x400000, (seed >> 20) % 300, name,
			           NULL);
		}
		symtab_finish(&st, 4096);
		assert_non_null(st.index);
		assert_true(st.nindex <= st.n / 8 + 1);
		for (int i = 0; i < 20000; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			a = i % 2 ? st.syms[(seed >> 33) % st.n].start + (seed >> 20) % 400
			          : 0xffffffff80f00000ULL + (seed >> 30) % 0x3f500000ULL;
			assert_ptr_equal(symtab_lookup(&st, a), walk_lookup(&st, a));
		}
		assert_null(symtab_lookup(&st, 0x1000));
		assert_ptr_equal(symtab_lookup(&st, UINT64_MAX), walk_lookup(&st, UINT64_MAX));
	}
	symtab_free(&st);
	assert_null(st.index);
}

/* symtab_read_fd reads a file whole and refuses one past the limit. */
static void
test_symtab_read_fd(void **state)
{
	const char *path = write_tmp("read-fd", "0123456789");
	size_t len;
	char *buf;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(symtab_read_fd(fd, 100, &buf, &len), 0);
	assert_int_equal(len, 10);
	assert_string_equal(buf, "0123456789");
	free(buf);
	close(fd);
	fd = open("/proc/self/status", O_RDONLY); /* procfs: no size */
	assert_int_equal(symtab_read_fd(fd, 1 << 20, &buf, &len), 0);
	assert_non_null(strstr(buf, "Name:"));
	free(buf);
	close(fd);
	fd = open("/proc/self/status", O_RDONLY);
	assert_int_equal(symtab_read_fd(fd, 16, &buf, &len), -1);
	assert_int_equal(errno, EFBIG);
	close(fd);
}

static const char kallsyms_fixture[] = "ffffffff81000000 T _stext\n"
                                       "ffffffff81000000 T _text\n"
                                       "ffffffff81000100 t local_fn\n"
                                       "ffffffff81000200 D some_data\n"
                                       "ffffffff81000300 W weak_fn\n"
                                       "ffffffff81000400 w weak_local\n"
                                       "ffffffff81000500 r rodata_thing\n"
                                       "ffffffff81000600 T schedule\n"
                                       "ffffffff81000700 B bss_thing\n"
                                       "ffffffff81000800 T _etext\n"
                                       "garbage line\n"
                                       "\n"
                                       "ffffffffc0001000 t ext4_fill_super\t[ext4]\n"
                                       "ffffffffc0001400 T ext4_iget\t[ext4]\n"
                                       "ffffffffc0001800 d ext4_data\t[ext4]\n"
                                       "ffffffffc0002000 t xfs_bmap\t[xfs]\n"
                                       "ffffffffc0001300 t ext4_late_listed\t[ext4]";

/* The fixture: text symbols only, modules without brackets, gaps. */
static void
test_kallsyms_fixture(void **state)
{
	const char *path = write_tmp("kallsyms", kallsyms_fixture);
	struct symtab st;
	struct tt_err err;
	const struct sym *s;
	size_t i;

	symtab_init(&st);
	assert_int_equal(symkernel_load(path, &st, &err), 0);
	for (i = 0; i < st.n; i++) {
		assert_string_not_equal(st.syms[i].name, "some_data");
		assert_string_not_equal(st.syms[i].name, "rodata_thing");
		assert_string_not_equal(st.syms[i].name, "bss_thing");
		assert_string_not_equal(st.syms[i].name, "ext4_data");
	}
	assert_int_equal(st.n, 10); /* _stext and _text share a start */
	assert_string_equal(name_at(&st, 0xffffffff81000050), "_stext");
	assert_string_equal(name_at(&st, 0xffffffff81000150), "local_fn");
	/* data symbols are not boundaries: local_fn reaches weak_fn */
	assert_string_equal(name_at(&st, 0xffffffff810002ff), "local_fn");
	assert_string_equal(name_at(&st, 0xffffffff81000300), "weak_fn");
	assert_string_equal(name_at(&st, 0xffffffff81000401), "weak_local");
	s = symtab_lookup(&st, 0xffffffff81000654);
	assert_non_null(s);
	assert_string_equal(s->name, "schedule");
	assert_null(s->module);
	assert_int_equal(s->size, 0x200); /* to _etext */
	assert_null(symtab_lookup(&st, 0xffffffff80ffffff));
	s = symtab_lookup(&st, 0xffffffffc0001010);
	assert_non_null(s);
	assert_string_equal(s->name, "ext4_fill_super");
	assert_string_equal(s->module, "ext4");
	assert_string_equal(name_at(&st, 0xffffffffc0001310), "ext4_late_listed");
	s = symtab_lookup(&st, 0xffffffffc0002001);
	assert_string_equal(s->name, "xfs_bmap");
	assert_string_equal(s->module, "xfs");
	/* the last symbol reaches only the gap cap */
	assert_null(symtab_lookup(&st, 0xffffffffc0002000 + 1024 * 1024));
	/* _etext reaches 64 KiB at most, not the 1 GiB to the modules */
	assert_null(symtab_lookup(&st, 0xffffffff90000000));
	symtab_free(&st);
}

/* A kallsyms several read chunks long (lines cut at every chunk edge),
 * with the padding symbols of CONFIG_CALL_PADDING: every function found,
 * no "__pfx_" kept, padding resolved to the function before it, the table
 * sized to its symbols. */
static void
test_kallsyms_chunks_padding(void **state)
{
	const char *path = tmp_path("kallsyms-big");
	FILE *f = fopen(path, "w");
	const uint64_t base = 0xffffffff81000000ULL;
	const unsigned nfn = 6000; /* ~300 KiB of text: several chunks */
	struct symtab st;
	struct tt_err err;
	char want[64];

	assert_non_null(f);
	for (unsigned i = 0; i < nfn; i++) {
		/* 16 bytes of padding, then a function of 48 bytes */
		fprintf(f, "%016llx t __pfx_fn_number_%u\n", (unsigned long long)(base + 64 * i),
		        i);
		fprintf(f, "%016llx %c fn_number_%u%s\n", (unsigned long long)(base + 64 * i + 16),
		        i % 2 ? 'T' : 't', i, i % 7 == 3 ? "\t[somemod]" : "");
	}
	fprintf(f, "%016llx T __pfx_\n",
	        (unsigned long long)(base + 64 * nfn)); /* the prefix alone */
	assert_int_equal(fclose(f), 0);
	symtab_init(&st);
	assert_int_equal(symkernel_load(path, &st, &err), 0);
	assert_int_equal(st.n, nfn + 1);
	assert_int_equal(st.cap, st.n);
	for (size_t i = 0; i < st.n; i++)
		assert_null(strstr(st.syms[i].name, "__pfx_fn"));
	for (unsigned i = 0; i < nfn; i += 97) {
		const struct sym *s = symtab_lookup(&st, base + 64 * i + 16 + 5);

		snprintf(want, sizeof want, "fn_number_%u", i);
		assert_non_null(s);
		assert_string_equal(s->name, want);
		if (i % 7 == 3)
			assert_string_equal(s->module, "somemod");
		else
			assert_null(s->module);
		/* the next function's padding falls to this one */
		assert_ptr_equal(symtab_lookup(&st, base + 64 * (i + 1) + 3), s);
	}
	assert_null(symtab_lookup(&st, base + 3)); /* before the first function */
	symtab_free(&st);
}

/* All-zero addresses (kptr_restrict), empty and non-kallsyms files. */
static void
test_kallsyms_errors(void **state)
{
	struct symtab st;
	struct tt_err err;
	const char *path;

	symtab_init(&st);
	path = write_tmp("kallsyms-zero", "0000000000000000 T _stext\n"
	                                  "0000000000000000 t foo\t[mod]\n"
	                                  "0000000000000000 D data\n");
	assert_int_equal(symkernel_load(path, &st, &err), -1);
	assert_non_null(strstr(err.msg, "kernel.kptr_restrict="));
	assert_non_null(strstr(err.msg, "hidden"));
	assert_int_equal(st.n, 0);
	path = write_tmp("kallsyms-empty", "");
	assert_int_equal(symkernel_load(path, &st, &err), -1);
	path = write_tmp("kallsyms-junk", "hello world\nthis is not kallsyms\n");
	assert_int_equal(symkernel_load(path, &st, &err), -1);
	assert_non_null(strstr(err.msg, "kallsyms format"));
	path = write_tmp("kallsyms-data", "ffffffff81000000 D only_data\n");
	assert_int_equal(symkernel_load(path, &st, &err), -1);
	assert_non_null(strstr(err.msg, "no kernel text"));
	assert_int_equal(symkernel_load(tmp_path("missing"), &st, &err), -1);
	assert_non_null(strstr(err.msg, "missing"));
	symtab_free(&st);
}

/* The address of "schedule" in the real /proc/kallsyms, 0 if absent/hidden. */
static uint64_t
real_schedule_addr(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], type;
	unsigned long long addr;
	uint64_t found = 0;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    strcmp(name, "schedule") == 0 && (type == 'T' || type == 't')) {
			found = addr;
			break;
		}
	fclose(f);
	return found;
}

/* The real /proc/kallsyms: many symbols and "schedule" where the file says,
 * or, where addresses are hidden from us, the kptr_restrict message. */
static void
test_kallsyms_real(void **state)
{
	uint64_t sched = real_schedule_addr();
	struct symtab st;
	struct tt_err err;
	const struct sym *s;
	int rc;

	symtab_init(&st);
	rc = symkernel_load("/proc/kallsyms", &st, &err);
	if (sched == 0) {
		/* hidden addresses (not root, kptr_restrict) */
		assert_int_equal(rc, -1);
		assert_non_null(strstr(err.msg, "kptr_restrict"));
		return;
	}
	assert_int_equal(rc, 0);
	assert_true(st.n > 1000);
	s = symtab_lookup(&st, sched);
	assert_non_null(s);
	assert_string_equal(s->name, "schedule");
	s = symtab_lookup(&st, sched + 1);
	assert_non_null(s);
	assert_string_equal(s->name, "schedule");
	symtab_free(&st);
}

/* The packed and the plain table agree on addr: the same symbol (name,
 * module, start, size) or none. */
static void
assert_same_at(const struct symtab *plain, const struct symtab *packed, uint64_t addr)
{
	const struct sym *a = symtab_lookup(plain, addr), *b = symtab_lookup(packed, addr);

	if (a == NULL) {
		assert_null(b);
		return;
	}
	assert_non_null(b);
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->start, b->start);
	assert_int_equal(a->size, b->size);
	if (a->module == NULL)
		assert_null(b->module);
	else
		assert_string_equal(a->module, b->module);
}

/* A kallsyms file loaded plain and packed: the same symbols at each
 * symbol's first, last and one-past-last byte and just before it; a
 * symbol found twice is the same struct (its identity). */
static void
assert_packed_same(const char *path)
{
	struct symtab plain, packed;
	struct tt_err err;

	symtab_init(&plain);
	symtab_init(&packed);
	assert_int_equal(symkernel_load(path, &plain, &err), 0);
	assert_int_equal(symkernel_load_packed(path, &packed, &err), 0);
	assert_int_equal(packed.n, plain.n);
	for (size_t i = 0; i < plain.n; i++) {
		const struct sym *s = &plain.syms[i];

		assert_same_at(&plain, &packed, s->start);
		assert_same_at(&plain, &packed, s->start + s->size - 1);
		assert_same_at(&plain, &packed, s->start + s->size);
		assert_same_at(&plain, &packed, s->start - 1);
		assert_ptr_equal(symtab_lookup(&packed, s->start),
		                 symtab_lookup(&packed, s->start + s->size - 1));
	}
	symtab_free(&plain);
	symtab_free(&packed);
}

/* The packed table: the fixture's lookups, aliases, modules and gaps as
 * the plain one has them; a big file of many blocks; a table spanning
 * more than 4 GiB; the real kallsyms when we may read it. */
static void
test_kallsyms_packed(void **state)
{
	const char *path = write_tmp("kallsyms", kallsyms_fixture);
	const char *wide = write_tmp("kallsyms-wide", "0000000000001000 T low_fn\n"
	                                              "0000000000001100 T low_next\n"
	                                              "0000000300000000 T high_fn\t[far]\n");
	const char *big = tmp_path("kallsyms-many");
	FILE *f = fopen(big, "w");
	struct symtab st;
	struct tt_err err;
	const struct sym *s;

	symtab_init(&st);
	assert_int_equal(symkernel_load_packed(path, &st, &err), 0);
	assert_int_equal(st.n, 10);
	assert_null(st.syms);
	assert_string_equal(name_at(&st, 0xffffffff81000050), "_stext");
	s = symtab_lookup(&st, 0xffffffffc0001010);
	assert_non_null(s);
	assert_string_equal(s->name, "ext4_fill_super");
	assert_string_equal(s->module, "ext4");
	assert_ptr_equal(symtab_lookup(&st, 0xffffffffc0001011), s);
	assert_null(symtab_lookup(&st, 0xffffffff90000000));
	symtab_free(&st);
	assert_packed_same(path);

	assert_int_equal(symkernel_load_packed(wide, &st, &err), 0);
	assert_string_equal(name_at(&st, 0x10ff), "low_fn");
	assert_string_equal(name_at(&st, 0x1100), "low_next");
	s = symtab_lookup(&st, 0x300000010);
	assert_non_null(s);
	assert_string_equal(s->name, "high_fn");
	assert_string_equal(s->module, "far");
	symtab_free(&st);
	assert_packed_same(wide);

	/* 5,000 names, some long, in many modules: dozens of blocks */
	assert_non_null(f);
	for (unsigned i = 0; i < 5000; i++)
		fprintf(f, "%016llx %c fn_%u%s%s\n", 0xffffffff81000000ULL + 32ULL * i,
		        i % 3 ? 't' : 'T', i,
		        i % 11 == 0 ? "_with_a_much_longer_name_than_most" : "",
		        i % 5 == 0   ? "\t[mod_a]"
		        : i % 5 == 1 ? "\t[mod_b]"
		                     : "");
	assert_int_equal(fclose(f), 0);
	assert_packed_same(big);

	/* errors as the plain load says them, nothing kept */
	path = write_tmp("kallsyms-zero", "0000000000000000 T _stext\n");
	assert_int_equal(symkernel_load_packed(path, &st, &err), -1);
	assert_non_null(strstr(err.msg, "kernel.kptr_restrict="));
	assert_int_equal(st.n, 0);
	assert_null(st.pack);
	assert_int_equal(symkernel_load_packed(tmp_path("missing"), &st, &err), -1);

	if (real_schedule_addr() != 0)
		assert_packed_same("/proc/kallsyms");
}

/* Perf map text: hex with and without 0x, names with spaces, junk skipped. */
static void
test_perfmap_parse(void **state)
{
	static const char text[] = "7f0000001000 40 LazyCompile:~foo bar.js:1\n"
	                           "0x7f0000002000 0x20 Interpreter\n"
	                           "7F0000003000 10  spaced  name \r\n"
	                           "not a line\n"
	                           "7f0000004000\n"
	                           "7f0000005000 10\n"
	                           "7f0000006000 zz name\n"
	                           "7f0000007000 10 \n"
	                           "12345678901234567 10 too_long_addr\n"
	                           "\n"
	                           "\t7f0000008000\t8\ttabbed\n"
	                           "7f0000009000 0 zero_size\n"
	                           "7f000000a000 4 last_no_newline";
	struct symtab st;
	const struct sym *s;

	symtab_init(&st);
	symjit_parse(text, sizeof text - 1, &st);
	symtab_finish(&st, 4096);
	assert_int_equal(st.n, 6);
	s = symtab_lookup(&st, 0x7f000000103f);
	assert_non_null(s);
	assert_string_equal(s->name, "LazyCompile:~foo bar.js:1");
	assert_int_equal(s->size, 0x40);
	assert_null(symtab_lookup(&st, 0x7f0000001040));
	assert_string_equal(name_at(&st, 0x7f0000002010), "Interpreter");
	assert_string_equal(name_at(&st, 0x7f0000003000), "spaced  name");
	assert_string_equal(name_at(&st, 0x7f0000008007), "tabbed");
	assert_string_equal(name_at(&st, 0x7f0000009100), "zero_size");
	assert_string_equal(name_at(&st, 0x7f000000a003), "last_no_newline");
	assert_null(name_at(&st, 0x7f0000004000));
	assert_null(name_at(&st, 0x7f0000006000));
	symtab_free(&st);

	/* embedded NULs and a truncated buffer do not read past len */
	symtab_init(&st);
	symjit_parse("10 4 a\0b\n20 4 c", 15, &st);
	symjit_parse("30 4 abcdef", 8, &st);
	symtab_finish(&st, 4096);
	assert_int_equal(st.n, 3);
	assert_string_equal(name_at(&st, 0x10), "a");
	assert_string_equal(name_at(&st, 0x20), "c");
	assert_string_equal(name_at(&st, 0x30), "abc");
	symtab_free(&st);
}

/* Load a perf map for owner: the return code, the reason in err. A map
 * that loads and has symbols must hold "jitted" at 0x1000. */
static int
load_map(const char *path, uid_t owner, struct tt_err *err)
{
	struct symtab st;
	int rc;

	symtab_init(&st);
	rc = symjit_load(path, owner, &st, err);
	if (rc == 0 && st.n > 0)
		assert_string_equal(name_at(&st, 0x1001), "jitted");
	symtab_free(&st);
	return rc;
}

/* A map is trusted only when owned by the process's user or root, and only
 * when it is a regular file reached without a symlink. */
static void
test_perfmap_ownership(void **state)
{
	const char *path = write_tmp("perf-1.map", "1000 10 jitted\n");
	const char *link = tmp_path("perf-2.map");
	const char *fifo = tmp_path("perf-3.map");
	struct tt_err err;
	uid_t me = geteuid();

	if (me == 0) {
		/* root-owned: accepted for anyone */
		assert_int_equal(load_map(path, 1000, &err), 0);
		assert_int_equal(chown(path, 12345, 12345), 0);
		assert_int_equal(load_map(path, 1000, &err), -1);
		assert_non_null(strstr(err.msg, "uid 12345"));
		assert_non_null(strstr(err.msg, "not trusted"));
		assert_int_equal(load_map(path, 12345, &err), 0);
	} else {
		assert_int_equal(load_map(path, me, &err), 0);
		assert_int_equal(load_map(path, me + 1, &err), -1);
		assert_non_null(strstr(err.msg, "not trusted"));
		/* a root-owned regular file is accepted for anyone */
		assert_int_equal(load_map("/etc/passwd", me + 1, &err), 0);
	}
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(load_map(link, 12345, &err), -1);
	assert_non_null(strstr(err.msg, "symbolic link"));
	assert_int_equal(load_map(tmpdir, me, &err), -1);
	assert_non_null(strstr(err.msg, "not a regular file"));
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(load_map(fifo, me, &err), -1); /* and does not block */
	assert_non_null(strstr(err.msg, "not a regular file"));
	assert_int_equal(load_map(tmp_path("perf-4.map"), me, &err), -1);
	assert_non_null(strstr(err.msg, "cannot open"));
}

/* Same (path, dev, ino) gives the same DSO; names decide the kind. */
static void
test_dso_cache(void **state)
{
	struct dso *a = dso_get("/usr/lib/libfoo.so.1", 8, 1234);
	struct dso *b = dso_get("/usr/lib/libfoo.so.1", 8, 1234);
	char path[64];
	int i;

	assert_ptr_equal(a, b);
	assert_ptr_not_equal(a, dso_get("/usr/lib/libfoo.so.1", 8, 1235));
	assert_ptr_not_equal(a, dso_get("/usr/lib/libfoo.so.1", 9, 1234));
	assert_int_equal(a->kind, DSO_ELF);
	assert_string_equal(a->name, "/usr/lib/libfoo.so.1");
	assert_string_equal(a->short_name, "libfoo.so.1");
	assert_false(a->loaded);
	assert_int_equal(dso_get("[vdso]", 0, 0)->kind, DSO_ANON);
	assert_string_equal(dso_get("[vdso]", 0, 0)->short_name, "[vdso]");
	assert_int_equal(dso_get("[heap]", 0, 0)->kind, DSO_ANON);
	assert_int_equal(dso_get("[anon:libc_malloc/x]", 0, 0)->kind, DSO_ANON);
	assert_string_equal(dso_get("[anon:libc_malloc/x]", 0, 0)->short_name,
	                    "[anon:libc_malloc/x]");
	assert_int_equal(dso_get("//anon", 0, 0)->kind, DSO_ANON);
	assert_int_equal(dso_get("", 0, 0)->kind, DSO_ANON);
	assert_int_equal(dso_get(NULL, 0, 0)->kind, DSO_ANON);
	assert_string_equal(dso_get("relative", 0, 0)->short_name, "relative");
	/* an anonymous DSO has no symbols, and says so */
	assert_null(dso_find_sym(dso_get("[heap]", 0, 0), 0x1000));
	assert_non_null(dso_get("[heap]", 0, 0)->load_error);
	assert_int_equal(dso_offset_to_addr(dso_get("[heap]", 0, 0), 0x1234), 0x1234);
	/* a missing file: no symbols, the reason kept, offsets unchanged */
	assert_null(dso_find_sym(dso_get("/nonexistent/libx.so", 1, 2), 0x1000));
	assert_non_null(strstr(dso_get("/nonexistent/libx.so", 1, 2)->load_error, "cannot open"));
	assert_int_equal(dso_offset_to_addr(dso_get("/nonexistent/libx.so", 1, 2), 0x99), 0x99);
	/* enough DSOs to grow the table: identities survive */
	for (i = 0; i < 2000; i++) {
		snprintf(path, sizeof path, "/lib/l%d.so", i);
		assert_ptr_equal(dso_get(path, 1, (ino_t)i), dso_get(path, 1, (ino_t)i));
	}
	assert_ptr_equal(a, dso_get("/usr/lib/libfoo.so.1", 8, 1234));
	/* the kernel and modules are not confused with files */
	assert_int_equal(dso_kernel(NULL)->kind, DSO_KERNEL);
	assert_string_equal(dso_kernel(NULL)->name, "[kernel.kallsyms]");
	assert_ptr_equal(dso_kernel(NULL), dso_kernel(NULL));
	assert_int_equal(dso_kernel("ext4")->kind, DSO_MODULE);
	assert_string_equal(dso_kernel("ext4")->name, "[ext4]");
	assert_ptr_equal(dso_kernel("ext4"), dso_kernel("ext4"));
	assert_ptr_not_equal(dso_kernel("ext4"), dso_get("[ext4]", 0, 0));
	dso_cache_free();
}

/* Kernel addresses resolve to the kernel or to their module's DSO. */
static void
test_dso_kernel_resolve(void **state)
{
	const struct sym *s;
	struct dso *d, *ext4;

	dso_set_kallsyms_path(write_tmp("kallsyms2", kallsyms_fixture));
	d = dso_kernel_resolve(0xffffffff81000610, &s);
	assert_ptr_equal(d, dso_kernel(NULL));
	assert_non_null(s);
	assert_string_equal(s->name, "schedule");
	assert_true(d->has_syms);
	d = dso_kernel_resolve(0xffffffffc0001404, &s);
	ext4 = dso_kernel("ext4");
	assert_ptr_equal(d, ext4);
	assert_string_equal(s->name, "ext4_iget");
	assert_ptr_equal(dso_kernel_resolve(0xffffffffc0002004, &s), dso_kernel("xfs"));
	assert_ptr_equal(dso_kernel_resolve(0xffffffffc0001008, &s), ext4);
	/* a module DSO finds only its own symbols */
	assert_string_equal(dso_find_sym(ext4, 0xffffffffc0001404)->name, "ext4_iget");
	assert_null(dso_find_sym(ext4, 0xffffffffc0002004));
	assert_null(dso_find_sym(ext4, 0xffffffff81000610));
	assert_int_equal(dso_offset_to_addr(ext4, 0xffffffffc0001404), 0xffffffffc0001404);
	/* unresolved: the kernel DSO, no symbol */
	assert_ptr_equal(dso_kernel_resolve(0x1000, &s), dso_kernel(NULL));
	assert_null(s);
	dso_cache_free();

	/* a kernel whose addresses are hidden: the reason is kept */
	dso_set_kallsyms_path(write_tmp("kallsyms3", "0000000000000000 T _stext\n"));
	assert_ptr_equal(dso_kernel_resolve(0xffffffff81000610, &s), dso_kernel(NULL));
	assert_null(s);
	assert_non_null(strstr(dso_kernel(NULL)->load_error, "kptr_restrict"));
	assert_null(dso_find_sym(dso_kernel("ext4"), 0xffffffffc0001404));
	assert_non_null(strstr(dso_kernel("ext4")->load_error, "kptr_restrict"));
	dso_cache_free();
}

/* Make the temporary directory. */
static int
setup(void **state)
{
	return mkdtemp(tmpdir) != NULL ? 0 : -1;
}

/* Remove the temporary directory. */
static int
teardown(void **state)
{
	char cmd[600];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_symtab_lookup_edges),
	    cmocka_unit_test(test_symtab_duplicates),
	    cmocka_unit_test(test_symtab_nested),
	    cmocka_unit_test(test_symtab_many),
	    cmocka_unit_test(test_symtab_index),
	    cmocka_unit_test(test_symtab_read_fd),
	    cmocka_unit_test(test_kallsyms_fixture),
	    cmocka_unit_test(test_kallsyms_errors),
	    cmocka_unit_test(test_kallsyms_real),
	    cmocka_unit_test(test_kallsyms_packed),
	    cmocka_unit_test(test_kallsyms_chunks_padding),
	    cmocka_unit_test(test_perfmap_parse),
	    cmocka_unit_test(test_perfmap_ownership),
	    cmocka_unit_test(test_dso_cache),
	    cmocka_unit_test(test_dso_kernel_resolve),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
