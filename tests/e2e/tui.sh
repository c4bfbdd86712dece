#!/bin/bash
# The interactive screen, driven for real in tmux: first frame, sorting,
# filtering, help, zoom, resizing, and every way out restoring the terminal.
. "$(dirname "$0")/lib.sh"
need_built
need_tmux
need_root_perf

start_split 120
[ -n "$pid" ]
ok $? "workload started"

tui_start main 120 30 -p "$pid" -d 0.5
tmux_wait_text main 2 'split_alpha'
ok $? "the hot function shows within 2 s"
tmux_wait_text main 5 'split_gamma'
ok $? "all three functions show"
like "$(tmux_capture main)" 'Overhead +Samples +Command +PID +Shared Object' "column titles"
like "$(tmux_capture main)" "Target: .*pid $pid" "header names the target"
like "$(tmux_capture main)" 'F1.*Help.*F10.*Quit' "key bar"
is "$(row_order main)" "split_alpha split_beta split_gamma " "sorted by overhead"

# invert, then sort by Command via the F6 menu and back by overhead
tmux_keys main I
wait_order main 3 "split_gamma split_beta split_alpha "
ok $? "I inverts the order"
tmux_keys main I
wait_order main 3 "split_alpha split_beta split_gamma "
ok $? "I again restores it"

# F6 opens the sort menu; choose Symbol (ascending by name), then invert
tmux_keys main F6
tmux_wait_text main 3 'Sort by'
ok $? "F6 opens the sort menu"
for k in Down Down Down Down Down; do tmux_keys main "$k"; done
tmux_keys main Enter
wait_order main 3 "split_alpha split_beta split_gamma "
ok $? "sorted by symbol name"
tmux_keys main I
wait_order main 3 "split_gamma split_beta split_alpha "
ok $? "by symbol name, inverted"
like "$(tmux_capture main)" 'Symbol *[▼▲v^]' "the sort column's title is marked"
# back to overhead: '<' five times walks the titled columns back
tmux_keys main '<' '<' '<' '<' '<'
tmux_wait_text main 3 '(▼|▲|v|\^)Overhead'
ok $? "< five times walks back to Overhead"

# filter: only matching rows, Esc restores
tmux_keys main '\' b e t a
tmux_wait_text main 3 'Filter: beta'
ok $? "the filter prompt shows what was typed"
tmux_keys main Enter
wait_for 3 lacks_text main 'split_alpha'
ok $? "filter drops the others"
like "$(tmux_capture main)" 'split_beta' "filter keeps matching rows"
tmux_keys main Escape
tmux_wait_text main 3 'split_alpha'
ok $? "Esc clears the filter"

# search moves the selection from the first row to the match
tmux_keys main Home
wait_for 3 selected_is main split_alpha
ok $? "Home selects the first row" || diag "$(tmux_capture main -e | head -8 | cat -v)"
tmux_keys main / g a m
tmux_wait_text main 3 'Search: gam'
tmux_keys main Enter
wait_for 3 selected_is main split_gamma
ok $? "search selects the matching row"

# help opens and closes
tmux_keys main F1
tmux_wait_text main 3 'keys \(arrows scroll'
ok $? "F1 opens the help"
like "$(tmux_capture main)" 'Esc +close a dialog' "help lists the key map"
tmux_keys main Escape
tmux_wait_text main 3 'Overhead.*Samples'
ok $? "Esc closes the help"
tmux_keys main '?'
tmux_wait_text main 3 'keys \(arrows scroll'
tmux_keys main q
tmux_wait_text main 3 'Overhead.*Samples'
ok $? "q closes the help first"
! tmux_exited main >/dev/null
ok $? "... without quitting"

# Enter menu: zoom into the process, the header says so, Esc leaves
tmux_keys main Home Enter
tmux_wait_text main 3 'Zoom into process'
ok $? "Enter opens the row menu"
tmux_keys main Enter
tmux_wait_text main 3 "Zoom: pid $pid"
ok $? "zoom into the process shows in the header"
tmux_keys main Escape
wait_for 3 sh -c "! env -u TMUX tmux -L '$TT_TMUX_SOCKET' capture-pane -p -t main | grep -q 'Zoom:'"
ok $? "Esc leaves the zoom"

# K hides kernel symbols, Z freezes
tmux_keys main K
tmux_wait_text main 3 'kernel symbols hidden'
ok $? "K hides kernel symbols"
tmux_keys main K Z
tmux_wait_text main 3 'FROZEN|HISTORY -[0-9]{2}:[0-9]{2}'
ok $? "Z freezes the display (with a history, on its newest interval)"
tmux_keys main Z
wait_for 3 lacks_text main 'FROZEN|HISTORY -'
ok $? "Z again thaws"

# resize to 80x24: rows stay, nothing wider than 80
_tt_tmux resize-window -t main -x 80 -y 24
wait_for 3 titles_are main 'Overhead +Command +PID +Shared Object +Symbol$'
ok $? "at 80 columns the Samples column gives way"
tmux_wait_text main 3 'split_alpha'
ok $? "rows stay after resizing to 80x24"
w=$(max_width main)
[ "$w" -le 80 ]
ok $? "no line wider than 80 ($w)"
like "$(titles_line main)" '^ *(▼|▲|v|\^)?Overhead' "titles under the tab bar at 80x24"
_tt_tmux resize-window -t main -x 60 -y 20
# (Command, a key of the default grouping, stays: the symbol narrows)
wait_for 3 titles_are main 'Overhead +Command +Shared Object +Symbol$'
ok $? "at 60 columns PID gives way too, Command (a key of the rows) stays" || diag "$(titles_line main)"
w=$(max_width main)
[ "$w" -le 60 ]
ok $? "no line wider than 60 after a second resize ($w)"

# q quits with status 0 and a usable terminal
tmux_keys main q
tmux_wait_text main 3 'exit=0'
ok $? "q exits with status 0"
tmux_wait_text main 3 '(^| )icanon echo'  # printed after the exit status
ok $? "the terminal is restored (icanon echo)" || diag "$(tmux_capture main)"

# SIGHUP (a dropped SSH session) ends it cleanly
tui_start hup 100 30 -p "$pid"
tmux_wait_text hup 3 'split_alpha'
tpid=$(tui_pid hup)
[ -n "$tpid" ] && kill -HUP "$tpid"
tmux_wait_text hup 3 'exit=0'
ok $? "SIGHUP ends it with status 0"
tmux_wait_text hup 3 '(^| )icanon echo'  # printed after the exit status
ok $? "the terminal is restored after SIGHUP" || diag "$(tmux_capture hup)"

# Ctrl-C at the keyboard (SIGINT) too
tui_start intr 100 30 -p "$pid" -d 0.7
tmux_wait_text intr 3 'split_alpha'
tmux_keys intr C-c
tmux_wait_text intr 3 'exit=0'
ok $? "Ctrl-C ends it with status 0"
tmux_wait_text intr 3 '(^| )icanon echo'  # printed after the exit status
ok $? "the terminal is restored after Ctrl-C" || diag "$(tmux_capture intr)"

# SIGTERM as well
tui_start term 100 30 -p "$pid" -d 1
tmux_wait_text term 3 'split_alpha'
tpid=$(tui_pid term)
[ -n "$tpid" ] && kill -TERM "$tpid"
tmux_wait_text term 3 'exit=0'
ok $? "SIGTERM ends it with status 0"

# -n bounds a run; several events cycle with e; ASCII and monochrome
tui_start count 100 30 -p "$pid" -d 0.3 -n 3 -e cpu-clock,page-faults
tmux_wait_text count 5 'exit=0'
ok $? "-n 3 ends the screen by itself"
tui_start events 100 30 -p "$pid" -d 0.3 -e cpu-clock,page-faults
tmux_wait_text events 3 'Event: cpu-clock'
tmux_keys events e
tmux_wait_text events 3 'Event: page-faults'
ok $? "e shows the next event"
tmux_keys events q
tmux_start ascii 100 30 env LANG=C LC_ALL=C NO_COLOR=1 "$TRACETOP" -p "$pid" -d 0.3
tmux_wait_text ascii 3 'split_alpha'
scr=$(tmux_capture ascii)
like "$scr" '\|\|\|' "ASCII bars under a C locale"
! printf '%s' "$scr" | grep -q '█'
ok $? "no UTF-8 block glyphs under a C locale"
tmux_keys ascii q
done_testing
