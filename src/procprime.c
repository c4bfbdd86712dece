/* procprime: the processes of the start, read ahead of their samples. */
#include "config.h"

#include <stdlib.h>

#include "tracetop/counters-proc.h"
#include "tracetop/procprime.h"
#include "tracetop/tasks.h"
#include "tracetop/util.h"

struct procprime {
	struct counters_ints pids;
	size_t next; /* the first not read yet */
	int skip;
};

/* List the processes to read. */
struct procprime *
procprime_scan(const char *proc_root, int skip)
{
	struct procprime *pp = xcalloc(1, sizeof *pp);

	if (counters_proc_ints(proc_root, &pp->pids) != 0) {
		procprime_free(pp);
		return NULL;
	}
	pp->skip = skip;
	return pp;
}

/* Read processes until the budget is spent; the clock is looked at every
 * few, each read being some tens of microseconds. */
size_t
procprime_step(struct procprime *pp, struct tasks *ts, uint64_t budget_ns)
{
	uint64_t now = now_ns(), end = budget_ns > UINT64_MAX - now ? UINT64_MAX : now + budget_ns;

	while (pp->next < pp->pids.n) {
		int pid = pp->pids.v[pp->next++];

		if (pid > 0 && pid != pp->skip)
			(void)tasks_thread(ts, pid, pid); /* gone meanwhile: a dead one, reaped */
		if (pp->next % 8 == 0 && now_ns() >= end)
			break;
	}
	return pp->pids.n - pp->next;
}

/* Free the list. */
void
procprime_free(struct procprime *pp)
{
	if (pp == NULL)
		return;
	free(pp->pids.v);
	free(pp);
}
