#!/bin/bash
# Demangled names in the interactive screen, driven for real in tmux on the
# C++ workload (tests/workloads/cxxnames.cpp, built here with g++): the Top
# pane shows the hot function compact (templates and long parameter lists
# elided: "<…>", "(…)" in UTF-8, "<...>" under a C locale) and, for the
# selected row, its full name (c++filt's) on the line under the table; its
# call tree shows the inlined functor compact too; the row's menu names it
# compact; the filter finds it by a parameter type only its full name has.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP"
need_tmux
need_root_perf
need_tool g++ g++
need_tool c++filt binutils
need_tool nm binutils

BIN="$TT_TMP/cxxnames"
g++ -O2 -g -fno-omit-frame-pointer -o "$BIN" "$TT_SRCDIR/tests/workloads/cxxnames.cpp" \
	>"$TT_TMP/cc.out" 2>&1 || bail_out "cannot build cxxnames: $(cat "$TT_TMP/cc.out")"
FULL=$(c++filt "$(nm "$BIN" | awk '$3 ~ /4spinI/ { print $3 }')")
diag "full: $FULL"

PIDFILE="$TT_TMP/cxx.pid" "$BIN" 120 >/dev/null 2>&1 &
bg_pid $!
pid=$(wait_pidfile "$TT_TMP/cxx.pid" 5)
[ -n "$pid" ]
ok $? "workload started"

# -- UTF-8: "…"
tmux_start utf 200 30 env LANG=C.UTF-8 LC_ALL=C.UTF-8 "$TRACETOP" -g -p "$pid" -d 0.5
tmux_wait_text utf 5 '\[\.\] tt::shapes::Accumulator<…>::spin<…>\(…\) *$'
ok $? "the hot row shows the compact name with …"
diag "$(tmux_capture utf | head -n 8)"
selected_is utf 'tt::shapes::Accumulator<…>::spin<…>\(…\)'
ok $? "the hot row is selected"
is "$(tmux_capture utf | grep -xF "$FULL")" "$FULL" "the line under the table: the full name, c++filt's"
tmux_keys utf +
tmux_wait_text utf 5 '[0-9.]+% tt::shapes::Mixer::operator\(\)\(…\) const \(inlined\)'
ok $? "+ shows the inlined functor compact in the tree"
tmux_keys utf Enter
tmux_wait_text utf 3 'Annotate tt::shapes::Accumulator<…>::spin<…>\(…\)'
ok $? "the row's menu names the function compact"
tmux_keys utf Escape
tmux_keys utf F4
tmux_keys utf -l 'Mixer const&'
tmux_keys utf Enter
tmux_wait_text utf 3 '\[\.\] tt::shapes::Accumulator<…>'
ok $? "the filter finds the row by text of its full name only"
lacks_text utf '\[k\]'
ok $? "and only it"
tmux_keys utf q
wait_for 5 tmux_exited utf >/dev/null
ok $? "q quits"

# -- C locale: "..."
tmux_start ascii 200 30 env LANG=C LC_ALL=C "$TRACETOP" -p "$pid" -d 0.5
tmux_wait_text ascii 5 '\[\.\] tt::shapes::Accumulator<\.\.\.>::spin<\.\.\.>\(\.\.\.\) *$'
ok $? "under a C locale the compact name elides with ..."
is "$(tmux_capture ascii | grep -xF "$FULL")" "$FULL" "and the full name shows under the table"
tmux_keys ascii q
wait_for 5 tmux_exited ascii >/dev/null
ok $? "q quits"
done_testing
