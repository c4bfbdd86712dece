/* buildtest: tests that compile programs at test time (with $TT_CC) into
 * a private temporary directory, with a separate debug-file root inside
 * it, and read them back with binutils. */
#ifndef TRACETOP_TEST_BUILDTEST_H
#define TRACETOP_TEST_BUILDTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

extern char bt_dir[256];  /* the directory (canonical path) */
extern char bt_root[300]; /* bt_dir/debugroot, set as the DSO debug root */
extern const char *bt_cc; /* $TT_CC, or cc */

/* The compiler to use, and the binutils the test needs: NULL when all are
 * there, else why not (for a "1..0 # SKIP" plan). */
const char *bt_missing(const char *const *tools, size_t n);

/* Make bt_dir (mkdtemp from prefix) and bt_root. 0 or -1. */
int bt_mkdirs(const char *prefix);

/* bt_dir/name in a rotating static buffer (valid for the next three calls). */
const char *bt_path(const char *name);

/* Run a shell command built from fmt; whether it exited 0 (else the
 * command is printed as a TAP diagnostic). */
bool bt_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Address and size of a defined symbol per nm (dynamic: nm -D). */
bool bt_nm(const char *file, bool dynamic, const char *name, uint64_t *addr, uint64_t *size);

struct dso;
/* The DSO of bt_dir/name as the engine makes it (dso_get with the file's
 * device and inode); the file must exist. */
struct dso *bt_dso(const char *name);

/* A group teardown that removes bt_dir and everything in it. */
int bt_remove_dir(void **state);

struct CMUnitTest;
/* main() of a test that builds programs: the n tests as one cmocka group
 * (setup, teardown) when the compiler and the tools are there, else the
 * plan "1..0 # SKIP why". Returns main's status. */
int bt_run_group(const char *name, const struct CMUnitTest *tests, size_t n,
                 const char *const *tools, size_t ntools, int (*setup)(void **),
                 int (*teardown)(void **));

#endif
