/* Unit tests for the probe modules: SPEC and argument syntax (C++ names
 * too; test-probe-names resolves them), the
 * dynamic-event listing, DWARF translation on programs this test builds
 * (with -O0, checked against the stores objdump shows in the prologue, and
 * -O2), BTF parameters from a BTF file the test writes, finding binaries,
 * and, in a fake tracefs directory, what the manager and the clean-up
 * write (only dead tracetops' groups are removed). */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "buildtest.h"

#include "tracetop/probe-args.h"
#include "tracetop/probe.h"
#include "tracetop/sym-elf.h"
#include "tracetop/tracefs.h"
#include "tracetop/util.h"

static const char prog_src[] =
    "struct pair { long x, y; };\n"
    "int counter;\n"
    "__attribute__((noinline)) int target(int a, long b, const char *s, struct pair p,\n"
    "                                      unsigned char c)\n"
    "{\n"
    "	char buf[16];\n"
    "	static int calls;\n"
    "	int local = a + (int)b;\n"
    "	calls++;\n"
    "	counter += local;\n"
    "	buf[0] = s[0]; buf[1] = 0;\n"
    "	return local + buf[0] + (int)p.x + c + calls;\n"
    "}\n"
    "int main(int argc, char **argv)\n"
    "{ struct pair p = {1, 2}; return target(argc, 2, argv[0], p, 3) > 0 ? 0 : 1; }\n";

/* Parse a SPEC that must be good. */
static void
spec_ok(const char *text, struct probe_spec *s)
{
	struct tt_err err;

	if (probe_spec_parse(text, s, &err) != 0)
		fail_msg("'%s': %s", text, err.msg);
}

/* A SPEC that must be refused with a message matching the regex want. */
static void
spec_bad(const char *text, const char *want)
{
	struct probe_spec s;
	struct tt_err err;
	regex_t re;
	int m;

	if (probe_spec_parse(text, &s, &err) == 0)
		fail_msg("'%s' was taken", text);
	assert_int_equal(regcomp(&re, want, REG_EXTENDED | REG_NOSUB), 0);
	m = regexec(&re, err.msg, 0, NULL, 0);
	regfree(&re);
	if (m != 0)
		fail_msg("'%s': message '%s' does not match '%s'", text, err.msg, want);
}

/* SPECs: kinds, binaries, offsets, %return, arguments. */
static void
test_spec(void **state)
{
	struct probe_spec s;

	spec_ok("do_sys_openat2", &s);
	assert_int_equal(s.kind, PROBE_KPROBE);
	assert_null(s.binary);
	assert_string_equal(s.func, "do_sys_openat2");
	probe_spec_free(&s);
	spec_ok("ksys_write+0x10 %di +8(%sp):u32", &s);
	assert_int_equal(s.offset, 16);
	assert_int_equal(s.nargs, 2);
	assert_string_equal(s.args[0].name, "di");
	assert_string_equal(s.args[0].fetch, "%di");
	assert_string_equal(s.args[1].name, "arg2");
	assert_string_equal(s.args[1].fetch, "+8(%sp):u32");
	probe_spec_free(&s);
	spec_ok("vfs_read%return ret=$retval:s64", &s);
	assert_int_equal(s.kind, PROBE_KRETPROBE);
	assert_string_equal(s.args[0].name, "ret");
	probe_spec_free(&s);
	spec_ok("/usr/lib/x86_64-linux-gnu/libc.so.6:malloc size len=%rdi:u64 n:x32", &s);
	assert_int_equal(s.kind, PROBE_UPROBE);
	assert_string_equal(s.binary, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(s.args[0].var, "size");
	assert_null(s.args[0].fetch);
	assert_string_equal(s.args[1].fetch, "%di:u64"); /* the kernel's name of %rdi */
	assert_string_equal(s.args[2].var, "n");
	assert_string_equal(s.args[2].type, "x32");
	probe_spec_free(&s);
	spec_ok("prog:0x1139%return $retval $retval", &s);
	assert_int_equal(s.kind, PROBE_URETPROBE);
	assert_true(s.raw_offset);
	assert_int_equal(s.offset, 0x1139);
	assert_string_equal(s.args[0].name, "retval");
	assert_string_equal(s.args[1].name, "retval_2"); /* made unique */
	probe_spec_free(&s);
	spec_ok("a:b:f.isra.0+4 $arg2 $stack3 $comm @0x1000 @+0x20:u8 \\42 \\\"hi\"", &s);
	assert_string_equal(s.binary, "a:b");
	assert_string_equal(s.func, "f.isra.0");
	assert_string_equal(s.args[0].fetch, "$arg2"); /* left for when the address is known */
	probe_spec_free(&s);

	spec_bad("", "empty probe spec");
	spec_bad("prog:", "no function name");
	spec_bad(":main", "no binary");
	spec_bad("f+", "bad offset");
	spec_bad("f+4%return", "return probe cannot have an offset");
	spec_bad("f%entry", "only %return");
	spec_bad("1f", "bad function name");
	spec_bad("f;rm", "character ';'");
	spec_bad("f %foo", "unknown register '%foo'");
	spec_bad("f +8(%sp", "expected '\\)'");
	spec_bad("f 8(%sp)", "cannot start a fetch-arg");
	spec_bad("f %di:u7", "unknown type ':u7'");
	spec_bad("f %di:string", "needs memory to read: write \\+0\\(%di\\):string");
	spec_bad("f $retval", "only there in a return probe");
	spec_bad("f $foo", "unknown variable '\\$foo'");
	spec_bad("f $arg0", "numbered from \\$arg1");
	spec_bad("prog:f @sym", "kernel probes only");
	spec_bad("f @+8", "user probes only");
	spec_bad("f x=%di x=%si", "two arguments are called 'x'");
	spec_bad("f 1x=%di", "bad argument name");
	spec_bad("f common_pid=%di", "belong to the kernel");
	spec_bad("f x=", "nothing after '='");
	spec_bad("f +1(+1(+1(+1(+1(+1(+1(+1(+1(%di)))))))))", "nested too deep");
}

/* Types and the canonical fetch-args. */
static void
test_fetchargs(void **state)
{
	static const char *const good[] = {"u8",     "s16",     "x32",    "u64",
	                                   "string", "ustring", "char",   "symbol",
	                                   "symstr", "b4@3/32", "u32[4]", "%pd"};
	static const char *const bad[] = {"",     "u",      "u12",    "s128", "string[2]",
	                                  "b4@3", "b0@1/8", "u32[0]", "u32[", "int"};
	char out[PROBE_ARG_MAX];
	struct tt_err err;

	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		assert_true(probe_type_ok(good[i]));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (probe_type_ok(bad[i]))
			fail_msg("type '%s' taken", bad[i]);
	/* a user probe at entry: $argN become the argument registers */
	assert_int_equal(probe_fetcharg_check("$arg1", PROBE_ARGF_ENTRY, out, sizeof out, &err), 0);
	assert_string_equal(out, "%di");
	assert_int_equal(
	    probe_fetcharg_check("+0($arg2):string", PROBE_ARGF_ENTRY, out, sizeof out, &err), 0);
	assert_string_equal(out, "+0(%si):string");
	assert_int_equal(probe_fetcharg_check("$arg8:u32", PROBE_ARGF_ENTRY, out, sizeof out, &err),
	                 0);
	assert_string_equal(out, "$stack2:u32");
	assert_int_equal(probe_fetcharg_check("$arg1", 0, out, sizeof out, &err), -1);
	assert_non_null(strstr(err.msg, "only known at a function's entry"));
	/* the kernel knows $argN, unless told it does not */
	assert_int_equal(probe_fetcharg_check("$arg3", PROBE_ARGF_KERNEL, out, sizeof out, &err),
	                 0);
	assert_string_equal(out, "$arg3");
	assert_int_equal(
	    probe_fetcharg_check("$arg3", PROBE_ARGF_KERNEL | PROBE_ARGF_ENTRY | PROBE_ARGF_NO_ARGN,
	                         out, sizeof out, &err),
	    0);
	assert_string_equal(out, "%dx");
	assert_int_equal(probe_fetcharg_check("-16(%rbp):s64", 0, out, sizeof out, &err), 0);
	assert_string_equal(out, "-16(%bp):s64");
	assert_int_equal(
	    probe_fetcharg_check("+0(@jiffies+8):u64", PROBE_ARGF_KERNEL, out, sizeof out, &err),
	    0);
	assert_string_equal(out, "+0(@jiffies+8):u64");
	assert_int_equal(probe_fetcharg_check("%di", 0, out, 3, &err), -1);
	assert_string_equal(probe_arg_register(1), "di");
	assert_string_equal(probe_arg_register(6), "r9");
	assert_null(probe_arg_register(7));
}

/* Listings of dynamic events; group names. */
static void
test_listing(void **state)
{
	static const char text[] =
	    "p:tracetop_12/probed_fn /bin/prog:0x0000000000001139 a=%di:s32 s=+0(%si):string\n"
	    "r16:kprobes/ret do_sys_openat2+0 r=$retval\n"
	    "p:kprobes/open do_sys_openat2+0\n"
	    "r:grp/uret /lib/libc.so.6:0x00000000000a0000\n"
	    "e:eprobes/ev sched.sched_switch\n"
	    "s:synthetic/lat u64 lat\n"
	    "garbage line\n"
	    "p:/nogroup x\n"
	    "p:g/";
	struct probe_event *v;
	size_t n;
	int pid;

	probe_events_parse(text, sizeof text - 1, &v, &n);
	assert_int_equal(n, 6);
	assert_string_equal(v[0].group, "tracetop_12");
	assert_string_equal(v[0].event, "probed_fn");
	assert_int_equal(v[0].kind, PROBE_UPROBE);
	assert_string_equal(v[0].target, "/bin/prog:0x0000000000001139");
	assert_int_equal(v[0].nargs, 2);
	assert_string_equal(v[0].args[1], "s=+0(%si):string");
	assert_int_equal(v[1].kind, PROBE_KRETPROBE);
	assert_string_equal(v[1].event, "ret");
	assert_int_equal(v[2].kind, PROBE_KPROBE);
	assert_int_equal(v[3].kind, PROBE_URETPROBE);
	assert_int_equal(v[4].kind, PROBE_EPROBE);
	assert_int_equal(v[5].kind, PROBE_SYNTHETIC);
	assert_string_equal(probe_kind_name(v[3].kind), "uretprobe");
	probe_events_free(v, n);

	assert_true(probe_group_parse("tracetop_123", &pid));
	assert_int_equal(pid, 123);
	assert_false(probe_group_parse("tracetop_", &pid));
	assert_false(probe_group_parse("tracetop_0", &pid));
	assert_false(probe_group_parse("tracetop_12x", &pid));
	assert_false(probe_group_parse("tracetop-12", &pid));
	assert_false(probe_group_parse("xtracetop_12", &pid));
}

/* Demangled FUNCs: unquoted without blanks, quoted with them (or the whole
 * target quoted); '::' does not end the binary; kernel names stay plain. */
static void
test_spec_names(void **state)
{
	struct probe_spec s;

	spec_ok("bin:ns::Box<int>::get", &s);
	assert_string_equal(s.binary, "bin");
	assert_string_equal(s.func, "ns::Box<int>::get");
	assert_int_equal(s.kind, PROBE_UPROBE);
	probe_spec_free(&s);
	spec_ok("/a:b/bin:ns::f(int)+4 x=%di", &s);
	assert_string_equal(s.binary, "/a:b/bin");
	assert_string_equal(s.func, "ns::f(int)");
	assert_int_equal(s.offset, 4);
	assert_int_equal(s.nargs, 1);
	probe_spec_free(&s);
	spec_ok("bin:\"ns::f(int, char)\"%return $retval", &s);
	assert_string_equal(s.binary, "bin");
	assert_string_equal(s.func, "ns::f(int, char)");
	assert_int_equal(s.kind, PROBE_URETPROBE);
	assert_int_equal(s.nargs, 1);
	probe_spec_free(&s);
	spec_ok("\"bin:ns::operator+(ns::Box<int> const&, int)\"+8", &s);
	assert_string_equal(s.binary, "bin");
	assert_string_equal(s.func, "ns::operator+(ns::Box<int> const&, int)");
	assert_int_equal(s.offset, 8);
	probe_spec_free(&s);

	spec_bad("bin:ns::f(int, char)", "quote a function name");
	spec_bad("bin:\"ns::f(int", "no closing '\"'");
	spec_bad("bin:\"f\"x", "unexpected 'x'");
	spec_bad("b\"in\":f", "starts the spec or follows BINARY:");
	spec_bad("ns::f", "character ':'");
	spec_bad("\"do_sys open\"", "character ' '");
	spec_bad("bin:\"f\x01\"", "bad function name");
}

/* A binary whose path has blanks or ':' is quoted ("BINARY":FUNC), and
 * probe_spec_target writes any names so the parser reads them back. */
static void
test_spec_quoted_binary(void **state)
{
	static const char *const cases[][2] = {
	    {"/opt/my app:v2/bin", "main"},
	    {"/opt/my app/bin", "ns::f(int, char)"},
	    {"/usr/bin/plain", "ns::Box<int>::get"},
	    {"/x:y", "op+"},
	    {NULL, "do_sys_open"},
	};
	struct probe_spec s;
	struct tt_err err;
	char buf[256];

	(void)state;
	spec_ok("\"/opt/my app:v2/bin\":main%return", &s);
	assert_string_equal(s.binary, "/opt/my app:v2/bin");
	assert_string_equal(s.func, "main");
	assert_int_equal(s.kind, PROBE_URETPROBE);
	probe_spec_free(&s);
	spec_ok("\"/opt/a b/bin\":\"ns::f(int, char)\"+4 x=%di", &s);
	assert_string_equal(s.binary, "/opt/a b/bin");
	assert_string_equal(s.func, "ns::f(int, char)");
	assert_int_equal(s.offset, 4);
	assert_int_equal(s.nargs, 1);
	probe_spec_free(&s);
	spec_bad("\"/opt/a b/bin\":\"f", "no closing '\"'");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(probe_spec_target(buf, sizeof buf, cases[i][0], cases[i][1], &err),
		                 0);
		spec_ok(buf, &s);
		if (cases[i][0] != NULL)
			assert_string_equal(s.binary, cases[i][0]);
		else
			assert_null(s.binary);
		assert_string_equal(s.func, cases[i][1]);
		probe_spec_free(&s);
	}
	assert_int_equal(probe_spec_target(buf, sizeof buf, "/a\"b", "f", &err), -1);
	assert_non_null(strstr(err.msg, "cannot be probed"));
	assert_int_equal(probe_spec_target(buf, 8, "/long/path", "f", &err), -1);
}

/* The variable called name in vs (which must have it). */
static const struct probe_var *
var(const struct probe_vars *vs, const char *name)
{
	for (size_t i = 0; i < vs->n; i++)
		if (strcmp(vs->v[i].name, name) == 0)
			return &vs->v[i];
	fail_msg("no variable %s", name);
	return NULL;
}

/* The variables of target() in the built binary bin. */
static void
vars_of(const char *bin, uint64_t off, bool ret, struct probe_vars *vs)
{
	struct probe_spec s;
	struct probe_ctx ctx = {0};
	struct tt_err err;
	char *spec = xasprintf("%s:target", bt_path(bin));
	struct symelf_hit hit;
	struct dso_seg *segs;
	size_t nsegs;
	FILE *devnull = fopen("/dev/null", "w");

	/* the listing runs the same path */
	spec_ok(spec, &s);
	if (probe_vars_print(devnull, &s, &ctx, &err) != 0)
		fail_msg("%s", err.msg);
	fclose(devnull);
	probe_spec_free(&s);
	free(spec);
	assert_int_equal(symelf_find(bt_path(bin), NULL, "target", &hit, &segs, &nsegs, &err), 1);
	assert_int_equal(hit.kind, SYMELF_CODE);
	if (probe_dwarf_vars(bt_path(bin), "target", hit.addr, off, ret, segs, nsegs, vs, &err) !=
	    0)
		fail_msg("%s", err.msg);
	free(segs);
}

/* Whether objdump shows target's prologue storing reg at off(%rbp). */
static bool
stored_at(const char *bin, const char *reg, const char *fetch)
{
	int off;

	if (sscanf(fetch, "+0(%d(%%bp))", &off) != 1 && sscanf(fetch, "%d(%%bp)", &off) != 1)
		return false;
	return bt_sh("objdump -d --no-show-raw-insn '%s' | sed -n '/<target>:/,/^$/p' | "
	             "grep -Eq 'mov +%%%s,-0x%x\\(%%rbp\\)'",
	             bt_path(bin), reg, -off);
}

/* -O0: past the prologue, the parameters are in the frame, where the
 * prologue stored them; types give the fetch-arg types. */
static void
test_dwarf_o0(void **state)
{
	struct probe_vars vs;
	const struct probe_var *v;

	vars_of("t0", 0, false, &vs);
	assert_true(vs.after_prologue);
	assert_string_equal(vs.source, "DWARF");
	assert_string_equal(vs.where, "t.c:3");
	assert_true(var(&vs, "a")->param);
	assert_non_null(strstr(var(&vs, "a")->fetch, "(%bp):s32"));
	assert_true(stored_at("t0", "edi", var(&vs, "a")->fetch));
	assert_non_null(strstr(var(&vs, "b")->fetch, "(%bp):s64"));
	assert_true(stored_at("t0", "rsi", var(&vs, "b")->fetch));
	v = var(&vs, "s");
	assert_string_equal(v->type, "const char *");
	assert_true(strncmp(v->fetch, "+0(-", 4) == 0 && strstr(v->fetch, "(%bp)):string"));
	assert_true(stored_at("t0", "rdx", v->fetch));
	assert_null(var(&vs, "p")->fetch);
	assert_non_null(strstr(var(&vs, "p")->why, "struct"));
	assert_non_null(strstr(var(&vs, "c")->fetch, "(%bp):u8"));
	v = var(&vs, "buf");
	assert_false(v->param);
	assert_non_null(strstr(v->fetch, "(%bp):string")); /* the array itself */
	v = var(&vs, "calls"); /* static: relative to where the probe's file is mapped */
	assert_non_null(v->fetch);
	assert_true(strncmp(v->fetch, "@+0x", 4) == 0);
	assert_non_null(strstr(var(&vs, "local")->fetch, "(%bp):s32"));
	probe_vars_free(&vs);
}

/* -O2: at the entry, the parameters are still in their registers. */
static void
test_dwarf_o2(void **state)
{
	struct probe_vars vs;
	struct probe_arg args[3] = {
	    {.name = xstrdup("a"), .var = xstrdup("a")},
	    {.name = xstrdup("s"), .var = xstrdup("s"), .type = xstrdup("x64")},
	    {.name = xstrdup("second"), .fetch = xstrdup("$arg2:u32")},
	};
	struct tt_err err;

	vars_of("t2", 0, false, &vs);
	assert_false(vs.after_prologue);
	assert_string_equal(var(&vs, "a")->fetch, "%di:s32");
	assert_string_equal(var(&vs, "b")->fetch, "%si:s64");
	assert_string_equal(var(&vs, "s")->fetch, "+0(%dx):string");
	assert_string_equal(var(&vs, "c")->fetch, "%r9:u8");
	/* names to fetch-args; a type given retypes the value, not the string */
	assert_int_equal(probe_args_resolve(args, 3, &vs, PROBE_ARGF_ENTRY, &err), 0);
	assert_string_equal(args[0].fetch, "%di:s32");
	assert_string_equal(args[1].fetch, "%dx:x64");
	assert_string_equal(args[2].fetch, "%si:u32");
	free(args[0].fetch);
	args[0].fetch = NULL;
	free(args[0].var);
	args[0].var = xstrdup("nope");
	assert_int_equal(probe_args_resolve(args, 1, &vs, PROBE_ARGF_ENTRY, &err), -1);
	assert_non_null(
	    strstr(err.msg, "no parameter or variable 'nope' here (DWARF has: a, b, s"));
	for (size_t i = 0; i < 3; i++)
		probe_arg_free(&args[i]);
	probe_vars_free(&vs);
	/* at a return, nothing of the frame is left */
	vars_of("t2", 0, true, &vs);
	assert_int_equal(vs.n, 0);
	probe_vars_free(&vs);
}

/* Resolving user SPECs: file offsets, data and unknown symbols, names. */
static void
test_resolve_user(void **state)
{
	struct probe_ctx ctx = {0};
	struct probe_spec s;
	struct probe_place pl;
	struct tt_err err;
	uint64_t addr, size;
	char *spec;

	assert_true(bt_nm(bt_path("t2"), false, "target", &addr, &size));
	spec = xasprintf("%s:target a s", bt_path("t2"));
	spec_ok(spec, &s);
	free(spec);
	assert_int_equal(probe_resolve(&s, &ctx, &pl, &err), 0);
	assert_int_equal(pl.kind, PROBE_UPROBE);
	assert_int_equal(pl.addr, addr);
	assert_string_equal(pl.args[0], "a=%di:s32");
	assert_string_equal(pl.args[1], "s=+0(%dx):string");
	assert_int_equal(pl.offset, addr); /* PIE: text at its own file offset */
	spec = xasprintf("%s:0x%" PRIx64, bt_path("t2"), pl.offset);
	assert_string_equal(pl.place, spec);
	free(spec);
	probe_place_free(&pl);
	probe_spec_free(&s);

	spec = xasprintf("%s:counter", bt_path("t2"));
	spec_ok(spec, &s);
	free(spec);
	assert_int_equal(probe_resolve(&s, &ctx, &pl, &err), -1);
	assert_non_null(strstr(err.msg, "is data (a variable), not code"));
	probe_spec_free(&s);
	spec = xasprintf("%s:nosuch", bt_path("t2"));
	spec_ok(spec, &s);
	free(spec);
	assert_int_equal(probe_resolve(&s, &ctx, &pl, &err), -1);
	assert_non_null(strstr(err.msg, "no function 'nosuch'"));
	probe_spec_free(&s);
	spec = xasprintf("%s:target", bt_path("nodbg"));
	spec_ok(spec, &s);
	s.args = xcalloc(1, sizeof *s.args);
	s.nargs = 1;
	s.args[0] = (struct probe_arg){.name = xstrdup("a"), .var = xstrdup("a")};
	free(spec);
	assert_int_equal(probe_resolve(&s, &ctx, &pl, &err), -1);
	assert_non_null(strstr(err.msg, "no debug info"));
	probe_spec_free(&s);
}

/* Binaries by path, by the command's name, in PATH, as libraries. */
static void
test_find_binary(void **state)
{
	char *argv[] = {(char *)bt_path("t0"), NULL};
	int self = (int)getpid();
	struct probe_ctx ctx = {.argv = argv, .pids = &self, .npids = 1};
	struct tt_err err;
	char *p;

	p = probe_find_binary("t0", &ctx, &err);
	assert_non_null(p);
	assert_string_equal(p, bt_path("t0"));
	free(p);
	p = probe_find_binary("sh", NULL, &err); /* PATH */
	assert_non_null(p);
	assert_true(p[0] == '/');
	free(p);
	p = probe_find_binary("libc", &ctx, &err); /* our own mappings */
	assert_non_null(p);
	assert_non_null(strstr(p, "/libc"));
	free(p);
	/* system-wide: the library directories, where a development package
	 * puts the libc.so linker script beside the real libc.so.6 */
	p = probe_find_binary("libc", NULL, &err);
	assert_non_null(p);
	assert_non_null(strstr(p, "/libc.so.6"));
	free(p);
	assert_null(probe_find_binary("no-such-binary-xyz", &ctx, &err));
	assert_non_null(strstr(err.msg, "unknown binary 'no-such-binary-xyz'"));
	assert_null(probe_find_binary("/no/such/file", &ctx, &err));
	assert_non_null(strstr(err.msg, "unknown binary '/no/such/file'"));
}

/* Append a 32-bit word to a growing buffer. */
static void
put32(char **buf, size_t *len, uint32_t v)
{
	*buf = xrealloc(*buf, *len + 4);
	memcpy(*buf + *len, &v, 4);
	*len += 4;
}

/* A BTF file with: int, char, const char *, struct s, u64 (a typedef),
 * kfunc(int fd, const char *name, struct s *p, u64 v),
 * kfunc2(struct s st, int n, ...) and many(int x1, ..., int x8). */
static void
write_btf(const char *path)
{
	static const char strs[] =
	    "\0int\0char\0s\0u64\0ull\0kfunc\0fd\0name\0p\0v\0kfunc2\0st\0n\0"
	    "many\0x";
	char *t = NULL;
	size_t tl = 0;
	uint32_t hdr[6];
	FILE *f;

	/* offsets into strs */
	enum {
		S_INT = 1,
		S_CHAR = 5,
		S_S = 10,
		S_U64 = 12,
		S_ULL = 16,
		S_KFUNC = 20,
		S_FD = 26,
		S_NAME = 29,
		S_P = 34,
		S_V = 36,
		S_KFUNC2 = 38,
		S_ST = 45,
		S_N = 48,
		S_MANY = 50,
		S_X = 55
	};
	put32(&t, &tl, S_INT), put32(&t, &tl, 1u << 24), put32(&t, &tl, 4),
	    put32(&t, &tl, 1u << 24 | 32); /* 1 int */
	put32(&t, &tl, S_CHAR), put32(&t, &tl, 1u << 24), put32(&t, &tl, 1),
	    put32(&t, &tl, 3u << 24 | 8);                                   /* 2 char */
	put32(&t, &tl, 0), put32(&t, &tl, 10u << 24), put32(&t, &tl, 2);    /* 3 const char */
	put32(&t, &tl, 0), put32(&t, &tl, 2u << 24), put32(&t, &tl, 3);     /* 4 const char * */
	put32(&t, &tl, S_S), put32(&t, &tl, 4u << 24), put32(&t, &tl, 16);  /* 5 struct s */
	put32(&t, &tl, S_U64), put32(&t, &tl, 8u << 24), put32(&t, &tl, 7); /* 6 u64 */
	put32(&t, &tl, S_ULL), put32(&t, &tl, 1u << 24), put32(&t, &tl, 8),
	    put32(&t, &tl, 64);                                              /* 7 */
	put32(&t, &tl, 0), put32(&t, &tl, 13u << 24 | 4), put32(&t, &tl, 1); /* 8 proto */
	put32(&t, &tl, S_FD), put32(&t, &tl, 1), put32(&t, &tl, S_NAME), put32(&t, &tl, 4);
	put32(&t, &tl, S_P), put32(&t, &tl, 10), put32(&t, &tl, S_V), put32(&t, &tl, 6);
	put32(&t, &tl, S_KFUNC), put32(&t, &tl, 12u << 24), put32(&t, &tl, 8); /* 9 kfunc */
	put32(&t, &tl, 0), put32(&t, &tl, 2u << 24), put32(&t, &tl, 5);        /* 10 struct s * */
	put32(&t, &tl, 0), put32(&t, &tl, 13u << 24 | 3), put32(&t, &tl, 1);   /* 11 proto */
	put32(&t, &tl, S_ST), put32(&t, &tl, 5), put32(&t, &tl, S_N), put32(&t, &tl, 1);
	put32(&t, &tl, 0), put32(&t, &tl, 0);                                    /* ... */
	put32(&t, &tl, S_KFUNC2), put32(&t, &tl, 12u << 24), put32(&t, &tl, 11); /* 12 */
	put32(&t, &tl, 0), put32(&t, &tl, 13u << 24 | 8), put32(&t, &tl, 1);     /* 13 proto */
	for (int i = 0; i < 8; i++)
		put32(&t, &tl, S_X), put32(&t, &tl, 1);
	put32(&t, &tl, S_MANY), put32(&t, &tl, 12u << 24), put32(&t, &tl, 13); /* 14 */
	hdr[0] = 0xeB9F | 1u << 16; /* magic, version 1, flags 0 */
	hdr[1] = 24;                /* hdr_len */
	hdr[2] = 0;                 /* type_off */
	hdr[3] = (uint32_t)tl;
	hdr[4] = (uint32_t)tl; /* str_off */
	hdr[5] = sizeof strs;
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(hdr, 4, 6, f), 6);
	assert_int_equal(fwrite(t, 1, tl, f), tl);
	assert_int_equal(fwrite(strs, 1, sizeof strs, f), sizeof strs);
	assert_int_equal(fclose(f), 0);
	free(t);
}

/* BTF parameters mapped to the argument registers. */
static void
test_btf(void **state)
{
	struct probe_vars vs;
	struct tt_err err;

	write_btf(bt_path("btf"));
	probe_btf_set_path(bt_path("btf"));
	assert_int_equal(probe_btf_params("kfunc", &vs, &err), 0);
	assert_int_equal(vs.n, 4);
	assert_string_equal(vs.source, "BTF");
	assert_string_equal(var(&vs, "fd")->fetch, "%di:s32");
	assert_string_equal(var(&vs, "name")->type, "const char *");
	assert_string_equal(var(&vs, "name")->fetch, "+0(%si):string");
	assert_string_equal(var(&vs, "p")->fetch, "%dx:x64");
	assert_string_equal(var(&vs, "p")->type, "struct s *");
	assert_string_equal(var(&vs, "v")->fetch, "%cx:u64");
	probe_vars_free(&vs);
	assert_int_equal(probe_btf_params("kfunc2", &vs, &err), 0);
	assert_int_equal(vs.n, 2); /* the ... is no parameter */
	assert_null(var(&vs, "st")->fetch);
	assert_null(var(&vs, "n")->fetch); /* its register is unknown after a struct */
	probe_vars_free(&vs);
	assert_int_equal(probe_btf_params("many", &vs, &err), 0);
	assert_int_equal(vs.n, 8);
	assert_string_equal(vs.v[5].fetch, "%r9:s32");
	assert_string_equal(vs.v[6].fetch, "$stack1:s32");
	assert_string_equal(vs.v[7].fetch, "$stack2:s32");
	probe_vars_free(&vs);
	assert_int_equal(probe_btf_params("nosuch", &vs, &err), -1);
	assert_non_null(strstr(err.msg, "no kernel function 'nosuch' in BTF"));
	/* a truncated file is refused, not read past its end */
	assert_true(bt_sh("head -c 60 '%s' > '%s'", bt_path("btf"), bt_path("btf.short")));
	probe_btf_set_path(bt_path("btf.short"));
	assert_int_equal(probe_btf_params("kfunc", &vs, &err), -1);
	probe_btf_set_path(NULL);
	/* the running kernel's, when it has one */
	if (access("/sys/kernel/btf/vmlinux", R_OK) == 0 &&
	    probe_btf_params("do_sys_openat2", &vs, &err) == 0) {
		assert_string_equal(var(&vs, "dfd")->fetch, "%di:s32");
		assert_string_equal(var(&vs, "filename")->fetch, "+0(%si):string");
		probe_vars_free(&vs);
	}
}

/* Write text to a file of the fake tracefs. */
static void
fake_write(const char *name, const char *text)
{
	FILE *f = fopen(bt_path(name), "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Read a file of the fake tracefs (malloc'd). */
static char *
fake_read(const char *name)
{
	FILE *f = fopen(bt_path(name), "r");
	char *buf = xcalloc(1, 8192);

	assert_non_null(f);
	buf[fread(buf, 1, 8191, f)] = '\0';
	fclose(f);
	return buf;
}

/* Count the groups removed. */
static void
count_removed(void *arg, const char *group, int pid, size_t nevents)
{
	*(size_t *)arg += nevents;
}

/* In a fake tracefs: only dead tracetops' groups are removed; the manager
 * names its probes, writes their lines and removes them; kprobes are
 * refused without kprobe_events, naming CONFIG_KPROBE_EVENTS. */
static void
test_fake_tracefs(void **state)
{
	pid_t dead = fork();
	struct probes *p;
	struct probes_snapshot snap = {0};
	struct tt_err err;
	size_t removed = 0;
	char *text, *want, *spec;
	int i1, i2;

	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	assert_true(bt_sh("mkdir -p '%s/fake/events'", bt_dir));
	tt_tracefs_set_dir(bt_path("fake"));
	text = xasprintf("p:tracetop_%d/a /bin/true:0x1000\nr:tracetop_%d/b /bin/true:0x1000\n"
	                 "p:tracetop_%d/mine /bin/true:0x1000\np:tracetop_1/init /bin/true:0x1000\n"
	                 "p:other_x/e /bin/true:0x1000\n",
	                 (int)dead, (int)dead, (int)getpid());
	fake_write("fake/dynamic_events", text);
	fake_write("fake/uprobe_events", "");
	free(text);
	assert_int_equal(probe_cleanup_stale(count_removed, &removed, &err), 1);
	assert_int_equal(removed, 2);
	text = fake_read("fake/dynamic_events");
	want = xasprintf("p:other_x/e /bin/true:0x1000\n-:tracetop_%d/a\n-:tracetop_%d/b\n",
	                 (int)dead, (int)dead);
	assert_non_null(strstr(text, want)); /* those two, appended; nothing else */
	free(want);
	free(text);

	assert_false(probe_kind_supported(PROBE_KPROBE, &err));
	assert_non_null(strstr(err.msg, "CONFIG_KPROBE_EVENTS"));
	assert_true(probe_kind_supported(PROBE_UPROBE, &err));
	fake_write("fake/dynamic_events", "p:other_x/e /bin/true:0x1000\n");
	p = probes_new(NULL);
	assert_int_equal(probes_add(p, "do_sys_openat2", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "CONFIG_KPROBE_EVENTS"));
	spec = xasprintf("%s:target a", bt_path("t2"));
	assert_int_equal((i1 = probes_add(p, spec, NULL, &err)), 0);
	assert_int_equal((i2 = probes_add(p, spec, NULL, &err)), 1);
	free(spec);
	want = xasprintf("tracetop_%d:target_1", (int)getpid());
	assert_string_equal(probes_tracepoint(p, (size_t)i2), want);
	assert_int_equal(probes_find(p, want), i2);
	assert_int_equal(probes_find(p, "target"), i1);
	free(want);
	text = fake_read("fake/uprobe_events");
	want = xasprintf("p:tracetop_%d/target %s:0x", (int)getpid(), bt_path("t2"));
	assert_true(strncmp(text, want, strlen(want)) == 0);
	assert_non_null(strstr(text, " a=%di:s32\n"));
	free(want);
	free(text);
	probes_snapshot(p, &snap);
	assert_int_equal(snap.n, 3);
	assert_true(snap.rows[0].ours);
	assert_string_equal(snap.rows[0].state, "waiting");
	assert_string_equal(snap.rows[0].args[0], "a=%di:s32");
	assert_false(snap.rows[2].ours);
	assert_string_equal(snap.rows[2].name, "other_x:e");
	probes_snapshot_free(&snap);
	assert_int_equal(probes_remove(p, (size_t)i1, &err), 0);
	assert_int_equal(probes_count(p), 1);
	probes_free(p);
	text = fake_read("fake/uprobe_events");
	want = xasprintf("-:tracetop_%d/target\n-:tracetop_%d/target_1\n", (int)getpid(),
	                 (int)getpid());
	assert_non_null(strstr(text, want));
	free(want);
	free(text);
	tt_tracefs_set_dir(NULL);
}

/* Build the test programs. */
static int
setup(void **state)
{
	FILE *f;

	if (bt_mkdirs("tt-probe") != 0)
		return -1;
	f = fopen(bt_path("t.c"), "w");
	if (f == NULL || fputs(prog_src, f) < 0 || fclose(f) != 0)
		return -1;
	return bt_sh("cd '%s' && %s -O0 -g -fno-omit-frame-pointer -o t0 t.c && "
	             "%s -O2 -g -o t2 t.c && %s -O2 -o nodbg t.c",
	             bt_dir, bt_cc, bt_cc, bt_cc)
	           ? 0
	           : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spec),
	    cmocka_unit_test(test_spec_names),
	    cmocka_unit_test(test_spec_quoted_binary),
	    cmocka_unit_test(test_fetchargs),
	    cmocka_unit_test(test_listing),
	    cmocka_unit_test(test_dwarf_o0),
	    cmocka_unit_test(test_dwarf_o2),
	    cmocka_unit_test(test_resolve_user),
	    cmocka_unit_test(test_find_binary),
	    cmocka_unit_test(test_btf),
	    cmocka_unit_test(test_fake_tracefs),
	};
	static const char *const tools[] = {"nm", "objdump", "head"};
	const char *why;

	if ((why = bt_missing(tools, ARRAY_SIZE(tools))) != NULL) {
		printf("1..0 # SKIP %s\n", why);
		return 0;
	}
	return cmocka_run_group_tests(tests, setup, bt_remove_dir);
}
