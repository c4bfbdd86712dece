#!/bin/bash
# shellcheck disable=SC2317 # functions reached indirectly: wl_$NAME, traps
# Name fidelity of tracetop vs perf on real programs (issue 14).
#
# For each workload: start it, let it warm up, then run over the same
# DUR-second window, at the same time, on the same processes:
#
#   perf record -F FREQ -p PIDS -o perf.data -- sleep DUR
#   tracetop -b -z -p PIDS -F FREQ -d DUR -n 1 --format json -o tracetop.json
#     (-d TT_DELAY -n DUR/TT_DELAY with TT_DELAY set)
#
# then `perf script -F pid,ip,sym,dso -G` (one line per sample, its own
# symbol) while the workload still runs (perf resolves JIT maps and the
# container's binary at that point), stop the workload, and compare with
# bench/fidelity.py: per tool the unresolved share, the mangled share, and
# the overlap of the top-15 self-time names (see fidelity.py for the exact
# definitions and name normalization). Bar: tracetop's unresolved share <=
# perf's + 0.5 points, top-15 overlap >= 14 of 15, on every workload.
#
# Usage: bench/fidelity.sh [WORKLOAD...]      (default: all, in this order)
#
#   postgres   pgbench (TPC-B-like, 4 clients, fsync off) against a throwaway
#              PostgreSQL cluster (initdb in a temp dir, run as user postgres,
#              unix socket only); profiles the postmaster and all its children
#   redis      redis-server on 127.0.0.1:$REDIS_PORT under redis-benchmark
#   nginx      nginx (1 worker, temp prefix, 127.0.0.1:$NGINX_PORT) serving a
#              4 KiB static file under wrk; profiles master and worker
#   node       node --perf-basic-prof, hot functions defined (eval) only after
#              both profilers started (bench/fidelity/nodeload.js)
#   cxx        C++ templates/namespaces/lambdas, g++ -O2 -g (fidelity/cxxload.cpp)
#   rust       the same in Rust, rustc -C opt-level=2 -g (fidelity/rustload.rs)
#   python     python3.12+ -X perf, hot functions defined after the start
#              (fidelity/pyload.py); skipped if no python >= 3.12
#   java       Java 17+ (fidelity/JavaLoad.java); `jcmd PID Compiler.perfmap`
#              JAVA_PERFMAP_AT (3) seconds into the window
#   container  the C++ program run from a tmpfs mounted in a private mount
#              namespace (unshare -m): its binary is not visible from the host
#
# Settings (environment):
#   TRACETOP   binary under test (default <repo>/build/tracetop, built with
#              scripts/run --version if missing); copied once at the start
#   DUR        seconds of the profiling window (10)
#   FREQ       sampling frequency of both tools (999)
#   WARMUP     seconds a workload runs before the window (2)
#   REPS       windows per workload (1), each on a fresh start of it; the
#              comparison pools their samples (less sampling noise)
#   PERF_CG    perf record's call-graph option ("" for none, the default:
#              tracetop runs without -g and only self time is compared; put
#              "-g" here and in TT_ARGS to compare both with call chains).
#              Not one-sided: collecting call chains moves perf's own
#              samples at context switches (finish_task_switch) by points
#              against a perf without them over the same window
#   TT_DELAY   tracetop's refresh (-d) in whole seconds (default DUR: one
#              report, -n 1). With less, e.g. 2 (its interactive default),
#              it prints DUR/TT_DELAY reports (-n), zeroed each time (-z),
#              whose rows the comparison adds up: the same window. tracetop
#              re-reads a perf map that misses at most once per refresh, so
#              this changes the JIT workloads' results
#   TT_ARGS    extra tracetop arguments
#   OUT        results root (<repo>/bench/results); this run goes to
#              $OUT/$RUN_ID (default fidelity-YYYYmmdd-HHMMSS), and
#              $OUT/fidelity-latest points at it
#   INSTALL    1 (default): apt-get install what a workload needs if it is
#              missing; 0: skip such a workload instead
#   REDIS_PORT (16379), NGINX_PORT (18080), PG_PORT (15432)
#
# RUN_DIR/WORKLOAD/repN/ holds meta.env, commands.txt, perf.data,
# perf-script.txt, tracetop.json, the tools' stderr (perf.log, tracetop.log)
# and the workload's log; RUN_DIR/report.txt is fidelity.py's output.
#
# Exit status: 0 if every workload that ran meets the bar, 1 if one does not
# (or none ran), 2 on a setup error. Every process, server, mount and temp
# dir the script started is removed on exit (also on Ctrl-C).
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TOP="$(cd "$HERE/.." && pwd)"
SRC="$HERE/fidelity"

ALL_WORKLOADS=(postgres redis nginx node cxx rust python java container)

TRACETOP=${TRACETOP:-$TOP/build/tracetop}
DUR=${DUR:-10}
FREQ=${FREQ:-999}
WARMUP=${WARMUP:-2}
REPS=${REPS:-1}
TT_DELAY=${TT_DELAY:-$DUR}
PERF_CG=${PERF_CG-}
TT_ARGS=${TT_ARGS:-}
OUT=${OUT:-$HERE/results}
RUN_ID=${RUN_ID:-fidelity-$(date +%Y%m%d-%H%M%S)}
INSTALL=${INSTALL:-1}
REDIS_PORT=${REDIS_PORT:-16379}
NGINX_PORT=${NGINX_PORT:-18080}
PG_PORT=${PG_PORT:-15432}
JAVA_PERFMAP_AT=${JAVA_PERFMAP_AT:-3}
# The JIT workloads (node, python) define their hot code this many seconds
# into the window, once both profilers are surely running.
TRIGGER_AT=${TRIGGER_AT:-1}

say() { printf 'fidelity: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 2; }

# --- clean-up ------------------------------------------------------------------
# Every process group the script starts is recorded with the signal that stops
# it; every JIT map file and mount with its path. at_exit undoes all of it.
GROUPS_STARTED=()   # "PGID SIGNAL"
MAPS_STARTED=()     # /tmp/perf-PID.map of processes started here
PROFILERS=()        # perf record / tracetop (timeout) of the window under way
WORK=""

stop_group() { # PGID SIGNAL: signal the group, wait up to 5 s, then SIGKILL
	local pg=$1 sig=$2 i
	kill -0 -- "-$pg" 2>/dev/null || return 0
	kill -s "$sig" -- "-$pg" 2>/dev/null
	for i in $(seq 50); do
		kill -0 -- "-$pg" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -s KILL -- "-$pg" 2>/dev/null
	sleep 0.2
}

stop_all() { # stop every group started so far, newest first
	local i
	for ((i = ${#GROUPS_STARTED[@]} - 1; i >= 0; i--)); do
		# shellcheck disable=SC2086
		stop_group ${GROUPS_STARTED[i]}
	done
	GROUPS_STARTED=()
	for i in "${MAPS_STARTED[@]}"; do rm -f "$i"; done
	MAPS_STARTED=()
}

at_exit() {
	local rc=$?
	trap - EXIT INT TERM
	[ ${#PROFILERS[@]} -gt 0 ] && kill -TERM "${PROFILERS[@]}" 2>/dev/null && sleep 0.5
	stop_all
	[ -n "$WORK" ] && [ -d "$WORK" ] && rm -rf "$WORK"
	exit "$rc"
}
trap at_exit EXIT
trap 'say "interrupted"; exit 130' INT TERM

# start [STOPSIG] -- CMD...: run CMD in a new session (its own process group)
# with output to $WDIR/workload.log; sets STARTED_PID (= its PGID). STOPSIG
# (TERM) stops it; only programs that set their own handler can be given INT
# or QUIT: a background job of a script starts with both ignored.
start() {
	local sig=TERM
	if [ "$1" != -- ]; then sig=$1; shift; fi
	shift
	# in $WORK: node --perf-basic-prof leaves an isolate-*-v8.log in its cwd
	(cd "$WORK" && exec setsid "$@") >>"$WDIR/workload.log" 2>&1 </dev/null &
	STARTED_PID=$!
	disown "$STARTED_PID" # no "Killed" notices from bash: stop_group reports nothing either
	GROUPS_STARTED+=("$STARTED_PID $sig")
	printf '$ %s\n' "$*" >>"$WDIR/commands.txt"
}

install_pkgs() { # install Debian packages; sets SKIP and fails if it cannot
	if [ "$INSTALL" != 1 ]; then
		SKIP="needs $* (not installed, INSTALL=0)"
		return 1
	fi
	say "installing $*"
	# A policy-rc.d that says no keeps the packages' own services (Debian's
	# main PostgreSQL cluster, nginx on :80, redis on :6379) from starting.
	local policy=/usr/sbin/policy-rc.d ours=0 ok=0
	if [ ! -e "$policy" ]; then
		printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && ours=1
	fi
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >>"$WORK/apt.log" 2>&1 ||
		{ apt-get update -q >>"$WORK/apt.log" 2>&1 &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >>"$WORK/apt.log" 2>&1; }; } && ok=1
	[ "$ours" = 1 ] && rm -f "$policy"
	if [ "$ok" != 1 ]; then
		SKIP="could not install $* (apt-get: $(tail -1 "$WORK/apt.log"))"
		return 1
	fi
}

need() { # need CMD PACKAGE...: install PACKAGEs if CMD is missing
	local cmd=$1
	shift
	command -v "$cmd" >/dev/null 2>&1 && return 0
	install_pkgs "$@" || return 1
	command -v "$cmd" >/dev/null 2>&1 || { SKIP="$cmd still missing after installing $*"; return 1; }
}

wait_for() { # wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds
	local t=$1 i
	shift
	for ((i = 0; i < t * 10; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

alive() { local p; for p in ${PIDS//,/ }; do kill -0 "$p" 2>/dev/null || return 1; done; }

children_of() { # the PID and all its descendants, comma-separated
	local list=$1 frontier=$1 next p kids
	while [ -n "$frontier" ]; do
		next=""
		for p in $frontier; do next+=" $(pgrep -P "$p" | tr '\n' ' ')"; done
		read -r -a kids <<<"$next"
		frontier="${kids[*]}"
		[ -n "$frontier" ] && list+=" $frontier"
	done
	tr ' ' ',' <<<"$list"
}

# --- workloads -------------------------------------------------------------------
# Each wl_NAME starts its programs (with start), waits until they are busy, and
# sets PIDS (the processes to profile, comma list), NOTE (for the report) and
# optionally TRIGGER (a function run TRIGGER_SECS into the window). It returns
# non-zero with SKIP set if the workload cannot run here.

wl_postgres() {
	# shellcheck disable=SC2012 # version directories: plain names
	pg_bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
	local bindir
	bindir=$(pg_bindir)
	if [ ! -x "$bindir/postgres" ] || [ ! -x "$bindir/pgbench" ]; then
		install_pkgs postgresql || return 1
		bindir=$(pg_bindir)
	fi
	if [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pgbench" ]; then
		SKIP="no initdb or pgbench under /usr/lib/postgresql/*/bin"
		return 1
	fi
	id postgres >/dev/null 2>&1 || { SKIP="no user postgres"; return 1; }
	local pg=$WORK/pg
	rm -rf "$pg" # a previous repetition's cluster
	mkdir -p "$pg/sock" && chown -R postgres: "$pg"
	setpriv --reuid postgres --regid postgres --clear-groups \
		"$bindir/initdb" -D "$pg/data" -A trust -U postgres >>"$WDIR/workload.log" 2>&1 ||
		{ SKIP="initdb failed (workload.log)"; return 1; }
	start INT -- setpriv --reuid postgres --regid postgres --clear-groups \
		"$bindir/postgres" -D "$pg/data" -p "$PG_PORT" -k "$pg/sock" -c listen_addresses= \
		-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=128MB
	local pm=$STARTED_PID
	wait_for 30 "$bindir/pg_isready" -q -h "$pg/sock" -p "$PG_PORT" || { SKIP="postgres did not start"; return 1; }
	"$bindir/pgbench" -h "$pg/sock" -p "$PG_PORT" -U postgres -i -s 5 -q postgres >>"$WDIR/workload.log" 2>&1 ||
		{ SKIP="pgbench -i failed"; return 1; }
	start -- "$bindir/pgbench" -h "$pg/sock" -p "$PG_PORT" -U postgres -c 4 -j 2 -n \
		-T $((WARMUP + DUR + 20)) postgres
	sleep "$WARMUP"
	PIDS=$(children_of "$pm")
	NOTE="PostgreSQL $("$bindir/postgres" --version | awk '{print $3}'), pgbench -c 4 -j 2 (TPC-B-like, scale 5, fsync off); postmaster and its $(($(tr ',' '\n' <<<"$PIDS" | wc -l) - 1)) children"
}

wl_redis() {
	need redis-server redis-server || return 1
	need redis-benchmark redis-tools || return 1
	port_busy "$REDIS_PORT" && { SKIP="port $REDIS_PORT is in use (set REDIS_PORT)"; return 1; }
	mkdir -p "$WORK/redis"
	start -- redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
		--daemonize no --dir "$WORK/redis" --logfile ''
	local srv=$STARTED_PID
	wait_for 10 redis-cli -p "$REDIS_PORT" ping || { SKIP="redis-server did not start"; return 1; }
	start -- redis-benchmark -h 127.0.0.1 -p "$REDIS_PORT" -c 50 -n 100000000 -r 100000 -l -q \
		-t set,get,incr,lpush,rpop,sadd,hset,zadd,lrange_100
	sleep "$WARMUP"
	PIDS=$srv
	NOTE="redis-server $(redis-server --version | grep -o 'v=[^ ]*' | cut -c3-), redis-benchmark -c 50 on loopback (set,get,incr,lpush,rpop,sadd,hset,zadd,lrange_100)"
}

wl_nginx() {
	need nginx nginx || return 1
	need wrk wrk || return 1
	port_busy "$NGINX_PORT" && { SKIP="port $NGINX_PORT is in use (set NGINX_PORT)"; return 1; }
	local d=$WORK/nginx
	rm -rf "$d"
	mkdir -p "$d/www" "$d/logs" "$d/tmp"
	head -c 4096 /dev/urandom | base64 -w 76 | head -c 4096 >"$d/www/index.html"
	chmod -R a+rX "$d"
	cat >"$d/nginx.conf" <<-EOF
		worker_processes 1;
		daemon off;
		pid $d/nginx.pid;
		error_log $d/logs/error.log;
		events { worker_connections 1024; }
		http {
		    access_log $d/logs/access.log combined buffer=64k;
		    client_body_temp_path $d/tmp/body;
		    proxy_temp_path $d/tmp/proxy;
		    fastcgi_temp_path $d/tmp/fastcgi;
		    uwsgi_temp_path $d/tmp/uwsgi;
		    scgi_temp_path $d/tmp/scgi;
		    server {
		        listen 127.0.0.1:$NGINX_PORT;
		        root $d/www;
		    }
		}
	EOF
	start QUIT -- nginx -p "$d" -e "$d/logs/error.log" -c "$d/nginx.conf"
	local master=$STARTED_PID
	wait_for 10 port_busy "$NGINX_PORT" || { SKIP="nginx did not start"; return 1; }
	start -- wrk -t 1 -c 32 -d $((WARMUP + DUR + 20))s "http://127.0.0.1:$NGINX_PORT/index.html"
	sleep "$WARMUP"
	PIDS=$(children_of "$master")
	NOTE="$(nginx -v 2>&1 | sed 's/.*: //'), 1 worker, 4 KiB static file, access log on; wrk -t 1 -c 32 on loopback; master and worker"
}

node_trigger() { touch "$WORK/node.go"; }
wl_node() {
	need node nodejs || return 1
	start -- node --perf-basic-prof "$SRC/nodeload.js" "$WORK/node.go" $((DUR + 20))
	PIDS=$STARTED_PID
	MAPS_STARTED+=("/tmp/perf-$PIDS.map")
	wait_for 10 test -s "/tmp/perf-$PIDS.map" || { SKIP="node wrote no /tmp/perf-$PIDS.map"; return 1; }
	sleep "$WARMUP"
	TRIGGER=node_trigger TRIGGER_SECS=$TRIGGER_AT
	NOTE="node $(node --version) --perf-basic-prof; its hot functions are eval'd ${TRIGGER_AT} s into the window"
}

build_cxx() {
	[ -x "$WORK/cxxload" ] && return 0
	need g++ g++ || return 1
	g++ -O2 -g -fno-omit-frame-pointer -o "$WORK/cxxload" "$SRC/cxxload.cpp" >>"$WDIR/workload.log" 2>&1 ||
		{ SKIP="g++ failed (workload.log)"; return 1; }
}
wl_cxx() {
	build_cxx || return 1
	start -- "$WORK/cxxload"
	PIDS=$STARTED_PID
	sleep "$WARMUP"
	NOTE="$(g++ --version | head -1), -O2 -g -fno-omit-frame-pointer"
}

wl_rust() {
	local rustc
	rustc=$(command -v rustc || ls "$HOME"/.cargo/bin/rustc 2>/dev/null) ||
		{ need rustc rustc || return 1; rustc=rustc; }
	"$rustc" -C opt-level=2 -g -C force-frame-pointers=yes -o "$WORK/rustload" "$SRC/rustload.rs" \
		>>"$WDIR/workload.log" 2>&1 || { SKIP="rustc failed (workload.log)"; return 1; }
	start -- "$WORK/rustload"
	PIDS=$STARTED_PID
	sleep "$WARMUP"
	NOTE="$("$rustc" --version | cut -d' ' -f1-2), -C opt-level=2 -g; $(nm "$WORK/rustload" | grep -q ' _R' && echo v0 || echo legacy) mangling"
}

find_python312() { # a python >= 3.12 built with the perf trampoline (-X perf)
	local p
	for p in python3.14 python3.13 python3.12 "$HOME"/.pyenv/versions/3.1[2-9]*/bin/python3; do
		p=$(command -v "$p" 2>/dev/null) || continue
		# (asked without -X perf: a trampoline would write a /tmp/perf-PID.map)
		"$p" -c 'import sys, sysconfig; sys.exit(sys.version_info < (3, 12) or not sysconfig.get_config_var("PY_HAVE_PERF_TRAMPOLINE"))' \
			2>/dev/null && { echo "$p"; return 0; }
	done
	return 1
}
python_trigger() { touch "$WORK/python.go"; }
wl_python() {
	local py
	py=$(find_python312) || {
		SKIP="no python >= 3.12 with the perf trampoline for -X perf (Debian 12 ships 3.11)"
		return 1
	}
	start -- "$py" -X perf "$SRC/pyload.py" "$WORK/python.go" $((DUR + 20))
	PIDS=$STARTED_PID
	MAPS_STARTED+=("/tmp/perf-$PIDS.map")
	sleep "$WARMUP"
	TRIGGER=python_trigger TRIGGER_SECS=$TRIGGER_AT
	NOTE="$("$py" --version) -X perf ($py); its hot functions are defined ${TRIGGER_AT} s into the window"
}

java_trigger() { jcmd "$PIDS" Compiler.perfmap >>"$WDIR/workload.log" 2>&1; }
wl_java() {
	need javac default-jdk-headless || return 1
	command -v jcmd >/dev/null || { SKIP="no jcmd"; return 1; }
	mkdir -p "$WORK/java"
	javac -d "$WORK/java" "$SRC/JavaLoad.java" >>"$WDIR/workload.log" 2>&1 ||
		{ SKIP="javac failed (workload.log)"; return 1; }
	start -- java -XX:+PreserveFramePointer -cp "$WORK/java" JavaLoad $((DUR + 20))
	PIDS=$STARTED_PID
	MAPS_STARTED+=("/tmp/perf-$PIDS.map")
	rm -f "/tmp/perf-$PIDS.map" # a stale map of an old process with this PID
	sleep $((WARMUP + 1))       # a little more: let C2 compile the hot methods
	TRIGGER=java_trigger TRIGGER_SECS=$JAVA_PERFMAP_AT
	NOTE="$(java -version 2>&1 | head -1); jcmd PID Compiler.perfmap ${JAVA_PERFMAP_AT} s into the window"
}

wl_container() {
	build_cxx || return 1
	command -v unshare >/dev/null || { SKIP="no unshare"; return 1; }
	local m=$WORK/ns-root
	mkdir -p "$m"
	# The tmpfs exists only in the new mount namespace: from the host, $m is an
	# empty directory and /proc/PID/exe names a file that is not there.
	# shellcheck disable=SC2016 # $1 and $2 are the inner sh's
	start -- unshare --mount --propagation private -- sh -c \
		'mount -t tmpfs fidelity-ns "$1" && cp "$2" "$1/cxxload" && exec "$1/cxxload"' sh "$m" "$WORK/cxxload"
	PIDS=$STARTED_PID
	sleep "$WARMUP"
	[ "$(readlink "/proc/$PIDS/exe" 2>/dev/null)" = "$m/cxxload" ] ||
		{ SKIP="the namespaced program did not start (workload.log)"; return 1; }
	[ ! -e "$m/cxxload" ] || { SKIP="$m/cxxload is visible from the host"; return 1; }
	NOTE="the C++ program run from a tmpfs mounted only in its own mount namespace (unshare -m); host sees no $m/cxxload"
}

# --- one measurement -----------------------------------------------------------------

profile() { # run both profilers over the same window on $PIDS, then perf script
	local tt_pid perf_pid trig_pid="" rc_tt rc_perf
	{
		echo "\$ perf record -F $FREQ $PERF_CG -p $PIDS -o perf.data -- sleep $DUR"
		echo "\$ $TT -b -z -p $PIDS -F $FREQ -d $TT_DELAY -n $TT_REPORTS --format json -o tracetop.json $TT_ARGS"
	} >>"$WDIR/commands.txt"
	# shellcheck disable=SC2086
	timeout -s INT $((DUR + 30)) perf record -F "$FREQ" $PERF_CG -p "$PIDS" -o "$WDIR/perf.data" \
		-- sleep "$DUR" >"$WDIR/perf.log" 2>&1 &
	perf_pid=$!
	# shellcheck disable=SC2086
	timeout -s INT $((DUR + 30)) "$TT" -b -z -p "$PIDS" -F "$FREQ" -d "$TT_DELAY" -n "$TT_REPORTS" --format json \
		-o "$WDIR/tracetop.json" $TT_ARGS >"$WDIR/tracetop.log" 2>&1 &
	tt_pid=$!
	PROFILERS=("$perf_pid" "$tt_pid")
	if [ -n "$TRIGGER" ]; then
		(sleep "$TRIGGER_SECS" && "$TRIGGER") &
		trig_pid=$!
		echo "\$ (at +${TRIGGER_SECS} s) $(declare -f "$TRIGGER" | sed -n 3p | sed 's/^ *//')" >>"$WDIR/commands.txt"
	fi
	wait "$perf_pid"; rc_perf=$?
	wait "$tt_pid"; rc_tt=$?
	PROFILERS=()
	[ -n "$trig_pid" ] && wait "$trig_pid"
	alive || say "$W: a profiled process exited during the window"
	echo "perf_rc=$rc_perf" >>"$WDIR/meta.env"
	echo "tracetop_rc=$rc_tt" >>"$WDIR/meta.env"
	[ "$rc_perf" = 0 ] || { ERROR="perf record exited $rc_perf (perf.log)"; return 1; }
	[ "$rc_tt" = 0 ] || { ERROR="tracetop exited $rc_tt (tracetop.log)"; return 1; }
	# Symbolize now, while the processes (their JIT maps, their namespaces) live.
	perf script -i "$WDIR/perf.data" -F pid,ip,sym,dso -G >"$WDIR/perf-script.txt" 2>"$WDIR/perf-script.log" ||
		{ ERROR="perf script failed (perf-script.log)"; return 1; }
}

run_rep() { # one fresh start of workload $W, one window, into $WDIR
	rm -rf "$WDIR" && mkdir -p "$WDIR"
	PIDS="" NOTE="" SKIP="" ERROR="" TRIGGER="" TRIGGER_SECS=0
	echo "label=$W" >"$WDIR/meta.env"
	local t0=$SECONDS
	if "wl_$W" && [ -z "$SKIP" ]; then
		if [ -z "$PIDS" ] || ! alive; then
			ERROR="the workload is not running (workload.log)"
		else
			say "$W: profiling pids $PIDS for $DUR s${REP_TAG}"
			profile
		fi
	fi
	stop_all
	rm -f "$WORK"/*.go
	if [ -n "$SKIP" ]; then
		say "$W: skipped: $SKIP"
		echo "skipped=$SKIP" >>"$WDIR/meta.env"
	elif [ -n "$ERROR" ]; then
		say "$W: error: $ERROR"
		echo "skipped=error: $ERROR" >>"$WDIR/meta.env"
	fi
	{
		echo "pids=$PIDS"
		echo "note=$NOTE"
		echo "seconds=$((SECONDS - t0))"
	} >>"$WDIR/meta.env"
}

run_workload() { # REPS fresh starts of workload $1, in $RUN_DIR/$1/repN
	W=$1
	local t0=$SECONDS rep
	rm -rf "${RUN_DIR:?}/$W"
	echo "$W" >>"$RUN_DIR/order.txt"
	say "$W: starting"
	for ((rep = 1; rep <= REPS; rep++)); do
		WDIR=$RUN_DIR/$W/rep$rep
		REP_TAG=""
		[ "$REPS" -gt 1 ] && REP_TAG=" (rep $rep of $REPS)"
		run_rep
		[ -n "$SKIP" ] && break # it will not run better the next time
	done
	say "$W: done in $((SECONDS - t0)) s"
}

# --- main ------------------------------------------------------------------------------

case "${1:-}" in
-h | --help)
	sed -n '3,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
esac
WANT=("$@")
[ ${#WANT[@]} -gt 0 ] || WANT=("${ALL_WORKLOADS[@]}")
for w in "${WANT[@]}"; do
	declare -F "wl_$w" >/dev/null || die "unknown workload '$w' (have: ${ALL_WORKLOADS[*]})"
done
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive number"
if ! [[ "$DUR" =~ ^[1-9][0-9]*$ && "$TT_DELAY" =~ ^[1-9][0-9]*$ ]] || [ $((DUR % TT_DELAY)) != 0 ]; then
	die "DUR and TT_DELAY must be whole seconds, DUR a multiple of TT_DELAY"
fi
TT_REPORTS=$((DUR / TT_DELAY))
[ "$(id -u)" = 0 ] || die "run as root (postgres and nginx are started as root, and perf needs it)"
for tool in perf python3 setsid setpriv timeout pgrep; do
	command -v "$tool" >/dev/null || die "$tool not found"
done

if [ ! -x "$TRACETOP" ]; then
	if [ "$TRACETOP" = "$TOP/build/tracetop" ]; then
		say "building tracetop (scripts/run --version)"
		"$TOP/scripts/run" --version >/dev/null || die "build failed"
	fi
	[ -x "$TRACETOP" ] || die "TRACETOP=$TRACETOP is not executable"
fi

WORK=$(mktemp -d /tmp/tracetop-fidelity.XXXXXX) || die "mktemp failed"
chmod 755 "$WORK" # postgres and nginx's worker (nobody) read below it
export PERF_BUILDID_DIR=$WORK/buildid # perf's build-id cache, thrown away at exit
TT=$WORK/tracetop
cp "$TRACETOP" "$TT"

RUN_DIR=$OUT/$RUN_ID
mkdir -p "$RUN_DIR" || die "cannot create $RUN_DIR"
rm -f "$RUN_DIR/order.txt"
ln -sfn "$RUN_ID" "$OUT/fidelity-latest"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "tracetop: $TRACETOP ($("$TT" --version 2>&1 | head -1), sha256 $(sha256sum "$TT" | cut -c1-12))"
	echo "commit: $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?')"
	echo "perf: $(perf --version)"
	echo "kernel: $(uname -r), $(nproc) CPUs, load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "settings: DUR=$DUR FREQ=$FREQ WARMUP=$WARMUP REPS=$REPS TT_DELAY=$TT_DELAY PERF_CG='$PERF_CG' TT_ARGS='$TT_ARGS'"
	echo "workloads: ${WANT[*]}"
} >"$RUN_DIR/meta.txt"
say "results in $RUN_DIR"

for w in "${WANT[@]}"; do
	run_workload "$w"
done

echo
cat "$RUN_DIR/meta.txt"
echo
python3 "$HERE/fidelity.py" "$RUN_DIR" | tee "$RUN_DIR/report.txt"
exit "${PIPESTATUS[0]}"
