#!/bin/bash
# --list-events prints what this machine offers, like perf list.
. "$(dirname "$0")/lib.sh"
need_built

out=$("$TRACETOP" --list-events 2>&1)
ok $? "--list-events exits 0"
like "$out" "cpu-clock" "software events listed"
like "$out" "page-faults" "page-faults listed"
like "$out" "^.*cycles" "hardware events listed"
like "$out" "rNNNN|r<hex>|rHEX" "raw event syntax shown"
# Hardware events are marked when the kernel refuses them (no PMU here).
if "$TRACETOP" -b -n 1 -d 0.1 -e cycles -p $$ 2>&1 | grep -q "no hardware PMU"; then
	like "$out" "cycles.*not supported" "unsupported hardware event marked"
else
	skip "this machine has a hardware PMU" "unsupported hardware event marked"
fi
if [ -d /sys/kernel/tracing/events/sched ]; then
	like "$out" "sched:sched_switch" "tracepoints listed"
else
	like "$out" "tracefs" "missing tracefs explained"
fi
done_testing
