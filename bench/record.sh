#!/bin/bash
# Recording cost (issue 18): while the harness's workload keeps both CPUs
# busy, system-wide at -F 4000 with call stacks,
#   - the size of `tracetop -w` against `perf record -g -F 4000 -a`, both
#     running at once over the same DUR seconds (bar: tracetop's at least
#     10x smaller);
#   - tracetop's CPU time (user + system, /usr/bin/time) with -w against
#     without, in pairs whose order alternates, REPS of them (bar: at most
#     1.2x): the ratio of each pair, and of the medians.
# Both tracetop runs are batch (-b, JSON to /dev/null), so the difference
# is the recording (with what -w records beside the profile in batch:
# counters, the system's numbers). The machine may be shared: the script
# prints the load average before and after; read the ratios with it.
#
#   bench/record.sh                  # DUR=60 REPS=2
#   DUR=20 REPS=3 TRACETOP=/tmp/b/tracetop bench/record.sh
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
TRACETOP="${TRACETOP:-$HERE/../build/tracetop}"
DUR="${DUR:-60}"
REPS="${REPS:-2}"
HARNESS="${HARNESS:-/work/shared/bench}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/tt-recbench.XXXXXX")"
trap 'kill $wl 2>/dev/null; rm -rf "$WORK"' EXIT

die() {
	echo "record.sh: $*" >&2
	exit 1
}
[ -x "$TRACETOP" ] || die "no tracetop at $TRACETOP (set TRACETOP=)"
command -v perf >/dev/null || die "perf is not installed"
[ -x /usr/bin/time ] || die "/usr/bin/time is not installed"
cp "$HARNESS/workload.c" "$HARNESS/Makefile" "$WORK/" || die "no harness in $HARNESS"
make -s -C "$WORK" workload >/dev/null || die "cannot build the workload"

total=$((DUR * (2 * REPS + 1) + 30))
"$WORK/workload" "$total" cpu "$WORK/workload.txt" 2 &
wl=$!
sleep 2
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# the same DUR seconds recorded by both at once
n=$(((DUR + 1) / 2))
"$TRACETOP" -b -g -F 4000 -d 2 -n "$n" --format json -o /dev/null -w "$WORK/same.ttr" \
	2>/dev/null &
tt=$!
perf record -q -g -F 4000 -a -o "$WORK/perf.data" -- sleep "$DUR" >/dev/null 2>&1 ||
	die "perf record failed"
wait "$tt" || die "tracetop -w failed"
perf_bytes=$(stat -c %s "$WORK/perf.data")
same_bytes=$(stat -c %s "$WORK/same.ttr")
echo "the same $DUR s: perf record -g $perf_bytes bytes, tracetop -w $same_bytes bytes"

cpu() { # cpu OUT ARGS...: tracetop ARGS, its user+system seconds into OUT
	local out=$1
	shift
	/usr/bin/time -f '%U %S' -o "$WORK/time" "$TRACETOP" -b -g -F 4000 -d 2 -n "$n" \
		--format json -o /dev/null "$@" 2>/dev/null
	awk '{ printf "%.2f\n", $1 + $2 }' "$WORK/time" >>"$out"
}
for rep in $(seq 1 "$REPS"); do
	if [ $((rep % 2)) = 1 ]; then
		cpu "$WORK/plain" && cpu "$WORK/rec" -w "$WORK/rec.ttr"
	else
		cpu "$WORK/rec" -w "$WORK/rec.ttr" && cpu "$WORK/plain"
	fi
	rec_bytes=$(stat -c %s "$WORK/rec.ttr")
	echo "rep $rep: tracetop -w $rec_bytes bytes; CPU without -w $(tail -n1 "$WORK/plain") s," \
		"with -w $(tail -n1 "$WORK/rec") s"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$perf_bytes" "$same_bytes" "$WORK/plain" "$WORK/rec" "$DUR" "$rec_bytes" <<'PY'
import statistics, sys
perf, rec, dur, alone = int(sys.argv[1]), int(sys.argv[2]), sys.argv[5], int(sys.argv[6])
plain = [float(l) for l in open(sys.argv[3])]
withw = [float(l) for l in open(sys.argv[4])]
print("| %s s, -F 4000 -g, system-wide, at once | bytes |" % dur)
print("|---|---|")
print("| perf record -g -a | %d |" % perf)
print("| tracetop -w | %d |" % rec)
print("| ratio | %.1fx smaller (bar >= 10x) |" % (perf / rec))
print("| tracetop -w alone (last CPU pair) | %d |" % alone)
mp, mw = statistics.median(plain), statistics.median(withw)
pairs = ["%.3f" % (w / p) for p, w in zip(plain, withw) if p > 0]
print()
print("| tracetop CPU s | without -w | with -w | ratio |")
print("|---|---|---|---|")
for i, (p, w) in enumerate(zip(plain, withw)):
    print("| pair %d | %.2f | %.2f | %.3fx |" % (i + 1, p, w, w / p if p else float("nan")))
print("| median | %.2f | %.2f | %.3fx (bar <= 1.2x) |" % (mp, mw, mw / mp if mp else float("nan")))
PY
