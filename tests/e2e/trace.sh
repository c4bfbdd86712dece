#!/bin/bash
# The trace view in batch mode (--view trace, -T, --filter, --ftrace):
# the exec of a uniquely named program decoded (text and JSON, typed);
# a kernel-side filter keeping other events out; events of both CPUs in
# time order; the bounded log counting its drops; call stacks; clear
# errors for an unknown event and a bad filter (the kernel's words); the
# function tracer refused here with the reason; and tracefs exactly as it
# was after a normal exit, SIGINT, SIGTERM, SIGHUP and a SIGKILL, with
# --cleanup (and the next start) removing only dead tracetops' instances.
. "$(dirname "$0")/lib.sh"
EXECME="$WORKLOADS/tt-execme-7f3a"
need_built "$TRACETOP" "$EXECME" "$WORKLOADS/split"
need_root_perf
need_tool python3 python3
TRACEFS=/sys/kernel/tracing
[ -d "$TRACEFS/events/sched/sched_process_exec" ] ||
	tap_skip_all "tracefs with sched events is not mounted at $TRACEFS"
[ -w "$TRACEFS/instances" ] || tap_skip_all "cannot write $TRACEFS/instances (needs root)"

# The global tracing state a run must leave alone. Instances of tracetops
# still running (other tests' under make -j) are left out: every tracetop
# this test starts has exited when it looks.
state() {
	local f i pid
	for f in set_event tracing_on current_tracer; do
		printf '%s: ' "$f"
		cat "$TRACEFS/$f"
	done
	printf 'instances:'
	for i in $(ls "$TRACEFS/instances"); do
		if [[ "$i" =~ ^tracetop-([1-9][0-9]*)-[0-9]+$ ]]; then
			pid=${BASH_REMATCH[1]}
			kill -0 "$pid" 2>/dev/null && continue
		fi
		printf ' %s' "$i"
	done
	echo
}

# start_bg ARGS...: tracetop in the background (pid in $tpid, output
# discarded unless -o), bounded by its -n and killed at exit if need be.
start_bg() {
	"$TRACETOP" "$@" >/dev/null 2>"$TT_TMP/bg.err" &
	tpid=$!
	bg_pid $tpid
}

# state_is DESC: the state is the one at the start.
state_is() {
	is "$(state)" "$STATE0" "tracefs state unchanged: $1"
}

# json FILE EXPR: a python expression over the JSON objects of FILE
# (objs: all of them; rows: every row of every object, in order).
json() {
	python3 - "$1" "$2" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = [r for o in objs for r in o["rows"]]
print(eval(sys.argv[2]))
PY
}

# run_until_seen FILE SECS: run the exec workload until FILE shows it.
run_until_seen() {
	local end=$((SECONDS + $2))
	while [ $SECONDS -lt $end ]; do
		"$EXECME" 1 >/dev/null 2>&1
		/bin/true
		grep -q 'tt-execme-7f3a' "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

STATE0=$(state)
diag "$STATE0"

# Text, system-wide, stopped by SIGINT: the exec line, decoded.
start_bg -b -T sched:sched_process_exec -d 0.2 -n 300 -o "$TT_TMP/exec.txt"
run_until_seen "$TT_TMP/exec.txt" 15
ok $? "text: the exec of tt-execme-7f3a shows up"
kill -INT $tpid
wait $tpid
ok $? "SIGINT: exit 0"
like "$(cat "$TT_TMP/exec.txt")" \
	'^ *tt-execme-7f3a-[0-9]+ +\[[0-9]{3}\] +[0-9]+\.[0-9]{6}: sched:sched_process_exec: filename=/.*/tt-execme-7f3a pid=[0-9]+ old_pid=[0-9]+$' \
	"text: comm-pid [cpu] time: event: the filename decoded"
state_is "after SIGINT"

# JSON, a command: every exec of it (the first and three more), typed.
timeout 60 "$TRACETOP" -b -T sched:sched_process_exec --format json -d 5 -- "$EXECME" 3 \
	>"$TT_TMP/cmd.json" 2>"$TT_TMP/cmd.err"
ok $? "JSON, -- COMMAND: exit 0 when it ends"
diag "$(cat "$TT_TMP/cmd.err")"
is "$(json "$TT_TMP/cmd.json" 'len([r for r in rows if r["fields"]["filename"].endswith("/tt-execme-7f3a")])')" 4 \
	"JSON: the command's four execs, filename decoded"
is "$(json "$TT_TMP/cmd.json" 'all(r["event"] == "sched:sched_process_exec" and r["comm"] == "tt-execme-7f3a" and isinstance(r["fields"]["pid"], int) and isinstance(r["fields"]["filename"], str) and isinstance(r["ts"], int) and isinstance(r["cpu"], int) and r["pid"] == r["fields"]["pid"] for r in rows)')" True \
	"JSON: event, comm, pid; numbers as numbers, strings as strings"
is "$(json "$TT_TMP/cmd.json" 'objs[-1]["view"], [(s["event"], s["total"]) for s in objs[-1]["summary"]]')" \
	"('trace', [('sched:sched_process_exec', 4)])" "JSON: the per-event summary"

# A kernel-side filter keeps the other execs out.
start_bg -b -T sched:sched_process_exec --filter 'filename ~ "*tt-execme-7f3a"' --format json \
	-d 0.2 -n 300 -o "$TT_TMP/filter.json"
run_until_seen "$TT_TMP/filter.json" 15
ok $? "filter: the matching exec shows up"
for i in 1 2 3 4 5; do /bin/true; ls / >/dev/null; done
kill -TERM $tpid
wait $tpid
ok $? "SIGTERM: exit 0"
is "$(json "$TT_TMP/filter.json" 'len(rows) > 0 and all(r["fields"]["filename"].endswith("/tt-execme-7f3a") for r in rows)')" \
	True "filter: no other exec got through"
state_is "after SIGTERM"

# Both CPUs, in time order, with a busy two-thread workload.
"$WORKLOADS/split" 3 2 >/dev/null 2>&1 &
bg_pid $!
timeout 60 "$TRACETOP" -b -T sched:sched_switch -T sched:sched_wakeup --format json -d 0.3 -n 4 \
	>"$TT_TMP/cpus.json" 2>"$TT_TMP/cpus.err"
ok $? "sched_switch and sched_wakeup: exit 0"
is "$(json "$TT_TMP/cpus.json" 'all(a["ts"] <= b["ts"] for a, b in zip(rows, rows[1:]))')" True \
	"events merged across CPUs in time order"
if [ "$(nproc)" -ge 2 ]; then
	is "$(json "$TT_TMP/cpus.json" 'len({r["cpu"] for r in rows}) >= 2')" True "events from several CPUs"
else
	skip "one CPU" "events from several CPUs"
fi
is "$(json "$TT_TMP/cpus.json" 'sorted({r["event"] for r in rows})')" \
	"['sched:sched_switch', 'sched:sched_wakeup']" "two tracepoints in one stream"
is "$(json "$TT_TMP/cpus.json" 'sum(o["dropped"] for o in objs) + len(rows) == sum(s["total"] for s in objs[-1]["summary"])')" \
	True "every event printed once, or counted as dropped"

# The bounded log: a small one drops its oldest entries and counts them.
timeout 60 "$TRACETOP" -b -T sched:sched_switch --trace-log 16 --format json -d 0.3 -n 3 \
	>"$TT_TMP/drops.json" 2>/dev/null
ok $? "--trace-log 16: exit 0"
is "$(json "$TT_TMP/drops.json" 'all(len(o["rows"]) <= 16 for o in objs) and sum(o["dropped"] for o in objs) > 0')" \
	True "a full log counts its drops"
is "$(json "$TT_TMP/drops.json" 'sum(o["dropped"] for o in objs) + len(rows) == sum(s["total"] for s in objs[-1]["summary"])')" \
	True "drops and printed events add up to the events counted"

# A process running before tracetop that exits before its event is read
# (gone from /proc by then) keeps its name: the start's scan saw it.
cp /bin/sleep "$TT_TMP/oldsleeper"
"$TT_TMP/oldsleeper" 1.2 &
old=$!
bg_pid $old
timeout 60 "$TRACETOP" -b -T sched:sched_process_exit --filter "pid == $old" --format json \
	-d 1 -n 3 >"$TT_TMP/old.json" 2>"$TT_TMP/old.err"
ok $? "an exit of a process older than tracetop: exit 0"
is "$(json "$TT_TMP/old.json" "[(r['comm'], r['pid']) for r in rows]")" "[('oldsleeper', $old)]" \
	"... named by the command it had, not [unknown]" || diag "$(cat "$TT_TMP/old.err")"

# Call stacks of trace events (-g), on SIGHUP.
start_bg -b -g -T sched:sched_switch --format json -d 0.2 -n 300 -o "$TT_TMP/stack.json"
wait_for 10 test -s "$TT_TMP/stack.json"
ok $? "-g: a report"
kill -HUP $tpid
wait $tpid
ok $? "SIGHUP: exit 0"
is "$(json "$TT_TMP/stack.json" 'any(any(f.startswith("__schedule (") for f in r.get("stack", [])) for r in rows)')" \
	True "-g: the stack of a sched_switch starts in __schedule"
state_is "after SIGHUP"

# Bad input.
status=0
"$TRACETOP" -b -T sched:sched_switchx -n 1 >/dev/null 2>"$TT_TMP/err" || status=$?
is "$status" 2 "unknown event: exit 2"
is "$(cat "$TT_TMP/err")" \
	"tracetop: -T: unknown tracepoint 'sched:sched_switchx' (did you mean 'sched:sched_switch'?); see tracetop --list-events" \
	"unknown event: one line naming it, with a suggestion"
status=0
"$TRACETOP" -b -T page-faults -n 1 >/dev/null 2>"$TT_TMP/err" || status=$?
is "$status" 2 "-T of a non-tracepoint: exit 2"
like "$(cat "$TT_TMP/err")" "'page-faults' is not a tracepoint" "-T of a non-tracepoint: says so"
status=0
"$TRACETOP" -b -T sched:sched_switch --filter 'prev_pidx == 1' -n 1 >/dev/null 2>"$TT_TMP/err" || status=$?
is "$status" 1 "bad filter: exit 1"
like "$(cat "$TT_TMP/err")" \
	"^tracetop: filter refused by the kernel: Field not found \(at column [0-9]+\), in 'prev_pidx == 1' for sched:sched_switch$" \
	"bad filter: the kernel's own words first, then the filter and the event"
status=0
"$TRACETOP" -b --filter 'prev_pid == 1' -n 1 >/dev/null 2>"$TT_TMP/err" || status=$?
is "$status" 2 "--filter without -T: exit 2"
state_is "after the errors"

# The function tracer: here the kernel refuses it (EPERM); where it runs
# (tests/vm/trace-ftrace.sh) the function shows up.
status=0
timeout 30 "$TRACETOP" -b --ftrace do_sys_openat2 -d 0.5 -n 2 >"$TT_TMP/ftrace.txt" \
	2>"$TT_TMP/ftrace.err" || status=$?
if [ "$status" -eq 0 ]; then
	like "$(cat "$TT_TMP/ftrace.txt")" 'ftrace:function: +do_sys_openat2' "--ftrace: the function shows up"
else
	is "$status" 1 "--ftrace refused by this kernel: exit 1"
	like "$(cat "$TT_TMP/ftrace.err")" \
		"^tracetop: (the kernel refused function tracing: .*(EPERM|EACCES)|this kernel has no function tracer|the kernel has no function tracing)" \
		"--ftrace: the kernel's refusal (or what is missing), clearly"
	diag "$(cat "$TT_TMP/ftrace.err")"
fi
state_is "after --ftrace"

# SIGKILL: nothing of tracetop's may stay behind; an instance a killed
# tracetop left (made here by hand, named after a dead pid) is removed by
# --cleanup and by the next start, and nobody else's instance is.
start_bg -b -T sched:sched_switch -d 0.2 -n 300 -o "$TT_TMP/kill.txt"
wait_for 10 test -s "$TT_TMP/kill.txt"
kill -KILL $tpid
wait $tpid 2>/dev/null
state_is "after SIGKILL"
is "$(ls "$TRACEFS/instances" | grep -c "^tracetop-$tpid-")" 0 "SIGKILL: no instance of it left"
sleep 0.1 &
dead=$!
wait $dead
stale="tracetop-$dead-0"
alive="tracetop-1-0"                # pid 1 is running: not stale
foreign="tt-e2e-foreign-$$"         # not tracetop's
for i in "$stale" "$alive" "$foreign"; do
	at_exit "rmdir '$TRACEFS/instances/$i' 2>/dev/null"
done
mkdir "$TRACEFS/instances/$alive" "$TRACEFS/instances/$foreign"
mkdir "$TRACEFS/instances/$stale" && "$TRACETOP" --cleanup 2>"$TT_TMP/cleanup.err"
ok $? "--cleanup: exit 0"
if grep -q "removed tracefs instance $stale left by tracetop pid $dead" "$TT_TMP/cleanup.err"; then
	ok 0 "--cleanup: says what it removed"
else
	# under make -j another test's tracetop may have started in between
	# and removed it first (every start does)
	[ ! -d "$TRACEFS/instances/$stale" ]
	ok $? "--cleanup: says what it removed (or another tracetop's start did)"
	diag "$(cat "$TT_TMP/cleanup.err")"
fi
[ ! -d "$TRACEFS/instances/$stale" ]
ok $? "--cleanup: the dead tracetop's instance is gone"
[ -d "$TRACEFS/instances/$alive" ] && [ -d "$TRACEFS/instances/$foreign" ]
ok $? "--cleanup: a live tracetop's and a foreign instance stay"
mkdir "$TRACEFS/instances/$stale"
timeout 30 "$TRACETOP" -b -T sched:sched_process_exec -d 0.1 -n 1 >/dev/null 2>"$TT_TMP/start.err"
ok $? "the next start: exit 0"
[ ! -d "$TRACEFS/instances/$stale" ] && [ -d "$TRACEFS/instances/$foreign" ]
ok $? "the next start removes only the dead tracetop's instance"
rmdir "$TRACEFS/instances/$alive" "$TRACEFS/instances/$foreign"

# With -g each event carries its call stack: the exec's passes through the
# kernel's exec path, printed as "=> frame" lines under the event.
timeout 30 "$TRACETOP" -b -g -T sched:sched_process_exec -d 1 -- "$EXECME" 1 \
	>"$TT_TMP/stack.txt" 2>"$TT_TMP/stack.err"
ok $? "-g: exit 0" || diag "$(cat "$TT_TMP/stack.err")"
awk '/sched:sched_process_exec/ { ev = 1; next } ev && /^ *=> / { n++ } END { exit !(n >= 2) }' \
	"$TT_TMP/stack.txt"
ok $? "-g: the exec event's stack follows it (=> lines)"
grep -qE '^ *=> .*(exec|bprm)' "$TT_TMP/stack.txt"
ok $? "-g: through the kernel's exec path" || diag "$(grep -m5 '=>' "$TT_TMP/stack.txt")"
state_is "at the end"
done_testing
