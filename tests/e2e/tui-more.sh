#!/bin/bash
# More of the interactive screen, driven for real in tmux: the mouse (in the
# encoding the pane's terminfo asks for, and in SGR under xterm-256color),
# --no-mouse, the refresh prompt, decay/zero, Ctrl-L, U, Left out of a zoom,
# a wide window, and crash signals restoring the terminal.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split"
need_tmux
need_root_perf

start_split 120
[ -n "$pid" ]
ok $? "workload started"

# screen_line NAME N: line N (1-based) of the screen.
screen_line() {
	tmux_capture "$1" | sed -n "${2}p"
}

# line_of NAME ERE: the 1-based screen line of the first match of ERE.
line_of() {
	tmux_capture "$1" | grep -nE -- "$2" | head -n 1 | cut -d: -f1
}

# col_of NAME LINE TEXT: the 1-based column where TEXT starts on LINE.
col_of() {
	screen_line "$1" "$2" | LC_ALL=C sed -E 's/[\xc0-\xf7][\x80-\xbf]+/x/g' |
		awk -v s="$3" '{ print index($0, s) }'
}

# line_matches NAME N ERE: succeed when screen line N matches ERE.
line_matches() {
	screen_line "$1" "$2" | grep -Eq -- "$3"
}

# menu_title NAME: the line above the first menu item (its title border).
menu_title() {
	tmux_capture "$1" | grep -B 1 'Zoom into process' | head -n 1
}

# line_is NAME N TEXT: succeed when screen line N is exactly TEXT.
line_is() {
	[ "$(screen_line "$1" "$2")" = "$3" ]
}

# line_isnt NAME N TEXT: succeed when screen line N is not TEXT.
line_isnt() {
	! line_is "$@"
}

# pane_flag NAME FLAG: a tmux format flag of the pane (mouse_any_flag: the
# program asked for mouse reports; mouse_sgr_flag: in SGR 1006 form).
pane_flag() {
	_tt_tmux display-message -p -t "$1" "#{$2}"
}

# ---------------------------------------------------------------- mouse
tui_start main 100 30 -p "$pid" -d 1
tmux_wait_text main 5 'split_gamma'
ok $? "all three functions show"
# The TERM tmux gave the pane decides how ncurses reads mouse reports.
tpid=$(tui_pid main)
term=$(tr '\0' '\n' <"/proc/${tpid:-0}/environ" 2>/dev/null | sed -n 's/^TERM=//p')
[ -n "$term" ] || term=$(_tt_tmux show-options -gv default-terminal 2>/dev/null)
fmt=$(mouse_format "${term:-screen}")
diag "the pane's TERM is ${term:-unknown}: $fmt mouse reports"
is "$(pane_flag main mouse_any_flag)" 1 "mouse reports are turned on"
wait_order main 5 "split_alpha split_beta split_gamma "
ok $? "sorted by overhead"

# Under load a report's bytes can reach the program further apart than
# ncurses' 25 ms escape delay and be read as keys; try the click up to 3 times.
for attempt in 1 2 3; do
	y=$(line_of main 'split_gamma')
	click main "$fmt" 10 "$y"
	tmux_keys main Enter
	tmux_wait_text main 3 'Zoom into process'
	case "$(menu_title main)" in *split_gamma*) break ;; esac
	tmux_keys main Escape
	wait_for 3 lacks_text main 'Zoom into process'
done
like "$(menu_title main)" 'split_gamma' "a click selects the split_gamma row (the Enter menu names it)"
tmux_keys main Escape
wait_for 3 lacks_text main 'Zoom into process'
ok $? "Esc closes the row menu"

# a click on a column title sorts by it (text columns A to Z)
title=$(line_of main 'Overhead +Samples')
x=$(col_of main "$title" Command)
[ "${x:-0}" -gt 0 ] && click main "$fmt" $((x + 1)) "$title"
wait_for 3 line_matches main "$title" 'Command *[▼▲v^]'
ok $? "a click on Command moves the sort marker there"
! line_matches main "$title" '[▼▲v^] *Overhead'
ok $? "... and off Overhead"
x=$(col_of main "$title" Overhead)
[ "${x:-0}" -gt 0 ] && click main "$fmt" $((x + 1)) "$title"
wait_for 3 line_matches main "$title" '[▼v] *Overhead'
ok $? "a click on Overhead sorts by it again, biggest first"

# ---------------------------------------------------------------- keys
# d: the refresh interval prompt
like "$(screen_line main 2)" 'Refresh: 1\.0s' "the header shows the refresh interval"
tmux_keys main d
tmux_wait_text main 3 'Refresh interval \(s\):'
ok $? "d opens the refresh prompt"
tmux_keys main 0.5 Enter
wait_for 3 line_matches main 2 'Refresh: 0\.5s'
ok $? "0.5 sets the refresh interval to 0.5 s"
tmux_keys main d
tmux_wait_text main 3 'Refresh interval \(s\):'
tmux_keys main abc Enter
tmux_wait_text main 3 "not a refresh interval: 'abc'"
ok $? "a bad interval is refused on the status line, naming it"
like "$(screen_line main 2)" 'Refresh: 0\.5s' "... and the interval is unchanged"

# z: decay and zero
like "$(screen_line main 2)" 'decay' "counts decay by default"
tmux_keys main z
wait_for 3 line_matches main 2 'zero'
ok $? "z: the header says zero"
tmux_keys main z
wait_for 3 line_matches main 2 'decay'
ok $? "z again: the header says decay"

# Ctrl-L: scribble on the tab bar behind curses' back, Ctrl-L repaints it
tty=$(_tt_tmux display-message -p -t main '#{pane_tty}')
[ -n "$tty" ] && printf '\0337\033[3;60HGARBAGE-XYZ\0338' >"$tty"
tmux_wait_text main 3 'GARBAGE-XYZ'
ok $? "text written behind the screen's back shows"
tmux_keys main C-l
wait_for 3 lacks_text main 'GARBAGE-XYZ'
ok $? "Ctrl-L repaints the whole screen"
! tmux_exited main >/dev/null && _tmux_has_text main 'Overhead +Samples'
ok $? "... without quitting"

# U: user symbols hidden, every [.] row goes
tmux_keys main U
tmux_wait_text main 3 'user symbols hidden'
ok $? "U says user symbols are hidden"
wait_for 3 lacks_text main '\[\.\]'
ok $? "no [.] rows remain"
like "$(screen_line main 2)" 'U hidden' "the header says U hidden"
tmux_keys main U
tmux_wait_text main 3 'split_alpha'
ok $? "U again shows them"

# Left backs out of a zoom
wait_order main 5 "split_alpha split_beta split_gamma "
tmux_keys main Home Enter
tmux_wait_text main 3 'Zoom into process'
tmux_keys main Enter
tmux_wait_text main 3 "Zoom: pid $pid"
ok $? "zoomed into the process"
tmux_keys main Left
wait_for 3 lacks_text main 'Zoom:'
ok $? "Left backs out of the zoom"

tmux_keys main q
tmux_wait_text main 3 'exit=0'
ok $? "q exits with status 0"
is "$(pane_flag main mouse_any_flag)" 0 "... and turns mouse reports off"

# ---------------------------------------------------------------- SGR
# Under xterm-256color ncurses asks for SGR (1006) reports.
if [ "$(mouse_format xterm-256color)" = sgr ]; then
	tmux_start sgr 100 30 env TERM=xterm-256color "$TRACETOP" -p "$pid" -d 0.5
	wait_order sgr 5 "split_alpha split_beta split_gamma "
	y=$(line_of sgr 'split_gamma')
	click sgr sgr 10 "$y"
	tmux_keys sgr Enter
	tmux_wait_text sgr 3 'Zoom into process'
	is "$(pane_flag sgr mouse_sgr_flag)" 1 "xterm-256color: SGR mouse reports are asked for"
	like "$(menu_title sgr)" 'split_gamma' "an SGR click selects the split_gamma row"
	tmux_keys sgr Escape q
else
	skip "no xterm-256color terminfo with SGR mouse" "xterm-256color: SGR mouse reports are asked for"
	skip "no xterm-256color terminfo with SGR mouse" "an SGR click selects the split_gamma row"
fi

# ---------------------------------------------------------------- wheel
# A short window over a system-wide run: many more rows than fit.
tmux_start wheel 100 12 "$TRACETOP" -d 0.5
wait_for 5 line_matches wheel 10 '%'
ok $? "a system-wide run fills the 100x12 window"
tmux_keys wheel Z
tmux_wait_text wheel 3 'FROZEN'
first=$(screen_line wheel 5)
mouse wheel "$fmt" 65 10 7
wait_for 3 line_isnt wheel 5 "$first"
ok $? "the wheel scrolls down (the first row changes)"
mouse wheel "$fmt" 64 10 7
# the same row on top again: its symbol (a frozen history view may still
# redraw its numbers)
top_sym() { [ "$(screen_line wheel 5 | awk '{ print $NF }')" = "$(printf '%s\n' "$first" | awk '{ print $NF }')" ]; }
wait_for 3 top_sym
ok $? "the wheel scrolls back up" || diag "first: $first" "now: $(tmux_capture wheel)"
tmux_keys wheel q

# ---------------------------------------------------------------- no mouse
tmux_start nomouse 100 30 "$TRACETOP" -p "$pid" -d 0.5 --no-mouse
wait_order nomouse 5 "split_alpha split_beta split_gamma "
ok $? "--no-mouse: rows show"
is "$(pane_flag nomouse mouse_any_flag)" 0 "--no-mouse: mouse reports stay off"
# Column 41 is byte 'I' in an X10 report, an SGR report starts with '<':
# if curses passed the reports' bytes on as keys, the rows would move.
y=$(line_of nomouse 'split_gamma')
click nomouse "$fmt" 41 "$y"
title=$(line_of nomouse 'Overhead +Samples')
x=$(col_of nomouse "$title" Command)
[ "${x:-0}" -gt 0 ] && click nomouse "$fmt" $((x + 1)) "$title"
tmux_keys nomouse Enter
tmux_wait_text nomouse 3 'Zoom into process'
like "$(menu_title nomouse)" 'split_alpha' "--no-mouse: a click does not move the selection"
like "$(screen_line nomouse "$title")" '[▼v] *Overhead' "--no-mouse: a click on a title does not sort"
# the rows under the menu's popup: closed first
tmux_keys nomouse Escape
wait_for 3 lacks_text nomouse 'Zoom into process'
is "$(tmux_capture nomouse | sed -n "$((title + 1)),$((title + 3))p" | grep -oE 'split_(alpha|beta|gamma)' | tr '\n' ' ')" \
	"split_alpha split_beta split_gamma " "--no-mouse: the reports' bytes are not read as keys"
tmux_keys nomouse Escape q

# ---------------------------------------------------------------- wide
tmux_start big 200 50 "$TRACETOP" -p "$pid" -d 0.5
tmux_wait_text big 5 'split_gamma'
ok $? "200x50: rows show"
like "$(screen_line big 1)" '^Event: ' "200x50: header"
tabs=$(line_of big '^ Top +Counters')
like "$(screen_line big $((${tabs:-0} + 1)))" 'Overhead +Samples +Command +PID +Shared Object +Symbol' "200x50: titles under the tab bar"
like "$(screen_line big 50)" 'F1.*Help.*F10.*Quit' "200x50: key bar on the last line"
w=$(max_width big)
[ "$w" -le 200 ]
ok $? "200x50: no line wider than 200 ($w)"
tmux_keys big q

# ---------------------------------------------------------------- crashes
# A crash signal restores the terminal, then kills with the same signal.
tui_start segv 100 30 -p "$pid" -d 0.7
tmux_wait_text segv 5 'split_alpha'
tpid=$(tui_pid segv)
[ -n "$tpid" ] && kill -SEGV "$tpid"
tmux_wait_text segv 5 'exit=139'
ok $? "SIGSEGV: it dies of the signal (status 139)"
tmux_wait_text segv 3 '(^| )icanon echo'  # printed after the exit status
ok $? "SIGSEGV: the terminal is restored (icanon echo)" || diag "$(tmux_capture segv)"
is "$(pane_flag segv mouse_any_flag)" 0 "SIGSEGV: mouse reports are off again"

tui_start abrt 100 30 -p "$pid" -d 0.8
tmux_wait_text abrt 5 'split_alpha'
tpid=$(tui_pid abrt)
[ -n "$tpid" ] && kill -ABRT "$tpid"
tmux_wait_text abrt 5 'exit=134'
ok $? "SIGABRT: it dies of the signal (status 134)"
tmux_wait_text abrt 3 '(^| )icanon echo'  # printed after the exit status
ok $? "SIGABRT: the terminal is restored (icanon echo)" || diag "$(tmux_capture abrt)"

done_testing
