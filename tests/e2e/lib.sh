# shellcheck shell=bash
# A tiny TAP library for the end-to-end tests. Source it from a bash test:
#
#   . "$(dirname "$0")/lib.sh"
#   need_root_perf
#   plan 2                      # or call done_testing at the end
#   tap_ok "lists events" "$TRACETOP" --list-events
#   "$TRACETOP" -b -n 1 >"$TT_TMP/out"; ok $? "batch mode exits 0"
#   done_testing
#
# Do not use `set -e` in tests: the helpers return non-zero when a test
# fails (so `if tap_ok ...` works) and the script must go on to the next one.
# `set -u` is fine. Output is TAP on stdout; automake's tap-driver reads it.
#
# Variables: TRACETOP (the binary), WORKLOADS (tests/workloads in the build
# tree), TT_SRCDIR (source tree), TT_TMP (a private directory removed at exit).

TT_BUILDDIR="${TT_BUILDDIR:-.}"
TT_SRCDIR="${TT_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
TRACETOP="$TT_BUILDDIR/tracetop"
WORKLOADS="$TT_BUILDDIR/tests/workloads"
TT_TMP="$(mktemp -d "${TMPDIR:-/tmp}/tt-test.XXXXXX")"
TT_TMUX_SOCKET="tt-test-$$"
# Each test its own setup file (tracetoprc, read and written by the screen):
# what one test leaves there at exit must not change how the next starts.
export XDG_CONFIG_HOME="$TT_TMP/config"
# No debuginfod server unless a test names one (tests/e2e/debuginfod.sh):
# a machine set up to ask Debian's must not make the others download.
unset DEBUGINFOD_URLS

_tap_n=0          # tests run so far
_tap_failed=0     # of which failed
_tap_planned=""   # the plan, when given up front
_tap_pids=()      # background processes to kill at exit
_tap_at_exit=()   # commands to run at exit
_tap_tmux=""      # set once a tmux server was started
_tap_setups=0     # tmux_start's setup directories so far

# ---------------------------------------------------------------- TAP

# Announce the number of tests up front: plan N.
plan() {
	_tap_planned="$1"
	echo "1..$1"
}

# Print text as TAP diagnostics ("# " lines), ESC made visible.
diag() {
	local text
	text="$(printf '%s\n' "$@")"
	[ -z "$text" ] || printf '%s\n' "$text" | sed 's/\x1b/^[/g; s/^/# /'
}

# Print one result line: _tap_result STATUS DESC [DIRECTIVE].
_tap_result() {
	local status="$1" desc="$2" directive="${3:-}" line
	_tap_n=$((_tap_n + 1))
	desc="${desc//#/\\#}"
	if [ "$status" -eq 0 ]; then
		line="ok $_tap_n - $desc"
	else
		line="not ok $_tap_n - $desc"
		_tap_failed=$((_tap_failed + 1))
	fi
	if [ -n "$directive" ]; then
		line="$line # $directive"
	fi
	echo "$line"
}

# ok EXIT-STATUS "desc": a test that passed when EXIT-STATUS is 0.
ok() {
	_tap_result "$1" "$2"
	return "$(($1 != 0))"
}

# tap_ok "desc" CMD [ARGS...]: run CMD; on failure show its output.
tap_ok() {
	local desc="$1" status=0
	shift
	"$@" >"$TT_TMP/tap_ok.out" 2>&1 || status=$?
	_tap_result "$status" "$desc"
	if [ "$status" -ne 0 ]; then
		diag "command: $*" "exit status: $status"
		diag "$(head -n 100 "$TT_TMP/tap_ok.out")"
		return 1
	fi
}

# tap_fails "desc" CMD [ARGS...]: passes when CMD exits non-zero.
tap_fails() {
	local desc="$1" status=0
	shift
	"$@" >"$TT_TMP/tap_ok.out" 2>&1 || status=$?
	if [ "$status" -eq 0 ]; then
		_tap_result 1 "$desc"
		diag "command: $*" "succeeded but should have failed"
		diag "$(head -n 100 "$TT_TMP/tap_ok.out")"
		return 1
	fi
	_tap_result 0 "$desc"
}

# is GOT EXPECTED "desc": string equality.
is() {
	if [ "$1" = "$2" ]; then
		_tap_result 0 "$3"
		return 0
	fi
	_tap_result 1 "$3"
	diag "got:      '$1'" "expected: '$2'"
	return 1
}

# like TEXT ERE "desc": TEXT has a line matching the extended regex ERE.
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		_tap_result 0 "$3"
		return 0
	fi
	_tap_result 1 "$3"
	diag "no line matches: $2" "in:"
	diag "$(printf '%s\n' "$1" | head -n 60)"
	return 1
}

# within GOT LOW HIGH "desc": LOW <= GOT <= HIGH (decimals allowed; GOT
# empty or None fails).
within() {
	if [ -n "$1" ] && [ "$1" != None ] &&
		awk -v g="$1" -v l="$2" -v h="$3" 'BEGIN { exit !(g >= l && g <= h) }'; then
		ok 0 "$4"
	else
		ok 1 "$4"
		diag "got '$1', expected $2 to $3"
	fi
}

# skip "reason" "desc": one test that could not run here.
skip() {
	_tap_result 0 "$2" "SKIP $1"
}

# tap_skip_all "reason": the whole script can't run here (call before tests).
tap_skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# bail_out "reason": stop everything; the harness reports an error.
bail_out() {
	echo "Bail out! $1"
	exit 1
}

# done_testing: print the plan if none was given; fail if the count is off.
# Returns 1 when any test failed (use it as the last command).
done_testing() {
	if [ -z "$_tap_planned" ]; then
		echo "1..$_tap_n"
	elif [ "$_tap_planned" -ne "$_tap_n" ]; then
		diag "planned $_tap_planned tests but ran $_tap_n"
		return 1
	fi
	[ "$_tap_failed" -eq 0 ]
}

# ---------------------------------------------------------------- waiting

# Microseconds since the epoch.
_tap_now_us() {
	local t="${EPOCHREALTIME/[.,]/}"
	echo "$((10#$t))"
}

# Seconds ("3" or "2.5") to microseconds.
_tap_secs_us() {
	local s="$1" int frac=""
	int="${s%%.*}"
	[[ "$s" == *.* ]] && frac="${s#*.}"
	frac="${frac}000000"
	echo "$((10#${int:-0} * 1000000 + 10#${frac:0:6}))"
}

# wait_for SECS CMD [ARGS...]: poll CMD (quietly) every 0.1 s until it
# succeeds (return 0) or SECS have passed (return 1).
wait_for() {
	local end
	end=$(($(_tap_now_us) + $(_tap_secs_us "$1")))
	shift
	while :; do
		"$@" >/dev/null 2>&1 && return 0
		[ "$(_tap_now_us)" -ge "$end" ] && return 1
		sleep 0.1
	done
}

# rerun_until SECS ERE FILE CMD [ARGS...]: run CMD (stdout to FILE, stderr
# to FILE.err) again while it succeeds without a line matching ERE in FILE,
# for at most SECS: a loaded machine may produce no event in one window.
# Returns the status of CMD's last run.
rerun_until() {
	local end status ere="$2" file="$3"
	end=$(($(_tap_now_us) + $(_tap_secs_us "$1")))
	shift 3
	while :; do
		status=0
		"$@" >"$file" 2>"$file.err" || status=$?
		[ "$status" -ne 0 ] && return "$status"
		grep -Eq -- "$ere" "$file" && return 0
		[ "$(_tap_now_us)" -ge "$end" ] && return 0
	done
}

# wait_pidfile FILE SECS: wait until FILE holds a pid, then print it.
wait_pidfile() {
	wait_for "$2" test -s "$1" || return 1
	cat "$1"
}

# ---------------------------------------------------------------- skips

# Skip everything unless a system-wide cpu-clock perf event can be opened.
need_root_perf() {
	local paranoid
	if [ ! -r /proc/sys/kernel/perf_event_paranoid ]; then
		tap_skip_all "no perf events (no /proc/sys/kernel/perf_event_paranoid)"
	fi
	[ "$(id -u)" -eq 0 ] && return 0
	paranoid="$(cat /proc/sys/kernel/perf_event_paranoid)"
	if [ "$paranoid" -gt 0 ]; then
		tap_skip_all "system-wide profiling needs root or perf_event_paranoid <= 0 (it is $paranoid)"
	fi
}

# need_tool CMD PACKAGE: skip everything, naming the Debian package, when
# CMD is missing. Where scripts/check installed every tool (TT_STRICT_TOOLS)
# or under CI, a missing tool is a failure: a test never passes vacuously.
need_tool() {
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ -n "${TT_STRICT_TOOLS:-}" ] || [ -n "${CI:-}" ]; then
		echo "1..1"
		echo "not ok 1 - $1 is not installed (Debian package $2), though scripts/check installs it"
		exit 1
	fi
	tap_skip_all "$1 is not installed (apt-get install $2)"
}

# without_bpf OUT RUN ERE BPF_RUN: without CAP_BPF and CAP_SYS_ADMIN
# (CAP_PERFMON kept: perf events still open), the shell command RUN exits
# 0 with its stdout in OUT, saying ERE on stderr (the fallback notice);
# BPF_RUN (--engine bpf) exits non-zero saying why. Returns 1 after a
# skip when capsh is missing (the caller skips its checks of OUT).
without_bpf() {
	local drop="capsh --drop=cap_sys_admin,cap_bpf --" st
	if ! command -v capsh >/dev/null 2>&1; then
		skip "capsh (libcap2-bin) missing" "fallback without CAP_BPF"
		return 1
	fi
	$drop -c "$2" >"$1" 2>"$TT_TMP/without-bpf.err"
	ok $? "no CAP_BPF: auto runs"
	like "$(cat "$TT_TMP/without-bpf.err")" "$3" \
		"no CAP_BPF: the fallback notice on stderr, with its cost and why"
	$drop -c "$4" >/dev/null 2>"$TT_TMP/without-bpf2.err"
	st=$?
	[ "$st" -ne 0 ]
	ok $? "no CAP_BPF: --engine bpf exits non-zero ($st)"
	like "$(cat "$TT_TMP/without-bpf2.err")" '--engine bpf: BPF needs root or CAP_BPF' "... saying why"
}

# engines: the sampling engines this machine runs, "perf" and, when
# --engine bpf can run here (built in, a BPF kernel, root), "bpf"; tests
# of targets and stacks run on each, so that a change of auto's choice
# cannot move what they check to the other one unseen.
engines() {
	if [ -z "${_tt_engines:-}" ]; then
		_tt_engines=perf
		"$TRACETOP" -b -d 0.1 -n 1 --engine bpf -- true >/dev/null 2>&1 &&
			_tt_engines="perf bpf"
	fi
	echo "$_tt_engines"
}

# engine_is FILE ENGINE "desc": the JSON or text report in FILE was counted
# by ENGINE.
engine_is() {
	like "$(cat "$1")" "(\"engine\":\"$2\"|^engine: $2 \\()" "$3"
}

# Skip everything when tmux is missing.
need_tmux() {
	need_tool tmux tmux
}

# Skip everything when the tracetop binary or a workload was not built.
need_built() {
	local f
	for f in "$@"; do
		[ -x "$f" ] || tap_skip_all "$f was not built"
	done
}

# need_cgroup_v2 PATH: make the cgroup v2 group PATH (relative, e.g.
# "tt-test-$$/app") under the cgroup v2 mount, removed at exit with what
# still runs in it; sets CG_DIR. Skips everything, saying why, when there
# is no cgroup v2 tree here (CI's chroot may have no /sys) or it is not
# writable, or a process cannot be moved in.
need_cgroup_v2() {
	local mnt top="${1%%/*}"
	mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts 2>/dev/null)
	[ -n "$mnt" ] ||
		tap_skip_all "no cgroup v2 hierarchy is mounted here (no /sys/fs/cgroup, or only cgroup v1)"
	[ -d "$mnt/$top" ] && tap_skip_all "$mnt/$top exists already"
	mkdir -p "$mnt/$1" 2>"$TT_TMP/cgroup.err" ||
		tap_skip_all "cgroup v2 at $mnt is not writable: $(head -n 1 "$TT_TMP/cgroup.err")"
	at_exit "_cgroup_remove '$mnt/$top'"
	CG_DIR="$mnt/$1"
	sh -c "echo \$\$ >'$CG_DIR/cgroup.procs'" 2>"$TT_TMP/cgroup.err" ||
		tap_skip_all "cannot move a process into $CG_DIR: $(head -n 1 "$TT_TMP/cgroup.err")"
}

# _cgroup_remove DIR: kill what runs in the groups this test made under DIR
# (only its own processes are there), then remove them, innermost first.
_cgroup_remove() {
	local cg_top="$1" f p
	[ -d "$cg_top" ] || return 0
	for f in $(find "$cg_top" -name cgroup.procs 2>/dev/null); do
		for p in $(cat "$f" 2>/dev/null); do
			kill -KILL "$p" 2>/dev/null && wait "$p" 2>/dev/null # reaps quietly our own
		done
	done
	wait_for 5 eval '[ -z "$(find "$cg_top" -name cgroup.procs -exec cat {} + 2>/dev/null)" ]'
	find "$cg_top" -depth -type d -exec rmdir {} + 2>/dev/null
}

# ---------------------------------------------------------------- cleanup

# bg_pid PID: kill PID (TERM, then KILL after 2 s) when the test exits.
bg_pid() {
	_tap_pids+=("$1")
}

# at_exit "CMD": run the shell command CMD when the test exits.
at_exit() {
	_tap_at_exit+=("$1")
}

# Succeed while process $1 exists and is not a zombie.
_tap_alive() {
	local stat
	stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
	stat="${stat##*) }"
	[ "${stat%% *}" != "Z" ]
}

# Stop one registered background process and reap it if it is our child.
_tap_stop() {
	local pid="$1"
	_tap_alive "$pid" || { wait "$pid" 2>/dev/null; return 0; }
	kill -TERM "$pid" 2>/dev/null
	wait_for 2 eval '! _tap_alive '"$pid" || kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}

# The EXIT trap: at_exit commands, background processes, tmux, temp files.
_tap_cleanup() {
	local i
	for ((i = ${#_tap_at_exit[@]} - 1; i >= 0; i--)); do
		eval "${_tap_at_exit[i]}" || true
	done
	for i in "${_tap_pids[@]}"; do
		_tap_stop "$i"
	done
	[ -n "$_tap_tmux" ] && tmux_kill
	rm -rf "$TT_TMP"
}

trap _tap_cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# usage_error DESC ERE ARGS...: tracetop ARGS (one short refresh) exits 2
# with a message on stderr matching ERE.
usage_error() {
	local desc=$1 re=$2 status
	shift 2
	timeout -k 5 60 "$TRACETOP" -n 1 -d 0.1 "$@" >"$TT_TMP/usage.out" 2>"$TT_TMP/usage.err"
	status=$?
	[ $status -eq 2 ] && grep -Eq -- "$re" "$TT_TMP/usage.err"
	ok $? "$desc"
	[ $status -eq 2 ] || diag "exit status $status (want 2)"
	diag "$(head -n 5 "$TT_TMP/usage.err")"
}

# ---------------------------------------------------------------- tmux

# Run tmux on this test's private server, never a user's.
_tt_tmux() {
	env -u TMUX tmux -L "$TT_TMUX_SOCKET" -f /dev/null "$@"
}

# tmux_start NAME COLS ROWS CMD [ARGS...]: run CMD in a detached session
# exactly COLS x ROWS (no status line); the pane stays after CMD exits.
# CMD gets an empty XDG_CONFIG_HOME of its own unless TT_KEEP_SETUP is set.
tmux_start() {
	local name="$1" cols="$2" rows="$3"
	shift 3
	need_tmux
	_tap_tmux=1
	# A setup file directory of its own for each start, unless the test
	# keeps one (TT_KEEP_SETUP=1): what one run writes at exit (the pane
	# it quit on...) must not change how the next one starts.
	if [ -z "${TT_KEEP_SETUP:-}" ]; then
		_tap_setups=$((_tap_setups + 1))
		set -- env XDG_CONFIG_HOME="$TT_TMP/setup.$_tap_setups" "$@"
	fi
	_tt_tmux set-option -g status off \; set-option -g remain-on-exit on \; \
		new-session -d -s "$name" -x "$cols" -y "$rows" -- "$@"
}

# tmux_capture NAME [capture-pane flags]: print the visible screen.
tmux_capture() {
	local name="$1"
	shift
	_tt_tmux capture-pane -p -t "$name" "$@"
}

# tmux_keys NAME KEYS...: send keys (tmux send-keys syntax: q, Enter, C-c).
tmux_keys() {
	local name="$1"
	shift
	_tt_tmux send-keys -t "$name" "$@"
}

# tmux_wait_text NAME SECS ERE: wait until the screen has a line matching ERE.
tmux_wait_text() {
	wait_for "$2" _tmux_has_text "$1" "$3"
}

# Succeed when the screen of session $1 has a line matching ERE $2.
_tmux_has_text() {
	tmux_capture "$1" | grep -Eq -- "$2"
}

# lacks_text NAME ERE: succeed when no screen line matches ERE.
lacks_text() {
	! _tmux_has_text "$1" "$2"
}

# tmux_exited NAME: succeed when the program in the session has exited;
# prints its exit status.
tmux_exited() {
	local dead
	dead="$(_tt_tmux display-message -p -t "$1" '#{pane_dead} #{pane_dead_status}')" || return 1
	[ "${dead%% *}" = 1 ] || return 1
	echo "${dead#* }"
}

# tmux_kill: stop the private tmux server and everything in it.
tmux_kill() {
	local sock
	sock="$(_tt_tmux display-message -p '#{socket_path}' 2>/dev/null)" || sock=""
	_tt_tmux kill-server >/dev/null 2>&1 || true
	[ -n "$sock" ] && [ -S "$sock" ] && rm -f "$sock"
	_tap_tmux=""
}

# ---------------------------------------------------------------- TUI tests

# mouse_format TERM: "sgr" when TERM's terminfo has SGR 1006 mouse
# reports (kmous=\E[<), else "x10" (kmous=\E[M, as screen and tmux have).
mouse_format() {
	if infocmp -1 "$1" 2>/dev/null | grep -q 'kmous=\\E\[<'; then
		echo sgr
	else
		echo x10
	fi
}

# The character with code $1.
chr() {
	printf '%b' "\\$(printf '%03o' "$1")"
}

# mouse NAME FMT BUTTON X Y [m]: send one mouse report for BUTTON (0 left,
# 64 wheel up, 65 wheel down) at the 1-based cell (X, Y); a trailing "m"
# makes it a release. X10 reports release as button 3 and only reach
# column and line 94.
mouse() {
	local name=$1 fmt=$2 b=$3 x=$4 y=$5 rel=${6:-} seq
	if [ "$fmt" = sgr ]; then
		seq=$'\e'"[<$b;$x;$y${rel:-M}"
	else
		[ "$x" -le 94 ] && [ "$y" -le 94 ] || return 1
		[ -n "$rel" ] && b=3
		seq=$'\e[M'"$(chr $((b + 32)))$(chr $((x + 32)))$(chr $((y + 32)))"
	fi
	# tmux takes an argument ending in ';' for a command separator
	[ "${seq: -1}" = ";" ] && seq="${seq%;}\\;"
	tmux_keys "$name" -l "$seq"
}

# click NAME FMT X Y: press and release the left button at (X, Y).
click() {
	mouse "$1" "$2" 0 "$3" "$4" && mouse "$1" "$2" 0 "$3" "$4" m
}

# start_split SECS [NAME]: start the split workload (50/30/20) in the background
# (as a copy named NAME if given),
# registered for clean-up; sets $pid (empty if it did not start).
start_split() {
	local bin="$WORKLOADS/split"
	# With a NAME, a copy of split runs under that command name, so a
	# search by name cannot find a parallel test's split instead.
	if [ -n "${2:-}" ]; then
		cp "$bin" "$TT_TMP/$2" && bin="$TT_TMP/$2"
	fi
	SPLIT_PIDFILE="$TT_TMP/split.pid" "$bin" "$1" >/dev/null 2>&1 &
	bg_pid $!
	pid=$(wait_pidfile "$TT_TMP/split.pid" 5)
	rm -f "$TT_TMP/split.pid"
}

# tui_start NAME COLS ROWS ARGS...: tracetop ARGS in a tmux session, in a
# shell that then prints "exit=STATUS" and the terminal modes tracetop left
# (icanon/echo). The shell survives a Ctrl-C (trap ':' INT: a handler,
# unlike an ignored signal, is not inherited by tracetop) and writes no
# core files.
tui_start() {
	local name=$1 cols=$2 rows=$3
	shift 3
	tmux_start "$name" "$cols" "$rows" sh -c \
		"trap ':' INT; ulimit -c 0 2>/dev/null; \"\$@\"; echo \"exit=\$?\"; stty -a | tr ' ;' '\n\n' | grep -E '^-?(icanon|echo)\$' | tr '\n' ' '; echo; sleep 600" \
		sh "$TRACETOP" "$@"
}

# child_pid PARENT COMM: the pid of a child of PARENT named COMM, or nothing.
child_pid() {
	local parent="$1" comm="$2" dir stat
	for dir in /proc/[0-9]*; do
		stat="$(cat "$dir/stat" 2>/dev/null)" || continue
		stat="${stat##*) }"
		stat="${stat#* }"
		[ "${stat%% *}" = "$parent" ] && [ "$(cat "$dir/comm" 2>/dev/null)" = "$comm" ] &&
			{ echo "${dir#/proc/}"; return 0; }
	done
	return 1
}

# tui_pid NAME: the pid of the tracetop running in tmux session NAME (the
# child of the pane's shell), or nothing.
tui_pid() {
	child_pid "$(_tt_tmux display-message -p -t "$1" '#{pane_pid}' 2>/dev/null)" tracetop
}

# latency_notices NAME: the Latency pane's notice lines under its title
# (the lines between it and the column titles), joined: they wrap at the
# pane's width.
latency_notices() {
	local w
	w="$(_tt_tmux display-message -p -t "$1" '#{pane_width}')"
	# (padded back to the width: tmux trims a line's trailing blanks)
	tmux_capture "$1" | awk -v w="$w" '/^[0-9]+ rows \(/ { on = 1; next }
		/PID +COMM +KIND/ { on = 0 } on { printf "%-*s", w, $0 }' | sed -E 's/ +$//'
}

# latency_notice_has NAME ERE: the Latency pane's notices match ERE.
latency_notice_has() {
	latency_notices "$1" | grep -Eq -- "$2"
}

# pprof_decoders: the independent pprof decoders this machine has, one a
# line: go (Go's own pprof, from Debian's golang-go; scripts/check installs
# it) and node (pprof-format from the npm registry, which scripts/check
# installs into the build tree when the registry is reachable).
pprof_decoders() {
	command -v go >/dev/null 2>&1 && echo go
	command -v node >/dev/null 2>&1 && [ -d "$TT_BUILDDIR/tests/npm/node_modules/pprof-format" ] &&
		echo node
	return 0
}

# pprof_decode FILE: the gzipped pprof profile FILE read by every decoder
# pprof_decoders names, printed as one JSON object (samples per leaf
# function and per stack, total, sample types, period, mappings); fails
# when one cannot read it, or two read it differently.
pprof_decode() {
	local d n=0
	for d in $(pprof_decoders); do
		n=$((n + 1))
		case $d in
		go) python3 "$TT_SRCDIR/tests/e2e/pprof-decode-go.py" "$1" >"$TT_TMP/.pprof.$n" ;;
		node) node "$TT_SRCDIR/tests/e2e/pprof-decode.cjs" "$TT_BUILDDIR/tests/npm/node_modules" \
			"$1" >"$TT_TMP/.pprof.$n" ;;
		esac || return 1
		if [ $n -gt 1 ] && ! python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
			"$TT_TMP/.pprof.1" "$TT_TMP/.pprof.$n"; then
			echo "pprof_decode: $d reads $1 differently from $(pprof_decoders | head -n 1)" >&2
			return 1
		fi
	done
	[ $n -gt 0 ] && cat "$TT_TMP/.pprof.1"
}

# probes_of PID [FILE]: how many probes tracetop PID's group holds in FILE
# (default: tracefs's uprobe_events).
probes_of() {
	local f="${2:-/sys/kernel/tracing/uprobe_events}"
	grep -c ":tracetop_$1/" "$f" 2>/dev/null || true
}

# selected_line NAME: the text of the screen lines that start on the
# selection's cyan background. The colours are followed across lines: tmux
# writes only what changes.
selected_line() {
	tmux_capture "$1" -e | LC_ALL=C awk '
	{
		line = $0; text = ""; first = -1
		while (length(line) > 0) {
			if (match(line, /^\033\[[0-9;]*m/)) {
				n = split(substr(line, 3, RLENGTH - 3), codes, ";")
				if (n == 0) bg = 49
				for (i = 1; i <= n; i++) {
					c = codes[i] + 0
					if (c == 0 || c == 49) bg = 49
					else if ((c >= 40 && c <= 47) || (c >= 100 && c <= 107)) bg = c
				}
				line = substr(line, RLENGTH + 1)
			} else {
				if (first < 0) first = bg
				text = text substr(line, 1, 1)
				line = substr(line, 2)
			}
		}
		if (first == 46) print text
	}'
}

# selected_is NAME ERE: the selected line matches ERE.
selected_is() {
	selected_line "$1" | grep -Eq -- "$2"
}

# menu_sel NAME: the text of the open menu's selected item (the selection's
# cyan background is set between the box's border and the text).
menu_sel() {
	local e
	e="$(printf '\033')"
	tmux_capture "$1" -e | grep -oE "│($e\[[0-9;]*m)*$e\[([0-9;]*;)?46m($e\[[0-9;]*m)* [^│]*" | head -n 1 |
		sed -E 's/\x1b\[[0-9;]*m//g; s/^│ //; s/ +$//'
}

# menu_sel_is NAME TEXT: the menu's selected item starts with TEXT.
menu_sel_is() {
	case "$(menu_sel "$1")" in "$2"*) return 0 ;; esac
	return 1
}

# menu_walk NAME TEXT MAX: press Down (at most MAX times), each time waiting
# for the selection to move, until the selected item starts with TEXT.
menu_walk() {
	local name="$1" text="$2" n=0 was
	while ! menu_sel_is "$name" "$text"; do
		[ "$n" -ge "$3" ] && return 1
		n=$((n + 1))
		was="$(menu_sel "$name")"
		tmux_keys "$name" Down
		wait_for 3 eval '[ "$(menu_sel "$name")" != "$was" ]' || return 1
	done
}

# row_order NAME: the order in which split_alpha/beta/gamma appear on screen.
row_order() {
	tmux_capture "$1" | grep -oE 'split_(alpha|beta|gamma)' | tr '\n' ' '
}

# wait_order NAME SECS ORDER: poll until row_order is ORDER.
wait_order() {
	local end=$((SECONDS + $2))
	while [ "$(row_order "$1")" != "$3" ]; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.1
	done
}

# titles_line NAME: the column titles, the line under the tab bar (the
# header's meters come between the header and the tab bar).
titles_line() {
	tmux_capture "$1" | grep -A1 -E '^ Top +Counters' | sed -n 2p
}

# titles_are NAME ERE: the column titles match ERE.
titles_are() {
	titles_line "$1" | grep -Eq -- "$2"
}

# max_width NAME: the widest line on screen, in cells (every non-ASCII
# character the screen uses is one cell wide).
max_width() {
	tmux_capture "$1" | LC_ALL=C sed -E 's/[\xc0-\xf7][\x80-\xbf]+/x/g' |
		LC_ALL=C awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'
}

# idle_bound HOG_P50: the largest p50 (ns) of run-queue waits a thread
# that sleeps most of the time may have beside hogs whose busiest p50 is
# HOG_P50: a quarter of it, or 200 us when that is less (on a loaded
# machine the hogs are preempted for a few us at a time and an idler
# waking onto a busy CPU waits some tens: CI saw hogs at 15 us and an
# idler at 28 us), and 5 ms at most. A wait that counted the sleep would
# be 100 ms.
idle_bound() {
	awk -v h="$1" 'BEGIN { b = h / 4; if (b < 200000) b = 200000; if (b > 5000000) b = 5000000; print b }'
}
