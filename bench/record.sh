#!/bin/bash
# Recording cost (issue 18): while the harness's workload keeps both CPUs
# busy, system-wide at -F 4000 with call stacks, REPS times over DUR
# seconds, three runs at once over the same seconds (they see the same
# machine: the other users of a shared one, and each other):
#   - `perf record -g -F 4000 -a` and `tracetop -w`: the size of the files
#     (bar: tracetop's at least 10x smaller);
#   - `tracetop` without -w and `tracetop -w`: their CPU time (user +
#     system, /usr/bin/time; bar: at most 1.2x).
# Both tracetop runs are batch (-b, JSON to /dev/null), so the difference
# is the recording (with what -w records beside the profile in batch:
# counters, the system's numbers). The ratios are within each rep; the
# load average is printed before and after.
#
#   bench/record.sh                  # DUR=60 REPS=3
#   DUR=20 REPS=3 TRACETOP=/tmp/b/tracetop bench/record.sh
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
TRACETOP="${TRACETOP:-$HERE/../build/tracetop}"
DUR="${DUR:-60}"
REPS="${REPS:-3}"
HARNESS="${HARNESS:-/work/shared/bench}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/tt-recbench.XXXXXX")"
wl=""
trap '[ -n "$wl" ] && kill $wl 2>/dev/null; rm -rf "$WORK"' EXIT

die() {
	echo "record.sh: $*" >&2
	exit 1
}
[ -x "$TRACETOP" ] || die "no tracetop at $TRACETOP (set TRACETOP=)"
command -v perf >/dev/null || die "perf is not installed"
[ -x /usr/bin/time ] || die "/usr/bin/time is not installed"
cp "$HARNESS/workload.c" "$HARNESS/Makefile" "$WORK/" || die "no harness in $HARNESS"
make -s -C "$WORK" workload >/dev/null || die "cannot build the workload"

"$WORK/workload" $((DUR * REPS + 10 * REPS + 30)) cpu "$WORK/workload.txt" 2 &
wl=$!
sleep 2
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

n=$(((DUR + 1) / 2))
# tt NAME ARGS...: tracetop ARGS for DUR s, its user+system seconds into NAME.cpu
tt() {
	local name=$1
	shift
	/usr/bin/time -f '%U %S' -o "$WORK/$name.time" "$TRACETOP" -b -g -F 4000 -d 2 -n "$n" \
		--format json -o /dev/null "$@" 2>/dev/null
	awk '{ printf "%.2f\n", $1 + $2 }' "$WORK/$name.time" >>"$WORK/$name.cpu"
}
for rep in $(seq 1 "$REPS"); do
	rm -f "$WORK/perf.data" "$WORK/rec.ttr"
	tt plain &
	a=$!
	tt rec -w "$WORK/rec.ttr" &
	b=$!
	perf record -q -g -F 4000 -a -o "$WORK/perf.data" -- sleep "$DUR" >/dev/null 2>&1 ||
		die "perf record failed"
	wait "$a" "$b" || die "tracetop failed"
	stat -c %s "$WORK/perf.data" >>"$WORK/perf.bytes"
	stat -c %s "$WORK/rec.ttr" >>"$WORK/rec.bytes"
	echo "rep $rep: perf record -g $(tail -n1 "$WORK/perf.bytes") bytes, tracetop -w" \
		"$(tail -n1 "$WORK/rec.bytes") bytes; tracetop CPU without -w" \
		"$(tail -n1 "$WORK/plain.cpu") s, with -w $(tail -n1 "$WORK/rec.cpu") s"
	sleep 5
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$WORK" "$DUR" <<'PY'
import statistics, sys
w, dur = sys.argv[1], sys.argv[2]
col = lambda f, t: [t(l) for l in open("%s/%s" % (w, f))]
perf, rec = col("perf.bytes", int), col("rec.bytes", int)
plain, withw = col("plain.cpu", float), col("rec.cpu", float)
print("| rep (%s s, -F 4000 -g, system-wide, at once) | perf record -g bytes | tracetop -w bytes | size ratio | tracetop CPU s | with -w CPU s | CPU ratio |" % dur)
print("|---|---|---|---|---|---|---|")
for i in range(len(perf)):
    print("| %d | %d | %d | %.1fx smaller | %.2f | %.2f | %.3fx |"
          % (i + 1, perf[i], rec[i], perf[i] / rec[i], plain[i], withw[i],
             withw[i] / plain[i] if plain[i] else float("nan")))
sr = statistics.median([p / r for p, r in zip(perf, rec)])
cr = statistics.median([b / a for a, b in zip(plain, withw) if a > 0])
print("| median | %d | %d | %.1fx smaller (bar >= 10x) | %.2f | %.2f | %.3fx (bar <= 1.2x) |"
      % (statistics.median(perf), statistics.median(rec), sr, statistics.median(plain),
         statistics.median(withw), cr))
PY
