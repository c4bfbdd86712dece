#!/bin/bash
# Side-by-side benchmark: tracetop vs perf top, with the shared harness
# (/work/shared/bench, see bench/README.md). Each repetition runs every
# configuration of both tools once, alternating which tool goes first, so
# that the drifts of this shared, noisy VM hit both alike. Compare the
# RATIOS printed by bench/compare.py, not absolute numbers.
#
# Usage: [REPS=3] [DUR=20] [FREQS="4000 1000"] [TRACETOP=path] [OUT=dir] bench/run.sh
#
#   REPS        repetitions (default 3)
#   DUR         seconds each profiler runs (default 20)
#   FREQS       sampling frequencies, one perf-top/tracetop pair each
#               (default "4000 1000"; 4000 is the issue's bar)
#   TRACETOP    binary under test (default: <repo>/build/tracetop, built with
#               scripts/run --version if missing). It is copied once at the
#               start so a rebuild during the run cannot mix binaries.
#   OUT         results root (default <repo>/bench/results); this run goes
#               to $OUT/$RUN_ID (default run-YYYYmmdd-HHMMSS), $OUT/latest
#               points at it. Reuse a RUN_ID to append repetitions.
#   BENCH_WORK  private copy of the harness (default: a new mktemp dir under
#               /tmp); SHARED_BENCH is the read-only original.
#   QUIET_WAIT  max seconds to wait for an idle machine before each rep (60)
#   HOLDER_WAIT max seconds to wait for other perf_event users to exit (600)
#   EXTRA_ARGS  extra measure.py arguments, e.g. '--mode sys'
#   MODES       call-stack modes, both tools alike: plain, g (-g), dwarf (default plain)
#   ENGINE      tracetop's --engine: auto (default: bpf as root), bpf or perf
#
# Exit status: non-zero if a tool failed to start or run, if the profiler
# died during a rep (after measure.py's retries), or never showed a row.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOP="$(cd "$HERE/.." && pwd)"

REPS=${REPS:-3}
DUR=${DUR:-20}
FREQS=${FREQS:-"4000 1000"}
TRACETOP=${TRACETOP:-$TOP/build/tracetop}
OUT=${OUT:-$HERE/results}
RUN_ID=${RUN_ID:-run-$(date +%Y%m%d-%H%M%S)}
SHARED_BENCH=${SHARED_BENCH:-/work/shared/bench}
QUIET_WAIT=${QUIET_WAIT:-60}
HOLDER_WAIT=${HOLDER_WAIT:-600}
EXTRA_ARGS=${EXTRA_ARGS:-}
MODES=${MODES:-plain}

say() { printf 'bench/run.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# --- prerequisites ---------------------------------------------------------
for tool in perf tmux python3 make gcc; do
	command -v "$tool" >/dev/null || die "$tool not found in PATH"
done
[ -f "$SHARED_BENCH/measure.py" ] || die "no harness in $SHARED_BENCH"
if [ ! -x "$TRACETOP" ]; then
	if [ "$TRACETOP" = "$TOP/build/tracetop" ]; then
		say "building tracetop (scripts/run --version)"
		"$TOP/scripts/run" --version >/dev/null || die "build failed"
	fi
	[ -x "$TRACETOP" ] || die "TRACETOP=$TRACETOP is not executable"
fi

# --- private copy of the harness (the shared copy is read-only) -------------
if [ -z "${BENCH_WORK:-}" ]; then
	BENCH_WORK="$(mktemp -d /tmp/tracetop-bench.XXXXXX)"
fi
mkdir -p "$BENCH_WORK"
# Sources only: the shared results/ (perf top's raw baseline) is not needed.
for f in measure.py report.py workload.c ringfloor.c Makefile README.md BASELINE.md; do
	cp -f "$SHARED_BENCH/$f" "$BENCH_WORK/$f"
done
chmod -R u+w "$BENCH_WORK"
make -s -C "$BENCH_WORK" all || die "cannot build workload/ringfloor in $BENCH_WORK"

# Freeze the binary under test (same comm "tracetop" as the real one).
mkdir -p "$BENCH_WORK/bin"
cp -f "$TRACETOP" "$BENCH_WORK/bin/tracetop"
TT="$BENCH_WORK/bin/tracetop"
"$TT" --version >/dev/null || die "$TRACETOP --version failed"

RUNDIR="$OUT/$RUN_ID"
mkdir -p "$RUNDIR"
OUT="$(cd "$OUT" && pwd)"
RUNDIR="$OUT/$RUN_ID"
ln -sfn "$RUN_ID" "$OUT/latest"

# --- what was measured, for RESULTS.md ---------------------------------------
{
	echo "started: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "host: $(uname -srm), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "mem: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
	echo "perf: $(perf --version)"
	echo "tracetop: $("$TT" --version) from $TRACETOP sha256 $(sha256sum "$TT" | cut -c1-16)"
	echo "repo: $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo ?)$(git -C "$TOP" diff --quiet 2>/dev/null || echo ' (dirty tree)')"
	echo "harness: $SHARED_BENCH copied to $BENCH_WORK"
	echo "settings: REPS=$REPS DUR=$DUR FREQS=\"$FREQS\" QUIET_WAIT=$QUIET_WAIT HOLDER_WAIT=$HOLDER_WAIT EXTRA_ARGS=\"$EXTRA_ARGS\""
	echo "perf_event_max_sample_rate: $(cat /proc/sys/kernel/perf_event_max_sample_rate)"
} >>"$RUNDIR/meta.txt"

# --- the interleaved campaign -------------------------------------------------
cd "$BENCH_WORK"
# shellcheck disable=SC2206 # EXTRA_ARGS is meant to be split
M=(./measure.py run --outdir "$RUNDIR" --duration "$DUR" --repeats 1
   --quiet-wait "$QUIET_WAIT" $EXTRA_ARGS)

# Other perf_event users (someone's profiler on this shared VM) distort
# both tools and make compare.py drop the rep: wait up to HOLDER_WAIT
# seconds for them to go away (then measure anyway; the rep is dropped).
samplers() {
	find /proc/[0-9]*/fd -maxdepth 1 -lname 'anon_inode:\[perf_event\]' 2>/dev/null \
		| cut -d/ -f3 | sort -u || true
}
wait_no_samplers() {
	local t=0 pids
	while pids="$(samplers)" && [ -n "$pids" ] && [ "$t" -lt "$HOLDER_WAIT" ]; do
		[ $((t % 60)) -eq 0 ] && say "waiting for other samplers to exit:" \
			"$(for p in $pids; do tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-60; echo "($p)"; done | paste -sd' ')"
		sleep 5
		t=$((t + 5))
	done
}

# run_one LABEL CMD: one repetition of one command; logs the measure.py line.
run_one() {
	wait_no_samplers
	say "$(date +%T) $1: $2"
	echo "$(date -u +%T) $1: $2" >>"$RUNDIR/commands.txt"
	"${M[@]}" --label "$1" --cmd "$2" | tee -a "$RUNDIR/measure.log" \
		|| die "measure.py failed for $1"
}

# mode_args MODE: the same call-stack options for both tools.
mode_args() {
	case "$1" in
	plain) echo "" ;;
	g) echo " -g" ;;
	dwarf) echo " --call-graph dwarf" ;;
	*) die "unknown mode '$1' (plain, g, dwarf)" ;;
	esac
}

# mode_suffix MODE: label suffix ("" for plain).
mode_suffix() {
	[ "$1" = plain ] || echo "-$1"
}

for rep in $(seq 1 "$REPS"); do
	say "=== repetition $rep/$REPS"
	for F in $FREQS; do
		for mode in $MODES; do
			args="$(mode_args "$mode")"
			cfg="F$F$(mode_suffix "$mode")"
			perf_cmd="perf top -F $F$args"
			tt_cmd="$TT -F $F$args${ENGINE:+ --engine $ENGINE}"
			# Alternate the order so neither tool always runs first.
			if [ $((rep % 2)) -eq 1 ]; then
				run_one "perf-top-$cfg" "$perf_cmd"
				run_one "tracetop-$cfg" "$tt_cmd"
			else
				run_one "tracetop-$cfg" "$tt_cmd"
				run_one "perf-top-$cfg" "$perf_cmd"
			fi
		done
	done
done
echo "finished: $(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$RUNDIR/meta.txt"

# --- report ---------------------------------------------------------------------
python3 "$HERE/compare.py" --bench-dir "$BENCH_WORK" "$RUNDIR" | tee "$RUNDIR/compare.md"
# Fails if a profiler died or never showed a stage row (evidence in $RUNDIR).
python3 "$HERE/compare.py" --bench-dir "$BENCH_WORK" --check "$RUNDIR" >/dev/null \
	|| die "some repetitions failed, see $RUNDIR"
say "results: $RUNDIR (compare.md, meta.txt, <label>/rep<N>.*)"
