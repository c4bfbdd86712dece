/* sym-kernel: /proc/kallsyms parsing (text symbols, module names kept). */
#ifndef TRACETOP_SYM_KERNEL_H
#define TRACETOP_SYM_KERNEL_H

#include "tracetop/symtab.h"
#include "tracetop/util.h"

/* Parse a kallsyms-format file into st (finished): only text symbols
 * (t/T/w/W), "[module]" kept in sym.module as "module". -1 with err when
 * unreadable or when every address is zero (kptr_restrict: say which
 * sysctl). */
int symkernel_load(const char *path, struct symtab *st, struct tt_err *err);

/* symkernel_load into a packed table (symtab-pack.h): a quarter of the
 * memory, its symbols made as lookups find them; for the long-lived
 * kernel table, not for walking every symbol. */
int symkernel_load_packed(const char *path, struct symtab *st, struct tt_err *err);

#endif
