/* evlist: opening perf events for a target and mapping their rings. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tracetop/evlist.h"
#include "tracetop/record.h"

/* perf_event_open has no glibc wrapper. */
static int
sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

/* The kernel's "no such hardware" answers for a PMU event. */
static bool
errno_no_pmu(int e)
{
	return e == ENOENT || e == ENODEV || e == EOPNOTSUPP || e == ENOSYS;
}

/* Read a number from a sysctl file, -1 if unreadable. */
static long
sysctl_long(const char *path)
{
	char buf[64];
	int v;

	if (read_file(path, buf, sizeof buf) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return parse_int(buf, &v) == 0 ? v : -1;
}

/* Explain a perf_event_open failure in terms of what the user can change. */
void
evlist_open_error(int errnum, const struct evspec *spec, int pid, int cpu,
                  const struct evlist_params *p, struct tt_err *err)
{
	char where[64];
	long v;

	if (pid > 0)
		snprintf(where, sizeof where, "for pid %d", pid);
	else if (cpu >= 0)
		snprintf(where, sizeof where, "on CPU %d", cpu);
	else
		snprintf(where, sizeof where, "system-wide");
	switch (errnum) {
	case EACCES:
	case EPERM:
		v = sysctl_long("/proc/sys/kernel/perf_event_paranoid");
		err_set(err,
		        "permission denied opening %s %s: kernel.perf_event_paranoid is %ld; "
		        "run as root (or with CAP_PERFMON), or allow it with "
		        "'sysctl kernel.perf_event_paranoid=%d'",
		        spec->name, where, v, pid > 0 ? 1 : -1);
		return;
	case ESRCH:
		err_set(err, "no such process or thread %d (it may have exited)", pid);
		return;
	case EMFILE:
	case ENFILE:
		err_set(err,
		        "too many open files opening %s %s: raise the limit with 'ulimit -n' "
		        "or profile fewer threads/CPUs",
		        spec->name, where);
		return;
	case ENODEV:
		if (cpu >= 0 && !spec->is_hw) {
			err_set(err, "CPU %d is not online; see /sys/devices/system/cpu/online",
			        cpu);
			return;
		}
		break;
	case EINVAL:
		v = sysctl_long("/proc/sys/kernel/perf_event_max_sample_rate");
		if (p->freq > 0 && v > 0 && p->freq > (uint64_t)v) {
			err_set(err,
			        "-F %llu is above kernel.perf_event_max_sample_rate (%ld): "
			        "lower -F or raise the sysctl",
			        (unsigned long long)p->freq, v);
			return;
		}
		if (spec->attr.precise_ip > 0) {
			err_set(err,
			        "%s: precise sampling (:p) is not supported here; drop the :p "
			        "modifier",
			        spec->name);
			return;
		}
		break;
	case EBUSY:
		err_set(err, "%s is busy: another tool holds the PMU exclusively", spec->name);
		return;
	}
	if (errno_no_pmu(errnum)) {
		err_set(err,
		        "event %s is not supported by this machine's kernel or hardware (%s); "
		        "see --list-events",
		        spec->name, strerror(errnum));
		return;
	}
	err_set(err, "cannot open event %s %s: %s", spec->name, where, strerror(errnum));
}

/* Fill the sampling part of attr for the target and params. */
static void
evlist_prepare_attr(struct perf_event_attr *a, const struct evlist_target *t,
                    const struct evlist_params *p, bool sideband)
{
	a->size = sizeof *a;
	a->sample_type = p->sample_type;
	if (a->type == PERF_TYPE_TRACEPOINT) {
		a->freq = 0;
		a->sample_period = 1;
	} else if (p->freq > 0) {
		a->freq = 1;
		a->sample_freq = p->freq;
	} else {
		a->freq = 0;
		a->sample_period = p->period;
	}
	a->disabled = 1;
	a->enable_on_exec = t->enable_on_exec;
	a->inherit = t->inherit;
	a->sample_id_all = 1;
	a->watermark = 1;
	/* Wake at an eighth full: a drain slowed by cold caches (the first
	 * symbol tables, unwind tables) then still has room to catch up. */
	a->wakeup_watermark = (uint32_t)((size_t)p->mmap_pages * (size_t)sysconf(_SC_PAGESIZE) / 8);
	/* Rings that carry only side-band records (the BPF engine counts the
	 * samples) are quiet on a steady machine: woken at each record, the
	 * loop sleeps until the refresh there, and reads a new process's
	 * mappings while it lives (the session's holdoff batches a storm). */
	if (p->wake_each)
		a->wakeup_watermark = 1;
	a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = sideband;
	a->exclude_guest = 1;
	a->sample_regs_user = p->regs_user;
	a->sample_stack_user = p->stack_user;
	a->exclude_callchain_user = p->exclude_callchain_user;
}

/* Open one event, lowering :p precision the way perf does when refused. */
static int
evlist_try_open(struct perf_event_attr *a, int pid, int cpu)
{
	for (;;) {
		int fd = sys_perf_event_open(a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

		if (fd >= 0 || a->precise_ip == 0 || (errno != EINVAL && errno != EOPNOTSUPP))
			return fd;
		a->precise_ip--;
	}
}

/* Remember an fd and its sample id under ev. */
static int
evlist_add_fd(struct evlist *el, struct evsel *ev, int fd)
{
	uint64_t id;

	el->fds = xrealloc(el->fds, (el->nfds + 1) * sizeof *el->fds);
	el->fds[el->nfds++] = fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return -1;
	ev->ids = xrealloc(ev->ids, (ev->nids + 1) * sizeof *ev->ids);
	ev->ids[ev->nids++] = id;
	return 0;
}

/* Open ev on (pid, cpu) into ring ri (mapping it on first use). */
static int
evlist_open_one(struct evlist *el, struct evsel *ev, const struct evlist_target *t,
                const struct evlist_params *p, int pid, int cpu, size_t ri, struct tt_err *err)
{
	struct perf_event_attr a = ev->spec.attr;
	bool first = el->ring_fds[ri] < 0;
	int fd, rc;

	evlist_prepare_attr(&a, t, p, first);
	fd = evlist_try_open(&a, pid, cpu);
	if (fd < 0 && ev->spec.is_hw && !ev->fell_back && errno_no_pmu(errno)) {
		struct evspec fb;

		evspec_fallback(&ev->spec, &fb);
		snprintf(el->notice, sizeof el->notice,
		         "no hardware PMU for %s: sampling %s instead", ev->requested, fb.name);
		ev->spec = fb;
		ev->fell_back = true;
		a = ev->spec.attr;
		evlist_prepare_attr(&a, t, p, first);
		fd = evlist_try_open(&a, pid, cpu);
	}
	if (fd < 0) {
		evlist_open_error(errno, &ev->spec, pid, cpu, p, err);
		return -1;
	}
	ev->spec.attr.precise_ip = a.precise_ip;
	if (evlist_add_fd(el, ev, fd) != 0) {
		err_set(err, "cannot read the id of %s: %s", ev->spec.name, strerror(errno));
		return -1;
	}
	if (first) {
		unsigned order = 0;

		while ((1u << order) < p->mmap_pages)
			order++;
		rc = ring_mmap(&el->rings[ri], fd, order);
		if (rc < 0) {
			if (rc == -EPERM || rc == -ENOMEM)
				err_set(err,
				        "cannot map a %u-page ring buffer on CPU %d (%s): use a "
				        "smaller -m or raise kernel.perf_event_mlock_kb",
				        p->mmap_pages, cpu, strerror(-rc));
			else
				err_set(err, "cannot map the ring buffer on CPU %d: %s", cpu,
				        strerror(-rc));
			return -1;
		}
		el->ring_fds[ri] = fd;
		return 0;
	}
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, el->ring_fds[ri]) < 0) {
		err_set(err, "cannot share the ring buffer on CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* Open every spec for the target: per CPU, per thread (or all threads). */
int
evlist_open(struct evlist *el, const struct evspec *specs, size_t n, const struct evlist_target *t,
            const struct evlist_params *p, struct tt_err *err)
{
	size_t c, e, k, ntids = t->ntids ? t->ntids : 1;

	memset(el, 0, sizeof *el);
	el->sample_type = p->sample_type;
	el->nevsels = n;
	el->evsels = xcalloc(n, sizeof *el->evsels);
	for (e = 0; e < n; e++) {
		el->evsels[e].spec = specs[e];
		snprintf(el->evsels[e].requested, sizeof el->evsels[e].requested, "%s",
		         specs[e].name);
	}
	el->nrings = t->ncpus;
	el->rings = xcalloc(t->ncpus, sizeof *el->rings);
	el->ring_fds = xmalloc(t->ncpus * sizeof *el->ring_fds);
	for (c = 0; c < t->ncpus; c++)
		el->ring_fds[c] = -1;
	for (c = 0; c < t->ncpus; c++)
		for (e = 0; e < n; e++)
			for (k = 0; k < ntids; k++) {
				int pid = t->ntids ? t->tids[k] : -1;

				if (evlist_open_one(el, &el->evsels[e], t, p, pid, t->cpus[c], c,
				                    err) != 0) {
					evlist_close(el);
					return -1;
				}
			}
	evlist_index_ids(el);
	return 0;
}

/* Open one more event on (pid, cpu) into the mapped ring of slot ri. */
int
evlist_attach(struct evlist *el, struct perf_event_attr *a, int pid, int cpu, size_t ri,
              uint64_t *id)
{
	if (ri >= el->nrings || el->ring_fds[ri] < 0) {
		errno = ENODEV;
		return -1;
	}
	return evlist_attach_fd(el->ring_fds[ri], a, pid, cpu, id);
}

/* Open a ring of its own on cpu, owned by a dummy event. */
int
evlist_ring_open(struct ring *r, int cpu, uint64_t sample_type, unsigned pages)
{
	struct perf_event_attr a = {.size = sizeof a,
	                            .type = PERF_TYPE_SOFTWARE,
	                            .config = PERF_COUNT_SW_DUMMY,
	                            .sample_type = sample_type,
	                            .sample_id_all = 1,
	                            .disabled = 1,
	                            .watermark = 1,
	                            .exclude_guest = 1};
	unsigned order = 0;
	int fd, rc;

	a.wakeup_watermark = (uint32_t)((size_t)pages * (size_t)sysconf(_SC_PAGESIZE) / 8);
	fd = sys_perf_event_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((1u << order) < pages)
		order++;
	if ((rc = ring_mmap(r, fd, order)) < 0) {
		close(fd);
		errno = -rc;
		return -1;
	}
	return fd;
}

/* A counting software event on cpu. */
int
evlist_counter_open(uint32_t config, int cpu)
{
	struct perf_event_attr a = {.size = sizeof a,
	                            .type = PERF_TYPE_SOFTWARE,
	                            .config = config,
	                            .disabled = 1,
	                            .exclude_guest = 1};

	return sys_perf_event_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Open one more event on (pid, cpu) writing into the ring of out_fd. */
int
evlist_attach_fd(int out_fd, struct perf_event_attr *a, int pid, int cpu, uint64_t *id)
{
	int fd, e;

	fd = sys_perf_event_open(a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ioctl(fd, PERF_EVENT_IOC_ID, id) < 0 ||
	    ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, out_fd) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Apply an ioctl to every fd. */
static int
evlist_ioctl_all(struct evlist *el, unsigned long req)
{
	for (size_t i = 0; i < el->nfds; i++)
		if (ioctl(el->fds[i], req, 0) < 0)
			return -errno;
	return 0;
}

/* Start sampling. */
int
evlist_enable(struct evlist *el)
{
	return evlist_ioctl_all(el, PERF_EVENT_IOC_ENABLE);
}

/* Stop sampling. */
int
evlist_disable(struct evlist *el)
{
	return evlist_ioctl_all(el, PERF_EVENT_IOC_DISABLE);
}

/* The slot of id in the table, or the free slot where it would go. */
static struct evlist_id *
evlist_id_slot(const struct evlist *el, uint64_t id)
{
	size_t i = hash_u64(id) & el->idmask;

	while (el->idtab[i].ev != NULL && el->idtab[i].id != id)
		i = (i + 1) & el->idmask;
	return &el->idtab[i];
}

/* Index every event's ids: a sample names its event only by id, and a
 * system-wide session has events x CPUs x threads of them. */
void
evlist_index_ids(struct evlist *el)
{
	size_t n = 0, cap = 16;

	for (size_t e = 0; e < el->nevsels; e++)
		n += el->evsels[e].nids;
	while (cap < 2 * n)
		cap *= 2;
	free(el->idtab);
	el->idtab = xcalloc(cap, sizeof *el->idtab);
	el->idmask = cap - 1;
	for (size_t e = 0; e < el->nevsels; e++)
		for (size_t i = 0; i < el->evsels[e].nids; i++) {
			struct evlist_id *slot = evlist_id_slot(el, el->evsels[e].ids[i]);

			if (slot->ev == NULL)
				*slot = (struct evlist_id){el->evsels[e].ids[i], &el->evsels[e]};
		}
}

/* Map a sample id back to its event. */
struct evsel *
evlist_find_id(const struct evlist *el, uint64_t id)
{
	if (el->idtab == NULL)
		return NULL;
	return evlist_id_slot(el, id)->ev;
}

/* Unmap the rings and close every fd. */
void
evlist_close(struct evlist *el)
{
	size_t i;

	for (i = 0; i < el->nrings; i++)
		if (el->ring_fds[i] >= 0)
			ring_unmap(&el->rings[i]);
	for (i = 0; i < el->nfds; i++)
		close(el->fds[i]);
	for (i = 0; i < el->nevsels; i++)
		free(el->evsels[i].ids);
	free(el->evsels);
	free(el->idtab);
	free(el->rings);
	free(el->ring_fds);
	free(el->fds);
	memset(el, 0, sizeof *el);
}

/* Every ring of every list, oldest record first. */
void
evlist_read_ordered(struct evlist *const *els, size_t n,
                    void (*fn)(void *arg, struct evlist *el, const struct perf_event_header *h),
                    void *arg)
{
	size_t total = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		total += els[i]->nrings;

	const struct perf_event_header *next[total ? total : 1];
	struct evlist *owner[total ? total : 1];
	struct ring *ring[total ? total : 1];
	uint64_t when[total ? total : 1];

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < els[i]->nrings; j++, k++) {
			owner[k] = els[i];
			ring[k] = &els[i]->rings[j];
			next[k] = NULL;
			if (els[i]->ring_fds[j] < 0)
				continue;
			if (ring_begin(ring[k]) > 0 && (next[k] = ring_next(ring[k])) != NULL)
				when[k] = record_time(next[k], owner[k]->sample_type);
			else
				ring_end(ring[k]);
		}
	for (;;) {
		size_t best = total;

		for (size_t i = 0; i < total; i++)
			if (next[i] != NULL && (best == total || when[i] < when[best]))
				best = i;
		if (best == total)
			break;
		fn(arg, owner[best], next[best]);
		if ((next[best] = ring_next(ring[best])) != NULL)
			when[best] = record_time(next[best], owner[best]->sample_type);
		else
			ring_end(ring[best]);
	}
}
