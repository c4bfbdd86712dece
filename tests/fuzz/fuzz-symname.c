/* libFuzzer target for symbol names: the demangler adapter on the input
 * as a mangled name (as is, and after "_Z" and "_R"), and sym-name's
 * shaping of the input as a demangled name (every form, both ellipses) and
 * its matching of typed names, split at the input's first newline. Names
 * come from ELF files and perf maps anyone may write. Build from a
 * configured build directory, e.g.:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     $SRC/tests/fuzz/fuzz-symname.c $SRC/src/sym-name.c $SRC/src/sym-demangle.c \
 *     $SRC/src/util.c -liberty -o fuzz-symname && \
 *     ./fuzz-symname $SRC/tests/fuzz/corpus/symname
 *
 * where $SRC is the source tree and "." holds config.h. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/sym-demangle.h"
#include "tracetop/sym-name.h"
#include "tracetop/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every form of a symbol called raw; each must fit its buffer. */
static void
forms(const char *raw)
{
	static const enum sym_form all[] = {SYM_FULL, SYM_QUALIFIED, SYM_COMPACT, SYM_COMPACT_UTF8};
	struct sym s = {.name = raw};
	char buf[256];

	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (sym_format(&s, all[i], buf, sizeof buf) >= sizeof buf ||
		    sym_form_name(&s, all[i], buf, sizeof buf) >= sizeof buf)
			__builtin_trap();
	(void)sym_matches(&s, raw);
	sym_free_dname(&s);
}

/* Demangle, shape and match the input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 3), *nl, *d, small[16];

	if (text == NULL)
		return 0;
	memcpy(text + 2, data, size);
	text[size + 2] = '\0';
	forms(text + 2);
	for (int k = 0; k < 2; k++) {
		memcpy(text, k ? "_R" : "_Z", 2);
		if ((d = demangle(text, strlen(text))) != NULL) {
			symname_compact(d, k, small, sizeof small);
			free(d);
		}
		forms(text);
	}
	symname_compact(text + 2, false, small, sizeof small);
	if ((nl = strchr(text + 2, '\n')) != NULL) {
		*nl = '\0';
		(void)symname_matches(text + 2, nl + 1, NULL);
		(void)symname_matches(text + 2, "_ZN2ns3BoxIiE3getEi", nl + 1);
	}
	free(text);
	return 0;
}
