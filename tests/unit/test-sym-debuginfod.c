/* Unit tests for src/sym-debuginfod.c, with a fake in place of the
 * library (tests/e2e/debuginfod.sh runs a real server): off without
 * DEBUGINFOD_URLS; a build-id no server has, or whose download failed, is
 * not asked for again (the memory is bounded); unreachable servers give
 * one note and no more questions; the notes a status holds are the last
 * ones, in order; an interrupt stops fetching; the header's words. And
 * through src/dso.c: a stripped program's symbol load on the worker puts
 * itself off, then downloads and names its functions; a load on the loop
 * thread never downloads, but uses what a download left in the cache. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "buildtest.h"
#include "tracetop/dso.h"
#include "tracetop/sym-debuginfod.h"
#include "tracetop/sym-elf.h"
#include "tracetop/util.h"

static const char prog_src[] = "static int __attribute__((noinline)) fn_local(int x)\n"
                               "{ return x * 3 + 1; }\n"
                               "int __attribute__((noinline)) fn_beta(int x)\n"
                               "{ return fn_local(x) ^ 5; }\n"
                               "int main(int argc, char **argv)\n"
                               "{ (void)argv; return fn_beta(argc) == 42; }\n";

/* What the fake answers, and how often it was asked. */
static int fake_rc;
static bool fake_data;
static int fake_calls;

/* The fake server: a copy of prog.debug into the cache where the client
 * would put it, or fake_rc. */
static void
fake_backend(const uint8_t *id, size_t len, struct symdbg_answer *a)
{
	char hex[64];

	fake_calls++;
	a->got_data = fake_data;
	a->rc = fake_rc;
	if (fake_rc < 0)
		return;
	for (size_t i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	a->path = xasprintf("%s/cache/%s/debuginfo", bt_dir, hex);
	if (!bt_sh("mkdir -p '%s/cache/%s' && cp '%s' '%s'", bt_dir, hex, bt_path("prog.debug"),
	           a->path))
		a->rc = -EIO;
}

/* Start from nothing: servers named, the fake answering fake_rc. */
static void
fresh(int rc, bool data)
{
	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:9/", 1);
	unsetenv("DEBUGINFOD_MAXTIME");
	symdbg_configure(true);
	fake_rc = rc;
	fake_data = data;
	fake_calls = 0;
}

/* A build-id made of one repeated byte. */
static const uint8_t *
bid(uint8_t b)
{
	static uint8_t id[20];

	memset(id, b, sizeof id);
	id[19] = (uint8_t)(b * 7 + 1);
	return id;
}

/* Off: no servers named, or --no-debuginfod. */
static void
test_off(void **state)
{
	struct symdbg_status st;

	(void)state;
	unsetenv("DEBUGINFOD_URLS");
	symdbg_configure(true);
	assert_false(symdbg_enabled());
	fake_calls = 0;
	assert_false(symdbg_wanted(bid(1), 20));
	assert_null(symdbg_fetch(bid(1), 20, "/lib/x.so"));
	assert_null(symdbg_cached(bid(1), 20));
	setenv("DEBUGINFOD_URLS", "  ", 1);
	symdbg_configure(true);
	assert_false(symdbg_enabled());
	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:9", 1);
	symdbg_configure(false);
	assert_false(symdbg_enabled());
	assert_null(symdbg_fetch(bid(1), 20, "/lib/x.so"));
	assert_int_equal(fake_calls, 0);
	symdbg_status(&st);
	assert_false(st.on);
	symdbg_configure(true);
	assert_true(symdbg_enabled());
}

/* A build-id no server has is asked for once, silently. */
static void
test_missing(void **state)
{
	struct symdbg_status st;

	(void)state;
	fresh(-ENOENT, false);
	assert_true(symdbg_wanted(bid(1), 20));
	assert_null(symdbg_fetch(bid(1), 20, "/lib/libx.so.1"));
	assert_int_equal(fake_calls, 1);
	assert_false(symdbg_wanted(bid(1), 20));
	assert_null(symdbg_fetch(bid(1), 20, "/lib/libx.so.1"));
	assert_int_equal(fake_calls, 1);
	assert_true(symdbg_wanted(bid(2), 20));
	symdbg_status(&st);
	assert_true(st.on);
	assert_int_equal(st.missing, 1);
	assert_int_equal(st.note_seq, 0);
	assert_false(st.offline);
	assert_false(st.fetching);
}

/* Unreachable servers: one note, then no question until the retry. */
static void
test_offline(void **state)
{
	struct symdbg_status st;
	char text[128];

	(void)state;
	fresh(-ECONNREFUSED, false);
	assert_null(symdbg_fetch(bid(1), 20, "/lib/libx.so.1"));
	assert_int_equal(fake_calls, 1);
	symdbg_status(&st);
	assert_true(st.offline);
	assert_int_equal(st.note_seq, 1);
	assert_int_equal(st.notes[0].seq, 1);
	assert_string_equal(st.notes[0].text, "debuginfod: http://127.0.0.1:9/: cannot reach the "
	                                      "server (Connection refused); going on without");
	assert_true(symdbg_status_text(&st, text, sizeof text));
	assert_string_equal(text, "offline");
	/* not the build-id's fault, but nobody is asked now */
	assert_false(symdbg_wanted(bid(1), 20));
	assert_false(symdbg_wanted(bid(2), 20));
	assert_null(symdbg_fetch(bid(2), 20, "/lib/liby.so.1"));
	assert_int_equal(fake_calls, 1);
	symdbg_status(&st);
	assert_int_equal(st.note_seq, 1);
	assert_int_equal(st.missing + st.failed, 0);

	/* a server that never answered is unreachable too; a download that
	 * started and took too long is that build-id's failure */
	fresh(-ETIMEDOUT, false);
	assert_null(symdbg_fetch(bid(1), 20, "/lib/libx.so.1"));
	symdbg_status(&st);
	assert_true(st.offline);
	assert_non_null(strstr(st.notes[0].text, "cannot reach the server (no answer in 10 s)"));
	setenv("DEBUGINFOD_URLS", " http://a.example  http://b.example ", 1);
	symdbg_configure(true);
	assert_null(symdbg_fetch(bid(1), 20, "/lib/libx.so.1"));
	symdbg_status(&st);
	assert_non_null(strstr(st.notes[0].text, ": cannot reach the servers (no answer in 10 s)"));
	fresh(-ETIME, true);
	assert_null(symdbg_fetch(bid(1), 20, "/usr/lib/libbig.so"));
	symdbg_status(&st);
	assert_false(st.offline);
	assert_int_equal(st.failed, 1);
	assert_string_equal(st.notes[0].text, "debuginfod: libbig.so: gave up after 30 s "
	                                      "(DEBUGINFOD_MAXTIME)");
	assert_false(symdbg_wanted(bid(1), 20));
	assert_true(symdbg_wanted(bid(2), 20));
	setenv("DEBUGINFOD_MAXTIME", "5", 1);
	symdbg_configure(true);
	assert_null(symdbg_fetch(bid(1), 20, "/usr/lib/libbig.so"));
	symdbg_status(&st);
	assert_non_null(strstr(st.notes[0].text, "gave up after 5 s"));
}

/* The failures remembered are the last SYMDBG_FAIL_MEMORY. */
static void
test_fail_memory(void **state)
{
	uint8_t id[20] = {0};

	(void)state;
	fresh(-ENOENT, false);
	for (unsigned i = 0; i <= SYMDBG_FAIL_MEMORY; i++) {
		id[0] = (uint8_t)i;
		id[1] = (uint8_t)(i >> 8);
		assert_null(symdbg_fetch(id, sizeof id, "x"));
	}
	assert_int_equal(fake_calls, SYMDBG_FAIL_MEMORY + 1);
	id[0] = id[1] = 0; /* the first: forgotten */
	assert_true(symdbg_wanted(id, sizeof id));
	id[0] = 1; /* the second: still known */
	assert_false(symdbg_wanted(id, sizeof id));
	assert_false(symdbg_wanted(id, 0));
	assert_false(symdbg_wanted(id, 64));
}

/* A status holds the last notes, oldest first; names are escaped. */
static void
test_notes(void **state)
{
	struct symdbg_status st;

	(void)state;
	fresh(-EIO, true);
	for (uint8_t i = 1; i <= 6; i++)
		assert_null(
		    symdbg_fetch(bid(i), 20, i == 6 ? "/lib/bad\033[2Jname.so" : "/lib/x.so"));
	symdbg_status(&st);
	assert_int_equal(st.note_seq, 6);
	assert_int_equal(st.failed, 6);
	for (int i = 0; i < SYMDBG_NOTES; i++)
		assert_int_equal(st.notes[i].seq, 3 + i);
	assert_string_equal(st.notes[2].text, "debuginfod: x.so: Input/output error");
	assert_string_equal(st.notes[3].text, "debuginfod: bad\\x1b[2Jname.so: Input/output error");
}

/* An interrupt stops fetching until it is lifted. */
static void
test_interrupt(void **state)
{
	(void)state;
	fresh(-ENOENT, false);
	symdbg_interrupt(true);
	assert_false(symdbg_wanted(bid(1), 20));
	assert_null(symdbg_fetch(bid(1), 20, "x"));
	assert_int_equal(fake_calls, 0);
	symdbg_interrupt(false);
	assert_true(symdbg_wanted(bid(1), 20));
}

/* The header's words. */
static void
test_status_text(void **state)
{
	struct symdbg_status st = {.on = true, .fetching = true, .name = "libfoo.so"};
	char text[128];

	(void)state;
	assert_true(symdbg_status_text(&st, text, sizeof text));
	assert_string_equal(text, "fetching libfoo.so");
	st.bytes = 1536;
	assert_true(symdbg_status_text(&st, text, sizeof text));
	assert_string_equal(text, "fetching libfoo.so (1.5 KiB)");
	st.total = 3 * 1024 * 1024 + 400 * 1024;
	assert_true(symdbg_status_text(&st, text, sizeof text));
	assert_string_equal(text, "fetching libfoo.so (1.5 KiB of 3.4 MiB)");
	st.fetching = false;
	assert_false(symdbg_status_text(&st, text, sizeof text));
	assert_string_equal(text, "");
	st.offline = true;
	assert_true(symdbg_status_text(&st, text, sizeof text));
	assert_string_equal(text, "offline");
}

/* The address of a function of the unstripped program, per nm. */
static uint64_t
fn_addr(const char *name)
{
	uint64_t addr = 0, size;

	assert_true(bt_nm(bt_path("prog.full"), false, name, &addr, &size));
	return addr;
}

/* The loop thread's loads never download, even when it would help. */
static void
test_sync_never_fetches(void **state)
{
	struct dso *d;

	(void)state;
	fresh(0, true);
	d = bt_dso("prog");
	dso_load_now(d);
	assert_int_equal(fake_calls, 0);
	assert_null(d->debug_file);
	assert_null(dso_find_sym(d, fn_addr("fn_local")));
	dso_cache_free();
}

/* The worker's load puts itself off, then downloads and names; later
 * loads (of a copy with the same build-id, here on the loop thread) use
 * the cache. */
static void
test_job_fetches(void **state)
{
	struct dso_load_job *j;
	struct symdbg_status st;
	const struct sym *s;
	struct dso *d;

	(void)state;
	fresh(0, true);
	d = bt_dso("prog");
	j = dso_load_job_new(d);
	assert_false(dso_load_job_run(j, true));
	assert_int_equal(fake_calls, 0);
	assert_false(dso_load_job_run(j, true));
	assert_true(dso_load_job_run(j, false));
	assert_int_equal(fake_calls, 1);
	assert_true(dso_load_job_run(j, true)); /* answered: not again */
	assert_ptr_equal(dso_load_job_finish(j), d);
	assert_non_null(d->debug_file);
	assert_non_null(strstr(d->debug_file, "/cache/"));
	s = dso_find_sym(d, fn_addr("fn_local"));
	assert_non_null(s);
	assert_string_equal(s->name, "fn_local");
	s = dso_find_sym(d, fn_addr("fn_beta"));
	assert_non_null(s);
	assert_string_equal(s->name, "fn_beta");
	symdbg_status(&st);
	assert_int_equal(st.fetched, 1);
	assert_int_equal(st.note_seq, 1);
	assert_non_null(strstr(st.notes[0].text, "debuginfod: fetched the debug info of prog ("));

	/* a copy: on the loop thread, from the cache, no download */
	assert_true(bt_sh("cp '%s' '%s'", bt_path("prog"), bt_path("prog2")));
	d = bt_dso("prog2");
	dso_load_now(d);
	assert_int_equal(fake_calls, 1);
	assert_non_null(d->debug_file);
	s = dso_find_sym(d, fn_addr("fn_local"));
	assert_non_null(s);
	assert_string_equal(s->name, "fn_local");
	/* the next run (the memory of this one gone) finds it on disk */
	dso_cache_free();
	symdbg_configure(true);
	d = bt_dso("prog2");
	dso_load_now(d);
	assert_non_null(d->debug_file);
	assert_non_null(dso_find_sym(d, fn_addr("fn_beta")));
	/* a local debug file needs no download: the job answers at once */
	dso_cache_free();
	fresh(0, true);
	assert_true(bt_sh("cp '%s' '%s'", bt_path("prog.full"), bt_path("prog3")));
	j = dso_load_job_new(bt_dso("prog3"));
	assert_true(dso_load_job_run(j, true));
	dso_load_job_free(j);
	assert_int_equal(fake_calls, 0);
	dso_cache_free();
}

/* Build the program, its debug file apart, and strip it. */
static int
setup(void **state)
{
	FILE *f;

	(void)state;
	if (bt_mkdirs("tt-dbgd") != 0 || (f = fopen(bt_path("prog.c"), "w")) == NULL)
		return -1;
	fputs(prog_src, f);
	fclose(f);
	if (!bt_sh("cd '%s' && %s -g -O1 -Wl,--build-id=sha1 -o prog.full prog.c && "
	           "objcopy --only-keep-debug prog.full prog.debug && "
	           "strip --strip-all -o prog prog.full",
	           bt_dir, bt_cc))
		return -1;
	setenv("DEBUGINFOD_CACHE_PATH", bt_path("cache"), 1);
	symdbg_set_backend(fake_backend);
	return 0;
}

/* Remove it all. */
static int
teardown(void **state)
{
	symdbg_set_backend(NULL);
	dso_cache_free();
	return bt_remove_dir(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_off),         cmocka_unit_test(test_missing),
	    cmocka_unit_test(test_offline),     cmocka_unit_test(test_fail_memory),
	    cmocka_unit_test(test_notes),       cmocka_unit_test(test_interrupt),
	    cmocka_unit_test(test_status_text), cmocka_unit_test(test_sync_never_fetches),
	    cmocka_unit_test(test_job_fetches),
	};
	static const char *const tools[] = {"nm", "strip", "objcopy"};

	return bt_run_group("sym-debuginfod", tests, ARRAY_SIZE(tests), tools, ARRAY_SIZE(tools),
	                    setup, teardown);
}
