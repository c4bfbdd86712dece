#!/bin/bash
# The system view's threads in batch (--view system --threads, JSON): a
# process spinning two named threads pinned to one CPU lists its three
# threads, each with its own CPU % (the spinners about half of the CPU
# each, the main thread, which waits for them, about none); a
# single-threaded process lists its one thread; without --threads there
# is no thread_list; a thread's name is escaped; --threads elsewhere is
# a usage error.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/sysload"
need_tool python3 python3

SYSLOAD="$WORKLOADS/sysload"

# field FILE EXPR: a python expression over the JSON reports of FILE
# (reps: every report, last: the last one; proc(rep, pid); thr(rep, pid,
# name): the thread of process pid named name).
field() {
	python3 - "$1" "$2" <<'PY'
import json, sys
reps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
last = reps[-1] if reps else {}
def proc(rep, pid):
    return next((p for p in rep["processes"] if p["pid"] == pid), None)
def thr(rep, pid, name):
    return next((t for t in proc(rep, pid)["thread_list"] if t["comm"] == name), None)
print(eval(sys.argv[2]))
PY
}

# ---------------------------------------------------------------- two spinners
SYSLOAD_PIDFILE="$TT_TMP/busy.pid" "$SYSLOAD" busy 0 2 10 &
bg_pid $!
lpid=$(wait_pidfile "$TT_TMP/busy.pid" 5)
wait_for 5 grep -qx spin-2 /proc/"$lpid"/task/*/comm
tids=$(for d in /proc/"$lpid"/task/*; do echo "${d##*/}"; done | sort -n | tr '\n' ' ')
"$TRACETOP" -b --view system --format json --threads -d 1 -n 2 >"$TT_TMP/thr.json" 2>"$TT_TMP/thr.err"
ok $? "--threads: exit 0"
[ -s "$TT_TMP/thr.err" ] && diag "$(head -c 400 "$TT_TMP/thr.err")"
kill "$lpid" 2>/dev/null
is "$(field "$TT_TMP/thr.json" "' '.join(str(t['tid']) for t in proc(last, $lpid)['thread_list']) + ' '")" \
	"$tids" "the spinning process lists its threads, by tid ($tids)"
is "$(field "$TT_TMP/thr.json" "[t['comm'] for t in proc(last, $lpid)['thread_list']]")" \
	"['sysload', 'spin-1', 'spin-2']" "each with its own name"
is "$(field "$TT_TMP/thr.json" "all(set(t) == {'tid','comm','state','cpu','user','system','minflt_s','majflt_s','nice','priority','processor','start'} for p in last['processes'] for t in p['thread_list'])")" \
	True "every thread has its fields"
s1=$(field "$TT_TMP/thr.json" "thr(last, $lpid, 'spin-1')['cpu']")
s2=$(field "$TT_TMP/thr.json" "thr(last, $lpid, 'spin-2')['cpu']")
main=$(field "$TT_TMP/thr.json" "thr(last, $lpid, 'sysload')['cpu']")
all=$(field "$TT_TMP/thr.json" "proc(last, $lpid)['cpu']")
diag "process $all %, spin-1 $s1 %, spin-2 $s2 %, main $main %"
# each spinner has about half of what the process got of CPU 0 (what
# else runs on CPU 0 takes from both alike)
within "$(awk -v a="$s1" -v p="$all" 'BEGIN { print (p > 0 ? 100 * a / p : -1) }')" 35 65 \
	"spin-1 has about half the process's CPU time ($s1 of $all %)"
within "$(awk -v a="$s2" -v p="$all" 'BEGIN { print (p > 0 ? 100 * a / p : -1) }')" 35 65 \
	"spin-2 has about half the process's CPU time ($s2 of $all %)"
# (busy, not necessarily much: it shares CPU 0 with whatever else runs
# there, a whole test suite under CI)
within "$s1" 2 100 "spin-1 is busy ($s1 %)"
within "$main" 0 2 "the main thread, which waits, has about none ($main %)"
within "$(awk -v a="$s1" -v b="$s2" -v m="$main" -v p="$all" 'BEGIN { d = a + b + m - p; print d < 0 ? -d : d }')" \
	0 5 "the threads add up to the process"
is "$(field "$TT_TMP/thr.json" "thr(last, $lpid, 'spin-1')['processor'], thr(last, $lpid, 'spin-2')['processor'], thr(last, $lpid, 'spin-1')['user'] > thr(last, $lpid, 'spin-1')['system']")" \
	"(0, 0, True)" "the spinners run on CPU 0, in user mode"
is "$(field "$TT_TMP/thr.json" "all(len(p['thread_list']) == 1 and p['thread_list'][0]['tid'] == p['pid'] and p['thread_list'][0]['cpu'] == p['cpu'] for p in last['processes'] if p['threads'] == 1)")" \
	True "a single-threaded process lists its one thread: the process"
is "$(field "$TT_TMP/thr.json" "last['threads_count'] == sum(len(p['thread_list']) for p in last['processes']) and last['threads_count'] > last['processes_count']")" \
	True "threads_count counts them"

"$TRACETOP" -b --view system --format json -d 0.3 -n 1 >"$TT_TMP/nothr.json" 2>/dev/null
is "$(field "$TT_TMP/nothr.json" "'threads_count' in last or any('thread_list' in p for p in last['processes'])")" \
	False "without --threads: no threads"

# ---------------------------------------------------------------- names
SYSLOAD_THREAD_NAME=$'ev\x1b[31mil\nx' SYSLOAD_PIDFILE="$TT_TMP/evil.pid" "$SYSLOAD" busy 0 1 10 &
bg_pid $!
epid=$(wait_pidfile "$TT_TMP/evil.pid" 5)
wait_for 5 grep -q x /proc/"$epid"/task/*/comm
"$TRACETOP" -b --view system --format json --threads -d 0.3 -n 1 >"$TT_TMP/evil.json" 2>"$TT_TMP/evil.err"
kill "$epid" 2>/dev/null
! grep -q $'\x1b' "$TT_TMP/evil.json" "$TT_TMP/evil.err"
ok $? "no raw ESC from a thread's name"
is "$(field "$TT_TMP/evil.json" "[t['comm'] for t in proc(last, $epid)['thread_list']][1]")" \
	'ev\x1b[31mil\x0ax' "the thread's name escaped"

# ---------------------------------------------------------------- errors
# usage ERE DESC ARGS...: tracetop ARGS exits 2 with one line matching ERE
usage() {
	local pat=$1 desc=$2 status=0
	shift 2
	"$TRACETOP" "$@" >/dev/null 2>"$TT_TMP/usage.err" </dev/null || status=$?
	like "$status $(cat "$TT_TMP/usage.err")" "^2 tracetop: $pat" "$desc"
}
usage "--threads is for the system view" "--threads without --view system is a usage error" \
	-b --threads -n 1
usage "--threads lists the threads in JSON reports.*add --format json" \
	"--threads with text reports is a usage error" -b --view system --threads -n 1
usage "--threads lists the threads in JSON" "--threads with CSV is a usage error" \
	-b --view system --format csv --threads -n 1
done_testing
