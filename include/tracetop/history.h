/* history: the last minutes of every pane (--history), a ring of
 * refresh intervals in bounded memory. Each interval keeps, per sampled
 * event, the exact samples of every Top row as (row key id, self,
 * children) and, with call stacks, of every stack as (stack id, count);
 * and the other panes' numbers: counters, latency histograms, probe hits,
 * trace counts (src/history-parts.c) and the system's (see history_view).
 * The keys and the stacks (a prefix tree of interned frames) are shared
 * by all intervals and compacted when the intervals that used them are
 * gone. Any range of intervals adds back up into a hist and a call graph,
 * which the screen and the reports read like a live one. */
#ifndef TRACETOP_HISTORY_H
#define TRACETOP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/callgraph.h"
#include "tracetop/hist.h"

struct frame;
struct history;

/* Default --history, and the memory the whole history may hold. */
#define HISTORY_DEFAULT_SECS 600.0
#define HISTORY_MAX_BYTES (64u << 20)

/* One interval as the ring holds it. */
struct history_info {
	uint64_t seq;     /* the frame's seq */
	double wall;      /* Unix time at its end */
	double secs;      /* its length */
	uint64_t samples; /* of the first event */
	uint64_t lost;
	bool rows;          /* its rows were taken (false: a frozen screen's, counts only) */
	size_t bytes;       /* what it holds (its arrays) */
	size_t parts_bytes; /* of them, the other panes' parts */
};

/* Keep the intervals of the last keep_secs seconds, in at most max_bytes
 * (the oldest go first). */
struct history *history_new(double keep_secs, size_t max_bytes);
void history_free(struct history *h);

/* Add frame f's interval (rows: f's rows, call graphs and the other
 * panes' parts are this interval's; false keeps only its counts and the
 * system's numbers). */
void history_add(struct history *h, const struct frame *f, bool rows);

/* Intervals held; interval i (0 the oldest); the index of seq, or -1. */
size_t history_len(const struct history *h);
const struct history_info *history_info(const struct history *h, size_t i);
long history_find(const struct history *h, uint64_t seq);

/* Intervals dropped to stay under the memory bound (not those past the
 * window's seconds). */
size_t history_dropped(const struct history *h);

/* The interval with the most samples per second (0 when empty). */
size_t history_spike(const struct history *h);

/* Memory held: everything, the shared keys and stacks part of it. */
size_t history_bytes(const struct history *h);
size_t history_shared_bytes(const struct history *h);

/* Samples of intervals from..to (inclusive) for event ev, added up into
 * a new hist (ticked with zeroing: score = samples) and, when stacks were
 * kept, a new call graph (NULL otherwise); the caller frees both. */
struct history_sum {
	struct hist *hist;
	struct callgraph *cg;
	uint64_t samples;
	double secs;
};
void history_sum(const struct history *h, size_t from, size_t to, size_t ev,
                 struct history_sum *out);
void history_sum_free(struct history_sum *s);

/* One interval's samples of a row (the timeline's strip of a row's
 * share): the event's samples, those of the rows that fall in the row,
 * and whether its rows were kept (false: counts only, row is 0). */
struct history_row_count {
	uint64_t seq;
	uint64_t samples, row;
	bool rows;
};

/* For intervals from..to (inclusive; n = to - from + 1 entries of out),
 * event ev's self samples of the rows whose key falls in key's row under
 * grouping group (HIST_GROUP_*, as hist_group merges rows). */
void history_row_counts(const struct history *h, size_t ev, const struct hist_key *key,
                        unsigned group, size_t from, size_t to, struct history_row_count *out);

/* The other panes' parts of intervals from..to (inclusive) added up into
 * out, a frame zeroed or freed with history_view_free: the counters of
 * every scope taken (counts summed, rates over the range's seconds,
 * metrics and shares averaged by seconds, totals as at its end), the
 * latency rows (histograms merged), the probes (hits of the range), the
 * trace's per-event counts and its log's entries of the range (those
 * still logged: first_seq > start_seq says some are gone), the system's
 * numbers (rates averaged, counts summed, states as at the end; its
 * processes and interrupts are not kept). live gives the names, notices
 * and the trace log; out's has_* are live's. */
void history_view(const struct history *h, size_t from, size_t to, const struct frame *live,
                  struct frame *out);
void history_view_free(struct frame *f);

/* The number of distinct row keys, stack nodes and the other parts' row
 * identities held (for tests). */
size_t history_nkeys(const struct history *h);
size_t history_nparts(const struct history *h);
size_t history_nstacks(const struct history *h);

#endif
