/* libFuzzer target: arbitrary bytes as tracepoint payloads, logged in a
 * small stream (so entries wrap and drop) and decoded against real formats
 * from tests/fixtures/tracefs (strings, __data_loc and __rel_loc, arrays,
 * pointers, symbols, a print format libtraceevent cannot parse): typed
 * values must lie inside the payload, and the text must come out whole.
 *
 * Build (from a configured build dir, so config.h is in "."):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     -I/usr/include/traceevent -DTT_FIXTURES='"'$SRC/tests/fixtures'"' \
 *     $SRC/tests/fuzz/fuzz-stream.c $SRC/src/stream.c $SRC/src/stream-decode.c \
 *     $SRC/src/util.c -ltraceevent -o fuzz-stream
 * The first input byte picks the event, the second whether the payload
 * keeps its own common_type or gets the event's; the rest is the payload.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/stream.h"

#ifndef TT_FIXTURES
#define TT_FIXTURES "tests/fixtures"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const fuzz_events[][2] = {
    {"sched", "sched_switch"},     {"sched", "sched_process_exec"},
    {"ras", "mc_event"},           {"ras", "non_standard_event"},
    {"bridge", "br_fdb_add"},      {"timer", "hrtimer_expire_entry"},
    {"raw_syscalls", "sys_enter"}, {"dma", "dma_map_sg"},
    {"ftrace", "function"},        {"tracetop_test", "all_ints"},
};

static volatile uint64_t sink;

/* Any address inside a 16-byte page of the fake kernel is a symbol. */
static const char *
fuzz_ksym(void *arg, uint64_t addr, uint64_t *start)
{
	(void)arg;
	if ((addr >> 60) != 0xf)
		return NULL;
	*start = addr & ~(uint64_t)15;
	return "fuzz_fn";
}

/* Load the fixture formats once; abort if none (the replay then fails). */
static struct stream *
fuzz_stream(int *ids, size_t *n)
{
	static struct stream *s;
	static int loaded[16];
	static size_t nloaded;
	char path[512], *text = malloc(65536);
	struct tt_err err;

	if (s != NULL)
		goto out;
	s = stream_new(4096, 16);
	stream_set_ksym(s, fuzz_ksym, NULL);
	for (size_t i = 0; i < sizeof fuzz_events / sizeof fuzz_events[0]; i++) {
		FILE *f;
		size_t len;
		int ev;
		struct stream_event_info info;

		snprintf(path, sizeof path, "%s/tracefs/events/%s/%s/format", TT_FIXTURES,
		         fuzz_events[i][0], fuzz_events[i][1]);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		len = fread(text, 1, 65535, f);
		fclose(f);
		if ((ev = stream_add_format(s, fuzz_events[i][0], text, len, &err)) < 0)
			continue;
		stream_event_info(s, (size_t)ev, &info);
		loaded[nloaded++] = info.id;
	}
	if (nloaded == 0)
		abort();
out:
	free(text);
	memcpy(ids, loaded, sizeof loaded);
	*n = nloaded;
	return s;
}

/* Read every byte of [p, p + n), which must lie in the entry's payload. */
static void
touch(const void *p, size_t n, const struct stream_entry *en)
{
	const unsigned char *c = p, *raw = en->raw;
	uint64_t sum = 0;

	if (n == 0)
		return;
	if (c < raw || c + n > raw + en->raw_size)
		abort();
	for (size_t i = 0; i < n; i++)
		sum += c[i];
	sink += sum;
}

/* One input: a payload for one of the events. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int ids[16];
	size_t n;
	struct stream *s = fuzz_stream(ids, &n);
	struct stream_value vals[64];
	struct stream_entry en;
	unsigned char buf[8192];
	char text[4096];
	uint16_t type;

	if (size < 2)
		return 0;
	type = (uint16_t)ids[data[0] % n];
	size -= 2;
	if (size > sizeof buf)
		size = sizeof buf;
	memcpy(buf, data + 2, size);
	if ((data[1] & 1) && size >= sizeof type)
		memcpy(buf, &type, sizeof type);
	stream_push(
	    s,
	    &(struct stream_sample){
	        .ev = -1, .time = 1, .pid = -1, .tid = -1, .raw = buf, .raw_size = (uint32_t)size});
	if (!stream_get(s, stream_len(s) ? stream_len(s) - 1 : 0, &en))
		return 0;
	n = stream_decode(s, &en, vals, 64);
	for (size_t i = 0; i < n && i < 64; i++) {
		const struct stream_value *v = &vals[i];

		if (v->kind == STREAM_STR)
			touch(v->str, v->len, &en);
		if (v->kind == STREAM_ARRAY) {
			touch(v->data, v->count * v->elem_size, &en);
			for (size_t k = 0; k < v->count; k++)
				sink += stream_array_elem(v, k);
		}
	}
	if (stream_format_line(s, &en, text, sizeof text) >= sizeof text)
		abort();
	if (strlen(text) >= sizeof text)
		abort();
	if (data[1] & 2)
		stream_clear(s);
	return 0;
}
