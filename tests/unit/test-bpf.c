/* Unit tests for the libbpf adapter against the running kernel (as root,
 * or with CAP_BPF and CAP_PERFMON; skipped otherwise, saying why): a
 * program the verifier refuses comes back as an error quoting the
 * verifier, the profiler's own object loads, and its maps read and drain
 * through the adapter. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bpf/profile.h"
#include "tracetop/bpf.h"

extern const unsigned char tt_bpf_bad_obj[], tt_bpf_profile_obj[];
extern const size_t tt_bpf_bad_obj_len, tt_bpf_profile_obj_len;

/* Skip unless this process may load BPF. */
static int
need_bpf(void **state)
{
	struct tt_err err;

	(void)state;
	if (!tt_bpf_allowed(&err)) {
		printf("# SKIP %s\n", err.msg);
		skip();
	}
	return 0;
}

/* The verifier's refusal, in its words, and no fd left behind. */
static void
test_refused(void **state)
{
	struct tt_err err = {{0}};
	struct tt_bpf *b;

	(void)state;
	b = tt_bpf_open(tt_bpf_bad_obj, tt_bpf_bad_obj_len, "bad", &err);
	assert_non_null(b);
	assert_int_equal(tt_bpf_load(b, &err), -1);
	printf("# %s\n", err.msg);
	assert_non_null(strstr(err.msg, "the kernel's verifier refused BPF program bad: "));
	assert_non_null(strstr(err.msg, "invalid mem access"));
	tt_bpf_close(b);
}

/* The profiler's object loads with its maps sized; a hash map drains. */
static void
test_profile_maps(void **state)
{
	struct tt_err err = {{0}};
	struct tt_bpf *b;
	struct tt_prof_key k = {.pid = 1, .tid = 2, .ustack = -1, .kstack = -1, .ip = 3}, keys[8];
	struct tt_prof_val v = {.count = 5}, vals[8];
	uint32_t n = 8;
	int fd;

	(void)state;
	b = tt_bpf_open(tt_bpf_profile_obj, tt_bpf_profile_obj_len, "profile", &err);
	assert_non_null(b);
	assert_int_equal(tt_bpf_resize(b, "counts0", 64, &err), 0);
	assert_int_equal(tt_bpf_resize(b, "no_such_map", 64, &err), -1);
	assert_int_equal(tt_bpf_autoload(b, "tt_profile_stack", false, &err), 0);
	assert_int_equal(tt_bpf_load(b, &err), 0);
	fd = tt_bpf_map_fd(b, "counts0");
	assert_true(fd >= 0);
	assert_int_equal(tt_bpf_map_fd(b, "no_such_map"), -1);
	assert_int_equal(tt_bpf_update(fd, &k, &v), 0);
	k.ip = 4;
	v.count = 7;
	assert_int_equal(tt_bpf_update(fd, &k, &v), 0);
	assert_int_equal(tt_bpf_drain(fd, keys, vals, sizeof *keys, sizeof *vals, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(vals[0].count + vals[1].count, 12);
	/* drained: empty now */
	assert_int_equal(tt_bpf_lookup(fd, &k, &v), -2 /* -ENOENT */);
	/* not loaded: attaching says so */
	assert_int_equal(tt_bpf_attach_perf(b, "tt_profile_stack", 0, &err), -1);
	assert_non_null(strstr(err.msg, "not loaded"));
	tt_bpf_close(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_refused, need_bpf),
	    cmocka_unit_test_setup(test_profile_maps, need_bpf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
