/* pane-counters-impl: the Counters pane's state, shared by its files
 * (pane-counters.c: the pane and its actions; pane-counters-table.c: the
 * table's columns, cells and order) and nothing else. */
#ifndef TRACETOP_UI_PANE_COUNTERS_IMPL_H
#define TRACETOP_UI_PANE_COUNTERS_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "tracetop/counters.h"
#include "ui/cntgrid.h"
#include "ui/listpane.h"
#include "ui/tui.h"

enum cnt_col {
	COL_SCOPE,
	COL_EVENT,
	COL_VALUE,
	COL_RATE,
	COL_TOTAL,
	COL_SHARE,
	COL_HIST,
	COL_CHANGE, /* with a baseline (B, --baseline): the rate's change */
	COL_NOTE,
	COL_COUNT
};

/* Menu ids: MENU_REMOVE + an event's index stops counting it. */
enum cnt_menu_id {
	MENU_ADD,
	MENU_ZOOM_TOP,
	MENU_ZOOM,
	MENU_REMOVE,
};

struct cnt {
	struct listpane list; /* the total and CPU scopes */
	struct cntgrid grid;  /* the process scope */
	const struct counters_row **ptrs;
	size_t cap;
	char **catalog; /* event names for the picker, loaded on first use */
	size_t ncatalog;
	int menu_pid;                     /* the process the Enter menu is about */
	bool utf8;                        /* block glyphs for the sparklines */
	const struct tui *tui;            /* its baseline */
	struct table_col cols[COL_COUNT]; /* Change shown only with a baseline */
};

/* The table's columns and what draws, sorts and matches its rows
 * (pane-counters-table.c). */
extern const struct table_col cnt_cols[COL_COUNT];
extern const struct table_ops cnt_table_ops;

#endif
