/* gz: gzip through zlib's deflate and inflate. */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "tracetop/gz.h"
#include "tracetop/util.h"

/* windowBits for a gzip header and trailer rather than zlib's. */
#define GZ_WINDOW (15 + 16)

/* Compress at the default level into one buffer of deflateBound's size. */
int
gz_compress(const void *in, size_t len, uint8_t **out, size_t *outlen, struct tt_err *err)
{
	z_stream z = {0};
	uLong bound;
	int rc;

	if (len > UINT32_MAX)
		return err_set(err, "gzip: %zu bytes is more than one call takes", len);
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, GZ_WINDOW, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return err_set(err, "gzip: cannot start zlib's deflate");
	bound = deflateBound(&z, (uLong)len) + 32;
	*out = xmalloc(bound);
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	z.next_out = *out;
	z.avail_out = (uInt)bound;
	rc = deflate(&z, Z_FINISH);
	*outlen = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(*out);
		*out = NULL;
		return err_set(err, "gzip: deflate failed (%d)", rc);
	}
	return 0;
}

/* Inflate a whole gzip stream, growing the output up to max. */
int
gz_decompress(const void *in, size_t len, size_t max, uint8_t **out, size_t *outlen,
              struct tt_err *err)
{
	z_stream z = {0};
	size_t cap = 4096;
	int rc = Z_OK;

	if (len > UINT32_MAX)
		return err_set(err, "gzip: %zu bytes is more than one call takes", len);
	if (inflateInit2(&z, GZ_WINDOW) != Z_OK)
		return err_set(err, "gzip: cannot start zlib's inflate");
	*out = xmalloc(cap);
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	while (rc == Z_OK) {
		if (z.total_out == cap) {
			if (cap >= max)
				break;
			cap = cap * 2 > max ? max : cap * 2;
			*out = xrealloc(*out, cap);
		}
		z.next_out = *out + z.total_out;
		z.avail_out = (uInt)(cap - z.total_out);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc == Z_BUF_ERROR && z.avail_out > 0)
			break; /* no more input: truncated */
		if (rc == Z_BUF_ERROR)
			rc = Z_OK;
	}
	*outlen = z.total_out;
	inflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(*out);
		*out = NULL;
		return err_set(err, "gzip: not a whole gzip stream of at most %zu bytes", max);
	}
	return 0;
}

/* Bytes read or written at a time by gz_inflate_fd. */
#define GZ_CHUNK (64U << 10)

/* Write all of buf to fd. */
static int
write_all(int fd, const unsigned char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);

		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Inflate the zlib stream of len bytes at offset off of in_fd, appending
 * what it holds to out_fd, in chunks (a few dozen KiB of memory however
 * big the stream). 0 when it ends after exactly want bytes, else -1 with
 * err. */
int
gz_inflate_fd(int in_fd, uint64_t off, uint64_t len, int out_fd, uint64_t want, struct tt_err *err)
{
	unsigned char *in = xmalloc(2 * GZ_CHUNK), *out = in + GZ_CHUNK;
	z_stream z = {0};
	int rc = Z_OK;

	if (inflateInit(&z) != Z_OK) {
		free(in);
		return err_set(err, "zlib: cannot start inflate");
	}
	while (rc == Z_OK) {
		if (z.avail_in == 0 && len > 0) {
			size_t step = len < GZ_CHUNK ? (size_t)len : GZ_CHUNK;
			ssize_t got = pread(in_fd, in, step, (off_t)off);

			if (got <= 0)
				break;
			off += (uint64_t)got;
			len -= (uint64_t)got;
			z.next_in = in;
			z.avail_in = (uInt)got;
		}
		z.next_out = out;
		z.avail_out = GZ_CHUNK;
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc == Z_BUF_ERROR && z.avail_in == 0 && len > 0)
			rc = Z_OK; /* needs the next chunk */
		if ((rc == Z_OK || rc == Z_STREAM_END) &&
		    write_all(out_fd, out, GZ_CHUNK - z.avail_out) != 0) {
			rc = Z_ERRNO;
			break;
		}
	}
	inflateEnd(&z);
	free(in);
	if (rc == Z_ERRNO)
		return err_set(err, "cannot write the inflated copy");
	if (rc != Z_STREAM_END || z.total_out != want)
		return err_set(err, "zlib: not a whole stream of %llu bytes",
		               (unsigned long long)want);
	return 0;
}

/* A raw deflate stream, reset for each buffer. */
struct gz_deflater {
	z_stream z;
};

/* A deflater at the fastest level (small buffers gain little from more);
 * NULL when zlib cannot start one. */
struct gz_deflater *
gz_deflater_new(void)
{
	struct gz_deflater *d = xcalloc(1, sizeof *d);

	/* windowBits < 0: no zlib header or trailer, 8 memLevel as zlib's default */
	if (deflateInit2(&d->z, Z_BEST_SPEED, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(d);
		return NULL;
	}
	return d;
}

/* Free a deflater (NULL is fine). */
void
gz_deflater_free(struct gz_deflater *d)
{
	if (d == NULL)
		return;
	deflateEnd(&d->z);
	free(d);
}

/* compressBound is for the zlib format, a few bytes more than raw. */
size_t
gz_deflate_bound(size_t len)
{
	return (size_t)compressBound((uLong)len) + 16;
}

/* Deflate one whole buffer with the kept state. */
size_t
gz_deflate_raw(struct gz_deflater *d, const void *in, size_t len, void *out, size_t cap)
{
	if (len > UINT32_MAX || cap > UINT32_MAX || deflateReset(&d->z) != Z_OK)
		return 0;
	d->z.next_in = (Bytef *)(uintptr_t)in;
	d->z.avail_in = (uInt)len;
	d->z.next_out = out;
	d->z.avail_out = (uInt)cap;
	if (deflate(&d->z, Z_FINISH) != Z_STREAM_END)
		return 0;
	return (size_t)d->z.total_out;
}

/* Inflate one whole raw stream. */
long
gz_inflate_raw(const void *in, size_t len, void *out, size_t cap)
{
	z_stream z = {0};
	int rc;

	if (len > UINT32_MAX || cap > UINT32_MAX || inflateInit2(&z, -15) != Z_OK)
		return -1;
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	rc = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	return rc == Z_STREAM_END ? (long)z.total_out : -1;
}

/* zlib's CRC-32 (the gzip one) of n bytes. */
uint32_t
gz_crc32(const void *p, size_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);
	const Bytef *b = p;

	/* zlib takes uInt lengths: feed big runs in pieces */
	while (n > 0) {
		uInt step = n > (1u << 30) ? (1u << 30) : (uInt)n;

		c = crc32(c, b, step);
		b += step;
		n -= step;
	}
	return (uint32_t)c;
}
