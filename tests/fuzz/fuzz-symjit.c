/* libFuzzer target for symjit_parse (perf-PID.map text) and the symbol
 * table it fills. Build from a configured build directory, e.g.:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     $SRC/tests/fuzz/fuzz-symjit.c $SRC/src/sym-jit.c $SRC/src/symtab.c \
 *     $SRC/src/util.c -o fuzz-symjit && ./fuzz-symjit -max_len=4096
 *
 * where $SRC is the source tree and "." holds config.h. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "tracetop/sym-jit.h"
#include "tracetop/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parse the input as a map, finish the table and look up around each
 * entry; then the same through a live map's index, in two appends. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct symtab st;
	const struct sym *s;
	size_t i;

	symtab_init(&st);
	symjit_parse((const char *)data, size, &st);
	symtab_finish(&st, 4096);
	for (i = 0; i < st.n; i++) {
		s = symtab_lookup(&st, st.syms[i].start);
		if (s == NULL || s->start > st.syms[i].start || s->name == NULL)
			__builtin_trap();
		if (i > 0 && st.syms[i - 1].start >= st.syms[i].start)
			__builtin_trap();
		(void)symtab_lookup(&st, st.syms[i].start + st.syms[i].size);
		(void)symtab_lookup(&st, st.syms[i].start - 1);
	}
	symtab_free(&st);

	struct symjit *j = symjit_new();

	symjit_add_text(j, (const char *)data, size / 2);
	symjit_add_text(j, (const char *)data + size / 2, size - size / 2);
	for (uint64_t a = 0; a < 4096; a += 61) {
		s = symjit_lookup(j, a);
		if (s != NULL && (s->name == NULL || a - s->start >= s->size))
			__builtin_trap();
	}
	symjit_free(j);
	symjit_pool_free();
	return 0;
}
