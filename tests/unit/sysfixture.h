/* sysfixture: what the system source's tests share (test-system-parse.c,
 * test-system.c): the files of tests/fixtures/system, and a tolerance. */
#ifndef TRACETOP_TEST_SYSFIXTURE_H
#define TRACETOP_TEST_SYSFIXTURE_H

#include <stdbool.h>
#include <stddef.h>

/* The fixture file tests/fixtures/system/name read whole and
 * NUL-terminated, its length in *len (the caller frees it); fails the
 * test when it cannot be read. */
char *sysfix_read(const char *name, size_t *len);

/* Whether a and b are within a relative tolerance. */
bool sysfix_near(double a, double b, double tol);

#endif
