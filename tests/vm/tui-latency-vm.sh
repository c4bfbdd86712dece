#!/bin/bash
# In the VM, where the kernel has kprobes: "time this function" by
# keypress on a kernel function, driven for real in tmux at 140x40. In
# the Probes pane's insert dialogue, "A kernel function...", then
# hrtimer_nanosleep from the picker (each of the timed workload's 2 ms
# nanosleep calls passes through it once), then t at its entry-or-return
# step: a kprobe/kretprobe pair in tracetop's group, and the Latency
# pane's row of the timed process with its calls and a p50 in
# milliseconds. q removes the pair.
# vm-copy: tmux
. "$(dirname "$0")/lib.sh"
need_config CONFIG_KPROBE_EVENTS
need_tracefs kprobe_events
need_tmux
[ -x "$WORKLOADS/timed" ] || tap_skip_all "the timed workload was not built"
FUNC=hrtimer_nanosleep
grep -q " [tT] $FUNC\$" /proc/kallsyms || tap_skip_all "no $FUNC in this kernel's symbols"

# ours: how many of tracetop's probes kprobe_events holds.
ours() {
	grep -cE '^[pr][0-9]*:tracetop_' "$TRACEFS/kprobe_events"
}

# (about 2 ms a call on two threads: long enough for a slow emulated guest
# to reach the keypress; q ends it)
tui_start kf 140 40 -d 0.5 -- "$WORKLOADS/timed" 100000
tmux_wait_text kf 15 'Top'
ok $? "the screen starts on Top" || diag "screen: $(tmux_capture kf 2>&1)" "tmux: $(_tt_tmux ls 2>&1)"
tmux_keys kf Tab Tab Tab a
tmux_wait_text kf 5 'Insert a probe'
ok $? "a in the Probes pane: the insert dialogue"
# (its first item, selected when it opens)
tmux_wait_text kf 5 'A kernel function\.\.\.'
ok $? "it offers a kernel function (this kernel has kprobes)" || diag "screen: $(tmux_capture kf 2>&1)"
tmux_keys kf Enter
# the picker of every kernel function (tens of thousands: slow to fill
# under emulation), then the name typed
tmux_wait_text kf 30 ' [0-9]+ of [0-9]+ '
ok $? "the picker lists the kernel's functions"
tmux_keys kf -l "$FUNC"
tmux_wait_text kf 15 "[x│] +$FUNC +[x│]"
tmux_keys kf Enter
tmux_wait_text kf 15 "Time $FUNC: entry and return"
ok $? "the dialogue offers to time $FUNC" || diag "screen: $(tmux_capture kf 2>&1)"
tmux_keys kf t
tmux_wait_text kf 30 " timed +function +$FUNC +[0-9]+ .* [0-9.]+ms "
ok $? "t: the Latency pane times it for the timed process (2 ms sleeps)" ||
	diag "screen: $(tmux_capture kf 2>&1)"
is "$(ours)" 2 "a kprobe and a kretprobe in tracetop's group"
tmux_keys kf q
tmux_wait_text kf 10 '^exit=0'
ok $? "q quits with status 0"
tmux_kill
is "$(ours)" 0 "the pair is removed at exit"

done_testing
