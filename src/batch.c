/* batch: the -b loop. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tracetop/batch.h"
#include "tracetop/report-counters.h"
#include "tracetop/report-probes.h"
#include "tracetop/report-trace.h"
#include "tracetop/stream.h"
#include "tracetop/report.h"

/* How often to look for the targets' exit when nothing else wakes us. */
#define BATCH_EXIT_POLL_MS 200

/* On a terminal the first frame comes after this much sampling, not after
 * a whole refresh interval. */
#define BATCH_FIRST_FRAME_NS 250000000ULL

/* Trace view: events logged before they are printed between refreshes
 * (well under the log's STREAM_LOG_ENTRIES, so it never drops in batch). */
#define BATCH_TRACE_DRAIN (STREAM_LOG_ENTRIES / 8)

/* Wall-clock time as a double. */
static double
batch_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Rows that fit a terminal below the header, or the -n/--rows limit. */
static unsigned
batch_rows(const struct options *o, FILE *out)
{
	struct winsize ws;

	if (o->batch || o->rows || ioctl(fileno(out), TIOCGWINSZ, &ws) != 0 || ws.ws_row < 8)
		return o->rows;
	return ws.ws_row - 5u;
}

/* What one batch view prints every refresh, and its state. */
struct batch_view {
	void (*report)(struct batch_view *v);
	void (*flush)(struct batch_view *v);	/* after a stop by a signal, or NULL */
	void (*drain)(struct batch_view *v);	/* after every read of the rings, or NULL */
	struct engine *e;
	const struct options *o;
	FILE *out;
	struct hist_snapshot snap;		/* top */
	struct counters *c;			/* counters */
	struct counters_snapshot csnap[COUNTERS_NSCOPES];
	struct probes *p;			/* probes */
	struct probes_snapshot psnap;
	long reports;
	bool final;				/* this report is the last one */
	char notice[320];			/* the counters notice last printed */
};

/* Print one refresh of every event. */
static void
batch_report(struct batch_view *v)
{
	struct engine *e = v->e;
	const struct options *o = v->o;
	FILE *out = v->out;
	struct hist_snapshot *snap = &v->snap;
	const struct engine_stats *st = engine_stats(e);
	size_t i;

	engine_tick(e, o->zero);
	for (i = 0; i < engine_nevents(e); i++) {
		uint64_t interval, total;

		engine_event_samples(e, i, &interval, &total);
		struct report_info ri = {
			.event = engine_event_name(e, i),
			.requested = strcmp(o->events[i], engine_event_name(e, i)) ? o->events[i] : NULL,
			.notice = engine_notice(e),
			.target = engine_target(e),
			.samples = interval,
			.lost = st->interval_lost,
			.total_samples = total,
			.total_lost = st->lost,
			.seconds = st->interval_secs,
			.wall = batch_wall(),
			.max_rows = batch_rows(o, out),
			.cg = engine_callgraph(e, i),
		};

		if (o->format == FORMAT_FOLDED) {
			report_folded(out, &ri);
			continue;
		}
		engine_snapshot(e, i, o->sort, NULL, NULL, snap);
		if (o->format == FORMAT_JSON)
			report_json(out, &ri, snap);
		else
			report_text(out, &ri, snap);
	}
}

/* Read pending signals; true when one asks us to stop. */
static bool
batch_signal_stop(int sfd)
{
	struct signalfd_siginfo si;
	bool stop = false;

	while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
		if (si.ssi_signo != SIGCHLD && si.ssi_signo != SIGWINCH)
			stop = true;
	return stop;
}

/* The loop: drain rings as they fill, report every delay seconds. */
static int
batch_loop(struct batch_view *v)
{
	struct pollfd fds[1025];
	const struct options *o = v->o;
	uint64_t delay_ns = (uint64_t)(o->delay * 1e9), next;
	size_t nfds;
	int sfd = signals_fd(NULL);

	if (sfd < 0) {
		fprintf(stderr, "tracetop: cannot set up signal handling: %s\n", strerror(errno));
		return 1;
	}
	nfds = engine_pollfds(v->e, fds + 1, ARRAY_SIZE(fds) - 1);
	fds[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	next = now_ns() + (o->batch || delay_ns < BATCH_FIRST_FRAME_NS ? delay_ns
									: BATCH_FIRST_FRAME_NS);
	for (;;) {
		uint64_t now = now_ns();
		int timeout = now >= next ? 0 : (int)((next - now + 999999) / 1000000);

		if (timeout > BATCH_EXIT_POLL_MS)
			timeout = BATCH_EXIT_POLL_MS;
		if (poll(fds, nfds + 1, timeout) < 0 && errno != EINTR)
			break;
		if ((fds[0].revents & POLLIN) && batch_signal_stop(sfd))
			break;
		poll_drop_hangups(fds + 1, nfds);
		engine_read(v->e);
		if (v->drain != NULL)
			v->drain(v);
		if (engine_finished(v->e)) {
			engine_read(v->e);
			v->final = true;
			v->report(v);
			break;
		}
		if (now_ns() >= next) {
			v->final = o->count > 0 && v->reports + 1 >= o->count;
			v->report(v);
			next = now_ns() + delay_ns;
			if (++v->reports >= o->count && o->count > 0)
				break;
		}
	}
	close(sfd);
	if (!v->final && v->flush != NULL)
		v->flush(v); /* stopped by a signal: what is still held back */
	return ferror(v->out) ? 1 : 0;
}

/* The top view's loop. */
int
batch_run(struct engine *e, const struct options *o, FILE *out)
{
	struct batch_view v = { .report = batch_report, .e = e, .o = o, .out = out };
	int status;

	if (o->annotate != NULL)
		engine_addrhist_want_name(e, o->annotate);
	status = batch_loop(&v);

	hist_snapshot_free(&v.snap);
	if (status == 0 && o->annotate != NULL)
		status = batch_annotate(e, o, out);
	return status;
}

/* Print one refresh of the counters in every scope asked for. */
static void
batch_counters_report(struct batch_view *v)
{
	const char *notice = counters_notice(v->c);
	char scopes[64] = "";
	size_t n = 0;
	int s;

	counters_tick(v->c);
	for (s = 0; s < COUNTERS_NSCOPES; s++) {
		if (!(v->o->counters_scopes & (1u << s)))
			continue;
		snprintf(scopes + strlen(scopes), sizeof scopes - strlen(scopes), "%s%s",
			 n ? "," : "", counters_scope_name((enum counters_scope)s));
		counters_snapshot(v->c, (enum counters_scope)s, &v->csnap[n++]);
	}
	struct report_counters_info ri = {
		.target = engine_target(v->e),
		.scopes = scopes,
		.time = v->csnap[0].elapsed,
		.interval = v->csnap[0].interval,
		.header = v->reports == 0,
	};
	/* text shows the notice when it changes, JSON in every object */
	if (notice != NULL && (v->o->format == FORMAT_JSON || strcmp(notice, v->notice) != 0))
		ri.notice = notice;
	ri.header |= ri.notice != NULL;
	snprintf(v->notice, sizeof v->notice, "%s", notice ? notice : "");
	if (v->o->format == FORMAT_JSON)
		report_counters_json(v->out, &ri, v->csnap, n);
	else
		report_counters_text(v->out, &ri, v->csnap, n);
}

/* The counters view's loop. */
int
batch_counters_run(struct engine *e, struct counters *c, const struct options *o, FILE *out)
{
	struct batch_view v = { .report = batch_counters_report, .e = e, .o = o, .out = out,
				.c = c };
	int status;

	counters_set_scope(c, (o->counters_scopes & (1u << COUNTERS_PROCESS)) ? COUNTERS_PROCESS
										 : o->counters_scope);
	status = batch_loop(&v);
	for (size_t i = 0; i < ARRAY_SIZE(v.csnap); i++)
		counters_snapshot_free(&v.csnap[i]);
	return status;
}

/* Frame i of an entry's stack, for the trace report. */
static bool
batch_trace_frame(void *arg, const struct stream_entry *en, size_t i, char *buf, size_t len)
{
	return engine_trace_frame(arg, en, i, buf, len, NULL);
}

/* Print the logged events that have settled (one of another CPU may still
 * come with an earlier time; all of them on the last report), then forget
 * them. The interval's drop and loss counts go with the refresh's report
 * only (refresh), not with the prints between. */
static void
batch_trace_print(struct batch_view *v, bool refresh)
{
	struct stream *s = engine_stream(v->e);
	const struct stream_stats *st = stream_stats(s);
	struct report_trace_info ri = {
	    .rows = v->final ? stream_len(s) : stream_count_until(s, stream_settled(s, now_ns())),
	    .time = st->secs,
	    .dropped = refresh ? st->interval_dropped : 0,
	    .lost = refresh ? st->interval_lost : 0,
	    .frame = v->o->callgraph != CALLGRAPH_NONE ? batch_trace_frame : NULL,
	    .frame_arg = v->e,
	};
	if (v->o->format == FORMAT_JSON)
		report_trace_json(v->out, &ri, s);
	else
		report_trace_text(v->out, &ri, s);
	stream_consume(s, ri.rows);
}

/* A refresh: close the interval, print what it logged. */
static void
batch_trace_report(struct batch_view *v)
{
	engine_tick(v->e, v->o->zero);
	batch_trace_print(v, true);
}

/* Between refreshes: when events come faster than the log holds in one
 * interval, print them now (JSON: an extra object) rather than let the
 * log drop the oldest. */
static void
batch_trace_drain(struct batch_view *v)
{
	if (stream_len(engine_stream(v->e)) >= BATCH_TRACE_DRAIN)
		batch_trace_print(v, false);
}

/* After a signal: the events still held back, if any. */
static void
batch_trace_flush(struct batch_view *v)
{
	v->final = true;
	if (stream_len(engine_stream(v->e)) > 0)
		batch_trace_report(v);
}

/* The trace view's loop. */
int
batch_trace_run(struct engine *e, const struct options *o, FILE *out)
{
	struct batch_view v = { .report = batch_trace_report, .flush = batch_trace_flush,
				.drain = batch_trace_drain, .e = e, .o = o, .out = out };

	return batch_loop(&v);
}

/* Print one refresh of the probes: ours with their hits, then others'. */
static void
batch_probes_report(struct batch_view *v)
{
	struct report_probes_info ri = {
		.group = probes_group(v->p),
		.target = engine_target(v->e),
		.header = v->reports == 0,
	};

	probes_tick(v->p);
	probes_snapshot(v->p, &v->psnap);
	if (v->o->format == FORMAT_JSON)
		report_probes_json(v->out, &ri, &v->psnap);
	else
		report_probes_text(v->out, &ri, &v->psnap);
}

/* The probes view's loop. */
int
batch_probes_run(struct engine *e, struct probes *p, const struct options *o, FILE *out)
{
	struct batch_view v = { .report = batch_probes_report, .e = e, .o = o, .out = out, .p = p };
	int status = batch_loop(&v);

	probes_snapshot_free(&v.psnap);
	return status;
}
