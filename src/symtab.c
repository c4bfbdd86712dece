/* symtab: a sorted table of function symbols with block-allocated names. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/symtab.h"
#include "tracetop/util.h"

/* Names are packed into blocks of this size; longer names get their own. */
#define STR_BLOCK (64 * 1024)

/* How many predecessors lookup inspects when the nearest symbol is too short. */
#define LOOKUP_BACKTRACK 4

/* Tables this big get an index; its stretches hold this many symbols on
 * average (4 bytes of index per that many symbols). */
#define INDEX_MIN 256
#define INDEX_PER 8

/* An empty table. */
void
symtab_init(struct symtab *st)
{
	memset(st, 0, sizeof *st);
}

/* Free a full name unless it is the raw one. */
void
sym_free_dname(struct sym *s)
{
	if (s->dname != NULL && s->dname != s->name)
		free((char *)s->dname);
	s->dname = NULL;
}

/* Free the symbols, their full names and every string block. */
void
symtab_free(struct symtab *st)
{
	size_t i;

	if (st->pack_ops != NULL) {
		st->pack_ops->free(st->pack);
		symtab_init(st);
		return;
	}
	for (i = 0; i < st->n; i++)
		sym_free_dname(&st->syms[i]);
	for (i = 0; i < st->nblocks; i++)
		free(st->blocks[i]);
	free(st->blocks);
	free(st->syms);
	free(st->index);
	symtab_init(st);
}

/* Append a block to the block list; the last block is the one being filled. */
static void
push_block(struct symtab *st, char *block)
{
	st->blocks = xrealloc(st->blocks, (st->nblocks + 1) * sizeof *st->blocks);
	st->blocks[st->nblocks++] = block;
}

/* Copy len bytes of s plus a NUL into the string blocks. */
static const char *
store_str(struct symtab *st, const char *s, size_t len)
{
	char *dst;

	if (len + 1 > STR_BLOCK / 4) {
		/* A big name gets a block of its own, slotted in before the
		 * block being filled so that one stays last. */
		dst = xmalloc(len + 1);
		push_block(st, dst);
		if (st->nblocks > 1 && st->block_cap != 0) {
			st->blocks[st->nblocks - 1] = st->blocks[st->nblocks - 2];
			st->blocks[st->nblocks - 2] = dst;
		}
	} else {
		if (st->block_cap - st->block_used < len + 1) {
			push_block(st, xmalloc(STR_BLOCK));
			st->block_used = 0;
			st->block_cap = STR_BLOCK;
		}
		dst = st->blocks[st->nblocks - 1] + st->block_used;
		st->block_used += len + 1;
	}
	memcpy(dst, s, len);
	dst[len] = '\0';
	return dst;
}

/* Add a symbol whose name is namelen bytes long. */
void
symtab_add_n(struct symtab *st, uint64_t start, uint64_t size, const char *name, size_t namelen,
             const char *module)
{
	struct sym *s;
	const struct sym *prev;

	free(st->index); /* the next symtab_finish makes it again */
	st->index = NULL;
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 256;
		st->syms = xrealloc(st->syms, st->cap * sizeof *st->syms);
	}
	prev = st->n ? &st->syms[st->n - 1] : NULL;
	s = &st->syms[st->n++];
	s->start = start;
	s->size = size;
	s->name = store_str(st, name, namelen);
	s->dname = NULL;
	if (module == NULL)
		s->module = NULL;
	else if (prev != NULL && prev->module != NULL && strcmp(prev->module, module) == 0)
		s->module = prev->module;
	else
		s->module = store_str(st, module, strlen(module));
}

/* Add a symbol with a NUL-terminated name. */
void
symtab_add(struct symtab *st, uint64_t start, uint64_t size, const char *name, const char *module)
{
	if (name == NULL)
		name = "";
	symtab_add_n(st, start, size, name, strlen(name), module);
}

/* Leading underscores of a name: fewer means a more public alias. */
static size_t
underscores(const char *s)
{
	return strspn(s, "_");
}

/* qsort order: by start, then the best alias of a start first. */
static int
sym_cmp(const void *pa, const void *pb)
{
	const struct sym *a = pa, *b = pb;
	size_t ua, ub;

	if (a->start != b->start)
		return CMP3(a->start, b->start);
	if ((a->size == 0) != (b->size == 0))
		return a->size == 0 ? 1 : -1;
	ua = underscores(a->name);
	ub = underscores(b->name);
	if (ua != ub)
		return CMP3(ua, ub);
	/* as perf: the longest name (__memmove_avx_unaligned_erms over its
	 * alias __memcpy_avx_unaligned_erms), then a fixed order */
	ua = strlen(a->name);
	ub = strlen(b->name);
	if (ua != ub)
		return CMP3(ub, ua);
	return strcmp(a->name, b->name);
}

/* The index of a sorted table: stretches of a power of two bytes, as
 * many as an eighth of its symbols or fewer. */
static void
index_build(struct symtab *st)
{
	uint64_t span;
	unsigned shift = 0;
	size_t b = 0;

	free(st->index);
	st->index = NULL;
	if (st->n < INDEX_MIN || st->n > UINT32_MAX)
		return;
	st->index_base = st->syms[0].start;
	span = st->syms[st->n - 1].start - st->index_base;
	while (shift < 63 && (span >> shift) + 1 > st->n / INDEX_PER)
		shift++;
	st->index_shift = shift;
	st->nindex = (size_t)(span >> shift) + 1;
	st->index = xmalloc((st->nindex + 1) * sizeof *st->index);
	for (size_t i = 0; i < st->n; i++) {
		size_t bi = (size_t)((st->syms[i].start - st->index_base) >> shift);

		while (b <= bi)
			st->index[b++] = (uint32_t)i;
	}
	while (b <= st->nindex)
		st->index[b++] = (uint32_t)st->n;
}

/* Sort, de-duplicate starts and size the zero-sized symbols. */
void
symtab_finish(struct symtab *st, uint64_t max_gap)
{
	size_t i, out = 0;
	uint64_t gap;

	if (max_gap == 0)
		max_gap = 1;
	if (st->n > 1)
		qsort(st->syms, st->n, sizeof *st->syms, sym_cmp);
	for (i = 0; i < st->n; i++) {
		if (out > 0 && st->syms[out - 1].start == st->syms[i].start)
			continue;
		st->syms[out++] = st->syms[i];
	}
	st->n = out;
	/* the doubling left up to half the array unused, for the table's life */
	if (st->cap > st->n && st->n > 0) {
		st->syms = xrealloc(st->syms, st->n * sizeof *st->syms);
		st->cap = st->n;
	}
	for (i = 0; i < st->n; i++) {
		struct sym *s = &st->syms[i];

		if (s->size != 0)
			continue;
		gap = i + 1 < st->n ? st->syms[i + 1].start - s->start : max_gap;
		if (gap > max_gap)
			gap = max_gap;
		if (gap > UINT64_MAX - s->start)
			gap = UINT64_MAX - s->start;
		s->size = gap ? gap : 1;
	}
	index_build(st);
}

/* Binary search for the symbol holding addr (within its stretch of the
 * index, when the table has one). */
const struct sym *
symtab_lookup(const struct symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->n, mid, k;

	if (st->pack_ops != NULL)
		return st->pack_ops->lookup(st->pack, addr);
	if (st->index != NULL) {
		uint64_t b;

		if (addr < st->index_base)
			return NULL;
		b = (addr - st->index_base) >> st->index_shift;
		if (b >= st->nindex) {
			lo = hi = st->n;
		} else {
			lo = st->index[b];
			hi = st->index[b + 1];
		}
	}

	/* Find the first symbol starting after addr. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (st->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = 0; k < LOOKUP_BACKTRACK && lo > 0; k++, lo--) {
		const struct sym *s = &st->syms[lo - 1];

		if (addr - s->start < s->size)
			return s;
	}
	return NULL;
}

/* Read fd to its end into a growing buffer. */
int
symtab_read_fd(int fd, size_t limit, char **bufp, size_t *lenp)
{
	size_t len = 0, cap = 256 * 1024;
	char *buf = xmalloc(cap);
	ssize_t n;

	for (;;) {
		if (cap - len < 2) {
			if (cap > limit) {
				free(buf);
				errno = EFBIG;
				return -1;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > limit) {
			free(buf);
			errno = EFBIG;
			return -1;
		}
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}
