/* report-system-json: the system part of a frame as one JSON object per
 * refresh (the keys are documented in the man page, BATCH OUTPUT). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tracetop/report-system.h"
#include "tracetop/report.h"
#include "tracetop/util.h"

/* An object being written: a comma before each member but the first. */
struct jw {
	FILE *out;
	bool first;
};

/* Open an object (as the value of a member, or in an array). */
static void
jbegin(struct jw *w, FILE *out)
{
	w->out = out;
	w->first = true;
	fputc('{', out);
}

/* Close it. */
static void
jend(struct jw *w)
{
	fputc('}', w->out);
}

/* Start member key. */
static void
jkey(struct jw *w, const char *key)
{
	fprintf(w->out, "%s\"%s\":", w->first ? "" : ",", key);
	w->first = false;
}

/* A number with prec decimals, null when NaN (absent or not yet). */
static void
jnum(struct jw *w, const char *key, double v, int prec)
{
	jkey(w, key);
	if (isnan(v))
		fputs("null", w->out);
	else
		fprintf(w->out, "%.*f", prec, v);
}

/* A whole number, or null when known is false. */
static void
jint(struct jw *w, const char *key, uint64_t v, bool known)
{
	jkey(w, key);
	if (known)
		fprintf(w->out, "%llu", (unsigned long long)v);
	else
		fputs("null", w->out);
}

/* A string (escaped), or null. */
static void
jstr(struct jw *w, const char *key, const char *s)
{
	jkey(w, key);
	if (s == NULL)
		fputs("null", w->out);
	else
		report_json_string(w->out, s);
}

/* A boolean. */
static void
jbool(struct jw *w, const char *key, bool v)
{
	jkey(w, key);
	fputs(v ? "true" : "false", w->out);
}

/* ,"absent":{"name":"why",...} for the fields with a reason, if any. */
static void
jabsent(struct jw *w, const char *(*name)(int), const char *const *why, int n)
{
	struct jw a;
	bool any = false;

	for (int i = 0; i < n; i++)
		any |= why[i] != NULL;
	if (!any)
		return;
	jkey(w, "absent");
	jbegin(&a, w->out);
	for (int i = 0; i < n; i++)
		if (why[i] != NULL)
			jstr(&a, name(i), why[i]);
	jend(&a);
}

/* Member key as null, and key_error with why (a whole section absent). */
static void
jerror(struct jw *w, const char *key, const char *why)
{
	char ekey[64];

	jkey(w, key);
	fputs("null", w->out);
	snprintf(ekey, sizeof ekey, "%s_error", key);
	jstr(w, ekey, why);
}

/* One CPU (or all of them). */
static void
json_cpu(FILE *out, const struct system_cpu *c)
{
	struct jw w;

	jbegin(&w, out);
	jstr(&w, "cpu", c->name);
	jnum(&w, "busy", c->busy, 2);
	for (int f = 0; f < SYS_CPU_NFIELDS; f++)
		jnum(&w, system_cpu_field_name(f), c->pct[f], 2);
	jnum(&w, "busy_cpus", c->busy_cpus, 3);
	if (c->columns < SYS_CPU_NFIELDS) {
		char why[96];
		struct jw a;

		jkey(&w, "absent");
		jbegin(&a, out);
		for (unsigned f = c->columns; f < SYS_CPU_NFIELDS; f++) {
			snprintf(why, sizeof why, "/proc/stat has no %s column",
			         system_cpu_field_name(f));
			jstr(&a, system_cpu_field_name(f), why);
		}
		jend(&a);
	}
	jend(&w);
}

/* "cpus" and "cpu_total". */
static void
json_cpus(struct jw *w, const struct frame_system *fs)
{
	if (fs->cpu_error != NULL) {
		jerror(w, "cpus", fs->cpu_error);
		jkey(w, "cpu_total");
		fputs("null", w->out);
		return;
	}
	jkey(w, "cpus");
	fputc('[', w->out);
	for (size_t i = 0; i < fs->ncpus; i++) {
		if (i > 0)
			fputc(',', w->out);
		json_cpu(w->out, &fs->cpus[i]);
	}
	fputc(']', w->out);
	jkey(w, "cpu_total");
	json_cpu(w->out, &fs->total);
}

/* The names of a section's fields, as jabsent wants them: memory's, */
static const char *
mem_key(int f)
{
	return system_mem_name((enum system_mem_field)f);
}

/* paging's, */
static const char *
vm_key(int f)
{
	return system_vm_name((enum system_vm_field)f);
}

/* and the scalars'. */
static const char *
misc_key(int f)
{
	return system_misc_name((enum system_misc_field)f);
}

/* "memory", "paging" and "system". */
static void
json_scalars(struct jw *w, const struct frame_system *fs)
{
	static const char *const counts[] = {"interrupts", "ctxt", "forks"};
	struct jw o;

	if (fs->mem_error != NULL) {
		jerror(w, "memory", fs->mem_error);
	} else {
		jkey(w, "memory");
		jbegin(&o, w->out);
		for (int f = 0; f < SYSTEM_MEM_NFIELDS; f++)
			jint(&o, system_mem_name(f), fs->mem.kib[f], fs->mem.why[f] == NULL);
		jabsent(&o, mem_key, fs->mem.why, SYSTEM_MEM_NFIELDS);
		jend(&o);
	}
	if (fs->vm_error != NULL) {
		jerror(w, "paging", fs->vm_error);
	} else {
		jkey(w, "paging");
		jbegin(&o, w->out);
		for (int f = 0; f < SYSTEM_VM_NFIELDS; f++)
			jnum(&o, system_vm_name(f), fs->vm.rate[f], 2);
		jabsent(&o, vm_key, fs->vm.why, SYSTEM_VM_NFIELDS);
		jend(&o);
	}
	jkey(w, "system");
	jbegin(&o, w->out);
	for (int f = 0; f < SYSTEM_MISC_NFIELDS; f++) {
		bool whole =
		    f == SYSTEM_PROCS_RUNNING || f == SYSTEM_PROCS_BLOCKED || f == SYSTEM_TASKS;

		jnum(&o, system_misc_name(f), fs->misc.v[f], whole ? 0 : 2);
	}
	for (int i = 0; i < 3; i++)
		jint(&o, counts[i], fs->misc.count[i], system_known(fs->misc.v[i]));
	jabsent(&o, misc_key, fs->misc.why, SYSTEM_MISC_NFIELDS);
	jend(&o);
}

/* A disk's members (the object is open). */
static void
json_disk_fields(struct jw *w, const struct system_disk *d)
{
	bool known = system_known(d->reads_s);

	jstr(w, "name", d->name);
	jnum(w, "reads_s", d->reads_s, 2);
	jnum(w, "writes_s", d->writes_s, 2);
	jnum(w, "read_bytes_s", d->read_bytes_s, 0);
	jnum(w, "write_bytes_s", d->write_bytes_s, 0);
	jnum(w, "await_ms", d->await_ms, 3);
	jnum(w, "queue", d->queue, 3);
	jnum(w, "util", d->util, 2);
	jint(w, "read_bytes", d->read_bytes, known);
	jint(w, "write_bytes", d->write_bytes, known);
	jint(w, "inflight", d->inflight, true);
}

/* A disk and its partitions (those whose parent is index i). */
static void
json_disk(FILE *out, const struct frame_system *fs, size_t i)
{
	struct jw w, p;
	bool first = true;

	jbegin(&w, out);
	json_disk_fields(&w, &fs->disks[i]);
	jbool(&w, "in_total", fs->disks[i].in_total);
	jkey(&w, "partitions");
	fputc('[', out);
	for (size_t k = 0; k < fs->ndisks; k++) {
		if (fs->disks[k].parent != (int)i)
			continue;
		if (!first)
			fputc(',', out);
		first = false;
		jbegin(&p, out);
		json_disk_fields(&p, &fs->disks[k]);
		jend(&p);
	}
	fputc(']', out);
	jend(&w);
}

/* "disk_total" and "disks" (whole disks, partitions inside). */
static void
json_disks(struct jw *w, const struct frame_system *fs)
{
	struct jw t;
	bool first = true;

	if (fs->disks_error != NULL) {
		jerror(w, "disks", fs->disks_error);
		return;
	}
	jkey(w, "disk_total");
	jbegin(&t, w->out);
	json_disk_fields(&t, &fs->disk_total);
	jend(&t);
	jkey(w, "disks");
	fputc('[', w->out);
	for (size_t i = 0; i < fs->ndisks; i++) {
		if (fs->disks[i].parent >= 0)
			continue;
		if (!first)
			fputc(',', w->out);
		first = false;
		json_disk(w->out, fs, i);
	}
	fputc(']', w->out);
	if (fs->disks_note != NULL)
		jstr(w, "disks_note", fs->disks_note);
}

/* An interface. */
static void
json_net(FILE *out, const struct system_net *n)
{
	bool known = system_known(n->rx_bytes_s);
	struct jw w;

	jbegin(&w, out);
	jstr(&w, "name", n->name);
	jnum(&w, "rx_bytes_s", n->rx_bytes_s, 0);
	jnum(&w, "tx_bytes_s", n->tx_bytes_s, 0);
	jnum(&w, "rx_packets_s", n->rx_packets_s, 2);
	jnum(&w, "tx_packets_s", n->tx_packets_s, 2);
	jint(&w, "errors", n->errors, known);
	jint(&w, "drops", n->drops, known);
	jint(&w, "rx_bytes", n->rx_bytes, known);
	jint(&w, "tx_bytes", n->tx_bytes, known);
	jint(&w, "errors_total", n->errors_all, true);
	jint(&w, "drops_total", n->drops_all, true);
	jend(&w);
}

/* "net_total" and "net". */
static void
json_nets(struct jw *w, const struct frame_system *fs)
{
	if (fs->net_error != NULL) {
		jerror(w, "net", fs->net_error);
		return;
	}
	jkey(w, "net_total");
	json_net(w->out, &fs->net_total);
	jkey(w, "net");
	fputc('[', w->out);
	for (size_t i = 0; i < fs->nnets; i++) {
		if (i > 0)
			fputc(',', w->out);
		json_net(w->out, &fs->nets[i]);
	}
	fputc(']', w->out);
}

/* An interrupt table as member key: busiest first, at most max rows. */
static void
json_irqs(struct jw *w, const char *key, const struct system_irqs *t, unsigned max)
{
	char cpu[24];

	if (t->error != NULL) {
		jerror(w, key, t->error);
		return;
	}
	jkey(w, key);
	fputc('[', w->out);
	for (size_t i = 0; i < t->n && (max == 0 || i < max); i++) {
		struct jw r, c;

		if (i > 0)
			fputc(',', w->out);
		jbegin(&r, w->out);
		jstr(&r, "name", t->rows[i].name);
		if (t->rows[i].desc[0] != '\0')
			jstr(&r, "desc", t->rows[i].desc);
		jnum(&r, "rate", t->rows[i].rate, 2);
		jint(&r, "count", t->rows[i].count, system_known(t->rows[i].rate));
		jkey(&r, "per_cpu");
		jbegin(&c, w->out);
		for (size_t k = 0; k < t->ncpus; k++) {
			snprintf(cpu, sizeof cpu, "cpu%d", t->cpus[k]);
			jnum(&c, cpu, system_irq_cpu_rate(t, i, k), 2);
		}
		jend(&c);
		jend(&r);
	}
	fputc(']', w->out);
}

/* A thread of a process. */
static void
json_thread(FILE *out, const struct system_thread *t)
{
	struct jw w;

	jbegin(&w, out);
	jint(&w, "tid", (uint64_t)t->tid, true);
	jstr(&w, "comm", t->comm);
	jstr(&w, "state", (char[2]){t->state, '\0'});
	jnum(&w, "cpu", t->cpu, 2);
	jnum(&w, "user", t->user, 2);
	jnum(&w, "system", t->system, 2);
	jnum(&w, "minflt_s", t->minflt_s, 2);
	jnum(&w, "majflt_s", t->majflt_s, 2);
	jnum(&w, "nice", (double)t->nice, 0);
	jnum(&w, "priority", (double)t->priority, 0);
	jnum(&w, "processor", t->processor >= 0 ? t->processor : NAN, 0);
	jnum(&w, "start", t->start, 2);
	jend(&w);
}

/* A process (with its threads when they were read). */
static void
json_proc(FILE *out, const struct frame_system *fs, const struct system_proc *p)
{
	struct jw w;

	jbegin(&w, out);
	jint(&w, "pid", (uint64_t)p->pid, true);
	jint(&w, "ppid", (uint64_t)(p->ppid > 0 ? p->ppid : 0), true);
	jstr(&w, "comm", p->comm);
	jstr(&w, "cmd", p->cmd);
	jstr(&w, "state", (char[2]){p->state, '\0'});
	jnum(&w, "cpu", p->cpu, 2);
	jnum(&w, "user", p->user, 2);
	jnum(&w, "system", p->system, 2);
	jint(&w, "rss_kib", p->rss_kib, true);
	jnum(&w, "minflt_s", p->minflt_s, 2);
	jnum(&w, "majflt_s", p->majflt_s, 2);
	jnum(&w, "ctxt_s", p->ctxt_s, 2);
	jnum(&w, "threads", (double)p->threads, 0);
	jnum(&w, "nice", (double)p->nice, 0);
	jnum(&w, "priority", (double)p->priority, 0);
	jnum(&w, "processor", p->processor >= 0 ? p->processor : NAN, 0);
	jnum(&w, "start", p->start, 2);
	jbool(&w, "kernel", p->kernel);
	if (fs->threads_on) {
		jkey(&w, "thread_list");
		fputc('[', out);
		for (uint32_t i = 0; i < p->thread_n; i++) {
			if (i > 0)
				fputc(',', out);
			json_thread(out, &fs->threads[p->thread_at + i]);
		}
		fputc(']', out);
	}
	jend(&w);
}

/* "processes", busiest first, at most max. */
static void
json_procs(struct jw *w, const struct frame_system *fs, unsigned max)
{
	if (fs->procs_error != NULL || !fs->procs_on) {
		jerror(w, "processes", fs->procs_error ? fs->procs_error : "not read");
		return;
	}
	jint(w, "processes_count", fs->nprocs, true);
	jint(w, "processes_new", fs->procs_new, true);
	if (fs->threads_on)
		jint(w, "threads_count", fs->nthreads, true);
	jkey(w, "processes");
	fputc('[', w->out);
	for (size_t i = 0; i < fs->nprocs && (max == 0 || i < max); i++) {
		if (i > 0)
			fputc(',', w->out);
		json_proc(w->out, fs, &fs->procs[i]);
	}
	fputc(']', w->out);
}

/* One refresh as one object on one line. */
void
report_system_json(FILE *out, const struct report_system_info *ri, const struct frame_system *fs)
{
	struct jw w;

	jbegin(&w, out);
	jstr(&w, "view", "system");
	jnum(&w, "time", ri->time, 3);
	jnum(&w, "interval", fs->secs, 3);
	json_cpus(&w, fs);
	json_scalars(&w, fs);
	json_disks(&w, fs);
	json_nets(&w, fs);
	json_irqs(&w, "interrupts", &fs->irqs, ri->max_rows);
	json_irqs(&w, "softirqs", &fs->softirqs, ri->max_rows);
	json_procs(&w, fs, ri->max_rows);
	jend(&w);
	fputc('\n', out);
	fflush(out);
}
