/* replay: runs a libFuzzer target without libFuzzer, so make check
 * exercises every fuzz target: first the files named on the command line
 * (a corpus), then pseudo-random inputs from a fixed seed, some of them
 * mutations of the corpus. Prints TAP; a crash loses the plan line. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_RANDOM_INPUTS 20000
#define REPLAY_MAX_LEN 8192

/* xorshift64: reproducible inputs without libc's rand state. */
static uint64_t
replay_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Read a corpus file; NULL if unreadable. */
static uint8_t *
replay_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;

	if (f == NULL)
		return NULL;
	buf = malloc(REPLAY_MAX_LEN);
	*len = buf ? fread(buf, 1, REPLAY_MAX_LEN, f) : 0;
	fclose(f);
	return buf;
}

int
main(int argc, char **argv)
{
	uint8_t *buf = malloc(REPLAY_MAX_LEN), *seed = NULL;
	size_t seed_len = 0, n = 0;
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	int i;

	if (buf == NULL)
		return 1;
	for (i = 1; i < argc; i++) {
		size_t len;
		uint8_t *data = replay_read(argv[i], &len);

		if (data == NULL) {
			printf("1..0 # SKIP cannot read corpus file %s\n", argv[i]);
			return 0;
		}
		LLVMFuzzerTestOneInput(data, len);
		n++;
		free(seed);
		seed = data;
		seed_len = len;
	}
	for (i = 0; i < REPLAY_RANDOM_INPUTS; i++) {
		size_t len = replay_next(&s) % REPLAY_MAX_LEN, k;

		if (seed != NULL && i % 2 == 0) {
			/* flip a few bytes of the last corpus input */
			len = seed_len;
			memcpy(buf, seed, len);
			for (k = 0; len > 0 && k < 1 + replay_next(&s) % 8; k++)
				buf[replay_next(&s) % len] = (uint8_t)replay_next(&s);
		} else if (i % 3 == 0) {
			/* text-like bytes: digits, hex, spaces and newlines */
			static const char alphabet[] = "0123456789abcdefx \n\t_:.[]";

			for (k = 0; k < len; k++)
				buf[k] = (uint8_t)alphabet[replay_next(&s) % (sizeof alphabet - 1)];
		} else {
			/* small numbers dominate, as in record headers */
			for (k = 0; k < len; k++)
				buf[k] = (uint8_t)(replay_next(&s) % 4 ? replay_next(&s) % 48 : replay_next(&s));
		}
		LLVMFuzzerTestOneInput(buf, len);
		n++;
	}
	printf("1..1\nok 1 - %s: %zu inputs without a crash\n", argv[0], n);
	free(buf);
	free(seed);
	return 0;
}
