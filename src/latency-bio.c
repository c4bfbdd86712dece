/* latency-bio: block requests paired by (device, sector). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/latency-bio.h"
#include "tracetop/util.h"

/* Requests in flight kept at most: past it they were lost (a full ring
 * dropped their completions), and the table starts over. */
#define LATBIO_MAX 65536

/* An empty table of 256 slots. */
void
latbio_init(struct latbio *b)
{
	memset(b, 0, sizeof *b);
	b->mask = 255;
	b->slots = xcalloc(b->mask + 1, sizeof *b->slots);
}

/* Free the table. */
void
latbio_free(struct latbio *b)
{
	free(b->slots);
	memset(b, 0, sizeof *b);
}

/* The home slot of a key. */
static size_t
latbio_home(const struct latbio *b, uint32_t dev, uint64_t sector)
{
	return hash_mix(hash_u64(dev), sector) & b->mask;
}

/* The slot of a key, or the free one where it would go. */
static struct latbio_slot *
latbio_slot(const struct latbio *b, uint32_t dev, uint64_t sector)
{
	size_t i = latbio_home(b, dev, sector);

	while (b->slots[i].at != 0 && (b->slots[i].dev != dev || b->slots[i].sector != sector))
		i = (i + 1) & b->mask;
	return &b->slots[i];
}

/* Twice the slots, the requests rehashed. */
static void
latbio_grow(struct latbio *b)
{
	struct latbio_slot *old = b->slots;
	size_t n = b->mask + 1;

	b->mask = 2 * n - 1;
	b->slots = xcalloc(2 * n, sizeof *b->slots);
	for (size_t i = 0; i < n; i++)
		if (old[i].at != 0)
			*latbio_slot(b, old[i].dev, old[i].sector) = old[i];
	free(old);
}

/* Remember when (dev, sector) was issued. */
void
latbio_issue(struct latbio *b, uint32_t dev, uint64_t sector, uint64_t t)
{
	struct latbio_slot *s;

	if (t == 0)
		t = 1; /* 0 marks a free slot */
	if (b->used >= LATBIO_MAX) {
		b->dropped += b->used;
		memset(b->slots, 0, (b->mask + 1) * sizeof *b->slots);
		b->used = 0;
	}
	if ((b->used + 1) * 2 > b->mask + 1)
		latbio_grow(b);
	s = latbio_slot(b, dev, sector);
	if (s->at == 0)
		b->used++;
	*s = (struct latbio_slot){.dev = dev, .sector = sector, .at = t};
}

/* A request's first slot (lp_delete's view), SIZE_MAX for a free one. */
static size_t
latbio_slot_home(const void *slot, void *arg)
{
	const struct latbio_slot *s = slot;

	return s->at == 0 ? SIZE_MAX : latbio_home(arg, s->dev, s->sector);
}

/* Empty slot i. */
static void
latbio_delete(struct latbio *b, size_t i)
{
	lp_delete(b->slots, sizeof *b->slots, b->mask, i, latbio_slot_home, b);
	b->used--;
}

/* The request's time in flight. */
bool
latbio_complete(struct latbio *b, uint32_t dev, uint64_t sector, uint64_t t, uint64_t *ns)
{
	struct latbio_slot *s = latbio_slot(b, dev, sector);

	if (s->at == 0 || t < s->at) {
		b->unpaired++;
		if (s->at != 0)
			latbio_delete(b, (size_t)(s - b->slots));
		return false;
	}
	*ns = t - s->at;
	latbio_delete(b, (size_t)(s - b->slots));
	return true;
}

/* The device's name from sysfs. */
void
latbio_devname(const char *sys_root, uint32_t dev, char *buf, size_t len)
{
	unsigned major = dev >> 20, minor = dev & 0xfffff;
	char path[256], text[1024];
	const char *p;

	snprintf(buf, len, "%u:%u", major, minor);
	snprintf(path, sizeof path, "%s/dev/block/%u:%u/uevent", sys_root, major, minor);
	if (read_file(path, text, sizeof text) < 0)
		return;
	for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, "DEVNAME=", 8) == 0) {
			size_t n = strcspn(p + 8, "\n");

			if (n > 0)
				snprintf(buf, len, "%.*s", (int)n, p + 8);
			return;
		}
}
