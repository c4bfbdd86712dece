/* session: the sources of one run and the one loop that polls them, for the
 * screen and batch alike. Each source (sampling engine and trace stream,
 * counters, probes, system counters, syscall and function latency; next a
 * replayed recording) sits behind struct source_ops. The loop polls the sources' fds and the
 * front end's (keyboard, signals), reads what is ready, and at every
 * refresh ends the interval of every source and makes a frame of their
 * snapshots, which it hands to the front end. Never prints, never exits. */
#ifndef TRACETOP_SESSION_H
#define TRACETOP_SESSION_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/frame.h"
#include "tracetop/hist.h"

struct session;

/* One kind of source. Every hook but name may be NULL. */
struct source_ops {
	const char *name;
	/* The fds to poll for data; returns how many were written. */
	size_t (*pollfds)(void *src, struct pollfd *fds, size_t max);
	/* How long, in ms, the first *n of its fds go unpolled after they woke
	 * the loop (0: always polled): fds that wake at every record are read
	 * in batches under a storm of them, at the holdoff's end at the latest. */
	unsigned (*holdoff)(void *src, size_t *n);
	/* Read what is ready now (called after every poll). */
	void (*read)(void *src);
	/* When read must run next though no fd is ready (now_ns clock),
	 * UINT64_MAX for when they say. */
	uint64_t (*deadline)(void *src);
	/* Whether what the source watches has ended (the command exited). */
	bool (*finished)(void *src);
	/* Whether finished may turn true (a command or processes to watch):
	 * the loop then wakes often enough to notice soon. */
	bool (*watching)(void *src);
	/* Before the tick of the first and of the last refresh (final):
	 * finish what is held back (samples waiting for symbols), so the
	 * first frame has its rows and the last misses nothing. */
	void (*settle)(void *src, bool final);
	/* End the refresh interval (zero: zero counts instead of decaying). */
	void (*tick)(void *src, bool zero);
	/* Put the source's snapshot of the interval into its part of f; without
	 * rows only the numbers of its header (counts, rates), keeping the
	 * rows of the last full snapshot (a frozen screen shows those). */
	void (*snapshot)(void *src, const struct session *s, struct frame *f, bool rows);
	/* How much it holds for readers that came after frame f and that a
	 * bounded log may soon drop (e.g. trace entries): a front end that
	 * must see every one takes a snapshot early (session_snapshot). */
	size_t (*backlog)(void *src, const struct frame *f);
	/* Release the source (at session_free, in reverse order of adding). */
	void (*free)(void *src);
};

/* The sources there are (src/session-sources.c): the source pointer
 * given to session_add is a struct engine, counters, probes, system or
 * latsys. */
extern const struct source_ops source_sampling;
extern const struct source_ops source_counters;
extern const struct source_ops source_probes;
extern const struct source_ops source_system;
extern const struct source_ops source_latency;  /* a struct latsys */
extern const struct source_ops source_latsched; /* a struct latsched: runq, bio, offcpu */

struct session_opts {
	double delay;               /* seconds between refreshes */
	double first_delay;         /* seconds before the first refresh */
	long count;                 /* refreshes before the end (0: no limit) */
	bool zero;                  /* zero counts at each refresh instead of decay */
	bool stop_when_finished;    /* end the run when a source has finished */
	const enum hist_sort *sort; /* order of frame rows (NULL: by overhead; hist_unsorted) */
	unsigned group; /* HIST_GROUP_* the frame rows are merged by; 0: one per process */
	unsigned counters_scopes; /* scopes to snapshot (bits); 0: the current one */
	double history;           /* seconds of intervals kept (history.h); 0: none */
	size_t history_bytes;     /* the memory they may take; 0: HISTORY_MAX_BYTES */
	/* a replay: once a source has finished nothing new comes, so no
	 * refresh follows the one that saw it finish */
	bool idle_when_finished;
};

/* What the front end adds to the loop. Every hook may be NULL. */
struct session_hooks {
	void *arg;
	/* The front end's fds (signals, keyboard), polled with the sources'. */
	size_t (*pollfds)(void *arg, struct pollfd *fds, size_t max);
	/* After each poll: the revents of the front end's fds. */
	void (*ready)(void *arg, const struct pollfd *fds, size_t n);
	/* After each read of the sources (e.g. to print a filling log). */
	void (*read)(void *arg);
	/* A refresh made frame f (f->final: the last one). */
	void (*frame)(void *arg, const struct frame *f);
	/* A source has finished (the loop goes on unless stop_when_finished). */
	void (*finished)(void *arg);
	/* Whether the loop should end now. */
	bool (*stop)(void *arg);
	/* Milliseconds the next poll may wait at most (for the front end's own
	 * timers), or -1 for no limit of its own. */
	int (*max_wait)(void *arg);
	/* Whether refreshes take the sources' snapshots (false: only the
	 * frame's header moves, e.g. while the screen is frozen). */
	bool (*want_parts)(void *arg);
};

/* A session with no sources yet (opts copied). */
struct session *session_new(const struct session_opts *o);

/* Add a source; the session owns it from now on (ops->free releases it).
 * One added while the loop runs is polled from its next turn. */
void session_add(struct session *s, const struct source_ops *ops, void *src);

/* The source added with ops, or NULL. */
void *session_source(const struct session *s, const struct source_ops *ops);

/* A source's fds changed (a function timed while running): the loop
 * polls the new set from its next turn. */
void session_repoll(struct session *s);

/* Sampling began now: the first refresh is first_delay after this, not
 * after the front end's set-up (default: when session_run starts). */
void session_start(struct session *s);

/* Run the loop until a hook stops it, the -n count of refreshes is done,
 * or (with stop_when_finished) a source finished. Returns 0, or -1 with
 * errno when polling failed. */
int session_run(struct session *s, const struct session_hooks *h);

/* Take the sources' snapshots again into the current frame, without
 * ending the interval (after a change of what the front end shows). */
void session_snapshot(struct session *s);

/* The largest backlog of any source since the current frame. */
size_t session_backlog(const struct session *s);

/* Call tap after every refresh's frame is made and added to the history,
 * before the front end sees it (a recording writes it there); rows as the
 * history was given them. */
void session_set_tap(struct session *s, void (*tap)(void *arg, const struct frame *f, bool rows),
                     void *arg);

/* The last frame made (seq 0 before the first refresh). */
const struct frame *session_frame(const struct session *s);

/* The ring of the last intervals (NULL without --history). */
struct history;
struct history *session_history(const struct session *s);

/* The options in force. */
const struct session_opts *session_opts(const struct session *s);

/* Change the refresh interval or the decay/zero choice from now on. */
void session_set_delay(struct session *s, double delay);
void session_set_zero(struct session *s, bool zero);

/* Release every source (in reverse order of adding) and the frames. */
void session_free(struct session *s);

#endif
