/* recframe-system: the system part of a chunk, written and read back:
 * the CPUs, memory, paging and scalars every interval, the tables
 * (disks, interfaces, interrupts, processes and their threads) when the
 * frame has them. The sparklines are not written: the reader pushes each
 * interval's values onto its own, as the source does at each reading. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recframe-impl.h"
#include "tracetop/recfile.h"

/* Bounds a reader believes. */
#define MAX_CPUS 65536
#define MAX_ROWS (1u << 20)

/* Flags of the part. */
#define SF_ROWS 1u
#define SF_PROCS_ON 2u
#define SF_THREADS_ON 4u
#define SF_IN_TOTAL 1u
#define SF_USED 2u
#define SF_KERNEL 1u

/* A fixed array's text (up to its first NUL). */
static void
put_chars(struct pb *b, const char *s, size_t size)
{
	rec_put_bytes(b, s, strnlen(s, size));
}

/* A fixed array's text back (cut to fit, NUL-ended). */
static void
get_chars(struct rec_cursor *c, char *s, size_t size)
{
	size_t len;
	const uint8_t *p = rec_get_bytes(c, &len);

	len = len < size ? len : size - 1;
	if (p != NULL)
		memcpy(s, p, len);
	s[p != NULL ? len : 0] = '\0';
}

/* n doubles. */
static void
put_f64s(struct pb *b, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rec_put_f64(b, v[i]);
}

static void
get_f64s(struct rec_cursor *c, double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = rec_get_f64(c);
}

/* n reasons (NULL: present). */
static void
put_whys(struct recframe_enc *e, struct pb *b, const char *const *why, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rec_put_u(b, recenc_text(e, why[i]));
}

static void
get_whys(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t, const char **why,
         size_t n)
{
	for (size_t i = 0; i < n; i++)
		why[i] = recdec_str(d, c, t);
}

/* A CPU (or all of them). */
static void
put_cpu(struct pb *b, const struct system_cpu *x)
{
	rec_put_i(b, x->cpu);
	put_chars(b, x->name, sizeof x->name);
	rec_put_u(b, x->columns);
	put_f64s(b, x->pct, SYS_CPU_NFIELDS);
	rec_put_f64(b, x->busy);
	rec_put_f64(b, x->busy_cpus);
}

static void
get_cpu(struct rec_cursor *c, struct system_cpu *x)
{
	x->cpu = (int)rec_get_i(c);
	get_chars(c, x->name, sizeof x->name);
	x->columns = (unsigned)rec_get_u(c);
	get_f64s(c, x->pct, SYS_CPU_NFIELDS);
	x->busy = rec_get_f64(c);
	x->busy_cpus = rec_get_f64(c);
}

/* A disk (or their total). */
static void
put_disk(struct pb *b, const struct system_disk *x)
{
	put_chars(b, x->name, sizeof x->name);
	rec_put_i(b, x->parent);
	rec_put_u(b, (x->in_total ? SF_IN_TOTAL : 0) | (x->used ? SF_USED : 0));
	rec_put_f64(b, x->reads_s);
	rec_put_f64(b, x->writes_s);
	rec_put_f64(b, x->read_bytes_s);
	rec_put_f64(b, x->write_bytes_s);
	rec_put_f64(b, x->await_ms);
	rec_put_f64(b, x->queue);
	rec_put_f64(b, x->util);
	rec_put_u(b, x->read_bytes);
	rec_put_u(b, x->write_bytes);
	rec_put_u(b, x->inflight);
}

static void
get_disk(struct rec_cursor *c, struct system_disk *x)
{
	unsigned fl;

	get_chars(c, x->name, sizeof x->name);
	x->parent = (int)rec_get_i(c);
	fl = (unsigned)rec_get_u(c);
	x->in_total = fl & SF_IN_TOTAL;
	x->used = fl & SF_USED;
	x->reads_s = rec_get_f64(c);
	x->writes_s = rec_get_f64(c);
	x->read_bytes_s = rec_get_f64(c);
	x->write_bytes_s = rec_get_f64(c);
	x->await_ms = rec_get_f64(c);
	x->queue = rec_get_f64(c);
	x->util = rec_get_f64(c);
	x->read_bytes = rec_get_u(c);
	x->write_bytes = rec_get_u(c);
	x->inflight = rec_get_u(c);
}

/* An interface (or their total). */
static void
put_net(struct pb *b, const struct system_net *x)
{
	put_chars(b, x->name, sizeof x->name);
	rec_put_f64(b, x->rx_bytes_s);
	rec_put_f64(b, x->tx_bytes_s);
	rec_put_f64(b, x->rx_packets_s);
	rec_put_f64(b, x->tx_packets_s);
	rec_put_u(b, x->rx_bytes);
	rec_put_u(b, x->tx_bytes);
	rec_put_u(b, x->errors);
	rec_put_u(b, x->drops);
	rec_put_u(b, x->errors_all);
	rec_put_u(b, x->drops_all);
}

static void
get_net(struct rec_cursor *c, struct system_net *x)
{
	get_chars(c, x->name, sizeof x->name);
	x->rx_bytes_s = rec_get_f64(c);
	x->tx_bytes_s = rec_get_f64(c);
	x->rx_packets_s = rec_get_f64(c);
	x->tx_packets_s = rec_get_f64(c);
	x->rx_bytes = rec_get_u(c);
	x->tx_bytes = rec_get_u(c);
	x->errors = rec_get_u(c);
	x->drops = rec_get_u(c);
	x->errors_all = rec_get_u(c);
	x->drops_all = rec_get_u(c);
}

/* An interrupts table: its CPUs, its rows and their rates per CPU. */
static void
put_irqs(struct recframe_enc *e, struct pb *b, const struct system_irqs *t)
{
	rec_put_u(b, recenc_text(e, t->error));
	rec_put_u(b, t->ncpus);
	for (size_t i = 0; i < t->ncpus; i++)
		rec_put_i(b, t->cpus[i]);
	rec_put_u(b, t->n);
	for (size_t i = 0; i < t->n; i++) {
		put_chars(b, t->rows[i].name, sizeof t->rows[i].name);
		put_chars(b, t->rows[i].desc, sizeof t->rows[i].desc);
		rec_put_f64(b, t->rows[i].rate);
		rec_put_u(b, t->rows[i].count);
		for (size_t k = 0; k < t->ncpus; k++)
			rec_put_f64(b, system_irq_cpu_rate(t, i, k));
	}
}

/* Room for n elements of size in *arr of *cap. */
static void *
grow(void *arr, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap && arr != NULL)
		return arr;
	*cap = n > 0 ? n : 1;
	return xrealloc(arr, *cap * size);
}

static void
get_irqs(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
         struct system_irqs *x)
{
	size_t nc, n;

	x->error = recdec_str(d, c, t);
	nc = rec_get_count(c, 1);
	if (c->bad || nc > MAX_CPUS) {
		c->bad = true;
		return;
	}
	x->cpus = grow(x->cpus, &x->cpus_cap, nc, sizeof *x->cpus);
	x->ncpus = nc;
	for (size_t i = 0; i < nc; i++)
		x->cpus[i] = (int)rec_get_i(c);
	n = rec_get_count(c, 11 + 8 * nc);
	if (c->bad || n > MAX_ROWS) {
		c->bad = true;
		x->n = 0;
		return;
	}
	x->rows = grow(x->rows, &x->cap, n, sizeof *x->rows);
	x->rates = grow(x->rates, &x->rates_cap, n * nc, sizeof *x->rates);
	x->n = n;
	for (size_t i = 0; i < n && !c->bad; i++) {
		struct system_irq *r = &x->rows[i];

		get_chars(c, r->name, sizeof r->name);
		get_chars(c, r->desc, sizeof r->desc);
		r->rate = rec_get_f64(c);
		r->count = rec_get_u(c);
		r->at = i * nc;
		get_f64s(c, x->rates + r->at, nc);
	}
}

/* A process. */
static void
put_proc(struct pb *b, const struct system_proc *p)
{
	rec_put_i(b, p->pid);
	rec_put_i(b, p->ppid);
	put_chars(b, p->comm, sizeof p->comm);
	put_chars(b, p->cmd, sizeof p->cmd);
	rec_put_u(b, (uint8_t)p->state);
	rec_put_u(b, p->kernel ? SF_KERNEL : 0);
	rec_put_f64(b, p->cpu);
	rec_put_f64(b, p->user);
	rec_put_f64(b, p->system);
	rec_put_u(b, p->rss_kib);
	rec_put_f64(b, p->minflt_s);
	rec_put_f64(b, p->majflt_s);
	rec_put_f64(b, p->ctxt_s);
	rec_put_i(b, p->threads);
	rec_put_i(b, p->nice);
	rec_put_i(b, p->priority);
	rec_put_i(b, p->processor);
	rec_put_f64(b, p->start);
	rec_put_u(b, p->thread_at);
	rec_put_u(b, p->thread_n);
}

static void
get_proc(struct rec_cursor *c, struct system_proc *p)
{
	p->pid = (int)rec_get_i(c);
	p->ppid = (int)rec_get_i(c);
	get_chars(c, p->comm, sizeof p->comm);
	get_chars(c, p->cmd, sizeof p->cmd);
	p->state = (char)rec_get_u(c);
	p->kernel = rec_get_u(c) & SF_KERNEL;
	p->cpu = rec_get_f64(c);
	p->user = rec_get_f64(c);
	p->system = rec_get_f64(c);
	p->rss_kib = rec_get_u(c);
	p->minflt_s = rec_get_f64(c);
	p->majflt_s = rec_get_f64(c);
	p->ctxt_s = rec_get_f64(c);
	p->threads = rec_get_i(c);
	p->nice = rec_get_i(c);
	p->priority = rec_get_i(c);
	p->processor = (int)rec_get_i(c);
	p->start = rec_get_f64(c);
	p->thread_at = (uint32_t)rec_get_u(c);
	p->thread_n = (uint32_t)rec_get_u(c);
}

/* A thread. */
static void
put_thread(struct pb *b, const struct system_thread *x)
{
	rec_put_i(b, x->tid);
	rec_put_i(b, x->pid);
	rec_put_u(b, x->proc);
	put_chars(b, x->comm, sizeof x->comm);
	rec_put_u(b, (uint8_t)x->state);
	rec_put_f64(b, x->cpu);
	rec_put_f64(b, x->user);
	rec_put_f64(b, x->system);
	rec_put_f64(b, x->minflt_s);
	rec_put_f64(b, x->majflt_s);
	rec_put_i(b, x->nice);
	rec_put_i(b, x->priority);
	rec_put_i(b, x->processor);
	rec_put_f64(b, x->start);
}

static void
get_thread(struct rec_cursor *c, struct system_thread *x)
{
	x->tid = (int)rec_get_i(c);
	x->pid = (int)rec_get_i(c);
	x->proc = (uint32_t)rec_get_u(c);
	get_chars(c, x->comm, sizeof x->comm);
	x->state = (char)rec_get_u(c);
	x->cpu = rec_get_f64(c);
	x->user = rec_get_f64(c);
	x->system = rec_get_f64(c);
	x->minflt_s = rec_get_f64(c);
	x->majflt_s = rec_get_f64(c);
	x->nice = rec_get_i(c);
	x->priority = rec_get_i(c);
	x->processor = (int)rec_get_i(c);
	x->start = rec_get_f64(c);
}

/* The system part. */
void
recenc_system(struct recframe_enc *e, struct pb *b, const struct frame *f)
{
	const struct frame_system *s = &f->system;
	bool rows = s->rows;

	rec_put_u(b, (rows ? SF_ROWS : 0) | (s->procs_on ? SF_PROCS_ON : 0) |
	                 (s->threads_on ? SF_THREADS_ON : 0));
	rec_put_u(b, s->readings);
	rec_put_f64(b, s->secs);
	rec_put_f64(b, s->elapsed);
	rec_put_u(b, recenc_text(e, s->cpu_error));
	rec_put_u(b, recenc_text(e, s->mem_error));
	rec_put_u(b, recenc_text(e, s->vm_error));
	rec_put_u(b, recenc_text(e, s->disks_error));
	rec_put_u(b, recenc_text(e, s->disks_note));
	rec_put_u(b, recenc_text(e, s->net_error));
	rec_put_u(b, recenc_text(e, s->procs_error));
	put_cpu(b, &s->total);
	rec_put_u(b, s->ncpus);
	for (size_t i = 0; i < s->ncpus; i++)
		put_cpu(b, &s->cpus[i]);
	for (int i = 0; i < SYSTEM_MEM_NFIELDS; i++)
		rec_put_u(b, s->mem.kib[i]);
	put_whys(e, b, s->mem.why, SYSTEM_MEM_NFIELDS);
	put_f64s(b, s->vm.rate, SYSTEM_VM_NFIELDS);
	put_whys(e, b, s->vm.why, SYSTEM_VM_NFIELDS);
	put_f64s(b, s->misc.v, SYSTEM_MISC_NFIELDS);
	for (int i = 0; i < 3; i++)
		rec_put_u(b, s->misc.count[i]);
	put_whys(e, b, s->misc.why, SYSTEM_MISC_NFIELDS);
	put_disk(b, &s->disk_total);
	put_net(b, &s->net_total);
	if (!rows)
		return;
	rec_put_u(b, s->ndisks);
	for (size_t i = 0; i < s->ndisks; i++)
		put_disk(b, &s->disks[i]);
	rec_put_u(b, s->nnets);
	for (size_t i = 0; i < s->nnets; i++)
		put_net(b, &s->nets[i]);
	put_irqs(e, b, &s->irqs);
	put_irqs(e, b, &s->softirqs);
	rec_put_u(b, s->nprocs);
	rec_put_u(b, s->procs_new);
	for (size_t i = 0; i < s->nprocs; i++)
		put_proc(b, &s->procs[i]);
	rec_put_u(b, s->nthreads);
	for (size_t i = 0; i < s->nthreads; i++)
		put_thread(b, &s->threads[i]);
}

/* The sparkline of the element of old (n of them, size bytes, hists at
 * off) named like x (its first len bytes at key), or NULL. */
static const struct system_hist *
old_hist(const void *old, size_t n, size_t size, size_t off, const void *x, size_t key, size_t len)
{
	const char *a = old;

	for (size_t i = 0; i < n; i++)
		if (memcmp(a + i * size + key, (const char *)x + key, len) == 0)
			return (const struct system_hist *)(a + i * size + off);
	return NULL;
}

/* The CPUs, disks and interfaces decoded into tmp get the sparklines of
 * those of the same name in s (the last interval's), and this interval's
 * values pushed. */
static void
carry_hists(struct frame_system *s, struct frame_system *tmp, bool tables)
{
	tmp->total.busy_hist = s->total.busy_hist;
	system_hist_push(&tmp->total.busy_hist, tmp->total.busy);
	for (size_t i = 0; i < tmp->ncpus; i++) {
		const struct system_hist *h = old_hist(
		    s->cpus, s->ncpus, sizeof *s->cpus, offsetof(struct system_cpu, busy_hist),
		    &tmp->cpus[i], offsetof(struct system_cpu, cpu), sizeof(int));

		memset(&tmp->cpus[i].busy_hist, 0, sizeof tmp->cpus[i].busy_hist);
		if (h != NULL)
			tmp->cpus[i].busy_hist = *h;
		system_hist_push(&tmp->cpus[i].busy_hist, tmp->cpus[i].busy);
	}
	for (size_t i = 0; tables && i < tmp->ndisks; i++) {
		const struct system_hist *h = old_hist(
		    s->disks, s->ndisks, sizeof *s->disks, offsetof(struct system_disk, read_hist),
		    &tmp->disks[i], offsetof(struct system_disk, name), sizeof tmp->disks[i].name);

		memset(&tmp->disks[i].read_hist, 0, 2 * sizeof tmp->disks[i].read_hist);
		if (h != NULL) {
			tmp->disks[i].read_hist = h[0];
			tmp->disks[i].write_hist = h[1];
		}
		system_hist_push(&tmp->disks[i].read_hist, tmp->disks[i].read_bytes_s);
		system_hist_push(&tmp->disks[i].write_hist, tmp->disks[i].write_bytes_s);
	}
	for (size_t i = 0; tables && i < tmp->nnets; i++) {
		const struct system_hist *h = old_hist(
		    s->nets, s->nnets, sizeof *s->nets, offsetof(struct system_net, rx_hist),
		    &tmp->nets[i], offsetof(struct system_net, name), sizeof tmp->nets[i].name);

		memset(&tmp->nets[i].rx_hist, 0, 2 * sizeof tmp->nets[i].rx_hist);
		if (h != NULL) {
			tmp->nets[i].rx_hist = h[0];
			tmp->nets[i].tx_hist = h[1];
		}
		system_hist_push(&tmp->nets[i].rx_hist, tmp->nets[i].rx_bytes_s);
		system_hist_push(&tmp->nets[i].tx_hist, tmp->nets[i].tx_bytes_s);
	}
	tmp->mem.used_hist = s->mem.used_hist;
	tmp->mem.swap_hist = s->mem.swap_hist;
	system_hist_push(&tmp->mem.used_hist, tmp->mem.why[SYSTEM_MEM_USED]
	                                          ? NAN
	                                          : (double)tmp->mem.kib[SYSTEM_MEM_USED]);
	system_hist_push(&tmp->mem.swap_hist, tmp->mem.why[SYSTEM_MEM_SWAP_USED]
	                                          ? NAN
	                                          : (double)tmp->mem.kib[SYSTEM_MEM_SWAP_USED]);
	tmp->vm.majflt_hist = s->vm.majflt_hist;
	system_hist_push(&tmp->vm.majflt_hist, tmp->vm.rate[SYSTEM_VM_MAJFLT]);
	tmp->misc.intr_hist = s->misc.intr_hist;
	tmp->misc.ctxt_hist = s->misc.ctxt_hist;
	tmp->misc.forks_hist = s->misc.forks_hist;
	tmp->misc.load_hist = s->misc.load_hist;
	system_hist_push(&tmp->misc.intr_hist, tmp->misc.v[SYSTEM_INTR]);
	system_hist_push(&tmp->misc.ctxt_hist, tmp->misc.v[SYSTEM_CTXT]);
	system_hist_push(&tmp->misc.forks_hist, tmp->misc.v[SYSTEM_FORKS]);
	if (tmp->misc.why[SYSTEM_LOAD1] == NULL)
		system_hist_push(&tmp->misc.load_hist, tmp->misc.v[SYSTEM_LOAD1]);
	tmp->disk_total.read_hist = s->disk_total.read_hist;
	tmp->disk_total.write_hist = s->disk_total.write_hist;
	system_hist_push(&tmp->disk_total.read_hist, tmp->disk_total.read_bytes_s);
	system_hist_push(&tmp->disk_total.write_hist, tmp->disk_total.write_bytes_s);
	tmp->net_total.rx_hist = s->net_total.rx_hist;
	tmp->net_total.tx_hist = s->net_total.tx_hist;
	system_hist_push(&tmp->net_total.rx_hist, tmp->net_total.rx_bytes_s);
	system_hist_push(&tmp->net_total.tx_hist, tmp->net_total.tx_bytes_s);
}

/* A table of n elements of size (each at least min bytes in the chunk):
 * room in *arr, NULL and bad when n is absurd. */
static void *
get_table(struct rec_cursor *c, void *arr, size_t *cap, size_t *n, size_t size, size_t min)
{
	*n = rec_get_count(c, min);
	if (c->bad || *n > MAX_ROWS) {
		c->bad = true;
		*n = 0;
		return arr;
	}
	arr = grow(arr, cap, *n, size);
	memset(arr, 0, *n * size);
	return arr;
}

/* The tables of the part, into tmp (which has the last interval's
 * arrays to fill again). */
static void
get_tables(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t,
           struct frame_system *x)
{
	x->disks = get_table(c, x->disks, &x->disks_cap, &x->ndisks, sizeof *x->disks, 23);
	for (size_t i = 0; i < x->ndisks && !c->bad; i++) {
		get_disk(c, &x->disks[i]);
		if (x->disks[i].parent < -1 || x->disks[i].parent >= (int)x->ndisks)
			x->disks[i].parent = -1;
	}
	x->nets = get_table(c, x->nets, &x->nets_cap, &x->nnets, sizeof *x->nets, 39);
	for (size_t i = 0; i < x->nnets && !c->bad; i++)
		get_net(c, &x->nets[i]);
	get_irqs(d, c, t, &x->irqs);
	get_irqs(d, c, t, &x->softirqs);
	x->procs = get_table(c, x->procs, &x->procs_cap, &x->nprocs, sizeof *x->procs, 60);
	x->procs_new = (size_t)rec_get_u(c);
	for (size_t i = 0; i < x->nprocs && !c->bad; i++)
		get_proc(c, &x->procs[i]);
	x->threads =
	    get_table(c, x->threads, &x->threads_cap, &x->nthreads, sizeof *x->threads, 60);
	for (size_t i = 0; i < x->nthreads && !c->bad; i++) {
		get_thread(c, &x->threads[i]);
		if (x->threads[i].proc >= x->nprocs)
			x->threads[i].proc = 0;
	}
	for (size_t i = 0; i < x->nprocs; i++)
		if ((uint64_t)x->procs[i].thread_at + x->procs[i].thread_n > x->nthreads)
			x->procs[i].thread_at = x->procs[i].thread_n = 0;
}

/* Swap two values of a type. */
#define SWAP(a, b)                                                                                 \
	do {                                                                                       \
		__typeof__(a) t_ = (a);                                                            \
		(a) = (b);                                                                         \
		(b) = t_;                                                                          \
	} while (0)

/* The system part: into a frame part of its own first, the sparklines
 * carried over from the last interval's, which it then replaces. */
void
recdec_system(struct recframe_dec *d, struct rec_cursor *c, const struct dec_tabs *t)
{
	struct frame_system *s = &d->parts.system, x;
	unsigned fl = (unsigned)rec_get_u(c);
	size_t nc;

	/* the tables stay the last interval's when the chunk has none */
	x = *s;
	x.cpus = NULL;
	x.cpus_cap = 0;
	x.rows = fl & SF_ROWS;
	x.procs_on = fl & SF_PROCS_ON;
	x.threads_on = fl & SF_THREADS_ON;
	x.readings = rec_get_u(c);
	x.secs = rec_get_f64(c);
	x.elapsed = rec_get_f64(c);
	x.cpu_error = recdec_str(d, c, t);
	x.mem_error = recdec_str(d, c, t);
	x.vm_error = recdec_str(d, c, t);
	x.disks_error = recdec_str(d, c, t);
	x.disks_note = recdec_str(d, c, t);
	x.net_error = recdec_str(d, c, t);
	x.procs_error = recdec_str(d, c, t);
	get_cpu(c, &x.total);
	nc = rec_get_count(c, 20);
	if (c->bad || nc > MAX_CPUS) {
		c->bad = true;
		return;
	}
	x.cpus = xcalloc(nc ? nc : 1, sizeof *x.cpus);
	x.ncpus = x.cpus_cap = nc;
	for (size_t i = 0; i < nc; i++)
		get_cpu(c, &x.cpus[i]);
	for (int i = 0; i < SYSTEM_MEM_NFIELDS; i++)
		x.mem.kib[i] = rec_get_u(c);
	get_whys(d, c, t, x.mem.why, SYSTEM_MEM_NFIELDS);
	get_f64s(c, x.vm.rate, SYSTEM_VM_NFIELDS);
	get_whys(d, c, t, x.vm.why, SYSTEM_VM_NFIELDS);
	get_f64s(c, x.misc.v, SYSTEM_MISC_NFIELDS);
	for (int i = 0; i < 3; i++)
		x.misc.count[i] = rec_get_u(c);
	get_whys(d, c, t, x.misc.why, SYSTEM_MISC_NFIELDS);
	get_disk(c, &x.disk_total);
	get_net(c, &x.net_total);
	if (x.rows && !c->bad) {
		/* the tables are decoded into copies: the old ones give the
		 * sparklines */
		struct frame_system old = *s;

		x.disks = NULL;
		x.nets = NULL;
		x.disks_cap = x.nets_cap = 0;
		memset(&x.irqs, 0, sizeof x.irqs);
		memset(&x.softirqs, 0, sizeof x.softirqs);
		x.procs = NULL;
		x.threads = NULL;
		x.procs_cap = x.threads_cap = 0;
		get_tables(d, c, t, &x);
		carry_hists(&old, &x, true);
		free(s->cpus);
		s->cpus = NULL;
		frame_system_free(s);
		*s = x;
		return;
	}
	carry_hists(s, &x, false);
	free(s->cpus);
	SWAP(*s, x);
}

/* Copy n elements of an array into *to (grown: *cap). */
static void *
copy_arr(void *to, size_t *cap, const void *from, size_t n, size_t size)
{
	to = grow(to, cap, n, size);
	if (n > 0)
		memcpy(to, from, n * size);
	return to;
}

/* An interrupts table into another. */
static void
copy_irqs(struct system_irqs *to, const struct system_irqs *from)
{
	to->cpus = copy_arr(to->cpus, &to->cpus_cap, from->cpus, from->ncpus, sizeof *to->cpus);
	to->ncpus = from->ncpus;
	to->rows = copy_arr(to->rows, &to->cap, from->rows, from->n, sizeof *to->rows);
	to->n = from->n;
	to->rates = copy_arr(to->rates, &to->rates_cap, from->rates, from->n * from->ncpus,
	                     sizeof *to->rates);
	to->error = from->error;
}

/* The system part into a frame. */
void
recdec_system_copy(const struct frame *from, struct frame *to)
{
	const struct frame_system *s = &from->system;
	struct frame_system *o = &to->system, keep = *o;

	*o = *s;
	o->cpus = copy_arr(keep.cpus, &keep.cpus_cap, s->cpus, s->ncpus, sizeof *o->cpus);
	o->cpus_cap = keep.cpus_cap;
	o->disks = copy_arr(keep.disks, &keep.disks_cap, s->disks, s->ndisks, sizeof *o->disks);
	o->disks_cap = keep.disks_cap;
	o->nets = copy_arr(keep.nets, &keep.nets_cap, s->nets, s->nnets, sizeof *o->nets);
	o->nets_cap = keep.nets_cap;
	o->procs = copy_arr(keep.procs, &keep.procs_cap, s->procs, s->nprocs, sizeof *o->procs);
	o->procs_cap = keep.procs_cap;
	o->threads =
	    copy_arr(keep.threads, &keep.threads_cap, s->threads, s->nthreads, sizeof *o->threads);
	o->threads_cap = keep.threads_cap;
	o->irqs = keep.irqs;
	o->softirqs = keep.softirqs;
	copy_irqs(&o->irqs, &s->irqs);
	copy_irqs(&o->softirqs, &s->softirqs);
}
