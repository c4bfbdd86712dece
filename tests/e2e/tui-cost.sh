#!/bin/bash
# The screen's own cost on the machine it measures, counted in system
# calls (never timed): a frame reaches the terminal in a few writes (ncurses
# 6.4 flushed at every cursor move until a first endwin: some 80 writes a
# frame, each a wakeup of the terminal's reader), no poll of stdin while a
# frame is written, and without a target to watch the loop wakes a few
# times a second, not five (with one, often enough to see it exit); the
# BPF engine's loop sleeps from refresh to refresh on a quiet machine.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split"
need_tmux
need_root_perf
need_tool strace strace

start_split 60
[ -n "$pid" ]
ok $? "workload started"

# counted NAME SECS OUT: strace the tracetop of session NAME for SECS
# seconds, its calls into OUT (one line each).
counted() {
	local tp
	tp=$(tui_pid "$1")
	[ -n "$tp" ] || return 1
	timeout -s INT "$2" strace -f -qq -e trace=write,poll -o "$3" -p "$tp" 2>/dev/null
	[ -s "$3" ]
}

tui_start w 120 40 -d 0.5
tmux_wait_text w 15 'split_(alpha|beta|gamma)'
ok $? "the Top pane shows the workload"
sleep 1
counted w 4 "$TT_TMP/w.txt"
ok $? "strace saw tracetop's calls"
writes=$(grep -c 'write(1,' "$TT_TMP/w.txt")
stdin_polls=$(grep -cE 'poll\(\[\{fd=0, events=POLLIN\}\], 1, 0\)' "$TT_TMP/w.txt")
diag "in 4 s at -d 0.5 (8 frames): $writes writes to the terminal, $stdin_polls polls of stdin alone"
[ "$writes" -ge 4 ] && [ "$writes" -le 40 ]
ok $? "8 frames in 4..40 writes to the terminal ($writes; some 80 a frame before)"
is "$stdin_polls" 0 "no poll of stdin for typed keys within a frame"
tmux_kill w

# wakeups NAME ARGS...: start a screen at -d 2 with ARGS, strace its loop
# for 6 s; the number of polls into $wakes.
wakeups() {
	local name=$1
	shift
	tui_start "$name" 120 40 -d 2 "$@"
	tmux_wait_text "$name" 15 'split_(alpha|beta|gamma)'
	ok $? "$name at -d 2: the Top pane shows the workload"
	sleep 1
	counted "$name" 6 "$TT_TMP/$name.txt"
	ok $? "strace saw the $name tracetop"
	wakes=$(grep -c 'poll(\[{fd=' "$TT_TMP/$name.txt")
	tmux_kill "$name"
}

wakeups target -p "$pid"
watching=$wakes
diag "loop wakeups in 6 s at -d 2 watching a pid: $watching"
[ "$watching" -ge 26 ]
ok $? "watching a pid, it wakes every 200 ms to see it exit: 26 or more in 6 s ($watching)"

# The BPF engine's rings carry only side band and wake the loop at each
# record: on a quiet machine it sleeps from refresh to refresh; under a
# storm of new processes it reads them in batches, 500 ms apart.
case " $(engines) " in
*" bpf "*)
	wakeups quiet --engine bpf
	quiet=$wakes
	# woken by a record (this machine's own processes come and go), each
	# also ends a holdoff; the rest are refreshes, the counts maps' reads
	woken=$(grep -cE 'poll\(\[\{fd=.*= [1-9]+ \(\[\{fd=' "$TT_TMP/quiet.txt")
	longest=$(grep -oE '\], [0-9]+, [0-9]+\)' "$TT_TMP/quiet.txt" | awk -F', ' '{sub(/\)/, "", $3); if ($3 + 0 > m) m = $3 + 0} END {print m + 0}')
	diag "loop wakeups in 6 s at -d 2, system-wide, --engine bpf: $quiet, $woken of them by records; longest sleep asked ${longest} ms"
	[ "$quiet" -ge 2 ] && [ "$quiet" -le $((5 + 2 * woken)) ]
	ok $? "--engine bpf: a wakeup a refresh, and two for each batch of records: 2..$((5 + 2 * woken)) in 6 s ($quiet)"
	[ "$longest" -ge 1000 ]
	ok $? "--engine bpf: with no record it sleeps toward the refresh, not 500 ms (${longest} ms)"

	tui_start storm 120 40 -d 2 --engine bpf
	tmux_wait_text storm 15 'split_(alpha|beta|gamma)'
	ok $? "storm at -d 2: the Top pane shows the workload"
	( n=0 end=$((SECONDS + 12))
	  while [ $SECONDS -lt $end ]; do /bin/true; n=$((n + 1)); done
	  echo "$n" >"$TT_TMP/forks" ) &
	forker=$!
	sleep 1
	counted storm 6 "$TT_TMP/storm.txt"
	ok $? "strace saw the storm's tracetop"
	storm=$(grep -c 'poll(\[{fd=' "$TT_TMP/storm.txt")
	# the thread's context switches, strace gone: the kernel wakes a
	# poller at every side-band record, so a muted ring must be out of
	# the poll set, not in it with no events
	tp=$(tui_pid storm)
	sw0=$(awk '/^voluntary_ctxt_switches/ {print $2}' "/proc/$tp/task/$tp/status")
	sleep 3
	sw1=$(awk '/^voluntary_ctxt_switches/ {print $2}' "/proc/$tp/task/$tp/status")
	wait $forker 2>/dev/null
	forks=$(cat "$TT_TMP/forks" 2>/dev/null || echo 0)
	tmux_kill storm
	diag "loop wakeups in 6 s at -d 2, --engine bpf, $forks processes started in 12 s: $storm"
	[ "$forks" -ge 200 ]
	ok $? "a storm: 200 or more processes started ($forks), each a few side-band records"
	[ "$storm" -ge 6 ] && [ "$storm" -le 36 ]
	ok $? "--engine bpf under the storm: read in batches, 6..36 wakeups in 6 s ($storm)"
	switches=$((sw1 - sw0))
	diag "the loop thread's context switches in 3 s of the storm: $switches"
	[ "$switches" -le 60 ]
	ok $? "... and it sleeps through the records it holds off: 60 or fewer switches in 3 s ($switches)"
	;;
*)
	skip "--engine bpf cannot run here (see tests/e2e/bpf.sh)" "--engine bpf: a wakeup a refresh"
	skip "--engine bpf cannot run here (see tests/e2e/bpf.sh)" "--engine bpf: sleeps toward the refresh"
	skip "--engine bpf cannot run here (see tests/e2e/bpf.sh)" "--engine bpf, a storm: batches"
	skip "--engine bpf cannot run here (see tests/e2e/bpf.sh)" "--engine bpf, a storm: sleeps through it"
	;;
esac
done_testing
