#!/bin/bash
# JIT code named from perf maps that grow while tracetop runs: a simulated
# JIT that compiles a new function every second (each named within a
# refresh of its map line), and Node with --perf-basic-prof (functions
# compiled after tracetop started named JS:* / LazyCompile:*). JIT code is
# shown in "[JIT] tid PID", as perf does.
. "$(dirname "$0")/lib.sh"
need_built
need_root_perf
need_tool python3 python3

# 1. The simulated JIT: 4 functions, one per second; refreshes every 0.5 s.
"$TRACETOP" -b -z -d 0.5 -F 499 --format json -- \
	sh -c "exec '$WORKLOADS/jitsim' 4 1000 >'$TT_TMP/jitsim.out'" \
	>"$TT_TMP/jit.json" 2>"$TT_TMP/jit.err"
ok $? "tracetop -- jitsim exits 0"
res=$(python3 - "$TT_TMP/jit.json" <<'PY'
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
named, bad = set(), []
pid = None
for i, f in enumerate(frames):
    jit = [r for r in f["rows"] if r["symbol"].startswith("jit_fn_")]
    for r in jit:
        named.add(r["symbol"])
        pid = r["pid"]
        if r["dso"] != "[JIT] tid %d" % r["pid"]:
            print("wrong object", r["dso"], "for", r["symbol"])
    unknown = sum(r["samples"] for r in f["rows"]
                  if r["pid"] == pid and r["symbol"].startswith("[unknown]"))
    total = sum(r["samples"] for r in f["rows"] if r["pid"] == pid)
    if total and unknown / total > 0.2:
        bad.append(i)
print("named:", " ".join(sorted(named)))
print("frames with > 20 % unknown:", bad)
# each append may cost the refresh it lands in, never the next one
ok = len(named) == 4 and len(bad) <= 3 and all(b + 1 not in bad for b in bad)
print("OK" if ok else "FAIL")
PY
)
like "$res" "OK$" "every JIT function named within a refresh of its map line"
diag "$res"

# 2. Late maps (like Java's jcmd Compiler.perfmap): code runs before its
# line is written. One refresh for the whole run: its Top rows are named
# when the refresh ends, as perf report names them after the fact.
"$TRACETOP" -b -z -d 4 -n 1 -F 499 --format json -- \
	sh -c "echo \$\$ >'$TT_TMP/late.pid'; exec '$WORKLOADS/jitsim' 3 800 late >'$TT_TMP/jitsim.out'" \
	>"$TT_TMP/late.json" 2>"$TT_TMP/late.err"
ok $? "tracetop -- jitsim late exits 0"
rm -f "/tmp/perf-$(cat "$TT_TMP/late.pid").map"
res=$(python3 - "$TT_TMP/late.json" <<'PY'
import json, sys
rows = [r for l in open(sys.argv[1]) if l.startswith("{") for r in json.loads(l)["rows"]
        if r["comm"] == "jitsim" and not r["kernel"]]
named = {r["symbol"]: r["samples"] for r in rows if r["symbol"].startswith("jit_fn_")}
unknown = sum(r["samples"] for r in rows if r["symbol"].startswith("[unknown]"))
total = sum(named.values()) + unknown
print("named:", named, "unknown:", unknown)
print("OK" if len(named) == 3 and total and unknown <= 0.05 * total else "FAIL")
PY
)
like "$res" "OK$" "code sampled before its map line is named at the refresh"
diag "$res"

# 3. Node: a function compiled after tracetop started is named.
if need_tool node nodejs; then
	cat >"$TT_TMP/late.js" <<'JS'
// idle first, so tracetop has read the map before this code exists
setTimeout(() => {
	const lateHotFn = (0, eval)("(function lateHotFn(n) { let a = 1; for (let i = 0; i < n; i++) a = (a * 31 + i) % 1000003; return a; })");
	const end = Date.now() + 3000;
	let x = 0;
	while (Date.now() < end) x += lateHotFn(100000);
	console.log(x > 0 ? "done" : "?");
}, 1500);
JS
	"$TRACETOP" -b -z -d 1 -F 499 --format json -- \
		node --perf-basic-prof "$TT_TMP/late.js" >"$TT_TMP/node.json" 2>"$TT_TMP/node.err"
	ok $? "tracetop -- node exits 0"
	res=$(python3 - "$TT_TMP/node.json" <<'PY'
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
hot = [r for f in frames for r in f["rows"] if "lateHotFn" in r["symbol"]]
hot = [r for r in hot if r["dso"].startswith("[JIT] tid ")]
print("JIT rows:", sorted({r["symbol"][:60] for r in hot})[:5])
last = frames[-2] if len(frames) > 1 else frames[-1]
node = [r for r in last["rows"] if r["comm"].startswith("node")]
unknown = sum(r["samples"] for r in node if r["symbol"].startswith("[unknown]"))
total = sum(r["samples"] for r in node)
print("unknown share of node in the last full frame: %.1f %%" % (100.0 * unknown / max(total, 1)))
print("OK" if hot and unknown <= 0.1 * total else "FAIL")
PY
	)
	like "$res" "OK$" "Node: code compiled after start named from the perf map"
	diag "$res"
fi
done_testing
