/* probe-args: the syntax of probe arguments (fetch-args and their types,
 * names), checked here so that a mistake is named before the kernel sees
 * it, and the translation of variable names through what DWARF or BTF
 * found. No I/O. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/probe-args.h"

/* Nested dereferences followed, at most (the kernel's own limit is lower). */
#define FA_MAX_DEPTH 8
/* Longest argument name the kernel takes. */
#define NAME_MAX_LEN 63

/* The x86-64 pt_regs names the kernel knows. */
static const char *const fa_regs[] = {
    "ax",  "bx",  "cx",  "dx",  "si",  "di", "bp",    "sp", "r8", "r9",      "r10",
    "r11", "r12", "r13", "r14", "r15", "ip", "flags", "cs", "ss", "orig_ax",
};

/* The integer argument registers of the x86-64 SysV ABI, in order. */
static const char *const fa_argregs[] = {"di", "si", "dx", "cx", "r8", "r9"};

/* A fetch-arg being checked and rewritten. */
struct fa_ctx {
	const char *s; /* the next character */
	unsigned flags;
	char *out;
	size_t len, pos;
	bool deref; /* the expression ends in a memory dereference */
	bool str;   /* it is $comm or an immediate string */
	struct tt_err *err;
};

/* The argument register of parameter n (1-based), or NULL. */
const char *
probe_arg_register(unsigned n)
{
	return n >= 1 && n <= ARRAY_SIZE(fa_argregs) ? fa_argregs[n - 1] : NULL;
}

/* Append text to the rewritten fetch-arg; -1 when it does not fit. */
static int
fa_put(struct fa_ctx *c, const char *text, size_t n)
{
	if (c->pos + n >= c->len)
		return err_set(c->err, "fetch-arg too long (at most %zu characters)", c->len - 1);
	memcpy(c->out + c->pos, text, n);
	c->pos += n;
	c->out[c->pos] = '\0';
	return 0;
}

/* The length of the run of characters of s in set (a ctype test). */
static size_t
span(const char *s, int (*is)(int))
{
	size_t n = 0;

	while (s[n] != '\0' && is((unsigned char)s[n]))
		n++;
	return n;
}

/* isalnum or '_'. */
static int
is_word(int ch)
{
	return isalnum(ch) || ch == '_';
}

/* A number: decimal or 0x hex; its length (0: none). */
static size_t
number_len(const char *s)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2]))
		return 2 + span(s + 2, isxdigit);
	return span(s, isdigit);
}

/* %REG: the kernel's name, accepting %rax-style names too. */
static int
fa_register(struct fa_ctx *c)
{
	size_t n = span(c->s + 1, is_word), i;
	char name[16];
	const char *want = name;

	if (n == 0 || n >= sizeof name)
		return err_set(c->err, "expected a register after '%%' (%%di, %%si, %%ax, ...)");
	memcpy(name, c->s + 1, n);
	name[n] = '\0';
	/* rax, rdi, rsp, rip, rflags: the kernel says ax, di, sp, ip, flags */
	if (name[0] == 'r' && !isdigit((unsigned char)name[1]) && strlen(name) >= 3)
		want = name + 1;
	for (i = 0; i < ARRAY_SIZE(fa_regs); i++)
		if (strcmp(want, fa_regs[i]) == 0)
			break;
	if (i == ARRAY_SIZE(fa_regs))
		return err_set(
		    c->err,
		    "unknown register '%%%s' (x86-64: %%ax %%bx %%cx %%dx %%si %%di %%bp "
		    "%%sp %%r8-%%r15 %%ip %%flags)",
		    name);
	c->s += 1 + n;
	return fa_put(c, "%", 1) != 0 ? -1 : fa_put(c, fa_regs[i], strlen(fa_regs[i]));
}

/* @ADDR, @+FILEOFFSET (user), @SYMBOL[+-OFF] (kernel). */
static int
fa_memory(struct fa_ctx *c)
{
	const char *p = c->s + 1;
	size_t n;

	c->deref = true;
	if ((n = number_len(p)) > 0) {
		/* an absolute address */
	} else if (*p == '+' || *p == '-') {
		if (c->flags & PROBE_ARGF_KERNEL)
			return err_set(c->err, "'@%c' file offsets are for user probes only", *p);
		if ((n = number_len(p + 1)) == 0)
			return err_set(c->err, "expected a file offset after '@%c'", *p);
		n++;
	} else {
		if (!(c->flags & PROBE_ARGF_KERNEL))
			return err_set(c->err, "'@SYMBOL' is for kernel probes only; a user probe "
			                       "takes @+FILEOFFSET or @ADDRESS");
		if ((n = span(p, is_word)) == 0 || isdigit((unsigned char)*p))
			return err_set(c->err, "expected an address or a symbol after '@'");
		if ((p[n] == '+' || p[n] == '-') && number_len(p + n + 1) > 0)
			n += 1 + number_len(p + n + 1);
	}
	if (fa_put(c, c->s, 1 + n) != 0)
		return -1;
	c->s = p + n;
	return 0;
}

/* $argN: kept for the kernel (which knows it), else the argument register
 * when at a function's entry. */
static int
fa_argn(struct fa_ctx *c, const char *num, size_t n)
{
	const char *reg;
	int k;

	if (n == 0 || parse_int(num, &k) != 0)
		return err_set(c->err, "expected a number after '$arg' ($arg1, $arg2, ...)");
	if (k < 1 || k > 32)
		return err_set(c->err, "$arg%d: arguments are numbered from $arg1", k);
	if ((c->flags & PROBE_ARGF_EARLY) ||
	    ((c->flags & PROBE_ARGF_KERNEL) && !(c->flags & PROBE_ARGF_NO_ARGN)))
		return fa_put(c, c->s, 4 + n);
	if (!(c->flags & PROBE_ARGF_ENTRY))
		return err_set(c->err, "$arg%d is only known at a function's entry%s", k,
		               c->flags & PROBE_ARGF_KERNEL ? "" : " (or with debug info)");
	if ((reg = probe_arg_register((unsigned)k)) == NULL) {
		char buf[24];

		/* past the sixth, on the stack above the return address */
		snprintf(buf, sizeof buf, "$stack%d", k - 6);
		return fa_put(c, buf, strlen(buf));
	}
	return fa_put(c, "%", 1) != 0 ? -1 : fa_put(c, reg, strlen(reg));
}

/* $retval, $comm, $stack, $stackN, $argN. */
static int
fa_var(struct fa_ctx *c)
{
	const char *p = c->s + 1;
	size_t n = span(p, is_word);
	int rc;

	if (n == 6 && strncmp(p, "retval", 6) == 0) {
		if (!(c->flags & PROBE_ARGF_RETURN))
			return err_set(c->err,
			               "$retval is only there in a return probe (FUNC%%return)");
		rc = fa_put(c, c->s, 1 + n);
	} else if (n == 4 && strncmp(p, "comm", 4) == 0) {
		c->str = true;
		rc = fa_put(c, c->s, 1 + n);
	} else if (n >= 5 && strncmp(p, "stack", 5) == 0 && span(p + 5, isdigit) == n - 5) {
		rc = fa_put(c, c->s, 1 + n);
	} else if (n >= 3 && strncmp(p, "arg", 3) == 0 && span(p + 3, isdigit) == n - 3) {
		char num[8];

		if (n - 3 == 0 || n - 3 >= sizeof num)
			return err_set(c->err,
			               "expected a number after '$arg' ($arg1, $arg2, ...)");
		memcpy(num, p + 3, n - 3);
		num[n - 3] = '\0';
		rc = fa_argn(c, num, n - 3);
	} else {
		return err_set(c->err,
		               "unknown variable '$%.*s' ($retval, $argN, $stackN, $stack, "
		               "$comm)",
		               (int)(n < 32 ? n : 32), p);
	}
	c->s = p + n;
	return rc;
}

static int fa_expr(struct fa_ctx *c, int depth);

/* +|-[u]OFF(FETCHARG): memory at FETCHARG + OFF. */
static int
fa_deref(struct fa_ctx *c, int depth)
{
	const char *p = c->s + 1;
	size_t n;

	if (depth >= FA_MAX_DEPTH)
		return err_set(c->err, "dereferences nested too deep (at most %d)", FA_MAX_DEPTH);
	if (*p == 'u')
		p++;
	if ((n = number_len(p)) == 0)
		return err_set(c->err, "expected an offset after '%c' (+8(%%sp), -16(%%bp))",
		               *c->s);
	if (p[n] != '(')
		return err_set(c->err, "expected '(' after the offset in '%.*s'",
		               (int)(p + n - c->s), c->s);
	if (fa_put(c, c->s, (size_t)(p + n + 1 - c->s)) != 0)
		return -1;
	c->s = p + n + 1;
	if (fa_expr(c, depth + 1) != 0)
		return -1;
	if (*c->s != ')')
		return err_set(c->err, "expected ')' to close the dereference");
	c->s++;
	c->deref = true;
	c->str = false;
	return fa_put(c, ")", 1);
}

/* \IMM or \"STRING": an immediate value. */
static int
fa_immediate(struct fa_ctx *c)
{
	const char *p = c->s + 1;
	size_t n;

	if (*p == '"') {
		const char *end = strchr(p + 1, '"');

		if (end == NULL)
			return err_set(c->err, "unterminated immediate string");
		n = (size_t)(end + 1 - p);
		c->str = true;
	} else {
		n = (*p == '-') + number_len(p + (*p == '-'));
		if (n == (size_t)(*p == '-'))
			return err_set(c->err, "expected a number or a \"string\" after '\\'");
	}
	if (fa_put(c, c->s, 1 + n) != 0)
		return -1;
	c->s = p + n;
	return 0;
}

/* One fetch-arg expression (no type). */
static int
fa_expr(struct fa_ctx *c, int depth)
{
	c->deref = c->str = false;
	switch (*c->s) {
	case '%':
		return fa_register(c);
	case '@':
		return fa_memory(c);
	case '$':
		return fa_var(c);
	case '+':
	case '-':
		return fa_deref(c, depth);
	case '\\':
		return fa_immediate(c);
	case '\0':
		return err_set(c->err, "empty fetch-arg");
	}
	return err_set(c->err,
	               "'%c' cannot start a fetch-arg (%%REG, +OFF(%%REG), @ADDR, $retval, $argN, "
	               "$stackN, $comm, \\IMM)",
	               isprint((unsigned char)*c->s) ? *c->s : '?');
}

/* Whether s is a whole number in [lo, hi]. */
static bool
num_in(const char *s, size_t n, int lo, int hi)
{
	char buf[12];
	int v;

	if (n == 0 || n >= sizeof buf || span(s, isdigit) < n)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return parse_int(buf, &v) == 0 && v >= lo && v <= hi;
}

/* Check a type. */
bool
probe_type_ok(const char *type)
{
	static const char *const whole[] = {"string", "ustring", "symstr", "%pd", "%pD"};
	const char *br = strchr(type, '['), *at, *sl;
	size_t n = br ? (size_t)(br - type) : strlen(type);

	for (size_t i = 0; i < ARRAY_SIZE(whole); i++)
		if (strcmp(type, whole[i]) == 0)
			return true;
	if (br != NULL && (strlen(br) < 3 || br[strlen(br) - 1] != ']' ||
	                   !num_in(br + 1, strlen(br) - 2, 1, 2048)))
		return false;
	if ((n == 4 && strncmp(type, "char", 4) == 0) ||
	    (n == 6 && strncmp(type, "symbol", 6) == 0))
		return true;
	if (n >= 2 && strchr("usx", type[0]) && num_in(type + 1, n - 1, 8, 64)) {
		int bits = atoi(type + 1);

		return bits == 8 || bits == 16 || bits == 32 || bits == 64;
	}
	/* b<width>@<offset>/<container size> */
	if (type[0] == 'b' && (at = memchr(type, '@', n)) != NULL &&
	    (sl = memchr(at, '/', (size_t)(type + n - at))) != NULL)
		return num_in(type + 1, (size_t)(at - type - 1), 1, 64) &&
		       num_in(at + 1, (size_t)(sl - at - 1), 0, 63) &&
		       num_in(sl + 1, (size_t)(type + n - sl - 1), 8, 64);
	return false;
}

/* Check and rewrite one fetch-arg with its type. */
int
probe_fetcharg_check(const char *s, unsigned flags, char *out, size_t len, struct tt_err *err)
{
	struct fa_ctx c = {.s = s, .flags = flags, .out = out, .len = len, .err = err};
	const char *type;

	if (len == 0)
		return err_set(err, "no room for the fetch-arg");
	out[0] = '\0';
	if (fa_expr(&c, 0) != 0)
		return -1;
	if (*c.s == '\0')
		return 0;
	if (*c.s != ':')
		return err_set(
		    err, "unexpected '%.20s' after the fetch-arg (a type goes after ':')", c.s);
	type = c.s + 1;
	if (!probe_type_ok(type))
		return err_set(err,
		               "unknown type ':%.32s' (u8-u64, s8-s64, x8-x64, string, ustring, "
		               "char, symbol, b<W>@<O>/<S>, TYPE[N])",
		               type);
	if ((strcmp(type, "string") == 0 || strcmp(type, "ustring") == 0) && !c.deref && !c.str)
		return err_set(err,
		               "':%s' needs memory to read: write +0(%.*s):%s for the string a "
		               "register points to",
		               type, (int)(c.s - s), s, type);
	return fa_put(&c, c.s, strlen(c.s));
}

/* Whether s is an identifier the kernel takes as a field name. */
static bool
name_ok(const char *s, size_t n)
{
	if (n == 0 || n > NAME_MAX_LEN || isdigit((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_word((unsigned char)s[i]))
			return false;
	return true;
}

/* A name for an unnamed fetch-arg: the register, the variable, or argPOS. */
static char *
derived_name(const char *fetch, unsigned pos)
{
	size_t n;

	if ((fetch[0] == '%' || fetch[0] == '$') && (n = span(fetch + 1, is_word)) > 0 &&
	    (fetch[1 + n] == '\0' || fetch[1 + n] == ':'))
		return xstrndup(fetch + 1, n);
	return xasprintf("arg%u", pos);
}

/* NAME or NAME:TYPE: a variable to translate. */
static int
parse_var(const char *s, size_t n, struct probe_arg *out, struct tt_err *err)
{
	const char *colon = memchr(s, ':', n);
	size_t vn = colon ? (size_t)(colon - s) : n;

	if (!name_ok(s, vn))
		return err_set(err,
		               "bad argument '%.*s': expected NAME, NAME=FETCHARG or a fetch-arg "
		               "(%%REG, +OFF(%%REG), $retval, ...)",
		               (int)(n < 64 ? n : 64), s);
	out->var = xstrndup(s, vn);
	if (colon != NULL) {
		out->type = xstrndup(colon + 1, n - vn - 1);
		if (!probe_type_ok(out->type))
			return err_set(err, "unknown type ':%.32s' for '%s'", out->type, out->var);
	}
	return 0;
}

/* Parse one ARG. */
int
probe_arg_parse(const char *s, unsigned flags, unsigned pos, struct probe_arg *out,
                struct tt_err *err)
{
	const char *eq = strchr(s, '=');
	const char *val = eq ? eq + 1 : s;
	char buf[PROBE_ARG_MAX];

	memset(out, 0, sizeof *out);
	if (eq != NULL) {
		if (!name_ok(s, (size_t)(eq - s)))
			return err_set(
			    err, "bad argument name '%.*s' (letters, digits and _, at most %d)",
			    (int)(eq - s < 64 ? eq - s : 64), s, NAME_MAX_LEN);
		out->name = xstrndup(s, (size_t)(eq - s));
		out->named = true;
		if (strncmp(out->name, "common_", 7) == 0)
			return err_set(err,
			               "argument name '%s': common_ names belong to the kernel",
			               out->name);
	}
	if (*val == '\0')
		return err_set(err, "argument '%s' has nothing after '='", s);
	if (isalpha((unsigned char)*val) || *val == '_') {
		if (parse_var(val, strlen(val), out, err) != 0)
			return -1;
		if (out->name == NULL)
			out->name = xstrdup(out->var);
		return 0;
	}
	if (probe_fetcharg_check(val, flags, buf, sizeof buf, err) != 0)
		return -1;
	out->fetch = xstrdup(buf);
	if (out->name == NULL)
		out->name = derived_name(buf, pos);
	return 0;
}

/* Free one argument's strings. */
void
probe_arg_free(struct probe_arg *a)
{
	free(a->name);
	free(a->fetch);
	free(a->var);
	free(a->type);
	memset(a, 0, sizeof *a);
}

/* Whether name is taken by an argument other than args[self]. */
static bool
name_taken(const struct probe_arg *args, size_t n, size_t self, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (i != self && strcmp(args[i].name, name) == 0)
			return true;
	return false;
}

/* Make the names distinct. */
int
probe_args_unique(struct probe_arg *args, size_t n, struct tt_err *err)
{
	for (size_t i = 0; i < n; i++) {
		if (!name_taken(args, i, i, args[i].name))
			continue;
		if (args[i].named) {
			for (size_t j = 0; j < i; j++)
				if (args[j].named && strcmp(args[j].name, args[i].name) == 0)
					return err_set(err, "two arguments are called '%s'",
					               args[i].name);
		}
		for (unsigned k = 2;; k++) {
			char *cand = xasprintf("%s_%u", args[i].name, k);

			if (!name_taken(args, n, i, cand)) {
				free(args[i].name);
				args[i].name = cand;
				break;
			}
			free(cand);
		}
	}
	return 0;
}

/* Free what probe_dwarf_vars or probe_btf_params filled. */
void
probe_vars_free(struct probe_vars *vs)
{
	for (size_t i = 0; i < vs->n; i++) {
		free(vs->v[i].name);
		free(vs->v[i].type);
		free(vs->v[i].fetch);
		free(vs->v[i].value);
		free(vs->v[i].why);
	}
	free(vs->v);
	free(vs->where);
	memset(vs, 0, sizeof *vs);
}

/* The variable called name in vars, or NULL. */
static const struct probe_var *
var_find(const struct probe_vars *vars, const char *name)
{
	for (size_t i = 0; vars != NULL && i < vars->n; i++)
		if (strcmp(vars->v[i].name, name) == 0)
			return &vars->v[i];
	return NULL;
}

/* The k-th parameter (1-based) in vars, or NULL. */
static const struct probe_var *
param_find(const struct probe_vars *vars, unsigned k)
{
	for (size_t i = 0; vars != NULL && i < vars->n; i++)
		if (vars->v[i].param && --k == 0)
			return &vars->v[i];
	return NULL;
}

/* "a, b, c" of the names in vars (at most len bytes). */
static void
var_names(const struct probe_vars *vars, char *buf, size_t len)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (size_t i = 0; vars != NULL && i < vars->n && pos + 1 < len; i++)
		pos +=
		    (size_t)snprintf(buf + pos, len - pos, "%s%s", i ? ", " : "", vars->v[i].name);
	if (pos == 0)
		snprintf(buf, len, "none");
}

/* v's fetch-arg with the user's type (NULL: the one debug info gives). */
static char *
retype(const struct probe_var *v, const char *type)
{
	bool str = type != NULL && (strcmp(type, "string") == 0 || strcmp(type, "ustring") == 0);

	if (type == NULL)
		return xstrdup(v->fetch);
	if (str && strstr(v->fetch, ":string") != NULL)
		return xasprintf("%.*s:%s", (int)(strrchr(v->fetch, ':') - v->fetch), v->fetch,
		                 type);
	if (str) /* the string the value points to */
		return xasprintf("+0(%s):%s", v->value, type);
	return xasprintf("%s:%s", v->value, type);
}

/* Give one variable argument its fetch-arg. */
static int
resolve_var(struct probe_arg *a, const struct probe_vars *vars, struct tt_err *err)
{
	const struct probe_var *v = var_find(vars, a->var);
	char names[200];

	if (vars == NULL)
		return err_set(err,
		               "'%s': no debug info to find variables in; use a fetch-arg "
		               "(%%di, +8(%%sp):u32, $argN)",
		               a->var);
	if (v == NULL) {
		var_names(vars, names, sizeof names);
		return err_set(err, "no parameter or variable '%s' here (%s has: %s)", a->var,
		               vars->source, names);
	}
	if (v->fetch == NULL)
		return err_set(err, "'%s' cannot be read here: %s", a->var, v->why);
	a->fetch = retype(v, a->type);
	return 0;
}

/* Finish the arguments once the address is final. */
int
probe_args_resolve(struct probe_arg *args, size_t n, const struct probe_vars *vars, unsigned flags,
                   struct tt_err *err)
{
	char buf[PROBE_ARG_MAX];
	const struct probe_var *v;
	unsigned k;
	int used;

	for (size_t i = 0; i < n; i++) {
		struct probe_arg *a = &args[i];

		if (a->var != NULL && a->fetch == NULL && resolve_var(a, vars, err) != 0)
			return -1;
		/* a user probe's whole $argN: the parameter where debug info says */
		if (!(flags & PROBE_ARGF_KERNEL) && vars != NULL &&
		    sscanf(a->fetch, "$arg%u%n", &k, &used) == 1 &&
		    (a->fetch[used] == '\0' || a->fetch[used] == ':') &&
		    (v = param_find(vars, k)) != NULL && v->fetch != NULL) {
			char *f = retype(v, a->fetch[used] ? a->fetch + used + 1 : NULL);

			free(a->fetch);
			a->fetch = f;
		}
		if (probe_fetcharg_check(a->fetch, flags, buf, sizeof buf, err) != 0) {
			char msg[sizeof err->msg];

			snprintf(msg, sizeof msg, "%s", err->msg);
			return err_set(err, "argument '%s' (%s): %s", a->name, a->fetch, msg);
		}
		free(a->fetch);
		a->fetch = xstrdup(buf);
	}
	return probe_args_unique(args, n, err);
}
