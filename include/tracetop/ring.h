/* ring: consuming one perf mmap ring buffer (a metadata page followed by a
 * power-of-two data area). Records that wrap around the end are copied into
 * a scratch buffer so callers always see one contiguous record. */
#ifndef TRACETOP_RING_H
#define TRACETOP_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct ring {
	struct perf_event_mmap_page *meta; /* first page of the mapping */
	unsigned char *data;               /* data area */
	uint64_t size;                     /* data area bytes, a power of two */
	uint64_t head;                     /* head snapshot taken by ring_begin */
	uint64_t tail;                     /* next byte to read */
	void *map;                         /* whole mapping (for munmap), NULL if not ours */
	size_t map_len;
	unsigned char *scratch; /* holds one wrapped record */
	size_t scratch_len;
	uint64_t bad;       /* corrupt records skipped */
	bool in_pass;       /* tail loaded by ring_begin, not yet ended */
	bool corrupt;       /* pass ended on a bad header */
	uint64_t resync;    /* where ring_end moves tail after corruption */
	uint64_t last_size; /* bytes of the record ring_next returned last */
};

/* mmap a ring of 2^order data pages on a perf fd. 0 or -errno. */
int ring_mmap(struct ring *r, int fd, unsigned order);

/* Use caller memory laid out like a perf mapping (tests, replays). */
void ring_init(struct ring *r, void *mem, uint64_t data_size);

void ring_unmap(struct ring *r);

/* Snapshot the kernel's head (with the needed read barrier); returns the
 * number of unread bytes. The first call after ring_end (or init) reloads
 * tail from the kernel-visible data_tail. After a bad header the pass stays
 * ended (head is not re-read) until ring_end. */
uint64_t ring_begin(struct ring *r);

/* The next record between tail and the snapshot head, or NULL when none is
 * left. Does not advance the kernel-visible tail; a record whose header size
 * is impossible ends the pass (counted in bad). */
const struct perf_event_header *ring_next(struct ring *r);

/* Rewind the read position to the kernel-visible tail (for a second pass
 * over the same records). */
void ring_rewind(struct ring *r);

/* In the middle of a pass, let the kernel reuse the space of the records
 * read so far, all but the last one returned (the caller may still hold
 * it). A long pass then no longer makes the kernel drop samples. */
void ring_release(struct ring *r);

/* Publish tail to the kernel (with the needed barrier), freeing the space. */
void ring_end(struct ring *r);

#endif
