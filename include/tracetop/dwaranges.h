/* dwaranges: a reader of DWARF's .debug_aranges section (address ranges
 * to compilation units), into a compact sorted table. libdw's own
 * (dwarf_getaranges) takes about 2 MiB for libc6-dbg's; this one 24
 * bytes a range, and reads nothing of .debug_info. */
#ifndef TRACETOP_DWARANGES_H
#define TRACETOP_DWARANGES_H

#include <stddef.h>
#include <stdint.h>

/* Addresses [start, end) are code of the unit at offset unit of
 * .debug_info (its header, not its DIE). */
struct dwarange {
	uint64_t start, end, unit;
};

/* The ranges of a .debug_aranges section's bytes (untrusted: a set that
 * does not parse ends the reading), sorted by start, into a new *out
 * (free it); how many (0: none, and *out NULL). */
size_t dwaranges_parse(const void *data, size_t size, struct dwarange **out);

/* The range holding addr among n sorted ones, or NULL. */
const struct dwarange *dwaranges_find(const struct dwarange *r, size_t n, uint64_t addr);

#endif
