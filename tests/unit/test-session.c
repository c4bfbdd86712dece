/* Unit tests of the session: the one loop over fake sources (pipes for
 * fds), the refreshes and their frames, -n, a finished source, the front
 * end's hooks, frozen screens (no rows), a source's holdoff, and freeing
 * in reverse order. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracetop/session.h"
#include "tracetop/util.h"

/* frame_free releases these parts; no fake source fills them. */
void
counters_snapshot_free(struct counters_snapshot *snap)
{
	memset(snap, 0, sizeof *snap);
}

/* (see above) */
void
probes_snapshot_free(struct probes_snapshot *snap)
{
	memset(snap, 0, sizeof *snap);
}

/* A fake source: a pipe to poll, and what the session did to it. */
struct fake {
	int fds[2];
	int reads, bytes, ticks, snaps, snaps_without_rows;
	int settles, settled_at; /* settle calls; ticks before the last */
	int first_settles;       /* of them, before the first refresh */
	int finish_after;        /* finished once it has read this many bytes (0: never) */
	bool zero_seen;
	int *freed, *nfreed; /* the order of frees, shared by the fakes */
	int id;
};

/* Its pipe's read end. */
static size_t
fake_pollfds(void *src, struct pollfd *fds, size_t max)
{
	struct fake *f = src;

	if (max == 0)
		return 0;
	fds[0] = (struct pollfd){.fd = f->fds[0], .events = POLLIN};
	return 1;
}

/* Drain what was written. */
static void
fake_read(void *src)
{
	struct fake *f = src;
	char buf[64];
	ssize_t n;

	f->reads++;
	while ((n = read(f->fds[0], buf, sizeof buf)) > 0)
		f->bytes += (int)n;
}

/* Done after finish_after bytes. */
static bool
fake_finished(void *src)
{
	struct fake *f = src;

	return f->finish_after > 0 && f->bytes >= f->finish_after;
}

/* Count ticks. */
static void
fake_tick(void *src, bool zero)
{
	struct fake *f = src;

	f->ticks++;
	f->zero_seen |= zero;
}

/* Count settles (before the first refresh, and the last: final), and when
 * the last one came. */
static void
fake_settle(void *src, bool final)
{
	struct fake *f = src;

	f->settles++;
	if (final)
		f->settled_at = f->ticks;
	else
		f->first_settles++;
}

/* Count snapshots, and those without rows. */
static void
fake_snapshot(void *src, const struct session *s, struct frame *fr, bool rows)
{
	struct fake *f = src;

	(void)s;
	(void)fr;
	f->snaps++;
	f->snaps_without_rows += !rows;
}

/* Record the order of frees. */
static void
fake_free(void *src)
{
	struct fake *f = src;

	f->freed[(*f->nfreed)++] = f->id;
	close(f->fds[0]);
	close(f->fds[1]);
}

static const struct source_ops fake_ops = {
    .name = "fake",
    .pollfds = fake_pollfds,
    .read = fake_read,
    .finished = fake_finished,
    .settle = fake_settle,
    .tick = fake_tick,
    .snapshot = fake_snapshot,
    .free = fake_free,
};

/* The fake's fd goes unpolled for 50 ms once it woke the loop. */
static unsigned
fake_holdoff(void *src, size_t *n)
{
	(void)src;
	*n = 1;
	return 50;
}

/* A kind whose fd wakes at every record, read in batches. */
static const struct source_ops held_ops = {
    .name = "held",
    .pollfds = fake_pollfds,
    .holdoff = fake_holdoff,
    .read = fake_read,
    .tick = fake_tick,
    .snapshot = fake_snapshot,
    .free = fake_free,
};

/* A second kind, to tell sources apart. */
static const struct source_ops other_ops = {
    .name = "other",
    .tick = fake_tick,
    .snapshot = fake_snapshot,
    .free = fake_free,
};

/* The front end: what it saw. */
struct front {
	int frames, finished, ready, nfront, reads;
	uint64_t seqs[16];
	bool finals[16];
	int stop_after;    /* frames before stop says yes (0: never) */
	bool parts;        /* what want_parts answers */
	struct fake *feed; /* written to at every read hook until it finishes */
	int fd;            /* the front end's own fd (a pipe), or -1 */
};

/* Its own fd, first in the poll set. */
static size_t
front_pollfds(void *arg, struct pollfd *fds, size_t max)
{
	struct front *fr = arg;

	if (fr->fd < 0 || max == 0)
		return 0;
	fds[0] = (struct pollfd){.fd = fr->fd, .events = POLLIN};
	return 1;
}

/* Count the polls and how many fds were its own. */
static void
front_ready(void *arg, const struct pollfd *fds, size_t n)
{
	struct front *fr = arg;

	(void)fds;
	fr->ready++;
	fr->nfront = (int)n;
}

/* Keep the fake source busy: a byte per read. */
static void
front_read(void *arg)
{
	struct front *fr = arg;

	fr->reads++;
	if (fr->feed != NULL && write(fr->feed->fds[1], "x", 1) != 1)
		fail_msg("write to the fake source's pipe");
}

/* Record the frame. */
static void
front_frame(void *arg, const struct frame *f)
{
	struct front *fr = arg;

	if (fr->frames < 16) {
		fr->seqs[fr->frames] = f->seq;
		fr->finals[fr->frames] = f->final;
	}
	fr->frames++;
}

/* Count the finish. */
static void
front_finished(void *arg)
{
	((struct front *)arg)->finished++;
}

/* Stop after stop_after frames. */
static bool
front_stop(void *arg)
{
	struct front *fr = arg;

	return fr->stop_after > 0 && fr->frames >= fr->stop_after;
}

/* Rows or not. */
static bool
front_parts(void *arg)
{
	return ((struct front *)arg)->parts;
}

/* A fake source with a fresh pipe. */
static void
fake_init(struct fake *f, int id, int *freed, int *nfreed)
{
	memset(f, 0, sizeof *f);
	assert_int_equal(pipe2(f->fds, O_NONBLOCK), 0); /* read like a ring: never waits */
	f->id = id;
	f->freed = freed;
	f->nfreed = nfreed;
}

/* Hooks over fr. */
static struct session_hooks
hooks_of(struct front *fr)
{
	return (struct session_hooks){.arg = fr,
	                              .pollfds = front_pollfds,
	                              .ready = front_ready,
	                              .read = front_read,
	                              .frame = front_frame,
	                              .finished = front_finished,
	                              .stop = front_stop,
	                              .want_parts = front_parts};
}

/* A session of one fake source a (its pipe holds one byte when primed:
 * the loop reads at once). */
static struct session *
one_fake(const struct session_opts *o, struct fake *a, int *freed, int *nfreed, bool primed)
{
	struct session *s;

	fake_init(a, 1, freed, nfreed);
	if (primed)
		assert_int_equal(write(a->fds[1], "x", 1), 1);
	s = session_new(o);
	session_add(s, &fake_ops, a);
	return s;
}

/* -n 3: three frames, numbered, the last one final; each source ticked and
 * snapshotted at each; freed last-added first. */
static void
test_count(void **state)
{
	struct session_opts o = {.delay = 0.01, .first_delay = 0.01, .count = 3, .zero = true};
	struct front fr = {.parts = true, .fd = -1};
	struct session_hooks h = hooks_of(&fr);
	int freed[4], nfreed = 0;
	struct fake a, b;
	struct session *s;

	(void)state;
	fake_init(&a, 1, freed, &nfreed);
	fake_init(&b, 2, freed, &nfreed);
	s = session_new(&o);
	session_add(s, &fake_ops, &a);
	session_add(s, &other_ops, &b);
	session_add(s, &other_ops, NULL); /* a source that could not be opened */
	assert_ptr_equal(session_source(s, &fake_ops), &a);
	assert_ptr_equal(session_source(s, &other_ops), &b);
	assert_int_equal(session_run(s, &h), 0);
	assert_int_equal(fr.frames, 3);
	assert_int_equal(fr.seqs[0], 1);
	assert_int_equal(fr.seqs[2], 3);
	assert_false(fr.finals[0]);
	assert_false(fr.finals[1]);
	assert_true(fr.finals[2]);
	assert_int_equal(session_frame(s)->seq, 3);
	assert_true(session_frame(s)->final);
	assert_int_equal(a.ticks, 3);
	assert_int_equal(b.ticks, 3);
	/* settled before the first tick (its rows at once) and just before
	 * the last one */
	assert_int_equal(a.settles, 2);
	assert_int_equal(a.first_settles, 1);
	assert_int_equal(a.settled_at, 2);
	assert_int_equal(a.snaps, 3);
	assert_int_equal(a.snaps_without_rows, 0);
	assert_true(a.zero_seen);
	assert_int_equal(fr.finished, 0);
	session_free(s);
	assert_int_equal(nfreed, 2);
	assert_int_equal(freed[0], 2);
	assert_int_equal(freed[1], 1);
}

/* A source that finishes ends a batch run (stop_when_finished) with one
 * final frame, after reading what was left. */
static void
test_finished_stops(void **state)
{
	struct session_opts o = {.delay = 10, .first_delay = 10, .stop_when_finished = true};
	struct front fr = {.parts = true, .fd = -1};
	struct session_hooks h = hooks_of(&fr);
	int freed[2], nfreed = 0;
	struct fake a;
	struct session *s;

	(void)state;
	s = one_fake(&o, &a, freed, &nfreed, true);
	a.finish_after = 5;
	fr.feed = &a;
	assert_int_equal(session_run(s, &h), 0);
	assert_int_equal(fr.finished, 1);
	assert_int_equal(fr.frames, 1);
	assert_true(fr.finals[0]);
	assert_int_equal(a.settles, 1);
	assert_true(a.bytes >= 5);
	assert_true(a.reads >= 5);
	/* the read hook follows every read but the last drain before the end */
	assert_int_equal(fr.reads + 1, a.reads);
	session_free(s);
}

/* On the screen a finished source only says so: the loop goes on, and
 * refreshes keep coming until the front end stops it. */
static void
test_finished_goes_on(void **state)
{
	struct session_opts o = {.delay = 0.01, .first_delay = 0.01};
	struct front fr = {.parts = true, .fd = -1, .stop_after = 4};
	struct session_hooks h = hooks_of(&fr);
	int freed[2], nfreed = 0;
	struct fake a;
	struct session *s;

	(void)state;
	s = one_fake(&o, &a, freed, &nfreed, true);
	a.finish_after = 1;
	assert_int_equal(session_run(s, &h), 0);
	assert_int_equal(fr.finished, 1);
	assert_int_equal(fr.frames, 4);
	assert_false(fr.finals[0]);
	assert_int_equal(a.settles - a.first_settles, 0); /* no frame was the last */
	session_free(s);
}

/* A frozen screen: refreshes tick and number frames, snapshots carry no
 * rows; session_snapshot takes them again in full without a tick. */
static void
test_frozen(void **state)
{
	struct session_opts o = {.delay = 0.01, .first_delay = 0.01, .count = 2};
	struct front fr = {.parts = false, .fd = -1};
	struct session_hooks h = hooks_of(&fr);
	int freed[2], nfreed = 0;
	struct fake a;
	struct session *s;

	(void)state;
	s = one_fake(&o, &a, freed, &nfreed, false);
	assert_int_equal(session_run(s, &h), 0);
	assert_int_equal(a.snaps, 2);
	assert_int_equal(a.snaps_without_rows, 2);
	session_snapshot(s);
	assert_int_equal(a.snaps, 3);
	assert_int_equal(a.snaps_without_rows, 2);
	assert_int_equal(a.ticks, 2);
	assert_int_equal(session_frame(s)->seq, 2);
	session_free(s);
}

/* A stop hook: after the frame of a finish. */
static bool
stop_when_finished(void *arg)
{
	return ((struct front *)arg)->finished > 0;
}

/* The front end's fds come first in the poll set, and its stop hook ends
 * the loop before any refresh; the delay and zero can change. */
static void
test_front_end(void **state)
{
	struct session_opts o = {.delay = 10, .first_delay = 10};
	struct front fr = {.parts = true, .stop_after = 0};
	struct session_hooks h = hooks_of(&fr);
	int freed[2], nfreed = 0, p[2];
	struct fake a;
	struct session *s;

	(void)state;
	h.stop = stop_when_finished;
	assert_int_equal(pipe(p), 0);
	fr.fd = p[0];
	s = one_fake(&o, &a, freed, &nfreed, true);
	a.finish_after = 3;
	fr.feed = &a;
	session_set_delay(s, 0.5);
	session_set_zero(s, true);
	assert_true(session_opts(s)->delay == 0.5);
	assert_true(session_opts(s)->zero);
	assert_int_equal(session_run(s, &h), 0);
	assert_int_equal(fr.nfront, 1);
	assert_true(fr.ready >= 3);
	session_free(s);
	close(p[0]);
	close(p[1]);
}

/* The stop hook ends a run that would go on. */
static void
test_stop_hook(void **state)
{
	struct session_opts o = {.delay = 10, .first_delay = 10};
	struct front fr = {.parts = true, .fd = -1};
	struct session_hooks h = hooks_of(&fr);
	int freed[2], nfreed = 0;
	struct fake a;
	struct session *s;

	(void)state;
	h.stop = stop_when_finished;
	s = one_fake(&o, &a, freed, &nfreed, true);
	a.finish_after = 2;
	fr.feed = &a;
	assert_int_equal(session_run(s, &h), 0);
	assert_int_equal(fr.finished, 1);
	assert_int_equal(fr.frames, 1);
	assert_false(fr.finals[0]);
	session_free(s);
}

/* A source busy all the time (a byte after each read, as records under a
 * storm of new processes): kind reads it 0.3 s; how many reads. */
static int
busy_reads(const struct source_ops *kind, int *bytes)
{
	struct session_opts o = {.delay = 0.3, .first_delay = 0.3, .count = 1};
	struct front fr = {.parts = true, .fd = -1};
	struct session_hooks h = hooks_of(&fr);
	int freed[2], nfreed = 0;
	struct fake a;
	struct session *s;

	fake_init(&a, 1, freed, &nfreed);
	assert_int_equal(write(a.fds[1], "x", 1), 1);
	s = session_new(&o);
	session_add(s, kind, &a);
	fr.feed = &a;
	assert_int_equal(session_run(s, &h), 0);
	assert_int_equal(fr.frames, 1);
	*bytes = a.bytes;
	session_free(s);
	return fr.reads;
}

/* A holdoff: the busy fd wakes the loop, then goes unpolled for 50 ms, and
 * the holdoff's end wakes it to read what came: some 2 reads per 50 ms
 * (with the refresh's), where the same source without one is read as
 * fast as it is written. Nothing written is left unread. */
static void
test_holdoff(void **state)
{
	int held_bytes, free_bytes;
	int held = busy_reads(&held_ops, &held_bytes);
	int unheld = busy_reads(&fake_ops, &free_bytes);

	(void)state;
	assert_true(held >= 4);
	assert_true(held <= 20);
	assert_true(unheld > 100);
	assert_int_equal(held_bytes, held); /* a byte before each read, each read took it */
	assert_true(free_bytes >= unheld - 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_count),
	    cmocka_unit_test(test_finished_stops),
	    cmocka_unit_test(test_finished_goes_on),
	    cmocka_unit_test(test_frozen),
	    cmocka_unit_test(test_front_end),
	    cmocka_unit_test(test_stop_hook),
	    cmocka_unit_test(test_holdoff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
