/* commseen: the threads /proc lists at the start, each with its process
 * and command, so that a thread that leaves /proc before any record names
 * it still has its name: a tracepoint event of a process that was running
 * before tracetop and exits before its ring is read (sched_process_exit
 * is the usual one) shows its command, not "[unknown]". Read once, then
 * only looked up. */
#ifndef TRACETOP_COMMSEEN_H
#define TRACETOP_COMMSEEN_H

#include <stdbool.h>

struct commseen;

/* Every thread under proc_root ("/proc" except in tests); NULL when none
 * could be read. */
struct commseen *commseen_scan(const char *proc_root);
void commseen_free(struct commseen *cs);

/* Thread tid as the scan saw it: its process in *pid and its command
 * (interned) in *comm; false when the scan did not see it. */
bool commseen_get(const struct commseen *cs, int tid, int *pid, const char **comm);

#endif
