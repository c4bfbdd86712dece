#!/bin/bash
# The screen's own cost on the machine it measures, counted in system
# calls (never timed): a frame reaches the terminal in a few writes (ncurses
# 6.4 flushed at every cursor move until a first endwin: some 80 writes a
# frame, each a wakeup of the terminal's reader), no poll of stdin while a
# frame is written, and without a target to watch the loop wakes a few
# times a second, not five (with one, often enough to see it exit).
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split"
need_tmux
need_root_perf
need_tool strace strace

start_split 60
[ -n "$pid" ]
ok $? "workload started"

# counted NAME SECS OUT: strace the tracetop of session NAME for SECS
# seconds, its calls into OUT (one line each).
counted() {
	local tp
	tp=$(tui_pid "$1")
	[ -n "$tp" ] || return 1
	timeout -s INT "$2" strace -f -qq -e trace=write,poll -o "$3" -p "$tp" 2>/dev/null
	[ -s "$3" ]
}

tui_start w 120 40 -d 0.5
tmux_wait_text w 15 'split_(alpha|beta|gamma)'
ok $? "the Top pane shows the workload"
sleep 1
counted w 4 "$TT_TMP/w.txt"
ok $? "strace saw tracetop's calls"
writes=$(grep -c 'write(1,' "$TT_TMP/w.txt")
stdin_polls=$(grep -cE 'poll\(\[\{fd=0, events=POLLIN\}\], 1, 0\)' "$TT_TMP/w.txt")
diag "in 4 s at -d 0.5 (8 frames): $writes writes to the terminal, $stdin_polls polls of stdin alone"
[ "$writes" -ge 4 ] && [ "$writes" -le 40 ]
ok $? "8 frames in 4..40 writes to the terminal ($writes; some 80 a frame before)"
is "$stdin_polls" 0 "no poll of stdin for typed keys within a frame"
tmux_kill w

tui_start idle 120 40 -d 2
tmux_wait_text idle 15 'split_(alpha|beta|gamma)'
ok $? "system-wide at -d 2: the Top pane shows the workload"
sleep 1
counted idle 6 "$TT_TMP/idle.txt"
ok $? "strace saw the system-wide tracetop"
idle=$(grep -c 'poll(\[{fd=' "$TT_TMP/idle.txt")
tmux_kill idle

tui_start target 120 40 -d 2 -p "$pid"
tmux_wait_text target 15 'split_(alpha|beta|gamma)'
ok $? "-p at -d 2: the Top pane shows the workload"
sleep 1
counted target 6 "$TT_TMP/target.txt"
ok $? "strace saw the tracetop watching -p"
watching=$(grep -c 'poll(\[{fd=' "$TT_TMP/target.txt")
tmux_kill target
diag "loop wakeups in 6 s at -d 2: $idle system-wide, $watching watching a pid"
[ "$idle" -ge 6 ] && [ "$idle" -le 22 ]
ok $? "system-wide, the loop sleeps up to 500 ms: 6..22 wakeups in 6 s ($idle; 30 at 200 ms)"
[ "$watching" -ge 26 ]
ok $? "watching a pid, it wakes every 200 ms to see it exit: 26 or more in 6 s ($watching)"
done_testing
