/* report-probes: probes snapshots (--view probes) as text, a line per
 * probe, or as one JSON object per refresh. Text from the system (paths,
 * other tools' event names and arguments) is escaped. */
#ifndef TRACETOP_REPORT_PROBES_H
#define TRACETOP_REPORT_PROBES_H

#include <stdbool.h>
#include <stdio.h>

#include "tracetop/probe.h"

struct report_probes_info {
	const char *group;  /* our tracefs group */
	const char *target; /* what hits are counted on */
	bool header;        /* text: print the column titles */
};

void report_probes_text(FILE *out, const struct report_probes_info *ri,
                        const struct probes_snapshot *snap);
void report_probes_json(FILE *out, const struct report_probes_info *ri,
                        const struct probes_snapshot *snap);

#endif
