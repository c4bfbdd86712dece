/* replay: the recorder (a session tap) and the replayed recording (a
 * session source). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "tracetop/recframe.h"
#include "tracetop/replay.h"

/* ---- recording ---- */

struct replay_rec {
	struct recfile_writer *w;
	struct recframe_enc *enc;
	struct pb chunk;
	bool failed; /* a write failed: said once, nothing more written */
};

/* Make the file with a header from the run's options. */
struct replay_rec *
replay_rec_open(const char *path, const struct options *o, double decay, struct tt_err *err)
{
	struct utsname u;
	struct timespec ts;
	char writer[64];
	struct recfile_header h = {
	    .delay = o->delay,
	    .freq = o->freq,
	    .period = o->period,
	    .callgraph = (uint32_t)o->callgraph,
	    .zero = o->zero,
	    .decay = decay,
	    .cg_min_percent = ENGINE_CG_MIN_PERCENT,
	    .events = o->events,
	    .nevents = o->nevents,
	    .view = (uint32_t)o->view,
	};
	struct replay_rec *r;
	struct recfile_writer *w;

	snprintf(writer, sizeof writer, "tracetop %s", PACKAGE_VERSION);
	h.writer = writer;
	if (uname(&u) == 0) {
		h.host = u.nodename;
		h.kernel = u.release;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	h.start = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	if ((w = recfile_create(path, &h, err)) == NULL)
		return NULL;
	r = xcalloc(1, sizeof *r);
	r->w = w;
	r->enc = recframe_enc_new();
	return r;
}

/* Write one frame as a chunk. */
void
replay_rec_frame(void *arg, const struct frame *f, bool rows)
{
	struct replay_rec *r = arg;
	struct tt_err err;

	if (r->failed)
		return;
	recframe_encode(r->enc, f, rows, &r->chunk);
	if (recfile_write(r->w, r->chunk.buf, r->chunk.len, &err) != 0) {
		fprintf(stderr, "tracetop: %s; recording stopped\n", err.msg);
		r->failed = true;
	}
}

/* Bytes written. */
uint64_t
replay_rec_size(const struct replay_rec *r)
{
	return recfile_size(r->w);
}

/* Close the file. */
int
replay_rec_close(struct replay_rec *r, struct tt_err *err)
{
	int rc;

	if (r == NULL)
		return 0;
	rc = recfile_close(r->w, err);
	recframe_enc_free(r->enc);
	pb_free(&r->chunk);
	free(r);
	return rc;
}

/* ---- replay ---- */

/* The memory a replay's history may hold: REPLAY_HISTORY_BYTES, or
 * $TRACETOP_REPLAY_BYTES (tests). */
size_t
replay_history_bytes(void)
{
	const char *env = getenv("TRACETOP_REPLAY_BYTES");
	uint64_t v;

	if (env != NULL && parse_u64(env, &v) == 0 && v >= 4096 && v <= REPLAY_HISTORY_BYTES)
		return (size_t)v;
	return REPLAY_HISTORY_BYTES;
}

struct replay {
	uint8_t *data;
	size_t len;
	struct recfile_reader rd;
	struct recframe_dec *dec;
	size_t total;       /* whole intervals in the file */
	unsigned parts;     /* RECFRAME_* bits: what its intervals hold */
	size_t consumed;    /* taken by refreshes */
	struct frame taken; /* the numbers of the interval taken last (no rows) */
	bool have;          /* taken holds one */
	char stop[768];
};

/* Load the file, check its header and count its whole chunks. */
struct replay *
replay_open(const char *path, struct tt_err *err)
{
	struct replay *r = xcalloc(1, sizeof *r);
	uint8_t *raw;
	size_t rawlen;

	if (recfile_load(path, &r->data, &r->len, err) != 0) {
		free(r);
		return NULL;
	}
	if (recfile_open_mem(&r->rd, r->data, r->len, err) != 0) {
		char why[sizeof err->msg];

		snprintf(why, sizeof why, "%s", err->msg);
		err_set(err, "cannot replay %s: %s", path, why);
		free(r->data);
		free(r);
		return NULL;
	}
	/* a pass over the chunks: how many, and where a cut one ends them */
	{
		size_t start = r->rd.pos;

		while (recfile_next(&r->rd, &raw, &rawlen) == 1) {
			r->parts |= recframe_peek(raw, rawlen);
			free(raw);
		}
		r->total = r->rd.chunks;
		snprintf(r->stop, sizeof r->stop, "%s", r->rd.stop);
		r->rd.pos = start;
		r->rd.chunks = 0;
		r->rd.stop[0] = '\0';
	}
	if (r->total == 0) {
		err_set(err, "cannot replay %s: it holds no whole interval%s%s", path,
		        r->stop[0] ? ": " : " (the recording ended before its first refresh)",
		        r->stop);
		recfile_reader_free(&r->rd);
		free(r->data);
		free(r);
		return NULL;
	}
	return r;
}

/* The header. */
const struct recfile_header *
replay_header(const struct replay *r)
{
	return &r->rd.h;
}

/* Whole intervals. */
size_t
replay_intervals(const struct replay *r)
{
	return r->total;
}

/* What the intervals hold. */
unsigned
replay_parts(const struct replay *r)
{
	return r->parts;
}

/* Why the file ends early, or "". */
const char *
replay_stop(const struct replay *r)
{
	return r->stop;
}

/* The recorded run's events, rate and stacks into o. */
void
replay_apply(const struct replay *r, struct options *o)
{
	const struct recfile_header *h = &r->rd.h;

	for (size_t i = 0; i < o->nevents; i++)
		free(o->events[i]);
	free(o->events);
	o->events = xcalloc(h->nevents + 1, sizeof *o->events);
	for (size_t i = 0; i < h->nevents; i++)
		o->events[i] = xstrdup(h->events[i]);
	o->nevents = h->nevents;
	o->freq = h->freq;
	o->period = h->period;
	o->callgraph =
	    h->callgraph <= CALLGRAPH_DWARF ? (enum callgraph_mode)h->callgraph : CALLGRAPH_FP;
	o->zero = o->zero || h->zero; /* -z on a replay: each interval's own counts */
	if (h->delay >= 0.05 && h->delay <= 86400)
		o->delay = h->delay;
	/* the view the run showed, unless another is asked for */
	if (!o->view_given && h->view <= VIEW_FLAME)
		o->view = (enum options_view)h->view;
}

/* Done when the last interval is the one left: the refresh the session
 * makes on seeing this takes it. */
static bool
replay_finished(void *src)
{
	struct replay *r = src;

	return r->consumed + 1 >= r->total;
}

/* The next interval: its numbers kept for the snapshot, its samples added
 * to the profile, whose interval then ends (as a live source's tick). A
 * chunk that does not parse ends the replay before it. */
static void
replay_tick(void *src, bool zero)
{
	struct replay *r = src;
	struct tt_err err;
	uint8_t *raw;
	size_t len;

	if (r->consumed >= r->total)
		return;
	/* zeroed where the run decayed (-z on the replay): each interval's
	 * stacks as recorded, not folded again (their sum is then the
	 * recording's pprof, exactly) */
	if (r->dec == NULL)
		r->dec = recframe_dec_new(r->rd.h.decay,
		                          zero && !r->rd.h.zero ? 0 : r->rd.h.cg_min_percent);
	if (recfile_next(&r->rd, &raw, &len) != 1) {
		r->total = r->consumed; /* the file changed under us */
		return;
	}
	r->consumed++;
	if (recframe_decode(r->dec, raw, len, &r->taken, &err) != 0 ||
	    r->taken.sampling.nevents > r->rd.h.nevents) {
		snprintf(r->stop, sizeof r->stop, "interval %zu is damaged (%s): replayed up to it",
		         r->consumed, err.msg);
		r->total = r->consumed;
		r->taken.has_sampling = false;
	}
	free(raw);
	recframe_tick(r->dec, zero);
	r->have = true;
}

/* The interval into f: the recorded times and numbers, the rows made from
 * the profile; the session's numbering and end flag stay. */
static void
replay_snapshot(void *src, const struct session *s, struct frame *f, bool rows)
{
	static const enum hist_sort by_overhead[] = {HIST_SORT_OVERHEAD, HIST_SORT_END};
	const enum hist_sort *sort = session_opts(s)->sort;
	struct replay *r = src;
	const struct frame *t = &r->taken;
	struct frame_sampling *fs = &f->sampling;

	if (!r->have || r->dec == NULL)
		return;
	f->time_ns = t->time_ns;
	f->wall = t->wall;
	f->secs = t->secs;
	f->has_sampling = t->has_sampling;
	if (rows)
		recframe_parts(r->dec, f);
	if (!t->has_sampling)
		return;
	frame_sampling_reserve(fs, t->sampling.nevents);
	fs->nevents = t->sampling.nevents;
	fs->stats = t->sampling.stats;
	fs->notice = t->sampling.notice;
	fs->target = t->sampling.target;
	fs->engine = t->sampling.engine;
	fs->engine_why = t->sampling.engine_why;
	for (size_t i = 0; i < fs->nevents; i++) {
		fs->events[i].name = t->sampling.events[i].name;
		fs->events[i].samples = t->sampling.events[i].samples;
		fs->events[i].total = t->sampling.events[i].total;
	}
	if (!rows)
		return;
	recframe_snapshot(r->dec, f, sort != NULL ? sort : by_overhead, session_opts(s)->group);
	fs->rows = true;
}

/* Free everything. */
static void
replay_free(void *src)
{
	struct replay *r = src;

	frame_free(&r->taken);
	recframe_dec_free(r->dec);
	recfile_reader_free(&r->rd);
	free(r->data);
	free(r);
}

/* A replay ends with its file: the loop looks often. */
static bool
replay_watching(void *src)
{
	(void)src;
	return true;
}

const struct source_ops source_replay = {
    .name = "replay",
    .finished = replay_finished,
    .watching = replay_watching,
    .tick = replay_tick,
    .snapshot = replay_snapshot,
    .free = replay_free,
};
