/* session: the sources of one run, the one loop and the frames. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>

#include "tracetop/history.h"
#include "tracetop/session.h"
#include "tracetop/util.h"

/* Longest sleep while a source watches a target: bounds how late its
 * exit is noticed. */
#define SESSION_MAX_WAIT_MS 200
/* Longest sleep else, a guard: each wakeup costs (a context switch, the
 * sources' reads) and tracetop runs on the machine it measures, so the
 * sources say when they must be read (their fds, deadlines, holdoffs). */
#define SESSION_IDLE_WAIT_MS 10000
/* Room for every source's fds and the front end's. */
#define SESSION_MAX_FDS 1024
#define SESSION_MAX_SOURCES 8

struct session_source {
	const struct source_ops *ops;
	void *src;
	size_t fd0, nfds;     /* its slots in the poll set */
	size_t nmuted;        /* how many of them (the first) are not polled */
	uint64_t muted_until; /* until then (0: all are) */
};

struct session {
	struct session_opts o;
	struct session_source sources[SESSION_MAX_SOURCES];
	size_t nsources;
	bool repoll; /* a source's fds changed (session_repoll) */
	struct frame frame;
	struct history *history; /* NULL: --history 0 */
	uint64_t start_ns;       /* sampling began (0: when the loop starts) */
	uint64_t last_ns;        /* end of the last interval */
	void (*tap)(void *arg, const struct frame *f, bool rows);
	void *tap_arg;
};

/* Make an empty session. */
struct session *
session_new(const struct session_opts *o)
{
	struct session *s = xcalloc(1, sizeof *s);

	s->o = *o;
	s->last_ns = now_ns();
	if (o->history > 0)
		s->history = history_new(o->history,
		                         o->history_bytes ? o->history_bytes : HISTORY_MAX_BYTES);
	return s;
}

/* Add a source. */
void
session_add(struct session *s, const struct source_ops *ops, void *src)
{
	if (src == NULL)
		return;
	if (s->nsources == SESSION_MAX_SOURCES)
		abort(); /* a bug: the kinds of source are few and fixed */
	s->sources[s->nsources++] = (struct session_source){.ops = ops, .src = src};
}

/* The source added with ops. */
void *
session_source(const struct session *s, const struct source_ops *ops)
{
	for (size_t i = 0; i < s->nsources; i++)
		if (s->sources[i].ops == ops)
			return s->sources[i].src;
	return NULL;
}

/* Wall-clock time in seconds. */
static double
session_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every source's snapshot into the current frame (rows: all of it, else
 * only its header numbers). */
static void
session_parts(struct session *s, bool rows)
{
	for (size_t i = 0; i < s->nsources; i++)
		if (s->sources[i].ops->snapshot != NULL)
			s->sources[i].ops->snapshot(s->sources[i].src, s, &s->frame, rows);
}

/* Retake the snapshots for the current frame. */
void
session_snapshot(struct session *s)
{
	session_parts(s, true);
}

/* End the interval of every source and make the next frame. */
static void
session_refresh(struct session *s, const struct session_hooks *h, bool final)
{
	struct frame *f = &s->frame;
	uint64_t now = now_ns();
	bool rows;

	for (size_t i = 0; i < s->nsources; i++) {
		if ((final || f->seq == 0) && s->sources[i].ops->settle != NULL)
			s->sources[i].ops->settle(s->sources[i].src, final);
		if (s->sources[i].ops->tick != NULL)
			s->sources[i].ops->tick(s->sources[i].src, s->o.zero);
	}
	f->seq++;
	f->time_ns = now;
	f->wall = session_wall();
	f->secs = (double)(now - s->last_ns) / 1e9;
	f->final = final;
	s->last_ns = now;
	rows = h->want_parts == NULL || h->want_parts(h->arg);
	session_parts(s, rows);
	if (s->history != NULL)
		history_add(s->history, f, rows);
	if (s->tap != NULL)
		s->tap(s->tap_arg, f, rows);
	if (h->frame != NULL)
		h->frame(h->arg, f);
}

/* Fill the poll set: the front end's fds first, then each source's. */
static size_t
session_pollfds(struct session *s, const struct session_hooks *h, struct pollfd *fds,
                size_t *nfront)
{
	size_t n = h->pollfds != NULL ? h->pollfds(h->arg, fds, SESSION_MAX_FDS) : 0;

	*nfront = n;
	for (size_t i = 0; i < s->nsources; i++) {
		struct session_source *src = &s->sources[i];

		src->fd0 = n;
		src->muted_until = 0;
		if (src->ops->pollfds != NULL)
			n += src->ops->pollfds(src->src, fds + n, SESSION_MAX_FDS - n);
		src->nfds = n - src->fd0;
	}
	return n;
}

/* A muted fd, left out of the poll set: poll skips a negative fd (one
 * polled with no events would still wake the loop inside poll at each
 * record); -1 is a hung-up fd's (poll_drop_hangups), so muted ones start
 * at -2. */
#define SESSION_MUTED(fd) (-(fd)-2)

/* After a poll: a source with a holdoff whose fds woke the loop is not
 * polled for that long, so fds that wake at every record are read in
 * batches (the holdoff's end wakes the loop, which reads what came). */
static void
session_mute(struct session *s, struct pollfd *fds)
{
	uint64_t now = now_ns();

	for (size_t i = 0; i < s->nsources; i++) {
		struct session_source *src = &s->sources[i];
		size_t n = 0;
		unsigned ms = src->ops->holdoff != NULL && src->muted_until == 0
		                  ? src->ops->holdoff(src->src, &n)
		                  : 0;
		bool woke = false;

		n = n < src->nfds ? n : src->nfds;
		for (size_t k = 0; ms > 0 && k < n; k++)
			woke |= (fds[src->fd0 + k].revents & POLLIN) != 0;
		if (!woke)
			continue;
		src->muted_until = now + (uint64_t)ms * 1000000;
		src->nmuted = n;
		for (size_t k = 0; k < n; k++)
			if (fds[src->fd0 + k].fd >= 0)
				fds[src->fd0 + k].fd = SESSION_MUTED(fds[src->fd0 + k].fd);
	}
}

/* Before a poll: the fds of sources whose holdoff is over are polled
 * again. */
static void
session_unmute(struct session *s, struct pollfd *fds)
{
	uint64_t now = now_ns();

	for (size_t i = 0; i < s->nsources; i++) {
		struct session_source *src = &s->sources[i];

		if (src->muted_until == 0 || now < src->muted_until)
			continue;
		src->muted_until = 0;
		for (size_t k = 0; k < src->nmuted; k++)
			if (fds[src->fd0 + k].fd <= -2)
				fds[src->fd0 + k].fd = SESSION_MUTED(fds[src->fd0 + k].fd);
	}
}

/* Read every source. */
static void
session_read(struct session *s)
{
	for (size_t i = 0; i < s->nsources; i++)
		if (s->sources[i].ops->read != NULL)
			s->sources[i].ops->read(s->sources[i].src);
}

/* Whether a source has finished. */
static bool
session_finished(struct session *s)
{
	for (size_t i = 0; i < s->nsources; i++)
		if (s->sources[i].ops->finished != NULL &&
		    s->sources[i].ops->finished(s->sources[i].src))
			return true;
	return false;
}

/* Whether a source watches something that may finish. */
static bool
session_watching(const struct session *s)
{
	for (size_t i = 0; i < s->nsources; i++)
		if (s->sources[i].ops->watching != NULL &&
		    s->sources[i].ops->watching(s->sources[i].src))
			return true;
	return false;
}

/* Milliseconds until next or a source's deadline, capped by ours and the
 * front end's limits. */
static int
session_wait(const struct session *s, const struct session_hooks *h, uint64_t next)
{
	uint64_t now = now_ns();

	for (size_t i = 0; i < s->nsources; i++) {
		uint64_t d = s->sources[i].ops->deadline != NULL
		                 ? s->sources[i].ops->deadline(s->sources[i].src)
		                 : UINT64_MAX;

		if (s->sources[i].muted_until != 0 && s->sources[i].muted_until < d)
			d = s->sources[i].muted_until;
		next = d < next ? d : next;
	}
	uint64_t left = now >= next ? 0 : (next - now) / 1000000 + 1; /* next may be "never" */
	uint64_t most = session_watching(s) ? SESSION_MAX_WAIT_MS : SESSION_IDLE_WAIT_MS;
	int ms = left > most ? (int)most : (int)left, cap;

	cap = h->max_wait != NULL ? h->max_wait(h->arg) : -1;
	return cap >= 0 && cap < ms ? cap : ms;
}

/* Sampling began: intervals count from now. */
void
session_start(struct session *s)
{
	s->start_ns = s->last_ns = now_ns();
}

/* A source's fds changed: poll the new set from the next turn. */
void
session_repoll(struct session *s)
{
	s->repoll = true;
}

/* The one loop. */
int
session_run(struct session *s, const struct session_hooks *h)
{
	struct pollfd fds[SESSION_MAX_FDS];
	size_t nfront, nfds = session_pollfds(s, h, fds, &nfront), polled = s->nsources;
	uint64_t next;
	bool finished = false;

	if (s->start_ns == 0)
		session_start(s);
	next = s->start_ns + (uint64_t)(s->o.first_delay * 1e9);
	while (h->stop == NULL || !h->stop(h->arg)) {
		/* a source joined (a pane opened it) or has new fds */
		if (s->nsources != polled || s->repoll) {
			nfds = session_pollfds(s, h, fds, &nfront);
			polled = s->nsources;
			s->repoll = false;
		}
		session_unmute(s, fds);
		if (poll(fds, nfds, session_wait(s, h, next)) < 0 && errno != EINTR)
			return -1;
		session_mute(s, fds);
		if (h->ready != NULL)
			h->ready(h->arg, fds, nfront);
		poll_drop_hangups(fds + nfront, nfds - nfront);
		session_read(s);
		if (h->read != NULL)
			h->read(h->arg);
		if (!finished && session_finished(s)) {
			finished = true;
			session_read(s);
			session_refresh(s, h, s->o.stop_when_finished);
			if (h->finished != NULL)
				h->finished(h->arg);
			if (s->o.stop_when_finished)
				break;
			if (s->o.idle_when_finished)
				next = UINT64_MAX;
			continue;
		}
		if (now_ns() >= next) {
			bool last = s->o.count > 0 && (long)s->frame.seq + 1 >= s->o.count;

			session_refresh(s, h, last);
			next = now_ns() + (uint64_t)(s->o.delay * 1e9);
			if (last)
				break;
		}
	}
	return 0;
}

/* The largest backlog of the sources. */
size_t
session_backlog(const struct session *s)
{
	size_t most = 0;

	for (size_t i = 0; i < s->nsources; i++) {
		const struct source_ops *ops = s->sources[i].ops;
		size_t n = ops->backlog != NULL ? ops->backlog(s->sources[i].src, &s->frame) : 0;

		most = n > most ? n : most;
	}
	return most;
}

/* Hand every frame to tap too. */
void
session_set_tap(struct session *s, void (*tap)(void *arg, const struct frame *f, bool rows),
                void *arg)
{
	s->tap = tap;
	s->tap_arg = arg;
}

/* The current frame. */
const struct frame *
session_frame(const struct session *s)
{
	return &s->frame;
}

/* The options. */
const struct session_opts *
session_opts(const struct session *s)
{
	return &s->o;
}

/* A new refresh interval. */
void
session_set_delay(struct session *s, double delay)
{
	s->o.delay = delay;
}

/* The history of the last intervals, or NULL. */
struct history *
session_history(const struct session *s)
{
	return s->history;
}

/* Decay or zero from now on. */
void
session_set_zero(struct session *s, bool zero)
{
	s->o.zero = zero;
}

/* Free the sources, last added first, and the frame. */
void
session_free(struct session *s)
{
	if (s == NULL)
		return;
	frame_free(&s->frame);
	history_free(s->history);
	for (size_t i = s->nsources; i-- > 0;)
		if (s->sources[i].ops->free != NULL)
			s->sources[i].ops->free(s->sources[i].src);
	free(s);
}
