#!/bin/bash
# In the VM (tests/vm/run.sh): the kernel is Debian's, tracefs is there,
# kprobes, kretprobes and the function tracer work when driven by hand
# through tracefs, and tracetop runs and samples. The later probe and trace
# tests build on these; when one of these fails, look here first.
. "$(dirname "$0")/lib.sh"

# -- the kernel
is "$(uname -r)" "$(cat /tt/kernel.release)" "the kernel is the one run.sh fetched ($(uname -r))"
like "$(cat /proc/version)" "Debian" "/proc/version says Debian"
diag "$(cat /proc/version)"
like "$(cat /proc/mounts)" "^[^ ]+ $TRACEFS tracefs " "tracefs is mounted at $TRACEFS"

# -- kprobes by hand
is "$(config_is CONFIG_KPROBE_EVENTS)" y "CONFIG_KPROBE_EVENTS=y"
if [ -w "$TRACEFS/kprobe_events" ]; then
	ok 0 "kprobe_events exists"
	at_exit "echo '-:tt_test' >>$TRACEFS/kprobe_events 2>/dev/null; echo '-:tt_ret' >>$TRACEFS/kprobe_events 2>/dev/null"
	tracefs_write kprobe_events 'p:tt_test do_sys_openat2'
	ok $? "a kprobe on do_sys_openat2 is created"
	is "$(grep tt_test "$TRACEFS/kprobe_events")" "p:kprobes/tt_test do_sys_openat2" \
		"kprobe_events lists it"
	[ -d "$TRACEFS/events/kprobes/tt_test" ]
	ok $? "its event appears in events/kprobes"
	echo 1 >"$TRACEFS/events/kprobes/tt_test/enable"
	for _ in 1 2 3 4 5; do cat /proc/version >/dev/null; done
	echo 0 >"$TRACEFS/events/kprobes/tt_test/enable"
	hits="$(awk '$1 == "tt_test" { print $2 }' "$TRACEFS/kprobe_profile")"
	[ "${hits:-0}" -ge 5 ]
	ok $? "it counts hits (5 opens, kprobe_profile says ${hits:-nothing})"
	tracefs_write kprobe_events '-:tt_test'
	ok $? "it is removed"
	[ ! -e "$TRACEFS/events/kprobes/tt_test" ] && ! grep -q tt_test "$TRACEFS/kprobe_events"
	ok $? "no trace of it is left"

	# a kretprobe with $retval
	echo >"$TRACEFS/trace"
	tracefs_write kprobe_events 'r:tt_ret do_sys_openat2 ret=$retval:s64'
	ok $? "a kretprobe with \$retval is created"
	echo 1 >"$TRACEFS/events/kprobes/tt_ret/enable"
	cat /nonexistent 2>/dev/null
	echo 0 >"$TRACEFS/events/kprobes/tt_ret/enable"
	like "$(cat "$TRACEFS/trace")" "tt_ret: .* ret=-2$" "it returns -ENOENT (-2) for a missing file"
	tracefs_write kprobe_events '-:tt_ret'
	ok $? "the kretprobe is removed"
else
	for t in "kprobe_events exists" "kprobe created" "listed" "event appears" "counts hits" \
		"removed" "no trace left" "kretprobe created" "kretprobe returns" "kretprobe removed"; do
		ok 1 "$t (no writable $TRACEFS/kprobe_events)"
	done
fi
is "$(config_is CONFIG_UPROBE_EVENTS)" y "CONFIG_UPROBE_EVENTS=y"
[ -e "$TRACEFS/uprobe_events" ]
ok $? "uprobe_events exists"
[ -s /sys/kernel/btf/vmlinux ]
ok $? "/sys/kernel/btf/vmlinux (kernel BTF, for probe arguments by name)"

# -- the function tracer
is "$(config_is CONFIG_FUNCTION_TRACER)" y "CONFIG_FUNCTION_TRACER=y"
like "$(cat "$TRACEFS/available_tracers")" "(^| )function( |$)" "available_tracers has function"
at_exit "echo nop >$TRACEFS/current_tracer; echo >$TRACEFS/set_ftrace_filter; echo 1 >$TRACEFS/tracing_on"
tracefs_write set_ftrace_filter do_sys_openat2
ok $? "set_ftrace_filter accepts do_sys_openat2"
is "$(cat "$TRACEFS/set_ftrace_filter")" do_sys_openat2 "set_ftrace_filter lists it"
echo >"$TRACEFS/trace"
tracefs_write current_tracer function
ok $? "the function tracer starts"
cat /proc/version >/dev/null
echo 0 >"$TRACEFS/tracing_on" # (a change of tracer empties the buffer)
like "$(cat "$TRACEFS/trace")" "do_sys_openat2 <-" "it traces do_sys_openat2"
echo nop >"$TRACEFS/current_tracer"
echo 1 >"$TRACEFS/tracing_on"
echo >"$TRACEFS/set_ftrace_filter"

# -- tracetop
like "$("$TRACETOP" --version 2>&1)" "^tracetop [0-9]" "tracetop --version"
diag "perf_event_paranoid: $(cat /proc/sys/kernel/perf_event_paranoid)"
timeout 30 "$TRACETOP" -b -n 1 -d 1 >"$TT_TMP/top.txt" 2>"$TT_TMP/top.err"
ok $? "tracetop -b -n 1 -d 1 exits 0"
like "$(cat "$TT_TMP/top.txt")" "^event: [a-z-]+ +samples/s: " "it prints a report"
diag "$(head -n 6 "$TT_TMP/top.txt")" "$(cat "$TT_TMP/top.err")"
if [ -x "$WORKLOADS/split" ]; then
	timeout 60 "$TRACETOP" -b -d 10 -- "$WORKLOADS/split" 2 >"$TT_TMP/split.txt" 2>"$TT_TMP/split.err"
	ok $? "tracetop -b -- split 2 exits 0"
	like "$(cat "$TT_TMP/split.txt")" "split_alpha" "it samples split and names split_alpha"
	diag "$(grep -m 4 -E '^event|split_' "$TT_TMP/split.txt")"
else
	skip "tests/workloads/split was not built" "tracetop -b -- split 2 exits 0"
	skip "tests/workloads/split was not built" "it samples split and names split_alpha"
fi
done_testing
