#!/bin/bash
# The Trace pane, driven for real in tmux: the stream of -T events with
# fields decoded (an exec of a uniquely named program shows its filename),
# the checklist of the catalog (Space turns a tracepoint on and off), the
# summary per event, pause, Delete, the Enter menu's "show only", the
# filter, each summary row's own --filter (none once off), and the
# tracefs state unchanged after the run.
. "$(dirname "$0")/lib.sh"
EXECME="$WORKLOADS/tt-execme-7f3a"
need_built "$TRACETOP" "$EXECME"
need_tmux
need_root_perf
TRACEFS=/sys/kernel/tracing
[ -r "$TRACEFS/available_events" ] || tap_skip_all "tracefs is not mounted at $TRACEFS"

# tracefs_state: the global tracing state a run must leave as it was.
tracefs_state() {
	cat "$TRACEFS/set_event" "$TRACEFS/tracing_on" "$TRACEFS/current_tracer"
	ls "$TRACEFS/instances"
}

before=$(tracefs_state)
tui_start tr 140 40 -d 0.5 -T sched:sched_process_exec --view trace
tmux_wait_text tr 5 '1 tracepoint on'
ok $? "--view trace starts on the Trace pane, -T's tracepoint on"
# exec until one shows (a loaded machine may be slow to draw it)
for _ in 1 2 3 4 5; do
	"$EXECME" 2
	tmux_wait_text tr 3 'sched:sched_process_exec +filename=[^ ]*tt-execme-7f3a' && break
done
tmux_wait_text tr 1 'sched:sched_process_exec +filename=[^ ]*tt-execme-7f3a'
ok $? "an exec shows up with its filename decoded" || diag "$(tmux_capture tr | head -12)"
tmux_wait_text tr 3 'tt-execme-7f3a-[0-9]+ +sched:sched_process_exec'
ok $? "with the command and pid of the task"

# ---------------------------------------------------------------- checklist
tmux_keys tr a
tmux_wait_text tr 3 'Tracepoints \(Space'
ok $? "a opens the checklist of tracepoints"
tmux_keys tr -l 'sched_process_fork'
tmux_wait_text tr 3 '\[ \] sched:sched_process_fork'
ok $? "typing narrows it; the tracepoint is off"
tmux_keys tr Space
tmux_wait_text tr 3 '\[x\] sched:sched_process_fork'
ok $? "Space turns it on (checked)"
tmux_wait_text tr 3 'tracing sched:sched_process_fork'
ok $? "the status line says so"
tmux_keys tr Escape
tmux_wait_text tr 3 '2 tracepoints on'
ok $? "two tracepoints on"
sh -c 'true & wait'
tmux_wait_text tr 5 'sched:sched_process_fork +comm='
ok $? "fork events stream in"

# ---------------------------------------------------------------- function tracer
tmux_keys tr f
tmux_wait_text tr 3 'Kernel functions to follow'
ok $? "f asks for kernel functions to follow"
tmux_keys tr -l 'do_sys_openat2'
tmux_keys tr Enter
# (a kernel that allows function tracing lets root read the functions)
if head -c 1 "$TRACEFS/available_filter_functions" >/dev/null 2>&1; then
	tmux_wait_text tr 3 'following do_sys_openat2'
	ok $? "the function tracer follows it"
	tmux_keys tr f
else
	tmux_wait_text tr 3 'refused function tracing.*EPERM|function tracer'
	ok $? "this kernel refuses function tracing: the status line says so, tracetop goes on"
fi

# ---------------------------------------------------------------- summary
tmux_keys tr v
tmux_wait_text tr 3 'Event +.*Total +Per second'
ok $? "v shows the summary"
tmux_wait_text tr 3 '^sched:sched_process_exec +[0-9]+ '
ok $? "with the exec count"
tmux_keys tr v
tmux_wait_text tr 3 'Command-PID'
ok $? "v again: the stream"

# ---------------------------------------------------------------- pause
tmux_keys tr p
tmux_wait_text tr 3 'PAUSED'
ok $? "p pauses"
# events_seen: the title line's count of events.
events_seen() {
	tmux_capture tr | sed -nE 's/.* events: ([0-9]+) .*/\1/p' | head -n 1
}
rows1=$(tmux_capture tr | grep -c 'sched:sched_process_')
seen1=$(events_seen)
"$EXECME" 3
wait_for 5 eval '[ "$(events_seen)" -ge $((${seen1:-0} + 3)) ]'
ok $? "paused: the execs are still counted ($seen1, then $(events_seen))"
rows2=$(tmux_capture tr | grep -c 'sched:sched_process_')
is "$rows2" "$rows1" "paused: the list holds still"
tmux_keys tr p
tmux_wait_text tr 3 'stream resumed'
ok $? "p again resumes"

# ---------------------------------------------------------------- filter, menu
tmux_keys tr F4
tmux_keys tr -l 'execme'
tmux_keys tr Enter
wait_for 3 eval '[ "$(tmux_capture tr | grep -E "sched:sched_process_" | grep -vc execme)" = 0 ]'
ok $? "the filter keeps the execme rows only"
like "$(tmux_capture tr)" 'tt-execme-7f3a-[0-9]+ +sched:sched_process_exec' "... and shows them"
tmux_keys tr Escape
tmux_keys tr Enter
tmux_wait_text tr 3 'Show only sched:sched_process_'
ok $? "Enter opens the row menu"
tmux_keys tr Escape

# ---------------------------------------------------------------- Delete
tmux_keys tr v
tmux_wait_text tr 3 '^sched:sched_process_fork'
# The rows are sorted by count, and both counts grow, so the top row may
# change between a capture and the key: the status line names the row that
# was selected, and that row is the one shown off.
tmux_keys tr Home
tmux_keys tr DC
tmux_wait_text tr 5 'stopped tracing sched:sched_process_(exec|fork)'
ok $? "Delete stops tracing the selected event" || diag "$(tmux_capture tr | head -8)"
sel=$(tmux_capture tr | grep -oE 'stopped tracing sched:sched_process_(exec|fork)' | awk '{print $3}')
tmux_wait_text tr 3 "^$sel \\(off\\)"
ok $? "its row says it is off ($sel)" || diag "$(tmux_capture tr | head -8)"
tmux_wait_text tr 3 '1 tracepoint on'
ok $? "one tracepoint left on"

tmux_keys tr q
wait_for 5 tmux_exited tr >/dev/null
tmux_wait_text tr 3 'exit=0'
ok $? "q exits 0"
tmux_kill

# ---------------------------------------------------------------- summary filters
# Each summary row shows its own tracepoint's --filter: none for one that is
# off, not the filter of whichever tracepoint happens to be last.
tui_start tf 160 30 -d 0.5 -T sched:sched_process_exec \
	-T sched:sched_process_fork --filter 'child_pid == 1' --view trace
tmux_wait_text tf 5 '2 tracepoints on'
ok $? "two tracepoints on, the last one filtered"
tmux_keys tf v
tmux_wait_text tf 3 '^sched:sched_process_fork +[0-9].*child_pid == 1'
ok $? "the summary shows the fork tracepoint's filter" || diag "$(tmux_capture tf | head -8)"
tmux_wait_text tf 3 '^sched:sched_process_exec +[0-9]'
lacks_text tf '^sched:sched_process_exec .*child_pid'
ok $? "... and none for the exec tracepoint"
tmux_keys tf F4
tmux_keys tf -l 'process_exec'
tmux_keys tf Enter
tmux_keys tf DC
tmux_wait_text tf 3 'stopped tracing sched:sched_process_exec'
ok $? "Delete on the exec row stops it"
tmux_keys tf Escape
tmux_wait_text tf 3 '^sched:sched_process_exec \(off\)'
ok $? "its summary row says it is off" || diag "$(tmux_capture tf | head -8)"
lacks_text tf '^sched:sched_process_exec .*child_pid'
ok $? "... and shows no filter (not the fork tracepoint's)" || diag "$(tmux_capture tf | head -8)"
tmux_wait_text tf 3 '^sched:sched_process_fork +[0-9].*child_pid == 1'
ok $? "the fork row keeps its filter"
tmux_keys tf q
wait_for 5 tmux_exited tf >/dev/null
tmux_kill
is "$(tracefs_state)" "$before" "set_event, tracing_on, current_tracer and instances as before"

done_testing
