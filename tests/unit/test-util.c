/* Unit tests for util: whole-string number parsing, pid and CPU lists, the
 * online CPU set, escaping of untrusted text, interning, small-file reads,
 * the clock and the allocation and error helpers. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/util.h"

/* One parse_u64 case; ok false means it must fail and leave out alone. */
struct u64_case {
	const char *s;
	bool ok;
	uint64_t want;
};

/* Whole decimal or 0x hex numbers only; anything else fails untouched. */
static void
test_parse_u64(void **state)
{
	static const struct u64_case cases[] = {
	    {"0", true, 0},
	    {"42", true, 42},
	    {"0x1f", true, 31},
	    {"0X10", true, 16},
	    {"0xffffffffffffffff", true, UINT64_MAX},
	    {"18446744073709551615", true, UINT64_MAX},
	    {"010", true, 10},
	    {"08", true, 8},
	    {"18446744073709551616", false, 0},
	    {"0x10000000000000000", false, 0},
	    {"", false, 0},
	    {"abc", false, 0},
	    {"12abc", false, 0},
	    {"1.5", false, 0},
	    {"-1", false, 0},
	    {"-0", false, 0},
	    {"+5", false, 0},
	    {" 1", false, 0},
	    {"\t1", false, 0},
	    {"1 ", false, 0},
	    {"1\n", false, 0},
	    {"0x", false, 0},
	    {"0xg", false, 0},
	    {"0x-1", false, 0},
	};
	const uint64_t sentinel = 0xdeadbeefULL;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t v = sentinel;
		int rc = parse_u64(cases[i].s, &v);

		if (rc != (cases[i].ok ? 0 : -1) || v != (cases[i].ok ? cases[i].want : sentinel))
			fail_msg("parse_u64(\"%s\") = %d, %llu", cases[i].s, rc,
			         (unsigned long long)v);
	}
	assert_int_equal(parse_u64(NULL, &(uint64_t){0}), -1);
}

/* One parse_int case. */
struct int_case {
	const char *s;
	bool ok;
	int want;
};

/* Decimal ints in range, signed, nothing around them. */
static void
test_parse_int(void **state)
{
	static const struct int_case cases[] = {
	    {"0", true, 0},
	    {"7", true, 7},
	    {"-5", true, -5},
	    {"2147483647", true, 2147483647},
	    {"-2147483648", true, -2147483647 - 1},
	    {"010", true, 10},
	    {"2147483648", false, 0},
	    {"-2147483649", false, 0},
	    {"99999999999999999999999", false, 0},
	    {"0x10", false, 0},
	    {"", false, 0},
	    {"-", false, 0},
	    {"1.0", false, 0},
	    {"12a", false, 0},
	    {" 3", false, 0},
	    {"3 ", false, 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int v = 12345;
		int rc = parse_int(cases[i].s, &v);

		if (rc != (cases[i].ok ? 0 : -1) || v != (cases[i].ok ? cases[i].want : 12345))
			fail_msg("parse_int(\"%s\") = %d, %d", cases[i].s, rc, v);
	}
	assert_int_equal(parse_int(NULL, &(int){0}), -1);
}

/* One parse_double case. */
struct double_case {
	const char *s;
	bool ok;
	double want;
};

/* Finite numbers with fractions and exponents; nan, inf and junk fail. */
static void
test_parse_double(void **state)
{
	static const struct double_case cases[] = {
	    /* accepted */
	    {"0.5", true, 0.5},
	    {"2", true, 2.0},
	    {".25", true, 0.25},
	    {"-1.75", true, -1.75},
	    {"1e3", true, 1000.0},
	    {"1e300", true, 1e300},
	    {"1e305", true, 1e305},
	    /* rejected */
	    {"", false, 0},
	    {"abc", false, 0},
	    {"1.5x", false, 0},
	    {"1,5", false, 0},
	    {" 1", false, 0},
	    {"1 ", false, 0},
	    {"nan", false, 0},
	    {"NaN", false, 0},
	    {"inf", false, 0},
	    {"-inf", false, 0},
	    {"infinity", false, 0},
	    {"1e400", false, 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		double v = 99.0;
		int rc = parse_double(cases[i].s, &v);

		if (rc != (cases[i].ok ? 0 : -1) || v != (cases[i].ok ? cases[i].want : 99.0))
			fail_msg("parse_double(\"%s\") = %d, %g", cases[i].s, rc, v);
	}
	assert_int_equal(parse_double(NULL, &(double){0}), -1);
}

/* One list case: n items in want, or n -1 when the parse must fail. */
struct list_case {
	const char *s;
	int n;
	int want[8];
};

/* Run list cases through parse (parse_int_list or parse_cpu_list). */
static void
check_lists(const char *name, int (*parse)(const char *, int **, size_t *),
            const struct list_case *cases, size_t ncases)
{
	for (size_t i = 0; i < ncases; i++) {
		const struct list_case *c = &cases[i];
		int *v = NULL;
		size_t n = 777;
		int rc = parse(c->s, &v, &n);

		if (c->n < 0) {
			if (rc != -1 || v != NULL || n != 777)
				fail_msg("%s(\"%s\") accepted a bad list", name, c->s);
			continue;
		}
		if (rc != 0)
			fail_msg("%s(\"%s\") rejected a good list", name, c->s);
		if (n != (size_t)c->n)
			fail_msg("%s(\"%s\") gave %zu items, want %d", name, c->s, n, c->n);
		for (size_t j = 0; j < n; j++)
			if (v[j] != c->want[j])
				fail_msg("%s(\"%s\")[%zu] = %d, want %d", name, c->s, j, v[j],
				         c->want[j]);
		free(v);
	}
}

/* Positive ints separated by single commas, in the given order. */
static void
test_parse_int_list(void **state)
{
	static const struct list_case cases[] = {
	    {"1", 1, {1}},
	    {"1,2,3", 3, {1, 2, 3}},
	    {"30,2,30", 3, {30, 2, 30}},
	    {"2147483647", 1, {2147483647}},
	    {"", -1, {0}},
	    {",", -1, {0}},
	    {",1", -1, {0}},
	    {"1,", -1, {0}},
	    {"1,,2", -1, {0}},
	    {"0", -1, {0}},
	    {"1,0", -1, {0}},
	    {"-3", -1, {0}},
	    {"a", -1, {0}},
	    {"1,a", -1, {0}},
	    {"1 ,2", -1, {0}},
	    {"1, 2", -1, {0}},
	    {"2147483648", -1, {0}},
	};

	(void)state;
	check_lists("parse_int_list", parse_int_list, cases, ARRAY_SIZE(cases));
	assert_int_equal(parse_int_list(NULL, &(int *){NULL}, &(size_t){0}), -1);
}

/* CPU ranges: sorted, de-duplicated, one trailing newline as in sysfs. */
static void
test_parse_cpu_list(void **state)
{
	static const struct list_case cases[] = {
	    {"0", 1, {0}},
	    {"7", 1, {7}},
	    {"0-3,5", 5, {0, 1, 2, 3, 5}},
	    {"3,1,1-2", 3, {1, 2, 3}},
	    {"5-5,5", 1, {5}},
	    {"8-9,0-1,4", 5, {0, 1, 4, 8, 9}},
	    {"0-1\n", 2, {0, 1}},
	    {"0-3,6\n", 5, {0, 1, 2, 3, 6}},
	    {"65535", 1, {65535}},
	    {"", -1, {0}},
	    {"\n", -1, {0}},
	    {"0-", -1, {0}},
	    {"-1", -1, {0}},
	    {"3-1", -1, {0}},
	    {"a", -1, {0}},
	    {"1a", -1, {0}},
	    {"1,,2", -1, {0}},
	    {",", -1, {0}},
	    {",1", -1, {0}},
	    {"1,", -1, {0}},
	    {"1-2-3", -1, {0}},
	    {"1 ", -1, {0}},
	    {" 1", -1, {0}},
	    {"65536", -1, {0}},
	    {"0-99999999999999999999", -1, {0}},
	    {"0-1\nx", -1, {0}},
	    {"0-1\n\n", -1, {0}},
	};

	(void)state;
	check_lists("parse_cpu_list", parse_cpu_list, cases, ARRAY_SIZE(cases));
	assert_int_equal(parse_cpu_list(NULL, &(int *){NULL}, &(size_t){0}), -1);
}

/* The online set has as many CPUs as sysconf counts, strictly increasing. */
static void
test_online_cpus(void **state)
{
	struct tt_err err = {{0}};
	int *cpus = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(online_cpus(&cpus, &n, &err), 0);
	assert_int_equal(n, sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(cpus[0] >= 0);
	for (size_t i = 1; i < n; i++)
		assert_true(cpus[i] > cpus[i - 1]);
	free(cpus);
}

/* One str_escape case: srclen -1 means strlen(src) + 1 (past the NUL). */
struct escape_case {
	const char *src;
	long srclen;
	size_t dstlen;
	const char *want;
};

/* Escaping, UTF-8 validation and truncation, with a canary past dstlen. */
static void
test_str_escape(void **state)
{
	static const struct escape_case cases[] = {
	    /* printable ASCII passes; controls, DEL and backslash do not */
	    {"hello, world ~!", -1, 64, "hello, world ~!"},
	    {"a\x1b[31mb", -1, 64, "a\\x1b[31mb"},
	    {"a\nb", -1, 64, "a\\x0ab"},
	    {"\t\r", -1, 64, "\\x09\\x0d"},
	    {"a\\b", -1, 64, "a\\\\b"},
	    {"\x7f", -1, 64, "\\x7f"},
	    {"\x01", -1, 64, "\\x01"},
	    /* valid UTF-8 is kept whole */
	    {"caf\xc3\xa9", -1, 64, "caf\xc3\xa9"},
	    {"\xc2\xa0", -1, 64, "\xc2\xa0"},
	    {"\xe2\x82\xac", -1, 64, "\xe2\x82\xac"},
	    {"\xf0\x9f\x98\x80!", -1, 64, "\xf0\x9f\x98\x80!"},
	    {"\xf4\x8f\xbf\xbf", -1, 64, "\xf4\x8f\xbf\xbf"},
	    /* invalid UTF-8 is escaped byte by byte */
	    {"\xff", -1, 64, "\\xff"},
	    {"\xfe", -1, 64, "\\xfe"},
	    {"\x80", -1, 64, "\\x80"},
	    {"\xc0\x80", -1, 64, "\\xc0\\x80"},
	    {"\xc1\xbf", -1, 64, "\\xc1\\xbf"},
	    {"\xe0\x80\xaf", -1, 64, "\\xe0\\x80\\xaf"},
	    {"\xf0\x80\x80\xaf", -1, 64, "\\xf0\\x80\\x80\\xaf"},
	    {"\xed\xa0\x80", -1, 64, "\\xed\\xa0\\x80"},
	    {"\xf4\x90\x80\x80", -1, 64, "\\xf4\\x90\\x80\\x80"},
	    {"\xf5\x80\x80\x80", -1, 64, "\\xf5\\x80\\x80\\x80"},
	    {"\xc2\x85", -1, 64, "\\xc2\\x85"},
	    {"\xc2\x9b", -1, 64, "\\xc2\\x9b"},
	    {"\xc3z", -1, 64, "\\xc3z"},
	    {"\xe2\x82", -1, 64, "\\xe2\\x82"},
	    /* srclen: stops early, never reads a sequence past it, stops at NUL */
	    {"hello", 3, 64, "hel"},
	    {"\xc3\xa9", 1, 64, "\\xc3"},
	    {"\xf0\x9f\x98\x80", 3, 64, "\\xf0\\x9f\\x98"},
	    {"ab\0cd", 5, 64, "ab"},
	    {"abc", 0, 64, ""},
	    /* truncation: whole escapes and sequences only, NUL always fits */
	    {"abc", -1, 1, ""},
	    {"abc", -1, 3, "ab"},
	    {"abc", -1, 4, "abc"},
	    {"ab\x1b", -1, 4, "ab"},
	    {"ab\x1b", -1, 6, "ab"},
	    {"ab\x1b", -1, 7, "ab\\x1b"},
	    {"ab\x1bz", -1, 7, "ab\\x1b"},
	    {"\\", -1, 2, ""},
	    {"\\", -1, 3, "\\\\"},
	    {"a\xc3\xa9", -1, 3, "a"},
	    {"a\xc3\xa9", -1, 4, "a\xc3\xa9"},
	    {"\xf0\x9f\x98\x80", -1, 4, ""},
	    {"\xf0\x9f\x98\x80", -1, 5, "\xf0\x9f\x98\x80"},
	    {"\xffz", -1, 5, "\\xff"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct escape_case *c = &cases[i];
		size_t srclen = c->srclen < 0 ? strlen(c->src) + 1 : (size_t)c->srclen;
		char dst[128];
		size_t got;

		memset(dst, 'Z', sizeof dst);
		got = str_escape(dst, c->dstlen, c->src, srclen);
		if (strcmp(dst, c->want) != 0 || got != strlen(c->want))
			fail_msg("case %zu: str_escape gave \"%s\" (%zu), want \"%s\"", i, dst, got,
			         c->want);
		for (size_t j = c->dstlen; j < sizeof dst; j++)
			if (dst[j] != 'Z')
				fail_msg("case %zu: str_escape wrote past dstlen at %zu", i, j);
	}
}

/* For JSON a backslash stays single (the JSON writer doubles it, so the
 * decoded name is the name itself); control and invalid bytes are escaped
 * as for a terminal. */
static void
test_str_escape_json(void **state)
{
	char dst[64];

	(void)state;
	assert_int_equal(str_escape_json(dst, sizeof dst, "RegExp:(\\d+)\x1b\xff", 14), 20);
	assert_string_equal(dst, "RegExp:(\\d+)\\x1b\\xff");
	str_escape(dst, sizeof dst, "a\\d", 3);
	assert_string_equal(dst, "a\\\\d");
}

/* dstlen 0 writes nothing; every byte value comes out printable. */
static void
test_str_escape_edges(void **state)
{
	char src[256], dst[1200];
	size_t got;

	(void)state;
	dst[0] = 'Z';
	assert_int_equal(str_escape(dst, 0, "abc", 3), 0);
	assert_int_equal(dst[0], 'Z');
	for (int i = 0; i < 255; i++)
		src[i] = (char)(i + 1);
	got = str_escape(dst, sizeof dst, src, 255);
	assert_int_equal(got, strlen(dst));
	for (size_t j = 0; j < got; j++) {
		unsigned char ch = (unsigned char)dst[j];

		assert_true(ch >= 0x20 && ch != 0x7f);
	}
	/* 0x01..0x1f, 0x7f..0xff escaped (4 bytes), backslash 2, the rest 1 */
	assert_int_equal(got, 31 * 4 + 129 * 4 + 2 + 94);
}

/* Equal strings share one copy; distinct ones never collide, even past growth. */
static void
test_str_intern(void **state)
{
	enum { N = 20000 };
	const char **ptrs = xcalloc(N, sizeof *ptrs);
	char buf[32], other[32];
	const char *a, *first;

	(void)state;
	strcpy(buf, "bash");
	strcpy(other, "bash");
	a = str_intern(buf);
	assert_ptr_not_equal(a, buf);
	assert_ptr_equal(str_intern(other), a);
	assert_string_equal(a, "bash");
	assert_ptr_not_equal(str_intern("zsh"), a);
	assert_ptr_not_equal(str_intern("bas"), a);
	assert_string_equal(str_intern(""), "");
	buf[0] = 'c';
	assert_string_equal(a, "bash");
	first = a;

	for (size_t i = 0; i < N; i++) {
		snprintf(buf, sizeof buf, "name-%zu", i);
		ptrs[i] = str_intern(buf);
		assert_string_equal(ptrs[i], buf);
	}
	for (size_t i = 0; i < N; i++) {
		snprintf(buf, sizeof buf, "name-%zu", i);
		assert_ptr_equal(str_intern(buf), ptrs[i]);
		if (i > 0)
			assert_ptr_not_equal(ptrs[i], ptrs[i - 1]);
	}
	assert_ptr_equal(str_intern("bash"), first);
	assert_string_equal(first, "bash");
	free(ptrs);
}

/* A temporary file holding text; its path is written to path. */
static void
make_temp(char *path, size_t len, const char *text)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd;

	snprintf(path, len, "%s/tt-util-XXXXXX", dir);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* Whole reads, truncation to the buffer, empty and missing files. */
static void
test_read_file(void **state)
{
	char path[4096], empty[4096], buf[64];
	int probe;

	(void)state;
	make_temp(path, sizeof path, "hello\nworld\n");
	make_temp(empty, sizeof empty, "");

	memset(buf, 'Z', sizeof buf);
	assert_int_equal(read_file(path, buf, sizeof buf), 12);
	assert_string_equal(buf, "hello\nworld\n");
	assert_int_equal(read_file(path, buf, 13), 12);
	assert_string_equal(buf, "hello\nworld\n");

	memset(buf, 'Z', sizeof buf);
	assert_int_equal(read_file(path, buf, 6), 5);
	assert_string_equal(buf, "hello");
	assert_int_equal(buf[6], 'Z');
	assert_int_equal(read_file(path, buf, 1), 0);
	assert_string_equal(buf, "");

	assert_int_equal(read_file(empty, buf, sizeof buf), 0);
	assert_string_equal(buf, "");

	/* procfs reports size 0 but has content */
	assert_true(read_file("/proc/self/stat", buf, sizeof buf) > 0);
	assert_int_equal(strlen(buf), sizeof buf - 1);

	errno = 0;
	assert_int_equal(read_file("/nonexistent/tracetop-test", buf, sizeof buf), -1);
	assert_int_equal(errno, ENOENT);

	/* len 0 fails without leaking a descriptor */
	probe = open("/dev/null", O_RDONLY);
	assert_true(probe >= 0);
	close(probe);
	assert_int_equal(read_file(path, buf, 0), -1);
	assert_int_equal(open("/dev/null", O_RDONLY), probe);
	close(probe);

	unlink(path);
	unlink(empty);
}

/* The clock never goes back and sees a 2 ms sleep. */
static void
test_now_ns(void **state)
{
	struct timespec ts = {0, 2000000};
	uint64_t a, b;

	(void)state;
	a = now_ns();
	nanosleep(&ts, NULL);
	b = now_ns();
	assert_true(a > 0);
	assert_true(b - a >= 2000000);
	assert_true(b - a < 10ULL * 1000000000ULL);
}

/* Allocation helpers copy and format; err_set formats and returns -1;
 * hex digits. */
static void
test_helpers(void **state)
{
	struct tt_err err = {{0}};
	char *s, long_arg[1000];

	(void)state;
	s = xstrndup("hello", 3);
	assert_string_equal(s, "hel");
	free(s);
	s = xstrdup("");
	assert_string_equal(s, "");
	free(s);
	s = xasprintf("%d-%s", 42, "x");
	assert_string_equal(s, "42-x");
	free(s);
	s = xrealloc(xmalloc(0), 10);
	memset(s, 0, 10);
	free(s);
	s = xcalloc(4, 4);
	for (int i = 0; i < 16; i++)
		assert_int_equal(s[i], 0);
	free(s);

	assert_int_equal(err_set(&err, "bad %s %d", "thing", 7), -1);
	assert_string_equal(err.msg, "bad thing 7");
	assert_int_equal(err_set(NULL, "ignored"), -1);
	memset(long_arg, 'a', sizeof long_arg - 1);
	long_arg[sizeof long_arg - 1] = '\0';
	assert_int_equal(err_set(&err, "%s", long_arg), -1);
	assert_int_equal(strlen(err.msg), sizeof err.msg - 1);

	assert_int_equal(hex_digit('0'), 0);
	assert_int_equal(hex_digit('9'), 9);
	assert_int_equal(hex_digit('a'), 10);
	assert_int_equal(hex_digit('F'), 15);
	assert_int_equal(hex_digit('g'), -1);
	assert_int_equal(hex_digit('/'), -1);
	assert_int_equal(hex_digit('\0'), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_u64),       cmocka_unit_test(test_parse_int),
	    cmocka_unit_test(test_parse_double),    cmocka_unit_test(test_parse_int_list),
	    cmocka_unit_test(test_parse_cpu_list),  cmocka_unit_test(test_online_cpus),
	    cmocka_unit_test(test_str_escape),      cmocka_unit_test(test_str_escape_edges),
	    cmocka_unit_test(test_str_escape_json), cmocka_unit_test(test_str_intern),
	    cmocka_unit_test(test_read_file),       cmocka_unit_test(test_now_ns),
	    cmocka_unit_test(test_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
