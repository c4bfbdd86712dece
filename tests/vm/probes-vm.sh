#!/bin/bash
# In the VM (tests/vm/run.sh), where the kernel has kprobes: tracetop's
# kprobes and kretprobes for real. A kprobe on do_sys_openat2 counts the
# opens of a command exactly (a run with N more opens counts N more), a
# kretprobe's $retval is -ENOENT for a missing file, a string argument
# reads the file name (as a raw fetch-arg and as a parameter name from
# BTF), --probe-vars lists the parameters from BTF, unknown and data
# symbols are refused, a uprobe counts exactly too, and nothing of
# tracetop's is left in tracefs after an exit or after SIGKILL and
# --cleanup. No python here: the text formats are read with awk and grep.
. "$(dirname "$0")/lib.sh"
need_config CONFIG_KPROBE_EVENTS
need_tracefs kprobe_events uprobe_events

FILE=/tt/kernel.config
# A bash that opens FILE $1 times (each `: <FILE` is one openat).
OPENER=(bash -c 'for ((i = 0; i < $1; i++)); do : <'"$FILE"'; done' opener)

# hits FILE NAME: the last hit count the probes text of FILE shows for the
# probe whose tracepoint ends with :NAME.
hits() {
	awk -v n=":$2" 'substr($2, length($2) - length(n) + 1) == n { h = $4 } END { print h }' "$1"
}

# left: succeed when tracefs still lists a probe of a tracetop.
left() {
	grep -q '^.:tracetop_' "$TRACEFS/kprobe_events" "$TRACEFS/uprobe_events"
}

# -- a kprobe counts exactly: N more opens, N more hits
for n in 0 50; do
	timeout 60 "$TRACETOP" -b --view probes -d 30 --probe do_sys_openat2 -- "${OPENER[@]}" $n \
		>"$TT_TMP/open$n.txt" 2>"$TT_TMP/open$n.err"
	ok $? "kprobe on do_sys_openat2, a command opening $FILE $n times: exit 0"
	diag "$(cat "$TT_TMP/open$n.err")"
done
h0=$(hits "$TT_TMP/open0.txt" do_sys_openat2)
h50=$(hits "$TT_TMP/open50.txt" do_sys_openat2)
diag "hits: ${h0:-none} for 0 opens, ${h50:-none} for 50"
is "$((${h50:-0} - ${h0:-0}))" 50 "50 more opens count exactly 50 more hits"
like "$(cat "$TT_TMP/open50.txt")" '^ +[0-9.]+ tracetop_[0-9]+:do_sys_openat2 +kprobe +[0-9]+ .* on +do_sys_openat2' \
	"the row: kind kprobe, state on, target the function"
! left
ok $? "nothing of tracetop's left after the exit"

# -- a kretprobe's $retval, a string argument, a parameter named from BTF
# (the command fails its redirection: batch exits 1, as the command did)
status=0
timeout 60 "$TRACETOP" -b --view trace -d 30 --probe 'do_sys_openat2%return ret=$retval:s64' \
	--probe 'do_sys_openat2 fname=+0(%si):string' -- bash -c ': </nonexistent-tt-file' \
	>"$TT_TMP/ret.txt" 2>"$TT_TMP/ret.err" || status=$?
is "$status" 1 "kretprobe and kprobe with arguments in --view trace: the command's exit status"
diag "$(cat "$TT_TMP/ret.err")" "$(grep -m 4 tracetop_ "$TT_TMP/ret.txt")"
like "$(cat "$TT_TMP/ret.txt")" 'tracetop_[0-9]+:do_sys_openat2__return: .*ret=-2( \(|$)' \
	"\$retval of the open of a missing file is -2 (ENOENT)"
like "$(cat "$TT_TMP/ret.txt")" 'tracetop_[0-9]+:do_sys_openat2: .*fname="/nonexistent-tt-file"' \
	"+0(%si):string reads the file name"
if [ -r /sys/kernel/btf/vmlinux ]; then
	status=0
	timeout 60 "$TRACETOP" -b --view trace -d 30 --probe 'do_sys_openat2 dfd filename' -- \
		bash -c ': </nonexistent-tt-btf' >"$TT_TMP/btf.txt" 2>"$TT_TMP/btf.err" || status=$?
	is "$status" 1 "a kprobe with parameter names (BTF): the command's exit status"
	diag "$(cat "$TT_TMP/btf.err")"
	like "$(cat "$TT_TMP/btf.txt")" 'do_sys_openat2: .*dfd=-100 filename="/nonexistent-tt-btf"' \
		"BTF names: dfd is AT_FDCWD (-100), filename the path"
	"$TRACETOP" --probe-vars do_sys_openat2 >"$TT_TMP/vars.txt" 2>&1
	ok $? "--probe-vars do_sys_openat2: exit 0"
	like "$(cat "$TT_TMP/vars.txt")" 'param .*char \* +filename +\+0\(%si\):string$' \
		"--probe-vars lists filename as +0(%si):string"
else
	for t in "BTF kprobe exit 0" "BTF names" "--probe-vars exit 0" "--probe-vars filename"; do
		skip "no /sys/kernel/btf/vmlinux" "$t"
	done
fi
! left
ok $? "nothing of tracetop's left after the trace runs"

# -- refusals
"$TRACETOP" -b --view probes --probe no_such_function_tt -n 1 >/dev/null 2>"$TT_TMP/err"
is "$?" 1 "an unknown kernel function: exit 1"
like "$(cat "$TT_TMP/err")" "unknown kernel function 'no_such_function_tt'" "... saying so"
"$TRACETOP" -b --view probes --probe jiffies -n 1 >/dev/null 2>"$TT_TMP/err"
is "$?" 1 "a kernel data symbol: exit 1"
like "$(cat "$TT_TMP/err")" "'jiffies' is a kernel data symbol, not a function" "... saying so"

# -- a uprobe, here too
if [ -x "$WORKLOADS/probed" ]; then
	timeout 60 "$TRACETOP" -b --view probes -d 30 --probe 'probed:probed_fn' \
		--probe 'probed:probed_fn%return' -- "$WORKLOADS/probed" 321 >"$TT_TMP/up.txt" \
		2>"$TT_TMP/up.err"
	ok $? "uprobe on probed: exit 0"
	is "$(hits "$TT_TMP/up.txt" probed_fn)/$(hits "$TT_TMP/up.txt" probed_fn__return)" 321/321 \
		"uprobe and uretprobe count exactly 321"
else
	skip "tests/workloads/probed was not built" "uprobe on probed: exit 0"
	skip "tests/workloads/probed was not built" "uprobe counts exactly"
fi

# -- SIGKILL leaves the group; --cleanup removes it
"$TRACETOP" -b --view probes -d 1 --probe do_sys_openat2 >/dev/null 2>&1 &
tp=$!
bg_pid $tp
wait_for 20 grep -q "^p:tracetop_$tp/" "$TRACEFS/kprobe_events"
ok $? "a running tracetop's kprobe is in kprobe_events"
kill -KILL $tp
wait $tp 2>/dev/null
grep -q "^p:tracetop_$tp/" "$TRACEFS/kprobe_events"
ok $? "after SIGKILL it stays"
"$TRACETOP" --cleanup >"$TT_TMP/cleanup.txt" 2>&1
ok $? "--cleanup: exit 0"
like "$(cat "$TT_TMP/cleanup.txt")" "removed probe group tracetop_$tp" "--cleanup says so"
! left
ok $? "nothing of tracetop's left after --cleanup"
done_testing
