/* diff: baselines (sets of keyed rows) and the change of rows against one. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/diff.h"
#include "tracetop/frame.h"
#include "tracetop/json.h"
#include "tracetop/util.h"

/* Free the rows. */
void
diff_set_free(struct diff_set *s)
{
	for (int k = 0; k < DIFF_NKINDS; k++) {
		for (size_t i = 0; i < s->n[k]; i++)
			free(s->items[k][i].key);
		free(s->items[k]);
	}
	memset(s, 0, sizeof *s);
}

/* Append a row. */
void
diff_set_add(struct diff_set *s, enum diff_kind k, const char *key, double value, double value2,
             double weight)
{
	if (s->n[k] == s->cap[k]) {
		s->cap[k] = s->cap[k] ? 2 * s->cap[k] : 64;
		s->items[k] = xrealloc(s->items[k], s->cap[k] * sizeof *s->items[k]);
	}
	s->items[k][s->n[k]++] = (struct diff_item){
	    .key = xstrdup(key), .value = value, .value2 = value2, .weight = weight};
	s->has[k] = true;
	s->sealed = false;
}

/* qsort order of rows by key. */
static int
diff_item_cmp(const void *a, const void *b)
{
	return strcmp(((const struct diff_item *)a)->key, ((const struct diff_item *)b)->key);
}

/* Sort each kind by key; merge rows keyed alike. */
void
diff_set_seal(struct diff_set *s)
{
	for (int k = 0; k < DIFF_NKINDS; k++) {
		struct diff_item *v = s->items[k];
		size_t o = 0;

		if (s->n[k] > 1)
			qsort(v, s->n[k], sizeof *v, diff_item_cmp);
		for (size_t i = 0; i < s->n[k]; i++) {
			if (o > 0 && strcmp(v[o - 1].key, v[i].key) == 0) {
				if (k == DIFF_TOP)
					v[o - 1].value += v[i].value;
				else if (v[i].weight > v[o - 1].weight) {
					free(v[o - 1].key);
					v[o - 1] = v[i];
					continue;
				}
				free(v[i].key);
				continue;
			}
			v[o++] = v[i];
		}
		s->n[k] = o;
	}
	s->sealed = true;
}

/* Binary search of a sealed set. */
const struct diff_item *
diff_set_find(const struct diff_set *s, enum diff_kind k, const char *key)
{
	struct diff_item probe = {.key = (char *)key};

	if (s->n[k] == 0)
		return NULL;
	return bsearch(&probe, s->items[k], s->n[k], sizeof probe, diff_item_cmp);
}

/* Append field f (escaped as JSON reports write it) to the key at *o. */
static void
diff_key_put(char *buf, size_t len, size_t *o, const char *f)
{
	if (*o + 1 >= len)
		return;
	if (*o > 0)
		buf[(*o)++] = '\t';
	*o += str_escape_json(buf + *o, len - *o, f, strlen(f));
}

/* The last path component of a name. */
static const char *
diff_basename(const char *name)
{
	const char *slash = strrchr(name, '/');

	return slash != NULL && slash[1] != '\0' ? slash + 1 : name;
}

/* The fields of a Top row by name, as an entry or a JSON row has them. */
struct diff_top_fields {
	const char *comm, *cgroup, *dso, *sym;
	int pid, tid;
	bool inlined;
};

/* Key a Top row's fields by group. */
static void
diff_top_key_of(const struct diff_top_fields *f, unsigned group, char *buf, size_t len)
{
	char num[16], sym[4096];
	size_t o = 0;

	buf[0] = '\0';
	if (group == 0)
		group = HIST_GROUP_DEFAULT;
	if (group & HIST_GROUP_COMM)
		diff_key_put(buf, len, &o, f->comm);
	if (group & HIST_GROUP_PID) {
		snprintf(num, sizeof num, "%d", f->pid);
		diff_key_put(buf, len, &o, num);
	}
	if (group & HIST_GROUP_TID) {
		snprintf(num, sizeof num, "%d", f->tid);
		diff_key_put(buf, len, &o, num);
	}
	if (group & HIST_GROUP_CGROUP)
		diff_key_put(buf, len, &o, f->cgroup);
	if (group & HIST_GROUP_DSO)
		diff_key_put(buf, len, &o, diff_basename(f->dso));
	if (group & HIST_GROUP_SYM) {
		snprintf(sym, sizeof sym, "%s%s", f->sym, f->inlined ? " (inlined)" : "");
		diff_key_put(buf, len, &o, sym);
	}
}

/* A Top entry's key. */
void
diff_top_key(const struct hist_entry *e, unsigned group, char *buf, size_t len)
{
	struct diff_top_fields f = {
	    .comm = e->key.comm ? e->key.comm : "[unknown]",
	    .cgroup = e->key.cgroup ? e->key.cgroup->name : "[unknown]",
	    .dso = e->key.dso ? e->key.dso->name : "[unknown]",
	    .sym = hist_sym_name(e),
	    .pid = e->key.pid,
	    .tid = e->key.tid,
	    .inlined = e->key.inlined,
	};

	diff_top_key_of(&f, group, buf, len);
}

/* A counter's key from its event, kind, scope and command. */
static void
diff_counter_key_of(const char *event, bool process, const char *scope, const char *comm, char *buf,
                    size_t len)
{
	char sc[64];
	size_t o = 0;

	buf[0] = '\0';
	diff_key_put(buf, len, &o, event);
	if (process)
		snprintf(sc, sizeof sc, "comm %s", comm);
	else
		snprintf(sc, sizeof sc, "%s", scope);
	diff_key_put(buf, len, &o, sc);
}

/* A counter row's key. */
void
diff_counter_key(const struct counters_row *r, char *buf, size_t len)
{
	char comm[sizeof r->comm + 1];

	snprintf(comm, sizeof comm, "%.*s", (int)sizeof r->comm, r->comm);
	diff_counter_key_of(r->event, r->kind == COUNTERS_PROCESS, r->scope, comm, buf, len);
}

/* A counter row's value. */
bool
diff_counter_value(const struct counters_row *r, double *v)
{
	if (!r->supported)
		return false;
	*v = r->metric ? r->value : r->rate;
	return true;
}

/* A latency row's key from its kind, name and command. */
static void
diff_latency_key_of(const char *kind, const char *name, const char *comm, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	diff_key_put(buf, len, &o, kind);
	diff_key_put(buf, len, &o, name);
	diff_key_put(buf, len, &o, comm);
}

/* A latency row's key. */
void
diff_latency_key(const struct lat_row *r, char *buf, size_t len)
{
	char comm[sizeof r->comm + 1];

	snprintf(comm, sizeof comm, "%.*s", (int)sizeof r->comm, r->comm);
	diff_latency_key_of(lat_kind_name(r->kind), r->name, comm, buf, len);
}

/* A Top snapshot's rows. */
void
diff_set_add_top(struct diff_set *s, const struct hist_snapshot *snap, unsigned group)
{
	char key[8192];

	s->group = group ? group : HIST_GROUP_DEFAULT;
	s->has[DIFF_TOP] = true;
	for (size_t i = 0; i < snap->n; i++) {
		diff_top_key(snap->rows[i].entry, s->group, key, sizeof key);
		diff_set_add(s, DIFF_TOP, key, snap->rows[i].overhead, 0, snap->rows[i].samples);
	}
}

/* Counters snapshots' rows (those counted). */
void
diff_set_add_counters(struct diff_set *s, const struct counters_snapshot *snaps, size_t n)
{
	char key[512];
	double v;

	s->has[DIFF_COUNTERS] = true;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < snaps[k].n; i++) {
			if (!diff_counter_value(&snaps[k].rows[i], &v))
				continue;
			diff_counter_key(&snaps[k].rows[i], key, sizeof key);
			diff_set_add(s, DIFF_COUNTERS, key, v, 0, snaps[k].rows[i].total);
		}
}

/* A latency part's rows. */
void
diff_set_add_latency(struct diff_set *s, const struct frame_latency *fl)
{
	char key[512];

	s->has[DIFF_LATENCY] = true;
	for (size_t i = 0; i < fl->nrows; i++) {
		const struct lat_row *r = &fl->rows[i];

		if (r->hist.count == 0)
			continue;
		diff_latency_key(r, key, sizeof key);
		diff_set_add(s, DIFF_LATENCY, key, (double)lat_hist_percentile(&r->hist, 50),
		             (double)lat_hist_percentile(&r->hist, 99), (double)r->hist.count);
	}
}

/* Everything a frame shows. */
void
diff_set_from_frame(struct diff_set *s, const struct frame *top, const struct frame *f,
                    size_t event, unsigned group)
{
	const struct frame_event *ev = frame_event(top, event);
	struct counters_snapshot snaps[COUNTERS_NSCOPES];
	size_t n = 0;

	if (top->has_sampling && ev != NULL && top->sampling.rows)
		diff_set_add_top(s, &ev->rows, group);
	for (int k = 0; f->has_counters && k < COUNTERS_NSCOPES; k++)
		if (f->counters.taken & (1u << k))
			snaps[n++] = f->counters.scopes[k];
	if (n > 0)
		diff_set_add_counters(s, snaps, n);
	if (f->has_latency)
		diff_set_add_latency(s, &f->latency);
	diff_set_seal(s);
}

/* The grouping fields in key order. */
static const unsigned diff_group_order[] = {HIST_GROUP_COMM,   HIST_GROUP_PID, HIST_GROUP_TID,
                                            HIST_GROUP_CGROUP, HIST_GROUP_DSO, HIST_GROUP_SYM};

/* Top rows keyed by fewer fields. */
void
diff_set_project(struct diff_set *dst, const struct diff_set *src, unsigned group)
{
	char key[8192], f[4096];

	memset(dst, 0, sizeof *dst);
	dst->group = group;
	dst->has[DIFF_TOP] = src->has[DIFF_TOP];
	for (size_t i = 0; i < src->n[DIFF_TOP]; i++) {
		const struct diff_item *it = &src->items[DIFF_TOP][i];
		size_t o = 0, at = 0;

		key[0] = '\0';
		for (size_t g = 0; g < ARRAY_SIZE(diff_group_order); g++) {
			if (!(src->group & diff_group_order[g]))
				continue;
			diff_key_field(it->key, at++, f, sizeof f);
			if (!(group & diff_group_order[g]))
				continue;
			/* the field is escaped already: joined as it is */
			o += (size_t)snprintf(key + o, o < sizeof key ? sizeof key - o : 0, "%s%s",
			                      o ? "\t" : "", f);
		}
		diff_set_add(dst, DIFF_TOP, key, it->value, it->value2, it->weight);
	}
	diff_set_seal(dst);
}

/* A JSON member as text ("[unknown]" when absent). */
static const char *
diff_json_text(const struct json *o, const char *key)
{
	const char *v = json_get_str(o, key);

	return v != NULL ? v : "[unknown]";
}

/* A JSON member as an int (0 when absent). */
static int
diff_json_int(const struct json *o, const char *key)
{
	double v = 0;

	json_get_num(o, key, &v);
	return v >= -2147483648.0 && v <= 2147483647.0 ? (int)v : 0;
}

/* The rows array of a report, or NULL with err. */
static const struct json *
diff_json_rows(const struct json *rep, const char *name, size_t line, struct tt_err *err)
{
	const struct json *rows = json_get(rep, "rows");

	if (rows == NULL || rows->type != JSON_ARRAY) {
		err_set(err, "%s:%zu: a report without a \"rows\" array", name, line);
		return NULL;
	}
	for (size_t i = 0; i < rows->n; i++)
		if (rows->items[i].type != JSON_OBJECT) {
			err_set(err, "%s:%zu: row %zu is not an object", name, line, i + 1);
			return NULL;
		}
	return rows;
}

/* A top report's rows. */
static int
diff_load_top(struct diff_set *s, const struct json *rep, const char *name, size_t line,
              struct tt_err *err)
{
	const struct json *rows = diff_json_rows(rep, name, line, err);
	const char *g = json_get_str(rep, "group");
	enum hist_sort keys[HIST_SORT_MAX + 1];
	char key[8192];
	struct tt_err e2;

	if (rows == NULL)
		return -1;
	s->group = HIST_GROUP_DEFAULT;
	if (g != NULL) {
		if (hist_parse_sort(g, keys, &e2) != 0)
			return err_set(err, "%s:%zu: \"group\": %s", name, line, e2.msg);
		s->group = hist_sort_group(keys);
	}
	for (size_t i = 0; i < rows->n; i++) {
		const struct json *r = &rows->items[i];
		struct diff_top_fields f = {
		    .comm = diff_json_text(r, "comm"),
		    .cgroup = diff_json_text(r, "cgroup"),
		    .dso = diff_json_text(r, "dso"),
		    .sym = diff_json_text(r, "symbol"),
		    .pid = diff_json_int(r, "pid"),
		    .tid = diff_json_int(r, "tid"),
		    .inlined = json_get_true(r, "inlined"),
		};
		const char *st = json_get_str(r, "status");
		double share, samples = 0;

		if (st != NULL && strcmp(st, "gone") == 0)
			continue; /* a row of that report's own baseline */
		if (!json_get_num(r, "overhead", &share))
			return err_set(err, "%s:%zu: top row %zu has no number \"overhead\"", name,
			               line, i + 1);
		json_get_num(r, "samples", &samples);
		diff_top_key_of(&f, s->group, key, sizeof key);
		diff_set_add(s, DIFF_TOP, key, share, 0, samples);
	}
	return 0;
}

/* A counters report's rows (those supported). */
static int
diff_load_counters(struct diff_set *s, const struct json *rep, const char *name, size_t line,
                   struct tt_err *err)
{
	const struct json *rows = diff_json_rows(rep, name, line, err);
	char key[512];

	if (rows == NULL)
		return -1;
	for (size_t i = 0; i < rows->n; i++) {
		const struct json *r = &rows->items[i];
		const char *event = json_get_str(r, "event");
		bool is_metric = json_get_true(r, "metric");
		double v, total = 0;

		if (event == NULL)
			return err_set(err, "%s:%zu: counters row %zu has no \"event\"", name, line,
			               i + 1);
		if (!json_get_num(r, is_metric ? "value" : "rate", &v))
			continue; /* not supported there */
		json_get_num(r, "total", &total);
		diff_counter_key_of(event, json_get(r, "pid") != NULL, diff_json_text(r, "scope"),
		                    diff_json_text(r, "comm"), key, sizeof key);
		diff_set_add(s, DIFF_COUNTERS, key, v, 0, total);
	}
	return 0;
}

/* A latency report's rows. */
static int
diff_load_latency(struct diff_set *s, const struct json *rep, const char *name, size_t line,
                  struct tt_err *err)
{
	const struct json *rows = diff_json_rows(rep, name, line, err);
	char key[512];

	if (rows == NULL)
		return -1;
	for (size_t i = 0; i < rows->n; i++) {
		const struct json *r = &rows->items[i];
		const char *kind = json_get_str(r, "kind"), *nm = json_get_str(r, "name");
		double p50, p99, count = 0;

		if (kind == NULL || nm == NULL || !json_get_num(r, "p50_ns", &p50) ||
		    !json_get_num(r, "p99_ns", &p99))
			return err_set(err,
			               "%s:%zu: latency row %zu lacks \"kind\", \"name\", "
			               "\"p50_ns\" or \"p99_ns\"",
			               name, line, i + 1);
		json_get_num(r, "count", &count);
		if (count <= 0)
			continue;
		diff_latency_key_of(kind, nm, diff_json_text(r, "comm"), key, sizeof key);
		diff_set_add(s, DIFF_LATENCY, key, p50, p99, count);
	}
	return 0;
}

/* The view names of the reports a baseline reads, by kind. */
static const char *const diff_views[DIFF_NKINDS] = {"top", "counters", "latency"};

/* Parse the reports of text; keep the last one of each view (its line). */
static int
diff_load_reports(const char *text, size_t len, const char *name, struct json last[DIFF_NKINDS],
                  size_t lines[DIFF_NKINDS], struct tt_err *err)
{
	size_t pos = 0, line = 1, objects = 0;
	struct tt_err e2;

	while (!json_at_end(text, len, pos)) {
		struct json v;
		const char *view;
		size_t start = pos;
		int k;

		if (json_parse(text, len, &pos, &v, &e2) != 0)
			return err_set(err, "%s: not tracetop's JSON report: %s", name, e2.msg);
		for (size_t i = start; i < pos; i++)
			line += text[i] == '\n';
		objects++;
		view = json_get_str(&v, "view");
		if (v.type != JSON_OBJECT || view == NULL) {
			json_free(&v);
			return err_set(err,
			               "%s:%zu: not a tracetop report (an object with a \"view\"); "
			               "make one with tracetop -b --format json",
			               name, line);
		}
		for (k = 0; k < DIFF_NKINDS && strcmp(view, diff_views[k]) != 0; k++)
			;
		if (k == DIFF_NKINDS) { /* history, trace, system, ...: not compared */
			json_free(&v);
			continue;
		}
		json_free(&last[k]);
		last[k] = v;
		lines[k] = line;
	}
	if (objects == 0)
		return err_set(err, "%s: empty: no report to compare with", name);
	return 0;
}

/* Load a baseline from JSON reports. */
int
diff_set_load(struct diff_set *s, const char *text, size_t len, const char *name,
              struct tt_err *err)
{
	static int (*const load[DIFF_NKINDS])(struct diff_set *, const struct json *, const char *,
	                                      size_t, struct tt_err *) = {
	    diff_load_top, diff_load_counters, diff_load_latency};
	struct json last[DIFF_NKINDS] = {0};
	size_t lines[DIFF_NKINDS] = {0};
	int rc = diff_load_reports(text, len, name, last, lines, err);
	bool any = false;

	memset(s, 0, sizeof *s);
	for (int k = 0; rc == 0 && k < DIFF_NKINDS; k++) {
		if (last[k].type != JSON_OBJECT)
			continue;
		any = true;
		s->has[k] = true;
		rc = load[k](s, &last[k], name, lines[k], err);
	}
	for (int k = 0; k < DIFF_NKINDS; k++)
		json_free(&last[k]);
	if (rc == 0 && !any)
		rc = err_set(err, "%s: no top, counters or latency report in it", name);
	if (rc != 0) {
		diff_set_free(s);
		return -1;
	}
	diff_set_seal(s);
	return 0;
}

/* Most bytes of a baseline file read. */
#define DIFF_FILE_MAX (256u << 20)

/* Load a baseline file. */
int
diff_set_load_file(struct diff_set *s, const char *path, struct tt_err *err)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc;

	memset(s, 0, sizeof *s);
	if (f == NULL)
		return err_set(err, "cannot read %s: %s", path, strerror(errno));
	for (;;) {
		size_t got;

		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0 || len > DIFF_FILE_MAX)
			break;
	}
	if (ferror(f) || len > DIFF_FILE_MAX) {
		rc = err_set(err, "cannot read %s: %s", path,
		             ferror(f) ? strerror(errno) : "larger than 256 MiB");
		fclose(f);
		free(buf);
		return rc;
	}
	fclose(f);
	rc = diff_set_load(s, buf, len, path, err);
	free(buf);
	return rc;
}

/* One row's change against a base item (NULL: new). */
static struct diff_row
diff_row_of(const struct diff_item *b, const char *key, double cur, double cur2)
{
	struct diff_row r = {.key = key, .cur = cur, .cur2 = cur2, .status = DIFF_NEW};

	if (b != NULL) {
		r.status = DIFF_SAME;
		r.base = b->value;
		r.base2 = b->value2;
		r.ratio = b->value != 0 ? cur / b->value : 0;
	}
	r.delta = r.cur - r.base;
	return r;
}

/* A row's change. */
struct diff_row
diff_change(const struct diff_set *base, enum diff_kind k, const char *key, double cur, double cur2)
{
	return diff_row_of(diff_set_find(base, k, key), key, cur, cur2);
}

/* A counter row's change. */
bool
diff_counter_change(const struct diff_set *base, const struct counters_row *r, struct diff_row *d)
{
	char key[512];
	double v;

	if (base == NULL || !diff_counter_value(r, &v))
		return false;
	diff_counter_key(r, key, sizeof key);
	*d = diff_change(base, DIFF_COUNTERS, key, v, 0);
	d->key = NULL;
	return true;
}

/* A latency row's change. */
bool
diff_latency_change(const struct diff_set *base, const struct lat_row *r, struct diff_row *d)
{
	char key[512];

	if (base == NULL || r->hist.count == 0)
		return false;
	diff_latency_key(r, key, sizeof key);
	*d = diff_change(base, DIFF_LATENCY, key, (double)lat_hist_percentile(&r->hist, 50),
	                 (double)lat_hist_percentile(&r->hist, 99));
	d->key = NULL;
	return true;
}

/* How much a row changed, for ordering. */
double
diff_row_score(const struct diff_row *r, bool points)
{
	if (points)
		return fabs(r->delta);
	if (r->status != DIFF_SAME)
		return INFINITY;
	if (r->ratio <= 0)
		return r->cur == r->base ? 0 : INFINITY;
	return r->ratio >= 1 ? r->ratio : 1 / r->ratio; /* x2 and x0.5 alike */
}

/* The kind being sorted by diff_compare (qsort has no argument). */
static _Thread_local bool diff_sort_points;

/* qsort order: most changed first, then by key. */
static int
diff_row_cmp(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	double x = diff_row_score(a, diff_sort_points), y = diff_row_score(b, diff_sort_points);

	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* Every row of both sets, most changed first. */
size_t
diff_compare(const struct diff_set *base, const struct diff_set *cur, enum diff_kind k,
             struct diff_row **out)
{
	struct diff_row *v = xcalloc(cur->n[k] + base->n[k] + 1, sizeof *v);
	size_t n = 0;

	for (size_t i = 0; i < cur->n[k]; i++) {
		const struct diff_item *c = &cur->items[k][i];

		v[n++] = diff_change(base, k, c->key, c->value, c->value2);
	}
	for (size_t i = 0; i < base->n[k]; i++) {
		const struct diff_item *b = &base->items[k][i];

		if (diff_set_find(cur, k, b->key) != NULL)
			continue;
		v[n] = (struct diff_row){.key = b->key,
		                         .status = DIFF_GONE,
		                         .base = b->value,
		                         .base2 = b->value2,
		                         .delta = -b->value};
		n++;
	}
	diff_sort_points = k == DIFF_TOP;
	qsort(v, n, sizeof *v, diff_row_cmp);
	*out = v;
	return n;
}

/* A status's name. */
const char *
diff_status_name(enum diff_status st)
{
	return st == DIFF_NEW ? "new" : st == DIFF_GONE ? "gone" : "same";
}

/* Field i of a key. */
void
diff_key_field(const char *key, size_t i, char *buf, size_t len)
{
	const char *p = key, *end;

	for (; i > 0 && p != NULL; i--) {
		p = strchr(p, '\t');
		if (p != NULL)
			p++;
	}
	if (p == NULL) {
		snprintf(buf, len, "%s", "");
		return;
	}
	end = strchr(p, '\t');
	snprintf(buf, len, "%.*s", (int)(end ? (size_t)(end - p) : strlen(p)), p);
}
