#!/bin/bash
# The Counters pane, driven for real in tmux: one Tab from the profile,
# the default events with their derived CPU utilization, the three scopes,
# adding an event through the picker and removing it, an event this
# machine cannot count, sorting and filtering, --view counters, the help,
# a narrow window and a clean exit.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split"
need_tmux
need_root_perf

start_split 120
[ -n "$pid" ]
ok $? "workload started"

# ---------------------------------------------------------------- scopes
tui_start cnt 120 40 -p "$pid" -d 0.5
tmux_wait_text cnt 5 'split_alpha'
ok $? "the Top pane comes first"
tmux_keys cnt Tab
tmux_wait_text cnt 5 'Scope: total'
ok $? "Tab shows the Counters pane"
tmux_wait_text cnt 5 '^ *total +task-clock +[0-9,.]+ ms'
ok $? "task-clock counted in milliseconds"
for ev in page-faults context-switches cpu-migrations; do
	tmux_wait_text cnt 3 "^ *total +$ev +[0-9,]+ "
	ok $? "$ev has a row"
done
tmux_wait_text cnt 3 'total +CPUs utilized +[0-9]+\.[0-9]+'
ok $? "CPU utilization derived from task-clock"
# CPUs utilized is task-clock per wall second: the task-clock of the same
# 0.5 s interval, in ms, over 500 (within 10 %: the interval jitters).
# The first refresh comes after 0.25 s, and a loaded machine may stretch
# one interval: poll until a refresh shows the two agreeing.
util_agrees() {
	local screen
	screen=$(tmux_capture cnt)
	util=$(echo "$screen" | sed -nE 's/.*total +CPUs utilized +([0-9]+\.[0-9]+).*/\1/p' | head -n 1)
	ms=$(echo "$screen" | sed -nE 's/^ *total +task-clock +([0-9.]+) ms.*/\1/p' | head -n 1)
	awk -v u="${util:-0}" -v ms="${ms:-0}" 'BEGIN { e = ms / 500; exit !(u > 0 && u > e * 0.9 - 0.02 && u < e * 1.1 + 0.02) }'
}
util="" ms=""
wait_for 10 util_agrees
ok $? "utilization = task-clock per wall second (shown: $util CPUs, $ms ms in 0.5 s)"

tmux_keys cnt s
tmux_wait_text cnt 3 'Scope: cpu'
ok $? "s: per CPU"
tmux_wait_text cnt 3 '^ *cpu0 +task-clock' && tmux_wait_text cnt 3 '^ *cpu1 +task-clock'
ok $? "a task-clock row per CPU"
tmux_keys cnt s
tmux_wait_text cnt 3 'Scope: process'
ok $? "s: per process"
tmux_wait_text cnt 3 "^ *$pid .*[0-9.]+ ms/s .* split *$"
ok $? "the target process has a row of the grid, task-clock in ms/s" || diag "$(tmux_capture cnt)"
tmux_capture cnt | grep -qE '^ *PID .*task-clock +context-switches .*Command *$'
ok $? "the grid's titles: PID, a column per event, Command last" || diag "$(tmux_capture cnt)"
# Enter: a menu with the zooms and the events
tmux_keys cnt Enter
tmux_wait_text cnt 3 "Zoom into pid $pid"
ok $? "Enter on a process: its menu"
tmux_wait_text cnt 3 'Stop counting context-switches'
ok $? "... which stops any of its events"
tmux_keys cnt Down Enter
tmux_wait_text cnt 3 "zoomed into pid $pid \\(Esc or Left leaves\\)"
ok $? "Zoom into the process: the title says so" || diag "$(tmux_capture cnt)"
tmux_keys cnt Left
wait_for 3 lacks_text cnt "switches\\), zoomed into pid"
ok $? "Left leaves the zoom"
tmux_keys cnt s
tmux_wait_text cnt 3 'Scope: total'
ok $? "s again: back to the total"

# ---------------------------------------------------------------- add, remove
tmux_keys cnt a
tmux_wait_text cnt 3 'Count an event'
ok $? "a opens the event picker"
tmux_keys cnt -l 'major-f'
tmux_wait_text cnt 3 '1 of [0-9]+'
ok $? "typing narrows the catalog to one event"
tmux_keys cnt Enter
tmux_wait_text cnt 3 '^ *total +major-faults +[0-9,]+ '
ok $? "the picked event is counted"
lacks_text cnt 'Count an event'
ok $? "the picker closed"
tmux_keys cnt F4
tmux_keys cnt -l 'major'
tmux_keys cnt Enter
tmux_wait_text cnt 3 'major-faults'
tmux_keys cnt DC
tmux_wait_text cnt 3 'stopped counting major-faults'
ok $? "Delete stops counting the selected event"
tmux_keys cnt Escape
tmux_wait_text cnt 3 '^ *total +page-faults'
wait_for 3 lacks_text cnt '^ *total +major-faults'
ok $? "its row is gone"

# ---------------------------------------------------------------- sort, filter
# rates: the Per second column of the total rows (metrics have none), in
# units of the event's own (ns/s of task-clock shown as ms/s).
rates() {
	tmux_capture cnt | awk -F'  +' '/^ *total / && $2 !~ /utilized/ {
		v = $4; f = (v ~ /ms\/s/) ? 1e6 : 1; gsub(/[^0-9.]/, "", v); print v * f }'
}

# rates_sorted asc|desc: at least three rates, in that order.
rates_sorted() {
	rates | awk -v dir="$1" 'NR > 1 && ((dir == "desc" && $1 > p) || (dir == "asc" && $1 < p)) { bad = 1 }
		{ p = $1 } END { exit !(NR >= 3 && !bad) }'
}

tmux_keys cnt F6
tmux_wait_text cnt 3 'Sort by'
tmux_keys cnt Down Down Down Enter
tmux_wait_text cnt 3 '(▼|v)Per second'
ok $? "F6: sorted by Per second, descending"
wait_for 3 rates_sorted desc
ok $? "the rates shown go down: $(rates | tr '\n' ' ')"
first=$(tmux_capture cnt | grep -E '^ *total ' | head -n 1)
like "$first" 'task-clock' "sorted by rate: task-clock (ns/s) first"
tmux_keys cnt I
tmux_wait_text cnt 3 '(▲|\^)Per second'
ok $? "I: ascending"
wait_for 3 rates_sorted asc
ok $? "the rates shown go up: $(rates | tr '\n' ' ')"
tmux_keys cnt I
tmux_keys cnt F4
tmux_keys cnt -l 'switch'
tmux_keys cnt Enter
wait_for 3 eval '[ "$(tmux_capture cnt | grep -cE "^ *total ")" = 1 ]'
ok $? "the filter keeps one row"
like "$(tmux_capture cnt | grep -E '^ *total ')" 'context-switches' "... context-switches"
tmux_keys cnt Escape

# ---------------------------------------------------------------- help, size
tmux_keys cnt F1
tmux_wait_text cnt 3 'keys \(arrows scroll'
tmux_keys cnt End
tmux_wait_text cnt 3 'Counters pane'
ok $? "the help lists the Counters pane's keys"
tmux_wait_text cnt 3 'count the system total, per CPU or per process'
tmux_keys cnt q
_tt_tmux resize-window -t cnt -x 80 -y 24 2>/dev/null
tmux_wait_text cnt 3 'Scope: total'
wait_for 3 eval '[ "$(max_width cnt)" -le 80 ]'
w=$(max_width cnt)
[ "$w" -le 80 ]
ok $? "80x24: no line wider than the window ($w)"
tmux_keys cnt q
wait_for 5 tmux_exited cnt >/dev/null
tmux_wait_text cnt 3 'exit=0'
ok $? "q exits 0"
tmux_kill

# ---------------------------------------------------------------- --view, unsupported
tui_start view 120 30 -p "$pid" -d 0.5 --view counters --counters cycles,task-clock
tmux_wait_text view 5 'Scope: total'
ok $? "--view counters starts on the Counters pane"
if ! "$TRACETOP" --list-events | grep -qE '^ +cycles OR cpu-cycles +\[not supported\]'; then
	skip "this machine has a PMU: cycles can be counted" "cycles: <not supported>"
else
	tmux_wait_text view 5 'cycles +<not supported>'
	ok $? "cycles: <not supported>, not 0"
	tmux_wait_text view 3 'cycles.*(PMU|not supported|counted)'
	ok $? "with the reason"
fi
tmux_wait_text view 3 'total +task-clock +[0-9,.]+ ms'
ok $? "the other counter still counts"
tmux_keys view q
wait_for 5 tmux_exited view >/dev/null
tmux_wait_text view 3 'exit=0'
ok $? "q exits 0"
tmux_kill

done_testing
