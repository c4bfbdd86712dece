#!/bin/bash
# The Probes pane, driven for real in tmux: a uprobe inserted through the
# dialogue (a target's object, one of its functions, entry, arguments)
# counts hits live and streams in the Trace pane; Space turns it off and
# on; Delete removes it; the Top pane's "probe this function" makes a
# %return probe; kprobes are refused here with the reason; and nothing of
# tracetop's is left in tracefs after q.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split" "$WORKLOADS/probed"
need_tmux
need_root_perf
TRACEFS=/sys/kernel/tracing
[ -w "$TRACEFS/uprobe_events" ] || tap_skip_all "no uprobe_events in $TRACEFS (CONFIG_UPROBE_EVENTS)"


# our_groups: the probes of the tracetop under test ($tp) in tracefs
# (parallel tests' tracetops have groups of their own).
our_groups() {
	probes_of "$tp" "$TRACEFS/uprobe_events"
}

start_split 120
[ -n "$pid" ]
ok $? "workload started"

tui_start pr 140 40 -p "$pid" -d 0.5
tmux_wait_text pr 5 'split_alpha'
tp="$(tui_pid pr)"
tmux_keys pr Tab Tab Tab
tmux_wait_text pr 3 'group tracetop_[0-9]+: a inserts a probe'
ok $? "the Probes pane is three Tabs from Top"
tmux_wait_text pr 3 'No probes yet'
ok $? "no probes yet"

# ---------------------------------------------------------------- insert
tmux_keys pr a
tmux_wait_text pr 3 'Insert a probe'
ok $? "a opens the insert menu"
tmux_wait_text pr 3 'kernel function \(no kprobes in this kernel\)|A kernel function\.\.\.'
ok $? "the kernel entry says whether kprobes exist"
# the menu's selection starts on the first enabled item and skips disabled
# ones: the kernel entry is disabled without kprobes
if _tmux_has_text pr 'no kprobes in this kernel'; then
	tmux_keys pr Down Enter
else
	tmux_keys pr Down Down Enter
fi
tmux_wait_text pr 3 'Object'
ok $? "the target's objects are offered"
tmux_keys pr -l 'workloads/split'
tmux_keys pr Enter
tmux_wait_text pr 3 'Function of .*split'
ok $? "then the object's functions"
tmux_keys pr -l 'split_gamma'
tmux_keys pr Enter
tmux_wait_text pr 3 'At the entry of split_gamma'
ok $? "entry or return"
tmux_keys pr Enter
tmux_wait_text pr 3 'Arguments of split_gamma'
ok $? "then the arguments"
tmux_keys pr Enter
tmux_wait_text pr 3 'probe tracetop_[0-9]+:split_gamma made'
ok $? "the probe is made"
tmux_wait_text pr 3 'tracetop_[0-9]+:split_gamma +uprobe +split:split_gamma'
ok $? "its row: name, kind, target"
is "$(our_groups)" 1 "it exists in uprobe_events"
# hits: the hit count on split_gamma's row.
hits() {
	tmux_capture pr | sed -nE 's/.*:split_gamma +uprobe .* ([0-9]+) +[0-9.]+ +on *$/\1/p' | head -n 1
}
wait_for 5 eval '[ "$(hits)" -gt 0 ] 2>/dev/null'
ok $? "hits count live ($(hits))"

# ---------------------------------------------------------------- trace, toggle, delete
tmux_keys pr BTab
tmux_wait_text pr 3 'tracetop_[0-9]+:split_gamma'
ok $? "its events stream in the Trace pane"
tmux_keys pr Tab
tmux_keys pr Space
tmux_wait_text pr 3 'split_gamma +uprobe .* off *$'
ok $? "Space turns it off"
tmux_keys pr Space
tmux_wait_text pr 3 'split_gamma +uprobe .* on *$'
ok $? "Space again: on"
tmux_keys pr DC
tmux_wait_text pr 3 'removed tracetop_[0-9]+:split_gamma'
ok $? "Delete removes it"
wait_for 3 eval '[ "$(our_groups)" = 0 ]'
ok $? "gone from uprobe_events"

# ---------------------------------------------------------------- from Top
tmux_keys pr BTab BTab BTab # back past Trace and Counters to Top
tmux_wait_text pr 3 'split_alpha'
tmux_keys pr F4
tmux_keys pr -l 'split_beta'
tmux_keys pr Enter
tmux_keys pr Enter
tmux_wait_text pr 3 'Probe split_beta \(count its calls'
ok $? "Top's row menu offers to probe the function"
# walk down the menu to the probe item and choose it
menu_walk pr 'Probe split_beta' 10
ok $? "the menu's selection reaches it"
tmux_keys pr Enter
tmux_wait_text pr 3 'At the return of split_beta'
ok $? "it leads to the Probes pane's entry-or-return step"
tmux_keys pr Down Enter
tmux_wait_text pr 3 'Arguments of split_beta'
tmux_keys pr -l '$retval'
tmux_keys pr Enter
tmux_wait_text pr 3 'tracetop_[0-9]+:split_beta__re[^ ]* +uretprobe'
ok $? "a %return probe with \$retval"

tmux_keys pr q
wait_for 5 tmux_exited pr >/dev/null
tmux_wait_text pr 3 'exit=0'
ok $? "q exits 0"
tmux_kill
is "$(our_groups)" 0 "nothing of tracetop's left in uprobe_events"

# ---------------------------------------------------------------- listing
# Before the arguments, the dialogue lists what a probe there can read,
# from the debug info (like perf probe -V): probed_fn(int a, long b,
# const char *s).
# (probed waits for SIGUSR1 before its calls: it stays for the pid step)
tui_start pv 140 40 -d 0.5 -- "$WORKLOADS/probed" 1 wait
tmux_wait_text pv 5 'Top'
tp="$(tui_pid pv)"
tmux_keys pv Tab Tab Tab a
tmux_wait_text pv 3 'Insert a probe'
menu_walk pv 'A function of a binary' 6
tmux_keys pv Enter
tmux_wait_text pv 3 'Binary \(path or name\)'
tmux_keys pv -l "$WORKLOADS/probed"
tmux_keys pv Enter
tmux_wait_text pv 3 'Function of .*probed'
tmux_keys pv -l 'probed_fn'
tmux_keys pv Enter
tmux_wait_text pv 3 'a = %di:s32'
ok $? "the entry menu lists the parameters with their fetch-args (a = %di:s32)"
tmux_wait_text pv 3 's = \+0\(%dx\):string'
ok $? "a char * parameter as a string"
tmux_keys pv Escape

# Any running process's objects, by pid: here the command's own.
ppid=$(child_pid "$(tui_pid pv)" probed)
tmux_keys pv a
tmux_wait_text pv 3 'Insert a probe'
menu_walk pv 'A function of any process' 6
tmux_keys pv Enter
tmux_wait_text pv 3 'Process id:'
ok $? "a process can be chosen by its pid"
tmux_keys pv -l "${ppid:-0}"
tmux_keys pv Enter
tmux_wait_text pv 3 'Object'
tmux_wait_text pv 3 'workloads/probed'
ok $? "its objects are offered (pid ${ppid:-none})"
tmux_keys pv Escape
tmux_keys pv q
wait_for 5 tmux_exited pv >/dev/null
tmux_kill
is "$(our_groups)" 0 "nothing of tracetop's left in uprobe_events"

done_testing
