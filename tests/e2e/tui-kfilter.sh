#!/bin/bash
# The kernel filter of a Trace pane event, edited on the screen (F): the
# prompt holds the filter the event has; a filter the kernel takes stops
# the events outside it at the source; one it refuses shows the kernel's
# own words, keeps the filter it had and the screen running; an empty one
# clears it; nothing is left in tracefs after the run.
. "$(dirname "$0")/lib.sh"
EXECME="$WORKLOADS/tt-execme-7f3a"
need_built "$TRACETOP" "$EXECME"
need_tmux
need_root_perf
TRACEFS=/sys/kernel/tracing
[ -r "$TRACEFS/available_events" ] || tap_skip_all "tracefs is not mounted at $TRACEFS"

# Programs named for this test only: one exec'ed before the filter, one
# while it is on, one after it is cleared.
for n in a b c; do
	cp /bin/true "$TT_TMP/tt-kf-other-$n" || bail_out "cannot copy /bin/true"
done
filter_file="$TRACEFS/events/sched/sched_process_exec/filter"
filter_before=$(cat "$filter_file")

tui_start kf 150 40 -d 0.5 -T sched:sched_process_exec --view trace
tmux_wait_text kf 10 '1 tracepoint on'
ok $? "the Trace pane with sched_process_exec on"
# the screen's own filter (F4) keeps this test's programs in view: the
# machine's other execs would push them off the screen
tmux_keys kf F4
tmux_keys kf -l 'tt-'
tmux_keys kf Enter
for _ in 1 2 3 4 5; do
	"$TT_TMP/tt-kf-other-a"
	tmux_wait_text kf 2 'filename=[^ ]*tt-kf-other-a' && break
done
tmux_wait_text kf 1 'filename=[^ ]*tt-kf-other-a'
ok $? "without a filter every exec arrives"

# ---------------------------------------------------------------- set
tmux_keys kf F
tmux_wait_text kf 3 'Kernel filter of sched:sched_process_exec \(empty clears\): *$'
ok $? "F asks for the selected event's kernel filter (none yet)" || diag "$(tmux_capture kf)"
tmux_keys kf -l 'filename ~ "*tt-execme*"'
tmux_keys kf Enter
tmux_wait_text kf 3 'sched:sched_process_exec filtered in the kernel: filename ~ "\*tt-execme\*"'
ok $? "the kernel takes it"
# The other program first, then the one the filter lets through: once the
# second shows, the first would have shown too had it passed.
for _ in 1 2 3 4 5; do
	"$TT_TMP/tt-kf-other-b"
	"$EXECME" 1
	tmux_wait_text kf 3 'tt-execme-7f3a-[0-9]+ +sched:sched_process_exec' && break
done
tmux_wait_text kf 1 'tt-execme-7f3a-[0-9]+ +sched:sched_process_exec'
ok $? "an exec the filter keeps arrives" || diag "$(tmux_capture kf)"
lacks_text kf 'tt-kf-other-b'
ok $? "an exec outside the filter does not" || diag "$(tmux_capture kf)"

# ---------------------------------------------------------------- refused
tmux_keys kf F
tmux_wait_text kf 3 'Kernel filter of sched:sched_process_exec \(empty clears\): filename ~ "\*tt-execme\*"'
ok $? "F again: the prompt holds the filter set"
tmux_keys kf C-u
tmux_keys kf -l 'no_such_field == 1'
tmux_keys kf Enter
tmux_wait_text kf 3 "bad filter for sched:sched_process_exec: 'no_such_field == 1': .*[Ff]ield not found"
ok $? "a refused filter shows the kernel's words" || diag "$(tmux_capture kf)"
tmux_wait_text kf 3 '1 tracepoint on'
ok $? "the screen goes on, the tracepoint still on"
tmux_keys kf v
tmux_wait_text kf 3 'sched:sched_process_exec .* filename ~ "\*tt-execme\*"'
ok $? "the summary shows the filter it had, kept" || diag "$(tmux_capture kf)"
tmux_keys kf v

# ---------------------------------------------------------------- cleared
tmux_keys kf F C-u Enter
tmux_wait_text kf 3 'sched:sched_process_exec: no kernel filter'
ok $? "an empty filter clears it"
for _ in 1 2 3 4 5; do
	"$TT_TMP/tt-kf-other-c"
	tmux_wait_text kf 2 'filename=[^ ]*tt-kf-other-c' && break
done
tmux_wait_text kf 1 'filename=[^ ]*tt-kf-other-c'
ok $? "every exec arrives again"

# ---------------------------------------------------------------- exit
tmux_keys kf q
tmux_wait_text kf 10 '^exit=0'
ok $? "q quits cleanly"
is "$(cat "$filter_file")" "$filter_before" "the tracefs filter file is as it was"
tmux_kill
done_testing
