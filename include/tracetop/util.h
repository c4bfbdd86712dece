/* util: allocation that never fails, error messages, number and list
 * parsing, escaping of untrusted text, clocks. */
#ifndef TRACETOP_UTIL_H
#define TRACETOP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Three-way comparison of two numbers or pointers: -1, 0 or 1, for qsort
 * and the tables' orders. Each argument is evaluated twice. */
#define CMP3(a, b) (((a) > (b)) - ((a) < (b)))

/* qsort and bsearch comparators of ints and of uint64_t values. */
int qsort_int(const void *a, const void *b);
int qsort_u64(const void *a, const void *b);

/* The hash family: hash_u64 spreads one 64-bit key; a key of several words
 * folds them with hash_mix, from HASH_SEED, and ends with hash_u64; a
 * string goes through str_hash. */
#define HASH_SEED 0x243f6a8885a308d3ULL

/* Spread a 64-bit key's bits over a hash table index (a murmur3 finaliser). */
static inline size_t
hash_u64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (size_t)v;
}

/* Fold word v into running hash h (a multiply-xorshift round). */
static inline uint64_t
hash_mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

/* Empty slot i of an open-addressing table probed linearly (mask + 1
 * slots of size bytes, a free slot all zero), moving back each later
 * entry of the run whose probe sequence crossed i, so that lookups still
 * find it (no tombstones: a table of threads that come and go keeps its
 * size). home(slot, arg) is an entry's first slot, SIZE_MAX for a free
 * one. */
void lp_delete(void *slots, size_t size, size_t mask, size_t i,
               size_t (*home)(const void *slot, void *arg), void *arg);

/* FNV-1a of a NUL-terminated string. */
uint64_t str_hash(const char *s);

/* An expected failure with a message for the user (not a bug). */
struct tt_err {
	char msg[512];
};

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Abort on a broken invariant; never for an expected failure. */
void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Fill err with a message and return -1, so callers can `return err_set(...)`. */
int err_set(struct tt_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The value of hex digit c (either case), or -1. */
int hex_digit(char c);

/* Whole-string numbers: 0 on success, -1 on anything else (empty, junk, range). */
int parse_u64(const char *s, uint64_t *out);
int parse_int(const char *s, int *out);
int parse_double(const char *s, double *out);

/* "1,2,3" (pids, tids): a malloc'd array of positive ints, -1 on a bad list. */
int parse_int_list(const char *s, int **out, size_t *n);

/* "0-3,5,7-8": a sorted, de-duplicated malloc'd array of CPU numbers. */
int parse_cpu_list(const char *s, int **out, size_t *n);

/* The online CPUs from /sys/devices/system/cpu/online. */
int online_cpus(int **out, size_t *n, struct tt_err *err);

/* Copy untrusted text (at most srclen bytes, stops at NUL) into dst, escaping
 * control characters, DEL and backslash as \xNN / \\ so nothing reaches a
 * terminal or file unescaped. Invalid UTF-8 bytes are escaped too.
 * Always NUL-terminates; returns the length written. */
size_t str_escape(char *dst, size_t dstlen, const char *src, size_t srclen);

/* str_escape for text a JSON writer escapes again (report_json_string):
 * the same, but a backslash is left single, so the decoded string holds
 * the name's own backslashes. */
size_t str_escape_json(char *dst, size_t dstlen, const char *src, size_t srclen);

/* Intern a string: equal strings give the same pointer, never freed. */
const char *str_intern(const char *s);

/* Monotonic clock in nanoseconds. */
uint64_t now_ns(void);

/* Block INT, TERM, HUP, WINCH, CHLD and PIPE and return a non-blocking
 * signalfd for them (-1 on failure); the previous mask goes to *old. */
int signals_fd(sigset_t *old);

struct pollfd;
/* Stop polling fds that report POLLHUP/POLLERR (set them to -1). */
void poll_drop_hangups(struct pollfd *fds, size_t n);

/* Read a small file (sysfs, procfs) into buf, NUL-terminated; bytes or -1. */
ssize_t read_file(const char *path, char *buf, size_t len);

/* Whether process pid (its entry under proc_root, normally "/proc") lives
 * in another mount namespace than ours (a container): its paths then name
 * other files, reached through PROC/PID/root. false when it cannot be told. */
bool mntns_foreign(const char *proc_root, int pid);

/* The sorted names of the subdirectories of path (dot names left out), in
 * a malloc'd array of n malloc'd names (free with names_free), or NULL with
 * errno set when it cannot be read. */
char **dir_list(const char *path, size_t *n);

/* Append name (malloc'd: the array owns it now) to a growing array of n
 * names with room for *cap. */
void names_push(char ***v, size_t *n, size_t *cap, char *name);

/* Free what dir_list returned (NULL is ignored). */
void names_free(char **v, size_t n);

#endif
