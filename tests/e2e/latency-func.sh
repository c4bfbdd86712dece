#!/bin/bash
# Function latency through a uprobe/uretprobe pair (--latency SPEC): a
# function that sleeps 2 ms, called exactly 41 times by two threads, once
# recursively, is counted 41 times for its process, with p50 within 20 %
# of 2 ms and (allowing the scheduler's slack) nearly every call in the
# [1M, 2M) or [2M, 4M) bucket (a 2 ms sleep takes 2.0 to 2.2 ms: either
# side of 2^21 ns); the probes are gone after the run; a SPEC with an
# offset or arguments is a usage error.
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
within "$(python3 -c 'import json,sys; print([json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]["unpaired"])' \
	"$TT_TMP/f.json")" 0 4 "few unpaired exits (the command's own start), none from the uretprobe"
is "$(probes_of $ttpid $tfs/uprobe_events)" 0 "no probe of its tracetop left in uprobe_events"

"$TRACETOP" -b --latency "$TIMED:timed_fn+4" -- "$TIMED" 2 >"$TT_TMP/bad.out" 2>"$TT_TMP/bad.err"
is "$?" 2 "an offset is a usage error (exit 2)"
like "$(cat "$TT_TMP/bad.err")" "--latency .*without an offset" "saying why"

done_testing
