/* pane-probes-impl: the Probes pane's state, shared by its files
 * (pane-probes.c: the table and the rows' actions; pane-probes-insert.c:
 * the insert dialogue) and nothing else. */
#ifndef TRACETOP_UI_PANE_PROBES_IMPL_H
#define TRACETOP_UI_PANE_PROBES_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "tracetop/probe.h"
#include "ui/listpane.h"

/* Where the insert dialogue is. */
enum probes_step {
	STEP_NONE,
	STEP_WHERE,      /* menu: kernel, binary, a target's objects */
	STEP_KFUNC,      /* picker: kernel functions */
	STEP_BINARY,     /* prompt: a binary's path */
	STEP_PID,        /* prompt: a process whose objects to offer */
	STEP_OBJECT,     /* picker: a target's objects */
	STEP_UFUNC,      /* picker: the binary's functions */
	STEP_TRACEPOINT, /* picker: the tracepoints, one to count */
	STEP_WHEN,       /* menu: entry or return */
	STEP_ARGS,       /* prompt: arguments */
	STEP_ROW,        /* the Enter menu of a row */
};

enum probes_menu_id {
	MENU_KERNEL,
	MENU_BINARY,
	MENU_OBJECTS, /* + index of the target pid */
	MENU_PID = 50,
	MENU_TRACEPOINT,
	MENU_ENTRY = 100,
	MENU_RETURN,
	MENU_TIME,
	MENU_TOGGLE = 200,
	MENU_REMOVE,
	MENU_STREAM,
};

struct probes_pane {
	struct listpane list;               /* first: the listpane_pane_* ops take the pane as it */
	const struct probes_snapshot *snap; /* the frame's rows shown, or NULL */
	const struct probes_row **ptrs;
	size_t cap;
	enum probes_step step;
	char **names; /* the picker's items */
	size_t nnames;
	char binary[4096]; /* the binary being probed, "" for the kernel */
	int object_pid;    /* whose objects the object picker lists */
	char func[512];    /* the function chosen: its raw name */
	bool ret;          /* %return */
	char label[192];   /* the open prompt's label (the prompt keeps a pointer) */
	struct tui *tui;
	/* the probes streamed because the Trace pane is seen (interned
	 * names), stopped when it is not */
	const char **streamed;
	size_t nstreamed;
	bool trace_seen; /* the Trace pane is seen: new rows stream too */
};

struct tui;

/* a: the first step of the dialogue, where to probe (pane-probes-insert.c). */
int probes_where_menu(struct probes_pane *p, struct tui *t);

/* A menu choice of the dialogue; REACT_IGNORED for any other
 * (pane-probes-insert.c). */
int probes_insert_menu(struct probes_pane *p, struct tui *t, int id);

/* A prompt of the dialogue ended or changed; REACT_IGNORED when no
 * dialogue prompt is open (pane-probes-insert.c). */
int probes_insert_prompt(struct probes_pane *p, struct tui *t, int result);

/* A picker choice of the dialogue: the pane's pick op (pane-probes-insert.c). */
int probes_pick(void *pp, struct tui *t, size_t idx, bool toggled);

/* Drop the picker's items (pane-probes-insert.c). */
void probes_names_drop(struct probes_pane *p);

#endif
