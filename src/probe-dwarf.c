/* probe-dwarf: the parameters and variables of a user function at a probe
 * address, from DWARF (libdw), translated into fetch-args as perf probe
 * does: a value in a register is %REG, one in memory at a register plus an
 * offset is OFF(%REG), one at the frame base is an offset from the
 * register the call-frame information (CFI) gives for the frame at that
 * address; types give :s32, :u64, :x64, and :string for char pointers and
 * arrays. The only place besides srcline that uses libdw. */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/probe-args.h"
#include "tracetop/sym-elf.h"

/* Type chains followed when naming a type. */
#define TYPE_DEPTH 8

/* A file's ELF (for its CFI) and DWARF (maybe from a separate debug file). */
struct dwfile {
	int fd, dfd;
	Elf *elf, *delf;
	Dwarf *dw;
	Dwarf_CFI *cfi; /* .eh_frame of the file, or NULL */
	const struct dso_seg *segs;
	size_t nsegs;
};

/* The kernel's name of DWARF x86-64 register n, or NULL. */
static const char *
dw_reg(unsigned n)
{
	static const char *const names[] = {"ax",  "dx",  "cx",  "bx",  "si",  "di",
	                                    "bp",  "sp",  "r8",  "r9",  "r10", "r11",
	                                    "r12", "r13", "r14", "r15", "ip"};

	return n < ARRAY_SIZE(names) ? names[n] : NULL;
}

/* Close what dw_open opened. */
static void
dw_close(struct dwfile *f)
{
	if (f->cfi != NULL)
		dwarf_cfi_end(f->cfi);
	if (f->dw != NULL)
		dwarf_end(f->dw);
	if (f->delf != NULL)
		symelf_close(f->delf, f->dfd);
	if (f->elf != NULL)
		symelf_close(f->elf, f->fd);
}

/* Open path's DWARF (its own or its separate debug file's) and its CFI. */
static int
dw_open(struct dwfile *f, const char *path, struct tt_err *err)
{
	char *debug;

	memset(f, 0, sizeof *f);
	f->dfd = -1;
	if ((f->elf = symelf_open(path, &f->fd, err)) == NULL)
		return -1;
	f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	if (f->dw == NULL && (debug = symelf_find_debug(path, NULL)) != NULL) {
		if ((f->delf = symelf_open(debug, &f->dfd, NULL)) != NULL)
			f->dw = dwarf_begin_elf(f->delf, DWARF_C_READ, NULL);
		free(debug);
	}
	if (f->dw == NULL) {
		dw_close(f);
		return err_set(err,
		               "%s has no debug info (build it with -g, or install its debug "
		               "file): use fetch-args (%%di, +8(%%sp):u32, $argN) instead of names",
		               path);
	}
	f->cfi = dwarf_getcfi_elf(f->elf);
	return 0;
}

/* The CU holding addr: through .debug_aranges, else by walking the CUs. */
static bool
dw_cu_at(Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dw, addr, cu) != NULL)
		return true;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + hsize, cu) != NULL && dwarf_haspc(cu, addr) > 0)
			return true;
		off = next;
	}
	return false;
}

/* The subprogram containing addr in cu. */
static bool
dw_func_at(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *fn)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cu, addr, &scopes);
	bool found = false;

	for (int i = 0; i < n && !found; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			*fn = scopes[i];
			found = true;
		}
	free(scopes);
	return found;
}

/* The location expression of die at pc; false when it has none there. */
static bool
dw_location(Dwarf_Die *die, unsigned name, uint64_t pc, Dwarf_Op **expr, size_t *len)
{
	Dwarf_Attribute attr;

	if (dwarf_attr_integrate(die, name, &attr) == NULL)
		return false;
	return dwarf_getlocation_addr(&attr, pc, expr, len, 1) == 1 && *len > 0;
}

/* A register-plus-offset address from a one-op expression (bregN, bregx,
 * regN as "the register's value"). */
static bool
dw_reg_off(const Dwarf_Op *op, unsigned *reg, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*off = (int64_t)op->number;
	} else if (op->atom == DW_OP_bregx) {
		*reg = (unsigned)op->number;
		*off = (int64_t)op->number2;
	} else if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31) {
		*reg = op->atom - DW_OP_reg0;
		*off = 0;
	} else {
		return false;
	}
	return true;
}

/* The frame base of fn at pc as a register plus an offset. */
static bool
dw_frame_base(struct dwfile *f, Dwarf_Die *fn, uint64_t pc, unsigned *reg, int64_t *off)
{
	Dwarf_CFI *cfis[2] = {f->cfi, dwarf_getcfi(f->dw)};
	Dwarf_Frame *frame;
	Dwarf_Op *expr, *ops;
	size_t len, nops;
	bool ok;

	if (!dw_location(fn, DW_AT_frame_base, pc, &expr, &len) || len != 1)
		return false;
	if (expr[0].atom != DW_OP_call_frame_cfa)
		return dw_reg_off(&expr[0], reg, off);
	for (size_t i = 0; i < ARRAY_SIZE(cfis); i++) {
		if (cfis[i] == NULL || dwarf_cfi_addrframe(cfis[i], pc, &frame) != 0)
			continue;
		ok = dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1 &&
		     dw_reg_off(&ops[0], reg, off) && ops[0].atom != DW_OP_reg0 + *reg;
		free(frame);
		if (ok)
			return true;
	}
	return false;
}

/* Translate a location expression into the fetch-arg of the value: "%REG"
 * (*in_reg), "OFF(%REG)" or "@+FILEOFF"; NULL with *why. */
static char *
dw_loc_fetch(struct dwfile *f, Dwarf_Die *fn, uint64_t pc, const Dwarf_Op *expr, size_t len,
             bool *in_reg, const char **why)
{
	unsigned reg, base;
	int64_t off, boff;
	uint64_t foff;

	*in_reg = false;
	if (len != 1) {
		*why = "a computed location (not supported)";
		return NULL;
	}
	if (expr[0].atom == DW_OP_addr) {
		/* the kernel adds @+N to where the probe's file offset 0 is
		 * mapped: N is relative to the probe's segment, not the data's */
		if (symelf_vaddr_to_offset(f->segs, f->nsegs, pc, &foff) != 0 ||
		    expr[0].number + foff < pc) {
			*why = "a static address the probe cannot reach";
			return NULL;
		}
		return xasprintf("@+0x%" PRIx64, expr[0].number + foff - pc);
	}
	if (expr[0].atom == DW_OP_fbreg) {
		if (!dw_frame_base(f, fn, pc, &base, &boff) || dw_reg(base) == NULL) {
			*why = "its frame base is unknown here";
			return NULL;
		}
		return xasprintf("%+" PRId64 "(%%%s)", boff + (int64_t)expr[0].number,
		                 dw_reg(base));
	}
	if (expr[0].atom == DW_OP_regx ||
	    (expr[0].atom >= DW_OP_reg0 && expr[0].atom <= DW_OP_reg31)) {
		reg = expr[0].atom == DW_OP_regx ? (unsigned)expr[0].number
		                                 : (unsigned)(expr[0].atom - DW_OP_reg0);
		if (dw_reg(reg) == NULL) {
			*why = "in a register a probe cannot read";
			return NULL;
		}
		*in_reg = true;
		return xasprintf("%%%s", dw_reg(reg));
	}
	if (dw_reg_off(&expr[0], &reg, &off) && dw_reg(reg) != NULL)
		return xasprintf("%+" PRId64 "(%%%s)", off, dw_reg(reg));
	*why = "a location probes cannot read (not supported)";
	return NULL;
}

/* The type DIE of die, or false (void). */
static bool
dw_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_type, &attr) != NULL &&
	       dwarf_formref_die(&attr, type) != NULL;
}

/* An integer attribute, or def. */
static Dwarf_Word
dw_udata(Dwarf_Die *die, unsigned name, Dwarf_Word def)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	if (dwarf_attr_integrate(die, name, &attr) == NULL || dwarf_formudata(&attr, &v) != 0)
		return def;
	return v;
}

/* The C name of a type ("const char *", "struct s", "int[4]") into buf. */
static void
dw_type_name(Dwarf_Die *t, char *buf, size_t len, int depth)
{
	const char *name = t ? dwarf_diename(t) : NULL;
	char inner[128] = "void";
	Dwarf_Die sub;

	if (t == NULL || depth > TYPE_DEPTH) {
		snprintf(buf, len, "%s", t == NULL ? "void" : "...");
		return;
	}
	if (dw_type(t, &sub))
		dw_type_name(&sub, inner, sizeof inner, depth + 1);
	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
		snprintf(buf, len, "%s *", inner);
		break;
	case DW_TAG_const_type:
		snprintf(buf, len, "const %s", inner);
		break;
	case DW_TAG_volatile_type:
		snprintf(buf, len, "volatile %s", inner);
		break;
	case DW_TAG_array_type:
		snprintf(buf, len, "%s[]", inner);
		break;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		snprintf(buf, len, "%s %s",
		         dwarf_tag(t) == DW_TAG_structure_type ? "struct"
		         : dwarf_tag(t) == DW_TAG_union_type   ? "union"
		                                               : "enum",
		         name ? name : "(anonymous)");
		break;
	default:
		snprintf(buf, len, "%s", name ? name : inner);
	}
}

/* Whether a type (peeled) is a one-byte character. */
static bool
dw_is_char(Dwarf_Die *t)
{
	Dwarf_Die peeled;
	Dwarf_Word enc;

	if (dwarf_peel_type(t, &peeled) != 0 || dwarf_tag(&peeled) != DW_TAG_base_type ||
	    dw_udata(&peeled, DW_AT_byte_size, 0) != 1)
		return false;
	enc = dw_udata(&peeled, DW_AT_encoding, 0);
	return enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char || enc == DW_ATE_UTF;
}

/* The fetch-arg of a value of type t at value: with its type; NULL with
 * *why for what probes cannot show. */
static char *
dw_typed(Dwarf_Die *t, const char *value, bool in_reg, const char **why)
{
	Dwarf_Die peeled, sub;
	Dwarf_Word size, enc;
	int tag;

	if (t == NULL || dwarf_peel_type(t, &peeled) != 0) {
		*why = "of no known type";
		return NULL;
	}
	tag = dwarf_tag(&peeled);
	size = dw_udata(&peeled, DW_AT_byte_size, 0);
	if (tag == DW_TAG_pointer_type) {
		if (dw_type(&peeled, &sub) && dw_is_char(&sub))
			return xasprintf("+0(%s):string", value);
		return xasprintf("%s:x64", value);
	}
	if (tag == DW_TAG_array_type && !in_reg && dw_type(&peeled, &sub) && dw_is_char(&sub))
		return xasprintf("%s:string", value);
	if ((tag == DW_TAG_base_type || tag == DW_TAG_enumeration_type) &&
	    (size == 1 || size == 2 || size == 4 || size == 8)) {
		enc = tag == DW_TAG_base_type ? dw_udata(&peeled, DW_AT_encoding, 0)
		                              : DW_ATE_unsigned;
		if (enc == DW_ATE_float)
			return xasprintf("%s:x%u", value, (unsigned)size * 8);
		return xasprintf("%s:%c%u", value,
		                 enc == DW_ATE_signed || enc == DW_ATE_signed_char ? 's' : 'u',
		                 (unsigned)size * 8);
	}
	*why = tag == DW_TAG_array_type ? "an array (read an element with +OFF(...))"
	       : tag == DW_TAG_structure_type || tag == DW_TAG_union_type
	           ? "a struct (read a member with +OFF(...))"
	           : "of a type probes cannot show";
	return NULL;
}

/* Whether vs already has a variable called name (an inner one shadows). */
static bool
dw_have(const struct probe_vars *vs, const char *name)
{
	for (size_t i = 0; i < vs->n; i++)
		if (strcmp(vs->v[i].name, name) == 0)
			return true;
	return false;
}

/* Add variable die (of function fn) as seen at pc. */
static void
dw_add_var(struct dwfile *f, Dwarf_Die *fn, Dwarf_Die *die, uint64_t pc, bool param,
           struct probe_vars *vs)
{
	const char *name = dwarf_diename(die), *why = NULL;
	struct probe_var *v;
	Dwarf_Die type, *tp = dw_type(die, &type) ? &type : NULL;
	Dwarf_Op *expr;
	size_t len;
	bool in_reg;
	char tname[160];

	if (name == NULL || dw_have(vs, name))
		return;
	vs->v = xrealloc(vs->v, (vs->n + 1) * sizeof *vs->v);
	v = &vs->v[vs->n++];
	memset(v, 0, sizeof *v);
	v->name = xstrdup(name);
	v->param = param;
	dw_type_name(tp, tname, sizeof tname, 0);
	v->type = xstrdup(tname);
	if (!dw_location(die, DW_AT_location, pc, &expr, &len))
		why = dwarf_hasattr_integrate(die, DW_AT_const_value) ? "a constant (no storage)"
		                                                      : "optimized out here";
	else if ((v->value = dw_loc_fetch(f, fn, pc, expr, len, &in_reg, &why)) != NULL)
		v->fetch = dw_typed(tp, v->value, in_reg, &why);
	if (v->fetch == NULL) {
		free(v->value);
		v->value = NULL;
		v->why = xstrdup(why);
	}
}

/* Add the variables (and parameters, of a function scope) of one scope. */
static void
dw_scope_vars(struct dwfile *f, Dwarf_Die *fn, Dwarf_Die *scope, uint64_t pc, bool params,
              struct probe_vars *vs)
{
	Dwarf_Die child;

	if (dwarf_child(scope, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_formal_parameter && params)
			dw_add_var(f, fn, &child, pc, true, vs);
		else if (tag == DW_TAG_variable || tag == DW_TAG_formal_parameter)
			dw_add_var(f, fn, &child, pc, false, vs);
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* Every variable visible at pc: parameters first, in order, then the
 * locals, inner scopes first (shadowing outer ones). */
static void
dw_collect(struct dwfile *f, Dwarf_Die *cu, Dwarf_Die *fn, uint64_t pc, struct probe_vars *vs)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cu, pc, &scopes);

	dw_scope_vars(f, fn, fn, pc, true, vs);
	for (int i = 0; i < n; i++) {
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			break;
		dw_scope_vars(f, fn, &scopes[i], pc, false, vs);
	}
	free(scopes);
}

/* Whether the parameters need the frame the prologue sets up: one lives in
 * the stack frame (code built without optimization) or has no location yet
 * at the entry. */
static bool
dw_needs_prologue(Dwarf_Die *fn, uint64_t entry)
{
	Dwarf_Die child;
	Dwarf_Op *expr;
	size_t len;

	if (dwarf_child(fn, &child) != 0)
		return false;
	do {
		if (dwarf_tag(&child) != DW_TAG_formal_parameter)
			continue;
		if (!dw_location(&child, DW_AT_location, entry, &expr, &len) ||
		    expr[0].atom == DW_OP_fbreg)
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* The first address after fn's prologue, or entry. */
static uint64_t
dw_after_prologue(Dwarf_Die *fn, uint64_t entry)
{
	Dwarf_Addr *bkpts = NULL, hi;
	int n = dwarf_entry_breakpoints(fn, &bkpts);
	uint64_t addr = entry;

	if (n > 0 && bkpts[0] > entry && dwarf_highpc(fn, &hi) == 0 && bkpts[0] < hi)
		addr = bkpts[0];
	free(bkpts);
	return addr;
}

/* "file.c:12" of a function's declaration. */
static char *
dw_where(Dwarf_Die *fn)
{
	const char *file = dwarf_decl_file(fn), *slash;
	int line = 0;

	if (file == NULL)
		return NULL;
	slash = strrchr(file, '/');
	dwarf_decl_line(fn, &line);
	return xasprintf("%s:%d", slash ? slash + 1 : file, line);
}

/* The variables of func at func_addr + off. */
int
probe_dwarf_vars(const char *path, const char *func, uint64_t func_addr, uint64_t off, bool ret,
                 const struct dso_seg *segs, size_t nsegs, struct probe_vars *out,
                 struct tt_err *err)
{
	struct dwfile f;
	Dwarf_Die cu, fn;
	uint64_t pc = func_addr + off;

	memset(out, 0, sizeof *out);
	if (dw_open(&f, path, err) != 0)
		return -1;
	f.segs = segs;
	f.nsegs = nsegs;
	if (!dw_cu_at(f.dw, func_addr, &cu) || !dw_func_at(&cu, func_addr, &fn)) {
		dw_close(&f);
		return err_set(err, "no debug info for %s in %s (built without -g?)", func, path);
	}
	if (off == 0 && !ret && dw_needs_prologue(&fn, pc)) {
		pc = dw_after_prologue(&fn, pc);
		out->after_prologue = pc != func_addr;
	}
	out->addr = pc;
	out->where = dw_where(&fn);
	out->source = "DWARF";
	if (ret) /* at the return, what was in registers or the frame is gone */
		out->addr = func_addr;
	else
		dw_collect(&f, &cu, &fn, pc, out);
	dw_close(&f);
	return 0;
}
