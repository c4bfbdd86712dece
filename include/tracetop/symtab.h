/* symtab: a sorted, immutable-after-finish table of function symbols with
 * one string block, shared by the ELF, kallsyms and perf-map loaders. */
#ifndef TRACETOP_SYMTAB_H
#define TRACETOP_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct sym {
	uint64_t start;     /* address in the table's space (ELF vaddr, kernel va, ...) */
	uint64_t size;      /* bytes; 0 only before symtab_finish */
	const char *name;   /* raw, as the table has it (mangled, versioned); owned by the table */
	const char *module; /* kernel module name without brackets ("ext4"), NULL for the core
	                       kernel / user code */
	const char *dname;  /* the full name, made on first use (sym_name in sym-name.h): NULL
	                       until then, may be name itself */
};

/* What stands in for syms in a packed table (symtab-pack.h). */
struct symtab_pack_ops {
	const struct sym *(*lookup)(void *pack, uint64_t addr);
	void (*free)(void *pack);
};

struct symtab {
	struct sym *syms;
	size_t n, cap;
	char **blocks; /* string storage */
	size_t nblocks;
	size_t block_used, block_cap;
	/* made by symtab_finish for a big table: the first symbol of each
	 * stretch of 2^index_shift bytes from index_base (nindex stretches,
	 * index[nindex] = n), so that a lookup searches a few symbols of
	 * nearby memory, not the whole table */
	uint32_t *index;
	uint64_t index_base;
	unsigned index_shift;
	size_t nindex;
	/* a packed table of n symbols instead of syms (lookups and free go
	 * to it), or NULL */
	void *pack;
	const struct symtab_pack_ops *pack_ops;
};

void symtab_init(struct symtab *st);
/* Free the symbols, their names and the full names made for them. */
void symtab_free(struct symtab *st);

/* Free the full name sym_name made for s, if any (symbols kept outside a
 * table are freed by their owner with this). */
void sym_free_dname(struct sym *s);

/* Add a symbol; name (and module, if any) are copied into the table's
 * string blocks (a module equal to the previous symbol's is shared). */
void symtab_add(struct symtab *st, uint64_t start, uint64_t size, const char *name,
                const char *module);

/* symtab_add with a name of namelen bytes that need not be NUL-terminated. */
void symtab_add_n(struct symtab *st, uint64_t start, uint64_t size, const char *name,
                  size_t namelen, const char *module);

/* Sort, keep one symbol per start address (a sized one first, then the name
 * with the fewest leading underscores, then, as perf, the longest name, so "malloc"
 * wins over "__libc_malloc") and give zero-sized symbols the gap to the
 * next symbol, capped at max_gap bytes (so an address far past the last
 * symbol stays unresolved); max_gap 0 counts as 1. */
void symtab_finish(struct symtab *st, uint64_t max_gap);

/* The symbol whose [start, start + size) holds addr, or NULL. O(log n), no
 * allocation; of overlapping (nested) symbols, the covering one with the
 * greatest start wins (searched among a few predecessors only). */
const struct sym *symtab_lookup(const struct symtab *st, uint64_t addr);

/* Read an open file to its end (procfs files have no size) into a malloc'd,
 * NUL-terminated buffer, for the text loaders. 0, or -1 with errno set
 * (EFBIG past limit bytes). */
int symtab_read_fd(int fd, size_t limit, char **buf, size_t *len);

#endif
