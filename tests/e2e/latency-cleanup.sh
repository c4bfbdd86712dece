#!/bin/bash
# --latency's probe pairs are undone as --probe's are: a batch run timing
# timed_fn (its entry and return uprobes in its own group, the BPF
# programs on them held by its fds alone) leaves none of its probes in
# uprobe_events after it exits, after SIGINT, SIGTERM and SIGHUP (a
# dropped SSH session), under both engines (BPF histograms and ring
# pairing); after SIGKILL its two probes stay, and --cleanup removes
# them, saying so (a tracetop started meanwhile by a parallel test may
# remove them first: then skipped, saying why). Only this test's
# tracetops' groups are counted (lib.sh probes_of PID).
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/timed"
need_root_perf
TFS=/sys/kernel/tracing
[ -e "$TFS/events" ] || TFS=/sys/kernel/debug/tracing
[ -w "$TFS/uprobe_events" ] || tap_skip_all "no writable uprobe_events in tracefs (CONFIG_UPROBE_EVENTS, root)"

TIMED="$WORKLOADS/timed"
engines=perf
if "$TRACETOP" -b --engine bpf --latency "$TIMED:timed_fn" -d 0.2 -n 1 >/dev/null 2>"$TT_TMP/bpf.err"; then
	engines="bpf perf"
else
	skip "BPF cannot run here: $(head -c 200 "$TT_TMP/bpf.err")" "the BPF engine's probes undone"
fi

# pairs PID: the probes tracetop PID's group holds.
pairs() {
	probes_of "$1" "$TFS/uprobe_events"
}

# has_pair PID: whether tracetop PID's group holds its two probes.
has_pair() {
	[ "$(pairs "$1")" = 2 ]
}

# start ENGINE: a tracetop timing timed_fn of a long run, its pid in $tp
# once its two probes exist (0 when they never came), the workload's in $wl.
start() {
	"$TRACETOP" -b --engine "$1" --latency "$TIMED:timed_fn" -d 0.2 -o "$TT_TMP/run.out" -- \
		"$TIMED" 20000 2>"$TT_TMP/run.err" &
	tp=$!
	bg_pid $tp
	wait_for 10 has_pair $tp || { tp=0; return; }
	wl=$(child_pid $tp timed)
	[ -n "$wl" ] && bg_pid "$wl"
}

for e in $engines; do
	"$TRACETOP" -b --engine $e --latency "$TIMED:timed_fn" -o "$TT_TMP/exit.out" -- "$TIMED" 21 \
		2>"$TT_TMP/exit.err" &
	tp=$!
	wait $tp
	ok $? "$e: a run to its command's end exits 0"
	is "$(pairs $tp)" 0 "$e: after it, no probe of its group"
	for sig in INT TERM HUP; do
		start $e
		if [ "$tp" = 0 ]; then
			ok 1 "$e: SIG$sig: the probe pair was made"
			diag "$(head -c 400 "$TT_TMP/run.err")"
			continue
		fi
		kill -$sig $tp
		wait $tp
		is $? 0 "$e: SIG$sig: tracetop exits 0"
		is "$(pairs $tp)" 0 "$e: SIG$sig: its probe pair is removed"
		[ -n "$wl" ] && kill "$wl" 2>/dev/null
	done
done

# SIGKILL: the pair stays until --cleanup (or another tracetop's start)
start "${engines%% *}"
if [ "$tp" = 0 ]; then
	ok 1 "the probe pair of the tracetop to be killed was made"
	diag "$(head -c 400 "$TT_TMP/run.err")"
else
	kill -KILL $tp
	wait $tp 2>/dev/null
	[ -n "$wl" ] && kill "$wl" 2>/dev/null
	left=$(pairs $tp)
	if [ "$left" = 2 ]; then
		ok 0 "after SIGKILL its two probes stay"
		"$TRACETOP" --cleanup >"$TT_TMP/cleanup.out" 2>&1
		ok $? "--cleanup exits 0"
		if grep -q "removed probe group tracetop_$tp (2 probes) left by tracetop pid $tp" \
			"$TT_TMP/cleanup.out"; then
			ok 0 "--cleanup says it removed the killed tracetop's two probes"
		elif [ "$(pairs $tp)" = 0 ]; then
			skip "another tracetop, started meanwhile, removed tracetop_$tp first" \
				"--cleanup says it removed the killed tracetop's two probes"
		else
			like "$(cat "$TT_TMP/cleanup.out")" "removed probe group tracetop_$tp" \
				"--cleanup says it removed the killed tracetop's two probes"
		fi
		is "$(pairs $tp)" 0 "after --cleanup, none of them"
	elif [ "$left" = 0 ]; then
		skip "another tracetop, started meanwhile, removed tracetop_$tp first" \
			"after SIGKILL its two probes stay"
	else
		is "$left" 2 "after SIGKILL its two probes stay"
	fi
fi

done_testing
