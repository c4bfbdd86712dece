#!/bin/bash
# The Processes pane's threads, driven for real in tmux: H lists the
# threads of a process spinning two named threads on one CPU right under
# it, each with its own CPU % (the spinners busy, the main thread idle)
# and name; H again hides them; Enter on a thread row zooms Top into that
# thread; a thread's name with control characters is shown escaped;
# --threads starts with them shown.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/sysload"
need_tmux
need_root_perf

SYSLOAD_PIDFILE="$TT_TMP/busy.pid" "$WORKLOADS/sysload" busy 0 2 120 >/dev/null 2>&1 &
bg_pid $!
lpid=$(wait_pidfile "$TT_TMP/busy.pid" 5)
[ -n "$lpid" ]
ok $? "the spinning workload started"
wait_for 5 grep -qx spin-2 /proc/"$lpid"/task/*/comm
tid1="" tid2=""
for d in /proc/"$lpid"/task/*; do
	case "$(cat "$d/comm" 2>/dev/null)" in
	spin-1) tid1=${d##*/} ;;
	spin-2) tid2=${d##*/} ;;
	esac
done
[ -n "$tid1" ] && [ -n "$tid2" ]
ok $? "its threads spin-1 ($tid1) and spin-2 ($tid2)"

# name COLS ROWS ARGS...: tracetop on the Processes pane, filtered to the
# workload (its process row shown)
procs_start() {
	local name=$1
	tui_start "$@"
	tmux_wait_text "$name" 5 '^System|Rates per second over'
	tmux_keys "$name" Tab
	tmux_wait_text "$name" 5 '[0-9]+ processes'
	tmux_keys "$name" F4
	tmux_keys "$name" -l sysload
	tmux_keys "$name" Enter
	tmux_wait_text "$name" 5 "^ *$lpid +[RS] +[0-9]+\.[0-9] .*sysload busy 0 2 120"
}

# thread_row NAME TID COMM: the screen has TID's row with a CPU %, the
# process's RES, empty threads and switches columns, and its name.
thread_row() {
	_tmux_has_text "$1" "^ *$2 +[RS] +[0-9]+\.[0-9] +[0-9.]+[KMG] +[0-9.]+[kM]? +[0-9.]+[kM]? +$3\$"
}

# cpu_of NAME TID: the CPU % on TID's row.
cpu_of() {
	tmux_capture "$1" | awk -v t="$2" '$1 == t && $NF != "busy" { print $3; exit }'
}

# ---------------------------------------------------------------- H
procs_start thr 160 30 --view system -d 0.5
ok $? "the workload's process row"
tmux_wait_text thr 3 '[0-9]+ processes; Enter zooms Top'
ok $? "no threads at first"
lacks_text thr ' spin-1$'
ok $? "... and no thread rows"
tmux_keys thr H
tmux_wait_text thr 3 'Threads shown under their processes'
ok $? "H: the status line says threads are shown"
tmux_wait_text thr 5 '[0-9]+ processes, [0-9]+ threads shown under them'
ok $? "H: the title says so"
wait_for 5 thread_row thr "$tid1" spin-1
ok $? "spin-1's row: tid, CPU %, RES, faults, its name"
wait_for 5 thread_row thr "$tid2" spin-2
ok $? "spin-2's row"
wait_for 5 thread_row thr "$lpid" sysload
ok $? "the main thread's row (tid = pid, named sysload)"
# rates settle after a refresh or two: the spinners share CPU 0, the main
# thread waits for them
settled() {
	local a b m
	a=$(cpu_of thr "$tid1") b=$(cpu_of thr "$tid2")
	m=$(tmux_capture thr | awk -v t="$lpid" '$1 == t && $NF == "sysload" { print $3; exit }')
	awk -v a="$a" -v b="$b" -v m="$m" 'BEGIN { exit !(a >= 20 && b >= 20 && m != "" && m <= 2) }'
}
wait_for 5 settled
ok $? "the spinners each have their share of CPU 0, the main thread ~0 ($(cpu_of thr "$tid1"), $(cpu_of thr "$tid2"))"
# right under their process, busiest first
under=$(tmux_capture thr | awk -v p="$lpid" '
	$1 == p && / busy 0 2 120$/ { on = 1; next }
	on && NF > 0 { printf "%s ", $NF; if (++n == 3) exit }')
like "$under" '^spin-[12] spin-[12] sysload $' "the threads come right under their process, busiest first"

# ---------------------------------------------------------------- H again
tmux_keys thr H
wait_for 3 lacks_text thr ' spin-[12]$'
ok $? "H again: the thread rows go at once"
tmux_wait_text thr 3 '[0-9]+ processes; Enter zooms Top'
ok $? "... and the title says processes only"
tmux_wait_text thr 3 "^ *$lpid +[RS] .*sysload busy 0 2 120"
ok $? "... the process row stays"
sleep 1.2 # two refreshes: the rows stay hidden
lacks_text thr ' spin-[12]$'
ok $? "... and stay hidden at the next refreshes"

# ---------------------------------------------------------------- Enter
tmux_keys thr H
wait_for 5 thread_row thr "$tid2" spin-2
ok $? "H once more: the threads are back"
# by its tid: a test running beside this one may spin threads of that name
tmux_keys thr F3
tmux_keys thr -l "$tid2"
tmux_keys thr Enter
wait_for 3 selected_is thr "^ *$tid2 .* spin-2 *\$"
ok $? "the search selects spin-2's row (by its tid)"
tmux_keys thr Enter
tmux_wait_text thr 5 "Zoom: pid $lpid tid $tid2"
ok $? "Enter on a thread row zooms Top into that thread"
# (zoomed into a thread, rows split by it: the TID column shows)
tmux_wait_text thr 5 "^ *[0-9.]+% .* spin-2 +$lpid +$tid2 +sysload +\[\.\] spin\$"
ok $? "Top shows the thread's function, in a row of its TID" || diag "$(tmux_capture thr)"
tmux_keys thr q
wait_for 5 tmux_exited thr >/dev/null
tmux_wait_text thr 3 'exit=0'
ok $? "q exits 0"
tmux_kill

# ---------------------------------------------------------------- names, --threads
SYSLOAD_THREAD_NAME=$'ev\x1b[31mil' SYSLOAD_PIDFILE="$TT_TMP/evil.pid" \
	"$WORKLOADS/sysload" busy 0 2 60 >/dev/null 2>&1 &
bg_pid $!
epid=$(wait_pidfile "$TT_TMP/evil.pid" 5)
tui_start evil 160 30 --view system --threads -d 0.5
tmux_wait_text evil 5 '^System|Rates per second over'
tmux_keys evil Tab
tmux_wait_text evil 5 '[0-9]+ processes, [0-9]+ threads shown under them'
ok $? "--threads: the threads are shown from the start"
tmux_keys evil F4
tmux_keys evil -l "$epid"
tmux_keys evil Enter
tmux_wait_text evil 5 ' ev\\x1b\[31mil$'
ok $? "a thread's name with an escape sequence is shown escaped"
tmux_keys evil q
wait_for 5 tmux_exited evil >/dev/null
tmux_kill

done_testing
