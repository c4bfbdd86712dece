#!/bin/bash
# The Annotate pane, driven for real in tmux: from the Top pane (a, or the
# Enter menu) to the hot function's instructions with their share of the
# samples (the row's: the title names its command), the hottest selected,
# source lines of the -g build, ] and [ cycling hot lines, Enter following
# the loop's jump, S, A and P toggles, a function without debug info saying
# "disassembly only", and within a zoom into the process the title naming
# its pid.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/hotloop" "$WORKLOADS/hotloop-nodebug"
need_tmux
need_root_perf

# start_hot PROG: a hotloop build in the background; sets $pid.
start_hot() {
	HOTLOOP_PIDFILE="$TT_TMP/$1.pid" "$WORKLOADS/$1" 60 >/dev/null 2>&1 &
	bg_pid $!
	pid=$(wait_pidfile "$TT_TMP/$1.pid" 5)
}

# sel_addr NAME: the address of the selected line.
sel_addr() {
	selected_line "$1" | grep -v Percent | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9a-f]+$/ && length($i) >= 3) { print $i; exit } }'
}

# sel_moved NAME ADDR: the selection is on a line of another address.
sel_moved() {
	local a
	a=$(sel_addr "$1")
	[ -n "$a" ] && [ "$a" != "$2" ]
}

# shares_near_100 NAME: the shares on screen add up to ~100.
shares_near_100() {
	awk -v s="$(percent_of_rows "$1")" 'BEGIN { exit !(s > 90 && s <= 100.5) }'
}

# percent_of_rows NAME: the sum of the shares on screen.
percent_of_rows() {
	tmux_capture "$1" | sed -nE 's/^ *([0-9]+\.[0-9]+)% .*/\1/p' |
		awk '{ s += $1 } END { printf "%.1f\n", s }'
}

start_hot hotloop
[ -n "$pid" ]
ok $? "hotloop started"
tui_start an 140 45 -p "$pid" -d 0.5
tmux_wait_text an 5 'hot_loop_fn'
ok $? "hot_loop_fn in the Top pane"
tmux_keys an F4
tmux_keys an -l 'hot_loop_fn'
tmux_keys an Enter
tmux_keys an a
tmux_wait_text an 5 'hot_loop_fn +.*hotloop +[0-9]+ samples'
ok $? "a annotates the selected function"
tmux_wait_text an 3 'hot_loop_fn +.*hotloop +command hotloop +[0-9]+ samples'
ok $? "the title names whose samples: the row's command"
tmux_wait_text an 3 ' Top +Counters +Trace +Probes +System +Processes +Latency +Annotate'
ok $? "in the Annotate pane"
tmux_wait_text an 3 'hotloop\.c:[0-9]+ '
ok $? "source lines of the -g build are interleaved"
tmux_wait_text an 3 ' j[a-z]+ 0x[0-9a-f]+ +<hot_loop_fn\+0x[0-9a-f]+>'
ok $? "the loop's jump names its target in the function"
wait_for 5 shares_near_100 an
ok $? "the shares shown add up to ~100 ($(percent_of_rows an))"

# the hottest line is selected: ] moves to the next one, [ back
hot1=$(sel_addr an)
tmux_keys an ']'
wait_for 3 sel_moved an "$hot1"
hot2=$(sel_addr an)
[ -n "$hot1" ] && [ -n "$hot2" ] && [ "$hot1" != "$hot2" ]
ok $? "] moves from the hottest line ($hot1) to the next hot one ($hot2)"
tmux_keys an '['

# toggles
tmux_keys an S
wait_for 3 lacks_text an 'hotloop\.c:[0-9]+ '
ok $? "S hides the source lines"
tmux_keys an S
tmux_keys an P
tmux_wait_text an 3 'Samples'
ok $? "P shows sample counts"
tmux_keys an P
tmux_keys an A
tmux_wait_text an 3 'Percent +Instruction'
ok $? "A hides the addresses"
tmux_keys an A

# follow the loop's jump with Enter: the selection moves to its target
tmux_keys an F3
tmux_keys an -l 'j'
tmux_keys an Enter
wait_for 3 selected_is an ' j[a-z]+ 0x[0-9a-f]+ '
ok $? "F3 finds a jump"
target=$(selected_line an | sed -nE 's/.* j[a-z]+ 0x([0-9a-f]+) .*/\1/p' | head -n 1)
tmux_keys an Enter
wait_for 3 eval '[ "$(sel_addr an)" = "$target" ]'
ok $? "Enter follows the jump to its target (${target:-none}, now $(sel_addr an))"
tmux_keys an BSpace
tmux_wait_text an 3 'no call followed'
ok $? "Backspace without a followed call says so"

# help lists the pane's keys
# (paged through: the help is longer than the screen, other panes' keys
# come after it)
tmux_keys an F1
found=1
for i in 1 2 3 4 5 6 7 8; do
	tmux_wait_text an 1 '^Annotate pane' && { found=0 && break; }
	tmux_keys an NPage
done
ok $found "help lists the Annotate pane's keys"
tmux_keys an q
tmux_keys an q
wait_for 5 tmux_exited an >/dev/null
tmux_wait_text an 3 'exit=0'
ok $? "q exits 0"
tmux_kill
kill "$pid" 2>/dev/null

# ---------------------------------------------------------------- no debug info
start_hot hotloop-nodebug
tui_start nd 140 40 -p "$pid" -d 0.5
tmux_wait_text nd 5 'hot_loop_fn'
tmux_keys nd F4
tmux_keys nd -l 'hot_loop_fn'
tmux_keys nd Enter
tmux_keys nd a
tmux_wait_text nd 5 'disassembly only'
ok $? "without debug info: the header says disassembly only"
! _tmux_has_text nd 'hotloop\.c:[0-9]+'
ok $? "and no source lines"
# within a zoom into the process the annotation is that process's
tmux_keys nd Tab Tab
tmux_wait_text nd 3 'Shared Object'
tmux_keys nd Enter
tmux_wait_text nd 3 'Zoom into process'
menu_walk nd 'Zoom into process' 3
tmux_keys nd Enter
tmux_wait_text nd 3 "Zoom: pid $pid"
tmux_keys nd a
tmux_wait_text nd 5 "hot_loop_fn +.*command hotloop-nodebug, pid $pid +[0-9]+ samples"
ok $? "zoomed into the process, the title names its pid: the samples are its own" ||
	diag "$(tmux_capture nd | head -n 12)"
tmux_keys nd q
wait_for 5 tmux_exited nd >/dev/null
tmux_kill

done_testing
