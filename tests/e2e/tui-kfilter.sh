#!/bin/bash
# The kernel filter of a Trace pane event, edited on the screen (F), at
# 80x24 and at 200x50: the prompt holds the filter the event has; a filter
# the kernel takes stops the events outside it at the source; one it
# refuses shows the kernel's own words (first on the status line, so 80
# columns show them), keeps the filter it had and the screen running; an
# empty one clears it; nothing is left in tracefs after the run.
. "$(dirname "$0")/lib.sh"
EXECME="$WORKLOADS/tt-execme-7f3a"
need_built "$TRACETOP" "$EXECME"
need_tmux
need_root_perf
TRACEFS=/sys/kernel/tracing
[ -r "$TRACEFS/available_events" ] || tap_skip_all "tracefs is not mounted at $TRACEFS"

# Programs named for this test only: one exec'ed before the filter, one
# while it is on, one after it is cleared (for each screen size; short
# names: at 80 columns a long path is cut in the Fields column).
for n in a b c; do
	for c in 80 200; do
		cp /bin/true "$TT_TMP/kf-$n$c" || bail_out "cannot copy /bin/true"
	done
done
filter_file="$TRACEFS/events/sched/sched_process_exec/filter"
filter_before=$(cat "$filter_file")

# kfilter COLS ROWS: the whole story on a COLS x ROWS screen.
kfilter() {
	local cols=$1 rows=$2
	tui_start kf "$cols" "$rows" -d 0.5 -T sched:sched_process_exec --view trace
	tmux_wait_text kf 10 '1 tracepoint on'
	ok $? "$cols x $rows: the Trace pane with sched_process_exec on"
	# the screen's own filter (F4) keeps this test's programs in view: the
	# machine's other execs would push them off the screen
	tmux_keys kf F4
	tmux_keys kf -l 'tt-'
	tmux_keys kf Enter
	for _ in 1 2 3 4 5; do
		"$TT_TMP/kf-a$cols"
		tmux_wait_text kf 2 "kf-a$cols-[0-9]+ +sched:sched_process_exec" && break
	done
	tmux_wait_text kf 1 "kf-a$cols-[0-9]+ +sched:sched_process_exec"
	ok $? "$cols x $rows: without a filter every exec arrives" || diag "$(tmux_capture kf)"

	# ---------------------------------------------------------------- set
	tmux_keys kf F
	tmux_wait_text kf 3 'Kernel filter of sched:sched_process_exec \(empty clears\): *$'
	ok $? "$cols x $rows: F asks for the selected event's kernel filter (none yet)" || diag "$(tmux_capture kf)"
	tmux_keys kf -l 'filename ~ "*tt-execme*"'
	tmux_keys kf Enter
	tmux_wait_text kf 3 'sched:sched_process_exec filtered in the kernel: filename ~ "\*tt-execme\*"'
	ok $? "$cols x $rows: the kernel takes it"
	# The other program first, then the one the filter lets through: once the
	# second shows, the first would have shown too had it passed.
	for _ in 1 2 3 4 5; do
		"$TT_TMP/kf-b$cols"
		"$EXECME" 1
		tmux_wait_text kf 3 'tt-execme-7f3a-[0-9]+ +sched:sched_process_exec' && break
	done
	tmux_wait_text kf 1 'tt-execme-7f3a-[0-9]+ +sched:sched_process_exec'
	ok $? "$cols x $rows: an exec the filter keeps arrives" || diag "$(tmux_capture kf)"
	lacks_text kf "kf-b$cols"
	ok $? "$cols x $rows: an exec outside the filter does not" || diag "$(tmux_capture kf)"

	# ---------------------------------------------------------------- refused
	tmux_keys kf F
	# (at 80 columns the prompt's text scrolls to show the cursor)
	tmux_wait_text kf 3 'Kernel filter of sched:sched_process_exec \(empty clears\): .*~ "\*tt-execme\*" *$'
	ok $? "$cols x $rows: F again: the prompt holds the filter set" || diag "$(tmux_capture kf)"
	tmux_keys kf C-u
	tmux_keys kf -l 'no_such_field == 1'
	tmux_keys kf Enter
	tmux_wait_text kf 3 "^filter refused by the kernel: [Ff]ield not found \\(at column [0-9]+\\), in 'no_such_field"
	ok $? "$cols x $rows: a refused filter shows the kernel's words first" || diag "$(tmux_capture kf)"
	[ "$(max_width kf)" -le "$cols" ]
	ok $? "$cols x $rows: nothing wider than the screen"
	tmux_wait_text kf 3 '1 tracepoint on'
	ok $? "$cols x $rows: the screen goes on, the tracepoint still on"
	tmux_keys kf v
	tmux_wait_text kf 3 'sched:sched_process_exec .* filename ~ "\*tt-execme\*"'
	ok $? "$cols x $rows: the summary shows the filter it had, kept" || diag "$(tmux_capture kf)"
	tmux_keys kf v

	# ---------------------------------------------------------------- cleared
	tmux_keys kf F C-u Enter
	tmux_wait_text kf 3 'sched:sched_process_exec: no kernel filter'
	ok $? "$cols x $rows: an empty filter clears it"
	for _ in 1 2 3 4 5; do
		"$TT_TMP/kf-c$cols"
		tmux_wait_text kf 2 "kf-c$cols-[0-9]+ +sched:sched_process_exec" && break
	done
	tmux_wait_text kf 1 "kf-c$cols-[0-9]+ +sched:sched_process_exec"
	ok $? "$cols x $rows: every exec arrives again" || diag "$(tmux_capture kf)"

	# ---------------------------------------------------------------- exit
	tmux_keys kf q
	tmux_wait_text kf 10 '^exit=0'
	ok $? "$cols x $rows: q quits cleanly"
	is "$(cat "$filter_file")" "$filter_before" "$cols x $rows: the tracefs filter file is as it was"
	tmux_kill
}

kfilter 80 24
kfilter 200 50
done_testing
