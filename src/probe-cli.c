/* probe-cli: the command line's probe options. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/probe-cli.h"

/* Print an error about SPEC (escaped) to stderr. */
static void
spec_error(const char *opt, const char *spec, const char *msg)
{
	char esc[512];

	str_escape(esc, sizeof esc, spec, strlen(spec));
	fprintf(stderr, "tracetop: %s '%s': %s\n", opt, esc, msg);
}

/* The entry and return probe SPECs of a --latency SPEC, which must name
 * a function (no offset, no arguments, no %return). */
static int
latency_specs(const char *spec, char *entry, size_t elen, char *ret, size_t rlen,
              struct tt_err *err)
{
	struct probe_spec s;
	int rc = 0;

	if (probe_spec_parse(spec, &s, err) != 0)
		return -1;
	if (s.kind == PROBE_KRETPROBE || s.kind == PROBE_URETPROBE || s.nargs > 0 ||
	    s.offset != 0 || s.raw_offset)
		rc = err_set(err, "name a function, as [BINARY:]FUNC, without an offset, %%return "
		                  "or arguments: its entry and return are probed");
	else if (probe_spec_target(entry, elen, s.binary, s.func, err) != 0)
		rc = -1;
	else
		snprintf(ret, rlen, "%s%%return", entry);
	probe_spec_free(&s);
	return rc;
}

/* Check every --probe SPEC. */
int
probe_cli_check(const struct options *o)
{
	struct probe_spec s;
	struct tt_err err;

	for (size_t i = 0; i < o->nprobes; i++) {
		if (probe_spec_parse(o->probes[i], &s, &err) != 0) {
			spec_error("--probe", o->probes[i], err.msg);
			return -1;
		}
		probe_spec_free(&s);
	}
	for (size_t i = 0; i < o->nlatencies; i++) {
		char entry[1024], ret[1100];

		if (latency_specs(o->latencies[i], entry, sizeof entry, ret, sizeof ret, &err) !=
		    0) {
			spec_error("--latency", o->latencies[i], err.msg);
			return -1;
		}
	}
	return 0;
}

/* What names the binaries: the command and -p's processes. */
static struct probe_ctx
cli_ctx(const struct options *o)
{
	return (struct probe_ctx){.argv = o->argv, .pids = o->pids, .npids = o->npids};
}

/* --probe-vars. */
int
probe_cli_vars(const struct options *o)
{
	struct probe_ctx ctx = cli_ctx(o);
	struct probe_spec s;
	struct tt_err err;
	int rc;

	if (probe_spec_parse(o->probe_vars, &s, &err) != 0) {
		spec_error("--probe-vars", o->probe_vars, err.msg);
		return 2;
	}
	rc = probe_vars_print(stdout, &s, &ctx, &err);
	probe_spec_free(&s);
	if (rc != 0) {
		spec_error("--probe-vars", o->probe_vars, err.msg);
		return 1;
	}
	return 0;
}

/* Make the --probe probes. */
int
probe_cli_open(const struct options *o, bool always, struct probes **p)
{
	struct probe_ctx ctx = cli_ctx(o);
	struct tt_err err;
	bool usage;

	*p = NULL;
	if (o->nprobes == 0 && o->nlatencies == 0 && o->view != VIEW_PROBES && !always)
		return 0;
	*p = probes_new(&ctx);
	for (size_t i = 0; i < o->nprobes; i++)
		if (probes_add(*p, o->probes[i], &usage, &err) < 0) {
			spec_error("--probe", o->probes[i], err.msg);
			probes_free(*p);
			*p = NULL;
			return usage ? 2 : 1;
		}
	/* --latency: an entry and a return probe each, after --probe's; their
	 * hits are not counted but in the probes view (the latency source
	 * counts the calls: a counter on each would cost every call more,
	 * on the screen as a pair timed by t does not) */
	for (size_t i = 0; i < o->nlatencies; i++) {
		char entry[1024], ret[1100];
		int ie = -1, ir = -1;

		usage = true;
		if (latency_specs(o->latencies[i], entry, sizeof entry, ret, sizeof ret, &err) !=
		        0 ||
		    (ie = probes_add(*p, entry, &usage, &err)) < 0 ||
		    (ir = probes_add(*p, ret, &usage, &err)) < 0) {
			spec_error("--latency", o->latencies[i], err.msg);
			probes_free(*p);
			*p = NULL;
			return usage ? 2 : 1;
		}
		if (o->view != VIEW_PROBES) {
			probes_set_enabled(*p, (size_t)ie, false, &err);
			probes_set_enabled(*p, (size_t)ir, false, &err);
		}
	}
	return 0;
}

/* The tracepoints of --latency's probes: entry and return of each. */
const char **
probe_cli_latency_events(const struct options *o, const struct probes *p)
{
	const char **v;

	if (o->nlatencies == 0 || p == NULL)
		return NULL;
	v = xcalloc(2 * o->nlatencies, sizeof *v);
	for (size_t i = 0; i < 2 * o->nlatencies; i++)
		v[i] = probes_tracepoint(p, o->nprobes + i);
	return v;
}

/* -T's tracepoints and the probes'. */
struct engine_trace_opt *
probe_cli_traces(const struct options *o, const struct probes *p, size_t *n)
{
	size_t np = p ? probes_count(p) : 0;
	struct engine_trace_opt *v;

	*n = o->ntraces + np;
	if (*n == 0)
		return NULL;
	v = xcalloc(*n, sizeof *v);
	if (o->ntraces > 0)
		memcpy(v, o->traces, o->ntraces * sizeof *v);
	for (size_t i = 0; i < np; i++)
		v[o->ntraces + i] = (struct engine_trace_opt){.event = probes_tracepoint(p, i)};
	return v;
}

/* Say which group a killed tracetop left was removed. */
static void
cleanup_said(void *arg, const char *group, int pid, size_t nevents)
{
	fprintf(stderr,
	        "tracetop: removed probe group %s (%zu probe%s) left by tracetop pid %d "
	        "(no longer running)\n",
	        group, nevents, nevents == 1 ? "" : "s", pid);
	++*(int *)arg;
}

/* Remove dead tracetops' probe groups. */
int
probe_cli_cleanup(bool verbose)
{
	struct tt_err err;
	int n = 0;

	if (probe_cleanup_stale(cleanup_said, &n, &err) < 0) {
		if (verbose) /* at start, a tracefs we may not read is no news */
			fprintf(stderr, "tracetop: %s\n", err.msg);
		return -1;
	}
	if (verbose && n == 0)
		fprintf(stderr, "tracetop: no probe group of a killed tracetop to remove\n");
	return n;
}
