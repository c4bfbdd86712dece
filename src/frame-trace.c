/* frame-trace: reading the trace stream's part of a frame. */
#include "config.h"

#include <string.h>

#include "tracetop/frame.h"
#include "tracetop/util.h"

/* A stream's counts and state into a trace part, and with rows where its
 * log stands (the entries so far) and the per-event counts. */
void
frame_trace_take(struct frame_trace *ft, struct stream *s, bool rows)
{
	size_t n = stream_nevents(s);

	ft->stats = *stream_stats(s);
	ft->paused = stream_paused(s);
	if (!rows)
		return;
	ft->log = s;
	ft->first_seq = stream_first_seq(s);
	ft->end_seq = stream_next_seq(s);
	ft->settled_seq = ft->first_seq + stream_count_until(s, stream_settled(s, now_ns()));
	if (ft->events_cap < n) {
		ft->events = xrealloc(ft->events, n * sizeof *ft->events);
		ft->events_cap = n;
	}
	for (size_t i = 0; i < n; i++)
		stream_event_info(s, i, &ft->events[i]);
	ft->nevents = n;
}

/* The log's index of the frame's first entry (a history view's range
 * starts at start_seq). */
static size_t
frame_trace_base(const struct frame *f)
{
	return f->trace.start_seq != 0 ? stream_index_of(f->trace.log, f->trace.start_seq) : 0;
}

/* Entries of the frame's log: those logged before its end (and from its
 * start). */
size_t
frame_trace_len(const struct frame *f)
{
	size_t end;

	if (f->trace.log == NULL)
		return 0;
	end = stream_index_of(f->trace.log, f->trace.end_seq);
	return end - frame_trace_base(f);
}

/* Entry i of the frame's log. */
bool
frame_trace_get(const struct frame *f, size_t i, struct stream_entry *en)
{
	return f->trace.log != NULL && stream_get(f->trace.log, frame_trace_base(f) + i, en) &&
	       en->seq < f->trace.end_seq;
}

/* The entry with sequence number seq, if the log still holds it. */
bool
frame_trace_find(const struct frame *f, uint64_t seq, struct stream_entry *en)
{
	return f->trace.log != NULL && seq >= f->trace.start_seq && seq < f->trace.end_seq &&
	       stream_get(f->trace.log, stream_index_of(f->trace.log, seq), en) && en->seq == seq;
}

/* An entry's fields as text. */
size_t
frame_trace_fields(const struct frame *f, const struct stream_entry *en, char *buf, size_t len)
{
	if (f->trace.log == NULL) {
		if (len > 0)
			buf[0] = '\0';
		return 0;
	}
	return stream_format_fields(f->trace.log, en, buf, len);
}

/* Frame i of an entry's stack. */
bool
frame_trace_stack(const struct frame *f, const struct stream_entry *en, size_t i, char *buf,
                  size_t len, bool *kernel)
{
	return f->trace.stack != NULL &&
	       f->trace.stack(f->trace.stack_arg, en, i, buf, len, kernel);
}

/* A tracepoint that was on in the frame, or NULL. */
const struct frame_tracepoint *
frame_trace_on(const struct frame *f, const char *name)
{
	for (size_t i = 0; i < f->trace.non; i++)
		if (strcmp(f->trace.on[i].name, name) == 0)
			return &f->trace.on[i];
	return NULL;
}

/* The index of the entry seq (or of the next one still logged). */
size_t
frame_trace_index(const struct frame *f, uint64_t seq)
{
	size_t base;

	if (f->trace.log == NULL)
		return 0;
	base = frame_trace_base(f);
	return seq > f->trace.start_seq ? stream_index_of(f->trace.log, seq) - base : 0;
}

/* An entry as a trace-cmd-like line. */
size_t
frame_trace_line(const struct frame *f, const struct stream_entry *en, char *buf, size_t len)
{
	return stream_format_line(f->trace.log, en, buf, len);
}

/* An entry's decoded fields. */
size_t
frame_trace_decode(const struct frame *f, const struct stream_entry *en, struct stream_value *vals,
                   size_t max)
{
	return stream_decode(f->trace.log, en, vals, max);
}
