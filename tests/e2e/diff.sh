#!/bin/bash
# Diff: a baseline of the split workload's 50/30/20 mix, then the same
# program with 20/30/50 (SPLIT_MIX=2:3:5) profiled with --baseline shows
# Δ -30 / 0 / +30 points within 3; --diff A B of the two reports says the
# same as text and JSON, and so does --diff of the two runs' recordings,
# and of two ranges (in intervals, in seconds) of one recording across a
# change of mix; a mix without split_alpha marks it gone, and new
# the other way round; counters carry their change of rate; bad baselines
# are refused with a reason.
. "$(dirname "$0")/lib.sh"
need_built
need_root_perf
need_tool python3 python3

# profile NAME MIX ARGS...: the split mix MIX (A:B:C) under the command
# name diffsplit for 3 refreshes of 1 s, JSON into $TT_TMP/NAME.json
profile() {
	local name=$1 mix=$2
	shift 2
	export SPLIT_MIX=$mix
	start_split 120 diffsplit
	unset SPLIT_MIX
	[ -n "$pid" ] || return 1
	"$TRACETOP" -b -p "$pid" -d 1 -n 3 --format json "$@" >"$TT_TMP/$name.json" \
		2>"$TT_TMP/$name.err"
	local rc=$?
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return $rc
}

# deltas FILE: "status delta" of split_alpha, split_beta, split_gamma in
# FILE's last top report (or a diff object's top rows), diffsplit's rows only
deltas() {
	python3 - "$1" <<'PY'
import json, sys
rep = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
rows = {r.get("symbol"): r for r in rep.get("rows", rep.get("top", []))
        if r.get("comm") == "diffsplit"}
out = []
for s in ("split_alpha", "split_beta", "split_gamma"):
    r = rows.get(s)
    out.append("%s %s %.1f" % (s, r["status"], r["delta_pct"]) if r else "%s absent" % s)
print(", ".join(out))
PY
}

# near "NAME STATUS DELTA, ..." EXPECT...: each NAME=STATUS:DELTA within 3
near() {
	python3 - "$@" <<'PY'
import sys
got = {}
for part in sys.argv[1].split(", "):
    f = part.split()
    got[f[0]] = (f[1], float(f[2]) if len(f) > 2 else None)
bad = 0
for e in sys.argv[2:]:
    name, want = e.split("=")
    st, d = want.split(":")
    g = got.get(name, ("absent", None))
    if g[0] != st or g[1] is None or abs(g[1] - float(d)) > 3:
        bad = 1
sys.exit(bad)
PY
}

profile base 5:3:2 -w "$TT_TMP/base.ttr"
ok $? "baseline run (50/30/20) exits 0" || diag "$(cat "$TT_TMP/base.err")"
profile cur 2:3:5 --baseline "$TT_TMP/base.json" -s delta -w "$TT_TMP/cur.ttr"
ok $? "-b --baseline run (20/30/50) exits 0" || diag "$(cat "$TT_TMP/cur.err")"
res=$(deltas "$TT_TMP/cur.json")
near "$res" split_alpha=same:-30 split_beta=same:0 split_gamma=same:30
ok $? "--baseline JSON: delta_pct -30 / 0 / +30 within 3"
diag "$res"
python3 - "$TT_TMP/cur.json" <<'PY'
import json, sys
rep = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
g = [r for r in rep["rows"] if r.get("symbol") == "split_gamma" and r["comm"] == "diffsplit"][0]
# the ratio is now / base: 50 / 20
sys.exit(0 if 2.0 < g["ratio"] < 3.2 and abs(g["base_pct"] - 20) < 4 else 1)
PY
ok $? "--baseline JSON: split_gamma's ratio about x2.5 of its base 20 %"
python3 - "$TT_TMP/cur.json" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]["rows"]
d = [r["delta_pct"] for r in rows if r["status"] != "gone"]
syms = [r["symbol"] for r in rows if r.get("comm") == "diffsplit" and r["symbol"].startswith("split_")]
sys.exit(0 if d == sorted(d, reverse=True) and syms == ["split_gamma", "split_beta", "split_alpha"] else 1)
PY
ok $? "-s delta: rows by their change, most gained first (gamma, beta, alpha)"

# the same two reports compared after the fact
"$TRACETOP" --diff "$TT_TMP/base.json" "$TT_TMP/cur.json" --format json >"$TT_TMP/d.json" \
	2>"$TT_TMP/d.err"
ok $? "--diff A B --format json exits 0" || diag "$(cat "$TT_TMP/d.err")"
res=$(deltas "$TT_TMP/d.json")
near "$res" split_alpha=same:-30 split_beta=same:0 split_gamma=same:30
ok $? "--diff JSON: -30 / 0 / +30 within 3"
diag "$res"
python3 - "$TT_TMP/d.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["top"]
d = [abs(r["delta_pct"]) for r in rows]
sys.exit(0 if d == sorted(d, reverse=True) and len(d) >= 3 else 1)
PY
ok $? "--diff JSON: rows sorted by |delta|, most changed first"
"$TRACETOP" --diff "$TT_TMP/base.json" "$TT_TMP/cur.json" >"$TT_TMP/d.txt" 2>&1
ok $? "--diff A B (text) exits 0"
like "$(cat "$TT_TMP/d.txt")" "^ +\+[23][0-9]\.[0-9]+ +x[23]\.[0-9]+ .* same +diffsplit +diffsplit +split_gamma" \
	"--diff text: split_gamma +30 points, x2.5"
like "$(cat "$TT_TMP/d.txt")" "^ +-[23][0-9]\.[0-9]+ +x0\.[0-9]+ .* same +diffsplit +diffsplit +split_alpha" \
	"--diff text: split_alpha -30 points"

# the same two runs compared as their recordings (-w)
"$TRACETOP" --diff "$TT_TMP/base.ttr" "$TT_TMP/cur.ttr" --format json >"$TT_TMP/dr.json" \
	2>"$TT_TMP/dr.err"
ok $? "--diff of two recordings exits 0" || diag "$(cat "$TT_TMP/dr.err")"
res=$(deltas "$TT_TMP/dr.json")
near "$res" split_alpha=same:-30 split_beta=same:0 split_gamma=same:30
ok $? "--diff of two recordings: -30 / 0 / +30 within 3"
diag "$res"
"$TRACETOP" --diff "$TT_TMP/base.ttr" "$TT_TMP/cur.ttr" >"$TT_TMP/dr.txt" 2>&1
like "$(cat "$TT_TMP/dr.txt")" "^diff: .*base\.ttr -> .*cur\.ttr" "--diff of recordings, text: names them"
like "$(cat "$TT_TMP/dr.txt")" "^ +\+[23][0-9]\.[0-9]+ +x[23]\.[0-9]+ .* same +diffsplit +diffsplit +split_gamma" \
	"--diff of recordings, text: split_gamma +30 points, x2.5"
"$TRACETOP" --diff "$TT_TMP/base.json" "$TT_TMP/cur.ttr" --format json >"$TT_TMP/dm.json" 2>&1
res=$(deltas "$TT_TMP/dm.json")
near "$res" split_alpha=same:-30 split_beta=same:0 split_gamma=same:30
ok $? "--diff of a report and a recording: -30 / 0 / +30 within 3"

# two ranges of one recording whose workload changes its mix after 4 s
"$TRACETOP" -b -d 1 -n 8 -w "$TT_TMP/sw.ttr" -- sh -c \
	"SPLIT_MIX=5:3:2 '$TT_TMP/diffsplit' 4; SPLIT_MIX=2:3:5 '$TT_TMP/diffsplit' 5" \
	>/dev/null 2>"$TT_TMP/sw.err"
ok $? "a recording across the change of mix" || diag "$(cat "$TT_TMP/sw.err")"
for ranges in "#1..#3 #6..#8" "0..3.5 5.5.."; do
	set -- $ranges
	"$TRACETOP" --diff "$TT_TMP/sw.ttr@$1" "$TT_TMP/sw.ttr@$2" --format json >"$TT_TMP/rg.json" \
		2>"$TT_TMP/rg.err"
	ok $? "--diff of ranges sw.ttr@$1 and @$2 exits 0" || diag "$(cat "$TT_TMP/rg.err")"
	res=$(deltas "$TT_TMP/rg.json")
	near "$res" split_alpha=same:-30 split_beta=same:0 split_gamma=same:30
	ok $? "--diff of ranges @$1 -> @$2: -30 / 0 / +30 within 3"
	diag "$res"
done
like "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["base"])' "$TT_TMP/rg.json")" \
	'sw\.ttr@0\.\.3\.5$' "--diff JSON names the range"
"$TRACETOP" --diff "$TT_TMP/sw.ttr@#1..#3" "$TT_TMP/sw.ttr@#30..#40" >/dev/null 2>"$TT_TMP/far.err"
is $? 1 "--diff of a range past the recording's end exits 1"
like "$(cat "$TT_TMP/far.err")" 'no interval in that range \(it has 8 intervals, #1\.\.#8' \
	"it says which intervals there are"
"$TRACETOP" --diff "$TT_TMP/sw.ttr@3..1" "$TT_TMP/sw.ttr" >/dev/null 2>"$TT_TMP/bad.err"
is $? 1 "--diff of a backward range exits 1"
like "$(cat "$TT_TMP/bad.err")" "'3\.\.1' is not a range of a recording: give START\.\.END" \
	"it says how to write one"

# a mix without split_alpha: gone against the baseline, new the other way
profile noalpha 0:1:1 --baseline "$TT_TMP/base.json"
ok $? "--baseline run without split_alpha exits 0"
res=$(deltas "$TT_TMP/noalpha.json")
near "$res" split_alpha=gone:-50
ok $? "--baseline JSON: split_alpha gone, -50 points"
diag "$res"
"$TRACETOP" --diff "$TT_TMP/noalpha.json" "$TT_TMP/base.json" --format json >"$TT_TMP/n.json" 2>&1
res=$(deltas "$TT_TMP/n.json")
near "$res" split_alpha=new:50
ok $? "--diff B A: split_alpha new, +50 points"
diag "$res"
"$TRACETOP" -b -p "$$" -d 0.3 -n 1 --baseline "$TT_TMP/base.json" >"$TT_TMP/t.txt" 2>/dev/null
like "$(cat "$TT_TMP/t.txt")" "^ *Overhead +Samples +Delta +Ratio +Command" "--baseline text: Delta and Ratio titles"
like "$(cat "$TT_TMP/t.txt")" "^ +0\.00% +0 +-[0-9.]+ +gone +diffsplit .*split_alpha" \
	"--baseline text: a row gone since the baseline, 0 % now"

# counters: the change of each rate
start_split 120 diffsplit
"$TRACETOP" -b --view counters --counters task-clock,page-faults -p "$pid" -d 0.5 -n 2 \
	--format json >"$TT_TMP/cb.json" 2>/dev/null
"$TRACETOP" -b --view counters --counters task-clock,page-faults -p "$pid" -d 0.5 -n 2 \
	--format json --baseline "$TT_TMP/cb.json" >"$TT_TMP/cc.json" 2>"$TT_TMP/cc.err"
ok $? "--view counters --baseline exits 0" || diag "$(cat "$TT_TMP/cc.err")"
python3 - "$TT_TMP/cc.json" <<'PY'
import json, sys
rep = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
tc = [r for r in rep["rows"] if r["event"] == "task-clock"][0]
# the same busy process both times: about x1 (a loaded machine may slow it)
sys.exit(0 if tc["status"] == "same" and 0.5 < tc["ratio"] < 2 and "delta_rate" in tc else 1)
PY
ok $? "--view counters --baseline: task-clock same, ratio about 1, delta_rate"
"$TRACETOP" -b --view counters --counters task-clock -p "$pid" -d 0.5 -n 1 \
	--baseline "$TT_TMP/cb.json" >"$TT_TMP/ct.txt" 2>/dev/null
like "$(cat "$TT_TMP/ct.txt")" "task-clock .*\[[-+][0-9.KMG]+ x[0-9.]+\]" "counters text: [delta ratio] after the rate"

# latency: each row's change of p50 and p99 (the same syscalls of the
# same program, run twice)
if "$TRACETOP" -b --view latency -d 0.5 -n 2 --format json -- "$WORKLOADS/sysload" forks 200 \
	>"$TT_TMP/la.json" 2>"$TT_TMP/la.err"; then
	"$TRACETOP" -b --view latency -d 0.5 -n 2 --format json --baseline "$TT_TMP/la.json" \
		-- "$WORKLOADS/sysload" forks 200 >"$TT_TMP/lb.json" 2>"$TT_TMP/lb.err"
	ok $? "--view latency --baseline exits 0" || diag "$(cat "$TT_TMP/lb.err")"
	python3 - "$TT_TMP/lb.json" <<'PY'
import json, sys
rep = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
w = [r for r in rep["rows"] if r["name"] == "wait4" and r["comm"] == "sysload"]
ok = w and w[0]["status"] == "same" and w[0]["ratio"] > 0 and "delta_p99_ns" in w[0] \
    and w[0]["base_p50_ns"] > 0
sys.exit(0 if ok else 1)
PY
	ok $? "--view latency --baseline: wait4 same, with its p50 ratio and p99 change"
	"$TRACETOP" -b --view latency -d 0.5 -n 1 --baseline "$TT_TMP/la.json" \
		-- "$WORKLOADS/sysload" forks 200 >"$TT_TMP/lt.txt" 2>/dev/null
	# (no change reads +0: the p99 of CI's run fell in the same bucket)
	like "$(cat "$TT_TMP/lt.txt")" "wait4 .*\[p50 ([-+][0-9.]+[num]?s|\+0) x[0-9.]+, p99 ([-+][0-9.]+[num]?s|\+0)\]" \
		"latency text: [p50 DELTA RATIO, p99 DELTA] after the row"
else
	why="no latency view here: $(head -c 200 "$TT_TMP/la.err")"
	for name in "latency --baseline exits 0" "latency --baseline JSON" "latency text"; do
		skip "$why" "$name"
	done
fi

# bad baselines: clear errors, non-zero exits
printf '{"view":"top","rows":[{' >"$TT_TMP/bad.json"
"$TRACETOP" -b -p "$pid" -n 1 --baseline "$TT_TMP/bad.json" >/dev/null 2>"$TT_TMP/bad.err"
is $? 1 "--baseline with a cut file exits 1"
like "$(cat "$TT_TMP/bad.err")" "--baseline: .*bad.json: not tracetop's JSON report: line 1, column [0-9]+: expected" \
	"--baseline: a cut file, said where"
"$TRACETOP" -b --view counters -p "$pid" -n 1 --baseline "$TT_TMP/base.json" >/dev/null 2>"$TT_TMP/kind.err"
is $? 1 "--view counters with a top-only baseline exits 1"
like "$(cat "$TT_TMP/kind.err")" "has no counters report: make it with tracetop -b --format json --view counters" \
	"--baseline of the wrong view: says how to make one"
"$TRACETOP" --diff "$TT_TMP/base.json" >/dev/null 2>"$TT_TMP/one.err"
is $? 2 "--diff with one report is a usage error"
"$TRACETOP" --diff "$TT_TMP/base.json" "$TT_TMP/nonexistent.json" >/dev/null 2>"$TT_TMP/ne.err"
is $? 1 "--diff with a missing report exits 1"
like "$(cat "$TT_TMP/ne.err")" "cannot read .*nonexistent.json" "--diff: the missing file named"
"$TRACETOP" -b --format folded -g --baseline "$TT_TMP/base.json" -n 1 >/dev/null 2>"$TT_TMP/f.err"
is $? 2 "--baseline with --format folded is a usage error"
done_testing
