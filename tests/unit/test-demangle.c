/* Unit tests for src/sym-demangle.c and src/sym-name.c: C++ and Rust (legacy
 * and v0) names demangled as c++filt prints them (checked against the
 * c++filt on the machine when there is one; Rust without hashes, as
 * rustfilt prints them), names that are not mangled, garbage that must not
 * crash, version suffixes, the compact and qualified forms, typed names
 * matching symbols, and the full name made once under racing threads. */
#include "config.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tracetop/sym-demangle.h"
#include "tracetop/sym-name.h"
#include "tracetop/symtab.h"
#include "tracetop/util.h"

/* A mangled name and what it demangles to. */
struct pair {
	const char *raw, *full;
};

/* C++: namespaces, templates, a lambda, operators, a constructor and a
 * destructor, a conversion, clones, the anonymous namespace, special
 * names; the full names are c++filt's (binutils 2.40). */
static const struct pair cxx[] = {
    {"_ZN2tt6shapes11AccumulatorImLi3EE4spinINS0_5MixerEEEmmRKT_",
     "unsigned long tt::shapes::Accumulator<unsigned long, 3>::spin<tt::shapes::Mixer>(unsigned "
     "long, tt::shapes::Mixer const&)"},
    {"_ZZ4mainENKUlmE_clEm", "main::{lambda(unsigned long)#1}::operator()(unsigned long) const"},
    {"_ZZN2ns3runEvENKUliE_clEi", "ns::run()::{lambda(int)#1}::operator()(int) const"},
    {"_ZNSt6vectorIiSaIiEE9push_backERKi",
     "std::vector<int, std::allocator<int> >::push_back(int const&)"},
    {"_ZN2nsltERKNS_1XES2_", "ns::operator<(ns::X const&, ns::X const&)"},
    {"_ZltIiEbRK1XIT_ES4_", "bool operator< <int>(X<int> const&, X<int> const&)"},
    {"_ZN3FooIiEclEv", "Foo<int>::operator()()"},
    {"_ZN3FooIiEppEv", "Foo<int>::operator++()"},
    {"_ZnwmRKSt9nothrow_t", "operator new(unsigned long, std::nothrow_t const&)"},
    {"_ZN2ns1XC2Ev", "ns::X::X()"},
    {"_ZN2ns1XD1Ev", "ns::X::~X()"},
    {"_ZN2ns1XcvNS_3BoxIiEEEv", "ns::X::operator ns::Box<int>()"},
    {"_ZNK2ns3BoxIiE3getEi", "ns::Box<int>::get(int) const"},
    {"_ZN2ns1fIiEEvT_", "void ns::f<int>(int)"},
    {"_ZN2ns1fEPFviE", "ns::f(void (*)(int))"},
    {"_ZN12_GLOBAL__N_13bazEv", "(anonymous namespace)::baz()"},
    {"_Z3foov.cold", "foo() [clone .cold]"},
    {"_ZN2ns1gEv.isra.0", "ns::g() [clone .isra.0]"},
    {"_ZN2ns5outerB5cxx11Ev", "ns::outer[abi:cxx11]()"},
    {"_ZTVN2ns1XE", "vtable for ns::X"},
    {"_ZThn8_N2ns1X1fEv", "non-virtual thunk to ns::X::f()"},
};

/* Rust legacy (the ::h<hash> dropped) and v0 (crate disambiguators
 * dropped), as rustfilt prints them; the v0 ones are from libiberty's
 * tests and a rustc 1.63 build. */
static const struct pair rust[] = {
    {"_ZN1m5outer14Thing$LT$T$GT$4spin17h4e9ced5a04ed1f88E", "m::outer::Thing<T>::spin"},
    {"_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$..$u7b$$u7b$closure$u7d$"
     "$u7d$$GT$17h0b1d9a7b1b8bd5d2E",
     "core::ptr::drop_in_place<std::rt::lang_start<()>::{{closure}}>"},
    {"_RNvMNtCs6xObwDLdFGl_1m5outerINtB2_5ThingmE4spinB4_", "<m::outer::Thing<u32>>::spin"},
    {"_RNvCs15kBYyAo9fc_7mycrate7example", "mycrate::example"},
    {"_RINbNbCskIICzLVDPPb_5alloc5alloc8box_freeDINbNiB4_5boxed5FnBoxuEp6OutputuEL_"
     "ECs1iopQbuBiw2_3std",
     "alloc::alloc::box_free::<dyn alloc::boxed::FnBox<(), Output = ()>>"},
};

/* Demangle a NUL-terminated name; NULL or a malloc'd string. */
static char *
dm(const char *raw)
{
	return demangle(raw, strlen(raw));
}

/* c++filt's answer for raw, rustfilt-style (hashes and [disambiguators]
 * cut) with rust; false when there is no c++filt. */
static bool
cxxfilt(const char *raw, bool rust_style, char *out, size_t len)
{
	char cmd[1024];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof cmd, "c++filt '%s' 2>/dev/null", raw);
	if ((p = popen(cmd, "r")) == NULL || fgets(out, (int)len, p) == NULL) {
		if (p != NULL)
			pclose(p);
		return false;
	}
	if (pclose(p) != 0)
		return false;
	out[strcspn(out, "\n")] = '\0';
	n = strlen(out);
	if (rust_style && n > 19 && memcmp(out + n - 19, "::h", 3) == 0)
		out[n - 19] = '\0';
	for (char *o = out, *b; rust_style && (b = strchr(o, '[')) != NULL; o = b) {
		size_t k = strspn(b + 1, "0123456789abcdef");

		if (b[1 + k] == ']' && k > 0)
			memmove(b, b + k + 2, strlen(b + k + 2) + 1);
		else
			b++;
	}
	return true;
}

/* Every name of a table demangles to its full name; with filt, to what
 * c++filt says too (rustfilt-style for rust). */
static void
check_table(const struct pair *t, size_t n, bool filt, bool rust_style)
{
	char want[1024];

	for (size_t i = 0; i < n; i++) {
		char *d = dm(t[i].raw);

		if (d == NULL || strcmp(d, t[i].full) != 0)
			fail_msg("%s: '%s', not '%s'", t[i].raw, d ? d : "(null)", t[i].full);
		if (filt && (!cxxfilt(t[i].raw, rust_style, want, sizeof want) || strcmp(d, want)))
			fail_msg("%s: '%s', c++filt says '%s'", t[i].raw, d, want);
		free(d);
	}
}

/* The known C++ and Rust names demangle to the expected text. */
static void
test_known(void **state)
{
	check_table(cxx, ARRAY_SIZE(cxx), false, false);
	check_table(rust, ARRAY_SIZE(rust), false, true);
}

/* Where c++filt is installed, it agrees (c++filt prints Rust hashes and
 * disambiguators: DMGL_VERBOSE; they are cut before comparing). */
static void
test_cxxfilt(void **state)
{
	char want[64];

	if (!cxxfilt("_Z1fv", false, want, sizeof want) || strcmp(want, "f()") != 0)
		skip();
	check_table(cxx, ARRAY_SIZE(cxx), true, false);
	check_table(rust, ARRAY_SIZE(rust), true, true);
}

/* Plain names, prefixes and broken manglings are not demangled; a prefix
 * of a longer string (a name before its version suffix) is. */
static void
test_not_mangled(void **state)
{
	static const char *const plain[] = {"main",
	                                    "",
	                                    "_",
	                                    "_Z",
	                                    "_R",
	                                    "Z3foov",
	                                    "__libc_start_main",
	                                    "_Zfoo",
	                                    "_RNv",
	                                    "_ZN3foo",
	                                    "_ZN2ns1fEv junk",
	                                    "_R_",
	                                    "_ZZ",
	                                    "_ZN3fooEE",
	                                    "_GLOBAL__sub_I_main.cpp"};
	char *d;

	for (size_t i = 0; i < ARRAY_SIZE(plain); i++) {
		d = dm(plain[i]);
		if (d != NULL)
			fail_msg("'%s' demangled to '%s'", plain[i], d);
	}
	assert_false(demangle_candidate("main", 4));
	assert_true(demangle_candidate("_Z1fv", 5));
	assert_true(demangle_candidate("_RNvC1a1b", 9));
	d = demangle("_Z1fv@@V_1", 5);
	assert_string_equal(d, "f()");
	free(d);
}

/* Random bytes after "_Z" / "_R" and oversized names never crash and
 * give NULL or a non-empty string. */
static void
test_garbage(void **state)
{
	static const char alphabet[] = "_ZRNvCsMIE0123456789abcdefSt$LTGT.Kv";
	uint64_t x = 88172645463325252ULL;
	char buf[64], *d, *big;

	for (int i = 0; i < 20000; i++) {
		size_t n = 2 + i % 60;

		buf[0] = '_';
		buf[1] = i % 2 ? 'Z' : 'R';
		for (size_t k = 2; k < n; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			buf[k] = i % 3 ? alphabet[x % (sizeof alphabet - 1)] : (char)(x % 255 + 1);
		}
		buf[n] = '\0';
		if ((d = dm(buf)) != NULL) {
			char c[256];

			assert_true(d[0] != '\0');
			symname_compact(d, i % 4 == 0, c, sizeof c);
			free(d);
		}
	}
	big = xmalloc(DEMANGLE_MAX_LEN + 16);
	memset(big, 'N', DEMANGLE_MAX_LEN + 15);
	memcpy(big, "_ZN", 3);
	big[DEMANGLE_MAX_LEN + 15] = '\0';
	assert_null(dm(big));
	free(big);
}

/* Version suffixes: dropped when they look like ELF versions only. */
static void
test_version(void **state)
{
	static const struct {
		const char *raw;
		size_t base;
	} cases[] = {
	    {"memcpy@@GLIBC_2.14", 6},
	    {"memcpy@GLIBC_2.2.5", 6},
	    {"f@@LLVM_15", 1},
	    {"x@Base", 1},
	    {"main", 4},
	    {"@GLIBC_2.2.5", 12},
	    {"f@", 2},
	    {"f@1.0", 5},
	    {"js@file.js:3", 12},
	    {"a@b@c", 3},
	    {"@@V", 3},
	};
	struct sym s = {.name = "memcpy@@GLIBC_2.14"};
	struct sym m = {.name = "_ZN2ns1fEv@@V1"};
	struct sym p = {.name = "plain"};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		if (symname_base_len(cases[i].raw) != cases[i].base)
			fail_msg("'%s': %zu, not %zu", cases[i].raw, symname_base_len(cases[i].raw),
			         cases[i].base);
	assert_string_equal(sym_name(&s), "memcpy");
	assert_false(sym_demangled(&s));
	assert_string_equal(sym_name(&m), "ns::f()");
	assert_true(sym_demangled(&m));
	assert_ptr_equal(sym_name(&p), p.name); /* nothing made for a plain name */
	assert_false(sym_demangled(&p));
	sym_free_dname(&s);
	sym_free_dname(&m);
	sym_free_dname(&p);
	assert_null(s.dname);
}

/* Full names and their compact forms (ASCII) beyond the tables' names:
 * cp-demangle puts a '>' operator in parentheses, and a space between
 * "operator>" and the '>' that closes its list (c++filt
 * _ZN1XIXadL_ZN1YgtERKS0_EEE1fEv); broken input stays bounded. */
static const struct pair compact_more[] = {
    {"std::map<int, int, std::less<int>, std::allocator<std::pair<int const, int> > "
     ">::operator[](int const&)",
     "std::map<...>::operator[](int const&)"},
    {"std::vector<int, std::allocator<int> >& std::vector<int, std::allocator<int> "
     ">::operator=(std::vector<int, std::allocator<int> > const&)",
     "std::vector<...>::operator=(...)"},
    {"X<((3)>(4))>::f()", "X<...>::f()"},
    {"X<&Y::operator> >::f()", "X<...>::f()"},
    {"X<&Y::operator>> >::f()", "X<...>::f()"},
    {"<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop",
     "<alloc::vec::Vec<...> as core::ops::drop::Drop>::drop"},
    {"m::main::{closure#0}", "m::main::{closure#0}"},
    {"f<int(", "f<...>"},
    {"f(int", "f(int"},
    {"a<b<c<d<e<f<g<h>>>>>>>", "a<...>"},
    {"<<<<<<<<<<<<<<<<<<<<<<<<<<<<x", "<<<<<<<<<<<<<<<<<<<<<<<<<<<<x"},
    {"", ""},
};

/* The compact forms of the tables' names, in their order (NULL: skip). */
static const char *const cxx_compact[ARRAY_SIZE(cxx)] = {
    "tt::shapes::Accumulator<...>::spin<...>(...)",
    "main::{lambda(...)#1}::operator()(...) const",
    "ns::run()::{lambda(...)#1}::operator()(...) const", /* 51 columns with them */
    "std::vector<...>::push_back(int const&)",
    "ns::operator<(ns::X const&, ns::X const&)",
    "operator< <...>(X<int> const&, X<int> const&)",
    "Foo<...>::operator()()",
    "Foo<...>::operator++()",
    "operator new(...)",
    "ns::X::X()",
    "ns::X::~X()",
    "ns::X::operator ns::Box<int>()", /* a conversion's type stays */
    "ns::Box<...>::get(int) const",
    "ns::f<...>(int)",
    "ns::f(void (*)(int))",
    "(anonymous namespace)::baz()",
    "foo() [clone .cold]",
    "ns::g() [clone .isra.0]",
    "ns::outer()",
    "vtable for ns::X",
    "non-virtual thunk to ns::X::f()",
};
static const char *const rust_compact[ARRAY_SIZE(rust)] = {
    "m::outer::Thing<...>::spin", "core::ptr::drop_in_place<...>", "<m::outer::Thing<...>>::spin",
    "mycrate::example",           "alloc::alloc::box_free::<...>",
};

/* The compact form of full (ASCII) is want. */
static void
compact_is(const char *full, const char *want)
{
	char buf[512];

	symname_compact(full, false, buf, sizeof buf);
	if (strcmp(buf, want) != 0)
		fail_msg("compact '%s': '%s', not '%s'", full, buf, want);
}

/* The compact rule: templates elided, return types and abi tags dropped,
 * parameter lists kept when short, Rust paths kept. */
static void
test_compact(void **state)
{
	char buf[64];

	for (size_t i = 0; i < ARRAY_SIZE(cxx); i++)
		compact_is(cxx[i].full, cxx_compact[i]);
	for (size_t i = 0; i < ARRAY_SIZE(rust); i++)
		compact_is(rust[i].full, rust_compact[i]);
	for (size_t i = 0; i < ARRAY_SIZE(compact_more); i++)
		compact_is(compact_more[i].raw, compact_more[i].full);
	/* UTF-8: "…", and the output cut to the buffer */
	symname_compact(cxx[12].full, true, buf, sizeof buf);
	assert_string_equal(buf, "ns::Box<\u2026>::get(int) const");
	assert_int_equal(symname_compact(cxx[0].full, false, buf, 8), 7);
	assert_string_equal(buf, "tt::sha");
}

/* The forms of a symbol, escaped: full, qualified (perf script's), compact. */
static void
test_forms(void **state)
{
	struct sym s = {.name = cxx[0].raw}, lam = {.name = cxx[1].raw};
	struct sym c = {.name = "bad\x1bname"}, v = {.name = "memcpy@@GLIBC_2.14"};
	char buf[512];

	sym_format(&s, SYM_FULL, buf, sizeof buf);
	assert_string_equal(buf, cxx[0].full);
	sym_format(&s, SYM_QUALIFIED, buf, sizeof buf);
	assert_string_equal(buf,
	                    "tt::shapes::Accumulator<unsigned long, 3>::spin<tt::shapes::Mixer>");
	sym_format(&lam, SYM_QUALIFIED, buf, sizeof buf);
	assert_string_equal(buf, "main::{lambda(unsigned long)#1}::operator()");
	sym_format(&s, SYM_COMPACT_UTF8, buf, sizeof buf);
	assert_string_equal(buf, "tt::shapes::Accumulator<\u2026>::spin<\u2026>(\u2026)");
	sym_format(&c, SYM_COMPACT, buf, sizeof buf);
	assert_string_equal(buf, "bad\\x1bname");
	sym_format(&v, SYM_QUALIFIED, buf, sizeof buf);
	assert_string_equal(buf, "memcpy");
	sym_form_name(&s, SYM_QUALIFIED, buf, 10);
	assert_string_equal(buf, "tt::shape");
	/* bare names, for probe events: mangled or demangled C++ and Rust */
	assert_int_equal(symname_bare(cxx[0].raw, buf, sizeof buf), 29);
	assert_string_equal(buf, "tt::shapes::Accumulator::spin");
	symname_bare("ns::Box<int>::get(int) const", buf, sizeof buf);
	assert_string_equal(buf, "ns::Box::get");
	symname_bare(rust[2].raw, buf, sizeof buf);
	assert_string_equal(buf, "<m::outer::Thing>::spin");
	assert_int_equal(symname_bare("probed_fn", buf, sizeof buf), 0);
	assert_string_equal(buf, "");
	assert_int_equal(symname_bare(cxx[0].raw, buf, 8), 7);
	sym_free_dname(&s);
	sym_free_dname(&lam);
	sym_free_dname(&c);
	sym_free_dname(&v);
}

/* Typed names: raw, versioned, full, no return type, qualified, bare,
 * compact; blanks ignored; other functions refused. */
static void
test_matches(void **state)
{
	static const char *const spin_names[] = {
	    "_ZN2tt6shapes11AccumulatorImLi3EE4spinINS0_5MixerEEEmmRKT_",
	    "unsigned long tt::shapes::Accumulator<unsigned long, 3>::spin<tt::shapes::Mixer>("
	    "unsigned long, tt::shapes::Mixer const&)",
	    "tt::shapes::Accumulator<unsigned long, 3>::spin<tt::shapes::Mixer>(unsigned long, "
	    "tt::shapes::Mixer const&)",
	    "tt::shapes::Accumulator<unsigned long, 3>::spin<tt::shapes::Mixer>",
	    "tt::shapes::Accumulator<unsigned long,3>::spin<tt::shapes::Mixer>",
	    "tt::shapes::Accumulator::spin",
	    "tt::shapes::Accumulator<...>::spin<...>(...)",
	    "tt::shapes::Accumulator<\u2026>::spin<\u2026>(\u2026)",
	};
	static const char *const not_spin[] = {"spin",
	                                       "tt::shapes::Accumulator",
	                                       "tt::shapes::Accumulator::spin(int)",
	                                       "Accumulator::spin",
	                                       "tt::shapes::Mixer::spin",
	                                       ""};
	struct sym s = {.name = spin_names[0]}, v = {.name = "memcpy@@GLIBC_2.14"};
	struct sym r = {.name = rust[0].raw}, lam = {.name = cxx[2].raw};

	for (size_t i = 0; i < ARRAY_SIZE(spin_names); i++) {
		if (!sym_matches(&s, spin_names[i]))
			fail_msg("'%s' does not match", spin_names[i]);
		if (!symname_matches(spin_names[i], s.name, NULL))
			fail_msg("'%s' does not match the raw name", spin_names[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(not_spin); i++)
		if (sym_matches(&s, not_spin[i]))
			fail_msg("'%s' matches", not_spin[i]);
	assert_true(sym_matches(&v, "memcpy"));
	assert_true(sym_matches(&v, "memcpy@@GLIBC_2.14"));
	assert_false(sym_matches(&v, "memcp"));
	assert_true(sym_matches(&r, "m::outer::Thing<T>::spin"));
	assert_true(sym_matches(&r, "m::outer::Thing::spin"));
	assert_true(sym_matches(&lam, "ns::run()::{lambda(int)#1}::operator()"));
	assert_true(symname_matches("ns::Box<int>::get", "_ZNK2ns3BoxIiE3getEi",
	                            "ns::Box<int>::get(int) const"));
	/* the key: a typed identifier the mangled name does not spell out */
	assert_false(symname_matches("ns::Bx::get", "_ZNK2ns3BoxIiE3getEi", NULL));
	sym_free_dname(&s);
	sym_free_dname(&v);
	sym_free_dname(&r);
	sym_free_dname(&lam);
}

#define RACE_SYMS 512
#define RACE_THREADS 4

static struct sym race_syms[RACE_SYMS];
static const char *race_seen[RACE_THREADS][RACE_SYMS];

/* One racer: every symbol's full name, in its own order. */
static void *
race(void *arg)
{
	size_t t = (size_t)(uintptr_t)arg;

	for (size_t k = 0; k < RACE_SYMS; k++) {
		size_t i = t % 2 ? RACE_SYMS - 1 - k : k;

		race_seen[t][i] = sym_name(&race_syms[i]);
	}
	return NULL;
}

/* Threads asking for the same full names at once all get the one kept. */
static void
test_threads(void **state)
{
	pthread_t th[RACE_THREADS];
	struct symtab st;

	symtab_init(&st);
	for (size_t i = 0; i < RACE_SYMS; i++) {
		char *raw = xasprintf("_ZN2ns4f%zuEv", i + 100);

		symtab_add(&st, 0x1000 + 16 * i, 16, raw, NULL);
		free(raw);
	}
	memcpy(race_syms, st.syms, sizeof race_syms);
	for (size_t t = 0; t < RACE_THREADS; t++)
		assert_int_equal(pthread_create(&th[t], NULL, race, (void *)(uintptr_t)t), 0);
	for (size_t t = 0; t < RACE_THREADS; t++)
		pthread_join(th[t], NULL);
	for (size_t i = 0; i < RACE_SYMS; i++) {
		char want[32];

		snprintf(want, sizeof want, "ns::f%zu()", i + 100);
		assert_string_equal(race_syms[i].dname, want);
		for (size_t t = 0; t < RACE_THREADS; t++)
			assert_ptr_equal(race_seen[t][i], race_syms[i].dname);
	}
	/* the table frees what the racers made through its own copies */
	memcpy(st.syms, race_syms, sizeof race_syms);
	symtab_free(&st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_known),       cmocka_unit_test(test_cxxfilt),
	    cmocka_unit_test(test_not_mangled), cmocka_unit_test(test_garbage),
	    cmocka_unit_test(test_version),     cmocka_unit_test(test_compact),
	    cmocka_unit_test(test_forms),       cmocka_unit_test(test_matches),
	    cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
