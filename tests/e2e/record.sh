#!/bin/bash
# Record and replay (-w FILE, -r FILE): 10 s of the split workload (a copy
# under a name of its own, run from a directory deleted afterwards) with
# -g, counters asked for and a tracepoint streamed, recorded while the
# live batch JSON is written; the replay's batch JSON has the same
# intervals with the same rows and shares, and the symbol names although
# the binary is gone; folded stacks and pprof come from the recording;
# --annotate annotates from the recorded code; the screen replays it in
# tmux (Top, the timeline, the status line saying it is a replay; every
# pane: tui-record.sh, every view: record-views.sh); a copy cut at a
# random byte replays up to its last whole interval and says so; a file
# of a newer format, garbage, a directory and a missing file are refused
# with a clear error, and a view the recording has no part for.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split"
need_root_perf
need_tool python3 python3

# the workload from a directory of its own, deleted after the recording
mkdir -p "$TT_TMP/bin"
cp "$WORKLOADS/split" "$TT_TMP/bin/recsplit"
REC="$TT_TMP/rec.ttr"

"$TRACETOP" -b -g -d 1 -n 10 --format json -w "$REC" --counters task-clock \
	-T sched:sched_switch --view top -- "$TT_TMP/bin/recsplit" 12 \
	>"$TT_TMP/live.json" 2>"$TT_TMP/live.err"
ok $? "-b -g -w FILE with --counters and -T exits 0" || diag "$(cat "$TT_TMP/live.err")"
[ -s "$REC" ]
ok $? "the recording is written ($(stat -c %s "$REC" 2>/dev/null) bytes)"
bid=$(readelf -n "$TT_TMP/bin/recsplit" 2>/dev/null | awk '/Build ID/ { print $3 }')
rm -rf "$TT_TMP/bin"

"$TRACETOP" -r "$REC" -b --format json >"$TT_TMP/rep.json" 2>"$TT_TMP/rep.err"
ok $? "-r FILE -b --format json exits 0 with the binary gone" || diag "$(cat "$TT_TMP/rep.err")"

# same: the replay has the live run's intervals, each with the same rows
# (by command, DSO and symbol) and shares within rounding
res=$(python3 - "$TT_TMP/live.json" "$TT_TMP/rep.json" <<'PY'
import json, sys
def load(p):
    out = []
    for line in open(p):
        o = json.loads(line)
        if o.get("view") == "top":
            out.append(o)
    return out
live, rep = load(sys.argv[1]), load(sys.argv[2])
bad = len(live) < 8 or len(live) != len(rep)
print("intervals: live %d, replay %d" % (len(live), len(rep)))
worst = 0.0
for a, b in zip(live, rep):
    bad |= a["samples"] != b["samples"]
    ra = {(r["comm"], r["dso"], r["symbol"]): r["overhead"] for r in a["rows"]}
    rb = {(r["comm"], r["dso"], r["symbol"]): r["overhead"] for r in b["rows"]}
    bad |= set(ra) != set(rb)
    for k in ra:
        if k in rb:
            worst = max(worst, abs(ra[k] - rb[k]))
print("largest share difference: %.3f points" % worst)
bad |= worst > 0.01
# the workload's functions by name, from the binary deleted since
last = {r["symbol"]: r["overhead"] for r in rep[-1]["rows"] if r["comm"] == "recsplit"}
print("last interval:", {k: last.get(k) for k in ("split_alpha", "split_beta", "split_gamma")})
bad |= not all(k in last for k in ("split_alpha", "split_beta", "split_gamma"))
sys.exit(bad)
PY
)
ok $? "the replay's intervals have the live rows and shares, symbols named"
diag "$res"

"$TRACETOP" -r "$REC" -b --format folded >"$TT_TMP/rep.folded" 2>/dev/null
ok $? "-r FILE --format folded exits 0"
like "$(grep -c ';split_alpha ' "$TT_TMP/rep.folded")" '^[1-9]' \
	"the folded stacks name split_alpha under its callers"
# the call graphs: a live run's folded stacks (every refresh's window,
# decayed) are those its recording replays, line for line
"$TRACETOP" -b -g -d 1 -n 4 --format folded -w "$TT_TMP/folded.ttr" -- "$WORKLOADS/split" 6 \
	>"$TT_TMP/live.folded" 2>/dev/null
"$TRACETOP" -r "$TT_TMP/folded.ttr" -b --format folded >"$TT_TMP/replay.folded" 2>/dev/null
cmp -s "$TT_TMP/live.folded" "$TT_TMP/replay.folded" && [ -s "$TT_TMP/live.folded" ]
ok $? "the replay's folded stacks are the live run's ($(wc -l <"$TT_TMP/live.folded") lines)" ||
	diag "$(diff "$TT_TMP/live.folded" "$TT_TMP/replay.folded" | head -n 10)"
"$TRACETOP" -r "$REC" -b --format pprof -o "$TT_TMP/rep.pb.gz" 2>"$TT_TMP/pprof.err"
ok $? "-r FILE --format pprof exits 0" || diag "$(cat "$TT_TMP/pprof.err")"
gzip -t "$TT_TMP/rep.pb.gz"
ok $? "the pprof profile is a whole gzip file"
if [ -n "$bid" ]; then
	zcat "$TT_TMP/rep.pb.gz" | grep -aq "$bid"
	ok $? "its mapping of the deleted binary has the recorded build-id $bid"
else
	skip "readelf is not installed: no build-id to compare" "the pprof mapping has the recorded build-id"
fi
"$TRACETOP" -r "$REC" -b -n 3 --format json >"$TT_TMP/three.json" 2>/dev/null
is "$(grep -c '"view":"top"' "$TT_TMP/three.json")" 3 "-n 3 replays the first 3 intervals"

# the screen: Top with the workload's rows, the timeline, the status line
# (every pane: tests/e2e/tui-record.sh)
tui_start rep 130 30 -r "$REC"
tmux_wait_text rep 15 'recsplit .*split_alpha'
ok $? "the screen replays the Top pane's rows"
like "$(tmux_capture rep)" 'History ' "the timeline strip covers the recording"
like "$(tmux_capture rep)" 'replayed .*rec\.ttr: its [0-9]+ intervals' \
	"the status line says it is a replay, frozen on the last interval"
tmux_keys rep ','
tmux_wait_text rep 5 'HISTORY -'
ok $? "',' steps back into the recorded intervals"
tmux_keys rep Tab
tmux_wait_text rep 5 '^Scope: total \(as recorded\)'
ok $? "Tab shows the Counters pane, as recorded"
tmux_keys rep q
wait_for 5 tmux_exited rep >/dev/null
like "$(tmux_capture rep)" 'exit=0' "q quits the replay with status 0"

# the screen records too (its rows are per process: the Top pane groups
# them itself); its recording replays in batch with the workload's rows
start_split 60 recsplit2
tui_start live 130 30 -d 0.5 -g -w "$TT_TMP/screen.ttr" -p "$pid"
tmux_wait_text live 15 'recsplit2 .*split_alpha'
ok $? "the screen runs with -w"
sleep 1.5
tmux_keys live q
wait_for 10 tmux_exited live >/dev/null
like "$(tmux_capture live)" 'exit=0' "the recording screen quits with status 0"
"$TRACETOP" -r "$TT_TMP/screen.ttr" -b --format json >"$TT_TMP/screen.json" 2>"$TT_TMP/screen.err"
ok $? "the screen's recording replays in batch" || diag "$(cat "$TT_TMP/screen.err")"
like "$(tail -n 1 "$TT_TMP/screen.json")" '"comm":"recsplit2".*"symbol":"split_alpha"' \
	"its last interval has the workload's rows"

# a copy cut at a random byte past the first chunk: the whole intervals
# before the cut replay, and stderr says where it was cut
n=$(python3 - "$REC" "$TT_TMP/cut.ttr" <<'PY'
import random, struct, sys, zlib
data = open(sys.argv[1], "rb").read()
hlen = struct.unpack_from("<I", data, 12)[0]
pos, ends = 20 + hlen, []
while pos + 12 <= len(data):
    zlen = struct.unpack_from("<I", data, pos + 4)[0]
    pos += 12 + zlen
    ends.append(pos)
cut = random.randrange(ends[0] + 1, len(data))
if cut in ends:
    cut -= 1
open(sys.argv[2], "wb").write(data[:cut])
print(sum(1 for e in ends if e <= cut))
PY
)
"$TRACETOP" -r "$TT_TMP/cut.ttr" -b --format json >"$TT_TMP/cut.json" 2>"$TT_TMP/cut.err"
ok $? "a cut recording replays (exit 0)"
is "$(grep -c '"view":"top"' "$TT_TMP/cut.json")" "$n" "it replays its $n whole intervals"
like "$(cat "$TT_TMP/cut.err")" "cut after interval $n .*replaying its $n whole intervals" \
	"stderr says where it was cut"
cmp -s <(head -n "$n" "$TT_TMP/cut.json") <(head -n "$n" "$TT_TMP/rep.json")
ok $? "the intervals before the cut are those of the whole file"

# a recording tracetop killed with SIGKILL: what it wrote replays
start_split 60
"$TRACETOP" -b -d 0.5 -w "$TT_TMP/killed.ttr" --format json -p "$pid" >/dev/null 2>&1 &
kpid=$!
bg_pid "$kpid"
wait_for 30 sh -c "[ \$(stat -c %s '$TT_TMP/killed.ttr' 2>/dev/null || echo 0) -gt 3000 ]"
sleep 1
kill -KILL "$kpid"
wait "$kpid" 2>/dev/null
"$TRACETOP" -r "$TT_TMP/killed.ttr" -b --format json >"$TT_TMP/killed.json" 2>"$TT_TMP/killed.err"
ok $? "a recording killed with SIGKILL replays" || diag "$(cat "$TT_TMP/killed.err")"
within "$(grep -c '"view":"top"' "$TT_TMP/killed.json")" 2 1000 \
	"it replays the intervals written before the kill"

# a recording longer than the replay's history may hold: what went is said
TRACETOP_REPLAY_BYTES=20000 "$TRACETOP" -r "$REC" -b --format pprof -o /dev/null \
	2>"$TT_TMP/drop.err"
ok $? "a replay over its history's memory still exits 0"
like "$(cat "$TT_TMP/drop.err")" "the replay's history holds its last [0-9]+ intervals: the oldest [1-9][0-9]* went to stay under 19 KiB" \
	"it says how many of the oldest intervals its history dropped"
TRACETOP_REPLAY_BYTES=20000 "$TRACETOP" --diff "$REC@#1..#2" "$REC" >/dev/null 2>"$TT_TMP/dropd.err"
is $? 1 "--diff of a range the replay's history dropped exits 1"
like "$(cat "$TT_TMP/dropd.err")" "too long to replay whole in memory: its first [0-9]+ intervals went" \
	"it says the range is gone, and from where one may start"

# refused: a newer format, garbage, a directory, a missing file
python3 -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read()); d[8] = 99
open(sys.argv[2], "wb").write(d)' "$REC" "$TT_TMP/newer.ttr"
"$TRACETOP" -r "$TT_TMP/newer.ttr" -b >/dev/null 2>"$TT_TMP/newer.err"
ok $(($? == 0)) "a newer format is refused (non-zero exit)"
like "$(cat "$TT_TMP/newer.err")" 'format version 99; this tracetop reads version 2 and older' \
	"it says the file is of a newer format"
head -c 4000 /dev/urandom >"$TT_TMP/garbage"
"$TRACETOP" -r "$TT_TMP/garbage" -b >/dev/null 2>"$TT_TMP/garbage.err"
ok $(($? == 0)) "garbage is refused"
like "$(cat "$TT_TMP/garbage.err")" 'not a tracetop recording' "it says it is not a recording"
"$TRACETOP" -r "$TT_TMP" -b >/dev/null 2>"$TT_TMP/dir.err"
ok $(($? == 0)) "a directory is refused"
like "$(cat "$TT_TMP/dir.err")" 'not a regular file' "it says it is not a file"
"$TRACETOP" -r "$TT_TMP/none.ttr" -b >/dev/null 2>"$TT_TMP/none.err"
ok $(($? == 0)) "a missing file is refused"
like "$(cat "$TT_TMP/none.err")" 'cannot read the recording .*No such file' "it says why"
head -c 30 "$REC" >"$TT_TMP/head.ttr"
"$TRACETOP" -r "$TT_TMP/head.ttr" -b >/dev/null 2>"$TT_TMP/head.err"
ok $(($? == 0)) "a recording cut before its first interval is refused"
like "$(cat "$TT_TMP/head.err")" 'holds no whole interval|cut inside its header' "it says why"
"$TRACETOP" -r "$REC" -e cycles -b >/dev/null 2>"$TT_TMP/e.err"
is $? 2 "-r with -e is a usage error"
like "$(cat "$TT_TMP/e.err")" 'replays what FILE holds' "it says what -r cannot take"
"$TRACETOP" -r "$REC" -b --annotate split_alpha >"$TT_TMP/a.out" 2>"$TT_TMP/a.err"
ok $? "-r with --annotate annotates from the recorded code" || diag "$(cat "$TT_TMP/a.err")"
like "$(cat "$TT_TMP/a.out")" '^annotate: split_alpha ' "its annotation of split_alpha, the binary gone"
"$TRACETOP" -r "$REC" -b --annotate no_such_function >/dev/null 2>"$TT_TMP/a2.err"
is $? 1 "-r --annotate of a function never sampled exits 1"
"$TRACETOP" -r "$TT_TMP/folded.ttr" -b --view counters >/dev/null 2>&1
ok $? "a batch top recording holds the counters too (-w records every pane)"
"$TRACETOP" -r "$TT_TMP/folded.ttr" -b --view trace >/dev/null 2>"$TT_TMP/v.err"
is $? 2 "a view whose part a recording lacks is a usage error"
like "$(cat "$TT_TMP/v.err")" 'holds no trace events \(record them with -w beside -T\): nothing for --view trace' \
	"it says what records that part"

done_testing
