/* sysfixture: the system tests' fixture files and tolerance. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sysfixture.h"
#include "tracetop/util.h"

#ifndef TT_FIXTURES
#error "TT_FIXTURES must name tests/fixtures"
#endif

/* A fixture file read whole (the caller frees it). */
char *
sysfix_read(const char *name, size_t *len)
{
	char path[512];
	FILE *f;
	char *buf = xmalloc(1 << 20);

	snprintf(path, sizeof path, "%s/system/%s", TT_FIXTURES, name);
	if ((f = fopen(path, "rb")) == NULL)
		fail_msg("cannot read %s: %s", path, strerror(errno));
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* Whether a and b are within a relative tolerance. */
bool
sysfix_near(double a, double b, double tol)
{
	double d = a - b;

	return (d < 0 ? -d : d) <= tol * (b < 0 ? -b : b) + 1e-9;
}
