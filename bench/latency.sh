#!/bin/bash
# Function latency benchmark: the cost of timing a malloc-like function
# called RATE times a second (bench/malloclike.c), tracetop --latency
# (its default in batch and on the screen: the function only; histograms
# in the kernel with BPF; and, as a reference, --engine perf: paired in
# user space; and with BPF timing every syscall too, --latency-kinds
# syscall) side by side with bpftrace's one-liner
#   uprobe:BIN:lat_fn{@s[tid]=nsecs}
#   uretprobe:BIN:lat_fn /@s[tid]/{@=hist(nsecs-@s[tid]); delete(@s[tid])}
# in the same run, each tool starting the workload as its command, order
# rotated each repetition, and the workload alone as the baseline. Per run:
# the calls made, the calls the tool counted, what it says it lost or
# could not pair, the tool's CPU (user + sys of /usr/bin/time, which
# includes its waited-for command's: the workload's own, from its
# getrusage, is taken off) and the workload's (uprobe traps and the BPF
# programs run in its context); the cost is the tool's own CPU plus the
# workload's CPU over the baseline's. Not niced: run it on a quiet machine.
#
# The screen's path too (needs tmux): the TUI in a tmux session with the
# options timing a function by keypress gives it (t in Top or Probes:
# --view latency --latency BIN:lat_fn, the function's pair alone, no
# syscall timed, the Latency pane drawn every second), quit with q once
# the workload is done; and the same screen timing nothing (--view top)
# to tell the screen's own cost (sampling for Top, drawing) from the
# timing's: tui-timing's cost less tui-idle's is what timing adds.
#
# The verdict (the issue's bar), printed last, exit status 1 when it
# fails: tracetop's cost (batch, and the screen's timing) is no more than
# bpftrace's, and nothing is lost silently: every call made is counted or
# reported lost or unpaired.
#
# Usage: [RATE=200000] [DUR=10] [REPS=3] [TRACETOP=path] [OUT=dir] bench/latency.sh
# Results: $OUT/latency-DATE/{raw.tsv,summary.md}; summary.md is printed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOP="$(cd "$HERE/.." && pwd)"
RATE=${RATE:-200000}
DUR=${DUR:-10}
REPS=${REPS:-3}
TRACETOP=${TRACETOP:-$TOP/build/tracetop}
OUT=${OUT:-$HERE/results}
RUN="$OUT/latency-$(date +%Y%m%d-%H%M%S)"

command -v bpftrace >/dev/null || { echo "latency.sh: bpftrace is needed (apt-get install bpftrace)" >&2; exit 1; }
[ -x "$TRACETOP" ] || { echo "latency.sh: no tracetop at $TRACETOP" >&2; exit 1; }
mkdir -p "$RUN"
WORK=$(mktemp -d /tmp/tracetop-latbench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cc -O2 -o "$WORK/malloclike" "$HERE/malloclike.c"
cp "$TRACETOP" "$WORK/tracetop"
BIN="$WORK/malloclike"

# cpu_of FILE: user + sys seconds from /usr/bin/time -f "%U %S".
cpu_of() {
	awk 'END { print $1 + $2 }' "$1"
}

# wl FILE: "calls cpu" the workload printed.
wl() {
	awk '/^calls / { print $2, $4 }' "$1" | tail -n 1
}

# Each run prints: made wcpu counted lost tcpu
run_none() {
	"$BIN" "$RATE" "$DUR" >"$WORK/none.out"
	echo "$(wl "$WORK/none.out") 0 0 0"
}

run_tracetop() { # $1: bpf or perf, then more options
	/usr/bin/time -f "%U %S" -o "$WORK/time" "$WORK/tracetop" -b --engine "$@" \
		--latency "$BIN:lat_fn" --format json -d 1 -o "$WORK/tt.json" -- "$BIN" "$RATE" "$DUR" \
		>"$WORK/tt.out" 2>"$WORK/tt.err" || true
	counted=$(python3 - "$WORK/tt.json" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
j = reps[-1] if reps else {"rows": []}
f = [r for r in j["rows"] if r["kind"] == "function"]
print(sum(r["count"] for r in f), (j.get("lost") or 0) + (j.get("unpaired") or 0))
PY
)
	echo "$(wl "$WORK/tt.out") $counted $(cpu_of "$WORK/time")"
}

run_bpftrace() {
	/usr/bin/time -f "%U %S" -o "$WORK/time" bpftrace -e \
		"uprobe:$BIN:lat_fn{@s[tid]=nsecs} uretprobe:$BIN:lat_fn /@s[tid]/{@=hist(nsecs-@s[tid]); delete(@s[tid])}" \
		-c "$BIN $RATE $DUR" >"$WORK/bt.out" 2>"$WORK/bt.err" || true
	# the histogram's counts, and the events bpftrace says it lost
	counted=$(awk '/^\[/ { gsub(/.*\) */, ""); gsub(/\].*/, ""); split($0, a, " "); n += a[1] } END { print n + 0 }' "$WORK/bt.out")
	lost=$(grep -oE '[0-9]+ (events )?lost' "$WORK/bt.err" | awk '{ n += $1 } END { print n + 0 }')
	echo "$(wl "$WORK/bt.out") $counted $lost $(cpu_of "$WORK/time")"
}

# run_tui MODE: the screen in tmux, 160x45, on the workload (its output to
# a file); MODE timing: --view latency --latency BIN:lat_fn, idle: --view
# top. Quit with q once the workload printed; counted from the last
# frame's recording is not available on the screen: its row's COUNT, read
# from the screen before quitting.
run_tui() {
	local sock="tt-latbench-$$" args cnt="" end
	if [ "$1" = timing ]; then
		args="--view latency --latency $BIN:lat_fn"
	else
		args="--view top"
	fi
	rm -f "$WORK/tui.out" "$WORK/time"
	env -u TMUX tmux -L "$sock" -f /dev/null new-session -d -x 160 -y 45 -- env \
		XDG_CONFIG_HOME="$WORK/cfg" /usr/bin/time -f "%U %S" -o "$WORK/time" "$WORK/tracetop" \
		$args -d 1 -- sh -c "exec '$BIN' $RATE $DUR >'$WORK/tui.out'"
	end=$((SECONDS + DUR * 4 + 30))
	while ! grep -q '^calls ' "$WORK/tui.out" 2>/dev/null && [ $SECONDS -lt $end ]; do
		sleep 0.2
	done
	sleep 1.2 # the last refresh after the workload's end
	if [ "$1" = timing ]; then
		cnt=$(env -u TMUX tmux -L "$sock" capture-pane -p -t 0 |
			awk '$3 == "function" && $4 ~ /lat_fn$/ { print $5 }' | head -n 1)
	fi
	env -u TMUX tmux -L "$sock" send-keys -t 0 q
	end=$((SECONDS + 20))
	while [ ! -s "$WORK/time" ] && [ $SECONDS -lt $end ]; do sleep 0.2; done
	env -u TMUX tmux -L "$sock" kill-server >/dev/null 2>&1 || true
	echo "$(wl "$WORK/tui.out") ${cnt:-0} 0 $(cpu_of "$WORK/time")"
}

printf 'tool\trep\tmade\twcpu\tcounted\tlost\ttcpu\n' >"$RUN/raw.tsv"
tools=(none tracetop-bpf bpftrace tracetop-perf tracetop-bpf+syscalls)
if command -v tmux >/dev/null; then
	tools+=(tracetop-tui-timing tracetop-tui-idle)
else
	echo "latency.sh: no tmux: the screen's path is not measured" >&2
fi
for rep in $(seq 1 "$REPS"); do
	n=${#tools[@]}
	for i in $(seq 0 $((n - 1))); do
		t=${tools[$(((i + rep) % n))]}
		case $t in
		none) r=$(run_none) ;;
		tracetop-bpf) r=$(run_tracetop bpf) ;;
		tracetop-perf) r=$(run_tracetop perf) ;;
		tracetop-bpf+syscalls) r=$(run_tracetop bpf --latency-kinds syscall) ;;
		bpftrace) r=$(run_bpftrace) ;;
		tracetop-tui-timing) r=$(run_tui timing) ;;
		tracetop-tui-idle) r=$(run_tui idle) ;;
		esac
		printf '%s\t%s\t%s\n' "$t" "$rep" "$(echo "$r" | tr ' ' '\t')" | tee -a "$RUN/raw.tsv"
	done
done

st=0
python3 - "$RUN/raw.tsv" "$RATE" "$DUR" "$(uptime)" >"$RUN/summary.md" <<'PY' || st=$?
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
rate, dur, load = sys.argv[2], sys.argv[3], sys.argv[4].strip()
by = {}
for r in rows:
    by.setdefault(r["tool"], []).append(r)
base = {r["rep"]: float(r["wcpu"]) for r in by.get("none", [])}
med = lambda v: statistics.median(v) if v else float("nan")
print(f"Function latency cost: lat_fn at {rate}/s for {dur} s, medians over {len(base)} reps (same run)")
print(f"Machine at the end: {load}\n")
print("| tool | calls made | counted | lost+unpaired (reported) | tool's own CPU s | workload CPU s | slowdown CPU s | cost CPU s |")
print("|---|---|---|---|---|---|---|---|")
cost, per_rep = {}, {}
order = ("none", "tracetop-bpf", "bpftrace", "tracetop-perf", "tracetop-bpf+syscalls",
         "tracetop-tui-timing", "tracetop-tui-idle")
for t in order:
    rs = by.get(t, [])
    if not rs:
        continue
    slow = [float(r["wcpu"]) - base.get(r["rep"], 0) for r in rs]
    own = [max(float(r["tcpu"]) - float(r["wcpu"]), 0) if t != "none" else 0 for r in rs]
    c = [o + s for o, s in zip(own, slow)]
    cost[t] = med(c)
    per_rep[t] = {r["rep"]: x for r, x in zip(rs, c)}
    print(f"| {t} | {med([int(r['made']) for r in rs]):.0f} | {med([int(r['counted']) for r in rs]):.0f} | "
          f"{med([int(r['lost']) for r in rs]):.0f} | {med(own):.2f} | "
          f"{med([float(r['wcpu']) for r in rs]):.2f} | {med(slow):.2f} | {cost[t]:.2f} |")
ok = True
verdict = []
bt = cost.get("bpftrace")
if "tracetop-bpf" in cost and bt:
    ratio = cost["tracetop-bpf"] / bt
    verdict.append(f"batch: tracetop (bpf) / bpftrace cost {ratio:.2f}: {'PASS' if ratio <= 1 else 'FAIL'} (<= 1)")
    ok &= ratio <= 1
if "tracetop-tui-timing" in cost and "tracetop-tui-idle" in cost and bt:
    # what timing adds to the screen, rep by rep (same rep: same machine state)
    add = med([per_rep["tracetop-tui-timing"][k] - per_rep["tracetop-tui-idle"].get(k, 0)
               for k in per_rep["tracetop-tui-timing"]])
    ratio = add / bt
    verdict.append(f"screen: timing's cost (tui-timing - tui-idle, {add:.2f} CPU s) / bpftrace's: "
                   f"{ratio:.2f}: {'PASS' if ratio <= 1 else 'FAIL'} (<= 1); the screen's own "
                   f"(sampling for Top, drawing): {cost['tracetop-tui-idle']:.2f} CPU s")
    ok &= ratio <= 1
for t in ("tracetop-bpf", "tracetop-perf", "tracetop-bpf+syscalls", "tracetop-tui-timing"):
    for r in by.get(t, []):
        made, counted, lost = int(r["made"]), int(r["counted"]), int(r["lost"])
        # the screen's COUNT is read a refresh after the end: counted must be the calls made
        if counted + lost < made:
            verdict.append(f"{t} rep {r['rep']}: {made - counted - lost} calls neither counted nor reported lost: FAIL")
            ok = False
verdict.append("nothing lost silently: " + ("PASS" if all("neither counted" not in v for v in verdict) else "FAIL"))
print("\n**Verdict: " + ("PASS" if ok else "FAIL") + "**\n")
for v in verdict:
    print(f"* {v}")
sys.exit(0 if ok else 1)
PY
cat "$RUN/summary.md"
exit $st
