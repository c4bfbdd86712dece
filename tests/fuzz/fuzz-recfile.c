/* libFuzzer target for recordings (-r FILE): the input as a whole file
 * (header, framed chunks, each inflated and decoded into a frame), or,
 * when it starts with 'C', the rest as one chunk's bytes after inflating
 * (so the decoder sees inputs past the checksums). Every row and call
 * graph decoded is then read as the reports read them. A recording is a
 * file from another machine: it can hold anything. Build from a
 * configured build directory, e.g.:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     $SRC/tests/fuzz/fuzz-recfile.c $SRC/src/recfile.c $SRC/src/recframe*.c \
 *     $SRC/src/pb.c $SRC/src/gz.c $SRC/src/callgraph*.c $SRC/src/hist.c \
 *     $SRC/src/cgroup.c $SRC/src/sym*.c $SRC/src/dso.c $SRC/src/util.c \
 *     -lz -lelf -ldw -liberty -o fuzz-recfile && \
 *     ./fuzz-recfile $SRC/tests/fuzz/corpus/recfile
 *
 * where $SRC is the source tree and "." holds config.h. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tracetop/callgraph.h"
#include "tracetop/recfile.h"
#include "tracetop/recframe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read what a report reads of the frame: rows, names, folded stacks. */
static void
use_frame(const struct frame *f)
{
	static FILE *null;
	size_t names = 0;

	if (null == NULL)
		null = fopen("/dev/null", "w");
	for (size_t i = 0; i < f->sampling.nevents && f->has_sampling; i++) {
		const struct frame_event *ev = &f->sampling.events[i];

		for (size_t r = 0; r < ev->rows.n; r++)
			names += hist_sym_name(ev->rows.rows[r].entry)[0] != '\0';
		if (ev->cg != NULL && null != NULL)
			cg_print_folded(ev->cg, null);
	}
	(void)names;
}

/* End the interval and read its rows as a replay does. */
static void
snapshot(struct recframe_dec *d, struct frame *f)
{
	static const enum hist_sort sort[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};

	recframe_tick(d, false);
	recframe_snapshot(d, f, sort, HIST_GROUP_DEFAULT);
	use_frame(f);
}

/* Free the profile part of a frame (all a decoder fills). */
static void
frame_drop(struct frame *f)
{
	for (size_t i = 0; i < f->sampling.cap; i++) {
		hist_snapshot_free(&f->sampling.events[i].rows);
		cg_free(f->sampling.events[i].cg);
	}
	free(f->sampling.events);
}

/* Decode the input as a file or as one chunk. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct recframe_dec *d = recframe_dec_new(0.875, 0.05);
	struct recfile_reader r;
	struct frame f = {0};
	struct tt_err err;

	if (size > 0 && data[0] == 'C') {
		if (recframe_decode(d, data + 1, size - 1, &f, &err) == 0)
			snapshot(d, &f);
	} else if (recfile_open_mem(&r, data, size, &err) == 0) {
		uint8_t *raw;
		size_t n;

		while (recfile_next(&r, &raw, &n) == 1) {
			if (recframe_decode(d, raw, n, &f, &err) == 0)
				snapshot(d, &f);
			free(raw);
		}
		recfile_reader_free(&r);
	}
	frame_drop(&f);
	recframe_dec_free(d);
	dso_cache_free();
	return 0;
}
