/* sym-debuginfod: separate debug files fetched by build-id from the
 * debuginfod servers DEBUGINFOD_URLS names, through libdebuginfod (this
 * module is the only one that includes its header). The library is loaded
 * with dlopen on the first download, on the worker thread: linked in, it
 * and libcurl's TLS stack would cost every run about 6 MiB of resident
 * memory and 10 ms at start, used or not (libdw loads it the same way).
 * Downloads land in the client's own cache ($DEBUGINFOD_CACHE_PATH, else
 * ~/.cache/debuginfod_client), where the next run finds them at once.
 *
 * Off unless DEBUGINFOD_URLS is set, and off with --no-debuginfod.
 * Threads: symdbg_configure before any other thread runs; symdbg_fetch on
 * one thread at a time (the worker's symbol loads: it may take seconds);
 * the rest from any thread (symdbg_cached only looks at files: no network).
 * Expected failures never stall anything: a server that does not have a
 * build-id is not asked for it again this run; servers that cannot be
 * reached are not asked anything for a while (one note says so, once); a
 * download is given up after SYMDBG_MAX_SECS (or DEBUGINFOD_MAXTIME). */
#ifndef TRACETOP_SYM_DEBUGINFOD_H
#define TRACETOP_SYM_DEBUGINFOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest download, in seconds, unless DEBUGINFOD_MAXTIME says otherwise:
 * other questions for the worker wait behind it. */
#define SYMDBG_MAX_SECS 30
/* A server that has sent nothing after this long is taken as unreachable. */
#define SYMDBG_CONNECT_SECS 10
/* The last notes a status holds, and their length. */
#define SYMDBG_NOTES 4
#define SYMDBG_NOTE_LEN 256
/* Build-ids whose failures are remembered (the oldest are forgotten). */
#define SYMDBG_FAIL_MEMORY 256

/* One thing to tell the user ("debuginfod: fetched ..."); seq numbers the
 * notes of the run from 1. */
struct symdbg_note {
	uint64_t seq;
	char text[SYMDBG_NOTE_LEN];
};

/* What debuginfod is doing, for the header and batch's stderr. */
struct symdbg_status {
	bool on;           /* DEBUGINFOD_URLS is set and --no-debuginfod is not */
	bool fetching;     /* a download runs: */
	char name[64];     /*   the debug info of this file (its base name) */
	uint64_t bytes;    /*   received so far */
	uint64_t total;    /*   of this many (0: not known yet) */
	double secs;       /*   for this long */
	bool offline;      /* the servers could not be reached: none is asked for a while */
	uint64_t fetched;  /* files downloaded */
	uint64_t missing;  /* build-ids no server has */
	uint64_t failed;   /* downloads that failed otherwise */
	uint64_t note_seq; /* the last note's seq (0: none yet) */
	struct symdbg_note notes[SYMDBG_NOTES]; /* the last notes, oldest first */
};

/* Read the environment (DEBUGINFOD_URLS, DEBUGINFOD_CACHE_PATH, HOME,
 * XDG_CACHE_HOME, DEBUGINFOD_MAXTIME) and switch fetching on when enable
 * and servers are named; forget everything learnt before. Call before any
 * other thread runs. */
void symdbg_configure(bool enable);

/* Whether fetching is on. */
bool symdbg_enabled(void);

/* The debug file of a build-id that a past download left in the client's
 * cache (malloc'd), or NULL. Looks at files only; the caller checks that
 * the file's build-id matches. NULL when fetching is off. */
char *symdbg_cached(const uint8_t *id, size_t len);

/* Whether symdbg_fetch would ask a server about id now (on, not known to
 * be missing or failed, the servers not taken as unreachable). */
bool symdbg_wanted(const uint8_t *id, size_t len);

/* Download the debug file of build-id id, the debug info of the file
 * called name (for the progress shown), into the client's cache: its path
 * there (malloc'd), or NULL (why goes into the notes and the counts). May
 * take up to SYMDBG_MAX_SECS; one thread at a time. */
char *symdbg_fetch(const uint8_t *id, size_t len, const char *name);

/* While on, a download in progress gives up at once (within a second: the
 * client looks every second) and none starts: the worker is being stopped. */
void symdbg_interrupt(bool on);

/* A copy of the state, for a frame. */
void symdbg_status(struct symdbg_status *st);

/* What st says for a header, after "debuginfod: ": "fetching libfoo.so
 * (1.2 of 3.4 MiB)" while a download runs, "offline" while the servers are
 * out of reach, else "" (false). */
bool symdbg_status_text(const struct symdbg_status *st, char *buf, size_t len);

/* ---- for tests ---- */

/* What a fetch got: the client's return value (a file descriptor, or a
 * negated errno), and whether any byte came from a server. */
struct symdbg_answer {
	int rc;
	bool got_data;
	char *path; /* with rc >= 0: the file in the cache (malloc'd) */
};

/* Replace the library with fn (NULL: the library again), so that tests can
 * answer fetches without a server. */
typedef void (*symdbg_backend_fn)(const uint8_t *id, size_t len, struct symdbg_answer *a);
void symdbg_set_backend(symdbg_backend_fn fn);

#endif
