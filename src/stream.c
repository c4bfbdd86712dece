/* stream: tracepoint formats (libtraceevent) and their fields' sizes, the
 * bounded event log and per-event counts. Decoding and text live in
 * stream-decode.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream-impl.h"

/* The header of a log entry in the arena; the callchain (nips u64s), the
 * raw payload and a NUL guard follow, padded to 8 bytes. */
struct stream_rec {
	uint64_t time;
	const char *comm;
	int32_t cpu, pid, tid, ev; /* ev: an event, or STREAM_REC_PAD / _DEAD */
	uint32_t len;              /* bytes of the whole entry */
	uint32_t raw_size, nips;
	uint32_t pad;
};

/* Arena headers that are not log entries: the unused end of the arena
 * before a wrap, and entries taken out of the log (stream_consume). */
#define STREAM_REC_PAD (-2)
#define STREAM_REC_DEAD (-3)

/* libtraceevent's function resolver: our kernel symbols. */
static char *
stream_tep_resolver(void *priv, unsigned long long *addrp, char **modp)
{
	struct stream *s = priv;
	uint64_t start = 0;
	const char *name;

	if (s->ksym == NULL || (name = s->ksym(s->ksym_arg, *addrp, &start)) == NULL)
		return NULL;
	*addrp = start;
	*modp = NULL;
	return (char *)name; /* the resolver's; libtraceevent does not free it */
}

/* Make a stream with a log of log_bytes and max_entries. */
struct stream *
stream_new(size_t log_bytes, size_t max_entries)
{
	struct stream *s = xcalloc(1, sizeof *s);
	enum tep_endian endian = tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN;

	if (log_bytes == 0)
		log_bytes = STREAM_LOG_BYTES;
	if (max_entries == 0 || (max_entries & (max_entries - 1)) != 0)
		max_entries = STREAM_LOG_ENTRIES;
	s->tep = tep_alloc();
	if (s->tep == NULL)
		fatal("out of memory allocating a libtraceevent handle");
	/* live data: this machine's layout */
	tep_set_long_size(s->tep, (int)sizeof(long));
	tep_set_page_size(s->tep, (int)sysconf(_SC_PAGESIZE));
	tep_set_file_bigendian(s->tep, endian);
	tep_set_local_bigendian(s->tep, endian);
	tep_set_loglevel(TEP_LOG_NONE); /* errors come back as values */
	tep_set_function_resolver(s->tep, stream_tep_resolver, s);
	trace_seq_init(&s->seq);
	s->abytes = log_bytes;
	s->arena = xmalloc(log_bytes);
	s->nrefs = max_entries;
	s->refs = xcalloc(max_entries, sizeof *s->refs);
	s->start_ns = s->last_tick_ns = now_ns();
	s->common_pid_off = -1;
	return s;
}

/* Free everything. */
void
stream_free(struct stream *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->nevs; i++) {
		free(s->evs[i].fields);
		free(s->evs[i].format);
	}
	free(s->evs);
	free(s->slots);
	free(s->arena);
	free(s->refs);
	trace_seq_destroy(&s->seq);
	tep_free(s->tep);
	free(s);
}

/* The slot of id in the hash, or of the empty slot where it would go. */
static size_t
stream_slot(const struct stream *s, int id)
{
	size_t mask = s->nslots - 1, i = hash_u64((uint64_t)id) & mask;

	while (s->slots[i] != 0 && s->evs[s->slots[i] - 1].id != id)
		i = (i + 1) & mask;
	return i;
}

/* Index event ev by its id, growing the hash to stay under half full. */
static void
stream_index_id(struct stream *s, size_t ev)
{
	if ((s->nevs + 1) * 2 > s->nslots) {
		free(s->slots);
		s->nslots = s->nslots ? s->nslots * 2 : 64;
		s->slots = xcalloc(s->nslots, sizeof *s->slots);
		for (size_t i = 0; i < ev; i++)
			s->slots[stream_slot(s, s->evs[i].id)] = (int)i + 1;
	}
	s->slots[stream_slot(s, s->evs[ev].id)] = (int)ev + 1;
}

/* The event index of a tracepoint id. */
int
stream_find_id(const struct stream *s, int id)
{
	if (s->nslots == 0)
		return -1;
	return s->slots[stream_slot(s, id)] - 1;
}

/* The event index of "sys:name". */
int
stream_find_name(const struct stream *s, const char *name)
{
	for (size_t i = 0; i < s->nevs; i++)
		if (strcmp(s->evs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The "ID: N" line of a format text, or -1. */
static int
stream_format_id(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int id;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char buf[32];

		if (n > 4 && n < sizeof buf + 4 && strncmp(p, "ID: ", 4) == 0) {
			memcpy(buf, p + 4, n - 4);
			buf[n - 4] = '\0';
			return parse_int(buf, &id) == 0 ? id : -1;
		}
		p += n + 1;
	}
	return -1;
}

/* Which fields the print format shows with %ps/%pS/%pF/%pf: kernel
 * addresses, decoded as symbols. Each conversion takes one argument ('*'
 * widths one more). */
static void
stream_mark_symbols(struct stream_ev *ev)
{
	const char *p = ev->tev->print_fmt.format;
	struct tep_print_arg *arg = ev->tev->print_fmt.args;

	for (; p != NULL && *p != '\0' && arg != NULL; p++) {
		if (*p != '%')
			continue;
		if (*++p == '%')
			continue;
		for (; *p != '\0' && strchr("-+ #0123456789.*hlLzjt", *p) != NULL; p++)
			if (*p == '*' && (arg = arg->next) == NULL)
				return;
		if (*p == '\0')
			return;
		if (*p == 'p' && p[1] != '\0' && strchr("sSfF", p[1]) != NULL) {
			const struct tep_print_arg *f = arg;

			while (f->type == TEP_PRINT_TYPE && f->typecast.item != NULL)
				f = f->typecast.item; /* (void *)REC->ip */
			for (size_t i = 0; f->type == TEP_PRINT_FIELD && i < ev->nfields; i++)
				if (strcmp(ev->fields[i].f->name, f->field.name) == 0)
					ev->fields[i].symbolic = true;
		}
		arg = arg->next;
	}
}

/* Sizes of the C types formats use, by name. */
static const struct {
	const char *name;
	unsigned size;
} stream_types[] = {
    {"char", 1},
    {"signed char", 1},
    {"unsigned char", 1},
    {"u8", 1},
    {"s8", 1},
    {"__u8", 1},
    {"bool", 1},
    {"_Bool", 1},
    {"short", 2},
    {"unsigned short", 2},
    {"u16", 2},
    {"s16", 2},
    {"__u16", 2},
    {"__be16", 2},
    {"__le16", 2},
    {"int", 4},
    {"unsigned int", 4},
    {"unsigned", 4},
    {"u32", 4},
    {"s32", 4},
    {"__u32", 4},
    {"__be32", 4},
    {"__le32", 4},
    {"pid_t", 4},
    {"gfp_t", 4},
    {"dev_t", 4},
    {"u64", 8},
    {"s64", 8},
    {"__u64", 8},
    {"__be64", 8},
    {"__le64", 8},
    {"long long", 8},
    {"unsigned long long", 8},
    {"loff_t", 8},
    {"sector_t", 8},
};

/* Size of one element of a format's C type ("u32", "unsigned long",
 * "__data_loc char[]", "void *"), 0 when unknown. */
static unsigned
stream_type_size(const char *type)
{
	char buf[128];
	const char *t = type;
	size_t n;

	if (strchr(type, '*') != NULL)
		return sizeof(void *);
	if (strncmp(t, "__data_loc ", 11) == 0)
		t += 11;
	else if (strncmp(t, "__rel_loc ", 10) == 0)
		t += 10;
	if (strncmp(t, "const ", 6) == 0)
		t += 6;
	n = strcspn(t, "[");
	while (n > 0 && t[n - 1] == ' ')
		n--;
	if (n >= sizeof buf)
		return 0;
	memcpy(buf, t, n);
	buf[n] = '\0';
	if (strcmp(buf, "long") == 0 || strcmp(buf, "unsigned long") == 0 ||
	    strcmp(buf, "size_t") == 0 || strcmp(buf, "ssize_t") == 0)
		return sizeof(long);
	for (size_t i = 0; i < ARRAY_SIZE(stream_types); i++)
		if (strcmp(buf, stream_types[i].name) == 0)
			return stream_types[i].size;
	return 0;
}

/* Set up the decoding of one field: its element size, whether it is a
 * bool, and how far into the payload it reaches. */
static void
stream_field_init(struct stream_ev *ev, struct stream_field *sf, struct tep_format_field *f)
{
	uint32_t end = (uint32_t)f->offset + (uint32_t)f->size;

	sf->f = f;
	sf->is_bool = strcmp(f->type, "bool") == 0 || strcmp(f->type, "_Bool") == 0;
	if ((f->flags & TEP_FIELD_IS_ARRAY) && !(f->flags & TEP_FIELD_IS_DYNAMIC) &&
	    f->arraylen > 0)
		sf->elem = (unsigned)f->size / f->arraylen;
	else
		sf->elem = stream_type_size(f->type);
	if (sf->elem == 0)
		sf->elem = 1;
	if (f->offset >= 0 && f->size >= 0 && end > ev->min_size)
		ev->min_size = end;
}

/* Parse one event's format once. */
int
stream_add_format(struct stream *s, const char *sys, const char *text, size_t len,
                  struct tt_err *err)
{
	struct tep_format_field **fields, *cf;
	struct tep_event *tev = NULL;
	struct stream_ev *ev;
	enum tep_errno rc;
	int id = stream_format_id(text, len), known;
	char msg[256], name[256];
	size_t n;

	if (id >= 0 && (known = stream_find_id(s, id)) >= 0)
		return known;
	rc = tep_parse_format(s->tep, &tev, text, len, sys);
	if (rc != 0 || tev == NULL) {
		if (tep_strerror(s->tep, rc, msg, sizeof msg) != 0)
			snprintf(msg, sizeof msg, "error %d", (int)rc);
		return err_set(err, "cannot parse the format of a %s event: %s", sys, msg);
	}
	if ((known = stream_find_id(s, tev->id)) >= 0)
		return known;
	if (s->nevs == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->evs = xrealloc(s->evs, s->cap * sizeof *s->evs);
	}
	ev = &s->evs[s->nevs];
	memset(ev, 0, sizeof *ev);
	ev->id = tev->id;
	ev->tev = tev;
	snprintf(name, sizeof name, "%s:%s", tev->system, tev->name);
	ev->name = str_intern(name);
	ev->format = xmalloc(len + 1);
	memcpy(ev->format, text, len);
	ev->format[len] = '\0';
	ev->format_len = len;
	ev->sys = str_intern(sys);
	fields = tep_event_fields(tev);
	for (n = 0; fields != NULL && fields[n] != NULL; n++)
		;
	ev->fields = xcalloc(n ? n : 1, sizeof *ev->fields);
	for (ev->nfields = 0; ev->nfields < n; ev->nfields++)
		stream_field_init(ev, &ev->fields[ev->nfields], fields[ev->nfields]);
	free(fields);
	for (cf = tev->format.common_fields; cf != NULL; cf = cf->next)
		if ((uint32_t)(cf->offset + cf->size) > ev->min_size)
			ev->min_size = (uint32_t)(cf->offset + cf->size);
	if (s->common_pid_off < 0 && (cf = tep_find_common_field(tev, "common_pid")) != NULL &&
	    cf->size == 4) {
		s->common_pid_off = cf->offset;
	}
	stream_mark_symbols(ev);
	stream_index_id(s, s->nevs);
	return (int)s->nevs++;
}

/* The format text event ev was parsed from, its system in *sys. */
const char *
stream_event_format(const struct stream *s, int ev, const char **sys, size_t *len)
{
	if (ev < 0 || (size_t)ev >= s->nevs) {
		*sys = NULL;
		*len = 0;
		return NULL;
	}
	*sys = s->evs[ev].sys;
	*len = s->evs[ev].format_len;
	return s->evs[ev].format;
}

/* Whether event ev prints a field as a kernel symbol. */
bool
stream_event_symbolic(const struct stream *s, int ev)
{
	if (ev < 0 || (size_t)ev >= s->nevs)
		return false;
	for (size_t i = 0; i < s->evs[ev].nfields; i++)
		if (s->evs[ev].fields[i].symbolic)
			return true;
	return false;
}

/* Parse the ring-buffer page header (for the function tracer's buffers). */
int
stream_add_header_page(struct stream *s, const char *text, size_t len, struct tt_err *err)
{
	if (tep_parse_header_page(s->tep, (char *)text, len, (int)sizeof(long)) != 0)
		return err_set(err, "cannot parse the ring-buffer page layout (header_page)");
	return 0;
}

/* The libtraceevent handle. */
struct tep_handle *
stream_tep(struct stream *s)
{
	return s->tep;
}

/* Set the kernel symbol resolver. */
void
stream_set_ksym(struct stream *s, stream_ksym_fn fn, void *arg)
{
	s->ksym = fn;
	s->ksym_arg = arg;
}

/* The event of a payload, from its common_type (the first two bytes). */
int
stream_payload_event(const struct stream *s, const void *raw, uint32_t size)
{
	uint16_t type;

	if (size < sizeof type)
		return -1;
	memcpy(&type, raw, sizeof type);
	return stream_find_id(s, type);
}

/* The payload's common_pid, or -1. */
int
stream_common_pid(const struct stream *s, const void *raw, uint32_t size)
{
	int32_t pid;

	if (s->common_pid_off < 0 || (uint32_t)s->common_pid_off + sizeof pid > size)
		return -1;
	memcpy(&pid, (const unsigned char *)raw + s->common_pid_off, sizeof pid);
	return pid;
}

/* The entry header at arena position pos. */
static struct stream_rec *
stream_rec_at(const struct stream *s, uint64_t pos)
{
	return (struct stream_rec *)(void *)(s->arena + pos % s->abytes);
}

/* The time of the entry whose start is refs slot i. */
static uint64_t
stream_ref_time(const struct stream *s, uint64_t i)
{
	return stream_rec_at(s, s->refs[i & (s->nrefs - 1)])->time;
}

/* Free the arena's oldest bytes: skip padding and entries already taken
 * out of the log, else drop the entry that was written first (it is at,
 * or a few places after, the front of the log, which is in time order
 * while the arena is in arrival order) and count it. */
static void
stream_free_tail(struct stream *s)
{
	uint64_t pos = s->atail % s->abytes, j, mask = s->nrefs - 1;
	struct stream_rec *r;

	if (s->atail >= s->ahead)
		return;
	if (s->abytes - pos < sizeof *r || (r = stream_rec_at(s, s->atail))->ev == STREAM_REC_PAD) {
		s->atail += s->abytes - pos;
		return;
	}
	s->atail += r->len;
	if (r->ev == STREAM_REC_DEAD)
		return;
	for (j = s->first; j < s->next && s->refs[j & mask] != s->atail - r->len; j++)
		;
	if (j == s->next)
		fatal("stream: an entry of the arena is not in the log");
	for (; j > s->first; j--)
		s->refs[j & mask] = s->refs[(j - 1) & mask];
	s->first++;
	s->st.dropped++;
}

/* Room for need bytes (a multiple of 8) at the head of the arena, and a
 * slot in the log, the oldest entries dropped for them; where they go, or
 * UINT64_MAX if they never fit. */
static uint64_t
stream_alloc(struct stream *s, uint64_t need)
{
	uint64_t pos, pad, at;

	if (need > s->abytes)
		return UINT64_MAX;
	for (;;) {
		if (s->first == s->next)
			s->ahead = s->atail = 0; /* empty: start over at the beginning */
		pos = s->ahead % s->abytes;
		/* no room before the end: the rest is padding, and we wrap */
		pad = pos + need > s->abytes ? s->abytes - pos : 0;
		if (s->next - s->first < s->nrefs && s->ahead + pad + need - s->atail <= s->abytes)
			break;
		stream_free_tail(s);
	}
	if (pad > 0 && pad >= sizeof(struct stream_rec))
		*stream_rec_at(s, s->ahead) =
		    (struct stream_rec){.ev = STREAM_REC_PAD, .len = (uint32_t)pad};
	s->ahead += pad;
	at = s->ahead;
	s->ahead += need;
	return at;
}

/* Put the entry written at arena position at into the log, in time order
 * (events of different CPUs reach us a little out of order; one that
 * comes later than STREAM_REORDER_MAX places is appended). */
static void
stream_insert(struct stream *s, uint64_t at, uint64_t time)
{
	uint64_t j = s->next, mask = s->nrefs - 1;

	while (j > s->first && s->next - j < STREAM_REORDER_MAX &&
	       stream_ref_time(s, j - 1) > time) {
		s->refs[j & mask] = s->refs[(j - 1) & mask];
		j--;
	}
	s->refs[j & mask] = at;
	s->next++;
}

/* Count an event and log it (the hot path). */
bool
stream_push(struct stream *s, const struct stream_sample *smp)
{
	int ev = smp->ev;
	uint64_t need, at;
	struct stream_rec r;
	unsigned char *p;

	if (ev < 0 || (size_t)ev >= s->nevs)
		ev = stream_payload_event(s, smp->raw, smp->raw_size);
	if (ev < 0) {
		s->st.unknown++;
		return false;
	}
	s->evs[ev].total++;
	s->st.events++;
	if (smp->time > s->pass_max)
		s->pass_max = smp->time;
	if (s->paused) {
		s->st.frozen++;
		return true;
	}
	need = (sizeof r + (uint64_t)smp->nips * 8 + smp->raw_size + 1 + 7) & ~(uint64_t)7;
	if ((at = stream_alloc(s, need)) == UINT64_MAX) {
		s->st.dropped++;
		return true;
	}
	r = (struct stream_rec){
	    .time = smp->time,
	    .comm = smp->comm,
	    .cpu = smp->cpu,
	    .pid = smp->pid,
	    .tid = smp->tid,
	    .ev = ev,
	    .len = (uint32_t)need,
	    .raw_size = smp->raw_size,
	    .nips = smp->ips != NULL ? smp->nips : 0,
	};
	if (r.tid < 0)
		r.tid = stream_common_pid(s, smp->raw, smp->raw_size);
	if (r.pid < 0)
		r.pid = r.tid;
	p = s->arena + at % s->abytes;
	memcpy(p, &r, sizeof r);
	if (r.nips > 0)
		memcpy(p + sizeof r, smp->ips, (size_t)r.nips * 8);
	memcpy(p + sizeof r + (size_t)r.nips * 8, smp->raw, smp->raw_size);
	p[sizeof r + (size_t)r.nips * 8 + smp->raw_size] = '\0';
	stream_insert(s, at, r.time);
	return true;
}

/* Freeze or thaw the log. */
void
stream_pause(struct stream *s, bool paused)
{
	s->paused = paused;
}

/* Whether the log is frozen. */
bool
stream_paused(const struct stream *s)
{
	return s->paused;
}

/* Empty the log. */
void
stream_clear(struct stream *s)
{
	s->first = s->next;
	s->ahead = s->atail = 0;
}

/* Take the n oldest entries out of the log (their bytes are reclaimed in
 * arrival order, later). */
void
stream_consume(struct stream *s, size_t n)
{
	for (; n > 0 && s->first < s->next; n--)
		stream_rec_at(s, s->refs[s->first++ & (s->nrefs - 1)])->ev = STREAM_REC_DEAD;
	if (s->first == s->next)
		s->ahead = s->atail = 0;
}

/* How many entries happened at or before time (the log is in time order). */
size_t
stream_count_until(const struct stream *s, uint64_t time)
{
	uint64_t lo = s->first, hi = s->next;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (stream_ref_time(s, mid) <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (size_t)(lo - s->first);
}

/* Learn how far the events' clock is behind CLOCK_MONOTONIC: every event
 * pushed so far happened before mono_now. */
void
stream_mark(struct stream *s, uint64_t mono_now)
{
	int64_t d;

	if (s->pass_max == 0)
		return;
	d = (int64_t)(mono_now - s->pass_max);
	if (!s->have_offset || d < s->offset)
		s->offset = d;
	s->have_offset = true;
	s->pass_max = 0;
}

/* The newest event time no event still on its way can precede. */
uint64_t
stream_settled(const struct stream *s, uint64_t mono_now)
{
	uint64_t t;

	if (!s->have_offset)
		return UINT64_MAX; /* nothing seen yet: nothing to hold back */
	t = (uint64_t)((int64_t)mono_now - s->offset);
	return t > STREAM_REORDER_NS ? t - STREAM_REORDER_NS : 0;
}

/* Count kernel-side losses. */
void
stream_add_lost(struct stream *s, uint64_t n)
{
	s->st.lost += n;
}

/* Close a refresh interval. */
void
stream_tick(struct stream *s)
{
	uint64_t now = now_ns();
	double secs = (double)(now - s->last_tick_ns) / 1e9;
	double all = (double)(now - s->start_ns) / 1e9;

	for (size_t i = 0; i < s->nevs; i++) {
		struct stream_ev *ev = &s->evs[i];

		ev->interval = ev->total - ev->tick_total;
		ev->tick_total = ev->total;
		ev->rate = secs > 0 ? (double)ev->interval / secs : 0;
		ev->total_rate = all > 0 ? (double)ev->total / all : 0;
	}
	s->st.interval_events = s->st.events - s->tick_events;
	s->st.interval_dropped = s->st.dropped - s->tick_dropped;
	s->st.interval_lost = s->st.lost - s->tick_lost;
	s->st.interval_secs = secs;
	s->st.secs = all;
	s->tick_events = s->st.events;
	s->tick_dropped = s->st.dropped;
	s->tick_lost = s->st.lost;
	s->last_tick_ns = now;
}

/* The stream's counters. */
const struct stream_stats *
stream_stats(const struct stream *s)
{
	return &s->st;
}

/* Number of known events. */
size_t
stream_nevents(const struct stream *s)
{
	return s->nevs;
}

/* Counts of one event. */
void
stream_event_info(const struct stream *s, size_t ev, struct stream_event_info *out)
{
	const struct stream_ev *e = &s->evs[ev];

	*out = (struct stream_event_info){
	    .name = e->name,
	    .id = e->id,
	    .total = e->total,
	    .interval = e->interval,
	    .rate = e->rate,
	    .total_rate = e->total_rate,
	};
}

/* Entries in the log. */
size_t
stream_len(const struct stream *s)
{
	return (size_t)(s->next - s->first);
}

/* Entry i from the oldest. */
bool
stream_get(const struct stream *s, size_t i, struct stream_entry *out)
{
	const unsigned char *p;
	struct stream_rec r;

	if (i >= stream_len(s))
		return false;
	p = s->arena + s->refs[(s->first + i) & (s->nrefs - 1)] % s->abytes;
	memcpy(&r, p, sizeof r);
	*out = (struct stream_entry){
	    .seq = s->first + i,
	    .time = r.time,
	    .cpu = r.cpu,
	    .pid = r.pid,
	    .tid = r.tid,
	    .comm = r.comm,
	    .ev = r.ev,
	    .event = s->evs[r.ev].name,
	    .raw = p + sizeof r + (size_t)r.nips * 8,
	    .raw_size = r.raw_size,
	    .ips = r.nips ? (const uint64_t *)(const void *)(p + sizeof r) : NULL,
	    .nips = r.nips,
	};
	return true;
}

/* The sequence numbers of the oldest entry logged and of the next one. */
uint64_t
stream_first_seq(const struct stream *s)
{
	return s->first;
}

uint64_t
stream_next_seq(const struct stream *s)
{
	return s->next;
}

/* The index of sequence number seq (or the next one still logged). */
size_t
stream_index_of(const struct stream *s, uint64_t seq)
{
	if (seq <= s->first)
		return 0;
	return seq >= s->next ? stream_len(s) : (size_t)(seq - s->first);
}

/* Whether en passes the pane's filter. */
bool
stream_match(const struct stream_entry *en, const struct stream_filter *f)
{
	if (f == NULL)
		return true;
	if (f->pid > 0 && en->pid != f->pid && en->tid != f->pid)
		return false;
	if (f->comm != NULL && *f->comm != '\0' &&
	    (en->comm == NULL || strstr(en->comm, f->comm) == NULL))
		return false;
	return f->event == NULL || *f->event == '\0' || strstr(en->event, f->event) != NULL;
}
