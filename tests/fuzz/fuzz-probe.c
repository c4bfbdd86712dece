/* libFuzzer target for the probe SPEC parser (probe_spec_parse, with the
 * argument and fetch-arg syntax it checks) and the parser of tracefs's
 * dynamic-event listings. Build from a configured build directory, e.g.:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -I$SRC/include \
 *     $SRC/tests/fuzz/fuzz-probe.c $SRC/src/probe-spec.c $SRC/src/probe-args.c \
 *     $SRC/src/util.c -o fuzz-probe && ./fuzz-probe -max_len=4096
 *
 * where $SRC is the source tree and "." holds config.h. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Heads put before the input (chosen by its first byte), so that random
 * bytes reach the argument parser and the listing's fields too. */
static const char *const heads[] = {"", "f ", "prog:f ", "f%return ", "prog:f+8 ", "p:g/e "};

/* Parse the input as a SPEC (up to its first NUL) and as a listing; check
 * what a parsed SPEC promises. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *head = size > 0 ? heads[data[0] % (sizeof heads / sizeof *heads)] : "";
	char *body = xstrndup((const char *)data + (size > 0), size - (size > 0));
	char *text = xasprintf("%s%s", head, body), out[PROBE_ARG_MAX];
	struct probe_spec s;
	struct probe_event *v;
	struct tt_err err;
	size_t n;

	if (probe_spec_parse(text, &s, &err) == 0) {
		if (s.func == NULL || s.func[0] == '\0' || s.nargs > PROBE_MAX_ARGS)
			__builtin_trap();
		if ((s.binary != NULL) != (s.kind == PROBE_UPROBE || s.kind == PROBE_URETPROBE))
			__builtin_trap();
		for (size_t i = 0; i < s.nargs; i++) {
			if (s.args[i].name == NULL ||
			    (s.args[i].fetch == NULL) == (s.args[i].var == NULL))
				__builtin_trap();
			/* a canonical fetch-arg is taken again as it is */
			if (s.args[i].fetch != NULL &&
			    (probe_fetcharg_check(s.args[i].fetch,
			                          PROBE_ARGF_EARLY | PROBE_ARGF_RETURN |
			                              (s.binary ? 0 : PROBE_ARGF_KERNEL),
			                          out, sizeof out, &err) != 0 ||
			     strcmp(out, s.args[i].fetch) != 0))
				__builtin_trap();
		}
		probe_spec_free(&s);
	}
	probe_events_parse(text, strlen(text), &v, &n);
	for (size_t i = 0; i < n; i++)
		if (v[i].group[0] == '\0' || v[i].event[0] == '\0' || strchr(v[i].event, ' '))
			__builtin_trap();
	probe_events_free(v, n);
	(void)probe_type_ok(body);
	free(body);
	free(text);
	return 0;
}
