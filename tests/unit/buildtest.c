/* buildtest: a temporary build directory and binutils for the tests. */
#include "config.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "buildtest.h"
#include "tracetop/dso.h"

char bt_dir[256];
char bt_root[300];
const char *bt_cc;

/* Whether the compiler and tools work. */
const char *
bt_missing(const char *const *tools, size_t n)
{
	static char what[96];

	bt_cc = getenv("TT_CC");
	if (bt_cc == NULL || bt_cc[0] == '\0')
		bt_cc = "cc";
	if (!bt_sh("echo 'int main(void){return 0;}' | %s -g -x c -o /dev/null - 2>/dev/null",
	           bt_cc)) {
		snprintf(what, sizeof what, "no working C compiler (%s)", bt_cc);
		return what;
	}
	for (size_t i = 0; i < n; i++)
		if (!bt_sh("command -v %s >/dev/null 2>&1", tools[i])) {
			snprintf(what, sizeof what, "%s (binutils) not found", tools[i]);
			return what;
		}
	return NULL;
}

/* Remove the temporary directory tree. */
int
bt_remove_dir(void **state)
{
	(void)state;
	return bt_sh("rm -rf '%s'", bt_dir) ? 0 : -1;
}

/* The temporary directory and its debug root. */
int
bt_mkdirs(const char *prefix)
{
	char tmpl[PATH_MAX], real[PATH_MAX];

	snprintf(tmpl, sizeof tmpl, "/tmp/%s-XXXXXX", prefix);
	if (mkdtemp(tmpl) == NULL || realpath(tmpl, real) == NULL || strlen(real) >= sizeof bt_dir)
		return -1;
	strcpy(bt_dir, real);
	snprintf(bt_root, sizeof bt_root, "%s/debugroot", bt_dir);
	if (mkdir(bt_root, 0700) != 0)
		return -1;
	dso_set_debug_root(bt_root);
	return 0;
}

/* A path in the directory. */
const char *
bt_path(const char *name)
{
	static char buf[4][PATH_MAX + 64];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", bt_dir, name);
	return buf[i];
}

/* system() on a formatted command. */
bool
bt_sh(const char *fmt, ...)
{
	va_list ap;
	char *cmd;
	int rc;

	va_start(ap, fmt);
	if (vasprintf(&cmd, fmt, ap) < 0)
		abort();
	va_end(ap);
	rc = system(cmd);
	if (rc != 0)
		fprintf(stderr, "# command failed (%d): %s\n", rc, cmd);
	free(cmd);
	return rc == 0;
}

/* One symbol's address and size from nm. */
bool
bt_nm(const char *file, bool dynamic, const char *name, uint64_t *addr, uint64_t *size)
{
	char cmd[PATH_MAX + 64], line[1024], n[512], type;
	unsigned long long a, s;
	bool found = false;
	FILE *p;

	snprintf(cmd, sizeof cmd, "nm -S --defined-only %s '%s'", dynamic ? "-D" : "", file);
	if ((p = popen(cmd, "r")) == NULL)
		return false;
	while (fgets(line, sizeof line, p) != NULL)
		if (sscanf(line, "%llx %llx %c %511s", &a, &s, &type, n) == 4 &&
		    strcmp(n, name) == 0) {
			*addr = a;
			*size = s;
			found = true;
		}
	pclose(p);
	return found;
}

/* The DSO of a file in the directory. */
struct dso *
bt_dso(const char *name)
{
	const char *path = bt_path(name);
	struct stat sb;

	assert_int_equal(stat(path, &sb), 0);
	return dso_get(path, sb.st_dev, sb.st_ino);
}

/* Whether environment variable name is set and not empty. */
static bool
bt_env_set(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && v[0] != '\0';
}

/* Skip without the tools (fail where they must be there), else run the group. */
int
bt_run_group(const char *name, const struct CMUnitTest *tests, size_t n, const char *const *tools,
             size_t ntools, int (*setup)(void **), int (*teardown)(void **))
{
	const char *why = bt_missing(tools, ntools);

	if (why != NULL && (bt_env_set("TT_STRICT_TOOLS") || bt_env_set("CI"))) {
		/* scripts/check installed every tool: a missing one is a failure */
		printf("1..1\nnot ok 1 - %s (scripts/check installs it)\n", why);
		return 1;
	}
	if (why != NULL) {
		printf("1..0 # SKIP %s\n", why);
		return 0;
	}
	return _cmocka_run_group_tests(name, tests, n, setup, teardown);
}
