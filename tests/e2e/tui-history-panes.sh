#!/bin/bash
# The history on the screen for the panes other than Top, driven in tmux
# against the shifts workload (calm for 6 s: 20 ms sleeps, no page faults;
# then a storm: 1 ms sleeps, 8 page faults a round). Stepping back with
# "," in the Latency pane finds a calm interval (its sleeps' P50 near
# 20 ms); the Counters, Trace and Probes panes then show that interval's
# counts (few page faults, about 50 sleeps and probe hits), the header
# saying HISTORY (the Trace pane also that the storm pushed the calm
# interval's events out of the event log, 200 events here); stepping
# forward in the Counters pane reaches the storm, and a range ("R", then
# ",") shows the sum of its two intervals' counts.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/shifts"
need_tmux
need_root_perf
SHIFTS="$WORKLOADS/shifts"

SHIFTS_PIDFILE="$TT_TMP/shifts.pid" "$SHIFTS" 120 6 >/dev/null 2>&1 &
bg_pid $!
pid=$(wait_pidfile "$TT_TMP/shifts.pid" 5)
[ -n "$pid" ]
ok $? "workload started"
t0=$(date +%s)

tui_start hp 140 40 -d 1 -p "$pid" --view latency --counters page-faults,context-switches \
	--probe "$SHIFTS:shifts_tick" -T syscalls:sys_enter_clock_nanosleep --trace-log 200
tmux_wait_text hp 15 'syscall +clock_nanosleep'
ok $? "the Latency pane times the sleeps"
# four seconds of storm after the shift
wait_for 60 sh -c "[ \$((\$(date +%s) - $t0)) -ge 10 ]"

# p50_ns: the Latency pane's P50 of clock_nanosleep in ns (0 when absent)
p50_ns() {
	tmux_capture hp | awk '$3 == "syscall" && $4 == "clock_nanosleep" {
		v = $8; u = v; sub(/^[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
		m = u == "ns" ? 1 : u == "us" ? 1e3 : u == "ms" ? 1e6 : u == "s" ? 1e9 : 0
		n = v * m
	} END { printf "%d\n", n }'
}
# interval_of EVENT: the Counters pane's Interval column of EVENT (total)
interval_of() {
	tmux_capture hp | awk -v ev="$1" '$1 == "total" && $2 == ev { gsub(",", "", $3); n = $3 }
		END { printf "%d\n", n }'
}
# screen_moved BEFORE: the screen's rows differ from BEFORE
screen_moved() {
	[ "$(tmux_capture hp | sed -n '8,$p')" != "$1" ]
}
# step KEY: press KEY and wait for the pane to show another interval
step() {
	local before
	before=$(tmux_capture hp | sed -n '8,$p')
	tmux_keys hp "$1"
	wait_for 3 screen_moved "$before"
	sleep 0.3
}

live=$(p50_ns)
diag "live P50 of the sleeps: $live ns"
found=""
for s in $(seq 1 14); do
	step ','
	p=$(p50_ns)
	diag "step $s back: P50 $p ns"
	if [ "$p" -ge 15000000 ] && [ "$p" -le 60000000 ]; then
		found=$s
		break
	fi
done
# one more back: the interval found may hold the shift's first instant
[ -n "$found" ] && step ','
p=$(p50_ns)
diag "one more back: P50 $p ns"
[ -n "$found" ] && [ "$live" -lt 10000000 ] && [ "$p" -ge 15000000 ] && [ "$p" -le 60000000 ]
ok $? "Latency: stepping back finds a calm interval, its sleeps' P50 near 20 ms (live: 1 ms)"
like "$(tmux_capture hp | sed -n 2p)" 'HISTORY -[0-9]{2}:[0-9]{2} \.\. -[0-9]{2}:[0-9]{2}' \
	"the header says the view is the history"

# that interval in the other panes (Shift-Tab: Latency -> Counters)
for _ in 1 2 3 4 5; do tmux_keys hp BTab; done
tmux_wait_text hp 5 '^total +page-faults'
ok $? "Shift-Tab to the Counters pane"
calm_pf=$(interval_of page-faults)
calm_cs=$(interval_of context-switches)
diag "calm interval: page-faults $calm_pf, context-switches $calm_cs"
[ "$calm_pf" -lt 100 ] && [ "$calm_cs" -ge 20 ] && [ "$calm_cs" -le 80 ]
ok $? "Counters: the calm interval's counts (no page faults, about 50 switches)"

tmux_keys hp Tab
tmux_wait_text hp 5 '^history: [0-9]+ events'
ok $? "Trace: the title gives the interval's counts"
n=$(tmux_capture hp | sed -n 's/^history: \([0-9]*\) events.*/\1/p' | head -n 1)
within "$n" 20 60 "Trace: about 50 sleeps in the calm interval"
gone=$(tmux_capture hp | sed -n 's/^history: .*  \([0-9]*\) of them gone from the log.*/\1/p' | head -n 1)
is "${gone:-none}" "$n" "Trace: the storm pushed them out of the 200-event log, and it says so"
tmux_keys hp Tab
tmux_wait_text hp 5 ':shifts_tick +uprobe'
hits=$(tmux_capture hp | awk '$1 ~ /:shifts_tick$/ { print $(NF - 2) }')
within "${hits:-0}" 20 60 "Probes: about 50 hits of shifts_tick in the calm interval"
for _ in 1 2; do tmux_keys hp BTab; done
tmux_wait_text hp 5 '^total +page-faults'

# forward to the storm, noting each interval's page faults
declare -a pf
pf[0]=$(interval_of page-faults)
storm=""
for s in $(seq 1 12); do
	step '.'
	pf[s]=$(interval_of page-faults)
	diag "step $s forward: page-faults ${pf[s]}"
	if [ "${pf[s]}" -ge 1000 ] && [ "${pf[s - 1]}" -ge 1000 ]; then
		storm=$s
		break
	fi
done
[ -n "$storm" ]
ok $? "Counters: stepping forward reaches the storm's page faults"
tmux_keys hp R
tmux_wait_text hp 5 'HISTORY .*\(range\)'
ok $? "R starts a range"
step ','
is "$(interval_of page-faults)" "$((pf[storm] + pf[storm - 1]))" \
	"Counters: the range's page faults are the sum of its two intervals'"
tmux_keys hp L
wait_for 5 lacks_text hp 'HISTORY'
ok $? "L returns to the live view"
tmux_keys hp q
tmux_kill
done_testing
