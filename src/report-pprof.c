/* report-pprof: profile.proto written by hand with src/pb.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/gz.h"
#include "tracetop/pb.h"
#include "tracetop/report-pprof.h"
#include "tracetop/report.h"
#include "tracetop/sym-elf.h"
#include "tracetop/sym-name.h"
#include "tracetop/util.h"

/* profile.proto's field numbers. */
enum {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS = 10,
	PROFILE_PERIOD_TYPE = 11,
	PROFILE_PERIOD = 12,
	PROFILE_COMMENT = 13,
	SAMPLE_LOCATION_ID = 1,
	SAMPLE_VALUE = 2,
	SAMPLE_LABEL = 3,
	LABEL_KEY = 1,
	LABEL_STR = 2,
	LABEL_NUM = 3,
	MAPPING_ID = 1,
	MAPPING_FILENAME = 5,
	MAPPING_BUILD_ID = 6,
	MAPPING_HAS_FUNCTIONS = 7,
	LOCATION_ID = 1,
	LOCATION_MAPPING_ID = 2,
	LOCATION_ADDRESS = 3,
	LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1,
	FUNCTION_ID = 1,
	FUNCTION_NAME = 2,
	FUNCTION_SYSTEM_NAME = 3,
	VALUE_TYPE = 1,
	VALUE_UNIT = 2,
};

/* An open-addressing index from a 64-bit key to an id (0: empty). */
struct ptab {
	uint64_t *key;
	uint32_t *id;
	size_t mask, n;
};

struct pprof {
	struct pb prof, msg, sub;
	char **strs; /* the string table, strs[0] = "" */
	size_t nstrs, strs_cap;
	struct ptab str_ix, fn_ix, loc_ix;
	const struct dso **maps;
	size_t nmaps;
	uint64_t period_ns;
	uint64_t *locs; /* a sample's location ids */
	size_t nlocs, locs_cap;
};

/* The slot of key in t, grown to stay under half full. */
static size_t
ptab_slot(struct ptab *t, uint64_t key)
{
	size_t i;

	if (2 * (t->n + 1) > t->mask + 1) {
		struct ptab old = *t;

		t->mask = old.mask ? 2 * old.mask + 1 : 255;
		t->key = xcalloc(t->mask + 1, sizeof *t->key);
		t->id = xcalloc(t->mask + 1, sizeof *t->id);
		for (size_t j = 0; old.id != NULL && j <= old.mask; j++)
			if (old.id[j] != 0) {
				for (i = hash_u64(old.key[j]) & t->mask; t->id[i] != 0;)
					i = (i + 1) & t->mask;
				t->key[i] = old.key[j];
				t->id[i] = old.id[j];
			}
		free(old.key);
		free(old.id);
	}
	for (i = hash_u64(key) & t->mask; t->id[i] != 0 && t->key[i] != key;)
		i = (i + 1) & t->mask;
	return i;
}

/* Free an index. */
static void
ptab_free(struct ptab *t)
{
	free(t->key);
	free(t->id);
}

/* The string table index of s, added on first use. */
static uint64_t
pp_str(struct pprof *p, const char *s)
{
	uint64_t h = str_hash(s);
	size_t i;

	/* equal hashes of different strings: probe on by a mixed key */
	for (;; h = hash_mix(h, 1)) {
		i = ptab_slot(&p->str_ix, h);
		if (p->str_ix.id[i] == 0 || strcmp(p->strs[p->str_ix.id[i]], s) == 0)
			break;
	}
	if (p->str_ix.id[i] != 0)
		return p->str_ix.id[i];
	if (p->nstrs == p->strs_cap) {
		p->strs_cap = p->strs_cap ? 2 * p->strs_cap : 256;
		p->strs = xrealloc(p->strs, p->strs_cap * sizeof *p->strs);
	}
	p->strs[p->nstrs] = xstrdup(s);
	p->str_ix.key[i] = h;
	p->str_ix.id[i] = (uint32_t)p->nstrs;
	p->str_ix.n++;
	return p->nstrs++;
}

/* The mapping id of a shared object (0: none), written on first use with
 * its build-id when its file has one. */
static uint64_t
pp_mapping(struct pprof *p, const struct dso *d)
{
	uint8_t id[20];
	char hex[2 * sizeof id + 1];
	int n;

	if (d == NULL)
		return 0;
	for (size_t i = 0; i < p->nmaps; i++)
		if (p->maps[i] == d)
			return i + 1;
	p->maps = xrealloc(p->maps, (p->nmaps + 1) * sizeof *p->maps);
	p->maps[p->nmaps++] = d;
	pb_reset(&p->msg);
	pb_uint(&p->msg, MAPPING_ID, p->nmaps);
	pb_uint(&p->msg, MAPPING_FILENAME, pp_str(p, d->name));
	n = 0;
	if (d->standin && d->build_id_len <= sizeof id) { /* a replay: the recording's */
		n = d->build_id_len;
		memcpy(id, d->build_id, (size_t)n);
	} else if (!d->standin && d->kind == DSO_ELF) {
		n = symelf_build_id(dso_path(d), id, sizeof id);
	}
	if (n > 0) {
		for (int i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", id[i]);
		pb_uint(&p->msg, MAPPING_BUILD_ID, pp_str(p, hex));
	}
	pb_uint(&p->msg, MAPPING_HAS_FUNCTIONS, 1);
	pb_message(&p->prof, PROFILE_MAPPING, &p->msg);
	return p->nmaps;
}

/* The function id of a name (its system name: the raw symbol), written on
 * first use. */
static uint64_t
pp_function(struct pprof *p, const char *name, const char *raw)
{
	uint64_t sid = pp_str(p, name);
	size_t i = ptab_slot(&p->fn_ix, sid);

	if (p->fn_ix.id[i] != 0)
		return p->fn_ix.id[i];
	p->fn_ix.key[i] = sid;
	p->fn_ix.id[i] = (uint32_t)++p->fn_ix.n;
	pb_reset(&p->msg);
	pb_uint(&p->msg, FUNCTION_ID, p->fn_ix.n);
	pb_uint(&p->msg, FUNCTION_NAME, sid);
	pb_uint(&p->msg, FUNCTION_SYSTEM_NAME, pp_str(p, raw != NULL ? raw : name));
	pb_message(&p->prof, PROFILE_FUNCTION, &p->msg);
	return p->fn_ix.n;
}

/* The location id of a function in a shared object at addr, written on
 * first use. */
static uint64_t
pp_location(struct pprof *p, const char *name, const struct sym *sym, const struct dso *d,
            uint64_t addr)
{
	uint64_t fn = pp_function(p, name, sym != NULL ? sym->name : NULL);
	uint64_t map = pp_mapping(p, d);
	uint64_t key = hash_mix(hash_mix(hash_mix(HASH_SEED, fn), map), addr);
	size_t i = ptab_slot(&p->loc_ix, key);

	if (p->loc_ix.id[i] != 0)
		return p->loc_ix.id[i];
	p->loc_ix.key[i] = key;
	p->loc_ix.id[i] = (uint32_t)++p->loc_ix.n;
	pb_reset(&p->msg);
	pb_uint(&p->msg, LOCATION_ID, p->loc_ix.n);
	if (map != 0)
		pb_uint(&p->msg, LOCATION_MAPPING_ID, map);
	pb_uint(&p->msg, LOCATION_ADDRESS, addr);
	pb_reset(&p->sub);
	pb_uint(&p->sub, LINE_FUNCTION_ID, fn);
	pb_message(&p->msg, LOCATION_LINE, &p->sub);
	pb_message(&p->prof, PROFILE_LOCATION, &p->msg);
	return p->loc_ix.n;
}

/* Append a location id to the current sample's. */
static void
pp_push_loc(struct pprof *p, uint64_t id)
{
	if (p->nlocs == p->locs_cap) {
		p->locs_cap = p->locs_cap ? 2 * p->locs_cap : 64;
		p->locs = xrealloc(p->locs, p->locs_cap * sizeof *p->locs);
	}
	p->locs[p->nlocs++] = id;
}

/* Write the sample of the gathered locations: count, its CPU time, and
 * the command (and pid, when >= 0) as labels. */
static void
pp_sample(struct pprof *p, uint64_t count, const char *comm, int pid)
{
	uint64_t v[2] = {count, count * p->period_ns};

	pb_reset(&p->msg);
	pb_packed(&p->msg, SAMPLE_LOCATION_ID, p->locs, p->nlocs);
	pb_packed(&p->msg, SAMPLE_VALUE, v, 2);
	if (comm != NULL) {
		pb_reset(&p->sub);
		pb_uint(&p->sub, LABEL_KEY, pp_str(p, "comm"));
		pb_uint(&p->sub, LABEL_STR, pp_str(p, comm));
		pb_message(&p->msg, SAMPLE_LABEL, &p->sub);
	}
	if (pid >= 0) {
		pb_reset(&p->sub);
		pb_uint(&p->sub, LABEL_KEY, pp_str(p, "pid"));
		pb_int(&p->sub, LABEL_NUM, pid);
		pb_message(&p->msg, SAMPLE_LABEL, &p->sub);
	}
	pb_message(&p->prof, PROFILE_SAMPLE, &p->msg);
	p->nlocs = 0;
}

/* A ValueType message (type, unit) as field `field` of the profile. */
static void
pp_value_type(struct pprof *p, unsigned field, const char *type, const char *unit)
{
	pb_reset(&p->msg);
	pb_uint(&p->msg, VALUE_TYPE, pp_str(p, type));
	pb_uint(&p->msg, VALUE_UNIT, pp_str(p, unit));
	pb_message(&p->prof, field, &p->msg);
}

/* A sample per call graph node with self samples: its frames up to the
 * command's root (a root's own samples: the command as the frame, as the
 * folded stacks have it). Counts rounded as the folded stacks round. */
static void
pp_callgraph(struct pprof *p, const struct callgraph *cg)
{
	char name[1024];
	size_t cap = cg_capacity(cg);

	for (uint32_t idx = 1; idx < cap; idx++) {
		const struct cg_node *n = cg_node(cg, idx), *up = n, *root = n;

		if (n == NULL || n->self < 0.5)
			continue;
		while (root->parent != 0)
			root = cg_node(cg, root->parent);
		do {
			cg_frame_name(up, SYM_QUALIFIED, name, sizeof name);
			pp_push_loc(p, pp_location(p, name, up->other ? NULL : up->frame.sym,
			                           up->frame.dso,
			                           up->frame.sym != NULL ? up->frame.sym->start
			                                                 : up->frame.addr));
			up = cg_node(cg, up->parent);
		} while (up != NULL && up->parent != 0);
		pp_sample(p, (uint64_t)(n->self + 0.5), root->comm, -1);
	}
}

/* A sample per row, its function the only location. */
static void
pp_rows(struct pprof *p, const struct hist_snapshot *snap)
{
	char name[1024], comm[256];

	for (size_t i = 0; i < snap->n; i++) {
		const struct hist_entry *e = &snap->rows[i].copy;

		if (snap->rows[i].samples == 0)
			continue;
		report_symbol(e, SYM_QUALIFIED, name, sizeof name);
		report_comm(e, comm, sizeof comm);
		pp_push_loc(p, pp_location(p, name, e->key.sym, e->key.dso,
		                           e->key.sym != NULL        ? e->key.sym->start
		                           : hist_key_other(&e->key) ? 0 /* no one place */
		                                                     : e->key.addr));
		pp_sample(p, snap->rows[i].samples, comm, e->key.pid);
	}
}

/* Encode and gzip the whole profile. */
void
report_pprof_build(const struct pprof_info *pi, const struct callgraph *cg,
                   const struct hist_snapshot *snap, uint8_t **out, size_t *len)
{
	struct pprof p = {.period_ns = pi->period_ns};
	char comment[256];
	struct tt_err err;

	pp_str(&p, "");
	pp_value_type(&p, PROFILE_SAMPLE_TYPE, "samples", "count");
	pp_value_type(&p, PROFILE_SAMPLE_TYPE, "cpu", "nanoseconds");
	if (cg != NULL)
		pp_callgraph(&p, cg);
	else if (snap != NULL)
		pp_rows(&p, snap);
	pb_int(&p.prof, PROFILE_TIME_NANOS, pi->time_ns);
	pb_int(&p.prof, PROFILE_DURATION_NANOS, pi->duration_ns);
	pp_value_type(&p, PROFILE_PERIOD_TYPE, "cpu", "nanoseconds");
	pb_int(&p.prof, PROFILE_PERIOD, (int64_t)pi->period_ns);
	snprintf(comment, sizeof comment, "tracetop %s, event %s", PACKAGE_VERSION,
	         pi->event != NULL ? pi->event : "?");
	pb_uint(&p.prof, PROFILE_COMMENT, pp_str(&p, comment));
	for (size_t i = 0; i < p.nstrs; i++) {
		pb_string(&p.prof, PROFILE_STRING_TABLE, p.strs[i]);
		free(p.strs[i]);
	}
	if (gz_compress(p.prof.buf, p.prof.len, out, len, &err) != 0)
		fatal("pprof: %s", err.msg); /* only for more than 4 GiB or no memory */
	free(p.strs);
	free(p.maps);
	free(p.locs);
	ptab_free(&p.str_ix);
	ptab_free(&p.fn_ix);
	ptab_free(&p.loc_ix);
	pb_free(&p.prof);
	pb_free(&p.msg);
	pb_free(&p.sub);
}

/* Build the profile and write it out. */
int
report_pprof(FILE *out, const struct pprof_info *pi, const struct callgraph *cg,
             const struct hist_snapshot *snap, struct tt_err *err)
{
	uint8_t *buf;
	size_t len;
	int rc = 0;

	report_pprof_build(pi, cg, snap, &buf, &len);
	if (fwrite(buf, 1, len, out) != len || fflush(out) != 0)
		rc = err_set(err, "cannot write the pprof profile");
	free(buf);
	return rc;
}
