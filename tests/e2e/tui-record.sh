#!/bin/bash
# The screen records every pane and its replay shows every one: a session
# on the split workload (a copy named tuisplit) and the shifts workload
# (sleeps, probed, page faults), with -g, counters, a tracepoint, a probe
# and syscall latency, each pane shown a while (the Processes pane's table
# is read only while it is), recorded with -w; the replay in tmux then
# has the recorded content in every pane: Latency's sleeps, Top's and
# Flame's split functions, Annotate's code of split_alpha with its source
# line (the binary gone), Counters' page faults, Trace's events, Probes'
# hits, System's CPUs, Processes' workload; the timeline covers it, and
# a key that changes a live run is refused with a status line.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/shifts" "$WORKLOADS/split"
need_tmux
need_root_perf
TFS=/sys/kernel/tracing
[ -w "$TFS/uprobe_events" ] || tap_skip_all "no writable uprobe_events in tracefs (CONFIG_UPROBE_EVENTS, root)"
SHIFTS="$WORKLOADS/shifts"
REC="$TT_TMP/screen.ttr"

SHIFTS_PIDFILE="$TT_TMP/shifts.pid" "$SHIFTS" 120 60 >/dev/null 2>&1 &
bg_pid $!
shpid=$(wait_pidfile "$TT_TMP/shifts.pid" 5)
start_split 120 tuisplit
[ -n "$shpid" ] && [ -n "$pid" ]
ok $? "workloads started"

tui_start live 150 40 -g -d 0.5 -p "$pid,$shpid" --view latency -w "$REC" \
	--counters page-faults,context-switches --probe "$SHIFTS:shifts_tick" \
	-T syscalls:sys_enter_clock_nanosleep
tmux_wait_text live 20 'syscall +clock_nanosleep'
ok $? "live: the Latency pane times the sleeps"
# each pane a while: Annotate, Flame, Top ... Processes
for want in '^ Top ' 'Flame graph' 'tuisplit .*split_alpha' 'Scope: total' \
	'sys_enter_clock_nanosleep' 'shifts_tick' '^CPU ' 'tuisplit'; do
	tmux_keys live Tab
	tmux_wait_text live 15 "$want" || diag "live: no '$want' after Tab"
	sleep 1
done
tmux_keys live q
wait_for 15 tmux_exited live >/dev/null
like "$(tmux_capture live)" 'exit=0' "live: the recording screen quits with status 0"
mv "$TT_TMP/tuisplit" "$TT_TMP/tuisplit.gone" 2>/dev/null

tui_start rep 150 40 -r "$REC"
tmux_wait_text rep 20 'replayed .*screen\.ttr: its [0-9]+ intervals'
ok $? "replay: the status line says it is a replay"
like "$(tmux_capture rep)" '^History ' "replay: the timeline strip covers the recording"
# pane WANT DESC: Tab to the next pane, which shows WANT
pane() {
	tmux_keys rep Tab
	tmux_wait_text rep 10 "$1"
	ok $? "replay: $2" || diag "$(tmux_capture rep | head -n 20)"
}
like "$(tmux_capture rep)" 'syscall +clock_nanosleep' "replay: Latency has the recorded sleeps"
pane 'Nothing annotated' "Annotate waits for a function"
pane 'split_alpha' "Flame has the recorded stacks"
pane 'tuisplit .*split_alpha' "Top has the recorded rows"
tmux_keys rep a
tmux_wait_text rep 10 '^annotate|split_alpha.*tuisplit|split\.c:[0-9]+'
tmux_wait_text rep 10 'split\.c:[0-9]+ +SPLIT_FN\(split_alpha'
ok $? "replay: a on split_alpha annotates it from the recorded code and source" ||
	diag "$(tmux_capture rep | head -n 20)"
like "$(tmux_capture rep)" '^ +[1-9][0-9]?\.[0-9]+% .* [0-9a-f]+ +(movq|addq|xorq|cmpq) ' \
	"replay: Annotate has the recorded samples per instruction"
# back to Top, then on: Counters ... Processes
tmux_keys rep Tab Tab
tmux_wait_text rep 10 'tuisplit .*split_alpha'
pane 'page-faults' "Counters has the recorded counters"
pane 'shifts-[0-9]+ +syscalls:sys_enter_clock_.* which_clock: ' "Trace has the recorded events"
pane 'tracetop_[0-9]+:shifts_tick +uprobe .* [1-9][0-9]* ' "Probes has the recorded hits"
pane '^CPU +all ' "System has the recorded CPUs"
pane 'tuisplit' "Processes has the recorded process table"
tmux_keys rep d
tmux_wait_text rep 5 'a replay shows what .*screen\.ttr holds'
ok $? "replay: d (refresh interval) is refused: it changes a live run"
tmux_keys rep ','
tmux_wait_text rep 5 'HISTORY -'
ok $? "replay: , steps back into the recorded intervals"
tmux_keys rep q
wait_for 10 tmux_exited rep >/dev/null
like "$(tmux_capture rep)" 'exit=0' "replay: q quits with status 0"
done_testing
