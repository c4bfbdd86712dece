#!/bin/bash
# "Time this function" by keypress, driven for real in tmux at 140x40: t
# on the Top pane's hot_loop_fn row (a workload whose every call takes
# about a millisecond) makes a uprobe/uretprobe pair in tracetop's group
# and switches to the Latency pane, where the function's row shows its
# calls with a p50 in microseconds or milliseconds, selected, with its
# histogram under the table; p merges the rows of
# every process (PID "all"); Delete on the row stops timing it and
# removes the pair from uprobe_events. In the Probes pane's insert
# dialogue, t at the entry-or-return step times the chosen function
# (timed_fn, 2 ms a call), and t on a Probes row finds that function
# (timed already); t on a --probe row not timed yet times its function
# (a pair of its own beside the counting probe), and timing by keypress
# times no syscall (the notice says so). A kernel function cannot be timed without
# kprobes: the dialogue and, for t on a kernel function's Top row, the
# status line say so. Nothing is left in uprobe_events.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/hotloop" "$WORKLOADS/timed"
need_tmux
need_root_perf
tfs=/sys/kernel/tracing
[ -d $tfs/events ] || tfs=/sys/kernel/debug/tracing
[ -e $tfs/uprobe_events ] || tap_skip_all "no uprobe_events in tracefs (kernel without CONFIG_UPROBE_EVENTS)"

# our_pairs PID: the probes of tracetop PID's group in uprobe_events.
our_pairs() {
	grep -c "tracetop_$1/" $tfs/uprobe_events 2>/dev/null
}

# ---------------------------------------------------------------- from Top
tui_start top 140 40 -d 0.5 -- "$WORKLOADS/hotloop" 60
tmux_wait_text top 8 ' hot_loop_fn'
ok $? "Top shows hot_loop_fn"
tpid=$(tui_pid top)
tmux_keys top F4
tmux_keys top -l hot_loop_fn
tmux_keys top Enter
wait_for 3 lacks_text top ' main$'
tmux_keys top t
tmux_wait_text top 5 'timing hot_loop_fn with a uprobe/uretprobe pair'
ok $? "t: the status line says the function is timed with a uprobe pair"
tmux_wait_text top 8 ' hotloop +function +hotloop:hot_loop_fn +[0-9]+ .*[0-9.]+(us|ms) '
ok $? "the Latency pane shows the function's row, timed"
tmux_wait_text top 5 '^@function\[hotloop:hot_loop_fn, hotloop [0-9]+\]: [0-9]+ calls'
ok $? "its row selected, its histogram shown under the table"
is "$(our_pairs "$tpid")" 2 "an entry and a return probe in tracetop's group"
tmux_keys top p
tmux_wait_text top 5 ' all +\(all\) +function +hotloop:hot_loop_fn '
ok $? "p: one row over every process"
tmux_keys top p
tmux_wait_text top 5 ' hotloop +function +hotloop:hot_loop_fn '
ok $? "p again: per process"
tmux_keys top F4 C-u Enter
tmux_keys top F3
tmux_keys top -l hot_loop_fn
tmux_keys top Enter
tmux_keys top DC
tmux_wait_text top 5 'stopped timing hotloop:hot_loop_fn'
ok $? "Delete: the status line says it stopped"
wait_for 5 lacks_text top ' function +hotloop:hot_loop_fn '
ok $? "its row is gone"
is "$(our_pairs "$tpid")" 0 "its probe pair is removed"
tmux_keys top q
tmux_wait_text top 5 '^exit=0'
ok $? "q quits with status 0"
tmux_kill

# ---------------------------------------------------------------- dialogue
tui_start dl 140 40 -d 0.5 -- "$WORKLOADS/timed" 20000
tmux_wait_text dl 5 'Top'
tpid=$(tui_pid dl)
tmux_keys dl Tab Tab Tab a
tmux_wait_text dl 3 'Insert a probe'
menu_walk dl 'A function of a binary' 6
tmux_keys dl Enter
tmux_wait_text dl 3 'Binary \(path or name\)'
tmux_keys dl -l "$WORKLOADS/timed"
tmux_keys dl Enter
tmux_wait_text dl 3 'Function of .*timed'
tmux_keys dl -l 'timed_fn'
tmux_keys dl Enter
tmux_wait_text dl 3 'Time timed_fn: entry and return'
ok $? "the dialogue offers to time the function"
tmux_keys dl t
tmux_wait_text dl 8 ' timed +function +timed:timed_fn +[0-9]+ .* [0-9.]+ms '
ok $? "t there: the Latency pane times it (2 ms calls)"
is "$(our_pairs "$tpid")" 2 "its probe pair"
# the pair's rows in the Probes pane: t on one finds its function timed
tmux_keys dl BTab BTab BTab
tmux_wait_text dl 5 'tracetop_[0-9]+:.*uprobe'
tmux_keys dl F3
tmux_keys dl -l timed_fn
tmux_keys dl Enter
tmux_keys dl t
tmux_wait_text dl 5 'timed_fn is timed already'
ok $? "t on a Probes row: its function (timed already, said so)"
tmux_keys dl q
tmux_wait_text dl 5 '^exit=0'
ok $? "q quits with status 0"
tmux_kill
is "$(our_pairs "$tpid")" 0 "the pair is removed at exit"

# ---------------------------------------------------------------- a Probes row
tui_start pr 140 40 --probe "$WORKLOADS/timed:timed_fn" -d 0.5 -- "$WORKLOADS/timed" 20000
tmux_wait_text pr 5 'Top'
tpid=$(tui_pid pr)
# (--probe may start on the Probes pane: Tab until it shows)
for _ in 1 2 3 4 5 6 7 8 9; do
	_tmux_has_text pr 'tracetop_[0-9]+:timed_fn +uprobe' && break
	tmux_keys pr Tab
	sleep 0.2
done
tmux_wait_text pr 5 'tracetop_[0-9]+:timed_fn +uprobe'
ok $? "the Probes pane lists the --probe on timed_fn"
is "$(our_pairs "$tpid")" 1 "one probe: the counting one"
tmux_keys pr F3
tmux_keys pr -l timed_fn
tmux_keys pr Enter
tmux_keys pr t
tmux_wait_text pr 5 'timing timed_fn with a uprobe/uretprobe pair \(.*, syscalls not timed\)'
ok $? "t on the Probes row: its function timed, without the syscalls"
tmux_wait_text pr 8 ' timed +function +timed:timed_fn +[0-9]+ .* [0-9.]+ms '
ok $? "the Latency pane shows its calls (2 ms)"
wait_for 3 latency_notice_has pr 'syscalls not timed \(--latency-kinds syscall times them\)'
ok $? "the notice says the syscalls are not timed"
lacks_text pr ' syscall +clock_nanosleep '
ok $? "no syscall row"
is "$(our_pairs "$tpid")" 3 "its pair beside the counting probe"
tmux_keys pr q
tmux_wait_text pr 5 '^exit=0'
ok $? "q quits with status 0"
tmux_kill
is "$(our_pairs "$tpid")" 0 "all three removed at exit"

# ---------------------------------------------------------------- kernel
if grep -q '^[pr]:' $tfs/kprobe_events 2>/dev/null || [ -e $tfs/kprobe_events ]; then
	skip "this kernel has kprobes" "the dialogue says a kernel function needs kprobes"
	skip "this kernel has kprobes" "the status line says a kernel function needs kprobes"
else
	tui_start kf 140 40 -d 0.5 -- "$WORKLOADS/hotloop" 30
	tmux_wait_text kf 5 'Top'
	tmux_keys kf Tab Tab Tab a
	tmux_wait_text kf 3 'A kernel function \(no kprobes in this kernel\)'
	ok $? "the insert dialogue says the kernel has no kprobes"
	tmux_keys kf Escape q
	tmux_wait_text kf 5 '^exit=0'
	tmux_kill
	# system-wide, a kernel function's row in Top: t says why not
	tui_start kt 140 40 -d 0.5
	tmux_wait_text kt 8 '\[k\] '
	tmux_keys kt F4
	tmux_keys kt -l kernel.kallsyms
	tmux_keys kt Enter
	wait_for 3 lacks_text kt '\[\.\] '
	tmux_keys kt t
	tmux_wait_text kt 5 'cannot time kernel function .*this kernel has no kprobes'
	ok $? "t on a kernel function's row: the status line says the kernel has no kprobes"
	tmux_keys kt q
	tmux_wait_text kt 5 '^exit=0'
	tmux_kill
fi

done_testing
