/* tabledetail: the table widget's detail popup (i): the selected row's
 * whole text, uncut and wrapped, in a box over the rows, following the
 * selection until i or Esc closes it. */
#ifndef TRACETOP_UI_TABLEDETAIL_H
#define TRACETOP_UI_TABLEDETAIL_H

#include <stddef.h>

#include "ui/table.h"
#include "ui/wtext.h"

/* The detail text of row: the pane's (ops->detail), else "Title: cell"
 * for each column that is not hidden, one a line. */
void tabledetail_text(const struct table *t, const void *row, char *buf, size_t len);

/* Draw the popup of the selected row over the area of the last draw (the
 * half of it away from the selected row when the text is short). */
void tabledetail_draw(struct table *t, struct pen *p);

#endif
