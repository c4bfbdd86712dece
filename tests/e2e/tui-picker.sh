#!/bin/bash
# The pickers take what the event parser takes, typed as it is: in the
# Counters pane `minor-faults:u` (a modifier no catalog entry spells out)
# is offered "as typed" and counts; a spec the parser refuses says why on
# Enter and the picker stays open; the catalog lists what this machine
# counts first and marks the rest with why. In the Trace checklist an
# event that is not a tracepoint is refused with the reason.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP"
need_tmux
need_root_perf

tui_start pk 120 40 -d 0.5 --view counters
tmux_wait_text pk 10 'Scope: total'
ok $? "--view counters starts on the Counters pane"

# ---------------------------------------------------------------- the order
tmux_keys pk a
tmux_wait_text pk 5 'Count an event'
ok $? "a opens the event picker"
# the first listed is a software event, never one this machine cannot count
software=$("$TRACETOP" --list-events | sed -n '/^Software events:/,/^$/p' | awk 'NF { print $1 }')
first=$(tmux_capture pk | grep -A1 '│ > ' | tail -n 1 | sed -E 's/^[^│]*│ ([^ ]+).*/\1/')
printf '%s\n' "$software" | grep -qx -- "$first"
ok $? "the first listed is a software event ($first)" || diag "$(tmux_capture pk)"
lacks_text pk '│ (cycles|instructions|branch-misses|L1-dcache-loads) .*not supported'
ok $? "no unsupported event among the first rows" || diag "$(tmux_capture pk)"
tmux_keys pk -l 'cycles'
if tmux_wait_text pk 3 '│ cycles +\[not supported: '; then
	ok 0 "an event this machine cannot count is marked with why"
else
	tmux_wait_text pk 1 '│ cycles *│'
	ok $? "cycles listed plain: this machine counts it"
fi
tmux_keys pk C-u

# ---------------------------------------------------------------- as typed
tmux_keys pk -l 'minor-faults:u'
tmux_wait_text pk 3 '│ minor-faults:u +\(as typed\)'
ok $? "minor-faults:u is offered as typed" || diag "$(tmux_capture pk)"
tmux_keys pk Enter
tmux_wait_text pk 3 'counting minor-faults:u'
ok $? "Enter counts it"
# user-space page faults: make some, until a refresh shows a count
counted() {
	ls / >/dev/null
	tmux_capture pk | grep -Eq '^ *total +minor-faults:u +[1-9][0-9,]* '
}
wait_for 10 counted
ok $? "minor-faults:u counts" || diag "$(tmux_capture pk)"

# ---------------------------------------------------------------- refused
tmux_keys pk a
tmux_wait_text pk 5 'Count an event'
tmux_keys pk -l 'minor-faults:q'
tmux_keys pk Enter
tmux_wait_text pk 3 "nothing matches 'minor-faults:q', and as an event: .*'q'"
ok $? "an unknown modifier: Enter says the parser's reason" || diag "$(tmux_capture pk)"
tmux_wait_text pk 1 'Count an event'
ok $? "the picker stays open to fix it"
tmux_keys pk C-u
tmux_keys pk -l 'zzqqxx'
tmux_keys pk Enter
tmux_wait_text pk 3 "nothing matches 'zzqqxx'"
ok $? "a name matching nothing: Enter says so"
tmux_keys pk Escape
tmux_wait_text pk 3 'minor-faults:u'
ok $? "Esc closes it; the counter stays"

# ---------------------------------------------------------------- Trace
tmux_keys pk Tab
tmux_wait_text pk 5 'tracepoints? on'
tmux_keys pk a
tmux_wait_text pk 5 'Tracepoints \(Space'
ok $? "a opens the tracepoint checklist"
tmux_keys pk -l 'minor-faults:u'
tmux_keys pk Enter
tmux_wait_text pk 3 "nothing matches 'minor-faults:u': it is an event, not a tracepoint"
ok $? "an event that is no tracepoint is refused, saying why" || diag "$(tmux_capture pk)"
tmux_keys pk Escape q
tmux_wait_text pk 10 '^exit=0'
ok $? "q quits cleanly"

tmux_kill
done_testing
