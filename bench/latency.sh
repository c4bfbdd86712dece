#!/bin/bash
# Function latency benchmark: the cost of timing a malloc-like function
# called RATE times a second (bench/malloclike.c), tracetop --latency
# (its default in batch: the function only; histograms in the kernel with
# BPF; and, as a reference, --engine perf: paired in user space; and with
# BPF timing every syscall too, --latency-kinds syscall) side by side with bpftrace's one-liner
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

printf 'tool\trep\tmade\twcpu\tcounted\tlost\ttcpu\n' >"$RUN/raw.tsv"
tools=(none tracetop-bpf bpftrace tracetop-perf tracetop-bpf+syscalls)
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
		esac
		printf '%s\t%s\t%s\n' "$t" "$rep" "$(echo "$r" | tr ' ' '\t')" | tee -a "$RUN/raw.tsv"
	done
done

python3 - "$RUN/raw.tsv" "$RATE" "$DUR" >"$RUN/summary.md" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
rate, dur = sys.argv[2], sys.argv[3]
by = {}
for r in rows:
    by.setdefault(r["tool"], []).append(r)
base = {r["rep"]: float(r["wcpu"]) for r in by.get("none", [])}
med = lambda v: statistics.median(v) if v else float("nan")
print(f"Function latency cost: lat_fn at {rate}/s for {dur} s, medians over {len(base)} reps (same run)\n")
print("| tool | calls made | counted | lost+unpaired (reported) | tool's own CPU s | workload CPU s | slowdown CPU s | cost CPU s |")
print("|---|---|---|---|---|---|---|---|")
cost = {}
for t in ("none", "tracetop-bpf", "bpftrace", "tracetop-perf", "tracetop-bpf+syscalls"):
    rs = by.get(t, [])
    if not rs:
        continue
    slow = [float(r["wcpu"]) - base.get(r["rep"], 0) for r in rs]
    own = [max(float(r["tcpu"]) - float(r["wcpu"]), 0) if t != "none" else 0 for r in rs]
    c = [o + s for o, s in zip(own, slow)]
    cost[t] = med(c)
    print(f"| {t} | {med([int(r['made']) for r in rs]):.0f} | {med([int(r['counted']) for r in rs]):.0f} | "
          f"{med([int(r['lost']) for r in rs]):.0f} | {med(own):.2f} | "
          f"{med([float(r['wcpu']) for r in rs]):.2f} | {med(slow):.2f} | {cost[t]:.2f} |")
if "tracetop-bpf" in cost and "bpftrace" in cost and cost["bpftrace"] > 0:
    print(f"\ntracetop (bpf) / bpftrace cost: {cost['tracetop-bpf'] / cost['bpftrace']:.2f}")
PY
cat "$RUN/summary.md"
