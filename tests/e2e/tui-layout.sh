#!/bin/bash
# The screen at 80x24 (and 200x50, 40x10), driven for real in tmux against
# the split workload (split_alpha/beta/gamma under run_mix under main):
# with -g the symbols and the call trees are readable whole, Shared Object
# shows the object's name whole, the bars shrink to their text at 80
# columns and grow at 200 while the names stay whole, the detail popup (i)
# shows the full symbol and path (in Trace every field) at 80x24 and
# 200x50, Right/Left scroll the long column (the Trace fields at both
# sizes), an F4 filter (and Trace's kernel filter) shows on the title line
# without covering a title, the Probes pane keeps Hits, Per second and
# State, a uprobe's arguments show in the Trace pane at 80 columns, the
# tab bar at 40x10 marks and scrolls to the tabs it cannot show; and the
# help wraps instead of cutting, on the screen and in --help-keys.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/split" "$WORKLOADS/probed"
need_tmux
need_root_perf

# ---- help: --help-keys piped, then the help pane at 80x24
"$TRACETOP" --help-keys | cat >"$TT_TMP/keys"
w=$(LC_ALL=C awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TT_TMP/keys")
[ "$w" -le 80 ]
ok $? "--help-keys piped: no line wider than 80 columns ($w)"

# entries FILE: each key's help joined back into one line (continuations
# are indented under the text), the key column squeezed.
entries() {
	awk '/^  [^ ]/ { if (e != "") print e; e = $0; next }
	     /^                 [^ ]/ { sub(/^ +/, ""); e = e " " $0; next }
	     { if (e != "") print e; e = "" }
	     END { if (e != "") print e }' "$1" | tr -s ' '
}
entries "$TT_TMP/keys" >"$TT_TMP/keys.entries"
grep -q 'checklist of the catalog (Space toggles, type to narrow)$' "$TT_TMP/keys.entries"
ok $? "--help-keys: the Trace pane's Events line whole ('type to narrow')"
grep -q "a function of a binary or of a target's objects; or count a tracepoint$" "$TT_TMP/keys.entries"
ok $? "--help-keys: the Probes pane's Insert line whole ('target's objects')"

start_split 120
[ -n "$pid" ]
ok $? "split workload started"

tui_start help 80 24 -p "$pid" -d 1
tmux_wait_text help 5 'split_alpha'
tmux_keys help F1
tmux_wait_text help 3 'keys \(arrows scroll'
ok $? "F1 shows the help pane"
# page through it, 10 lines a PgDn; keep the area between the tab bar
# and the two bottom lines of each page
: >"$TT_TMP/pages"
prev=""
for i in $(seq 1 30); do
	# (below the tab bar, which scrolls to the active Help tab at 80)
	page=$(tmux_capture help | sed -nE '/^(< | Top  ).* Help *$/,$p' | sed '1d' | head -n -2)
	[ "$page" = "$prev" ] && break
	printf '%s\n@@PAGE@@\n' "$page" >>"$TT_TMP/pages"
	prev=$page
	tmux_keys help NPage
	sleep 0.3
done
# stitch the pages at their overlap
python3 - "$TT_TMP/pages" >"$TT_TMP/helppane" <<'PY'
import sys
pages = [p.split('\n') for p in open(sys.argv[1]).read().split('\n@@PAGE@@\n') if p.strip()]
out = pages[0] if pages else []
for p in pages[1:]:
    o = max([k for k in range(0, min(len(p), len(out)) + 1) if out[len(out) - k:] == p[:k]])
    out += p[o:]
print('\n'.join(out))
PY
w=$(LC_ALL=C sed -E 's/[\xc0-\xf7][\x80-\xbf]+/x/g' "$TT_TMP/helppane" |
	LC_ALL=C awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
[ "$w" -le 80 ]
ok $? "help pane at 80x24: no line wider than 80 columns ($w)"
entries "$TT_TMP/helppane" >"$TT_TMP/pane.entries"
diff "$TT_TMP/keys.entries" "$TT_TMP/pane.entries" >"$TT_TMP/help.diff"
ok $? "help pane at 80x24: every key's whole text, as --help-keys has it"
[ -s "$TT_TMP/help.diff" ] && diag "$(head -20 "$TT_TMP/help.diff")"
tmux_kill

# ---- Top with -g at 80x24
tui_start top 80 24 -g -p "$pid" -d 1
tmux_wait_text top 5 'split_gamma'
ok $? "Top shows the split workload's functions"
for f in split_alpha split_beta split_gamma; do
	tmux_wait_text top 3 " split +\[\.\] $f *$"
	ok $? "80x24 -g: $f whole, its object by name (split, not the path)"
done
lacks_text top 'kallsym(…|~)'
ok $? "Shared Object never cuts [kernel.kallsyms]"
# bar_end NAME: the column where the bars end (where Command's title
# starts) on the title line
bar_end() {
	titles_line "$1" | awk '{ print index($0, "Command") - 1 }'
}
# the bars at their text: Children and Self near 8 cells each (the widest
# share, "100.00%", and a blank), not their 14, plus what the names leave
# over (more when no kernel row widens Shared Object): under 29
w80=$(bar_end top)
[ "$w80" -ge 14 ] && [ "$w80" -lt 29 ]
ok $? "80x24 -g: the bars shrink to their text ($w80 cells for the two, 29 at full width)" || diag "$(titles_line top)"

tmux_keys top G
tmux_wait_text top 3 'callers'
tmux_keys top E
for f in run_mix main; do
	tmux_wait_text top 3 "(└─|├─|\`-|\|-) +[0-9.]+% $f *$"
	ok $? "80x24 -g: the callers tree shows $f whole"
done
[ "$(max_width top)" -le 80 ]
ok $? "nothing wider than 80 columns"

# the detail popup: the full symbol and the object's path
tmux_keys top /
tmux_keys top -l split_beta
tmux_keys top Enter
wait_for 3 selected_is top 'split_beta'
tmux_keys top i
tmux_wait_text top 3 'Details \(i or Esc closes\)'
ok $? "i opens the detail popup"
split_path=$(readlink -f "$WORKLOADS/split")
tmux_wait_text top 2 "Shared object: ${split_path:0:60}"
ok $? "the popup shows the object's path"
tmux_wait_text top 2 'Symbol: split_beta'
ok $? "the popup shows the symbol"
tmux_keys top Escape
wait_for 3 lacks_text top 'Details \('
ok $? "Esc closes the popup"

# F4: the filter shows on the title line
tmux_keys top F4
tmux_keys top -l alpha
tmux_keys top Enter
wait_for 3 titles_are top 'Filter: alpha'
ok $? "the F4 filter shows on the title line"
# ... cutting the Symbol title it would cover with an ellipsis, not over it
titles_are top 'Symbol( \([^…~]*[…~])? +Filter: alpha *$'
ok $? "... the title it would cover cut before it, not overwritten" || diag "$(titles_line top)"
tmux_keys top Escape
wait_for 3 eval '! titles_are top Filter'
ok $? "Esc clears it from the title line"
tmux_kill

# ---- 200x50: every column; 40x10: the symbols still show
tui_start wide 200 50 -g -p "$pid" -d 1
tmux_wait_text wide 5 'split_gamma'
wait_for 3 titles_are wide 'Children.*Self.*Samples.*Command.*PID.*Shared Object.*Symbol'
ok $? "200x50: every column"
lacks_text wide 'kallsym(…|~)|/split +\['
ok $? "200x50: object names whole, not paths"
w200=$(bar_end wide)
[ "$w200" -ge 28 ]
ok $? "200x50: the bars have their room ($w200 cells, $w80 at 80 columns)" || diag "$(titles_line wide)"
tmux_wait_text wide 3 '[0-9]% (█|\|)+ .* split +\[\.\] split_alpha *$'
ok $? "200x50: split_alpha's row has its bar drawn" || diag "$(tmux_capture wide)"
# the detail popup at 200x50: the full symbol and the object's path, whole
tmux_keys wide /
tmux_keys wide -l split_gamma
tmux_keys wide Enter
wait_for 3 selected_is wide 'split_gamma'
tmux_keys wide i
tmux_wait_text wide 3 'Details \(i or Esc closes\)'
ok $? "200x50: i opens the detail popup"
tmux_wait_text wide 2 "Shared object: $split_path"
ok $? "200x50: the popup shows the object's whole path"
tmux_wait_text wide 2 'Symbol: split_gamma'
tmux_wait_text wide 2 'Command: split'
ok $? "200x50: ... the symbol and the command"
tmux_keys wide Escape
wait_for 3 lacks_text wide 'Details \('
ok $? "200x50: Esc closes it"
tmux_kill
tui_start narrow 40 10 -p "$pid" -d 1
tmux_wait_text narrow 5 'split_alpha'
ok $? "40x10: the hottest symbol shows"
like "$(titles_line narrow)" 'Symbol' "40x10: the Symbol column stays"
# the tab bar: the tabs it cannot show are marked, and it scrolls to the
# active one (Flame, the last, by Shift-Tab)
tmux_wait_text narrow 1 '^ Top +Counters .*>$'
ok $? "40x10: the tab bar ends in > (tabs cut off)" || diag "$(tmux_capture narrow)"
tmux_keys narrow BTab
tmux_wait_text narrow 3 '^< .*Flame *$'
ok $? "40x10: Shift-Tab to Flame: the bar scrolls to it, < marking the tabs before" ||
	diag "$(tmux_capture narrow)"
[ "$(max_width narrow)" -le 40 ]
ok $? "40x10: nothing wider than 40 columns"
tmux_kill

# ---- Probes at 80x24: Hits, Per second and State stay
tui_start prb 80 24 -d 0.5 --probe "$WORKLOADS/split:split_gamma" --view probes
tmux_wait_text prb 5 'tracetop_[0-9]+:split_gamma'
ok $? "Probes: the probe's row"
tmux_wait_text prb 3 'Hits +Per second +State *$'
ok $? "Probes at 80x24: Hits, Per second and State stay" || diag "$(tmux_capture prb)"
tmux_wait_text prb 5 'tracetop_[0-9]+:split_gamma .* [1-9][0-9]* +[0-9]+\.[0-9] +on *$'
ok $? "... the probe's hits and rate on its row" || diag "$(tmux_capture prb)"
[ "$(max_width prb)" -le 80 ]
ok $? "Probes: nothing wider than 80 columns"
tmux_kill

# ---- Trace: Right and Left scroll the fields; i shows every field
TRACEFS=/sys/kernel/tracing
if [ -r "$TRACEFS/available_events" ]; then
	tui_start tr 80 24 -d 0.5 -T sched:sched_switch --filter 'prev_pid >= 0' --view trace
	tmux_wait_text tr 5 'prev_comm='
	ok $? "Trace streams sched_switch"
	tmux_wait_text tr 2 '^1 tracepoint on \(filter: prev_pid >= 0\)'
	ok $? "the kernel filter shows on the pane's title line"
	tmux_keys tr p
	tmux_wait_text tr 3 PAUSED
	sleep 0.6 # the last refresh before the pause lands
	lacks_text tr 'next_prio='
	ok $? "at 80 columns the end of the fields is cut"
	tmux_keys tr Right Right Right Right Right Right
	tmux_wait_text tr 3 'Event +Fields \[\+[0-9]+\]'
	ok $? "Right scrolls the fields (the title says how far)" ||
		diag "$(tmux_capture tr)"
	tmux_wait_text tr 2 'next_prio='
	ok $? "the end of the fields shows"
	tmux_keys tr Left Left Left Left Left Left Left Left Left Left Left Left
	wait_for 3 lacks_text tr 'Fields \[\+'
	tmux_wait_text tr 1 'Event +Fields *$'
	ok $? "Left scrolls back to the start"
	tmux_keys tr i
	tmux_wait_text tr 3 'Fields: prev_comm='
	ok $? "i shows the selected event's fields"
	tmux_wait_text tr 2 'next_comm=.*next_pid=|next_pid=.*next_prio='
	ok $? "every field, wrapped in the popup"
	[ "$(max_width tr)" -le 80 ]
	ok $? "Trace: nothing wider than 80 columns"
	tmux_kill

	# 200x50: an exec whose path is longer than the Fields column
	long="$TT_TMP/$(printf 'd%.0s' $(seq 1 60))/$(printf 'e%.0s' $(seq 1 60))"
	mkdir -p "$long" && cp /bin/true "$long/tt-layout-long" || bail_out "cannot copy /bin/true"
	tui_start trw 200 50 -d 0.5 -T sched:sched_process_exec --view trace
	tmux_wait_text trw 5 '1 tracepoint on'
	tmux_keys trw F4
	tmux_keys trw -l tt-layout-long
	tmux_keys trw Enter
	for _ in 1 2 3 4 5; do
		"$long/tt-layout-long"
		tmux_wait_text trw 2 'tt-layout-long-[0-9]+ +sched:sched_process_exec' && break
	done
	tmux_wait_text trw 1 'tt-layout-long-[0-9]+ +sched:sched_process_exec'
	ok $? "200x50: the long exec shows" || diag "$(tmux_capture trw)"
	lacks_text trw 'old_pid='
	ok $? "200x50: its fields are cut (the path is longer than the column)"
	tmux_keys trw Right Right Right Right Right Right Right Right Right Right Right Right
	tmux_wait_text trw 3 'Event +Fields \[\+[0-9]+\]'
	ok $? "200x50: Right scrolls the fields, the title says how far" || diag "$(tmux_capture trw)"
	tmux_wait_text trw 3 'tt-layout-long pid=[0-9]+ old_pid=[0-9]+'
	ok $? "200x50: the end of the fields shows" || diag "$(tmux_capture trw)"
	tmux_keys trw Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left Left
	wait_for 3 lacks_text trw 'Fields \[\+'
	ok $? "200x50: Left scrolls back"
	tmux_keys trw i
	tmux_wait_text trw 3 'Details \(i or Esc closes\)'
	ok $? "200x50: i opens the detail popup"
	tmux_wait_text trw 2 'old_pid='
	ok $? "200x50: the popup holds every field, the path wrapped whole" || diag "$(tmux_capture trw)"
	[ "$(max_width trw)" -le 200 ]
	ok $? "200x50: nothing wider than 200 columns"
	tmux_kill
else
	skip "tracefs is not mounted at $TRACEFS" "Trace: Right, Left and i"
fi

# ---- a uprobe's arguments in the Trace pane at 80 columns
if [ -w "$TRACEFS/uprobe_events" ]; then
	tui_start ua 80 24 -d 0.5 --probe "$WORKLOADS/probed:probed_fn a b s" --view trace
	tmux_wait_text ua 10 '1 tracepoint on'
	ok $? "Trace with a uprobe with arguments" || diag "$(tmux_capture ua)"
	"$WORKLOADS/probed" 5 >/dev/null 2>&1
	# the arguments first, the probe's address after them (cut at 80)
	tmux_wait_text ua 10 'tracetop_[0-9]+:probed_fn +a=4 b=12 s="probed-string"'
	ok $? "80x24: the uprobe's arguments whole on its row (a=4 b=12 s=\"probed-string\")" ||
		diag "$(tmux_capture ua)"
	n=$(tmux_capture ua | grep -Ec 'tracetop_[0-9]+:probed_fn +a=[0-4] b=([0-9]|12) s="probed-string"')
	is "$n" 5 "80x24: the five calls, each with its arguments"
	tmux_keys ua i
	tmux_wait_text ua 3 'Fields: a=[0-9] b=[0-9]+ s="probed-string" \([0-9a-f]+\)'
	ok $? "80x24: i shows them in the popup, the probe's address last" || diag "$(tmux_capture ua)"
	[ "$(max_width ua)" -le 80 ]
	ok $? "80x24: nothing wider than 80 columns"
	tmux_kill
else
	skip "no writable uprobe_events in $TRACEFS" "a uprobe's arguments in the Trace pane at 80 columns"
fi
done_testing
