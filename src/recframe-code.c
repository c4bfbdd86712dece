/* recframe-code: what Annotate needs, in a chunk: for each of the hottest
 * functions (those whose instructions the engine counts, copied to the
 * frame), its samples per instruction in the interval and, the first time
 * it is hot, its code bytes and source lines as the live annotation read
 * them (bounded: RECORD_CODE_BYTES of a function, RECORD_CODE_FUNCS
 * functions a recording). The reader adds the samples up per event in an
 * address histogram like the engine's, and is where annotate_new finds a
 * stand-in function's code (annotate_set_source). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recframe-impl.h"
#include "tracetop/addrhist.h"
#include "tracetop/annotate.h"
#include "tracetop/recfile.h"

/* Bounds: code bytes of a function, functions with code in a recording,
 * source lines of a function, functions copied to a replay's frame. */
#define RECORD_CODE_BYTES (64u << 10)
#define RECORD_CODE_FUNCS 4096
#define MAX_LINES (1u << 16)
#define MAX_FUNCS 65536
#define REPLAY_HOT 64

/* Flags of a function's code. */
#define CODE_TRUNCATED 1u
#define CODE_DEBUG 2u
#define CODE_KERNEL 4u

/* A function's per-address totals as last written. */
struct fn_prev {
	uint32_t n, cap;
	uint32_t *off; /* ascending */
	uint64_t *tot;
};

/* The writer's memory: which functions' code was written, and each
 * event's functions' totals. */
struct recenc_code {
	struct ptrmap written; /* sym -> 1 */
	size_t nwritten;
	struct ev_prev {
		struct ptrmap at; /* sym -> index + 1 in fns */
		struct fn_prev *fns;
		size_t n, cap;
	} * evs;
	size_t nevs;
	struct addrhist_addr *scratch;
	size_t scratch_cap;
};

/* Free the writer's memory. */
void
recenc_code_free(struct recframe_enc *e)
{
	struct recenc_code *c = e->code;

	if (c == NULL)
		return;
	ptrmap_free(&c->written);
	for (size_t i = 0; i < c->nevs; i++) {
		for (size_t k = 0; k < c->evs[i].n; k++) {
			free(c->evs[i].fns[k].off);
			free(c->evs[i].fns[k].tot);
		}
		free(c->evs[i].fns);
		ptrmap_free(&c->evs[i].at);
	}
	free(c->evs);
	free(c->scratch);
	free(c);
	e->code = NULL;
}

/* Whether some event of f has functions' samples per instruction. */
bool
recenc_has_code(const struct frame *f)
{
	for (size_t i = 0; i < f->sampling.nevents; i++)
		for (size_t k = 0; k < f->sampling.events[i].annot.n; k++)
			if (f->sampling.events[i].annot.ents[k].mask == 0)
				return true;
	return false;
}

/* Order of addresses by offset. */
static int
off_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct addrhist_addr *)a)->off,
	         y = ((const struct addrhist_addr *)b)->off;

	return x < y ? -1 : x > y;
}

/* A function's code and source lines, read as Annotate reads them (or
 * why not). */
static void
enc_code_def(struct recframe_enc *e, struct pb *b, const struct addrhist_sym *s)
{
	struct tt_err err;
	struct annotation *a =
	    annotate_new((struct dso *)(uintptr_t)s->dso, s->sym, s->kernel, &err);
	uint64_t size;
	size_t n = 0;

	if (a == NULL) {
		rec_put_u(b, 0);
		rec_put_u(b, 0);
		rec_put_u(b, s->kernel ? CODE_KERNEL : 0);
		rec_put_u(b, 0);
		rec_put_u(b, 0);
		rec_put_str(b, err.msg);
		rec_put_bytes(b, NULL, 0);
		rec_put_u(b, 0);
		return;
	}
	size = a->size < RECORD_CODE_BYTES ? a->size : RECORD_CODE_BYTES;
	rec_put_u(b, a->start);
	rec_put_u(b, size);
	rec_put_u(b, (a->truncated || size < a->size ? CODE_TRUNCATED : 0) |
	                 (a->debug ? CODE_DEBUG : 0) | (a->kernel ? CODE_KERNEL : 0));
	rec_put_u(b, recenc_text(e, a->notice[0] ? a->notice : NULL));
	rec_put_u(b, recenc_text(e, a->code_from));
	rec_put_str(b, "");
	rec_put_bytes(b, a->code, size);
	for (size_t i = 0; i < a->nlines; i++)
		n += a->lines[i].kind == ANNOTATE_SOURCE && a->lines[i].addr - a->start < size;
	rec_put_u(b, n);
	for (size_t i = 0; i < a->nlines; i++) {
		const struct annotate_line *l = &a->lines[i];

		if (l->kind != ANNOTATE_SOURCE || l->addr - a->start >= size)
			continue;
		rec_put_u(b, l->addr - a->start);
		rec_put_str(b, l->file);
		rec_put_i(b, l->lineno);
		rec_put_str(b, l->text);
	}
	annotate_free(a);
}

/* A function's samples per instruction since the last chunk. */
static void
enc_fn_samples(struct recenc_code *c, struct pb *b, struct fn_prev *p, const struct addrhist_sym *s)
{
	struct addrhist_addr *a;
	uint32_t j = 0, n = 0;
	size_t at;

	if (c->scratch_cap < s->naddrs) {
		c->scratch_cap = s->naddrs;
		c->scratch = xrealloc(c->scratch, c->scratch_cap * sizeof *c->scratch);
	}
	a = c->scratch;
	memcpy(a, s->addrs, s->naddrs * sizeof *a);
	qsort(a, s->naddrs, sizeof *a, off_cmp);
	for (uint32_t i = 0; i < s->naddrs; i++) {
		uint64_t before = 0;

		while (j < p->n && p->off[j] < a[i].off)
			j++;
		if (j < p->n && p->off[j] == a[i].off && p->tot[j] <= a[i].total)
			before = p->tot[j];
		n += a[i].total > before;
	}
	rec_put_u(b, n);
	j = 0;
	for (uint32_t i = 0; i < s->naddrs; i++) {
		uint64_t before = 0;

		while (j < p->n && p->off[j] < a[i].off)
			j++;
		if (j < p->n && p->off[j] == a[i].off && p->tot[j] <= a[i].total)
			before = p->tot[j];
		if (a[i].total > before) {
			rec_put_u(b, a[i].off);
			rec_put_u(b, a[i].total - before);
		}
	}
	if (p->cap < s->naddrs) {
		p->cap = s->naddrs;
		p->off = xrealloc(p->off, p->cap * sizeof *p->off);
		p->tot = xrealloc(p->tot, p->cap * sizeof *p->tot);
	}
	for (at = 0; at < s->naddrs; at++) {
		p->off[at] = a[at].off;
		p->tot[at] = a[at].total;
	}
	p->n = (uint32_t)s->naddrs;
}

/* The totals of function sym of event ev as last written. */
static struct fn_prev *
enc_prev(struct recenc_code *c, size_t ev, const struct sym *sym)
{
	struct ev_prev *p;
	uint32_t i;

	if (ev >= c->nevs) {
		c->evs = xrealloc(c->evs, (ev + 1) * sizeof *c->evs);
		memset(c->evs + c->nevs, 0, (ev + 1 - c->nevs) * sizeof *c->evs);
		c->nevs = ev + 1;
	}
	p = &c->evs[ev];
	if ((i = ptrmap_get(&p->at, sym)) != 0)
		return &p->fns[i - 1];
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->fns = xrealloc(p->fns, p->cap * sizeof *p->fns);
	}
	memset(&p->fns[p->n], 0, sizeof *p->fns);
	ptrmap_put(&p->at, sym, (uint32_t)++p->n);
	return &p->fns[p->n - 1];
}

/* Per event, its hot functions: each one's code the first time, and its
 * samples per instruction of the interval. */
void
recenc_code(struct recframe_enc *e, struct pb *b, const struct frame *f)
{
	struct recenc_code *c = e->code;

	if (c == NULL)
		c = e->code = xcalloc(1, sizeof *c);
	rec_put_u(b, f->sampling.nevents);
	for (size_t i = 0; i < f->sampling.nevents; i++) {
		const struct addrhist_copy *ac = &f->sampling.events[i].annot;
		size_t n = 0;

		for (size_t k = 0; k < ac->n; k++)
			n += ac->ents[k].mask == 0 && ac->ents[k].s.sym != NULL;
		rec_put_u(b, n);
		for (size_t k = 0; k < ac->n; k++) {
			const struct addrhist_sym *s = &ac->ents[k].s;
			bool def;

			if (ac->ents[k].mask != 0 || s->sym == NULL)
				continue;
			def =
			    ptrmap_get(&c->written, s->sym) == 0 && c->nwritten < RECORD_CODE_FUNCS;
			rec_put_u(b, recenc_dso(e, s->dso));
			rec_put_u(b, recenc_sym(e, s->dso, s->sym));
			rec_put_u(b, (s->kernel ? 1u : 0) | (def ? 2u : 0));
			if (def) {
				ptrmap_put(&c->written, s->sym, 1);
				c->nwritten++;
				enc_code_def(e, b, s);
			}
			enc_fn_samples(c, b, enc_prev(c, i, s->sym), s);
		}
	}
}

/* ---- reading ---- */

/* A function whose code the recording holds. */
struct rec_fn {
	const struct dso *dso;
	const struct sym *sym;
	struct annotate_code code;
	unsigned char *bytes;
	struct annotate_srcline *lines;
};

/* The reader's memory: the functions with code. */
struct recdec_code {
	struct rec_fn *fns;
	size_t n, cap;
	struct ptrmap at; /* sym -> index + 1 */
};

/* The decoder whose recorded code annotate_new reads now. */
static struct recframe_dec *source_of;

/* The recorded code of a stand-in function. */
static const struct annotate_code *
dec_code_of(void *arg, const struct dso *dso, const struct sym *sym)
{
	struct recframe_dec *d = arg;
	uint32_t i = d->code != NULL ? ptrmap_get(&d->code->at, sym) : 0;

	(void)dso;
	return i != 0 ? &d->code->fns[i - 1].code : NULL;
}

/* A recorded function of dso holding addr. */
static const struct sym *
dec_find(void *arg, const struct dso *dso, uint64_t addr)
{
	return recdec_find_standin(arg, dso, addr);
}

/* Free the reader's memory (and stop being annotate_new's source). */
void
recdec_code_free(struct recframe_dec *d)
{
	struct recdec_code *c = d->code;

	if (source_of == d) {
		annotate_set_source(NULL);
		source_of = NULL;
	}
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->fns[i].bytes);
		free(c->fns[i].lines);
	}
	free(c->fns);
	ptrmap_free(&c->at);
	free(c);
	d->code = NULL;
}

/* A string field into an interned string ("" when empty). */
static const char *
get_text(struct rec_cursor *c)
{
	char *s = rec_get_str(c);
	const char *r = str_intern(s != NULL ? s : "");

	free(s);
	return r;
}

/* A function's code and source lines. */
static void
dec_code_def(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
             const struct dso *dso, const struct sym *sym)
{
	struct recdec_code *rc = d->code;
	struct rec_fn fn = {.dso = dso, .sym = sym};
	const uint8_t *bytes;
	unsigned fl;
	size_t len, n;
	const char *why;

	fn.code.start = rec_get_u(c);
	fn.code.size = rec_get_u(c);
	fl = (unsigned)rec_get_u(c);
	fn.code.truncated = fl & CODE_TRUNCATED;
	fn.code.debug = fl & CODE_DEBUG;
	fn.code.kernel = fl & CODE_KERNEL;
	fn.code.notice = recdec_str(d, c, t);
	fn.code.code_from = recdec_str(d, c, t);
	why = get_text(c);
	fn.code.why = why[0] ? why : NULL;
	bytes = rec_get_bytes(c, &len);
	if (len != fn.code.size || len > RECORD_CODE_BYTES)
		c->bad = true;
	n = rec_get_count(c, 4);
	if (c->bad || n > MAX_LINES) {
		c->bad = true;
		return;
	}
	fn.bytes = len > 0 ? memcpy(xmalloc(len), bytes, len) : NULL;
	fn.code.bytes = fn.bytes;
	fn.lines = xcalloc(n ? n : 1, sizeof *fn.lines);
	for (size_t i = 0; i < n && !c->bad; i++) {
		fn.lines[i].addr = fn.code.start + rec_get_u(c);
		fn.lines[i].file = get_text(c);
		fn.lines[i].lineno = (int)rec_get_i(c);
		fn.lines[i].text = get_text(c);
		if (i > 0 && fn.lines[i].addr < fn.lines[i - 1].addr)
			c->bad = true; /* the builder walks them in order */
	}
	fn.code.lines = fn.lines;
	fn.code.nlines = n;
	if (c->bad || ptrmap_get(&rc->at, sym) != 0 || rc->n >= RECORD_CODE_FUNCS) {
		free(fn.bytes);
		free(fn.lines);
		return;
	}
	if (rc->n == rc->cap) {
		rc->cap = rc->cap ? 2 * rc->cap : 16;
		rc->fns = xrealloc(rc->fns, rc->cap * sizeof *rc->fns);
	}
	rc->fns[rc->n] = fn;
	ptrmap_put(&rc->at, sym, (uint32_t)++rc->n);
}

/* Per event, its hot functions' code (the first time) and samples. */
void
recdec_code(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t)
{
	size_t nev = rec_get_count(c, 1);

	if (d->code == NULL)
		d->code = xcalloc(1, sizeof *d->code);
	if (source_of != d) {
		const struct annotate_source src = {
		    .code = dec_code_of, .find = dec_find, .arg = d};

		annotate_set_source(&src);
		source_of = d;
	}
	for (size_t i = 0; i < nev && !c->bad; i++) {
		size_t n = rec_get_count(c, 4);
		struct dec_event *de;

		if (c->bad || n > MAX_FUNCS || i >= 1024) {
			c->bad = true;
			break;
		}
		de = recdec_event(d, i, false);
		if (de->ah == NULL)
			de->ah = addrhist_new(d->decay);
		for (size_t k = 0; k < n && !c->bad; k++) {
			size_t di = recdec_ref(c, t->ndsos), si = recdec_ref(c, t->nfns);
			unsigned fl = (unsigned)rec_get_u(c);
			const struct dso *dso = di ? d->dsos[di - 1] : NULL;
			const struct sym *sym = si ? d->fns[si - 1] : NULL;
			size_t na;

			if (c->bad || dso == NULL || sym == NULL) {
				c->bad = true;
				break;
			}
			if (fl & 2u)
				dec_code_def(d, c, t, dso, sym);
			na = rec_get_count(c, 2);
			for (size_t a = 0; a < na && !c->bad; a++) {
				uint64_t off = rec_get_u(c), w = rec_get_u(c);

				if (!c->bad && off < UINT32_MAX && w > 0)
					addrhist_add_n(de->ah, dso, sym, fl & 1u, sym->start + off,
					               w);
			}
		}
	}
}

/* The recorded functions' samples per instruction into f's events. */
void
recdec_code_copy(struct recframe_dec *d, struct frame *to)
{
	for (size_t i = 0; i < to->sampling.nevents; i++) {
		const struct addrhist *ah = i < d->nevs ? d->evs[i].ah : NULL;
		struct addrhist_copy *c = &to->sampling.events[i].annot;

		addrhist_copy_wanted(ah, c);
		addrhist_copy_hot(ah, REPLAY_HOT, c);
	}
}
