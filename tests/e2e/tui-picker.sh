#!/bin/bash
# The pickers take what the event parser takes, typed as it is, at 80x24
# and at 200x50: in the Counters pane `minor-faults:u` (a modifier no
# catalog entry spells out) is offered "as typed" and counts; a spec the
# parser refuses says why on Enter and the picker stays open; the catalog
# lists what this machine counts first, with a query too, and marks the
# rest with why; choosing one of those is refused with the kernel's
# reason, no row added. In the Trace checklist an event that is not a
# tracepoint is refused with the reason.
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP"
need_tmux
need_root_perf

# picker COLS ROWS: the pickers on a COLS x ROWS screen.
picker() {
	local cols=$1 rows=$2 software first
	tui_start pk "$cols" "$rows" -d 0.5 --view counters
	tmux_wait_text pk 10 'Scope: total'
	ok $? "$cols x $rows: --view counters starts on the Counters pane"

	# ---------------------------------------------------------------- the order
	tmux_keys pk a
	tmux_wait_text pk 5 'Count an event'
	ok $? "$cols x $rows: a opens the event picker"
	# the first listed is a software event, never one this machine cannot count
	software=$("$TRACETOP" --list-events | sed -n '/^Software events:/,/^$/p' | awk 'NF { print $1 }')
	first=$(tmux_capture pk | grep -A1 '│ > ' | tail -n 1 | sed -E 's/^[^│]*│ ([^ ]+).*/\1/')
	printf '%s\n' "$software" | grep -qx -- "$first"
	ok $? "$cols x $rows: the first listed is a software event ($first)" || diag "$(tmux_capture pk)"
	lacks_text pk '│ (cycles|instructions|branch-misses|L1-dcache-loads) .*not supported'
	ok $? "$cols x $rows: no unsupported event among the first rows" || diag "$(tmux_capture pk)"
	# with a query: what counts here first (a tracepoint's scattered match
	# before cycles' prefix when cycles cannot count)
	tmux_keys pk -l 'cycl'
	tmux_wait_text pk 3 '│ > cycl'
	first=$(tmux_capture pk | grep -A1 '│ > cycl' | tail -n 1 | sed -E 's/^[^│]*│ ([^│]*[^ │]) *│.*/\1/')
	case "$first" in
	*"not supported"*) ok 1 "$cols x $rows: with a query, a supported match first" ;;
	*) ok 0 "$cols x $rows: with a query, a supported match first ($first)" ;;
	esac
	tmux_keys pk C-u
	tmux_keys pk -l 'cycles'
	if tmux_wait_text pk 3 '│ cycles +\[not supported'; then
		ok 0 "$cols x $rows: an event this machine cannot count is marked with why"
		# chosen anyway (its whole line typed: only it matches): refused
		tmux_keys pk -l '  [not'
		tmux_wait_text pk 3 '│ > cycles  \[not'
		tmux_keys pk Enter
		tmux_wait_text pk 3 'cannot count cycles here: not supported'
		ok $? "$cols x $rows: choosing it is refused with the reason" || diag "$(tmux_capture pk)"
		lacks_text pk '^ *total +cycles '
		ok $? "$cols x $rows: ... and no row that never counts is added" || diag "$(tmux_capture pk)"
		tmux_keys pk a
		tmux_wait_text pk 5 'Count an event'
	else
		tmux_wait_text pk 1 '│ cycles *│'
		ok $? "$cols x $rows: cycles listed plain: this machine counts it"
		skip "this machine counts cycles" "choosing an event it cannot count is refused"
		skip "this machine counts cycles" "... and no row is added"
		tmux_keys pk C-u
	fi

	# ---------------------------------------------------------------- as typed
	tmux_keys pk -l 'minor-faults:u'
	tmux_wait_text pk 3 '│ minor-faults:u +\(as typed\)'
	ok $? "$cols x $rows: minor-faults:u is offered as typed" || diag "$(tmux_capture pk)"
	tmux_keys pk Enter
	tmux_wait_text pk 3 'counting minor-faults:u'
	ok $? "$cols x $rows: Enter counts it"
	# user-space page faults: make some, until a refresh shows a count
	counted() {
		ls / >/dev/null
		tmux_capture pk | grep -Eq '^ *total +minor-faults:u +[1-9][0-9,]* '
	}
	wait_for 10 counted
	ok $? "$cols x $rows: minor-faults:u counts" || diag "$(tmux_capture pk)"

	# ---------------------------------------------------------------- refused
	tmux_keys pk a
	tmux_wait_text pk 5 'Count an event'
	tmux_keys pk -l 'minor-faults:q'
	tmux_keys pk Enter
	tmux_wait_text pk 3 "nothing matches 'minor-faults:q', and as an event: .*'q'"
	ok $? "$cols x $rows: an unknown modifier: Enter says the parser's reason" || diag "$(tmux_capture pk)"
	tmux_wait_text pk 1 'Count an event'
	ok $? "$cols x $rows: the picker stays open to fix it"
	tmux_keys pk C-u
	tmux_keys pk -l 'zzqqxx'
	tmux_keys pk Enter
	tmux_wait_text pk 3 "nothing matches 'zzqqxx'"
	ok $? "$cols x $rows: a name matching nothing: Enter says so"
	tmux_keys pk Escape
	tmux_wait_text pk 3 'minor-faults:u'
	ok $? "$cols x $rows: Esc closes it; the counter stays"

	# ---------------------------------------------------------------- Trace
	tmux_keys pk Tab
	tmux_wait_text pk 5 'tracepoints? on'
	tmux_keys pk a
	tmux_wait_text pk 5 'Tracepoints \(Space'
	ok $? "$cols x $rows: a opens the tracepoint checklist"
	tmux_keys pk -l 'minor-faults:u'
	tmux_keys pk Enter
	tmux_wait_text pk 3 "nothing matches 'minor-faults:u': it is an event, not a tracepoint"
	ok $? "$cols x $rows: an event that is no tracepoint is refused, saying why" || diag "$(tmux_capture pk)"
	tmux_keys pk Escape q
	tmux_wait_text pk 10 '^exit=0'
	ok $? "$cols x $rows: q quits cleanly"
	tmux_kill
}

picker 80 24
picker 200 50
done_testing
