/* counters-math: scope names, deltas, scaling, rates, history rings,
 * derived metrics and the busiest-process choice of the counters module. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/counters-math.h"
#include "tracetop/util.h"

/* The scopes by name, for options and reports. */
static const char *const scope_names[COUNTERS_NSCOPES] = {"total", "cpu", "process"};

/* A scope's name. */
const char *
counters_scope_name(enum counters_scope s)
{
	return s < COUNTERS_NSCOPES ? scope_names[s] : "?";
}

/* A scope from its name, or -1. */
int
counters_scope_parse(const char *name)
{
	for (int s = 0; s < COUNTERS_NSCOPES; s++)
		if (strcmp(name, scope_names[s]) == 0)
			return s;
	return -1;
}

/* Progress of a monotonic counter: forward (modulo 2^64) or nothing. */
uint64_t
counters_delta(uint64_t prev, uint64_t cur)
{
	uint64_t d = cur - prev;

	return (int64_t)d >= 0 ? d : 0;
}

/* Scale a count for the time its event was off the PMU. */
double
counters_scale(uint64_t value, uint64_t enabled, uint64_t running)
{
	if (running == 0)
		return enabled == 0 ? (double)value : 0.0;
	if (running >= enabled)
		return (double)value;
	return (double)((unsigned __int128)value * enabled / running);
}

/* The share of enabled time the event was running. */
double
counters_share(uint64_t enabled, uint64_t running)
{
	if (enabled == 0)
		return 1.0;
	return running >= enabled ? 1.0 : (double)running / (double)enabled;
}

/* Deltas between two readings and the scaled count. */
void
counters_interval(const struct counters_reading *prev, const struct counters_reading *cur,
                  struct counters_interval *out)
{
	out->delta = counters_delta(prev->value, cur->value);
	out->enabled = counters_delta(prev->enabled, cur->enabled);
	out->running = counters_delta(prev->running, cur->running);
	out->value = counters_scale(out->delta, out->enabled, out->running);
}

/* One scale for all the per-CPU fds of a thread's event. */
void
counters_scale_thread(struct counters_interval *iv, size_t n)
{
	uint64_t enabled = UINT64_MAX, running = 0;
	size_t i;

	/* The fds are read one after the other while the thread may run:
	 * the earliest enabled time errs towards no scaling, the right
	 * answer when nothing is multiplexed. */
	for (i = 0; i < n; i++) {
		running += iv[i].running;
		if (iv[i].enabled < enabled)
			enabled = iv[i].enabled;
	}
	for (i = 0; i < n; i++) {
		iv[i].value = counters_scale(iv[i].delta, enabled, running);
		iv[i].enabled = enabled;
		iv[i].running = running < enabled ? running : enabled;
	}
}

/* Per second of wall time. */
double
counters_rate(double value, double secs)
{
	return secs > 0 ? value / secs : 0.0;
}

/* Empty the ring. */
void
counters_ring_clear(struct counters_ring *r)
{
	r->head = r->n = 0;
}

/* Add the newest value. */
void
counters_ring_push(struct counters_ring *r, double v)
{
	r->v[r->head] = v;
	r->head = (r->head + 1) % COUNTERS_HISTORY;
	if (r->n < COUNTERS_HISTORY)
		r->n++;
}

/* The value age intervals back. */
double
counters_ring_get(const struct counters_ring *r, unsigned age)
{
	return r->v[(r->head + COUNTERS_HISTORY - 1 - age) % COUNTERS_HISTORY];
}

/* Oldest first into out. */
size_t
counters_ring_copy(const struct counters_ring *r, double *out)
{
	for (unsigned i = 0; i < r->n; i++)
		out[i] = counters_ring_get(r, r->n - 1 - i);
	return r->n;
}

/* One derived metric: numerator / denominator * factor. */
struct metric_def {
	const char *name;
	const char *note;
	uint32_t num_type;
	uint64_t num_config;
	uint32_t den_type; /* PERF_TYPE_MAX: the wall clock, in seconds */
	uint64_t den_config;
	double factor;
};

static const struct metric_def metrics[COUNTERS_NMETRICS] = {
    [COUNTERS_METRIC_IPC] = {"IPC", "insn per cycle", PERF_TYPE_HARDWARE,
                             PERF_COUNT_HW_INSTRUCTIONS, PERF_TYPE_HARDWARE,
                             PERF_COUNT_HW_CPU_CYCLES, 1.0},
    [COUNTERS_METRIC_BRANCH_MISS] = {"branch-miss %", "of all branches", PERF_TYPE_HARDWARE,
                                     PERF_COUNT_HW_BRANCH_MISSES, PERF_TYPE_HARDWARE,
                                     PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100.0},
    [COUNTERS_METRIC_CACHE_MISS] = {"cache-miss %", "of all cache refs", PERF_TYPE_HARDWARE,
                                    PERF_COUNT_HW_CACHE_MISSES, PERF_TYPE_HARDWARE,
                                    PERF_COUNT_HW_CACHE_REFERENCES, 100.0},
    [COUNTERS_METRIC_CPU_UTIL] = {"CPUs utilized", "CPUs utilized", PERF_TYPE_SOFTWARE,
                                  PERF_COUNT_SW_TASK_CLOCK, PERF_TYPE_MAX, 0, 1e-9},
};

/* Row name of a metric. */
const char *
counters_metric_name(enum counters_metric m)
{
	return metrics[m].name;
}

/* perf stat's words after the metric's value. */
const char *
counters_metric_note(enum counters_metric m)
{
	return metrics[m].note;
}

/* Percentages print with a % sign. */
bool
counters_metric_percent(enum counters_metric m)
{
	return metrics[m].factor == 100.0;
}

/* Does attr count the metric's numerator (or denominator)? */
bool
counters_metric_input(enum counters_metric m, const struct perf_event_attr *a, bool den)
{
	uint32_t type = den ? metrics[m].den_type : metrics[m].num_type;
	uint64_t config = den ? metrics[m].den_config : metrics[m].num_config;

	/* cpu-clock is a CPU's time as task-clock is a task's: either counts
	 * how many CPUs were used (as perf stat says for both) */
	if (m == COUNTERS_METRIC_CPU_UTIL && !den && a->type == PERF_TYPE_SOFTWARE &&
	    a->config == PERF_COUNT_SW_CPU_CLOCK)
		return true;
	return a->type == type && a->config == config;
}

/* Is the denominator wall time? */
bool
counters_metric_per_wall(enum counters_metric m)
{
	return metrics[m].den_type == PERF_TYPE_MAX;
}

/* num / den, scaled to the metric's unit. */
double
counters_metric_value(enum counters_metric m, double num, double den)
{
	return den > 0 ? num / den * metrics[m].factor : 0.0;
}

/* Candidates that may be counted come first, busiest first. */
static int
cand_cmp(const void *pa, const void *pb)
{
	const struct counters_cand *a = pa, *b = pb;
	bool ka = a->score > 0 || a->followed, kb = b->score > 0 || b->followed;

	if (ka != kb)
		return ka ? -1 : 1;
	if (a->score != b->score)
		return CMP3(b->score, a->score);
	if (a->followed != b->followed)
		return a->followed ? -1 : 1;
	return CMP3(a->pid, b->pid);
}

/* Sort and count the processes worth counting. */
size_t
counters_pick_busiest(struct counters_cand *cands, size_t n, size_t max)
{
	size_t k = 0;

	qsort(cands, n, sizeof *cands, cand_cmp);
	while (k < n && k < max && (cands[k].score > 0 || cands[k].followed))
		k++;
	return k;
}
