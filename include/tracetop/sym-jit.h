/* sym-jit: /tmp/perf-PID.map files written by JITs ("START SIZE name",
 * hex). Trusted only when owned by the process's user or by root. */
#ifndef TRACETOP_SYM_JIT_H
#define TRACETOP_SYM_JIT_H

#include <sys/types.h>

#include "tracetop/symtab.h"
#include "tracetop/util.h"

/* Load path into st (finished) if it is a regular file (not followed through
 * a symlink) owned by owner or root. Malformed lines are skipped.
 * 0, or -1 with err (missing, wrong owner, not regular). */
int symjit_load(const char *path, uid_t owner, struct symtab *st, struct tt_err *err);

/* Parse map text (used by symjit_load and the fuzz target). */
void symjit_parse(const char *text, size_t len, struct symtab *st);

/* A process's perf map, read as it grows: symbols are added, never moved
 * or freed before symjit_pool_free, so a pointer to one stays valid. */
struct symjit;

struct symjit *symjit_new(void);
/* Free the index; its symbols stay in the pool. */
void symjit_free(struct symjit *j);

/* Read what path gained since the last call: all of it the first time or
 * when the file was replaced or truncated (its entries then win over the
 * old ones at the same start), else the complete lines appended. Trusted
 * as symjit_load. 1 when lines were added, 0 when nothing changed, -1
 * with err. */
int symjit_update(struct symjit *j, const char *path, uid_t owner, struct tt_err *err);

/* Add map text to the index (symjit_update's parser, for tests). */
void symjit_add_text(struct symjit *j, const char *text, size_t len);

/* The symbol holding addr (of overlapping ones, the covering one with the
 * greatest start), or NULL. */
const struct sym *symjit_lookup(const struct symjit *j, uint64_t addr);

/* Symbols in the index. */
size_t symjit_count(const struct symjit *j);

/* Free every JIT symbol of the run (at exit). */
void symjit_pool_free(void);

#endif
