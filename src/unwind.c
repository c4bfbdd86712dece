/* unwind: DWARF unwinding of copied user stacks. Registers come from
 * PERF_SAMPLE_REGS_USER, stack words from PERF_SAMPLE_STACK_USER, and the
 * unwind tables (the .eh_frame_hdr search table, FDEs and CIEs) from the
 * ELF files the task maps (elfimage). The [vdso] is read from our own copy
 * (the kernel maps the same image into every process).
 *
 * Two unwinders: ours first, for the frames compilers describe with plain
 * rules (CFA = rsp/rbp + offset, registers saved at CFA + offset), the row
 * of each address interpreted once (cfi) and cached by object and address;
 * libunwind's remote unwinder takes over from the first frame ours cannot
 * step (signal trampolines, expression rules, code without tables). Ours
 * exists for speed: libunwind blocks and unblocks signals around every
 * step (two system calls) and cannot be told not to.
 *
 * libunwind's global cache keeps register rules by instruction address
 * only, for every process unwound in our one address space. So we remember
 * which mapping each cached range came from ("claims") and flush the cache
 * before a step whose address now belongs to another object: exec, dlclose
 * and two non-PIE programs at the same address stay correct. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <libunwind.h>

#include "tracetop/cfi.h"
#include "tracetop/elfimage.h"
#include "tracetop/unwind.h"

/* Exported by libunwind but declared in no public header (perf does the same). */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip,
                                              unw_dyn_info_t *di, unw_proc_info_t *pi,
                                              int need_unwind_info, void *arg);
#define dwarf_search_unwind_table UNW_OBJ(dwarf_search_unwind_table)

#define RS_CACHE_SIZE 1024   /* libunwind's per-address rule cache */
#define ROW_CACHE_SIZE 4096  /* our per-address rows (a power of two) */
#define RECORD_MAX (1 << 20) /* a bigger CIE or FDE is not one we trust */

/* What the global cache may hold for [start, end): rules of dso loaded at base. */
struct claim {
	uint64_t start, end, base;
	const struct dso *dso;
};

/* The rules at one address of one object, or that there are none we use. */
struct row_slot {
	const struct elfimage *img; /* NULL: empty */
	uint64_t vaddr;
	bool ok;
	struct cfi_row row;
};

struct unwind {
	unw_addr_space_t as;
	struct elfimages images;
	struct claim *claims; /* sorted by start, non-overlapping */
	size_t nclaims, claim_cap;
	struct row_slot *rows; /* ROW_CACHE_SIZE, direct-mapped */
	unsigned char *buf;    /* a CIE and an FDE being read */
	size_t buf_cap;
	bool slow_only; /* libunwind for every frame */
	struct unwind_stats stats;
};

/* One unwinding call: the argument libunwind hands to every accessor. */
struct uw_call {
	struct unwind *u;
	struct task *task;
	const struct unwind_sample *s;
	uint64_t regs[CFI_NREGS]; /* the frame being unwound, DWARF numbering... */
	uint32_t have;            /* ...and which of them are known */
	uint64_t sp;              /* where the stack copy starts */
	uint64_t stack_size;
	struct elfimage *img; /* object of the last find_proc_info... */
	uint64_t bias;        /* ...and its load bias */
	uint64_t fast_lo;     /* run-time range served by the last chunk read... */
	uint64_t fast_len;
	const unsigned char *fast; /* ...and its bytes */
};

/* Forget every claim, and the cached rules they stood for. */
static void
claims_reset(struct unwind *u)
{
	unw_flush_cache(u->as, 0, 0);
	u->nclaims = 0;
}

/* Index of the first claim ending after addr. */
static size_t
claim_search(const struct unwind *u, uint64_t addr)
{
	size_t lo = 0, hi = u->nclaims, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (u->claims[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether a claim stands for mapping m's object at m's place. */
static bool
claim_matches(const struct claim *c, const struct map *m)
{
	return m != NULL && c->dso == m->dso && c->base == m->start - m->pgoff;
}

/* Note that the cache may now hold rules for mapping m; a different claim
 * overlapping it has stale rules there, so flush. */
static void
claim_note(struct unwind *u, const struct map *m)
{
	size_t i = claim_search(u, m->start);

	if (i < u->nclaims && u->claims[i].start < m->end) {
		if (u->claims[i].start == m->start && u->claims[i].end == m->end &&
		    claim_matches(&u->claims[i], m))
			return;
		claims_reset(u);
		i = 0;
	}
	if (u->nclaims == u->claim_cap) {
		u->claim_cap = u->claim_cap ? u->claim_cap * 2 : 32;
		u->claims = xrealloc(u->claims, u->claim_cap * sizeof *u->claims);
	}
	memmove(&u->claims[i + 1], &u->claims[i], (u->nclaims - i) * sizeof *u->claims);
	u->claims[i] = (struct claim){m->start, m->end, m->start - m->pgoff, m->dso};
	u->nclaims++;
}

/* Before stepping from ip in task t: flush cached rules that another
 * mapping left at ip. */
static void
claim_check(struct unwind *u, const struct task *t, uint64_t ip)
{
	size_t i = claim_search(u, ip);

	if (i < u->nclaims && u->claims[i].start <= ip &&
	    !claim_matches(&u->claims[i], task_find_map(t, ip)))
		claims_reset(u);
}

/* libunwind: the unwind info for ip, from its object's .eh_frame_hdr. */
static int
find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi, int need_unwind_info,
               void *arg)
{
	struct uw_call *c = arg;
	const struct map *m = task_find_map(c->task, ip);
	struct elfimage *img = m != NULL ? elfimages_get(&c->u->images, m->dso) : NULL;
	unw_dyn_info_t di;
	uint64_t bias;

	if (img == NULL || !img->has_table || elfimage_bias(img, m, ip, &bias) != 0)
		return -UNW_ENOINFO;
	c->img = img;
	c->bias = bias;
	claim_note(c->u, m);
	memset(&di, 0, sizeof di);
	di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di.start_ip = m->start;
	di.end_ip = m->end;
	di.u.rti.segbase = img->hdr_vaddr + bias;
	di.u.rti.table_data = img->table_vaddr + bias;
	di.u.rti.table_len = img->fde_count * ELFIMAGE_TABLE_ENTRY / sizeof(unw_word_t);
	return dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
}

/* libunwind: nothing to release (the info lives in our caches). */
static void
put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
}

/* libunwind: no dynamically registered unwind info in a remote process. */
static int
get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *dilap, void *arg)
{
	return -UNW_ENOINFO;
}

/* Where run-time address addr is in a file: its image, file offset, and
 * the file range [*lo, *hi) mapped contiguously around it. 0 or -1. */
static int
addr_locate(struct uw_call *c, uint64_t addr, struct elfimage **img, uint64_t *off, uint64_t *lo,
            uint64_t *hi)
{
	const struct dso_seg *seg;
	const struct map *m;

	/* Tables and FDEs of the object being looked up, in any of its segments. */
	if (c->img != NULL && (seg = elfimage_seg_of_vaddr(c->img, addr - c->bias)) != NULL) {
		*img = c->img;
		*off = addr - c->bias - seg->vaddr + seg->off;
		*lo = seg->off;
		*hi = seg->off + seg->filesz;
		return 0;
	}
	/* Code of any mapped object. */
	m = task_find_map(c->task, addr);
	if (m == NULL || (*img = elfimages_get(&c->u->images, m->dso)) == NULL)
		return -1;
	*off = addr - m->start + m->pgoff;
	*lo = m->pgoff;
	*hi = m->pgoff + (m->end - m->start);
	return 0;
}

/* Read the word at addr from the files the task maps, and keep the
 * contiguous bytes around it for the next reads. */
static int
mem_from_file(struct uw_call *c, uint64_t addr, unw_word_t *valp)
{
	struct elfimage *img;
	uint64_t off, lo, hi, avail, before;
	const unsigned char *p;
	size_t len;

	if (addr_locate(c, addr, &img, &off, &lo, &hi) != 0 ||
	    (p = elfimage_bytes(img, off, &avail, &before)) == NULL)
		return -UNW_EINVAL;
	/* An aligned word at a segment's end may run on into the file's next
	 * bytes (zeros past its end). */
	len = img->size - off < sizeof *valp ? (size_t)(img->size - off) : sizeof *valp;
	if (elfimage_copy(img, off, valp, len) != 0)
		return -UNW_EINVAL;
	if (before > off - lo)
		before = off - lo;
	if (avail > hi - off)
		avail = hi - off;
	c->fast = p - before;
	c->fast_lo = addr - before;
	c->fast_len = before + avail;
	return 0;
}

/* libunwind: read a word from the stack copy or the mapped files; no writes. */
static int
access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *valp, int write, void *arg)
{
	struct uw_call *c = arg;

	if (write)
		return -UNW_EINVAL;
	*valp = 0;
	if (c->stack_size >= sizeof *valp && addr - c->sp <= c->stack_size - sizeof *valp) {
		memcpy(valp, (const unsigned char *)c->s->stack + (addr - c->sp), sizeof *valp);
		return 0;
	}
	if (c->fast_len >= sizeof *valp && addr - c->fast_lo <= c->fast_len - sizeof *valp) {
		memcpy(valp, c->fast + (addr - c->fast_lo), sizeof *valp);
		return 0;
	}
	return mem_from_file(c, addr, valp);
}

/* Position in the sample's regs of perf register r (UNWIND_REGS_MASK order). */
static size_t
regs_index(unsigned r)
{
	return (size_t)__builtin_popcountll(UNWIND_REGS_MASK & ((1ULL << r) - 1));
}

/* DWARF (and libunwind) x86-64 register numbers to perf's. */
static const unsigned char perf_reg_of[] = {
    [UNW_X86_64_RAX] = 0,  [UNW_X86_64_RDX] = 3,  [UNW_X86_64_RCX] = 2,  [UNW_X86_64_RBX] = 1,
    [UNW_X86_64_RSI] = 4,  [UNW_X86_64_RDI] = 5,  [UNW_X86_64_RBP] = 6,  [UNW_X86_64_RSP] = 7,
    [UNW_X86_64_R8] = 16,  [UNW_X86_64_R9] = 17,  [UNW_X86_64_R10] = 18, [UNW_X86_64_R11] = 19,
    [UNW_X86_64_R12] = 20, [UNW_X86_64_R13] = 21, [UNW_X86_64_R14] = 22, [UNW_X86_64_R15] = 23,
    [UNW_X86_64_RIP] = 8,
};

/* libunwind: a register of the frame being unwound; read-only. */
static int
access_reg(unw_addr_space_t as, unw_regnum_t regnum, unw_word_t *valp, int write, void *arg)
{
	struct uw_call *c = arg;

	if (write)
		return -UNW_EREADONLYREG;
	if (regnum < 0 || regnum >= CFI_NREGS || !(c->have & (1U << regnum)))
		return -UNW_EBADREG;
	*valp = c->regs[regnum];
	return 0;
}

/* libunwind: no floating-point registers in a sample. */
static int
access_fpreg(unw_addr_space_t as, unw_regnum_t regnum, unw_fpreg_t *val, int write, void *arg)
{
	return -UNW_EINVAL;
}

/* libunwind: a copied stack cannot be resumed. */
static int
resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	return -UNW_EINVAL;
}

/* libunwind: names come from our own symbol tables. */
static int
get_proc_name(unw_addr_space_t as, unw_word_t addr, char *bufp, size_t buf_len, unw_word_t *offp,
              void *arg)
{
	return -UNW_EINVAL;
}

static unw_accessors_t accessors = {
    .find_proc_info = find_proc_info,
    .put_unwind_info = put_unwind_info,
    .get_dyn_info_list_addr = get_dyn_info_list_addr,
    .access_mem = access_mem,
    .access_reg = access_reg,
    .access_fpreg = access_fpreg,
    .resume = resume,
    .get_proc_name = get_proc_name,
};

/* A new unwinder: our row cache and one libunwind address space. */
struct unwind *
unwind_new(void)
{
	struct unwind *u = xcalloc(1, sizeof *u);

	u->as = unw_create_addr_space(&accessors, 0);
	if (u->as == NULL)
		fatal("libunwind: cannot create an address space");
	unw_set_caching_policy(u->as, UNW_CACHE_GLOBAL);
	unw_set_cache_size(u->as, RS_CACHE_SIZE, 0);
	u->rows = xcalloc(ROW_CACHE_SIZE, sizeof *u->rows);
	return u;
}

/* Free an unwinder and its caches. */
void
unwind_free(struct unwind *u)
{
	if (u == NULL)
		return;
	elfimages_clear(&u->images);
	free(u->claims);
	free(u->rows);
	free(u->buf);
	unw_destroy_addr_space(u->as);
	free(u);
}

/* Forget every cached table, rule and file byte. */
void
unwind_flush(struct unwind *u)
{
	claims_reset(u);
	memset(u->rows, 0, ROW_CACHE_SIZE * sizeof *u->rows);
	elfimages_clear(&u->images);
}

/* Set up a call at the sample's registers; false if the sample lacks the
 * registers an unwind needs. */
static bool
call_init(struct uw_call *c, struct unwind *u, struct task *t, const struct unwind_sample *s)
{
	size_t i;

	memset(c, 0, sizeof *c);
	if (t == NULL || s->regs == NULL)
		return false;
	for (unsigned r = 0; r < CFI_NREGS; r++)
		if ((i = regs_index(perf_reg_of[r])) < s->nregs) {
			c->regs[r] = s->regs[i];
			c->have |= 1U << r;
		}
	if (!(c->have & (1U << CFI_REG_RA)) || !(c->have & (1U << CFI_REG_RSP)))
		return false;
	c->u = u;
	c->task = t;
	c->s = s;
	c->sp = c->regs[CFI_REG_RSP];
	c->stack_size = s->stack != NULL ? s->stack_size : 0;
	return true;
}

/* Copy an FDE at file offset fde_off (link-time address fde_vaddr; 0 in
 * .debug_frame, which has no pc-relative pointers) and its CIE into u->buf.
 * sec_off: where .debug_frame starts (CIE pointers are offsets in it). */
static int
records_read(struct unwind *u, struct elfimage *img, enum cfi_section sec, uint64_t sec_off,
             uint64_t fde_off, uint64_t fde_vaddr, struct cfi_bytes *cie, struct cfi_bytes *fde)
{
	unsigned char hdr[8];
	uint64_t fde_size, cie_size = 0, cie_at, cie_off;
	struct cfi_bytes b = {.p = hdr, .len = sizeof hdr, .vaddr = fde_vaddr};

	if (elfimage_copy(img, fde_off, hdr, sizeof hdr) != 0 ||
	    cfi_fde_header(&b, sec, &fde_size, &cie_at) != 0)
		return -1;
	cie_off = sec == CFI_EH_FRAME ? fde_off - (fde_vaddr - cie_at) : sec_off + cie_at;
	/* The CIE's size: its 4-byte length (64-bit records are refused). */
	if (elfimage_copy(img, cie_off, &cie_size, 4) != 0 || cie_size == 0xffffffff ||
	    fde_size > RECORD_MAX || cie_size > RECORD_MAX)
		return -1;
	cie_size += 4;
	if (u->buf_cap < fde_size + cie_size) {
		u->buf_cap = fde_size + cie_size;
		u->buf = xrealloc(u->buf, u->buf_cap);
	}
	*fde = (struct cfi_bytes){u->buf, fde_size, fde_vaddr};
	*cie = (struct cfi_bytes){u->buf + fde_size, cie_size, sec == CFI_EH_FRAME ? cie_at : 0};
	return elfimage_copy(img, fde_off, u->buf, fde_size) != 0 ||
	               elfimage_copy(img, cie_off, u->buf + fde_size, cie_size) != 0
	           ? -1
	           : 0;
}

/* The rules at vaddr from .eh_frame (through .eh_frame_hdr). 0 or -1. */
static int
row_eh_frame(struct unwind *u, struct elfimage *img, uint64_t vaddr, struct cfi_row *row)
{
	const struct dso_seg *seg;
	struct cfi_bytes cie, fde;
	uint64_t fde_vaddr;

	if (elfimage_fde_find(img, vaddr, &fde_vaddr) != 0 ||
	    (seg = elfimage_seg_of_vaddr(img, fde_vaddr)) == NULL)
		return -1;
	return records_read(u, img, CFI_EH_FRAME, 0, seg->off + (fde_vaddr - seg->vaddr), fde_vaddr,
	                    &cie, &fde) == 0 &&
	               cfi_row_at(&cie, &fde, CFI_EH_FRAME, vaddr, row) == 0
	           ? 0
	           : -1;
}

/* The rules at vaddr from .debug_frame (code built without unwind
 * tables, e.g. -fno-asynchronous-unwind-tables -g). 0 or -1. */
static int
row_debug_frame(struct unwind *u, struct elfimage *img, uint64_t vaddr, struct cfi_row *row)
{
	struct cfi_bytes cie, fde;
	uint64_t fde_off, sec_off;

	if (elfimage_debug_fde_find(img, vaddr, &fde_off, &sec_off) != 0)
		return -1;
	return records_read(u, img, CFI_DEBUG_FRAME, sec_off, fde_off, 0, &cie, &fde) == 0 &&
	               cfi_row_at(&cie, &fde, CFI_DEBUG_FRAME, vaddr, row) == 0
	           ? 0
	           : -1;
}

/* The rules at link-time address vaddr of img, interpreted on first use;
 * NULL when there are none we can apply. */
static const struct cfi_row *
row_get(struct unwind *u, struct elfimage *img, uint64_t vaddr)
{
	struct row_slot *sl = &u->rows[hash_u64(vaddr ^ (uintptr_t)img) & (ROW_CACHE_SIZE - 1)];

	if (sl->img != img || sl->vaddr != vaddr) {
		sl->img = img;
		sl->vaddr = vaddr;
		u->stats.rows++;
		sl->ok = row_eh_frame(u, img, vaddr, &sl->row) == 0 ||
		         row_debug_frame(u, img, vaddr, &sl->row) == 0;
	}
	return sl->ok ? &sl->row : NULL;
}

/* The stack word at run-time address addr, if the sample copied it. */
static bool
stack_word(const struct uw_call *c, uint64_t addr, uint64_t *val)
{
	if (c->stack_size < sizeof *val || addr - c->sp > c->stack_size - sizeof *val)
		return false;
	memcpy(val, (const unsigned char *)c->s->stack + (addr - c->sp), sizeof *val);
	return true;
}

enum step {
	STEP_OK,   /* c->regs now hold the caller's frame */
	STEP_END,  /* the outermost frame, or the copied stack ends */
	STEP_SLOW, /* a frame for libunwind */
};

/* One step with our own rules, from the frame in c->regs to its caller.
 * A return address points after its call, so callers are looked up one
 * byte back (leaf: the sampled address itself). */
static enum step
fast_step(struct uw_call *c, bool leaf)
{
	uint64_t ip = c->regs[CFI_REG_RA], look = leaf ? ip : ip - 1, bias, cfa;
	uint64_t regs[CFI_NREGS];
	const struct map *m = task_find_map(c->task, look);
	struct elfimage *img = m != NULL ? elfimages_get(&c->u->images, m->dso) : NULL;
	const struct cfi_row *row;
	uint32_t have = c->have;

	if (c->u->slow_only || img == NULL || elfimage_bias(img, m, look, &bias) != 0 ||
	    (row = row_get(c->u, img, look - bias)) == NULL || row->signal_frame || row->cfa_expr ||
	    !(have & (1U << row->cfa_reg)))
		return STEP_SLOW;
	cfa = c->regs[row->cfa_reg] + (uint64_t)(int64_t)row->cfa_off;
	memcpy(regs, c->regs, sizeof regs);
	regs[CFI_REG_RSP] = cfa; /* the x86-64 ABI: the caller's sp is the CFA */
	have |= 1U << CFI_REG_RSP;
	for (unsigned r = 0; r < CFI_NREGS; r++) {
		uint64_t at = cfa + (uint64_t)(int64_t)row->off[r];

		switch (row->rule[r]) {
		case CFI_SAME:
			break;
		case CFI_UNDEF:
			if (r == CFI_REG_RA)
				return STEP_END;
			have &= ~(1U << r);
			break;
		case CFI_OFFSET:
			if (!stack_word(c, at, &regs[r]))
				return STEP_END;
			have |= 1U << r;
			break;
		case CFI_VAL_OFFSET:
			regs[r] = at;
			have |= 1U << r;
			break;
		default:
			return STEP_SLOW;
		}
	}
	/* No return-address rule: the frame is not one we understand. */
	if (row->rule[CFI_REG_RA] != CFI_OFFSET)
		return STEP_SLOW;
	memcpy(c->regs, regs, sizeof regs);
	c->have = have;
	c->u->stats.fast_steps++;
	return STEP_OK;
}

/* Continue an unwind with libunwind from the frame in c->regs (already
 * recorded as ips[n - 1]); returns the new frame count. */
static size_t
slow_unwind(struct uw_call *c, uint64_t *ips, size_t n, size_t max)
{
	unw_cursor_t cur;
	unw_word_t ip = c->regs[CFI_REG_RA], sp, last_sp = c->regs[CFI_REG_RSP];

	c->u->stats.slow_unwinds++;
	/* libunwind reads c->regs lazily: they stay as they are from here. */
	if (unw_init_remote(&cur, c->u->as, c) < 0)
		return n;
	while (n < max) {
		claim_check(c->u, c->task, ip);
		if (unw_step(&cur) <= 0 || unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 || ip == 0 ||
		    unw_get_reg(&cur, UNW_REG_SP, &sp) < 0)
			break;
		/* A step that moved nothing would repeat forever. */
		if (ip == ips[n - 1] && sp == last_sp)
			break;
		ips[n++] = ip;
		last_sp = sp;
	}
	return n;
}

/* Unwind a sample's user stack: return addresses, leaf first. */
size_t
unwind_user(struct unwind *u, struct task *t, const struct unwind_sample *s, uint64_t *ips,
            size_t max)
{
	struct uw_call c;
	size_t n = 0;

	if (max == 0 || !call_init(&c, u, t, s) || c.regs[CFI_REG_RA] == 0)
		return 0;
	ips[n++] = c.regs[CFI_REG_RA];
	while (n < max) {
		uint64_t sp = c.regs[CFI_REG_RSP];

		switch (fast_step(&c, n == 1)) {
		case STEP_END:
			return n;
		case STEP_SLOW:
			return slow_unwind(&c, ips, n, max);
		case STEP_OK:
			break;
		}
		if (c.regs[CFI_REG_RA] == 0 ||
		    (c.regs[CFI_REG_RA] == ips[n - 1] && c.regs[CFI_REG_RSP] == sp))
			break;
		ips[n++] = c.regs[CFI_REG_RA];
	}
	return n;
}

/* The leaf's return address from one unwind step, or 0. */
uint64_t
unwind_leaf_return(struct unwind *u, struct task *t, const struct unwind_sample *s)
{
	struct uw_call c;
	uint64_t ips[2];

	if (!call_init(&c, u, t, s) || c.regs[CFI_REG_RA] == 0)
		return 0;
	ips[0] = c.regs[CFI_REG_RA];
	switch (fast_step(&c, true)) {
	case STEP_OK:
		return c.regs[CFI_REG_RA];
	case STEP_END:
		return 0;
	default:
		return slow_unwind(&c, ips, 1, 2) == 2 ? ips[1] : 0;
	}
}

/* Counters of the work done so far. */
const struct unwind_stats *
unwind_stats(const struct unwind *u)
{
	return &u->stats;
}

/* Switch our own rules on or off (libunwind alone when off). */
void
unwind_set_fast(struct unwind *u, bool on)
{
	u->slow_only = !on;
}
