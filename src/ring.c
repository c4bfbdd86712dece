/* ring: consuming one perf mmap ring buffer; records that wrap are copied
 * into a scratch buffer so callers always see one contiguous record. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracetop/ring.h"
#include "tracetop/util.h"

/* The largest record a u16 header size allows. */
#define RING_MAX_RECORD 65536

/* The system page size, asked once. */
static size_t
page_size(void)
{
	static size_t ps;

	if (ps == 0)
		ps = (size_t)sysconf(_SC_PAGESIZE);
	return ps;
}

/* Point r at a mapping: data area from the metadata page when the kernel
 * filled it in, else one page in with def_size bytes. */
static void
ring_setup(struct ring *r, void *mem, uint64_t def_size)
{
	struct perf_event_mmap_page *meta = mem;

	r->meta = meta;
	if (meta->data_offset != 0 && meta->data_size != 0) {
		r->data = (unsigned char *)mem + meta->data_offset;
		r->size = meta->data_size;
	} else {
		r->data = (unsigned char *)mem + page_size();
		r->size = def_size;
	}
	if (r->size < sizeof(struct perf_event_header) || (r->size & (r->size - 1)) != 0)
		fatal("ring: data size %llu is not a power of two", (unsigned long long)r->size);
	r->tail = r->head = __atomic_load_n(&meta->data_tail, __ATOMIC_RELAXED);
}

/* mmap 1 + 2^order pages of a perf fd's ring buffer. */
int
ring_mmap(struct ring *r, int fd, unsigned order)
{
	size_t len;
	void *map;

	memset(r, 0, sizeof *r);
	if (order > 24)
		return -EINVAL;
	len = ((size_t)1 + ((size_t)1 << order)) * page_size();
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	r->map = map;
	r->map_len = len;
	ring_setup(r, map, len - page_size());
	if ((uint64_t)(r->data - (unsigned char *)map) + r->size > len) {
		ring_unmap(r);
		return -EINVAL;
	}
	return 0;
}

/* Use caller memory laid out like a perf mapping. */
void
ring_init(struct ring *r, void *mem, uint64_t data_size)
{
	memset(r, 0, sizeof *r);
	ring_setup(r, mem, data_size);
}

/* Release the mapping (if ours) and the scratch buffer. */
void
ring_unmap(struct ring *r)
{
	if (r->map != NULL)
		munmap(r->map, r->map_len);
	free(r->scratch);
	memset(r, 0, sizeof *r);
}

/* Snapshot head; start a pass from the kernel-visible tail if none is open. */
uint64_t
ring_begin(struct ring *r)
{
	if (!r->in_pass) {
		r->tail = __atomic_load_n(&r->meta->data_tail, __ATOMIC_RELAXED);
		r->in_pass = true;
	}
	if (!r->corrupt)
		r->head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	return r->head - r->tail;
}

/* End the pass at the current tail: nothing past it is trusted, and ring_end
 * will skip everything up to the head seen so far. */
static const struct perf_event_header *
ring_corrupt(struct ring *r)
{
	r->bad++;
	r->corrupt = true;
	r->resync = r->head;
	r->head = r->tail;
	return NULL;
}

/* Copy len bytes starting at ring offset off into dst, wrapping at the end. */
static void
ring_copy(const struct ring *r, void *dst, uint64_t off, size_t len)
{
	size_t first = r->size - off < len ? (size_t)(r->size - off) : len;

	memcpy(dst, r->data + off, first);
	memcpy((unsigned char *)dst + first, r->data, len - first);
}

/* Make the scratch buffer hold at least len bytes. */
static void
scratch_reserve(struct ring *r, size_t len)
{
	if (r->scratch_len >= len)
		return;
	r->scratch_len = r->scratch_len ? r->scratch_len : 256;
	while (r->scratch_len < len)
		r->scratch_len *= 2;
	if (r->scratch_len > RING_MAX_RECORD)
		r->scratch_len = RING_MAX_RECORD;
	r->scratch = xrealloc(r->scratch, r->scratch_len);
}

/* The next whole record between tail and head, contiguous. */
const struct perf_event_header *
ring_next(struct ring *r)
{
	struct perf_event_header hdr;
	uint64_t avail = r->head - r->tail;
	uint64_t off = r->tail & (r->size - 1);
	const struct perf_event_header *rec;

	if (avail == 0)
		return NULL;
	if (avail < sizeof hdr || avail > r->size)
		return ring_corrupt(r);
	if (off + sizeof hdr <= r->size)
		memcpy(&hdr, r->data + off, sizeof hdr);
	else
		ring_copy(r, &hdr, off, sizeof hdr);
	if (hdr.size < sizeof hdr || hdr.size > avail)
		return ring_corrupt(r);
	if (off + hdr.size <= r->size) {
		rec = (const struct perf_event_header *)(r->data + off);
	} else {
		scratch_reserve(r, hdr.size);
		ring_copy(r, r->scratch, off, hdr.size);
		rec = (const struct perf_event_header *)r->scratch;
	}
	r->tail += hdr.size;
	r->last_size = hdr.size;
	return rec;
}

/* Go back to the kernel-visible tail for another pass over the same data. */
void
ring_rewind(struct ring *r)
{
	r->tail = __atomic_load_n(&r->meta->data_tail, __ATOMIC_RELAXED);
}

/* Publish the read position minus the record still in use. */
void
ring_release(struct ring *r)
{
	if (!r->in_pass || r->corrupt)
		return;
	__atomic_store_n(&r->meta->data_tail, r->tail - r->last_size, __ATOMIC_RELEASE);
}

/* Publish the read position so the kernel can reuse the space. */
void
ring_end(struct ring *r)
{
	if (!r->in_pass)
		return;
	if (r->corrupt) {
		r->tail = r->head = r->resync;
		r->corrupt = false;
	}
	__atomic_store_n(&r->meta->data_tail, r->tail, __ATOMIC_RELEASE);
	r->in_pass = false;
}
