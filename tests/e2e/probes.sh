#!/bin/bash
# Probes (--probe, --view probes, --probe-vars, --cleanup) on the probed
# workload, whose probed_fn is called exactly N times with known arguments
# and return values: exact hit counts for entry and return probes, exact
# argument and return values in the trace view, nothing left in tracefs
# after an exit, SIGINT, SIGTERM or SIGHUP, a SIGKILL's leftovers removed by
# --cleanup and at the next start (only groups whose tracetop is gone,
# never another tool's), clear errors for bad SPECs, and kprobes refused
# naming CONFIG_KPROBE_EVENTS on a kernel without them.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/probed"
need_root_perf

TFS=/sys/kernel/tracing
[ -e "$TFS/events" ] || TFS=/sys/kernel/debug/tracing
[ -w "$TFS/uprobe_events" ] || tap_skip_all "no writable uprobe_events in tracefs (CONFIG_UPROBE_EVENTS, root)"
need_tool python3 python3
need_tool nm binutils

PROBED="$WORKLOADS/probed"
N=1234
LISTING="$TFS/uprobe_events"
[ -r "$TFS/dynamic_events" ] && LISTING="$TFS/dynamic_events"
before=$(grep -v '^.:tracetop_' "$LISTING")

# field FILE EXPR: a python expression over the JSON objects of FILE (reps:
# all, last: the last one, row(name): the last object's row whose name ends
# with :name).
field() {
	python3 - "$1" "$2" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
last = reps[-1] if reps else {"rows": []}
def row(name):
    return next((r for r in last["rows"] if r["name"].endswith(":" + name)), None)
print(eval(sys.argv[2]))
PY
}

# group_left PID: succeed when tracefs still has a probe of tracetop PID.
group_left() {
	grep -q "^.:tracetop_$1/" "$LISTING"
}

# said FILE ERE GROUP_PID "desc": FILE has a line matching ERE, or (make
# check runs tests in parallel, and every tracetop's start removes the
# groups of dead ones) another tracetop removed the group first: a skip.
said() {
	if grep -Eq -- "$2" "$1"; then
		ok 0 "$4"
	elif ! group_left "$3"; then
		skip "another tracetop, started meanwhile, removed tracetop_$3 first" "$4"
	else
		like "$(cat "$1")" "$2" "$4"
	fi
}

# other_tracetops [PID]: whether a tracetop other than this test's (and
# than PID) runs now (a parallel test run on this machine; each cleans up
# after killed ones).
other_tracetops() {
	local c
	for c in /proc/[0-9]*/comm; do
		[ "$c" = "/proc/${1:-none}/comm" ] && continue
		[ "$(cat "$c" 2>/dev/null)" = tracetop ] && return 0
	done
	return 1
}

# run_probes OUT ARGS...: tracetop -b --view probes --format json ARGS > OUT.
run_probes() {
	local out="$1"
	shift
	timeout 60 "$TRACETOP" -b --view probes --format json "$@" >"$out" 2>"$out.err"
}

# -- exact counts of a function called N times, entry and return
run_probes "$TT_TMP/count.json" --probe 'probed:probed_fn' --probe 'probed:probed_fn%return' \
	-- "$PROBED" $N
ok $? "--view probes -- probed $N exits 0"
diag "$(cat "$TT_TMP/count.json.err")"
is "$(field "$TT_TMP/count.json" 'row("probed_fn")["hits"]')" $N "uprobe counts exactly $N hits"
is "$(field "$TT_TMP/count.json" 'row("probed_fn__return")["hits"]')" $N \
	"%return probe counts exactly $N hits"
is "$(field "$TT_TMP/count.json" 'row("probed_fn")["kind"], row("probed_fn__return")["kind"]')" \
	"('uprobe', 'uretprobe')" "kinds uprobe and uretprobe"
is "$(field "$TT_TMP/count.json" 'all(set(r) >= {"name","kind","target","args","hits","rate","enabled","ours"} for r in last["rows"])')" \
	True "every row has name, kind, target, args, hits, rate, enabled, ours"
like "$(head -c 200 "$TT_TMP/count.json")" '^\{"view":"probes","time":[0-9.]+,"interval":[0-9.]+,"group":"tracetop_[0-9]+"' \
	"JSON object header names the group"
like "$(field "$TT_TMP/count.json" 'row("probed_fn")["target"]')" '/probed:probed_fn$' \
	"target is binary:function"
is "$(field "$TT_TMP/count.json" 'row("probed_fn")["enabled"], row("probed_fn")["ours"]')" \
	"(True, True)" "our probe: enabled and ours"
group=$(field "$TT_TMP/count.json" 'last["group"]')
! group_left "${group#tracetop_}"
ok $? "nothing of $group left in tracefs after the exit"

# -- arguments: names from DWARF, NAME=FETCHARG, raw fetch-args
run_probes "$TT_TMP/args.json" --probe 'probed:probed_fn a b s first=%di:s32 +0(%dx):string' \
	-- "$PROBED" 10
ok $? "a probe with arguments exits 0"
diag "$(cat "$TT_TMP/args.json.err")"
like "$(field "$TT_TMP/args.json" '" ".join(row("probed_fn")["args"])')" \
	'^a=[^ ]+:s32 b=[^ ]+:s64 s=\+0\([^ ]+\):string first=%di:s32 arg5=\+0\(%dx\):string$' \
	"arguments in the row: names translated, fetch-args as given"
is "$(field "$TT_TMP/args.json" 'row("probed_fn")["hits"]')" 10 "the probe with arguments counts"

# -- argument and return values, in the trace view
timeout 60 "$TRACETOP" -b --view trace --format json --probe 'probed:probed_fn a b s' \
	--probe 'probed:probed_fn%return r=$retval:s32' -- "$PROBED" 5 >"$TT_TMP/trace.json" \
	2>"$TT_TMP/trace.err"
ok $? "--view trace with probes exits 0"
diag "$(cat "$TT_TMP/trace.err")"
vals=$(python3 - "$TT_TMP/trace.json" <<'PY'
import json, sys
rows = [r for l in open(sys.argv[1]) if l.startswith("{") for r in json.loads(l).get("rows", [])]
ent = [r["fields"] for r in rows if r["event"].endswith(":probed_fn")]
ret = [r["fields"] for r in rows if r["event"].endswith(":probed_fn__return")]
print([(f["a"], f["b"], f["s"]) for f in ent], [f["r"] for f in ret],
      sorted({r["event"].split(":")[0].startswith("tracetop_") for r in rows}))
PY
)
is "$vals" "[(0, 0, 'probed-string'), (1, 3, 'probed-string'), (2, 6, 'probed-string'), (3, 9, 'probed-string'), (4, 12, 'probed-string')] [7, 8, 9, 10, 11] [True]" \
	"argument and return values exact, events named after the group and probe"

# -- the text format
timeout 60 "$TRACETOP" -b --view probes --probe 'probed:probed_fn' -- "$PROBED" 7 \
	>"$TT_TMP/text.out" 2>&1
like "$(cat "$TT_TMP/text.out")" '^ +[0-9.]+ tracetop_[0-9]+:probed_fn +uprobe +7 ' \
	"text: a line with name, kind and hits"

# -- signals: exit, SIGINT, SIGTERM and SIGHUP leave nothing behind
for sig in INT TERM HUP; do
	"$TRACETOP" -b --view probes --probe "$PROBED:probed_fn" -d 0.2 >"$TT_TMP/sig.out" \
		2>"$TT_TMP/sig.err" &
	tp=$!
	bg_pid $tp
	if ! wait_for 10 group_left $tp; then
		ok 1 "SIG$sig: the probe was made"
		diag "$(cat "$TT_TMP/sig.err")"
		continue
	fi
	kill -$sig $tp
	wait $tp
	st=$?
	is "$st" 0 "SIG$sig: tracetop exits 0"
	! group_left $tp
	ok $? "SIG$sig: no tracetop_$tp group left"
done

# -- SIGKILL: the group stays; --cleanup removes it and nothing else
off=$(nm "$PROBED" | awk '$3 == "probed_fn" { print $1 }' | sed 's/^0*//')
# each refresh lists the dynamic events anew (one file kept open and read
# again): a probe another tool makes meanwhile shows up at the next
run_probes "$TT_TMP/later.json" -n 8 -d 0.3 &
later=$!
sleep 1
echo "p:other_test/x $PROBED:0x$off" >>"$TFS/uprobe_events"
ok $? "a foreign probe made by hand (other_test/x)"
wait $later
ok $? "a batch run across its making exits 0"
is "$(python3 - "$TT_TMP/later.json" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
seen = [any(r["name"] == "other_test:x" for r in rep["rows"]) for rep in reps]
print(len(seen), seen[0], seen[-1])
PY
)" "8 False True" "listed from the refresh after it was made, not before"
at_exit "echo '-:other_test/x' >>'$TFS/uprobe_events' 2>/dev/null"
"$TRACETOP" -b --view probes --probe "$PROBED:probed_fn" -d 0.2 >/dev/null 2>&1 &
tp=$!
bg_pid $tp
wait_for 10 group_left $tp
ok $? "the probe of the tracetop to be killed exists"
run_probes "$TT_TMP/others.json" -n 1 -d 0.1
is "$(field "$TT_TMP/others.json" '[(r["kind"], r["ours"], r["enabled"], r["hits"]) for r in last["rows"] if r["name"] == "other_test:x"]')" \
	"[('uprobe', False, False, 0)]" "another tool's probe is listed, ours false"
is "$(field "$TT_TMP/others.json" 'any(r["name"].startswith("tracetop_'$tp':") and not r["ours"] for r in last["rows"])')" \
	True "a running tracetop's probes are not ours either"
# tests run in parallel (CI): another tracetop's start may clean up the
# killed one's group at once, and be gone again before it is looked at
other_tracetops $tp && par=1
kill -KILL $tp
wait $tp 2>/dev/null
if group_left $tp; then
	ok 0 "after SIGKILL the group tracetop_$tp stays"
elif [ -n "${par:-}" ] || other_tracetops; then
	# any tracetop starting cleans up what killed ones left (by design)
	skip "another tracetop, started meanwhile, removed tracetop_$tp first" \
		"after SIGKILL the group tracetop_$tp stays"
else
	ok 1 "after SIGKILL the group tracetop_$tp stays"
fi
"$TRACETOP" --cleanup >"$TT_TMP/cleanup.out" 2>&1
ok $? "--cleanup exits 0"
said "$TT_TMP/cleanup.out" "removed probe group tracetop_$tp \\(1 probe\\) left by tracetop pid $tp" \
	$tp "--cleanup says what it removed"
! group_left $tp
ok $? "--cleanup removed tracetop_$tp"
grep -q '^p:other_test/x ' "$LISTING"
ok $? "--cleanup left the foreign group alone"
"$TRACETOP" --cleanup >"$TT_TMP/cleanup2.out" 2>&1
like "$(cat "$TT_TMP/cleanup2.out")" "no probe group of a killed tracetop to remove" \
	"--cleanup again: nothing to remove"
echo '-:other_test/x' >>"$TFS/uprobe_events"
ok $? "the foreign probe removed by hand"

# -- at start: a dead tracetop's group goes, a live pid's stays
dead=$(sh -c 'echo $$')
echo "p:tracetop_$dead/x $PROBED:0x$off" >>"$TFS/uprobe_events"
echo "p:tracetop_$$/y $PROBED:0x$off" >>"$TFS/uprobe_events"
at_exit "echo '-:tracetop_$$/y' >>'$TFS/uprobe_events' 2>/dev/null"
run_probes "$TT_TMP/start.json" -n 1 -d 0.1
said "$TT_TMP/start.json.err" "removed probe group tracetop_$dead" "$dead" \
	"at start: the dead pid's group is removed, saying so"
! group_left "$dead"
ok $? "tracetop_$dead is gone"
group_left $$
ok $? "tracetop_$$ (a live process) is kept"
echo "-:tracetop_$$/y" >>"$TFS/uprobe_events"

# -- errors: malformed SPECs (2), unknown or non-code targets (1)
for spec in 'probed:' 'probed:probed_fn+x' 'probed:probed_fn%entry' 'probed:probed_fn %nosuchreg' \
	'probed:probed_fn %di:string' 'probed:probed_fn $retval'; do
	"$TRACETOP" -b --view probes --probe "$spec" -- "$PROBED" 1 >/dev/null 2>"$TT_TMP/err"
	st=$?
	is "$st" 2 "malformed '$spec': exit 2"
	like "$(cat "$TT_TMP/err")" "^tracetop: --probe '.*': " "malformed '$spec': says why"
done
check_error() {
	"$TRACETOP" -b --view probes --probe "$1" -- "$PROBED" 1 >/dev/null 2>"$TT_TMP/err"
	st=$?
	is "$st" 1 "$3: exit 1"
	like "$(cat "$TT_TMP/err")" "$2" "$3: clear message"
}
check_error 'probed:no_such_fn' "no function 'no_such_fn' in .*/probed" "unknown function"
check_error 'no-such-binary-xyz:main' "unknown binary 'no-such-binary-xyz'" "unknown binary"
check_error 'probed:probed_data' "'probed_data' in .*/probed is data \\(a variable\\), not code" \
	"a data symbol"
check_error 'probed:probed_fn nosuchvar' "no parameter or variable 'nosuchvar' here" \
	"an unknown variable name"
if [ ! -e "$TFS/kprobe_events" ]; then
	check_error 'do_sys_openat2' 'kprobes are not available: .*CONFIG_KPROBE_EVENTS.*uprobes .* still work' \
		"a kprobe without CONFIG_KPROBE_EVENTS"
else
	skip "this kernel has kprobes (tests/vm covers them)" "a kprobe without CONFIG_KPROBE_EVENTS"
	skip "this kernel has kprobes" "a kprobe without CONFIG_KPROBE_EVENTS: message"
fi

# -- --probe-vars: the parameters with their fetch-args
"$TRACETOP" --probe-vars "$PROBED:probed_fn" >"$TT_TMP/vars.out" 2>&1
ok $? "--probe-vars exits 0"
vars=$(cat "$TT_TMP/vars.out")
like "$vars" '^probed_fn in .*/probed \(probed\.c:[0-9]+\), from DWARF' "--probe-vars: header"
like "$vars" '^	param int +a +[^ ]+:s32$' "--probe-vars: a with its fetch-arg"
like "$vars" '^	param long( int)? +b +[^ ]+:s64$' "--probe-vars: b with its fetch-arg"
like "$vars" '^	param const char \* +s +\+0\([^ ]+\):string$' "--probe-vars: s as a string"
"$TRACETOP" --probe-vars 'probed:' >/dev/null 2>&1
is "$?" 2 "--probe-vars with a malformed SPEC: exit 2"

# -- a binary whose path has a blank and ':' (tracefs takes neither): the
# binary quoted in the spec, counted exactly
odd="$TT_TMP/my app:v2"
mkdir -p "$odd" && cp "$PROBED" "$odd/probed"
run_probes "$TT_TMP/odd.json" --probe "\"$odd/probed\":probed_fn" -- "$odd/probed" $N
ok $? "--probe \"PATH WITH BLANK:COLON\":FUNC exits 0"
diag "$(cat "$TT_TMP/odd.json.err")"
is "$(field "$TT_TMP/odd.json" 'row("probed_fn")["hits"]')" $N \
	"a probe on a path with a blank and ':' counts exactly $N hits"

# -- the machine as it was
is "$(grep -v '^.:tracetop_' "$LISTING")" "$before" "dynamic events as before the test"
done_testing
