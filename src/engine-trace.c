/* engine-trace: tracepoints opened per CPU (and per thread of a target)
 * into rings of their own (the samples' rings when those cannot be had),
 * and the function tracer in a private tracefs instance, both feeding the
 * stream. Own rings keep a busy tracepoint's records from crowding the
 * samples out, and tell its losses from the profile's. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tracetop/dso.h"
#include "engine-impl.h"
#include "tracetop/evspec.h"
#include "tracetop/frame.h"
#include "tracetop/stream.h"
#include "tracetop/sym-name.h"
#include "tracetop/tasks.h"
#include "tracetop/tracefs.h"

/* One tracepoint on. */
struct engine_tp {
	const char *name; /* "subsys:name", interned */
	char *filter;     /* NULL for none */
	int ev;           /* its stream event */
	int *fds;
	size_t nfds;
};

/* A trace fd's sample id and the stream event it feeds (-1: the
 * tracepoint was turned off; its last records are dropped). */
struct engine_trace_id {
	uint64_t id; /* 0: empty slot (the kernel's ids start at 1) */
	int ev;
};

struct engine_trace {
	struct stream *stream;
	struct engine_tp *tps;
	size_t ntps;
	uint64_t sample_type;
	struct engine_trace_id *ids; /* open addressing, a power of two */
	size_t nids, cap;
	struct tt_ftrace *ftrace;
	bool header_page; /* loaded into the stream */
	/* the stream's own rings, one per CPU slot as the samples' (0: not
	 * made yet; shared: they could not be, the samples' are used) */
	struct ring *rings;
	int *ring_fds;
	size_t nrings;
	bool shared;
};

/* Kernel symbols for the stream's %ps fields. */
static const char *
engine_trace_ksym(void *arg, uint64_t addr, uint64_t *start)
{
	const struct sym *sym = NULL;

	(void)arg;
	dso_kernel_resolve(addr, &sym);
	if (sym == NULL)
		return NULL;
	*start = sym->start;
	return sym_name(sym);
}

/* The trace state, made on first use. */
static struct engine_trace *
engine_trace_get(struct engine *e)
{
	struct engine_trace *tr = e->trace;

	if (tr != NULL)
		return tr;
	tr = xcalloc(1, sizeof *tr);
	tr->stream = stream_new(0, e->trace_log);
	stream_set_ksym(tr->stream, engine_trace_ksym, NULL);
	/* the samples' leading fields, so the rings merge and parse alike */
	tr->sample_type = ENGINE_SAMPLE_TYPE | PERF_SAMPLE_RAW;
	if (e->cg_mode != CALLGRAPH_NONE)
		tr->sample_type |= PERF_SAMPLE_CALLCHAIN;
	e->trace = tr;
	return tr;
}

/* The stream. */
struct stream *
engine_stream(struct engine *e)
{
	return engine_trace_get(e)->stream;
}

/* The slot of a sample id in the table (or the empty one for it). */
static struct engine_trace_id *
engine_trace_slot(const struct engine_trace *tr, uint64_t id)
{
	size_t mask = tr->cap - 1, i = hash_u64(id) & mask;

	while (tr->ids[i].id != 0 && tr->ids[i].id != id)
		i = (i + 1) & mask;
	return &tr->ids[i];
}

/* Remember that sample id feeds stream event ev. */
static void
engine_trace_add_id(struct engine_trace *tr, uint64_t id, int ev)
{
	struct engine_trace_id *slot;

	if ((tr->nids + 1) * 2 > tr->cap) {
		struct engine_trace_id *old = tr->ids;
		size_t oldcap = tr->cap;

		tr->cap = tr->cap ? tr->cap * 2 : 256;
		tr->ids = xcalloc(tr->cap, sizeof *tr->ids);
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].id != 0)
				*engine_trace_slot(tr, old[i].id) = old[i];
		free(old);
	}
	slot = engine_trace_slot(tr, id);
	if (slot->id == 0)
		tr->nids++;
	*slot = (struct engine_trace_id){id, ev};
}

/* Send a tracepoint sample to the stream. */
bool
engine_trace_sample(struct engine *e, const struct perf_event_header *h)
{
	struct engine_trace *tr = e->trace;
	const struct engine_trace_id *slot;
	struct record_sample s;
	struct thread *th;
	uint64_t id;

	if (tr->nids == 0 || h->size < sizeof *h + sizeof id)
		return false;
	memcpy(&id, h + 1, sizeof id); /* PERF_SAMPLE_IDENTIFIER comes first */
	slot = engine_trace_slot(tr, id);
	if (slot->id != id)
		return false;
	if (slot->ev < 0)
		return true;
	if (record_parse_sample(h, tr->sample_type, 0, &s) != 0) {
		e->stats.bad_records++;
		return true;
	}
	if (!e->include_self && (int)s.pid == e->self)
		return true;
	th = tasks_thread(e->tasks, (int)s.pid, (int)s.tid);
	stream_push(tr->stream, &(struct stream_sample){
	                            .ev = slot->ev,
	                            .time = s.time,
	                            .cpu = (int)s.cpu,
	                            .pid = (int)s.pid,
	                            .tid = (int)s.tid,
	                            .comm = th ? th->comm : NULL,
	                            .raw = s.raw,
	                            .raw_size = s.raw_size,
	                            .ips = s.ips,
	                            .nips = (uint32_t)s.nr,
	                        });
	return true;
}

/* The tracepoint on under name, or NULL. */
static struct engine_tp *
engine_trace_find(const struct engine *e, const char *name)
{
	const struct engine_trace *tr = e->trace;

	for (size_t i = 0; tr != NULL && i < tr->ntps; i++)
		if (strcmp(tr->tps[i].name, name) == 0)
			return &tr->tps[i];
	return NULL;
}

/* Load the format of name ("subsys:event") into the stream once. */
static int
engine_trace_format(struct engine_trace *tr, const char *name, struct tt_err *err)
{
	char sys[256];
	const char *colon = strchr(name, ':');
	size_t len;
	char *text;
	int ev;

	if ((ev = stream_find_name(tr->stream, name)) >= 0)
		return ev;
	if (colon == NULL || (size_t)(colon - name) >= sizeof sys)
		return err_set(err, "bad tracepoint name '%s'; expected SUBSYSTEM:EVENT", name);
	snprintf(sys, sizeof sys, "%.*s", (int)(colon - name), name);
	if ((text = tt_tracefs_event_format(sys, colon + 1, &len, err)) == NULL)
		return -1;
	ev = stream_add_format(tr->stream, sys, text, len, err);
	free(text);
	return ev;
}

/* The kernel's own words for a refused filter, in err: the reason first
 * (a status line at 80 columns shows it), then the filter and the event. */
static int
engine_trace_bad_filter(const char *name, const char *filter, int errnum, struct tt_err *err)
{
	static const char *const noise[] = {"event filter parse error: ", "error: "};
	char sys[256], why[sizeof(struct tt_err) + 64];
	const char *colon = strchr(name, ':'), *reason = why;
	struct tt_err ierr;

	snprintf(sys, sizeof sys, "%.*s", (int)(colon - name), name);
	if (tt_tracefs_filter_error(sys, colon + 1, filter, why, sizeof why, &ierr) != 0)
		snprintf(why, sizeof why, "%s (%s)", strerror(errnum), ierr.msg);
	else if (why[0] == '\0')
		snprintf(why, sizeof why, "%s", strerror(errnum));
	/* the error log's wording around the reason says nothing here */
	for (size_t i = 0; i < ARRAY_SIZE(noise); i++)
		if (strncmp(reason, noise[i], strlen(noise[i])) == 0)
			reason += strlen(noise[i]);
	return err_set(err, "filter refused by the kernel: %s, in '%s' for %s", reason, filter,
	               name);
}

/* Close a tracepoint's fds; their ids feed nothing any more. */
static void
engine_trace_close(struct engine_trace *tr, struct engine_tp *tp)
{
	for (size_t i = 0; i < tr->cap; i++)
		if (tr->ids[i].id != 0 && tr->ids[i].ev == tp->ev)
			tr->ids[i].ev = -1;
	for (size_t i = 0; i < tp->nfds; i++)
		close(tp->fds[i]);
	free(tp->fds);
	free(tp->filter);
	tp->fds = NULL;
	tp->nfds = 0;
}

/* Make the stream's rings, the size of the samples', on first use; when
 * the kernel refuses, the samples' rings carry the stream as before. */
static void
engine_trace_rings(struct engine *e)
{
	struct engine_trace *tr = e->trace;
	unsigned pages = (unsigned)(e->el.rings[0].size / (uint64_t)sysconf(_SC_PAGESIZE));
	size_t c;

	if (tr->nrings > 0 || tr->shared)
		return;
	tr->rings = xcalloc(e->ncpus, sizeof *tr->rings);
	tr->ring_fds = xcalloc(e->ncpus, sizeof *tr->ring_fds);
	for (c = 0; c < e->ncpus; c++)
		if ((tr->ring_fds[c] =
		         evlist_ring_open(&tr->rings[c], e->cpus[c], tr->sample_type, pages)) < 0)
			break;
	if (c == e->ncpus) {
		tr->nrings = c; /* the read merges them with the samples' */
		return;
	}
	while (c-- > 0) {
		ring_unmap(&tr->rings[c]);
		close(tr->ring_fds[c]);
	}
	free(tr->rings);
	free(tr->ring_fds);
	tr->rings = NULL;
	tr->ring_fds = NULL;
	tr->shared = true;
}

/* The stream's own rings: how many (0: it shares the samples'), ring i
 * and its fd. */
size_t
engine_trace_nrings(const struct engine *e)
{
	return e->trace != NULL ? e->trace->nrings : 0;
}

struct ring *
engine_trace_ring(const struct engine *e, size_t i, int *fd)
{
	*fd = e->trace->ring_fds[i];
	return &e->trace->rings[i];
}

/* Open tp on every CPU (and thread) of the target into the rings, with
 * its filter; enabled at once when the engine runs. */
static int
engine_trace_open(struct engine *e, struct engine_tp *tp, const struct evspec *spec,
                  struct tt_err *err)
{
	struct engine_trace *tr = e->trace;
	size_t ntids = e->ntids ? e->ntids : 1;
	struct evlist_params none = {0};
	struct perf_event_attr a;

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = spec->attr.config;
	a.sample_period = 1;
	a.sample_type = tr->sample_type;
	a.disabled = 1;
	a.inherit = e->inherit;
	a.enable_on_exec = e->child > 0 && !e->started;
	a.sample_id_all = 1;
	engine_trace_rings(e);
	tp->fds = xcalloc(e->ncpus * ntids, sizeof *tp->fds);
	for (size_t c = 0; c < e->ncpus; c++)
		for (size_t k = 0; k < ntids; k++) {
			int pid = e->ntids ? e->tids[k] : -1, fd;
			uint64_t id;

			fd = tr->nrings > 0
			         ? evlist_attach_fd(tr->ring_fds[c], &a, pid, e->cpus[c], &id)
			         : evlist_attach(&e->el, &a, pid, e->cpus[c], c, &id);
			if (fd < 0) {
				evlist_open_error(errno, spec, pid, e->cpus[c], &none, err);
				return -1;
			}
			tp->fds[tp->nfds++] = fd;
			engine_trace_add_id(tr, id, tp->ev);
			if (tp->filter != NULL &&
			    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, tp->filter) < 0)
				return engine_trace_bad_filter(tp->name, tp->filter, errno, err);
		}
	for (size_t i = 0; e->started && i < tp->nfds; i++)
		if (ioctl(tp->fds[i], PERF_EVENT_IOC_ENABLE, 0) < 0)
			return err_set(err, "cannot enable %s: %s", tp->name, strerror(errno));
	return 0;
}

/* Turn a tracepoint on. */
int
engine_trace_enable(struct engine *e, const char *name, const char *filter, struct tt_err *err)
{
	struct engine_trace *tr = engine_trace_get(e);
	struct engine_tp tp = {0};
	struct evspec spec;

	if (evspec_parse(name, &spec, err) != 0)
		return -1;
	if (spec.attr.type != PERF_TYPE_TRACEPOINT)
		return err_set(err,
		               "'%s' is not a tracepoint; name one as SUBSYSTEM:EVENT (see "
		               "tracetop --list-events)",
		               name);
	if (e->el.nrings == 0 || e->el.ring_fds[0] < 0)
		return err_set(err, "cannot stream %s: this session has no ring buffers", name);
	if (engine_trace_find(e, name) != NULL && engine_trace_disable(e, name, err) != 0)
		return -1;
	tp.name = str_intern(name);
	tp.filter = filter != NULL && *filter != '\0' ? xstrdup(filter) : NULL;
	if ((tp.ev = engine_trace_format(tr, name, err)) < 0) {
		free(tp.filter);
		return -1;
	}
	if (engine_trace_open(e, &tp, &spec, err) != 0) {
		engine_trace_close(tr, &tp);
		return -1;
	}
	tr->tps = xrealloc(tr->tps, (tr->ntps + 1) * sizeof *tr->tps);
	tr->tps[tr->ntps++] = tp;
	return 0;
}

/* Replace a tracepoint's filter: perf takes a filter only once per fd, so
 * the tracepoint is opened again with the new one, or with its old one
 * when the kernel refuses the new. */
int
engine_trace_set_filter(struct engine *e, const char *name, const char *filter, struct tt_err *err)
{
	struct engine_tp *tp = engine_trace_find(e, name);
	char *old;
	int rc = 0;

	if (tp == NULL)
		return err_set(err, "%s is not being traced: turn it on first (a)", name);
	old = tp->filter != NULL ? xstrdup(tp->filter) : NULL;
	if (engine_trace_enable(e, name, filter, err) != 0) {
		struct tt_err again;

		rc = -1;
		if (engine_trace_enable(e, name, old, &again) != 0)
			snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
			         "; and %s is off now: %s", name, again.msg);
	}
	free(old);
	return rc;
}

/* A tracepoint's filter. */
const char *
engine_trace_filter(const struct engine *e, const char *name)
{
	const struct engine_tp *tp = engine_trace_find(e, name);

	return tp != NULL ? tp->filter : NULL;
}

/* Turn a tracepoint off. */
int
engine_trace_disable(struct engine *e, const char *name, struct tt_err *err)
{
	struct engine_trace *tr = e->trace;
	struct engine_tp *tp = engine_trace_find(e, name);

	if (tp == NULL)
		return err_set(err, "%s is not being traced", name);
	engine_trace_close(tr, tp);
	memmove(tp, tp + 1, (size_t)(tr->tps + tr->ntps - (tp + 1)) * sizeof *tp);
	tr->ntps--;
	return 0;
}

/* Whether the trace state exists. */
bool
engine_has_stream(const struct engine *e)
{
	return e->trace != NULL;
}

/* How many tracepoints are on. */
size_t
engine_trace_count(const struct engine *e)
{
	return e->trace ? e->trace->ntps : 0;
}

/* The i-th tracepoint on, and its filter. */
const char *
engine_trace_name(const struct engine *e, size_t i, const char **filter)
{
	if (e->trace == NULL || i >= e->trace->ntps)
		return NULL;
	if (filter != NULL)
		*filter = e->trace->tps[i].filter;
	return e->trace->tps[i].name;
}

/* Whether name is on. */
bool
engine_trace_enabled(const struct engine *e, const char *name)
{
	return engine_trace_find(e, name) != NULL;
}

/* Open the options' tracepoints and function tracer. */
int
engine_trace_setup(struct engine *e, const struct engine_opts *o, struct tt_err *err)
{
	engine_trace_get(e);
	/* events of tasks that were running before us and leave /proc
	 * before their ring is read keep their names */
	if (o->ntraces > 0 || o->ftrace != NULL)
		tasks_prime(e->tasks);
	for (size_t i = 0; i < o->ntraces; i++)
		if (engine_trace_enable(e, o->traces[i].event, o->traces[i].filter, err) != 0)
			return -1;
	if (o->ftrace != NULL && engine_ftrace_start(e, o->ftrace, o->ftrace_graph, err) != 0)
		return -1;
	return 0;
}

/* Enable what was opened before the start. */
int
engine_trace_start(struct engine *e, struct tt_err *err)
{
	struct engine_trace *tr = e->trace;

	for (size_t t = 0; t < tr->ntps; t++)
		for (size_t i = 0; i < tr->tps[t].nfds; i++)
			if (ioctl(tr->tps[t].fds[i], PERF_EVENT_IOC_ENABLE, 0) < 0)
				return err_set(err, "cannot enable %s: %s", tr->tps[t].name,
				               strerror(errno));
	return 0;
}

/* One event of the function tracer, into the stream. */
static void
engine_ftrace_event(void *arg, const struct tt_ftrace_rec *r)
{
	struct engine *e = arg;
	struct stream *st = e->trace->stream;
	int tid = stream_common_pid(st, r->raw, r->size);
	struct thread *th = tid >= 0 ? tasks_thread(e->tasks, -1, tid) : NULL;
	int pid = th != NULL && th->proc != NULL ? th->proc->pid : tid;

	if (r->missed > 0)
		stream_add_lost(st, (uint64_t)r->missed);
	if (!e->include_self && pid == e->self)
		return;
	stream_push(st, &(struct stream_sample){
	                    .ev = -1,
	                    .time = r->time,
	                    .cpu = r->cpu,
	                    .pid = pid,
	                    .tid = tid,
	                    .comm = th ? th->comm : NULL,
	                    .raw = r->raw,
	                    .raw_size = r->size,
	                });
}

/* Start the function tracer. */
int
engine_ftrace_start(struct engine *e, const char *funcs, bool graph, struct tt_err *err)
{
	struct engine_trace *tr = engine_trace_get(e);
	enum tt_ftrace_tracer tracer = graph ? TT_FTRACE_GRAPH : TT_FTRACE_FUNCTION;
	const char *const *evs = tt_tracefs_ftrace_events(tracer);
	struct tt_ftrace *ft;
	size_t len;
	char *text;

	engine_ftrace_stop(e);
	ft = tt_tracefs_ftrace_start(funcs, tracer, e->ntids ? e->tids : NULL, e->ntids, err);
	if (ft == NULL)
		return -1;
	for (size_t i = 0; evs[i] != NULL; i++)
		if (engine_trace_format(tr, evs[i], err) < 0) {
			tt_tracefs_ftrace_stop(ft);
			return -1;
		}
	if (!tr->header_page) {
		if ((text = tt_tracefs_header_page(&len, err)) == NULL ||
		    stream_add_header_page(tr->stream, text, len, err) != 0) {
			free(text);
			tt_tracefs_ftrace_stop(ft);
			return -1;
		}
		free(text);
		tr->header_page = true;
	}
	tr->ftrace = ft;
	return 0;
}

/* Stop the function tracer. */
void
engine_ftrace_stop(struct engine *e)
{
	if (e->trace == NULL || e->trace->ftrace == NULL)
		return;
	tt_tracefs_ftrace_stop(e->trace->ftrace);
	e->trace->ftrace = NULL;
}

/* Whether the function tracer runs. */
bool
engine_ftrace_on(const struct engine *e)
{
	return e->trace != NULL && e->trace->ftrace != NULL;
}

/* Drain the function tracer. */
void
engine_trace_read(struct engine *e)
{
	struct engine_trace *tr = e->trace;

	if (tr->ftrace != NULL)
		tt_tracefs_ftrace_read(tr->ftrace, stream_tep(tr->stream), engine_ftrace_event, e);
	stream_mark(tr->stream, now_ns());
}

/* Frame i of an entry's stack, for a frame's readers. */
static bool
engine_trace_stack(void *arg, const struct stream_entry *en, size_t i, char *buf, size_t len,
                   bool *kernel)
{
	return engine_trace_frame(arg, en, i, buf, len, kernel);
}

/* The stream's part of a frame: its numbers, and with rows where its log
 * stood, the per-event counts and the tracepoints on (their filters copied: one turned off while
 * the frame is shown frees its own). */
void
engine_trace_snapshot(struct engine *e, struct frame_trace *ft, bool rows)
{
	struct engine_trace *tr = e->trace;

	frame_trace_take(ft, tr->stream, rows);
	ft->ftrace = tr->ftrace != NULL;
	if (!rows)
		return;
	ft->stack = engine_trace_stack;
	ft->stack_arg = e;
	frame_trace_clear_on(ft);
	if (ft->on_cap < tr->ntps) {
		ft->on = xrealloc(ft->on, tr->ntps * sizeof *ft->on);
		ft->on_cap = tr->ntps;
	}
	for (size_t i = 0; i < tr->ntps; i++)
		ft->on[i] = (struct frame_tracepoint){
		    .name = tr->tps[i].name,
		    .filter = tr->tps[i].filter ? xstrdup(tr->tps[i].filter) : NULL};
	ft->non = tr->ntps;
}

/* Close the stream's refresh interval. */
void
engine_trace_tick(struct engine *e)
{
	stream_tick(e->trace->stream);
}

/* Release the trace state. */
void
engine_trace_free(struct engine *e)
{
	struct engine_trace *tr = e->trace;

	if (tr == NULL)
		return;
	engine_ftrace_stop(e);
	for (size_t i = 0; i < tr->ntps; i++)
		engine_trace_close(tr, &tr->tps[i]);
	free(tr->tps);
	free(tr->ids);
	for (size_t c = 0; c < tr->nrings; c++) {
		ring_unmap(&tr->rings[c]);
		close(tr->ring_fds[c]);
	}
	free(tr->rings);
	free(tr->ring_fds);
	stream_free(tr->stream);
	free(tr);
	e->trace = NULL;
}
