/* picker: a fuzzy finder over a long list (events to count, tracepoints,
 * functions to probe): a box with a query line and the matching items,
 * best first, narrowed as the user types. */
#ifndef TRACETOP_UI_PICKER_H
#define TRACETOP_UI_PICKER_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "ui/curses.h"
#include "ui/prompt.h"
#include "ui/theme.h"

enum picker_result {
	PICKER_NONE,    /* key used (or ignored), nothing decided */
	PICKER_CHOSEN,  /* Enter on an item */
	PICKER_TOGGLED, /* Space on an item of a checklist (the picker stays open) */
	PICKER_CANCEL,  /* Esc */
	PICKER_REFUSED, /* Enter with nothing to choose: pk->why says why */
};

/* The index a choice of the text typed has (the query, still readable in
 * pk->query.text after the picker closed). */
#define PICKER_TYPED ((size_t)-1)

/* Whether text, typed as it is, can be chosen (e.g. an event spec with
 * modifiers that no item spells out): true, or false with why. */
typedef bool (*picker_typed_fn)(void *ctx, const char *text, char *why, size_t len);

struct picker {
	bool active;
	char title[64];
	const char *const *items; /* borrowed: the caller keeps them alive while open */
	size_t nitems;
	size_t *match; /* indexes of the matching items, best first */
	size_t nmatch, cap;
	size_t sel, top; /* in match */
	int rows;        /* list rows of the last draw */
	struct prompt query;
	const bool *marks;     /* a checklist: item i is on when marks[i] (the caller's) */
	picker_typed_fn typed; /* NULL: only items can be chosen */
	void *typed_ctx;
	bool typed_ok; /* the query can be chosen as typed: the first row offers it */
	size_t last;   /* items from this index on rank after every other match */
	char why[400]; /* why Enter chooses nothing (PICKER_REFUSED) */
};

/* Open over items (n of them), every one shown until something is typed. */
void picker_open(struct picker *pk, const char *title, const char *const *items, size_t n);
/* Open as a checklist: marks[i] (kept up to date by the caller) shows item
 * i as on; Space toggles the selected item (PICKER_TOGGLED), Enter too but
 * closes. Items cannot contain spaces. */
void picker_open_checklist(struct picker *pk, const char *title, const char *const *items, size_t n,
                           const bool *marks);
/* Also offer the query as typed, first, whenever fn accepts it and no
 * item is named exactly that (the text before an item's first blank). */
void picker_allow_typed(struct picker *pk, picker_typed_fn fn, void *ctx);
/* Rank the items from index from on (those this machine cannot use)
 * after every other match, whatever their score. */
void picker_rank_last(struct picker *pk, size_t from);
void picker_close(struct picker *pk);
void picker_free(struct picker *pk);

/* One key: Up/Down/PgUp/PgDn move, Enter chooses (*chosen is the item's
 * index, or PICKER_TYPED), Space in a checklist toggles, Esc cancels;
 * everything else edits the query. Enter with nothing to choose is
 * PICKER_REFUSED, the reason in pk->why. */
enum picker_result picker_key(struct picker *pk, wint_t ch, bool is_key, size_t *chosen);

/* How well item matches query: -1 when it does not (the query's characters
 * must appear in order, case-insensitively); lower is better — a prefix,
 * then a substring (earlier first), then a scattered match (tighter first). */
long picker_score(const char *item, const char *query);

/* Draw centred on a lines x cols screen. */
void picker_draw(struct picker *pk, WINDOW *win, int lines, int cols, const struct theme *th);

#endif
