/* hist-fixture: the keys, objects and helpers the hist tests share
 * (test-hist.c, test-hist-rows.c). */
#ifndef TRACETOP_TEST_HIST_FIXTURE_H
#define TRACETOP_TEST_HIST_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "tracetop/hist.h"
#include "tracetop/util.h"

static struct dso __attribute__((unused)) dso_libc = {.name = "/lib/libc.so.6"};
static struct dso __attribute__((unused)) dso_ls = {.name = "/bin/ls"};
static struct dso __attribute__((unused)) dso_kern = {.name = "[kernel.kallsyms]"};
static struct sym __attribute__((unused)) sym_malloc = {.name = "malloc"};
static struct sym __attribute__((unused)) sym_main = {.name = "main"};
static struct sym __attribute__((unused)) sym_sched = {.name = "schedule"};
static struct sym __attribute__((unused)) sym_free = {.name = "free"};

/* A key from its parts. */
static inline struct hist_key
mk(int pid, const char *comm, struct dso *dso, const struct sym *sym, uint64_t addr, bool kernel)
{
	struct hist_key k = {
	    .pid = pid,
	    .comm = comm != NULL ? str_intern(comm) : NULL,
	    .dso = dso,
	    .sym = sym,
	    .addr = addr,
	    .kernel = kernel,
	};

	return k;
}

/* Count n samples for key. */
static inline void
add_n(struct hist *h, struct hist_key k, unsigned n)
{
	while (n-- > 0)
		hist_add(h, &k);
}

/* A key numbered i, distinct for every i (unresolved address i). */
static inline struct hist_key
nth_key(uint64_t i)
{
	return mk((int)(i % 97), "worker", &dso_libc, NULL, i, false);
}

#endif
