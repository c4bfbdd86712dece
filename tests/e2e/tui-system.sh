#!/bin/bash
# The header meters, the System pane and the Processes pane, driven for
# real in tmux at 80x24 and 200x50: --view system starts on the System
# pane under the meters (CPU bars, memory, swap, tasks, load, uptime), m
# hides them, each section is there and filters, the Processes pane lists
# a workload with its CPU % and Enter zooms the Top pane into it; without
# colours and UTF-8 everything is ASCII.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split"
need_tmux
need_root_perf

start_split 120 ttsys-split
[ -n "$pid" ]
ok $? "workload started"

# ---------------------------------------------------------------- 80x24
tui_start sys 80 24 --view system -d 0.5
tmux_wait_text sys 5 '^System|Rates per second over'
ok $? "--view system starts on the System pane"
tmux_wait_text sys 3 '^ *Section.*Name.*Value'
ok $? "its column titles"
tmux_wait_text sys 3 '^CPU +all +[0-9]+\.[0-9]%'
ok $? "a row for all CPUs with its busy %"
tmux_wait_text sys 3 '^CPU +cpu0 +[0-9]+\.[0-9]% +usr [0-9.]+ sys [0-9.]+'
ok $? "a row per CPU split by kind"
tmux_wait_text sys 3 '^ *0\[[^]]*[0-9.]+%\]'
ok $? "meters: a bar for CPU 0"
tmux_wait_text sys 3 'Mem\[[^]]*[0-9.]+[KMGT]/[0-9.]+[KMGT]\]'
ok $? "meters: memory used of total"
tmux_wait_text sys 3 'Swp\[|Swp absent'
ok $? "meters: swap"
tmux_wait_text sys 3 '^Tasks: [0-9]+, [0-9]+ running +Load average: [0-9.]+ [0-9.]+ [0-9.]+ +Uptime: '
ok $? "meters: tasks, load average, uptime"
w=$(max_width sys)
[ "$w" -le 80 ]
ok $? "no line wider than 80 ($w)"
tmux_keys sys m
wait_for 3 lacks_text sys 'Mem\['
ok $? "m hides the meters"
tmux_wait_text sys 3 '^ Top +Counters'
ok $? "the tab bar moves up"
tmux_keys sys m
tmux_wait_text sys 3 'Mem\['
ok $? "m shows them again"
# every section, through the filter
for s in 'Memory +used' 'Paging +major faults' 'Sched +ctx switches' 'Disk +total' \
	'Network +total' 'Softirq +TIMER'; do
	tmux_keys sys F4
	tmux_keys sys -l "${s%% *}"
	tmux_keys sys Enter
	tmux_wait_text sys 3 "^$s"
	ok $? "section ${s%% *} (filtered)"
	tmux_keys sys Escape
done
wait_for 3 _tmux_has_text sys '^CPU +all'
ok $? "Esc clears the filter"

# ---------------------------------------------------------------- processes
tmux_keys sys Tab
tmux_wait_text sys 5 '[0-9]+ processes; Enter zooms Top'
ok $? "Tab shows the Processes pane"
tmux_wait_text sys 3 'PID +S +.?CPU% +RES'
ok $? "its titles, sorted by CPU %"
tmux_keys sys F4
tmux_keys sys -l ttsys-split
tmux_keys sys Enter
tmux_wait_text sys 5 "^ *$pid +[RS] +[0-9]+\.[0-9] +[0-9.]+[KMG] "
ok $? "the workload's row with its CPU %"
wait_for 3 selected_is sys "^ *$pid "
ok $? "it is selected"
tmux_keys sys Enter
tmux_wait_text sys 5 "Zoom: pid $pid"
ok $? "Enter zooms Top into the process"
tmux_wait_text sys 5 'split_(alpha|beta|gamma)'
ok $? "Top shows the process's functions"
[ -z "$(tmux_capture sys | grep -E '^ *[0-9.]+% ' | grep -vE " $pid ")" ]
ok $? "... and only them (every row has its pid)"
tmux_keys sys Tab
tmux_wait_text sys 5 "Scope: process \\(s switches\\), zoomed into pid $pid"
ok $? "... and Counters into it: its process scope, zoomed" || diag "$(tmux_capture sys)"
tmux_wait_text sys 5 "^ *$pid +.*split *$"
ok $? "Counters: the process's row"
[ "$(tmux_capture sys | grep -cE '^ *[0-9]+ .* ms/s ')" -eq 1 ]
ok $? "... and only it" || diag "$(tmux_capture sys)"
tmux_keys sys Escape
wait_for 3 lacks_text sys "switches\\), zoomed into pid"
ok $? "Esc leaves the Counters zoom"
tmux_wait_text sys 5 "^ *[0-9]+ .* ms/s .*"
tmux_keys sys BTab
tmux_wait_text sys 3 "Zoom: pid $pid"
tmux_keys sys Escape
wait_for 3 lacks_text sys "Zoom: pid $pid"
ok $? "Esc leaves the Top zoom"
tmux_keys sys q
wait_for 5 tmux_exited sys >/dev/null
tmux_wait_text sys 3 'exit=0'
ok $? "q exits 0"
tmux_kill

# ---------------------------------------------------------------- 200x50, no colour, no UTF-8
tmux_start big 200 50 env NO_COLOR=1 LC_ALL=C "$TRACETOP" --view system -d 0.5
tmux_wait_text big 5 '^CPU +cpu1 '
ok $? "200x50: the System pane"
tmux_wait_text big 3 '^ *0\[.*\]  +Mem\[.*\]$'
ok $? "200x50: CPU bars beside the memory bar"
tmux_keys big End
tmux_wait_text big 3 '^Softirq +[A-Z_]+ +[0-9.]+[kM]?/s +cpu0 [0-9.]+[kM]? cpu1 '
ok $? "200x50: softirqs with their rates per CPU (End: the last section)" || diag "$(tmux_capture big | tail -15)"
tmux_wait_text big 3 '^IRQ +[A-Za-z0-9]+ +[0-9.]+[kM]?/s '
ok $? "200x50: interrupts by source"
tmux_capture big | LC_ALL=C grep -q '[^ -~]'
[ $? -ne 0 ]
ok $? "200x50 in the C locale: only ASCII on screen"
tmux_capture big -e | grep -q $'\033\\[[0-9;]*3[1-7]m'
[ $? -ne 0 ]
ok $? "NO_COLOR: no colours"
w=$(max_width big)
[ "$w" -le 200 ]
ok $? "200x50: no line wider than 200 ($w)"
tmux_keys big q
wait_for 5 tmux_exited big >/dev/null
tmux_kill

# ---------------------------------------------------------------- the tables only while seen
# Started on Top, the interrupt tables are not read; Tab to the System
# pane shows their first reading at once and their rates at the next
# refresh, without waiting for a new process or a restart.
tui_start late 200 50 -d 4
tmux_wait_text late 10 'Samples/s'
ok $? "started on the Top pane"
tmux_keys late Tab Tab Tab Tab
tmux_wait_text late 5 '^CPU +cpu1 '
ok $? "four Tabs: the System pane"
tmux_keys late End
tmux_wait_text late 1 '^Softirq +[A-Z_]+ '
ok $? "its interrupt tables at once (within 1 s of a 4 s refresh), though nothing read them on Top" || diag "$(tmux_capture late | tail -8)"
tmux_wait_text late 6 '^Softirq +[A-Z_]+ +[0-9.]+[kM]?/s +cpu0 [0-9.]+[kM]? cpu1 '
ok $? "... with their rates from the next refresh" || diag "$(tmux_capture late | tail -8)"
tmux_kill

done_testing
