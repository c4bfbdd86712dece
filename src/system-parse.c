/* system-parse: the /proc files of the system source, parsed from a buffer
 * without allocation (see the header for the conventions). */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tracetop/system-parse.h"
#include "tracetop/util.h"

/* A read position in a buffer. */
struct cur {
	const char *p, *end;
};

/* The next line of c as [*ls, *le), newline left out; false at the end. */
static bool
next_line(struct cur *c, const char **ls, const char **le)
{
	const char *nl;

	if (c->p >= c->end)
		return false;
	*ls = c->p;
	nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	*le = nl != NULL ? nl : c->end;
	c->p = nl != NULL ? nl + 1 : c->end;
	return true;
}

/* Whether ch is a blank between fields. */
static bool
is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* p moved past blanks, not beyond end. */
static const char *
skip_blanks(const char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

/* Whether ch is a decimal digit (not isdigit: no locale, no int promotion). */
static bool
is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* After blanks, a decimal number at *pp (saturating at UINT64_MAX); *pp
 * moves past it. false, *pp unmoved, when there is no digit. */
static bool
num_u64(const char **pp, const char *end, uint64_t *v)
{
	const char *p = skip_blanks(*pp, end);
	uint64_t n = 0;

	if (p >= end || !is_digit(*p))
		return false;
	for (; p < end && is_digit(*p); p++) {
		uint64_t d = (uint64_t)(*p - '0');

		n = n > (UINT64_MAX - d) / 10 ? UINT64_MAX : n * 10 + d;
	}
	*v = n;
	*pp = p;
	return true;
}

/* A number that may have a minus sign (saturating at INT64_MIN/MAX). */
static bool
num_i64(const char **pp, const char *end, int64_t *v)
{
	const char *p = skip_blanks(*pp, end);
	bool neg = p < end && *p == '-';
	uint64_t u;

	p += neg;
	if (!num_u64(&p, end, &u))
		return false;
	if (neg)
		*v = u > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)u;
	else
		*v = u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
	*pp = p;
	return true;
}

/* A decimal like "10727.17" (no locale: LC_NUMERIC may want a comma). */
static bool
num_dec(const char **pp, const char *end, double *v)
{
	const char *p = *pp;
	uint64_t whole, frac = 0;
	double scale = 1;

	if (!num_u64(&p, end, &whole))
		return false;
	if (p < end && *p == '.')
		for (p++; p < end && is_digit(*p); p++)
			if (scale < 1e15) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				scale *= 10;
			}
	*v = (double)whole + (double)frac / scale;
	*pp = p;
	return true;
}

/* Copy [s, e) into dst (room for len), cut, NUL-terminated. */
static void
copy_name(char *dst, size_t len, const char *s, const char *e)
{
	size_t n = (size_t)(e - s);

	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* Whether the line [ls, le) starts with the word w followed by a blank. */
static bool
word_is(const char *ls, const char *le, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(le - ls) > n && memcmp(ls, w, n) == 0 && is_blank(ls[n]);
}

/* ---- /proc/stat ---- */

/* The numbers of a cpu line from p on into c. */
static void
stat_cpu_line(const char *p, const char *le, struct sys_cpu_raw *c, int cpu)
{
	c->cpu = cpu;
	c->nfields = 0;
	while (c->nfields < SYS_CPU_NFIELDS && num_u64(&p, le, &c->t[c->nfields]))
		c->nfields++;
	memset(c->t + c->nfields, 0, (SYS_CPU_NFIELDS - c->nfields) * sizeof c->t[0]);
}

/* The single-number lines of /proc/stat: their names and have bits. */
static const struct {
	const char *word;
	unsigned bit;
	size_t off;
} stat_words[] = {
    {"intr", SYS_STAT_INTR, offsetof(struct sys_stat_raw, intr)},
    {"ctxt", SYS_STAT_CTXT, offsetof(struct sys_stat_raw, ctxt)},
    {"btime", SYS_STAT_BTIME, offsetof(struct sys_stat_raw, btime)},
    {"processes", SYS_STAT_PROCESSES, offsetof(struct sys_stat_raw, processes)},
    {"procs_running", SYS_STAT_RUNNING, offsetof(struct sys_stat_raw, running)},
    {"procs_blocked", SYS_STAT_BLOCKED, offsetof(struct sys_stat_raw, blocked)},
};

/* One line of /proc/stat into out. */
static void
stat_line(const char *ls, const char *le, struct sys_stat_raw *out)
{
	const char *p = ls + 3;
	uint64_t id;

	if (le - ls >= 4 && memcmp(ls, "cpu", 3) == 0) {
		if (is_blank(*p) && !(out->have & SYS_STAT_TOTAL)) {
			stat_cpu_line(p, le, &out->total, -1);
			out->have |= SYS_STAT_TOTAL;
		} else if (is_digit(*p) && num_u64(&p, le, &id) && id <= INT32_MAX && p < le &&
		           is_blank(*p)) {
			if (out->ncpus < out->cap)
				stat_cpu_line(p, le, &out->cpus[out->ncpus], (int)id);
			out->ncpus++;
		}
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(stat_words); i++) {
		p = ls + strlen(stat_words[i].word);
		if (word_is(ls, le, stat_words[i].word) &&
		    num_u64(&p, le, (uint64_t *)((char *)out + stat_words[i].off))) {
			out->have |= stat_words[i].bit;
			return;
		}
	}
}

/* Parse /proc/stat. */
int
sys_parse_stat(const char *buf, size_t len, struct sys_stat_raw *out)
{
	struct cur c = {buf, buf + len};
	const char *ls, *le;

	out->ncpus = 0;
	out->have = 0;
	memset(&out->total, 0, sizeof out->total);
	out->total.cpu = -1;
	while (next_line(&c, &ls, &le))
		stat_line(ls, le, out);
	return (out->have & SYS_STAT_TOTAL) || out->ncpus > 0 ? 0 : -1;
}

/* Ticks running something. */
uint64_t
sys_cpu_busy(const struct sys_cpu_raw *c)
{
	return c->t[SYS_CPU_USER] + c->t[SYS_CPU_NICE] + c->t[SYS_CPU_SYSTEM] + c->t[SYS_CPU_IRQ] +
	       c->t[SYS_CPU_SOFTIRQ];
}

/* Ticks in all (guest time is already in user and nice). */
uint64_t
sys_cpu_all(const struct sys_cpu_raw *c)
{
	return sys_cpu_busy(c) + c->t[SYS_CPU_IDLE] + c->t[SYS_CPU_IOWAIT] + c->t[SYS_CPU_STEAL];
}

/* ---- keyed files ---- */

/* Find the keys in "KEY<':' or blank>VALUE" lines. */
unsigned
sys_parse_keyed(const char *buf, size_t len, const char *const *keys, unsigned n, uint64_t *vals,
                uint32_t *have)
{
	struct cur c = {buf, buf + len};
	const char *ls, *le;
	unsigned found = 0;

	*have = 0;
	while (next_line(&c, &ls, &le) && found < n) {
		const char *k = ls, *p;

		while (k < le && *k != ':' && !is_blank(*k))
			k++;
		for (unsigned i = 0; i < n; i++) {
			if (strlen(keys[i]) != (size_t)(k - ls) ||
			    memcmp(keys[i], ls, (size_t)(k - ls)))
				continue;
			p = k < le && *k == ':' ? k + 1 : k;
			if (!(*have & (1u << i)) && num_u64(&p, le, &vals[i])) {
				*have |= 1u << i;
				found++;
			}
			break;
		}
	}
	return found;
}

static const char *const meminfo_keys[SYS_MEM_NKEYS] = {
    [SYS_MEM_TOTAL] = "MemTotal",
    [SYS_MEM_FREE] = "MemFree",
    [SYS_MEM_AVAILABLE] = "MemAvailable",
    [SYS_MEM_BUFFERS] = "Buffers",
    [SYS_MEM_CACHED] = "Cached",
    [SYS_MEM_SWAP_CACHED] = "SwapCached",
    [SYS_MEM_SRECLAIMABLE] = "SReclaimable",
    [SYS_MEM_SHMEM] = "Shmem",
    [SYS_MEM_SLAB] = "Slab",
    [SYS_MEM_DIRTY] = "Dirty",
    [SYS_MEM_WRITEBACK] = "Writeback",
    [SYS_MEM_SWAP_TOTAL] = "SwapTotal",
    [SYS_MEM_SWAP_FREE] = "SwapFree",
};

/* A meminfo key's name. */
const char *
sys_meminfo_key(enum sys_mem_key k)
{
	return k < SYS_MEM_NKEYS ? meminfo_keys[k] : "?";
}

/* Zero the n values, then find the keys: 0, or -1 when none was there. */
static int
keyed_some(const char *buf, size_t len, const char *const *keys, unsigned n, uint64_t *vals,
           uint32_t *have)
{
	memset(vals, 0, n * sizeof *vals);
	return sys_parse_keyed(buf, len, keys, n, vals, have) > 0 ? 0 : -1;
}

/* Parse /proc/meminfo. */
int
sys_parse_meminfo(const char *buf, size_t len, struct sys_meminfo_raw *out)
{
	return keyed_some(buf, len, meminfo_keys, SYS_MEM_NKEYS, out->kib, &out->have);
}

static const char *const vmstat_keys[SYS_VM_NKEYS] = {
    [SYS_VM_PGFAULT] = "pgfault", [SYS_VM_PGMAJFAULT] = "pgmajfault", [SYS_VM_PGPGIN] = "pgpgin",
    [SYS_VM_PGPGOUT] = "pgpgout", [SYS_VM_PSWPIN] = "pswpin",         [SYS_VM_PSWPOUT] = "pswpout",
};

/* A vmstat counter's name. */
const char *
sys_vmstat_key(enum sys_vm_key k)
{
	return k < SYS_VM_NKEYS ? vmstat_keys[k] : "?";
}

/* Parse /proc/vmstat. */
int
sys_parse_vmstat(const char *buf, size_t len, struct sys_vmstat_raw *out)
{
	return keyed_some(buf, len, vmstat_keys, SYS_VM_NKEYS, out->v, &out->have);
}

/* Parse the context switch lines of /proc/PID/status. */
int
sys_parse_pid_status(const char *buf, size_t len, struct sys_pid_status *out)
{
	static const char *const keys[] = {"voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"};
	uint64_t v[2] = {0, 0};
	uint32_t have;

	out->have = sys_parse_keyed(buf, len, keys, 2, v, &have) == 2;
	out->vcs = v[0];
	out->nvcs = v[1];
	return out->have ? 0 : -1;
}

/* Parse "RUN_NS WAIT_NS SLICES". */
int
sys_parse_pid_schedstat(const char *buf, size_t len, struct sys_pid_schedstat *out)
{
	const char *p = buf, *end = buf + len;

	return num_u64(&p, end, &out->run_ns) && num_u64(&p, end, &out->wait_ns) &&
	               num_u64(&p, end, &out->slices)
	           ? 0
	           : -1;
}

/* ---- loadavg, uptime ---- */

/* Parse "L1 L5 L15 RUNNING/TOTAL LASTPID". */
int
sys_parse_loadavg(const char *buf, size_t len, struct sys_loadavg_raw *out)
{
	const char *p = buf, *end = buf + len;

	memset(out, 0, sizeof *out);
	for (int i = 0; i < 3; i++)
		if (!num_dec(&p, end, &out->load[i]))
			return -1;
	if (!num_u64(&p, end, &out->running) || p >= end || *p != '/')
		return -1;
	p++;
	return num_u64(&p, end, &out->total) ? 0 : -1;
}

/* Parse "UP IDLE". */
int
sys_parse_uptime(const char *buf, size_t len, double *up, double *idle)
{
	const char *p = buf, *end = buf + len;

	return num_dec(&p, end, up) && num_dec(&p, end, idle) ? 0 : -1;
}

/* ---- diskstats ---- */

/* Parse "MAJOR MINOR NAME F1 ... F17" lines. */
int
sys_parse_diskstats(const char *buf, size_t len, struct sys_disks_raw *out)
{
	struct cur c = {buf, buf + len};
	const char *ls, *le;

	out->n = 0;
	while (next_line(&c, &ls, &le)) {
		struct sys_disk_raw d = {0};
		const char *p = ls, *ns;
		uint64_t maj, min;

		if (!num_u64(&p, le, &maj) || !num_u64(&p, le, &min) || maj > UINT32_MAX ||
		    min > UINT32_MAX)
			continue;
		ns = p = skip_blanks(p, le);
		while (p < le && !is_blank(*p))
			p++;
		if (p == ns)
			continue;
		copy_name(d.name, sizeof d.name, ns, p);
		while (d.nfields < SYS_DISK_NFIELDS && num_u64(&p, le, &d.f[d.nfields]))
			d.nfields++;
		if (d.nfields < SYS_DISK_MIN_FIELDS)
			continue;
		d.major = (unsigned)maj;
		d.minor = (unsigned)min;
		if (out->n < out->cap)
			out->v[out->n] = d;
		out->n++;
	}
	return 0;
}

/* ---- net/dev ---- */

/* Parse "  NAME: RX... TX..." lines (the title lines have no such shape). */
int
sys_parse_netdev(const char *buf, size_t len, struct sys_nets_raw *out)
{
	struct cur c = {buf, buf + len};
	const char *ls, *le;

	out->n = 0;
	while (next_line(&c, &ls, &le)) {
		const char *ns = skip_blanks(ls, le), *colon = memchr(ns, ':', (size_t)(le - ns));
		const char *p;
		struct sys_net_raw r;
		int i;

		if (colon == NULL || colon == ns)
			continue;
		p = colon + 1;
		for (i = 0; i < SYS_NET_NFIELDS && num_u64(&p, le, &r.f[i]); i++)
			;
		if (i < SYS_NET_NFIELDS)
			continue; /* a title line, or a cut one */
		copy_name(r.name, sizeof r.name, ns, colon);
		if (out->n < out->cap)
			out->v[out->n] = r;
		out->n++;
	}
	return 0;
}

/* ---- interrupts, softirqs ---- */

/* Whether every row and count parsed was stored. */
bool
sys_irqtab_fits(const struct sys_irqtab_raw *t)
{
	return t->ncpus <= t->cpus_cap && t->nrows <= t->rows_cap &&
	       (t->ncpus == 0 || t->nrows <= t->counts_cap / t->ncpus);
}

/* The title line's CPU columns ("CPU0 CPU1 ..."); false when it has none. */
static bool
irq_title(const char *ls, const char *le, struct sys_irqtab_raw *out)
{
	const char *p = ls;
	uint64_t id;

	out->ncpus = 0;
	for (;;) {
		p = skip_blanks(p, le);
		if (le - p < 4 || memcmp(p, "CPU", 3) != 0)
			break;
		p += 3;
		if (!num_u64(&p, le, &id) || id > INT32_MAX)
			break;
		if (out->ncpus < out->cpus_cap)
			out->cpus[out->ncpus] = (int)id;
		out->ncpus++;
	}
	return out->ncpus > 0 && skip_blanks(p, le) == le;
}

/* Copy the description [p, le) into dst with runs of blanks as one space. */
static void
irq_desc(char *dst, size_t len, const char *p, const char *le)
{
	size_t n = 0;

	p = skip_blanks(p, le);
	while (p < le && n + 1 < len) {
		if (is_blank(*p)) {
			p = skip_blanks(p, le);
			if (p < le)
				dst[n++] = ' ';
			continue;
		}
		dst[n++] = *p++;
	}
	dst[n] = '\0';
}

/* One "NAME: COUNT... DESCRIPTION" row. */
static void
irq_row(const char *ls, const char *le, struct sys_irqtab_raw *out)
{
	const char *ns = skip_blanks(ls, le), *p = ns;
	bool store = out->nrows < out->rows_cap && out->ncpus <= out->cpus_cap &&
	             out->nrows < out->counts_cap / (out->ncpus ? out->ncpus : 1);
	struct sys_irq_raw r = {.ncounts = 0};
	uint64_t v;

	while (p < le && *p != ':' && !is_blank(*p))
		p++;
	if (p == ns || p >= le || *p != ':')
		return;
	copy_name(r.name, sizeof r.name, ns, p);
	p++;
	while (r.ncounts < out->ncpus && num_u64(&p, le, &v)) {
		if (store)
			out->counts[out->nrows * out->ncpus + r.ncounts] = v;
		r.sum = r.sum > UINT64_MAX - v ? UINT64_MAX : r.sum + v;
		r.ncounts++;
	}
	irq_desc(r.desc, sizeof r.desc, p, le);
	if (store) {
		for (size_t k = r.ncounts; k < out->ncpus; k++)
			out->counts[out->nrows * out->ncpus + k] = 0;
		out->rows[out->nrows] = r;
	}
	out->nrows++;
}

/* Parse /proc/interrupts or /proc/softirqs. */
int
sys_parse_irqtab(const char *buf, size_t len, struct sys_irqtab_raw *out)
{
	struct cur c = {buf, buf + len};
	const char *ls, *le;
	bool titled = false;

	out->nrows = 0;
	out->ncpus = 0;
	while (next_line(&c, &ls, &le)) {
		if (!titled) {
			if (skip_blanks(ls, le) == le)
				continue;
			if (!irq_title(ls, le, out))
				return -1;
			titled = true;
			continue;
		}
		irq_row(ls, le, out);
	}
	return titled ? 0 : -1;
}

/* ---- PID/stat, PID/cmdline ---- */

/* Where each field of /proc/PID/stat the source keeps goes (by field
 * number from proc(5); 0 ends the table). */
static const struct {
	unsigned field;
	size_t off;
	bool is_signed;
} pid_fields[] = {
    {9, offsetof(struct sys_pid_stat, flags), false},
    {10, offsetof(struct sys_pid_stat, minflt), false},
    {12, offsetof(struct sys_pid_stat, majflt), false},
    {14, offsetof(struct sys_pid_stat, utime), false},
    {15, offsetof(struct sys_pid_stat, stime), false},
    {18, offsetof(struct sys_pid_stat, priority), true},
    {19, offsetof(struct sys_pid_stat, nice), true},
    {20, offsetof(struct sys_pid_stat, threads), true},
    {22, offsetof(struct sys_pid_stat, starttime), false},
    {23, offsetof(struct sys_pid_stat, vsize), false},
    {24, offsetof(struct sys_pid_stat, rss), true},
};

/* The fields after the command's ')' (from field 3, the state). */
static int
pid_stat_fields(const char *p, const char *end, struct sys_pid_stat *out)
{
	size_t k = 0;
	int64_t v;

	p = skip_blanks(p, end);
	if (p >= end || is_blank(*p) || *p == '\n')
		return -1;
	out->state = *p++;
	out->nfields = 3;
	for (unsigned f = 4; f <= 52; f++) {
		bool mine = k < ARRAY_SIZE(pid_fields) && pid_fields[k].field == f;
		uint64_t u = 0;

		v = 0;
		if (!(mine && !pid_fields[k].is_signed ? num_u64(&p, end, &u)
		                                       : num_i64(&p, end, &v)))
			break;
		out->nfields = f;
		if (f == 4)
			out->ppid = v < INT32_MIN || v > INT32_MAX ? 0 : (int)v;
		else if (f == 39)
			out->processor = v < 0 || v > INT32_MAX ? -1 : (int)v;
		if (mine) {
			void *dst = (char *)out + pid_fields[k].off;

			if (pid_fields[k].is_signed)
				memcpy(dst, &v, sizeof v);
			else
				memcpy(dst, &u, sizeof u);
			k++;
		}
	}
	return out->nfields >= 24 ? 0 : -1;
}

/* Parse /proc/PID/stat. */
int
sys_parse_pid_stat(const char *buf, size_t len, struct sys_pid_stat *out)
{
	const char *end = buf + len, *open = memchr(buf, '(', len), *close = NULL, *p = buf;
	uint64_t pid;

	memset(out, 0, sizeof *out);
	out->processor = -1;
	if (open == NULL)
		return -1;
	for (const char *q = end; q > open; q--)
		if (q[-1] == ')') {
			close = q - 1;
			break;
		}
	if (close == NULL || !num_u64(&p, open, &pid) || pid == 0 || pid > INT32_MAX)
		return -1;
	out->pid = (int)pid;
	copy_name(out->comm, sizeof out->comm, open + 1, close);
	return pid_stat_fields(close + 1, end, out);
}

/* Arguments joined by spaces. */
size_t
sys_parse_cmdline(const char *buf, size_t len, char *out, size_t outlen)
{
	size_t n = 0;

	if (outlen == 0)
		return 0;
	while (len > 0 && buf[len - 1] == '\0')
		len--;
	for (size_t i = 0; i < len && n + 1 < outlen; i++)
		out[n++] = buf[i] == '\0' ? ' ' : buf[i];
	out[n] = '\0';
	return n;
}

/* A getdents64 record's header (struct linux_dirent64, which glibc does
 * not name); the NUL-terminated name follows it. */
struct dirent64_head {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
};
#define DENT_NAME (offsetof(struct dirent64_head, d_type) + 1)

/* The pid or tid a name of n bytes (NUL-terminated) spells, or 0. */
static int
dent_pid(const char *name, size_t n)
{
	long v = 0;

	if (n == 0 || name[0] == '\0')
		return 0;
	for (size_t i = 0; i < n && name[i] != '\0'; i++) {
		if (name[i] < '0' || name[i] > '9' || v > INT32_MAX / 10)
			return 0;
		v = v * 10 + (name[i] - '0');
	}
	return (int)v;
}

/* The next numeric entry of a getdents64 buffer. */
int
sys_parse_dents_pid(const char *buf, size_t len, size_t *off)
{
	while (*off < len && len - *off > DENT_NAME) {
		const char *rec = buf + *off;
		unsigned short reclen;
		int pid;

		memcpy(&reclen, rec + offsetof(struct dirent64_head, d_reclen), sizeof reclen);
		if (reclen <= DENT_NAME || reclen > len - *off ||
		    memchr(rec + DENT_NAME, '\0', reclen - DENT_NAME) == NULL)
			break;
		*off += reclen;
		if ((pid = dent_pid(rec + DENT_NAME, reclen - DENT_NAME)) != 0)
			return pid;
	}
	*off = len;
	return 0;
}
