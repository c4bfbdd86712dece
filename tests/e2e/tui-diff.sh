#!/bin/bash
# Diff on the screen, driven in tmux: two copies of split under -p, the
# second stopped (SIGSTOP) while the first runs its 50/30/20 mix; B marks
# the baseline (Delta and Ratio columns appear); then the first is killed
# and the second, with SPLIT_MIX=0:1:1 (beta and gamma 50 each), goes on:
# split_beta shows about +20 points, split_gamma +30, and split_alpha
# stays as a row gone since the baseline (0 % now, -50, "gone"); sorting
# by Delta orders the rows by their change; B again clears it; a bad
# --baseline file stops the screen from starting, saying why.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split"
need_tmux
need_root_perf

cp "$WORKLOADS/split" "$TT_TMP/tuidiff"
SPLIT_PIDFILE="$TT_TMP/a.pid" "$TT_TMP/tuidiff" 120 >/dev/null 2>&1 &
bg_pid $!
a=$(wait_pidfile "$TT_TMP/a.pid" 5)
SPLIT_MIX=0:1:1 SPLIT_PIDFILE="$TT_TMP/b.pid" "$TT_TMP/tuidiff" 120 >/dev/null 2>&1 &
bg_pid $!
b=$(wait_pidfile "$TT_TMP/b.pid" 5)
[ -n "$a" ] && [ -n "$b" ] && kill -STOP "$b"
ok $? "workloads started, the second one stopped"

tui_start diff 140 30 -d 1 -z -p "$a,$b"
tmux_wait_text diff 15 'tuidiff +\[\.\] split_gamma'
ok $? "the first workload's rows are shown"
lacks_text diff '^ *Overhead +Samples +Delta'
ok $? "no Delta column without a baseline"

tmux_keys diff B
tmux_wait_text diff 5 'baseline: [0-9]+ functions'
ok $? "B: the status line says what the baseline holds"
tmux_wait_text diff 5 'Overhead +Samples +Delta +Ratio +Command'
ok $? "B: the Delta and Ratio columns appear"

kill -CONT "$b"
kill "$a"
# delta SYM, ratio SYM: the Delta and Ratio cells of SYM's row, the two
# before the command ("" when absent; the Overhead bar may be a word)
cell() {
	tmux_capture diff | awk -v s="$1" -v k="$2" '
		$NF == s { for (i = 1; i <= NF; i++) if ($i == "tuidiff") { print $(i - k); exit } }'
}
delta() {
	cell "$1" 2
}
ratio() {
	cell "$1" 1
}
# settled: the new mix is what the last interval shows (-z)
settled() {
	local g be
	g=$(delta split_gamma)
	be=$(delta split_beta)
	[ "$(ratio split_alpha)" = gone ] &&
		python3 -c "import sys; sys.exit(0 if abs($g - 30) <= 5 and abs($be - 20) <= 5 else 1)" 2>/dev/null
}
wait_for 20 settled
ok $? "after the change: split_gamma +30, split_beta +20 points within 5, split_alpha gone"
diag "alpha $(delta split_alpha) $(ratio split_alpha), beta $(delta split_beta) $(ratio split_beta), gamma $(delta split_gamma) $(ratio split_gamma)"
like "$(tmux_capture diff)" '^ +0\.00% +0 +-[45][0-9]\.[0-9]+ +gone +tuidiff .*split_alpha' \
	"the gone row: 0 % now, about -50 points"
g=$(ratio split_gamma)
python3 -c "import sys; sys.exit(0 if 1.8 <= float('${g#x}') <= 3.5 else 1)" 2>/dev/null
ok $? "split_gamma's ratio is about x2.5 ($g)"

# sort by the Delta column: > moves the sort right, from Overhead past
# Samples; most gained first: gamma (+30) before beta (+20), though their
# shares are equal now, and alpha (-50) last
tmux_keys diff '>' '>'
tmux_wait_text diff 5 '▼Delta'
ok $? "> >: the rows are sorted by Delta, descending"
wait_order diff 5 "split_gamma split_beta split_alpha "
ok $? "sorted by Delta: gamma, beta, then alpha, in the order of their change"
diag "$(row_order diff)"

# Enter on the gone row does nothing to it, and says why (sorted by
# Delta, split_alpha's -50 is the last row)
tmux_keys diff End
wait_for 5 selected_is diff 'split_alpha'
ok $? "End selects the gone row, the most lost"
tmux_keys diff Enter
tmux_wait_text diff 5 'gone since the baseline: nothing of it to act on'
ok $? "Enter on a gone row says there is nothing to act on"

# the Counters pane: each rate's change against the same baseline
tmux_keys diff Tab
tmux_wait_text diff 5 'Change'
ok $? "Counters pane: a Change column with the baseline"
tmux_wait_text diff 5 'task-clock .* [-+][0-9.]+[KMG]? +x[0-9]+\.[0-9]+'
ok $? "Counters pane: task-clock's change of rate and ratio"
tmux_keys diff BTab
tmux_wait_text diff 5 'Overhead +Samples +.Delta'

tmux_keys diff B
tmux_wait_text diff 5 'baseline cleared'
ok $? "B again clears the baseline"
wait_for 5 lacks_text diff 'Delta +Ratio'
ok $? "the Delta and Ratio columns are gone"
tmux_keys diff q
wait_for 10 tmux_exited diff >/dev/null
like "$(tmux_capture diff)" "exit=0" "q quits with status 0"
tmux_kill

printf 'not json' >"$TT_TMP/bad.json"
tui_start bad 100 20 -p "$b" --baseline "$TT_TMP/bad.json"
wait_for 10 tmux_exited bad >/dev/null
like "$(tmux_capture bad)" "tracetop: --baseline: .*bad.json: not tracetop's JSON report: line 1, column 1" \
	"a bad --baseline file: the screen does not start, and says why"
like "$(tmux_capture bad)" "exit=1" "... and exits 1"
done_testing
