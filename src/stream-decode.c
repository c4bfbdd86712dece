/* stream-decode: a logged event's raw payload to typed fields and to
 * trace-cmd-like text. The payload comes from the kernel but is checked
 * against its format before anything reads it: a field outside it decodes
 * as STREAM_BAD, and libtraceevent never sees a payload that does not
 * hold its fields. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stream-impl.h"

/* Read a size-byte number (1, 2, 4 or 8) at p, sign-extended if asked. */
static uint64_t
stream_number(const unsigned char *p, unsigned size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
	case 2: {
		uint16_t v;

		memcpy(&v, p, sizeof v);
		return is_signed ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, p, sizeof v);
		return is_signed ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	default: {
		uint64_t v;

		memcpy(&v, p, sizeof v);
		return v;
	}
	}
}

/* Whether a field holds text: char arrays and __data_loc char[] (not
 * u8[] or unsigned char[], which libtraceevent also calls strings: they
 * are bytes, a MAC address, a buffer). */
static bool
stream_is_text(const struct tep_format_field *f)
{
	return strstr(f->type, "char") != NULL && strstr(f->type, "unsigned char") == NULL &&
	       strchr(f->type, '*') == NULL;
}

/* Where a __data_loc / __rel_loc field's data lies: 0 and *off, *len
 * inside the payload, or -1. */
static int
stream_dynamic(const struct tep_format_field *f, const unsigned char *raw, uint32_t size,
               uint32_t *off, uint32_t *len)
{
	uint32_t loc;

	if (f->offset < 0 || (uint32_t)f->offset > size || size - (uint32_t)f->offset < 4)
		return -1;
	memcpy(&loc, raw + f->offset, sizeof loc);
	*off = loc & 0xffff;
	*len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*off += (uint32_t)f->offset + (uint32_t)f->size;
	return *off <= size && *len <= size - *off ? 0 : -1;
}

/* Bytes of text up to the first NUL, at most len. */
static size_t
stream_strnlen(const unsigned char *p, size_t len)
{
	const unsigned char *nul = memchr(p, '\0', len);

	return nul ? (size_t)(nul - p) : len;
}

/* A number field as the right kind of value. */
static void
stream_scalar(const struct stream *s, const struct stream_field *sf, const unsigned char *p,
              struct stream_value *v)
{
	const struct tep_format_field *f = sf->f;
	uint64_t start = 0;

	v->is_signed = (f->flags & TEP_FIELD_IS_SIGNED) != 0;
	v->u = stream_number(p, (unsigned)f->size, v->is_signed);
	v->i = (int64_t)v->u;
	if (sf->is_bool) {
		v->kind = STREAM_BOOL;
		v->u = v->u != 0;
	} else if (sf->symbolic) {
		v->kind = STREAM_SYM;
		v->str = s->ksym ? s->ksym(s->ksym_arg, v->u, &start) : NULL;
		v->off = v->str ? v->u - start : 0;
		v->len = v->str ? strlen(v->str) : 0;
	} else if (v->is_signed) {
		v->kind = STREAM_INT;
	} else {
		v->kind = STREAM_UINT;
		v->pointer = (f->flags & TEP_FIELD_IS_POINTER) != 0;
	}
}

/* Decode one field of a payload. */
static void
stream_field(const struct stream *s, const struct stream_field *sf, const unsigned char *raw,
             uint32_t size, struct stream_value *v)
{
	const struct tep_format_field *f = sf->f;
	uint32_t off = (uint32_t)f->offset, len = (uint32_t)f->size;

	memset(v, 0, sizeof *v);
	v->name = f->name;
	v->type = f->type;
	v->kind = STREAM_BAD;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (stream_dynamic(f, raw, size, &off, &len) != 0)
			return;
	} else if (f->offset < 0 || f->size < 0 || off > size || len > size - off) {
		return;
	}
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC) && (f->flags & TEP_FIELD_IS_ARRAY) && len == 0)
		len = size - off; /* "args[]": the rest of the payload */
	if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) && stream_is_text(f)) {
		v->kind = STREAM_STR;
		v->str = (const char *)raw + off;
		v->len = stream_strnlen(raw + off, len);
	} else if (!(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) &&
	           (len == 1 || len == 2 || len == 4 || len == 8)) {
		stream_scalar(s, sf, raw + off, v);
	} else {
		bool numeric = sf->elem == 1 || sf->elem == 2 || sf->elem == 4 || sf->elem == 8;

		v->kind = STREAM_ARRAY;
		v->data = raw + off;
		v->elem_size = numeric ? sf->elem : 1;
		v->count = len / v->elem_size;
		v->is_signed = numeric && (f->flags & TEP_FIELD_IS_SIGNED) != 0;
	}
}

/* Decode every field of an entry. */
size_t
stream_decode(const struct stream *s, const struct stream_entry *en, struct stream_value *vals,
              size_t max)
{
	const struct stream_ev *ev;

	if (en->ev < 0 || (size_t)en->ev >= s->nevs)
		return 0;
	ev = &s->evs[en->ev];
	for (size_t i = 0; i < ev->nfields && i < max; i++)
		stream_field(s, &ev->fields[i], en->raw, en->raw_size, &vals[i]);
	return ev->nfields;
}

/* One element of an array value. */
uint64_t
stream_array_elem(const struct stream_value *v, size_t i)
{
	if (v->kind != STREAM_ARRAY || i >= v->count)
		return 0;
	return stream_number((const unsigned char *)v->data + i * v->elem_size, v->elem_size,
	                     v->is_signed);
}

/* Whether libtraceevent may print this payload with ev's format: it is
 * that event's, holds every fixed field and every dynamic one points
 * inside it. */
static bool
stream_payload_ok(const struct stream *s, const struct stream_entry *en)
{
	const struct stream_ev *ev;
	struct tep_format_field *f;
	uint32_t off, len;

	if (en->ev < 0 || stream_payload_event(s, en->raw, en->raw_size) != en->ev)
		return false;
	ev = &s->evs[en->ev];
	if (en->raw_size < ev->min_size)
		return false;
	for (f = ev->tev->format.fields; f != NULL; f = f->next)
		if ((f->flags & TEP_FIELD_IS_DYNAMIC) &&
		    stream_dynamic(f, en->raw, en->raw_size, &off, &len) != 0)
			return false;
	return true;
}

/* Append printf-style text to buf at *o (bounded). */
static void stream_cat(char *buf, size_t len, size_t *o, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Append printf-style text to buf at *o (bounded). */
static void
stream_cat(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	*o = n < 0 ? *o : *o + (size_t)n >= len ? len - 1 : *o + (size_t)n;
}

/* One decoded value as text (strings escaped), after "name=". */
static void
stream_value_text(const struct stream_value *v, char *buf, size_t len, size_t *o)
{
	char esc[1024];

	switch (v->kind) {
	case STREAM_INT:
		stream_cat(buf, len, o, "%lld", (long long)v->i);
		break;
	case STREAM_UINT:
		stream_cat(buf, len, o, v->pointer ? "0x%llx" : "%llu", (unsigned long long)v->u);
		break;
	case STREAM_BOOL:
		stream_cat(buf, len, o, "%s", v->u ? "true" : "false");
		break;
	case STREAM_STR:
		str_escape(esc, sizeof esc, v->str, v->len);
		stream_cat(buf, len, o, "%s", esc);
		break;
	case STREAM_SYM:
		if (v->str != NULL)
			stream_cat(buf, len, o, "%s+0x%llx", v->str, (unsigned long long)v->off);
		else
			stream_cat(buf, len, o, "0x%llx", (unsigned long long)v->u);
		break;
	case STREAM_ARRAY:
		for (size_t i = 0; i < v->count; i++)
			stream_cat(buf, len, o, v->is_signed ? "%s%lld" : "%s%llu", i ? "," : "{",
			           (long long)stream_array_elem(v, i));
		stream_cat(buf, len, o, v->count ? "}" : "{}");
		break;
	case STREAM_BAD:
		stream_cat(buf, len, o, "[truncated]");
		break;
	}
}

/* The fields as name=value pairs from our own decoding: for a payload
 * libtraceevent must not see. */
static size_t
stream_fields_plain(const struct stream *s, const struct stream_entry *en, char *buf, size_t len)
{
	struct stream_value vals[64];
	size_t n = stream_decode(s, en, vals, ARRAY_SIZE(vals)), o = 0;

	buf[0] = '\0';
	if (en->raw_size < (en->ev >= 0 ? s->evs[en->ev].min_size : 0))
		stream_cat(buf, len, &o, "[truncated] ");
	for (size_t i = 0; i < n && i < ARRAY_SIZE(vals); i++) {
		stream_cat(buf, len, &o, "%s%s=", i ? " " : "", vals[i].name);
		stream_value_text(&vals[i], buf, len, &o);
	}
	return o;
}

/* A dynamic probe's print format starts with its address in parentheses
 * ("(55af8fd4b410) a=1", "(f <- caller)"), the same for every hit of an
 * entry probe: the arguments come first, the address after them, so a
 * narrow Fields column shows what the probe fetched. */
static void
stream_probe_ip_last(const struct stream *s, const struct stream_entry *en, char *buf, size_t n)
{
	const struct tep_event *tev = s->evs[en->ev].tev;
	char *close, ip[64];
	size_t k;

	if (n < 4 || buf[0] != '(' ||
	    (tep_find_field((struct tep_event *)tev, "__probe_ip") == NULL &&
	     tep_find_field((struct tep_event *)tev, "__probe_func") == NULL))
		return;
	if ((close = strchr(buf, ')')) == NULL || close[1] != ' ' ||
	    (k = (size_t)(close - buf) + 1) >= sizeof ip)
		return;
	memcpy(ip, buf, k);
	ip[k] = '\0';
	memmove(buf, close + 2, n - k - 1 + 1); /* the arguments and the NUL */
	snprintf(buf + n - k - 1, k + 2, " %s", ip);
}

/* The fields as the event's print format shows them, escaped. */
size_t
stream_format_fields(struct stream *s, const struct stream_entry *en, char *buf, size_t len)
{
	struct tep_record rec;
	size_t n;

	if (len == 0)
		return 0;
	/* a print format libtraceevent could not parse (GCC statement
	 * expressions, ...) prints better from our own decoding */
	if (!stream_payload_ok(s, en) || (s->evs[en->ev].tev->flags & TEP_EVENT_FL_FAILED))
		return stream_fields_plain(s, en, buf, len);
	memset(&rec, 0, sizeof rec);
	rec.ts = en->time;
	rec.cpu = en->cpu;
	rec.size = (int)en->raw_size;
	rec.record_size = (int)en->raw_size;
	rec.data = (void *)(uintptr_t)en->raw;
	rec.ref_count = 1;
	rec.locked = 1;
	trace_seq_reset(&s->seq);
	tep_print_event(s->tep, &s->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s->seq);
	if (s->seq.state != TRACE_SEQ__GOOD || s->seq.buffer == NULL)
		return stream_fields_plain(s, en, buf, len);
	n = str_escape(buf, len, s->seq.buffer, s->seq.len);
	stream_probe_ip_last(s, en, buf, strlen(buf));
	return n;
}

/* "comm-tid [cpu] secs.usecs: subsys:name: fields", escaped. */
size_t
stream_format_line(struct stream *s, const struct stream_entry *en, char *buf, size_t len)
{
	char comm[64];
	size_t o = 0;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	str_escape(comm, sizeof comm, en->comm ? en->comm : "<...>", 16);
	stream_cat(buf, len, &o, "%16s-%-7d [%03d] %5llu.%06llu: %s: ", comm, en->tid, en->cpu,
	           (unsigned long long)(en->time / 1000000000ULL),
	           (unsigned long long)(en->time % 1000000000ULL / 1000), en->event);
	return o + stream_format_fields(s, en, buf + o, len - o);
}
