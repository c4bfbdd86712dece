#!/bin/bash
# Trace benchmark: the tracepoint event rate each tool sustains without
# loss, tracetop --view trace side by side with perf trace, on the same
# event (syscalls:sys_enter_getppid) from the same generator (bench/evgen.c:
# getppid() at a set rate), each tool tracing the generator as its command.
# For every rate and repetition, both tools run in turn (order flipped each
# repetition) and we record how many events the generator made, how many
# the tool printed, what it says it lost, and its CPU time (user + sys).
#
# Usage: [RATES="20000 50000 100000 200000 400000"] [DUR=5] [REPS=2]
#        [TRACETOP=path] [OUT=dir] bench/trace.sh
# Results: $OUT/trace-DATE/{raw.tsv,summary.md}; summary.md is printed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOP="$(cd "$HERE/.." && pwd)"
RATES=${RATES:-"20000 50000 100000 200000 400000"}
DUR=${DUR:-5}
REPS=${REPS:-2}
TRACETOP=${TRACETOP:-$TOP/build/tracetop}
OUT=${OUT:-$HERE/results}
RUN="$OUT/trace-$(date +%Y%m%d-%H%M%S)"
EVENT=syscalls:sys_enter_getppid

command -v perf >/dev/null || { echo "trace.sh: perf is needed" >&2; exit 1; }
[ -x "$TRACETOP" ] || { echo "trace.sh: no tracetop at $TRACETOP" >&2; exit 1; }
mkdir -p "$RUN"
WORK=$(mktemp -d /tmp/tracetop-tracebench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cc -O2 -o "$WORK/evgen" "$HERE/evgen.c"
cp "$TRACETOP" "$WORK/tracetop"

# cpu_of FILE: user + sys seconds from /usr/bin/time -f "%U %S".
cpu_of() {
	awk 'END { print $1 + $2 }' "$1"
}

# run_tracetop RATE: made printed lost cpu
run_tracetop() {
	/usr/bin/time -f "%U %S" -o "$WORK/time" "$WORK/tracetop" -b --view trace -T "$EVENT" \
		--format json -d 1 -o "$WORK/tt.json" -- "$WORK/evgen" "$1" "$DUR" \
		>"$WORK/tt.made" 2>"$WORK/tt.err" || true
	python3 - "$WORK/tt.json" "$WORK/tt.made" <<'PY'
import json, sys
printed = lost = 0
made = int((open(sys.argv[2]).read().split() or ["0"])[-1])   # the generator's own count
for line in open(sys.argv[1]):
    o = json.loads(line)
    printed += sum(1 for r in o.get("rows", []) if r.get("event") == "syscalls:sys_enter_getppid")
    lost += (o.get("lost", 0) or 0) + (o.get("dropped", 0) or 0)   # kernel losses, log drops
print(made, printed, lost)
PY
}

# run_perf RATE: made printed lost cpu
run_perf() {
	/usr/bin/time -f "%U %S" -o "$WORK/time" perf trace --no-syscalls -e "$EVENT" \
		-o "$WORK/pt.out" -- "$WORK/evgen" "$1" "$DUR" >"$WORK/pt.made" 2>"$WORK/pt.err" || true
	made=$(tail -n 1 "$WORK/pt.made")
	printed=$(grep -c 'sys_enter_getppid' "$WORK/pt.out" || true)
	lost=$({ grep -hoE 'LOST [0-9]+' "$WORK/pt.out" "$WORK/pt.err" || true; } |
		awk '{ s += $2 } END { print s + 0 }')
	echo "${made:-0} ${printed:-0} ${lost:-0}"
}

printf 'tool\trate\trep\tmade\tprinted\tlost\tcpu_s\n' >"$RUN/raw.tsv"
for rep in $(seq 1 "$REPS"); do
	for rate in $RATES; do
		tools="tracetop perf"
		[ $((rep % 2)) = 0 ] && tools="perf tracetop"
		for tool in $tools; do
			read -r made printed lost < <(run_$tool "$rate")
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$rate" "$rep" "$made" "$printed" \
				"$lost" "$(cpu_of "$WORK/time")" >>"$RUN/raw.tsv"
			echo "trace.sh: rep $rep rate $rate $tool: made $made printed $printed lost $lost" >&2
		done
	done
done

python3 - "$RUN/raw.tsv" >"$RUN/summary.md" <<'PY'
import csv, sys, statistics as st
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
rates = sorted({int(r["rate"]) for r in rows})
print("| rate /s | tool | events made (median) | seen / made (median) | lost (median) | CPU s (median) | CPU us / event |")
print("|---|---|---|---|---|---|---|")
best = {}
for rate in rates:
    for tool in ("tracetop", "perf"):
        rs = [r for r in rows if r["tool"] == tool and int(r["rate"]) == rate]
        if not rs:
            continue
        seen = st.median(int(r["printed"]) / max(1, int(r["made"])) for r in rs)
        lost = st.median(int(r["lost"]) for r in rs)
        cpu = st.median(float(r["cpu_s"]) for r in rs)
        made = st.median(int(r["made"]) for r in rs)
        print(f"| {rate} | {tool} | {made:.0f} | {seen*100:.2f} % | {lost:.0f} | {cpu:.2f} | {cpu*1e6/max(1,made):.2f} |")
        if seen >= 0.9999 and lost == 0:
            best[tool] = max(best.get(tool, 0), rate)
print()
for tool in ("tracetop", "perf"):
    print(f"- {tool}: highest rate with every event seen and none lost: {best.get(tool, 0)} /s")
PY
cat "$RUN/summary.md"
ln -sfn "$(basename "$RUN")" "$OUT/trace-latest"
