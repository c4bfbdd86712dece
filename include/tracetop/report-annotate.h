/* report-annotate: an annotation as text (perf annotate-like: percent,
 * address, instruction, source lines between) or as one JSON object. Text
 * from files (names, source lines) is escaped. */
#ifndef TRACETOP_REPORT_ANNOTATE_H
#define TRACETOP_REPORT_ANNOTATE_H

#include <stdio.h>

#include "tracetop/annotate.h"

/* A header (function, object, samples, notice), then one line per
 * annotation line: "  12.34 │     1130:  addl $1, %eax" for an
 * instruction (the percent blank without samples; a direct jump or call
 * followed by " <target>") and "        │ file.c:12 text" for a source
 * line. */
void report_annotate_text(FILE *out, const struct annotation *a);

/* {"view":"annotate","symbol":S,"dso":S,"kernel":B,"debug":B,"notice":S?,
 * "from":S,"samples":N,"total":N,"lines":[...]}: instruction lines as
 * {"addr":"0x..","insn":S,"percent":F,"samples":N,"total":N,
 * "target":S?,"target_addr":"0x.."?}, source lines as {"source":S}. */
void report_annotate_json(FILE *out, const struct annotation *a);

#endif
