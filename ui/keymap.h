/* keymap: the one table of key bindings. It drives key dispatch, the key
 * bar, the help pane and (through `tracetop --help-keys`, checked by a
 * test) the man page's KEYS section. */
#ifndef TRACETOP_UI_KEYMAP_H
#define TRACETOP_UI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <wchar.h>

#include "ui/action.h"

enum key_scope {
	SCOPE_GLOBAL,   /* everywhere */
	SCOPE_TABLE,    /* list panes */
	SCOPE_TOP,      /* the Top pane */
	SCOPE_COUNTERS, /* the Counters pane */
	SCOPE_TRACE,    /* the Trace pane */
	SCOPE_PROBES,   /* the Probes pane */
	SCOPE_ANNOTATE, /* the Annotate pane */
	SCOPE_PROCS,    /* the Processes pane */
	SCOPE_LATENCY,  /* the Latency pane */
	SCOPE_FLAME,    /* the Flame pane (not a list: the table keys do not apply) */
};

/* Every scope, in the order of the help pane and the man page. */
extern const enum key_scope keymap_scopes[];
extern const size_t keymap_nscopes;

struct keybind {
	wint_t key; /* a character, or a KEY_* code when is_key */
	bool is_key;
	const char *name; /* as shown: "F1", "?", "Tab", "Ctrl-L" */
	enum action action;
	enum key_scope scope;
	const char *bar;  /* key bar label, or NULL when not on the bar */
	const char *help; /* one line for the help pane and man page */
};

/* The action bound to a key in scope (or globally), ACT_NONE otherwise. */
enum action keymap_lookup(wint_t key, bool is_key, enum key_scope scope);

/* Does binding b apply in scope (its own, global, or a list's in a list
 * pane)? */
bool keymap_applies(const struct keybind *b, enum key_scope scope);

/* The whole table, in display order. */
const struct keybind *keymap_table(size_t *n);

#define KEYMAP_LINE_MAX 96 /* bytes of a help line */
/* Columns of --help-keys (and so the man page's KEYS block, which man
 * indents by 7 more: within 80). */
#define KEYMAP_TEXT_WIDTH 72

/* Lines of one scope's help, one action a line: "F1 ? h   show this
 * help" (grouping the keys of the same action), its text wrapped at
 * width columns (continuations under the text, never a word cut unless
 * longer than the line), for --help-keys and the help pane. */
size_t keymap_help_lines(enum key_scope scope, int width, char lines[][KEYMAP_LINE_MAX],
                         size_t max);

/* Print the KEYS section text (used by --help-keys). */
void keymap_print(FILE *out);

/* Scope names for headings. */
const char *keymap_scope_name(enum key_scope scope);

#endif
