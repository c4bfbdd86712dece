/* recfile: the container of a recording (-w FILE, read by -r FILE). A
 * versioned header says what was recorded (events, rate, call stacks,
 * target), then one chunk per refresh interval, each framed by a magic, its
 * length and a CRC-32 and gzip-compressed on its own, so a file cut
 * anywhere (a SIGKILL mid-write) reads up to its last whole chunk. What a
 * chunk holds is recframe's (include/tracetop/recframe.h). The layout is
 * documented in man/tracetop.1 (RECORDING FORMAT). */
#ifndef TRACETOP_RECFILE_H
#define TRACETOP_RECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/pb.h"
#include "tracetop/util.h"

/* The format version this tracetop writes and the newest it reads. */
#define RECFILE_VERSION 2
/* The file's first 8 bytes and every chunk's first 4. */
#define RECFILE_MAGIC "TTREC\r\n\x1a"
#define RECFILE_MAGIC_LEN 8
#define RECFILE_CHUNK_MAGIC "TTCK"
/* Bounds on what a reader believes: one chunk compressed, inflated. */
#define RECFILE_MAX_CHUNK (64u << 20)
#define RECFILE_MAX_RAW (256u << 20)

/* What a recording says about itself. */
struct recfile_header {
	uint32_t version;      /* of the format */
	char *writer;          /* "tracetop 0.1" */
	char *host;            /* uname -n */
	char *kernel;          /* uname -r */
	double start;          /* Unix time the recording began */
	double delay;          /* -d: seconds between refreshes */
	uint64_t freq;         /* -F, or 0 */
	uint64_t period;       /* -c, or 0 */
	uint32_t callgraph;    /* enum callgraph_mode */
	bool zero;             /* -z: counts zeroed, not decayed */
	double decay;          /* of the rows and call graph per refresh */
	double cg_min_percent; /* call graph branches under this fold into [other] */
	char **events;         /* as asked for (-e) */
	size_t nevents;
	uint32_t view; /* the view the run showed (enum options_view; version 2) */
};

void recfile_header_free(struct recfile_header *h);

/* ---- the fields inside headers and chunks: varints (signed ones
 * zigzagged), doubles as 8 little-endian bytes, strings and byte runs as a
 * varint length and the bytes ---- */

void rec_put_u(struct pb *b, uint64_t v);
void rec_put_i(struct pb *b, int64_t v);
void rec_put_f64(struct pb *b, double v);
void rec_put_str(struct pb *b, const char *s); /* NULL: as "" */
void rec_put_bytes(struct pb *b, const void *p, size_t n);

/* A read position in bytes of doubtful origin: a read past the end or a
 * malformed field sets bad and returns 0 (or ""), so a decoder checks bad
 * once at the end. */
struct rec_cursor {
	const uint8_t *p;
	size_t n;
	bool bad;
};

uint64_t rec_get_u(struct rec_cursor *c);
int64_t rec_get_i(struct rec_cursor *c);
double rec_get_f64(struct rec_cursor *c);
/* A run of bytes in place (NULL and 0 when bad). */
const uint8_t *rec_get_bytes(struct rec_cursor *c, size_t *len);
/* A string as a new allocation (free it). */
char *rec_get_str(struct rec_cursor *c);
/* A count of items that each take at least min_bytes: bad when more than
 * the bytes left could hold. */
size_t rec_get_count(struct rec_cursor *c, size_t min_bytes);

/* ---- writing ---- */

struct recfile_writer;

/* Create path and write h (its version set to RECFILE_VERSION). NULL with
 * err when the file cannot be made. */
struct recfile_writer *recfile_create(const char *path, const struct recfile_header *h,
                                      struct tt_err *err);

/* Append one chunk: raw compressed and framed, written with one write.
 * -1 with err on a write error (the file is then left as is). */
int recfile_write(struct recfile_writer *w, const void *raw, size_t len, struct tt_err *err);

/* Bytes written so far. */
uint64_t recfile_size(const struct recfile_writer *w);

/* Close the file; -1 with err when the last write failed. */
int recfile_close(struct recfile_writer *w, struct tt_err *err);

/* ---- reading ---- */

/* A recording in memory (a whole file, or a fuzzer's bytes). */
struct recfile_reader {
	const uint8_t *data;
	size_t len, pos; /* pos: the next chunk */
	struct recfile_header h;
	size_t chunks; /* read so far */
	/* why reading stopped before the end of the data (a cut or damaged
	 * chunk), empty when it stopped at the end */
	char stop[256];
};

/* Parse the header of data[0..len): 0, or -1 with err saying why it is
 * not a recording this tracetop reads (not one at all, a newer format, a
 * damaged header). The data must outlive the reader. */
int recfile_open_mem(struct recfile_reader *r, const void *data, size_t len, struct tt_err *err);

/* The next chunk inflated into *raw (free it) of *rawlen bytes: 1, 0 at
 * the end of the whole chunks (r->stop says why when data is left), never
 * an error: a bad chunk ends the recording there. */
int recfile_next(struct recfile_reader *r, uint8_t **raw, size_t *rawlen);

void recfile_reader_free(struct recfile_reader *r);

/* Read a whole file into *data (free it): 0, or -1 with err naming the
 * file and the reason. */
int recfile_load(const char *path, uint8_t **data, size_t *len, struct tt_err *err);

#endif
