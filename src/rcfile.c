/* rcfile: the setup file's settings, their checks, parsing and writing.
 * Settings are kept as text (what the file says) and checked against one
 * table, so reading, writing and the man page's list agree. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/rcfile.h"

#define RC_VALUE_MAX 1024 /* longest value kept */
#define RC_KEY_MAX 64

enum rc_type {
	RC_NUMBER, /* a decimal number in [min, max] */
	RC_BOOL,   /* yes/no, on/off, true/false, 1/0 */
	RC_WORD,   /* one of choices, or (choices NULL) lower-case letters */
	RC_EVENTS, /* EVENT[,EVENT...]: event specs, each checked when applied */
	RC_SORT,   /* "COLUMN TITLE asc|desc" */
};

struct rc_def {
	const char *key; /* ending in '.': a family, "sort.PANE" */
	enum rc_type type;
	double min, max;
	const char *const *choices; /* NULL-terminated */
};

static const char *const scope_words[] = {"total", "cpu", "process", NULL};
static const char *const cgroup_words[] = {"auto", "shown", "hidden", NULL};

/* Every setting, in the order the file is written. */
static const struct rc_def rc_defs[] = {
    {"pane", RC_WORD, 0, 0, NULL},
    {"delay", RC_NUMBER, 0.05, 86400, NULL},
    {"zero", RC_BOOL, 0, 0, NULL},
    {"meters", RC_BOOL, 0, 0, NULL},
    {"counters", RC_EVENTS, 0, 0, NULL},
    {"counters_scope", RC_WORD, 0, 0, scope_words},
    {"top.cgroup_column", RC_WORD, 0, 0, cgroup_words},
    {"processes.threads", RC_BOOL, 0, 0, NULL},
    {"flame.icicle", RC_BOOL, 0, 0, NULL},
    {"sort.", RC_SORT, 0, 0, NULL},
};

/* The definition of key, or NULL. */
static const struct rc_def *
rc_def(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(rc_defs); i++) {
		size_t n = strlen(rc_defs[i].key);

		if (rc_defs[i].key[n - 1] == '.' ? strncmp(key, rc_defs[i].key, n) == 0
		                                 : strcmp(key, rc_defs[i].key) == 0)
			return &rc_defs[i];
	}
	return NULL;
}

/* A boolean's value: 1, 0, or -1 when s is none. */
static int
rc_bool(const char *s)
{
	static const char *const yes[] = {"yes", "on", "true", "1"}, *const no[] = {"no", "off",
	                                                                            "false", "0"};

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return 1;
		if (strcasecmp(s, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* Whether s is a non-empty run of lower-case letters, digits and dashes. */
static bool
rc_word(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-')
			return false;
	return true;
}

/* Check a "sort.PANE" value: a column title, a space, asc or desc. */
static int
rc_check_sort(const char *key, const char *value, struct tt_err *err)
{
	const char *sp = strrchr(value, ' ');

	if (!rc_word(key + strlen("sort.")))
		return err_set(err, "'%s': name a pane after sort., e.g. sort.top", key);
	if (sp == NULL || sp == value ||
	    (strcmp(sp + 1, "asc") != 0 && strcmp(sp + 1, "desc") != 0))
		return err_set(
		    err, "%s expects a column title and asc or desc, e.g. 'Samples desc'", key);
	return 0;
}

/* Check one event list: EVENT[,EVENT...], no empty one, no blanks. */
static int
rc_check_events(const char *key, const char *value, struct tt_err *err)
{
	const char *p = value;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (len == 0)
			return err_set(err, "%s expects EVENT[,EVENT...] with no empty one", key);
		for (size_t i = 0; i < len; i++)
			if (isspace((unsigned char)p[i]))
				return err_set(err, "%s: an event name has no blanks", key);
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

/* Check a value against its definition. */
int
rcfile_check(const char *key, const char *value, struct tt_err *err)
{
	const struct rc_def *d = rc_def(key);
	char esc[RC_KEY_MAX * 4];
	double v;

	if (d == NULL) {
		str_escape(esc, sizeof esc, key, strnlen(key, RC_KEY_MAX));
		return err_set(err, "unknown setting '%s'", esc);
	}
	for (const char *s = value; *s != '\0'; s++)
		if (iscntrl((unsigned char)*s))
			return err_set(err, "%s: a control character in the value", key);
	if (strlen(value) >= RC_VALUE_MAX)
		return err_set(err, "%s: the value is longer than %d bytes", key, RC_VALUE_MAX - 1);
	switch (d->type) {
	case RC_NUMBER:
		if (parse_double(value, &v) != 0 || v < d->min || v > d->max)
			return err_set(err, "%s expects a number from %g to %g", key, d->min,
			               d->max);
		return 0;
	case RC_BOOL:
		if (rc_bool(value) < 0)
			return err_set(err, "%s expects yes or no", key);
		return 0;
	case RC_WORD:
		for (size_t i = 0; d->choices != NULL && d->choices[i] != NULL; i++)
			if (strcmp(value, d->choices[i]) == 0)
				return 0;
		if (d->choices == NULL && rc_word(value))
			return 0;
		if (d->choices == NULL)
			return err_set(err, "%s expects a name in lower case", key);
		return err_set(err, "%s expects %s, %s or %s", key, d->choices[0], d->choices[1],
		               d->choices[2]);
	case RC_EVENTS:
		return rc_check_events(key, value, err);
	case RC_SORT:
		return rc_check_sort(key, value, err);
	}
	return 0;
}

/* The entry of key, or NULL. */
static struct rcfile_entry *
rc_find(const struct rcfile *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->v[i].key, key) == 0)
			return &c->v[i];
	return NULL;
}

/* Set key without checking it, remembering the line it came from. */
static void
rc_put(struct rcfile *c, const char *key, const char *value, unsigned line)
{
	struct rcfile_entry *e = rc_find(c, key);

	if (e == NULL) {
		if (c->n == c->cap) {
			c->cap = c->cap ? 2 * c->cap : 16;
			c->v = xrealloc(c->v, c->cap * sizeof *c->v);
		}
		e = &c->v[c->n++];
		e->key = xstrdup(key);
	} else {
		free(e->value);
	}
	e->value = xstrdup(value);
	e->line = line;
}

/* Set a checked value. */
void
rcfile_set(struct rcfile *c, const char *key, const char *value)
{
	struct tt_err err;

	if (rcfile_check(key, value, &err) != 0)
		fatal("rcfile_set: %s", err.msg);
	rc_put(c, key, value, 0);
}

/* Set a boolean. */
void
rcfile_set_bool(struct rcfile *c, const char *key, bool on)
{
	rcfile_set(c, key, on ? "yes" : "no");
}

/* Look a value up. */
const char *
rcfile_get(const struct rcfile *c, const char *key, unsigned *line)
{
	const struct rcfile_entry *e = rc_find(c, key);

	if (line != NULL)
		*line = e ? e->line : 0;
	return e ? e->value : NULL;
}

/* Look a boolean up. */
bool
rcfile_get_bool(const struct rcfile *c, const char *key, bool def)
{
	const char *v = rcfile_get(c, key, NULL);

	return v != NULL ? rc_bool(v) == 1 : def;
}

/* Same settings (in any order)? */
bool
rcfile_equal(const struct rcfile *a, const struct rcfile *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const char *v = rcfile_get(b, a->v[i].key, NULL);

		if (v == NULL || strcmp(v, a->v[i].value) != 0)
			return false;
	}
	return true;
}

/* Release the settings. */
void
rcfile_free(struct rcfile *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].key);
		free(c->v[i].value);
	}
	free(c->v);
	memset(c, 0, sizeof *c);
}

/* Cut blanks off both ends of s[0..*len) in place; returns the start. */
static char *
rc_trim(char *s, size_t *len)
{
	while (*len > 0 && isspace((unsigned char)*s))
		s++, (*len)--;
	while (*len > 0 && isspace((unsigned char)s[*len - 1]))
		(*len)--;
	s[*len] = '\0';
	return s;
}

/* Parse one line (NUL-terminated, no newline); 0, or -1 with err. */
static int
rc_line(struct rcfile *c, char *line, unsigned no, struct tt_err *err)
{
	size_t len = strlen(line), klen, vlen;
	char *eq, *key, *value;

	line = rc_trim(line, &len);
	if (len == 0 || line[0] == '#')
		return 0;
	if ((eq = strchr(line, '=')) == NULL)
		return err_set(err, "not a setting: expected key=value");
	klen = (size_t)(eq - line);
	vlen = len - klen - 1;
	key = rc_trim(line, &klen);
	value = rc_trim(eq + 1, &vlen);
	if (klen == 0)
		return err_set(err, "no setting name before '='");
	if (klen >= RC_KEY_MAX)
		return err_set(err, "unknown setting (a name of %zu bytes)", klen);
	if (rcfile_check(key, value, err) != 0)
		return -1;
	rc_put(c, key, value, no);
	return 0;
}

/* Parse a whole text. */
size_t
rcfile_parse(struct rcfile *c, const char *text, size_t len, rcfile_report report, void *arg)
{
	size_t bad = 0, pos = 0;
	unsigned no = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		char *line = xstrndup(text + pos, n);
		struct tt_err err;

		no++;
		if (strlen(line) != n)
			err_set(&err, "a NUL byte in the line");
		if (strlen(line) != n || rc_line(c, line, no, &err) != 0) {
			bad++;
			if (report != NULL)
				report(arg, no, err.msg);
		}
		free(line);
		pos += n + 1;
	}
	return bad;
}

/* Order of keys in the file: the table's, then by name within a family. */
static int
rc_order(const void *pa, const void *pb)
{
	const struct rcfile_entry *a = *(const struct rcfile_entry *const *)pa;
	const struct rcfile_entry *b = *(const struct rcfile_entry *const *)pb;
	const struct rc_def *da = rc_def(a->key), *db = rc_def(b->key);

	if (da != db)
		return CMP3(da, db);
	return strcmp(a->key, b->key);
}

/* The file's text. */
char *
rcfile_format(const struct rcfile *c)
{
	const struct rcfile_entry **order = xmalloc((c->n ? c->n : 1) * sizeof *order);
	size_t len = 0, cap = 256;
	char *out = xmalloc(cap);

	for (size_t i = 0; i < c->n; i++)
		order[i] = &c->v[i];
	qsort(order, c->n, sizeof *order, rc_order);
	len = (size_t)snprintf(out, cap,
	                       "# tracetop setup, written by tracetop (F2 saves it, and at exit).\n"
	                       "# One key=value a line; see FILES in tracetop(1).\n");
	for (size_t i = 0; i < c->n; i++) {
		size_t need = strlen(order[i]->key) + strlen(order[i]->value) + 3;

		if (len + need >= cap) {
			cap = 2 * (len + need);
			out = xrealloc(out, cap);
		}
		len += (size_t)snprintf(out + len, cap - len, "%s=%s\n", order[i]->key,
		                        order[i]->value);
	}
	free(order);
	return out;
}

/* Where the file is. */
int
rcfile_path(char *buf, size_t len, struct tt_err *err)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	/* the XDG spec: a relative $XDG_CONFIG_HOME is to be ignored */
	if (xdg != NULL && xdg[0] == '/')
		n = snprintf(buf, len, "%s/tracetop/tracetoprc", xdg);
	else if (home != NULL && home[0] != '\0')
		n = snprintf(buf, len, "%s/.config/tracetop/tracetoprc", home);
	else
		return err_set(err, "no setup file: neither XDG_CONFIG_HOME nor HOME is set");
	if (n < 0 || (size_t)n >= len)
		return err_set(err, "no setup file: its path is too long");
	return 0;
}

/* Read the file. */
int
rcfile_load(struct rcfile *c, const char *path, rcfile_report report, void *arg, struct tt_err *err)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0, n;

	if (f == NULL) {
		if (errno == ENOENT)
			return 0;
		return err_set(err, "cannot read %s: %s", path, strerror(errno));
	}
	do {
		if (len + 4096 > cap) {
			cap = 2 * cap + 4096;
			text = xrealloc(text, cap);
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
	} while (n > 0 && len < (1u << 20)); /* a setup file is small: stop at 1 MiB */
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		free(text);
		return err_set(err, "cannot read %s: %s", path, strerror(e));
	}
	fclose(f);
	rcfile_parse(c, text, len, report, arg);
	free(text);
	return 0;
}

/* Make the directories above path (like mkdir -p of its dirname). */
static int
rc_mkdirs(const char *path, struct tt_err *err)
{
	char *dir = xstrdup(path);

	for (char *s = strchr(dir + 1, '/'); s != NULL; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
			err_set(err, "cannot make %s: %s", dir, strerror(errno));
			free(dir);
			return -1;
		}
		*s = '/';
	}
	free(dir);
	return 0;
}

/* Whether the file (or the nearest directory above it that exists) is
 * this user's: under sudo, HOME may still be another user's, whose home
 * must not get files that user cannot change. */
static int
rc_owned(const char *path, struct tt_err *err)
{
	char *p = xstrdup(path), *slash;
	struct stat st;
	int rc = 0;

	while (stat(p, &st) != 0 && (slash = strrchr(p, '/')) != NULL && slash != p)
		*slash = '\0';
	if (stat(p, &st) == 0 && st.st_uid != geteuid())
		rc = err_set(err,
		             "not writing %s: %s belongs to uid %u, not to this user (HOME of "
		             "another user, as sudo may leave it? sudo -H, or --no-config)",
		             path, p, (unsigned)st.st_uid);
	free(p);
	return rc;
}

/* Write the file: a temporary file beside it, renamed over it. */
int
rcfile_save(const struct rcfile *c, const char *path, struct tt_err *err)
{
	char *text = rcfile_format(c), *tmp = xasprintf("%s.new", path);
	size_t len = strlen(text);
	FILE *f;
	int rc = -1;

	if (rc_owned(path, err) != 0 || rc_mkdirs(path, err) != 0)
		goto out;
	if ((f = fopen(tmp, "w")) == NULL) {
		err_set(err, "cannot write %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		err_set(err, "cannot write %s: %s", tmp, strerror(errno));
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) != 0) {
		err_set(err, "cannot replace %s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(tmp);
	free(text);
	return rc;
}
