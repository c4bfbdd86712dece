/* sym-demangle: the one adapter to libiberty's demangler, which turns C++
 * (Itanium ABI), Rust legacy and Rust v0 symbol names into source-level
 * names. Reentrant: every call works on its own memory, so any thread may
 * demangle (symbols load on the worker, names show on the screen's). */
#ifndef TRACETOP_SYM_DEMANGLE_H
#define TRACETOP_SYM_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* Longest mangled name demangled; longer ones are shown as they are. */
#define DEMANGLE_MAX_LEN 8192

/* Whether the first len bytes of the string name may be a mangled name
 * ("_Z..." for C++ and Rust legacy, "_R..." for Rust v0): the cheap test
 * before demangle. */
bool demangle_candidate(const char *name, size_t len);

/* The source-level form of the first len bytes of the string name
 * (malloc'd), or NULL when they are not a well-formed mangled name. C++ as c++filt prints it
 * (parameter lists, cv-qualifiers, "[clone .cold]"), with std::string and
 * the like abbreviated; Rust as rustfilt prints it, without legacy's
 * "::h<16 hex digits>" hash and v0's crate disambiguators. */
char *demangle(const char *name, size_t len);

#endif
