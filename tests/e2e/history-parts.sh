#!/bin/bash
# History of the panes other than the profile's (--history-dump): the
# shifts workload is calm for its first 4 s (a 20 ms sleep and one call of
# shifts_tick per round, no page faults), then storms (1 ms sleeps, 8 page
# faults per round). Each interval the history keeps shows the values of
# its own second: the counters' page faults and context switches, the
# sleeps' latency histogram, a probe's hits and a tracepoint's count are
# low before the shift and high after it; text and JSON both carry them.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/shifts"
need_root_perf
need_tool python3 python3
SHIFTS="$WORKLOADS/shifts"

# dump NAME ARGS...: a JSON --history-dump of 8 one-second refreshes of
# the workload (8 s, shift at 4 s) into $TT_TMP/NAME.json
dump() {
	local name=$1
	shift
	"$TRACETOP" -b -d 1 -n 8 --format json --history-dump "$@" -- "$SHIFTS" 8 4 \
		>"$TT_TMP/$name.json" 2>"$TT_TMP/$name.err"
	ok $? "$name: --history-dump exits 0" || diag "$(cat "$TT_TMP/$name.err")"
}

# check NAME PART PYTHON: PYTHON gets v(i), the report of part PART of
# interval i (None when absent), and sets bad; its prints go to the diag.
check() {
	local name=$1 part=$2 code=$3 out
	out=$(python3 - "$TT_TMP/$name.json" "$part" <<PY
import json, sys
parts = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("view") == "history" and o.get("part") == sys.argv[2]:
        parts[o["index"]] = o
def v(i):
    return parts[i]["report"] if i in parts else None
bad = len(parts) < 7
$code
sys.exit(1 if bad else 0)
PY
	)
	local rc=$?
	diag "$out"
	return $rc
}

# interval i covers about the (i+1)th second of the run: 1 and 2 are calm,
# 5 and 6 storm (the seconds next to the shift are left out)
dump counters --view counters --counters page-faults,context-switches
check counters counters '
def val(i, ev):
    return [r for r in v(i)["rows"] if r["event"] == ev][0]["value"]
for ev in ("page-faults", "context-switches"):
    calm = [val(i, ev) for i in (1, 2)]
    storm = [val(i, ev) for i in (5, 6)]
    print(ev, "calm", calm, "storm", storm)
    bad |= min(storm) < 4 * max(calm) + 100
'
ok $? "counters: each interval has its own counts, low before the shift and high after"

dump latency --view latency
check latency latency '
def row(i):
    r = [r for r in v(i)["rows"] if r["name"] == "clock_nanosleep"]
    return r[0] if r else {"count": 0, "p50_ns": 0}
for i in (1, 2, 5, 6):
    print(i, row(i)["count"], "calls, p50", row(i)["p50_ns"])
bad |= not all(15e6 <= row(i)["p50_ns"] <= 60e6 and 20 <= row(i)["count"] <= 60 for i in (1, 2))
bad |= not all(row(i)["p50_ns"] < 10e6 and row(i)["count"] > 2 * row(1)["count"] for i in (5, 6))
'
ok $? "latency: the sleeps take 20 ms in the calm intervals' histograms, 1 ms in the storm's"

dump probes --view probes --probe "$SHIFTS:shifts_tick"
check probes probes '
def hits(i):
    return [r for r in v(i)["rows"] if r["name"].endswith(":shifts_tick")][0]["hits"]
print("hits", [hits(i) for i in range(1, 7)])
bad |= not all(20 <= hits(i) <= 60 for i in (1, 2))
bad |= not all(hits(i) > 2 * hits(1) for i in (5, 6))
'
ok $? "probes: an interval's hits are its own (about 50 before the shift, many more after)"

dump trace --view trace -T syscalls:sys_enter_clock_nanosleep
check trace trace '
def count(i):
    s = [e for e in v(i)["summary"] if e["event"] == "syscalls:sys_enter_clock_nanosleep"]
    return s[0]["count"] if s else 0
def logged(i):
    return len(v(i)["rows"]) + parts[i]["gone"]
print("counts", [count(i) for i in range(1, 7)], "logged", [logged(i) for i in range(1, 7)])
bad |= not all(20 <= count(i) <= 60 for i in (1, 2))
bad |= not all(count(i) > 2 * count(1) for i in (5, 6))
bad |= any(logged(i) != count(i) for i in range(1, 7))
'
ok $? "trace: an interval's count is its own, and its log entries (or those gone) number as many"

# text: each interval's header line, its counters table
"$TRACETOP" -b -d 1 -n 4 --history-dump --view counters --counters page-faults -- "$SHIFTS" 4 2 \
	>"$TT_TMP/text.txt" 2>"$TT_TMP/text.err"
ok $? "a text --history-dump exits 0" || diag "$(cat "$TT_TMP/text.err")"
is "$(grep -c '^# history interval [0-9]*: seq' "$TT_TMP/text.txt")" 4 "text: a header per interval"
n=$(awk '/^# history interval/ { h = 1 } h && /page-faults/ { n++ } END { print n + 0 }' \
	"$TT_TMP/text.txt")
is "$n" 4 "text: each interval's counters under it"
like "$(tail -n 1 "$TT_TMP/text.txt")" '^# history: 4 intervals, [0-9]+ bytes' "text: the size line"
done_testing
