#!/bin/bash
# The Flame pane, driven for real in tmux at 80x24 and 200x50 against the
# workload with known call paths (main -> cp_run -> cp_X -> cp_X_mid ->
# cp_X_leaf, X = alpha 50 %, beta 30 %, gamma 20 %): frames in proportion
# in flame order, moves and the selection, zoom in and out, the callers of
# a function, icicle, search with its share, freeze, a mouse click (80
# columns), reached by Tab and by F from Top, the orientation kept in the
# setup file; monochrome ASCII; the message without -g. Live: against the
# phases workload (phase_one and phase_two in turn, 3 s each) the graph
# follows the profile while not frozen, and stops following once frozen.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/callpaths-fp" "$WORKLOADS/phases"
need_tmux
need_root_perf

CALLPATHS_PIDFILE="$TT_TMP/cp.pid" "$WORKLOADS/callpaths-fp" 180 >/dev/null 2>&1 &
bg_pid $!
pid=$(wait_pidfile "$TT_TMP/cp.pid" 5)
[ -n "$pid" ]
ok $? "workload started" || bail_out "the workload did not start"

# line_of NAME ERE: the first screen line (0-based) matching ERE, or -1.
line_of() {
	tmux_capture "$1" | awk -v re="$2" '$0 ~ re { print NR - 1; found = 1; exit } END { if (!found) print -1 }'
}

# col_of NAME WORD: the column where WORD starts on its first line, or -1.
col_of() {
	tmux_capture "$1" | awk -v w="$2" '{ i = index($0, w); if (i) { print i - 1; found = 1; exit } } END { if (!found) print -1 }'
}

# press_until NAME KEY ERE: press KEY (at most 12 times) until the screen
# has a line matching ERE.
press_until() {
	for _ in $(seq 12); do
		wait_for 0.6 _tmux_has_text "$1" "$3" && return 0
		tmux_keys "$1" "$2"
	done
	wait_for 1 _tmux_has_text "$1" "$3"
}

# graph NAME: the screen between the pane's title line and its last line.
graph() {
	tmux_capture "$1" | sed -n '/^\(Flame graph\|Callers of\)/,$p' | sed '1d' | head -n -3
}

# near A B TOL: |A - B| <= TOL (integers).
near() {
	[ $(($1 - $2)) -le "$3" ] && [ $(($2 - $1)) -le "$3" ]
}

# split_ok NAME COLS: cp_alpha, cp_beta and cp_gamma start at columns 0,
# COLS/2 and 4*COLS/5, within 3 % of COLS.
split_ok() {
	local a b g t=$(($2 * 3 / 100 + 1))
	a=$(col_of "$1" "cp_alpha ")
	b=$(col_of "$1" "cp_beta ")
	g=$(col_of "$1" "cp_gamma")
	near "$a" 0 1 && near "$b" $(($2 / 2)) "$t" && near "$g" $(($2 * 4 / 5)) "$t"
}

# icicle NAME: cp_alpha_leaf is drawn below cp_alpha.
icicle() {
	local leaf caller
	leaf=$(line_of "$1" 'cp_alpha_leaf')
	caller=$(line_of "$1" 'cp_alpha [0-9]')
	[ "$caller" -ge 0 ] && [ "$leaf" -gt "$caller" ]
}

# run_size COLS ROWS: the whole walk through at one size.
run_size() {
	local c=$1 r=$2 s="f$1" a b g la lal before after x y
	tmux_start "$s" "$c" "$r" "$TRACETOP" -g -p "$pid" -d 0.5 --view flame
	tmux_wait_text "$s" 5 'cp_alpha_leaf .*cp_beta_leaf'
	ok $? "${c}x$r: --view flame starts on the Flame pane with the leaves"
	like "$(tmux_capture "$s")" '^Flame graph' "${c}x$r: the pane's title"
	like "$(tmux_capture "$s")" ' Top +Counters .* Annotate +Flame( |$)' "${c}x$r: the tab bar shows Flame"
	like "$(tmux_capture "$s")" '\[all 100\.0%' "${c}x$r: the root selected, in brackets"
	# proportions: cp_beta starts half way across, cp_gamma at 80 % (the
	# first refreshes of a loaded machine may still be off: a few seconds)
	wait_for 6 split_ok "$s" "$c"
	ok $? "${c}x$r: cp_alpha, cp_beta, cp_gamma at columns 0, 50 %, 80 % (+-3 points)" ||
		diag "columns $(col_of "$s" "cp_alpha ") $(col_of "$s" "cp_beta ") $(col_of "$s" "cp_gamma") of $c" "$(graph "$s")"
	la=$(line_of "$s" 'cp_alpha_leaf')
	lal=$(line_of "$s" '^cp_alpha ')
	[ "$la" -ge 0 ] && [ "$la" -lt "$lal" ]
	ok $? "${c}x$r: flame order: the leaf above its caller" || diag "$la $lal"
	[ "$(max_width "$s")" -le "$c" ]
	ok $? "${c}x$r: nothing wider than the window"

	# Up climbs to the heaviest callee; Right to the neighbour
	press_until "$s" Up '\[cp_alpha [0-9.]+%'
	ok $? "${c}x$r: Up reaches cp_alpha (the heaviest callee)"
	tmux_keys "$s" Right
	tmux_wait_text "$s" 2 '\[cp_beta [0-9.]+%'
	ok $? "${c}x$r: Right selects cp_beta"
	like "$(tmux_capture "$s")" 'cp_beta .*samples .*% of all' "${c}x$r: the selected frame's line"

	# Enter zooms: cp_beta fills the width, cp_alpha is gone
	tmux_keys "$s" Enter
	tmux_wait_text "$s" 2 'zoom: cp_beta'
	ok $? "${c}x$r: Enter zooms into cp_beta (title)"
	wait_for 2 lacks_text "$s" 'cp_alpha'
	ok $? "${c}x$r: zoomed: cp_alpha is gone"
	like "$(tmux_capture "$s")" "^\\[cp_beta [0-9.]+% {$((c - 20)),}\\]" \
		"${c}x$r: zoomed: cp_beta spans the width"
	tmux_keys "$s" BSpace
	tmux_wait_text "$s" 2 'cp_alpha_leaf'
	ok $? "${c}x$r: Backspace zooms out (cp_alpha back)"

	# a click selects the frame under it (a report's bytes may arrive
	# apart under load and read as keys: up to 3 tries)
	if [ "$c" -le 94 ]; then
		for _ in 1 2 3; do
			y=$(line_of "$s" 'cp_gamma_mid')
			x=$(col_of "$s" 'cp_gamma_mid')
			click "$s" "$fmt" $((x + 3)) $((y + 1))
			wait_for 2 _tmux_has_text "$s" '\[cp_gamma_mid' && break
		done
		tmux_wait_text "$s" 1 '\[cp_gamma_mid'
		ok $? "${c}x$r: a click selects cp_gamma_mid"
		tmux_keys "$s" Down
		tmux_wait_text "$s" 2 '\[cp_gamma( |\])'
		ok $? "${c}x$r: Down from it selects its caller cp_gamma (flame)"
		tmux_keys "$s" Up
		tmux_wait_text "$s" 2 '\[cp_gamma_mid'
		tmux_keys "$s" Left
		tmux_wait_text "$s" 2 '\[cp_beta_mid'
		ok $? "${c}x$r: Left: the neighbour cp_beta_mid"
		tmux_keys "$s" Down
		tmux_wait_text "$s" 2 '\[cp_beta [0-9]'
		ok $? "${c}x$r: Down: back to cp_beta"
	fi

	# r: the callers of cp_beta_leaf, reversed; again: back
	tmux_keys "$s" Up Up
	tmux_wait_text "$s" 2 '\[cp_beta_leaf'
	ok $? "${c}x$r: Up Up selects cp_beta_leaf"
	tmux_keys "$s" r
	tmux_wait_text "$s" 2 '^Callers of cp_beta_leaf'
	ok $? "${c}x$r: r shows the callers of cp_beta_leaf"
	before=$(line_of "$s" 'cp_beta_mid')
	after=$(line_of "$s" 'cp_run')
	[ "$before" -ge 0 ] && [ "$after" -ge 0 ] && [ "$after" -lt "$before" ] &&
		lacks_text "$s" 'cp_alpha'
	ok $? "${c}x$r: callers: cp_beta_mid above the leaf, cp_run above it, no cp_alpha" ||
		diag "$(graph "$s")"
	tmux_keys "$s" r
	tmux_wait_text "$s" 2 '^Flame graph'
	ok $? "${c}x$r: r again: the whole graph"

	# i: icicle, the root on top
	tmux_keys "$s" i
	wait_for 2 icicle "$s"
	ok $? "${c}x$r: i: icicle, the leaf below its caller" || diag "$(graph "$s")"

	# / highlights and says the share of the matches
	tmux_keys "$s" /
	tmux_keys "$s" -l _leaf
	tmux_keys "$s" Enter
	tmux_wait_text "$s" 2 "match '_leaf': (9[0-9]|100)\\.[0-9]% of all"
	ok $? "${c}x$r: / _leaf: the leaves hold >= 90 % of all" ||
		diag "$(tmux_capture "$s" | grep match)"

	# Z freezes the graph (with a history: on its newest interval, the
	# header says HISTORY)
	tmux_keys "$s" Z
	tmux_wait_text "$s" 2 '\(frozen\)|HISTORY -[0-9]{2}:[0-9]{2}'
	ok $? "${c}x$r: Z: frozen"
	before=$(graph "$s")
	sleep 1.6 # three refreshes
	after=$(graph "$s")
	is "$after" "$before" "${c}x$r: frozen: the graph does not change"
	tmux_keys "$s" q
	wait_for 3 tmux_exited "$s"
	ok $? "${c}x$r: q quits"
}

# tmux's mouse reports, as ncurses reads them for tmux's TERM
fmt=$(mouse_format "$(_tt_tmux show-options -gv default-terminal 2>/dev/null || echo screen)")
diag "mouse reports: $fmt"

run_size 80 24
run_size 200 50

# From Top: Shift-Tab reaches the Flame pane (the last); F on a row shows
# that function selected.
tmux_start top 100 30 "$TRACETOP" -g -p "$pid" -d 0.5
tmux_wait_text top 5 'cp_gamma_leaf'
ok $? "Top: the profile shows"
tmux_keys top BTab
tmux_wait_text top 3 '^Flame graph'
ok $? "Shift-Tab from Top reaches the Flame pane"
tmux_keys top Tab /
tmux_keys top -l cp_gamma_leaf
tmux_keys top Enter F
tmux_wait_text top 3 '\[cp_gamma_leaf'
ok $? "F on cp_gamma_leaf in Top: the Flame pane with it selected"
tmux_kill

# The orientation persists in the setup file: i, quit, start again.
mkdir -p "$XDG_CONFIG_HOME"
TT_KEEP_SETUP=1 tmux_start ic1 100 30 "$TRACETOP" -g -p "$pid" -d 0.5 --view flame
tmux_wait_text ic1 5 'cp_alpha_leaf'
tmux_keys ic1 i
wait_for 2 icicle ic1
ok $? "setup: i draws an icicle"
tmux_keys ic1 q
wait_for 5 tmux_exited ic1
grep -qx 'flame.icicle=yes' "$XDG_CONFIG_HOME/tracetop/tracetoprc"
ok $? "setup: flame.icicle=yes written at exit" ||
	diag "$(cat "$XDG_CONFIG_HOME/tracetop/tracetoprc" 2>&1)"
TT_KEEP_SETUP=1 tmux_start ic2 100 30 "$TRACETOP" -g -p "$pid" -d 0.5 --view flame
tmux_wait_text ic2 5 'cp_alpha_leaf'
wait_for 2 icicle ic2
ok $? "setup: the next start draws an icicle"
tmux_kill

# Monochrome and ASCII: frames still readable, no UTF-8 glyphs.
tmux_start mono 80 24 env NO_COLOR=1 LC_ALL=C LANG=C "$TRACETOP" -g -p "$pid" -d 0.5 --view flame
tmux_wait_text mono 5 'cp_alpha_leaf'
ok $? "NO_COLOR, C locale: the frames show"
tmux_capture mono | LC_ALL=C grep -q $'[\x80-\xff]'
ok $((!$?)) "NO_COLOR, C locale: ASCII only"
like "$(tmux_capture mono -e)" $'\e\\[7m' "NO_COLOR: frames in reverse video"
tmux_kill

# Live: the graph follows the workload's profile (-z: each refresh's
# stacks alone), and a freeze stops it following; Z again resumes.
PHASES_PIDFILE="$TT_TMP/ph.pid" "$WORKLOADS/phases" 120 >/dev/null 2>&1 &
bg_pid $!
ppid=$(wait_pidfile "$TT_TMP/ph.pid" 5)
tmux_start live 80 24 "$TRACETOP" -g -z -p "$ppid" -d 0.5 --view flame
# only NAME ...: the graph shows NAME and not OTHER
only() {
	graph live | grep -q "$1" && ! graph live | grep -q "$2"
}
wait_for 10 only phase_one phase_two
ok $? "live: phase_one's frames while it runs" || diag "$(graph live)"
wait_for 10 only phase_two phase_one
ok $? "live: then phase_two's, with phase_one gone: the graph follows the profile" ||
	diag "$(graph live)"
wait_for 10 only phase_one phase_two
ok $? "live: and phase_one's again" || diag "$(graph live)"
tmux_keys live Z
tmux_wait_text live 2 '\(frozen\)|HISTORY -[0-9]{2}:[0-9]{2}'
before=$(graph live)
sleep 4 # longer than a phase: a live graph would have changed
is "$(graph live)" "$before" "live: frozen, it stays as it was across a phase change"
tmux_keys live Z
if grep -q phase_one <<<"$before"; then
	wait_for 10 only phase_two phase_one
else
	wait_for 10 only phase_one phase_two
fi
ok $? "live: Z again: it follows the profile again" || diag "$(graph live)"
tmux_kill

# Without -g: says how to get stacks.
tmux_start nog 80 24 "$TRACETOP" -p "$pid" --view flame
tmux_wait_text nog 5 'Start tracetop with -g'
ok $? "without -g: the pane says to start with -g"
tmux_kill

done_testing
