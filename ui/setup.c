/* setup: the setup file's settings in and out of the screen's state. The
 * sorts of list panes are kept by column title (the part before " ("), so
 * a column added in a later version does not shift them. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/counters.h"
#include "tracetop/util.h"
#include "ui/listpane.h"
#include "ui/setup.h"
#include "ui/tui.h"

/* A pane's name in keys: its tab title in lower case. */
static void
setup_pane_key(const struct pane_ops *ops, char *buf, size_t len)
{
	size_t i;

	for (i = 0; ops->name[i] != '\0' && i + 1 < len; i++)
		buf[i] = (char)tolower((unsigned char)ops->name[i]);
	buf[i] = '\0';
}

/* Keep a note on a bad setting of line for the status line and stderr at
 * exit (msg escaped). */
static void
setup_note(struct tui *t, unsigned line, const char *msg)
{
	names_push(&t->setup_notes, &t->nsetup_notes, &t->setup_notes_cap,
	           xasprintf("%s:%u: %s (skipped)", t->opts->rc_path, line, msg));
}

/* Length of a column title up to " (": "Symbol (callers...)" is "Symbol". */
static size_t
setup_title_len(const char *title)
{
	const char *paren = strstr(title, " (");

	return paren != NULL ? (size_t)(paren - title) : strlen(title);
}

/* Sort pane i's table as "TITLE asc|desc" says. A column this run does
 * not have (Children without -g) leaves the pane's own order: the setting
 * is good, for other runs. */
static void
setup_apply_sort(struct tui *t, size_t i, const char *value)
{
	struct table *tab = &((struct listpane *)t->pane_state[i])->table;
	const char *sp = strrchr(value, ' ');
	size_t n = (size_t)(sp - value);

	for (size_t c = 0; c < tab->ncols; c++)
		if (tab->cols[c].sortable && !tab->cols[c].hidden &&
		    setup_title_len(tab->cols[c].title) == n &&
		    strncmp(tab->cols[c].title, value, n) == 0) {
			table_sort_by(tab, c, strcmp(sp + 1, "desc") == 0);
			return;
		}
}

/* Whether some list pane has key "sort.NAME". */
static bool
setup_sort_known(const struct tui *t, const char *key)
{
	char name[32];

	for (size_t i = 0; i < t->npanes; i++) {
		setup_pane_key(t->panes[i], name, sizeof name);
		if (t->panes[i]->listpane && strcmp(key + strlen("sort."), name) == 0)
			return true;
	}
	return false;
}

/* Note the sort.PANE lines that name no list pane. */
static void
setup_check_sorts(struct tui *t, const struct rcfile *rc)
{
	char msg[160];

	for (size_t i = 0; i < rc->n; i++)
		if (strncmp(rc->v[i].key, "sort.", 5) == 0 && !setup_sort_known(t, rc->v[i].key)) {
			snprintf(msg, sizeof msg, "%s: no list pane named '%s'", rc->v[i].key,
			         rc->v[i].key + 5);
			setup_note(t, rc->v[i].line, msg);
		}
}

/* The pane setting: switch to it unless the command line chose a view. */
static void
setup_apply_pane(struct tui *t, const struct rcfile *rc)
{
	unsigned line;
	const char *v = rcfile_get(rc, "pane", &line);
	char key[32];

	if (v == NULL || t->opts->view_given || t->opts->view != VIEW_TOP)
		return;
	for (size_t i = 0; i < t->npanes; i++) {
		setup_pane_key(t->panes[i], key, sizeof key);
		if (strcmp(key, v) == 0) {
			t->cur = i;
			return;
		}
	}
	char msg[128];

	snprintf(msg, sizeof msg, "pane: no pane named '%s'", v);
	setup_note(t, line, msg);
}

/* Apply the file to the panes. */
void
setup_apply(struct tui *t)
{
	const struct rcfile *rc = t->opts->rc;
	char key[48];

	rcfile_free(&t->setup0);
	if (rc == NULL)
		return;
	setup_apply_pane(t, rc);
	setup_check_sorts(t, rc);
	t->no_meters = !rcfile_get_bool(rc, "meters", !t->no_meters);
	for (size_t i = 0; i < t->npanes; i++) {
		const char *v;

		setup_pane_key(t->panes[i], key + 5, sizeof key - 5);
		memcpy(key, "sort.", 5);
		if (t->panes[i]->listpane && (v = rcfile_get(rc, key, NULL)) != NULL &&
		    !(t->panes[i] == &pane_top && t->opts->sort_given))
			setup_apply_sort(t, i, v);
		if (t->panes[i]->setup != NULL)
			t->panes[i]->setup(t->pane_state[i], t, t->opts->rc, false);
	}
	setup_take(t, &t->setup0);
	if (t->opts->nrc_notes + t->nsetup_notes > 0)
		tui_status(t, true, "%s%s",
		           t->opts->nrc_notes ? t->opts->rc_notes[0] : t->setup_notes[0],
		           t->opts->nrc_notes + t->nsetup_notes > 1 ? " (more on exit)" : "");
}

/* The counters counted, joined with commas (a name the file could not
 * hold left out). */
static void
setup_take_counters(struct tui *t, struct rcfile *rc)
{
	size_t n = counters_nevents(t->counters), len = 0;
	char *list = xstrdup("");

	for (size_t i = 0; i < n; i++) {
		const char *name = counters_event_name(t->counters, i);
		struct tt_err err;

		if (name == NULL || strchr(name, ',') != NULL ||
		    rcfile_check("counters", name, &err) != 0)
			continue;
		list = xrealloc(list, len + strlen(name) + 2);
		len += (size_t)sprintf(list + len, "%s%s", len ? "," : "", name);
	}
	if (len > 0)
		rcfile_set(rc, "counters", list);
	free(list);
}

/* The state now. */
void
setup_take(struct tui *t, struct rcfile *rc)
{
	char key[48], value[160];

	setup_pane_key(t->panes[t->cur], value, sizeof value);
	rcfile_set(rc, "pane", value);
	snprintf(value, sizeof value, "%g", t->delay);
	rcfile_set(rc, "delay", value);
	rcfile_set_bool(rc, "zero", t->zero);
	rcfile_set_bool(rc, "meters", !t->no_meters);
	if (t->counters != NULL) {
		setup_take_counters(t, rc);
		rcfile_set(rc, "counters_scope", counters_scope_name(counters_scope(t->counters)));
	}
	for (size_t i = 0; i < t->npanes; i++) {
		const struct table *tab;

		if (t->panes[i]->setup != NULL)
			t->panes[i]->setup(t->pane_state[i], t, rc, true);
		if (!t->panes[i]->listpane)
			continue;
		tab = &((const struct listpane *)t->pane_state[i])->table;
		if (tab->sort_col >= tab->ncols || !tab->cols[tab->sort_col].sortable)
			continue;
		setup_pane_key(t->panes[i], key + 5, sizeof key - 5);
		memcpy(key, "sort.", 5);
		snprintf(value, sizeof value, "%.*s %s",
		         (int)setup_title_len(tab->cols[tab->sort_col].title),
		         tab->cols[tab->sort_col].title, tab->descending ? "desc" : "asc");
		rcfile_set(rc, key, value);
	}
}

/* Write the file. */
int
setup_save(struct tui *t, bool at_exit, struct tt_err *err)
{
	struct rcfile now = {0};
	int rc = 0;

	if (t->opts->rc == NULL || t->opts->rc_path == NULL)
		return err_set(err, "the setup file is off (--no-config)");
	setup_take(t, &now);
	if (at_exit && rcfile_equal(&now, &t->setup0)) {
		rcfile_free(&now);
		return 0;
	}
	/* at exit: only what changed on the screen, so that what the command
	 * line set for this run does not stay */
	for (size_t i = 0; i < now.n; i++) {
		const char *was = rcfile_get(&t->setup0, now.v[i].key, NULL);

		if (!at_exit || was == NULL || strcmp(was, now.v[i].value) != 0)
			rcfile_set(t->opts->rc, now.v[i].key, now.v[i].value);
	}
	rcfile_free(&now);
	if (rcfile_save(t->opts->rc, t->opts->rc_path, err) != 0)
		rc = -1;
	else if (!at_exit)
		tui_status(t, false, "setup saved to %s", t->opts->rc_path);
	rcfile_free(&t->setup0);
	setup_take(t, &t->setup0);
	return rc;
}
