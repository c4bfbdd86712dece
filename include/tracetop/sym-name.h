/* sym-name: a symbol's names for people. The full name is the raw one
 * demangled (C++, Rust legacy and v0, through the sym-demangle adapter) with
 * an ELF version suffix ("memcpy@@GLIBC_2.14") dropped; it is made on
 * first use and kept with the symbol, so loading a table demangles
 * nothing. The compact name fits narrow screens; typed names (--annotate,
 * --probe) match a symbol by any of its names. */
#ifndef TRACETOP_SYM_NAME_H
#define TRACETOP_SYM_NAME_H

#include <stdbool.h>
#include <stddef.h>

#include "tracetop/symtab.h"

enum sym_form {
	SYM_FULL,         /* ns::Box<int>::get(int) const, what c++filt prints */
	SYM_QUALIFIED,    /* ns::Box<int>::get, as perf script prints it */
	SYM_COMPACT,      /* ns::Box<...>::get(int) const */
	SYM_COMPACT_UTF8, /* ns::Box<…>::get(int) const */
};

/* A compact name keeps its parameter lists when it is at most this many
 * columns long with them; longer, they become "(...)". */
#define SYMNAME_KEEP_PARAMS 48

/* The length of raw without an ELF symbol version suffix: "@VERSION" or
 * "@@VERSION", VERSION a letter or '_' and then letters, digits, '_' and
 * '.' (so "memcpy@@GLIBC_2.14" gives 6, "a@b:c" its whole length). */
size_t symname_base_len(const char *raw);

/* The full name of a raw name (malloc'd), or NULL when it is the raw name
 * itself: what sym_name keeps, for a name without its symbol. */
char *symname_full(const char *raw);

/* The full name of s: demangled, version suffix dropped, else s->name
 * itself. Made on first use and kept in s->dname (set once, atomically:
 * any thread may ask); sym_free_dname (symtab.h) releases it. */
const char *sym_name(const struct sym *s);

/* Whether s's full name is a demangled one (the compact form applies). */
bool sym_demangled(const struct sym *s);

/* s's name in a form, escaped for a terminal or file, into buf (len > 0,
 * truncated to fit); the length written. */
size_t sym_format(const struct sym *s, enum sym_form form, char *buf, size_t len);

/* The same, not escaped (for text that is escaped where it is shown). */
size_t sym_form_name(const struct sym *s, enum sym_form form, char *buf, size_t len);

/* The compact form of a demangled name, into buf (len > 0, truncated to
 * fit, not escaped); the length written. The rule: template argument
 * lists become "<...>" (Rust's generic arguments too; a Rust "<Type as
 * Trait>" path keeps its types, compacted), a leading return type and
 * "[abi:...]" tags are dropped, "(anonymous namespace)", lambdas,
 * closures and "[clone .cold]" stay; parameter lists stay when the result
 * is at most SYMNAME_KEEP_PARAMS columns, else non-empty ones become
 * "(...)". With utf8, "…" replaces "...". */
size_t symname_compact(const char *full, bool utf8, char *buf, size_t len);

/* The bare name ("ns::Box::get": no return type, template arguments or
 * parameter lists) of a mangled name, or of a demangled one (one with
 * "::", '<' or '('), into buf (cut to fit); 0 (buf "") for any other
 * name. For names made from function names (probe events). */
size_t symname_bare(const char *name, char *buf, size_t len);

/* Whether a name typed by the user names the symbol whose raw name is raw
 * (full: its full name when already known, else NULL to demangle here).
 * Accepted: the raw name, with or without its version suffix; and for a
 * demangled one the full name, without its return type, qualified
 * without parameters ("ns::Box<int>::get"), qualified without template
 * arguments either ("ns::Box::get"), and the compact forms. Blanks are
 * ignored in the comparison. Cheap for symbols that cannot match: an
 * identifier of want must be in raw before anything is demangled. */
bool symname_matches(const char *want, const char *raw, const char *full);

/* symname_matches for a symbol, with its kept full name. */
bool sym_matches(const struct sym *s, const char *want);

#endif
