/* recfile: a recording's header and its framed, compressed chunks. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/gz.h"
#include "tracetop/recfile.h"

/* Frame of a chunk: magic, compressed length, CRC-32 of the compressed
 * bytes, each 4 bytes (the numbers little-endian). */
#define CHUNK_HEAD 12
/* Magic, version, header length, header CRC. */
#define FILE_HEAD (RECFILE_MAGIC_LEN + 12)
/* The header's fields are few; past this it is not ours. */
#define MAX_HEADER (1u << 20)
#define MAX_EVENTS 1024

struct recfile_writer {
	int fd;
	uint64_t size;
	struct pb buf; /* the framed chunk, reused */
	int error;     /* errno of the first failed write, 0 */
};

/* ---- fields ---- */

/* An unsigned varint. */
void
rec_put_u(struct pb *b, uint64_t v)
{
	pb_varint(b, v);
}

/* A signed varint, zigzagged so small negatives stay short. */
void
rec_put_i(struct pb *b, int64_t v)
{
	pb_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/* A double, its bits little-endian. */
void
rec_put_f64(struct pb *b, double v)
{
	uint64_t u;
	uint8_t le[8];

	memcpy(&u, &v, sizeof u);
	for (int i = 0; i < 8; i++)
		le[i] = (uint8_t)(u >> (8 * i));
	pb_raw(b, le, sizeof le);
}

/* Length-prefixed bytes. */
void
rec_put_bytes(struct pb *b, const void *p, size_t n)
{
	pb_varint(b, n);
	pb_raw(b, p, n);
}

/* A string without its NUL. */
void
rec_put_str(struct pb *b, const char *s)
{
	s = s != NULL ? s : "";
	rec_put_bytes(b, s, strlen(s));
}

/* An unsigned varint of at most 10 bytes. */
uint64_t
rec_get_u(struct rec_cursor *c)
{
	uint64_t v = 0;

	for (unsigned shift = 0; shift < 70; shift += 7) {
		uint8_t byte;

		if (c->bad || c->n == 0) {
			c->bad = true;
			return 0;
		}
		byte = *c->p++;
		c->n--;
		v |= shift < 64 ? (uint64_t)(byte & 0x7f) << shift : 0;
		if (!(byte & 0x80))
			return v;
	}
	c->bad = true;
	return 0;
}

/* A zigzagged signed varint. */
int64_t
rec_get_i(struct rec_cursor *c)
{
	uint64_t u = rec_get_u(c);

	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* A little-endian double. */
double
rec_get_f64(struct rec_cursor *c)
{
	uint64_t u = 0;
	double v;

	if (c->bad || c->n < 8) {
		c->bad = true;
		return 0;
	}
	for (int i = 0; i < 8; i++)
		u |= (uint64_t)c->p[i] << (8 * i);
	c->p += 8;
	c->n -= 8;
	memcpy(&v, &u, sizeof v);
	return v;
}

/* Length-prefixed bytes, in place. */
const uint8_t *
rec_get_bytes(struct rec_cursor *c, size_t *len)
{
	uint64_t n = rec_get_u(c);
	const uint8_t *p = c->p;

	if (c->bad || n > c->n) {
		c->bad = true;
		*len = 0;
		return NULL;
	}
	c->p += n;
	c->n -= n;
	*len = (size_t)n;
	return p;
}

/* A string, copied and NUL-terminated (a NUL inside ends it early). */
char *
rec_get_str(struct rec_cursor *c)
{
	size_t n;
	const uint8_t *p = rec_get_bytes(c, &n);

	return p != NULL ? xstrndup((const char *)p, n) : xstrdup("");
}

/* A count that the bytes left could hold. */
size_t
rec_get_count(struct rec_cursor *c, size_t min_bytes)
{
	uint64_t n = rec_get_u(c);

	if (min_bytes == 0)
		min_bytes = 1;
	if (c->bad || n > c->n / min_bytes) {
		c->bad = true;
		return 0;
	}
	return (size_t)n;
}

/* ---- the header ---- */

/* Free what a header holds. */
void
recfile_header_free(struct recfile_header *h)
{
	free(h->writer);
	free(h->host);
	free(h->kernel);
	for (size_t i = 0; i < h->nevents; i++)
		free(h->events[i]);
	free(h->events);
	memset(h, 0, sizeof *h);
}

/* A 32-bit number, little-endian. */
static void
put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t
get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The header's fields, in the order the format fixes. */
static void
header_encode(struct pb *b, const struct recfile_header *h)
{
	rec_put_str(b, h->writer);
	rec_put_str(b, h->host);
	rec_put_str(b, h->kernel);
	rec_put_f64(b, h->start);
	rec_put_f64(b, h->delay);
	rec_put_u(b, h->freq);
	rec_put_u(b, h->period);
	rec_put_u(b, h->callgraph);
	rec_put_u(b, h->zero);
	rec_put_f64(b, h->decay);
	rec_put_f64(b, h->cg_min_percent);
	rec_put_u(b, h->nevents);
	for (size_t i = 0; i < h->nevents; i++)
		rec_put_str(b, h->events[i]);
	rec_put_u(b, h->view); /* from version 2 */
}

/* The header's fields back; -1 when they do not parse. */
static int
header_decode(struct rec_cursor *c, struct recfile_header *h)
{
	h->writer = rec_get_str(c);
	h->host = rec_get_str(c);
	h->kernel = rec_get_str(c);
	h->start = rec_get_f64(c);
	h->delay = rec_get_f64(c);
	h->freq = rec_get_u(c);
	h->period = rec_get_u(c);
	h->callgraph = (uint32_t)rec_get_u(c);
	h->zero = rec_get_u(c) != 0;
	h->decay = rec_get_f64(c);
	h->cg_min_percent = rec_get_f64(c);
	h->nevents = rec_get_count(c, 1);
	if (h->nevents > MAX_EVENTS)
		c->bad = true;
	if (c->bad) {
		h->nevents = 0;
		return -1;
	}
	h->events = xcalloc(h->nevents + 1, sizeof *h->events);
	for (size_t i = 0; i < h->nevents; i++)
		h->events[i] = rec_get_str(c);
	h->view = c->n > 0 ? (uint32_t)rec_get_u(c) : 0; /* version 1 has none */
	return c->bad ? -1 : 0;
}

/* ---- writing ---- */

/* Write all of p, retrying short writes; -1 with errno. */
static int
write_all(int fd, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Make the file and write its header. */
struct recfile_writer *
recfile_create(const char *path, const struct recfile_header *h, struct tt_err *err)
{
	struct recfile_writer *w;
	struct pb body = {0}, head = {0};
	uint8_t num[12];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0) {
		err_set(err, "cannot write the recording %s: %s", path, strerror(errno));
		return NULL;
	}
	header_encode(&body, h);
	pb_raw(&head, RECFILE_MAGIC, RECFILE_MAGIC_LEN);
	put_le32(num, RECFILE_VERSION);
	put_le32(num + 4, (uint32_t)body.len);
	put_le32(num + 8, gz_crc32(body.buf, body.len));
	pb_raw(&head, num, sizeof num);
	pb_raw(&head, body.buf, body.len);
	if (write_all(fd, head.buf, head.len) != 0) {
		err_set(err, "cannot write the recording %s: %s", path, strerror(errno));
		close(fd);
		pb_free(&body);
		pb_free(&head);
		return NULL;
	}
	w = xcalloc(1, sizeof *w);
	w->fd = fd;
	w->size = head.len;
	pb_free(&body);
	pb_free(&head);
	return w;
}

/* Compress, frame and write one chunk. */
int
recfile_write(struct recfile_writer *w, const void *raw, size_t len, struct tt_err *err)
{
	uint8_t *z, num[CHUNK_HEAD];
	size_t zlen;

	if (w->error != 0)
		return err_set(err, "the recording stopped at a write error: %s",
		               strerror(w->error));
	if (gz_compress(raw, len, &z, &zlen, err) != 0)
		return -1;
	memcpy(num, RECFILE_CHUNK_MAGIC, 4);
	put_le32(num + 4, (uint32_t)zlen);
	put_le32(num + 8, gz_crc32(z, zlen));
	pb_reset(&w->buf);
	pb_raw(&w->buf, num, sizeof num);
	pb_raw(&w->buf, z, zlen);
	free(z);
	/* one write: a reader of a killed recording sees whole chunks but the last */
	if (write_all(w->fd, w->buf.buf, w->buf.len) != 0) {
		w->error = errno != 0 ? errno : EIO;
		return err_set(err, "cannot write the recording: %s", strerror(w->error));
	}
	w->size += w->buf.len;
	return 0;
}

/* Bytes written. */
uint64_t
recfile_size(const struct recfile_writer *w)
{
	return w->size;
}

/* Close the file. */
int
recfile_close(struct recfile_writer *w, struct tt_err *err)
{
	int rc = 0;

	if (w == NULL)
		return 0;
	if (close(w->fd) != 0 && w->error == 0)
		w->error = errno;
	if (w->error != 0)
		rc = err_set(err, "the recording is incomplete: %s", strerror(w->error));
	pb_free(&w->buf);
	free(w);
	return rc;
}

/* ---- reading ---- */

/* Check the magic, version and header. */
int
recfile_open_mem(struct recfile_reader *r, const void *data, size_t len, struct tt_err *err)
{
	const uint8_t *p = data;
	uint32_t version, hlen;
	struct rec_cursor c;

	memset(r, 0, sizeof *r);
	if (len < RECFILE_MAGIC_LEN || memcmp(p, RECFILE_MAGIC, RECFILE_MAGIC_LEN) != 0)
		return err_set(err, "not a tracetop recording (it does not start as one); make "
		                    "one with tracetop -w FILE");
	if (len < FILE_HEAD)
		return err_set(err, "the recording is cut inside its header: nothing to replay");
	version = get_le32(p + RECFILE_MAGIC_LEN);
	hlen = get_le32(p + RECFILE_MAGIC_LEN + 4);
	if (version > RECFILE_VERSION || version == 0)
		return err_set(err,
		               "the recording has format version %u; this tracetop reads "
		               "version %u and older: replay it with a newer tracetop",
		               version, RECFILE_VERSION);
	if (hlen > MAX_HEADER || hlen > len - FILE_HEAD)
		return err_set(err, "the recording is cut inside its header: nothing to replay");
	if (gz_crc32(p + FILE_HEAD, hlen) != get_le32(p + RECFILE_MAGIC_LEN + 8))
		return err_set(err, "the recording's header is damaged (its checksum does not "
		                    "match)");
	c = (struct rec_cursor){.p = p + FILE_HEAD, .n = hlen};
	if (header_decode(&c, &r->h) != 0) {
		recfile_header_free(&r->h);
		return err_set(err, "the recording's header does not parse");
	}
	r->h.version = version;
	r->data = p;
	r->len = len;
	r->pos = FILE_HEAD + hlen;
	return 0;
}

/* Stop the recording at the current chunk, saying why. */
static int
reader_stop(struct recfile_reader *r, const char *why)
{
	snprintf(r->stop, sizeof r->stop, "%s after interval %zu (byte %zu of %zu)", why, r->chunks,
	         r->pos, r->len);
	r->pos = r->len;
	return 0;
}

/* The next whole chunk, inflated. */
int
recfile_next(struct recfile_reader *r, uint8_t **raw, size_t *rawlen)
{
	const uint8_t *p = r->data + r->pos;
	size_t left = r->len - r->pos;
	uint32_t zlen;
	struct tt_err err;

	*raw = NULL;
	*rawlen = 0;
	if (left == 0)
		return 0;
	if (left < CHUNK_HEAD)
		return reader_stop(r, "the recording is cut");
	if (memcmp(p, RECFILE_CHUNK_MAGIC, 4) != 0)
		return reader_stop(r, "the recording is damaged");
	zlen = get_le32(p + 4);
	if (zlen > RECFILE_MAX_CHUNK)
		return reader_stop(r, "the recording is damaged");
	if (zlen > left - CHUNK_HEAD)
		return reader_stop(r, "the recording is cut");
	if (gz_crc32(p + CHUNK_HEAD, zlen) != get_le32(p + 8))
		return reader_stop(r, "the recording is damaged");
	if (gz_decompress(p + CHUNK_HEAD, zlen, RECFILE_MAX_RAW, raw, rawlen, &err) != 0)
		return reader_stop(r, "the recording is damaged");
	r->pos += CHUNK_HEAD + zlen;
	r->chunks++;
	return 1;
}

/* Free the header. */
void
recfile_reader_free(struct recfile_reader *r)
{
	recfile_header_free(&r->h);
}

/* The whole file in memory. */
int
recfile_load(const char *path, uint8_t **data, size_t *len, struct tt_err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return err_set(err, "cannot read the recording %s: %s", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(err,
		               "cannot replay %s: not a regular file (give a file made with "
		               "tracetop -w FILE)",
		               path);
	}
	*data = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, *data + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	*len = got;
	return 0;
}
