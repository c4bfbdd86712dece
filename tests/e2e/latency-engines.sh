#!/bin/bash
# Latency in the kernel (BPF) and paired in user space (perf rings) on
# the same workload: timed_fn sleeps 2 ms, called exactly 41 times by two
# threads, once recursively. Both engines count 41 calls of it (every one
# between 1 and 4 ms but for the scheduler's slack, p50 within 20 % of
# 2 ms) and its 40 clock_nanosleep syscalls (one run recurses instead), with p50s within 20 % of each other; each
# says how it measured (notice). Without CAP_BPF, auto falls back to the
# rings saying so on stderr and in the notice, with the same counts, and
# --engine bpf is an error saying why. --no-syscalls times the function
# alone on both, and so does --latency without --latency-kinds. Recursion deeper than the program keeps is reported lost.
# A command's children are timed on both. Another tracer of the same
# tracepoints beside a BPF source still gets its events.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/timed"
need_tool python3 python3
need_root_perf
tfs=/sys/kernel/tracing
[ -d $tfs/events ] || tfs=/sys/kernel/debug/tracing
[ -e $tfs/uprobe_events ] || tap_skip_all "no uprobe_events in tracefs (kernel without CONFIG_UPROBE_EVENTS)"
[ -d $tfs/events/raw_syscalls ] || tap_skip_all "no raw_syscalls tracepoints"
"$TRACETOP" -b --view latency --engine bpf -d 0.2 -n 1 >/dev/null 2>"$TT_TMP/probe.err" ||
	tap_skip_all "BPF cannot run here: $(head -c 200 "$TT_TMP/probe.err")"

TIMED="$WORKLOADS/timed"

# q FILE EXPR: EXPR over the last JSON report (j), its timed_fn row (f)
# and its clock_nanosleep row of the timed process (s).
q() {
	python3 - "$@" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
j = reps[-1] if reps else {"rows": []}
f = next((r for r in j["rows"] if r["kind"] == "function"), None)
s = next((r for r in j["rows"] if r["name"] == "clock_nanosleep" and r["comm"] == "timed"), None)
try:
    print(eval(sys.argv[2]))
except Exception as e:
    print("error: %s" % e)
PY
}

for eng in bpf perf; do
	# (twice at most: under the suite's parallel load a run's 2 ms sleeps
	# overran 4 ms in more than a quarter of the calls, once in CI's root)
	for try in 1 2; do
		TIMED_MEDIAN="$TT_TMP/$eng.median" \
			"$TRACETOP" -b --engine $eng --latency "$TIMED:timed_fn" --latency-kinds syscall \
			--format json -- "$TIMED" 41 \
			>"$TT_TMP/$eng.json" 2>"$TT_TMP/$eng.err" &
		ttpids="${ttpids:-} $!"
		wait $!
		st=$?
		inrange="$(q "$TT_TMP/$eng.json" 'sum(c for lo, c in f["hist"] if lo in (1048576, 2097152))')"
		[ $st = 0 ] && [ "$inrange" -ge 31 ] 2>/dev/null && break
		diag "--engine $eng (run $try): exit $st, $inrange calls of 41 in [1M, 4M)"
	done
	ok $st "--engine $eng: exit 0"
	[ -s "$TT_TMP/$eng.err" ] && diag "$(head -c 300 "$TT_TMP/$eng.err")"
	is "$(q "$TT_TMP/$eng.json" 'f["count"]')" 41 "--engine $eng: timed_fn counted 41 times"
	within "$inrange" 31 41 \
		"--engine $eng: (but for a loaded machine's scheduler slack: 3 in 4) every call in [1M, 2M) or [2M, 4M)"
	# 20 % of the calls' own median: 2 ms on a quiet machine, more when
	# the scheduler is slow to wake the sleeper (a loaded one); tracetop
	# must measure what happened
	m=$(cat "$TT_TMP/$eng.median" 2>/dev/null || echo 2000000)
	within "$(q "$TT_TMP/$eng.json" 'f["p50_ns"]')" $((m * 8 / 10)) $((m * 12 / 10)) \
		"--engine $eng: p50 within 20 % of the calls' own median ($m ns; each sleeps 2 ms)"
	within "$m" 2000000 4000000 "--engine $eng: the calls took 2 ms and a bit ($m ns)"
	is "$(q "$TT_TMP/$eng.json" 's["count"]')" 40 \
		"--engine $eng: 40 clock_nanosleep syscalls (the recursive call's outer run sleeps not)"
	is "$(q "$TT_TMP/$eng.json" 'j["lost"]')" 0 "--engine $eng: nothing lost"
done
like "$(q "$TT_TMP/bpf.json" 'j["notice"]')" 'computed in the kernel \(BPF\)' "bpf: the notice says so"
like "$(q "$TT_TMP/perf.json" 'j["notice"]')" 'paired in user space.*two records per call.*--engine perf' \
	"perf: the notice says what it costs"
b50=$(q "$TT_TMP/bpf.json" 'f["p50_ns"]')
p50=$(q "$TT_TMP/perf.json" 'f["p50_ns"]')
within "$(python3 -c "print(round(100 * $b50 / $p50))" 2>/dev/null)" 80 120 \
	"the engines' p50s of timed_fn agree within 20 % ($b50 vs $p50 ns)"
b50=$(q "$TT_TMP/bpf.json" 's["p50_ns"]')
p50=$(q "$TT_TMP/perf.json" 's["p50_ns"]')
within "$(python3 -c "print(round(100 * $b50 / $p50))" 2>/dev/null)" 80 120 \
	"the engines' p50s of clock_nanosleep agree within 20 % ($b50 vs $p50 ns)"
left=0
for p in $ttpids; do
	left=$((left + $(probes_of "$p" $tfs/uprobe_events)))
done
is "$left" 0 "no probe of their tracetops left in uprobe_events"

# --latency alone (no --latency-kinds), and --no-syscalls beside syscall:
# the function only, on both engines
for eng in bpf perf; do
	for how in alone no-syscalls; do
		extra=
		[ $how = no-syscalls ] && extra="--no-syscalls --latency-kinds syscall"
		# shellcheck disable=SC2086
		"$TRACETOP" -b --engine $eng $extra --latency "$TIMED:timed_fn" --format json -- "$TIMED" 41 \
			>"$TT_TMP/ns-$eng.json" 2>"$TT_TMP/ns-$eng.err"
		ok $? "--latency $how --engine $eng: exit 0"
		is "$(q "$TT_TMP/ns-$eng.json" 'f["count"]')" 41 "--latency $how --engine $eng: timed_fn counted 41 times"
		is "$(q "$TT_TMP/ns-$eng.json" 'sum(1 for r in j["rows"] if r["kind"] == "syscall")')" 0 \
			"--latency $how --engine $eng: no syscall row"
	done
done
# While a BPF latency source runs system-wide, another tracer of the same
# tracepoints (here a second tracetop pairing on the rings) still gets
# every event: the programs pass them on.
"$TRACETOP" -b --engine bpf --view latency -d 4 -n 1 >/dev/null 2>&1 &
bg_pid $!
sleep 1.5
"$TRACETOP" -b --engine perf --latency "$TIMED:timed_fn" --latency-kinds syscall --format json \
	-- "$TIMED" 41 >"$TT_TMP/beside.json" 2>/dev/null
is "$(q "$TT_TMP/beside.json" 's["count"]')" 40 \
	"beside a system-wide BPF source, the rings still see the 40 clock_nanosleep calls"

# A command's children are timed too (BPF: sched_process_fork adds them
# to the processes timed; the rings: inherited events)
for eng in bpf perf; do
	"$TRACETOP" -b --engine $eng --view latency --format json -- sh -c "sleep 0.05; sleep 0.05" \
		>"$TT_TMP/kids-$eng.json" 2>/dev/null
	is "$(q "$TT_TMP/kids-$eng.json" 'sum(1 for r in j["rows"] if r["name"] == "clock_nanosleep" and r["comm"] == "sleep" and r["count"] == 1)')" 2 \
		"$eng: each of the command's two sleep children has its clock_nanosleep row"
done

# Recursion 20 deep (21 nested runs of 60): the BPF program keeps 16 open
# calls a thread, so the 5 innermost are not timed but counted as lost
# (never silently: counted + lost = 60); the rings' pairing keeps 32.
"$TRACETOP" -b --engine bpf --no-syscalls --latency "$TIMED:timed_fn" --format json -- "$TIMED" 60 20 \
	>"$TT_TMP/deep-bpf.json" 2>/dev/null
is "$(q "$TT_TMP/deep-bpf.json" 'f["count"] + j["lost"]')" 60 "bpf, 21 nested calls: counted + lost = 60"
is "$(q "$TT_TMP/deep-bpf.json" 'j["lost"]')" 5 "bpf: the 5 past 16 deep are reported lost"
"$TRACETOP" -b --engine perf --no-syscalls --latency "$TIMED:timed_fn" --format json -- "$TIMED" 60 20 \
	>"$TT_TMP/deep-perf.json" 2>/dev/null
is "$(q "$TT_TMP/deep-perf.json" 'f["count"]')" 60 "perf, 21 nested calls: all 60 timed"
"$TRACETOP" -b --engine perf --no-syscalls --view latency -d 0.2 -n 1 >/dev/null 2>"$TT_TMP/ns.err"
is "$?" 1 "--no-syscalls on the rings without a function: exit 1"
like "$(cat "$TT_TMP/ns.err")" 'no-syscalls without --latency' "... saying why"

# Without CAP_BPF (CAP_PERFMON kept: the tracepoints still open)
if without_bpf "$TT_TMP/drop.json" "'$TRACETOP' -b --latency '$TIMED:timed_fn' --format json -- '$TIMED' 41" \
	'latency paired in user space .*two records per call.*no BPF, BPF needs root or CAP_BPF' \
	"'$TRACETOP' -b --engine bpf --latency '$TIMED:timed_fn' -- '$TIMED' 3"; then
	like "$(q "$TT_TMP/drop.json" 'j["notice"]')" 'no BPF, BPF needs root' "... and in the JSON notice"
	is "$(q "$TT_TMP/drop.json" 'f["count"]')" 41 "no CAP_BPF: timed_fn still counted 41 times"
fi

done_testing
