/* Unit tests for procmaps: lines of /proc/PID/maps parsed by hand (file,
 * anonymous, special and deleted mappings; malformed lines refused), the
 * ioctl and the text giving the same executable mappings of this very
 * process, and a plain file read as text. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/procmaps.h"

/* Every field of a file mapping's line, and its name with spaces kept. */
static void
test_parse_file(void **state)
{
	struct procmap m;

	(void)state;
	assert_true(procmaps_parse_line("55d0c8a00000-55d0c8a21000 r-xp 00002000 fe:01 1837402"
	                                "                    /usr/bin/my prog",
	                                &m));
	assert_int_equal(m.start, 0x55d0c8a00000ULL);
	assert_int_equal(m.end, 0x55d0c8a21000ULL);
	assert_int_equal(m.pgoff, 0x2000);
	assert_int_equal(major(m.dev), 0xfe);
	assert_int_equal(minor(m.dev), 1);
	assert_int_equal(m.ino, 1837402);
	assert_true(m.exec);
	assert_string_equal(m.name, "/usr/bin/my prog");
	assert_true(procmaps_parse_line("7f0000000000-7f0000001000 rw-p 00000000 00:00 0 ", &m));
	assert_false(m.exec);
	assert_string_equal(m.name, "");
	assert_true(procmaps_parse_line("7f0000000000-7f0000001000 r-xp 00000000 00:00 0", &m));
	assert_true(m.exec);
	assert_string_equal(m.name, "");
	assert_true(procmaps_parse_line(
	    "7ffd1c3f5000-7ffd1c3f7000 r-xp 00000000 00:00 0                          [vdso]", &m));
	assert_string_equal(m.name, "[vdso]");
	assert_true(procmaps_parse_line(
	    "7f1000000000-7f1000002000 r-xp 00001000 103:02 99 /tmp/x (deleted)", &m));
	assert_int_equal(major(m.dev), 0x103);
	assert_int_equal(minor(m.dev), 2);
	assert_string_equal(m.name, "/tmp/x (deleted)");
	/* the largest addresses and inodes there are */
	assert_true(procmaps_parse_line("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 "
	                                "18446744073709551615 [vsyscall]",
	                                &m));
	assert_int_equal(m.start, 0xffffffffff600000ULL);
	assert_int_equal(m.ino, (ino_t)UINT64_MAX);
}

/* Lines that are not of the maps file are refused, not half read. */
static void
test_parse_bad(void **state)
{
	static const char *const bad[] = {
	    "",
	    "garbage",
	    "1000",
	    "1000-",
	    "1000-2000",
	    "1000-2000 r-x",
	    "1000-2000 r-xp",
	    "1000-2000 r-xp 0",
	    "1000-2000 r-xp 0 fe",
	    "1000-2000 r-xp 0 fe:01",
	    "1000-2000 r-xp 0 fe:01 x",
	    "1000-2000 r-xp 0 fe:01 12x /a",
	    "1000-2000 r-xp zz fe:01 1 /a",
	    "G000-2000 r-xp 0 fe:01 1 /a",
	    "10000000000000000-2000 r-xp 0 fe:01 1 /a",
	    "1000-2000 r-xp 0 fe:01 18446744073709551616 /a",
	    "1000-2000 r-xp 0 100000000:01 1 /a",
	};
	struct procmap m;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (procmaps_parse_line(bad[i], &m))
			fail_msg("accepted \"%s\"", bad[i]);
}

/* Mappings collected by procmaps_exec. */
struct list {
	struct procmap m[256];
	char names[256][256];
	size_t n;
};

/* procmaps_exec's callback: keep a copy. */
static void
keep(void *arg, const struct procmap *m)
{
	struct list *l = arg;

	assert_true(m->exec);
	if (l->n == 256)
		return;
	l->m[l->n] = *m;
	snprintf(l->names[l->n], sizeof l->names[0], "%s", m->name);
	l->m[l->n].name = l->names[l->n];
	l->n++;
}

/* This process's executable mappings are the same by the ioctl as by the
 * text, but for [vsyscall], which the text shows and no process maps. */
static void
test_self_query_and_text(void **state)
{
	struct list *q = calloc(1, sizeof *q), *t = calloc(1, sizeof *t);
	size_t j = 0;
	bool code = false;

	(void)state;
	assert_int_equal(procmaps_exec("/proc/self/maps", true, keep, t), 0);
	assert_int_equal(procmaps_exec("/proc/self/maps", false, keep, q), 0);
	assert_true(t->n > 0);
	for (size_t i = 0; i < t->n; i++) {
		const struct procmap *a = &t->m[i];

		if (strcmp(a->name, "[vsyscall]") == 0)
			continue;
		assert_true(j < q->n);
		assert_int_equal(a->start, q->m[j].start);
		assert_int_equal(a->end, q->m[j].end);
		assert_int_equal(a->pgoff, q->m[j].pgoff);
		assert_int_equal(a->dev, q->m[j].dev);
		assert_int_equal(a->ino, q->m[j].ino);
		assert_string_equal(a->name, q->m[j].name);
		/* this function's own code is among them */
		code |= (uintptr_t)test_self_query_and_text >= a->start &&
		        (uintptr_t)test_self_query_and_text < a->end;
		j++;
	}
	assert_int_equal(j, q->n);
	assert_true(code);
	free(q);
	free(t);
}

/* A plain file (a test's fake /proc) has no ioctl: its text is read. */
static void
test_plain_file(void **state)
{
	char path[] = "/tmp/tt-procmaps-XXXXXX";
	struct list *l = calloc(1, sizeof *l);
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("400000-401000 r--p 00000000 08:01 10 /bin/x\n"
	      "401000-402000 r-xp 00001000 08:01 10 /bin/x\n"
	      "not a line\n"
	      "7f0000000000-7f0000001000 rwxp 00000000 00:00 0\n",
	      f);
	fclose(f);
	assert_int_equal(procmaps_exec(path, false, keep, l), 0);
	unlink(path);
	assert_int_equal(l->n, 2);
	assert_int_equal(l->m[0].start, 0x401000);
	assert_int_equal(l->m[0].pgoff, 0x1000);
	assert_string_equal(l->m[0].name, "/bin/x");
	assert_string_equal(l->m[1].name, "");
	assert_int_equal(procmaps_exec("/nonexistent/maps", false, keep, l), -1);
	free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_file),
	    cmocka_unit_test(test_parse_bad),
	    cmocka_unit_test(test_self_query_and_text),
	    cmocka_unit_test(test_plain_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
