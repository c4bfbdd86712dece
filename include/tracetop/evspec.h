/* evspec: perf-style event names ("cycles:u", "sched:sched_switch",
 * "r003c") to perf_event_attr, and the catalog of what this machine offers. */
#ifndef TRACETOP_EVSPEC_H
#define TRACETOP_EVSPEC_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/perf_event.h>

#include "tracetop/util.h"

struct evspec {
	char name[128];              /* canonical name as the user wrote it, e.g. "cycles:u" */
	struct perf_event_attr attr; /* type, config, exclude_*, precise_ip; size set */
	bool is_hw;                  /* a PMU event that may fall back to cpu-clock */
};

/* Parse one event spec. Accepts hardware and software names and their perf
 * aliases (cs, faults, ...), hw cache events (L1-dcache-load-misses, ...),
 * tracepoints SUBSYS:EVENT (id read from tracefs), raw rHEX, and modifiers
 * :u :k :h :p :pp :ppp (combinable, e.g. ":uk", ":upp").
 * 0 on success; -1 with err naming the bad part and what to do. */
int evspec_parse(const char *spec, struct evspec *out, struct tt_err *err);

/* The cpu-clock spec that replaces a hardware event with no PMU, keeping
 * its :u/:k modifiers. */
void evspec_fallback(const struct evspec *hw, struct evspec *out);

/* Ask the kernel whether it can count an event of this type and config
 * for this thread's user space: 0 if so, else the errno it answered. */
int evspec_probe(uint32_t type, uint64_t config);

/* The catalog's sections, in --list-events order. */
enum evspec_section {
	EVSPEC_HARDWARE,
	EVSPEC_SOFTWARE,
	EVSPEC_CACHE,
	EVSPEC_TRACEPOINT,
};

/* What a walk of the catalog reports: each event (its name, an alias or
 * NULL, and "" or a note such as "[not supported]"), or a line saying why
 * a section is empty. */
struct evspec_visitor {
	void (*event)(void *arg, const char *name, const char *alias, const char *note);
	void (*message)(void *arg, const char *text);
	void *arg;
};

/* Walk one section of the catalog (hardware events are probed). */
void evspec_catalog(enum evspec_section s, const struct evspec_visitor *v);

/* Print the catalog like `perf list`: hardware (marked "not supported" when
 * the kernel refuses them), software, hw cache, tracepoints (from tracefs,
 * or a line saying why they are missing), raw syntax. */
void evspec_list(FILE *out);

#endif
