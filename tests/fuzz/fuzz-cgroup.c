/* libFuzzer target for cgroups: the input as a /proc/PID/cgroup file
 * (cgroup_parse, into buffers of several sizes) and as a path (the short
 * name, idem). Paths hold group names that users who were delegated a
 * cgroup tree, and container runtimes, choose. Build from a configured
 * build directory, e.g.:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     $SRC/tests/fuzz/fuzz-cgroup.c $SRC/src/cgroup.c $SRC/src/util.c \
 *     -o fuzz-cgroup && ./fuzz-cgroup $SRC/tests/fuzz/corpus/cgroup
 *
 * where $SRC is the source tree and "." holds config.h. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/cgroup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The short name of path into buffers of several sizes: always a string
 * that fits, the smaller ones prefixes of the whole. */
static void
names(const char *path)
{
	static const size_t sizes[] = {1, 2, 7, 13, 64, 4096};
	char whole[8192], buf[4096];

	cgroup_short_name(path, whole, sizeof whole);
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		cgroup_short_name(path, buf, sizes[i]);
		if (strlen(buf) >= sizes[i] || strncmp(buf, whole, strlen(buf)) != 0)
			__builtin_trap();
	}
}

/* Parse the input as a cgroup file, name what it picks and the input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), path[4096], small[5];

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (cgroup_parse(text, path, sizeof path)) {
		if (path[0] != '/')
			__builtin_trap();
		names(path);
		if (cgroup_parse(text, small, sizeof small) &&
		    strncmp(small, path, strlen(small)) != 0)
			__builtin_trap();
	}
	if (size < 4096)
		names(text);
	free(text);
	return 0;
}
