/* libFuzzer target for recordings (-r FILE): the input as a whole file
 * (header, framed chunks, each inflated and decoded into a frame), or,
 * when it starts with 'C', the rest as one chunk's bytes after inflating
 * (so the decoder sees inputs past the checksums). Every row, call graph
 * and other part decoded (counters, probes, latency and its off-CPU
 * stacks, system, trace entries with their recorded formats, Annotate's
 * samples and code) is then read as the reports and panes read them. A recording is a file
 * from another machine: it can hold anything. Built for libFuzzer by
 * ./configure --enable-fuzzing CC=clang (tests/fuzz/fuzz-recfile, from
 * RECFRAME_SOURCES in Makefile.am), then:
 *
 *   tests/fuzz/fuzz-recfile -detect_leaks=0 $SRC/tests/fuzz/corpus/recfile
 *
 * where $SRC is the source tree (libtraceevent leaks a few bytes on some
 * format texts it refuses: leaks are not ours to find here). */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tracetop/addrhist.h"
#include "tracetop/annotate.h"
#include "tracetop/callgraph.h"
#include "tracetop/recfile.h"
#include "tracetop/recframe.h"
#include "tracetop/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read the trace part as the Trace pane and the reports do: every
 * entry's line, fields and stack. */
static size_t
use_trace(const struct frame *f)
{
	struct stream_value vals[32];
	struct stream_entry en;
	char line[1024];
	size_t n = 0;
	bool kernel;

	for (size_t i = 0; i < frame_trace_len(f) && frame_trace_get(f, i, &en); i++) {
		n += frame_trace_line(f, &en, line, sizeof line);
		n += frame_trace_decode(f, &en, vals, 32);
		for (size_t k = 0; frame_trace_stack(f, &en, k, line, sizeof line, &kernel); k++)
			n++;
	}
	return n;
}

/* Read the off-CPU stacks as the Latency pane's trees and the reports
 * do: each root's subtree merged, every node's name, folded stacks. */
static size_t
use_offcpu(const struct callgraph *cg, FILE *null)
{
	struct cg_view v = {0};
	char name[300];
	size_t n = 0;

	for (uint32_t r = cg_first_root(cg); r != 0; r = cg_node(cg, r)->next_sibling) {
		cg_subtrees(cg, &r, 1, &v);
		for (size_t i = 1; i < v.n; i++) {
			cg_view_name(&v.nodes[i], name, sizeof name);
			n += name[0] != '\0';
		}
	}
	cg_view_free(&v);
	if (null != NULL)
		cg_print_folded(cg, null);
	return n;
}

/* Read the other parts as the panes read them. */
static size_t
use_parts(const struct frame *f)
{
	static FILE *null;
	size_t n = 0;

	if (null == NULL)
		null = fopen("/dev/null", "w");

	for (int s = 0; f->has_counters && s < COUNTERS_NSCOPES; s++)
		for (size_t i = 0; (f->counters.taken & (1u << s)) && i < f->counters.scopes[s].n;
		     i++) {
			const struct counters_row *r = &f->counters.scopes[s].rows[i];

			n += strlen(r->scope) + (r->event ? strlen(r->event) : 0) + r->nhist;
			for (size_t k = 0; k < r->nhist; k++)
				n += r->history[k] > 0;
		}
	for (size_t i = 0; f->has_probes && i < f->probes.n; i++)
		for (size_t a = 0; a < f->probes.rows[i].nargs; a++)
			n += strlen(f->probes.rows[i].args[a]);
	for (size_t i = 0; f->has_latency && i < f->latency.nrows; i++)
		n += lat_hist_percentile(&f->latency.rows[i].hist, 99) > 0;
	if (f->has_latency && f->latency.offcpu != NULL)
		n += use_offcpu(f->latency.offcpu, null);
	for (size_t i = 0; f->has_system && i < f->system.nprocs; i++)
		n += strlen(f->system.procs[i].comm) + f->system.procs[i].thread_n;
	for (size_t i = 0; f->has_system && i < f->system.irqs.n; i++)
		for (size_t c = 0; c < f->system.irqs.ncpus; c++)
			n += system_irq_cpu_rate(&f->system.irqs, i, c) > 0;
	if (f->has_trace)
		n += use_trace(f);
	return n;
}

/* Annotate a recorded function as the Annotate pane does. */
static size_t
use_annot(const struct addrhist_copy *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n && i < 4; i++) {
		struct tt_err err;
		struct annotation *a = annotate_new((struct dso *)(uintptr_t)c->ents[i].s.dso,
		                                    c->ents[i].s.sym, c->ents[i].s.kernel, &err);

		if (a == NULL)
			continue;
		annotate_update(a, &c->ents[i].s);
		n += a->nlines;
		annotate_free(a);
	}
	return n;
}

/* Read what a report reads of the frame: rows, names, folded stacks. */
static void
use_frame(const struct frame *f)
{
	static FILE *null;
	size_t names = 0;

	if (null == NULL)
		null = fopen("/dev/null", "w");
	for (size_t i = 0; i < f->sampling.nevents && f->has_sampling; i++) {
		const struct frame_event *ev = &f->sampling.events[i];

		for (size_t r = 0; r < ev->rows.n; r++)
			names += hist_sym_name(ev->rows.rows[r].entry)[0] != '\0';
		if (ev->cg != NULL && null != NULL)
			cg_print_folded(ev->cg, null);
		names += use_annot(&ev->annot);
	}
	(void)names;
}

/* End the interval and read its rows and parts as a replay does. */
static void
snapshot(struct recframe_dec *d, struct frame *f, struct frame *parts)
{
	static const enum hist_sort sort[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};

	recframe_tick(d, false);
	recframe_snapshot(d, f, sort, HIST_GROUP_DEFAULT);
	recframe_parts(d, parts);
	use_frame(f);
	(void)use_parts(parts);
}

/* Free what a decoder filled in a frame. */
static void
frame_drop(struct frame *f)
{
	for (size_t i = 0; i < f->sampling.cap; i++) {
		hist_snapshot_free(&f->sampling.events[i].rows);
		cg_free(f->sampling.events[i].cg);
		addrhist_copy_free(&f->sampling.events[i].annot);
	}
	free(f->sampling.events);
	for (size_t i = 0; i < COUNTERS_NSCOPES; i++) {
		free(f->counters.scopes[i].rows);
		free(f->counters.scopes[i].hist);
	}
	free(f->probes.rows);
	free(f->latency.rows);
	cg_free(f->latency.offcpu);
	for (size_t i = 0; i < f->trace.non; i++)
		free(f->trace.on[i].filter);
	free(f->trace.on);
	free(f->trace.events);
	frame_system_free(&f->system);
}

/* Decode the input as a file or as one chunk. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct recframe_dec *d = recframe_dec_new(0.875, 0.05);
	struct recfile_reader r;
	struct frame f = {0}, parts = {0};
	struct tt_err err;

	if (size > 0 && data[0] == 'C') {
		if (recframe_decode(d, data + 1, size - 1, &f, &err) == 0)
			snapshot(d, &f, &parts);
	} else if (recfile_open_mem(&r, data, size, &err) == 0) {
		uint8_t *raw;
		size_t n;

		while (recfile_next(&r, &raw, &n) == 1) {
			if (recframe_decode(d, raw, n, &f, &err) == 0)
				snapshot(d, &f, &parts);
			free(raw);
		}
		recfile_reader_free(&r);
	}
	frame_drop(&f);
	frame_drop(&parts);
	recframe_dec_free(d);
	dso_cache_free();
	return 0;
}
