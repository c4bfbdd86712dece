/* report: a top snapshot as text (the TUI's table, for scripts) or as one
 * JSON object per line. All text from the traced system is escaped. */
#ifndef TRACETOP_REPORT_H
#define TRACETOP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracetop/callgraph.h"
#include "tracetop/diff.h"
#include "tracetop/hist.h"
#include "tracetop/sym-name.h"
#include "tracetop/util.h"

struct report_info {
	const char *event;     /* event sampled */
	const char *requested; /* event asked for, when it differs */
	const char *notice;    /* fallback notice, or NULL */
	const char *target;
	const char *engine;     /* "bpf" or "perf", or NULL (not said) */
	const char *engine_why; /* why that engine */
	uint64_t samples, lost; /* this refresh */
	uint64_t total_samples, total_lost;
	double seconds;             /* length of this refresh */
	double wall;                /* Unix time of the report */
	unsigned max_rows;          /* 0 = all */
	const struct callgraph *cg; /* call stacks: Children/Self columns and chains */
	bool cgroup;                /* text: a Cgroup column (asked for by --sort cgroup) */
	unsigned group;             /* HIST_GROUP_* the rows are merged by (0: not said) */
	unsigned chain_depth;       /* text with -g: caller levels per row (0: the default) */
	/* --baseline: each row's change against it (Delta, Ratio; JSON
	 * status, delta_pct, ratio), and its rows gone since at the end */
	const struct diff_set *base;
	bool sort_delta; /* with base: rows by their change, most gained first (-s delta) */
};

/* The call graph roots a row of grouping group stands for: its command,
 * process or thread as the grouping names them (group 0: its command). */
void report_cg_scope(const struct hist_row *r, unsigned group, struct cg_scope *sc);

/* The call graph frame of a row's function. */
struct cg_frame report_cg_frame(const struct hist_entry *e);

/* Display strings of a row, escaped: the symbol ("name" in a form of
 * sym-name.h, " (inlined)" after an inlined one, or "[unknown] 0xOFF") and
 * the shared object ("[unknown]" without one). */
void report_symbol(const struct hist_entry *e, enum sym_form form, char *buf, size_t len);
void report_dso(const struct hist_entry *e, char *buf, size_t len);
/* The command, escaped. */
void report_comm(const struct hist_entry *e, char *buf, size_t len);
/* The cgroup's short name (cgroup.h), escaped; "[unknown]" without one. */
void report_cgroup(const struct hist_entry *e, char *buf, size_t len);

/* A merged row's cell for a field (HIST_GROUP_*) its entries differ on,
 * in buf: how many they are ("(3 objects)", "(12 functions)"), or "-"
 * for the pid or when they were not counted; NULL when they agree there. */
const char *report_mixed_cell(const struct hist_row *r, unsigned field, char *buf, size_t len);

/* A row's kind: "[k]" kernel, "[.]" user, "" a merged row of both. */
const char *report_mark(const struct hist_row *r);

void report_text(FILE *out, const struct report_info *ri, const struct hist_snapshot *snap);
void report_json(FILE *out, const struct report_info *ri, const struct hist_snapshot *snap);

/* One refresh of call stacks as folded lines (flamegraph.pl, speedscope). */
void report_folded(FILE *out, const struct report_info *ri);

/* Write s as a JSON string literal (quotes included), escaped. */
void report_json_string(FILE *out, const char *s);

/* Write the member ,"key":"s" of an object (s escaped); nothing when s is
 * NULL. */
void report_json_member(FILE *out, const char *key, const char *s);

#endif
