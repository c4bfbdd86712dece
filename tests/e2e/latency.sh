#!/bin/bash
# The latency view in batch (--view latency): a command doing 200
# nanosleep(1 ms) calls and 30 failing open() calls shows, for its own
# pid, clock_nanosleep counted 200 times with p50 within 20 % of what the
# command's own clock made of its sleeps (on a loaded machine a 1 ms sleep
# takes longer), about as many calls in the [512K, 1M) and [1M, 2M)
# buckets as its clock saw there, and openat
# with exactly 30 errors; the text report draws bpftrace-like histograms;
# system-wide, a process sleeping 100 ms at a time is found by pid and
# comm with p50 near 100 ms; a hostile comm is escaped in both formats.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/sleepers"
need_tool python3 python3
need_root_perf
[ -d /sys/kernel/tracing/events/raw_syscalls ] || [ -d /sys/kernel/debug/tracing/events/raw_syscalls ] ||
	tap_skip_all "no raw_syscalls tracepoints (tracefs not mounted or kernel without FTRACE_SYSCALLS)"

SLEEPERS="$WORKLOADS/sleepers"

# row FILE NAME PID EXPR: EXPR over the row (r) of syscall NAME of
# process PID in the last JSON report of FILE, None without one.
row() {
	python3 - "$@" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = reps[-1]["rows"] if reps else []
r = next((r for r in rows if r["name"] == sys.argv[2] and r["pid"] == int(sys.argv[3])), None)
print(eval(sys.argv[4]) if r is not None else None)
PY
}

# ---------------------------------------------------------------- a command
SLEEPERS_TIMES="$TT_TMP/took" "$TRACETOP" -b --view latency --format json -- "$SLEEPERS" 200 30 \
	>"$TT_TMP/cmd.json" 2>"$TT_TMP/cmd.err"
ok $? "--view latency -- sleepers: exit 0"
[ -s "$TT_TMP/cmd.err" ] && diag "$(head -c 400 "$TT_TMP/cmd.err")"
pid=$(python3 -c '
import json, sys
rep = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
print(next(r["pid"] for r in rep["rows"] if r["comm"] == "sleepers"))' "$TT_TMP/cmd.json" 2>/dev/null)
like "$pid" '^[0-9]+$' "the command's rows carry its pid and comm"
sleep_name=clock_nanosleep
[ "$(row "$TT_TMP/cmd.json" clock_nanosleep "$pid" 'r["count"]')" = None ] && sleep_name=nanosleep
is "$(row "$TT_TMP/cmd.json" $sleep_name "$pid" 'r["count"]')" 200 "$sleep_name: count 200"
# the sleeps by the command's own clock: their median, and how many fell in
# [512K, 2M)
read -r own_p50 own_near < <(python3 -c '
import sys
t = sorted(int(l) for l in open(sys.argv[1]))
print(t[len(t) // 2], sum(524288 <= x < 2097152 for x in t))' "$TT_TMP/took" 2>/dev/null)
diag "the command's own clock: p50 ${own_p50:-?} ns, ${own_near:-?} of 200 in [512K, 2M)"
within "$(row "$TT_TMP/cmd.json" $sleep_name "$pid" 'r["p50_ns"]')" \
	$((${own_p50:-1000000} * 8 / 10)) $((${own_p50:-1000000} * 12 / 10)) \
	"$sleep_name: p50 within 20 % of the command's own clock"
within "$(row "$TT_TMP/cmd.json" $sleep_name "$pid" \
	'sum(c for lo, c in r["hist"] if lo in (524288, 1048576))')" \
	$((${own_near:-190} - 10)) $((${own_near:-190} + 10)) \
	"$sleep_name: as many calls in the [512K, 1M) and [1M, 2M) buckets as its clock saw (+-10)"
is "$(row "$TT_TMP/cmd.json" $sleep_name "$pid" 'sum(c for lo, c in r["hist"])')" 200 \
	"$sleep_name: the histogram holds every call"
is "$(row "$TT_TMP/cmd.json" $sleep_name "$pid" 'r["errors"]')" 0 "$sleep_name: no errors"
within "$(row "$TT_TMP/cmd.json" $sleep_name "$pid" 'r["max_ns"] >= r["p99_ns"] >= r["p50_ns"] >= 1000000')" \
	True True "$sleep_name: 1 ms <= p50 <= p99 <= max"
is "$(row "$TT_TMP/cmd.json" openat "$pid" 'r["errors"]')" 30 "openat: 30 errors (the failing open() calls)"
within "$(row "$TT_TMP/cmd.json" openat "$pid" 'r["count"]')" 30 40 "openat: the 30 and the loader's few"
is "$(python3 -c '
import json, sys
rep = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
keys = ["kind","name","pid","comm","count","errors","p50_ns","p99_ns","max_ns","hist"]
print(rep["view"], all(all(k in r for k in keys) and r["kind"] == "syscall" for r in rep["rows"]))' \
	"$TT_TMP/cmd.json")" "latency True" "every row has the fields the issue names"

# ---------------------------------------------------------------- text
"$TRACETOP" -b --view latency -- "$SLEEPERS" 50 0 >"$TT_TMP/cmd.txt" 2>"$TT_TMP/cmd.err"
ok $? "text: exit 0"
out="$(cat "$TT_TMP/cmd.txt")"
like "$out" '^ syscall +clock_nanosleep +[0-9]+ +sleepers +50 +0 ' "text: a table row for clock_nanosleep, 50 calls"
like "$out" '^@syscall\[clock_nanosleep, sleepers [0-9]+\]:$' "text: its histogram's title"
like "$out" '^\[1M, 2M\) +[0-9]+ \|@+ *\|$' "text: a bpftrace-like bar in [1M, 2M)"

# ---------------------------------------------------------------- system-wide
SLEEPERS_ARGS="0 0 4"
"$SLEEPERS" $SLEEPERS_ARGS &
bg_pid $!
spid=$!
"$TRACETOP" -b --view latency --format json -d 1 -n 2 >"$TT_TMP/sys.json" 2>"$TT_TMP/sys.err" &
tpid=$!
wait $tpid
ok $? "system-wide: exit 0"
[ -s "$TT_TMP/sys.err" ] && diag "$(head -c 400 "$TT_TMP/sys.err")"
is "$(row "$TT_TMP/sys.json" clock_nanosleep "$spid" 'r["comm"]')" sleepers "system-wide: the sleeper's row, by pid and comm"
within "$(row "$TT_TMP/sys.json" clock_nanosleep "$spid" 'r["count"]')" 8 25 \
	"system-wide: about 10 sleeps a second for 2 s"
within "$(row "$TT_TMP/sys.json" clock_nanosleep "$spid" 'r["p50_ns"]')" 100000000 120000000 \
	"system-wide: p50 near 100 ms"
is "$(python3 -c '
import json, sys
rep = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
print(any(r["pid"] == int(sys.argv[2]) for r in rep["rows"]))' "$TT_TMP/sys.json" "$tpid")" False \
	"system-wide: tracetop's own syscalls left out"

# ---------------------------------------------------------------- escaping
if [ -x "$WORKLOADS/evilcomm" ]; then
	EVIL_PIDFILE="$TT_TMP/evil.pid" "$TRACETOP" -b --view latency --format json -- \
		"$WORKLOADS/evilcomm" 1 >"$TT_TMP/evil.json" 2>/dev/null
	EVIL_PIDFILE="$TT_TMP/evil2.pid" "$TRACETOP" -b --view latency -- \
		"$WORKLOADS/evilcomm" 1 >"$TT_TMP/evil.txt" 2>/dev/null
	! grep -q $'\x1b' "$TT_TMP/evil.json" "$TT_TMP/evil.txt"
	ok $? "a hostile comm: no raw ESC in JSON or text"
	is "$(python3 -c '
import json, sys
rep = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
print("ev\\x1b[31mil\\x0ax" in set(r["comm"] for r in rep["rows"]))' "$TT_TMP/evil.json")" True \
		"JSON: the comm escaped (its syscalls after the rename carry it)"
	like "$(cat "$TT_TMP/evil.txt")" 'ev\\x1b\[31mil\\x0ax' "text: the comm escaped"
else
	skip "evilcomm was not built" "a hostile comm"
	skip "evilcomm was not built" "JSON: the comm escaped"
	skip "evilcomm was not built" "text: the comm escaped"
fi

done_testing
