/* report-flame: a flame graph in batch: text (--view flame), a line per
 * depth with frames as labelled segments of proportional width, or a
 * self-contained SVG (--format svg). Names are escaped (and XML-escaped in
 * the SVG). */
#ifndef TRACETOP_REPORT_FLAME_H
#define TRACETOP_REPORT_FLAME_H

#include <stdio.h>

#include "tracetop/flame.h"

/* Text: a line per row, root first, "DEPTH " then each box "[label   ]"
 * of its width (a one-column box "|"), gaps as spaces. */
void report_flame_text(FILE *out, const struct flame *fl, uint32_t zoom, int width);

/* A self-contained SVG flame graph (root at the bottom), a frame's name,
 * samples and share in its <title>, text XML-escaped. */
void report_flame_svg(FILE *out, const struct flame *fl, const char *title);

/* Write s with XML's special characters as entities. */
void report_xml_text(FILE *out, const char *s);

#endif
