/* batch: the -b front end: the session's loop with a signalfd, and a
 * report printed from every frame. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tracetop/batch.h"
#include "tracetop/diff.h"
#include "tracetop/recdiff.h"
#include "tracetop/flame.h"
#include "tracetop/session.h"
#include "tracetop/report-counters.h"
#include "tracetop/report-flame.h"
#include "tracetop/report-probes.h"
#include "tracetop/latency-merge.h"
#include "tracetop/report-latency.h"
#include "tracetop/report-system.h"
#include "tracetop/report-trace.h"
#include "tracetop/stream.h"
#include "tracetop/report.h"

/* On a terminal the first frame comes after this much sampling, not after
 * a whole refresh interval. */
#define BATCH_FIRST_FRAME_NS 250000000ULL

/* Trace view: events logged since the last frame that make batch print
 * before the refresh (well under the log's STREAM_LOG_ENTRIES, so it
 * never drops in batch). */
#define BATCH_TRACE_DRAIN (STREAM_LOG_ENTRIES / 8)

/* Rows that fit a terminal below the header, or the -n/--rows limit. */
static unsigned
batch_rows(const struct options *o, FILE *out)
{
	struct winsize ws;

	if (o->batch || o->rows || ioctl(fileno(out), TIOCGWINSZ, &ws) != 0 || ws.ws_row < 8)
		return o->rows;
	return ws.ws_row - 5u;
}

/* What one batch view prints from every frame, and its state. */
struct batch_view {
	void (*report)(struct batch_view *v, const struct frame *f);
	void (*flush)(struct batch_view *v); /* after a stop by a signal, or NULL */
	void (*drain)(struct batch_view *v); /* after every read of the sources, or NULL */
	struct session *s;
	struct engine *e; /* the sampling source */
	const struct options *o;
	FILE *out;
	int sfd;    /* signals */
	bool stop;  /* a signal asked us to stop */
	bool final; /* the last report was printed */
	long reports;
	char notice[320];               /* the counters notice last printed */
	uint64_t dbg_seq;               /* the last debuginfod note printed */
	uint64_t trace_seq;             /* trace view: the next entry to print */
	uint64_t trace_lost;            /* events the kernel lost, as last printed */
	struct report_system_state sys; /* system view: titles, absent reasons, CSV columns */
	uint64_t start_ns;              /* latency view: when the run began */
	struct flame flame;             /* flame view and SVG: the last refresh's */
	bool no_stacks;                 /* said that there are no call stacks */
	struct diff_set base;           /* --baseline: the rows compared with */
	bool has_base;
	struct frame_latency merged; /* --latency-merge: the rows over every process */
};

/* Print one refresh of every event. */
static void
batch_report(struct batch_view *v, const struct frame *f)
{
	const struct options *o = v->o;
	const struct frame_sampling *fs = &f->sampling;

	if (o->format == FORMAT_PPROF)
		return; /* one profile of the whole window at the end */
	for (size_t i = 0; i < fs->nevents; i++) {
		const struct frame_event *ev = &fs->events[i];
		struct report_info ri = {
		    .event = ev->name,
		    .requested = strcmp(o->events[i], ev->name) ? o->events[i] : NULL,
		    .notice = fs->notice,
		    .target = fs->target,
		    .engine = fs->engine,
		    .engine_why = fs->engine_why,
		    .samples = ev->samples,
		    .lost = fs->stats.interval_lost,
		    .total_samples = ev->total,
		    .total_lost = fs->stats.lost,
		    .seconds = fs->stats.interval_secs,
		    .wall = f->wall,
		    .max_rows = batch_rows(o, v->out),
		    .cg = ev->cg,
		    .cgroup = hist_sort_has(o->sort, HIST_SORT_CGROUP),
		    .group = o->group,
		    .chain_depth = o->max_stack,
		    .base = v->has_base ? &v->base : NULL,
		    .sort_delta = o->sort_delta,
		};

		if (o->format == FORMAT_FOLDED)
			report_folded(v->out, &ri);
		else if (o->format == FORMAT_JSON)
			report_json(v->out, &ri, &ev->rows);
		else
			report_text(v->out, &ri, &ev->rows);
	}
}

/* The signalfd, polled with the sources. */
static size_t
batch_pollfds(void *arg, struct pollfd *fds, size_t max)
{
	struct batch_view *v = arg;

	if (max == 0)
		return 0;
	fds[0] = (struct pollfd){.fd = v->sfd, .events = POLLIN};
	return 1;
}

/* Pending signals: any but CHLD and WINCH stops the run. */
static void
batch_ready(void *arg, const struct pollfd *fds, size_t n)
{
	struct batch_view *v = arg;
	struct signalfd_siginfo si;

	if (n == 0 || !(fds[0].revents & POLLIN))
		return;
	while (read(v->sfd, &si, sizeof si) == (ssize_t)sizeof si)
		if (si.ssi_signo != SIGCHLD && si.ssi_signo != SIGWINCH)
			v->stop = true;
}

/* After each read of the sources: the view's drain. */
static void
batch_read(void *arg)
{
	struct batch_view *v = arg;

	if (v->drain != NULL)
		v->drain(v);
}

/* The debuginfod notes of a frame not printed yet, one stderr line each
 * (already escaped); a note pushed out before a frame came is counted. */
static void
batch_debuginfod(struct batch_view *v, const struct frame *f)
{
	const struct symdbg_status *st = &f->sampling.debuginfod;
	uint64_t oldest = st->note_seq;

	if (!f->has_sampling || st->note_seq <= v->dbg_seq)
		return;
	for (size_t i = 0; i < SYMDBG_NOTES; i++)
		if (st->notes[i].seq != 0 && st->notes[i].seq < oldest)
			oldest = st->notes[i].seq;
	if (oldest > v->dbg_seq + 1)
		fprintf(stderr, "tracetop: debuginfod: %llu notes not shown\n",
		        (unsigned long long)(oldest - v->dbg_seq - 1));
	for (size_t i = 0; i < SYMDBG_NOTES; i++)
		if (st->notes[i].seq > v->dbg_seq)
			fprintf(stderr, "tracetop: %s\n", st->notes[i].text);
	v->dbg_seq = st->note_seq;
}

/* A frame: the view's report. */
static void
batch_frame(void *arg, const struct frame *f)
{
	struct batch_view *v = arg;

	batch_debuginfod(v, f);
	v->final = f->final;
	v->report(v, f);
	v->reports++;
}

/* Whether a signal stopped us. */
static bool
batch_stop(void *arg)
{
	return ((struct batch_view *)arg)->stop;
}

/* Run the session's loop with the view's report at every frame. */
static int
batch_loop(struct batch_view *v)
{
	const struct session_hooks hooks = {
	    .arg = v,
	    .pollfds = batch_pollfds,
	    .ready = batch_ready,
	    .read = batch_read,
	    .frame = batch_frame,
	    .stop = batch_stop,
	};
	int status;

	v->sfd = signals_fd(NULL);
	if (v->sfd < 0) {
		fprintf(stderr, "tracetop: cannot set up signal handling: %s\n", strerror(errno));
		return 1;
	}
	status = session_run(v->s, &hooks);
	close(v->sfd);
	if (status != 0) {
		fprintf(stderr, "tracetop: poll: %s\n", strerror(errno));
		return 1;
	}
	if (!v->final && v->flush != NULL)
		v->flush(v); /* stopped by a signal: what is still held back */
	return ferror(v->out) ? 1 : 0;
}

/* Print one refresh of the counters in every scope asked for. */
static void
batch_counters_report(struct batch_view *v, const struct frame *f)
{
	struct counters_snapshot snaps[COUNTERS_NSCOPES];
	const char *notice = f->counters.notice;
	char scopes[64];
	size_t n = report_counters_taken(f->counters.scopes, f->counters.taken, snaps, scopes,
	                                 sizeof scopes);

	if (n == 0)
		return;
	struct report_counters_info ri = {
	    .target = f->sampling.target,
	    .scopes = scopes,
	    .time = snaps[0].elapsed,
	    .interval = snaps[0].interval,
	    .header = v->reports == 0,
	    .base = v->has_base ? &v->base : NULL,
	};
	/* text shows the notice when it changes, JSON in every object */
	if (notice != NULL && (v->o->format == FORMAT_JSON || strcmp(notice, v->notice) != 0))
		ri.notice = notice;
	ri.header |= ri.notice != NULL;
	snprintf(v->notice, sizeof v->notice, "%s", notice ? notice : "");
	if (v->o->format == FORMAT_JSON)
		report_counters_json(v->out, &ri, snaps, n);
	else
		report_counters_text(v->out, &ri, snaps, n);
}

/* Print the logged events of frame f that have settled (one of another
 * CPU may still come with an earlier time; all of them in the last
 * frame) and were not printed yet. Drops and losses are those since the
 * last print: entries the bounded log let go before they were printed,
 * events the kernel lost. */
static void
batch_trace_print(struct batch_view *v, const struct frame *f)
{
	const struct frame_trace *ft = &f->trace;
	struct report_trace_info ri = {
	    .from = v->trace_seq > ft->first_seq ? v->trace_seq : ft->first_seq,
	    .to = v->final ? ft->end_seq : ft->settled_seq,
	    .time = ft->stats.secs,
	    .dropped = ft->first_seq > v->trace_seq ? ft->first_seq - v->trace_seq : 0,
	    .lost = ft->stats.lost - v->trace_lost,
	    .stacks = v->o->callgraph != CALLGRAPH_NONE,
	};

	if (!f->has_trace)
		return;
	if (v->o->format == FORMAT_JSON)
		report_trace_json(v->out, &ri, f);
	else
		report_trace_text(v->out, &ri, f);
	v->trace_seq = ri.to > ri.from ? ri.to : ri.from;
	v->trace_lost = ft->stats.lost;
}

/* A refresh: print what the interval logged. */
static void
batch_trace_report(struct batch_view *v, const struct frame *f)
{
	batch_trace_print(v, f);
}

/* Between refreshes: when events come faster than the log holds in one
 * interval, take a frame now and print it (JSON: an extra object) rather
 * than let the log drop the oldest. */
static void
batch_trace_drain(struct batch_view *v)
{
	if (session_backlog(v->s) < BATCH_TRACE_DRAIN)
		return;
	session_snapshot(v->s);
	batch_trace_print(v, session_frame(v->s));
}

/* After a signal: the events still held back, if any. */
static void
batch_trace_flush(struct batch_view *v)
{
	v->final = true;
	session_snapshot(v->s);
	if (frame_trace_index(session_frame(v->s), v->trace_seq) <
	    frame_trace_len(session_frame(v->s)))
		batch_trace_print(v, session_frame(v->s));
}

/* The probes' group: the source's, or a replay's (the prefix of its
 * rows' names). */
static const char *
batch_probes_group(struct batch_view *v, const struct frame *f, char *buf, size_t len)
{
	const struct probes *p = session_source(v->s, &source_probes);

	if (p != NULL)
		return probes_group(p);
	buf[0] = '\0';
	for (size_t i = 0; i < f->probes.n; i++)
		if (f->probes.rows[i].ours && strchr(f->probes.rows[i].name, ':') != NULL) {
			snprintf(
			    buf, len, "%.*s",
			    (int)(strchr(f->probes.rows[i].name, ':') - f->probes.rows[i].name),
			    f->probes.rows[i].name);
			break;
		}
	return buf;
}

/* Print one refresh of the probes: ours with their hits, then others'. */
static void
batch_probes_report(struct batch_view *v, const struct frame *f)
{
	char group[128];
	struct report_probes_info ri = {
	    .group = batch_probes_group(v, f, group, sizeof group),
	    .target = f->sampling.target,
	    .header = v->reports == 0,
	};

	if (v->o->format == FORMAT_JSON)
		report_probes_json(v->out, &ri, &f->probes);
	else
		report_probes_text(v->out, &ri, &f->probes);
}

/* Lines between the system view's titles: a screenful on a terminal,
 * else titles once. */
static unsigned
batch_system_repeat(FILE *out)
{
	struct winsize ws;

	if (ioctl(fileno(out), TIOCGWINSZ, &ws) != 0 || ws.ws_row < 8)
		return 0;
	return ws.ws_row - 3u;
}

/* Print one refresh of the system source. */
static void
batch_system_report(struct batch_view *v, const struct frame *f)
{
	struct report_system_info ri = {
	    .time = f->system.elapsed,
	    .wall = f->wall,
	    .max_rows = v->o->rows,
	    .repeat = batch_system_repeat(v->out),
	};

	if (!f->has_system)
		return;
	if (v->o->format == FORMAT_JSON)
		report_system_json(v->out, &ri, &f->system);
	else if (v->o->format == FORMAT_CSV)
		report_system_csv(v->out, stderr, &ri, &f->system, &v->sys);
	else
		report_system_text(v->out, &ri, &f->system, &v->sys);
}

/* Print one refresh of the latency rows. */
static void
batch_latency_report(struct batch_view *v, const struct frame *f)
{
	struct report_latency_info ri = {
	    .time = (double)(f->time_ns - v->start_ns) / 1e9,
	    .max_rows = v->o->rows,
	    .header = v->reports == 0,
	    .base = v->has_base ? &v->base : NULL,
	};

	const struct frame_latency *fl = &f->latency;

	if (!f->has_latency)
		return;
	if (v->e == NULL && v->reports == 0) { /* a replay: since its first interval */
		v->start_ns = f->time_ns - (uint64_t)(f->secs * 1e9);
		ri.time = f->secs;
	}
	if (v->o->latency_merge) {
		lat_merge(fl, LAT_MERGE_KINDS, &v->merged);
		fl = &v->merged;
	}
	if (v->o->format == FORMAT_JSON)
		report_latency_json(v->out, &ri, fl);
	else
		report_latency_text(v->out, &ri, fl);
}

/* Columns of the flame view's text: the terminal's, else $COLUMNS, else
 * FLAME_TEXT_WIDTH. */
#define FLAME_TEXT_WIDTH 120
static int
batch_flame_width(FILE *out)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	int cols;

	if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	if (env != NULL && parse_int(env, &cols) == 0 && cols >= 20 && cols <= 100000)
		return cols;
	return FLAME_TEXT_WIDTH;
}

/* The first event of f with call stacks, or NULL (said on stderr once). */
static const struct frame_event *
batch_flame_event(struct batch_view *v, const struct frame *f)
{
	for (size_t i = 0; i < f->sampling.nevents; i++)
		if (f->sampling.events[i].cg != NULL)
			return &f->sampling.events[i];
	if (!v->no_stacks)
		fprintf(stderr, "tracetop: no call stacks to draw a flame graph from: start "
		                "with -g or --call-graph dwarf\n");
	v->no_stacks = true;
	return NULL;
}

/* Flame view, text: every refresh's flame graph of each event with call
 * stacks, a line per depth. */
static void
batch_flame_report(struct batch_view *v, const struct frame *f)
{
	int width = batch_flame_width(v->out);

	if (batch_flame_event(v, f) == NULL)
		return;
	for (size_t i = 0; i < f->sampling.nevents; i++) {
		const struct frame_event *ev = &f->sampling.events[i];

		if (ev->cg == NULL)
			continue;
		flame_build(&v->flame, ev->cg, SYM_QUALIFIED);
		fprintf(v->out,
		        "flame: %s  samples: %llu  window: %.0f samples  width: %d  target: %s\n",
		        ev->name, (unsigned long long)ev->samples, v->flame.nodes[1].total, width,
		        f->sampling.target);
		report_flame_text(v->out, &v->flame, 1, width);
		fputc('\n', v->out);
	}
}

/* The SVG of frame f's window. */
static void
batch_svg_write(struct batch_view *v, const struct frame *f)
{
	const struct frame_event *ev = batch_flame_event(v, f);
	char title[512];

	if (ev == NULL)
		return;
	flame_build(&v->flame, ev->cg, SYM_QUALIFIED);
	snprintf(title, sizeof title, "tracetop: %s, %.0f samples, %s", ev->name,
	         v->flame.nodes[1].total, f->sampling.target);
	report_flame_svg(v->out, &v->flame, title);
}

/* --format svg: one document, of the last refresh. */
static void
batch_svg_report(struct batch_view *v, const struct frame *f)
{
	if (v->final)
		batch_svg_write(v, f);
}

/* --format svg stopped by a signal: the window as it stands. */
static void
batch_svg_flush(struct batch_view *v)
{
	session_snapshot(v->s);
	batch_svg_write(v, session_frame(v->s));
}

/* --baseline: load it; it must have the view's kind of rows, and Top's
 * grouped as this run's. 0, or 1 after saying why. */
static int
batch_baseline(struct batch_view *v)
{
	const struct options *o = v->o;
	enum diff_kind k = o->view == VIEW_COUNTERS  ? DIFF_COUNTERS
	                   : o->view == VIEW_LATENCY ? DIFF_LATENCY
	                                             : DIFF_TOP;
	static const char *const views[DIFF_NKINDS] = {"top", "counters", "latency"};
	char g[64];
	struct tt_err err;

	if (o->baseline == NULL)
		return 0;
	if (recdiff_load(&v->base, o->baseline, o->group, &err) != 0) {
		fprintf(stderr, "tracetop: --baseline: %s\n", err.msg);
		return 1;
	}
	v->has_base = true;
	if (!v->base.has[k]) {
		fprintf(stderr,
		        "tracetop: --baseline: %s has no %s report: make it with tracetop -b "
		        "--format json --view %s\n",
		        o->baseline, views[k], views[k]);
		return 1;
	}
	if (k == DIFF_TOP && v->base.group != o->group) {
		fprintf(stderr, "tracetop: --baseline: %s groups its rows by %s: add -s %s\n",
		        o->baseline, hist_group_name(v->base.group, g, sizeof g), g);
		return 1;
	}
	return 0;
}

/* Run the view o->view asks for until done. */
int
batch_run(struct session *s, const struct options *o, FILE *out)
{
	struct batch_view v = {.report = batch_report,
	                       .s = s,
	                       .o = o,
	                       .out = out,
	                       .e = session_source(s, &source_sampling)};
	int status;

	/* per-instruction counts of that function from the first sample on */
	if (o->view == VIEW_TOP && o->annotate != NULL && v.e != NULL)
		engine_addrhist_want_name(v.e, o->annotate, o->group);
	if (o->format == FORMAT_SVG) {
		v.report = batch_svg_report;
		v.flush = batch_svg_flush;
	} else if (o->view == VIEW_FLAME) {
		v.report = batch_flame_report;
	} else if (o->view == VIEW_COUNTERS) {
		v.report = batch_counters_report;
	} else if (o->view == VIEW_TRACE) {
		v.report = batch_trace_report;
		v.drain = batch_trace_drain;
		v.flush = batch_trace_flush;
	} else if (o->view == VIEW_PROBES) {
		v.report = batch_probes_report;
	} else if (o->view == VIEW_SYSTEM) {
		v.report = batch_system_report;
	} else if (o->view == VIEW_LATENCY) {
		v.report = batch_latency_report;
		v.start_ns = now_ns();
	}
	if (o->format == FORMAT_PPROF && isatty(fileno(out))) {
		fprintf(stderr, "tracetop: --format pprof writes a gzip file: add -o FILE or "
		                "redirect the output\n");
		return 1;
	}
	if (batch_baseline(&v) != 0) {
		diff_set_free(&v.base);
		return 1;
	}
	status = batch_loop(&v);
	diff_set_free(&v.base);
	frame_latency_free(&v.merged);
	report_system_state_free(&v.sys);
	flame_free(&v.flame);
	if (v.no_stacks)
		status = 1;
	if (status == 0 && (o->view == VIEW_TOP || o->history_dump))
		status = batch_history(s, o, out);
	if (status == 0 && o->view == VIEW_TOP && o->annotate != NULL)
		status = batch_annotate(session_frame(s), o, out);
	return status;
}
