/* counters-units: the counting fds: an event opened on a unit (a thread,
 * a CPU or both) as a slot, the fd budget, events the kernel refuses, and
 * the groups units feed. The rest of the module builds on these. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters-impl.h"
#include "tracetop/evlist.h"

/* Members of a unit's group at most (the others are read one by one). */
#define COUNTERS_GROUP_MAX 32

/* The parts of evlist_open_error's message that only sampling uses. */
static const struct evlist_params no_params;

/* Whether an errno means the event does not exist here. */
static bool
errno_unsupported(int e)
{
	return e != ESRCH && e != EMFILE && e != ENFILE && e != EACCES && e != EPERM;
}

/* Whether the machine has a hardware PMU (cycles can be opened). */
static bool
have_pmu(void)
{
	int e = evspec_probe(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);

	if (e == EACCES || e == EPERM)
		return access("/sys/bus/event_source/devices/cpu", F_OK) == 0;
	return e == 0;
}

/* The default event names, hardware ones only with a PMU. */
size_t
counters_default_events(const char **names)
{
	static const char *const sw[] = {"task-clock", "context-switches", "cpu-migrations",
	                                 "page-faults"};
	static const char *const hw[] = {"cycles",        "instructions",     "branches",
	                                 "branch-misses", "cache-references", "cache-misses"};
	size_t n = 0, i;

	for (i = 0; i < ARRAY_SIZE(sw); i++)
		names[n++] = sw[i];
	if (have_pmu())
		for (i = 0; i < ARRAY_SIZE(hw); i++)
			names[n++] = hw[i];
	return n;
}

/* Open a counting fd for event e on (tid, cpu), in group_fd's group (or
 * none: -1) with extra read_format bits; -1 with errno. */
static int
cnt_open(const struct counters *c, const struct cnt_event *e, int tid, int cpu, int group_fd,
         uint64_t format)
{
	struct perf_event_attr a = e->spec.attr;

	a.size = sizeof a;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | format;
	a.sample_period = 0;
	a.freq = 0;
	a.inherit = tid > 0 && c->inherit;
	a.enable_on_exec = tid > 0 && c->enable_on_exec;
	a.disabled = a.enable_on_exec;
	return (int)syscall(SYS_perf_event_open, &a, tid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* Close one slot (its event leaves the unit's group, if in it). */
void
counters_slot_close(struct counters *c, struct cnt_slot *sl)
{
	if (sl->fd >= 0) {
		close(sl->fd);
		c->nfds--;
	}
	sl->fd = -1;
	sl->grouped = sl->fresh = false;
}

/* Whether event e may join a CPU's group: a software event, never
 * multiplexed, so grouping changes no count; not a clock (cpu-clock,
 * task-clock): this machine's kernel (6.18) counts nothing in a group led
 * by one, nor a clock that is a group's last member. */
static bool
groupable(const struct cnt_event *e)
{
	return e->spec.attr.type == PERF_TYPE_SOFTWARE &&
	       e->spec.attr.config != PERF_COUNT_SW_CPU_CLOCK &&
	       e->spec.attr.config != PERF_COUNT_SW_TASK_CLOCK;
}

/* Open event ei on unit u in the unit's group: a CPU's own events,
 * without inherit, which a group's read refuses, led by a dummy event
 * that counts nothing. -1 when it cannot join (the caller opens it alone). */
static int
slot_open_grouped(struct counters *c, struct cnt_unit *u, struct cnt_slot *sl, size_t ei)
{
	static const struct cnt_event dummy = {
	    .spec.attr = {.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY}};
	const struct cnt_event *e = &c->ev[ei];
	size_t members = 0;
	int fd;

	for (size_t k = 0; k < c->nev; k++)
		members += k != ei && u->slots[k].grouped;
	if (u->tid > 0 || u->cpu < 0 || u->no_group || !groupable(e) ||
	    members >= COUNTERS_GROUP_MAX)
		return -1;
	if (u->leader_fd < 0) {
		u->leader_fd =
		    cnt_open(c, &dummy, u->tid, u->cpu, -1, PERF_FORMAT_GROUP | PERF_FORMAT_ID);
		if (u->leader_fd < 0) {
			u->no_group = true;
			return -1;
		}
		c->nfds++;
	}
	fd = cnt_open(c, e, u->tid, u->cpu, u->leader_fd, 0);
	if (fd < 0)
		return -1;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &sl->id) != 0) {
		close(fd);
		return -1;
	}
	sl->grouped = true;
	return fd;
}

/* Read unit u's group into its members' slots: one read for them all. */
void
counters_group_read(struct counters *c, struct cnt_unit *u)
{
	/* nr, enabled, running, then a value and an id per event: the
	 * leader's first */
	uint64_t buf[3 + 2 * (1 + COUNTERS_GROUP_MAX)];
	ssize_t got;
	size_t nr;

	if (u->leader_fd < 0)
		return;
	c->reads++;
	got = read(u->leader_fd, buf, sizeof buf);
	if (got < (ssize_t)(3 * sizeof *buf))
		return;
	nr = buf[0];
	if (nr > ((size_t)got / sizeof *buf - 3) / 2)
		return;
	for (size_t i = 0; i < nr; i++)
		for (size_t e = 0; e < c->nev; e++) {
			struct cnt_slot *sl = &u->slots[e];

			if (sl->fd >= 0 && sl->grouped && sl->id == buf[4 + 2 * i]) {
				sl->cur = (struct counters_reading){
				    .value = buf[3 + 2 * i], .enabled = buf[1], .running = buf[2]};
				sl->fresh = true;
				break;
			}
		}
}

/* Read one slot: its group's reading when fresh, else its own fd. */
bool
counters_slot_read(struct counters *c, struct cnt_slot *sl, struct counters_reading *cur)
{
	if (sl->fresh) {
		*cur = sl->cur;
		sl->fresh = false;
		return true;
	}
	if (sl->grouped && sl->fd >= 0)
		return false; /* the group's read failed: no reading of its own */
	c->reads++;
	return read(sl->fd, cur, sizeof *cur) == (ssize_t)sizeof *cur;
}

/* Mark event ei unsupported for errnum (seen on tid, cpu) and close its fds. */
static void
event_unsupported(struct counters *c, size_t ei, int errnum, int tid, int cpu)
{
	struct cnt_event *e = &c->ev[ei];
	struct tt_err err;
	char buf[sizeof err.msg + 32];

	if (e->spec.is_hw && !have_pmu() &&
	    (errnum == ENOENT || errnum == ENODEV || errnum == EOPNOTSUPP || errnum == ENOSYS)) {
		snprintf(buf, sizeof buf, "not supported: no hardware PMU on this machine");
	} else {
		evlist_open_error(errnum, &e->spec, tid, cpu, &no_params, &err);
		snprintf(buf, sizeof buf, "not supported: %s", err.msg);
	}
	e->supported = false;
	e->reason = str_intern(buf);
	for (size_t u = 0; u < c->nunits; u++)
		counters_slot_close(c, &c->units[u].slots[ei]);
}

/* Open event ei on unit u (nothing for an unsupported event). */
enum counters_open
counters_slot_open(struct counters *c, struct cnt_unit *u, size_t ei, struct tt_err *err)
{
	struct cnt_slot *sl = &u->slots[ei];
	int fd;

	memset(sl, 0, sizeof *sl);
	sl->fd = -1;
	if (!c->ev[ei].supported)
		return COUNTERS_OPEN_OK;
	if (c->nfds >= c->fd_budget)
		return COUNTERS_OPEN_LIMIT;
	if ((fd = slot_open_grouped(c, u, sl, ei)) >= 0 ||
	    (fd = cnt_open(c, &c->ev[ei], u->tid, u->cpu, -1, 0)) >= 0) {
		sl->fd = fd;
		c->nfds++;
		return COUNTERS_OPEN_OK;
	}
	if (errno == ESRCH)
		return COUNTERS_OPEN_GONE;
	if (errno == EMFILE || errno == ENFILE)
		return COUNTERS_OPEN_LIMIT;
	if (errno == EACCES || errno == EPERM) {
		evlist_open_error(errno, &c->ev[ei].spec, u->tid, u->cpu, &no_params, err);
		return COUNTERS_OPEN_DENIED;
	}
	event_unsupported(c, ei, errno, u->tid, u->cpu);
	return COUNTERS_OPEN_OK;
}

/* The number of events that hold fds. */
size_t
counters_nsupported(const struct counters *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nev; i++)
		n += c->ev[i].supported;
	return n;
}

/* Close unit idx's fds and drop it from the array. */
void
counters_unit_drop(struct counters *c, size_t idx)
{
	struct cnt_unit *u = &c->units[idx];

	for (size_t e = 0; e < c->nev; e++)
		counters_slot_close(c, &u->slots[e]);
	if (u->leader_fd >= 0) {
		close(u->leader_fd);
		c->nfds--;
	}
	free(u->slots);
	memmove(u, u + 1, (c->nunits - idx - 1) * sizeof *u);
	c->nunits--;
}

/* Add a unit and open every event on it; not kept unless COUNTERS_OPEN_OK. */
enum counters_open
counters_unit_add(struct counters *c, int tid, int cpu, size_t cpu_idx, int proc, bool base,
                  struct tt_err *err)
{
	enum counters_open r = COUNTERS_OPEN_OK;
	struct cnt_unit *u;
	size_t e, open = 0;

	if (c->nfds + counters_nsupported(c) > c->fd_budget)
		return COUNTERS_OPEN_LIMIT;
	if (c->nunits == c->cap_units) {
		c->cap_units = c->cap_units ? 2 * c->cap_units : 16;
		c->units = xrealloc(c->units, c->cap_units * sizeof *c->units);
	}
	u = &c->units[c->nunits++];
	*u = (struct cnt_unit){.tid = tid,
	                       .cpu = cpu,
	                       .cpu_idx = cpu_idx,
	                       .proc = proc,
	                       .base = base,
	                       .leader_fd = -1,
	                       .slots = xcalloc(c->nev, sizeof *u->slots)};
	for (e = 0; e < c->nev; e++)
		u->slots[e].fd = -1;
	for (e = 0; e < c->nev && r == COUNTERS_OPEN_OK; e++) {
		r = counters_slot_open(c, u, e, err);
		open += u->slots[e].fd >= 0;
	}
	if (r == COUNTERS_OPEN_OK && open == 0 && counters_nsupported(c) > 0)
		r = COUNTERS_OPEN_GONE;
	if (r != COUNTERS_OPEN_OK)
		counters_unit_drop(c, c->nunits - 1);
	return r;
}

/* Set up a group with a zeroed series per event. */
void
counters_group_init(struct cnt_group *g, const struct counters *c, int id)
{
	memset(g, 0, sizeof *g);
	g->id = id;
	g->s = xcalloc(c->nev, sizeof *g->s);
}

/* Join the notices into c->notice. */
void
counters_notice_update(struct counters *c)
{
	snprintf(c->notice, sizeof c->notice, "%s%s%s", c->base_notice,
	         c->base_notice[0] && c->proc_notice[0] ? "; " : "", c->proc_notice);
}

/* Try every event on (tid, cpu) to learn which this machine counts. */
int
counters_probe_events(struct counters *c, int tid, int cpu, struct tt_err *err)
{
	for (size_t i = 0; i < c->nev; i++) {
		int fd = cnt_open(c, &c->ev[i], tid, cpu, -1, 0);

		if (fd >= 0) {
			close(fd);
		} else if (errno == EACCES || errno == EPERM) {
			evlist_open_error(errno, &c->ev[i].spec, tid, cpu, &no_params, err);
			return -1;
		} else if (errno == ESRCH) {
			return err_set(err, "no such process or thread %d (it may have exited)",
			               tid);
		} else if (errno_unsupported(errno)) {
			event_unsupported(c, i, errno, tid, cpu);
		}
	}
	return 0;
}
