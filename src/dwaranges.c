/* dwaranges: .debug_aranges (DWARF 2-5: sets of a unit length, version,
 * .debug_info offset, address and segment sizes, then (address, length)
 * pairs aligned to twice the address size, ended by (0, 0)) read with
 * every length checked against the section. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/dwaranges.h"
#include "tracetop/util.h"

/* A little-endian number of n bytes (1, 2, 4 or 8) at p. */
static uint64_t
get_le(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* Order ranges by start. */
static int
range_order(const void *a, const void *b)
{
	const struct dwarange *x = a, *y = b;

	return CMP3(x->start, y->start);
}

/* Parse the section's sets. */
size_t
dwaranges_parse(const void *data, size_t size, struct dwarange **out)
{
	const unsigned char *p = data, *end = p + size;
	size_t n = 0, cap = 0;

	*out = NULL;
	while (p != NULL && end - p >= 4) {
		const unsigned char *set = p, *set_end, *t;
		uint64_t len = get_le(p, 4), unit;
		size_t off = 4, hdr, asize, tuple;

		if (len == 0xffffffffULL) {
			if (end - p < 12)
				break;
			len = get_le(p + 4, 8);
			off = 8;
			p += 12;
		} else if (len >= 0xfffffff0ULL) {
			break; /* reserved */
		} else {
			p += 4;
		}
		if (len > (uint64_t)(end - p) || len < 2 + off + 2)
			break;
		set_end = p + len;
		unit = get_le(p + 2, off);
		asize = p[2 + off];
		if ((asize != 4 && asize != 8) || p[3 + off] != 0)
			break; /* other address sizes, segments: not ours */
		hdr = (size_t)(p + 4 + off - set);
		tuple = 2 * asize;
		t = set + (hdr + tuple - 1) / tuple * tuple;
		for (; t + tuple <= set_end; t += tuple) {
			uint64_t a = get_le(t, asize), l = get_le(t + asize, asize);

			if (a == 0 && l == 0)
				break;
			if (l == 0 || a + l < a)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				*out = xrealloc(*out, cap * sizeof **out);
			}
			(*out)[n++] = (struct dwarange){.start = a, .end = a + l, .unit = unit};
		}
		p = set_end;
	}
	if (n == 0) {
		free(*out);
		*out = NULL;
		return 0;
	}
	*out = xrealloc(*out, n * sizeof **out);
	qsort(*out, n, sizeof **out, range_order);
	return n;
}

/* The last range starting at or before addr, if it holds addr. */
const struct dwarange *
dwaranges_find(const struct dwarange *r, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* the first range starting past addr */
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && addr < r[lo - 1].end ? &r[lo - 1] : NULL;
}
