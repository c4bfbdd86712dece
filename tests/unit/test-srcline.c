/* Unit tests for src/srcline.c on binaries this test builds with $TT_CC
 * (default cc): the inline chains are checked against binutils' addr2line -i
 * at every byte of a function (all but the first read from the function
 * flattened, and the flattened chains against the walk's over libc's text
 * where its debug file is installed), symbols are interned, results and DSOs
 * without DWARF are cached, separate debug files are used, corrupt or
 * truncated files give nothing without crashing, and the async front gives
 * the same chains through the worker thread, also from a program whose
 * debug info is compressed (read from an inflated copy); .debug_aranges
 * read by our own reader. */
#include "config.h"

#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "buildtest.h"

#include "tracetop/dso.h"
#include "tracetop/dwaranges.h"
#include "tracetop/srcline.h"
#include "tracetop/symtab.h"
#include "tracetop/util.h"
#include "tracetop/worker.h"
#include "../../src/srcline-impl.h"

static const char prog_src[] =
    "volatile int sink;\n"
    "static inline __attribute__((always_inline)) int inl_b(int x)\n"
    "{ int s = 0; for (int i = 0; i < x; i++) { s += (i * x) ^ sink; sink = s; }\n"
    "  return s; }\n"
    "static inline __attribute__((always_inline)) int inl_a(int x)\n"
    "{ int r = inl_b(x + VARIANT); sink = r; return r * 3 + sink; }\n"
    "__attribute__((noinline)) int outer_fn(int x)\n"
    "{ sink = x; int r = inl_a(x); sink = r; return r + 1; }\n"
    "int main(int argc, char **argv)\n"
    "{ (void)argv; return outer_fn(argc) > 0 ? 0 : 1; }\n";

#define MAX_CHAIN 8
#define MAX_ADDRS 4096

/* addr2line's answer for one address: function names, innermost first. */
struct chain {
	uint64_t addr;
	int n;
	char names[MAX_CHAIN][64];
};

/* Put a debug file for bin at ROOT/.build-id/xx/yyyy.debug by running
 * "tool src dest" (cp, objcopy --only-keep-debug). */
static bool
install_debug(const char *bin, const char *tool, const char *src)
{
	return bt_sh("id=$(readelf -n '%s' | sed -n 's/.*Build ID: //p') && "
	             "d='%s/.build-id/'$(echo $id | cut -c1-2) && mkdir -p \"$d\" && "
	             "%s '%s' \"$d/$(echo $id | cut -c3-).debug\"",
	             bin, bt_root, tool, src);
}

/* The DSO for a file in bt_dir, through the engine's path (dso_get with the
 * file's dev and ino). */
static struct dso *
dso_of(const char *name)
{
	const char *path = bt_path(name);
	struct stat sb;

	assert_int_equal(stat(path, &sb), 0);
	return dso_get(path, sb.st_dev, sb.st_ino);
}

/* Address and size of a symbol per nm (which must know it). */
static void
nm_lookup(const char *file, const char *name, uint64_t *addr, uint64_t *size)
{
	assert_true(bt_nm(file, false, name, addr, size));
	assert_true(*size > 0 && *size < MAX_ADDRS);
}

/* addr2line -i for every byte of [start, start + size) of file into c. */
static void
addr2line_range(const char *file, uint64_t start, uint64_t size, struct chain *c)
{
	char cmd[PATH_MAX + 64], line[1024];
	struct chain *cur = NULL;
	bool want_name = true;
	uint64_t i;
	FILE *p;

	snprintf(cmd, sizeof cmd, "addr2line -a -i -f -e '%s' > '%s'", file, bt_path("a2l.out"));
	p = popen(cmd, "w");
	assert_non_null(p);
	for (i = 0; i < size; i++)
		fprintf(p, "0x%llx\n", (unsigned long long)(start + i));
	assert_int_equal(pclose(p), 0);
	p = fopen(bt_path("a2l.out"), "r");
	assert_non_null(p);
	while (fgets(line, sizeof line, p) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "0x", 2) == 0) {
			cur = cur == NULL ? c : cur + 1;
			assert_true(cur < c + size);
			cur->addr = strtoull(line, NULL, 16);
			cur->n = 0;
			want_name = true;
		} else if (cur != NULL && want_name) {
			assert_true(cur->n < MAX_CHAIN);
			snprintf(cur->names[cur->n++], sizeof cur->names[0], "%.63s", line);
			want_name = false;
		} else {
			want_name = true; /* file:line */
		}
	}
	fclose(p);
	assert_int_equal(cur - c + 1, (long)size);
}

/* Whether a chain is exactly the names given (NULL-terminated). */
static bool
chain_is(const struct chain *c, const char *const *names)
{
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (i >= c->n || strcmp(c->names[i], names[i]) != 0)
			return false;
	return i == c->n;
}

/* Check srcline against addr2line at every byte of outer_fn in file (a DSO
 * named dso_name); returns two addresses inside inl_b (inl_b ... inl_a). */
static void
check_against_addr2line(const char *dso_name, const char *file, uint64_t inl_addr[2])
{
	static const char *const want_b[] = {"inl_b", "inl_a", "outer_fn", NULL};
	static const char *const want_outer[] = {"outer_fn", NULL};
	struct chain *c = xcalloc(MAX_ADDRS, sizeof *c);
	const struct sym *out[MAX_CHAIN], *b = NULL;
	struct dso *d = dso_of(dso_name);
	uint64_t start, size, i;
	size_t n, nb = 0, nouter = 0;
	int k;

	nm_lookup(file, "outer_fn", &start, &size);
	addr2line_range(file, start, size, c);
	for (i = 0; i < size; i++) {
		n = srcline_inlines(d, c[i].addr, out, MAX_CHAIN);
		assert_int_equal(n, c[i].n - 1);
		for (k = 0; k < (int)n; k++) {
			assert_string_equal(out[k]->name, c[i].names[k]);
			assert_null(out[k]->module);
		}
		if (chain_is(&c[i], want_b)) {
			if (b == NULL)
				b = out[0];
			assert_ptr_equal(out[0], b); /* interned */
			if (nb < 2)
				inl_addr[nb] = c[i].addr;
			nb++;
		}
		if (chain_is(&c[i], want_outer)) {
			assert_ptr_equal(dso_find_sym(d, c[i].addr)->name,
			                 dso_find_sym(d, start)->name);
			nouter++;
		}
	}
	free(c);
	assert_true(nb >= 2);
	assert_true(nouter >= 1);
}

/* With -g: chains match addr2line -i, inl_b inside inl_a, interned syms. */
static void
test_inlines(void **state)
{
	const struct sym *x[MAX_CHAIN], *y[MAX_CHAIN];
	struct srcline_stats st;
	struct dso *d = dso_of("inl");
	uint64_t a[2], t0, t1, t2, fsize;

	srcline_free_all();
	(void)dso_offset_to_addr(d, 0); /* symbols loaded: time DWARF alone */
	nm_lookup(bt_path("inl"), "outer_fn", &a[0], &a[1]);
	t0 = now_ns();
	(void)srcline_inlines(d, a[0] + 1, x, MAX_CHAIN);
	t1 = now_ns();
	(void)srcline_inlines(d, a[0] + 1, x, MAX_CHAIN);
	t2 = now_ns();
	printf("# first lookup in a DSO %.1f us, cached lookup %llu ns\n", (t1 - t0) / 1e3,
	       (unsigned long long)(t2 - t1));

	fsize = a[1];
	check_against_addr2line("inl", bt_path("inl"), a);
	/* the first walk into outer_fn flattened it: every other byte's
	 * chain (all agreeing with addr2line) came from its table */
	srcline_get_stats(&st);
	assert_true(st.fn_hits + 2 >= fsize);
	assert_int_equal(srcline_inlines(d, a[0], x, MAX_CHAIN), 2);
	assert_int_equal(srcline_inlines(d, a[1], y, MAX_CHAIN), 2);
	assert_true(a[0] != a[1]);
	assert_string_equal(x[0]->name, "inl_b");
	assert_string_equal(x[1]->name, "inl_a");
	assert_ptr_equal(x[0], y[0]);
	assert_ptr_equal(x[1], y[1]);
	assert_true(x[0]->start != 0); /* from the first inlined instance */
	/* max cuts the chain, keeping the innermost */
	assert_int_equal(srcline_inlines(d, a[0], y, 1), 1);
	assert_ptr_equal(y[0], x[0]);
	assert_int_equal(srcline_inlines(d, a[0], y, 0), 0);
	srcline_get_stats(&st);
	assert_int_equal(st.opens, 1);
	assert_true(st.hits >= 3);
	assert_true(st.scopes < st.lookups);
}

/* A chain of k symbols as one string of their names, innermost first. */
static void
chain_str(const struct sym *const *c, int k, char out[256])
{
	size_t o = 0;

	out[0] = '\0';
	for (int j = 0; j < k && o < 255; j++)
		o += (size_t)snprintf(out + o, 256 - o, "%s;", c[j]->name);
}

/* The chains of n addresses of d, one string each. */
static void
chains_of(struct dso *d, const uint64_t *addrs, size_t n, char (*out)[256])
{
	const struct sym *c[MAX_CHAIN];

	for (size_t i = 0; i < n; i++)
		chain_str(c, (int)srcline_inlines(d, addrs[i], c, MAX_CHAIN), out[i]);
}

/* How many of n chains are the same in got and want, the others told. */
static size_t
chains_same(const uint64_t *addrs, char (*got)[256], char (*want)[256], size_t n, const char *who)
{
	size_t same = 0;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(got[i], want[i]) != 0)
			print_message("# %s 0x%llx: '%s', walked '%s'\n", who,
			              (unsigned long long)addrs[i], got[i], want[i]);
		same += strcmp(got[i], want[i]) == 0;
	}
	return same;
}

/* On real DWARF (libc's debug file, where installed): the chains read from
 * flattened functions are the walk's at addresses all over libc's text,
 * three bytes apart through each of 300 functions. */
static void
test_flat_libc(void **state)
{
	static const char libc[] = "/lib/x86_64-linux-gnu/libc.so.6";
	char cmd[256], line[256];
	uint64_t *addrs = xcalloc(1 << 16, sizeof *addrs);
	char(*flat)[256], (*walked)[256];
	struct srcline_stats st0, st1;
	size_t n = 0, nfn = 0, same = 0;
	struct stat sb;
	struct dso *d;
	FILE *p;

	dso_set_debug_root("/usr/lib/debug"); /* the system's, for once */
	d = stat(libc, &sb) == 0 ? dso_get(libc, sb.st_dev, sb.st_ino) : NULL;
	if (d == NULL || !srcline_has_debug(d)) {
		dso_set_debug_root(bt_root);
		free(addrs);
		skip(); /* no debug file for libc here (libc6-dbg) */
	}
	(void)dso_offset_to_addr(d, 0);
	snprintf(cmd, sizeof cmd, "nm -D -S --defined-only '%s' | awk '$3 ~ /[Tt]/' | sort -u",
	         libc);
	assert_non_null(p = popen(cmd, "r"));
	for (size_t i = 0; fgets(line, sizeof line, p) != NULL; i++) {
		unsigned long long a, sz;

		if (i % 5 != 0 || nfn >= 300 || sscanf(line, "%llx %llx", &a, &sz) != 2 || sz == 0)
			continue;
		nfn++;
		for (uint64_t o = 0; o < sz && o < 1200 && n < (1 << 16); o += 3)
			addrs[n++] = a + o;
	}
	pclose(p);
	assert_true(nfn >= 100);
	flat = xcalloc(n, sizeof *flat);
	walked = xcalloc(n, sizeof *walked);
	srcline_free_all();
	srcline_get_stats(&st0);
	chains_of(d, addrs, n, flat);
	srcline_get_stats(&st1);
	srcline_free_all();
	srcline_flatten = false;
	chains_of(d, addrs, n, walked);
	srcline_flatten = true;
	same = chains_same(addrs, flat, walked, n, "flat");
	printf("# libc: %zu addresses in %zu functions, %llu from flattened functions\n", n, nfn,
	       (unsigned long long)(st1.fn_hits - st0.fn_hits));
	assert_int_equal(same, n);
	assert_true(st1.fn_hits - st0.fn_hits > n / 2);

	/* the worker's walks, in views of one unit, flatten there too */
	{
		int errnum = 0;
		struct worker *w = worker_new(n, &errnum);
		struct srcline_async *a = srcline_async_new(w);
		const struct sym *c[MAX_CHAIN];

		assert_non_null(w);
		for (size_t i = 0; i < n; i++)
			(void)srcline_async_inlines(a, d, addrs[i], c, MAX_CHAIN);
		worker_drain(w);
		(void)worker_poll(w);
		for (size_t i = 0; i < n; i++)
			chain_str(c, srcline_async_inlines(a, d, addrs[i], c, MAX_CHAIN), flat[i]);
		worker_free(w);
		srcline_async_free(a);
		assert_int_equal(chains_same(addrs, flat, walked, n, "worker"), n);
	}
	free(flat);
	free(walked);
	free(addrs);
	srcline_free_all();
	dso_set_debug_root(bt_root);
}

/* A function too big to flatten (here: over two DIEs) is walked at each
 * address, right, and tried once only. */
static void
test_flat_too_big(void **state)
{
	struct srcline_stats st0, st1;
	size_t max = srcline_flatten_max_dies;
	uint64_t a[2];

	srcline_free_all();
	srcline_flatten_max_dies = 2;
	srcline_get_stats(&st0);
	check_against_addr2line("inl", bt_path("inl"), a);
	srcline_get_stats(&st1);
	srcline_flatten_max_dies = max;
	assert_int_equal(st1.fn_hits - st0.fn_hits, 0);
	assert_int_equal(st1.fn_tries - st0.fn_tries, 1);
	assert_true(st1.scopes - st0.scopes > 2);
	srcline_free_all();
}

/* Without -g: 0, and the DSO is opened once. */
static void
test_no_debug(void **state)
{
	const struct sym *out[MAX_CHAIN];
	struct srcline_stats before, after;
	struct dso *d = dso_of("nodbg");
	uint64_t start, size, i;

	nm_lookup(bt_path("nodbg"), "outer_fn", &start, &size);
	srcline_get_stats(&before);
	for (i = 0; i < size; i++)
		assert_int_equal(srcline_inlines(d, start + i, out, MAX_CHAIN), 0);
	srcline_get_stats(&after);
	assert_int_equal(after.opens, before.opens + 1);
	assert_int_equal(after.scopes, before.scopes); /* nothing walked */
	assert_int_equal(after.cached, before.cached); /* nor cached */
	assert_null(dso_of("nodbg")->debug_file);
}

/* Stripped, with a debug file under ROOT/.build-id/: found through it. */
static void
test_debug_file(void **state)
{
	struct dso *d = dso_of("bid");
	uint64_t a[2];

	(void)dso_offset_to_addr(d, 0);
	assert_non_null(d->debug_file);
	assert_non_null(strstr(d->debug_file, "/.build-id/"));
	check_against_addr2line("bid", bt_path("bid.unstripped"), a);
}

/* Non-ELF DSOs and addresses outside any CU give 0. */
static void
test_other_dsos(void **state)
{
	const struct sym *out[MAX_CHAIN];

	assert_int_equal(srcline_inlines(dso_get("[anon]", 0, 0), 0x1000, out, MAX_CHAIN), 0);
	assert_int_equal(srcline_inlines(dso_kernel(NULL), 0xffffffff81000000ULL, out, MAX_CHAIN),
	                 0);
	assert_int_equal(srcline_inlines(NULL, 0x1000, out, MAX_CHAIN), 0);
	assert_int_equal(srcline_inlines(dso_of("inl"), 0, out, MAX_CHAIN), 0);
	assert_int_equal(srcline_inlines(dso_of("inl"), UINT64_MAX, out, MAX_CHAIN), 0);
	assert_int_equal(srcline_inlines(dso_get(bt_path("missing"), 0, 0), 0x1000, out, MAX_CHAIN),
	                 0);
}

/* A full cache is cleared, and symbols stay the same pointers. */
static void
test_cache_flush(void **state)
{
	const struct sym *x[MAX_CHAIN], *y[MAX_CHAIN];
	struct srcline_stats st;
	struct dso *d = dso_of("inl");
	uint64_t a[2], i;

	check_against_addr2line("inl", bt_path("inl"), a);
	assert_int_equal(srcline_inlines(d, a[0], x, MAX_CHAIN), 2);
	for (i = 0; i < 70000; i++)
		(void)srcline_inlines(d, 0x10000000 + i, y, MAX_CHAIN);
	srcline_get_stats(&st);
	assert_true(st.flushes >= 1);
	assert_true(st.cached < 70000);
	assert_int_equal(srcline_inlines(d, a[0], y, MAX_CHAIN), 2);
	assert_ptr_equal(x[0], y[0]);
	assert_ptr_equal(x[1], y[1]);
}

/* The async front: -1 until the worker's answer is polled (asked once),
 * then the chains srcline_inlines gives; a DSO without DWARF is asked about
 * once; DSOs not loaded and non-ELF ones give 0 without asking. */
static void
test_async(void **state)
{
	const struct sym *x[MAX_CHAIN], *y[MAX_CHAIN], *b = NULL;
	struct dso *d = dso_of("inl"), *nd = dso_of("nodbg");
	int errnum = 0, n;
	struct worker *w = worker_new(MAX_ADDRS, &errnum);
	struct srcline_async *a = srcline_async_new(w);
	uint64_t start, size, i, nb = 0;

	assert_non_null(w);
	nm_lookup(bt_path("inl"), "outer_fn", &start, &size);
	(void)dso_offset_to_addr(d, 0);
	(void)dso_offset_to_addr(nd, 0);
	for (i = 0; i < size; i++)
		assert_int_equal(srcline_async_inlines(a, d, start + i, x, MAX_CHAIN), -1);
	assert_int_equal(srcline_async_inlines(a, d, start, x, MAX_CHAIN), -1);
	assert_int_equal(worker_inflight(w), size); /* each address asked once */
	worker_drain(w);
	assert_int_equal(worker_poll(w), size);
	for (i = 0; i < size; i++) {
		n = srcline_async_inlines(a, d, start + i, x, MAX_CHAIN);
		assert_int_equal(n, (int)srcline_inlines(d, start + i, y, MAX_CHAIN));
		for (int k = 0; k < n; k++)
			assert_string_equal(x[k]->name, y[k]->name);
		if (n == 2) {
			if (b == NULL)
				b = x[0];
			assert_ptr_equal(x[0], b); /* interned on the worker's side too */
			assert_int_equal(srcline_async_inlines(a, d, start + i, y, 1), 1);
			assert_ptr_equal(y[0], x[0]);
			nb++;
		}
	}
	assert_true(nb >= 2);
	assert_int_equal(worker_inflight(w), 0);

	assert_int_equal(srcline_async_inlines(a, nd, start, x, MAX_CHAIN), -1);
	worker_drain(w);
	assert_int_equal(worker_poll(w), 1);
	assert_int_equal(srcline_async_inlines(a, nd, start + 1, x, MAX_CHAIN), 0);
	assert_int_equal(srcline_async_inlines(a, dso_of("bid.unstripped"), start, x, MAX_CHAIN),
	                 0);
	assert_int_equal(srcline_async_inlines(a, dso_get("[anon]", 0, 0), 0x1000, x, MAX_CHAIN),
	                 0);
	assert_int_equal(srcline_async_inlines(a, NULL, 0x1000, x, MAX_CHAIN), 0);
	assert_int_equal(worker_inflight(w), 0); /* none of these was asked */

	/* stopping with questions in flight */
	for (i = 0; i < 16; i++)
		(void)srcline_async_inlines(a, d, 0x20000000 + i, x, MAX_CHAIN);
	worker_free(w);
	srcline_async_free(a);
}

/* Whether this process holds an unnamed temporary file (O_TMPFILE's
 * "/dir/#N (deleted)"): the inflated copy of a debug file. */
static bool
holds_tmpfile(void)
{
	char link[64], target[PATH_MAX];

	for (int fd = 3; fd < 1024; fd++) {
		ssize_t n;

		snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof target - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strstr(target, "/#") != NULL && strstr(target, " (deleted)") != NULL)
			return true;
	}
	return false;
}

/* A program whose .debug_info is compressed (-gz=zlib): the worker reads
 * it from an inflated copy in an unnamed temporary file, and its chains
 * are addr2line's at every byte of outer_fn. */
static void
test_async_inflated(void **state)
{
	struct chain *c = xcalloc(MAX_ADDRS, sizeof *c);
	const struct sym *x[MAX_CHAIN];
	struct dso *d = dso_of("inlz");
	int errnum = 0, n;
	struct worker *w = worker_new(MAX_ADDRS, &errnum);
	struct srcline_async *a = srcline_async_new(w);
	uint64_t start, size, two = 0;

	assert_non_null(w);
	if (!bt_sh("readelf -SW '%s' | grep -q '[.]debug_info .* C '", bt_path("inlz"))) {
		printf("# %s's .debug_info is not compressed: nothing to inflate\n", bt_cc);
		skip();
	}
	nm_lookup(bt_path("inlz"), "outer_fn", &start, &size);
	addr2line_range(bt_path("inlz"), start, size, c);
	(void)dso_offset_to_addr(d, 0);
	for (uint64_t i = 0; i < size; i++)
		(void)srcline_async_inlines(a, d, start + i, x, MAX_CHAIN);
	worker_drain(w);
	(void)worker_poll(w);
	assert_true(holds_tmpfile());
	for (uint64_t i = 0; i < size; i++) {
		n = srcline_async_inlines(a, d, c[i].addr, x, MAX_CHAIN);
		assert_int_equal(n, c[i].n - 1);
		for (int k = 0; k < n; k++)
			assert_string_equal(x[k]->name, c[i].names[k]);
		two += n == 2;
	}
	assert_true(two >= 2);
	worker_free(w);
	srcline_async_free(a);
	free(c);
}

/* .debug_aranges read by our reader: a 32-bit DWARF set and a 64-bit
 * one, each padded to its tuples, sorted; a truncated set ends it. */
static void
test_aranges_parse(void **state)
{
	static const unsigned char sec[] = {
	    /* 32-bit: length 60, version 2, unit 0x1234, 8-byte addresses */
	    60, 0, 0, 0, 2, 0, 0x34, 0x12, 0, 0, 8, 0, 0, 0, 0, 0, 0x00, 0x10, 0, 0, 0, 0, 0, 0,
	    0x00, 0x01, 0, 0, 0, 0, 0, 0,                            /* 0x1000 +0x100 */
	    0x00, 0x30, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, /* 0x3000 +0x10 */
	    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,          /* end */
	    /* 64-bit: length 52, version 2, unit 0x99, 8-byte addresses */
	    0xff, 0xff, 0xff, 0xff, 52, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0x99, 0, 0, 0, 0, 0, 0, 0, 8, 0,
	    0, 0, 0, 0, 0, 0, 0, 0,                                  /* to 32 */
	    0x00, 0x20, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, /* 0x2000 +0x80 */
	    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,          /* end */
	    /* a set longer than the section */
	    0xf0, 0, 0, 0, 2, 0};
	struct dwarange *r;
	size_t n = dwaranges_parse(sec, sizeof sec, &r);

	(void)state;
	assert_int_equal(n, 3);
	assert_int_equal(r[0].start, 0x1000);
	assert_int_equal(r[0].end, 0x1100);
	assert_int_equal(r[0].unit, 0x1234);
	assert_int_equal(r[1].start, 0x2000);
	assert_int_equal(r[1].unit, 0x99);
	assert_int_equal(r[2].start, 0x3000);
	assert_ptr_equal(dwaranges_find(r, n, 0x10ff), &r[0]);
	assert_null(dwaranges_find(r, n, 0x1100));
	assert_ptr_equal(dwaranges_find(r, n, 0x2050), &r[1]);
	assert_null(dwaranges_find(r, n, 0xfff));
	assert_null(dwaranges_find(r, n, 0x3010));
	free(r);
	/* every prefix of it: no crash, only whole sets */
	for (size_t len = 0; len < sizeof sec; len++) {
		n = dwaranges_parse(sec, len, &r);
		assert_true(n <= 3);
		free(r);
	}
}

/* Fill the named sections of an ELF file with a byte, in place. */
static void
smash_sections(const char *path, const char *const *names, int byte)
{
	int fd = open(path, O_RDWR);
	GElf_Shdr sh;
	Elf_Scn *scn = NULL;
	Elf *elf;
	size_t shstrndx, i, hit = 0;
	const char *name;
	char *buf;

	assert_true(fd >= 0);
	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		assert_non_null(gelf_getshdr(scn, &sh));
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		for (i = 0; name != NULL && sh.sh_type != SHT_NOBITS && names[i] != NULL; i++)
			if (strcmp(name, names[i]) == 0) {
				buf = xmalloc(sh.sh_size + 1);
				memset(buf, byte, sh.sh_size + 1);
				assert_int_equal(pwrite(fd, buf, sh.sh_size, (off_t)sh.sh_offset),
				                 (ssize_t)sh.sh_size);
				free(buf);
				hit++;
			}
	}
	elf_end(elf);
	close(fd);
	assert_true(hit >= 2);
}

/* Lookups at every byte of outer_fn of a broken file return nothing. */
static void
check_nothing(const char *name, const char *nm_file)
{
	const struct sym *out[MAX_CHAIN];
	struct dso *d = dso_of(name);
	uint64_t start, size, i;

	nm_lookup(nm_file, "outer_fn", &start, &size);
	for (i = 0; i < size; i++)
		assert_int_equal(srcline_inlines(d, start + i, out, MAX_CHAIN), 0);
}

/* Garbage DWARF (in the file or its debug file) and truncated files. */
static void
test_corrupt(void **state)
{
	static const char *const dwarf_secs[] = {".debug_info", ".debug_abbrev", ".debug_aranges",
	                                         ".debug_rnglists", NULL};
	static const char *const trunc_at[] = {"200", "4000", "9000", NULL};
	char dpath[PATH_MAX];
	size_t i;

	assert_true(bt_sh("cp '%s' '%s'", bt_path("inl"), bt_path("garbage")));
	smash_sections(bt_path("garbage"), dwarf_secs, 0xff);
	check_nothing("garbage", bt_path("inl"));
	assert_true(bt_sh("cp '%s' '%s'", bt_path("inl"), bt_path("zeroes")));
	smash_sections(bt_path("zeroes"), dwarf_secs, 0);
	check_nothing("zeroes", bt_path("inl"));

	/* a debug file that is found (build-id and .symtab intact) but whose
	 * DWARF is garbage */
	assert_true(bt_sh("cd '%s' && %s -O2 -g -DVARIANT=2 -Wl,--build-id=sha1 -o bad.unstripped "
	                  "inl.c && cp bad.unstripped bad && strip --strip-all bad && "
	                  "objcopy --only-keep-debug bad.unstripped bad.debug",
	                  bt_dir, bt_cc));
	snprintf(dpath, sizeof dpath, "%s", bt_path("bad.debug"));
	smash_sections(dpath, dwarf_secs, 0xff);
	assert_true(install_debug(bt_path("bad"), "cp", dpath));
	(void)dso_offset_to_addr(dso_of("bad"), 0);
	assert_non_null(dso_of("bad")->debug_file);
	check_nothing("bad", bt_path("bad.unstripped"));

	for (i = 0; trunc_at[i] != NULL; i++) {
		assert_true(bt_sh("cd '%s' && cp inl trunc%zu && truncate -s %s trunc%zu", bt_dir,
		                  i, trunc_at[i], i));
		snprintf(dpath, sizeof dpath, "trunc%zu", i);
		check_nothing(dpath, bt_path("inl"));
	}
}

/* Make the directory tree and the binaries. */
static int
setup(void **state)
{
	FILE *f;

	if (bt_mkdirs("tt-srcline") != 0)
		return -1;
	f = fopen(bt_path("inl.c"), "w");
	if (f == NULL || fputs(prog_src, f) < 0 || fclose(f) != 0)
		return -1;
	if (!bt_sh("cd '%s' && %s -O2 -g -DVARIANT=0 -o inl inl.c && "
	           "%s -O2 -DVARIANT=0 -o nodbg inl.c && "
	           "%s -O2 -g -DVARIANT=1 -Wl,--build-id=sha1 -o bid.unstripped inl.c && "
	           "cp bid.unstripped bid && strip --strip-all bid && "
	           "%s -O2 -g -gz=zlib -DVARIANT=0 -o inlz inl.c",
	           bt_dir, bt_cc, bt_cc, bt_cc, bt_cc))
		return -1;
	return install_debug(bt_path("bid"), "objcopy --only-keep-debug", bt_path("bid.unstripped"))
	           ? 0
	           : -1;
}

/* Remove the directory tree. */
static int
teardown(void **state)
{
	srcline_free_all();
	dso_cache_free();
	return bt_sh("rm -rf '%s'", bt_dir) ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_inlines),       cmocka_unit_test(test_no_debug),
	    cmocka_unit_test(test_debug_file),    cmocka_unit_test(test_other_dsos),
	    cmocka_unit_test(test_cache_flush),   cmocka_unit_test(test_async),
	    cmocka_unit_test(test_corrupt),       cmocka_unit_test(test_async_inflated),
	    cmocka_unit_test(test_aranges_parse), cmocka_unit_test(test_flat_libc),
	    cmocka_unit_test(test_flat_too_big),
	};
	static const char *const tools[] = {"nm",      "strip",     "objcopy",
	                                    "readelf", "addr2line", "truncate"};
	const char *why;

	if ((why = bt_missing(tools, ARRAY_SIZE(tools))) != NULL) {
		printf("1..0 # SKIP %s\n", why);
		return 0;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
