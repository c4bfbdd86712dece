/* engine-stack: a logged tracepoint event's call stack (with -g) as text,
 * frame by frame, its user addresses resolved like samples' (through
 * engine.c's resolver). Only the Trace pane asks, for the rows on screen:
 * nothing in the engine calls back here. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine-impl.h"
#include "tracetop/dso.h"
#include "tracetop/hist.h"
#include "tracetop/stream.h"
#include "tracetop/sym-name.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"

/* A frame's text: "symbol (object)", escaped. */
static void
engine_trace_frame_text(struct engine *e, const struct stream_entry *en, uint64_t ip, bool kernel,
                        char *buf, size_t len)
{
	struct hist_key key = {0};
	const struct sym *sym = NULL;
	const struct dso *dso = NULL;
	char name[256], obj[256];
	uint64_t elf;

	if (kernel) {
		dso = dso_kernel_resolve(ip, &sym);
	} else {
		engine_resolve_user(tasks_thread(e->tasks, en->pid, en->tid), ip, &key, &elf);
		sym = key.sym;
		dso = key.dso;
	}
	if (sym != NULL)
		sym_format(sym, SYM_FULL, name, sizeof name);
	else
		snprintf(name, sizeof name, "[unknown] 0x%llx", (unsigned long long)ip);
	if (dso != NULL)
		str_escape(obj, sizeof obj, dso->kind == DSO_ELF ? dso->short_name : dso->name,
		           SIZE_MAX);
	else
		snprintf(obj, sizeof obj, "[unknown]");
	snprintf(buf, len, "%s (%s)", name, obj);
}

/* Frame i of a logged event's call stack. */
bool
engine_trace_frame(struct engine *e, const struct stream_entry *en, size_t i, char *buf, size_t len,
                   bool *kernel)
{
	bool kern = true, first = true;
	size_t k = 0;

	for (uint32_t j = 0; j < en->nips; j++) {
		uint64_t ip;

		memcpy(&ip, &en->ips[j], sizeof ip);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			if (ip != PERF_CONTEXT_KERNEL && ip != PERF_CONTEXT_USER)
				return false;
			kern = ip == PERF_CONTEXT_KERNEL;
			first = true;
			continue;
		}
		if (k++ < i) {
			first = false;
			continue;
		}
		/* a return address resolves to the call before it */
		engine_trace_frame_text(e, en, first ? ip : ip - 1, kern, buf, len);
		if (kernel != NULL)
			*kernel = kern;
		return true;
	}
	return false;
}
