/* batch: the non-interactive front end (-b): one poll loop that drains the
 * rings and prints a report every refresh until -n, the command's exit, the
 * targets' exit or a signal. */
#ifndef TRACETOP_BATCH_H
#define TRACETOP_BATCH_H

#include <stdio.h>

#include "tracetop/engine.h"
#include "tracetop/options.h"

/* Run until done; returns the process exit status (0, or 1 on failure). */
int batch_run(struct engine *e, const struct options *o, FILE *out);

#endif
