#!/bin/bash
# Function latency through a uprobe/uretprobe pair (--latency SPEC): a
# function that sleeps 2 ms, called exactly 41 times by two threads, once
# recursively, is counted 41 times for its process, with p50 within 20 %
# of 2 ms and (allowing the scheduler's slack) nearly every call in the
# [1M, 2M) or [2M, 4M) bucket (a 2 ms sleep takes 2.0 to 2.2 ms: either
# side of 2^21 ns), and every call in [2 ms, 4 ms) as the issue asks,
# read from its min and max (log2 buckets put 2 ms inside [1M, 2M)); the
# probes are gone after the run; two --latency SPECs give two function
# rows, each with its own count; a call open when tracetop attaches (-p
# to a thread 1.5 s into a 2 s call of timed_fn) is not mis-paired: its
# return has no probe (a uretprobe is set at the entry) and its sleep's
# sys_exit no entry, so no function call and no clock_nanosleep call of
# a second or more is counted, and the syscall's exit is unpaired; a
# SPEC with an offset or arguments is a usage error.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/timed"
need_tool python3 python3
need_root_perf
tfs=/sys/kernel/tracing
[ -d $tfs/events ] || tfs=/sys/kernel/debug/tracing
[ -e $tfs/uprobe_events ] || tap_skip_all "no uprobe_events in tracefs (kernel without CONFIG_UPROBE_EVENTS)"
[ -d $tfs/events/raw_syscalls ] || tap_skip_all "no raw_syscalls tracepoints"

TIMED="$WORKLOADS/timed"

# fn FILE EXPR: EXPR over the function row (r) of the last JSON report.
fn() {
	python3 - "$@" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = reps[-1]["rows"] if reps else []
r = next((r for r in rows if r["kind"] == "function"), None)
print(eval(sys.argv[2]) if r is not None else None)
PY
}

TIMED_MEDIAN="$TT_TMP/median" \
	"$TRACETOP" -b --latency "$TIMED:timed_fn" --format json -- "$TIMED" 41 >"$TT_TMP/f.json" 2>"$TT_TMP/f.err" &
ttpid=$!
wait $ttpid
ok $? "--latency timed_fn -- timed 41: exit 0"
[ -s "$TT_TMP/f.err" ] && diag "$(head -c 400 "$TT_TMP/f.err")"
is "$(fn "$TT_TMP/f.json" 'r["name"].endswith(":timed_fn") and r["comm"] == "timed"')" True \
	"a function row for timed_fn of the timed process (--latency implies --view latency)"
is "$(fn "$TT_TMP/f.json" 'r["count"]')" 41 "count 41: both threads, the recursive call paired"
is "$(fn "$TT_TMP/f.json" 'sum(c for lo, c in r["hist"])')" 41 "the histogram holds every call"
# 20 % of the calls' own median (2 ms and the scheduler's slack)
m=$(cat "$TT_TMP/median" 2>/dev/null || echo 2000000)
within "$(fn "$TT_TMP/f.json" 'r["p50_ns"]')" $((m * 8 / 10)) $((m * 12 / 10)) \
	"p50 within 20 % of the calls' own median ($m ns; each sleeps 2 ms)"
within "$(fn "$TT_TMP/f.json" 'sum(c for lo, c in r["hist"] if lo in (1048576, 2097152))')" 37 41 \
	"nearly every call in [1M, 2M) or [2M, 4M)"
within "$(fn "$TT_TMP/f.json" 'r["max_ns"] >= 2000000 and r["p50_ns"] >= 2000000')" True True \
	"no call shorter than its 2 ms sleep at p50"
# the issue's [2 ms, 4 ms): no call shorter than its sleep, none past 4 ms
# but for the scheduler's slack on a loaded machine (the last 10 %)
is "$(fn "$TT_TMP/f.json" 'r["min_ns"] >= 2000000')" True "every call 2 ms or more (min_ns)"
within "$(fn "$TT_TMP/f.json" 'sum(c for lo, c in r["hist"] if lo < 4000000 and lo >= 1048576)')" 37 41 \
	"nearly every call under 4 ms (buckets from 1M below 4M)"
within "$(python3 -c 'import json,sys; print([json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]["unpaired"])' \
	"$TT_TMP/f.json")" 0 4 "few unpaired exits (the command's own start), none from the uretprobe"
is "$(probes_of $ttpid $tfs/uprobe_events)" 0 "no probe of its tracetop left in uprobe_events"

# ---------------------------------------------------------------- two SPECs
"$TRACETOP" -b --latency "$TIMED:timed_fn" --latency "$TIMED:second" --format json -- "$TIMED" 21 \
	>"$TT_TMP/two.json" 2>"$TT_TMP/two.err" &
ttpid=$!
wait $ttpid
ok $? "--latency timed_fn --latency second -- timed 21: exit 0"
[ -s "$TT_TMP/two.err" ] && diag "$(head -c 400 "$TT_TMP/two.err")"
# (second: the second thread's function, called once; its 10 calls of
# timed_fn, one recursive, make it about 20 ms)
is "$(python3 - "$TT_TMP/two.json" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = reps[-1]["rows"] if reps else []
print(sorted((r["name"].split(":")[-1], r["count"], r["max_ns"] >= 18000000 if r["name"].endswith(":second") else True)
             for r in rows if r["kind"] == "function"))
PY
)" "[('second', 1, True), ('timed_fn', 21, True)]" "two rows: timed_fn 21 times, second once (its 20 ms)"
is "$(probes_of $ttpid $tfs/uprobe_events)" 0 "no probe of its tracetop left"

# ---------------------------------------------------------------- open at attach
TIMED_FIRST_MS=2000 "$TIMED" 1000 &
wpid=$!
bg_pid $wpid
sleep 0.5 # the main thread is 0.5 s into its 2 s call of timed_fn
"$TRACETOP" -b --latency "$TIMED:timed_fn" --latency-kinds syscall --format json -d 1 -p $wpid \
	>"$TT_TMP/att.json" 2>"$TT_TMP/att.err" &
ttpid=$!
wait $ttpid
ok $? "-p a thread inside a 2 s call: exit 0 (when the process ends)"
[ -s "$TT_TMP/att.err" ] && diag "$(head -c 400 "$TT_TMP/att.err")"
att() {
	python3 - "$TT_TMP/att.json" "$1" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
j = reps[-1] if reps else {}
rows = j.get("rows", [])
f = [r for r in rows if r["kind"] == "function"]
s = [r for r in rows if r["kind"] == "syscall" and r["name"] == "clock_nanosleep"]
print(eval(sys.argv[2]))
PY
}
# 500 calls of the main thread after its long one, most of the second's
within "$(att 'f[0]["count"] if f else 0')" 500 1000 "the function's calls after the attach are counted"
is "$(att 'f[0]["max_ns"] < 1000000000 if f else None')" True \
	"the call open at the attach is not counted: none of a second or more"
is "$(att 's[0]["max_ns"] < 1000000000 if s else None')" True \
	"its open clock_nanosleep is not paired with another entry: none of a second or more"
within "$(att 'j.get("unpaired")')" 1 100 "its exit is counted unpaired"
is "$(probes_of $ttpid $tfs/uprobe_events)" 0 "no probe of its tracetop left"

"$TRACETOP" -b --latency "$TIMED:timed_fn+4" -- "$TIMED" 2 >"$TT_TMP/bad.out" 2>"$TT_TMP/bad.err"
is "$?" 2 "an offset is a usage error (exit 2)"
like "$(cat "$TT_TMP/bad.err")" "--latency .*without an offset" "saying why"

done_testing
