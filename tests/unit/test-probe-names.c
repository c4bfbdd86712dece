/* Unit tests of probing by demangled and versioned names (their SPEC
 * syntax is in test-probe): resolving them in a C++ program this test
 * builds (checked against nm), an overloaded name refused with its
 * candidates, ELF symbol versions (the default one wins), and the function
 * pickers' items (full names, raw names behind them). */
#include "config.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buildtest.h"

#include "tracetop/probe.h"
#include "tracetop/util.h"

static const char cxx_src[] =
    "namespace ns {\n"
    "template <typename T> struct Box {\n"
    "	T v;\n"
    "	__attribute__((noinline)) T get(T x) const { return v + x; }\n"
    "};\n"
    "__attribute__((noinline)) int f(int x) { return x + 1; }\n"
    "__attribute__((noinline)) double f(double x) { return x * 2; }\n"
    "__attribute__((noinline)) int operator+(const Box<int> &a, int b) { return a.v - b; }\n"
    "}\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "	ns::Box<int> b{argc};\n"
    "	return b.get(argc) + ns::f(argc) + (int)ns::f(1.5) + (b + 2);\n"
    "}\n";

/* foo@V1 and foo@@V2 (the default), as glibc versions memcpy. */
static const char ver_src[] = "__attribute__((noinline)) int foo_v1(int x) { return x + 1; }\n"
                              "__attribute__((noinline)) int foo_v2(int x) { return x + 2; }\n"
                              "__asm__(\".symver foo_v1, foo@V1\");\n"
                              "__asm__(\".symver foo_v2, foo@@V2\");\n";
static const char ver_map[] = "V1 { global: foo; local: *; };\nV2 { global: foo; } V1;\n";

/* The ELF address nm gives a raw symbol name in bt_dir/file. */
static uint64_t
addr_of(const char *file, const char *raw)
{
	uint64_t addr, size;

	if (!bt_nm(bt_path(file), false, raw, &addr, &size))
		fail_msg("no %s in %s", raw, file);
	return addr;
}

/* Resolve a SPEC written with bt_dir/file's path in place of BIN:. */
static int
resolve(const char *file, const char *func, struct probe_place *pl, struct tt_err *err)
{
	struct probe_ctx ctx = {0};
	struct probe_spec s;
	char *spec = xasprintf("%s:%s", bt_path(file), func);
	int rc;

	if (probe_spec_parse(spec, &s, err) != 0)
		fail_msg("'%s': %s", spec, err->msg);
	free(spec);
	rc = probe_resolve(&s, &ctx, pl, err);
	probe_spec_free(&s);
	return rc;
}

/* Resolve to the address of raw, with the target shown as want_target. */
static void
resolves_to(const char *file, const char *func, const char *raw, const char *want_target)
{
	struct probe_place pl;
	struct tt_err err;
	char *target;

	if (resolve(file, func, &pl, &err) != 0)
		fail_msg("%s: %s", func, err.msg);
	assert_int_equal(pl.addr, addr_of(file, raw));
	target = xasprintf("%s:%s", bt_path(file), want_target);
	assert_string_equal(pl.target, target);
	free(target);
	probe_place_free(&pl);
}

/* C++ functions by their full, qualified, bare and raw names; an
 * overloaded one only by a name that tells the overloads apart. */
static void
test_resolve_cxx(void **state)
{
	static const char get[] = "_ZNK2ns3BoxIiE3getEi";
	struct probe_place pl;
	struct tt_err err;

	resolves_to("cxx", "ns::Box<int>::get", get, "ns::Box<int>::get");
	resolves_to("cxx", "ns::Box::get", get, "ns::Box::get");
	resolves_to("cxx", "\"ns::Box<int>::get(int) const\"%return", get,
	            "ns::Box<int>::get(int) const%return");
	resolves_to("cxx", "\"ns::f(double)\"", "_ZN2ns1fEd", "ns::f(double)");
	resolves_to("cxx", "ns::f(int)", "_ZN2ns1fEi", "ns::f(int)");
	/* a raw name, as the pickers and the Top pane give it, shown demangled */
	resolves_to("cxx", "_ZN2ns1fEi", "_ZN2ns1fEi", "ns::f(int)");
	resolves_to("cxx", "\"ns::operator+(ns::Box<int> const&, int)\"", "_ZN2nsplERKNS_3BoxIiEEi",
	            "ns::operator+(ns::Box<int> const&, int)");

	assert_int_equal(resolve("cxx", "ns::f", &pl, &err), -1);
	assert_non_null(strstr(err.msg, "'ns::f' names 2 functions"));
	assert_non_null(strstr(err.msg, "ns::f(int)"));
	assert_non_null(strstr(err.msg, "ns::f(double)"));
	assert_int_equal(resolve("cxx", "ns::g", &pl, &err), -1);
	assert_non_null(strstr(err.msg, "no function 'ns::g'"));
}

/* Versioned names: the plain name is the default version (foo@@V2), an
 * exact versioned name the one it names. */
static void
test_resolve_versions(void **state)
{
	uint64_t v1 = addr_of("libv.so", "foo_v1"), v2 = addr_of("libv.so", "foo_v2");
	struct probe_place pl;
	struct tt_err err;

	assert_int_not_equal(v1, v2);
	assert_int_equal(resolve("libv.so", "foo", &pl, &err), 0);
	assert_int_equal(pl.addr, v2);
	probe_place_free(&pl);
	assert_int_equal(resolve("libv.so", "foo@V1", &pl, &err), 0);
	assert_int_equal(pl.addr, v1);
	probe_place_free(&pl);
}

/* The item of a picker list whose full name is name, or NULL. */
static const char *
item(char **v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], name) == 0)
			return v[i];
	return NULL;
}

/* Pickers list full names, each with the raw name it is probed by. */
static void
test_picker(void **state)
{
	struct tt_err err;
	size_t n;
	char **v = probe_binary_functions(bt_path("cxx"), &n, &err);
	const char *it;

	assert_non_null(v);
	assert_non_null(it = item(v, n, "ns::f(int)"));
	assert_string_equal(probe_function_raw(it), "_ZN2ns1fEi");
	assert_non_null(it = item(v, n, "ns::Box<int>::get(int) const"));
	assert_string_equal(probe_function_raw(it), "_ZNK2ns3BoxIiE3getEi");
	assert_non_null(it = item(v, n, "main"));
	assert_string_equal(probe_function_raw(it), "main");
	assert_null(item(v, n, "_ZN2ns1fEi"));
	names_free(v, n);

	v = probe_binary_functions(bt_path("libv.so"), &n, &err);
	assert_non_null(v);
	assert_non_null(it = item(v, n, "foo")); /* foo@V1 and foo@@V2: one item */
	assert_int_equal(strncmp(probe_function_raw(it), "foo@", 4), 0);
	assert_null(item(v, n, "foo@@V2"));
	names_free(v, n);
}

/* Write a file into the test directory. */
static bool
write_to(const char *name, const char *text)
{
	FILE *f = fopen(bt_path(name), "w");

	return f != NULL && fputs(text, f) >= 0 && fclose(f) == 0;
}

/* Build the C++ program and the versioned library. */
static int
setup(void **state)
{
	if (bt_mkdirs("tt-probe-names") != 0 || !write_to("cxx.cpp", cxx_src) ||
	    !write_to("v.c", ver_src) || !write_to("v.map", ver_map))
		return -1;
	return bt_sh("cd '%s' && g++ -O1 -g -o cxx cxx.cpp && %s -O1 -g -shared -fPIC "
	             "-Wl,--version-script=v.map -o libv.so v.c",
	             bt_dir, bt_cc)
	           ? 0
	           : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_resolve_cxx),
	    cmocka_unit_test(test_resolve_versions),
	    cmocka_unit_test(test_picker),
	};
	static const char *const tools[] = {"nm", "g++"};

	return bt_run_group("probe-names", tests, ARRAY_SIZE(tests), tools, ARRAY_SIZE(tools),
	                    setup, bt_remove_dir);
}
