#!/bin/bash
# The Latency pane with the scheduler kinds, in tmux at 140x50:
# --view latency --latency-kinds offcpu,oncpu,runq on a command blocking 300 ms
# at a time in read() on a pipe shows offcpu rows (its reader thread,
# wait reason sleep) and runq rows, the title says they are paired in
# user space; Enter on the reader's row shows its stacks as a tree, from
# main through blocked_reader down into the kernel's pipe read, weighted
# by blocked time, with its histogram and the thread's on-CPU share of
# its wall clock (oncpu); Enter hides it; q quits cleanly.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/waiters"
need_tmux
need_root_perf
tp=/sys/kernel/tracing
[ -d $tp/events ] || tp=/sys/kernel/debug/tracing
[ -d $tp/events/sched/sched_switch ] ||
	tap_skip_all "no sched tracepoints (tracefs not mounted or kernel without them)"

tui_start off 140 50 --view latency --latency-kinds offcpu,oncpu,runq -d 0.5 -- \
	"$WORKLOADS/waiters" pipe 300 60
tmux_wait_text off 5 'PID +COMM +KIND +NAME +COUNT'
ok $? "--view latency --latency-kinds offcpu,oncpu,runq: the Latency pane"
tmux_wait_text off 8 ' waiters +offcpu +sleep tid [0-9]+ +[0-9]+ '
ok $? "an offcpu row of the waiters' threads, wait reason sleep"
tmux_wait_text off 5 ' waiters +runq +waiters +[0-9]+ '
ok $? "a runq row of the waiters process"
tmux_wait_text off 3 'a ring record per switch'
ok $? "the title says how they are measured"
# the reader's row: the filter keeps the offcpu rows, the heaviest first
tmux_keys off F4
tmux_keys off -l offcpu
tmux_keys off Enter
wait_for 3 lacks_text off ' runq '
ok $? "the filter keeps the offcpu rows"
found=1
for _ in 1 2 3 4 5 6; do
	tmux_keys off Enter
	if tmux_wait_text off 3 '^ *[0-9.]+% +[0-9.]+[mun]?s +blocked_reader'; then
		found=0
		break
	fi
	tmux_keys off Enter # close it; the next row (the writer's sleep) may be the reader's
	tmux_keys off Down
done
ok $found "Enter on the reader's row: its stacks as a tree through blocked_reader"
tmux_wait_text off 3 '^@offcpu\[sleep tid [0-9]+, waiters [0-9]+\]: [0-9]+ blocks'
ok $? "the detail's title: blocks and blocked time"
tmux_wait_text off 3 'thread: on-CPU [0-9.]+[mun]?s of [0-9.]+m?s on \+ blocked \([0-9.]+%'
ok $? "and the thread's wall clock: its on-CPU share"
tmux_wait_text off 3 '^ *[0-9.]+% +[0-9.]+[mun]?s +[a-z_]*pipe_read'
ok $? "down into the kernel's pipe read"
tmux_wait_text off 3 '^\[256M, 512M\) +[0-9]+ \|@+ *\|'
ok $? "its histogram: the 300 ms blocks in [256M, 512M)"
tmux_keys off Enter
wait_for 3 lacks_text off '^@offcpu\['
ok $? "Enter again hides it"
tmux_keys off q
tmux_wait_text off 5 '^exit=0'
ok $? "q quits with status 0"
tmux_kill

done_testing
