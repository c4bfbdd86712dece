/* libFuzzer target for a diff's baseline (--baseline FILE, --diff A B):
 * load the input as tracetop's JSON reports; a set that loads compares
 * with itself as all "same" with no change, and every row is found by its
 * key. The file is whatever a user points the options at. Build from a
 * configured build directory:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     $SRC/tests/fuzz/fuzz-diff.c $SRC/src/diff.c $SRC/src/json.c \
 *     $SRC/src/hist.c $SRC/src/latency-hist.c $SRC/src/sym-demangle.c \
 *     $SRC/src/sym-name.c $SRC/src/util.c -liberty \
 *     -o fuzz-diff && ./fuzz-diff $SRC/tests/fuzz/corpus/diff
 *
 * where $SRC is the source tree and "." holds config.h. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tracetop/diff.h"
#include "tracetop/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Load; compare the set with itself. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diff_set s;
	struct tt_err err;

	if (diff_set_load(&s, (const char *)data, size, "fuzz", &err) != 0)
		return 0;
	for (int k = 0; k < DIFF_NKINDS; k++) {
		struct diff_row *rows;
		size_t n = diff_compare(&s, &s, (enum diff_kind)k, &rows);

		if (n != s.n[k])
			__builtin_trap();
		for (size_t i = 0; i < n; i++)
			if (rows[i].status != DIFF_SAME || rows[i].delta != 0 ||
			    diff_set_find(&s, (enum diff_kind)k, rows[i].key) == NULL)
				__builtin_trap();
		free(rows);
	}
	diff_set_free(&s);
	return 0;
}
