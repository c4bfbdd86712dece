/* probe-spec: parsing a probe SPEC ("FUNC[+OFF|%return] [ARG...]",
 * "BINARY:FUNC[+OFF|%return] [ARG...]", a user FUNC maybe a demangled
 * name, quoted when it has blanks: BINARY:"ns::f(int, char)"), the lines of tracefs's
 * dynamic-event listings, and the names of the kinds and groups. No I/O:
 * the fuzz target runs it on anything. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/probe.h"

/* Longest SPEC taken. */
#define SPEC_MAX_LEN 4096

/* The kinds' names, in enum order. */
static const char *const kind_names[] = {
    "tracepoint", "kprobe",    "kretprobe", "uprobe", "uretprobe",
    "eprobe",     "synthetic", "fprobe",    "other",
};

/* The name of a kind. */
const char *
probe_kind_name(enum probe_kind k)
{
	return (size_t)k < ARRAY_SIZE(kind_names) ? kind_names[k] : "other";
}

/* Whether s is "tracetop_PID". */
bool
probe_group_parse(const char *s, int *pid)
{
	size_t n = strlen(PROBE_GROUP_PREFIX);
	int v;

	if (strncmp(s, PROBE_GROUP_PREFIX, n) != 0 || !isdigit((unsigned char)s[n]) ||
	    s[n] == '0' || parse_int(s + n, &v) != 0 || v <= 0)
		return false;
	*pid = v;
	return true;
}

/* Whether c may be in a function name (C, C++ mangled, .cold/.isra). */
static bool
func_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$' || c == '@';
}

/* Whether c may be in a user function's name unquoted: also the
 * punctuation of demangled C++ and Rust names ("ns::Box<int>::get()"),
 * but no blank, quote, '+' or '%' (those need the name quoted). */
static bool
user_func_char(int c)
{
	return func_char(c) || (c >= 0x80 && c <= 0xff) ||
	       (isgraph(c) && strchr("\"+%", c) == NULL);
}

/* Check a function name (not a file offset): kernel names are plain C;
 * user names may be demangled, with blanks too when they were quoted. */
static int
check_func(const char *s, bool user, bool quoted, struct tt_err *err)
{
	if (isdigit((unsigned char)s[0]))
		return err_set(err, "bad function name '%.40s'", s);
	for (const char *p = s; *p != '\0'; p++) {
		int c = (unsigned char)*p;

		if (user ? user_func_char(c) || (quoted && (c == ' ' || c == '+' || c == '%'))
		         : func_char(c))
			continue;
		return err_set(err, "bad function name '%.40s' (character '%c')%s", s,
		               isprint(c) ? c : '?',
		               user && !quoted && isprint(c) ? ": quote the name" : "");
	}
	return 0;
}

/* Split off and check FUNC[+OFF|%return] (in place); kind and offset set.
 * A quoted name ends at its closing quote (at quote, NULL when none). */
static int
parse_func(char *s, char *quote, struct probe_spec *out, struct tt_err *err)
{
	char *name = quote != NULL ? s + 1 : s;
	char *suffix = quote != NULL ? quote + 1 : s + strcspn(s, "+%");
	bool user = out->binary != NULL;
	uint64_t off = 0;

	if (*suffix == '%') {
		if (strcmp(suffix, "%return") != 0)
			return err_set(err, "unknown '%.20s' after the function (only %%return)",
			               suffix);
		out->kind = user ? PROBE_URETPROBE : PROBE_KRETPROBE;
	} else if (*suffix == '+') {
		if (strchr(suffix, '%') != NULL)
			return err_set(err,
			               "a return probe cannot have an offset: write FUNC%%return");
		if (parse_u64(suffix + 1, &off) != 0)
			return err_set(err, "bad offset '%.20s' (a number: +16 or +0x10)",
			               suffix + 1);
		out->offset = off;
	} else if (*suffix != '\0') {
		return err_set(err, "unexpected '%.20s' after the quoted function", suffix);
	}
	*(quote != NULL ? quote : suffix) = '\0';
	if (*name == '\0')
		return err_set(err, "no function name%s", user ? " after BINARY:" : "");
	if (quote == NULL && user && name[0] == '0' && (name[1] == 'x' || name[1] == 'X')) {
		if (parse_u64(name, &off) != 0)
			return err_set(err, "bad file offset '%.20s'", name);
		out->raw_offset = true;
		out->offset += off; /* the probe's file offset */
	} else if (check_func(name, user, quote != NULL, err) != 0) {
		return -1;
	}
	out->func = xstrdup(name);
	return 0;
}

/* The ':' ending BINARY in an unquoted target: the last one that is not
 * half of a "::" (so "bin:ns::Box::get" splits after "bin"), or NULL. */
static char *
binary_colon(char *tok, char *end)
{
	char *colon = NULL;

	for (char *p = tok; p < end; p++)
		if (*p == ':' && (p == tok || p[-1] != ':') && p[1] != ':')
			colon = p;
	return colon;
}

/* Set the binary of a user SPEC: the len bytes at s. */
static int
set_binary(struct probe_spec *out, const char *s, size_t len, struct tt_err *err)
{
	if (len == 0)
		return err_set(err, "no binary before ':' (BINARY:FUNC)");
	out->binary = xstrndup(s, len);
	out->kind = PROBE_UPROBE;
	return 0;
}

/* The first token: [BINARY:]FUNC[+OFF|%return], FUNC maybe quoted so it
 * may hold blanks, '+' and '%': BINARY:"ns::f(int, char)"%return, or the
 * whole target quoted: "BINARY:ns::f(int, char)"%return. */
static int
parse_target(char *tok, struct probe_spec *out, struct tt_err *err)
{
	char *open = strchr(tok, '"'), *close = NULL, *colon;

	out->kind = PROBE_KPROBE;
	if (open != NULL && (close = strchr(open + 1, '"')) == NULL)
		return err_set(err, "no closing '\"' after the function name");
	if (open == NULL) {
		if ((colon = binary_colon(tok, tok + strlen(tok))) == NULL)
			return parse_func(tok, NULL, out, err);
		if (strchr(colon, '(') != NULL
		        ? strchr(colon, ')') == NULL
		        : strchr(colon, '<') != NULL && strchr(colon, '>') == NULL)
			return err_set(err,
			               "'%.40s' is cut at a blank: quote a function name "
			               "with blanks (BINARY:\"ns::f(int, char)\")",
			               colon + 1);
		return set_binary(out, tok, (size_t)(colon - tok), err) != 0
		           ? -1
		           : parse_func(colon + 1, NULL, out, err);
	}
	if (open == tok && close[1] == ':') {
		/* the binary quoted, for a path with blanks or ':': "BINARY":FUNC,
		 * FUNC maybe quoted too */
		char *func = close + 2, *fclose = NULL;

		if (set_binary(out, tok + 1, (size_t)(close - tok - 1), err) != 0)
			return -1;
		if (*func == '"' && (fclose = strchr(func + 1, '"')) == NULL)
			return err_set(err, "no closing '\"' after the function name");
		return parse_func(func, fclose, out, err);
	}
	if (open == tok) { /* the whole target quoted */
		if ((colon = binary_colon(tok + 1, close)) == NULL)
			return parse_func(tok, close, out, err);
		return set_binary(out, tok + 1, (size_t)(colon - tok - 1), err) != 0
		           ? -1
		           : parse_func(colon, close, out, err);
	}
	if (open[-1] != ':')
		return err_set(err, "a quoted function name starts the spec or follows BINARY:");
	return set_binary(out, tok, (size_t)(open - 1 - tok), err) != 0
	           ? -1
	           : parse_func(open, close, out, err);
}

/* Whether a name must be quoted in a spec (blanks, or what ends a part). */
static bool
needs_quotes(const char *s, const char *special)
{
	return s[strcspn(s, special)] != '\0';
}

/* Write [BINARY:]FUNC as a spec's target that probe_spec_parse reads back:
 * a binary with blanks or ':' and a function with blanks, '+' or '%'
 * quoted. -1 with err when it cannot be written (a '"' in either). */
int
probe_spec_target(char *buf, size_t len, const char *binary, const char *func, struct tt_err *err)
{
	bool qb = binary != NULL && needs_quotes(binary, " \t:"), qf = needs_quotes(func, " \t+%");
	int n;

	if ((binary != NULL && strchr(binary, '"') != NULL) || strchr(func, '"') != NULL)
		return err_set(err, "a name with '\"' cannot be probed: %.60s",
		               strchr(func, '"') != NULL ? func : binary);
	n = binary != NULL && binary[0] != '\0'
	        ? snprintf(buf, len, "%s%s%s:%s%s%s", qb ? "\"" : "", binary, qb ? "\"" : "",
	                   qf ? "\"" : "", func, qf ? "\"" : "")
	        : snprintf(buf, len, "%s%s%s", qf ? "\"" : "", func, qf ? "\"" : "");
	if (n < 0 || (size_t)n >= len)
		return err_set(err, "probe target too long");
	return 0;
}

/* Cut the first token off buf: it ends at a blank outside double quotes.
 * Returns it, *rest pointing past it. */
static char *
first_token(char *buf, char **rest)
{
	char *p = buf + strspn(buf, " \t\n"), *tok = p;
	bool quoted = false;

	for (; *p != '\0' && (quoted || strchr(" \t\n", *p) == NULL); p++)
		if (*p == '"')
			quoted = !quoted;
	*rest = *p != '\0' ? p + 1 : p;
	*p = '\0';
	return *tok != '\0' ? tok : NULL;
}

/* Parse a SPEC. */
int
probe_spec_parse(const char *spec, struct probe_spec *out, struct tt_err *err)
{
	char *buf, *tok, *rest, *save = NULL;
	unsigned flags;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (strlen(spec) > SPEC_MAX_LEN)
		return err_set(err, "probe spec too long (at most %d characters)", SPEC_MAX_LEN);
	buf = xstrdup(spec);
	if ((tok = first_token(buf, &rest)) == NULL) {
		err_set(err, "empty probe spec: expected FUNC[+OFF|%%return] [ARG...] or "
		             "BINARY:FUNC[+OFF|%%return] [ARG...]");
		goto out;
	}
	if (parse_target(tok, out, err) != 0)
		goto out;
	flags =
	    PROBE_ARGF_EARLY | (out->binary == NULL ? PROBE_ARGF_KERNEL : 0) |
	    (out->kind == PROBE_KRETPROBE || out->kind == PROBE_URETPROBE ? PROBE_ARGF_RETURN : 0);
	for (tok = strtok_r(rest, " \t\n", &save); tok != NULL;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (out->nargs == PROBE_MAX_ARGS) {
			err_set(err, "too many arguments (at most %d)", PROBE_MAX_ARGS);
			goto out;
		}
		out->args = xrealloc(out->args, (out->nargs + 1) * sizeof *out->args);
		if (probe_arg_parse(tok, flags, (unsigned)out->nargs + 1, &out->args[out->nargs],
		                    err) != 0) {
			probe_arg_free(&out->args[out->nargs]);
			goto out;
		}
		out->nargs++;
	}
	rc = probe_args_unique(out->args, out->nargs, err);
out:
	free(buf);
	if (rc != 0)
		probe_spec_free(out);
	return rc;
}

/* Free a parsed SPEC. */
void
probe_spec_free(struct probe_spec *s)
{
	for (size_t i = 0; i < s->nargs; i++)
		probe_arg_free(&s->args[i]);
	free(s->args);
	free(s->binary);
	free(s->func);
	memset(s, 0, sizeof *s);
}

/* The kind of a listing line from its type letter and place. */
static enum probe_kind
line_kind(char type, const char *place)
{
	bool user = place[0] == '/' && strchr(place, ':') != NULL;

	switch (type) {
	case 'p':
		return user ? PROBE_UPROBE : PROBE_KPROBE;
	case 'r':
		return user ? PROBE_URETPROBE : PROBE_KRETPROBE;
	case 'e':
		return PROBE_EPROBE;
	case 's':
		return PROBE_SYNTHETIC;
	case 'f':
	case 't':
		return PROBE_FPROBE;
	}
	return PROBE_OTHER;
}

/* Parse one line "T[N]:GROUP/EVENT PLACE ARGS..." into ev; false if malformed. */
static bool
parse_line(char *line, struct probe_event *ev)
{
	char *save = NULL, *head = strtok_r(line, " \t", &save), *slash, *place, *tok;
	char type;

	if (head == NULL || !isalpha((unsigned char)head[0]))
		return false;
	type = head[0];
	head += 1 + strspn(head + 1, "0123456789"); /* r16: maxactive */
	if (*head != ':' || (slash = strchr(head, '/')) == NULL || slash == head + 1 ||
	    slash[1] == '\0')
		return false;
	memset(ev, 0, sizeof *ev);
	ev->group = xstrndup(head + 1, (size_t)(slash - head - 1));
	ev->event = xstrdup(slash + 1);
	place = strtok_r(NULL, " \t", &save);
	ev->target = xstrdup(place ? place : "");
	ev->kind = line_kind(type, ev->target);
	while ((tok = strtok_r(NULL, " \t", &save)) != NULL) {
		ev->args = xrealloc(ev->args, (ev->nargs + 1) * sizeof *ev->args);
		ev->args[ev->nargs++] = xstrdup(tok);
	}
	return true;
}

/* Parse a listing. */
void
probe_events_parse(const char *text, size_t len, struct probe_event **out, size_t *n)
{
	char *buf = xstrndup(text, len), *save = NULL, *line;
	struct probe_event ev;

	*out = NULL;
	*n = 0;
	for (line = strtok_r(buf, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (!parse_line(line, &ev))
			continue;
		*out = xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = ev;
	}
	free(buf);
}

/* Free a listing. */
void
probe_events_free(struct probe_event *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].group);
		free(v[i].event);
		free(v[i].target);
		names_free(v[i].args, v[i].nargs);
	}
	free(v);
}
