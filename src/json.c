/* json: a recursive-descent JSON reader with a depth bound. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/json.h"
#include "tracetop/util.h"

struct json_reader {
	const char *s;
	size_t len, pos;
	struct tt_err *err;
};

/* Fail with what was expected at the reader's place (line:column). */
static int
json_fail(struct json_reader *r, const char *what)
{
	size_t line = 1, col = 1;

	for (size_t i = 0; i < r->pos && i < r->len; i++) {
		col++;
		if (r->s[i] == '\n') {
			line++;
			col = 1;
		}
	}
	if (r->pos >= r->len)
		return err_set(r->err, "line %zu, column %zu: %s, found the end of the text", line,
		               col, what);
	if ((unsigned char)r->s[r->pos] >= 0x20 && (unsigned char)r->s[r->pos] < 0x7f)
		return err_set(r->err, "line %zu, column %zu: %s, found '%c'", line, col, what,
		               r->s[r->pos]);
	return err_set(r->err, "line %zu, column %zu: %s, found byte 0x%02x", line, col, what,
	               (unsigned char)r->s[r->pos]);
}

/* Skip white space. */
static void
json_ws(struct json_reader *r)
{
	while (r->pos < r->len && strchr(" \t\r\n", r->s[r->pos]) != NULL && r->s[r->pos] != '\0')
		r->pos++;
}

/* Append code point cp as UTF-8. */
static size_t
json_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Four hex digits after \u: the value, or -1. */
static long
json_hex4(struct json_reader *r)
{
	long v = 0;

	if (r->len - r->pos < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		int d = hex_digit(r->s[r->pos + (size_t)i]);

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	r->pos += 4;
	return v;
}

/* A string at the opening quote into a malloc'd copy, unescaped. */
static int
json_string(struct json_reader *r, char **out)
{
	/* unescaped it is never longer than written */
	char *o = xmalloc(r->len - r->pos + 1);
	size_t n = 0;

	r->pos++;
	for (;;) {
		unsigned char c;

		if (r->pos >= r->len) {
			free(o);
			return json_fail(r, "expected the string's closing quote");
		}
		c = (unsigned char)r->s[r->pos];
		if (c == '"')
			break;
		if (c < 0x20) {
			free(o);
			return json_fail(r, "expected no control character in a string");
		}
		r->pos++;
		if (c != '\\') {
			o[n++] = (char)c;
			continue;
		}
		if (r->pos >= r->len) {
			free(o);
			return json_fail(r, "expected an escape after '\\'");
		}
		c = (unsigned char)r->s[r->pos++];
		switch (c) {
		case '"':
		case '\\':
		case '/':
			o[n++] = (char)c;
			break;
		case 'b':
			o[n++] = '\b';
			break;
		case 'f':
			o[n++] = '\f';
			break;
		case 'n':
			o[n++] = '\n';
			break;
		case 'r':
			o[n++] = '\r';
			break;
		case 't':
			o[n++] = '\t';
			break;
		case 'u': {
			long cp = json_hex4(r), lo;

			if (cp < 0) {
				free(o);
				return json_fail(r, "expected four hex digits after \\u");
			}
			/* a surrogate pair is one code point; a lone half is U+FFFD */
			if (cp >= 0xd800 && cp < 0xdc00 && r->len - r->pos >= 6 &&
			    r->s[r->pos] == '\\' && r->s[r->pos + 1] == 'u') {
				size_t at = r->pos;

				r->pos += 2;
				lo = json_hex4(r);
				if (lo >= 0xdc00 && lo < 0xe000)
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				else
					r->pos = at;
			}
			if (cp >= 0xd800 && cp < 0xe000)
				cp = 0xfffd;
			/* \uXXXX is 6 bytes written, at most 4 unescaped */
			n += json_utf8(o + n, (unsigned)cp);
			break;
		}
		default:
			r->pos--;
			free(o);
			return json_fail(r, "expected one of \" \\ / b f n r t u after '\\'");
		}
	}
	r->pos++;
	o[n] = '\0';
	*out = o;
	return 0;
}

/* A number, as JSON writes them. */
static int
json_number(struct json_reader *r, double *out)
{
	size_t start = r->pos;
	char buf[64];

	if (r->pos < r->len && r->s[r->pos] == '-')
		r->pos++;
	if (r->pos >= r->len || r->s[r->pos] < '0' || r->s[r->pos] > '9')
		return json_fail(r, "expected a digit");
	while (r->pos < r->len && strchr("0123456789.eE+-", r->s[r->pos]) != NULL &&
	       r->s[r->pos] != '\0')
		r->pos++;
	if (r->pos - start >= sizeof buf) {
		r->pos = start;
		return json_fail(r, "expected a number of fewer than 64 characters");
	}
	memcpy(buf, r->s + start, r->pos - start);
	buf[r->pos - start] = '\0';
	if (parse_double(buf, out) != 0 || !isfinite(*out)) {
		r->pos = start;
		return json_fail(r, "expected a valid number");
	}
	return 0;
}

/* A literal word (true, false, null). */
static bool
json_word(struct json_reader *r, const char *w)
{
	size_t n = strlen(w);

	if (r->len - r->pos < n || memcmp(r->s + r->pos, w, n) != 0)
		return false;
	r->pos += n;
	return true;
}

static int json_value(struct json_reader *r, struct json *v, unsigned depth);

/* The items (or members, with keys) of an array or object after its
 * opening bracket, up to the closing one. */
static int
json_container(struct json_reader *r, struct json *v, unsigned depth, bool object)
{
	size_t cap = 0;
	char close = object ? '}' : ']';

	r->pos++;
	json_ws(r);
	if (r->pos < r->len && r->s[r->pos] == close) {
		r->pos++;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		json_ws(r);
		if (object) {
			if (r->pos >= r->len || r->s[r->pos] != '"')
				return json_fail(r, "expected a member name in quotes");
			if (json_string(r, &key) != 0)
				return -1;
			json_ws(r);
			if (r->pos >= r->len || r->s[r->pos] != ':') {
				free(key);
				return json_fail(r, "expected ':' after the member name");
			}
			r->pos++;
		}
		if (v->n == cap) {
			cap = cap ? 2 * cap : 8;
			v->items = xrealloc(v->items, cap * sizeof *v->items);
			if (object)
				v->keys = xrealloc(v->keys, cap * sizeof *v->keys);
		}
		if (object)
			v->keys[v->n] = key;
		memset(&v->items[v->n], 0, sizeof v->items[v->n]);
		v->n++;
		if (json_value(r, &v->items[v->n - 1], depth + 1) != 0)
			return -1;
		json_ws(r);
		if (r->pos < r->len && r->s[r->pos] == ',') {
			r->pos++;
			continue;
		}
		if (r->pos < r->len && r->s[r->pos] == close) {
			r->pos++;
			return 0;
		}
		return json_fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

/* One value of any type. */
static int
json_value(struct json_reader *r, struct json *v, unsigned depth)
{
	char c;

	memset(v, 0, sizeof *v);
	json_ws(r);
	if (depth > JSON_MAX_DEPTH)
		return json_fail(r, "expected at most 64 levels of nesting");
	if (r->pos >= r->len)
		return json_fail(r, "expected a value");
	c = r->s[r->pos];
	if (c == '{' || c == '[') {
		v->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
		return json_container(r, v, depth, c == '{');
	}
	if (c == '"') {
		v->type = JSON_STRING;
		return json_string(r, &v->string);
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		v->type = JSON_NUMBER;
		return json_number(r, &v->number);
	}
	if (json_word(r, "true") || json_word(r, "false")) {
		v->type = JSON_BOOL;
		v->boolean = r->s[r->pos - 1] == 'e' && r->s[r->pos - 2] == 'u';
		return 0;
	}
	if (json_word(r, "null"))
		return 0;
	return json_fail(r, "expected a value (an object, array, string, number, true, false "
	                    "or null)");
}

/* Parse one value; on failure nothing is left to free. */
int
json_parse(const char *text, size_t len, size_t *pos, struct json *out, struct tt_err *err)
{
	struct json_reader r = {.s = text, .len = len, .pos = *pos, .err = err};

	if (json_value(&r, out, 0) != 0) {
		json_free(out);
		return -1;
	}
	*pos = r.pos;
	return 0;
}

/* Only white space left? */
bool
json_at_end(const char *text, size_t len, size_t pos)
{
	struct json_reader r = {.s = text, .len = len, .pos = pos};

	json_ws(&r);
	return r.pos >= len;
}

/* Free a value's strings, items and keys. */
void
json_free(struct json *v)
{
	for (size_t i = 0; i < v->n; i++) {
		json_free(&v->items[i]);
		if (v->keys != NULL)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	memset(v, 0, sizeof *v);
}

/* The first member named key. */
const struct json *
json_get(const struct json *v, const char *key)
{
	if (v == NULL || v->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (v->keys[i] != NULL && strcmp(v->keys[i], key) == 0)
			return &v->items[i];
	return NULL;
}

/* A string member. */
const char *
json_get_str(const struct json *v, const char *key)
{
	const struct json *m = json_get(v, key);

	return m != NULL && m->type == JSON_STRING ? m->string : NULL;
}

/* A boolean member that is true. */
bool
json_get_true(const struct json *v, const char *key)
{
	const struct json *m = json_get(v, key);

	return m != NULL && m->type == JSON_BOOL && m->boolean;
}

/* A number member. */
bool
json_get_num(const struct json *v, const char *key, double *out)
{
	const struct json *m = json_get(v, key);

	if (m == NULL || m->type != JSON_NUMBER)
		return false;
	*out = m->number;
	return true;
}
