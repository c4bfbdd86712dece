#!/bin/bash
# The counters view in batch mode (--view counters): counts of a workload
# whose page faults and context switches are known, events this machine
# cannot count, per-CPU values adding up to the total, a -p target that
# exits mid-run, the busiest processes, the fd limit, usage errors and the
# text format.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/counts" "$WORKLOADS/split"
need_root_perf
need_tool python3 python3

COUNTS="$WORKLOADS/counts"
PAGES=4000
SWITCHES=300

# field FILE EXPR: evaluate a python expression over the JSON reports of
# FILE (reps: every report, last: the last one, tot(ev): the last total of
# event ev, row(ev, scope): the last report's row) and print the result.
field() {
	python3 - "$1" "$2" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
last = reps[-1] if reps else {"rows": []}
def row(ev, scope="total"):
    return next((r for r in last["rows"] if r["event"] == ev and r["scope"] == scope), None)
def tot(ev, scope="total"):
    r = row(ev, scope)
    return r["total"] if r else None
print(eval(sys.argv[2]))
PY
}

# within GOT LOW HIGH "desc": LOW <= GOT <= HIGH.
within() {
	if [ -n "$1" ] && [ "$1" != None ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; then
		ok 0 "$4"
	else
		ok 1 "$4"
		diag "got '$1', expected $2 to $3"
	fi
}

# -- COMMAND: the workload's counts less those of an empty run of it.
timeout 30 "$TRACETOP" -b --view counters --format json -d 5 -- "$COUNTS" 0 0 \
	>"$TT_TMP/base.json" 2>"$TT_TMP/base.err"
ok $? "-- COMMAND: an empty run exits 0"
timeout 30 "$TRACETOP" -b --view counters --format json -d 5 -- "$COUNTS" $PAGES $SWITCHES \
	>"$TT_TMP/cmd.json" 2>"$TT_TMP/cmd.err"
ok $? "-- COMMAND: exits 0 when the command ends"
diag "$(cat "$TT_TMP/cmd.err")"
base_pf=$(field "$TT_TMP/base.json" 'tot("page-faults")')
base_cs=$(field "$TT_TMP/base.json" 'tot("context-switches")')
pf=$(field "$TT_TMP/cmd.json" 'tot("page-faults")')
cs=$(field "$TT_TMP/cmd.json" 'tot("context-switches")')
diag "page-faults $pf (empty run $base_pf), context-switches $cs (empty run $base_cs)"
within "$((pf - base_pf))" $((PAGES - 20)) $((PAGES + 40)) "page faults of $PAGES touched pages"
within "$((cs - base_cs))" $((SWITCHES - 5)) $((SWITCHES + SWITCHES / 10 + 5)) \
	"context switches of $SWITCHES sleeps"
like "$(head -c 200 "$TT_TMP/cmd.json")" '^\{"view":"counters","time":[0-9.]+,"interval":[0-9.]+,"scope":"total","target":"command ' \
	"JSON object header"
is "$(field "$TT_TMP/cmd.json" 'all(set(r) >= {"event","scope","value","total","supported"} for r in last["rows"])')" \
	True "every JSON row has event, scope, value, total, supported"
is "$(field "$TT_TMP/cmd.json" 'row("CPUs utilized")["metric"]')" True \
	"CPU utilization as a metric row"

# An event this machine cannot count: a row saying why, never a 0, exit 0.
if "$TRACETOP" --list-events | grep -E '^  cycles OR cpu-cycles +\[not supported\]' >/dev/null; then
	timeout 30 "$TRACETOP" -b --view counters --format json -d 5 \
		--counters cycles,instructions,page-faults -- "$COUNTS" 10 0 >"$TT_TMP/hw.json" 2>"$TT_TMP/hw.err"
	ok $? "unsupported events: exit 0"
	is "$(field "$TT_TMP/hw.json" 'row("cycles")["supported"], row("cycles")["value"], row("cycles")["total"]')" \
		"(False, None, None)" "cycles: supported false, value and total null"
	like "$(field "$TT_TMP/hw.json" 'row("cycles")["reason"]')" "not supported: no hardware PMU" \
		"cycles: the reason"
	is "$(field "$TT_TMP/hw.json" 'row("IPC")')" None "no IPC without cycles and instructions"
	is "$(field "$TT_TMP/hw.json" 'row("page-faults")["supported"]')" True \
		"the other events still count"
	"$TRACETOP" -b --view counters -d 5 --counters cycles,page-faults -- "$COUNTS" 10 0 \
		>"$TT_TMP/hw.txt" 2>/dev/null
	like "$(cat "$TT_TMP/hw.txt")" '^ +[0-9]+\.[0-9]{6} +<not supported> +cycles +total +# not supported: no hardware PMU' \
		"text: <not supported> and the reason"
else
	for t in "unsupported events: exit 0" "cycles: supported false" "cycles: the reason" \
		"no IPC" "the other events still count" "text: <not supported>"; do
		skip "this machine has a hardware PMU: cycles is supported here" "$t"
	done
fi

# System-wide: the CPUs add up to the total, for every event and refresh.
timeout 30 "$TRACETOP" -b --view counters --format json --counters-scope total,cpu -d 0.3 -n 3 \
	>"$TT_TMP/cpu.json" 2>"$TT_TMP/cpu.err"
ok $? "system-wide total,cpu: exits 0"
python3 - "$TT_TMP/cpu.json" "$(nproc)" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1])]
assert len(reps) == 3, len(reps)
for rep in reps:
    assert rep["scope"] == "total,cpu"
    tot = {r["event"]: r for r in rep["rows"] if r["scope"] == "total" and not r.get("metric")}
    assert len(tot) >= 4, tot
    for ev, t in tot.items():
        cpus = [r for r in rep["rows"] if r["event"] == ev and "cpu" in r]
        assert len(cpus) == int(sys.argv[2]), (ev, cpus)
        for key in ("value", "total"):
            s = sum(r[key] for r in cpus)
            assert abs(s - t[key]) <= 1, (ev, key, s, t[key])
PY
ok $? "per-CPU values add up to the total"

# -p of a process that exits mid-run: its final counts, then tracetop ends.
COUNTS_PIDFILE="$TT_TMP/counts.pid" "$COUNTS" $PAGES $SWITCHES wait &
bg_pid $!
cpid=$(wait_pidfile "$TT_TMP/counts.pid" 5)
timeout 30 "$TRACETOP" -b --view counters --format json --counters-scope process,total -d 0.2 \
	-p "$cpid" -o "$TT_TMP/p.json" 2>"$TT_TMP/p.err" &
tpid=$!
wait_for 10 test -s "$TT_TMP/p.json"
ok $? "-p: first report"
kill -USR1 "$cpid"
wait $tpid
ok $? "-p: tracetop ends when the process exits (exit 0)"
is "$(field "$TT_TMP/p.json" 'row("page-faults", "pid '"$cpid"'")["exited"], row("page-faults", "pid '"$cpid"'")["comm"]')" \
	"(True, 'counts')" "-p: the last report marks the process exited"
within "$(field "$TT_TMP/p.json" 'tot("page-faults", "pid '"$cpid"'")')" $PAGES $((PAGES + 40)) \
	"-p: final page faults of the exited process"
within "$(field "$TT_TMP/p.json" 'tot("context-switches", "pid '"$cpid"'")')" $SWITCHES \
	$((SWITCHES + SWITCHES / 10 + 5)) "-p: final context switches of the exited process"
is "$(field "$TT_TMP/p.json" 'tot("page-faults") == tot("page-faults", "pid '"$cpid"'")')" True \
	"-p: the total is the process's"

# Process scope without a target: the busiest processes, not tracetop.
# (niced: 24 busy threads must not slow the checks down)
SPLIT_PIDFILE="$TT_TMP/split.pid" nice -n 19 "$WORKLOADS/split" 30 24 >/dev/null 2>&1 &
bg_pid $!
spid=$(wait_pidfile "$TT_TMP/split.pid" 5)
timeout 30 "$TRACETOP" -b --view counters --format json --counters-scope process -d 0.5 -n 2 \
	>"$TT_TMP/busy.json" 2>/dev/null &
tpid=$!
wait $tpid
ok $? "system-wide process scope: exits 0"
is "$(field "$TT_TMP/busy.json" 'row("task-clock", "pid '"$spid"'")["comm"], row("task-clock", "pid '"$spid"'")["value"] > 0')" \
	"('split', True)" "process scope: the busy workload is counted"
is "$(field "$TT_TMP/busy.json" 'row("task-clock", "pid '"$tpid"'")')" None \
	"process scope: tracetop leaves itself out"
# (processes that exited keep their final rows for three refreshes on top)
is "$(field "$TT_TMP/busy.json" 'len({r["pid"] for r in last["rows"] if not r.get("exited")}) <= 16 and last["scope"]')" \
	process "process scope: at most 16 live processes"

# The fd limit: fewer threads counted, a notice, never a failure.
(ulimit -n 150 && timeout 30 "$TRACETOP" -b --view counters --format json -d 0.3 -n 1 -p "$spid" \
	--counters-scope total,cpu >"$TT_TMP/fd.json" 2>"$TT_TMP/fd.err")
ok $? "fd limit: exit 0"
like "$(field "$TT_TMP/fd.json" 'last.get("notice")')" "per-CPU counts need [0-9]+ fds.*counting [0-9]+ of 24 threads" \
	"fd limit: the notice says what is not counted"
is "$(field "$TT_TMP/fd.json" 'sum(1 for r in last["rows"] if "cpu" in r)')" 0 "fd limit: no CPU rows"
kill "$spid" 2>/dev/null # done with the busy workload

# Usage errors: one line, exit 2.
status=0
"$TRACETOP" -b --view counters --counters page-faults,cyclez -n 1 >"$TT_TMP/out" 2>"$TT_TMP/err" || status=$?
is "$status" 2 "unknown counter name: exit 2"
like "$(cat "$TT_TMP/err")" "^tracetop: unknown event 'cyclez' \(did you mean 'cycles'\?\)" \
	"unknown counter name: the message names it"
is "$(wc -l <"$TT_TMP/err")" 1 "unknown counter name: one line"
status=0
"$TRACETOP" -b --view stat -n 1 >/dev/null 2>"$TT_TMP/err" || status=$?
is "$status" 2 "unknown view: exit 2"
like "$(cat "$TT_TMP/err")" "--view expects top, counters(, [a-z]+)* or [a-z]+, got 'stat'" "unknown view: valid ones named"
status=0
"$TRACETOP" -b --view counters --counters-scope cpus -n 1 >/dev/null 2>"$TT_TMP/err" || status=$?
is "$status" 2 "unknown scope: exit 2"

# Text: like perf stat -I.
"$TRACETOP" -b --view counters -d 5 --counters task-clock,page-faults,context-switches \
	-- "$COUNTS" 100 10 >"$TT_TMP/cmd.txt" 2>/dev/null
ok $? "text: exit 0"
text=$(cat "$TT_TMP/cmd.txt")
like "$text" '^# counting command .*counts, scope total$' "text: what is counted"
like "$text" '^# +time +counts +unit +event +scope +# metric or rate$' "text: column titles"
like "$text" '^ +[0-9]+\.[0-9]{6} +[0-9]+\.[0-9]{2} msec task-clock +total +# +[0-9.]+ CPUs utilized' \
	"text: task-clock in msec with CPUs utilized"
like "$text" '^ +[0-9]+\.[0-9]{6} +[0-9]{3,} +page-faults +total +# +[0-9.]+ /sec' \
	"text: a count with its rate"
is "$(grep -c 'context-switches' "$TT_TMP/cmd.txt")" 1 "text: one line per event and refresh"

# System-wide, CPUs utilized is the busy time of /proc/stat, not task-clock
# per CPU, which also runs in the idle task (it read 2.000 on an idle
# 2-CPU machine): it agrees with /proc/stat read around the same interval,
# whatever else the machine runs. cpu-clock's rate is a time per second.
busy_ticks() { awk '/^cpu /{print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }
read -r b0 a0 < <(busy_ticks)
"$TRACETOP" -b --view counters --format json -d 2 -n 1 --counters task-clock,cpu-clock \
	>"$TT_TMP/util.json" 2>/dev/null
read -r b1 a1 < <(busy_ticks)
ncpu=$(getconf _NPROCESSORS_ONLN)
want=$(awk -v b=$((b1 - b0)) -v a=$((a1 - a0)) -v n="$ncpu" 'BEGIN { printf "%.3f", a ? b / a * n : 0 }')
got=$(field "$TT_TMP/util.json" 'round(row("CPUs utilized")["value"], 3)')
diag "CPUs utilized $got, /proc/stat says $want of $ncpu"
is "$(awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; print (d < 0 ? -d : d) <= 0.3 }')" 1 \
	"system-wide CPUs utilized is the busy time /proc/stat shows"
is "$(field "$TT_TMP/util.json" 'row("task-clock")["unit"], row("cpu-clock")["unit"]')" "('ns', 'ns')" \
	"JSON: task-clock and cpu-clock are in ns"
"$TRACETOP" -b --view counters -d 0.5 -n 1 --counters task-clock,cpu-clock >"$TT_TMP/util.txt" 2>/dev/null
like "$(cat "$TT_TMP/util.txt")" '^ +[0-9.]+ +[0-9.]+ msec cpu-clock +total +# +[0-9]+\.[0-9]{3} msec/s$' \
	"text: the cpu-clock rate in msec/s, not ns/sec"

# -n and -o
"$TRACETOP" -b --view counters -d 0.2 -n 2 -o "$TT_TMP/o.txt" >/dev/null 2>&1
is "$(grep -c 'page-faults' "$TT_TMP/o.txt")" 2 "-n 2 -o: two refreshes in the file"
done_testing
