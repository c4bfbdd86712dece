/* libFuzzer target for the setup file (~/.config/tracetop/tracetoprc):
 * parse the input; what was kept must write out and read back with no bad
 * line and the same settings. The file is the user's, but a shared HOME or
 * a hand edit can hold anything. Build from a configured build directory:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     $SRC/tests/fuzz/fuzz-rcfile.c $SRC/src/rcfile.c $SRC/src/util.c \
 *     -o fuzz-rcfile && ./fuzz-rcfile $SRC/tests/fuzz/corpus/rcfile
 *
 * where $SRC is the source tree and "." holds config.h. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/rcfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parse, format, parse again: the same settings, nothing refused. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rcfile c = {0}, back = {0};
	char *text;

	rcfile_parse(&c, (const char *)data, size, NULL, NULL);
	text = rcfile_format(&c);
	if (rcfile_parse(&back, text, strlen(text), NULL, NULL) != 0 || !rcfile_equal(&c, &back))
		__builtin_trap();
	free(text);
	rcfile_free(&back);
	rcfile_free(&c);
	return 0;
}
