#!/bin/bash
# The history on the screen, driven in tmux: the timeline strip under the
# header; "," steps back interval by interval (the header says HISTORY)
# to the interval where the phases workload ran phase_two on top, then
# further back to where phase_one did; "R" and "." make a range whose
# rows are the sums of the intervals it covers (both functions, in
# proportion); B makes the range the baseline (its rows' Delta 0 against
# it, moving once live); "!" jumps to the spike; "L" returns to the live view;
# "T" makes the strip the selected Top row's share per interval, its label
# naming the row and following the selection: with phase_two's row
# selected, the strip's cell of each interval stepped back to is high
# where phase_two ran (its row's share in that interval high) and low
# where phase_one did; once the workload has gone, the intervals taken
# (counts only) are blank cells; with --history 0 there is no strip and
# "," says why.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/phases"
need_tmux
need_root_perf

PHASES_PIDFILE="$TT_TMP/phases.pid" "$WORKLOADS/phases" 120 >/dev/null 2>&1 &
bg_pid $!
pid=$(wait_pidfile "$TT_TMP/phases.pid" 5)
[ -n "$pid" ]
ok $? "workload started"
t0=$(date +%s)

tui_start hist 120 32 -d 1 -g -p "$pid"
tmux_wait_text hist 15 '^History samples/s -[0-9]{2}:[0-9]{2} .* now'
ok $? "the timeline strip is under the header, of samples/s"

# counts: the Samples of phase_one and phase_two rows on the screen ("0"
# when absent), as "ONE TWO".
counts() {
	tmux_capture hist | awk -v pid="$pid" '
		$0 ~ "phases +" pid " +phases +\\[\\.\\] phase_(one|two) *$" {
			for (i = 1; i <= NF; i++) if ($i == "phases") { n = $(i - 1); break }
			if ($NF == "phase_one") one = n; else two = n
		}
		END { printf "%d %d\n", one, two }'
}

# wait for the end of the first phase_one phase, the phase_two phase and
# a second of phase_one again (the workload's phases are 3 s each)
wait_for 40 sh -c "[ \$((\$(date +%s) - $t0)) -ge 8 ]"
declare -a one two
# phase_rows: the screen's phase rows; rows_moved BEFORE: they differ now.
phase_rows() {
	tmux_capture hist | grep -E 'phase_(one|two) *$'
}
rows_moved() {
	[ "$(phase_rows)" != "$1" ]
}
for step in $(seq 1 12); do
	before=$(phase_rows)
	tmux_keys hist ','
	# the view changes when the shown interval does (sampling goes on
	# underneath); at the oldest interval nothing changes any more
	wait_for 3 rows_moved "$before" || break
	sleep 0.3
	read -r o w <<<"$(counts)"
	one[step]=$o
	two[step]=$w
	diag "step $step back: phase_one $o phase_two $w"
done
like "$(tmux_capture hist | sed -n 2p)" 'HISTORY -[0-9]{2}:[0-9]{2} \.\. -[0-9]{2}:[0-9]{2}' \
	"the header says the view is the history, not live"
k2=""
k1=""
for step in "${!one[@]}"; do
	tot=$((one[step] + two[step]))
	[ "$tot" -gt 0 ] || continue
	if [ -z "$k2" ] && [ $((two[step] * 100 / tot)) -ge 80 ]; then
		k2=$step
	elif [ -n "$k2" ] && [ -z "$k1" ] && [ $((one[step] * 100 / tot)) -ge 80 ]; then
		k1=$step
	fi
done
[ -n "$k2" ]
ok $? "stepping back finds phase_two on top in the interval where it ran (step $k2)"
[ -n "$k1" ]
ok $? "further back, phase_one on top where it ran first (step $k1)"

# a range from the deepest step to the phase_two interval: the sums
last=${#one[@]}
tmux_keys hist 'R'
tmux_wait_text hist 5 'HISTORY .*\(range\)'
ok $? "R starts a range (the header says so)"
for _ in $(seq $((last - k2))); do
	tmux_keys hist '.'
	sleep 0.4
done
sleep 0.5
want_one=0
want_two=0
for step in $(seq "$k2" "$last"); do
	want_one=$((want_one + one[step]))
	want_two=$((want_two + two[step]))
done
is "$(counts)" "$want_one $want_two" \
	"the range shows both functions with the sums of its intervals (steps $k2..$last)"

# B on the range: the range is the baseline; shown against itself every
# row's Delta is 0; back to now (L), the phase running moves away from it
# cell SYM K: the Kth field before the command of SYM's row (Delta: 2)
cell() {
	tmux_capture hist | awk -v s="$1" -v k="$2" '
		$NF == s { for (i = 1; i <= NF; i++) if ($i == "phases") { print $(i - k); exit } }'
}
tmux_keys hist 'B'
tmux_wait_text hist 5 'baseline: [0-9]+ functions'
ok $? "B on the range: it becomes the baseline"
tmux_wait_text hist 5 'Delta +Ratio'
ok $? "... the Delta and Ratio columns appear"
is "$(cell phase_one 2) $(cell phase_two 2)" "+0.00 +0.00" "... the range against itself: no change"
tmux_keys hist 'L'
wait_for 5 lacks_text hist 'HISTORY'
moved() {
	local d1 d2
	d1=$(cell phase_one 2)
	d2=$(cell phase_two 2)
	[ -n "$d1$d2" ] && [ "$d1 $d2" != "+0.00 +0.00" ]
}
wait_for 10 moved
ok $? "... live again, the rows move from the range's shares ($(cell phase_one 2), $(cell phase_two 2))"
tmux_keys hist 'B'
wait_for 5 lacks_text hist 'Delta +Ratio'
ok $? "B again clears it"

tmux_keys hist '!'
tmux_wait_text hist 5 'HISTORY -[0-9]{2}:[0-9]{2} \.\. -[0-9]{2}:[0-9]{2}$|HISTORY -[0-9:]+ \.\. -[0-9:]+ '
ok $? "! jumps to the spike, still in the history"
tmux_keys hist 'L'
wait_for 5 lacks_text hist 'HISTORY'
ok $? "L returns to the live view"
tmux_wait_text hist 5 '^History .* now$'
ok $? "the strip ends at now again"

# T: the share of the selected row, which the strip follows
search_row() {
	tmux_keys hist /
	tmux_keys hist -l "$1"
	tmux_keys hist Enter
	wait_for 3 selected_is hist "$1"
}
search_row phase_one
tmux_keys hist 'T'
tmux_wait_text hist 5 '^History share of phase_one \(peak [0-9]+%\) -[0-9]{2}:[0-9]{2} .* now$'
ok $? "T: the strip's label says it is phase_one's share, the selected row's"
search_row phase_two
tmux_wait_text hist 5 '^History share of phase_two \(peak [0-9]+%\) '
ok $? "... and follows the selection to phase_two"
# the strip's cell of the interval shown (reverse video) as a level 0-7
cursor_level() {
	tmux_capture hist -e | sed -n 3p | python3 -c '
import re, sys
line = sys.stdin.read()
rev = False
for tok in re.findall(r"\x1b\[([0-9;]*)m|(.)", line):
    if tok[1] == "":
        codes = [int(c or 0) for c in tok[0].split(";")]
        for c in codes:
            rev = True if c == 7 else False if c in (0, 27) else rev
    elif rev and tok[1] != " ":
        print(ord(tok[1]) - 0x2581 if "\u2581" <= tok[1] <= "\u2588" else "_.-:=+*#".find(tok[1]))
        break'
}
# the share of phase_two's row on the screen (its Self %), 0 when absent
two_share() {
	tmux_capture hist | awk '/ \[\.\] phase_two *$/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+%$/) p = $i;
		sub("%", "", p); print p; found = 1; exit } END { if (!found) print 0 }'
}
# only phase_two's row in the table: stepping through the history keeps it selected
tmux_keys hist F4
tmux_keys hist -l phase_two
tmux_keys hist Enter
wait_for 3 lacks_text hist ' phase_one *$'
tmux_keys hist 'Z'
tmux_wait_text hist 5 'HISTORY '
ok $? "Z freezes on the newest interval, the strip still phase_two's share" ||
	diag "$(tmux_capture hist | sed -n 3p)"
high=0
low=0
bad=""
for step in $(seq 1 10); do
	was=$(tmux_capture hist | sed -n 2p)
	tmux_keys hist ','
	wait_for 3 eval '[ "$(tmux_capture hist | sed -n 2p)" != "$was" ]' || break
	sleep 0.3
	sh=$(two_share)
	lv=$(cursor_level)
	diag "step $step back: phase_two's share ${sh} %, its cell level ${lv:-none}"
	if python3 -c "import sys; sys.exit(not $sh >= 80)"; then
		[ "${lv:--1}" -ge 5 ] && high=$((high + 1)) || bad="$bad $step:$sh%:${lv:-none}"
	elif python3 -c "import sys; sys.exit(not $sh <= 20)"; then
		[ "${lv:-9}" -le 2 ] && low=$((low + 1)) || bad="$bad $step:$sh%:${lv:-none}"
	fi
done
[ -z "$bad" ] && [ "$high" -ge 2 ] && [ "$low" -ge 2 ]
ok $? "phase_two's cells: high in the intervals where it ran ($high), low where phase_one did ($low)" ||
	diag "wrong cells (step:share:level):$bad"
tmux_keys hist 'L'
wait_for 5 lacks_text hist 'HISTORY'
# the workload gone, the screen freezes: its intervals keep counts only
kill "$pid" 2>/dev/null
tmux_wait_text hist 10 'the profiled processes have exited'
ok $? "the workload gone: the screen says so"
tmux_wait_text hist 10 '^History share of phase_two .*[^ ] {3,}now$'
ok $? "... and the strip's cells of the intervals after are blank (no rows kept)" ||
	diag "$(tmux_capture hist | sed -n 3p)"
tmux_keys hist 'T'
tmux_wait_text hist 5 '^History samples/s '
ok $? "T again: samples/s"
tmux_keys hist 'q'
tmux_kill

tui_start nohist 100 30 -d 1 --history 0 -- sleep 60
tmux_wait_text nohist 15 'Samples/s'
ok $? "--history 0 starts"
lacks_text nohist '^History '
ok $? "--history 0: no strip"
tmux_keys nohist ','
tmux_wait_text nohist 5 'no history: it was turned off with --history 0'
ok $? "--history 0: , says why it does nothing"
tmux_keys nohist 'q'
tmux_kill

# the key map lists the history keys (the man page test compares)
like "$("$TRACETOP" --help-keys)" '^  ,  +history: show the interval before' "--help-keys lists ,"
done_testing
