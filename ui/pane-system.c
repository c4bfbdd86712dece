/* pane-system: the machine as /proc and /sys show it, one section per
 * source of the system part of frames — CPU per CPU and total, memory,
 * paging, scheduling (context switches, forks, interrupts, tasks, load),
 * disks (partitions folded under their disk), network interfaces,
 * interrupts and softirqs by source (busiest first, per CPU) — with rates
 * per second and a sparkline of recent intervals, in the shared table.
 *
 * Sorting orders rows within their section (sections keep their order,
 * totals stay first, partitions stay under their disk). What cannot be
 * read is shown absent with its reason, never as 0. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/system.h"
#include "tracetop/util.h"
#include "ui/listpane.h"
#include "ui/meters.h"
#include "ui/tui.h"

enum sys_col { COL_SECTION, COL_NAME, COL_VALUE, COL_DETAIL, COL_HIST, COL_COUNT };

static const struct table_col sys_cols[COL_COUNT] = {
    [COL_SECTION] =
        {.title = "Section", .width = 8, .min_width = 4, .priority = 6, .sortable = true},
    [COL_NAME] = {.title = "Name", .width = 14, .min_width = 6, .priority = 9, .sortable = true},
    [COL_VALUE] = {.title = "Value",
                   .width = 12,
                   .min_width = 6,
                   .priority = 9,
                   .right = true,
                   .sortable = true},
    [COL_DETAIL] = {.title = "Detail", .width = 20, .min_width = 8, .priority = 5, .flex = true},
    [COL_HIST] = {.title = "History", .width = 16, .min_width = 8, .priority = 4},
};

/* The sections, in the order they are shown. */
enum sys_sect {
	SECT_CPU,
	SECT_MEM,
	SECT_PAGING,
	SECT_SCHED,
	SECT_DISK,
	SECT_NET,
	SECT_IRQ,
	SECT_SOFTIRQ,
	SECT_COUNT
};

static const char *const sect_names[SECT_COUNT] = {"CPU",  "Memory",  "Paging", "Sched",
                                                   "Disk", "Network", "IRQ",    "Softirq"};

/* No index: a section's total (CPUs, disks, interfaces) or its scalar. */
#define SYS_NONE SIZE_MAX

/* One line of the pane. */
struct sys_row {
	enum sys_sect sect;
	int field;      /* the field of memory, paging or sched; -1: the section is absent */
	size_t idx;     /* the CPU, disk, interface or source; SYS_NONE: a total */
	size_t order;   /* as built: the natural order */
	size_t group;   /* a partition: its disk's row order; else its own order */
	double key;     /* the Value column's number (NaN: absent or not yet) */
	double gkey;    /* the group's key: the disk's for a partition */
	bool partition; /* folded under its disk */
};

struct sys {
	struct listpane list; /* first: the listpane_pane_* ops take the pane as it */
	const struct frame_system *fs;
	struct sys_row *rows;
	const struct sys_row **ptrs;
	size_t n, cap;
	bool utf8;
};

/* Memory fields shown, in order. */
static const enum system_mem_field mem_rows[] = {
    SYSTEM_MEM_USED,   SYSTEM_MEM_AVAILABLE, SYSTEM_MEM_FREE,       SYSTEM_MEM_BUFFERS,
    SYSTEM_MEM_CACHED, SYSTEM_MEM_DIRTY,     SYSTEM_MEM_WRITEBACK,  SYSTEM_MEM_SHMEM,
    SYSTEM_MEM_SLAB,   SYSTEM_MEM_SWAP_USED, SYSTEM_MEM_SWAP_CACHED};
static const char *const mem_labels[SYSTEM_MEM_NFIELDS] = {[SYSTEM_MEM_USED] = "used",
                                                           [SYSTEM_MEM_AVAILABLE] = "available",
                                                           [SYSTEM_MEM_FREE] = "free",
                                                           [SYSTEM_MEM_BUFFERS] = "buffers",
                                                           [SYSTEM_MEM_CACHED] = "cached",
                                                           [SYSTEM_MEM_DIRTY] = "dirty",
                                                           [SYSTEM_MEM_WRITEBACK] = "writeback",
                                                           [SYSTEM_MEM_SHMEM] = "shmem",
                                                           [SYSTEM_MEM_SLAB] = "slab",
                                                           [SYSTEM_MEM_SWAP_USED] = "swap used",
                                                           [SYSTEM_MEM_SWAP_CACHED] =
                                                               "swap cached"};
static const char *const vm_labels[SYSTEM_VM_NFIELDS] = {
    [SYSTEM_VM_MINFLT] = "minor faults", [SYSTEM_VM_MAJFLT] = "major faults",
    [SYSTEM_VM_PGIN] = "paged in",       [SYSTEM_VM_PGOUT] = "paged out",
    [SYSTEM_VM_SWAPIN] = "swapped in",   [SYSTEM_VM_SWAPOUT] = "swapped out"};
static const char *const misc_labels[SYSTEM_MISC_NFIELDS] = {
    [SYSTEM_INTR] = "interrupts",       [SYSTEM_CTXT] = "ctx switches",
    [SYSTEM_FORKS] = "forks",           [SYSTEM_PROCS_RUNNING] = "running",
    [SYSTEM_PROCS_BLOCKED] = "blocked", [SYSTEM_TASKS] = "tasks",
    [SYSTEM_LOAD1] = "load average",    [SYSTEM_UPTIME] = "uptime"};

/* The reason a row is absent, or NULL. */
static const char *
sys_absent(const struct sys *p, const struct sys_row *r)
{
	const struct frame_system *fs = p->fs;
	static const size_t errs[SECT_COUNT] = {offsetof(struct frame_system, cpu_error),
	                                        offsetof(struct frame_system, mem_error),
	                                        offsetof(struct frame_system, vm_error),
	                                        offsetof(struct frame_system, cpu_error),
	                                        offsetof(struct frame_system, disks_error),
	                                        offsetof(struct frame_system, net_error),
	                                        offsetof(struct frame_system, irqs.error),
	                                        offsetof(struct frame_system, softirqs.error)};

	if (r->field < 0)
		return *(const char *const *)((const char *)fs + errs[r->sect]);
	switch (r->sect) {
	case SECT_MEM:
		return fs->mem.why[r->field];
	case SECT_PAGING:
		return fs->vm.why[r->field];
	case SECT_SCHED:
		return fs->misc.why[r->field];
	default:
		return NULL;
	}
}

/* Row r's disk, interface or CPU (NULL when the frame no longer has it). */
static const struct system_disk *
sys_disk(const struct sys *p, const struct sys_row *r)
{
	return r->idx == SYS_NONE       ? &p->fs->disk_total
	       : r->idx < p->fs->ndisks ? &p->fs->disks[r->idx]
	                                : NULL;
}

static const struct system_net *
sys_net(const struct sys *p, const struct sys_row *r)
{
	return r->idx == SYS_NONE      ? &p->fs->net_total
	       : r->idx < p->fs->nnets ? &p->fs->nets[r->idx]
	                               : NULL;
}

static const struct system_cpu *
sys_cpu(const struct sys *p, const struct sys_row *r)
{
	return r->idx == SYS_NONE      ? &p->fs->total
	       : r->idx < p->fs->ncpus ? &p->fs->cpus[r->idx]
	                               : NULL;
}

/* The interrupt table of a row. */
static const struct system_irqs *
sys_irqs(const struct sys *p, const struct sys_row *r)
{
	return r->sect == SECT_IRQ ? &p->fs->irqs : &p->fs->softirqs;
}

/* The number the Value column shows (NaN: absent or not yet). */
static double
sys_value(const struct sys *p, const struct sys_row *r)
{
	const struct frame_system *fs = p->fs;
	const struct system_disk *d;
	const struct system_net *n;
	const struct system_cpu *c;

	if (sys_absent(p, r) != NULL)
		return NAN;
	switch (r->sect) {
	case SECT_CPU:
		return (c = sys_cpu(p, r)) ? c->busy : NAN;
	case SECT_MEM:
		return (double)fs->mem.kib[r->field];
	case SECT_PAGING:
		return fs->vm.rate[r->field];
	case SECT_SCHED:
		return fs->misc.v[r->field];
	case SECT_DISK:
		return (d = sys_disk(p, r)) ? d->read_bytes_s + d->write_bytes_s : NAN;
	case SECT_NET:
		return (n = sys_net(p, r)) ? n->rx_bytes_s + n->tx_bytes_s : NAN;
	case SECT_IRQ:
	case SECT_SOFTIRQ:
		return r->idx < sys_irqs(p, r)->n ? sys_irqs(p, r)->rows[r->idx].rate : NAN;
	case SECT_COUNT:
		break;
	}
	return NAN;
}

/* The Name column. */
static void
sys_name(const struct sys *p, const struct sys_row *r, char *buf, size_t len)
{
	const char *name = "";
	const struct system_disk *d;
	const struct system_net *n;
	const struct system_cpu *c;
	char esc[96];

	if (r->field < 0) {
		snprintf(buf, len, "(absent)");
		return;
	}
	switch (r->sect) {
	case SECT_CPU:
		name = r->idx == SYS_NONE ? "all" : (c = sys_cpu(p, r)) ? c->name : "";
		break;
	case SECT_MEM:
		name = mem_labels[r->field];
		break;
	case SECT_PAGING:
		name = vm_labels[r->field];
		break;
	case SECT_SCHED:
		name = misc_labels[r->field];
		break;
	case SECT_DISK:
		name = r->idx == SYS_NONE ? "total" : (d = sys_disk(p, r)) ? d->name : "";
		break;
	case SECT_NET:
		name = r->idx == SYS_NONE ? "total" : (n = sys_net(p, r)) ? n->name : "";
		break;
	case SECT_IRQ:
	case SECT_SOFTIRQ:
		name = r->idx < sys_irqs(p, r)->n ? sys_irqs(p, r)->rows[r->idx].name : "";
		break;
	case SECT_COUNT:
		break;
	}
	str_escape(esc, sizeof esc, name, strlen(name));
	snprintf(buf, len, "%s%s", r->partition ? (p->utf8 ? "\u2514 " : "`-") : "", esc);
}

/* The Value column's text. */
static void
sys_value_text(const struct sys *p, const struct sys_row *r, char *buf, size_t len)
{
	double v = sys_value(p, r);

	if (sys_absent(p, r) != NULL) {
		snprintf(buf, len, "absent");
		return;
	}
	if (!system_known(v)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (r->sect) {
	case SECT_CPU:
		snprintf(buf, len, "%.1f%%", v);
		break;
	case SECT_MEM:
		meter_kib((uint64_t)v, buf, len);
		break;
	case SECT_PAGING:
		if (r->field == SYSTEM_VM_MINFLT || r->field == SYSTEM_VM_MAJFLT) {
			meter_rate(v, buf, len);
			strncat(buf, "/s", len - strlen(buf) - 1);
		} else {
			meter_bytes_rate(v * 1024, buf, len);
		}
		break;
	case SECT_SCHED:
		if (r->field == SYSTEM_UPTIME)
			meter_uptime(v, buf, len);
		else if (r->field >= SYSTEM_LOAD1 && r->field <= SYSTEM_LOAD15)
			snprintf(buf, len, "%.2f", v);
		else if (r->field <= SYSTEM_FORKS) {
			meter_rate(v, buf, len);
			strncat(buf, "/s", len - strlen(buf) - 1);
		} else
			snprintf(buf, len, "%.0f", v);
		break;
	case SECT_DISK:
	case SECT_NET:
		meter_bytes_rate(v, buf, len);
		break;
	case SECT_IRQ:
	case SECT_SOFTIRQ:
		meter_rate(v, buf, len);
		strncat(buf, "/s", len - strlen(buf) - 1);
		break;
	case SECT_COUNT:
		break;
	}
}

/* The per-CPU rates of an interrupt source: "0:12 1:30". */
static void
sys_irq_detail(const struct system_irqs *t, size_t i, char *buf, size_t len)
{
	char esc[SYS_IRQ_DESC * 4], rate[16];
	size_t o;

	str_escape(esc, sizeof esc, t->rows[i].desc, strlen(t->rows[i].desc));
	o = (size_t)snprintf(buf, len, "%s%s", esc, esc[0] ? "  " : "");
	for (size_t c = 0; c < t->ncpus && o < len; c++) {
		meter_rate(system_irq_cpu_rate(t, i, c), rate, sizeof rate);
		o += (size_t)snprintf(buf + o, len - o, "%scpu%d %s", c ? " " : "", t->cpus[c],
		                      rate);
	}
}

/* The Detail column: the rest of the row's numbers, or why it is absent. */
static void
sys_detail(const struct sys *p, const struct sys_row *r, char *buf, size_t len)
{
	const struct frame_system *fs = p->fs;
	const char *why = sys_absent(p, r);
	char a[24], b[24], c2[24], d2[24];

	if (why != NULL) {
		str_escape(buf, len, why, strlen(why));
		return;
	}
	switch (r->sect) {
	case SECT_CPU: {
		const struct system_cpu *c = sys_cpu(p, r);
		double s[METER_CPU_SEGS];

		if (c == NULL)
			break;
		meter_cpu_segs(c, s);
		snprintf(buf, len, "usr %.1f sys %.1f irq %.1f iowait %.1f steal %.1f",
		         s[METER_USER], s[METER_SYSTEM], s[METER_IRQ], s[METER_IOWAIT],
		         s[METER_STEAL]);
		break;
	}
	case SECT_MEM:
		if (fs->mem.why[SYSTEM_MEM_TOTAL] != NULL || fs->mem.kib[SYSTEM_MEM_TOTAL] == 0)
			break;
		if (r->field == SYSTEM_MEM_SWAP_USED) {
			if (fs->mem.why[SYSTEM_MEM_SWAP_TOTAL] == NULL) {
				meter_kib(fs->mem.kib[SYSTEM_MEM_SWAP_TOTAL], a, sizeof a);
				snprintf(buf, len, "of %s", a);
			}
		} else if (r->field != SYSTEM_MEM_SWAP_CACHED) {
			meter_kib(fs->mem.kib[SYSTEM_MEM_TOTAL], a, sizeof a);
			snprintf(buf, len, "%.1f%% of %s",
			         (double)fs->mem.kib[r->field] /
			             (double)fs->mem.kib[SYSTEM_MEM_TOTAL] * 100,
			         a);
		}
		break;
	case SECT_SCHED:
		if (r->field == SYSTEM_LOAD1)
			snprintf(buf, len, "5 min %.2f, 15 min %.2f", fs->misc.v[SYSTEM_LOAD5],
			         fs->misc.v[SYSTEM_LOAD15]);
		else if (r->field <= SYSTEM_FORKS)
			snprintf(buf, len, "%llu in the interval",
			         (unsigned long long)fs->misc.count[r->field]);
		break;
	case SECT_DISK: {
		const struct system_disk *d = sys_disk(p, r);

		if (d == NULL)
			break;
		meter_bytes_rate(d->read_bytes_s, a, sizeof a);
		meter_bytes_rate(d->write_bytes_s, b, sizeof b);
		meter_rate(d->reads_s, c2, sizeof c2);
		meter_rate(d->writes_s, d2, sizeof d2);
		snprintf(buf, len, "read %s  write %s  %s+%s io/s  util %.0f%%  await %.1f ms", a,
		         b, c2, d2, system_known(d->util) ? d->util : 0,
		         system_known(d->await_ms) ? d->await_ms : 0);
		break;
	}
	case SECT_NET: {
		const struct system_net *n = sys_net(p, r);

		if (n == NULL)
			break;
		meter_bytes_rate(n->rx_bytes_s, a, sizeof a);
		meter_bytes_rate(n->tx_bytes_s, b, sizeof b);
		meter_rate(n->rx_packets_s, c2, sizeof c2);
		meter_rate(n->tx_packets_s, d2, sizeof d2);
		snprintf(buf, len, "rx %s  tx %s  pkts %s/%s  errs %llu drops %llu", a, b, c2, d2,
		         (unsigned long long)n->errors_all, (unsigned long long)n->drops_all);
		break;
	}
	case SECT_IRQ:
	case SECT_SOFTIRQ:
		if (r->idx < sys_irqs(p, r)->n)
			sys_irq_detail(sys_irqs(p, r), r->idx, buf, len);
		break;
	default:
		break;
	}
}

/* The row's history rings (NULL: none), a second one added to the first. */
static const struct system_hist *
sys_hist(const struct sys *p, const struct sys_row *r, const struct system_hist **plus)
{
	const struct frame_system *fs = p->fs;
	const struct system_disk *d;
	const struct system_net *n;
	const struct system_cpu *c;

	*plus = NULL;
	if (sys_absent(p, r) != NULL)
		return NULL;
	switch (r->sect) {
	case SECT_CPU:
		return (c = sys_cpu(p, r)) ? &c->busy_hist : NULL;
	case SECT_MEM:
		return r->field == SYSTEM_MEM_USED        ? &fs->mem.used_hist
		       : r->field == SYSTEM_MEM_SWAP_USED ? &fs->mem.swap_hist
		                                          : NULL;
	case SECT_PAGING:
		return r->field == SYSTEM_VM_MAJFLT ? &fs->vm.majflt_hist : NULL;
	case SECT_SCHED:
		return r->field == SYSTEM_CTXT    ? &fs->misc.ctxt_hist
		       : r->field == SYSTEM_FORKS ? &fs->misc.forks_hist
		       : r->field == SYSTEM_INTR  ? &fs->misc.intr_hist
		       : r->field == SYSTEM_LOAD1 ? &fs->misc.load_hist
		                                  : NULL;
	case SECT_DISK:
		if ((d = sys_disk(p, r)) == NULL)
			return NULL;
		*plus = &d->write_hist;
		return &d->read_hist;
	case SECT_NET:
		if ((n = sys_net(p, r)) == NULL)
			return NULL;
		*plus = &n->tx_hist;
		return &n->rx_hist;
	default:
		return NULL;
	}
}

/* Cell text. */
static void
sys_cell(const void *row, size_t col, char *buf, size_t len, void *ctx)
{
	const struct sys_row *r = row;
	const struct sys *p = ctx;
	const struct system_hist *h, *plus;

	buf[0] = '\0';
	switch ((enum sys_col)col) {
	case COL_SECTION:
		snprintf(buf, len, "%s", sect_names[r->sect]);
		break;
	case COL_NAME:
		sys_name(p, r, buf, len);
		break;
	case COL_VALUE:
		sys_value_text(p, r, buf, len);
		break;
	case COL_DETAIL:
		sys_detail(p, r, buf, len);
		break;
	case COL_HIST:
		if ((h = sys_hist(p, r, &plus)) != NULL)
			meter_sparkline(h, plus, sys_cols[COL_HIST].width, p->utf8, buf, len);
		break;
	case COL_COUNT:
		break;
	}
}

/* Order within a section by a column; sections, totals and disks before
 * their partitions keep their places whatever the direction. */
static int
sys_compare(const void *pa, const void *pb, size_t col, void *ctx)
{
	const struct sys_row *a = pa, *b = pb;
	const struct sys *p = ctx;
	int flip = p->list.table.descending ? -1 : 1, c = 0;
	char na[96], nb[96];

	if (a->sect != b->sect)
		return flip * CMP3(a->sect, b->sect);
	if ((a->idx == SYS_NONE) != (b->idx == SYS_NONE) && a->field >= 0 && b->field >= 0 &&
	    (a->sect == SECT_CPU || a->sect == SECT_DISK || a->sect == SECT_NET))
		return flip * (a->idx == SYS_NONE ? -1 : 1);
	if (a->group != b->group) {
		/* rows of different disks: by the disks' keys */
		switch ((enum sys_col)col) {
		case COL_VALUE: {
			double x = system_known(a->gkey) ? a->gkey : -INFINITY,
			       y = system_known(b->gkey) ? b->gkey : -INFINITY;

			c = CMP3(x, y);
			break;
		}
		case COL_NAME: {
			const struct sys_row *ga = a->partition ? &p->rows[a->group] : a,
			                     *gb = b->partition ? &p->rows[b->group] : b;

			sys_name(p, ga, na, sizeof na);
			sys_name(p, gb, nb, sizeof nb);
			c = strcmp(na, nb);
			break;
		}
		default:
			break;
		}
		return c != 0 ? c : CMP3(a->group, b->group);
	}
	/* a disk and its partitions */
	if (a->partition != b->partition)
		return flip * (a->partition ? 1 : -1);
	return CMP3(a->order, b->order);
}

/* Identity across refreshes: section, field and name. */
static uintptr_t
sys_row_id(const void *row, void *ctx)
{
	const struct sys_row *r = row;
	char name[96];
	uint64_t h = 1469598103934665603ULL;

	sys_name(ctx, r, name, sizeof name);
	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (uintptr_t)hash_u64(h ^ ((uint64_t)r->sect << 56) ^
	                           ((uint64_t)(r->field + 1) << 48));
}

/* Filter and search over the section, the name and the detail. */
static bool
sys_match(const void *row, const char *text, void *ctx)
{
	const struct sys_row *r = row;
	char buf[512];

	if (strcasestr(sect_names[r->sect], text) != NULL)
		return true;
	sys_name(ctx, r, buf, sizeof buf);
	if (strcasestr(buf, text) != NULL)
		return true;
	sys_detail(ctx, r, buf, sizeof buf);
	return strcasestr(buf, text) != NULL;
}

/* Absent rows dimmed, sparklines in the bar colour. */
static attr_t
sys_cell_attr(const void *row, size_t col, const struct theme *th, void *ctx)
{
	if (sys_absent(ctx, row) != NULL && (col == COL_VALUE || col == COL_DETAIL))
		return th->attr[TH_DIM];
	return col == COL_HIST ? th->attr[TH_BAR] : 0;
}

static const struct table_ops sys_table_ops = {
    .cell = sys_cell,
    .compare = sys_compare,
    .row_id = sys_row_id,
    .match = sys_match,
    .cell_attr = sys_cell_attr,
};

/* Create the pane. */
static void *
sys_init(struct tui *t)
{
	struct sys *p = xcalloc(1, sizeof *p);

	p->utf8 = t->theme.utf8;
	table_init(&p->list.table, sys_cols, COL_COUNT, &sys_table_ops, p);
	table_sort_by(&p->list.table, COL_SECTION, false);
	return p;
}

/* Free the pane. */
static void
sys_free(void *pp)
{
	struct sys *p = pp;

	table_free(&p->list.table);
	free(p->rows);
	free(p->ptrs);
	free(p);
}

/* Append a row. */
static struct sys_row *
sys_add(struct sys *p, enum sys_sect sect, int field, size_t idx)
{
	struct sys_row *r;

	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 64;
		p->rows = xrealloc(p->rows, p->cap * sizeof *p->rows);
	}
	r = &p->rows[p->n];
	*r = (struct sys_row){
	    .sect = sect, .field = field, .idx = idx, .order = p->n, .group = p->n};
	p->n++;
	return r;
}

/* The rows of the sections with tables: disks, interfaces, interrupts. */
static void
sys_add_tables(struct sys *p, const struct frame_system *fs)
{
	size_t first = p->n;

	if (fs->disks_error != NULL)
		sys_add(p, SECT_DISK, -1, SYS_NONE);
	else
		sys_add(p, SECT_DISK, 0, SYS_NONE);
	for (size_t i = 0; fs->disks_error == NULL && i < fs->ndisks; i++) {
		const struct system_disk *d = &fs->disks[i];
		struct sys_row *r;

		if (!d->used)
			continue; /* never did I/O (unused loop devices, empty drives) */
		r = sys_add(p, SECT_DISK, 0, i);
		if (d->parent >= 0) {
			/* the disk's row: the last one added for it */
			for (size_t k = p->n - 1; k-- > first;)
				if (p->rows[k].idx == (size_t)d->parent) {
					r->group = p->rows[k].group;
					r->partition = true;
					break;
				}
		}
	}
	sys_add(p, SECT_NET, fs->net_error != NULL ? -1 : 0, SYS_NONE);
	for (size_t i = 0; fs->net_error == NULL && i < fs->nnets; i++)
		sys_add(p, SECT_NET, 0, i);
	if (fs->irqs.error != NULL)
		sys_add(p, SECT_IRQ, -1, SYS_NONE);
	for (size_t i = 0; fs->irqs.error == NULL && i < fs->irqs.n; i++)
		sys_add(p, SECT_IRQ, 0, i);
	if (fs->softirqs.error != NULL)
		sys_add(p, SECT_SOFTIRQ, -1, SYS_NONE);
	for (size_t i = 0; fs->softirqs.error == NULL && i < fs->softirqs.n; i++)
		sys_add(p, SECT_SOFTIRQ, 0, i);
}

/* A refresh: one row per CPU, field, device and source. */
static void
sys_update(void *pp, struct tui *t, const struct frame *f)
{
	struct sys *p = pp;
	const struct frame_system *fs = &f->system;

	(void)t;
	p->fs = fs;
	p->n = 0;
	if (fs->cpu_error != NULL) {
		sys_add(p, SECT_CPU, -1, SYS_NONE);
	} else {
		sys_add(p, SECT_CPU, 0, SYS_NONE);
		for (size_t i = 0; i < fs->ncpus; i++)
			sys_add(p, SECT_CPU, 0, i);
	}
	if (fs->mem_error != NULL)
		sys_add(p, SECT_MEM, -1, SYS_NONE);
	for (size_t i = 0; fs->mem_error == NULL && i < ARRAY_SIZE(mem_rows); i++)
		sys_add(p, SECT_MEM, (int)mem_rows[i], SYS_NONE);
	if (fs->vm_error != NULL)
		sys_add(p, SECT_PAGING, -1, SYS_NONE);
	for (int i = 0; fs->vm_error == NULL && i < SYSTEM_VM_NFIELDS; i++)
		sys_add(p, SECT_PAGING, i, SYS_NONE);
	for (int i = 0; i < SYSTEM_MISC_NFIELDS; i++)
		if (misc_labels[i] != NULL)
			sys_add(p, SECT_SCHED, i, SYS_NONE);
	sys_add_tables(p, fs);
	for (size_t i = 0; i < p->n; i++)
		p->rows[i].key = sys_value(p, &p->rows[i]);
	for (size_t i = 0; i < p->n; i++)
		p->rows[i].gkey = p->rows[p->rows[i].group].key;
	if (p->n > 0)
		p->ptrs = xrealloc(p->ptrs, p->cap * sizeof *p->ptrs);
	for (size_t i = 0; i < p->n; i++)
		p->ptrs[i] = &p->rows[i];
	table_set_rows(&p->list.table, (const void *const *)p->ptrs, p->n);
}

/* The title line and the table. */
static void
sys_draw(void *pp, struct tui *t, WINDOW *win, int y, int x, int h, int w)
{
	struct sys *p = pp;
	char line[256], note[160] = "";

	if (h < 2)
		return;
	if (p->fs == NULL) {
		listpane_message(win, y + h / 2, x, w,
		                 t->system != NULL ? "Reading /proc... (values after one refresh)"
		                                   : "The system source is not running",
		                 &t->theme);
		return;
	}
	if (p->fs->disks_note != NULL)
		str_escape(note, sizeof note, p->fs->disks_note, strlen(p->fs->disks_note));
	snprintf(line, sizeof line,
	         "Rates per second over %.1fs; history of the last %d intervals%s%s", p->fs->secs,
	         SYSTEM_HISTORY, note[0] ? "  " : "", note);
	listpane_draw_titled(&p->list, win, y, x, h, w, line, &t->theme);
}

/* Read the interrupt tables only while the pane is seen (a recording
 * reads them throughout); seen again, the screen shows their first
 * reading at once, rates from the next refresh. */
static void
sys_show(void *pp, struct tui *t, bool shown)
{
	bool on = shown || t->opts->record != NULL;

	(void)pp;
	if (t->system == NULL || system_irqs_on(t->system) == on)
		return;
	system_set_irqs(t->system, on);
	if (on && !t->frozen)
		tui_snapshot(t);
}

const struct pane_ops pane_system = {
    .name = "System",
    .listpane = true,
    .scope = SCOPE_TABLE,
    .view = VIEW_SYSTEM,
    .reads = PANE_READS_SYSTEM,
    .init = sys_init,
    .free = sys_free,
    .show = sys_show,
    .update = sys_update,
    .draw = sys_draw,
    .action = listpane_pane_action,
    .mouse = listpane_pane_mouse,
    .prompt = listpane_pane_prompt,
    .menu = listpane_pane_menu,
};
