#!/bin/bash
# Bad input gets one clear line on stderr naming the problem, exit 2 for
# usage errors and 1 for runtime ones.
. "$(dirname "$0")/lib.sh"
need_built
need_tool setpriv util-linux

# expect STATUS PATTERN DESC ARGS...: tracetop ARGS exits STATUS and prints
# exactly one stderr line matching PATTERN (an ERE) and nothing on stdout.
expect() {
	local want=$1 pat=$2 desc=$3 status=0 lines
	shift 3
	timeout 20 "$TRACETOP" "$@" >"$TT_TMP/out" 2>"$TT_TMP/err" </dev/null || status=$?
	lines=$(wc -l <"$TT_TMP/err")
	if [ "$status" -eq "$want" ] && [ "$lines" -eq 1 ] && grep -Eq -e "$pat" "$TT_TMP/err" &&
		[ ! -s "$TT_TMP/out" ]; then
		ok 0 "$desc"
	else
		ok 1 "$desc"
		diag "args: $* | status $status (want $want), $lines stderr line(s):"
		diag "$(head -5 "$TT_TMP/err")"
	fi
}

# a pid that cannot exist: above pid_max
nopid=$(( $(cat /proc/sys/kernel/pid_max) + 1 ))

expect 2 "unknown event 'cyclez'" "unknown event" -b -e cyclez
expect 2 "modifier.*'q'|'q'.*modifier" "bad event modifier" -b -e cycles:q
expect 2 "rXYZ|raw" "malformed raw event" -b -e rXYZ
expect 2 "sched:no_such_event|tracefs" "unknown tracepoint" -b -e sched:no_such_event
expect 2 "-p expects PID.*'abc'" "malformed pid list" -b -p abc
expect 2 "-t expects TID.*'1,,2'" "malformed tid list" -b -t 1,,2
expect 1 "no such process $nopid" "missing pid" -b -p "$nopid"
expect 1 "no such thread $nopid" "missing tid" -b -t "$nopid"
expect 2 "-C expects a CPU list.*'0-'" "malformed cpu list" -b -C 0-
expect 1 "CPU 4095 is not online" "offline cpu" -b -C 4095
expect 2 "-F expects a positive.*'abc'" "bad frequency" -b -F abc
expect 2 "-F expects a positive.*'0'" "zero frequency" -b -F 0
expect 1 "perf_event_max_sample_rate" "frequency above the kernel limit" -b -F 10000000 -e cpu-clock
expect 2 "-d expects seconds.*'x'" "bad delay" -b -d x
expect 2 "-n expects a positive.*'-1'" "bad iteration count" -b -n -1
expect 2 "-m expects a power of two" "bad ring size" -b -m 3
expect 2 "--format expects text, json, folded, csv, svg or pprof.*'xml'" "bad format" -b --format xml
expect 2 "--history expects a duration.*(90s, 10m, 1h).*'ten'" "bad history duration" -b --history ten
expect 2 "--format pprof is for the top view" "pprof of another view" -b --view counters --format pprof
expect 2 "--history-dump prints text or JSON lines in batch" "history dump on the screen" --history-dump
expect 2 "--history-dump prints text or JSON lines in batch" "history dump as CSV" -b --view system --format csv --history-dump
expect 2 "unknown sort key 'nope'" "bad sort key" -b -s overhead,nope
expect 2 "unknown option '--bogus'" "unknown long option" --bogus
expect 2 "unknown option '-Q'" "unknown short option" -Q
expect 2 "needs an argument" "missing option argument" -b -e
expect 2 "unexpected argument 'stray'" "stray argument" -b stray
expect 2 "cannot be combined" "command with -p" -b -p 1 -- true
expect 1 "cannot start command /nonexistent/tracetop-cmd: No such file or directory \\(check its name and PATH\\)" \
	"command that cannot start, named" -b -e cpu-clock -- /nonexistent/tracetop-cmd
expect 1 "cannot write /nonexistent/dir/out" "unwritable output" -b -o /nonexistent/dir/out -- true

# An unprivileged user is told which setting or privilege is missing. The
# binary is copied where user nobody can reach it (the build tree may sit in
# a private home directory such as /root).
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" -ne 0 ]; then
	skip "needs root to run as another user" "permission message names the setting"
elif [ "$paranoid" -lt 0 ]; then
	skip "perf_event_paranoid is $paranoid: unprivileged users may profile everything" \
		"permission message names the setting"
else
	pubdir=$(mktemp -d /tmp/tt-public.XXXXXX)
	at_exit "rm -rf '$pubdir'"
	cp "$TRACETOP" "$pubdir/tracetop" && chmod 755 "$pubdir" "$pubdir/tracetop"
	nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	if ! "${nobody[@]}" "$pubdir/tracetop" --version >/dev/null 2>"$TT_TMP/nobody"; then
		# e.g. in a chroot whose root directory is private (mode 700)
		skip "user nobody cannot run programs here: $(head -n 1 "$TT_TMP/nobody")" \
			"permission message names the setting"
	else
		status=0
		"${nobody[@]}" "$pubdir/tracetop" -b -n 1 >/dev/null 2>"$TT_TMP/perm" </dev/null ||
			status=$?
		[ "$status" -eq 1 ] && grep -q "perf_event_paranoid is $paranoid" "$TT_TMP/perm" &&
			grep -q "CAP_PERFMON" "$TT_TMP/perm"
		ok $? "permission message names the setting (exit $status)"
		diag "$(cat "$TT_TMP/perm")"
	fi
fi

# Batch exits as the command did (as perf stat): its own status, 128 + the
# signal that killed it; 0 when tracetop ended the run (-n) first.
for view in top counters; do
	status=0
	"$TRACETOP" -b --view $view -d 0.2 -- sh -c 'exit 7' >/dev/null 2>&1 || status=$?
	is "$status" 7 "--view $view: exit status of the command"
	status=0
	"$TRACETOP" -b --view $view -d 0.2 -- sh -c 'kill -TERM $$' >/dev/null 2>&1 || status=$?
	is "$status" 143 "--view $view: 128 + the signal that killed the command"
done
status=0
"$TRACETOP" -b -n 1 -d 0.2 -- sleep 30 >/dev/null 2>&1 || status=$?
is "$status" 0 "a command stopped by the end of the run: tracetop's own status"

tap_ok "--help exits 0" "$TRACETOP" --help
like "$("$TRACETOP" --version)" "^tracetop [0-9]+\.[0-9]+" "--version"
done_testing
