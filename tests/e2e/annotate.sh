#!/bin/bash
# --annotate: a hot loop's samples sit in its instructions (the loop body
# between the backward jump's target and the jump holds > 90 %), the
# percentages add up to 100, the jump's target resolves, source lines show
# with -g and not without (which says so), a shared library's function maps
# right, the JSON and text shapes, kernel code from /proc/kcore (or a clear
# message saying what is missing), and an unknown symbol is an error. The
# hot loop is annotated on each engine (the rings and BPF).
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/hotloop" "$WORKLOADS/hotloop-nodebug" "$WORKLOADS/hotlib"
need_root_perf
need_tool python3 python3

# start_hot PROGRAM PIDFILE_VAR: run a workload for 15 s in the background;
# sets $pid.
start_hot() {
	env "$2=$TT_TMP/$1.pid" "$WORKLOADS/$1" 15 >/dev/null 2>&1 &
	bg_pid $!
	pid=$(wait_pidfile "$TT_TMP/$1.pid" 5)
}

# check FILE SYMBOL CHECKS...: run the checks (see below) on the
# annotation object, the last line of FILE; a summary on failure.
check() {
	python3 - "$@" <<'PY'
import json, sys
path, symbol, checks = sys.argv[1], sys.argv[2], sys.argv[3:]
try:
    a = json.loads(open(path).read().splitlines()[-1])
except Exception as e:
    print("# no annotation object:", e)
    sys.exit(1)
insns = [l for l in a["lines"] if "addr" in l]
srcs = [l["source"] for l in a["lines"] if "source" in l]
addr = lambda s: int(s, 16)
ok = a.get("view") == "annotate" and a["symbol"] == symbol and len(insns) > 3
total = sum(l["percent"] for l in insns)
# the loop: the backward jump inside the function, and its body
start, end = addr(a["start"]), addr(a["start"]) + a["size"]
back = [l for l in insns if "target_addr" in l and start <= addr(l["target_addr"]) <= addr(l["addr"])]
body = 0.0
if back:
    j = back[-1]
    body = sum(l["percent"] for l in insns if addr(j["target_addr"]) <= addr(l["addr"]) <= addr(j["addr"]))
for c in checks:
    if c == "sum":
        ok &= abs(total - 100) < 0.5 and a["samples"] > 100
    elif c == "loop":
        ok &= body > 90
    elif c == "target":
        j = back[-1] if back else {}
        ok &= j.get("target", "").startswith(symbol + "+0x") and \
            any(l["addr"] == j["target_addr"] for l in insns)
    elif c.startswith("source="):
        ok &= a["debug"] and any(s.startswith(c[7:]) for s in srcs)
    elif c.startswith("srctext="):
        ok &= any(c[8:] in s for s in srcs)
    elif c == "nosource":
        ok &= not a["debug"] and not srcs and "disassembly only" in a.get("notice", "")
    elif c.startswith("dso="):
        ok &= a["dso"].endswith(c[4:])
    elif c == "shape":
        ok &= all(isinstance(l["insn"], str) and isinstance(l["percent"], (int, float)) and
                  isinstance(l["samples"], int) and l["addr"].startswith("0x") for l in insns) and \
            all(set(l) == {"source"} or "addr" in l for l in a["lines"]) and \
            isinstance(a["kernel"], bool) and isinstance(a["dso"], str)
    else:
        ok = False
if not ok or "shape" in checks:
    print("# %s in %s: %d instructions, %d source lines, sum %.2f %%, loop body %.2f %%, debug %s, notice %r"
          % (symbol, a["dso"], len(insns), len(srcs), total, body, a["debug"], a.get("notice")))
sys.exit(0 if ok else 1)
PY
}

# ---- usage errors
"$TRACETOP" --annotate hot_loop_fn -n 1 >/dev/null 2>"$TT_TMP/e.err"
is "$?" 2 "--annotate without -b is a usage error"
like "$(cat "$TT_TMP/e.err")" 'only applies to batch mode' "...saying it needs -b"
"$TRACETOP" -b --annotate hot_loop_fn --view counters -n 1 >/dev/null 2>&1
is "$?" 2 "--annotate with --view counters is a usage error"

# ---- the hot loop, built with -g
start_hot hotloop HOTLOOP_PIDFILE
[ -n "$pid" ] || bail_out "the hotloop workload did not start"
# per-instruction samples on each engine: the rings count every sample's
# ip, BPF counts by ip in the kernel
for eng in $(engines); do
	"$TRACETOP" -b -p "$pid" --annotate hot_loop_fn -d 1 -n 2 --format json --engine "$eng" \
		>"$TT_TMP/a.json" 2>"$TT_TMP/a.err"
	ok $? "tracetop -b -p PID --annotate hot_loop_fn -d 1 -n 2 --format json --engine $eng exits 0" ||
		diag "$(cat "$TT_TMP/a.err")"
	engine_is "$TT_TMP/a.json" "$eng" "annotate: counted by $eng"
	check "$TT_TMP/a.json" hot_loop_fn shape
	ok $? "JSON ($eng): an annotate object with addr, insn, percent and samples per instruction"
	check "$TT_TMP/a.json" hot_loop_fn sum
	ok $? "$eng: the instructions' percentages add up to 100"
	check "$TT_TMP/a.json" hot_loop_fn loop
	ok $? "$eng: the loop body (backward jump target to the jump) holds over 90 % of the samples"
	check "$TT_TMP/a.json" hot_loop_fn target
	ok $? "$eng: the loop's jump target resolves to an instruction of hot_loop_fn"
	check "$TT_TMP/a.json" hot_loop_fn "source=hotloop.c:" \
		"srctext=acc += (i * 7) ^ (acc >> 3);"
	ok $? "$eng: with -g, source lines (hotloop.c:LINE text) are interleaved"
done

"$TRACETOP" -b -p "$pid" --annotate hot_loop_fn -d 1 -n 1 >"$TT_TMP/a.txt" 2>/dev/null
ok $? "the text annotation exits 0"
text=$(sed -n '/^annotate: hot_loop_fn /,$p' "$TT_TMP/a.txt")
like "$text" '^ +[0-9]+\.[0-9]{2} │ +[0-9a-f]+:  [a-z]' "text: percent │ addr: insn lines"
like "$text" '^ +│ hotloop\.c:[0-9]+ ' "text: source lines between them"
like "$text" ':  j[a-z]+ 0x[0-9a-f]+ <hot_loop_fn\+0x[0-9a-f]+>$' "text: the jump's target named"

"$TRACETOP" -b -p "$pid" --annotate no_such_function_xyz -d 0.5 -n 1 >/dev/null 2>"$TT_TMP/u.err"
status=$?
is "$status" 1 "an unknown symbol exits 1"
like "$(cat "$TT_TMP/u.err")" 'no_such_function_xyz: no sample landed in a function of that name' \
	"an unknown symbol says so"

# ---- the same program without debug info
start_hot hotloop-nodebug HOTLOOP_PIDFILE
"$TRACETOP" -b -p "$pid" --annotate hot_loop_fn -d 1 -n 2 --format json >"$TT_TMP/n.json" 2>/dev/null
ok $? "without debug info: exits 0"
check "$TT_TMP/n.json" hot_loop_fn nosource
ok $? "without debug info: no source lines, and the notice says disassembly only"
check "$TT_TMP/n.json" hot_loop_fn sum loop target
ok $? "without debug info: the samples still sit in the loop"

# ---- a function in a shared library linked at its own base address
start_hot hotlib HOTLIB_PIDFILE
"$TRACETOP" -b -p "$pid" --annotate hot_lib_fn -d 1 -n 2 --format json >"$TT_TMP/l.json" 2>/dev/null
ok $? "shared library function: exits 0"
check "$TT_TMP/l.json" hot_lib_fn dso=/libhot.so sum loop target "source=libhot.c:"
ok $? "shared library function: its samples land in its loop (file offsets mapped right)"

# ---- kernel code: from /proc/kcore as root, or a message saying why not
dd_cmd=(dd if=/dev/zero of=/dev/null bs=64k count=400000)
"$TRACETOP" -b -d 1 -n 1 --format json -- "${dd_cmd[@]}" >"$TT_TMP/k.json" 2>/dev/null
ksym=$(python3 -c '
import json, sys
rows = json.loads(open(sys.argv[1]).read().splitlines()[-1])["rows"]
k = [r["symbol"] for r in rows if r["kernel"] and r["symbol"] != "[unknown]"]
print(k[0] if k else "")' "$TT_TMP/k.json" 2>/dev/null)
if [ -z "$ksym" ]; then
	skip "no kernel function sampled under dd" "kernel function annotation"
else
	"$TRACETOP" -b -d 1 -n 1 --annotate "$ksym" --format json -- "${dd_cmd[@]}" \
		>"$TT_TMP/k2.json" 2>"$TT_TMP/k2.err"
	status=$?
	if [ "$status" -eq 0 ]; then
		python3 -c '
import json, sys
a = json.loads(open(sys.argv[1]).read().splitlines()[-1])
print("# %s from %s: %d lines" % (a["symbol"], a["from"], len(a["lines"])))
sys.exit(0 if a["kernel"] and a["lines"] and a["symbol"] == sys.argv[2] else 1)' \
			"$TT_TMP/k2.json" "$ksym"
		ok $? "kernel function $ksym annotates (from /proc/kcore or a vmlinux)"
	else
		diag "$(cat "$TT_TMP/k2.err")"
		grep -q 'kcore' "$TT_TMP/k2.err" && grep -q 'vmlinux' "$TT_TMP/k2.err"
		ok $? "kernel function $ksym: exit $status with a message naming /proc/kcore and vmlinux"
		if [ ! -e /proc/kcore ]; then
			skip "this kernel has no /proc/kcore (CONFIG_PROC_KCORE off) and no vmlinux" \
				"kernel function annotation from /proc/kcore"
		else
			ok 1 "kernel function annotation from /proc/kcore"
		fi
	fi
fi
done_testing
