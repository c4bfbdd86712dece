/* recframe-impl: what the chunk encoder (src/recframe-enc.c), the decoder
 * (src/recframe.c) and the coders of the other panes' parts
 * (src/recframe-counters.c, -latency.c, -system.c, -trace.c, -code.c)
 * agree on, and
 * nothing else uses. */
#ifndef TRACETOP_RECFRAME_IMPL_H
#define TRACETOP_RECFRAME_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/frame.h"
#include "tracetop/pb.h"
#include "tracetop/recfile.h"
#include "tracetop/recframe.h"

/* Bits of a chunk's parts field. The profile comes first, as it is; each
 * other part follows in the order of its bit as one length-prefixed
 * block, so a reader may skip a part it does not know. */
#define PART_SAMPLING RECFRAME_SAMPLING
#define PART_COUNTERS RECFRAME_COUNTERS
#define PART_PROBES RECFRAME_PROBES
#define PART_LATENCY RECFRAME_LATENCY
#define PART_SYSTEM RECFRAME_SYSTEM
#define PART_TRACE RECFRAME_TRACE
#define PART_CODE RECFRAME_CODE /* what Annotate needs: code, source lines, samples per insn */
#define PART_OFFCPU                                                                                \
	RECFRAME_OFFCPU /* the Latency pane's off-CPU stacks (after version 2's first) */
#define PART_KNOWN 255u
/* Bits of a frame (row key or call graph node) flags field. */
#define FL_KERNEL 1u
#define FL_INLINED 2u
#define FL_OTHER 4u

/* Open addressing from a key (a pointer, or a string's contents) to an
 * index (1-based; 0: absent). */
struct ptrmap {
	const void **keys;
	uint32_t *vals;
	uint64_t *hashes; /* content-keyed maps only */
	size_t mask, n;
};

uint32_t ptrmap_get(const struct ptrmap *m, const void *key);
void ptrmap_put(struct ptrmap *m, const void *key, uint32_t val);
void ptrmap_clear(struct ptrmap *m);
void ptrmap_free(struct ptrmap *m);

struct recenc_parts; /* the other parts' memory between chunks (recframe-counters.c) */
struct recenc_lat;   /* recframe-latency.c */
struct recenc_trace; /* recframe-trace.c */
struct recenc_code;  /* recframe-code.c */
struct build_id;

struct recframe_enc {
	struct ptrmap strs, texts, dsos, syms; /* this chunk's tables (texts: by contents) */
	struct pb tab, body, part; /* scratch (a call graph's nodes), the frame, a part */
	size_t nstrs, ndsos, nsyms;
	struct pb strbuf, dsobuf, symbuf; /* the tables' entries */
	struct ptrmap ids;                /* dso -> index into bids + 1 */
	struct build_id *bids;
	size_t nbids;
	uint32_t *stack, *pos; /* call graph walk: nodes to visit, node -> position */
	size_t stack_cap;
	uint32_t *mark, gen; /* call graph nodes on this interval's stacks: mark == gen */
	size_t mark_cap;
	struct recenc_parts *parts;
	struct recenc_lat *lat;
	struct recenc_trace *trace;
	struct recenc_code *code;
};

/* A string's table index + 1 (0 for NULL): by pointer (a string that
 * stays put while the chunk is made), or by its contents (any other). */
uint32_t recenc_str(struct recframe_enc *e, const char *s);
uint32_t recenc_text(struct recframe_enc *e, const char *s);
/* A DSO's, a function's table index + 1 (0 for NULL). */
uint32_t recenc_dso(struct recframe_enc *e, const struct dso *d);
uint32_t recenc_sym(struct recframe_enc *e, const struct dso *d, const struct sym *s);
/* What a call graph's trie gained in its last interval (its nodes'
 * last_self): the nodes on those stacks, parents first, into b. */
void recenc_cg(struct recframe_enc *e, struct pb *b, const struct callgraph *cg);

/* The other parts of frame f, each appended to b as one block. */
void recenc_counters(struct recframe_enc *e, struct pb *b, const struct frame *f);
void recenc_probes(struct recframe_enc *e, struct pb *b, const struct frame *f);
void recenc_latency(struct recframe_enc *e, struct pb *b, const struct frame *f);
void recenc_system(struct recframe_enc *e, struct pb *b, const struct frame *f);
void recenc_trace(struct recframe_enc *e, struct pb *b, const struct frame *f);
void recenc_code(struct recframe_enc *e, struct pb *b, const struct frame *f);
void recenc_offcpu(struct recframe_enc *e, struct pb *b, const struct frame *f);
/* Whether a part has something to say of f (its bit is set when it has). */
bool recenc_has_trace(const struct recframe_enc *e, const struct frame *f);
bool recenc_has_code(const struct frame *f);
void recenc_parts_free(struct recframe_enc *e);
void recenc_lat_free(struct recframe_enc *e);
void recenc_trace_free(struct recframe_enc *e);
void recenc_code_free(struct recframe_enc *e);

/* ---- decoding ---- */

/* Sizes of this chunk's tables, for the references. */
struct dec_tabs {
	size_t nstrs, ndsos, nfns;
};

struct standin;
struct recdec_parts;
struct recdec_lat;
struct recdec_trace;
struct recdec_code;

/* What a decoder holds: the stand-ins, this chunk's tables, the profile
 * and the other parts as the last interval left them (parts: a frame's
 * counters, probes, latency, system and trace parts, the decoder's). */
struct recframe_dec {
	struct standin *syms; /* open addressing */
	size_t mask, n;
	const char **strs;
	struct dso **dsos;
	const struct sym **fns;
	size_t strs_cap, dsos_cap, fns_cap;
	uint32_t *nodes; /* call graph: position -> node index */
	size_t nodes_cap;
	struct dec_event {
		struct hist *hist;
		struct callgraph *cg; /* NULL: no stacks recorded */
		struct addrhist *ah;  /* samples per instruction of the recorded functions */
	} * evs;
	size_t nevs;
	double decay, cg_min_percent;
	struct frame parts;
	unsigned has; /* PART_* bits of the last chunk */
	struct recdec_parts *p;
	struct recdec_lat *lat;
	struct recdec_trace *trace;
	struct recdec_code *code;
};

/* A string reference (NULL for 0; bad past the table); a table
 * reference (index + 1, 0: none) below n. */
const char *recdec_str(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t);
size_t recdec_ref(struct rec_cursor *c, size_t n);
/* A string into a fixed array (cut to fit). */
void recdec_strcpy(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
                   char *buf, size_t len);
/* The stand-in function of dso that holds addr, or NULL. */
const struct sym *recdec_find_standin(struct recframe_dec *d, const struct dso *dso, uint64_t addr);
/* The event i of the profile, made on first sight. */
struct dec_event *recdec_event(struct recframe_dec *d, size_t i, bool stacks);
/* An interval's stacks (recenc_cg's) added to cg. */
void recdec_cg(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
               struct callgraph *cg);

/* The other parts of a chunk into d->parts (bad set in c when they do
 * not parse). */
void recdec_counters(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t);
void recdec_probes(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t);
void recdec_latency(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t);
void recdec_system(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t);
void recdec_trace(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t);
void recdec_code(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t);
void recdec_offcpu(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t);
void recdec_parts_free(struct recframe_dec *d);
void recdec_lat_free(struct recframe_dec *d);
void recdec_trace_free(struct recframe_dec *d);
void recdec_code_free(struct recframe_dec *d);

/* The decoded parts into a frame (arrays copied: f keeps its own). */
void recdec_counters_copy(const struct frame *from, struct frame *to);
void recdec_probes_copy(const struct frame *from, struct frame *to);
void recdec_latency_copy(const struct frame *from, struct frame *to);
void recdec_system_copy(const struct frame *from, struct frame *to);
void recdec_trace_copy(struct recframe_dec *d, struct frame *to);
void recdec_code_copy(struct recframe_dec *d, struct frame *to);
/* The off-CPU stacks since start into to's latency part (none: NULL). */
void recdec_offcpu_copy(struct recframe_dec *d, struct frame *to);

#endif
