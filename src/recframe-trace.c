/* recframe-trace: the trace part of a chunk, written and read back: the
 * stream's counts, the tracepoints on, and the log entries that settled
 * in the interval (all of them in the last one), raw as the kernel wrote
 * them. Each tracepoint's format text is written once per recording,
 * before its first entry, so the reader decodes the payloads with the
 * same code as the live run; the kernel symbols the entries' fields
 * name, and the call stacks' frames as text, are written once each too.
 * The reader pushes the entries into a log of its own, the frames'
 * trace log. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "recframe-impl.h"
#include "tracetop/recfile.h"
#include "tracetop/stream.h"

/* Bounds. */
#define MAX_FRAMES 256       /* of a stack written */
#define MAX_EVENTS 4096      /* tracepoints in a recording */
#define MAX_TABLE (1u << 22) /* symbols or stack frames in a recording */
#define MAX_ENTRIES (1u << 22)
/* The reader's log: big enough for most recordings' whole log. */
#define REPLAY_LOG_BYTES (64u << 20)
#define REPLAY_LOG_ENTRIES (1u << 19)

/* Flags. */
#define TF_FTRACE 1u
#define TF_PAUSED 2u

/* An address -> index map (open addressing; a slot holds index + 1). */
struct addrmap {
	uint64_t *keys;
	uint32_t *vals;
	size_t mask, n;
};

/* The slot of key, or the empty one for it. */
static size_t
addrmap_slot(const struct addrmap *m, uint64_t key)
{
	size_t i = hash_u64(key) & m->mask;

	while (m->vals[i] != 0 && m->keys[i] != key)
		i = (i + 1) & m->mask;
	return i;
}

/* The index + 1 of key, 0 when absent. */
static uint32_t
addrmap_get(const struct addrmap *m, uint64_t key)
{
	return m->n == 0 ? 0 : m->vals[addrmap_slot(m, key)];
}

/* Set key's index + 1. */
static void
addrmap_put(struct addrmap *m, uint64_t key, uint32_t val)
{
	size_t i;

	if (m->vals == NULL || 2 * (m->n + 1) > m->mask + 1) {
		struct addrmap old = *m;
		size_t cap = m->vals == NULL ? 256 : 2 * (m->mask + 1);

		m->keys = xcalloc(cap, sizeof *m->keys);
		m->vals = xcalloc(cap, sizeof *m->vals);
		m->mask = cap - 1;
		m->n = 0;
		for (size_t j = 0; old.vals != NULL && j <= old.mask; j++)
			if (old.vals[j] != 0)
				addrmap_put(m, old.keys[j], old.vals[j]);
		free(old.keys);
		free(old.vals);
	}
	i = addrmap_slot(m, key);
	m->n += m->vals[i] == 0;
	m->keys[i] = key;
	m->vals[i] = val;
}

static void
addrmap_free(struct addrmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

/* The writer's memory between chunks. */
struct recenc_trace {
	uint64_t next;        /* the next entry to write */
	bool started;         /* next is known */
	bool *formats;        /* live event index -> its format written */
	size_t nformats;      /* of formats */
	struct addrmap ksyms; /* kernel addresses named */
	struct ptrmap frames; /* stack frames' texts (by contents) -> id + 1 */
	char **frame_texts;   /* the keys' copies */
	size_t nframes, frames_cap;
	struct pb defs, entries; /* scratch */
};

/* The writer's memory, made on first use. */
static struct recenc_trace *
enc_trace(struct recframe_enc *e)
{
	if (e->trace == NULL) {
		e->trace = xcalloc(1, sizeof *e->trace);
		e->trace->frames.hashes = xcalloc(1, sizeof *e->trace->frames.hashes);
	}
	return e->trace;
}

/* Free the writer's memory. */
void
recenc_trace_free(struct recframe_enc *e)
{
	struct recenc_trace *t = e->trace;

	if (t == NULL)
		return;
	free(t->formats);
	addrmap_free(&t->ksyms);
	ptrmap_free(&t->frames);
	free(t->frames.hashes);
	for (size_t i = 0; i < t->nframes; i++)
		free(t->frame_texts[i]);
	free(t->frame_texts);
	pb_free(&t->defs);
	pb_free(&t->entries);
	free(t);
	e->trace = NULL;
}

/* Whether f has a trace log to write from. */
bool
recenc_has_trace(const struct recframe_enc *e, const struct frame *f)
{
	(void)e;
	return f->has_trace && f->trace.log != NULL;
}

/* The definitions an entry needs that were not written yet: its event's
 * format, the kernel symbols of its fields; counted in n[0], n[1]. */
static void
enc_entry_defs(struct recframe_enc *e, struct recenc_trace *t, const struct frame *f,
               const struct stream_entry *en, struct pb *fmts, struct pb *syms, size_t *n)
{
	struct stream_value vals[64];
	const char *sys, *text;
	size_t len, nv;

	if (en->ev >= 0 && ((size_t)en->ev >= t->nformats || !t->formats[en->ev])) {
		if ((size_t)en->ev >= t->nformats) {
			size_t m = (size_t)en->ev + 16;

			t->formats = xrealloc(t->formats, m * sizeof *t->formats);
			memset(t->formats + t->nformats, 0, (m - t->nformats) * sizeof *t->formats);
			t->nformats = m;
		}
		t->formats[en->ev] = true;
		if ((text = stream_event_format(f->trace.log, en->ev, &sys, &len)) != NULL) {
			rec_put_u(fmts, (uint64_t)en->ev);
			rec_put_u(fmts, recenc_text(e, sys));
			rec_put_bytes(fmts, text, len);
			n[0]++;
		}
	}
	if (!stream_event_symbolic(f->trace.log, en->ev))
		return;
	nv = frame_trace_decode(f, en, vals, sizeof vals / sizeof *vals);
	for (size_t i = 0; i < nv && i < sizeof vals / sizeof *vals; i++) {
		if (vals[i].kind != STREAM_SYM || vals[i].str == NULL ||
		    addrmap_get(&t->ksyms, vals[i].u) != 0)
			continue;
		addrmap_put(&t->ksyms, vals[i].u, 1);
		rec_put_u(syms, vals[i].u);
		rec_put_u(syms, vals[i].u - vals[i].off);
		rec_put_u(syms, recenc_text(e, vals[i].str));
		n[1]++;
	}
}

/* An entry's stack as frame ids, new frames defined in defs (n: their
 * count). */
static void
enc_entry_stack(struct recenc_trace *t, const struct frame *f, const struct stream_entry *en,
                struct pb *b, struct pb *defs, size_t *n)
{
	uint32_t ids[MAX_FRAMES];
	size_t k = 0;
	char buf[1024];
	bool kernel = false;

	while (en->nips > 0 && k < MAX_FRAMES &&
	       frame_trace_stack(f, en, k, buf, sizeof buf, &kernel)) {
		uint32_t id;

		/* the kernel flag rides in the text's key: the same text may be both */
		size_t len = strlen(buf);

		if (len + 2 < sizeof buf) {
			buf[len] = kernel ? 'k' : 'u';
			buf[len + 1] = '\0';
		}
		if ((id = ptrmap_get(&t->frames, buf)) == 0) {
			if (t->nframes == t->frames_cap) {
				t->frames_cap = t->frames_cap ? 2 * t->frames_cap : 256;
				t->frame_texts = xrealloc(t->frame_texts,
				                          t->frames_cap * sizeof *t->frame_texts);
			}
			t->frame_texts[t->nframes] = xstrdup(buf);
			id = (uint32_t)++t->nframes;
			ptrmap_put(&t->frames, t->frame_texts[id - 1], id);
			rec_put_u(defs, kernel);
			rec_put_bytes(defs, buf, strlen(buf) - 1);
			++*n;
		}
		ids[k++] = id - 1;
	}
	rec_put_u(b, k);
	for (size_t i = 0; i < k; i++)
		rec_put_u(b, ids[i]);
}

/* The trace part: counts, tracepoints on, then the definitions the
 * interval's entries need and the entries. */
void
recenc_trace(struct recframe_enc *e, struct pb *b, const struct frame *f)
{
	const struct frame_trace *ft = &f->trace;
	const struct stream_stats *st = &ft->stats;
	struct recenc_trace *t = enc_trace(e);
	struct pb fmts = {0}, syms = {0};
	uint64_t from, to, gone = 0, prev = 0;
	size_t ndefs[3] = {0}, nent = 0;
	struct stream_entry en;

	rec_put_u(b, (ft->ftrace ? TF_FTRACE : 0) | (ft->paused ? TF_PAUSED : 0));
	rec_put_u(b, st->events);
	rec_put_u(b, st->dropped);
	rec_put_u(b, st->frozen);
	rec_put_u(b, st->unknown);
	rec_put_u(b, st->lost);
	rec_put_u(b, st->interval_events);
	rec_put_u(b, st->interval_dropped);
	rec_put_u(b, st->interval_lost);
	rec_put_f64(b, st->interval_secs);
	rec_put_f64(b, st->secs);
	rec_put_u(b, ft->nevents);
	for (size_t i = 0; i < ft->nevents; i++) {
		const struct stream_event_info *ev = &ft->events[i];

		rec_put_u(b, recenc_text(e, ev->name));
		rec_put_i(b, ev->id);
		rec_put_u(b, ev->total);
		rec_put_u(b, ev->interval);
		rec_put_f64(b, ev->rate);
		rec_put_f64(b, ev->total_rate);
	}
	rec_put_u(b, ft->non);
	for (size_t i = 0; i < ft->non; i++) {
		rec_put_u(b, recenc_text(e, ft->on[i].name));
		rec_put_u(b, recenc_text(e, ft->on[i].filter));
	}
	/* the entries that settled since the last chunk (all at the end) */
	if (!t->started || t->next > ft->end_seq)
		t->next = ft->first_seq; /* the first chunk, or the log started again */
	t->started = true;
	from = t->next > ft->first_seq ? t->next : ft->first_seq;
	gone = from - t->next;
	to = f->final ? ft->end_seq : ft->settled_seq;
	pb_reset(&t->defs);
	pb_reset(&t->entries);
	for (size_t i = stream_index_of(ft->log, from);
	     from < to && stream_get(ft->log, i, &en) && en.seq < to; i++) {
		enc_entry_defs(e, t, f, &en, &fmts, &syms, ndefs);
		rec_put_u(&t->entries, (uint64_t)(en.ev >= 0 ? en.ev : 0));
		rec_put_i(&t->entries, (int64_t)(en.time - prev));
		prev = en.time;
		rec_put_u(&t->entries, (uint64_t)(uint32_t)en.cpu);
		rec_put_i(&t->entries, en.pid);
		rec_put_i(&t->entries, en.tid);
		rec_put_u(&t->entries, recenc_text(e, en.comm));
		rec_put_bytes(&t->entries, en.raw, en.raw_size);
		enc_entry_stack(t, f, &en, &t->entries, &t->defs, &ndefs[2]);
		nent++;
	}
	if (to > t->next)
		t->next = to;
	rec_put_u(b, ndefs[0]);
	pb_raw(b, fmts.buf, fmts.len);
	rec_put_u(b, ndefs[1]);
	pb_raw(b, syms.buf, syms.len);
	rec_put_u(b, ndefs[2]);
	pb_raw(b, t->defs.buf, t->defs.len);
	rec_put_u(b, gone);
	rec_put_u(b, nent);
	pb_raw(b, t->entries.buf, t->entries.len);
	pb_free(&fmts);
	pb_free(&syms);
}

/* ---- reading ---- */

/* A kernel symbol a field named. */
struct ksym {
	uint64_t start;
	const char *name;
};

/* A stack frame's text. */
struct tframe {
	const char *text; /* interned */
	bool kernel;
};

/* The reader's memory: the log, the events' indices in it, the symbols
 * and the frames. */
struct recdec_trace {
	struct stream *log;
	int *evmap; /* the writer's event index -> the log's, -1: unknown */
	size_t nevmap;
	struct addrmap ksym_at;
	struct ksym *ksyms;
	size_t nksyms, ksyms_cap;
	struct tframe *frames;
	size_t nframes, frames_cap;
	uint64_t gone; /* entries the live log had dropped before they were written */
};

/* The log's resolver: the recorded symbol at addr. */
static const char *
dec_ksym(void *arg, uint64_t addr, uint64_t *start)
{
	struct recdec_trace *t = arg;
	uint32_t i = addrmap_get(&t->ksym_at, addr);

	if (i == 0)
		return NULL;
	*start = t->ksyms[i - 1].start;
	return t->ksyms[i - 1].name;
}

/* Frame i of an entry's stack: its ips are frame ids. */
static bool
dec_stack(void *arg, const struct stream_entry *en, size_t i, char *buf, size_t len, bool *kernel)
{
	const struct recdec_trace *t = arg;
	uint64_t id;

	if (i >= en->nips)
		return false;
	memcpy(&id, &en->ips[i], sizeof id);
	if (id >= t->nframes)
		return false;
	snprintf(buf, len, "%s", t->frames[id].text);
	if (kernel != NULL)
		*kernel = t->frames[id].kernel;
	return true;
}

/* The reader's memory, made on first use. */
static struct recdec_trace *
dec_trace(struct recframe_dec *d)
{
	if (d->trace == NULL) {
		d->trace = xcalloc(1, sizeof *d->trace);
		d->trace->log = stream_new(REPLAY_LOG_BYTES, REPLAY_LOG_ENTRIES);
		stream_set_ksym(d->trace->log, dec_ksym, d->trace);
	}
	return d->trace;
}

/* Free the reader's memory. */
void
recdec_trace_free(struct recframe_dec *d)
{
	struct recdec_trace *t = d->trace;

	if (t == NULL)
		return;
	stream_free(t->log);
	free(t->evmap);
	addrmap_free(&t->ksym_at);
	free(t->ksyms);
	free(t->frames);
	free(t);
	d->trace = NULL;
	d->parts.trace.log = NULL;
}

/* Room for n more elements in *arr (of *cap). */
static void *
more(void *arr, size_t *cap, size_t have, size_t n, size_t size)
{
	if (have + n <= *cap)
		return arr;
	*cap = 2 * (have + n) + 16;
	return xrealloc(arr, *cap * size);
}

/* Whether a format text from a recording is fit for libtraceevent, whose
 * parser trusts the kernel's: printable text, its field declarations
 * whole, and every REC->name its print format reads a field it declares
 * (one that does not crashes the parser). */
static bool
format_sane(const char *text, size_t len)
{
	const char *names[256], *p, *end = text + len, *pf;
	size_t nnames = 0, nlen[256];

	if (len == 0 || len > 65536)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((text[i] < 0x20 && text[i] != '\t' && text[i] != '\n') || text[i] == 0x7f)
			return false;
	if ((pf = strstr(text, "\nprint fmt: ")) == NULL)
		return false;
	for (p = text; p < pf && (p = strstr(p, "\tfield:")) != NULL && p < pf; p++) {
		const char *semi = memchr(p, ';', (size_t)(pf - p)), *n;

		if (semi == NULL || nnames == 256)
			return false;
		n = semi;
		if (n > p && n[-1] == ']') /* an array: name[N] */
			while (n > p && *n != '[')
				n--;
		nlen[nnames] = 0;
		while (n > p && (n[-1] == '_' || (n[-1] >= '0' && n[-1] <= '9') ||
		                 ((n[-1] | 0x20) >= 'a' && (n[-1] | 0x20) <= 'z'))) {
			n--;
			nlen[nnames]++;
		}
		if (nlen[nnames] == 0)
			return false;
		names[nnames++] = n;
	}
	for (p = pf; (p = strstr(p, "REC->")) != NULL && p < end;) {
		size_t k = 0, i;

		p += 5;
		while (p + k < end && (p[k] == '_' || (p[k] >= '0' && p[k] <= '9') ||
		                       ((p[k] | 0x20) >= 'a' && (p[k] | 0x20) <= 'z')))
			k++;
		for (i = 0; i < nnames; i++)
			if (nlen[i] == k && memcmp(names[i], p, k) == 0)
				break;
		if (i == nnames)
			return false;
		p += k;
	}
	return true;
}

/* Whether libtraceevent parses a format text and lives: its parser
 * trusts its input (a print format's arithmetic can divide by zero), a
 * recording's may be crafted, so it is tried in a child first (a new
 * format is rare: once per tracepoint of a recording). */
static bool
format_parses(const char *sys, const char *text, size_t len)
{
	pid_t pid = fork();
	int st = 0;

	if (pid < 0)
		return false;
	if (pid == 0) {
		struct stream *s = stream_new(4096, 16);
		struct tt_err err;

		alarm(10);
		_exit(stream_add_format(s, sys, text, len, &err) >= 0 ? 0 : 1);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The formats, symbols and frames the chunk defines. */
static void
dec_defs(struct recframe_dec *d, struct recdec_trace *t, struct rec_cursor *c,
         const struct dec_tabs *tabs)
{
	size_t n = rec_get_count(c, 3), len;
	struct tt_err err;

	for (size_t i = 0; i < n && !c->bad; i++) {
		uint64_t ev = rec_get_u(c);
		const char *sys = recdec_str(d, c, tabs);
		const uint8_t *text = rec_get_bytes(c, &len);
		char *copy;
		int k;

		if (c->bad || ev >= MAX_EVENTS || sys == NULL) {
			c->bad = true;
			break;
		}
		if (ev >= t->nevmap) {
			t->evmap = xrealloc(t->evmap, (ev + 1) * sizeof *t->evmap);
			for (size_t j = t->nevmap; j <= ev; j++)
				t->evmap[j] = -1;
			t->nevmap = ev + 1;
		}
		/* a format that does not parse leaves its entries unknown; the
		 * parser wants its text NUL-ended */
		copy = xmalloc(len + 1);
		memcpy(copy, text, len);
		copy[len] = '\0';
		k = format_sane(copy, len) && format_parses(sys, copy, len)
		        ? stream_add_format(t->log, sys, copy, len, &err)
		        : -1;
		free(copy);
		t->evmap[ev] = k;
	}
	n = rec_get_count(c, 3);
	if (!c->bad && t->nksyms + n > MAX_TABLE)
		c->bad = true;
	t->ksyms = more(t->ksyms, &t->ksyms_cap, t->nksyms, c->bad ? 0 : n, sizeof *t->ksyms);
	for (size_t i = 0; i < n && !c->bad; i++) {
		uint64_t addr = rec_get_u(c), start = rec_get_u(c);
		const char *name = recdec_str(d, c, tabs);

		if (c->bad || name == NULL || start > addr)
			continue;
		t->ksyms[t->nksyms] = (struct ksym){.start = start, .name = name};
		addrmap_put(&t->ksym_at, addr, (uint32_t)++t->nksyms);
	}
	n = rec_get_count(c, 2);
	if (!c->bad && t->nframes + n > MAX_TABLE)
		c->bad = true;
	t->frames = more(t->frames, &t->frames_cap, t->nframes, c->bad ? 0 : n, sizeof *t->frames);
	for (size_t i = 0; i < n && !c->bad; i++) {
		bool kernel = rec_get_u(c) != 0;
		const uint8_t *p = rec_get_bytes(c, &len);
		char buf[1024];

		if (c->bad)
			break;
		len = len < sizeof buf - 1 ? len : sizeof buf - 1;
		memcpy(buf, p, len);
		buf[len] = '\0';
		/* written escaped: a file that says otherwise is escaped here */
		for (size_t k = 0; k < len; k++)
			if ((unsigned char)buf[k] < 0x20 || buf[k] == 0x7f) {
				str_escape(buf, sizeof buf, (const char *)p, len);
				break;
			}
		t->frames[t->nframes++] =
		    (struct tframe){.text = str_intern(buf), .kernel = kernel};
	}
}

/* The entries, pushed into the log. */
static void
dec_entries(struct recframe_dec *d, struct recdec_trace *t, struct rec_cursor *c,
            const struct dec_tabs *tabs)
{
	size_t n = rec_get_count(c, 8);
	uint64_t time = 0, ids[MAX_FRAMES];

	if (n > MAX_ENTRIES)
		c->bad = true;
	for (size_t i = 0; i < n && !c->bad; i++) {
		uint64_t ev = rec_get_u(c);
		struct stream_sample smp = {0};
		size_t len, nf;

		time += (uint64_t)rec_get_i(c);
		smp.time = time;
		smp.cpu = (int)(uint32_t)rec_get_u(c);
		smp.pid = (int)rec_get_i(c);
		smp.tid = (int)rec_get_i(c);
		smp.comm = recdec_str(d, c, tabs);
		smp.raw = rec_get_bytes(c, &len);
		smp.raw_size = (uint32_t)len;
		nf = rec_get_count(c, 1);
		if (nf > MAX_FRAMES)
			c->bad = true;
		for (size_t k = 0; k < nf && !c->bad; k++)
			if ((ids[k] = rec_get_u(c)) >= t->nframes)
				c->bad = true;
		if (c->bad || ev >= t->nevmap || t->evmap[ev] < 0 || len > UINT32_MAX)
			continue; /* an event of no known format: left out */
		smp.ev = t->evmap[ev];
		smp.ips = nf > 0 ? ids : NULL;
		smp.nips = (uint32_t)nf;
		stream_push(t->log, &smp);
	}
}

/* The trace part: its numbers into d->parts, its entries into the log. */
void
recdec_trace(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *tabs)
{
	struct recdec_trace *t = dec_trace(d);
	struct frame_trace *ft = &d->parts.trace;
	struct stream_stats *st = &ft->stats;
	unsigned fl = (unsigned)rec_get_u(c);
	size_t n;

	ft->ftrace = fl & TF_FTRACE;
	ft->paused = fl & TF_PAUSED;
	st->events = rec_get_u(c);
	st->dropped = rec_get_u(c);
	st->frozen = rec_get_u(c);
	st->unknown = rec_get_u(c);
	st->lost = rec_get_u(c);
	st->interval_events = rec_get_u(c);
	st->interval_dropped = rec_get_u(c);
	st->interval_lost = rec_get_u(c);
	st->interval_secs = rec_get_f64(c);
	st->secs = rec_get_f64(c);
	n = rec_get_count(c, 21);
	if (c->bad || n > MAX_EVENTS) {
		c->bad = true;
		return;
	}
	ft->events = more(ft->events, &ft->events_cap, 0, n, sizeof *ft->events);
	ft->nevents = n;
	for (size_t i = 0; i < n; i++) {
		struct stream_event_info *ev = &ft->events[i];
		const char *name = recdec_str(d, c, tabs);

		ev->name = name != NULL ? name : "?";
		ev->id = (int)rec_get_i(c);
		ev->total = rec_get_u(c);
		ev->interval = rec_get_u(c);
		ev->rate = rec_get_f64(c);
		ev->total_rate = rec_get_f64(c);
	}
	n = rec_get_count(c, 2);
	if (c->bad || n > MAX_EVENTS) {
		c->bad = true;
		return;
	}
	for (size_t i = 0; i < ft->non; i++)
		free(ft->on[i].filter);
	ft->non = 0;
	ft->on = more(ft->on, &ft->on_cap, 0, n, sizeof *ft->on);
	for (size_t i = 0; i < n && !c->bad; i++) {
		const char *name = recdec_str(d, c, tabs), *filter = recdec_str(d, c, tabs);

		if (name == NULL)
			continue;
		ft->on[ft->non].name = name;
		ft->on[ft->non++].filter = filter != NULL ? xstrdup(filter) : NULL;
	}
	dec_defs(d, t, c, tabs);
	t->gone += rec_get_u(c);
	dec_entries(d, t, c, tabs);
	ft->log = t->log;
	ft->stack = dec_stack;
	ft->stack_arg = t;
	ft->first_seq = stream_first_seq(t->log);
	ft->end_seq = ft->settled_seq = stream_next_seq(t->log);
}

/* The trace part into a frame (its log and stacks the decoder's). */
void
recdec_trace_copy(struct recframe_dec *d, struct frame *to)
{
	const struct frame_trace *s = &d->parts.trace;
	struct frame_trace *o = &to->trace;

	o->events = more(o->events, &o->events_cap, 0, s->nevents, sizeof *o->events);
	if (s->nevents > 0)
		memcpy(o->events, s->events, s->nevents * sizeof *o->events);
	o->nevents = s->nevents;
	for (size_t i = 0; i < o->non; i++)
		free(o->on[i].filter);
	o->non = 0;
	o->on = more(o->on, &o->on_cap, 0, s->non, sizeof *o->on);
	for (size_t i = 0; i < s->non; i++) {
		o->on[i].name = s->on[i].name;
		o->on[i].filter = s->on[i].filter != NULL ? xstrdup(s->on[i].filter) : NULL;
	}
	o->non = s->non;
	o->log = s->log;
	o->stack = s->stack;
	o->stack_arg = s->stack_arg;
	o->start_seq = 0;
	o->first_seq = s->first_seq;
	o->end_seq = s->end_seq;
	o->settled_seq = s->settled_seq;
	o->stats = s->stats;
	o->ftrace = s->ftrace;
	o->paused = s->paused;
}
