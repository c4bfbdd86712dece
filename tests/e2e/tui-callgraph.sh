#!/bin/bash
# Call graphs in the interactive screen, driven for real in tmux against a
# workload with known call paths (cp_run -> cp_alpha | cp_beta | cp_gamma,
# 50/30/20): Children and Self columns, + and - on a row, the callers view,
# E and C, and nothing wider than the window.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/callpaths-fp"
need_tmux
need_root_perf

CALLPATHS_PIDFILE="$TT_TMP/cp.pid" "$WORKLOADS/callpaths-fp" 120 >/dev/null 2>&1 &
bg_pid $!
pid=$(wait_pidfile "$TT_TMP/cp.pid" 5)
[ -n "$pid" ]
ok $? "workload started"

# tree_lines NAME: the names on call-graph lines ("NN.NN% name"), in order.
tree_lines() {
	tmux_capture "$1" | grep -oE '[0-9]+\.[0-9]+% cp_[a-z_]+' | sed 's/.*% //' | tr '\n' ' '
}

# wait_tree NAME SECS REGEX: poll until tree_lines matches REGEX.
wait_tree() {
	local end=$((SECONDS + $2))
	until [[ "$(tree_lines "$1")" =~ $3 ]]; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.1
	done
}

# search_row NAME TEXT: select the first row matching TEXT with the search prompt.
search_row() {
	tmux_keys "$1" /
	tmux_keys "$1" -l "$2"
	tmux_keys "$1" Enter
	wait_for 3 selected_is "$1" "$2"
}

tmux_start main 120 40 "$TRACETOP" -g -p "$pid" -d 0.5
tmux_wait_text main 3 'cp_alpha_leaf'
ok $? "the hot leaf shows within 3 s"
tmux_wait_text main 5 'cp_run'
ok $? "cp_run shows (children only)"
like "$(tmux_capture main)" 'Children +(▼|▲|v|\^)?Self' "Children and Self columns"
like "$(tmux_capture main)" 'Symbol \(callees, % of total\)' "the title names the tree view"
is "$(tree_lines main)" "" "no tree lines before +"

# + on cp_run: its callees, heaviest first
search_row main cp_run
tmux_keys main +
wait_tree main 3 'cp_alpha .*cp_beta .*cp_gamma '
ok $? "+ on cp_run shows cp_alpha above cp_beta above cp_gamma"
diag "$(tree_lines main)"
like "$(tree_lines main)" '^cp_alpha cp_alpha_mid cp_alpha_leaf ' \
	"a single callee's chain shows whole"
like "$(tmux_capture main)" '(├─|\|-) +[0-9.]+% cp_alpha' "tree glyphs"

# - collapses it
tmux_keys main -
wait_tree main 3 '^$'
ok $? "- collapses the tree"

# G: callers of cp_alpha_leaf
tmux_keys main G
tmux_wait_text main 3 'Symbol \(callers, % of total\)'
ok $? "G switches the trees to callers"
search_row main cp_alpha_leaf
tmux_keys main +
wait_tree main 3 '^cp_alpha_mid cp_alpha '
ok $? "callers of cp_alpha_leaf: cp_alpha_mid, then cp_alpha"
diag "$(tree_lines main)"
tmux_keys main -
wait_tree main 3 '^$'
ok $? "- collapses the callers"

# %, then E and C (the trees still show callers)
tmux_keys main %
tmux_wait_text main 3 'Symbol \(callers, % of parent\)'
ok $? "% shows percentages of the parent"
tmux_keys main Home E
wait_tree main 3 '^cp_alpha_mid cp_alpha cp_run '
ok $? "E expands every row (the first: cp_alpha_leaf's callers)"
tmux_keys main C
wait_tree main 3 '^$'
ok $? "C collapses them all"

# 80x24 with trees open: nothing wider than the window
tmux_keys main E
_tt_tmux resize-window -t main -x 80 -y 24
tmux_wait_text main 3 'cp_'
wait_for 3 eval '[ "$(max_width main)" -le 80 ]'
w=$(max_width main)
[ "$w" -le 80 ]
ok $? "no line wider than 80 at 80x24 ($w)"
tmux_keys main q
wait_for 3 tmux_exited main >/dev/null
ok $? "q quits"
done_testing
