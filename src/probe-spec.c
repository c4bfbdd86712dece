/* probe-spec: parsing a probe SPEC ("FUNC[+OFF|%return] [ARG...]",
 * "BINARY:FUNC[+OFF|%return] [ARG...]"), the lines of tracefs's
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

/* Split off and check FUNC[+OFF|%return] (in place); kind and offset set. */
static int
parse_func(char *s, struct probe_spec *out, struct tt_err *err)
{
	char *suffix = s + strcspn(s, "+%");
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
	}
	*suffix = '\0';
	if (*s == '\0')
		return err_set(err, "no function name%s", user ? " after BINARY:" : "");
	if (user && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (parse_u64(s, &off) != 0)
			return err_set(err, "bad file offset '%.20s'", s);
		out->raw_offset = true;
		out->offset += off; /* the probe's file offset */
	} else {
		if (isdigit((unsigned char)s[0]))
			return err_set(err, "bad function name '%.40s'", s);
		for (const char *p = s; *p != '\0'; p++)
			if (!func_char((unsigned char)*p))
				return err_set(err, "bad function name '%.40s' (character '%c')", s,
				               isprint((unsigned char)*p) ? *p : '?');
	}
	out->func = xstrdup(s);
	return 0;
}

/* The first token: [BINARY:]FUNC[+OFF|%return]. */
static int
parse_target(char *tok, struct probe_spec *out, struct tt_err *err)
{
	char *colon = strrchr(tok, ':');

	out->kind = PROBE_KPROBE;
	if (colon != NULL) {
		if (colon == tok)
			return err_set(err, "no binary before ':' (BINARY:FUNC)");
		*colon = '\0';
		out->binary = xstrdup(tok);
		out->kind = PROBE_UPROBE;
		tok = colon + 1;
	}
	return parse_func(tok, out, err);
}

/* Parse a SPEC. */
int
probe_spec_parse(const char *spec, struct probe_spec *out, struct tt_err *err)
{
	char *buf, *tok, *save = NULL;
	unsigned flags;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (strlen(spec) > SPEC_MAX_LEN)
		return err_set(err, "probe spec too long (at most %d characters)", SPEC_MAX_LEN);
	buf = xstrdup(spec);
	if ((tok = strtok_r(buf, " \t\n", &save)) == NULL) {
		err_set(err, "empty probe spec: expected FUNC[+OFF|%%return] [ARG...] or "
		             "BINARY:FUNC[+OFF|%%return] [ARG...]");
		goto out;
	}
	if (parse_target(tok, out, err) != 0)
		goto out;
	flags =
	    PROBE_ARGF_EARLY | (out->binary == NULL ? PROBE_ARGF_KERNEL : 0) |
	    (out->kind == PROBE_KRETPROBE || out->kind == PROBE_URETPROBE ? PROBE_ARGF_RETURN : 0);
	while ((tok = strtok_r(NULL, " \t\n", &save)) != NULL) {
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
