/* symtab-pack: a packed table of unsized symbols (the kernel's 60,000+
 * from kallsyms) behind a struct symtab: 4 bytes of start per symbol, its
 * size the gap to the next, its name in a deflated block of 64, and a
 * struct sym made only for a symbol a lookup finds (then kept for the
 * table's life, so its pointer stays the symbol's identity). About a
 * quarter of the memory of the plain table. Like the DSO cache it is
 * used from the loop's thread only (it is built on the worker's, then
 * handed over). */
#ifndef TRACETOP_SYMTAB_PACK_H
#define TRACETOP_SYMTAB_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "tracetop/symtab.h"

struct sympack;

/* An empty table being built. */
struct sympack *sympack_new(void);

/* Add a symbol at start (its name of namelen bytes, module NULL for the
 * core kernel); copied. */
void sympack_add(struct sympack *p, uint64_t start, const char *name, size_t namelen,
                 const char *module);

/* Symbols added so far (before finishing), or kept (after). */
size_t sympack_count(const struct sympack *p);

/* Sort, keep one symbol per start (as symtab_finish chooses among
 * aliases), size each up to the next start but at most max_gap bytes (0
 * counts as 1), pack the names, and hand the table to st (emptied first),
 * whose lookups and free then go to it. */
void sympack_finish(struct sympack *p, uint64_t max_gap, struct symtab *st);

/* Free a table that was not handed to a symtab. */
void sympack_free(struct sympack *p);

#endif
