/* hist-impl: what hist.c (the table, snapshots) and hist-rows.c (merging
 * and ordering a snapshot's rows) share, and nothing else. */
#ifndef TRACETOP_HIST_IMPL_H
#define TRACETOP_HIST_IMPL_H

/* qsort_r's comparator of two struct hist_row by the HIST_SORT_END
 * terminated keys in arg, then the tie-breakers: an order that never
 * depends on the table's. */
int hist_cmp_rows(const void *pa, const void *pb, void *arg);

#endif
