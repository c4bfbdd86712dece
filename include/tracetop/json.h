/* json: a small reader of JSON text into a tree, for tracetop's own
 * reports read back (a diff's baseline). Bounded depth, every error a
 * message with the line and column: the text may be anything a user
 * points --baseline at. */
#ifndef TRACETOP_JSON_H
#define TRACETOP_JSON_H

#include <stdbool.h>
#include <stddef.h>

struct tt_err;

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

/* A value: an array's items or an object's members (keys[i] names
 * items[i]) in the order written. */
struct json {
	enum json_type type;
	bool boolean;
	double number;
	char *string; /* JSON_STRING, unescaped, NUL-terminated (a \u0000 ends it) */
	struct json *items;
	char **keys;
	size_t n;
};

/* Nesting deeper than this is refused. */
#define JSON_MAX_DEPTH 64

/* Parse one value from text[*pos..len) (leading white space skipped) into
 * *out and move *pos past it. 0, or -1 with err saying what and where
 * (out then holds nothing to free). */
int json_parse(const char *text, size_t len, size_t *pos, struct json *out, struct tt_err *err);

/* Whether only white space is left from pos. */
bool json_at_end(const char *text, size_t len, size_t pos);

/* Free what a value holds. */
void json_free(struct json *v);

/* The member key of object v (the first), or NULL (also when v is not an
 * object). */
const struct json *json_get(const struct json *v, const char *key);

/* Member key as a string, or NULL when absent or not a string. */
const char *json_get_str(const struct json *v, const char *key);

/* Member key is true (false when absent or not a boolean). */
bool json_get_true(const struct json *v, const char *key);

/* Member key as a number into *out: false when absent or not a number. */
bool json_get_num(const struct json *v, const char *key, double *out);

#endif
