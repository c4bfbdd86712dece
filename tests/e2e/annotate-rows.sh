#!/bin/bash
# --annotate follows the grouping: it shows the samples of the hottest row
# of the function, not of every process that ran it. One binary (the
# annotsplit workload, one function with two loops, which one runs chosen
# per process) runs under two command names (symlinks: one object, two
# commands). By default (comm,dso,sym) the row of the command with two
# first-loop processes shows only the first loop, though a third of the
# function's samples sit in the other command's second loop; with -s pid
# the busiest process (two threads in the second loop) shows only its
# loop, though its command's other process runs the first one; the report
# names the row (command, pid).
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/annotsplit"
need_root_perf
need_tool python3 python3

mkdir -p "$TT_TMP/bin"
ln -s "$WORKLOADS/annotsplit" "$TT_TMP/bin/annsplit-cmd1"
ln -s "$WORKLOADS/annotsplit" "$TT_TMP/bin/annsplit-cmd2"

# start NAME LOOP THREADS TAG: run $TT_TMP/bin/NAME for 20 s in the background
# with its loop (first, second) and threads; prints its pid (run in $(...):
# the caller registers it with bg_pid).
start() {
	ANNOTSPLIT_LOOP=$2 ANNOTSPLIT_PIDFILE="$TT_TMP/$4.pid" "$TT_TMP/bin/$1" 20 "$3" \
		>/dev/null 2>&1 &
	wait_pidfile "$TT_TMP/$4.pid" 5
}

# shares FILE EXPR: evaluate EXPR over the annotation object in FILE's last
# line: a (the object), first and second (percent of its samples under
# each loop's source line).
shares() {
	python3 - "$1" "$2" <<'PY'
import json, sys
a = json.loads(open(sys.argv[1]).read().splitlines()[-1])
src, share = "", {"first": 0.0, "second": 0.0}
for l in a["lines"]:
    if "source" in l:
        src = l["source"]
    elif "split: first loop" in src:
        share["first"] += l["percent"]
    elif "split: second loop" in src:
        share["second"] += l["percent"]
first, second = share["first"], share["second"]
print(eval(sys.argv[2]))
PY
}

# annotate FILE ARGS...: tracetop -b --annotate split_fn ARGS as JSON in FILE.
annotate() {
	local file=$1
	shift
	timeout 30 "$TRACETOP" -b --annotate split_fn -d 1 -n 2 --format json "$@" \
		>"$file" 2>"$file.err"
}

# ---- by command: two first-loop processes of cmd1, one second-loop of cmd2
a1=$(start annsplit-cmd1 first 1 a1) && bg_pid "$a1"
a2=$(start annsplit-cmd1 first 1 a2) && bg_pid "$a2"
b1=$(start annsplit-cmd2 second 1 b1) && bg_pid "$b1"
[ -n "$a1" ] && [ -n "$a2" ] && [ -n "$b1" ] || bail_out "the annotsplit workloads did not start"

annotate "$TT_TMP/comm.json"
ok $? "--annotate split_fn, default grouping: exits 0" || diag "$(cat "$TT_TMP/comm.json.err")"
is "$(shares "$TT_TMP/comm.json" 'a.get("comm"), a.get("row")')" \
	"('annsplit-cmd1', 'command annsplit-cmd1')" "the hottest row is the command of two processes, named"
is "$(shares "$TT_TMP/comm.json" 'first > 90 and second < 5')" True \
	"its annotation holds its own samples only: the first loop" ||
	diag "$(shares "$TT_TMP/comm.json" '"first %.1f %%, second %.1f %%, samples %d" % (first, second, a["samples"])')"

# the whole function without a grouping key of who: both commands' loops
annotate "$TT_TMP/all.json" -s dso,sym
ok $? "-s dso,sym: exits 0" || diag "$(cat "$TT_TMP/all.json.err")"
is "$(shares "$TT_TMP/all.json" 'first > 20 and second > 10 and "row" not in a')" True \
	"grouped by dso,sym, the row is the whole function: both loops" ||
	diag "$(shares "$TT_TMP/all.json" '"first %.1f %%, second %.1f %%" % (first, second)')"
kill "$a1" "$a2" "$b1" 2>/dev/null

# ---- by process: cmd1 runs a two-thread second-loop process and a
# one-thread first-loop one
p1=$(start annsplit-cmd1 second 2 p1) && bg_pid "$p1"
p2=$(start annsplit-cmd1 first 1 p2) && bg_pid "$p2"
[ -n "$p1" ] && [ -n "$p2" ] || bail_out "the annotsplit workloads did not start"

annotate "$TT_TMP/pid.json" -s pid
ok $? "--annotate split_fn -s pid: exits 0" || diag "$(cat "$TT_TMP/pid.json.err")"
is "$(shares "$TT_TMP/pid.json" 'a.get("pid")')" "$p1" "the hottest row is the two-thread process"
is "$(shares "$TT_TMP/pid.json" 'second > 90 and first < 5')" True \
	"its annotation holds that process's samples only: the second loop" ||
	diag "$(shares "$TT_TMP/pid.json" '"first %.1f %%, second %.1f %%, pid %s" % (first, second, a.get("pid"))')"

# by default the command's row holds both processes
annotate "$TT_TMP/both.json"
ok $? "default grouping: exits 0" || diag "$(cat "$TT_TMP/both.json.err")"
is "$(shares "$TT_TMP/both.json" 'first > 10 and second > 20 and first + second > 95')" True \
	"the command's row holds both its processes' loops" ||
	diag "$(shares "$TT_TMP/both.json" '"first %.1f %%, second %.1f %%" % (first, second)')"

done_testing
