/* diff: a baseline, and the change of every row against it. A baseline
 * (a diff_set) is a small table per kind of row, Top, Counters and
 * Latency, from each row's key as text (the fields that name it: comm,
 * dso basename and symbol for Top's default grouping; event and scope for
 * a counter; kind, name and command for a latency row) to its values.
 * It comes from a frame (the screen's B, a window or a history range),
 * from tracetop's own JSON reports (--baseline FILE, --diff A B) and, in
 * time, from a recording: all go through diff_set_add. Comparing two sets
 * gives each row's change (points, ratio) and marks the rows only one of
 * them has as new or gone. */
#ifndef TRACETOP_DIFF_H
#define TRACETOP_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "tracetop/counters.h"
#include "tracetop/hist.h"
#include "tracetop/latency.h"

struct frame;
struct tt_err;

enum diff_kind { DIFF_TOP, DIFF_COUNTERS, DIFF_LATENCY, DIFF_NKINDS };

enum diff_status {
	DIFF_SAME, /* in both */
	DIFF_NEW,  /* only now (not in the baseline) */
	DIFF_GONE, /* only in the baseline */
};

/* One row of a set. */
struct diff_item {
	char *key;     /* the fields, '\t' between them, escaped as reports print them */
	double value;  /* Top: share in %; Counters: per second (a metric: its value);
	                  Latency: p50 in ns */
	double value2; /* Latency: p99 in ns; else 0 */
	double weight; /* Latency: calls (of rows keyed alike, the busiest is kept) */
};

/* Rows per kind, sorted by key once sealed. */
struct diff_set {
	struct diff_item *items[DIFF_NKINDS];
	size_t n[DIFF_NKINDS], cap[DIFF_NKINDS];
	bool has[DIFF_NKINDS]; /* rows of that kind were given (maybe none) */
	unsigned group;        /* HIST_GROUP_*: the fields of the Top keys */
	bool sealed;
};

/* Free a set's rows and reset it. */
void diff_set_free(struct diff_set *s);

/* Add a row (key copied). Rows keyed alike merge when sealed: Top shares
 * add up, the other kinds keep the heaviest. */
void diff_set_add(struct diff_set *s, enum diff_kind k, const char *key, double value,
                  double value2, double weight);

/* Sort the rows by key and merge those keyed alike (after the last add). */
void diff_set_seal(struct diff_set *s);

/* The row of kind k keyed key in a sealed set, or NULL. */
const struct diff_item *diff_set_find(const struct diff_set *s, enum diff_kind k, const char *key);

/* A row's key: a Top entry's fields of group (HIST_GROUP_*, in the order
 * comm, pid, tid, cgroup, dso basename, symbol), a counter's event and
 * scope ("comm NAME" for a process: pids differ between runs), a latency
 * row's kind, name and command. */
void diff_top_key(const struct hist_entry *e, unsigned group, char *buf, size_t len);
void diff_counter_key(const struct counters_row *r, char *buf, size_t len);
void diff_latency_key(const struct lat_row *r, char *buf, size_t len);

/* A counter row's value as a set holds it (its rate, or a metric's value);
 * false for one that is not supported. */
bool diff_counter_value(const struct counters_row *r, double *v);

/* Add the rows of a Top snapshot (grouped by group), of counters
 * snapshots and of a latency part. */
void diff_set_add_top(struct diff_set *s, const struct hist_snapshot *snap, unsigned group);
void diff_set_add_counters(struct diff_set *s, const struct counters_snapshot *snaps, size_t n);
void diff_set_add_latency(struct diff_set *s, const struct frame_latency *fl);

/* A screen's rows: Top from event's rows of top (grouped by group), the
 * counters scopes taken and the latency rows of f (they may be one
 * frame); sealed. */
void diff_set_from_frame(struct diff_set *s, const struct frame *top, const struct frame *f,
                         size_t event, unsigned group);

/* The Top rows of src keyed by the fields of group only (a subset of
 * src->group), rows then keyed alike added up: a baseline of every field
 * seen by a coarser grouping. dst is sealed. */
void diff_set_project(struct diff_set *dst, const struct diff_set *src, unsigned group);

/* The grouping a baseline taken from a frame keys Top rows by: every field
 * but the thread (a row's thread is only its latest sample's). */
#define DIFF_GROUP_ALL                                                                             \
	(HIST_GROUP_COMM | HIST_GROUP_PID | HIST_GROUP_CGROUP | HIST_GROUP_DSO | HIST_GROUP_SYM)

/* A set from tracetop's batch JSON reports (-b --format json of the top,
 * counters and latency views; one object per line): the last report of
 * each view. Sealed. 0, or -1 with err saying what is wrong (s then
 * empty). name is for messages. */
int diff_set_load(struct diff_set *s, const char *text, size_t len, const char *name,
                  struct tt_err *err);

/* The same from a file. */
int diff_set_load_file(struct diff_set *s, const char *path, struct tt_err *err);

/* One row's change. */
struct diff_row {
	const char *key; /* the set's: valid while it is */
	enum diff_status status;
	double base, cur;   /* value (0 for the side that lacks it) */
	double base2, cur2; /* value2 */
	double delta;       /* cur - base */
	double ratio;       /* cur / base; 0 when new or gone */
};

/* The change of a row of kind k keyed key with value cur (and cur2)
 * against base (sealed): DIFF_NEW when base lacks it. */
struct diff_row diff_change(const struct diff_set *base, enum diff_kind k, const char *key,
                            double cur, double cur2);

/* The change of a counter row (its rate; a metric: its value) and of a
 * latency row (p50; p99 in cur2 and base2) against base; false without a
 * base or a value to compare (d->key is NULL). */
bool diff_counter_change(const struct diff_set *base, const struct counters_row *r,
                         struct diff_row *d);
bool diff_latency_change(const struct diff_set *base, const struct lat_row *r, struct diff_row *d);

/* Every row of kind k in cur or base, most changed first: Top by
 * |delta|, the others by how far the ratio is from 1 (x2 as
 * far as x0.5), with new and gone rows first. A
 * malloc'd array (free it) of how many the return says. */
size_t diff_compare(const struct diff_set *base, const struct diff_set *cur, enum diff_kind k,
                    struct diff_row **out);

/* How much a row changed, the order of diff_compare: |delta| with
 * points, else the ratio's distance from 1 (new and gone: infinite). */
double diff_row_score(const struct diff_row *r, bool points);

/* "same", "new" or "gone". */
const char *diff_status_name(enum diff_status st);

/* Field i (0 first) of a key into buf ("" past the last). */
void diff_key_field(const char *key, size_t i, char *buf, size_t len);

#endif
