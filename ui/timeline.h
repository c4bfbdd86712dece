/* timeline: the screen's way through the history (src/history.c): a strip
 * under the header with the samples per second of every interval kept,
 * keys that step back and forward, jump to the spike and select a range,
 * and every pane showing that interval or range while live sampling
 * goes on underneath; another key returns to now. */
#ifndef TRACETOP_UI_TIMELINE_H
#define TRACETOP_UI_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/action.h"

struct tui;
struct frame;

/* Set up (nothing without a history: --history 0). */
void timeline_init(struct tui *t);
void timeline_free(struct tui *t);

/* Whether the panes show the history, not now. */
bool timeline_active(const struct tui *t);

/* A history key (step, spike, range, live; and Z, which with a history
 * freezes on the newest interval): REACT_* flags, REACT_IGNORED for
 * others. */
int timeline_action(struct tui *t, enum action a);

/* A live frame came: the strip moves; the interval shown is kept while it
 * is still held (else the oldest one is shown). */
void timeline_frame(struct tui *t);

/* Show the interval or range again (after the filters or the event
 * shown changed). */
void timeline_refresh(struct tui *t);

/* The strip's cells for n intervals of rates, scaled to the largest:
 * levels 0..7 (pure, for tests). */
void timeline_levels(const double *rates, size_t n, int *levels);

#endif
