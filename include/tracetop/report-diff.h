/* report-diff: changes against a baseline as text and JSON: the whole
 * comparison of two sets (--diff A B), and the cells and members a
 * report's row gets when a baseline is set (--baseline). Key fields are
 * escaped already (diff.h); JSON escapes them again as strings. */
#ifndef TRACETOP_REPORT_DIFF_H
#define TRACETOP_REPORT_DIFF_H

#include <stdio.h>

#include "tracetop/diff.h"

/* Every row of every kind both sets have, most changed first: text (a
 * table per kind) or one JSON object. a and b name the sets. */
void report_diff_text(FILE *out, const struct diff_set *base, const struct diff_set *cur,
                      const char *a, const char *b);
void report_diff_json(FILE *out, const struct diff_set *base, const struct diff_set *cur,
                      const char *a, const char *b);

/* A change as two short cells: delta ("+30.00"; points: Top's shares,
 * else the value's own unit, short: "+1.2K") and ratio ("x2.50", or
 * "new" or "gone": the visible marker of a row only one side has). */
void report_diff_cells(const struct diff_row *r, bool points, char *delta, size_t dlen, char *ratio,
                       size_t rlen);

/* Both cells as one text, "DELTA RATIO". */
void report_diff_text_cell(const struct diff_row *r, bool points, char *buf, size_t len);

/* The members of a row's change: ,"status":"...","delta_NAME":D,"ratio":R
 * (ratio null when new or gone), with ,"base_NAME":B. */
void report_diff_json_members(FILE *out, const struct diff_row *r, const char *name);

/* The grouping fields of a Top key (diff.h) by name into the given
 * buffers of len bytes each ("-" for one the grouping has not). */
void report_diff_top_fields(const char *key, unsigned group, char *comm, char *pid, char *dso,
                            char *sym, size_t len);

#endif
