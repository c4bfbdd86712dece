#!/bin/bash
# In the VM (tests/vm/run.sh), where the kernel has kprobes: a kernel
# function timed for real with a kprobe/kretprobe pair (--latency FUNC):
# hrtimer_nanosleep, which each of the timed workload's 40 nanosleep(2 ms)
# calls passes through once, is counted exactly 40 times for the timed
# process, none shorter than the sleep, with the histograms computed in
# the kernel (BPF) and paired in user space (--engine perf) alike; the
# probe pair is gone after each run. No python here: the text report is
# read with awk.
. "$(dirname "$0")/lib.sh"
need_config CONFIG_KPROBE_EVENTS
need_tracefs kprobe_events
[ -x "$WORKLOADS/timed" ] || tap_skip_all "the timed workload was not built"
FUNC=hrtimer_nanosleep
grep -q " [tT] $FUNC\$" /proc/kallsyms || tap_skip_all "no $FUNC in this kernel's symbols"

# row FILE FIELD: FIELD of the report's function row of the timed process
# ("#kind name pid comm count errors rate p50 p90 p99 max total").
row() {
	awk -v f="$2" '$1 == "function" && $4 == "timed" { v = $f } END { print v }' "$1"
}

# ns TEXT: a duration as the report writes it ("2.05ms") in ns.
ns() {
	awk -v t="$1" 'BEGIN { u = t; sub(/^[0-9.]+/, "", u); v = t + 0;
		m = u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "us" ? 1e3 : 1; printf "%d\n", v * m }'
}

left() {
	grep -qE '^[pr][0-9]*:tracetop_' "$TRACEFS/kprobe_events"
}

for eng in bpf perf; do
	timeout 100 "$TRACETOP" -b --engine $eng --latency "$FUNC" -- "$WORKLOADS/timed" 41 \
		>"$TT_TMP/$eng.txt" 2>"$TT_TMP/$eng.err"
	st=$?
	if [ $eng = bpf ] && [ $st -ne 0 ] && grep -q 'engine bpf' "$TT_TMP/$eng.err"; then
		diag "$(cat "$TT_TMP/$eng.err")"
		for t in exit count p50 kind note left; do skip "BPF cannot run in this VM" "bpf: $t"; done
		continue
	fi
	is "$st" 0 "--engine $eng --latency $FUNC (a kprobe/kretprobe pair): exit 0"
	diag "$(cat "$TT_TMP/$eng.err")" "$(grep -m 3 -E '^(#|.function)' "$TT_TMP/$eng.txt")"
	is "$(row "$TT_TMP/$eng.txt" 5)" 40 "$eng: $FUNC timed 40 times for the timed process"
	p50=$(ns "$(row "$TT_TMP/$eng.txt" 8)")
	within "${p50:-0}" 2000000 40000000 "$eng: its p50 ($p50 ns) is at least the 2 ms sleep"
	like "$(row "$TT_TMP/$eng.txt" 2)" "^$FUNC\$" "$eng: the row names the kernel function"
	if [ $eng = bpf ]; then
		like "$(cat "$TT_TMP/$eng.txt")" '^# note: histograms computed in the kernel' \
			"bpf: computed in the kernel"
	else
		like "$(cat "$TT_TMP/$eng.txt")" '^# note: paired in user space' "perf: paired in user space"
	fi
	! left
	ok $? "$eng: nothing of tracetop's left in kprobe_events"
done

done_testing
