/* cfi: interpreting .eh_frame call frame information for x86-64. Only
 * what compilers emit for ordinary code is turned into rules; expressions
 * and register copies come back as CFI_UNSUPPORTED so the caller can hand
 * such frames to a complete unwinder. Every read is bounds-checked: the
 * records come from files we do not trust. */
#include "config.h"

#include <string.h>

#include "tracetop/cfi.h"

/* DW_EH_PE pointer encodings: format in the low nibble, application above. */
#define PE_OMIT 0xff
#define PE_FORMAT 0x0f
#define PE_APPL 0x70
#define PE_PCREL 0x10
#define PE_INDIRECT 0x80

#define STATE_DEPTH 8 /* DW_CFA_remember_state nesting we keep */
#define AUG_MAX 8     /* augmentation string characters we read */

/* A bounds-checked cursor over one record. */
struct rd {
	const unsigned char *p;
	size_t len, pos;
	uint64_t vaddr; /* of p[0] */
	bool bad;       /* a read went past the end */
};

/* The CIE fields an FDE needs. */
struct cie {
	uint64_t code_align;
	int64_t data_align;
	unsigned ra_reg;
	uint8_t fde_enc;
	bool has_aug_data; /* 'z': FDEs carry an augmentation length */
	bool signal;       /* 'S' */
	size_t insn_pos;   /* initial instructions, to the record's end */
};

/* The next n bytes, little-endian, as an unsigned number. */
static uint64_t
rd_uint(struct rd *r, size_t n)
{
	uint64_t v = 0;

	if (r->bad || r->len - r->pos < n) {
		r->bad = true;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)r->p[r->pos + i] << (8 * i);
	r->pos += n;
	return v;
}

/* A LEB128 number, signed or not (bits past 64 are dropped; set ones
 * there mark the read bad for an unsigned number). */
static uint64_t
rd_leb(struct rd *r, bool sign)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		b = (uint8_t)rd_uint(r, 1);
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		else if (!sign && (b & 0x7f) != 0)
			r->bad = true;
		shift += 7;
	} while ((b & 0x80) != 0 && !r->bad);
	if (sign && shift < 64 && (b & 0x40) != 0)
		v |= ~(uint64_t)0 << shift;
	return v;
}

/* An unsigned LEB128 number. */
static uint64_t
rd_uleb(struct rd *r)
{
	return rd_leb(r, false);
}

/* A signed LEB128 number. */
static int64_t
rd_sleb(struct rd *r)
{
	return (int64_t)rd_leb(r, true);
}

/* A factored offset: an unsigned (or signed) LEB128 times the CIE's data
 * alignment, marked bad on overflow. */
static int64_t
rd_off(struct rd *r, const struct cie *c, bool sign)
{
	int64_t v, out;

	if (sign) {
		v = rd_sleb(r);
	} else {
		uint64_t u = rd_uleb(r);

		if (u > INT64_MAX)
			r->bad = true;
		v = (int64_t)(u & INT64_MAX);
	}
	if (__builtin_mul_overflow(v, c->data_align, &out)) {
		r->bad = true;
		return 0;
	}
	return out;
}

/* A pointer in encoding enc; only absolute and pc-relative ones resolve
 * (others mark the read bad). The indirect bit is ignored: its target is
 * never needed here. */
static uint64_t
rd_ptr(struct rd *r, uint8_t enc)
{
	uint64_t here = r->vaddr + r->pos, v;

	switch (enc & PE_FORMAT) {
	case 0x00: /* absptr */
	case 0x04: /* udata8 */
	case 0x0c: /* sdata8 */
		v = rd_uint(r, 8);
		break;
	case 0x01:
		v = rd_uleb(r);
		break;
	case 0x09:
		v = (uint64_t)rd_sleb(r);
		break;
	case 0x02:
		v = rd_uint(r, 2);
		break;
	case 0x0a:
		v = (uint64_t)(int64_t)(int16_t)rd_uint(r, 2);
		break;
	case 0x03:
		v = rd_uint(r, 4);
		break;
	case 0x0b:
		v = (uint64_t)(int64_t)(int32_t)rd_uint(r, 4);
		break;
	default:
		r->bad = true;
		return 0;
	}
	switch (enc & PE_APPL) {
	case 0:
		return v;
	case PE_PCREL:
		return here + v;
	default:
		r->bad = true;
		return 0;
	}
}

/* Read a record's length and id fields; sets *end to the record's end. */
static int
rd_header(struct rd *r, size_t *end, uint32_t *id)
{
	uint64_t len = rd_uint(r, 4);

	if (len == 0xffffffff)
		len = rd_uint(r, 8);
	if (r->bad || len < 4 || len > r->len - r->pos)
		return -1;
	*end = r->pos + (size_t)len;
	r->len = *end; /* nothing past the record, the id included */
	*id = (uint32_t)rd_uint(r, 4);
	return r->bad ? -1 : 0;
}

/* Whether a record id marks a CIE in section sec. */
static bool
is_cie(uint32_t id, enum cfi_section sec)
{
	return id == (sec == CFI_EH_FRAME ? 0 : 0xffffffff);
}

/* Size and CIE location of the FDE at b. */
int
cfi_fde_header(const struct cfi_bytes *b, enum cfi_section sec, uint64_t *size, uint64_t *cie_at)
{
	struct rd r = {.p = b->p, .len = b->len, .vaddr = b->vaddr};
	uint64_t len = rd_uint(&r, 4);
	uint64_t id_at;
	uint32_t id;

	if (len == 0xffffffff)
		return -1; /* 64-bit DWARF: not produced for x86-64 code */
	id_at = r.pos;
	id = (uint32_t)rd_uint(&r, 4);
	if (r.bad || len < 4 || is_cie(id, sec))
		return -1;
	*size = id_at + len;
	*cie_at = sec == CFI_EH_FRAME ? b->vaddr + id_at - id : id;
	return 0;
}

/* Parse a CIE's header and augmentation. */
static int
cie_parse(const struct cfi_bytes *b, enum cfi_section sec, struct cie *c, size_t *end)
{
	struct rd r = {.p = b->p, .len = b->len, .vaddr = b->vaddr};
	char aug[AUG_MAX + 1];
	size_t n = 0, aug_end = 0;
	uint32_t id;
	uint8_t version;

	memset(c, 0, sizeof *c);
	if (rd_header(&r, end, &id) != 0 || !is_cie(id, sec))
		return -1;
	r.len = *end;
	version = (uint8_t)rd_uint(&r, 1);
	if (version != 1 && version != 3 && version != 4)
		return -1;
	while ((aug[n] = (char)rd_uint(&r, 1)) != '\0' && !r.bad)
		if (++n == AUG_MAX)
			return -1;
	if (version == 4 && (rd_uint(&r, 1) != 8 || rd_uint(&r, 1) != 0))
		return -1; /* address size 8, no segments */
	c->code_align = rd_uleb(&r);
	c->data_align = rd_sleb(&r);
	c->ra_reg = version == 1 ? (unsigned)rd_uint(&r, 1) : (unsigned)rd_uleb(&r);
	if (r.bad || (n > 0 && aug[0] != 'z'))
		return -1; /* "eh" and other pre-'z' forms are not produced today */
	if (n > 0) {
		c->has_aug_data = true;
		aug_end = rd_uleb(&r);
		if (r.bad || aug_end > r.len - r.pos)
			return -1;
		aug_end += r.pos;
		for (size_t i = 1; i < n && !r.bad; i++) {
			if (aug[i] == 'R')
				c->fde_enc = (uint8_t)rd_uint(&r, 1);
			else if (aug[i] == 'L')
				rd_uint(&r, 1);
			else if (aug[i] == 'P')
				rd_ptr(&r, (uint8_t)rd_uint(&r, 1) & ~PE_INDIRECT);
			else if (aug[i] == 'S')
				c->signal = true;
			else
				break; /* unknown: the length lets us skip the rest */
		}
		r.pos = aug_end;
	}
	if (r.bad || c->code_align == 0 || c->ra_reg != CFI_REG_RA)
		return -1;
	c->insn_pos = r.pos;
	return 0;
}

/* Set register reg's rule, ignoring registers we do not track. */
static void
set_rule(struct cfi_row *row, uint64_t reg, enum cfi_rule rule, int64_t off, bool *bad)
{
	if (reg >= CFI_NREGS)
		return; /* vector registers: never needed to find the caller */
	if (off < INT32_MIN || off > INT32_MAX) {
		*bad = true;
		return;
	}
	row->rule[reg] = (uint8_t)rule;
	row->off[reg] = (int32_t)off;
}

/* Set the CFA rule to reg + off. */
static void
set_cfa(struct cfi_row *row, uint64_t reg, int64_t off)
{
	if (reg >= CFI_NREGS - 1 || off < INT32_MIN || off > INT32_MAX) {
		row->cfa_expr = true; /* not a rule we can apply */
		return;
	}
	row->cfa_expr = false;
	row->cfa_reg = (uint8_t)reg;
	row->cfa_off = (int32_t)off;
}

/* Run CFA instructions from r->pos to end, starting at address *loc, until
 * the row for pc is complete. init is the CIE's row (for restore). 0 or -1. */
static int
run(struct rd *r, size_t end, const struct cie *c, uint64_t *loc, uint64_t pc, struct cfi_row *row,
    const struct cfi_row *init)
{
	struct cfi_row stack[STATE_DEPTH];
	size_t depth = 0;
	uint64_t reg, delta = 0;
	int64_t off;
	bool bad = false;
	uint8_t op;

	r->len = end;
	while (r->pos < end && !r->bad && !bad) {
		op = (uint8_t)rd_uint(r, 1);
		delta = 0;
		switch (op >> 6) {
		case 1: /* advance_loc */
			delta = op & 0x3f;
			break;
		case 2: /* offset */
			set_rule(row, op & 0x3f, CFI_OFFSET, rd_off(r, c, false), &bad);
			continue;
		case 3: /* restore */
			if (init == NULL)
				return -1;
			reg = op & 0x3f;
			if (reg < CFI_NREGS)
				set_rule(row, reg, init->rule[reg], init->off[reg], &bad);
			continue;
		}
		switch (op) {
		case 0x00: /* nop */
		case 0x40 ... 0x7f:
			break;
		case 0x01: /* set_loc */
			*loc = rd_ptr(r, c->fde_enc);
			if (*loc > pc)
				return 0;
			continue;
		case 0x02:
			delta = rd_uint(r, 1);
			break;
		case 0x03:
			delta = rd_uint(r, 2);
			break;
		case 0x04:
			delta = rd_uint(r, 4);
			break;
		case 0x05: /* offset_extended */
			reg = rd_uleb(r);
			set_rule(row, reg, CFI_OFFSET, rd_off(r, c, false), &bad);
			continue;
		case 0x06: /* restore_extended */
			reg = rd_uleb(r);
			if (init == NULL)
				return -1;
			if (reg < CFI_NREGS)
				set_rule(row, reg, init->rule[reg], init->off[reg], &bad);
			continue;
		case 0x07: /* undefined */
			set_rule(row, rd_uleb(r), CFI_UNDEF, 0, &bad);
			continue;
		case 0x08: /* same_value */
			set_rule(row, rd_uleb(r), CFI_SAME, 0, &bad);
			continue;
		case 0x09: /* register */
			reg = rd_uleb(r);
			rd_uleb(r);
			set_rule(row, reg, CFI_UNSUPPORTED, 0, &bad);
			continue;
		case 0x0a: /* remember_state */
			if (depth == STATE_DEPTH)
				return -1;
			stack[depth++] = *row;
			continue;
		case 0x0b: /* restore_state (the CFA rule is part of the state) */
			if (depth == 0)
				return -1;
			*row = stack[--depth];
			continue;
		case 0x0c: /* def_cfa */
			reg = rd_uleb(r);
			set_cfa(row, reg, (int64_t)rd_uleb(r));
			continue;
		case 0x0d: /* def_cfa_register */
			reg = rd_uleb(r);
			if (!row->cfa_expr) /* only valid on a register rule */
				set_cfa(row, reg, row->cfa_off);
			continue;
		case 0x0e: /* def_cfa_offset */
			off = (int64_t)rd_uleb(r);
			if (!row->cfa_expr)
				set_cfa(row, row->cfa_reg, off);
			continue;
		case 0x0f: /* def_cfa_expression */
			off = (int64_t)rd_uleb(r);
			if ((uint64_t)off > end - r->pos)
				return -1;
			r->pos += (size_t)off;
			row->cfa_expr = true;
			continue;
		case 0x10: /* expression */
		case 0x16: /* val_expression */
			reg = rd_uleb(r);
			off = (int64_t)rd_uleb(r);
			if ((uint64_t)off > end - r->pos)
				return -1;
			r->pos += (size_t)off;
			set_rule(row, reg, CFI_UNSUPPORTED, 0, &bad);
			continue;
		case 0x11: /* offset_extended_sf */
			reg = rd_uleb(r);
			set_rule(row, reg, CFI_OFFSET, rd_off(r, c, true), &bad);
			continue;
		case 0x12: /* def_cfa_sf */
			reg = rd_uleb(r);
			set_cfa(row, reg, rd_off(r, c, true));
			continue;
		case 0x13: /* def_cfa_offset_sf */
			off = rd_off(r, c, true);
			if (!row->cfa_expr)
				set_cfa(row, row->cfa_reg, off);
			continue;
		case 0x14: /* val_offset */
			reg = rd_uleb(r);
			set_rule(row, reg, CFI_VAL_OFFSET, rd_off(r, c, false), &bad);
			continue;
		case 0x15: /* val_offset_sf */
			reg = rd_uleb(r);
			set_rule(row, reg, CFI_VAL_OFFSET, rd_off(r, c, true), &bad);
			continue;
		case 0x2e: /* GNU_args_size */
			rd_uleb(r);
			continue;
		case 0x2f: /* GNU_negative_offset_extended */
			reg = rd_uleb(r);
			off = rd_off(r, c, false);
			set_rule(row, reg, CFI_OFFSET, off == INT64_MIN ? off : -off, &bad);
			continue;
		default:
			return -1;
		}
		if (delta != 0) {
			if (delta > UINT64_MAX / c->code_align)
				return -1;
			*loc += delta * c->code_align;
			if (*loc > pc)
				return 0;
		}
	}
	return r->bad || bad ? -1 : 0;
}

/* The rule row at pc from an FDE and its CIE. */
int
cfi_row_at(const struct cfi_bytes *cie, const struct cfi_bytes *fde, enum cfi_section sec,
           uint64_t pc, struct cfi_row *row)
{
	struct rd r = {.p = fde->p, .len = fde->len, .vaddr = fde->vaddr};
	struct rd cr = {.p = cie->p, .len = cie->len, .vaddr = cie->vaddr, .pos = 0};
	struct cfi_row init;
	struct cie c;
	size_t end, cie_end;
	uint64_t begin, range, loc, skip;
	uint32_t id;

	if (cie_parse(cie, sec, &c, &cie_end) != 0 || rd_header(&r, &end, &id) != 0 ||
	    is_cie(id, sec))
		return -1;
	r.len = end;
	begin = rd_ptr(&r, c.fde_enc);
	range = rd_ptr(&r, c.fde_enc & PE_FORMAT);
	if (c.has_aug_data) {
		skip = rd_uleb(&r);
		if (skip > r.len - r.pos)
			return -1;
		r.pos += (size_t)skip;
	}
	if (r.bad)
		return -1;
	if (pc < begin || pc - begin >= range)
		return 1;
	memset(row, 0, sizeof *row);
	row->signal_frame = c.signal;
	loc = begin;
	cr.pos = c.insn_pos;
	/* The CIE's instructions set up the row every FDE starts from. */
	if (run(&cr, cie_end, &c, &loc, UINT64_MAX, row, NULL) != 0)
		return -1;
	init = *row;
	loc = begin;
	return run(&r, end, &c, &loc, pc, row, &init);
}
