#!/bin/bash
# debuginfod: a stripped program's functions named from its debug file,
# fetched by build-id from a real debuginfod server (Debian's, serving a
# folder on a port of its own; it listens on every interface, the client
# asks on loopback) into the client's cache; its inlined functions too
# (the same file serves the DWARF lookups); the next run takes it from
# the cache; --no-debuginfod fetches nothing. With the server's port
# closed: one note, and the run takes its normal time. On the screen: the
# note on the status line, a slow download's progress in the header while
# the screen goes on refreshing, and q quitting at once in the middle of
# one, leaving no "not found" mark in the cache.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP"
need_root_perf
need_tool debuginfod debuginfod
need_tool debuginfod-find debuginfod
need_tool python3 python3
need_tool objcopy binutils
need_tool readelf binutils

cc=${TT_CC:-cc}
src="$TT_SRCDIR/tests/workloads"
mkdir -p "$TT_TMP/srv"
"$cc" -O1 -g -fno-omit-frame-pointer -Wl,--build-id -I"$src" -o "$TT_TMP/split.full" \
	"$src/split.c" "$src/driver.c" -lpthread &&
	objcopy --only-keep-debug "$TT_TMP/split.full" "$TT_TMP/srv/split.debug" &&
	strip --strip-all -o "$TT_TMP/split" "$TT_TMP/split.full" &&
	"$cc" -O2 -g -fno-omit-frame-pointer -Wl,--build-id -o "$TT_TMP/inlines.full" \
		"$src/inlines.c" &&
	objcopy --only-keep-debug "$TT_TMP/inlines.full" "$TT_TMP/srv/inlines.debug" &&
	strip --strip-all -o "$TT_TMP/inlines" "$TT_TMP/inlines.full"
ok $? "split and inlines built with -g, their debug info apart, stripped" ||
	bail_out "cannot build"
bid=$(readelf -n "$TT_TMP/split" | awk '/Build ID:/ { print $3 }')
like "$bid" '^[0-9a-f]{40}$' "it has a build-id"
! nm "$TT_TMP/split" 2>/dev/null | grep -q split_alpha
ok $? "the stripped program has no symbol table"

# A free port on loopback (closed again: nothing listens there).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

port=$(free_port)
debuginfod -F -p "$port" -d "$TT_TMP/db.sqlite" -t 0 -g 0 "$TT_TMP/srv" >"$TT_TMP/server.log" 2>&1 &
bg_pid $!
# served once this finds it (a fresh cache each time: a miss is cached)
served() {
	rm -rf "$TT_TMP/probe"
	DEBUGINFOD_CACHE_PATH="$TT_TMP/probe" DEBUGINFOD_URLS="http://127.0.0.1:$port" \
		debuginfod-find debuginfo "$bid"
}
wait_for 30 served
ok $? "debuginfod serves the debug file on port $port" || diag "$(tail -n 20 "$TT_TMP/server.log")"
url="http://127.0.0.1:$port"

# ---- batch, with the server
run() { # run CACHE ARGS...: a batch run of the stripped program
	local cache="$1"
	shift
	DEBUGINFOD_URLS="$url" DEBUGINFOD_CACHE_PATH="$cache" \
		"$TRACETOP" -b -d 1 -n 2 "$@" -- "$TT_TMP/split" 3 >"$TT_TMP/out" 2>"$TT_TMP/err"
}
run "$TT_TMP/cache"
ok $? "a batch run with DEBUGINFOD_URLS exits 0"
out=$(cat "$TT_TMP/out")
for fn in split_alpha split_beta split_gamma; do
	like "$out" "split +\[\.\] $fn\$" "$fn is named"
done
is "$(grep -c 'debuginfod: fetched' "$TT_TMP/err")" 1 "one line on stderr says the download"
like "$(cat "$TT_TMP/err")" '^tracetop: debuginfod: fetched the debug info of split \([0-9.]+ KiB in [0-9.]+ s\)$' \
	"it says what and how much"
diag "$(grep 'debuginfod' "$TT_TMP/err")"
cmp -s "$TT_TMP/cache/$bid/debuginfo" "$TT_TMP/srv/split.debug"
ok $? "the debug file is in the cache (DEBUGINFOD_CACHE_PATH)"

run "$TT_TMP/cache"
ok $? "a second run exits 0"
like "$(cat "$TT_TMP/out")" 'split +\[\.\] split_alpha$' "it names from the cache"
is "$(grep -c 'debuginfod: fetched' "$TT_TMP/err")" 0 "without a download"

# inline chains come from the same downloaded file (as in inline.sh, with
# counts zeroed at each refresh). The samples that waited for the
# download are counted without them, and the worker (niced) may take a
# few seconds on a loaded machine: one of the later refreshes is enough.
DEBUGINFOD_URLS="$url" DEBUGINFOD_CACHE_PATH="$TT_TMP/cache" "$TRACETOP" -b -g -z -d 1 -n 6 \
	--format folded -- "$TT_TMP/inlines" 7 >"$TT_TMP/folded" 2>"$TT_TMP/err"
ok $? "a run of the stripped inlines program with -g exits 0"
best=0
for n in 2 3 4 5 6; do
	hot=$(awk -v n=$n 'BEGIN { b = 1 } !NF { b++; next } b == n' "$TT_TMP/folded" |
		grep -F 'main;outer_fn;inl_a (inlined);inl_b (inlined)' | awk '{ s += $NF } END { print s + 0 }')
	all=$(awk -v n=$n 'BEGIN { b = 1 } !NF { b++; next } b == n && NF { s += $NF } END { print s + 0 }' \
		"$TT_TMP/folded")
	diag "refresh $n: $hot of $all samples through outer_fn;inl_a;inl_b"
	python3 -c "import sys; sys.exit(0 if $all > 0 and $hot / $all > 0.9 else 1)" && best=1
done
[ "$best" = 1 ]
ok $? "its inlined functions are named from the download (90 % in a refresh)"

run "$TT_TMP/nocache" --no-debuginfod
ok $? "--no-debuginfod exits 0"
! grep -q 'split_alpha' "$TT_TMP/out"
ok $? "and fetches nothing: the functions have no names"
! grep -q debuginfod "$TT_TMP/err" && [ ! -e "$TT_TMP/nocache/$bid" ]
ok $? "no note, nothing in the cache"

# ---- batch, the server's port closed
closed=$(free_port)
t0=$(_tap_now_us)
DEBUGINFOD_URLS="http://127.0.0.1:$closed" DEBUGINFOD_CACHE_PATH="$TT_TMP/cache2" \
	"$TRACETOP" -b -d 1 -n 2 -- "$TT_TMP/split" 3 >"$TT_TMP/out" 2>"$TT_TMP/err"
ok $? "with nothing on the port, the run exits 0"
ms=$((($(_tap_now_us) - t0) / 1000))
diag "two 1 s refreshes took $ms ms"
[ "$ms" -lt 5000 ]
ok $? "in its normal time (two 1 s refreshes: under 5 s)"
is "$(grep -c 'cannot reach the server' "$TT_TMP/err")" 1 "the note, once"
like "$(cat "$TT_TMP/err")" "^tracetop: debuginfod: http://127\.0\.0\.1:$closed: cannot reach the server \(Connection refused\); going on without\$" \
	"it names the server and why"
grep -Eq 'split +\[\.\] \[unknown\]' "$TT_TMP/out"
ok $? "the samples are still counted, unnamed"

# ---- the screen
tui_run() { # tui_run NAME URL CACHE: tracetop on the screen, the program for 30 s
	tmux_start "$1" 120 30 env DEBUGINFOD_URLS="$2" DEBUGINFOD_CACHE_PATH="$3" \
		"$TRACETOP" -d 0.5 -- "$TT_TMP/split" 30
}
# Wait until the screen of $1 changes: a refresh (the counts move).
refreshed() {
	local before
	before=$(tmux_capture "$1")
	wait_for 3 eval '[ "$(tmux_capture "'"$1"'")" != "$before" ]'
}

tui_run dbg "$url" "$TT_TMP/cache3"
tmux_wait_text dbg 5 'debuginfod: fetched the debug info of split'
ok $? "the status line says the download" || diag "$(tmux_capture dbg)"
tmux_wait_text dbg 5 'split_alpha'
ok $? "and the functions are named"
tmux_keys dbg q
wait_for 3 tmux_exited dbg >/dev/null
ok $? "q quits"

# A slow server: the debug file at 5 KiB/s, so that the download is seen.
cat >"$TT_TMP/slow.py" <<'PY'
import http.server, os, sys, time
portfile, path, bid, rate = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
data = open(path, "rb").read()
class Slow(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path != "/buildid/%s/debuginfo" % bid:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            for i in range(0, len(data), 512):
                self.wfile.write(data[i:i + 512])
                self.wfile.flush()
                time.sleep(512 / rate)
        except OSError:
            pass
    def log_message(self, *args):
        pass
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Slow)
with open(portfile + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(portfile + ".tmp", portfile)
srv.serve_forever()
PY
slow_server() { # slow_server RATE: start one; sets $slow (its URL)
	rm -f "$TT_TMP/slow.port"
	python3 "$TT_TMP/slow.py" "$TT_TMP/slow.port" "$TT_TMP/srv/split.debug" "$bid" "$1" &
	bg_pid $!
	slow="http://127.0.0.1:$(wait_pidfile "$TT_TMP/slow.port" 5)"
}
slow_server 5120
tui_run slow "$slow" "$TT_TMP/cache4"
tmux_wait_text slow 5 'debuginfod: fetching split \([0-9.]+ (KiB|bytes) of 1[0-9.]+ KiB\)'
ok $? "the header shows the download's progress" || diag "$(tmux_capture slow | head -3)"
first=$(tmux_capture slow | grep -oE 'fetching split \([^)]*\)')
wait_for 3 eval '! tmux_capture slow | grep -qF "$first"'
ok $? "and it moves ($first, then more)"
refreshed slow
ok $? "the screen refreshes meanwhile"
tmux_wait_text slow 10 'split_alpha'
ok $? "the functions are named once it is done"
wait_for 3 lacks_text slow 'debuginfod: fetching'
ok $? "and the header no longer shows it"
tmux_keys slow q
wait_for 3 tmux_exited slow >/dev/null

# q in the middle of a download (at 100 bytes/s) quits at once, and the
# cache is left as it was (an aborted download must not say "not found").
slow_server 100
tui_run stop "$slow" "$TT_TMP/cache5"
tmux_wait_text stop 5 'debuginfod: fetching split'
ok $? "a very slow download runs"
t0=$(_tap_now_us)
tmux_keys stop q
wait_for 5 tmux_exited stop >/dev/null
ok $? "q quits during it"
ms=$((($(_tap_now_us) - t0) / 1000))
diag "q to exit: $ms ms"
[ "$ms" -lt 2500 ]
ok $? "within the client's one-second look (under 2.5 s)"
[ ! -e "$TT_TMP/cache5/$bid/debuginfo" ]
ok $? "no mark of a miss is left in the cache" || diag "$(ls -la "$TT_TMP/cache5/$bid")"

# the server's port closed: the note, and the screen goes on
tui_run off "http://127.0.0.1:$closed" "$TT_TMP/cache6"
tmux_wait_text off 5 'cannot reach the server'
ok $? "the status line says the server cannot be reached" || diag "$(tmux_capture off)"
like "$(tmux_capture off | head -2)" 'debuginfod: offline' "the header says offline"
refreshed off && refreshed off
ok $? "the screen goes on refreshing"
tmux_keys off q
wait_for 3 tmux_exited off >/dev/null
ok $? "q quits"
done_testing
