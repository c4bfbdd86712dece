/* setup: the screen's side of the setup file (src/rcfile): what the file
 * says applied to the panes at start, the screen's state written back on
 * F2 and at exit. */
#ifndef TRACETOP_UI_SETUP_H
#define TRACETOP_UI_SETUP_H

#include <stdbool.h>

#include "tracetop/rcfile.h"

struct tui;

/* Apply the file's settings to the panes (those the command line did not
 * set), then remember the state as it starts. Bad settings are put on the
 * status line (and kept in opts->rc_notes for stderr at exit). */
void setup_apply(struct tui *t);

/* The screen's state now, as settings (rc is filled, not emptied). */
void setup_take(struct tui *t, struct rcfile *rc);

/* Write the setup file: everything as it is now (at_exit false: F2), or
 * only what changed since the start (at exit, and only when something
 * did). Says what happened on the status line; 0, or -1 with the reason
 * in err. */
int setup_save(struct tui *t, bool at_exit, struct tt_err *err);

#endif
