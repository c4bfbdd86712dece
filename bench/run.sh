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
#   WORKLOADS   what runs beside the profilers (default bench), one or more of:
#                 bench  the harness's workload (2 threads, 50/30/20 call tree)
#                 funcs  a hot loop over 200,000 functions (bench/manyfuncs.py,
#                        built at bench time; FUNCS=N for another count)
#                 procs  the bench workload plus 2,000 processes that each wake
#                        once a second (bench/wakers.c; WAKERS=N for another count)
#               Labels: TOOL-F4000[-g] for bench, TOOL-WORKLOAD-F4000[-g] else.
#   TOOLS       profilers (default "perf-top tracetop"); add bpftrace for the
#               public in-kernel reference: with -g (mode g) the issue's
#               `bpftrace -e 'profile:hz:F { @[ustack, kstack] = count(); }'`,
#               without stacks (mode plain) `@[kstack(1), ustack(1)]` (the
#               sampled address only); it prints nothing until it exits, so no
#               time to first row (--ttfr-timeout 0)
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
WORKLOADS=${WORKLOADS:-bench}
TOOLS=${TOOLS:-"perf-top tracetop"}
FUNCS=${FUNCS:-200000}
WAKERS=${WAKERS:-2000}
export WAKERS

say() { printf 'bench/run.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# --- prerequisites ---------------------------------------------------------
for tool in perf tmux python3 make gcc; do
	command -v "$tool" >/dev/null || die "$tool not found in PATH"
done
case " $TOOLS " in
*" bpftrace "*) command -v bpftrace >/dev/null || die "bpftrace not found (apt-get install bpftrace)" ;;
esac
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

# harness_for WORKLOAD: the harness dir whose ./workload is that workload
# (measure.py runs the workload beside itself), made on first use.
harness_for() {
	local d="$BENCH_WORK/wl-$1"
	case "$1" in
	bench) echo "$BENCH_WORK"; return ;;
	funcs | procs) ;;
	*) die "unknown workload '$1' (bench, funcs, procs)" ;;
	esac
	if [ ! -x "$d/workload" ]; then
		mkdir -p "$d"
		cp -f "$BENCH_WORK/measure.py" "$BENCH_WORK/report.py" "$d/"
		if [ "$1" = funcs ]; then
			say "generating and building the $FUNCS-function workload (~1 min)"
			python3 "$HERE/manyfuncs.py" "$d/src" "$FUNCS" >&2 || die "manyfuncs.py failed"
			gcc -O2 -fno-omit-frame-pointer -o "$d/workload" "$d/src/main.c" "$d/src/funcs.S" \
				-lpthread >&2 || die "cannot build the $FUNCS-function workload"
		else
			cp -f "$BENCH_WORK/workload" "$d/workload.cpu"
			gcc -O2 -o "$d/workload" "$HERE/wakers.c" >&2 || die "cannot build wakers"
		fi
	fi
	echo "$d"
}

# workload_args WORKLOAD: measure.py options for it (funcs has no stage_*
# rows; its 200,000 functions each hold too little to reach the screen
# with -g, where the loop calling them does).
workload_args() {
	case "$1" in
	funcs) echo "--pattern run_all|fn_[0-9]+" ;;
	*) echo "" ;;
	esac
}

# Freeze the binary under test (same comm "tracetop" as the real one).
mkdir -p "$BENCH_WORK/bin" "$BENCH_WORK/config"
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
	echo "settings: REPS=$REPS DUR=$DUR FREQS=\"$FREQS\" QUIET_WAIT=$QUIET_WAIT HOLDER_WAIT=$HOLDER_WAIT EXTRA_ARGS=\"$EXTRA_ARGS\" MODES=\"$MODES\" ENGINE=${ENGINE:-} WORKLOADS=\"$WORKLOADS\" TOOLS=\"$TOOLS\" FUNCS=$FUNCS WAKERS=$WAKERS"
	case " $TOOLS " in *" bpftrace "*) echo "bpftrace: $(bpftrace --version)" ;; esac
	echo "perf_event_max_sample_rate: $(cat /proc/sys/kernel/perf_event_max_sample_rate)"
} >>"$RUNDIR/meta.txt"

# --- the interleaved campaign -------------------------------------------------
cd "$BENCH_WORK"
# shellcheck disable=SC2206 # EXTRA_ARGS is meant to be split
M=(run --outdir "$RUNDIR" --duration "$DUR" --repeats 1
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

# run_one LABEL CMD WORKLOAD [MEASURE ARGS]: one repetition of one command
# beside the workload; logs the measure.py line.
run_one() {
	local label=$1 cmd=$2 wl=$3 h
	shift 3
	h="$(harness_for "$wl")"
	wait_no_samplers
	say "$(date +%T) $label: $cmd"
	echo "$(date -u +%T) $label: $cmd" >>"$RUNDIR/commands.txt"
	# shellcheck disable=SC2046 # the workload's options are meant to be split
	"$h/measure.py" "${M[@]}" $(workload_args "$wl") "$@" --label "$label" --cmd "$cmd" \
		| tee -a "$RUNDIR/measure.log" || die "measure.py failed for $label"
}

# tool_cmd TOOL F MODE: the command line measured for a tool.
tool_cmd() {
	local args
	args="$(mode_args "$3")"
	case "$1" in
	perf-top) echo "perf top -F $2$args" ;;
	# an empty setup directory of its own: root's ~/.config/tracetop/tracetoprc
	# is written by every tracetop that exits (a test, a session) and may
	# name another pane to start on (the Processes pane reads all of /proc
	# at each refresh)
	tracetop) echo "env XDG_CONFIG_HOME=$BENCH_WORK/config $TT -F $2$args${ENGINE:+ --engine $ENGINE}" ;;
	bpftrace)
		case "$3" in
		# braces doubled: measure.py passes --cmd through str.format
		plain) echo "bpftrace -e 'profile:hz:$2 {{ @[kstack(1), ustack(1)] = count(); }}'" ;;
		g) echo "bpftrace -e 'profile:hz:$2 {{ @[ustack, kstack] = count(); }}'" ;;
		*) die "bpftrace: no command for mode $3" ;;
		esac
		;;
	*) die "unknown tool '$1' (perf-top, tracetop, bpftrace)" ;;
	esac
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

for wl in $WORKLOADS; do
	harness_for "$wl" >/dev/null # build it before the first measurement
done
for rep in $(seq 1 "$REPS"); do
	say "=== repetition $rep/$REPS"
	for wl in $WORKLOADS; do
		for F in $FREQS; do
			for mode in $MODES; do
				cfg="F$F$(mode_suffix "$mode")"
				[ "$wl" = bench ] || cfg="$wl-$cfg"
				# Rotate the order by one tool a rep, so no tool always runs
				# first (two tools: alternately first).
				order=()
				for t in $TOOLS; do order+=("$t"); done
				n=${#order[@]}
				for i in $(seq 0 $((n - 1))); do
					t=${order[$(((i + rep - 1) % n))]}
					extra=()
					[ "$t" = bpftrace ] && extra=(--ttfr-timeout 0)
					run_one "$t-$cfg" "$(tool_cmd "$t" "$F" "$mode")" "$wl" "${extra[@]}"
				done
			done
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
