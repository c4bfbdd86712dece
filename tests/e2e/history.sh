#!/bin/bash
# History (--history): the phases workload runs phase_one, then phase_two,
# each for 3 s, then phase_one again. The intervals the history keeps
# (--history-dump) show the function of their phase on top, the earlier
# one in the interval where it ran; the window's profile (--format pprof,
# read back by the pprof decoders of tests/e2e/lib.sh) holds
# both in proportion; a short --history keeps only the last intervals.
. "$(dirname "$0")/lib.sh"
need_built
need_root_perf
need_tool python3 python3
PHASES="$WORKLOADS/phases"

"$TRACETOP" -b -g -d 1 -n 9 --format json --history-dump --rows 5 -- "$PHASES" 9 \
	>"$TT_TMP/dump.json" 2>"$TT_TMP/dump.err"
ok $? "-b -g --history-dump exits 0" || diag "$(cat "$TT_TMP/dump.err")"
grep '"view":"history"' "$TT_TMP/dump.json" >"$TT_TMP/hist.json"

# top NAME INDEX...: NAME is the top row with 80 % or more in each interval
# whose index (its second of the run) is given.
res=$(python3 - "$TT_TMP/hist.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
iv = [l for l in lines if "index" in l and "part" not in l]
summary = [l for l in lines if "intervals" in l][0]
bad = 0
def top(i):
    rows = iv[i]["rows"]
    return (rows[0]["sym"], rows[0]["overhead"]) if rows else (None, 0)
# phase k covers [3k, 3k+3) s of the workload's run; interval i ends about
# i+1 s after the start: the middle second of each phase is clean
for i, want in ((1, "phase_one"), (4, "phase_two"), (7, "phase_one")):
    sym, pct = top(i)
    print("interval %d: %s %.1f%% (expected %s)" % (i, sym, pct, want))
    bad |= sym != want or pct < 80
# every interval of the run is held, in order, with its bytes
seqs = [l["seq"] for l in iv]
print("seqs", seqs, "bytes/interval", summary["bytes_per_interval"], "total", summary["bytes"])
bad |= seqs != sorted(seqs) or len(iv) < 8 or summary["intervals"] != len(iv)
bad |= not all(l["bytes"] > 0 and l["has_rows"] for l in iv)
bad |= not (0 < summary["bytes"] < 64 << 20)
sys.exit(bad)
PY
)
ok $? "stepping back: each phase's function on top in the intervals where it ran"
diag "$res"

# a short window keeps the last intervals only
"$TRACETOP" -b -d 0.5 -n 8 --history 2s --format json --history-dump -- "$PHASES" 5 \
	>"$TT_TMP/short.json" 2>/dev/null
n=$(grep -c '"index":' "$TT_TMP/short.json")
within "$n" 3 5 "--history 2s at -d 0.5 keeps 4 intervals (about 2 s)"
like "$(tail -n 2 "$TT_TMP/short.json" | head -n 1)" '"seq":8,' "the newest interval is the last refresh"

# the window's profile, the whole run of the command: both phases in
# proportion to the CPU each had (the workload reads its threads' CPU
# clocks around each call: under load the phases' CPU shares need not
# follow their 3 s lengths)
PHASES_COUNTS="$TT_TMP/counts" "$TRACETOP" -b -g -d 1 --format pprof -o "$TT_TMP/phases.pb.gz" \
	-- "$PHASES" 9 2>/dev/null
ok $? "--format pprof of the phases exits 0"
if [ -n "$(pprof_decoders)" ]; then
	pprof_decode "$TT_TMP/phases.pb.gz" >"$TT_TMP/phases.json"
	res=$(python3 - "$TT_TMP/phases.json" "$TT_TMP/counts" <<'PY'
import json, sys
p = json.loads(open(sys.argv[1]).read())
cpu = dict(l.split() for l in open(sys.argv[2]))
c1, c2 = int(cpu["phase_one"]), int(cpu["phase_two"])
s1, s2 = p["functions"].get("phase_one", 0), p["functions"].get("phase_two", 0)
want = 100.0 * c1 / (c1 + c2)
got = 100.0 * s1 / (s1 + s2) if s1 + s2 else 0
print("phase_one %.1f%% of the two (its CPU clock says %.1f%%); samples %d and %d" % (got, want, s1, s2))
sys.exit(abs(got - want) > 5 or s2 == 0)
PY
)
	ok $? "the window over both phases shows both in proportion"
	diag "$res"
else
	skip "no pprof decoder (golang-go, or node and npm's pprof-format)" \
		"the window over both phases shows both in proportion"
fi

tap_fails "--history-dump needs batch" "$TRACETOP" --history-dump -n 1
tap_fails "--history rejects a bad duration" "$TRACETOP" -b --history 5x -n 1
like "$("$TRACETOP" -b --history 5x -n 1 2>&1)" "--history expects a duration" \
	"--history names what it expects"
done_testing
