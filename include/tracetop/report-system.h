/* report-system: the system part of a frame as text (one line per
 * refresh in dstat-like columns under section titles), CSV (one title
 * row, then one row per refresh, for spreadsheets) or JSON (one object
 * per refresh, with every CPU, disk, interface, interrupt source and
 * process). What is absent is shown so with its reason: "-" in a text
 * column with the reason in a "# absent:" line, an empty CSV cell with
 * the reason on stderr, null in JSON with the reason beside it. Names
 * from the system (interfaces, commands) are escaped. */
#ifndef TRACETOP_REPORT_SYSTEM_H
#define TRACETOP_REPORT_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tracetop/system.h"

struct report_system_info {
	double time;       /* seconds since the run began */
	double wall;       /* wall-clock seconds at the frame's end */
	unsigned max_rows; /* JSON: processes and interrupt sources at most (0: all) */
	unsigned repeat;   /* text: titles again after this many lines (0: never) */
};

/* What a run of reports remembers between frames: lines since the titles,
 * the absent reasons last shown, and the CSV's columns (fixed by the
 * first frame: CPUs, disks and interfaces that come later have none). */
struct report_system_state {
	unsigned lines;
	char notes[1024];
	bool csv_titled;
	int *cpus;
	size_t ncpus;
	char (*disks)[SYS_NAME_MAX];
	size_t ndisks;
	char (*nets)[SYS_NAME_MAX];
	size_t nnets;
};

/* Print one refresh. */
void report_system_text(FILE *out, const struct report_system_info *ri,
                        const struct frame_system *fs, struct report_system_state *st);
void report_system_csv(FILE *out, FILE *err, const struct report_system_info *ri,
                       const struct frame_system *fs, struct report_system_state *st);
void report_system_json(FILE *out, const struct report_system_info *ri,
                        const struct frame_system *fs);

/* Free what the state holds. */
void report_system_state_free(struct report_system_state *st);

#endif
