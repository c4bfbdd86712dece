#!/bin/bash
# The setup file, like htop's: F2 saves the screen's setup (sort, pane,
# meters) to $HOME/.config/tracetop/tracetoprc, a restart with the same
# HOME comes back the same, what changes on the screen is written at exit,
# a broken line is reported with its line number and skipped while the
# rest applies, the command line wins over the file, and --no-config
# neither reads nor writes it.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP"
need_tmux
need_root_perf

# A HOME of its own (lib.sh's XDG_CONFIG_HOME would win over it: the
# XDG path is checked at the end).
export HOME="$TT_TMP/home"
unset XDG_CONFIG_HOME
export TT_KEEP_SETUP=1 # the runs here share their setup file
mkdir -p "$HOME"
rc="$HOME/.config/tracetop/tracetoprc"

# quit NAME: q, then wait for the shell's "exit=" line.
quit() {
	tmux_keys "$1" q
	tmux_wait_text "$1" 10 '^exit='
}

# ---------------------------------------------------------------- F2 saves
tui_start s1 120 30 -d 0.5
tmux_wait_text s1 10 'Top +Counters'
ok $? "started without a setup file"
tmux_keys s1 Tab
tmux_wait_text s1 5 'Scope: total'
ok $? "Tab: the Counters pane"
# sort by the next column (Event), then by it again inverted: ascending
tmux_keys s1 '>'
tmux_wait_text s1 5 'Event(▲|\^)'
ok $? "> sorts the Counters pane by Event" || diag "$(tmux_capture s1)"
tmux_keys s1 m F2
tmux_wait_text s1 5 "setup saved to $rc"
ok $? "F2 says where the setup went"
[ -f "$rc" ]
ok $? "the file is in \$HOME/.config/tracetop"
like "$(cat "$rc" 2>/dev/null)" '^pane=counters$' "it keeps the pane shown"
like "$(cat "$rc" 2>/dev/null)" '^sort\.counters=Event asc$' "it keeps the Counters sort"
like "$(cat "$rc" 2>/dev/null)" '^meters=no$' "it keeps the meters hidden by m"
quit s1
ok $? "q quits"

# ---------------------------------------------------------------- restart
tui_start s2 120 30 -d 0.5
tmux_wait_text s2 10 'Scope: total'
ok $? "a restart with the same HOME starts on the Counters pane" || diag "$(tmux_capture s2)"
tmux_wait_text s2 5 'Event(▲|\^)'
ok $? "sorted by Event again"
lacks_text s2 '^ *CPU[0-9 ]*\['
ok $? "with the meters hidden" || diag "$(tmux_capture s2)"
# changed on the screen, not saved: written at exit
tmux_keys s2 Tab
tmux_wait_text s2 5 'tracepoints? on'
ok $? "Tab: the Trace pane"
quit s2
ok $? "q quits"
like "$(cat "$rc")" '^pane=trace$' "the pane shown at exit is written at exit"
like "$(cat "$rc")" '^sort\.counters=Event asc$' "and the rest is kept"

# ---------------------------------------------------------------- a bad line
printf 'delay=fast\nsort.counters=Run%% desc\nsort.nosuchpane=Name desc\n' >>"$rc"
bad=$(grep -n '^delay=fast$' "$rc" | cut -d: -f1)
bad2=$(grep -n '^sort.nosuchpane=' "$rc" | cut -d: -f1)
tui_start s3 160 30
tmux_wait_text s3 10 "tracetoprc:$bad: delay expects a number"
ok $? "a bad line is shown with its line number ($bad)" || diag "$(tmux_capture s3)"
tmux_wait_text s3 5 'tracepoints? on'
ok $? "the rest of the file applies: the Trace pane"
tmux_keys s3 BTab
tmux_wait_text s3 5 '(▼|v)Run%'
ok $? "the line after the bad one applies: Counters by Run% descending" ||
	diag "$(tmux_capture s3)" "$(cat "$rc")"
tmux_wait_text s3 5 'Refresh: 0.5s'
ok $? "the delay of the earlier good line stands"
quit s3
like "$(tmux_capture s3)" "tracetop: $rc:$bad: delay expects a number from 0.05 to 86400 \(skipped\)" \
	"the bad line is told again on stderr at exit"
like "$(tmux_capture s3)" "tracetop: $rc:$bad2: sort.nosuchpane: no list pane named 'nosuchpane' \(skipped\)" \
	"a sort of a pane that does not exist is told with its line"

# ---------------------------------------------------------------- the command line wins
tui_start s4 120 30 --view top -d 1
tmux_wait_text s4 10 'Refresh: 1(\.0)?s'
ok $? "-d wins over the file's delay" || diag "$(tmux_capture s4)"
like "$(tmux_capture s4)" 'Overhead +Samples' "--view top wins over the file's pane" ||
	diag "$(tmux_capture s4)"
quit s4

# ---------------------------------------------------------------- --no-config
cp "$rc" "$TT_TMP/rc.before"
tui_start s5 120 30 --no-config -d 0.5
tmux_wait_text s5 10 'Refresh: 0.5s'
like "$(tmux_capture s5)" 'Overhead +Samples' "--no-config: the file is not read (Top first)"
tmux_keys s5 Tab Tab F2
tmux_wait_text s5 5 'setup file is off'
ok $? "--no-config: F2 says the file is off"
quit s5
cmp -s "$rc" "$TT_TMP/rc.before"
ok $? "--no-config: the file is not written at exit"

# ---------------------------------------------------------------- XDG_CONFIG_HOME
export XDG_CONFIG_HOME="$TT_TMP/xdg"
tmux_kill # the server keeps the environment it started with
tui_start s6 120 30 -d 0.5
tmux_wait_text s6 10 'Top +Counters'
tmux_keys s6 F2
tmux_wait_text s6 5 "setup saved to $XDG_CONFIG_HOME/tracetop/tracetoprc"
ok $? "XDG_CONFIG_HOME is honoured"
quit s6

tmux_kill
done_testing
