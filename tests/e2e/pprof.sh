#!/bin/bash
# --format pprof checked by independent decoders (Go's own pprof, from
# Debian's golang-go, and pprof-format from the npm registry run with node
# where the registry is reachable; scripts/check installs both; they must
# agree): a known call graph's profile has the same per-function totals as
# its folded stacks, exactly; a live profile of the split workload
# (50/30/20) has that split, with and without stacks, as the folded
# stacks of a run of the same length do; the workload's mapping carries
# its build-id; a recording's pprof has exactly the totals of tracetop's
# own reports of that recording (rows without stacks; folded stacks,
# per stack and per leaf, with -g).
. "$(dirname "$0")/lib.sh"
need_built
need_root_perf
need_tool python3 python3

# Go's own pprof and, where the npm registry was reachable, pprof-format
# (scripts/check installs both; every one present must read each file the
# same way)
if [ -z "$(pprof_decoders)" ]; then
	if [ -n "${TT_STRICT_TOOLS:-}" ] || [ -n "${CI:-}" ]; then
		bail_out "no pprof decoder: go (golang-go) is missing, though scripts/check installs it"
	fi
	tap_skip_all "no pprof decoder: install golang-go (go tool pprof), or node and npm's pprof-format"
fi
diag "pprof decoders: $(pprof_decoders | tr '\n' ' ')"
DECODE=pprof_decode

# compare PPROF_JSON FOLDED: per leaf function totals equal (the folded
# names have ';' as ':'), and the totals.
compare() {
	python3 - "$1" "$2" <<'PY'
import json, sys
p = json.loads(open(sys.argv[1]).read())
f = {}
for line in open(sys.argv[2]):
    stack, n = line.rstrip("\n").rsplit(" ", 1)
    leaf = stack.split(";")[-1]
    f[leaf] = f.get(leaf, 0) + int(n)
pf = {}
for k, v in p["functions"].items():
    k = k.replace(";", ":")
    pf[k] = pf.get(k, 0) + v
if pf != f or p["total"] != sum(f.values()):
    print("pprof:", sorted(pf.items()))
    print("folded:", sorted(f.items()))
    sys.exit(1)
print("equal:", sorted(f.items()))
PY
}

# shares PPROF_JSON NAME=PCT...: each function's share within 5 points.
shares() {
	python3 - "$@" <<'PY'
import json, sys
p = json.loads(open(sys.argv[1]).read())
tot = p["total"] or 1
bad = 0
for arg in sys.argv[2:]:
    name, want = arg.split("=")
    got = 100.0 * p["functions"].get(name, 0) / tot
    print("%s %.1f%% (expected %s)" % (name, got, want))
    bad |= abs(got - float(want)) > 5
sys.exit(bad)
PY
}

# a known graph, as pprof and as folded stacks (by the unit test)
TT_PPROF_OUT="$TT_TMP" "$TT_BUILDDIR/tests/unit/test-pprof" >"$TT_TMP/unit.log" 2>&1
ok $? "the unit test wrote the known graph as pprof and folded stacks"
$DECODE "$TT_TMP/graph.pb.gz" >"$TT_TMP/graph.json" 2>"$TT_TMP/graph.err"
ok $? "the decoders read the profile" || diag "$(cat "$TT_TMP/graph.err")"
res=$(compare "$TT_TMP/graph.json" "$TT_TMP/graph.folded" 2>&1)
ok $? "known graph: pprof totals per function equal the folded stacks'"
diag "$res"
g=$(cat "$TT_TMP/graph.json")
like "$g" '"sample_types":\["samples/count","cpu/nanoseconds"\]' "sample types samples/count, cpu/nanoseconds"
like "$g" '"period_type":"cpu/nanoseconds","period":250000' "period type and period"

SPLIT="$WORKLOADS/split"
EXPECT="split_alpha=50 split_beta=30 split_gamma=20"

"$TRACETOP" -b -g -d 1 -n 3 --format pprof -o "$TT_TMP/live.pb.gz" -- "$SPLIT" 3 \
	2>"$TT_TMP/live.err"
ok $? "-b -g --format pprof exits 0" || diag "$(cat "$TT_TMP/live.err")"
$DECODE "$TT_TMP/live.pb.gz" >"$TT_TMP/live.json" 2>"$TT_TMP/live.err"
ok $? "the decoders read the live profile" || diag "$(cat "$TT_TMP/live.err")"
res=$(shares "$TT_TMP/live.json" $EXPECT 2>&1)
ok $? "live pprof with stacks: the split within 5 points"
diag "$res"
like "$(cat "$TT_TMP/live.json")" '"stacks":\{[^}]*main;run_mix;split_alpha"' \
	"live pprof: stacks from main down to the leaf"
if command -v readelf >/dev/null 2>&1; then
	bid=$(readelf -n "$SPLIT" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p' | head -n 1)
	like "$(cat "$TT_TMP/live.json")" "\"file\":\"[^\"]*/split\",\"build_id\":\"$bid\"" \
		"the workload's mapping carries its build-id ($bid)"
else
	skip "readelf is not installed (apt-get install binutils)" "mapping build-id"
fi

# folded stacks of a run of the same length agree with the pprof shares
"$TRACETOP" -b -g -z -d 3 -n 1 --format folded -- "$SPLIT" 3 >"$TT_TMP/live.folded" 2>/dev/null
ok $? "-b -g --format folded exits 0"
res=$(python3 - "$TT_TMP/live.json" "$TT_TMP/live.folded" <<'PY'
import json, sys
p = json.loads(open(sys.argv[1]).read())
f = {}
for line in open(sys.argv[2]):
    if not line.strip():
        continue
    stack, n = line.rstrip("\n").rsplit(" ", 1)
    leaf = stack.split(";")[-1]
    f[leaf] = f.get(leaf, 0) + int(n)
ft, pt = sum(f.values()) or 1, p["total"] or 1
bad = 0
for name in ("split_alpha", "split_beta", "split_gamma"):
    a, b = 100.0 * p["functions"].get(name, 0) / pt, 100.0 * f.get(name, 0) / ft
    print("%s pprof %.1f%% folded %.1f%%" % (name, a, b))
    bad |= abs(a - b) > 5
sys.exit(bad)
PY
)
ok $? "pprof and folded stacks agree within 5 points"
diag "$res"

# without stacks: a location per row
"$TRACETOP" -b -d 1 -n 3 --format pprof -o "$TT_TMP/flat.pb.gz" -- "$SPLIT" 3 2>/dev/null
ok $? "-b --format pprof without -g exits 0"
$DECODE "$TT_TMP/flat.pb.gz" >"$TT_TMP/flat.json" 2>"$TT_TMP/flat.err"
ok $? "the decoders read the profile without stacks" || diag "$(cat "$TT_TMP/flat.err")"
res=$(shares "$TT_TMP/flat.json" $EXPECT 2>&1)
ok $? "pprof without stacks: the split within 5 points"
diag "$res"

# a recording: its pprof (every interval's own samples added up) has
# exactly tracetop's own totals for the same run. Without stacks, per
# function, those of the replay's rows with -z (each interval's own
# counts) summed over its intervals; with -g, per stack and per leaf,
# those of the replay's folded stacks with -z summed, and the same total
# samples as its JSON reports'.
"$TRACETOP" -b -d 1 -n 4 -w "$TT_TMP/flat.ttr" -- "$SPLIT" 5 >/dev/null 2>"$TT_TMP/fr.err"
ok $? "a recording without stacks is made" || diag "$(cat "$TT_TMP/fr.err")"
"$TRACETOP" -b -g -d 1 -n 4 -w "$TT_TMP/g.ttr" -- "$SPLIT" 5 >/dev/null 2>"$TT_TMP/gr.err"
ok $? "a recording with -g is made" || diag "$(cat "$TT_TMP/gr.err")"
for r in flat g; do
	"$TRACETOP" -r "$TT_TMP/$r.ttr" -b --format pprof -o "$TT_TMP/$r.rec.pb.gz" 2>/dev/null &&
		$DECODE "$TT_TMP/$r.rec.pb.gz" >"$TT_TMP/$r.rec.json" 2>"$TT_TMP/$r.rec.err"
	ok $? "the decoders read the pprof of the $r recording" || diag "$(cat "$TT_TMP/$r.rec.err")"
	"$TRACETOP" -r "$TT_TMP/$r.ttr" -b -z --format json >"$TT_TMP/$r.rep.json" 2>/dev/null
done
"$TRACETOP" -r "$TT_TMP/g.ttr" -b -z --format folded >"$TT_TMP/g.rep.folded" 2>/dev/null
res=$(python3 - "$TT_TMP/flat.rec.json" "$TT_TMP/flat.rep.json" <<'PY'
import json, sys
p = json.loads(open(sys.argv[1]).read())
rows, total = {}, 0
for o in (json.loads(l) for l in open(sys.argv[2]) if l.strip()):
    if o.get("view") != "top":
        continue
    total += o["samples"]
    for r in o["rows"]:
        # an address no symbol holds: pprof names it by its offset, as
        # the text and folded reports do; JSON gives the offset apart
        name = r["symbol"] if "offset" not in r else "[unknown] 0x%x" % r["offset"]
        rows[name] = rows.get(name, 0) + r["samples"]
print("total: pprof %d, tracetop %d; %d functions" % (p["total"], total, len(rows)))
diff = [(k, rows.get(k), p["functions"].get(k)) for k in set(rows) | set(p["functions"])
        if rows.get(k) != p["functions"].get(k)]
print("differ:", diff[:5])
sys.exit(0 if not diff and p["total"] == total and total > 0 else 1)
PY
)
ok $? "recording without stacks: pprof's per-function totals are the replay's rows', exactly"
diag "$res"
res=$(python3 - "$TT_TMP/g.rec.json" "$TT_TMP/g.rep.folded" "$TT_TMP/g.rep.json" <<'PY'
import json, sys
p = json.loads(open(sys.argv[1]).read())
stacks, leaves = {}, {}
for line in open(sys.argv[2]):
    if not line.strip():
        continue
    stack, n = line.rstrip("\n").rsplit(" ", 1)
    frames = stack.split(";")[1:]  # the command first, as flamegraph.pl wants
    key = ";".join(frames)
    stacks[key] = stacks.get(key, 0) + int(n)
    leaves[frames[-1]] = leaves.get(frames[-1], 0) + int(n)
total = sum(o["samples"] for o in (json.loads(l) for l in open(sys.argv[3]) if l.strip())
            if o.get("view") == "top")
pl = {k.replace(";", ":"): v for k, v in p["functions"].items()}
ps = {k: v for k, v in p["stacks"].items()}
print("total: pprof %d, folded %d, JSON %d; %d stacks" % (p["total"], sum(stacks.values()), total, len(stacks)))
bad = pl != leaves or ps != stacks or not (p["total"] == sum(stacks.values()) == total > 0)
if bad:
    print("leaves:", [(k, leaves.get(k), pl.get(k)) for k in set(leaves) | set(pl) if leaves.get(k) != pl.get(k)][:5])
    print("stacks:", [(k, stacks.get(k), ps.get(k)) for k in set(stacks) | set(ps) if stacks.get(k) != ps.get(k)][:3])
sys.exit(1 if bad else 0)
PY
)
ok $? "recording with -g: pprof's stacks and leaves are the replay's folded stacks', its total the JSON's, exactly"
diag "$res"

# bad uses say what to do
tap_fails "--format pprof refuses --history 0" "$TRACETOP" -b --format pprof --history 0 -n 1
done_testing
