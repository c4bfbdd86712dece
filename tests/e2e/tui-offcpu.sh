#!/bin/bash
# The Latency pane with the scheduler kinds, in tmux at 140x50, under both
# engines: --view latency --latency-kinds offcpu,oncpu,runq on a command
# blocking 300 ms at a time in read() on a pipe shows offcpu rows (its
# reader thread, wait reason sleep) and runq rows; the notices under the
# title say how each kind is measured: with BPF, run-queue and off-CPU in
# the kernel and on-CPU paired from ring records; with --engine perf, all
# three paired from the rings and why (not in the kernel: --engine perf);
# both with the rings' record rate. + on the reader's row opens its
# stacks as a tree under it, from __libc_start_call_main through main
# and blocked_reader down into the kernel's pipe read, each line its
# share and time; Enter on a tree line closes it, again opens it; - on
# the row closes the tree; Enter on the row shows its histogram and the
# thread's blocked time in all (and, with oncpu, its wall clock); p
# merges the threads' rows into one per wait reason whose tree holds both
# the reader's and the writers' stacks; q quits cleanly.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/waiters"
need_tmux
need_root_perf
tp=/sys/kernel/tracing
[ -d $tp/events ] || tp=/sys/kernel/debug/tracing
[ -d $tp/events/sched/sched_switch ] ||
	tap_skip_all "no sched tracepoints (tracefs not mounted or kernel without them)"

# first_offcpu_repeats SESSION: the first offcpu row has blocked more than
# once (the reader's: one block after another)
first_offcpu_repeats() {
	local n
	n=$(tmux_capture "$1" | sed -nE 's/^ *[0-9]+ +waiters +offcpu +[a-z]+ tid [0-9]+ +([0-9]+) .*/\1/p' | head -n 1)
	[ "${n:-0}" -gt 1 ]
}

engines=perf
if "$TRACETOP" -b --engine bpf --view latency --latency-kinds offcpu -d 0.2 -n 1 >/dev/null \
	2>"$TT_TMP/bpf.err"; then
	engines="bpf perf"
else
	skip "BPF cannot run here: $(head -c 200 "$TT_TMP/bpf.err")" "the Latency pane with BPF"
fi
for e in $engines; do
	s=off$e
	tui_start $s 140 50 --engine $e --view latency --latency-kinds offcpu,oncpu,runq -d 0.5 -- \
		"$WORKLOADS/waiters" pipe 300 60
	tmux_wait_text $s 5 'PID +COMM +KIND +NAME +COUNT'
	ok $? "$e: --view latency --latency-kinds offcpu,oncpu,runq: the Latency pane"
	tmux_wait_text $s 8 ' waiters +offcpu +sleep tid [0-9]+ +[0-9]+ '
	ok $? "$e: an offcpu row of the waiters' threads, wait reason sleep"
	tmux_wait_text $s 5 ' waiters +runq +waiters +[0-9]+ '
	ok $? "$e: a runq row of the waiters process"
	tmux_wait_text $s 3 '^[0-9]+ rows \(.*unpaired; Enter: histogram, \+: off-CPU stacks'
	ok $? "$e: the title: rows, events, lost, unpaired and the keys"
	if [ $e = bpf ]; then
		wait_for 3 latency_notice_has $s '^run-queue and off-CPU times in the kernel \(BPF on BTF tracepoints: no record copied per event'
		ok $? "bpf: the notice: run-queue and off-CPU measured in the kernel"
		wait_for 3 latency_notice_has $s '; on-CPU times paired in user space: a ring record per context switch; [0-9]+ ring records/s'
		ok $? "bpf: ... on-CPU paired from ring records, what it costs, at what rate"
	else
		wait_for 3 latency_notice_has $s '^run-queue, off-CPU and on-CPU times paired in user space: a ring record per context switch with both call chains'
		ok $? "perf: the notice: all three paired from ring records, what a record holds"
		wait_for 3 latency_notice_has $s '\(not in the kernel: --engine perf\); [0-9]+ ring records/s'
		ok $? "perf: ... why not in the kernel, and the rings' rate"
	fi
	latency_notice_has $s 'paired here|sched/block: a ring record per switch'
	is $? 1 "$e: no claim of its own about where the times are paired"
	# the reader's row: the filter keeps the offcpu rows; the reader's,
	# 300 ms a block and one block after another, has the most in all
	tmux_keys $s F4
	tmux_keys $s -l offcpu
	tmux_keys $s Enter
	wait_for 3 lacks_text $s ' runq '
	ok $? "$e: the filter keeps the offcpu rows"
	# the reader's row on top first: early on every thread has blocked once
	# and rows of equal time may come in any order (CI once opened another
	# thread's tree)
	wait_for 5 first_offcpu_repeats $s
	tmux_keys $s Home +
	# (the outermost caller is libc's __libc_start_call_main, a local
	# symbol that only libc6-dbg names: without it, libc's address)
	tmux_wait_text $s 5 '^ +(`-|└─) 100\.00% [0-9.]+m?s (__libc_start_call_main|\[unknown\] 0x[0-9a-f]+)$'
	ok $? "$e: + on the reader's row: its stacks as a tree, the outermost caller first"
	# (nine in ten stacks or more: under load, a block taken before the
	# frameless read()'s caller is judged can miss blocked_reader)
	tmux_wait_text $s 3 '^ +(`-|└─|\|-|├─) (9[0-9]\.[0-9]{2}|100\.00)% [0-9.]+m?s blocked_reader$'
	ok $? "$e: through blocked_reader" || diag "$(tmux_capture $s)"
	tmux_wait_text $s 3 '^ +(`-|└─|\|-|├─) (9[0-9]\.[0-9]{2}|100\.00)% [0-9.]+m?s [a-z_]*pipe_read$'
	ok $? "$e: down into the kernel's pipe read" || diag "$(tmux_capture $s)"
	tmux_keys $s Down Enter
	wait_for 3 lacks_text $s ' blocked_reader$'
	ok $? "$e: Enter on a tree line closes it"
	tmux_keys $s Enter
	tmux_wait_text $s 3 ' blocked_reader$'
	ok $? "$e: Enter again opens it" || diag "$(tmux_capture $s)"
	tmux_keys $s Home -
	wait_for 3 lacks_text $s ' blocked_reader$'
	ok $? "$e: - on the row closes its tree"
	tmux_keys $s Enter
	tmux_wait_text $s 3 '^@offcpu\[sleep tid [0-9]+, waiters [0-9]+\]: [0-9]+ blocks, [0-9.]+m?s blocked'
	ok $? "$e: Enter on the row: its histogram's title, blocks and blocked time"
	tmux_wait_text $s 3 '^thread [0-9]+: blocked [0-9.]+m?s in all \(sleep [0-9.]+m?s'
	ok $? "$e: the thread's blocked time in all, by wait reason"
	tmux_wait_text $s 3 ', on-CPU [0-9.]+[mun]?s of [0-9.]+m?s on \+ blocked \([0-9.]+%'
	ok $? "$e: and its wall clock (oncpu): its on-CPU share"
	tmux_wait_text $s 3 '^\[256M, 512M\) +[0-9]+ \|@+ *\|'
	ok $? "$e: its histogram: the 300 ms blocks in [256M, 512M)"
	tmux_keys $s Enter
	wait_for 3 lacks_text $s '^@offcpu\['
	ok $? "$e: Enter again hides it"
	tmux_keys $s p
	tmux_wait_text $s 5 '^ +all +\(all\) +offcpu +sleep +[0-9]+ '
	ok $? "$e: p: one sleep row over every thread"
	tmux_wait_text $s 3 '^[0-9]+ rows \(.*, merged over processes\)'
	ok $? "$e: the title says the rows are merged"
	tmux_keys $s Home +
	tmux_wait_text $s 5 ' blocked_reader$'
	ok $? "$e: its tree holds the reader's stack"
	tmux_wait_text $s 3 ' clock_nanosleep$'
	ok $? "$e: and the writers' (a sleep before they write)"
	tmux_keys $s p
	tmux_wait_text $s 5 ' waiters +offcpu +sleep tid [0-9]+ '
	ok $? "$e: p again: a row per thread"
	tmux_keys $s q
	tmux_wait_text $s 5 '^exit=0'
	ok $? "$e: q quits with status 0"
	tmux_kill
done

done_testing
