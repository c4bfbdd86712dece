/* replay: runs a libFuzzer target without libFuzzer, so make check
 * exercises every fuzz target: first the files named on the command line
 * (a corpus; without any, those of the directory REPLAY_CORPUS if the
 * target was built with one), then pseudo-random inputs from a fixed seed,
 * some of them mutations of the corpus. Prints TAP; a crash loses the plan
 * line. */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_RANDOM_INPUTS 20000
#define REPLAY_MAX_LEN 8192   /* of a random input */
#define REPLAY_MAX_FILE 65536 /* read of a corpus file (real ELF seeds are this big) */

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
	buf = malloc(REPLAY_MAX_FILE);
	*len = buf ? fread(buf, 1, REPLAY_MAX_FILE, f) : 0;
	fclose(f);
	return buf;
}

#ifdef REPLAY_CORPUS
/* Skip dot files in the built-in corpus directory. */
static int
replay_visible(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* The built-in corpus, when no files are named: its paths in name order
 * (so runs are reproducible), or -1. */
static int
replay_corpus(char ***paths)
{
	struct dirent **ents;
	int n = scandir(REPLAY_CORPUS, &ents, replay_visible, alphasort);

	if (n < 0)
		return -1;
	*paths = calloc((size_t)n + 1, sizeof **paths);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(REPLAY_CORPUS) + strlen(ents[i]->d_name) + 2;

		if (*paths != NULL && ((*paths)[i] = malloc(len)) != NULL)
			snprintf((*paths)[i], len, "%s/%s", REPLAY_CORPUS, ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	return *paths != NULL ? n : -1;
}
#endif

int
main(int argc, char **argv)
{
	uint8_t *buf = malloc(REPLAY_MAX_FILE), **seeds;
	size_t *seed_lens, nseeds = 0, n = 0;
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	char **files = argv + 1;
	int i, nfiles = argc - 1;

#ifdef REPLAY_CORPUS
	if (nfiles == 0 && (nfiles = replay_corpus(&files)) < 0) {
		printf("1..0 # SKIP cannot read corpus directory %s\n", REPLAY_CORPUS);
		return 0;
	}
#endif
	seeds = calloc((size_t)nfiles + 1, sizeof *seeds);
	seed_lens = calloc((size_t)nfiles + 1, sizeof *seed_lens);
	if (buf == NULL || seeds == NULL || seed_lens == NULL)
		return 1;
	for (i = 0; i < nfiles; i++) {
		size_t len;
		uint8_t *data = files[i] ? replay_read(files[i], &len) : NULL;

		if (data == NULL) {
			printf("1..0 # SKIP cannot read corpus file %s\n",
			       files[i] ? files[i] : "?");
			return 0;
		}
		LLVMFuzzerTestOneInput(data, len);
		n++;
		seeds[nseeds] = data;
		seed_lens[nseeds++] = len;
	}
	for (i = 0; i < REPLAY_RANDOM_INPUTS; i++) {
		size_t len = replay_next(&s) % REPLAY_MAX_LEN, k;

		if (nseeds > 0 && i % 2 == 0) {
			/* flip a few bytes of one corpus input */
			k = replay_next(&s) % nseeds;
			len = seed_lens[k];
			memcpy(buf, seeds[k], len);
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
				buf[k] = (uint8_t)(replay_next(&s) % 4 ? replay_next(&s) % 48
				                                       : replay_next(&s));
		}
		LLVMFuzzerTestOneInput(buf, len);
		n++;
	}
	printf("1..1\nok 1 - %s: %zu inputs without a crash\n", argv[0], n);
	free(buf);
	while (nseeds > 0)
		free(seeds[--nseeds]);
	free(seeds);
	free(seed_lens);
	return 0;
}
