/* rcfile: the setup file, htop's way: ~/.config/tracetop/tracetoprc (under
 * $XDG_CONFIG_HOME when set) keeps what the user set on the screen — sort
 * keys, columns, meters, counters, the pane shown, the refresh interval —
 * one "key=value" a line. Read at start (the command line wins), written on
 * a key and at exit. A bad line is reported with its number and skipped:
 * the rest still applies. */
#ifndef TRACETOP_RCFILE_H
#define TRACETOP_RCFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "tracetop/util.h"

struct options;

struct rcfile_entry {
	char *key, *value;
	unsigned line; /* where it was read (0: set since) */
};

struct rcfile {
	struct rcfile_entry *v;
	size_t n, cap;
};

/* Told of each bad line: its number (1-based) and what is wrong with it. */
typedef void (*rcfile_report)(void *arg, unsigned line, const char *msg);

/* Whether value is good for key: 0, or -1 with why in err (an unknown
 * key, a number out of range, a word not among the choices...). */
int rcfile_check(const char *key, const char *value, struct tt_err *err);

/* Parse len bytes of text (NUL bytes are bad lines) into c: comments
 * (#...) and blank lines are skipped, each good "key = value" replaces
 * what c has for key, each bad line is reported and skipped. Returns how
 * many lines were bad. */
size_t rcfile_parse(struct rcfile *c, const char *text, size_t len, rcfile_report report,
                    void *arg);

/* The value of key, or NULL; the line it came from in *line (if not NULL). */
const char *rcfile_get(const struct rcfile *c, const char *key, unsigned *line);
/* A boolean setting: true if set to yes/on/true/1 (def when absent). */
bool rcfile_get_bool(const struct rcfile *c, const char *key, bool def);

/* Set key to value (which must pass rcfile_check: a bug otherwise). */
void rcfile_set(struct rcfile *c, const char *key, const char *value);
void rcfile_set_bool(struct rcfile *c, const char *key, bool on);

/* Whether a and b hold the same settings. */
bool rcfile_equal(const struct rcfile *a, const struct rcfile *b);

void rcfile_free(struct rcfile *c);

/* The file's text: a heading comment, then the settings in a fixed order
 * (free() it). */
char *rcfile_format(const struct rcfile *c);

/* The file's path: $XDG_CONFIG_HOME/tracetop/tracetoprc, else
 * $HOME/.config/tracetop/tracetoprc; -1 with err when neither is set. */
int rcfile_path(char *buf, size_t len, struct tt_err *err);

/* Read path into c (a missing file is no error: nothing is set). -1 with
 * err when it exists but cannot be read; bad lines go to report. */
int rcfile_load(struct rcfile *c, const char *path, rcfile_report report, void *arg,
                struct tt_err *err);

/* Write c to path (its directories made, the file replaced at once);
 * refused when the file, or the directory it would go in, is another
 * user's (sudo leaving HOME alone). */
int rcfile_save(const struct rcfile *c, const char *path, struct tt_err *err);

/* Apply the settings the command line did not give: the refresh interval
 * (-d), zeroing (-z), the counters (--counters) and their scope, checking
 * each counter's spec (a bad one is reported with its line and left out). */
void rcfile_apply_options(const struct rcfile *c, struct options *o, rcfile_report report,
                          void *arg);

#endif
