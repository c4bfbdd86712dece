/* symtab-pack: a packed table of unsized symbols. Built as (start, name
 * offset, module) entries over one buffer of names, then sorted and
 * packed: the starts as 32-bit offsets from the first (64-bit when the
 * table spans more), the modules as 16-bit ids, the names NUL-separated
 * in blocks of PACK_BLOCK, each deflated on its own. The kernel's 64,000
 * names (1.4 MiB) take about 480 KiB so, and a lookup inflates one block
 * of about 1.5 KiB the first time it finds one of its symbols. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/gz.h"
#include "tracetop/symtab-pack.h"
#include "tracetop/util.h"

/* Names deflated together: more compress better, fewer inflate faster. */
#define PACK_BLOCK 64

/* Symbols made by lookups come from pools of this many. */
#define PACK_POOL 128

/* Bytes of the string arena's chunks for their names. */
#define PACK_ARENA (16U << 10)

/* A symbol while the table is built. */
struct pack_ent {
	uint64_t start;
	uint32_t name; /* offset in names */
	uint16_t mod;  /* 0: none, else mods[mod - 1] */
};

/* A chunk of the made symbols or of their names. */
struct pack_chunk {
	struct pack_chunk *next;
	size_t used;
	unsigned char data[];
};

struct sympack {
	/* building */
	struct pack_ent *ents;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
	/* the modules' names, interned */
	char **mods;
	size_t nmods;
	/* packed */
	uint64_t base, max_gap;
	uint32_t *off;   /* start - base, or NULL when starts64 */
	uint64_t *abs;   /* starts of a table spanning 4 GiB or more */
	uint16_t *modid; /* by symbol, NULL without modules */
	unsigned char *blob;
	uint32_t *block_at; /* nblocks + 1 offsets into blob */
	size_t nblocks, block_max;
	bool raw; /* zlib would not start: the blocks are kept as they are */
	/* the block inflated last */
	char *plain;
	size_t plain_block, plain_len;
	/* the symbols made, by index (slot: index + 1, 0 free) */
	uint32_t *slot_key;
	struct sym **slot_sym;
	size_t slot_mask, nmade;
	struct pack_chunk *syms, *strs;
};

/* The chunk at the head of *list with room for size bytes, a new one
 * pushed when it has none. */
static void *
chunk_take(struct pack_chunk **list, size_t chunk_size, size_t size)
{
	struct pack_chunk *c = *list;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (c == NULL || chunk_size - c->used < size) {
		size_t cap = size > chunk_size ? size : chunk_size;

		c = xmalloc(sizeof *c + cap);
		c->used = 0;
		c->next = *list;
		*list = c;
		if (cap > chunk_size) { /* a big one of its own: full from the start */
			c->used = cap;
			return c->data;
		}
	}
	p = c->data + c->used;
	c->used += size;
	return p;
}

/* Free a list of chunks. */
static void
chunk_free(struct pack_chunk *c)
{
	while (c != NULL) {
		struct pack_chunk *next = c->next;

		free(c);
		c = next;
	}
}

/* An empty table being built. */
struct sympack *
sympack_new(void)
{
	return xcalloc(1, sizeof(struct sympack));
}

/* The id of a module name, interned (the last one is checked first: a
 * module's symbols come together). */
static uint16_t
mod_id(struct sympack *p, const char *module)
{
	if (module == NULL)
		return 0;
	if (p->nmods > 0 && strcmp(p->mods[p->nmods - 1], module) == 0)
		return (uint16_t)p->nmods;
	for (size_t i = 0; i < p->nmods; i++)
		if (strcmp(p->mods[i], module) == 0)
			return (uint16_t)(i + 1);
	if (p->nmods >= UINT16_MAX)
		return 0; /* 65,535 modules: the rest go unnamed */
	p->mods = xrealloc(p->mods, (p->nmods + 1) * sizeof *p->mods);
	p->mods[p->nmods++] = xstrdup(module);
	return (uint16_t)p->nmods;
}

/* Add a symbol: its entry, its name at the end of the names. */
void
sympack_add(struct sympack *p, uint64_t start, const char *name, size_t namelen, const char *module)
{
	if (p->names_len + namelen + 1 > UINT32_MAX)
		return; /* 4 GiB of names: not a kallsyms */
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 1024;
		p->ents = xrealloc(p->ents, p->cap * sizeof *p->ents);
	}
	while (p->names_len + namelen + 1 > p->names_cap) {
		p->names_cap = p->names_cap ? p->names_cap * 2 : 64 * 1024;
		p->names = xrealloc(p->names, p->names_cap);
	}
	p->ents[p->n++] = (struct pack_ent){
	    .start = start, .name = (uint32_t)p->names_len, .mod = mod_id(p, module)};
	memcpy(p->names + p->names_len, name, namelen);
	p->names[p->names_len + namelen] = '\0';
	p->names_len += namelen + 1;
}

/* Symbols added, or kept. */
size_t
sympack_count(const struct sympack *p)
{
	return p->n;
}

/* qsort_r order over the names: by start, then the best alias first (as
 * symtab_finish: the fewest leading underscores, the longest name, then
 * by name). */
static int
ent_cmp(const void *pa, const void *pb, void *names)
{
	const struct pack_ent *a = pa, *b = pb;
	const char *na = (const char *)names + a->name, *nb = (const char *)names + b->name;
	size_t ua, ub;

	if (a->start != b->start)
		return CMP3(a->start, b->start);
	ua = strspn(na, "_");
	ub = strspn(nb, "_");
	if (ua != ub)
		return CMP3(ua, ub);
	ua = strlen(na);
	ub = strlen(nb);
	if (ua != ub)
		return CMP3(ub, ua);
	return strcmp(na, nb);
}

/* Symbol i's start. */
static uint64_t
start_at(const struct sympack *p, size_t i)
{
	return p->off != NULL ? p->base + p->off[i] : p->abs[i];
}

/* Pack the sorted entries' starts and modules. */
static void
pack_starts(struct sympack *p)
{
	bool wide = p->ents[p->n - 1].start - p->ents[0].start > UINT32_MAX;

	p->base = p->ents[0].start;
	if (wide)
		p->abs = xmalloc(p->n * sizeof *p->abs);
	else
		p->off = xmalloc(p->n * sizeof *p->off);
	if (p->nmods > 0)
		p->modid = xmalloc(p->n * sizeof *p->modid);
	for (size_t i = 0; i < p->n; i++) {
		if (wide)
			p->abs[i] = p->ents[i].start;
		else
			p->off[i] = (uint32_t)(p->ents[i].start - p->base);
		if (p->modid != NULL)
			p->modid[i] = p->ents[i].mod;
	}
}

/* Deflate the names, PACK_BLOCK to a block (kept as they are when zlib
 * would not start). */
static void
pack_names(struct sympack *p)
{
	struct gz_deflater *d = gz_deflater_new();
	size_t cap = 0, len = 0, plain_cap = 0;
	char *plain = NULL;

	p->nblocks = (p->n + PACK_BLOCK - 1) / PACK_BLOCK;
	p->block_at = xmalloc((p->nblocks + 1) * sizeof *p->block_at);
	for (size_t b = 0; b < p->nblocks; b++) {
		size_t raw = 0, out = 0, last = b * PACK_BLOCK + PACK_BLOCK;

		for (size_t i = b * PACK_BLOCK; i < last && i < p->n; i++) {
			const char *nm = p->names + p->ents[i].name;
			size_t nl = strlen(nm) + 1;

			if (raw + nl > plain_cap) {
				plain_cap = (raw + nl) * 2;
				plain = xrealloc(plain, plain_cap);
			}
			memcpy(plain + raw, nm, nl);
			raw += nl;
		}
		if (len + gz_deflate_bound(raw) > cap) {
			cap = (len + gz_deflate_bound(raw)) * 2;
			p->blob = xrealloc(p->blob, cap);
		}
		if (d != NULL)
			out = gz_deflate_raw(d, plain, raw, p->blob + len, cap - len);
		if (out == 0) { /* as the bound makes room for all: never, unless no zlib */
			gz_deflater_free(d);
			d = NULL;
			p->raw = true;
		}
		if (p->raw) {
			memcpy(p->blob + len, plain, raw);
			out = raw;
		}
		p->block_at[b] = (uint32_t)len;
		len += out;
		if (raw > p->block_max)
			p->block_max = raw;
	}
	p->block_at[p->nblocks] = (uint32_t)len;
	p->blob = xrealloc(p->blob, len ? len : 1);
	free(plain);
	gz_deflater_free(d);
}

/* The names of block b, inflated into plain (kept for the next lookup). */
static bool
block_read(struct sympack *p, size_t b)
{
	size_t at = p->block_at[b], len = p->block_at[b + 1] - at;
	long got;

	if (p->plain != NULL && p->plain_block == b)
		return true;
	if (p->plain == NULL)
		p->plain = xmalloc(p->block_max);
	p->plain_block = SIZE_MAX;
	if (p->raw) {
		memcpy(p->plain, p->blob + at, len);
		got = (long)len;
	} else if ((got = gz_inflate_raw(p->blob + at, len, p->plain, p->block_max)) < 0) {
		return false;
	}
	p->plain_block = b;
	p->plain_len = (size_t)got;
	return true;
}

/* The slot of index i in the made symbols' table. */
static size_t
slot_find(const struct sympack *p, uint32_t i)
{
	size_t s = (size_t)hash_u64(i) & p->slot_mask;

	while (p->slot_key[s] != 0 && p->slot_key[s] != i + 1)
		s = (s + 1) & p->slot_mask;
	return s;
}

/* Room for one more made symbol (the table at most half full). */
static void
slot_grow(struct sympack *p)
{
	uint32_t *keys = p->slot_key;
	struct sym **syms = p->slot_sym;
	size_t old = keys != NULL ? p->slot_mask + 1 : 0, cap;

	if (2 * (p->nmade + 1) <= old)
		return;
	cap = old ? old * 2 : 256;
	p->slot_key = xcalloc(cap, sizeof *p->slot_key);
	p->slot_sym = xcalloc(cap, sizeof *p->slot_sym);
	p->slot_mask = cap - 1;
	for (size_t s = 0; s < old; s++) {
		if (keys[s] != 0) {
			size_t t = slot_find(p, keys[s] - 1);

			p->slot_key[t] = keys[s];
			p->slot_sym[t] = syms[s];
		}
	}
	free(keys);
	free(syms);
}

/* The symbol of index i and size size, made on first use. */
static const struct sym *
sym_make(struct sympack *p, uint32_t i, uint64_t size)
{
	size_t s = p->slot_key != NULL ? slot_find(p, i) : 0, k;
	const char *nm;
	struct sym *sym;
	char *name;

	if (p->slot_key != NULL && p->slot_key[s] != 0)
		return p->slot_sym[s];
	if (!block_read(p, i / PACK_BLOCK))
		return NULL;
	nm = p->plain;
	for (k = 0; k < i % PACK_BLOCK; k++) {
		const char *nul = memchr(nm, '\0', p->plain_len - (size_t)(nm - p->plain));

		if (nul == NULL || nul + 1 >= p->plain + p->plain_len)
			return NULL;
		nm = nul + 1;
	}
	if (memchr(nm, '\0', p->plain_len - (size_t)(nm - p->plain)) == NULL)
		return NULL;
	name = chunk_take(&p->strs, PACK_ARENA, strlen(nm) + 1);
	strcpy(name, nm);
	sym = chunk_take(&p->syms, PACK_POOL * sizeof *sym, sizeof *sym);
	*sym = (struct sym){
	    .start = start_at(p, i),
	    .size = size,
	    .name = name,
	    .module = p->modid != NULL && p->modid[i] != 0 ? p->mods[p->modid[i] - 1] : NULL};
	slot_grow(p);
	s = slot_find(p, i);
	p->slot_key[s] = i + 1;
	p->slot_sym[s] = sym;
	p->nmade++;
	return sym;
}

/* The symbol holding addr: the last one starting at or before it, when
 * addr is within its size (the gap to the next, at most max_gap). */
static const struct sym *
pack_lookup(void *pack, uint64_t addr)
{
	struct sympack *p = pack;
	size_t lo = 0, hi = p->n, mid;
	uint64_t start, size;

	if (p->n == 0 || addr < p->base)
		return NULL;
	while (lo < hi) { /* the first symbol starting after addr */
		mid = lo + (hi - lo) / 2;
		if (start_at(p, mid) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	start = start_at(p, lo - 1);
	size = lo < p->n ? start_at(p, lo) - start : p->max_gap;
	if (size > p->max_gap)
		size = p->max_gap;
	if (size > UINT64_MAX - start)
		size = UINT64_MAX - start;
	if (addr - start >= (size ? size : 1))
		return NULL;
	return sym_make(p, (uint32_t)(lo - 1), size ? size : 1);
}

/* Free everything, the made symbols' full names too. */
void
sympack_free(struct sympack *p)
{
	if (p == NULL)
		return;
	for (size_t s = 0; p->slot_key != NULL && s <= p->slot_mask; s++)
		if (p->slot_key[s] != 0)
			sym_free_dname(p->slot_sym[s]);
	for (size_t i = 0; i < p->nmods; i++)
		free(p->mods[i]);
	free(p->mods);
	free(p->ents);
	free(p->names);
	free(p->off);
	free(p->abs);
	free(p->modid);
	free(p->blob);
	free(p->block_at);
	free(p->plain);
	free(p->slot_key);
	free(p->slot_sym);
	chunk_free(p->syms);
	chunk_free(p->strs);
	free(p);
}

/* sympack_free for a symtab. */
static void
pack_free(void *pack)
{
	sympack_free(pack);
}

static const struct symtab_pack_ops pack_ops = {
    .lookup = pack_lookup,
    .free = pack_free,
};

/* Sort, de-duplicate, pack, and hand over. */
void
sympack_finish(struct sympack *p, uint64_t max_gap, struct symtab *st)
{
	size_t out = 0;

	symtab_free(st);
	p->max_gap = max_gap ? max_gap : 1;
	/* the kernel's table may be built on the worker and the loop's
	 * threads at once: the names go as the sort's argument */
	if (p->n > 1)
		qsort_r(p->ents, p->n, sizeof *p->ents, ent_cmp, p->names);
	for (size_t i = 0; i < p->n; i++) {
		if (out > 0 && p->ents[out - 1].start == p->ents[i].start)
			continue;
		p->ents[out++] = p->ents[i];
	}
	p->n = out;
	if (p->n > UINT32_MAX)
		p->n = UINT32_MAX; /* lookups index with 32 bits */
	if (p->n > 0) {
		pack_starts(p);
		pack_names(p);
	}
	free(p->ents);
	free(p->names);
	p->ents = NULL;
	p->names = NULL;
	p->cap = p->names_len = p->names_cap = 0;
	st->n = p->n;
	st->pack = p;
	st->pack_ops = &pack_ops;
}
