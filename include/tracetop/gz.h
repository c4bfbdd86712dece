/* gz: the zlib adapter: gzip streams (RFC 1952) in memory, zlib streams
 * (RFC 1950) from one file into another. Nothing else includes zlib.h. */
#ifndef TRACETOP_GZ_H
#define TRACETOP_GZ_H

#include <stddef.h>
#include <stdint.h>

struct tt_err;

/* in[0..len) gzip-compressed into a new *out of *outlen bytes (free it);
 * 0, or -1 with err. */
int gz_compress(const void *in, size_t len, uint8_t **out, size_t *outlen, struct tt_err *err);

/* A gzip stream decompressed into a new *out (free it), at most max
 * bytes; 0, or -1 with err (not gzip, truncated, too big). */
int gz_decompress(const void *in, size_t len, size_t max, uint8_t **out, size_t *outlen,
                  struct tt_err *err);

/* The zlib stream (RFC 1950) of len bytes at offset off of in_fd,
 * inflated and appended to out_fd in chunks (a few dozen KiB of memory
 * however big it is); 0 when it held exactly want bytes, else -1 with
 * err. */
int gz_inflate_fd(int in_fd, uint64_t off, uint64_t len, int out_fd, uint64_t want,
                  struct tt_err *err);

/* A raw deflate stream (RFC 1951) kept for many small buffers (its state
 * is made once: a few hundred KiB, until gz_deflater_free). */
struct gz_deflater;
struct gz_deflater *gz_deflater_new(void);
void gz_deflater_free(struct gz_deflater *d);

/* Room enough for len bytes deflated. */
size_t gz_deflate_bound(size_t len);

/* in[0..len) deflated raw into out (gz_deflate_bound(len) bytes); the
 * size written, 0 on failure. */
size_t gz_deflate_raw(struct gz_deflater *d, const void *in, size_t len, void *out, size_t cap);

/* A raw deflate stream of len bytes inflated into out (cap bytes): the
 * size written, or -1 when it is not whole or holds more than cap. */
long gz_inflate_raw(const void *in, size_t len, void *out, size_t cap);

/* The CRC-32 of p[0..n) (as gzip's trailer has it). */
uint32_t gz_crc32(const void *p, size_t n);

#endif
