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

#endif
