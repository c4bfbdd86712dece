#!/bin/bash
# Off-CPU stacks recorded and replayed: --view latency --latency-kinds
# offcpu of waiters pipe 300 3 (a thread blocked 300 ms in read() on a
# pipe, three times) recorded with -w under each engine (BPF where it
# runs, perf), once printing JSON and once text; each recording replayed
# in batch gives the live intervals' offcpu rows with the same stacks and
# ns (JSON: every stack's frames and ns; text: the stacks as printed),
# the reader's through blocked_reader down to the kernel's pipe read;
# the replay's Latency pane in tmux opens the reader's row's stacks (+)
# as a tree through blocked_reader with the time the live run printed;
# the screen recording while frozen (Z, without a history) for a few
# intervals (counts only: no rows recorded) keeps the stacks of the blocks that ended meanwhile,
# the next interval recorded holding them: the replay's reader row's
# stacks hold all its blocked time; a version 2 recording of a writer
# before the stacks (the fuzz corpus's parts.ttr) still replays its
# latency rows, with no stacks.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/waiters"
need_root_perf
need_tool python3 python3
need_tmux
tp=/sys/kernel/tracing
[ -d $tp/events ] || tp=/sys/kernel/debug/tracing
[ -d $tp/events/sched/sched_switch ] ||
	tap_skip_all "no sched tracepoints (tracefs not mounted or kernel without them)"
W="$WORKLOADS/waiters"

engines=perf
if "$TRACETOP" -b --engine bpf --view latency --latency-kinds offcpu -d 0.2 -n 1 >/dev/null \
	2>"$TT_TMP/bpf.err"; then
	engines="bpf perf"
else
	skip "BPF cannot run here: $(head -c 200 "$TT_TMP/bpf.err")" "off-CPU stacks recorded with BPF"
fi

cat >"$TT_TMP/same.py" <<'PY'
import json, sys
live_p, rep_p = sys.argv[1:3]
def load(p):
    return [o for o in (json.loads(l) for l in open(p) if l.strip()) if o.get("view") == "latency"]
def stacks(o):
    return {(r["name"], r["pid"], r.get("tid")): [(s["ns"], tuple(s["frames"])) for s in r.get("stacks", [])]
            for r in o["rows"] if r["kind"] == "offcpu"}
def read_path(o):
    # the reader's stack: the kernel's pipe read, ksys_read, blocked_reader
    return sum(ns for st in stacks(o).values() for ns, fr in st
               if any(f.endswith("pipe_read") for f in fr) and "ksys_read" in fr and "blocked_reader" in fr)
live, rep = load(live_p), load(rep_p)
bad = []
print("intervals: live %d, replay %d" % (len(live), len(rep)))
if len(live) < 2 or len(live) != len(rep):
    bad.append("interval count")
for i, (a, b) in enumerate(zip(live, rep)):
    sa, sb = stacks(a), stacks(b)
    if set(sa) != set(sb):
        bad.append("interval %d: offcpu rows %s vs %s" % (i, sorted(sa), sorted(sb)))
    for k in sa:
        if k in sb and sa[k] != sb[k]:
            bad.append("interval %d: %s stacks %s vs %s" % (i, k, sa[k][:2], sb.get(k, [])[:2]))
if live and rep:
    print("read path: live %d ns, replay %d ns" % (read_path(live[-1]), read_path(rep[-1])))
    if read_path(live[-1]) < 250e6:
        bad.append("the live run has no read path of 250 ms or more")
print("; ".join(bad[:4]) or "same")
sys.exit(1 if bad else 0)
PY

# live E FORMAT: the run, recorded into rec.E.FORMAT, printing into live.E.FORMAT
live() {
	local fmt=()
	[ "$2" = json ] && fmt=(--format json)
	"$TRACETOP" -b --engine "$1" --view latency --latency-kinds offcpu -d 0.5 "${fmt[@]}" \
		-w "$TT_TMP/rec.$1.$2" -- "$W" pipe 300 3 >"$TT_TMP/live.$1.$2" 2>"$TT_TMP/live.$1.$2.err"
}

# stack_lines FILE: the offcpu rows' titles and stacks of a text report
stack_lines() {
	grep -E '^(@offcpu\[|    )' "$1"
}

for e in $engines; do
	live "$e" json &
	j=$!
	live "$e" text
	ok $? "$e: live text with -w exits 0" || diag "$(head -c 600 "$TT_TMP/live.$e.text.err")"
	wait $j
	ok $? "$e: live JSON with -w exits 0" || diag "$(head -c 600 "$TT_TMP/live.$e.json.err")"
	for f in json text; do
		fmt=()
		[ "$f" = json ] && fmt=(--format json)
		"$TRACETOP" -r "$TT_TMP/rec.$e.$f" -b "${fmt[@]}" >"$TT_TMP/rep.$e.$f" 2>"$TT_TMP/rep.$e.$f.err"
		ok $? "$e: -r -b ($f) exits 0" || diag "$(cat "$TT_TMP/rep.$e.$f.err")"
	done
	res=$(python3 "$TT_TMP/same.py" "$TT_TMP/live.$e.json" "$TT_TMP/rep.$e.json" 2>&1)
	ok $? "$e: JSON: the replay's offcpu rows have the live intervals' stacks and ns, the reader's read path among them"
	diag "$res"
	stack_lines "$TT_TMP/live.$e.text" >"$TT_TMP/st.live"
	stack_lines "$TT_TMP/rep.$e.text" >"$TT_TMP/st.rep"
	grep -q '^    blocked_reader$' "$TT_TMP/st.live" && grep -q 'pipe_read$' "$TT_TMP/st.live" &&
		cmp -s "$TT_TMP/st.live" "$TT_TMP/st.rep"
	ok $? "$e: text: the replay prints the live run's stacks and times ($(grep -c 'blocked here' "$TT_TMP/st.live") stacks)" ||
		diag "$(diff "$TT_TMP/st.live" "$TT_TMP/st.rep" | head -n 20)"

	# the reader's read path in the live run's last interval: its time
	want=$(awk '/^# latency at/ { n = 0; delete l } { l[++n] = $0 }
		END { for (i = 1; i <= n; i++) if (l[i] == "    blocked_reader") r = 1;
			else if (r && l[i] ~ / blocked here$/) { split(l[i], a, " "); print a[1]; exit } }' \
		"$TT_TMP/live.$e.text")
	s=rep$e
	tui_start $s 140 50 -r "$TT_TMP/rec.$e.text"
	tmux_wait_text $s 15 'replayed .*: its [0-9]+ intervals'
	ok $? "$e: the replay on the screen" || diag "$(tmux_capture $s | tail -n 5)"
	tmux_wait_text $s 5 ' waiters +offcpu +sleep tid [0-9]+ '
	ok $? "$e: its Latency pane has the reader's offcpu row"
	tmux_keys $s Home +
	# at any depth: under CI's load a stack may come with a frame more
	# above it (a sibling branch's "│" then leads the line)
	tmux_wait_text $s 5 "^[ │|]+(\`-|└─) [0-9.]+% ${want:-none} blocked_reader\$"
	ok $? "$e: + opens its stacks: through blocked_reader, ${want:-none} as the live run printed" ||
		diag "$(tmux_capture $s | grep -E -A8 ' offcpu ' | head -n 16)"
	tmux_wait_text $s 3 '^ +(`-|└─) [0-9.]+% [0-9.]+m?s [a-z_]*pipe_read$'
	ok $? "$e: down into the kernel's pipe read"
	tmux_keys $s q
	tmux_wait_text $s 5 '^exit=0'
	ok $? "$e: q quits the replay with status 0"
	tmux_kill
done

# chunks FILE: the whole intervals a recording holds so far
chunks() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
if len(d) < 20:
    print(0); sys.exit()
pos, n = 20 + struct.unpack("<I", d[12:16])[0], 0
while pos + 12 <= len(d) and d[pos:pos + 4] == b"TTCK":
    z = struct.unpack("<I", d[pos + 4:pos + 8])[0]
    if pos + 12 + z > len(d):
        break
    pos, n = pos + 12 + z, n + 1
print(n)
PY
}
# more_chunks FILE N: it holds more than N
more_chunks() {
	[ "$(chunks "$1")" -gt "$2" ]
}

# frozen a while (a plain freeze: with a history, Z shows its newest
# interval and the rows go on), then thawed: the blocks of the frozen
# intervals recorded
REC="$TT_TMP/rec.frozen"
tui_start frz 140 50 --history 0 --view latency --latency-kinds offcpu -d 0.3 -w "$REC" -- "$W" pipe 300 12
tmux_wait_text frz 15 ' waiters +offcpu +sleep tid [0-9]+ +[0-9]+ '
ok $? "the screen recording: the reader's offcpu row"
tmux_keys frz Z
tmux_wait_text frz 5 'FROZEN'
ok $? "Z freezes the screen" || diag "$(tmux_capture frz | head -n 3; tmux_capture frz | tail -n 3)"
n=$(chunks "$REC")
# four intervals of 0.3 s, frozen: a 300 ms block or more ends in them
wait_for 10 more_chunks "$REC" $((n + 4))
ok $? "intervals go on being recorded while frozen"
tmux_keys frz Z
wait_for 5 lacks_text frz 'FROZEN'
ok $? "Z again thaws it" || diag "$(tmux_capture frz | head -n 3; tmux_capture frz | tail -n 3)"
tmux_wait_text frz 15 'the command exited with status 0'
ok $? "the command ends"
tmux_keys frz q
tmux_wait_text frz 10 '^exit=0'
ok $? "q quits the recording screen with status 0"
tmux_kill
"$TRACETOP" -r "$REC" -b --format json >"$TT_TMP/frozen.json" 2>"$TT_TMP/frozen.err"
ok $? "its recording replays" || diag "$(cat "$TT_TMP/frozen.err")"
res=$(python3 -c '
import json, sys
o = [json.loads(l) for l in open(sys.argv[1]) if l.strip() and json.loads(l).get("view") == "latency"][-1]
r = max((r for r in o["rows"] if r["kind"] == "offcpu" and r["name"] == "sleep"), key=lambda r: r["total_ns"])
s = sum(x["ns"] for x in r.get("stacks", []))
print("blocks %d, blocked %d ns, stacks %d ns" % (r["count"], r["total_ns"], s))
sys.exit(0 if r["count"] >= 3 and s == r["total_ns"] else 1)' "$TT_TMP/frozen.json" 2>&1)
ok $? "the replay's reader row: its stacks hold all its blocked time, the frozen intervals' too"
diag "$res"

# a recording of a version 2 writer before the off-CPU stacks
old="$TT_SRCDIR/tests/fuzz/corpus/recfile/parts.ttr"
"$TRACETOP" -r "$old" -b --view latency --format json >"$TT_TMP/old.json" 2>"$TT_TMP/old.err"
ok $? "-r parts.ttr (version 2, no off-CPU stacks) --view latency exits 0" || diag "$(cat "$TT_TMP/old.err")"
is "$(python3 -c '
import json, sys
o = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(len(o) > 0 and all(len(x["rows"]) > 0 for x in o), any(r.get("stacks") for x in o for r in x["rows"]))' \
	"$TT_TMP/old.json")" "True False" "its latency rows replay, with no stacks"
done_testing
