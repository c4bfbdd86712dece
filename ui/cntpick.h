/* cntpick: what the Counters pane's picker offers: the event catalog of
 * this machine, what it counts first, and the events typed as specs
 * (modifiers, raw events) the parser takes. */
#ifndef TRACETOP_UI_CNTPICK_H
#define TRACETOP_UI_CNTPICK_H

#include <stdbool.h>
#include <stddef.h>

/* The catalog's events (software, hardware, cache, tracepoints): those
 * this machine counts, then (from *supported on) the others, each with
 * why after two blanks ("cycles  [not supported: ...]"); *n in all.
 * names_free them. */
char **cntpick_catalog(size_t *n, size_t *supported);

/* picker_typed_fn: whether text can be counted as it is (the event
 * parser's word), or why not. */
bool cntpick_typed(void *ctx, const char *text, char *why, size_t len);

#endif
