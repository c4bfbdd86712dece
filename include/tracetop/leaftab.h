/* leaftab: what the BPF engine judged of frameless leaves, by (pid, ip),
 * with every entry of a process reachable from its pid, so that a process
 * with a new image (exec, a reused pid) forgets its own entries without a
 * walk over the table: forks and execs are many on a busy machine. */
#ifndef TRACETOP_LEAFTAB_H
#define TRACETOP_LEAFTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct leaftab;

/* A table of at most max entries (max >= 1). */
struct leaftab *leaftab_new(uint32_t max);
void leaftab_free(struct leaftab *t);

/* The word judged for (pid, ip) into *word; false when not judged. */
bool leaftab_find(const struct leaftab *t, uint32_t pid, uint64_t ip, uint8_t *word);

/* Remember word for (pid, ip), replacing what was there; false when the
 * table is full (nothing remembered). */
bool leaftab_put(struct leaftab *t, uint32_t pid, uint64_t ip, uint8_t word);

/* Drop every entry of pid, calling fn (unless NULL) with each one's ip
 * first; how many were dropped. */
size_t leaftab_forget(struct leaftab *t, uint32_t pid, void (*fn)(void *arg, uint64_t ip),
                      void *arg);

/* Entries held. */
size_t leaftab_count(const struct leaftab *t);

#endif
