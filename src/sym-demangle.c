/* sym-demangle: libiberty's demangler behind our names. The only file that
 * includes its header. The entry points used (rust_demangle,
 * cplus_demangle_v3) allocate their result with malloc and keep no state
 * between calls; cplus_demangle itself is avoided because it reads a
 * global style and drags in libiberty's xmalloc, which ours replaces. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "tracetop/sym-demangle.h"

/* C++: parameter lists and cv-qualifiers, not DMGL_VERBOSE's expansions of
 * std::string and friends. Rust: no DMGL_VERBOSE, so no hashes. */
#define DEMANGLE_FLAGS (DMGL_PARAMS | DMGL_ANSI)

/* Whether the name starts like a mangled C++ or Rust name. */
bool
demangle_candidate(const char *name, size_t len)
{
	return len > 2 && len <= DEMANGLE_MAX_LEN && name[0] == '_' &&
	       (name[1] == 'Z' || name[1] == 'R');
}

/* Demangle a NUL-terminated name: Rust first, since legacy Rust names are
 * also valid C++ ones (libiberty's own DMGL_AUTO order). */
static char *
demangle_str(const char *s)
{
	char *out = rust_demangle(s, DEMANGLE_FLAGS);

	if (out == NULL && s[1] == 'Z')
		out = cplus_demangle_v3(s, DEMANGLE_FLAGS);
	if (out != NULL && out[0] == '\0') {
		free(out);
		out = NULL;
	}
	return out;
}

/* Demangle len bytes, copied to a NUL-terminated buffer when they are a
 * prefix of a longer string (a name with a version suffix). */
char *
demangle(const char *name, size_t len)
{
	char stack[512], *copy, *out;

	if (!demangle_candidate(name, len))
		return NULL;
	if (name[len] == '\0')
		return demangle_str(name);
	copy = len < sizeof stack ? stack : malloc(len + 1);
	if (copy == NULL)
		return NULL;
	memcpy(copy, name, len);
	copy[len] = '\0';
	out = demangle_str(copy);
	if (copy != stack)
		free(copy);
	return out;
}
