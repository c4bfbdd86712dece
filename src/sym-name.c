/* sym-name: full, compact and typed names of symbols. Demangled names
 * come from ELF files anyone may write, so the shaping below is bounded:
 * every bracket search stops at the end of the string, recursion stops at
 * SHAPE_DEPTH, output never passes its buffer. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/sym-demangle.h"
#include "tracetop/sym-name.h"
#include "tracetop/util.h"

/* Nesting of "<Type as Trait>" paths and "{lambda...}" shaped inside. */
#define SHAPE_DEPTH 16

/* What becomes of one kind of bracketed list. */
enum part {
	PART_KEEP,  /* as it is */
	PART_ELIDE, /* "<...>", "(...)": empty lists stay "<>", "()" */
	PART_DROP,  /* gone */
};

/* How to shape a demangled name. */
struct shape {
	enum part targs;  /* template arguments */
	enum part params; /* the function's parameter list */
	enum part inner;  /* other parameter lists: enclosing functions', lambdas' */
	bool drop_ret;    /* drop a leading return type */
	bool drop_tail;   /* stop at the end of the function's parameter list */
	bool drop_abi;    /* drop "[abi:cxx11]" tags */
	const char *ell;  /* "..." or "…" */
};

/* The qualified name, as perf script prints it: no return type, no
 * parameter list and nothing after it ("ns::Box<int>::get"). */
#define QUALIFIED                                                                                  \
	{                                                                                          \
		.params = PART_DROP, .drop_ret = true, .drop_tail = true                           \
	}

/* A bounded output buffer (cap > 0 bytes, NUL included). */
struct out {
	char *buf;
	size_t len, cap;
	bool full; /* something did not fit */
};

/* Append n bytes. */
static void
put(struct out *o, const char *s, size_t n)
{
	if (n > o->cap - 1 - o->len) {
		n = o->cap - 1 - o->len;
		o->full = true;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

/* Append a NUL-terminated string. */
static void
puts_out(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* A character of a C++ or Rust identifier. */
static bool
ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$';
}

/* Whether s[i..n) starts with word, not in the middle of an identifier. */
static bool
word_at(const char *s, size_t i, size_t n, const char *word)
{
	size_t k = strlen(word);

	return n - i >= k && memcmp(s + i, word, k) == 0 && (i == 0 || !ident_char(s[i - 1])) &&
	       (i + k == n || !ident_char(s[i + k]));
}

/* The index of the bracket closing the one at s[i], or n when there is
 * none. '(' '[' '{' count only those three kinds ('<' and '>' inside are
 * operators or templates, e.g. "decltype(a->b)"); '<' counts '<' and '>'
 * and skips the other kinds whole (cp-demangle puts a '>' operator in a
 * template argument inside parentheses). */
static size_t
close_of(const char *s, size_t i, size_t n)
{
	size_t depth = 0, j;

	for (j = i; j < n; j++) {
		char c = s[j];

		if (s[i] == '<' && (c == '(' || c == '[' || c == '{')) {
			j = close_of(s, j, n);
			continue;
		}
		if (s[i] == '<' && word_at(s, j, n, "operator")) {
			j += 7; /* "operator<" and the like are no brackets */
			while (j + 1 < n && strchr("<>-=", s[j + 1]) != NULL)
				j++;
			continue;
		}
		if (s[i] == '<' ? c == '<' : (c == '(' || c == '[' || c == '{'))
			depth++;
		else if (s[i] == '<' ? c == '>' : (c == ')' || c == ']' || c == '}'))
			if (--depth == 0)
				return j;
	}
	return n;
}

/* Operator tokens after "operator", longest first. */
static const char *const op_tokens[] = {
    "<=>", "->*", "<<=", ">>=", "()", "[]", "->", "<<", ">>", "<=", ">=", "==", "!=",
    "&&",  "||",  "++",  "--",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<",
    ">",   "+",   "-",   "*",   "/",  "%",  "&",  "|",  "^",  "~",  "!",  "=",  ",",
};

/* The end of the operator name starting at s[i] ("operator" there):
 * "operator<<", "operator new[]", "operator\"\" _km", or a conversion
 * "operator unsigned int" up to its parameter list. *targs tells whether
 * template arguments may follow ("operator< <int>"). */
static size_t
operator_end(const char *s, size_t i, size_t n, bool *targs)
{
	size_t j = i + 8, k;

	*targs = true;
	for (k = 0; k < ARRAY_SIZE(op_tokens); k++)
		if (n - j >= strlen(op_tokens[k]) &&
		    memcmp(s + j, op_tokens[k], strlen(op_tokens[k])) == 0) {
			j += strlen(op_tokens[k]);
			return j + 1 < n && s[j] == ' ' && s[j + 1] == '<' ? j + 1 : j;
		}
	if (n - j >= 2 && s[j] == '"' && s[j + 1] == '"') { /* operator"" _suffix */
		for (j += 2; j < n && (s[j] == ' ' || ident_char(s[j])); j++)
			;
		return j;
	}
	if (j >= n || s[j] != ' ')
		return j;
	*targs = false;
	if (word_at(s, j + 1, n, "new") || word_at(s, j + 1, n, "delete") ||
	    word_at(s, j + 1, n, "co_await")) {
		for (j++; j < n && ident_char(s[j]); j++)
			;
		return n - j >= 2 && s[j] == '[' && s[j + 1] == ']' ? j + 2 : j;
	}
	/* a conversion: its type runs to the parameter list */
	while (j < n && s[j] != '(')
		j = s[j] == '<' ? close_of(s, j, n) + 1 : j + 1;
	return j < n ? j : n;
}

/* Whether a '<' after c opens arguments (of a template, a Rust generic
 * "::<"), not a Rust "<Type as Trait>" path. */
static bool
args_after(char c)
{
	return ident_char(c) || c == ':' || c == '>';
}

/* Whether the top level of s (before the first bracket) says what the
 * name is about ("vtable for X", "non-virtual thunk to X::f()"): no
 * return type to drop there. */
static bool
special_name(const char *s, size_t n)
{
	size_t end = strcspn(s, "(<{[");
	char buf[256];

	if (end > n)
		end = n;
	if (end >= sizeof buf)
		end = sizeof buf - 1;
	memcpy(buf, s, end);
	buf[end] = '\0';
	return strstr(buf, " for ") != NULL || strstr(buf, " to ") != NULL;
}

static void shape_run(const char *s, size_t n, const struct shape *sh, bool top, int depth,
                      struct out *o);

/* Put a bracketed list s[i..j] (j == n: unclosed) shaped by mode. */
static void
shape_list(const char *s, size_t i, size_t j, size_t n, enum part mode, const struct shape *sh,
           struct out *o)
{
	char open[2] = {s[i], '\0'}, close[2] = {s[i] == '<' ? '>' : ')', '\0'};

	if (mode == PART_KEEP) {
		put(o, s + i, (j < n ? j + 1 : n) - i);
	} else if (mode == PART_ELIDE) {
		puts_out(o, open);
		if (j > i + 1)
			puts_out(o, sh->ell);
		puts_out(o, close);
	}
}

/* Put a bracketed group s[i..j] with its inside shaped (a Rust path, a
 * lambda). */
static void
shape_group(const char *s, size_t i, size_t j, size_t n, const struct shape *sh, int depth,
            struct out *o)
{
	put(o, s + i, 1);
	shape_run(s + i + 1, (j < n ? j : n) - i - 1, sh, false, depth + 1, o);
	if (j < n)
		put(o, s + j, 1);
}

/* Shape s[0..n) into o; top: the whole name (return type, parameters). */
static void
shape_run(const char *s, size_t n, const struct shape *sh, bool top, int depth, struct out *o)
{
	size_t i = 0, j, start = o->len;
	bool targs_next = false, params_seen = false;
	bool drop_ret = top && sh->drop_ret && !special_name(s, n);

	if (depth > SHAPE_DEPTH) {
		put(o, s, n);
		return;
	}
	while (i < n) {
		char c = s[i];
		bool targs = targs_next;

		targs_next = false;
		if (word_at(s, i, n, "operator")) {
			j = operator_end(s, i, n, &targs_next);
			put(o, s + i, j - i);
			i = j;
		} else if (c == '<') {
			j = close_of(s, i, n);
			if (targs || (i > 0 && args_after(s[i - 1])))
				shape_list(s, i, j, n, sh->targs, sh, o);
			else
				shape_group(s, i, j, n, sh, depth, o);
			i = j < n ? j + 1 : n;
		} else if (c == '(' && n - i >= 21 &&
		           memcmp(s + i, "(anonymous namespace)", 21) == 0) {
			put(o, s + i, 21);
			i += 21;
		} else if (c == '(') {
			j = close_of(s, i, n);
			/* "f(int)::{lambda()#1}": an enclosing function's list */
			bool scope = j + 2 < n && s[j + 1] == ':' && s[j + 2] == ':';

			shape_list(s, i, j, n, top && !scope ? sh->params : sh->inner, sh, o);
			i = j < n ? j + 1 : n;
			if (top && !scope) {
				params_seen = true;
				if (sh->params == PART_DROP && sh->drop_tail)
					return;
			}
		} else if (c == '{') {
			j = close_of(s, i, n);
			shape_group(s, i, j, n, sh, depth, o);
			i = j < n ? j + 1 : n;
		} else if (c == '[') {
			j = close_of(s, i, n);
			if (!(sh->drop_abi && n - i >= 5 && memcmp(s + i, "[abi:", 5) == 0))
				put(o, s + i, (j < n ? j + 1 : n) - i);
			i = j < n ? j + 1 : n;
		} else if (c == ' ' && drop_ret && !params_seen && i + 1 < n && s[i + 1] != '[') {
			o->len = start; /* what came before was the return type */
			o->buf[o->len] = '\0';
			i++;
		} else {
			put(o, s + i, 1);
			i++;
		}
	}
}

/* Shape a whole name into buf; its length, or -1 when it did not fit. */
static long
shape(const char *full, const struct shape *sh, char *buf, size_t len)
{
	struct out o = {.buf = buf, .len = 0, .cap = len};

	buf[0] = '\0';
	shape_run(full, strlen(full), sh, true, 0, &o);
	return o.full ? -1 : (long)o.len;
}

/* Terminal columns of UTF-8 text: bytes that start a character. */
static size_t
columns(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The compact form: templates elided, parameters kept if short. */
size_t
symname_compact(const char *full, bool utf8, char *buf, size_t len)
{
	struct shape sh = {.targs = PART_ELIDE,
	                   .params = PART_KEEP,
	                   .inner = PART_KEEP,
	                   .drop_ret = true,
	                   .drop_abi = true,
	                   .ell = utf8 ? "\u2026" : "..."};
	struct out o = {.buf = buf, .len = 0, .cap = len};

	if (len == 0)
		return 0;
	buf[0] = '\0';
	shape_run(full, strlen(full), &sh, true, 0, &o);
	if (o.full || columns(buf) > SYMNAME_KEEP_PARAMS) {
		sh.params = sh.inner = PART_ELIDE;
		o = (struct out){.buf = buf, .len = 0, .cap = len};
		buf[0] = '\0';
		shape_run(full, strlen(full), &sh, true, 0, &o);
	}
	return o.len;
}

/* The length without "@VERSION" / "@@VERSION". */
size_t
symname_base_len(const char *raw)
{
	const char *at = strrchr(raw, '@'), *v;

	if (at == NULL || at == raw || at[1] == '\0')
		return strlen(raw);
	v = at + 1;
	if (at[-1] == '@')
		at--;
	if (at == raw || !((*v >= 'A' && *v <= 'Z') || (*v >= 'a' && *v <= 'z') || *v == '_'))
		return strlen(raw);
	for (; *v != '\0'; v++)
		if ((!ident_char(*v) || *v == '$') && *v != '.')
			return strlen(raw);
	return (size_t)(at - raw);
}

/* The full name of a raw one, malloc'd, or NULL when it is raw itself.
 * A PLT stub ("_Z3foov@plt", made by sym-elf) keeps its "@plt", as perf
 * shows it, after the demangled name. */
char *
symname_full(const char *raw)
{
	size_t base = symname_base_len(raw);
	char *d = demangle(raw, base), *plt;

	if (strcmp(raw + base, "@plt") == 0) {
		if (d == NULL)
			return NULL;
		plt = xasprintf("%s@plt", d);
		free(d);
		return plt;
	}
	if (d == NULL && raw[base] != '\0')
		d = xstrndup(raw, base);
	return d;
}

/* Make s's full name once; a racing thread's copy loses and is freed. */
const char *
sym_name(const struct sym *s)
{
	const char **slot = (const char **)&s->dname;
	const char *d = __atomic_load_n(slot, __ATOMIC_ACQUIRE), *expected = NULL;
	char *made;

	if (d != NULL)
		return d;
	made = symname_full(s->name);
	d = made != NULL ? made : s->name;
	if (!__atomic_compare_exchange_n(slot, &expected, d, false, __ATOMIC_ACQ_REL,
	                                 __ATOMIC_ACQUIRE)) {
		free(made);
		d = expected;
	}
	return d;
}

/* Demangled: the full name is not the raw one minus its version. */
bool
sym_demangled(const struct sym *s)
{
	const char *full = sym_name(s);
	size_t base = symname_base_len(s->name);

	return full != s->name && !(strlen(full) == base && memcmp(full, s->name, base) == 0);
}

/* The name in a form, as it is (a full name cut to fit). */
size_t
sym_form_name(const struct sym *s, enum sym_form form, char *buf, size_t len)
{
	static const struct shape qualified = QUALIFIED;
	const char *full = sym_name(s);
	long k;

	if (len == 0)
		return 0;
	if (form != SYM_FULL && sym_demangled(s)) {
		if (form != SYM_QUALIFIED)
			return symname_compact(full, form == SYM_COMPACT_UTF8, buf, len);
		k = shape(full, &qualified, buf, len);
		return k >= 0 ? (size_t)k : strlen(buf);
	}
	return (size_t)snprintf(buf, len, "%s", full) < len ? strlen(buf) : len - 1;
}

/* The name in a form, escaped. */
size_t
sym_format(const struct sym *s, enum sym_form form, char *buf, size_t len)
{
	char stack[1024];
	size_t n;

	if (form == SYM_FULL || !sym_demangled(s)) {
		const char *full = sym_name(s);

		return str_escape(buf, len, full, strlen(full));
	}
	n = sym_form_name(s, form, stack, sizeof stack);
	return str_escape(buf, len, stack, n);
}

/* Equal but for blanks. */
static bool
eq_blanks(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ')
			a++;
		while (*b == ' ')
			b++;
		if (*a != *b)
			return false;
		if (*a == '\0')
			return true;
		a++, b++;
	}
}

/* Words of a demangled name that a mangled one does not spell out. */
static bool
unspelled(const char *w, size_t k)
{
	static const char *const words[] = {
	    "operator", "lambda",   "closure", "anonymous", "namespace", "unnamed", "clone", "abi",
	    "const",    "volatile", "for",     "to",        "type",      "shim",    "vtable"};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == k && memcmp(w, words[i], k) == 0)
			return true;
	return false;
}

/* A name shaped bare: no return type, template arguments or parameter
 * lists, no tags ("ns::Box::get"). */
static const struct shape bare_shape = {.targs = PART_DROP,
                                        .params = PART_DROP,
                                        .inner = PART_DROP,
                                        .drop_ret = true,
                                        .drop_tail = true,
                                        .drop_abi = true,
                                        .ell = ""};

/* The bare name of a raw or demangled one. */
size_t
symname_bare(const char *name, char *buf, size_t len)
{
	size_t base = symname_base_len(name);
	char *full = demangle(name, base);

	if (len == 0)
		return 0;
	buf[0] = '\0';
	if (full != NULL || strpbrk(name, ":<(") != NULL)
		shape(full != NULL ? full : name, &bare_shape, buf, len);
	free(full);
	return strlen(buf);
}

/* The longest identifier of want's qualified name (without templates and
 * parameters) that a mangled name spells out, into key; false when there
 * is none to go by (non-ASCII: Rust v0 spells those in Punycode). */
static bool
want_key(const char *want, char *key, size_t keylen)
{
	char buf[1024];
	const char *p, *best = NULL;
	size_t k, bestk = 0;

	for (p = want; *p != '\0'; p++)
		if ((unsigned char)*p >= 0x80)
			return false;
	if (shape(want, &bare_shape, buf, sizeof buf) < 0)
		return false;
	for (p = buf; *p != '\0'; p += k ? k : 1) {
		for (k = 0; ident_char(p[k]) && p[k] != '$'; k++)
			;
		if (k > bestk && !unspelled(p, k) && !(p[0] >= '0' && p[0] <= '9')) {
			best = p;
			bestk = k;
		}
	}
	if (best == NULL || bestk >= keylen)
		return false;
	memcpy(key, best, bestk);
	key[bestk] = '\0';
	return true;
}

/* Whether want equals full or one of its shaped forms. */
static bool
full_matches(const char *want, const char *full)
{
	static const struct shape forms[] = {
	    {.drop_ret = true}, /* all kept but the return type */
	    QUALIFIED,
	    {.targs = PART_DROP,
	     .params = PART_DROP,
	     .drop_ret = true,
	     .drop_tail = true,
	     .drop_abi = true},
	};
	size_t cap = 2 * strlen(full) + 16;
	char *buf;
	bool hit = eq_blanks(want, full);

	if (hit)
		return true;
	buf = xmalloc(cap);
	for (size_t i = 0; i < ARRAY_SIZE(forms) && !hit; i++)
		hit = shape(full, &forms[i], buf, cap) >= 0 && eq_blanks(want, buf);
	for (int utf8 = 0; utf8 < 2 && !hit; utf8++) {
		symname_compact(full, utf8, buf, cap);
		hit = eq_blanks(want, buf);
	}
	free(buf);
	return hit;
}

/* Whether want names raw: raw names first, then the demangled ones of
 * raw names that spell out want's key. */
static bool
matches(const char *want, const char *raw, const struct sym *s)
{
	size_t base = symname_base_len(raw);
	char key[256], *made = NULL;
	const char *full;
	bool hit;

	if (strcmp(want, raw) == 0 || (strlen(want) == base && memcmp(want, raw, base) == 0))
		return true;
	if (!demangle_candidate(raw, base) ||
	    (want_key(want, key, sizeof key) && !strstr(raw, key)))
		return false;
	if (s != NULL)
		full = sym_demangled(s) ? sym_name(s) : NULL;
	else
		full = made = demangle(raw, base);
	hit = full != NULL && full_matches(want, full);
	free(made);
	return hit;
}

/* Match a typed name against a raw one. */
bool
symname_matches(const char *want, const char *raw, const char *full)
{
	if (full != NULL) {
		struct sym s = {.name = raw, .dname = full};

		return matches(want, raw, &s);
	}
	return matches(want, raw, NULL);
}

/* Match a typed name against a symbol. */
bool
sym_matches(const struct sym *s, const char *want)
{
	return s->name != NULL && matches(want, s->name, s);
}
