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

#endif
