/* probe-btf: kernel function parameters from BTF (/sys/kernel/btf/vmlinux)
 * for kernels without DWARF: the type section is walked far enough to find
 * FUNC -> FUNC_PROTO and the types of its parameters, which are then
 * mapped to the x86-64 argument registers at the function's entry. The
 * file is read defensively: every offset and count is checked. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/probe-args.h"
#include "tracetop/symtab.h"

#define BTF_DEFAULT_PATH "/sys/kernel/btf/vmlinux"
#define BTF_MAGIC 0xeB9F
#define BTF_MAX_SIZE (256u << 20)
#define BTF_DEPTH 16 /* type chains followed */

/* BTF kinds. */
enum {
	BTF_INT = 1,
	BTF_PTR,
	BTF_ARRAY,
	BTF_STRUCT,
	BTF_UNION,
	BTF_ENUM,
	BTF_FWD,
	BTF_TYPEDEF,
	BTF_VOLATILE,
	BTF_CONST,
	BTF_RESTRICT,
	BTF_FUNC,
	BTF_FUNC_PROTO,
	BTF_VAR,
	BTF_DATASEC,
	BTF_FLOAT,
	BTF_DECL_TAG,
	BTF_TYPE_TAG,
	BTF_ENUM64,
};

/* The header and one type record, as the kernel lays them out. */
struct btf_header {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
};

struct btf_type {
	uint32_t name_off, info, size_type;
};

/* A loaded BTF file: its types by id and its strings. */
struct btf {
	char *buf;
	size_t len;
	const char *types, *strs;
	uint32_t types_len, strs_len;
	uint32_t *off; /* byte offset of type id i in types (id 0: void) */
	uint32_t n;    /* ids 0 .. n-1 */
};

static char btf_path[4096] = BTF_DEFAULT_PATH;

/* Use another BTF file (tests). */
void
probe_btf_set_path(const char *path)
{
	snprintf(btf_path, sizeof btf_path, "%s", path ? path : BTF_DEFAULT_PATH);
}

/* Kind and member count of a type's info word. */
static unsigned
btf_kind(uint32_t info)
{
	return (info >> 24) & 0x1f;
}

static unsigned
btf_vlen(uint32_t info)
{
	return info & 0xffff;
}

/* Bytes that follow a type record of this info, or -1 for an unknown kind. */
static long
btf_extra(uint32_t info)
{
	unsigned v = btf_vlen(info);

	switch (btf_kind(info)) {
	case BTF_INT:
	case BTF_VAR:
	case BTF_DECL_TAG:
		return 4;
	case BTF_ARRAY:
		return 12;
	case BTF_STRUCT:
	case BTF_UNION:
	case BTF_DATASEC:
	case BTF_ENUM64:
		return 12L * v;
	case BTF_ENUM:
	case BTF_FUNC_PROTO:
		return 8L * v;
	case BTF_PTR:
	case BTF_FWD:
	case BTF_TYPEDEF:
	case BTF_VOLATILE:
	case BTF_CONST:
	case BTF_RESTRICT:
	case BTF_FUNC:
	case BTF_FLOAT:
	case BTF_TYPE_TAG:
		return 0;
	}
	return -1;
}

/* Read a 32-bit word at off of the type section. */
static uint32_t
btf_u32(const struct btf *b, size_t off)
{
	uint32_t v;

	memcpy(&v, b->types + off, sizeof v);
	return v;
}

/* Type id's record, or false past the end. */
static bool
btf_get(const struct btf *b, uint32_t id, struct btf_type *t)
{
	if (id == 0 || id >= b->n)
		return false;
	memcpy(t, b->types + b->off[id], sizeof *t);
	return true;
}

/* The string at off, or "" when out of range or unterminated. */
static const char *
btf_str(const struct btf *b, uint32_t off)
{
	if (off >= b->strs_len || memchr(b->strs + off, '\0', b->strs_len - off) == NULL)
		return "";
	return b->strs + off;
}

/* Index the type records of a loaded buffer. */
static int
btf_index(struct btf *b, struct tt_err *err)
{
	struct btf_header h;
	size_t pos = 0, cap = 1024;
	long extra;

	if (b->len < sizeof h)
		return err_set(err, "%s: too short for BTF", btf_path);
	memcpy(&h, b->buf, sizeof h);
	if (h.magic != BTF_MAGIC || h.hdr_len < sizeof h || h.hdr_len > b->len ||
	    h.type_off > b->len - h.hdr_len || h.type_len > b->len - h.hdr_len - h.type_off ||
	    h.str_off > b->len - h.hdr_len || h.str_len > b->len - h.hdr_len - h.str_off)
		return err_set(err, "%s: not BTF, or corrupt", btf_path);
	b->types = b->buf + h.hdr_len + h.type_off;
	b->types_len = h.type_len;
	b->strs = b->buf + h.hdr_len + h.str_off;
	b->strs_len = h.str_len;
	b->off = xmalloc(cap * sizeof *b->off);
	b->n = 1;
	while (pos + sizeof(struct btf_type) <= b->types_len) {
		extra = btf_extra(btf_u32(b, pos + 4));
		if (extra < 0 || (size_t)extra > b->types_len - pos - sizeof(struct btf_type))
			return err_set(err, "%s: corrupt type %u", btf_path, b->n);
		if (b->n == cap)
			b->off = xrealloc(b->off, (cap *= 2) * sizeof *b->off);
		b->off[b->n++] = (uint32_t)pos;
		pos += sizeof(struct btf_type) + (size_t)extra;
	}
	return 0;
}

/* Load and index the BTF file. */
static int
btf_load(struct btf *b, struct tt_err *err)
{
	int fd = open(btf_path, O_RDONLY | O_CLOEXEC);

	memset(b, 0, sizeof *b);
	if (fd < 0)
		return err_set(err,
		               "no BTF for the kernel (%s: %s): parameter names of kernel "
		               "functions need CONFIG_DEBUG_INFO_BTF; use fetch-args (%%di, $arg1)",
		               btf_path, strerror(errno));
	if (symtab_read_fd(fd, BTF_MAX_SIZE, &b->buf, &b->len) != 0) {
		close(fd);
		return err_set(err, "cannot read %s: %s", btf_path, strerror(errno));
	}
	close(fd);
	return btf_index(b, err);
}

/* Follow typedefs and qualifiers to the type they name. */
static uint32_t
btf_peel(const struct btf *b, uint32_t id, struct btf_type *t)
{
	for (int i = 0; i < BTF_DEPTH && btf_get(b, id, t); i++) {
		unsigned k = btf_kind(t->info);

		if (k != BTF_TYPEDEF && k != BTF_VOLATILE && k != BTF_CONST && k != BTF_RESTRICT &&
		    k != BTF_TYPE_TAG)
			return id;
		id = t->size_type;
	}
	return 0;
}

/* The C name of type id into buf. */
static void
btf_type_name(const struct btf *b, uint32_t id, char *buf, size_t len, int depth)
{
	struct btf_type t;
	char inner[128];
	const char *name;

	if (!btf_get(b, id, &t) || depth > BTF_DEPTH) {
		snprintf(buf, len, "%s", id == 0 ? "void" : "?");
		return;
	}
	name = btf_str(b, t.name_off);
	switch (btf_kind(t.info)) {
	case BTF_PTR:
	case BTF_CONST:
	case BTF_VOLATILE:
	case BTF_RESTRICT:
	case BTF_TYPE_TAG:
		btf_type_name(b, t.size_type, inner, sizeof inner, depth + 1);
		if (btf_kind(t.info) == BTF_PTR)
			snprintf(buf, len, "%s *", inner);
		else if (btf_kind(t.info) == BTF_CONST || btf_kind(t.info) == BTF_VOLATILE)
			snprintf(buf, len, "%s %s",
			         btf_kind(t.info) == BTF_CONST ? "const" : "volatile", inner);
		else
			snprintf(buf, len, "%s", inner);
		break;
	case BTF_STRUCT:
	case BTF_UNION:
	case BTF_ENUM:
	case BTF_ENUM64:
		snprintf(buf, len, "%s %s",
		         btf_kind(t.info) == BTF_STRUCT  ? "struct"
		         : btf_kind(t.info) == BTF_UNION ? "union"
		                                         : "enum",
		         *name ? name : "(anonymous)");
		break;
	default:
		snprintf(buf, len, "%s", *name ? name : "?");
	}
}

/* Whether type id is a one-byte character. */
static bool
btf_is_char(const struct btf *b, uint32_t id)
{
	struct btf_type t;

	id = btf_peel(b, id, &t);
	return id != 0 && btf_kind(t.info) == BTF_INT && t.size_type == 1;
}

/* The typed fetch-arg of a value of type id held in value; NULL with *why;
 * *byval when it is an aggregate passed by value. */
static char *
btf_typed(const struct btf *b, uint32_t id, const char *value, bool *byval, const char **why)
{
	struct btf_type t;
	uint32_t enc;
	unsigned k;

	*byval = false;
	if ((id = btf_peel(b, id, &t)) == 0) {
		*why = "of an unknown type";
		return NULL;
	}
	k = btf_kind(t.info);
	if (k == BTF_PTR)
		return btf_is_char(b, t.size_type) ? xasprintf("+0(%s):string", value)
		                                   : xasprintf("%s:x64", value);
	if ((k == BTF_INT || k == BTF_ENUM || k == BTF_ENUM64) &&
	    (t.size_type == 1 || t.size_type == 2 || t.size_type == 4 || t.size_type == 8)) {
		enc = k == BTF_INT ? btf_u32(b, b->off[id] + sizeof t) >> 24 : 0;
		return xasprintf("%s:%c%u", value, (enc & 1) ? 's' : 'u', t.size_type * 8);
	}
	*byval = k == BTF_STRUCT || k == BTF_UNION;
	*why = *byval           ? "a struct passed by value (not supported)"
	       : k == BTF_FLOAT ? "a floating-point value (in an SSE register)"
	                        : "of a type probes cannot show";
	return NULL;
}

/* The FUNC called name, or 0. */
static uint32_t
btf_find_func(const struct btf *b, const char *name)
{
	struct btf_type t;

	for (uint32_t id = 1; id < b->n; id++)
		if (btf_get(b, id, &t) && btf_kind(t.info) == BTF_FUNC &&
		    strcmp(btf_str(b, t.name_off), name) == 0)
			return id;
	return 0;
}

/* Add parameter i (name, type id) of a prototype, at its register. */
static void
btf_add_param(const struct btf *b, unsigned i, const char *name, uint32_t type, bool *lost,
              struct probe_vars *out)
{
	struct probe_var *v;
	const char *reg = probe_arg_register(i + 1), *why = NULL;
	char tname[160], value[32];
	bool byval;

	out->v = xrealloc(out->v, (out->n + 1) * sizeof *out->v);
	v = &out->v[out->n++];
	memset(v, 0, sizeof *v);
	v->name = *name ? xstrdup(name) : xasprintf("arg%u", i + 1);
	v->param = true;
	btf_type_name(b, type, tname, sizeof tname, 0);
	v->type = xstrdup(tname);
	if (reg != NULL)
		snprintf(value, sizeof value, "%%%s", reg);
	else /* the seventh on: above the return address */
		snprintf(value, sizeof value, "$stack%u", i - 5);
	if (*lost) {
		v->why = xstrdup("after a struct passed by value: its place is unknown");
		return;
	}
	if ((v->fetch = btf_typed(b, type, value, &byval, &why)) != NULL)
		v->value = xstrdup(value);
	else
		v->why = xstrdup(why);
	*lost = byval;
}

/* The parameters of kernel function func. */
int
probe_btf_params(const char *func, struct probe_vars *out, struct tt_err *err)
{
	struct btf b;
	struct btf_type fn, proto;
	uint32_t id;
	bool lost = false;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (btf_load(&b, err) != 0)
		goto out;
	if ((id = btf_find_func(&b, func)) == 0) {
		err_set(err, "no kernel function '%s' in BTF (%s)", func, btf_path);
		goto out;
	}
	if (!btf_get(&b, id, &fn) || !btf_get(&b, fn.size_type, &proto) ||
	    btf_kind(proto.info) != BTF_FUNC_PROTO) {
		err_set(err, "%s: corrupt prototype of %s", btf_path, func);
		goto out;
	}
	out->source = "BTF";
	for (unsigned i = 0; i < btf_vlen(proto.info); i++) {
		size_t at = b.off[fn.size_type] + sizeof proto + 8u * i;
		uint32_t name = btf_u32(&b, at), type = btf_u32(&b, at + 4);

		if (name == 0 && type == 0) /* ... of a variadic function */
			break;
		btf_add_param(&b, i, btf_str(&b, name), type, &lost, out);
	}
	rc = 0;
out:
	free(b.off);
	free(b.buf);
	return rc;
}
