/* table-impl: what the table widget's files (table.c, tablesearch.c)
 * share and nothing else uses. */
#ifndef TRACETOP_UI_TABLE_IMPL_H
#define TRACETOP_UI_TABLE_IMPL_H

#include <stddef.h>

#include "ui/table.h"

/* Select row i (the user chose it): the selection now follows its id. */
void table_select(struct table *t, size_t i);

/* Copy text into a TABLE_TEXT_MAX buffer, never cutting a UTF-8 sequence. */
void table_copy_text(char *dst, const char *src);

#endif
