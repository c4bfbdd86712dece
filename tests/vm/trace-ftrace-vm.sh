#!/bin/bash
# In the VM (tests/vm/run.sh; Debian's kernel has the function tracer):
# tracetop --ftrace follows a kernel function through a private tracefs
# instance: the function shows up decoded (text and JSON), function_graph
# gives entries and exits, a command target sees only its own calls, and
# the global tracing state is as it was after a normal exit, SIGINT,
# SIGTERM, SIGHUP, and a SIGKILL followed by --cleanup.
# (Not wired yet: the VM harness runs tests/vm/*-vm.sh.)
. "$(dirname "$0")/lib.sh"
need_config CONFIG_FUNCTION_TRACER CONFIG_DYNAMIC_FTRACE
need_tracefs instances available_tracers

FUNC=do_sys_openat2

# The global tracing state a run must leave alone.
state() {
	local f
	for f in set_event tracing_on current_tracer set_ftrace_filter; do
		printf '%s: ' "$f"
		tr '\n' ' ' <"$TRACEFS/$f"
		echo
	done
	printf 'instances:'
	ls "$TRACEFS/instances" | tr '\n' ' '
	echo
}

# opener: open files in the background until the test ends ($opener).
opener() {
	(
		while :; do
			cat /proc/version >/dev/null
			sleep 0.05
		done
	) &
	opener=$!
	bg_pid $opener
}

# instance_of PID: the name of tracetop PID's instance, if it has one.
instance_of() {
	ls "$TRACEFS/instances" | grep "^tracetop-$1-" | head -n 1
}

# has_instance PID: that tracetop's instance exists (now: for wait_for).
has_instance() {
	[ -n "$(instance_of "$1")" ]
}

STATE0="$(state)"
diag "$STATE0"

# Text: the function, decoded, with its caller. Under emulation on a loaded
# machine a window can pass before the first hit: run again until one shows.
opener
rerun_until 60 'ftrace:function' "$TT_TMP/f.txt" \
	"$TRACETOP" -b --view trace --ftrace "$FUNC" -n 2 -d 1
ok $? "--ftrace $FUNC: exit 0"
diag "$(head -n 3 "$TT_TMP/f.txt")" "$(cat "$TT_TMP/f.txt.err")"
like "$(cat "$TT_TMP/f.txt")" \
	"^ *[^ ].*-[0-9]+ +\\[[0-9]{3}\\] +[0-9]+\\.[0-9]{6}: ftrace:function: +$FUNC <-- [a-zA-Z_]" \
	"text: a hit of $FUNC, with its caller"
is "$(grep -c 'ftrace:function' "$TT_TMP/f.txt" | awk '{ print ($1 > 0) }')" 1 "text: hits counted"
is "$(grep 'ftrace:function' "$TT_TMP/f.txt" | grep -vc " $FUNC <-- ")" 0 \
	"text: only $FUNC (the filter holds)"
is "$(state)" "$STATE0" "tracefs state unchanged after a normal exit"

# JSON: the symbol as a string.
rerun_until 60 '"event":"ftrace:function"' "$TT_TMP/f.json" \
	"$TRACETOP" -b --ftrace "$FUNC" --format json -n 2 -d 1
ok $? "JSON: exit 0"
like "$(cat "$TT_TMP/f.json")" \
	"\"event\":\"ftrace:function\",\"fields\":\\{\"ip\":\"$FUNC\\+0x[0-9a-f]+\",\"parent_ip\":\"" \
	"JSON: ip and parent_ip as symbols"

# function_graph, where the kernel runs it in an instance.
if grep -qw function_graph "$TRACEFS/available_tracers"; then
	rerun_until 60 'ftrace:funcgraph_exit:' "$TT_TMP/g.txt" \
		"$TRACETOP" -b --ftrace "$FUNC" --ftrace-graph -n 2 -d 1
	status=$?
	if [ $status -eq 0 ]; then
		like "$(cat "$TT_TMP/g.txt")" "ftrace:funcgraph_entry:" "function_graph: entries"
		like "$(cat "$TT_TMP/g.txt")" "ftrace:funcgraph_exit:" "function_graph: exits"
	else
		like "$(cat "$TT_TMP/g.txt.err")" "cannot run the function_graph tracer in a tracefs instance" \
			"function_graph: refused in an instance, clearly"
		skip "no function_graph in instances" "function_graph: exits"
	fi
else
	skip "no function_graph tracer" "function_graph: entries"
	skip "no function_graph tracer" "function_graph: exits"
fi
is "$(state)" "$STATE0" "tracefs state unchanged after function_graph"

# A command target: only its calls (and its children's), with nothing else
# opening files meanwhile. A cat that exits before tracetop reads its
# first event has no name yet ([unknown]).
kill $opener 2>/dev/null
wait $opener 2>/dev/null
"$TRACETOP" -b --ftrace "$FUNC" -d 5 -- /bin/sh -c 'for i in 1 2 3 4 5; do cat /proc/version; done' \
	>"$TT_TMP/cmd.txt" 2>"$TT_TMP/cmd.err"
ok $? "-- COMMAND: exit 0"
is "$(grep 'ftrace:function' "$TT_TMP/cmd.txt" | grep -cv -E '^ *(sh|cat|\[unknown\])-[0-9]+ ')" 0 \
	"-- COMMAND: only the command's own calls" ||
	diag "$(grep 'ftrace:function' "$TT_TMP/cmd.txt" | grep -v -E '^ *(sh|cat|\[unknown\])-[0-9]+ ')"
[ "$(grep -c 'ftrace:function' "$TT_TMP/cmd.txt")" -ge 5 ]
ok $? "-- COMMAND: its five cats' opens at least"

# Signals: the instance exists while tracing and is gone after.
for sig in INT TERM HUP; do
	"$TRACETOP" -b --ftrace "$FUNC" -d 0.5 -n 100 >/dev/null 2>&1 &
	tpid=$!
	bg_pid $tpid
	wait_for 30 has_instance $tpid
	ok $? "SIG$sig: tracetop's instance exists while it traces ($(instance_of $tpid))"
	kill -$sig $tpid
	wait $tpid
	ok $? "SIG$sig: exit 0"
	is "$(state)" "$STATE0" "SIG$sig: tracefs state unchanged"
done

# SIGKILL: the instance stays behind; --cleanup removes it (and nothing else).
mkdir "$TRACEFS/instances/tt-vm-foreign" && at_exit "rmdir $TRACEFS/instances/tt-vm-foreign"
"$TRACETOP" -b --ftrace "$FUNC" -d 0.5 -n 100 >/dev/null 2>&1 &
tpid=$!
wait_for 30 has_instance $tpid
left="$(instance_of $tpid)"
kill -KILL $tpid
wait $tpid 2>/dev/null
[ -n "$left" ] && [ -d "$TRACEFS/instances/$left" ]
ok $? "SIGKILL: its instance ($left) is left behind"
"$TRACETOP" --cleanup 2>"$TT_TMP/cleanup.err"
ok $? "--cleanup: exit 0"
like "$(cat "$TT_TMP/cleanup.err")" "removed tracefs instance $left left by tracetop pid $tpid" \
	"--cleanup: says what it removed"
[ ! -d "$TRACEFS/instances/$left" ] && [ -d "$TRACEFS/instances/tt-vm-foreign" ]
ok $? "--cleanup: the killed tracetop's instance is gone, the foreign one stays"
rmdir "$TRACEFS/instances/tt-vm-foreign"
is "$(state)" "$STATE0" "tracefs state unchanged at the end"
done_testing
