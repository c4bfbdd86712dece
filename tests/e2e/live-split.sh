#!/bin/bash
# Live profiles of a workload whose CPU split is known (split_alpha 50 %,
# split_beta 30 %, split_gamma 20 %) must show that split within 5 points:
# with -p, with -t, system-wide, with -C, and with -- COMMAND (these three
# on each engine: the rings and BPF).
. "$(dirname "$0")/lib.sh"
need_built
need_root_perf
need_tool python3 python3

SPLIT="$WORKLOADS/split"
SHARES="python3 $TT_SRCDIR/tests/e2e/shares.py"
EXPECT="split_alpha=50 split_beta=30 split_gamma=20"

# check NAME OUTFILE SHARES-ARGS...: the JSON report matches the split.
check() {
	local name=$1 file=$2 res
	shift 2
	res=$($SHARES "$file" "$@" $EXPECT 2>&1)
	ok $? "$name"
	diag "$res"
}

start_split 120 # killed at exit; long enough for a loaded machine
[ -n "$pid" ]
ok $? "workload started"

"$TRACETOP" -b -p "$pid" -d 1 -n 3 --format json >"$TT_TMP/p.json" 2>"$TT_TMP/p.err"
ok $? "-b -p exits 0"
check "-p: split within 5 points, 90 % of the process's samples" "$TT_TMP/p.json" \
	--pid "$pid" --min-coverage 90

# -t, -C and -- COMMAND on each engine this machine has (BPF counts a
# target's samples as the rings do: per-task events, inherited by a
# command's children)
for eng in $(engines); do
	"$TRACETOP" -b -t "$pid" -d 1 -n 2 --format json --engine "$eng" >"$TT_TMP/t.json" 2>/dev/null
	ok $? "-b -t --engine $eng exits 0"
	engine_is "$TT_TMP/t.json" "$eng" "-t: counted by $eng"
	check "-t --engine $eng: split within 5 points" "$TT_TMP/t.json" --pid "$pid"
done

# one row per process: by default a command's processes share a row,
# and parallel tests run split (and tracetop) too
"$TRACETOP" -b -d 1 -n 3 -s overhead,pid,sym --format json >"$TT_TMP/sys.json" 2>"$TT_TMP/sys.err" &
tpid=$!
wait $tpid
ok $? "-b system-wide exits 0"
check "system-wide: split within 5 points" "$TT_TMP/sys.json" --pid "$pid"
# (other tracetops may be running here: look for this one's pid only)
self=$(python3 -c '
import json,sys
r=json.loads(open(sys.argv[1]).readlines()[-1])
print(sum(1 for x in r["rows"] if x["pid"]==int(sys.argv[2])))' "$TT_TMP/sys.json" "$tpid")
is "$self" 0 "system-wide: tracetop leaves itself out"
"$TRACETOP" -b -d 1 -n 2 -s overhead,pid,sym --include-self --format json >"$TT_TMP/self.json" 2>/dev/null &
tpid=$!
wait $tpid
like "$(cat "$TT_TMP/self.json")" "\"pid\":$tpid," "--include-self keeps tracetop's own samples"
# the kernel shows up with symbols from kallsyms
like "$(cat "$TT_TMP/sys.json")" '"kernel":true' "system-wide: kernel samples present"
like "$(cat "$TT_TMP/sys.json")" '"dso":"\[kernel.kallsyms\]","symbol":"[a-z_]' \
	"system-wide: kernel symbols resolved"

for eng in $(engines); do
	"$TRACETOP" -b -C 0 -d 1 -n 2 --format json --engine "$eng" >"$TT_TMP/c.json" 2>/dev/null
	ok $? "-b -C 0 --engine $eng exits 0"
	engine_is "$TT_TMP/c.json" "$eng" "-C 0: counted by $eng"
	like "$(head -c 300 "$TT_TMP/c.json")" '"target":"system-wide \(1 CPU\)"' "-C 0 --engine $eng: one CPU"
done

# text mirrors the table
"$TRACETOP" -b -p "$pid" -d 0.5 -n 2 >"$TT_TMP/p.txt" 2>/dev/null
like "$(cat "$TT_TMP/p.txt")" "^event: .*samples/s: [0-9]+.*lost: [0-9]+.*target: pid $pid" "text header"
like "$(cat "$TT_TMP/p.txt")" "^ *Overhead +Samples +Command +PID +Shared Object +Symbol" "text titles"
like "$(cat "$TT_TMP/p.txt")" "^ *[0-9.]+% +[0-9]+ +split +$pid +split +\[\.\] split_alpha" "text row"

# -- COMMAND: profile a command from its start to its exit
for eng in $(engines); do
	start=$(date +%s)
	"$TRACETOP" -b -d 1 --format json --engine "$eng" -- "$SPLIT" 3 >"$TT_TMP/cmd.json" \
		2>"$TT_TMP/cmd.err"
	ok $? "-- COMMAND --engine $eng exits 0 when the command ends"
	end=$(date +%s)
	[ $((end - start)) -le 8 ]
	ok $? "-- COMMAND --engine $eng stops with the command ($((end - start)) s for a 3 s run)"
	engine_is "$TT_TMP/cmd.json" "$eng" "-- COMMAND: counted by $eng"
	check "-- COMMAND --engine $eng: split within 5 points" "$TT_TMP/cmd.json" --comm split \
		--min-coverage 90
done

# -z zeroes each refresh: the last report holds about one interval of
# samples (a whole second: under a loaded make check a half-second window
# of a preempted workload strayed 6 points once)
"$TRACETOP" -b -z -p "$pid" -d 1 -n 2 --format json >"$TT_TMP/z.json" 2>/dev/null
check "-z: split within 5 points" "$TT_TMP/z.json" --pid "$pid"

# -o writes the file
"$TRACETOP" -b -p "$pid" -d 0.5 -n 1 -o "$TT_TMP/o.txt" >/dev/null 2>&1
like "$(cat "$TT_TMP/o.txt")" "split_alpha" "-o writes the report to a file"

# --sort comm,pid,overhead: rows come out in that order (a key before the
# share sorts, as in perf); --sort comm,pid only groups: heaviest first
"$TRACETOP" -b -d 0.5 -n 1 -s comm,pid,overhead --format json >"$TT_TMP/s.json" 2>/dev/null
python3 - "$TT_TMP/s.json" <<'PY'
import json, sys
rows = json.loads(open(sys.argv[1]).readlines()[-1])["rows"]
keys = [(r["comm"], r["pid"]) for r in rows]
sys.exit(0 if keys == sorted(keys) and len(keys) > 1 else 1)
PY
ok $? "--sort comm,pid,overhead orders the rows by command, then pid"
"$TRACETOP" -b -d 0.5 -n 1 -s comm,pid --format json >"$TT_TMP/s2.json" 2>/dev/null
python3 - "$TT_TMP/s2.json" <<'PY'
import json, sys
rows = json.loads(open(sys.argv[1]).readlines()[-1])["rows"]
sys.exit(0 if len(rows) > 1 and all(a["overhead"] >= b["overhead"] for a, b in zip(rows, rows[1:])) else 1)
PY
ok $? "--sort comm,pid: the keys group, the share orders (heaviest first)"

# A target that exits must not turn the loop into a busy spin (its perf
# fds report POLLHUP for ever): CPU over a 4 s run stays small.
sleep 1 &
short=$!
TIMEFORMAT='%U %S'
cpu=$( { time "$TRACETOP" -b -p "$short,$pid" -d 1 -n 4 >/dev/null 2>&1; } 2>&1 )
used=$(echo "$cpu" | awk '{ print $1 + $2 }')
python3 -c "import sys; sys.exit(0 if float('$used') < 1.0 else 1)"
ok $? "no busy loop after one of the targets exits (${used} s of CPU in 4 s)"
done_testing
