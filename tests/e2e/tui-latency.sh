#!/bin/bash
# The Latency pane, driven for real in tmux at 120x40: --view latency
# starts on it and times the syscalls of a command (a workload sleeping
# 1 ms 300 times then 100 ms at a time) in user space, its
# clock_nanosleep row shows 300+ calls with a p50 in milliseconds, the
# failing openat calls are counted as errors, the notice under the title
# says how the syscalls are measured (in the kernel with BPF, else paired
# from ring records); the rows sort by any column (F6, < >, I: COUNT
# descending and ascending, NAME in order, TOTAL back as it was), the
# filter narrows them, Enter shows the row's bpftrace-like histogram and
# hides it again; the pane is also reached from the tab bar of a plain
# run, where it starts timing only once shown; --latency adds a
# function's row, and does not time every syscall unless asked; its
# probe pair is off in the Probes pane (not counted twice).
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/sleepers"
need_tmux
need_root_perf
[ -d /sys/kernel/tracing/events/raw_syscalls ] || [ -d /sys/kernel/debug/tracing/events/raw_syscalls ] ||
	tap_skip_all "no raw_syscalls tracepoints (tracefs not mounted or kernel without FTRACE_SYSCALLS)"

SLEEPERS="$WORKLOADS/sleepers"

# ---------------------------------------------------------------- a command
tui_start lat 120 40 --view latency -d 0.5 -- "$SLEEPERS" 300 20 30
tmux_wait_text lat 5 'Latency'
ok $? "--view latency starts on the Latency pane"
tmux_wait_text lat 5 'PID +COMM +KIND +NAME +COUNT'
ok $? "its column titles"
tmux_wait_text lat 8 ' sleepers +syscall +clock_nanosleep +3[0-9][0-9] '
ok $? "the command's clock_nanosleep row, its 300 sleeps and the 100 ms ones"
tmux_wait_text lat 3 ' sleepers +syscall +clock_nanosleep +[0-9]+ +[0-9.]+ +0 +[0-9.]+ms '
ok $? "no errors, p50 in milliseconds"
tmux_wait_text lat 3 ' sleepers +syscall +openat +[0-9]+ +[0-9.]+ +20 '
ok $? "openat: the 20 failing open() calls as errors"
wait_for 3 latency_notice_has lat '^syscalls and functions: (paired in user space|histograms computed in the kernel)'
ok $? "the notice under the title says how it is measured"
# sorting: the syscall rows' COUNT (and NAME) columns in screen order
# counts NAME: the COUNT of each syscall row, in order; names NAME: their NAME.
counts() {
	tmux_capture "$1" | awk '$3 == "syscall" { print $5 }' | tr '\n' ' '
}
names() {
	tmux_capture "$1" | awk '$3 == "syscall" { print $4 }' | tr '\n' ' '
}
# in_order LIST CMP: LIST's words ordered by sort CMP (-n -r, -n, ...)
in_order() {
	local l="$1"
	shift
	[ -n "$l" ] && [ "$(echo "$l" | tr ' ' '\n' | grep -v '^$' | sort "$@" | tr '\n' ' ')" = "$l" ]
}
sorted_by() { # NAME FIELD SORT-ARGS...: the rows ordered so
	local name="$1" field="$2"
	shift 2
	in_order "$($field "$name")" "$@"
}
tmux_wait_text lat 3 'TOTAL'
ok $? "sorted by TOTAL at the start"
tmux_keys lat F6
tmux_wait_text lat 3 'Sort by'
menu_walk lat COUNT 8
tmux_keys lat Enter
tmux_wait_text lat 3 '(▼|v)COUNT'
ok $? "F6 COUNT: the column marked, descending"
wait_for 3 sorted_by lat counts -n -r
ok $? "the rows by COUNT, most first ($(counts lat))"
tmux_keys lat I
tmux_wait_text lat 3 '(▲|\^)COUNT'
ok $? "I: ascending"
wait_for 3 sorted_by lat counts -n
ok $? "the rows by COUNT, fewest first ($(counts lat))"
tmux_keys lat '<'
tmux_wait_text lat 3 'NAME(▲|\^|▼|v)'
ok $? "<: the column before, NAME"
wait_for 3 eval 'sorted_by lat names || sorted_by lat names -r'
ok $? "the rows by NAME ($(names lat))"
tmux_keys lat F6
menu_walk lat TOTAL 14
tmux_keys lat Enter
tmux_wait_text lat 3 '(▼|v|▲|\^)TOTAL'
ok $? "F6 TOTAL: sorted as at the start"
tmux_keys lat F4
tmux_keys lat -l nanosleep
tmux_keys lat Enter
wait_for 3 lacks_text lat ' openat '
ok $? "the filter narrows the rows"
tmux_keys lat Enter
tmux_wait_text lat 3 '^@syscall\[clock_nanosleep, sleepers [0-9]+\]: [0-9]+ calls'
ok $? "Enter: the row's histogram"
tmux_wait_text lat 3 '^\[1M, 2M\) +[0-9]+ \|@+ *\|'
ok $? "a bpftrace-like bar for the 1 ms sleeps"
tmux_keys lat Enter
wait_for 3 lacks_text lat '^@syscall\['
ok $? "Enter again hides it"
tmux_keys lat q
tmux_wait_text lat 5 '^exit=0'
ok $? "q quits with status 0"
tmux_kill

# ---------------------------------------------------------------- by Tab
"$SLEEPERS" 0 0 30 &
bg_pid $!
spid=$!
tui_start tab 120 40 -d 0.5
tmux_wait_text tab 5 '^ *Top +Counters'
ok $? "a plain run starts on Top"
for _ in 1 2 3 4 5 6; do
	_tmux_has_text tab 'PID +COMM +KIND +NAME' && break
	tmux_keys tab Tab
	sleep 0.2
done
tmux_wait_text tab 5 'PID +COMM +KIND +NAME'
ok $? "Tab reaches the Latency pane"
tmux_wait_text tab 8 "^ *$spid +sleepers +syscall +clock_nanosleep "
ok $? "system-wide, the sleeping process's row"
tmux_keys tab q
tmux_wait_text tab 5 '^exit=0'
ok $? "q quits with status 0"
tmux_kill

# ---------------------------------------------------------------- --latency
if [ -x "$WORKLOADS/timed" ] && [ -e /sys/kernel/tracing/uprobe_events ]; then
	tui_start fn 120 40 --latency "$WORKLOADS/timed:timed_fn" -d 0.5 -- "$WORKLOADS/timed" 3000
	tmux_wait_text fn 8 ' timed +function +[^ ]*timed_fn +[0-9]+ .*[0-9.]+ms '
	ok $? "--latency: the function's row, its calls timed in milliseconds"
	wait_for 3 latency_notice_has fn 'syscalls not timed \(--latency-kinds syscall times them\)'
	ok $? "--latency alone: the notice says the syscalls are not timed"
	lacks_text fn ' syscall +clock_nanosleep '
	ok $? "... and no syscall row"
	# its pair's hits are not counted twice (a counter on each probe would
	# cost every call): off in the Probes pane, as a pair made by t is
	tmux_keys fn BTab BTab BTab
	tmux_wait_text fn 5 'tracetop_[0-9]+:timed_fn +uprobe .* off$'
	ok $? "the Probes pane: its entry probe, off (counted in the Latency pane)"
	tmux_wait_text fn 3 'tracetop_[0-9]+:timed_fn__return +uretprobe .* off$'
	ok $? "... and its return probe"
	tmux_keys fn q
	tmux_wait_text fn 5 '^exit=0'
	ok $? "q quits with status 0"
else
	skip "no timed workload or no uprobe_events" "--latency on the screen"
	skip "no timed workload or no uprobe_events" "q quits with status 0"
fi

done_testing
