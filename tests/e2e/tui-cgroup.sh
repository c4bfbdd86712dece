#!/bin/bash
# The Cgroup column and the zoom into a cgroup, driven for real in tmux: a
# workload in a fresh cgroup v2 group named like a docker container's,
# tracetop system-wide (so rows come from several cgroups): the column
# shows the container's id, Enter's menu zooms into its cgroup, c shows
# and hides the column (kept at 80 columns once shown), Esc leaves, the
# Counters pane's process scope has the column too, --sort cgroup,overhead
# shows it sorted (--sort cgroup,comm,... by the share, as perf). Skips when this machine has no writable cgroup v2 tree.
. "$(dirname "$0")/lib.sh"
need_built
need_tmux
need_root_perf

ID=4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b
ID12=${ID:0:12}
need_cgroup_v2 "tt-test-$$/docker-$ID.scope"

sh -c "echo \$\$ >'$CG_DIR/cgroup.procs' && exec '$WORKLOADS/split' 120" >/dev/null 2>&1 &
pid=$!
bg_pid "$pid"
wait_for 5 grep -qx split "/proc/$pid/comm"
ok $? "workload started in the group"

# only_split NAME: every row on screen is the workload's.
only_split() {
	local rows
	rows=$(tmux_capture "$1" | sed -n '5,$p' | grep -E '\[(\.|k)\] ')
	[ -n "$rows" ] && ! printf '%s\n' "$rows" | grep -vqE " split +$pid "
}

# one row per process: by default the split processes of parallel tests,
# in other cgroups, would share the workload's rows
tui_start cg 150 30 -d 0.5 -s overhead,pid,sym
tmux_wait_text cg 5 "split +$pid +$ID12 +split +\\[\\.\\] split_alpha"
ok $? "the workload's rows show its container id" || diag "$(tmux_capture cg)"
titles_are cg 'PID +Cgroup +Shared Object'
ok $? "a Cgroup column, by itself with several cgroups, after PID"

# select the workload's hottest row, zoom into its cgroup from Enter's menu
# (filtered by its container's id first: a parallel test's split has
# split_alpha rows too, in another cgroup)
tmux_keys cg F4
tmux_keys cg -l "$ID12"
tmux_keys cg Enter
wait_for 3 only_split cg
tmux_keys cg / s p l i t _ a l p h a
tmux_wait_text cg 3 'Search: split_alpha'
tmux_keys cg Enter
wait_for 3 selected_is cg split_alpha
ok $? "search selects the workload's row"
# Esc clears the filter; the selection stays on the row
tmux_keys cg Escape
wait_for 5 eval '! only_split cg'
tmux_keys cg Enter
tmux_wait_text cg 3 'Zoom into cgroup'
ok $? "Enter's menu offers the cgroup"
menu_walk cg "Zoom into cgroup $ID12" 8
ok $? "the menu item names the container"
tmux_keys cg Enter
tmux_wait_text cg 3 "Zoom: cgroup $ID12"
ok $? "the header says what is zoomed"
wait_for 3 only_split cg
ok $? "only the workload's rows are left" || diag "$(tmux_capture cg)"
wait_for 3 eval '! titles_are cg Cgroup'
ok $? "one cgroup left: the column goes by itself"

# c shows it again and keeps it; Esc leaves the zoom
tmux_keys cg c
wait_for 3 titles_are cg 'PID +Cgroup +Shared Object'
ok $? "c shows the Cgroup column"
tmux_keys cg Escape
wait_for 3 eval '! _tmux_has_text cg "Zoom:"'
ok $? "Esc leaves the zoom"
wait_for 5 eval '! only_split cg'
ok $? "the other cgroups' rows are back"
_tt_tmux resize-window -t cg -x 80 -y 24
wait_for 3 titles_are cg 'PID +Cgroup +Symbol$'
ok $? "at 80 columns the shown Cgroup column stays, and PID (a key of -s pid): Command and Shared Object give way" ||
	diag "$(titles_line cg)"
w=$(max_width cg)
[ "$w" -le 80 ]
ok $? "no line wider than 80 ($w)"
tmux_keys cg c
wait_for 3 eval '! titles_are cg Cgroup && titles_are cg "PID .*Shared Object +Symbol$"'
ok $? "c again hides it (the room goes to the other columns)" || diag "$(titles_line cg)"

# the Counters pane: the process scope lists the workload with its cgroup
_tt_tmux resize-window -t cg -x 150 -y 30
tmux_keys cg Tab
tmux_wait_text cg 5 'Scope: total'
ok $? "Tab shows the Counters pane"
# (the titles line: under the header's meters)
tmux_capture cg | grep -q 'Scope.*Event' && ! tmux_capture cg | grep 'Scope.*Event' | grep -q Cgroup
ok $? "no Cgroup column in the total scope" || diag "$(tmux_capture cg | grep 'Scope.*Event')"
tmux_keys cg s
tmux_wait_text cg 3 'Scope: cpu'
tmux_keys cg s
tmux_wait_text cg 3 'Scope: process'
ok $? "s twice: the process scope"
# the filter matches the cgroup's name too
tmux_keys cg '\' "$ID12" Enter
tmux_wait_text cg 8 "^ *$pid +$ID12 +[0-9.]+ ms/s .* split *$"
ok $? "the workload's counters show its container id" || diag "$(tmux_capture cg)"
tmux_keys cg q
tmux_wait_text cg 3 'exit=0'
ok $? "q exits with status 0"

# --sort cgroup,overhead,...: the column shown and sorted by (a key before
# the share sorts, as in perf's --sort)
tui_start srt 150 30 -d 0.5 --sort cgroup,overhead,comm,dso,sym
tmux_wait_text srt 5 "Cgroup"
tmux_keys srt '\' s p l i t _ a l p h a Enter
tmux_wait_text srt 5 "$ID12 +split +\\[\\.\\] split_alpha"
ok $? "--sort cgroup shows the workload's container id"
titles_are srt 'Cgroup *(▲|\^)'
ok $? "--sort cgroup,overhead sorts by the Cgroup column" || diag "$(titles_line srt)"
tmux_keys srt q
tmux_wait_text srt 3 'exit=0'
tmux_kill
# --sort cgroup,comm,dso,sym: the keys group, the share orders
tui_start srt2 150 30 -d 0.5 --sort cgroup,comm,dso,sym
tmux_wait_text srt2 5 "Cgroup"
titles_are srt2 '(▼|v)Overhead'
ok $? "--sort cgroup,comm,dso,sym sorts by Overhead" || diag "$(titles_line srt2)"
tmux_keys srt2 q
tmux_wait_text srt2 3 'exit=0'
done_testing
