/* symtab: a sorted, immutable-after-finish table of function symbols with
 * one string block, shared by the ELF, kallsyms and perf-map loaders. */
#ifndef TRACETOP_SYMTAB_H
#define TRACETOP_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct sym {
	uint64_t start;		/* address in the table's space (ELF vaddr, kernel va, ...) */
	uint64_t size;		/* bytes; 0 only before symtab_finish */
	const char *name;	/* owned by the table */
	const char *module;	/* kernel module name, NULL for the core kernel / user code */
};

struct symtab {
	struct sym *syms;
	size_t n, cap;
	char **blocks;		/* string storage */
	size_t nblocks;
	size_t block_used, block_cap;
};

void symtab_init(struct symtab *st);
void symtab_free(struct symtab *st);

/* Add a symbol; name (and module, if any) are copied. */
void symtab_add(struct symtab *st, uint64_t start, uint64_t size, const char *name,
		const char *module);

/* Sort, drop exact duplicates (keeping the sized / first-added one) and give
 * zero-sized symbols the gap to the next symbol, capped at max_gap bytes
 * (so an address far past the last symbol stays unresolved). */
void symtab_finish(struct symtab *st, uint64_t max_gap);

/* The symbol whose [start, start + size) holds addr, or NULL. */
const struct sym *symtab_lookup(const struct symtab *st, uint64_t addr);

#endif
