#!/bin/bash
# Grouping like perf's --sort: 500 processes of one command running the
# same function (the forkmany workload) make one row with their summed
# share by default (comm,dso,sym), one row per process with -s pid,sym; the
# Top pane's g key cycles the same way (a zoom into one of the merged
# processes splits by pid again); folded stacks follow the grouping;
# -g batch text prints each row's callers (the split workload's known
# paths main -> run_mix -> split_alpha); an unknown key is a usage error.
# Rows are ordered by their share whatever the keys (perf's --sort: the
# keys group), unless a key comes before the share (-s pid,overhead); -s pid alone counts
# the objects and functions a process's row merges. At 80x24 the
# grouping's key columns stay (PID, a TID column).
. "$(dirname "$0")/lib.sh"
need_built "$TRACETOP" "$WORKLOADS/forkmany" "$WORKLOADS/split"
need_root_perf

FM="$WORKLOADS/forkmany"

# rows_of FILE PY: evaluate PY over the last report's rows (rows, fm: the
# forkmany rows of fm_work, doc: the report) and print its value.
rows_of() {
	python3 - "$1" "$2" <<'PY'
import json, sys
doc = json.loads(open(sys.argv[1]).readlines()[-1])
rows = doc["rows"]
fm = [r for r in rows if r["comm"] == "forkmany" and r["symbol"] == "fm_work"]
print(eval(sys.argv[2]))
PY
}

# 1. By default: one row for the 500 processes, their shares summed.
timeout 30 "$TRACETOP" -b -d 1.5 -n 2 --format json -- "$FM" 4 500 \
	>"$TT_TMP/def.json" 2>"$TT_TMP/def.err"
ok $? "default grouping, JSON, 500 processes: exits 0" || diag "$(cat "$TT_TMP/def.err")"
is "$(rows_of "$TT_TMP/def.json" 'doc.get("group")')" "comm,dso,sym" "JSON names the grouping"
res=$(rows_of "$TT_TMP/def.json" \
	'len(fm) == 1 and fm[0]["processes"] >= 400 and fm[0]["overhead"] >= 40')
is "$res" True "fm_work is one row of >= 400 processes holding most samples"
diag "$(rows_of "$TT_TMP/def.json" '[(r["overhead"], r["processes"], r["pid"]) for r in fm]')"

# 2. -s pid,sym: one row per process, the shares adding up to about the same.
timeout 30 "$TRACETOP" -b -d 1.5 -n 2 -s pid,sym --format json -- "$FM" 4 500 \
	>"$TT_TMP/pid.json" 2>"$TT_TMP/pid.err"
ok $? "-s pid,sym, JSON: exits 0" || diag "$(cat "$TT_TMP/pid.err")"
is "$(rows_of "$TT_TMP/pid.json" 'doc.get("group")')" "pid,sym" "JSON names the grouping"
res=$(rows_of "$TT_TMP/pid.json" \
	'len(fm) >= 400 and len({r["pid"] for r in fm}) == len(fm) and all("processes" not in r for r in rows) and sum(r["overhead"] for r in fm) >= 40')
is "$res" True "fm_work is one row per process (>= 400 rows), their sum most samples"
diag "$(rows_of "$TT_TMP/pid.json" '(len(fm), round(sum(r["overhead"] for r in fm), 2))')"
# as perf's --sort: the keys group, the share orders
res=$(rows_of "$TT_TMP/pid.json" \
	'all(a["overhead"] >= b["overhead"] for a, b in zip(rows, rows[1:]))')
is "$res" True "... sorted by overhead, heaviest first (the keys only group)"
# a share named before the names still sorts them as given
timeout 30 "$TRACETOP" -b -d 1 -n 1 -s pid,overhead --format json -- "$FM" 2 100 \
	>"$TT_TMP/pidfirst.json" 2>/dev/null
res=$(rows_of "$TT_TMP/pidfirst.json" '[r["pid"] for r in rows] == sorted(r["pid"] for r in rows)')
is "$res" True "-s pid,overhead: sorted by pid, as perf sorts it"

# 3. Text: the merged row's PID is "-", per-process rows have theirs;
# with -s pid alone the objects and functions a process's row merges are
# counted, not shown as placeholders.
timeout 30 "$TRACETOP" -b -d 1 -n 1 -- "$FM" 2 200 >"$TT_TMP/def.txt" 2>/dev/null
like "$(cat "$TT_TMP/def.txt")" '% +[0-9]+ +forkmany +- +forkmany +\[\.\] fm_work$' \
	"text: the merged row shows - as its PID"
timeout 30 "$TRACETOP" -b -d 1 -n 1 -s pid -- "$FM" 2 200 >"$TT_TMP/ponly.txt" 2>/dev/null
ok $? "-s pid, text: exits 0"
fmrows=$(grep -E '% +[0-9]+ +forkmany +[0-9]+ ' "$TT_TMP/ponly.txt")
n=$(printf '%s\n' "$fmrows" | grep -c .)
within "$n" 100 201 "-s pid: a row per process, the parent too ($n)"
if printf '%s\n' "$fmrows" | grep -Eq ' - *$|\[[k.]\] +- *$| -  +(\[[k.]\])? '; then
	ok 1 "-s pid: no '-' placeholder for an object or a function"
	diag "$(printf '%s\n' "$fmrows" | grep -E ' - *$| -  ' | head -3)"
else
	ok 0 "-s pid: no '-' placeholder for an object or a function"
fi
like "$fmrows" '[0-9]+  +\(([2-9]|[1-9][0-9]+) objects\) +\(([2-9]|[1-9][0-9]+) functions\)$' \
	"-s pid: a process's row counts the objects and functions it merges"
like "$fmrows" '[0-9]+  +forkmany +\[\.\] fm_work$' "... and names the one a process ran alone"
order=$(printf '%s\n' "$fmrows" | awk '{ sub(/%/, "", $1); print $1 }')
is "$order" "$(sort -rn <<<"$order")" "-s pid: sorted by overhead, heaviest first"
timeout 30 "$TRACETOP" -b -d 1 -n 1 -s overhead,tid,sym -- "$FM" 2 200 \
	>"$TT_TMP/tid.txt" 2>/dev/null
like "$(cat "$TT_TMP/tid.txt")" '^ *Overhead +Samples +Command +PID +TID +Shared Object +Symbol$' \
	"text: -s tid adds a TID column"
n=$(grep -Ec '% +[0-9]+ +forkmany +[0-9]+ +[0-9]+ +forkmany +\[\.\] fm_work$' "$TT_TMP/tid.txt")
within "$n" 100 200 "text: -s overhead,tid,sym shows a row per thread ($n)"

# 4. Folded stacks follow the grouping: comm-PID roots when grouped by pid.
timeout 30 "$TRACETOP" -b -g -d 1 -n 1 -s pid,sym --format folded -- "$FM" 2 100 \
	>"$TT_TMP/pid.folded" 2>/dev/null
n=$(grep -E '^forkmany-[0-9]+;.*fm_work [0-9]+$' "$TT_TMP/pid.folded" | cut -d';' -f1 | sort -u | wc -l)
within "$n" 50 100 "folded -s pid,sym: fm_work stacks under forkmany-PID roots, one per process ($n)"
timeout 30 "$TRACETOP" -b -g -d 1 -n 1 --format folded -- "$FM" 2 100 \
	>"$TT_TMP/def.folded" 2>/dev/null
n=$(grep -Ec '^forkmany;.*fm_work [0-9]+$' "$TT_TMP/def.folded")
within "$n" 1 3 "folded by default: the processes' stacks merged under forkmany ($n)"

# 5. -g text: each row's callers as a tree (its lines indented 12 and more,
# no blank line: that ends a refresh), the known paths of split.
timeout 30 "$TRACETOP" -b -g -d 1 -n 1 -- "$WORKLOADS/split" 2 >"$TT_TMP/g.txt" 2>/dev/null
ok $? "-g text exits 0"
tree=$(awk '/\[\.\] split_alpha$/ { f = 1; next } f && !/^ {12}/ { exit } f' "$TT_TMP/g.txt")
like "$tree" '^ +---split_alpha$' "-g text: the split_alpha row's tree starts at it"
like "$tree" '^ +(\||`)--[0-9.]+%--run_mix$' "... called by run_mix"
like "$tree" '^ +.*--[0-9.]+%--main$' "... called by main"
pct=$(printf '%s\n' "$tree" | sed -nE 's/^ +(\||`)--([0-9.]+)%--run_mix$/\2/p' | head -1)
within "$pct" 40 60 "... run_mix's share is split_alpha's (~50 %): $pct"
timeout 30 "$TRACETOP" -b -g --max-stack 1 -d 1 -n 1 -- "$WORKLOADS/split" 2 \
	>"$TT_TMP/g1.txt" 2>/dev/null
tree=$(awk '/\[\.\] split_alpha$/ { f = 1; next } f && !/^ {12}/ { exit } f' "$TT_TMP/g1.txt")
like "$tree" '--max-stack 1' "--max-stack 1 cuts the tree after one level, saying so"
if printf '%s\n' "$tree" | grep -Eq -- '--main$'; then ok 1 "... main is not printed"; else ok 0 "... main is not printed"; fi

# A row merged without its symbol holds each stack once: with -g the
# command's row is 100 % inclusive, and the workload's own object holds
# every stack, its libc a share of them (not their functions' sum).
timeout 30 "$TRACETOP" -b -g --children -s comm -d 1 -n 1 --format json -- "$WORKLOADS/split" 2 \
	>"$TT_TMP/gc.json" 2>/dev/null
is "$(rows_of "$TT_TMP/gc.json" '[round(r["children"]) for r in rows if r["comm"] == "split"]')" "[100]" \
	"-g -s comm: the command's row is 100 % inclusive, not its functions' sum"
timeout 30 "$TRACETOP" -b -g --children -s dso -d 1 -n 1 --format json -- "$WORKLOADS/split" 2 \
	>"$TT_TMP/gd.json" 2>/dev/null
is "$(rows_of "$TT_TMP/gd.json" 'all(r["overhead"] - 0.01 <= r["children"] <= 100.01 for r in rows)')" True \
	"-g -s dso: every object's inclusive share between its self share and 100 %"
within "$(rows_of "$TT_TMP/gd.json" 'round(max(r["children"] for r in rows if r["dso"].endswith("/split")))')" 97 100 \
	"-g -s dso: the workload's object is on (nearly) every stack"

# 6. Bad keys: a usage error naming the key.
timeout 10 "$TRACETOP" -b -n 1 -s pid,bogus >"$TT_TMP/bad.out" 2>"$TT_TMP/bad.err"
is "$?" 2 "-s pid,bogus exits 2"
like "$(cat "$TT_TMP/bad.err")" "unknown sort key 'bogus' \(use .*tid" "... naming the key and the valid ones"

# 7. The Top pane: merged by default, g splits by pid, then by thread.
need_tmux
tui_start grp 200 50 -d 0.5 -- "$FM" 120 500
tmux_wait_text grp 15 'forkmany +- +forkmany +\[\.\] fm_work'
ok $? "Top: fm_work of 500 processes in one row, PID -" || diag "$(tmux_capture grp)"
# fm_work_share: the share on the screen of the merged fm_work row
fm_work_share() {
	tmux_capture grp | sed -nE 's/^ *([0-9.]+)%.* forkmany +- +forkmany +\[\.\] fm_work *$/\1/p' |
		head -n 1
}
merged_big() {
	awk -v s="$(fm_work_share)" 'BEGIN { exit !(s + 0 >= 40) }'
}
wait_for 15 merged_big
ok $? "... holding their summed share: $(fm_work_share) % (>= 40)" || diag "$(tmux_capture grp)"
is "$(tmux_capture grp | grep -Ec 'forkmany +[0-9-]+ +forkmany +\[\.\] fm_work')" 1 \
	"... and no other fm_work row on the screen"
tmux_keys grp g
tmux_wait_text grp 15 'Group: comm,pid,dso,sym'
ok $? "g: the header says the rows are grouped by pid" || diag "$(tmux_capture grp)"
count_pid_rows() {
	tmux_capture grp | grep -Ec 'forkmany +[0-9]+ +forkmany +\[\.\] fm_work'
}
many_pid_rows() {
	[ "$(count_pid_rows)" -ge 20 ]
}
wait_for 15 many_pid_rows
n=$(count_pid_rows)
within "$n" 20 100 "g: fm_work in one row per process ($n on the screen)"
# each process's row has its own small share (500 share the CPUs)
big=$(tmux_capture grp | sed -nE 's/^ *([0-9.]+)%.* forkmany +[0-9]+ +forkmany +\[\.\] fm_work *$/\1/p' |
	awk '$1 >= 5' | wc -l)
is "$big" 0 "g: no process's row holds 5 % or more (the share is split)"
pids=$(tmux_capture grp | sed -nE 's/.* forkmany +([0-9]+) +forkmany +\[\.\] fm_work *$/\1/p')
is "$(sort -u <<<"$pids" | wc -l)" "$(wc -l <<<"$pids")" "g: each row is another pid"
tmux_keys grp g
tmux_wait_text grp 15 'Group: comm,pid,tid,dso,sym'
ok $? "g again: grouped by thread" || diag "$(tmux_capture grp)"
for g in dso,sym comm comm,pid dso cgroup; do
	tmux_keys grp g
	tmux_wait_text grp 15 "Group: $g( |$)"
	ok $? "g: grouped by $g" || diag "$(tmux_capture grp)"
done
tmux_keys grp g
tmux_wait_text grp 15 'forkmany +- +forkmany +\[\.\] fm_work'
ok $? "g through the cycle: back to one row" || diag "$(tmux_capture grp)"
if tmux_capture grp | grep -q 'Group:'; then ok 1 "... and the header is back to the default"; else ok 0 "... and the header is back to the default"; fi
# a zoom into one of the merged processes splits its rows by pid again
tmux_keys grp F4
tmux_keys grp -l fm_work
tmux_keys grp Enter
tmux_keys grp Enter
tmux_wait_text grp 15 'Zoom into process [0-9]+ \(forkmany, the busiest of [0-9]+\)'
ok $? "the merged row's menu offers its busiest process" || diag "$(tmux_capture grp)"
# (the menu is live: the busiest process may change before Enter lands, so
# the zoom's pid is read from the header, not from the menu)
tmux_keys grp Enter
tmux_wait_text grp 15 "Zoom: pid [0-9]+"
ok $? "zoomed into the process" || diag "$(tmux_capture grp)"
zpid=$(tmux_capture grp | sed -nE 's/.*Zoom: pid ([0-9]+).*/\1/p' | head -n 1)
tmux_wait_text grp 15 "forkmany +$zpid +forkmany +\[\.\] fm_work"
ok $? "... its row shows its pid: split by process within the zoom" || diag "$(tmux_capture grp)"
tmux_keys grp q
tmux_wait_text grp 15 'exit=0'
ok $? "q exits with status 0"
tmux_kill

# 8. At 80x24 with -g (two bars): the grouping's key columns stay, so the
# per-process and per-thread rows never look alike.
tui_start g80 80 24 -g -d 0.5 -- "$FM" 120 500
tmux_wait_text g80 15 'fm_work'
tmux_keys g80 g
tmux_wait_text g80 15 'Group: comm,pid,'
pid_rows80() {
	tmux_capture g80 | grep -Ec '% +forkmany +[0-9]+ +forkmany +\[\.\] fm_work *$'
}
wait_for 15 eval '[ "$(pid_rows80)" -ge 5 ]'
ok $? "80x24 -g grouped by pid: the PID column stays ($(pid_rows80) fm_work rows with theirs)" ||
	diag "$(tmux_capture g80)"
titles80=$(tmux_capture g80 | grep -E '^ *Children')
like "$titles80" 'Command +PID +Shared Object' "... between Command and Shared Object"
tmux_keys g80 g
tmux_wait_text g80 15 'Group: comm,pid,ti'
tid_rows80() {
	# (the [.] marker, the least of the keys, gives way to TID here)
	tmux_capture g80 | grep -Ec '% +forkmany +[0-9]+ +[0-9]+ +forkmany +(\[\.\] )?fm_work *$'
}
wait_for 15 eval '[ "$(tid_rows80)" -ge 5 ]'
ok $? "80x24 -g grouped by tid: a TID column beside PID ($(tid_rows80) rows)" ||
	diag "$(tmux_capture g80)"
like "$(tmux_capture g80 | grep -E '^ *Children')" 'PID +TID' "... titled TID"
screen80=$(tmux_capture g80)
# (rows whose symbol is cut with an ellipsis aside: two long names may
# share the part that shows, the key columns are what is checked)
dups=$(grep -E '% +forkmany ' <<<"$screen80" | grep -v '…' |
	sed -E 's/^ *[0-9.]+% *[^ ]* *[0-9.]+% *//' | sort | uniq -d)
is "$(grep -c . <<<"$dups")" 0 "80x24: no two rows read the same once their shares are set aside" ||
	diag "$dups" "$screen80"
[ "$(max_width g80)" -le 80 ]
ok $? "nothing wider than 80 columns"
tmux_keys g80 q
tmux_wait_text g80 15 'exit=0'
ok $? "q exits with status 0"
done_testing
