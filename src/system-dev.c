/* system-dev: the devices of the system source: block devices
 * (/proc/diskstats, partitions folded under their disk with /sys/class/block),
 * network interfaces (/proc/net/dev) and the interrupt and softirq tables
 * (/proc/interrupts, /proc/softirqs). */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system-impl.h"
#include "tracetop/util.h"

/* Bytes per sector in /proc/diskstats, whatever the device's. */
#define SECTOR_BYTES 512

/* Progress of a kernel counter: 0 when it went back (a reset). */
static uint64_t
dev_delta(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : 0;
}

/* Open the device files. */
void
sys_dev_open(struct system *s)
{
	char path[PATH_MAX];

	sys_file_open(&s->diskstats, s->proc, "diskstats");
	sys_file_open(&s->netdev, s->proc, "net/dev");
	sys_file_open(&s->irqs.file, s->proc, "interrupts");
	sys_file_open(&s->softirqs.file, s->proc, "softirqs");
	snprintf(path, sizeof path, "%s/class/block", s->sys);
	s->sys_block = access(path, F_OK) == 0;
}

/* ---- disks ---- */

/* Whether directory path has an entry (a stacked device's slaves). */
static bool
dir_has_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool any = false;

	if (d == NULL)
		return false;
	while (!any && (e = readdir(d)) != NULL)
		any = e->d_name[0] != '.';
	closedir(d);
	return any;
}

/* A new device's place from sysfs: a partition's disk (its directory's
 * parent), and whether it is stacked on others. false when sysfs does not
 * know the device (a container's /sys may lack it). */
static bool
disk_classify_sys(const struct system *s, struct sys_disk_state *d)
{
	char path[PATH_MAX], link[PATH_MAX], *slash;
	ssize_t n;

	snprintf(path, sizeof path, "%s/class/block/%s", s->sys, d->raw.name);
	if ((n = readlink(path, link, sizeof link - 1)) <= 0)
		return false;
	link[n] = '\0';
	snprintf(path, sizeof path, "%s/class/block/%s/partition", s->sys, d->raw.name);
	d->partition = access(path, F_OK) == 0;
	if (d->partition && (slash = strrchr(link, '/')) != NULL) {
		*slash = '\0';
		slash = strrchr(link, '/');
		snprintf(d->parent, sizeof d->parent, "%.*s", (int)sizeof d->parent - 1,
		         slash ? slash + 1 : link);
	}
	snprintf(path, sizeof path, "%s/class/block/%s/slaves", s->sys, d->raw.name);
	d->in_total = !d->partition && !dir_has_entries(path);
	return true;
}

/* Whether name is disk followed by a partition number: "sda1" of "sda",
 * "nvme0n1p2" of "nvme0n1" (a 'p' when the disk's name ends in a digit). */
static bool
partition_of(const char *name, const char *disk)
{
	size_t n = strlen(disk);
	const char *p = name + n;

	if (n == 0 || strncmp(name, disk, n) != 0 || *p == '\0')
		return false;
	if (disk[n - 1] >= '0' && disk[n - 1] <= '9' && *p++ != 'p')
		return false;
	if (*p == '\0')
		return false;
	for (; *p != '\0'; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* A new device's place without sysfs: by name, against the others. */
static void
disk_classify_name(struct sys_disk_state *d, const struct sys_disk_state *all, size_t n)
{
	static const char *const stacked[] = {"dm-", "md"};

	for (size_t i = 0; i < n; i++)
		if (&all[i] != d && partition_of(d->raw.name, all[i].raw.name) &&
		    strlen(all[i].raw.name) >= strlen(d->parent)) {
			d->partition = true;
			snprintf(d->parent, sizeof d->parent, "%s", all[i].raw.name);
		}
	d->in_total = !d->partition;
	for (size_t i = 0; i < ARRAY_SIZE(stacked); i++)
		d->in_total &= strncmp(d->raw.name, stacked[i], strlen(stacked[i])) != 0;
}

/* A disk's rates between two readings (old NULL: none yet). */
static void
disk_rates(struct system_disk *p, const struct sys_disk_raw *old, const struct sys_disk_raw *raw,
           double secs)
{
	uint64_t d[SYS_DISK_NFIELDS] = {0}, ios, ms;

	p->inflight = raw->f[SYS_DISK_INFLIGHT];
	p->used = raw->f[SYS_DISK_READS] + raw->f[SYS_DISK_WRITES] + raw->f[SYS_DISK_DISCARDS] > 0;
	if (old == NULL || secs <= 0) {
		p->reads_s = p->writes_s = p->read_bytes_s = p->write_bytes_s = NAN;
		p->await_ms = p->queue = p->util = NAN;
		p->read_bytes = p->write_bytes = 0;
		return;
	}
	for (unsigned k = 0; k < raw->nfields && k < old->nfields; k++)
		d[k] = dev_delta(old->f[k], raw->f[k]);
	p->reads_s = (double)d[SYS_DISK_READS] / secs;
	p->writes_s = (double)d[SYS_DISK_WRITES] / secs;
	p->read_bytes = d[SYS_DISK_READ_SECTORS] * SECTOR_BYTES;
	p->write_bytes = d[SYS_DISK_WRITE_SECTORS] * SECTOR_BYTES;
	p->read_bytes_s = (double)p->read_bytes / secs;
	p->write_bytes_s = (double)p->write_bytes / secs;
	/* as iostat's await: reads, writes and discards (not flushes) */
	ios = d[SYS_DISK_READS] + d[SYS_DISK_WRITES] + d[SYS_DISK_DISCARDS];
	ms = d[SYS_DISK_READ_MS] + d[SYS_DISK_WRITE_MS] + d[SYS_DISK_DISCARD_MS];
	p->await_ms = ios > 0 ? (double)ms / (double)ios : 0;
	p->queue = (double)d[SYS_DISK_WEIGHTED_MS] / (secs * 1000);
	p->util = (double)d[SYS_DISK_IO_MS] / (secs * 10);
	if (p->util > 100)
		p->util = 100;
}

/* Add disk p's interval into the total t. */
static void
disk_add(struct system_disk *t, const struct system_disk *p)
{
	t->reads_s += p->reads_s;
	t->writes_s += p->writes_s;
	t->read_bytes_s += p->read_bytes_s;
	t->write_bytes_s += p->write_bytes_s;
	t->read_bytes += p->read_bytes;
	t->write_bytes += p->write_bytes;
	t->inflight += p->inflight;
	t->used |= p->used;
	/* await weighted by I/Os; queue adds up; util is the busiest's */
	t->await_ms += p->await_ms * (p->reads_s + p->writes_s);
	t->queue += p->queue;
	t->util = p->util > t->util ? p->util : t->util;
}

/* The total of the disks counted in it (NaN while one is new). */
static void
disks_total(struct system *s, struct sys_disk_state *v, size_t n)
{
	struct system_disk *t = &s->now.disk_total;
	struct system_hist rh = t->read_hist, wh = t->write_hist;
	double ios;

	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "total");
	t->parent = -1;
	for (size_t i = 0; i < n; i++)
		if (v[i].in_total)
			disk_add(t, &v[i].pub);
	ios = t->reads_s + t->writes_s;
	t->await_ms = ios > 0 ? t->await_ms / ios : ios == 0 ? 0 : NAN;
	t->read_hist = rh;
	t->write_hist = wh;
	system_hist_push(&t->read_hist, t->read_bytes_s);
	system_hist_push(&t->write_hist, t->write_bytes_s);
}

/* Read /proc/diskstats into disks[cur] against disks[!cur]. */
static void
disks_tick(struct system *s, int cur, double secs)
{
	struct sys_disks_raw *raw = &s->draw;
	const struct sys_disk_state *prev = s->disks[!cur];
	struct sys_disk_state *v;
	size_t nprev = s->ndisks[!cur];

	s->ndisks[cur] = 0;
	if (sys_file_read(&s->diskstats) != 0)
		return;
	while (sys_parse_diskstats(s->diskstats.buf, s->diskstats.len, raw) == 0 &&
	       raw->n > raw->cap)
		sys_grow((void **)&raw->v, &raw->cap, raw->n, sizeof *raw->v);
	sys_grow((void **)&s->disks[cur], &s->disks_cap[cur], raw->n, sizeof *s->disks[cur]);
	v = s->disks[cur];
	for (size_t i = 0; i < raw->n; i++) {
		size_t j =
		    sys_find_name(prev, nprev, sizeof *prev,
		                  offsetof(struct sys_disk_state, raw.name), raw->v[i].name, i);
		const struct sys_disk_state *old = j < nprev &&
		                                           prev[j].raw.major == raw->v[i].major &&
		                                           prev[j].raw.minor == raw->v[i].minor
		                                       ? &prev[j]
		                                       : NULL;

		memset(&v[i], 0, sizeof v[i]);
		v[i].raw = raw->v[i];
		if (old != NULL) {
			memcpy(v[i].parent, old->parent, sizeof v[i].parent);
			v[i].partition = old->partition;
			v[i].in_total = old->in_total;
			v[i].classified = old->classified;
			v[i].by_name = old->by_name;
			v[i].pub.read_hist = old->pub.read_hist;
			v[i].pub.write_hist = old->pub.write_hist;
		} else {
			v[i].classified = disk_classify_sys(s, &v[i]);
		}
		snprintf(v[i].pub.name, sizeof v[i].pub.name, "%s", raw->v[i].name);
		disk_rates(&v[i].pub, old != NULL ? &old->raw : NULL, &raw->v[i], secs);
		system_hist_push(&v[i].pub.read_hist, v[i].pub.read_bytes_s);
		system_hist_push(&v[i].pub.write_hist, v[i].pub.write_bytes_s);
	}
	for (size_t i = 0; i < raw->n; i++)
		if (!v[i].classified) {
			disk_classify_name(&v[i], v, raw->n);
			v[i].classified = v[i].by_name = true;
		}
	s->disks_by_name = 0;
	for (size_t i = 0; i < raw->n; i++)
		s->disks_by_name += v[i].by_name;
	for (size_t i = 0; i < raw->n; i++) {
		size_t j = v[i].partition ? sys_find_name(v, raw->n, sizeof *v,
		                                          offsetof(struct sys_disk_state, raw.name),
		                                          v[i].parent, i ? i - 1 : 0)
		                          : raw->n;

		v[i].pub.parent = j < raw->n ? (int)j : -1;
		v[i].pub.in_total = v[i].in_total && strncmp(v[i].raw.name, "loop", 4) != 0;
		v[i].in_total = v[i].pub.in_total;
	}
	s->ndisks[cur] = raw->n;
	disks_total(s, v, raw->n);
}

/* ---- interfaces ---- */

/* An interface's rates between two readings (old NULL: none yet). */
static void
net_rates(struct system_net *p, const struct sys_net_raw *old, const struct sys_net_raw *raw,
          double secs)
{
	const uint64_t *f = raw->f;

	p->errors_all = f[SYS_NET_ERRS] + f[SYS_NET_TX + SYS_NET_ERRS];
	p->drops_all = f[SYS_NET_DROP] + f[SYS_NET_TX + SYS_NET_DROP];
	if (old == NULL || secs <= 0) {
		p->rx_bytes_s = p->tx_bytes_s = p->rx_packets_s = p->tx_packets_s = NAN;
		return;
	}
	p->rx_bytes = dev_delta(old->f[SYS_NET_BYTES], f[SYS_NET_BYTES]);
	p->tx_bytes = dev_delta(old->f[SYS_NET_TX + SYS_NET_BYTES], f[SYS_NET_TX + SYS_NET_BYTES]);
	p->rx_bytes_s = (double)p->rx_bytes / secs;
	p->tx_bytes_s = (double)p->tx_bytes / secs;
	p->rx_packets_s = (double)dev_delta(old->f[SYS_NET_PACKETS], f[SYS_NET_PACKETS]) / secs;
	p->tx_packets_s = (double)dev_delta(old->f[SYS_NET_TX + SYS_NET_PACKETS],
	                                    f[SYS_NET_TX + SYS_NET_PACKETS]) /
	                  secs;
	p->errors =
	    dev_delta(old->f[SYS_NET_ERRS] + old->f[SYS_NET_TX + SYS_NET_ERRS], p->errors_all);
	p->drops =
	    dev_delta(old->f[SYS_NET_DROP] + old->f[SYS_NET_TX + SYS_NET_DROP], p->drops_all);
}

/* The total of every interface but lo. */
static void
nets_total(struct system *s, const struct sys_net_state *v, size_t n)
{
	struct system_net *t = &s->now.net_total;
	struct system_hist rh = t->rx_hist, th = t->tx_hist;

	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "total");
	for (size_t i = 0; i < n; i++) {
		const struct system_net *p = &v[i].pub;

		if (strcmp(p->name, "lo") == 0)
			continue;
		t->rx_bytes_s += p->rx_bytes_s;
		t->tx_bytes_s += p->tx_bytes_s;
		t->rx_packets_s += p->rx_packets_s;
		t->tx_packets_s += p->tx_packets_s;
		t->rx_bytes += p->rx_bytes;
		t->tx_bytes += p->tx_bytes;
		t->errors += p->errors;
		t->drops += p->drops;
		t->errors_all += p->errors_all;
		t->drops_all += p->drops_all;
	}
	t->rx_hist = rh;
	t->tx_hist = th;
	system_hist_push(&t->rx_hist, t->rx_bytes_s);
	system_hist_push(&t->tx_hist, t->tx_bytes_s);
}

/* Read /proc/net/dev into nets[cur] against nets[!cur]. */
static void
nets_tick(struct system *s, int cur, double secs)
{
	struct sys_nets_raw *raw = &s->nraw;
	const struct sys_net_state *prev = s->nets[!cur];
	size_t nprev = s->nnets[!cur];

	s->nnets[cur] = 0;
	if (sys_file_read(&s->netdev) != 0)
		return;
	while (sys_parse_netdev(s->netdev.buf, s->netdev.len, raw) == 0 && raw->n > raw->cap)
		sys_grow((void **)&raw->v, &raw->cap, raw->n, sizeof *raw->v);
	sys_grow((void **)&s->nets[cur], &s->nets_cap[cur], raw->n, sizeof *s->nets[cur]);
	for (size_t i = 0; i < raw->n; i++) {
		struct sys_net_state *v = &s->nets[cur][i];
		size_t j = sys_find_name(prev, nprev, sizeof *prev, 0, raw->v[i].name, i);

		memset(v, 0, sizeof *v);
		v->raw = raw->v[i];
		if (j < nprev) {
			v->pub.rx_hist = prev[j].pub.rx_hist;
			v->pub.tx_hist = prev[j].pub.tx_hist;
		}
		snprintf(v->pub.name, sizeof v->pub.name, "%s", raw->v[i].name);
		net_rates(&v->pub, j < nprev ? &prev[j].raw : NULL, &raw->v[i], secs);
		system_hist_push(&v->pub.rx_hist, v->pub.rx_bytes_s);
		system_hist_push(&v->pub.tx_hist, v->pub.tx_bytes_s);
	}
	s->nnets[cur] = raw->n;
	nets_total(s, s->nets[cur], raw->n);
}

/* ---- interrupt tables ---- */

/* Parse the table's file into raw, growing its arrays until all fits. */
static int
irq_parse(struct sys_irq_state *t, struct sys_irqtab_raw *raw)
{
	while (sys_parse_irqtab(t->file.buf, t->file.len, raw) == 0) {
		if (sys_irqtab_fits(raw))
			return 0;
		sys_grow((void **)&raw->cpus, &raw->cpus_cap, raw->ncpus, sizeof *raw->cpus);
		sys_grow((void **)&raw->rows, &raw->rows_cap, raw->nrows, sizeof *raw->rows);
		sys_grow((void **)&raw->counts, &raw->counts_cap, raw->nrows * raw->ncpus,
		         sizeof *raw->counts);
	}
	return -1;
}

/* The column of CPU cpu in old, trying hint first; old->ncpus if none. */
static size_t
irq_column(const struct sys_irqtab_raw *old, int cpu, size_t hint)
{
	if (hint < old->ncpus && old->cpus[hint] == cpu)
		return hint;
	for (size_t k = 0; k < old->ncpus; k++)
		if (old->cpus[k] == cpu)
			return k;
	return old->ncpus;
}

/* Busiest first (new rows, NaN, last), then in the file's order. */
static int
irq_cmp(const void *pa, const void *pb)
{
	const struct system_irq *a = pa, *b = pb;
	double x = isnan(a->rate) ? -1 : a->rate, y = isnan(b->rate) ? -1 : b->rate;

	return x != y ? CMP3(y, x) : CMP3(a->at, b->at);
}

/* Row r of raw against its row in old (if any): counts and rates. */
static void
irq_rates(struct system_irqs *pub, const struct sys_irqtab_raw *raw,
          const struct sys_irqtab_raw *old, size_t r, double secs)
{
	struct system_irq *row = &pub->rows[r];
	size_t j = sys_find_name(old->rows, old->nrows, sizeof *old->rows, 0, raw->rows[r].name, r);

	memcpy(row->name, raw->rows[r].name, sizeof row->name);
	memcpy(row->desc, raw->rows[r].desc, sizeof row->desc);
	row->at = r * raw->ncpus;
	row->count = 0;
	row->rate = j < old->nrows && secs > 0 ? 0 : NAN;
	for (size_t c = 0; c < raw->ncpus; c++) {
		size_t k = j < old->nrows ? irq_column(old, raw->cpus[c], c) : old->ncpus;
		uint64_t d = k < old->ncpus ? dev_delta(old->counts[j * old->ncpus + k],
		                                        raw->counts[r * raw->ncpus + c])
		                            : 0;

		pub->rates[row->at + c] = k < old->ncpus && secs > 0 ? (double)d / secs : NAN;
		row->count += d;
	}
	if (system_known(row->rate))
		row->rate = (double)row->count / secs;
}

/* Read one interrupt table at now and compute its rates since its last
 * reading (a table read only while shown starts apart from the others). */
static void
irq_tick(struct sys_irq_state *t, uint64_t now)
{
	double secs = t->read_ns != 0 ? (double)(now - t->read_ns) / 1e9 : 0;
	int cur = !t->cur;
	struct sys_irqtab_raw *raw = &t->raw[cur], *old = &t->raw[t->cur];
	struct system_irqs *pub = &t->pub;

	pub->n = pub->ncpus = 0;
	pub->error = NULL;
	t->read_ns = 0;
	if (sys_file_read(&t->file) != 0) {
		pub->error = t->file.error;
		return;
	}
	if (irq_parse(t, raw) != 0) {
		char msg[256];

		snprintf(msg, sizeof msg, "%s has no title line of CPU columns", t->file.path);
		pub->error = str_intern(msg);
		return;
	}
	t->cur = cur;
	t->read_ns = now;
	sys_copy_array((void **)&pub->cpus, &pub->cpus_cap, raw->cpus, raw->ncpus,
	               sizeof *raw->cpus);
	pub->ncpus = raw->ncpus;
	sys_grow((void **)&pub->rows, &pub->cap, raw->nrows, sizeof *pub->rows);
	sys_grow((void **)&pub->rates, &pub->rates_cap, raw->nrows * raw->ncpus,
	         sizeof *pub->rates);
	for (size_t r = 0; r < raw->nrows; r++)
		irq_rates(pub, raw, old, r, secs);
	pub->n = raw->nrows;
	qsort(pub->rows, pub->n, sizeof *pub->rows, irq_cmp);
}

/* A table not read while no pane shows it: absent, and why; rates start
 * over when it is read again. */
static void
irq_off(struct sys_irq_state *t)
{
	t->pub.n = t->pub.ncpus = 0;
	t->pub.error = str_intern("not read while no pane shows it");
	t->read_ns = 0;
}

/* Copy an interrupt table into a frame's. */
static void
irq_copy(struct system_irqs *dst, const struct system_irqs *src)
{
	sys_copy_array((void **)&dst->cpus, &dst->cpus_cap, src->cpus, src->ncpus,
	               sizeof *src->cpus);
	dst->ncpus = src->ncpus;
	sys_copy_array((void **)&dst->rows, &dst->cap, src->rows, src->n, sizeof *src->rows);
	dst->n = src->n;
	sys_copy_array((void **)&dst->rates, &dst->rates_cap, src->rates, src->n * src->ncpus,
	               sizeof *src->rates);
	dst->error = src->error;
}

/* ---- the devices together ---- */

/* Read every device file. */
void
sys_dev_tick(struct system *s, double secs)
{
	int cur = !s->dev_cur;

	disks_tick(s, cur, secs);
	nets_tick(s, cur, secs);
	s->dev_cur = cur;
	if (s->irqs_on) {
		irq_tick(&s->irqs, s->last_ns);
		irq_tick(&s->softirqs, s->last_ns);
	} else {
		irq_off(&s->irqs);
		irq_off(&s->softirqs);
	}
}

/* The interrupt tables are read from now: a first reading, for rates at
 * the next. */
void
sys_irqs_start(struct system *s)
{
	uint64_t now = now_ns();

	irq_tick(&s->irqs, now);
	irq_tick(&s->softirqs, now);
}

/* The devices' totals into a frame part (its header). */
void
sys_dev_totals(struct system *s, struct frame_system *fs)
{
	fs->disk_total = s->now.disk_total;
	fs->disks_error = s->diskstats.error;
	fs->net_total = s->now.net_total;
	fs->net_error = s->netdev.error;
}

/* The devices into a frame part. */
void
sys_dev_snapshot(struct system *s, struct frame_system *fs)
{
	int cur = s->dev_cur;
	size_t n = s->ndisks[cur];

	sys_grow((void **)&fs->disks, &fs->disks_cap, n, sizeof *fs->disks);
	for (size_t i = 0; i < n; i++)
		fs->disks[i] = s->disks[cur][i].pub;
	fs->ndisks = n;
	fs->disks_note = s->disks_by_name == 0 ? NULL
	                 : s->sys_block ? "partitions told by name: /sys/class/block lacks some"
	                                : "partitions told by name: no /sys/class/block to ask";
	n = s->nnets[cur];
	sys_grow((void **)&fs->nets, &fs->nets_cap, n, sizeof *fs->nets);
	for (size_t i = 0; i < n; i++)
		fs->nets[i] = s->nets[cur][i].pub;
	fs->nnets = n;
	irq_copy(&fs->irqs, &s->irqs.pub);
	irq_copy(&fs->softirqs, &s->softirqs.pub);
}

/* Free one interrupt table. */
static void
irq_free(struct sys_irq_state *t)
{
	sys_file_close(&t->file);
	for (int i = 0; i < 2; i++) {
		free(t->raw[i].cpus);
		free(t->raw[i].rows);
		free(t->raw[i].counts);
	}
	free(t->pub.cpus);
	free(t->pub.rows);
	free(t->pub.rates);
}

/* Close the device files and free their state. */
void
sys_dev_free(struct system *s)
{
	sys_file_close(&s->diskstats);
	sys_file_close(&s->netdev);
	free(s->draw.v);
	free(s->nraw.v);
	for (int i = 0; i < 2; i++) {
		free(s->disks[i]);
		free(s->nets[i]);
	}
	irq_free(&s->irqs);
	irq_free(&s->softirqs);
}
