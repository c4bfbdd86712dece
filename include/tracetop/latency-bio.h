/* latency-bio: pairing block requests, block:block_rq_issue with
 * block:block_rq_complete, by (device, sector), like bcc's biolatency;
 * and the names of block devices. Plain data: no allocation per request
 * in steady state (the table grows with the requests in flight). */
#ifndef TRACETOP_LATENCY_BIO_H
#define TRACETOP_LATENCY_BIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct latbio_slot {
	uint64_t sector;
	uint64_t at; /* issue time; 0: a free slot */
	uint32_t dev;
};

/* Requests in flight, open addressing (deleted by backward shift). */
struct latbio {
	struct latbio_slot *slots;
	size_t mask, used;
	uint64_t unpaired; /* completions without their issue (in flight at start) */
	uint64_t dropped;  /* issues forgotten: never completed, the table full */
};

void latbio_init(struct latbio *b);
void latbio_free(struct latbio *b);

/* A request of dev (the kernel's dev_t: major << 20 | minor) at sector
 * was issued at time t (t > 0); a second issue of the same key replaces
 * the first (its completion was lost). */
void latbio_issue(struct latbio *b, uint32_t dev, uint64_t sector, uint64_t t);

/* The request of (dev, sector) completed at t: true with its duration in
 * *ns when its issue was seen, else false (counted in unpaired). */
bool latbio_complete(struct latbio *b, uint32_t dev, uint64_t sector, uint64_t t, uint64_t *ns);

/* The name of block device dev as sysfs (under sys_root, "/sys" but in
 * tests) has it in dev/block/MAJ:MIN/uevent ("loop0", "vda"), else
 * "MAJ:MIN". Raw: escape before output. */
void latbio_devname(const char *sys_root, uint32_t dev, char *buf, size_t len);

#endif
