/* procprime: the processes running when sampling starts, read into the
 * process model a few at a time once the first frame is out, as perf top
 * reads them all before its first. Read lazily instead, each one waits
 * for its first sample: 2,000 processes that run briefly every second
 * are still being read from /proc a minute later, and each first sight
 * costs more than a read ahead (its samples wait for the model, its keys
 * are made twice). */
#ifndef TRACETOP_PROCPRIME_H
#define TRACETOP_PROCPRIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct procprime;
struct tasks;

/* The processes proc_root ("/proc" except in tests) lists now, but
 * skip; NULL when it cannot be read. */
struct procprime *procprime_scan(const char *proc_root, int skip);

/* Read the next of them into ts (those it knows already cost nothing)
 * until budget_ns has passed; how many are left. */
size_t procprime_step(struct procprime *pp, struct tasks *ts, uint64_t budget_ns);

void procprime_free(struct procprime *pp);

#endif
