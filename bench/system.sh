#!/bin/bash
# System view benchmark, with NPROCS sleeping processes the benchmark makes
# (tests/workloads/sysload idle):
#  1. the system source's refresh cost, read and parse only
#     (bench/sysbench.c: system_tick + system_snapshot, with and without
#     the process table);
#  2. CPU side by side, all running at once on the same processes for DUR
#     seconds, every one refreshing each 2 s: tracetop -b --view system
#     (text: one line per refresh, every file read, processes included),
#     tracetop -b --view system --format json --rows 40 (40 process rows
#     formatted, like a screen), htop -d 20 in a 120x40 tmux, top -b -d 2.
# CPU is each tool's on-CPU time (the sum of its threads' schedstat, ns)
# after a 5 s warm-up, in % of one core and in ms per 2 s refresh. Compare
# the ratios of one run, never numbers of different runs (a shared VM).
#
# Usage: [NPROCS=2000] [DUR=30] [REFRESHES=100] [TRACETOP=path] [OUT=dir] bench/system.sh
# Needs htop, top (procps) and tmux; gcc. Results: $OUT/system-DATE/summary.md.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOP="$(cd "$HERE/.." && pwd)"
NPROCS=${NPROCS:-2000}
DUR=${DUR:-30}
REFRESHES=${REFRESHES:-100}
BUILD=${BUILD:-$TOP/build}
TRACETOP=${TRACETOP:-$BUILD/tracetop}
SYSLOAD=${SYSLOAD:-$BUILD/tests/workloads/sysload}
OUT=${OUT:-$HERE/results}
RUN="$OUT/system-$(date +%Y%m%d-%H%M%S)"
SOCK="tt-sysbench-$$"

say() { printf 'bench/system.sh: %s\n' "$*" >&2; }
for tool in htop top tmux cc python3; do
	command -v "$tool" >/dev/null || { say "$tool not found (htop: apt-get install htop)"; exit 1; }
done
[ -x "$TRACETOP" ] || { say "no tracetop at $TRACETOP (scripts/run --version)"; exit 1; }
[ -x "$SYSLOAD" ] || make -C "$BUILD" tests/workloads/sysload >/dev/null
mkdir -p "$RUN"
WORK=$(mktemp -d /tmp/tracetop-sysbench.XXXXXX)
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	tmux -L "$SOCK" kill-server 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
cp "$TRACETOP" "$WORK/tracetop"
cc -O2 -I"$BUILD" -I"$TOP/include" "$HERE/sysbench.c" "$BUILD/libtracetop.a" -lm -o "$WORK/sysbench"

# --- the processes -----------------------------------------------------------
SYSLOAD_PIDFILE="$WORK/idle.pid" "$SYSLOAD" idle "$NPROCS" $((DUR + 120)) &
PIDS+=($!)
for _ in $(seq 100); do
	[ -s "$WORK/idle.pid" ] && break
	sleep 0.1
done
[ -s "$WORK/idle.pid" ] || { say "the sleeping processes did not start"; exit 1; }
procs=(/proc/[0-9]*)
nprocs=${#procs[@]}
say "$nprocs processes on the machine"

# --- 1. refresh cost ---------------------------------------------------------
"$WORK/sysbench" "$REFRESHES" | tee "$RUN/sysbench.txt"

# --- 2. side by side -----------------------------------------------------------
# cpu_ns PID: on-CPU ns of every thread of PID so far.
cpu_ns() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f", s }'
}

"$WORK/tracetop" -b --view system -d 2 -o "$WORK/text.out" &
PIDS+=($!)
tt_text=$!
"$WORK/tracetop" -b --view system --format json --rows 40 -d 2 -o "$WORK/json.out" &
PIDS+=($!)
tt_json=$!
top -b -d 2 >"$WORK/top.out" &
PIDS+=($!)
top_pid=$!
tmux -L "$SOCK" -f /dev/null new-session -d -s htop -x 120 -y 40 "exec htop -d 20"
htop_pid=$(tmux -L "$SOCK" display-message -p -t htop '#{pane_pid}')
PIDS+=("$htop_pid")
sleep 5
declare -A c0
for name in tt_text tt_json top_pid htop_pid; do
	c0[$name]=$(cpu_ns "${!name}")
done
t0=$(date +%s.%N)
sleep "$DUR"
t1=$(date +%s.%N)
{
	echo "# system view: CPU side by side ($nprocs processes, $(nproc) CPUs, ${DUR} s after a 5 s warm-up)"
	echo
	echo "| tool | CPU % of one core | ms per 2 s refresh | / htop |"
	echo "|---|---|---|---|"
} >"$RUN/summary.md"
declare -A used
for name in tt_text tt_json htop_pid top_pid; do
	used[$name]=$(( $(cpu_ns "${!name}") - ${c0[$name]} ))
done
for name in tt_text tt_json htop_pid top_pid; do
	case $name in
	tt_text) label='tracetop -b --view system -d 2' ;;
	tt_json) label='tracetop -b --view system --format json --rows 40 -d 2' ;;
	htop_pid) label='htop -d 20 (tmux 120x40)' ;;
	top_pid) label='top -b -d 2' ;;
	esac
	awk -v u="${used[$name]}" -v h="${used[htop_pid]}" -v t0="$t0" -v t1="$t1" -v l="$label" 'BEGIN {
		secs = t1 - t0
		printf "| %s | %.2f | %.2f | %.2f |\n", l, 100 * u / 1e9 / secs, u / 1e6 / (secs / 2), h ? u / h : 0
	}' >>"$RUN/summary.md"
done
{
	echo
	echo "Refresh cost, read and parse only (bench/sysbench.c, $REFRESHES refreshes):"
	echo
	sed 's/^/    /' "$RUN/sysbench.txt"
} >>"$RUN/summary.md"
cat "$RUN/summary.md"
say "results in $RUN"
