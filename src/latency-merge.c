/* latency-merge: latency rows merged over processes (see the header). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tracetop/callgraph.h"
#include "tracetop/frame.h"
#include "tracetop/latency-merge.h"
#include "tracetop/util.h"

/* The root of a merged offcpu row in out's graph: "sleep (all)". */
static const char *
merge_root_name(const struct lat_row *r)
{
	char buf[96];

	snprintf(buf, sizeof buf, "%s (all)", r->name);
	return str_intern(buf);
}

/* The node of in's trie node src under dst's node to, with src's
 * ancestors below the root mirrored (made when missing). */
static uint32_t
merge_path(const struct callgraph *in, uint32_t src, struct callgraph *dst, uint32_t to)
{
	const struct cg_node *n = cg_node(in, src);

	if (n == NULL || n->parent == 0)
		return to; /* the root: the merged row's */
	to = merge_path(in, n->parent, dst, to);
	return to != 0 ? cg_child(dst, to, &n->frame, NULL, n->other) : 0;
}

/* The blocked time of every node under root src of in, weighed at the
 * same frames under root of dst. */
static void
merge_stacks(const struct callgraph *in, uint32_t src, struct callgraph *dst, uint32_t root)
{
	const struct cg_node *n = cg_node(in, src);

	if (n == NULL)
		return;
	if (n->self >= 1)
		cg_add_at(dst, merge_path(in, src, dst, root), (uint64_t)n->self);
	for (uint32_t c = n->first_child; c != 0; c = cg_node(in, c)->next_sibling)
		merge_stacks(in, c, dst, root);
}

/* A root of in named name (a row's stack), or 0. */
static uint32_t
merge_find_root(const struct callgraph *in, const char *name)
{
	const struct cg_node *n;

	for (uint32_t r = in != NULL ? cg_first_root(in) : 0; r != 0; r = n->next_sibling)
		if ((n = cg_node(in, r)) == NULL || n->comm == name)
			return r;
	return 0;
}

/* Merge in into out. */
void
lat_merge(const struct frame_latency *in, unsigned kinds, struct frame_latency *out)
{
	struct lat_row *rows = out->rows;
	size_t cap = out->cap;
	struct callgraph *cg = in->offcpu != NULL ? cg_new(1.0, 0) : NULL;

	cg_free(out->offcpu);
	*out = *in;
	out->rows = rows;
	out->cap = cap;
	out->nrows = 0;
	out->offcpu = NULL;
	frame_latency_reserve(out, in->nrows);
	for (size_t i = 0; i < in->nrows; i++) {
		const struct lat_row *r = &in->rows[i];
		struct lat_row *o = NULL;

		if (kinds & (1u << r->kind) & LAT_MERGE_KINDS)
			for (size_t j = 0; j < out->nrows && o == NULL; j++)
				if (out->rows[j].pid == -1 && out->rows[j].kind == r->kind &&
				    strcmp(out->rows[j].name, r->name) == 0)
					o = &out->rows[j];
		if (o == NULL) {
			o = &out->rows[out->nrows++];
			*o = *r;
			if (!(kinds & (1u << r->kind) & LAT_MERGE_KINDS))
				continue;
			o->pid = -1;
			o->tid = 0;
			snprintf(o->comm, sizeof o->comm, "(all)");
			o->stack = r->stack != NULL ? merge_root_name(r) : NULL;
		} else {
			o->interval += r->interval;
			o->rate += r->rate;
			lat_hist_merge(&o->hist, &r->hist);
			if (o->stack == NULL && r->stack != NULL)
				o->stack = merge_root_name(r);
		}
		if (r->stack == NULL || cg == NULL)
			continue;
		merge_stacks(in->offcpu, merge_find_root(in->offcpu, r->stack), cg,
		             cg_child(cg, 0, &(const struct cg_frame){0}, o->stack, false));
	}
	/* the rows not merged keep their own stacks, copied under their roots */
	for (size_t i = 0; cg != NULL && i < out->nrows; i++) {
		const struct lat_row *o = &out->rows[i];

		if (o->stack != NULL && o->pid != -1)
			merge_stacks(in->offcpu, merge_find_root(in->offcpu, o->stack), cg,
			             cg_child(cg, 0, &(const struct cg_frame){0}, o->stack, false));
	}
	if (cg != NULL)
		cg_tick(cg, false);
	out->offcpu = cg;
}
